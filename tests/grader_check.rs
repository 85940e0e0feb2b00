//! `reversi check`: one snapshot per known mistake, each made by changing a correct
//! output file the way students' programs get it wrong.

use std::fs;

use reversi::board::Square;
use reversi::explain::check::{check, check_with_input, Mistake, Report};
use reversi::explain::log::{self, Entry};
use reversi::explain::mutants::{self, Faults};
use reversi::format::cs561::{self, board_lines};
use reversi::format::{LineEnd, Style};

fn case(path: &str) -> Vec<u8> {
    fs::read(format!("{}/testcases/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn handout() -> Vec<u8> {
    case("handout/s2017-example/output.txt")
}

/// Replaces the first line equal to `from` (without its line end) by `to`.
fn replace_line(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let at = lines
        .iter()
        .position(|l| *l == from)
        .expect("line to replace");
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[at] = to.to_string();
    out.join("\r\n").into_bytes()
}

/// Checks, asserts the mistake found, and returns the words for the snapshot.
fn explain(expected: &[u8], actual: &[u8], mistake: Option<Mistake>) -> String {
    let report: Report = check(expected, actual, false);
    assert!(!report.passed());
    assert_eq!(report.difference.as_ref().unwrap().mistake, mistake);
    report.to_string()
}

#[test]
fn identical_files() {
    let report = check(&handout(), &handout(), false);
    assert!(report.identical && report.passed());
    insta::assert_snapshot!(report.to_string(), @"identical (703 bytes)");
}

#[test]
fn lf_instead_of_crlf() {
    let lf = String::from_utf8(handout()).unwrap().replace("\r\n", "\n");
    insta::assert_snapshot!(explain(&handout(), lf.as_bytes(), Some(Mistake::LineEnds)));
}

#[test]
fn final_newline_added() {
    let mut actual = handout();
    actual.extend_from_slice(b"\r\n");
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::FinalNewline)));
}

#[test]
fn trailing_spaces() {
    let actual = replace_line(&handout(), "***XX***", "***XX***  ");
    insta::assert_snapshot!(explain(
        &handout(),
        &actual,
        Some(Mistake::TrailingWhitespace)
    ));
}

#[test]
fn float_values() {
    let actual = replace_line(&handout(), "c5,2,0,-Infinity,-3", "c5,2,0.0,-Infinity,-3");
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::FloatValues)));
}

#[test]
fn alpha_beta_updated_at_cutoff() {
    // The handout's own typo: c4,1,-3,-3,-3 for c4,1,-3,-3,Infinity.
    let actual = replace_line(&handout(), "c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3");
    insta::assert_snapshot!(explain(
        &handout(),
        &actual,
        Some(Mistake::UpdateBeforeCutoff)
    ));
}

#[test]
fn missing_pass_node() {
    // The older end rule applied to a revised case: c4 becomes a leaf, no pass below.
    let expected = case("cs561/s2017/case1/output.txt");
    let actual = case("cs561/s2017-jan/case1/output.txt");
    insta::assert_snapshot!(explain(&expected, &actual, Some(Mistake::NoPassNode)));
}

#[test]
fn missing_pass_at_the_root() {
    // Game over at the root under the older rule; the revised rule passes twice.
    let expected = case("cs561/s2017/case2/output.txt");
    let actual = case("cs561/s2017-jan/case2/output.txt");
    insta::assert_snapshot!(explain(&expected, &actual, Some(Mistake::NoPassNode)));
}

#[test]
fn extra_pass_node() {
    let expected = case("cs561/s2017-jan/case1/output.txt");
    let actual = case("cs561/s2017/case1/output.txt");
    insta::assert_snapshot!(explain(&expected, &actual, Some(Mistake::ExtraPass)));
}

