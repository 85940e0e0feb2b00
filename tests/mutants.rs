//! The mutant solver (`grader::mutants`), a second and plain implementation of the
//! CSCI-561 search: with no fault on it writes our solver's output byte for byte, on
//! every case of `testcases/` and on generated cases of every category, depth,
//! player, dialect and task; each fault changes the output where it should.

use std::fs;

use pretty_assertions::assert_eq;
use reversi::format::cs561::{self, Dialect, Problem, Task};
use reversi::format::{LineEnd, Style};
use reversi::grader::batch::{solve_problem, ArgsSyntax, CaseOptions};
use reversi::grader::gen::{generate, Category, GenOptions};
use reversi::grader::mutants::{self, Fault, Faults};

/// `args` files are not looked at here.
struct NoArgs;

impl ArgsSyntax for NoArgs {
    fn parse(&self, _: &str) -> Result<CaseOptions, String> {
        Ok(CaseOptions::default())
    }
    fn render(&self, _: &CaseOptions) -> String {
        String::new()
    }
}

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
/// include `o-to-move`, and playouts leave either side to move), the three dialects
/// and the minimax task; `per_set` cases of each set.
fn generated_problems(per_set: usize, seed: u64) -> Vec<Problem> {
    use Category::*;
    let all: Vec<Category> = Vec::new();
    let late = vec![Endgame, PassChain, RootMustPass, GameOverAtRoot];
    let sets: [(Dialect, Task, Option<u32>, &[Category]); 9] = [
        (Dialect::S2017, Task::AlphaBeta, None, &all),
        (
            Dialect::S2017,
            Task::AlphaBeta,
            Some(0),
            &[Opening, Midgame, OToMove],
        ),
        (
            Dialect::S2017,
            Task::AlphaBeta,
            Some(1),
            &[Opening, Midgame, Endgame, OToMove, Tie, RootMustPass],
        ),
        (
            Dialect::S2017,
            Task::AlphaBeta,
            Some(3),
            &[Endgame, Tie, EqualCutoff, PassChain],
        ),
        (Dialect::S2017, Task::AlphaBeta, Some(5), &late),
        (Dialect::S2017, Task::AlphaBeta, Some(6), &late),
        (Dialect::S2017Jan, Task::AlphaBeta, None, &all),
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
            count: per_set,
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
    for (i, problem) in generated_problems(8, 1).iter().enumerate() {
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
        Faults::one(Fault::NoPruning),
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
    let with = |fault: Fault| {
        let bytes = mutants::write(&problem, Style::default(), Faults::one(fault), 10_000).unwrap();
        String::from_utf8(bytes).unwrap()
    };
    assert!(with(Fault::UpdateBeforeCutoff).contains("\r\nc4,1,-3,-3,-3\r\n"));
    assert!(with(Fault::FloatValues).contains("\r\nc3,2,-3.0,-Infinity,Infinity\r\n"));
    assert!(with(Fault::InfSpelling).contains("\r\nroot,0,-inf,-inf,inf\r\n"));
    assert!(with(Fault::DepthFromOne).contains("\r\nroot,1,-Infinity,-Infinity,Infinity\r\nd3,2,"));
    assert!(with(Fault::SpacedBoard).starts_with("* * * * * * * *\r\n"));
    assert!(with(Fault::MissingBoard).starts_with("Node,Depth,Value,Alpha,Beta\r\nroot,0,"));
    assert!(with(Fault::MissingHeader).contains("********\r\nroot,0,"));
    assert!(with(Fault::LineEnds).contains("\nroot,0,-Infinity,-Infinity,Infinity\nd3,"));
    assert!(with(Fault::FinalNewline).ends_with("root,0,-3,-3,Infinity\r\n"));
    // The CR fault: no disc is the player's, both sides pass, the rows keep their CR.
    let cr = with(Fault::InputCr);
    assert!(cr.starts_with("********\r\r\n"), "{cr:?}");
    assert!(cr.ends_with("root,0,-Infinity,-Infinity,Infinity\r\npass,1,Infinity,-Infinity,Infinity\r\npass,2,0,-Infinity,Infinity\r\npass,1,0,-Infinity,0\r\nroot,0,0,0,Infinity"), "{cr:?}");
    // A MIN node printing max(alpha, v) on entry is fail-hard.
    assert!(with(Fault::FailHard).contains("\r\nc4,1,Infinity,-3,Infinity\r\n"));
    // Strict pruning goes on after c4 reaches alpha.
    assert!(with(Fault::StrictPruning).contains("\r\nc4,1,-3,-3,-3\r\nc5,2,"));
}
