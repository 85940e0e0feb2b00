//! Every sentence true: each claim about values that `check` makes in an explanation
//! ("c3 = -3 <= alpha -3", "c4 is a MIN node and its value -3 <= alpha -3", "c4 (MIN)
//! has value -3 <= alpha -3") holds in the expected tree at the node it names, over
//! random positions, faults of the catalogue and deleted lines; and the claims about
//! nodes that the faults read in published programs make (a node with no legal move,
//! a game over, a move bracketing several directions) hold there too.

mod common;

use common::{board_text, playout};
use proptest::prelude::*;
use reversi::explain::check::{check, check_with_input, Report};
use reversi::explain::log::{self, Entry, LOG_START};
use reversi::explain::mistake::Mistake;
use reversi::explain::mutants::{self, Faults};
use reversi::explain::replay::Position;
use reversi::format::cs561::{self, Dialect, Problem};
use reversi::format::Style;

/// A claim `name ... v OP bound b` read from an explanation.
#[derive(Debug)]
struct Claim {
    /// The node the values are claimed of.
    name: String,
    /// A child whose value is claimed equal to `v` (the `c3 = -3` form).
    child: Option<String>,
    /// MIN (`<= alpha`) or MAX (`>= beta`), when the sentence says it.
    kind: Option<String>,
    value: i32,
    bound: i32,
    min: bool,
}

fn number(word: &str) -> Option<i32> {
    log::parse_value(word.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ':' | '.')))
}

fn bare(word: &str) -> String {
    word.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ':' | '.' | '`'))
        .to_string()
}

/// The claims about values in a text.
fn claims(text: &str, node: &str) -> Vec<Claim> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let last = node.rsplit(" > ").next().unwrap_or("").to_string();
    let mut out = Vec::new();
    for k in 1..words.len().saturating_sub(2) {
        let min = match (words[k], bare(words[k + 1]).as_str()) {
            ("<=", "alpha") => true,
            (">=", "beta") => false,
            _ => continue,
        };
        let (Some(value), Some(bound)) = (number(words[k - 1]), number(words[k + 2])) else {
            continue;
        };
        let word = |i: Option<usize>| i.and_then(|i| words.get(i)).map(|w| bare(w));
        let claim = if word(k.checked_sub(2)).as_deref() == Some("=") {
            Claim {
                name: last.clone(),
                child: word(k.checked_sub(3)),
                kind: None,
                value,
                bound,
                min,
            }
        } else if word(k.checked_sub(2)).as_deref() == Some("value")
            && word(k.checked_sub(3)).as_deref() == Some("its")
        {
            Claim {
                name: word(k.checked_sub(9)).unwrap_or_default(),
                child: None,
                kind: word(k.checked_sub(6)),
                value,
                bound,
                min,
            }
        } else if word(k.checked_sub(2)).as_deref() == Some("value")
            && word(k.checked_sub(3)).as_deref() == Some("has")
        {
            Claim {
                name: word(k.checked_sub(5)).unwrap_or_default(),
                child: None,
                kind: word(k.checked_sub(4)),
                value,
                bound,
                min,
            }
        } else {
            panic!("a value claim of an unknown form in: {text}");
        };
        out.push(claim);
    }
    out
}

/// Whether the expected log holds the claim: a print of the node (on the path of
/// the difference) with that value and bound, of the kind the bound says, the
/// inequality true, and the child's value that value.
fn holds(claim: &Claim, expected: &[String], node: &str) -> bool {
    let entries: Vec<Entry> = expected
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect();
    let path: Vec<&str> = node.split(" > ").collect();
    (0..entries.len()).any(|i| {
        let e = &entries[i];
        let at = log::path_at(&entries, i);
        let on_path = path.starts_with(&at) || at.starts_with(&path);
        let bound = if claim.min { e.alpha() } else { e.beta() };
        let kind_right = e.is_max() != claim.min
            && claim
                .kind
                .as_deref()
                .is_none_or(|k| k == if e.is_max() { "MAX" } else { "MIN" });
        let true_inequality = if claim.min {
            claim.value <= claim.bound
        } else {
            claim.value >= claim.bound
        };
        let child_right = claim.child.as_deref().is_none_or(|child| {
            i > 0 && entries[i - 1].name == child && entries[i - 1].value() == Some(claim.value)
        });
        e.name == claim.name
            && on_path
            && e.value() == Some(claim.value)
            && bound == Some(claim.bound)
            && kind_right
            && true_inequality
            && child_right
    })
}