#[test]
fn pruning_too_early() {
    // f5 (MIN) returns after f4 although 0 > alpha -3: no cut-off yet.
    let text = String::from_utf8(handout()).unwrap();
    let wrong = text.replace(
        "f5,1,0,-3,0\r\nd6,2,0,-3,0\r\nf5,1,0,-3,0\r\nf6,2,-3,-3,0\r\nf5,1,-3,-3,0\r\nroot,0,-3,-3,Infinity",
        "f5,1,0,-3,Infinity\r\nroot,0,-3,-3,Infinity",
    );
    assert_ne!(wrong, text);
    insta::assert_snapshot!(explain(
        &handout(),
        wrong.as_bytes(),
        Some(Mistake::PrunedTooEarly)
    ));
}

#[test]
fn pruning_too_late() {
    // c4 (MIN) reaches -3 <= alpha -3 after c3: a program that prunes only on `<`
    // updates beta and goes on to c4's next legal move.
    let problem = cs561::parse(&case("handout/s2017-example/input.txt"), None).unwrap();
    let after_c4 = problem.root().play(Square::new(3, 2));
    let next = reversi::board::Squares(after_c4.moves()).nth(1).unwrap();
    let text = String::from_utf8(handout()).unwrap();
    let wrong = text.replacen(
        "c4,1,-3,-3,Infinity\r\n",
        &format!("c4,1,-3,-3,-3\r\n{next},2,0,-3,-3\r\nc4,1,-3,-3,-3\r\n"),
        1,
    );
    let report = check(&handout(), wrong.as_bytes(), false);
    let explanation = &report.difference.as_ref().unwrap().explanation;
    assert!(explanation.contains("c4 should have stopped after c3 (c3 = -3 <= alpha -3)"));
    let words = explain(&handout(), wrong.as_bytes(), Some(Mistake::PrunedTooLate));
    insta::assert_snapshot!(words);
}

#[test]
fn wrong_root_player_as_max() {
    // Every leaf valued from the other player's view: E(s) negated.
    let expected = case("cs561/s2017/case3/output.txt");
    let text = String::from_utf8(expected.clone()).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let entries: Vec<Entry> = lines[9..].iter().map(|l| Entry::parse(l)).collect();
    let mut actual: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for (i, entry) in entries.iter().enumerate() {
        if log::is_leaf(&entries, i) {
            actual[9 + i] = format!(
                "{},{},{},{}",
                entry.name,
                entry.depth.unwrap(),
                -entry.value().unwrap(),
                entry.values[1..].join(",")
            );
        }
    }
    let actual = actual.join("\r\n");
    insta::assert_snapshot!(explain(
        &expected,
        actual.as_bytes(),
        Some(Mistake::WrongRootPlayer)
    ));
}

#[test]
fn root_searched_as_min() {
    let expected = case("cs561/s2017/case1/output.txt");
    let actual = replace_line(
        &expected,
        "root,0,-Infinity,-Infinity,Infinity",
        "root,0,Infinity,-Infinity,Infinity",
    );
    insta::assert_snapshot!(explain(&expected, &actual, Some(Mistake::WrongRootPlayer)));
}

#[test]
fn last_instead_of_first_tied_move() {
    // a6 and f6 both score 106; the next board must be the one after a6.
    let problem = cs561::parse(&case("cs561/s2017/case4/input.txt"), None).unwrap();
    let after_f6 = problem.root().play(Square::new(5, 5));
    let board = board_lines(after_f6.opp, after_f6.own, LineEnd::Crlf);
    let expected = case("cs561/s2017/case4/output.txt");
    let mut actual = board;
    actual.extend_from_slice(&expected[board_lines(0, 0, LineEnd::Crlf).len()..]);
    insta::assert_snapshot!(explain(&expected, &actual, Some(Mistake::LastTiedMove)));
}

#[test]
fn wrong_flips_on_the_next_board() {
    // The right move, d3, without flipping d4.
    let actual = replace_line(&handout(), "***XX***", "***OX***");
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::WrongBoard)));
}

#[test]
fn file_ends_early() {
    let text = String::from_utf8(handout()).unwrap();
    let cut = text.rfind("\r\n").unwrap();
    insta::assert_snapshot!(explain(
        &handout(),
        &text.as_bytes()[..cut],
        Some(Mistake::MissingLines)
    ));
}

#[test]
fn lines_after_the_end() {
    let mut actual = handout();
    actual.extend_from_slice(b"\r\ne6,1,-3,-3,0");
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::ExtraLines)));
}

