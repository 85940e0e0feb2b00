//! The mutant solver (`explain::mutants`), a second and plain implementation of the
//! CSCI-561 search: with no fault on it writes our solver's output byte for byte, on
//! every case of `testcases/` and on generated cases of every category, depth,
//! player, dialect and task; each fault changes the output where it should.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::sync::OnceLock;

use clap::ValueEnum;
use pretty_assertions::assert_eq;
use reversi::explain::check::{check, check_with_input, Mistake};
use reversi::explain::mutants::{self, Faults};
use reversi::format::cs561::{self, Dialect, Problem, Task};
use reversi::format::{LineEnd, Style};
use reversi::grading::batch::solve_problem;
use reversi::grading::gen::{generate, Category, GenOptions};

use common::NoArgs;

/// Every case folder under `testcases/` with an `output.txt` holding a log or a
/// board: its problem (under the dialect its `args` names) and expected bytes.
fn official_cases() -> Vec<(String, Problem, Vec<u8>)> {
    let root = format!("{}/testcases", env!("CARGO_MANIFEST_DIR"));
    let mut cases = Vec::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_name() != "input.txt" {
            continue;
        }
        let dir = entry.path().parent().unwrap();
        let args = fs::read_to_string(dir.join("args")).unwrap_or_default();
        let dialect = args.contains("s2017-jan").then_some(Dialect::S2017Jan);
        let Ok(problem) = cs561::parse(&fs::read(entry.path()).unwrap(), dialect) else {
            continue;
        };
        let expected = fs::read(dir.join("output.txt")).unwrap();
        cases.push((dir.display().to_string(), problem, expected));
    }
    cases
}

/// Generated problems: every category, cut-off depths 0-6 (the deep ones on
/// positions near the end, where trees stay small), both players (the categories
/// include `o-to-move`, and playouts leave either side to move), the three releases
/// and the minimax task; `per_category` cases of each category of each set.
fn generated_problems(per_category: usize, seed: u64) -> Vec<Problem> {
    use Category::*;
    let all: Vec<Category> = Category::value_variants().to_vec();
    let late = [Endgame, PassChain, RootMustPass, GameOverAtRoot];
    let sets: [(Dialect, Task, Option<u32>, &[Category]); 9] = [
        (Dialect::S2017, Task::AlphaBeta, None, &all),
        (
            Dialect::S2017,
            Task::AlphaBeta,
            Some(0),
            &[Opening, OToMove],
        ),
        (
            Dialect::S2017,
            Task::AlphaBeta,
            Some(1),
            &[Midgame, OToMove, Tie, RootMustPass],
        ),
        (
            Dialect::S2017,
            Task::AlphaBeta,
            Some(3),
            &[Tie, EqualCutoff, PassChain, RootMustPass],
        ),
        (Dialect::S2017, Task::AlphaBeta, Some(5), &late),
        (Dialect::S2017, Task::AlphaBeta, Some(6), &late),
        (
            Dialect::S2017Jan,
            Task::AlphaBeta,
            None,
            &[Endgame, PassChain, GameOverAtRoot, Tie],
        ),
        (Dialect::S2017Jan, Task::AlphaBeta, Some(4), &late),
        (
            Dialect::F2014,
            Task::Minimax,
            None,
            &[Opening, Endgame, RootMustPass, PassChain],
        ),
    ];
    let mut problems = Vec::new();
    for (i, (dialect, task, depth, categories)) in sets.into_iter().enumerate() {
        let options = GenOptions {
            count: per_category * categories.len(),
            seed: seed.wrapping_add(i as u64),
            categories: categories.to_vec(),
            dialect,
            style: Style::default(),
            max_lines: 300,
            task,
            depth,
        };
        let cases = generate(&options, &NoArgs).unwrap();
        problems.extend(cases.iter().map(|c| cs561::parse(&c.input, None).unwrap()));
    }
    problems
}

/// The generated cases the tests of `check` share (made once).
fn ci_problems() -> &'static [Problem] {
    static PROBLEMS: OnceLock<Vec<Problem>> = OnceLock::new();
    PROBLEMS.get_or_init(|| generated_problems(1, 7))
}

#[test]
fn without_faults_it_writes_every_official_output() {
    let cases = official_cases();
    assert!(cases.len() >= 16, "{} cases", cases.len());
    for (name, problem, expected) in cases {
        let written = mutants::write(&problem, Style::default(), Faults::NONE, usize::MAX).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&expected),
            "{name}"
        );
    }
}

