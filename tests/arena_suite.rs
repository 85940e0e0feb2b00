//! `reversi arena`'s CSU-style references and suites (docs/arena.md): the legality
//! suite with agents of our own (`tests/arena/agent.py`: always legal, passing with a
//! move, illegal, too slow), and a game against the UF example AI (`uf:beginner`),
//! its every move the example AI's own choice.

#[path = "common/arena_class.rs"]
mod arena_class;

use std::fs;

use arena_class::{arena, class, openings, read_json, sheet_of};
use reversi::arena::legality::built_in;
use reversi::course_search::uf::{choose, Level};
use reversi::eval::uf::UfExample;
use reversi::format::umea::{parse_position, position_text};
use reversi::rules::Rules;
use serde_json::Value;

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
    let report = read_json(&json);
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

/// The fields of a failure the tests compare.
const KEYS: [&str; 3] = ["reason", "position", "answer"];

#[test]
fn a_legality_suite_judges_every_answer() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first", "pass", "illegal", "spin"]);
    // Three positions with a move, then one where the side to move must pass.
    let suite = built_in(1);
    let passing = *suite.iter().find(|p| p.board().moves() == 0).unwrap();
    let mut chosen: Vec<_> = suite
        .iter()
        .filter(|p| p.board().moves() != 0)
        .take(3)
        .copied()
        .collect();
    chosen.push(passing);
    let lines: Vec<String> = chosen.iter().map(|p| position_text(*p)).collect();
    let positions = dir.path().join("positions.txt");
    fs::write(&positions, lines.join("\n") + "\n").unwrap();
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--format",
        "legality",
        "--positions",
        positions.to_str().unwrap(),
        "--seconds",
        "0.2",
        "--start-allowance",
        "0.3",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    assert_eq!(report["players"], serde_json::json!([]));
    assert_eq!(report["games"], serde_json::json!([]));

    assert_eq!(sheet_of(&report, KEYS, "first"), (4, 4, vec![]), "{stdout}");
    assert!(
        stdout.contains("first: 4/4 positions answered legally"),
        "{stdout}"
    );

    let (legal, total, failures) = sheet_of(&report, KEYS, "pass");
    assert_eq!((legal, total), (1, 4));
    let expected: Vec<_> = lines[..3]
        .iter()
        .map(|line| {
            [
                "pass with a legal move".to_string(),
                line.clone(),
                "pass".to_string(),
            ]
        })
        .collect();
    assert_eq!(failures, expected);

    let (legal, _, failures) = sheet_of(&report, KEYS, "illegal");
    assert_eq!(legal, 0);
    assert_eq!(failures.len(), 4);
    assert!(
        failures.iter().all(|f| f[0] == "illegal move"),
        "{failures:?}"
    );
    assert_eq!(failures[3][1], lines[3]);
    assert!(failures[0][2].starts_with('('), "{failures:?}");

    let (legal, _, failures) = sheet_of(&report, KEYS, "spin");
    assert_eq!(legal, 0);
    assert!(
        failures.iter().all(|f| f[0] == "over the time"),
        "{failures:?}"
    );
    assert!(stdout.contains("spin: 0/4"), "{stdout}");
}

#[test]
fn the_built_in_suite_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first"]);
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--format",
        "legality",
        "--seconds",
        "2",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("24 built-in mid-game positions of seed 1, 4 of them passes"),
        "{stdout}"
    );
    assert!(
        stdout.contains("first: 24/24 positions answered legally"),
        "{stdout}"
    );
}