#[test]
fn lenient_accepts_what_strict_refuses() {
    let loose = String::from_utf8(handout())
        .unwrap()
        .replace("\r\n", "  \n")
        + "\n\n";
    let strict = check(&handout(), loose.as_bytes(), false);
    assert!(!strict.passed() && strict.lenient_identical);
    let lenient = check(&handout(), loose.as_bytes(), true);
    assert!(lenient.passed() && !lenient.identical);
    insta::assert_snapshot!(lenient.to_string());
}

#[test]
fn lenient_still_sees_a_wrong_value() {
    let actual = replace_line(&handout(), "c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3");
    let report = check(&handout(), &actual, true);
    assert!(!report.passed() && !report.lenient_identical);
}

#[test]
fn only_the_board_written() {
    // A program that crashed after writing the next board.
    let text = String::from_utf8(handout()).unwrap();
    let board: Vec<&str> = text.split("\r\n").take(8).collect();
    insta::assert_snapshot!(explain(
        &handout(),
        board.join("\r\n").as_bytes(),
        Some(Mistake::MissingLines)
    ));
}

#[test]
fn empty_file() {
    insta::assert_snapshot!(explain(&handout(), b"", Some(Mistake::MissingLines)));
}

/// Every official output with each line deleted, doubled, swapped with the next or
/// given another value: `check` (with and without the input) never panics, never
/// calls them identical, and always names a line; `tree` draws them or refuses them,
/// without panicking.
#[test]
fn any_broken_line_is_explained() {
    let root = format!("{}/testcases", env!("CARGO_MANIFEST_DIR"));
    // The corpus's expected files are ours on generated cases, long ones among them:
    // the official and hand-made ones cover every kind of line at a fraction of the time.
    let walk = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|entry| entry.file_name() != "corpus");
    for entry in walk {
        let entry = entry.unwrap();
        if entry.file_name() != "output.txt" {
            continue;
        }
        let expected = fs::read(entry.path()).unwrap();
        let input = fs::read(entry.path().with_file_name("input.txt")).unwrap();
        let problem = cs561::parse(&input, None).unwrap();
        let text = String::from_utf8(expected.clone()).unwrap();
        let lines: Vec<&str> = text.split("\r\n").collect();
        for i in 0..lines.len() {
            let mut variants: Vec<Vec<String>> = Vec::new();
            let owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let mut deleted = owned.clone();
            deleted.remove(i);
            variants.push(deleted);
            let mut doubled = owned.clone();
            doubled.insert(i, owned[i].clone());
            variants.push(doubled);
            if i + 1 < owned.len() {
                let mut swapped = owned.clone();
                swapped.swap(i, i + 1);
                variants.push(swapped);
            }
            let mut changed = owned.clone();
            changed[i] = format!("{},7", owned[i].rsplit_once(',').map_or("x", |(a, _)| a));
            variants.push(changed);
            for variant in variants {
                let actual = variant.join("\r\n");
                if actual.as_bytes() == expected {
                    continue;
                }
                let report = check(&expected, actual.as_bytes(), false);
                assert!(!report.passed(), "{}: line {i}", entry.path().display());
                let replayed =
                    check_with_input(&expected, actual.as_bytes(), false, Some(&problem));
                assert_eq!(
                    replayed.difference.as_ref().map(|d| d.line),
                    Some(report.difference.as_ref().unwrap().line)
                );
                let difference = report.difference.unwrap();
                assert!(difference.line.is_some() && !difference.explanation.is_empty());
                let _ = reversi::tree::Tree::from_output(&actual, None, &Default::default());
            }
        }
    }
}

