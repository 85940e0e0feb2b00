//! `reversi arena --protocol tristate` on Tri-state boards of any shape
//! (docs/arena.md): the legality suite from the course's own board files (6x6, 10x8,
//! blocked cells that break a line), each answer judged by the shaped rules, with
//! agents of our own (`tests/arena/tristate.py`: always legal, skipping with a move,
//! illegal, too slow).

#[path = "common/arena_class.rs"]
mod arena_class;

use std::fs;
use std::path::{Path, PathBuf};

use arena_class::{arena, class_of, openings, read_json, sheet_of};

/// A 10x8 board, black to move, four discs in the middle.
const WIDE: &str = "B 10 8\n----------\n----------\n----------\n----WB----\n----BW----\n----------\n----------\n----------\n";
/// The 6x6 start, black to move.
const SMALL: &str = "B 6 6\n------\n------\n--WB--\n--BW--\n------\n------\n";
/// 8x8 with blocked corners and a blocked cell on one of white's four moves.
const BLOCKED: &str =
    "W 8 8\nE------E\n--------\n----E---\n---WB---\n---BW---\n--------\n--------\nE------E\n";
/// Black's only line, to (0,0), is broken by the blocked cell: black must skip;
/// white has a move.
const SKIP: &str = "B 5 2\n-WEWB\nWB---\n";

/// The board files, one a file, in a folder `boards` under `dir`.
fn boards(dir: &Path) -> PathBuf {
    let folder = dir.join("boards");
    fs::create_dir_all(&folder).unwrap();
    for (name, text) in [
        ("a-wide.txt", WIDE),
        ("b-small.txt", SMALL),
        ("c-blocked.txt", BLOCKED),
        ("d-skip.txt", SKIP),
    ] {
        fs::write(folder.join(name), text).unwrap();
    }
    folder
}

/// Runs the legality suite of `class` on `positions` through `protocol`, with
/// `extra` options.
fn suite(
    class: &Path,
    protocol: &str,
    positions: &Path,
    extra: &[&str],
) -> (Option<i32>, String, String) {
    let mut args = vec![
        class.to_str().unwrap(),
        "--format",
        "legality",
        "--protocol",
        protocol,
        "--positions",
        positions.to_str().unwrap(),
    ];
    args.extend(extra);
    arena(&args)
}

/// The fields of a failure the tests compare.
const KEYS: [&str; 5] = ["reason", "file", "shape", "position", "answer"];

#[test]
fn the_suite_judges_board_files_of_any_shape() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(
        dir.path(),
        "tristate.py",
        &["first", "skip", "illegal", "spin"],
    );
    let folder = boards(dir.path());
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = suite(
        &class,
        "tristate",
        &folder,
        &[
            "--seconds",
            "0.2",
            "--start-allowance",
            "0.3",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("skip exactly when no move"), "{stdout}");
    assert!(
        stdout.contains(
            "4 board files of {} (1 of 10x8, 1 of 6x6, 1 of 8x8 with 5 blocked cells, 1 of \
             5x2 with 1 blocked cell)"
                .replace("{}", folder.to_str().unwrap())
                .as_str()
        ),
        "{stdout}"
    );
    let report = read_json(&json);
    assert_eq!(report["format"], "legality");

    // Always legal, and `skip` on the board where the blocked cell leaves no move.
    assert_eq!(sheet_of(&report, KEYS, "first"), (4, 4, vec![]), "{stdout}");
    assert!(stdout.contains("first: 4/4 positions answered legally"));

    // `skip` is right only where there is no move.
    let (legal, total, failures) = sheet_of(&report, KEYS, "skip");
    assert_eq!((legal, total), (1, 4));
    let expected: Vec<[String; 5]> = [
        ("a-wide.txt", "10x8", WIDE),
        ("b-small.txt", "6x6", SMALL),
        ("c-blocked.txt", "8x8 with 5 blocked cells", BLOCKED),
    ]
    .iter()
    .map(|(file, shape, text)| {
        [
            "pass with a legal move".to_string(),
            file.to_string(),
            shape.to_string(),
            text.to_string(),
            "skip".to_string(),
        ]
    })
    .collect();
    assert_eq!(failures, expected);
    assert!(
        stdout.contains(
            "  pass with a legal move in b-small.txt (6x6): answered `skip`; it had 4 legal \
             moves\n    board: B 6 6 / ------ / ------ / --WB-- / --BW-- / ------ / ------\n"
        ),
        "{stdout}"
    );

    // An empty cell that flanks nothing, on every board; through the blocked cell
    // on the last.
    let (legal, _, failures) = sheet_of(&report, KEYS, "illegal");
    assert_eq!(legal, 0);
    assert!(
        failures.iter().all(|f| f[0] == "illegal move"),
        "{failures:?}"
    );
    assert!(
        stdout.contains(
            "  illegal move in d-skip.txt (5x2 with 1 blocked cell): answered `(0,0)`; column \
             0, row 0 (0-based) flanks no disc: it had no legal move (skip)"
        ),
        "{stdout}"
    );
    // On the 8x8 board with blocked cells, the first empty cell that is not legal.
    assert_eq!(failures[2][4], "(1,0)");

    let (legal, _, failures) = sheet_of(&report, KEYS, "spin");
    assert_eq!(legal, 0);
    assert!(
        failures.iter().all(|f| f[0] == "over the time"),
        "{failures:?}"
    );
}

