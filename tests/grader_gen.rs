//! `reversi gen`: the same seed gives the same bytes, every category gives what it
//! promises, and every generated case passes `batch`.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use reversi::explain::catching::caught_by;
use reversi::format::cs561::{self, Dialect, Player};
use reversi::format::Style;
use reversi::grading::gen::{generate, generate_catching, Category, GenOptions};

use common::NoArgs;
use reversi::explain::mutants::Faults;

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

fn reversi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// Every file under `dir`, by relative path, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let name = e.path().strip_prefix(dir).unwrap().display().to_string();
            (name, fs::read(e.path()).unwrap())
        })
        .collect();
    all.sort();
    all
}

#[test]
fn same_seed_same_bytes() {
    let root = tempfile::tempdir().unwrap();
    let run = |name: &str, seed: &str| {
        let out = root.path().join(name);
        let output = reversi(&[
            "gen",
            "--count",
            "12",
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        files(&out)
    };
    let first = run("a", "42");
    assert_eq!(first.len(), 24, "input.txt and output.txt for 12 cases");
    assert_eq!(first, run("b", "42"));
    assert_ne!(first, run("c", "43"));
}

#[test]
fn generated_cases_pass_batch_in_every_dialect_and_byte_form() {
    let root = tempfile::tempdir().unwrap();
    let variants: [&[&str]; 4] = [
        &[],
        &["--dialect", "s2017-jan", "--eol", "lf"],
        &["--dialect", "f2014", "--final-newline"],
        &["--dialect", "f2014", "--task", "minimax"],
    ];
    for (i, extra) in variants.iter().enumerate() {
        let out = root.path().join(i.to_string());
        let mut args = vec![
            "gen",
            "--count",
            "16",
            "--seed",
            "9",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        assert_eq!(reversi(&args).status.code(), Some(0));
        let batch = reversi(&["batch", out.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&batch.stdout);
        assert_eq!(batch.status.code(), Some(0), "{extra:?}: {text}");
        assert!(text.ends_with("16 cases: 16 passed\n"), "{text}");
    }
    let jan = fs::read_to_string(root.path().join("1/001-opening/args")).unwrap();
    assert_eq!(jan, "--dialect s2017-jan --eol lf");
    let f2014 = fs::read(root.path().join("2/001-opening/input.txt")).unwrap();
    assert!(f2014.starts_with(b"3\r\n") && f2014.ends_with(b"\r\n"));
    let minimax = fs::read(root.path().join("3/001-opening/output.txt")).unwrap();
    assert!(String::from_utf8(minimax)
        .unwrap()
        .contains("\r\nNode,Depth,Value\r\n"));
    let out = root.path().join("s2017-minimax");
    let args = [
        "gen", "--count", "1", "--seed", "1", "--task", "minimax", "--out",
    ];
    let task2 = reversi(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(task2.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&task2.stderr).contains("only f2014 has tasks"));
}

#[test]
fn a_non_empty_out_folder_is_refused() {
    let root = tempfile::tempdir().unwrap();
    fs::write(root.path().join("keep.txt"), "mine").unwrap();
    let output = reversi(&[
        "gen",
        "--count",
        "1",
        "--seed",
        "1",
        "--out",
        root.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not empty"));
}

/// The fields of a log line: name, depth, value, alpha, beta.
fn fields(line: &str) -> (&str, u32, i32, i32, i32) {
    let parts: Vec<&str> = line.split(',').collect();
    let number = |s: &str| match s {
        "Infinity" => i32::MAX,
        "-Infinity" => i32::MIN,
        s => s.parse().unwrap(),
    };
    (
        parts[0],
        parts[1].parse().unwrap(),
        number(parts[2]),
        number(parts[3]),
        number(parts[4]),
    )
}

/// Two root moves return the root's final value: the last line of each child
/// before the root prints again.
fn root_tie(log: &[&str]) -> bool {
    let root_value = fields(log[log.len() - 1]).2;
    let tied = log.windows(2).filter(|w| {
        let (name, depth, value, ..) = fields(w[0]);
        depth == 1 && fields(w[1]).1 == 0 && value == root_value && name != "pass"
    });
    tied.count() >= 2
}

/// A node printed after a child with v = beta (MAX, even depth) or v = alpha (MIN).
fn equal_cutoff(log: &[&str]) -> bool {
    log.windows(2).any(|w| {
        let (_, child_depth, ..) = fields(w[0]);
        let (_, depth, value, alpha, beta) = fields(w[1]);
        child_depth == depth + 1 && value == if depth % 2 == 0 { beta } else { alpha }
    })
}

#[test]
fn a_fixed_depth_is_kept() {
    let options = GenOptions {
        count: 6,
        seed: 5,
        categories: vec![Category::Endgame, Category::PassChain, Category::Tie],
        dialect: Dialect::S2017,
        style: Style::default(),
        max_lines: 500,
        task: reversi::format::cs561::Task::AlphaBeta,
        depth: Some(3),
    };
    let cases = generate(&options, &NoArgs).unwrap();
    assert!(cases.iter().all(|c| c.depth == 3));
    let contradiction = GenOptions {
        categories: vec![Category::Depth0],
        ..options
    };
    assert!(generate(&contradiction, &NoArgs).is_err());
}

#[test]
fn every_category_gives_what_it_promises() {
    let options = GenOptions {
        count: 40,
        seed: 2017,
        categories: Vec::new(),
        dialect: Dialect::S2017,
        style: Style::default(),
        max_lines: 300,
        task: reversi::format::cs561::Task::AlphaBeta,
        depth: None,
    };
    let cases = generate(&options, &NoArgs).unwrap();
    for case in &cases {
        let problem = cs561::parse(&case.input, None).unwrap();
        let root = problem.root();
        let log: Vec<&str> = std::str::from_utf8(&case.output)
            .unwrap()
            .split("\r\n")
            .skip(9)
            .collect();
        assert_eq!(log.len() as u64, case.log_lines);
        assert!(case.log_lines <= 300, "{}", case.name);
        let ok = match case.category {
            Category::Opening | Category::Midgame | Category::Endgame => root.moves() != 0,
            Category::RootMustPass => root.moves() == 0 && root.pass().moves() != 0,
            Category::GameOverAtRoot => root.moves() == 0 && root.pass().moves() == 0,
            Category::PassChain => log.windows(2).any(|w| {
                let depth = |l: &str| l.split(',').nth(1).unwrap().parse::<u32>().unwrap();
                w[0].starts_with("pass,")
                    && w[1].starts_with("pass,")
                    && depth(w[1]) == depth(w[0]) + 1
            }),
            Category::OToMove => problem.player == Player::O && root.moves() != 0,
            Category::Depth0 => problem.depth == 0 && case.log_lines == 1,
            Category::Tie => root_tie(&log),
            Category::EqualCutoff => equal_cutoff(&log),
        };
        assert!(
            ok,
            "{} does not fit its category:\n{}",
            case.name,
            String::from_utf8_lossy(&case.output)
        );
    }
    let chosen = GenOptions {
        categories: vec![Category::PassChain],
        count: 3,
        ..options
    };
    assert!(generate(&chosen, &NoArgs)
        .unwrap()
        .iter()
        .all(|c| c.category == Category::PassChain));
}

#[test]
fn cases_that_catch_every_fault_their_candidates_catch() {
    let options = GenOptions {
        count: 24,
        seed: 77,
        categories: Vec::new(),
        dialect: Dialect::S2017,
        style: Style::default(),
        max_lines: 150,
        task: reversi::format::cs561::Task::AlphaBeta,
        depth: None,
    };
    let set = generate_catching(&options, &NoArgs).unwrap();
    assert_eq!(set.candidates, 24);
    let candidates = generate(&options, &NoArgs).unwrap();
    let by_any: Faults = candidates
        .iter()
        .flat_map(|c| caught_by(&c.problem, Style::default()).iter())
        .collect();
    let by_chosen: Faults = set.matrix.caught.iter().flat_map(|f| f.iter()).collect();
    assert_eq!(by_chosen, by_any);
    assert!(set.cases.len() < candidates.len() / 2, "{}", set.matrix);
    for (case, caught) in set.cases.iter().zip(&set.matrix.caught) {
        assert_eq!(*caught, caught_by(&case.problem, Style::default()));
    }
    // Written as a case folder, they pass batch; the command prints the matrix.
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("catching");
    let output = reversi(&[
        "gen",
        "--catch-every-fault",
        "--candidates",
        "24",
        "--seed",
        "77",
        "--max-lines",
        "150",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains("fault \\ case") && text.contains(" chosen from 24 catch "));
    assert_eq!(files(&out).len(), 2 * set.cases.len());
    let batch = reversi(&["batch", out.to_str().unwrap()]);
    assert_eq!(batch.status.code(), Some(0));
}

#[test]
fn the_official_spring_2017_cases_miss_some_faults() {
    let dir = format!("{}/testcases/cs561/s2017", env!("CARGO_MANIFEST_DIR"));
    let output = reversi(&["batch", &dir, "--mutants"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "a fault no case catches fails"
    );
    insta::assert_snapshot!(String::from_utf8_lossy(&output.stdout));
}