#[test]
fn command_line_exit_statuses() {
    let bin = env!("CARGO_BIN_EXE_reversi");
    let dir = tempfile::tempdir().unwrap();
    let expected = dir.path().join("expected.txt");
    let lf = dir.path().join("lf.txt");
    fs::write(&expected, handout()).unwrap();
    fs::write(
        &lf,
        String::from_utf8(handout()).unwrap().replace("\r\n", "\n"),
    )
    .unwrap();
    let run = |args: &[&std::path::Path], lenient: bool| {
        let mut command = std::process::Command::new(bin);
        command.arg("check").args(args);
        if lenient {
            command.arg("--lenient");
        }
        command.output().unwrap()
    };
    assert_eq!(run(&[&expected, &expected], false).status.code(), Some(0));
    let strict = run(&[&expected, &lf], false);
    assert_eq!(strict.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&strict.stdout).contains("line ends only"));
    let lenient = run(&[&expected, &lf], true);
    assert_eq!(lenient.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&lenient.stdout).starts_with("identical under --lenient"));
    let missing = run(&[&expected, &dir.path().join("none.txt")], false);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.txt: no such file"));
}

/// The handout's example solved with another cut-off depth, as a program with an
/// off-by-one depth writes it.
fn handout_at_depth(depth: u32) -> Vec<u8> {
    let mut problem = cs561::parse(&case("handout/s2017-example/input.txt"), None).unwrap();
    problem.depth = depth;
    reversi::grading::batch::solve_problem(&problem, Style::default())
}

#[test]
fn searching_one_ply_too_deep() {
    let actual = handout_at_depth(3);
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::CutoffDepth)));
}

#[test]
fn searching_one_ply_too_shallow() {
    let actual = handout_at_depth(1);
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::CutoffDepth)));
}

#[test]
fn columns_before_rows() {
    // A program that takes moves column by column visits c4 before d3.
    let actual = replace_line(
        &handout(),
        "d3,1,Infinity,-Infinity,Infinity",
        "c4,1,Infinity,-Infinity,Infinity",
    );
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::MoveOrder)));
}

fn handout_problem() -> cs561::Problem {
    cs561::parse(&case("handout/s2017-example/input.txt"), None).unwrap()
}

#[test]
fn a_move_that_is_not_legal_with_the_input() {
    // A move generator that wraps around the board's edge finds a1 for O after d3.
    let actual = replace_line(&handout(), "e3,2,0,-Infinity,-3", "a1,2,0,-Infinity,-3");
    let blind = check(&handout(), &actual, false);
    assert_eq!(blind.difference.unwrap().mistake, None);
    let report = check_with_input(&handout(), &actual, false, Some(&handout_problem()));
    assert_eq!(
        report.difference.as_ref().unwrap().mistake,
        Some(Mistake::IllegalMove)
    );
    insta::assert_snapshot!(report.to_string());
}

#[test]
fn a_wrong_leaf_value_shows_the_board_with_the_input() {
    let actual = replace_line(
        &handout(),
        "c3,2,-3,-Infinity,Infinity",
        "c3,2,-5,-Infinity,Infinity",
    );
    let report = check_with_input(&handout(), &actual, false, Some(&handout_problem()));
    assert_eq!(report.difference.as_ref().unwrap().mistake, None);
    insta::assert_snapshot!(report.to_string());
}

#[test]
fn byte_order_mark() {
    let mut actual = b"\xef\xbb\xbf".to_vec();
    actual.extend_from_slice(&handout());
    insta::assert_snapshot!(explain(&handout(), &actual, Some(Mistake::ByteOrderMark)));
}

#[test]
fn an_input_that_does_not_fit_is_not_used() {
    // The input of another case: d3 is not a legal move there.
    let other = cs561::parse(&case("cs561/s2017/case4/input.txt"), None).unwrap();
    let actual = replace_line(&handout(), "e3,2,0,-Infinity,-3", "a1,2,0,-Infinity,-3");
    let report = check_with_input(&handout(), &actual, false, Some(&other));
    assert_eq!(report.difference.unwrap().mistake, None);
    assert!(report
        .notes
        .iter()
        .any(|n| n.contains("does not fit the expected log")));
    // Every official case fits its own input.
    for case_dir in [
        "cs561/s2017/case3",
        "cs561/s2017/case4",
        "cs561/f2014/ref7",
        "handout/s2017-example",
    ] {
        let problem = cs561::parse(&case(&format!("{case_dir}/input.txt")), None).unwrap();
        let expected = case(&format!("{case_dir}/output.txt"));
        let mut broken = expected.clone();
        broken.extend_from_slice(b"\r\nx");
        let report = check_with_input(&expected, &broken, false, Some(&problem));
        assert!(
            report.notes.iter().all(|n| !n.contains("does not fit")),
            "{case_dir}"
        );
    }
}