fn check_claims(report: &Report, expected: &[u8]) -> Result<usize, TestCaseError> {
    let Some(difference) = &report.difference else {
        return Ok(0);
    };
    let node = difference.node.clone().unwrap_or_default();
    let lines: Vec<String> = String::from_utf8_lossy(expected)
        .split("\r\n")
        .map(str::to_string)
        .collect();
    let mut texts = vec![difference.explanation.clone()];
    texts.extend(report.candidates.iter().map(|c| c.evidence.clone()));
    let mut count = 0;
    for text in &texts {
        for claim in claims(text, &node) {
            prop_assert!(
                holds(&claim, &lines, &node),
                "{claim:?} is not true of the expected tree at {node}:\n{report}"
            );
            count += 1;
        }
    }
    Ok(count)
}

/// The faults whose explanations speak of values at a cut-off, or of cut-off tests.
const FAULTS: [Mistake; 7] = [
    Mistake::StrictPruning,
    Mistake::UpdateBeforeCutoff,
    Mistake::NoLineAtCutoff,
    Mistake::NoPruning,
    Mistake::FailHard,
    Mistake::ExpandsAtCutoffDepth,
    Mistake::HandWrittenGameOver,
];

fn problem(choices: &[u8], depth: u32, o: bool) -> Option<Problem> {
    let board = playout(choices);
    let input = format!(
        "{}\n{depth}\n{}\n",
        if o { 'O' } else { 'X' },
        board_text(board.own, board.opp)
    );
    cs561::parse(input.as_bytes(), None).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_value_claim_holds_in_the_expected_tree(
        choices in prop::collection::vec(any::<u8>(), 0..40),
        depth in 1u32..4,
        o in any::<bool>(),
        fault in 0..FAULTS.len() + 1,
        delete in any::<prop::sample::Index>(),
    ) {
        let Some(problem) = problem(&choices, depth, o) else { return Ok(()) };
        let style = Style::default();
        let Some(expected) = mutants::write(&problem, style, Faults::NONE, 3000) else {
            return Ok(());
        };
        let actual = if fault < FAULTS.len() {
            match mutants::write(&problem, style, Faults::one(FAULTS[fault]), 3000) {
                Some(actual) => actual,
                None => return Ok(()),
            }
        } else {
            // One log line deleted.
            let text = String::from_utf8(expected.clone()).unwrap();
            let mut lines: Vec<&str> = text.split("\r\n").collect();
            if lines.len() <= LOG_START + 1 {
                return Ok(());
            }
            let at = LOG_START + 1 + delete.index(lines.len() - LOG_START - 1);
            lines.remove(at);
            lines.join("\r\n").into_bytes()
        };
        if actual == expected {
            return Ok(());
        }
        check_claims(&check(&expected, &actual, false), &expected)?;
        check_claims(&check_with_input(&expected, &actual, false, Some(&problem)), &expected)?;
    }
}

