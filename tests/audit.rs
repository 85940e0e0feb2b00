//! The judge of the student's own tree (`reversi::explain::audit`): our own output
//! breaks no rule on any case of `testcases/` nor on generated cases of every
//! category, and a line changed by hand is found where it breaks, with its rule.

use std::fs;
use std::path::Path;

use reversi::explain::audit::audit;
use reversi::explain::mistake::Mistake;
use reversi::format::cs561::{self, Dialect, Problem, Task};
use reversi::format::Style;
use reversi::grading::batch::solve_problem;
use reversi::grading::gen::{self, GenOptions};
use walkdir::WalkDir;

mod common;
use common::NoArgs;

/// The lines of a CRLF file.
fn crlf_lines(bytes: Vec<u8>) -> Vec<String> {
    String::from_utf8(bytes)
        .unwrap()
        .split("\r\n")
        .map(str::to_string)
        .collect()
}

/// The lines of our output for `problem`.
fn our_lines(problem: &Problem) -> Vec<String> {
    crlf_lines(solve_problem(problem, Style::default()))
}

/// The lines a program with `fault` writes for `problem`, in `style`; `None` when its
/// tree is too large.
fn mutant_lines(problem: &Problem, style: Style, fault: Mistake) -> Option<Vec<String>> {
    use reversi::explain::mutants::{self, Faults};
    mutants::write(problem, style, Faults::one(fault), 100_000).map(crlf_lines)
}

/// `count` generated Spring 2017 alpha-beta cases of `seed` (logs of at most
/// `max_lines` lines), with their problems.
fn s2017_cases(seed: u64, count: usize, max_lines: u64) -> Vec<(gen::GeneratedCase, Problem)> {
    let options = GenOptions {
        count,
        seed,
        categories: Vec::new(),
        dialect: Dialect::S2017,
        style: Style::default(),
        max_lines,
        task: Task::AlphaBeta,
        depth: None,
    };
    gen::generate(&options, &NoArgs)
        .unwrap()
        .into_iter()
        .map(|case| {
            let problem = cs561::parse(&case.input, Some(Dialect::S2017)).unwrap();
            (case, problem)
        })
        .collect()
}

/// Every CSCI-561 input of `testcases/`, parsed.
fn inputs() -> Vec<(String, Problem)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases");
    let mut found = Vec::new();
    for entry in WalkDir::new(&root).sort_by_file_name() {
        let path = entry.unwrap().into_path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let under_cs561 = path.components().any(|c| {
            matches!(
                c.as_os_str().to_str(),
                Some("cs561" | "handout" | "corpus" | "perf")
            )
        });
        if !under_cs561 || !(name == "input.txt" || name.ends_with(".in")) {
            continue;
        }
        if let Ok(problem) = cs561::parse(&fs::read(&path).unwrap(), None) {
            if problem.task != Task::Greedy && fs::metadata(&path).unwrap().len() < 1_000 {
                found.push((path.display().to_string(), problem));
            }
        }
    }
    found
}