#[test]
fn the_board_left_out() {
    let text = String::from_utf8(handout()).unwrap();
    let log: Vec<&str> = text.split("\r\n").skip(8).collect();
    insta::assert_snapshot!(explain(
        &handout(),
        log.join("\r\n").as_bytes(),
        Some(Mistake::MissingBoard)
    ));
}

#[test]
fn a_pass_with_legal_moves_with_the_input() {
    let actual = replace_line(
        &handout(),
        "c3,2,-3,-Infinity,Infinity",
        "pass,2,-3,-Infinity,Infinity",
    );
    let report = check_with_input(&handout(), &actual, false, Some(&handout_problem()));
    // A pass where the side has moves is a fact; why (an input read wrong, a move
    // generator that finds nothing) no program of the catalogue tells here.
    assert_eq!(report.difference.as_ref().unwrap().mistake, None);
    assert!(report
        .candidates
        .iter()
        .any(|c| c.mistake == Mistake::ExtraPass && c.evidence.contains("cannot pass")));
    insta::assert_snapshot!(report.to_string());
}

/// A file with two known mistakes, made by the catalogue's program on an official
/// case: the report (with the input) names the first, `--all` lists both with
/// their first lines and the lines each accounts for.
fn two_mistakes(case_dir: &str, first: Mistake, second: Mistake) -> String {
    let problem = cs561::parse(&case(&format!("{case_dir}/input.txt")), None).unwrap();
    let expected = case(&format!("{case_dir}/output.txt"));
    let faults = Faults::one(first).with(second);
    let actual = mutants::write(&problem, Style::default(), faults, 10_000).unwrap();
    let report = check_with_input(&expected, &actual, false, Some(&problem));
    let listed: Vec<Option<Mistake>> = report
        .mistakes
        .iter()
        .map(|l| l.mistake.filter(|_| l.from_catalogue))
        .collect();
    assert!(
        listed.contains(&Some(first)) && listed.contains(&Some(second)),
        "{}",
        report.listing()
    );
    format!("{report}\n{}", report.listing())
}

#[test]
fn two_mistakes_strict_pruning_and_lf() {
    insta::assert_snapshot!(two_mistakes(
        "handout/s2017-example",
        Mistake::StrictPruning,
        Mistake::LineEnds
    ));
}

#[test]
fn two_mistakes_fail_hard_and_floats() {
    insta::assert_snapshot!(two_mistakes(
        "cs561/s2017/case4",
        Mistake::FailHard,
        Mistake::FloatValues
    ));
}

#[test]
fn two_mistakes_last_tied_move_and_inf() {
    insta::assert_snapshot!(two_mistakes(
        "cs561/s2017/case4",
        Mistake::LastTiedMove,
        Mistake::InfSpelling
    ));
}

#[test]
fn two_mistakes_no_pass_node_and_missing_header() {
    insta::assert_snapshot!(two_mistakes(
        "cs561/s2017/case1",
        Mistake::NoPassNode,
        Mistake::MissingHeader
    ));
}

#[test]
fn two_mistakes_wrong_root_player_and_updated_window() {
    insta::assert_snapshot!(two_mistakes(
        "cs561/s2017/case3",
        Mistake::RootAsMin,
        Mistake::UpdateBeforeCutoff
    ));
}

#[test]
fn a_mistake_outside_the_catalogue_is_a_guess() {
    // Strict pruning, plus a leaf value no known mistake explains.
    let problem = handout_problem();
    let strict = mutants::write(
        &problem,
        Style::default(),
        Faults::one(Mistake::StrictPruning),
        10_000,
    )
    .unwrap();
    let actual = replace_line(&strict, "f4,2,0,-3,Infinity", "f4,2,5,-3,Infinity");
    let report = check_with_input(&handout(), &actual, false, Some(&problem));
    insta::assert_snapshot!(format!("{report}\n{}", report.listing()));
}