#[test]
fn blocked_cells_are_not_moves_and_skip_is_judged_by_them() {
    // The illegal agent falls back to a blocked cell when every empty cell is legal.
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(dir.path(), "tristate.py", &["illegal", "first"]);
    let board = dir.path().join("one.txt");
    // Black's one empty cell is legal; the blocked cell is not.
    fs::write(&board, "B 4 1\n-WBE\n").unwrap();
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = suite(
        &class,
        "tristate",
        &board,
        &["--seconds", "1", "--json", json.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    let (legal, total, failures) = sheet_of(&report, KEYS, "illegal");
    assert_eq!((legal, total), (0, 1), "{stdout}");
    assert_eq!(failures[0][4], "(3,0)");
    assert!(
        stdout.contains("column 3, row 0 (0-based) is a blocked cell (E): not a legal move"),
        "{stdout}"
    );
    assert_eq!(sheet_of(&report, KEYS, "first"), (1, 1, vec![]), "{stdout}");
    assert!(stdout.contains("1 board file of"), "{stdout}");
}

#[test]
fn bad_board_files_are_refused_before_any_answer() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(dir.path(), "tristate.py", &["first"]);
    let folder = boards(dir.path());
    let run = |protocol: &str, positions: &Path| suite(&class, protocol, positions, &[]);
    // Umea's agents read Umea positions.
    let (code, _, stderr) = run("umea", &folder);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--protocol tristate"), "{stderr}");
    // A row too short, named by its file and line.
    let bad = dir.path().join("bad");
    fs::create_dir_all(&bad).unwrap();
    fs::write(bad.join("x.txt"), "B 3 2\n---\n--\n").unwrap();
    let (code, _, stderr) = run("tristate", &bad);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("x.txt") && stderr.contains("line 3: expected a board row of 3 cells"),
        "{stderr}"
    );
    // A finished game has no answer to judge.
    let over = dir.path().join("over.txt");
    fs::write(&over, "B 3 1\nBWW\n").unwrap();
    let (code, _, stderr) = run("tristate", &over);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the game is over"), "{stderr}");
    // Games on board files take references that play any shape: naive is 8x8's.
    for openings in [folder.clone(), folder.join("b-small.txt")] {
        let (code, _, stderr) = arena(&[
            class.to_str().unwrap(),
            "--protocol",
            "tristate",
            "--opponent",
            "naive",
            "--openings",
            openings.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("naive plays on 8x8 only"), "{stderr}");
    }
}

#[test]
fn csu_takes_its_c_from_the_suite_then_plays_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(dir.path(), "tristate.py", &["first", "skip", "illegal"]);
    let folder = boards(dir.path());
    let openings = openings(dir.path(), 2, 8);
    let (json, junit) = (dir.path().join("out.json"), dir.path().join("out.xml"));
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--protocol",
        "tristate",
        "--opponent",
        "engine:depth=1",
        "--games",
        "4",
        "--openings",
        openings.to_str().unwrap(),
        "--policy",
        "csu",
        "--positions",
        folder.to_str().unwrap(),
        "--review-depth",
        "0",
        "--json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    // The games were played, and the suite's sheets are in the report.
    assert_eq!(report["games"].as_array().unwrap().len(), 12, "{stdout}");
    assert!(report["legality_positions"]
        .as_str()
        .unwrap()
        .starts_with("4 board files of"));
    assert_eq!(sheet_of(&report, KEYS, "first"), (4, 4, vec![]));
    assert_eq!(sheet_of(&report, KEYS, "skip").0, 1);
    assert!(
        stdout.contains("legality suite (csu's C): 4 board files of"),
        "{stdout}"
    );
    let grade = |name: &str| {
        report["grading"]["grades"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .unwrap()
            .clone()
    };
    let first = grade("first");
    assert_ne!(first["mark"], "none", "{first}");
    assert!(first["why"]
        .as_str()
        .unwrap()
        .starts_with("legality suite: 4/4 answered legally; scored "));
    for (name, legal, wrong) in [
        ("skip", 1, "pass with a legal move at position 1"),
        ("illegal", 0, "illegal move at position 1"),
    ] {
        let grade = grade(name);
        assert_eq!(grade["mark"], "none", "{grade}");
        assert_eq!(grade["points"], 0.0);
        let why = grade["why"].as_str().unwrap();
        assert!(
            why.starts_with(&format!(
                "legality suite: {legal}/4 answered legally (the first wrong: {wrong}): no C"
            )),
            "{why}"
        );
        // Its games were forfeited too: losses, named.
        assert!(why.ends_with("; 4 games forfeited (lost)"), "{why}");
    }
    // JUnit's grade testcase says why.
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("legality suite: 1/4 answered legally (the first wrong: pass with"),
        "{xml}"
    );
}