#[test]
fn the_claims_of_the_handouts_cutoff_are_read_and_hold() {
    let root = format!(
        "{}/testcases/handout/s2017-example",
        env!("CARGO_MANIFEST_DIR")
    );
    let expected = std::fs::read(format!("{root}/output.txt")).unwrap();
    let text = String::from_utf8(expected.clone()).unwrap();
    let actual = text.replacen("c4,1,-3,-3,Infinity\r\n", "", 1);
    let report = check(&expected, actual.as_bytes(), false);
    assert_eq!(check_claims(&report, &expected).unwrap(), 1, "{report}");
    let wrong = text.replacen(
        "c4,1,-3,-3,Infinity\r\n",
        "c4,1,-3,-3,-3\r\ne3,2,0,-3,-3\r\nc4,1,-3,-3,-3\r\n",
        1,
    );
    let report = check(&expected, wrong.as_bytes(), false);
    assert_eq!(check_claims(&report, &expected).unwrap(), 1, "{report}");
    // A claim that is false of the tree is caught.
    let lines: Vec<String> = text.split("\r\n").map(str::to_string).collect();
    let false_claim = &claims("c4 (MIN) has value -3 <= alpha -5", "root > c4")[0];
    assert!(!holds(false_claim, &lines, "root > c4"));
}

/// The values the root's grandchildren return in a log (a depth-2 line followed by a
/// depth-1 line), and those of the root's moves that are leaves, by root move in order.
fn grandchild_returns(expected: &[String]) -> Vec<(String, Vec<i32>)> {
    let entries: Vec<Entry> = expected
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect();
    let mut out: Vec<(String, Vec<i32>)> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let next = entries.get(i + 1).and_then(|n| n.depth);
        match e.depth {
            Some(1) if log::is_first_print(&entries, i) && e.name != "pass" => {
                let own = if next == Some(0) { e.value() } else { None };
                out.push((e.name.to_string(), own.into_iter().collect()));
            }
            Some(2) if next == Some(1) => {
                if let (Some(last), Some(v)) = (out.last_mut(), e.value()) {
                    last.1.push(v);
                }
            }
            _ => {}
        }
    }
    out
}

/// The words after `marker` in `text`, up to `end`.
fn after<'t>(text: &'t str, marker: &str, end: char) -> Option<&'t str> {
    let start = text.find(marker)? + marker.len();
    let rest = &text[start..];
    Some(&rest[..rest.find(end).unwrap_or(rest.len())])
}

/// The claims of the sentences about the next board kept by a grandchild, a pass at
/// MIN and a full board hold in the expected tree: the greatest value a grandchild
/// returns and the root move it is first under; the side with no move at a MIN node;
/// the board that is full.
fn check_tree_claims(report: &Report, expected: &[u8], problem: &Problem) -> usize {
    let lines: Vec<String> = String::from_utf8_lossy(expected)
        .split("\r\n")
        .map(str::to_string)
        .collect();
    let mut texts: Vec<String> = report
        .candidates
        .iter()
        .map(|c| c.evidence.clone())
        .collect();
    texts.extend(report.difference.iter().map(|d| d.explanation.clone()));
    let root = Position::root(problem);
    let mut count = 0;
    for text in &texts {
        if let Some(claim) = after(
            text,
            "the greatest value a grandchild of the root returns is ",
            ',',
        ) {
            let value: i32 = claim.parse().unwrap();
            let under = after(text, "first under ", ',').unwrap();
            let returns = grandchild_returns(&lines);
            let greatest = returns.iter().flat_map(|(_, v)| v.iter().copied()).max();
            assert_eq!(greatest, Some(value), "{text}");
            let first = returns.iter().find(|(_, v)| v.contains(&value)).unwrap();
            assert_eq!(first.0, under, "{text}");
            count += 1;
        }
        if let Some(at) = after(text, " has no legal move at ", ',') {
            let passer = text[..text.find(" has no legal move at ").unwrap()]
                .chars()
                .last()
                .unwrap();
            let path: Vec<&str> = at.split(" > ").collect();
            let position = root.at(&path).unwrap();
            assert_eq!(position.board.moves(), 0, "{text}");
            assert_eq!(char::from(position.player.symbol()), passer, "{text}");
            assert!(path.len().is_multiple_of(2), "a MIN node: {text}");
            count += 1;
        }
        if let Some(name) =
            after(text, "he board at ", ' ').filter(|_| text.contains(" is full, so"))
        {
            let node = report.difference.as_ref().and_then(|d| d.node.clone());
            let node = node.unwrap_or_default();
            assert!(node.ends_with(name), "{text}");
            let path: Vec<&str> = node.split(" > ").collect();
            let board = root.at(&path).unwrap().board;
            assert_eq!(board.own | board.opp, u64::MAX, "{text}");
            count += 1;
        }
    }
    count
}

