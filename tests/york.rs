//! York EECS 3401 A4: SPEC.md's table (testcases/york/expected.tsv), alpha-beta
//! against minimax, and the `reversi york` command line.

mod common;

use common::with_stdin as reversi;
use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use reversi::board::Square;
use reversi::course_search::york::{mmeval, YorkMove, YorkOutcome, YorkParams};
use reversi::eval::york::YorkHeuristic;
use reversi::format::york::{answer_line, parse_board, MoveText};
use reversi::rules::{Color, MoveOrder, Position, Rules};

const CASES: &str = "testcases/york";

/// One line of `expected.tsv`.
struct Query {
    board: String,
    player: Color,
    depth: u32,
    order: MoveOrder,
    answer: String,
}

fn queries() -> Vec<Query> {
    let table = fs::read_to_string(Path::new(CASES).join("expected.tsv")).unwrap();
    table
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "{line}");
            Query {
                board: fields[0].to_string(),
                player: match fields[1] {
                    "1" => Color::Black,
                    "2" => Color::White,
                    other => panic!("player {other}"),
                },
                depth: fields[2].parse().unwrap(),
                order: match fields[3] {
                    "col" => MoveOrder::ColumnMajor,
                    "row" => MoveOrder::RowMajor,
                    other => panic!("order {other}"),
                },
                answer: fields[4].to_string(),
            }
        })
        .collect()
}

fn position(query: &Query) -> Position {
    let text = fs::read_to_string(Path::new(CASES).join(&query.board)).unwrap();
    parse_board(&text, query.player).unwrap()
}

fn search(position: Position, depth: u32, order: MoveOrder, pruning: bool) -> YorkOutcome {
    search_with(position, depth, order, pruning, YorkHeuristic::Zero)
}

fn search_with(
    position: Position,
    depth: u32,
    order: MoveOrder,
    pruning: bool,
    heuristic: YorkHeuristic,
) -> YorkOutcome {
    let params = YorkParams {
        depth,
        order,
        pruning,
    };
    mmeval(Rules::YORK, position, params, &heuristic, &mut |_| {})
}

#[test]
fn minimax_reproduces_the_spec_table() {
    let queries = queries();
    assert_eq!(queries.len(), 7);
    for query in &queries {
        let outcome = search(position(query), query.depth, query.order, false);
        assert_eq!(answer_line(&outcome), query.answer, "{}", query.board);
    }
}

#[test]
fn the_command_line_reproduces_the_spec_table() {
    for query in queries() {
        let output = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["york", "--player"])
            .arg(if query.player == Color::Black {
                "1"
            } else {
                "2"
            })
            .args(["--depth", &query.depth.to_string(), "--order"])
            .arg(match query.order {
                MoveOrder::ColumnMajor => "col",
                MoveOrder::RowMajor => "row",
            })
            .arg(Path::new(CASES).join(&query.board))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            query.answer + "\n"
        );
    }
}

#[test]
fn the_trace_prints_one_line_per_state_counted() {
    let output = reversi(
        &[
            "york",
            "-p",
            "2",
            "-d",
            "3",
            "--h",
            "stones",
            "--trace",
            "testcases/york/board1.pl",
        ],
        "",
    );
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let (trace, answer) = text.trim_end().rsplit_once('\n').unwrap();
    let states: usize = answer.rsplit_once("SeF = ").unwrap().1.parse().unwrap();
    assert_eq!(trace.lines().count(), states);
    let head: Vec<&str> = trace.lines().take(12).collect();
    insta::assert_snapshot!(head.join("\n") + "\n...\n" + answer);
}

#[test]
fn a_board_on_stdin_and_depth_zero_leave_the_move_unbound() {
    let board = fs::read_to_string("testcases/york/board2.pl").unwrap();
    let output = reversi(&["york", "-p", "1", "-d", "0", "-"], &board);
    assert!(output.status.success());
    assert_eq!(output.stdout, b"Val = 0, SeF = 1\n");
}

#[test]
fn bad_boards_are_refused_with_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "short_row.txt",
            "......\n......\n..12.\n..21..\n......\n......\n",
        ),
        ("bad_cell.pl", "[[.,.,.,.,.,.],\n [.,.,.,x,.,.]]"),
        ("five_rows.txt", "......\n......\n..12..\n..21..\n......\n"),
        ("empty.txt", "\n  \n"),
    ];
    let mut messages = String::new();
    for (name, text) in cases {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        let output = reversi(&["york", "-p", "1", "-d", "2", path.to_str().unwrap()], "");
        assert_eq!(output.status.code(), Some(2), "{name}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        messages += &stderr.replace(dir.path().to_str().unwrap(), "DIR");
    }
    let missing = reversi(&["york", "-p", "1", "-d", "2", "no/such/board.pl"], "");
    assert_eq!(missing.status.code(), Some(2));
    messages += &String::from_utf8(missing.stderr).unwrap();
    insta::assert_snapshot!(messages);
}

