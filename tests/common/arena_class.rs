//! Classes of agents of our own for the arena's tests (`tests/arena*.rs`): one
//! folder per mode of `tests/arena/agent.py`, and late mid-game openings so that
//! games are short.

#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use reversi::format::umea::{position_text, START};
use reversi::rules::Position;
use reversi::splitmix::SplitMix64;
use serde_json::Value;

/// Runs `reversi arena` with `args`; its exit code, stdout and stderr.
pub fn arena(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("arena")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A JSON report read.
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// A class under `dir`: one folder per mode, each holding `agent.py` and an
/// `othello.sh` that runs it in that mode.
pub fn class(dir: &Path, modes: &[&str]) -> PathBuf {
    class_of(dir, "agent.py", modes)
}

/// A class of `script` agents (`tests/arena/SCRIPT`) in `modes`, their `othello.sh`
/// passing the mode, then the protocol's arguments.
pub fn class_of(dir: &Path, script: &str, modes: &[&str]) -> PathBuf {
    let class = dir.join("class");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/arena")
        .join(script);
    for mode in modes {
        let folder = class.join(mode);
        fs::create_dir_all(&folder).unwrap();
        fs::copy(&source, folder.join(script)).unwrap();
        let run = folder.join("othello.sh");
        fs::write(
            &run,
            format!("#!/bin/sh\nexec python3 ./{script} {mode} \"$@\"\n"),
        )
        .unwrap();
        fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
    }
    class
}

/// Walks seeded random games (`seed`): the positions `keep` accepts (the side to
/// move with a move), one per game, until `count`.
pub fn positions(seed: u64, count: usize, keep: impl Fn(Position) -> bool) -> Vec<Position> {
    let mut random = SplitMix64::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut position = START;
        loop {
            let board = position.board();
            let moves = board.moves();
            if moves == 0 && board.pass().moves() == 0 {
                break;
            }
            if moves != 0 && keep(position) {
                found.push(position);
                break;
            }
            position = if moves == 0 {
                position.after(None)
            } else {
                position.play(random.square_of(moves))
            };
        }
    }
    found
}

/// The empty cells of `position`.
pub fn empties(position: Position) -> u32 {
    64 - (position.white | position.black).count_ones()
}

/// Late mid-game positions (`empties` empty cells, the side to move with a move),
/// from seeded random games: short games. Written one a line to `openings.txt`.
pub fn openings(dir: &Path, count: usize, empties: u32) -> PathBuf {
    openings_in(dir, "openings.txt", &late_positions(5, count, empties))
}

/// `count` positions of seeded random games (`seed`) with at most `n` empty cells.
pub fn late_positions(seed: u64, count: usize, n: u32) -> Vec<Position> {
    positions(seed, count, |p| empties(p) <= n)
}

/// `positions` written one a line to `dir/name`.
pub fn openings_in(dir: &Path, name: &str, positions: &[Position]) -> PathBuf {
    let lines: Vec<String> = positions.iter().map(|&p| position_text(p)).collect();
    let path = dir.join(name);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The JSON report's legality entry of student `name`: legal, total, and each
/// failure's `keys` as text.
pub fn sheet_of<const N: usize>(
    report: &serde_json::Value,
    keys: [&str; N],
    name: &str,
) -> (u64, u64, Vec<[String; N]>) {
    let sheet = report["legality"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap();
    let failures = sheet["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| keys.map(|k| f[k].as_str().unwrap().to_string()))
        .collect();
    (
        sheet["legal"].as_u64().unwrap(),
        sheet["total"].as_u64().unwrap(),
        failures,
    )
}

/// A JSON report without its games' CPU times (`cpu`, `longest_answer`: measured,
/// so they differ from run to run), to compare two runs' results.
pub fn without_times(json: &str) -> serde_json::Value {
    let mut report: serde_json::Value = serde_json::from_str(json).expect("a JSON report");
    if let Some(games) = report["games"].as_array_mut() {
        for game in games {
            let game = game.as_object_mut().expect("a game is an object");
            assert!(game.remove("cpu").is_some(), "a game states its CPU time");
            assert!(game.remove("longest_answer").is_some());
        }
    }
    report
}

/// The games of a JSON report that `player` played.
pub fn games_of<'a>(report: &'a Value, player: &str) -> Vec<&'a Value> {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["white"] == player || g["black"] == player)
        .collect()
}

/// `player`'s forfeits in a JSON report: (reason, the forfeit's `field`).
pub fn forfeits(report: &Value, player: &str, field: &str) -> Vec<(String, String)> {
    games_of(report, player)
        .into_iter()
        .filter(|g| g["forfeit"]["player"] == player)
        .map(|g| {
            (
                g["forfeit"]["reason"].as_str().unwrap().to_string(),
                g["forfeit"][field].as_str().unwrap().to_string(),
            )
        })
        .collect()
}