#[test]
fn our_own_output_breaks_no_rule() {
    let mut judged = 0;
    for (name, problem) in inputs() {
        for dialect in [problem.dialect, Dialect::S2017Jan] {
            let problem = Problem {
                dialect: if problem.dialect == Dialect::F2014 {
                    problem.dialect
                } else {
                    dialect
                },
                ..problem.clone()
            };
            if problem.depth > 6 {
                continue;
            }
            let lines = our_lines(&problem);
            assert_eq!(
                audit(&problem, &lines),
                None,
                "{name} ({:?})",
                problem.dialect
            );
            judged += 1;
        }
    }
    for dialect in [Dialect::S2017, Dialect::S2017Jan, Dialect::F2014] {
        let options = GenOptions {
            count: 40,
            seed: 561,
            categories: Vec::new(),
            dialect,
            style: Style::default(),
            max_lines: 400,
            task: Task::AlphaBeta,
            depth: None,
        };
        for case in gen::generate(&options, &NoArgs).unwrap() {
            let problem = cs561::parse(&case.input, Some(dialect)).unwrap();
            let lines = our_lines(&problem);
            assert_eq!(audit(&problem, &lines), None, "{} ({dialect:?})", case.name);
            judged += 1;
        }
    }
    let minimax = GenOptions {
        count: 20,
        seed: 562,
        categories: Vec::new(),
        dialect: Dialect::F2014,
        style: Style::default(),
        max_lines: 400,
        task: Task::Minimax,
        depth: None,
    };
    for case in gen::generate(&minimax, &NoArgs).unwrap() {
        let problem = cs561::parse(&case.input, Some(Dialect::F2014)).unwrap();
        assert_eq!(
            audit(&problem, &our_lines(&problem)),
            None,
            "{} (minimax)",
            case.name
        );
        judged += 1;
    }
    assert!(judged > 50, "only {judged} cases judged");
}

/// The handout's example, and our lines for it.
fn example() -> (Problem, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/handout/s2017-example");
    let problem = cs561::parse(&fs::read(dir.join("input.txt")).unwrap(), None).unwrap();
    let lines = our_lines(&problem);
    (problem, lines)
}

#[test]
fn a_min_node_opening_at_minus_infinity_is_found_with_its_rule() {
    let (problem, mut lines) = example();
    let at = lines
        .iter()
        .position(|l| l.starts_with("d3,1,Infinity"))
        .unwrap();
    lines[at] = lines[at].replacen("d3,1,Infinity", "d3,1,-Infinity", 1);
    let finding = audit(&problem, &lines).unwrap();
    assert_eq!(finding.line, at + 1);
    assert_eq!(finding.node, "root > d3");
    assert_eq!(finding.mistake, Some(Mistake::WrongOpeningValue));
    assert!(
        finding
            .sentence
            .contains("MIN node, so it opens with Infinity"),
        "{}",
        finding.sentence
    );
}

#[test]
fn a_node_printing_its_last_childs_value_is_found() {
    let (problem, mut lines) = example();
    // (a node's line after a child whose value is not the best so far: the first
    // such line of our log, rewritten with the child's value)
    let at = (10..lines.len())
        .find(|&i| {
            let (child, node) = (field(&lines[i - 1], 1), field(&lines[i], 1));
            child.parse::<u32>().ok() == node.parse::<u32>().ok().map(|d| d + 1)
                && field(&lines[i - 1], 2) != field(&lines[i], 2)
        })
        .expect("a node whose value is not its last child's");
    let child_value = field(&lines[at - 1], 2).to_string();
    let mut fields: Vec<String> = lines[at].split(',').map(str::to_string).collect();
    fields[2] = child_value;
    lines[at] = fields.join(",");
    let finding = audit(&problem, &lines).unwrap();
    assert_eq!(finding.line, at + 1, "{finding:#?}");
    assert_eq!(
        finding.mistake,
        Some(Mistake::LastChildValue),
        "{finding:#?}"
    );
}

/// Field `i` of a log line.
fn field(line: &str, i: usize) -> &str {
    line.split(',').nth(i).unwrap_or("")
}

#[test]
fn a_leaf_expanded_at_the_cutoff_depth_is_not_blamed_on_e() {
    let (problem, lines) = example();
    let deeper = Problem {
        depth: problem.depth + 1,
        ..problem.clone()
    };
    // (a program that searches one ply deeper than D writes our file for D + 1)
    let finding = audit(&problem, &our_lines(&deeper)).unwrap();
    assert_eq!(finding.mistake, Some(Mistake::CutoffDepth), "{finding:#?}");
    assert!(
        finding.sentence.contains("cut-off depth"),
        "{}",
        finding.sentence
    );
    assert!(finding.line > 9 && finding.line <= lines.len());
}