/// The faults whose sentences speak of the tree's shape and boards.
const TREE_FAULTS: [Mistake; 3] = [
    Mistake::BestGrandchildBoard,
    Mistake::MinPassKeepsSide,
    Mistake::FullBoardNotTerminal,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn every_claim_about_the_tree_holds(
        choices in prop::collection::vec(any::<u8>(), 30..62),
        depth in 2u32..5,
        o in any::<bool>(),
        fault in 0..TREE_FAULTS.len(),
    ) {
        let Some(mut problem) = problem(&choices, depth, o) else { return Ok(()) };
        if TREE_FAULTS[fault] == Mistake::FullBoardNotTerminal {
            problem.dialect = Dialect::S2017Jan;
        }
        let style = Style::default();
        let Some(expected) = mutants::write(&problem, style, Faults::NONE, 3000) else {
            return Ok(());
        };
        let Some(actual) = mutants::write(&problem, style, Faults::one(TREE_FAULTS[fault]), 3000)
        else {
            return Ok(());
        };
        if actual != expected {
            let report = check_with_input(&expected, &actual, false, Some(&problem));
            check_tree_claims(&report, &expected, &problem);
        }
    }
}

/// The sentences' claims are read where they are made: the corpus's programs with a
/// board kept by a grandchild, a pass at MIN and a full board.
#[test]
fn the_claims_about_the_tree_are_read_on_the_corpus() {
    for case in [
        "chenglin-ai-s2017-1",
        "slyar-cs561-search-f2014-1",
        "stormhair-csci561-f2014-1",
    ] {
        let dir = format!("{}/testcases/corpus/{case}", env!("CARGO_MANIFEST_DIR"));
        let read = |name: &str| std::fs::read(format!("{dir}/{name}")).unwrap();
        let problem = cs561::parse(&read("input.txt"), None).unwrap();
        let expected = read("output.txt");
        let report = check_with_input(&expected, &read("actual.txt"), false, Some(&problem));
        assert_eq!(
            check_tree_claims(&report, &expected, &problem),
            1,
            "{case}: {report}"
        );
    }
}

/// The nodes a fault's explanation is about, from the path of the difference (`root >
/// h3`): the node itself, and the node above it when the difference is at a pass.
fn path_of(report: &Report) -> Vec<String> {
    let node = report.difference.as_ref().and_then(|d| d.node.clone());
    node.unwrap_or_default()
        .split(" > ")
        .map(str::to_string)
        .collect()
}

/// The text that explains `fault` in a report: the explanation when it names the
/// fault, the candidate's evidence when the report is ambiguous.
fn text_of(report: &Report, fault: Mistake) -> Option<String> {
    let difference = report.difference.as_ref()?;
    if difference.mistake == Some(fault) {
        return Some(difference.explanation.clone());
    }
    report
        .candidates
        .iter()
        .find(|c| c.mistake == fault)
        .map(|c| c.evidence.clone())
}