#[test]
fn without_faults_it_writes_what_the_solver_writes_on_generated_cases() {
    let styles = [
        Style::default(),
        Style {
            line_end: LineEnd::Lf,
            final_newline: true,
        },
    ];
    for (i, problem) in generated_problems(2, 1).iter().enumerate() {
        let style = styles[i % 2];
        let ours = solve_problem(problem, style);
        let written = mutants::write(problem, style, Faults::NONE, usize::MAX).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&ours),
            "{problem:?}"
        );
    }
}

#[test]
fn the_line_limit_stops_a_mutant_whose_tree_grows() {
    let (_, problem, expected) = official_cases()
        .into_iter()
        .find(|(name, ..)| name.ends_with("s2017/case3"))
        .unwrap();
    let lines = String::from_utf8(expected).unwrap().split("\r\n").count() - 9;
    let unpruned = mutants::write(
        &problem,
        Style::default(),
        Faults::one(Mistake::NoPruning),
        lines,
    );
    assert_eq!(unpruned, None, "minimax visits more nodes than alpha-beta");
    assert!(mutants::write(&problem, Style::default(), Faults::NONE, lines).is_some());
}

/// The handout's example with one fault on: the lines that fault is known for.
#[test]
fn faults_change_the_handouts_example_as_students_programs_do() {
    let input = fs::read(format!(
        "{}/testcases/handout/s2017-example/input.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let problem = cs561::parse(&input, None).unwrap();
    let with = |fault: Mistake| {
        let bytes = mutants::write(&problem, Style::default(), Faults::one(fault), 10_000).unwrap();
        String::from_utf8(bytes).unwrap()
    };
    assert!(with(Mistake::UpdateBeforeCutoff).contains("\r\nc4,1,-3,-3,-3\r\n"));
    assert!(with(Mistake::FloatValues).contains("\r\nc3,2,-3.0,-Infinity,Infinity\r\n"));
    assert!(with(Mistake::InfSpelling).contains("\r\nroot,0,-inf,-inf,inf\r\n"));
    assert!(
        with(Mistake::DepthFromOne).contains("\r\nroot,1,-Infinity,-Infinity,Infinity\r\nd3,2,")
    );
    assert!(with(Mistake::SpacedBoard).starts_with("* * * * * * * *\r\n"));
    assert!(with(Mistake::MissingBoard).starts_with("Node,Depth,Value,Alpha,Beta\r\nroot,0,"));
    assert!(with(Mistake::MissingHeader).contains("********\r\nroot,0,"));
    assert!(with(Mistake::LineEnds).contains("\nroot,0,-Infinity,-Infinity,Infinity\nd3,"));
    assert!(with(Mistake::FinalNewline).ends_with("root,0,-3,-3,Infinity\r\n"));
    // The CR fault: no disc is the player's, both sides pass, the rows keep their CR.
    let cr = with(Mistake::InputCr);
    assert!(cr.starts_with("********\r\r\n"), "{cr:?}");
    assert!(cr.ends_with("root,0,-Infinity,-Infinity,Infinity\r\npass,1,Infinity,-Infinity,Infinity\r\npass,2,0,-Infinity,Infinity\r\npass,1,0,-Infinity,0\r\nroot,0,0,0,Infinity"), "{cr:?}");
    // Its variants: the player line's CR alone (rows without it), and the colours
    // taken one ply late under the root's pass (X moves after X's pass).
    let player_only = with(Mistake::InputCrPlayer);
    assert!(player_only.starts_with("********\r\n"), "{player_only:?}");
    assert!(player_only.ends_with(&cr[cr.find("\r\nNode").unwrap()..]));
    let late = with(Mistake::InputCrColoursLate);
    assert!(late.contains("\r\nroot,0,-Infinity,-Infinity,Infinity\r\npass,1,Infinity,-Infinity,Infinity\r\nd3,2,-4,"), "{late:?}");
    // A MIN node printing max(alpha, v) on entry is fail-hard.
    assert!(with(Mistake::FailHard).contains("\r\nc4,1,Infinity,-3,Infinity\r\n"));
    // Strict pruning goes on after c4 reaches alpha.
    assert!(with(Mistake::StrictPruning).contains("\r\nc4,1,-3,-3,-3\r\nc5,2,"));
}

/// Faults read in published programs write what those programs wrote, byte for byte:
/// each `testcases/corpus/` folder named here holds a program's file (`actual.txt`)
/// and the faults its code has (a child per direction with the first move's board, a
/// global pass count, the game's end written by hand; all with LF line ends).
#[test]
fn faults_write_what_the_real_programs_wrote() {
    use Mistake::*;
    let folders: [(&str, &[Mistake]); 4] = [
        (
            "prashanthmulge-reversigame-s2017-1",
            &[ChildPerDirection, GlobalPassCount, FirstMoveBoard, LineEnds],
        ),
        (
            "alphagy-hw1cs561s2017-s2017-2",
            &[GlobalPassCount, LineEnds],
        ),
        ("siddhanp-reversi-s2017-1", &[HandWrittenGameOver, LineEnds]),
        ("siddhanp-reversi-s2017-2", &[HandWrittenGameOver, LineEnds]),
    ];
    for (folder, faults) in folders {
        let dir = format!("{}/testcases/corpus/{folder}", env!("CARGO_MANIFEST_DIR"));
        let read = |name: &str| fs::read(format!("{dir}/{name}")).unwrap();
        let problem = cs561::parse(&read("input.txt"), None).unwrap();
        let faults: Faults = faults.iter().copied().collect();
        let written = mutants::write(&problem, Style::default(), faults, 100_000).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&read("actual.txt")),
            "{folder}: {faults}"
        );
        let without = faults.without(faults.iter().next().unwrap());
        let other = mutants::write(&problem, Style::default(), without, 100_000).unwrap();
        assert_ne!(
            other,
            read("actual.txt"),
            "{folder}: the first fault is needed"
        );
    }
}