#[test]
fn every_first_sentence_is_short() {
    let (problem, _) = example();
    let deeper = Problem {
        depth: problem.depth + 1,
        ..problem
    };
    let finding = audit(&problem, &our_lines(&deeper)).unwrap();
    assert!(
        finding.sentence.split_whitespace().count() <= 30,
        "{}",
        finding.sentence
    );
}

/// A program that updates alpha or beta before its cut-off test writes a node's line
/// that no pruning at all would write too; where the node's next lines (it prunes)
/// refute that reading, the first is named and the second shown as refuted; nothing
/// else is ever named.
#[test]
fn a_reading_the_nodes_own_next_lines_refute_names_nothing() {
    use reversi::explain::mutants;
    let mut refuted = 0;
    for (name, problem) in inputs() {
        if problem.task != Task::AlphaBeta {
            continue;
        }
        let ours = solve_problem(&problem, Style::default());
        let style = mutants::style_of(&ours);
        let Some(lines) = mutant_lines(&problem, style, Mistake::UpdateBeforeCutoff) else {
            continue;
        };
        if lines == crlf_lines(ours) {
            continue;
        }
        let finding = audit(&problem, &lines).unwrap();
        // (where every reading holds to the end, nothing is named: a small tree)
        assert!(
            matches!(finding.mistake, None | Some(Mistake::UpdateBeforeCutoff)),
            "{name}: {finding:#?}"
        );
        if finding
            .evidence
            .contains("if nothing is ever pruned, but then your line")
        {
            assert_eq!(finding.mistake, Some(Mistake::UpdateBeforeCutoff), "{name}");
            refuted += 1;
        }
    }
    assert!(refuted > 0, "no case where no-pruning was refuted");
}

/// A pass printed before a node's first child, where the same node then plays its
/// moves: the student's own lines prove the pass is one too many, whatever their
/// board (here the root's, the input's, which a CR-read player could change).
#[test]
fn a_pass_beside_the_nodes_own_moves_is_an_extra_pass() {
    let (problem, mut lines) = example();
    let first_child = 10;
    let copy = lines[first_child].clone();
    let pass = format!("pass{}", &copy[copy.find(',').unwrap()..]);
    lines.insert(first_child, pass);
    let finding = audit(&problem, &lines).unwrap();
    assert_eq!(finding.line, first_child + 1, "{finding:#?}");
    assert_eq!(finding.mistake, Some(Mistake::ExtraPass), "{finding:#?}");
    assert!(
        finding.sentence.contains("yet plays"),
        "{}",
        finding.sentence
    );
}

/// A program that keeps the CR of the player line (its root passes, then X moves below
/// it) is read so from its own tree, on the official cases where the root has moves.
#[test]
fn a_player_read_with_its_cr_is_found_from_the_tree() {
    use reversi::explain::mutants::{self, Faults};
    let official = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017");
    let mut named = 0;
    for case in 1..=5 {
        let dir = official.join(format!("case{case}"));
        let problem = cs561::parse(&fs::read(dir.join("input.txt")).unwrap(), None).unwrap();
        let style = mutants::style_of(&fs::read(dir.join("output.txt")).unwrap());
        let fault = Faults::one(Mistake::InputCr);
        let bytes = mutants::write(&problem, style, fault, 100_000).unwrap();
        let lines: Vec<String> = String::from_utf8(bytes)
            .unwrap()
            .split("\r\n")
            .map(|l| l.trim_end_matches('\r').to_string())
            .collect();
        let Some(finding) = audit(&problem, &lines) else {
            continue;
        };
        // (or, where another reading fits too, only the rule the lines break)
        assert!(
            matches!(finding.mistake, None | Some(Mistake::InputCr))
                || finding.mistake == finding.proven,
            "case{case}: {finding:#?}"
        );
        named += usize::from(finding.mistake == Some(Mistake::InputCr));
    }
    assert!(named > 0, "no case named input-cr");
}

