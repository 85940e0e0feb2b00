//! Classes of agents of our own for the arena's tests (`tests/arena*.rs`): one
//! folder per mode of `tests/arena/agent.py`, and late mid-game openings so that
//! games are short.

#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use reversi::format::umea::{position_text, START};
use reversi::splitmix::SplitMix64;

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

/// Late mid-game positions (`empties` empty cells, the side to move with a move),
/// from seeded random games: short games. Written one a line to `openings.txt`.
pub fn openings(dir: &Path, count: usize, empties: u32) -> PathBuf {
    let mut random = SplitMix64::new(5);
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
            position = if moves == 0 {
                position.after(None)
            } else {
                position.play(random.square_of(moves))
            };
        }
    }
    let path = dir.join("openings.txt");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}