/// Random 6x6 positions: each cell empty, black or white, and a side to move.
fn positions() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(0u8..3, 36), any::<bool>()).prop_map(|(cells, black_moves)| {
        let mut position = Position {
            black: 0,
            white: 0,
            to_move: if black_moves {
                Color::Black
            } else {
                Color::White
            },
        };
        for (index, cell) in cells.into_iter().enumerate() {
            let bit = Square::new(index as u8 / 6, index as u8 % 6).bit();
            match cell {
                1 => position.black |= bit,
                2 => position.white |= bit,
                _ => {}
            }
        }
        position
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// `abmmeval` agrees with `mmeval` on the value and the move, and never
    /// searches more states.
    #[test]
    fn alpha_beta_agrees_with_minimax_and_searches_no_more(
        position in positions(),
        depth in 0u32..=4,
        row_major in any::<bool>(),
        stones in any::<bool>(),
    ) {
        let order = if row_major { MoveOrder::RowMajor } else { MoveOrder::ColumnMajor };
        let heuristic = if stones { YorkHeuristic::Stones } else { YorkHeuristic::Zero };
        let minimax = search_with(position, depth, order, false, heuristic);
        let pruned = search_with(position, depth, order, true, heuristic);
        prop_assert_eq!(pruned.value, minimax.value);
        prop_assert_eq!(pruned.best, minimax.best);
        prop_assert!(pruned.states <= minimax.states);
    }
}

#[test]
fn alpha_beta_on_the_spec_boards_keeps_answers_and_saves_states() {
    for query in queries() {
        let minimax = search(position(&query), query.depth, query.order, false);
        let pruned = search(position(&query), query.depth, query.order, true);
        assert_eq!((pruned.value, pruned.best), (minimax.value, minimax.best));
        assert!(pruned.states < minimax.states, "{}", query.board);
    }
}

/// Reads the program's output until it asks for a move (`Some(output so far)`) or
/// ends (`None`).
fn read_until_prompt(stdout: &mut impl Read, transcript: &mut String) -> bool {
    let mut buffer = [0u8; 4096];
    loop {
        if transcript.ends_with("Your move: ") {
            return true;
        }
        let n = stdout.read(&mut buffer).unwrap();
        if n == 0 {
            return false;
        }
        transcript.push_str(std::str::from_utf8(&buffer[..n]).unwrap());
    }
}

/// The last board picture in the transcript.
fn last_board(transcript: &str) -> Position {
    let header = "    0 1 2 3 4 5\n";
    let start = transcript.rfind(header).unwrap() + header.len();
    let rows: String = transcript[start..]
        .lines()
        .take(6)
        .map(|line| line[3..].replace(' ', "") + "\n")
        .collect();
    parse_board(&rows, Color::Black).unwrap()
}

#[test]
fn a_whole_game_can_be_played_through_a_pipe() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["york", "play", "--depth", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut transcript = String::new();
    // Refused first: not a term, an illegal cell, a pass while a move exists, off the
    // board. Then the human always plays its last legal move in column order, which
    // in this game leaves it once without a move.
    let mut typed = vec![
        "hello".to_string(),
        "[0,0].".into(),
        "n.".into(),
        "[6,1].".into(),
    ];
    let mut moves_made = 0;
    while read_until_prompt(&mut stdout, &mut transcript) {
        let line = if typed.is_empty() {
            let position = last_board(&transcript);
            let moves = Rules::YORK.moves(position);
            let mv = MoveOrder::ColumnMajor
                .squares(moves)
                .last()
                .map_or(YorkMove::Pass, YorkMove::Place);
            moves_made += 1;
            format!("{}.", MoveText(mv))
        } else {
            typed.remove(0)
        };
        transcript.push_str(&line);
        transcript.push('\n');
        writeln!(stdin, "{line}").unwrap();
    }
    assert!(child.wait().unwrap().success());
    assert!(moves_made > 5);
    assert!(transcript.contains("You have no legal move: type n. to pass.\nYour move: n.\n"));
    assert!(transcript.contains("Game over: player 1 has"));
    insta::assert_snapshot!(transcript);
}

#[test]
fn the_game_stops_with_exit_2_when_input_ends() {
    let output = reversi(&["york", "play"], "[1,3].\n");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "reversi: standard input ended before the game was over\n"
    );
}