#[test]
fn check_all_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let problem = handout_problem();
    let faults = Faults::one(Mistake::UpdateBeforeCutoff).with(Mistake::InfSpelling);
    let student = dir.path().join("student.txt");
    fs::write(
        &student,
        mutants::write(&problem, Style::default(), faults, 10_000).unwrap(),
    )
    .unwrap();
    let root = format!(
        "{}/testcases/handout/s2017-example",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |extra: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"));
        command
            .arg("check")
            .arg(format!("{root}/output.txt"))
            .arg(&student)
            .args(extra);
        command.output().unwrap()
    };
    let all = run(&["--all", "--input", &format!("{root}/input.txt")]);
    assert_eq!(all.status.code(), Some(1));
    let text = String::from_utf8_lossy(&all.stdout);
    assert!(
        text.contains("[update-before-cutoff]") && text.contains("[inf-spelling]"),
        "{text}"
    );
    let blind = run(&["--all"]);
    let text = String::from_utf8_lossy(&blind.stdout);
    assert!(text.contains("give the case's input (--input)"), "{text}");
}

/// A student's log with a NUL and a terminal escape in a node name: the report
/// shows them escaped, never raw.
#[test]
fn control_bytes_of_a_log_are_shown_escaped() {
    let expected = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testcases/handout/s2017-example/output.txt");
    let bytes = fs::read(&expected).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let student = text.replacen("d3,", "\0\u{1b}[2J3,", 1);
    let dir = tempfile::tempdir().unwrap();
    let actual = dir.path().join("output.txt");
    fs::write(&actual, student).unwrap();
    for args in [
        vec![
            "check",
            expected.to_str().unwrap(),
            actual.to_str().unwrap(),
        ],
        vec!["tree", "--log", actual.to_str().unwrap(), "--text"],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(&args)
            .output()
            .unwrap();
        let shown = String::from_utf8(output.stdout).unwrap();
        assert!(
            !shown.bytes().any(|b| b == 0 || b == 0x1b),
            "{args:?}: {shown:?}"
        );
        assert!(shown.contains("\\u{0}\\u{1b}[2J3"), "{args:?}: {shown}");
    }
}

/// The handout's log with the line c4 prints at its cut-off deleted.
fn handout_without_the_cutoff_line() -> Vec<u8> {
    let text = String::from_utf8(handout()).unwrap();
    let lines: Vec<&str> = text
        .split("\r\n")
        .filter(|l| *l != "c4,1,-3,-3,Infinity")
        .collect();
    lines.join("\r\n").into_bytes()
}

#[test]
fn a_line_deleted_after_a_cutoff_is_named_missing() {
    let actual = handout_without_the_cutoff_line();
    let blind = check(&handout(), &actual, false);
    let difference = blind.difference.as_ref().unwrap();
    assert_eq!(difference.mistake, Some(Mistake::NoLineAtCutoff));
    assert!(difference
        .explanation
        .contains("the line after c4's cut-off is missing"));
    let report = check_with_input(&handout(), &actual, false, Some(&handout_problem()));
    assert_eq!(
        report.difference.as_ref().unwrap().mistake,
        Some(Mistake::NoLineAtCutoff)
    );
    insta::assert_snapshot!(blind.to_string());
    // The program that never prints a cut-off line leaves out f5's and e6's too.
    let written = mutants::write(
        &handout_problem(),
        mutants::style_of(&handout()),
        Faults::one(Mistake::NoLineAtCutoff),
        1000,
    )
    .unwrap();
    let report = check_with_input(&handout(), &written, false, Some(&handout_problem()));
    let difference = report.difference.as_ref().unwrap();
    assert_eq!(difference.mistake, Some(Mistake::NoLineAtCutoff));
    // (the first sentence says where the program does what; the reproduction follows)
    assert!(
        difference
            .explanation
            .starts_with("At c4 (line 21): no line printed at a cut-off;")
            && difference.explanation.contains(". Reproduced: "),
        "{}",
        difference.explanation
    );
}
