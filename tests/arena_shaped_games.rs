//! `reversi arena --protocol tristate --openings BOARDS` (docs/arena.md, "Games on
//! boards of any shape"): a class of agents of our own (`tests/arena/tristate.py`)
//! plays whole games against our engine at a fixed depth from the course's board
//! files (6x6, and 10x8 with blocked cells), every game replayed by an independent
//! Tri-state referee written here; a forfeit on the shaped board; CSU's B/A from such
//! games; what cannot follow them refused.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/arena_class.rs"]
mod arena_class;

use std::fs;
use std::path::{Path, PathBuf};

use arena_class::{arena, class_of, forfeits, games_of, read_json};
use sandboxed::{Mode, Traces, World};
use serde_json::Value;

/// The 6x6 start, black to move.
const SMALL: &str = "B 6 6\n------\n------\n--WB--\n--BW--\n------\n------\n";
/// A 10x8 board with six blocked cells, white to move.
const WIDE: &str = "W 10 8\nE--------E\n----------\n---E------\n----WB----\n----BW----\n------E---\n----------\nE--------E\n";

/// The board files in a folder `boards` under `dir`, in name order 6x6 then 10x8.
fn boards(dir: &Path) -> PathBuf {
    let folder = dir.join("boards");
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join("a-small.txt"), SMALL).unwrap();
    fs::write(folder.join("b-wide.txt"), WIDE).unwrap();
    folder
}

/// A board as this test's own referee holds it: the side to move (`B`/`W`) and the
/// rows of cells.
#[derive(Clone, Debug, PartialEq)]
struct Board {
    me: u8,
    rows: Vec<Vec<u8>>,
}

