//! The arena's reports for the student (docs/arena.md): each game's review, the
//! grades of `--policy`. Agents of our own (`tests/arena_reports/agent.py`), games
//! from late mid-game positions so that they are short and their reviews exact.

#[path = "common/sandboxed.rs"]
mod sandboxed;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use reversi::board::{Board, Square, Squares};
use reversi::format::umea::{parse_position, position_text, START};
use reversi::splitmix::SplitMix64;
use sandboxed::BIN;
use serde_json::Value;

/// A class under `dir`: a folder per (name, mode), its `othello.sh` running our agent.
fn class(dir: &Path, agents: &[(&str, &str)]) -> PathBuf {
    let class = dir.join("class");
    for (name, mode) in agents {
        let folder = class.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::copy(
            sandboxed::root().join("tests/arena_reports/agent.py"),
            folder.join("agent.py"),
        )
        .unwrap();
        let script = folder.join("othello.sh");
        fs::write(
            &script,
            format!("#!/bin/sh\nexec python3 ./agent.py {mode} \"$@\"\n"),
        )
        .unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    }
    class
}

/// `count` positions of seeded random games with `empties` empty cells, the side to
/// move with a move.
fn openings(dir: &Path, count: usize, empties: u32, seed: u64) -> PathBuf {
    let mut random = SplitMix64::new(seed);
    let mut lines = Vec::new();
    while lines.len() < count {
        let mut position = START;
        loop {
            let board = position.board();
            let moves = board.moves();
            if moves == 0 && board.pass().moves() == 0 {
                break;
            }
            let empty = 64 - (position.white | position.black).count_ones();
            if empty <= empties && moves != 0 {
                lines.push(position_text(position));
                break;
            }
            position = position.after((moves != 0).then(|| random.square_of(moves)));
        }
    }
    let path = dir.join(format!("openings-{empties}-{seed}.txt"));
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Runs `reversi arena` with `args`: exit code, stdout, stderr.
fn arena(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(BIN).arg("arena").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The final disc margin for the side to move under perfect play (few empty cells).
fn solve(board: Board) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            return board.own.count_ones() as i32 - board.opp.count_ones() as i32;
        }
        return -solve(passed);
    }
    Squares(moves).map(|s| -solve(board.play(s))).max().unwrap()
}

fn square(text: &str) -> Square {
    let b = text.as_bytes();
    Square::new(b[1] - b'1', b[0] - b'a')
}

/// The usual run: the class against the naive opponent from late positions.
fn run(dir: &Path, class: &Path, empties: u32, extra: &[&str]) -> (Value, String) {
    let openings = openings(dir, 2, empties, 7);
    let json = dir.join("out.json");
    let mut args = vec![
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--games",
        "2",
        "--seconds",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = arena(&args);
    assert_eq!(code, Some(0), "{stderr}");
    (read_json(&json), stdout)
}

#[test]
fn every_game_is_reviewed_for_its_students_exactly_near_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first"), ("bob", "hostile")]);
    let (report, stdout) = run(dir.path(), &class, 8, &["--review-depth", "2", "-j", "2"]);
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let mut named = 0;
    for game in games {
        let review = game["review"].as_object().unwrap();
        assert!(!review.contains_key("naive"), "references are not reviewed");
        for (player, r) in review {
            let color = r["color"].as_str().unwrap();
            assert_eq!(game[color], player.as_str());
            for worst in r["worst"].as_array().unwrap() {
                // Eight empty cells: every value exact, checked by our own minimax.
                assert_eq!(worst["exact"], true);
                let number = worst["move"].as_u64().unwrap() as usize;
                assert_eq!(game["moves"][number - 1], worst["played"]);
                let position = parse_position(worst["position"].as_str().unwrap()).unwrap();
                let board = position.board();
                let value = |s: Square| -solve(board.play(s));
                let best = Squares(board.moves()).map(value).max().unwrap();
                let played = value(square(worst["played"].as_str().unwrap()));
                assert_eq!(value(square(worst["best"].as_str().unwrap())), best);
                assert_eq!(worst["loss"].as_f64().unwrap(), f64::from(best - played));
                assert!(best > played);
                named += 1;
            }
        }
    }
    assert!(
        named > 0,
        "the first-move agent never lost a disc: {report}"
    );
    // bob's first answer forfeits: its game's review has no move, its board is drawn.
    assert!(
        stdout.contains("reviews: our engine at depth 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bob forfeits: unreadable answer"),
        "{stdout}"
    );
    assert!(stdout.contains("   a b c d e f g h"), "{stdout}");
    assert!(
        stdout.contains("bob: 0 moves reviewed, 0 discs lost"),
        "{stdout}"
    );
    for key in [
        "white", "black", "start", "moves", "winner", "discs", "forfeit",
    ] {
        assert!(games[0].get(key).is_some(), "{key}");
    }
}

#[test]
fn reviews_can_be_turned_off_and_do_not_depend_on_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first"), ("carol", "last")]);
    let (off, stdout) = run(dir.path(), &class, 10, &["--review-depth", "0", "-j", "2"]);
    assert!(off["games"][0].get("review").is_none());
    assert!(!stdout.contains("reviews:"));
    let (one, _) = run(dir.path(), &class, 10, &["-j", "1"]);
    let (two, _) = run(dir.path(), &class, 10, &["-j", "2"]);
    assert_eq!(one["games"], two["games"]);
    assert!(one["games"][0]["review"].is_object());
}