/// How `check` does on one fault: files that differ from the right one, and how many
/// of them it names right (first mistake) with the input and without it.
#[derive(Clone, Copy, Debug, Default)]
struct Score {
    differing: usize,
    right_with_input: usize,
    right_without_input: usize,
}

/// Runs every fault on every problem and checks each differing output. With the
/// input, `check` is right when it names the fault, or, when other faults' programs
/// write the very same bytes on this case, when it lists them all and names at most
/// the rule the file breaks.
fn measure(problems: &[Problem]) -> BTreeMap<Mistake, Score> {
    let mut scores: BTreeMap<Mistake, Score> = BTreeMap::new();
    for problem in problems {
        let style = Style::default();
        let expected = solve_problem(problem, style);
        // (a fault that cannot happen in this problem's release or task is never tried
        // there by `check`)
        let outputs: Vec<(Mistake, Vec<u8>)> = Mistake::SIMULATED
            .into_iter()
            .filter(|f| f.applies_to(problem))
            .filter_map(|f| Some((f, mutants::write(problem, style, Faults::one(f), 100_000)?)))
            .filter(|(_, output)| *output != expected)
            .collect();
        for (fault, output) in &outputs {
            let score = scores.entry(*fault).or_default();
            score.differing += 1;
            let right: Vec<Mistake> = outputs
                .iter()
                .filter(|(_, other)| other == output)
                .map(|&(f, _)| f)
                .collect();
            let report = check_with_input(&expected, output, false, Some(problem));
            let named = report.difference.as_ref().and_then(|d| d.mistake);
            // Several programs writing the file: all of them listed, and named only the
            // rule the file's own lines break, which each of them breaks (a
            // non-simulated mistake, with the programs as its ways).
            let mut alike: Vec<Mistake> = report.candidates.iter().map(|c| c.mistake).collect();
            alike.sort();
            let rule_only = named.is_none_or(|m| !m.is_simulated());
            let ambiguous_right = report.ambiguous && rule_only && alike == right;
            // (or the text-level mistake of the fault's own kind, the rule it breaks:
            // `cutoff-depth` for `zero-depth-ignored`)
            let kind_right =
                named.is_some_and(|m| !m.is_simulated() && right.iter().all(|f| f.kind() == m));
            if ambiguous_right || (right.len() == 1 && named == Some(right[0])) || kind_right {
                score.right_with_input += 1;
            } else {
                eprintln!("{fault}: named {named:?} for {problem:?}\n{report}");
            }
            // (the text alone names a kind of mistake: strict pruning is pruning too late)
            let blind = check(&expected, output, false)
                .difference
                .and_then(|d| d.mistake);
            if blind.is_some_and(|m| right.iter().any(|f| f.kind() == m)) {
                score.right_without_input += 1;
            }
        }
    }
    scores
}

