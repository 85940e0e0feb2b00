//! Properties over random positions: the bitboards against a cell-by-cell
//! implementation, alpha-beta against minimax, and the shape of every log.

mod common;

use common::{naive_flips, naive_moves, playout};
use proptest::prelude::*;
use reversi::board::{Board, Square, Squares};
use reversi::course_search::{search, LeafRule, NoTrace, SearchParams};
use reversi::eval::{Cs561, Evaluation};
use reversi::format::cs561::{self, Dialect};
use reversi::format::{LineEnd, Style};

/// A reachable position: up to 60 random moves from the start.
fn positions() -> impl Strategy<Value = Board> {
    prop::collection::vec(any::<u8>(), 0..60).prop_map(|choices| playout(&choices))
}

/// Two disjoint random disc sets, reachable or not.
fn arbitrary_boards() -> impl Strategy<Value = Board> {
    (any::<u64>(), any::<u64>()).prop_map(|(a, b)| Board {
        own: a & !b,
        opp: b & !a,
    })
}

fn leaf_rules() -> impl Strategy<Value = LeafRule> {
    prop_oneof![
        Just(LeafRule::PassAfterPass),
        Just(LeafRule::GameOverOrSecondPass)
    ]
}

/// Plain minimax written from SPEC.md, independent of the library's search: the
/// root value and the root's first strictly best move.
fn reference_minimax(board: Board, depth: u32, rule: LeafRule) -> (i32, Option<u32>) {
    fn value(
        board: Board,
        depth: u32,
        limit: u32,
        rule: LeafRule,
        path: &[bool],
        max: bool,
    ) -> (i32, Option<u32>) {
        let passes_in_a_row = path.iter().rev().take_while(|&&p| p).count();
        let passes = path.iter().filter(|&&p| p).count();
        let full = board.own | board.opp == u64::MAX;
        let leaf = depth == limit
            || match rule {
                LeafRule::PassAfterPass => passes_in_a_row >= 2,
                LeafRule::GameOverOrSecondPass => {
                    passes >= 2 || full || board.own == 0 || board.opp == 0
                }
            };
        if leaf {
            let (a, b) = if max {
                (board.own, board.opp)
            } else {
                (board.opp, board.own)
            };
            return (Cs561.score(a, b), None);
        }
        let moves = naive_moves(board);
        let children: Vec<(Option<u32>, Board, bool)> = if moves == 0 {
            vec![(
                None,
                Board {
                    own: board.opp,
                    opp: board.own,
                },
                true,
            )]
        } else {
            (0..64)
                .filter(|i| moves >> i & 1 == 1)
                .map(|i| {
                    let flips = naive_flips(board, i);
                    let next = Board {
                        own: board.opp & !flips,
                        opp: board.own | flips | 1 << i,
                    };
                    (Some(i), next, false)
                })
                .collect()
        };
        let mut best: Option<(i32, Option<u32>)> = None;
        for (mv, child, is_pass) in children {
            let mut child_path = path.to_vec();
            child_path.push(is_pass);
            let (v, _) = value(child, depth + 1, limit, rule, &child_path, !max);
            let better = match best {
                None => true,
                Some((b, _)) => (max && v > b) || (!max && v < b),
            };
            if better {
                best = Some((v, mv));
            }
        }
        best.unwrap()
    }
    value(board, 0, depth, rule, &[], true)
}

