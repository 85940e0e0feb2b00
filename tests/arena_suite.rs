//! `reversi arena`'s CSU-style references and suites (docs/arena.md): a game against
//! the UF example AI (`uf:beginner`), its every move the example AI's own choice.

#[path = "common/arena_class.rs"]
mod arena_class;
#[path = "common/sandboxed.rs"]
mod sandboxed;

use std::fs;
use std::process::Command;

use arena_class::{class, openings};
use reversi::course_search::uf::{choose, Level};
use reversi::eval::uf::UfExample;
use reversi::format::umea::parse_position;
use reversi::rules::Rules;
use sandboxed::BIN;
use serde_json::Value;

/// Runs `reversi arena` with `args`; its exit code, stdout and stderr.
fn arena(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(BIN).arg("arena").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn uf_beginner_plays_the_example_ais_moves() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first"]);
    let openings = openings(dir.path(), 1, 10);
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "uf:beginner",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("uf:beginner"), "{stdout}");
    let report: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let mut checked = 0;
    for game in games {
        assert_eq!(game["forfeit"], Value::Null, "{game}");
        let uf_is_white = game["white"] == "uf:beginner";
        assert!(uf_is_white || game["black"] == "uf:beginner", "{game}");
        let mut position = parse_position(game["start"].as_str().unwrap()).unwrap();
        for m in game["moves"].as_array().unwrap() {
            let text = m.as_str().unwrap();
            let square = (text != "pass").then(|| {
                let bytes = text.as_bytes();
                reversi::board::Square::new(bytes[1] - b'1', bytes[0] - b'a')
            });
            let uf_to_move = (position.to_move == reversi::rules::Color::White) == uf_is_white;
            if uf_to_move {
                let expected = choose(
                    Rules::STANDARD,
                    position,
                    Level::Beginner.depth(),
                    &UfExample,
                )
                .map(|chosen| chosen.square);
                assert_eq!(square, expected, "{game}");
                checked += 1;
            }
            position = position.after(square);
        }
    }
    assert!(checked >= 4, "{checked}");
}

#[test]
fn an_unknown_uf_level_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first"]);
    let (code, _, stderr) = arena(&[class.to_str().unwrap(), "--opponent", "uf:expert"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("uf:beginner"), "{stderr}");
}