/// The lines of `dir/name` (any line ends), and the problem of `dir/input.txt`.
fn case_lines(dir: &Path, name: &str) -> (Problem, Vec<String>) {
    let problem = cs561::parse(&fs::read(dir.join("input.txt")).unwrap(), None).unwrap();
    let text = String::from_utf8(fs::read(dir.join(name)).unwrap()).unwrap();
    let lines = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect();
    (problem, lines)
}

/// A leaf no move leads to has the input's board, so a value that is not its E breaks
/// the rule whatever the cause: the rule is named, with every reading that fits, where
/// two readings (here E for the other player, and the player read with its CR) fit.
/// After a move the board may be another program's, and the rule is not named.
#[test]
fn a_wrong_value_at_a_leaf_of_the_input_board_is_named_by_its_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017/case2");
    let (problem, _) = case_lines(&dir, "output.txt");
    let write = |problem: &Problem| {
        mutant_lines(problem, Style::default(), Mistake::WrongRootPlayer).unwrap()
    };
    let finding = audit(&problem, &write(&problem)).unwrap();
    assert_eq!(finding.node, "root > pass > pass", "{finding:#?}");
    assert_eq!(finding.proven, Some(Mistake::WrongLeafValue));
    assert_eq!(finding.mistake, Some(Mistake::WrongLeafValue));
    assert!(
        finding.evidence.contains("more than one reading")
            && finding
                .evidence
                .contains("E is counted for the other player"),
        "{}",
        finding.evidence
    );
    // (the handout's example: every leaf is after a move)
    let (example, _) = example();
    let finding = audit(&example, &write(&example)).unwrap();
    assert_eq!(finding.proven, None, "{finding:#?}");
    assert_ne!(finding.mistake, Some(Mistake::WrongLeafValue));
}

/// Students' real files (testcases/corpus): a full board expanded in Fall 2014, and a
/// pass printed as a leaf after one pass in the revised rule, break the leaf rule
/// whatever the program's board: it is named.
#[test]
fn a_leaf_the_game_does_not_end_at_is_named_by_its_rule() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/corpus");
    for (folder, line, words) in [
        ("jugpreet-reversi-f2014-1", 10, "The game is over at root"),
        ("slyar-cs561-search-f2014-2", 13, "The game is over at b8"),
        (
            "shreyas-alphabeta-s2017-5",
            14,
            "the game is not over there",
        ),
    ] {
        let (problem, lines) = case_lines(&corpus.join(folder), "actual.txt");
        let finding = audit(&problem, &lines).unwrap();
        assert_eq!(finding.line, line, "{folder}: {finding:#?}");
        assert_eq!(finding.proven, Some(Mistake::MisplacedLeaf), "{folder}");
        assert!(
            finding.by_rule.contains(words),
            "{folder}: {}",
            finding.by_rule
        );
    }
}

/// Shapes the judge reads as a leaf without proving one: a pass printed at its
/// parent's depth (the program's pass costs no ply) is a child, not a leaf; and a file
/// without its board has its log elsewhere, so nothing is judged.
#[test]
fn no_leaf_rule_is_proven_from_a_misread_shape() {
    let mut passes = 0;
    for (case, problem) in s2017_cases(77, 40, 400) {
        for fault in [Mistake::PassCostsNoDepth, Mistake::MissingBoard] {
            let Some(lines) = mutant_lines(&problem, Style::default(), fault) else {
                continue;
            };
            let finding = audit(&problem, &lines);
            if fault == Mistake::MissingBoard {
                assert_eq!(finding, None, "{}", case.name);
            } else if let Some(finding) = finding {
                passes += 1;
                assert_ne!(
                    finding.proven,
                    Some(Mistake::MisplacedLeaf),
                    "{}: {finding:#?}",
                    case.name
                );
            }
        }
    }
    assert!(passes > 0, "no pass-costs-no-depth file was judged");
}