/// Checks the traverse log's shape: header, columns, depth steps of one, and each
/// node printed once plus once per child it visited.
fn check_log_shape(log: &[&str], columns: usize) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        log[0],
        if columns == 5 {
            "Node,Depth,Value,Alpha,Beta"
        } else {
            "Node,Depth,Value"
        }
    );
    // Open nodes from the root down: (name, prints, children visited).
    let mut open: Vec<(String, usize, usize)> = Vec::new();
    let mut previous_depth: Option<usize> = None;
    for line in &log[1..] {
        let fields: Vec<&str> = line.split(',').collect();
        prop_assert_eq!(fields.len(), columns, "line {:?}", line);
        for value in &fields[2..] {
            prop_assert!(
                matches!(*value, "Infinity" | "-Infinity") || value.parse::<i32>().is_ok(),
                "value {:?}",
                value
            );
        }
        let depth: usize = fields[1].parse().unwrap();
        if let Some(previous) = previous_depth {
            prop_assert!(
                depth + 1 == previous || depth == previous + 1,
                "depth jump at {:?}",
                line
            );
        }
        previous_depth = Some(depth);
        if depth == open.len() {
            if let Some(parent) = open.last_mut() {
                parent.2 += 1;
            }
            open.push((fields[0].to_string(), 1, 0));
        } else {
            let (_, prints, children) = open.pop().unwrap();
            prop_assert_eq!(prints, 1 + children);
            let parent = open.last_mut().unwrap();
            prop_assert_eq!(&parent.0, fields[0]);
            parent.1 += 1;
        }
    }
    while let Some((name, prints, children)) = open.pop() {
        prop_assert_eq!(prints, 1 + children, "node {}", name);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn moves_and_flips_match_a_cell_by_cell_implementation(board in arbitrary_boards()) {
        prop_assert_eq!(board.moves(), naive_moves(board));
        for index in 0..64u8 {
            let square = Square::from_index(index);
            if (board.own | board.opp) & square.bit() == 0 {
                prop_assert_eq!(board.flips(square), naive_flips(board, index as u32));
            }
        }
    }

    #[test]
    fn reachable_positions_move_and_flip_correctly(board in positions()) {
        prop_assert_eq!(board.moves(), naive_moves(board));
        for square in Squares(board.moves()) {
            let after = board.play(square);
            prop_assert_eq!(after.own & after.opp, 0);
            prop_assert_eq!(after.opp, board.own | board.flips(square) | square.bit());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn alpha_beta_agrees_with_minimax(board in positions(), depth in 0u32..5, rule in leaf_rules()) {
        let alpha_beta = search(board, SearchParams { depth, leaf_rule: rule, pruning: true }, &Cs561, &mut NoTrace);
        let minimax = search(board, SearchParams { depth, leaf_rule: rule, pruning: false }, &Cs561, &mut NoTrace);
        let (value, best) = reference_minimax(board, depth, rule);
        prop_assert_eq!(minimax.value, value);
        prop_assert_eq!(alpha_beta.value, value);
        prop_assert_eq!(minimax.best.map(|s| s.index() as u32), best);
        prop_assert_eq!(alpha_beta.best.map(|s| s.index() as u32), best, "next board is minimax's first best child");
    }

    #[test]
    fn every_log_is_well_formed(
        board in positions(),
        depth in 0u32..5,
        dialect in prop_oneof![Just("s2017"), Just("s2017-jan"), Just("f2014-2"), Just("f2014-3")],
        o_to_move in any::<bool>(),
    ) {
        let (x, o) = if o_to_move { (board.opp, board.own) } else { (board.own, board.opp) };
        let player = if o_to_move { "O" } else { "X" };
        let head = match dialect {
            "f2014-2" => "2\n".to_string(),
            "f2014-3" => "3\n".to_string(),
            _ => String::new(),
        };
        let text = format!("{head}{player}\n{depth}\n{}", common::board_text(x, o));
        let forced = (dialect == "s2017-jan").then_some(Dialect::S2017Jan);
        let problem = cs561::parse(text.as_bytes(), forced).unwrap();
        let mut file = std::io::Cursor::new(Vec::new());
        cs561::write_output(&problem, Style { line_end: LineEnd::Crlf, final_newline: false }, &mut file).unwrap();
        let bytes = file.into_inner();
        prop_assert!(!bytes.ends_with(b"\n"));
        let text = String::from_utf8(bytes).unwrap();
        prop_assert!(!text.replace("\r\n", "").contains(['\r', '\n']), "every line ends in CRLF");
        let lines: Vec<&str> = text.split("\r\n").collect();
        let board_rows = &lines[..8];
        prop_assert!(board_rows.iter().all(|r| r.len() == 8));
        check_log_shape(&lines[8..], if dialect == "f2014-2" { 3 } else { 5 })?;
    }
}

/// Text that looks like an input: the right characters, in lines, with noise.
fn input_like() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            Just(b"X".to_vec()),
            Just(b"O".to_vec()),
            Just(b"*".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\n".to_vec()),
            Just(b" ".to_vec()),
            Just(b"3".to_vec()),
            Just(b"********".to_vec()),
            any::<u8>().prop_map(|b| vec![b]),
        ],
        0..120,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any bytes give a problem or a typed error, never a panic; and an accepted
    /// input's board round-trips through the output's board lines.
    #[test]
    fn the_parser_never_panics(bytes in prop_oneof![input_like(), prop::collection::vec(any::<u8>(), 0..300)]) {
        for dialect in [None, Some(Dialect::S2017Jan), Some(Dialect::F2014)] {
            if let Ok(problem) = cs561::parse(&bytes, dialect) {
                let lines = cs561::board_lines(problem.x_discs, problem.o_discs, LineEnd::Lf);
                let reparsed = cs561::parse(format!("X\n1\n{}", String::from_utf8(lines).unwrap()).as_bytes(), None).unwrap();
                prop_assert_eq!((reparsed.x_discs, reparsed.o_discs), (problem.x_discs, problem.o_discs));
            }
        }
    }
}

proptest! {
    /// Blank lines, spaces, tabs, CRLF or LF, a byte-order mark and a final newline
    /// change nothing.
    #[test]
    fn layout_does_not_matter(
        board in positions(),
        depth in 0u32..20,
        o_to_move in any::<bool>(),
        layout in prop::collection::vec((0usize..3, 0usize..3, 0usize..3, any::<bool>()), 10),
        bom in any::<bool>(),
        final_newline in any::<bool>(),
    ) {
        let player = if o_to_move { "O" } else { "X" };
        let tidy = format!("{player}\n{depth}\n{}", common::board_text(board.own, board.opp));
        let mut messy = if bom { "\u{feff}".to_string() } else { String::new() };
        for (line, &(blank_before, spaces_before, spaces_after, crlf)) in tidy.lines().zip(&layout) {
            let eol = if crlf { "\r\n" } else { "\n" };
            messy += &eol.repeat(blank_before);
            messy += &" \t".repeat(spaces_before);
            messy += line;
            messy += &" ".repeat(spaces_after);
            messy += eol;
        }
        if !final_newline {
            messy.truncate(messy.trim_end_matches(['\r', '\n']).len());
        }
        prop_assert_eq!(cs561::parse(messy.as_bytes(), None), cs561::parse(tidy.as_bytes(), None));
        prop_assert!(cs561::parse(tidy.as_bytes(), None).is_ok());
    }
}