/// The 8 directions as (column step, row step).
fn directions() -> impl Iterator<Item = (i64, i64)> {
    (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
        .filter(|&step| step != (0, 0))
}

impl Board {
    fn parse(text: &str) -> Board {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
        let (width, height): (usize, usize) =
            (header[1].parse().unwrap(), header[2].parse().unwrap());
        let rows: Vec<Vec<u8>> = lines.map(|l| l.trim().as_bytes().to_vec()).collect();
        assert_eq!(rows.len(), height);
        assert!(rows.iter().all(|r| r.len() == width));
        Board {
            me: header[0].as_bytes()[0],
            rows,
        }
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{} {} {}\n",
            self.me as char,
            self.rows[0].len(),
            self.rows.len()
        );
        for row in &self.rows {
            text += std::str::from_utf8(row).unwrap();
            text += "\n";
        }
        text
    }

    fn you(&self) -> u8 {
        if self.me == b'B' {
            b'W'
        } else {
            b'B'
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<u8> {
        let row = self.rows.get(usize::try_from(y).ok()?)?;
        row.get(usize::try_from(x).ok()?).copied()
    }

    /// The discs `me` would flip at (x, y) (empty: not a move).
    fn flips(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        if self.rows[y][x] != b'-' {
            return Vec::new();
        }
        let mut all = Vec::new();
        for (dx, dy) in directions() {
            let (mut cx, mut cy) = (x as i64 + dx, y as i64 + dy);
            let mut line = Vec::new();
            while self.at(cx, cy) == Some(self.you()) {
                line.push((cx as usize, cy as usize));
                cx += dx;
                cy += dy;
            }
            if !line.is_empty() && self.at(cx, cy) == Some(self.me) {
                all.extend(line);
            }
        }
        all
    }

    fn moves(&self) -> usize {
        (0..self.rows.len())
            .flat_map(|y| (0..self.rows[0].len()).map(move |x| (x, y)))
            .filter(|&(x, y)| !self.flips(x, y).is_empty())
            .count()
    }

    fn passed(&self) -> Board {
        Board {
            me: self.you(),
            rows: self.rows.clone(),
        }
    }

    fn over(&self) -> bool {
        self.moves() == 0 && self.passed().moves() == 0
    }

    fn count(&self, disc: u8) -> u64 {
        self.rows.iter().flatten().filter(|&&c| c == disc).count() as u64
    }
}

/// Replays `game` of a JSON report from its board file: every move legal by this
/// test's rules (`pass` only with no move), and at the end either the forfeit, at
/// the board reached, or the game over; the discs and the winner as reported.
fn replay(game: &Value) {
    let mut board = Board::parse(game["start"].as_str().unwrap());
    for name in game["moves"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        if name == "pass" {
            assert_eq!(board.moves(), 0, "a pass with a move: {game}");
            board = board.passed();
            continue;
        }
        let (x, y) = name
            .strip_prefix('(')
            .and_then(|n| n.strip_suffix(')'))
            .and_then(|n| n.split_once(','))
            .map(|(x, y)| (x.parse::<usize>().unwrap(), y.parse::<usize>().unwrap()))
            .unwrap_or_else(|| panic!("{name}: not a cell"));
        let flips = board.flips(x, y);
        assert!(!flips.is_empty(), "{name} illegal: {game}");
        let me = board.me;
        board.rows[y][x] = me;
        for (fx, fy) in flips {
            board.rows[fy][fx] = me;
        }
        board = board.passed();
    }
    let (white, black) = (board.count(b'W'), board.count(b'B'));
    assert_eq!(game["discs"]["white"], white, "{game}");
    assert_eq!(game["discs"]["black"], black, "{game}");
    if game["forfeit"].is_null() {
        assert!(board.over(), "not over: {game}");
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Greater => "white",
            std::cmp::Ordering::Less => "black",
            std::cmp::Ordering::Equal => "draw",
        };
        assert_eq!(game["winner"], winner, "{game}");
    } else {
        let forfeit = &game["forfeit"];
        assert_eq!(forfeit["position"], board.text(), "{game}");
        let side = if board.me == b'W' { "white" } else { "black" };
        assert_eq!(forfeit["player"], game[side], "{game}");
        assert_ne!(game["winner"], side, "{game}");
        assert_eq!(
            forfeit["move"].as_u64().unwrap(),
            game["moves"].as_array().unwrap().len() as u64 + 1
        );
    }
}

every_sandbox! {
    /// An always-legal agent, one keeping files from move to move, and an illegal one
    /// against our engine at depth 2, four games each from a 6x6 and a 10x8 board
    /// with blocked cells (two on each, colours swapped): the games played out, each
    /// replayed legal, the agent's folder kept within a game and not beyond; the
    /// illegal agent forfeits each game at its first move with the shaped board in
    /// the reports; nothing left behind.
    fn a_class_plays_whole_games_on_shaped_boards(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = class_of(world.path(), "tristate.py", &["first", "illegal", "keeps-state"]);
        let folder = boards(world.path());
        let json = world.path().join("result.json");
        let csv = world.path().join("result.csv");
        let traces = Traces::now();
        let mut args = vec![
            "arena", class.to_str().unwrap(), "--protocol", "tristate", "--opponent",
            "engine:depth=2", "--games", "4", "--seconds", "1", "--openings",
            folder.to_str().unwrap(), "-j", "2", "--json", json.to_str().unwrap(), "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend(mode.flags());
        let grading = sandboxed::grader(&world, &args, sandboxed::Launch::default());
        assert_eq!(grading.code, Some(0), "{}", grading.stderr);
        let stdout = &grading.stdout;
        let report = read_json(&json);
        let words = format!(
            "openings: 2 board files of {} (1 of 6x6, 1 of 10x8 with 6 blocked cells), each \
             game from its file's board and side to move, the files in name order; moves are \
             cells (x,y), column and row 0-based; no game reviews (they are 8x8)\n",
            folder.display()
        );
        assert!(stdout.contains(&words), "{stdout}");
        assert!(!stdout.contains("reviews: our engine"), "{stdout}");
        let games = report["games"].as_array().unwrap();
        assert_eq!(games.len(), 12);
        for (k, game) in games.iter().enumerate() {
            // Each pairing's games: two on the 6x6 board, then two on the 10x8.
            let (shape, start) = if k % 4 < 2 {
                ("6x6", SMALL)
            } else {
                ("10x8 with 6 blocked cells", WIDE)
            };
            assert_eq!(game["shape"], shape, "{game}");
            assert_eq!(game["start"], start, "{game}");
            replay(game);
        }
        let first = games_of(&report, "first");
        assert_eq!(first.len(), 4);
        // `keeps-state` finds its folder of the game's earlier moves at every move.
        for game in first.iter().chain(&games_of(&report, "keeps-state")) {
            assert!(game["forfeit"].is_null(), "{game}");
        }
        // Whole games: the 10x8 board's 70 playable empty cells mostly filled.
        assert!(first[2]["moves"].as_array().unwrap().len() > 40, "{}", first[2]);
        let lost = forfeits(&report, "illegal", "answer");
        assert_eq!(lost.len(), 4, "{stdout}");
        assert!(lost.iter().all(|(reason, _)| reason == "illegal move"), "{lost:?}");
        // As white on the 10x8 board it moves first: the first empty cell that flanks
        // nothing, row-major.
        let wide_white = games_of(&report, "illegal")
            .into_iter()
            .find(|g| g["white"] == "illegal" && g["shape"] != "6x6")
            .unwrap();
        assert_eq!(wide_white["forfeit"]["answer"], "(1,0)");
        assert_eq!(wide_white["forfeit"]["move"], 1);
        assert!(
            stdout.contains(
                "illegal forfeits: illegal move at move 1 on W 10 8 / E--------E / ---------- / \
                 ---E------ / ----WB---- / ----BW---- / ------E--- / ---------- / E--------E: \
                 answered `(1,0)`; column 1, row 0 (0-based) flanks no disc: not a legal move"
            ),
            "{stdout}"
        );
        // The standings count these games as any.
        let players = report["players"].as_array().unwrap();
        let illegal = players.iter().find(|p| p["name"] == "illegal").unwrap();
        assert_eq!((illegal["games"].as_u64(), illegal["losses"].as_u64()), (Some(4), Some(4)));
        assert_eq!(illegal["forfeits"], 4);
        let text = fs::read_to_string(&csv).unwrap();
        assert!(text.starts_with("player,games,wins,draws,losses,forfeits,"), "{text}");
        assert!(text.contains("\r\nillegal,4,0,0,4,4,0.0000,"), "{text}");
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}

/// Runs the arena on the class of `modes` with `extra` options: the code, stdout,
/// stderr, and the JSON report (when it ran).
fn run(dir: &Path, modes: &[&str], extra: &[&str]) -> (Option<i32>, String, String, Value) {
    let class = class_of(dir, "tristate.py", modes);
    let folder = boards(dir);
    let json = dir.join("out.json");
    let _ = fs::remove_file(&json);
    let mut args = vec![
        class.to_str().unwrap(),
        "--protocol",
        "tristate",
        "--openings",
        folder.to_str().unwrap(),
        "--seconds",
        "1",
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend(extra);
    let (code, stdout, stderr) = arena(&args);
    let report = fs::read_to_string(&json)
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap_or(Value::Null);
    (code, stdout, stderr, report)
}

/// CSU's policy on games from board files: the legality suite on the same boards for
/// the C, then B/A from the games against the reference, the mark as the policy's
/// rule gives it from the reported games (recomputed here); an agent that beats
/// every game of the one it is graded against is clearly better (A).
#[test]
fn csu_grades_shaped_games() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("boards");
    for (against, format) in [("engine:depth=2", "gauntlet"), ("skip", "round-robin")] {
        let (code, stdout, stderr, report) = run(
            dir.path(),
            &["first", "skip"],
            &[
                "--opponent",
                "engine:depth=2",
                "--format",
                format,
                "--games",
                "4",
                "--policy",
                "csu",
                "--positions",
                folder.to_str().unwrap(),
                "--grade-against",
                against,
            ],
        );
        assert_eq!(code, Some(0), "{stderr}");
        for game in report["games"].as_array().unwrap() {
            replay(game);
        }
        let grades = report["grading"]["grades"].as_array().unwrap();
        let grade = |name: &str| grades.iter().find(|g| g["name"] == name).unwrap().clone();
        // The suite: `first` always legal, `skip` never (each board has a move).
        assert_eq!(grade("skip")["mark"], "none", "{stdout}");
        // Its score against the reference, with one virtual draw, ± 1.96 standard errors.
        let mut scores: Vec<f64> = games_of(&report, "first")
            .into_iter()
            .filter(|g| g["white"] == against || g["black"] == against)
            .map(|g| {
                let side = if g["white"] == "first" {
                    "white"
                } else {
                    "black"
                };
                match g["winner"].as_str().unwrap() {
                    "draw" => 0.5,
                    w if w == side => 1.0,
                    _ => 0.0,
                }
            })
            .collect();
        assert_eq!(scores.len(), 4);
        scores.push(0.5);
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let sd = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n).sqrt();
        let (low, high) = (mean - 1.96 * sd / n.sqrt(), mean + 1.96 * sd / n.sqrt());
        let mark = if low > 0.5 {
            "A"
        } else if high >= 0.5 {
            "B"
        } else {
            "C"
        };
        let first = grade("first");
        assert_eq!(first["mark"], mark, "{first} {scores:?}");
        assert!(
            first["why"]
                .as_str()
                .unwrap()
                .starts_with("legality suite: 2/2 answered legally; scored "),
            "{first}"
        );
        if against == "skip" {
            // Every game of `skip` forfeited: `first` is clearly better.
            assert_eq!(first["mark"], "A", "{first}");
        }
        assert!(stdout.contains("csu"), "{stdout}");
    }
}

/// What cannot play or report a game on a board of any shape is refused with the
/// option named, before any game: references of the 8x8 board, NBoard engines, the
/// 8x8-only reports, the journal and shards, another protocol.
#[test]
fn what_cannot_follow_shaped_games_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (extra, named, words) in [
        (
            vec!["--opponent", "naive"],
            "--opponent",
            "naive plays on 8x8 only",
        ),
        (
            vec!["--opponent", "uf:beginner"],
            "--opponent",
            "uf:beginner plays on 8x8 only",
        ),
        (
            vec!["--opponent", "engine:nodes=5000"],
            "--opponent",
            "engine:nodes=5000 plays on 8x8 only",
        ),
        (
            vec!["--opponent", "nboard:true"],
            "--opponent",
            "nboard:true plays on 8x8 only",
        ),
        (
            vec!["--opponent", "engine:depth=1", "--games-dir", "g"],
            "--games-dir",
            "GGF",
        ),
        (
            vec!["--opponent", "engine:depth=1", "--html", "p.html"],
            "--html",
            "replay board",
        ),
        (
            vec!["--opponent", "engine:depth=1", "--junit", "j.xml"],
            "--junit",
            "8x8 boards",
        ),
        (
            vec!["--opponent", "engine:depth=1", "--gradescope", "r.json"],
            "--gradescope",
            "8x8 boards",
        ),
        (
            vec!["--opponent", "engine:depth=1", "--resume"],
            "--resume",
            "journal",
        ),
        (
            vec!["--opponent", "engine:depth=1", "--shard", "1/2"],
            "--shard",
            "arena merge",
        ),
    ] {
        let (code, stdout, stderr, report) = run(dir.path(), &["first"], &extra);
        assert_eq!(code, Some(2), "{extra:?}: {stderr}");
        assert!(
            stderr.contains(named) && stderr.contains(words),
            "{extra:?}: {stderr}"
        );
        assert!(stdout.is_empty() && report.is_null(), "{extra:?}: {stdout}");
    }
    // Board files are Tri-state's.
    let class = class_of(dir.path(), "tristate.py", &["first"]);
    let folder = boards(dir.path());
    let (code, _, stderr) = arena(&[
        class.to_str().unwrap(),
        "--protocol",
        "umea",
        "--opponent",
        "engine:depth=1",
        "--openings",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--protocol tristate"), "{stderr}");
}