/// Fail-hard opens a MIN node with min(beta, Infinity), its beta: a MIN node that opens
/// with its alpha is a wrong opening value, not fail-hard (a published program opens
/// each child after the first with its parent's value, testcases/corpus/indexcpp-f2014-6).
#[test]
fn a_min_node_opening_with_its_alpha_is_not_fail_hard() {
    let (problem, mut lines) = example();
    let at = lines
        .iter()
        .position(|l| l == "c4,1,Infinity,-3,Infinity")
        .unwrap();
    lines[at] = "c4,1,-3,-3,Infinity".into();
    let finding = audit(&problem, &lines).unwrap();
    assert_eq!(finding.line, at + 1);
    assert_eq!(
        finding.mistake,
        Some(Mistake::WrongOpeningValue),
        "{finding:#?}"
    );
}

/// A move searched a second time under one node is a duplicate move whatever the
/// board (testcases/corpus/indexcpp-f2014-3: a move of three directions listed twice).
#[test]
fn a_move_searched_twice_under_one_node_is_a_duplicate_move() {
    let (problem, lines) = example();
    // (root > d3's first child c3 again, before e3)
    let at = lines
        .iter()
        .position(|l| l == "e3,2,0,-Infinity,-3")
        .unwrap();
    let mut twice = lines.clone();
    twice[at] = "c3,2,-3,-Infinity,-3".into();
    let finding = audit(&problem, &twice).unwrap();
    assert_eq!(finding.line, at + 1);
    assert_eq!(
        finding.mistake,
        Some(Mistake::DuplicateMoves),
        "{finding:#?}"
    );
    assert!(finding.sentence.contains("again"), "{}", finding.sentence);
}

/// A published program's pass flags, one per side in globals and never restored
/// (testcases/corpus/weichichen-artificial-intelligence-s2017-2): after a pass chain in
/// an earlier branch, a node with moves and no pass on its path is printed as a leaf,
/// and the reading of two flags makes that line come true. A node printed as a leaf
/// before any pass of the search is not read so.
#[test]
fn pass_flags_per_side_are_read_from_the_tree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testcases/corpus/weichichen-artificial-intelligence-s2017-2");
    let (problem, lines) = case_lines(&dir, "actual.txt");
    let finding = audit(&problem, &lines).unwrap();
    assert_eq!(finding.line, 21, "{finding:#?}");
    assert_eq!(
        finding.mistake,
        Some(Mistake::PassFlagsPerSide),
        "{finding:#?}"
    );
    assert!(
        finding.sentence.starts_with("At b5 (line 21)"),
        "{}",
        finding.sentence
    );
    // (the root's first child, h2, printed as a leaf: no pass has been made yet)
    let (_, expected) = case_lines(&dir, "output.txt");
    let open = expected
        .iter()
        .position(|l| l == "h2,1,Infinity,-Infinity,Infinity")
        .unwrap();
    let close = expected
        .iter()
        .position(|l| l == "h2,1,-56,-Infinity,-56")
        .unwrap();
    let mut early = expected[..open].to_vec();
    early.push("h2,1,-56,-Infinity,Infinity".into());
    early.extend_from_slice(&expected[close + 1..]);
    let finding = audit(&problem, &early).unwrap();
    assert_eq!(finding.line, open + 1, "{finding:#?}");
    assert!(
        finding
            .fits
            .iter()
            .all(|f| f.mistake != Mistake::PassFlagsPerSide),
        "{finding:#?}"
    );
}