/// The per-fault table the README shows.
fn table(scores: &BTreeMap<Mistake, Score>) -> String {
    let percent = |n: usize, of: usize| format!("{:.0}%", 100.0 * n as f64 / of.max(1) as f64);
    let mut text = String::from(
        "| fault | mistake named | files that differ | named first, with the input | without it |\n\
         |---|---|---|---|---|\n",
    );
    for fault in Mistake::SIMULATED {
        let score = scores.get(&fault).copied().unwrap_or_default();
        text += &format!(
            "| `{fault}` | {} | {} | {} | {} |\n",
            fault.label(),
            score.differing,
            percent(score.right_with_input, score.differing),
            percent(score.right_without_input, score.differing),
        );
    }
    text
}

/// For every fault whose output differs from the right one, `check` with the case's
/// input names that fault's mistake first (or that of a fault whose program writes
/// the very same bytes on the case): 100% on every fault, over positions of every
/// category, depths 0-6, both players, three releases and the minimax task. The
/// table (with the rate without the input, which only reads the text) is printed;
/// `cargo test --release --test mutants -- --ignored --nocapture` runs the large
/// sweep.
#[test]
fn check_names_every_single_fault() {
    let scores = measure(ci_problems());
    println!("{}", table(&scores));
    for fault in Mistake::SIMULATED {
        let score = scores.get(&fault).copied().unwrap_or_default();
        assert_eq!(score.right_with_input, score.differing, "{fault}");
    }
}

#[test]
#[ignore = "a large sweep: run with --release -- --ignored --nocapture"]
fn check_names_every_single_fault_large_sweep() {
    let scores = measure(&generated_problems(25, 2017));
    println!("{}", table(&scores));
    for fault in Mistake::SIMULATED {
        let score = scores.get(&fault).copied().unwrap_or_default();
        assert!(score.differing > 0, "{fault} never changes an output");
        assert_eq!(score.right_with_input, score.differing, "{fault}");
    }
}

/// How `check --all` does on two faults at once.
#[derive(Clone, Copy, Debug, Default)]
struct PairScore {
    /// Files of two faults that differ from what either fault writes alone.
    tried: usize,
    /// Both faults' mistakes are listed.
    both_named: usize,
    /// Not both, but the faults listed reproduce the file byte for byte: another
    /// explanation of the same bytes, as right as the one the file was made with.
    equivalent: usize,
}

/// Two faults on together, on every problem: `check --all` must list the mistakes of
/// both, or a set of faults whose program writes the same bytes. `pairs_per_problem`
/// pairs of each problem, taken in turn from all pairs of the catalogue.
fn measure_pairs(problems: &[Problem], pairs_per_problem: usize) -> PairScore {
    let all_pairs: Vec<(Mistake, Mistake)> = Mistake::SIMULATED
        .iter()
        .enumerate()
        .flat_map(|(i, &f)| Mistake::SIMULATED[i + 1..].iter().map(move |&g| (f, g)))
        .collect();
    let mut score = PairScore::default();
    let style = Style::default();
    let mut next = 0;
    for problem in problems {
        let expected = solve_problem(problem, style);
        for _ in 0..pairs_per_problem {
            let (f, g) = all_pairs[next % all_pairs.len()];
            next += 7;
            // (a fault that cannot happen in this problem's release or task is never
            // tried there by `check`)
            if !f.applies_to(problem) || !g.applies_to(problem) {
                continue;
            }
            let write = |faults: Faults| mutants::write(problem, style, faults, 100_000);
            let Some(output) = write(Faults::one(f).with(g)) else {
                continue;
            };
            let alone = [
                write(Faults::one(f)),
                write(Faults::one(g)),
                Some(expected.clone()),
            ];
            if alone.iter().any(|a| a.as_deref() == Some(&output[..])) {
                continue;
            }
            score.tried += 1;
            let report = check_with_input(&expected, &output, false, Some(problem));
            let listed: Vec<Mistake> = report.mistakes.iter().filter_map(|l| l.mistake).collect();
            if listed.contains(&f) && listed.contains(&g) {
                score.both_named += 1;
                continue;
            }
            let found: Faults = report
                .mistakes
                .iter()
                .filter(|l| l.from_catalogue)
                .filter_map(|l| l.mistake)
                .collect();
            if write(found).as_deref() == Some(&output[..]) {
                score.equivalent += 1;
            } else {
                eprintln!(
                    "{f} + {g}: listed {found} {problem:?}\n{}",
                    report.listing()
                );
            }
        }
    }
    score
}