#[test]
fn csu_is_refused_where_no_suite_can_run() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(dir.path(), "tristate.py", &["first"]);
    for (protocol, extra, words) in [
        ("line", "--review-depth=0", "umea or tristate only"),
        ("tristate", "--shard=1/2", "not in shards"),
    ] {
        let (code, _, stderr) = arena(&[
            class.to_str().unwrap(),
            "--protocol",
            protocol,
            "--opponent",
            "naive",
            "--policy",
            "csu",
            extra,
        ]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
    }
}

#[test]
fn a_built_in_suite_of_a_shape_needs_no_board_files() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(dir.path(), "tristate.py", &["first", "skip"]);
    let json = dir.path().join("out.json");
    let builtin = Path::new("builtin:6x6");
    let (code, stdout, stderr) = suite(
        &class,
        "tristate",
        builtin,
        &["--seconds", "1", "--json", json.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains(
            "12 built-in positions of seed 1 (12 of 6x6 with 2 blocked cells), 2 of them skips"
        ),
        "{stdout}"
    );
    let report = read_json(&json);
    assert_eq!(
        sheet_of(&report, KEYS, "first"),
        (12, 12, vec![]),
        "{stdout}"
    );
    let (legal, _, failures) = sheet_of(&report, KEYS, "skip");
    assert_eq!(legal, 2, "{stdout}");
    // Each failure's board is the one the agent got, of the suite's shape.
    assert_eq!(failures.len(), 10);
    for [_, file, shape, board, _] in &failures {
        assert!(file.starts_with("built-in "), "{file}");
        assert_eq!(shape, "6x6 with 2 blocked cells");
        assert!(board[1..].starts_with(" 6 6\n"), "{board}");
        assert_eq!(board.matches('E').count(), 2, "{board}");
    }
    for (size, protocol) in [("builtin:3x9", "tristate"), ("builtin:6x6", "umea")] {
        let (code, _, stderr) = suite(&class, protocol, Path::new(size), &[]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(size), "{stderr}");
    }
}