/// The structural claims of the explanations of the faults read in published programs
/// hold in the expected tree: the node `global-pass-count` names has no legal move and
/// is not the second pass in a row; where `hand-written-game-over` speaks, neither side
/// can move; the move `child-per-direction` names brackets discs in as many directions
/// as it says, at the node it says. Over generated cases rich in passes.
#[test]
fn the_claims_about_nodes_hold_in_the_expected_tree() {
    use reversi::explain::replay::{square_of, Position};
    use reversi::grading::gen::{generate, Category, GenOptions};
    let options = GenOptions {
        count: 36,
        seed: 34,
        categories: vec![
            Category::PassChain,
            Category::GameOverAtRoot,
            Category::RootMustPass,
            Category::Endgame,
            Category::Opening,
            Category::Midgame,
        ],
        dialect: cs561::Dialect::S2017,
        style: Style::default(),
        max_lines: 300,
        task: cs561::Task::AlphaBeta,
        depth: None,
    };
    let mut told = [0; 3];
    for case in generate(&options, &common::NoArgs).unwrap() {
        let problem = cs561::parse(&case.input, None).unwrap();
        let expected = mutants::write(&problem, Style::default(), Faults::NONE, 10_000).unwrap();
        let faults = [
            Mistake::GlobalPassCount,
            Mistake::HandWrittenGameOver,
            Mistake::ChildPerDirection,
        ];
        for (k, fault) in faults.into_iter().enumerate() {
            let actual =
                mutants::write(&problem, Style::default(), Faults::one(fault), 10_000).unwrap();
            if actual == expected {
                continue;
            }
            let report = check_with_input(&expected, &actual, false, Some(&problem));
            let text =
                text_of(&report, fault).unwrap_or_else(|| panic!("{fault} is not told:\n{report}"));
            let path = path_of(&report);
            let names: Vec<&str> = path.iter().map(String::as_str).collect();
            let root = Position::root(&problem);
            match fault {
                Mistake::GlobalPassCount => {
                    let node = root.at(&names).expect("a path of the expected tree");
                    assert_eq!(node.board.moves(), 0, "{text}\n{report}");
                    assert!(!names.ends_with(&["pass", "pass"]), "{report}");
                    let line = report.difference.as_ref().and_then(|d| d.expected.clone());
                    let value = line.as_deref().and_then(|l| l.split(',').nth(2));
                    assert!(matches!(value, Some("Infinity" | "-Infinity")), "{report}");
                }
                Mistake::HandWrittenGameOver => {
                    let over = if names.len() > 1 && names.last() == Some(&"pass") {
                        &names[..names.len() - 1]
                    } else {
                        &names[..]
                    };
                    let node = root.at(over).expect("a path of the expected tree");
                    assert_eq!(node.board.moves(), 0, "{text}\n{report}");
                    assert_eq!(node.board.pass().moves(), 0, "{text}\n{report}");
                }
                _ => {
                    // "{square} at {path} brackets discs in {n} directions"
                    let Some((head, rest)) = text.split_once(" brackets discs in ") else {
                        continue;
                    };
                    let (square, at) = head
                        .rsplit_once(" If it is this one: ")
                        .map_or(head.split_once(" at ").unwrap(), |(_, tail)| {
                            tail.split_once(" at ").unwrap()
                        });
                    let square = square.rsplit(' ').next().unwrap();
                    let count: u32 = rest.split(' ').next().unwrap().parse().unwrap();
                    let at: Vec<&str> = at.split(" > ").collect();
                    let board = root.at(&at).expect("a path of the expected tree").board;
                    let square = square_of(square).unwrap();
                    let flips = board.flips(square);
                    let neighbours = (0..64)
                        .filter(|&i: &u32| {
                            let (r, c) = ((i / 8) as i32, (i % 8) as i32);
                            let (sr, sc) = (i32::from(square.row()), i32::from(square.col()));
                            (r - sr).abs() <= 1 && (c - sc).abs() <= 1 && flips >> i & 1 == 1
                        })
                        .count() as u32;
                    assert_eq!(neighbours, count, "{text}");
                }
            }
            told[k] += 1;
        }
    }
    println!("explanations checked (global-pass-count, hand-written-game-over, child-per-direction): {told:?}");
    assert!(told.iter().all(|&n| n > 0), "{told:?}");
}