/// Two faults at once: `check --all` lists both (or faults that write the same
/// bytes). A sample of pairs on a sample of cases; the large sweep below tries more.
#[test]
fn check_all_names_both_faults_of_two() {
    let problems: Vec<Problem> = ci_problems().iter().step_by(3).cloned().collect();
    let score = measure_pairs(&problems, 9);
    println!("{score:?}");
    assert!(score.tried > 25, "{score:?}");
    assert_eq!(
        score.both_named + score.equivalent,
        score.tried,
        "{score:?}"
    );
}

#[test]
#[ignore = "a large sweep: run with --release -- --ignored --nocapture"]
fn check_all_names_both_faults_of_two_large_sweep() {
    let score = measure_pairs(&generated_problems(5, 561), 60);
    println!("{score:?}");
    assert_eq!(
        score.both_named + score.equivalent,
        score.tried,
        "{score:?}"
    );
}

/// Faults met in students' programs (testcases/corpus): the mutant with the fault writes
/// byte for byte what the program wrote (LF line ends, a final one when it wrote
/// one), and the mutant without it does not.
#[test]
fn faults_of_the_corpus_write_what_the_students_programs_wrote() {
    for (case, fault) in [
        // the depth-1 board kept whenever a child returns a greater value
        ("chenglin-ai-s2017-1", Mistake::BestGrandchildBoard),
        ("chenglin-ai-s2017-2", Mistake::BestGrandchildBoard),
        // the player read as "X\r", the board by cell
        ("prince-reversi-s2017-1", Mistake::InputCrPlayer),
        ("prince-reversi-s2017-2", Mistake::InputCrPlayer),
        ("rishabh-alphabeta-s2017-1", Mistake::InputCrColoursLate),
        // Fall 2014's end rule without the full board
        ("stormhair-csci561-f2014-1", Mistake::FullBoardNotTerminal),
        // a MIN pass that calls the MAX function for the same player
        ("slyar-cs561-search-f2014-1", Mistake::MinPassKeepsSide),
    ] {
        let dir = format!("{}/testcases/corpus/{case}", env!("CARGO_MANIFEST_DIR"));
        let read = |name: &str| fs::read(format!("{dir}/{name}")).unwrap();
        let problem = cs561::parse(&read("input.txt"), None).unwrap();
        let actual = read("actual.txt");
        let style = Style {
            line_end: LineEnd::Lf,
            final_newline: actual.ends_with(b"\n"),
        };
        let write = |faults: Faults| mutants::write(&problem, style, faults, 100_000).unwrap();
        assert!(write(Faults::one(fault)) == actual, "{case}: {fault}");
        assert!(write(Faults::NONE) != actual, "{case}");
    }
    // The catalogue's first CR program keeps the CR in the rows: not these files.
    let dir = format!(
        "{}/testcases/corpus/prince-reversi-s2017-1",
        env!("CARGO_MANIFEST_DIR")
    );
    let problem = cs561::parse(&fs::read(format!("{dir}/input.txt")).unwrap(), None).unwrap();
    let style = Style {
        line_end: LineEnd::Lf,
        final_newline: false,
    };
    let cr = mutants::write(&problem, style, Faults::one(Mistake::InputCr), 1_000).unwrap();
    assert!(cr.starts_with(b"********\r\n"));
}

/// D = 0 searched to the end of the game (a cut-off test `depth == D` on children):
/// on a board with one empty square the mutant plays it, and `check` names the fault.
#[test]
fn zero_depth_ignored_searches_to_the_end() {
    let mut rows = vec!["XXXXXXXX"; 7];
    rows.push("XXXXXOX*");
    let input = format!("O\n0\n{}\n", rows.join("\n"));
    let problem = cs561::parse(input.as_bytes(), None).unwrap();
    let style = Style::default();
    let expected = solve_problem(&problem, style);
    let faults = Faults::one(Mistake::ZeroDepthIgnored);
    let output =
        String::from_utf8(mutants::write(&problem, style, faults, 1_000).unwrap()).unwrap();
    assert!(
        output.contains("\r\nroot,0,-Infinity,-Infinity,Infinity\r\nh8,1,Infinity,"),
        "{output}"
    );
    assert!(output.starts_with("XXXXXXXX\r\n"), "{output}");
    assert!(output.contains("\r\nXXXXXOOO\r\nNode,"), "{output}");
    let report = check_with_input(&expected, output.as_bytes(), false, Some(&problem));
    let named = report.difference.and_then(|d| d.mistake);
    assert_eq!(named, Some(Mistake::ZeroDepthIgnored));
}
