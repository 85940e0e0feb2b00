//! UF CAP4053 example AI: the nine games of testcases/uf/example_vs_example.txt (the
//! course's own program against itself), and the `reversi uf` command line.

mod common;

use common::with_stdin as reversi;
use std::fs;

use reversi::board::Square;
use reversi::course_search::uf::{play_game, Level};
use reversi::eval::uf::UfExample;
use reversi::format::uf::game_text;
use reversi::rules::{Position, Rules};

const GAMES: &str = "testcases/uf/example_vs_example.txt";

#[test]
fn the_nine_games_match_the_course_listing_move_for_move() {
    let expected = fs::read_to_string(GAMES).unwrap();
    let mut expected_games = expected.split_inclusive('\n').collect::<Vec<_>>();
    let mut ours = Vec::new();
    for black in Level::ALL {
        for white in Level::ALL {
            ours.push(game_text(&play_game(
                Rules::STANDARD,
                black,
                white,
                &UfExample,
            )));
        }
    }
    let pairs: Vec<String> = expected_games
        .chunks_mut(2)
        .map(|lines| lines.concat())
        .collect();
    assert_eq!(pairs.len(), 9);
    for (ours, theirs) in ours.iter().zip(&pairs) {
        pretty_assertions::assert_eq!(ours, theirs);
    }
}

#[test]
fn uf_game_prints_the_listing_byte_for_byte() {
    let all = reversi(&["uf", "game"], "");
    assert!(all.status.success());
    assert_eq!(
        String::from_utf8(all.stdout).unwrap(),
        fs::read_to_string(GAMES).unwrap()
    );
    let one = reversi(
        &["uf", "game", "--black", "advanced", "--white", "beginner"],
        "",
    );
    let expected: String = fs::read_to_string(GAMES)
        .unwrap()
        .split_inclusive('\n')
        .skip_while(|line| !line.starts_with("Advanced(black) vs Beginner(white)"))
        .take(2)
        .collect();
    assert_eq!(String::from_utf8(one.stdout).unwrap(), expected);
}

/// The board as 8 rows of `B`, `W`, `.`, or of -1, 0, 1.
fn board_text(position: Position, numbers: bool) -> String {
    let mut text = String::new();
    for row in 0..8 {
        let cells: Vec<&str> = (0..8)
            .map(|col| {
                let bit = Square::new(row, col).bit();
                match (
                    position.black & bit != 0,
                    position.white & bit != 0,
                    numbers,
                ) {
                    (true, _, false) => "B",
                    (_, true, false) => "W",
                    (false, false, false) => ".",
                    (true, _, true) => "-1",
                    (_, true, true) => "1",
                    (false, false, true) => "0",
                }
            })
            .collect();
        text += &cells.join(if numbers { " " } else { "" });
        text.push('\n');
    }
    text
}

/// Replays the Intermediate(black) vs Advanced(white) game of the listing and asks
/// `reversi uf move` for White's move before each of White's turns, the board given
/// alternately as letters and as numbers: the answer's cell is the listing's.
#[test]
fn uf_move_answers_as_the_listing_plays() {
    let listing = fs::read_to_string(GAMES).unwrap();
    let moves_line = listing
        .lines()
        .skip_while(|line| !line.starts_with("Intermediate(black) vs Advanced(white)"))
        .nth(1)
        .unwrap();
    let rules = Rules::STANDARD;
    let mut position = rules.start;
    let mut answers = Vec::new();
    for (turn, token) in moves_line
        .trim()
        .trim_start_matches("moves:")
        .split_whitespace()
        .enumerate()
    {
        if token == "pass" {
            position = position.pass();
            continue;
        }
        let (row, col) = (token.as_bytes()[1] - b'0', token.as_bytes()[2] - b'0');
        if token.starts_with('W') && turn % 4 == 1 {
            let numbers = answers.len() % 2 == 1;
            let output = reversi(
                &["uf", "move", "--color", "white", "--depth", "3", "-"],
                &board_text(position, numbers),
            );
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
            let answer = String::from_utf8(output.stdout).unwrap();
            assert!(
                answer.starts_with(&format!("{row} {col} ")),
                "{token}: {answer}"
            );
            answers.push(format!("{token}: {answer}"));
        }
        position = position.play(Square::new(row, col));
    }
    assert!(answers.len() >= 10);
    insta::assert_snapshot!(answers.concat());
}

#[test]
fn bad_boards_and_blocked_sides_exit_2() {
    let start = board_text(Rules::STANDARD.start, false);
    let full_black = "BBBBBBBB\n".repeat(8);
    let cases = [
        ("letter", start.replacen('W', "X", 1), "black"),
        (
            "number",
            board_text(Rules::STANDARD.start, true).replacen("-1", "2", 1),
            "black",
        ),
        (
            "seven_rows",
            start.lines().skip(1).map(|l| format!("{l}\n")).collect(),
            "black",
        ),
        ("no_move", full_black, "white"),
    ];
    let mut messages = String::new();
    for (name, board, color) in cases {
        let output = reversi(
            &["uf", "move", "--color", color, "--depth", "1", "-"],
            &board,
        );
        assert_eq!(output.status.code(), Some(2), "{name}");
        messages += &String::from_utf8(output.stderr).unwrap();
    }
    insta::assert_snapshot!(messages);
}
