//! Helpers shared by the integration tests: a plain array implementation of the
//! rules, written independently of the bitboards, to check them against.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use reversi::board::Board;
use reversi::grading::batch::{ArgsSyntax, CaseOptions};

/// The 8 directions as (row step, column step).
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn at(bits: u64, row: i32, col: i32) -> bool {
    (0..8).contains(&row) && (0..8).contains(&col) && bits >> (row * 8 + col) & 1 == 1
}

/// Discs flipped by the side to move placing on `index`, walking cell by cell.
pub fn naive_flips(board: Board, index: u32) -> u64 {
    let (row, col) = ((index / 8) as i32, (index % 8) as i32);
    if at(board.own | board.opp, row, col) {
        return 0;
    }
    let mut flips = 0;
    for (dr, dc) in DIRECTIONS {
        let (mut r, mut c, mut run) = (row + dr, col + dc, 0u64);
        while at(board.opp, r, c) {
            run |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
        }
        if run != 0 && at(board.own, r, c) {
            flips |= run;
        }
    }
    flips
}

/// Legal moves of the side to move, cell by cell.
pub fn naive_moves(board: Board) -> u64 {
    (0..64)
        .filter(|&i| naive_flips(board, i) != 0)
        .fold(0, |acc, i| acc | 1 << i)
}

/// A position reached by playing the `choices` (each taken modulo the number of legal
/// moves, passing when there is none) from the standard start.
pub fn playout(choices: &[u8]) -> Board {
    let mut board = Board {
        own: 1 << 28 | 1 << 35,
        opp: 1 << 27 | 1 << 36,
    };
    for &choice in choices {
        let moves = naive_moves(board);
        if moves == 0 {
            if naive_moves(Board {
                own: board.opp,
                opp: board.own,
            }) == 0
            {
                break;
            }
            board = Board {
                own: board.opp,
                opp: board.own,
            };
            continue;
        }
        let index = (0..64)
            .filter(|i| moves >> i & 1 == 1)
            .nth(choice as usize % moves.count_ones() as usize)
            .unwrap();
        let flips = naive_flips(board, index);
        board = Board {
            own: board.opp & !flips,
            opp: board.own | flips | 1 << index,
        };
    }
    board
}

/// The 8 board lines of `input.txt` for a position with X to move as `own`.
pub fn board_text(x: u64, o: u64) -> String {
    (0..8)
        .map(|row| {
            (0..8)
                .map(|col| {
                    let bit = 1u64 << (row * 8 + col);
                    if x & bit != 0 {
                        'X'
                    } else if o & bit != 0 {
                        'O'
                    } else {
                        '*'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the binary with `args` and `stdin` as its standard input; collects its output.
pub fn with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A case syntax for tests that do not look at `args` files.
pub struct NoArgs;

impl ArgsSyntax for NoArgs {
    fn parse(&self, _: &str) -> Result<CaseOptions, String> {
        Ok(CaseOptions::default())
    }
    fn render(&self, _: &CaseOptions) -> String {
        String::new()
    }
}

/// The signals the tests send to the programs they start.
pub const SENT_SIGNALS: [i32; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGXFSZ];

/// Makes `command`'s process start with the default action for [`SENT_SIGNALS`]. A
/// test run started in the background by a shell (`make test &`) ignores SIGINT, one
/// under `nohup` SIGHUP, and a child inherits that: the solver leaves an ignored
/// signal ignored (as it should), so a test that signals it would wait for ever.
pub fn with_default_signals(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only calls signal(2), which is
    // async-signal-safe, and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            for signal in SENT_SIGNALS {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        })
    }
}