/// A published program that prints a move after which neither side can move as `pass`
/// in its place, with a pass chain under it (testcases/corpus/riteshnaik-*): a move that
/// wipes out the opponent above the cut-off depth, and a node at the cut-off depth (the
/// test made before the cut-off test). A pass printed before such a leaf's own line,
/// with no chain under it (rackesh-othello-f2014-ref1), stays an extra pass.
#[test]
fn a_move_where_neither_side_can_move_printed_as_pass_is_read_from_the_tree() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/corpus");
    for (folder, line, mistake, at) in [
        (
            "riteshnaik-game-playing-f2014-ref1",
            11,
            Mistake::GameOverAsPass,
            "At c4",
        ),
        (
            "riteshnaik-game-playing-f2014-ref3",
            13,
            Mistake::BlockedBeforeCutoff,
            "At b2",
        ),
        (
            "riteshnaik-game-playing-f2014-ref4",
            13,
            Mistake::BlockedBeforeCutoff,
            "At f6",
        ),
        (
            "rackesh-othello-f2014-ref1",
            11,
            Mistake::ExtraPass,
            "At root",
        ),
    ] {
        let (problem, lines) = case_lines(&corpus.join(folder), "actual.txt");
        let finding = audit(&problem, &lines).unwrap();
        assert_eq!(finding.line, line, "{folder}: {finding:#?}");
        assert_eq!(finding.mistake, Some(mistake), "{folder}: {finding:#?}");
        assert!(
            finding.sentence.starts_with(at),
            "{folder}: {}",
            finding.sentence
        );
    }
}

/// A node's name that is no cell is a definite finding and carries its label: bytes
/// that are no move's name (a NUL for the digit, here under another letter than the
/// rules' child, so no program of the catalogue writes the file) and a letter and a
/// digit off the board are named by no cell, a misprinted name or a move off the board
/// alike (testcases/corpus/anvesha-reversi-f2014-1); and `check` lists no candidate
/// that does not write the file beside it.
#[test]
fn a_name_that_is_no_cell_carries_its_label() {
    use reversi::explain::check::check_with_input;
    let mut judged = 0;
    for (case, problem) in s2017_cases(561, 30, 300) {
        let lines = our_lines(&problem);
        let Some(at) = lines.iter().position(|l| {
            l.as_bytes().get(1) == Some(&b'1') && l.as_bytes()[0].is_ascii_lowercase()
        }) else {
            continue;
        };
        let rest = &lines[at][2..];
        let other = if lines[at].starts_with('a') { 'b' } else { 'a' };
        for (name, mistake) in [
            (format!("{other}\0"), Mistake::NoCellName),
            ("i1".to_string(), Mistake::NoCellName),
        ] {
            let mut got = lines.clone();
            got[at] = format!("{name}{rest}");
            let finding = audit(&problem, &got).unwrap();
            assert_eq!(finding.line, at + 1, "{}: {finding:#?}", case.name);
            assert_eq!(
                finding.mistake,
                Some(mistake),
                "{}: {finding:#?}",
                case.name
            );
            let report = check_with_input(
                lines.join("\r\n").as_bytes(),
                got.join("\r\n").as_bytes(),
                false,
                Some(&problem),
            );
            let difference = report.difference.unwrap();
            assert_eq!(difference.mistake, Some(mistake), "{}", case.name);
            assert!(
                report.candidates.iter().all(|c| c.mistake == mistake),
                "{}: {:#?}",
                case.name,
                report.candidates
            );
        }
        judged += 1;
    }
    assert!(judged > 0, "no case has a node in row 1");
}

/// A node whose next line is two levels deeper (a child's pass printed before the
/// child's own line, testcases/corpus/indexcpp-f2014-4) has a line below it: it is not
/// read as printed as a leaf, but as missing its child's line.
#[test]
fn a_line_two_levels_deeper_is_not_a_leaf() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/corpus/indexcpp-f2014-4");
    let (problem, lines) = case_lines(&dir, "actual.txt");
    let finding = audit(&problem, &lines).unwrap();
    assert_eq!(finding.line, 12, "{finding:#?}");
    assert_eq!(finding.node, "root > pass", "{finding:#?}");
    assert!(!finding.sentence.contains("leaf"), "{}", finding.sentence);
    assert!(
        finding.sentence.contains("first child is h3"),
        "{}",
        finding.sentence
    );
}
