//! `reversi arena` (docs/arena.md) with agents of our own (`tests/arena/agent.py`,
//! one mode per behaviour): every forfeit reason explained, the per-game state an
//! agent keeps, the JSON report's shape, results identical whatever `-j`, and hostile
//! agents contained under both sandboxes. Games start from late mid-game positions
//! (few empty cells) so that they are short.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/arena_class.rs"]
mod arena_class;

use std::fs;
use std::path::Path;

use arena_class::{arena, class, class_of, openings, read_json, without_times};
use reversi::format::umea::{parse_position, position_text};
use sandboxed::{Mode, Traces, World};
use serde_json::Value;

/// The forfeits of `player`'s games: (reason, move, answer).
fn forfeits_of(report: &Value, player: &str) -> Vec<(String, u64, String)> {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["white"] == player || g["black"] == player)
        .filter_map(|g| {
            let f = &g["forfeit"];
            (f["player"] == player).then(|| {
                (
                    f["reason"].as_str().unwrap().to_string(),
                    f["move"].as_u64().unwrap(),
                    f["answer"].as_str().unwrap().to_string(),
                )
            })
        })
        .collect()
}

/// Checks the JSON report's shape (issue 71) and that every game's moves replay
/// legally from its start to its discs, its forfeit's move number following them.
fn check_shape(report: &Value) {
    for player in report["players"].as_array().unwrap() {
        let keys: Vec<&str> = player
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "draws", "elo", "elo_high", "elo_low", "forfeits", "games", "losses", "name",
                "score", "wins"
            ]
        );
        let score = player["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score));
        let games = player["games"].as_u64().unwrap();
        let sum = ["wins", "draws", "losses"]
            .iter()
            .map(|k| player[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(sum, games, "{player}");
    }
    for game in report["games"].as_array().unwrap() {
        for key in [
            "white", "black", "start", "moves", "winner", "discs", "forfeit",
        ] {
            assert!(game.get(key).is_some(), "{key} missing in {game}");
        }
        for side in ["white", "black"] {
            let all = game["cpu"][side].as_f64().unwrap();
            let longest = game["longest_answer"][side].as_f64().unwrap();
            assert!((0.0..=all).contains(&longest), "{game}");
            if game[side] == "naive" {
                assert_eq!(all, 0.0, "a reference is not timed: {game}");
            }
        }
        let mut position = parse_position(game["start"].as_str().unwrap()).unwrap();
        let moves = game["moves"].as_array().unwrap();
        for m in moves {
            let text = m.as_str().unwrap();
            let square = if text == "pass" {
                assert_eq!(position.board().moves(), 0);
                None
            } else {
                let bytes = text.as_bytes();
                assert_eq!(bytes.len(), 2, "{text}");
                let square = reversi::board::Square::new(bytes[1] - b'1', bytes[0] - b'a');
                assert_ne!(position.board().moves() & square.bit(), 0, "{text} illegal");
                Some(square)
            };
            position = position.after(square);
        }
        assert_eq!(game["discs"]["white"], position.white.count_ones());
        assert_eq!(game["discs"]["black"], position.black.count_ones());
        let winner = game["winner"].as_str().unwrap();
        match &game["forfeit"] {
            Value::Null => {
                let board = position.board();
                assert!(
                    board.moves() == 0 && board.pass().moves() == 0,
                    "not over: {game}"
                );
                let (w, b) = (position.white.count_ones(), position.black.count_ones());
                let expected = match w.cmp(&b) {
                    std::cmp::Ordering::Greater => "white",
                    std::cmp::Ordering::Less => "black",
                    std::cmp::Ordering::Equal => "draw",
                };
                assert_eq!(winner, expected);
            }
            forfeit => {
                assert_eq!(forfeit["move"].as_u64().unwrap() as usize, moves.len() + 1);
                let loser = forfeit["player"].as_str().unwrap();
                let loser_color = if game["white"] == loser {
                    "white"
                } else {
                    "black"
                };
                assert_ne!(winner, loser_color);
                assert_eq!(
                    forfeit["position"].as_str().unwrap(),
                    position_text(position)
                );
                for key in ["reason", "answer"] {
                    assert!(forfeit[key].is_string());
                }
            }
        }
    }
}

#[test]
fn every_forfeit_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let modes = [
        "first",
        "illegal",
        "pass",
        "garbage",
        "silent",
        "crash",
        "build-fails",
        "two-lines",
        "spin",
        "sleep",
        "megabytes",
    ];
    let class = class(dir.path(), &modes);
    let openings = openings(dir.path(), 2, 10);
    let json = dir.path().join("out.json");
    let csv = dir.path().join("out.csv");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--games",
        "2",
        "--seconds",
        "0.2",
        "--start-allowance",
        "0.3",
        "--openings",
        openings.to_str().unwrap(),
        "-j",
        "2",
        "--json",
        json.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    check_shape(&report);
    let expect = [
        ("first", None),
        ("illegal", Some("illegal move")),
        ("pass", Some("pass with a legal move")),
        ("garbage", Some("unreadable answer")),
        ("silent", Some("no answer")),
        ("crash", Some("crash")),
        ("build-fails", Some("build failed")),
        ("two-lines", Some("unreadable answer")),
        ("spin", Some("over the time")),
        ("sleep", Some("over the time")),
        ("megabytes", Some("unreadable answer")),
    ];
    for (mode, reason) in expect {
        let forfeits = forfeits_of(&report, mode);
        match reason {
            None => assert!(forfeits.is_empty(), "{mode}: {forfeits:?}"),
            Some(reason) => {
                assert_eq!(forfeits.len(), 2, "{mode}: {forfeits:?}");
                assert!(
                    forfeits.iter().all(|f| f.0 == reason),
                    "{mode}: {forfeits:?}"
                );
            }
        }
    }
    // The answer escaped: no control character in the report, the escape shown.
    let garbage = forfeits_of(&report, "garbage");
    assert_eq!(garbage[0].2, "e3 \\u{1b}[2J");
    assert!(
        stdout.contains("unreadable answer at move 1 in "),
        "{stdout}"
    );
    assert!(stdout.contains("passed to the agents as `0.2`"), "{stdout}");
    assert!(stdout.contains("start allowance of 0.3 s"), "{stdout}");
    assert!(stdout.contains("answers: strict"), "{stdout}");
    assert!(!stdout.bytes().any(|b| b == 0x1b));
    let csv = fs::read_to_string(csv).unwrap();
    assert!(
        csv.starts_with("player,games,wins,draws,losses,forfeits,score,elo,elo_low,elo_high,vs "),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), modes.len() + 2);
}

#[test]
fn lax_answers_take_the_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["two-lines", "megabytes"]);
    let openings = openings(dir.path(), 1, 8);
    let json = dir.path().join("out.json");
    // A command as an opponent, run in the sandbox: refused until its file is shown.
    let script = sandboxed::root().join("tests/arena/agent.py");
    let command = format!("cmd:python3 {} last", script.display());
    let mut args = vec![
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--opponent",
        &command,
        "--lax",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let (code, _, stderr) = arena(&args);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--read-only"), "{stderr}");
    let shown = script.parent().unwrap().to_str().unwrap().to_string();
    args.extend(["--read-only", &shown]);
    let (code, stdout, stderr) = arena(&args);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("answers: lax"), "{stdout}");
    let report = read_json(&json);
    check_shape(&report);
    for mode in ["two-lines", "megabytes", command.as_str()] {
        assert!(forfeits_of(&report, mode).is_empty(), "{mode}");
    }
    assert_eq!(report["games"].as_array().unwrap().len(), 8);
}

/// Runs a round robin with `jobs` games at once; the JSON report.
fn round_robin(dir: &Path, class: &Path, openings: &Path, jobs: &str) -> String {
    let json = dir.join(format!("out-{jobs}.json"));
    let (code, _, stderr) = arena(&[
        class.to_str().unwrap(),
        "--format",
        "round-robin",
        "--opponent",
        "naive",
        "--opponent",
        "engine:depth=2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "-j",
        jobs,
        "--json",
        json.to_str().unwrap(),
        "--games-dir",
        dir.join(format!("ggf-{jobs}")).to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    fs::read_to_string(json).unwrap()
}

#[test]
fn results_are_the_same_whatever_the_jobs_and_state_is_kept_within_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["last", "keeps-state"]);
    let openings = openings(dir.path(), 1, 5);
    fs::write(class.join("keeps-state/start.txt"), "5").unwrap();
    let one = round_robin(dir.path(), &class, &openings, "1");
    let two = round_robin(dir.path(), &class, &openings, "3");
    assert_eq!(without_times(&one), without_times(&two));
    let report: Value = serde_json::from_str(&one).unwrap();
    check_shape(&report);
    // 4 players, 6 pairings of 2 games.
    assert_eq!(report["games"].as_array().unwrap().len(), 12);
    assert!(forfeits_of(&report, "keeps-state").is_empty());
    // Rated, anchored on the first opponent.
    let players = report["players"].as_array().unwrap();
    let naive = players.iter().find(|p| p["name"] == "naive").unwrap();
    assert_eq!(naive["elo"], 1500.0);
    for player in players {
        assert!(player["elo"].is_f64(), "{player}");
        if player["name"] != "naive" {
            assert!(
                player["elo_low"].as_f64() < player["elo_high"].as_f64(),
                "{player}"
            );
        }
    }
    // Every game as GGF, the same moves and result as the JSON report's.
    for (i, game) in report["games"].as_array().unwrap().iter().enumerate() {
        let path = dir.path().join(format!("ggf-1/game-{:04}.ggf", i + 1));
        let record = reversi::format::ggf::read(&fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(record.white, game["white"].as_str().unwrap());
        assert_eq!(position_text(record.start), game["start"].as_str().unwrap());
        let moves: Vec<String> = record
            .moves
            .iter()
            .map(|m| m.square.map_or("pass".into(), |s| s.to_string()))
            .collect();
        assert_eq!(Value::from(moves), game["moves"]);
        let margin = record.result.unwrap().black_margin;
        let expected = match game["winner"].as_str().unwrap() {
            "black" => margin > 0.0,
            "white" => margin < 0.0,
            _ => margin == 0.0,
        };
        assert!(expected, "{margin} {game}");
    }
}

#[test]
fn a_knockout_has_one_winner() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first", "last", "illegal"]);
    let openings = openings(dir.path(), 3, 8);
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--format",
        "knockout",
        "--opponent",
        "engine:depth=1",
        "--games",
        "3",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    check_shape(&report);
    let rounds = report["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{stdout}");
    assert_eq!(rounds[1].as_array().unwrap().len(), 1);
    assert!(stdout.contains("round 2:"), "{stdout}");
}

#[test]
fn csu_plays_its_games_with_the_builds_its_suite_asked() {
    let dir = tempfile::tempdir().unwrap();
    // Its compile step writes a random token; every answer prints it (unreadable).
    let class = class(dir.path(), &["build-token"]);
    let positions = openings(dir.path(), 2, 30);
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "engine:depth=1",
        "--policy",
        "csu",
        "--positions",
        positions.to_str().unwrap(),
        "--review-depth",
        "0",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    let mut tokens: Vec<String> = report["legality"][0]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["answer"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tokens.len(), 2, "{stdout}");
    for (reason, answer) in forfeits_of(&report, "build-token")
        .into_iter()
        .map(|(reason, _, answer)| (reason, answer))
    {
        assert_eq!(reason, "unreadable answer");
        tokens.push(answer);
    }
    assert_eq!(tokens.len(), 4, "{stdout}");
    assert!(tokens[0].starts_with("token-"), "{tokens:?}");
    assert!(
        tokens.iter().all(|t| *t == tokens[0]),
        "one build for the suite and the games: {tokens:?}"
    );
}

#[test]
fn midgame_starts_are_seeded_balanced_mid_game_positions() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first"]);
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "engine:depth=1",
        "--start",
        "midgame",
        "--seed",
        "5",
        "--review-depth",
        "0",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("16 built-in mid-game positions seeded by --seed"),
        "{stdout}"
    );
    let report = read_json(&json);
    check_shape(&report);
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    // One position, played twice with colours swapped; one of the seed's set.
    assert_eq!(games[0]["start"], games[1]["start"]);
    assert_eq!(games[0]["white"], games[1]["black"]);
    let start = parse_position(games[0]["start"].as_str().unwrap()).unwrap();
    assert!(reversi::arena::openings::midgame(5).contains(&start));
    let discs = (start.white | start.black).count_ones();
    assert!((20..=36).contains(&discs), "{discs}");
    // With a file of openings, refused.
    let openings = openings(dir.path(), 1, 8);
    let (code, _, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "engine:depth=1",
        "--start",
        "midgame",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
}

#[test]
fn tristate_agents_answer_a_board_file() {
    let dir = tempfile::tempdir().unwrap();
    let class = class_of(dir.path(), "tristate.py", &["first", "skip"]);
    let openings = openings(dir.path(), 1, 6);
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--protocol",
        "tristate",
        "--opponent",
        "engine:depth=1",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    check_shape(&report);
    assert!(forfeits_of(&report, "first").is_empty(), "{stdout}");
    let skips = forfeits_of(&report, "skip");
    assert_eq!(skips.len(), 2, "{stdout}");
    assert!(skips
        .iter()
        .all(|f| f.0 == "pass with a legal move" && f.2 == "skip"));
    // Read as 1-based, the 0-based agent's answers name other cells or none.
    let (code, _, stderr) = arena(&[
        class.to_str().unwrap(),
        "--protocol",
        "tristate",
        "--base",
        "1",
        "--opponent",
        "engine:depth=1",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    assert!(!forfeits_of(&report, "first").is_empty());
}

every_sandbox! {
    /// Line-protocol agents (one process per game, Caltech CS 2): whole games from the
    /// standard start; a pass with a move, an exit, a sleep past the net and the CPU
    /// bank spent each forfeit; nothing left behind.
    fn line_agents_play_whole_games(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = class_of(world.path(), "line.py", &["first", "pass", "quits", "sleeps", "spins"]);
        let traces = Traces::now();
        let (grading, result) = arena_in(&world, mode, &class, &[
            "--protocol", "line", "--opponent", "engine:depth=1", "--seconds", "0.3",
            "--start-allowance", "0.1", "-j", "2",
        ]);
        assert!(forfeits_of(&result, "first").is_empty(), "{}", grading.stdout);
        for (agent, reason) in [
            ("pass", "pass with a legal move"),
            ("quits", "no answer"),
            ("sleeps", "over the time"),
            ("spins", "over the time"),
        ] {
            let forfeits = forfeits_of(&result, agent);
            assert_eq!(forfeits.len(), 2, "{agent}: {}", grading.stdout);
            assert!(forfeits.iter().all(|f| f.0 == reason), "{agent}: {forfeits:?}");
        }
        assert!(grading.stdout.contains("used its bank of 0.4 s of CPU time"), "{}", grading.stdout);
        for game in result["games"].as_array().unwrap() {
            assert_eq!(game["start"], position_text(reversi::arena::protocol::line::START));
        }
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}

#[test]
fn bad_arguments_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first"]);
    for args in [
        vec![class.to_str().unwrap()],
        vec![class.to_str().unwrap(), "--opponent", "strong"],
        vec![
            class.to_str().unwrap(),
            "--opponent",
            "naive",
            "--seconds",
            "0",
        ],
        vec![dir.path().to_str().unwrap(), "--opponent", "naive"],
    ] {
        let (code, stdout, stderr) = arena(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty());
    }
}

/// Runs `reversi arena CLASS ARGS` under `mode` as the hostile tests run the
/// grader (HOME and TMPDIR of `world`); the grading and the JSON report.
fn arena_in(world: &World, mode: Mode, class: &Path, args: &[&str]) -> (sandboxed::Grading, Value) {
    let json = world.path().join("result.json");
    let class = class.display().to_string();
    let json_arg = json.display().to_string();
    let mut all = vec!["arena", class.as_str(), "--json", json_arg.as_str()];
    all.extend(args);
    all.extend(mode.flags());
    let grading = sandboxed::grader(world, &all, sandboxed::Launch::default());
    assert_eq!(grading.code, Some(0), "{}", grading.stderr);
    let result = read_json(&json);
    check_shape(&result);
    (grading, result)
}

every_sandbox! {
    /// Agents that read and write the other agent's files, the referee's home and
    /// report, list the class, leave a process running, and kill what they can: the
    /// hostile one plays on (every attack failed), the killer harms no one else, the
    /// victim plays every game, and nothing outside the runs changed or stayed.
    fn hostile_agents_are_contained(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = class(world.path(), &["hostile", "killer", "victim"]);
        fs::write(class.join("victim/secret.txt"), &world.secret).unwrap();
        let report = world.path().join("out.json");
        fs::write(
            class.join("hostile/target.txt"),
            format!("{} {} {}", class.display(), world.home.display(), report.display()),
        )
        .unwrap();
        // The victim plays as `first`.
        let victim = class.join("victim/othello.sh");
        fs::write(&victim, "#!/bin/sh\nexec python3 ./agent.py first \"$@\"\n").unwrap();
        fs::write(&report, "before").unwrap();
        let openings = openings(world.path(), 1, 5);
        let before = (sandboxed::snapshot(&class), world.snapshot());
        let traces = Traces::now();
        let openings = openings.display().to_string();
        let (grading, result) = arena_in(&world, mode, &class, &[
            "--format", "round-robin", "--opponent", "naive", "--games", "1", "--openings",
            &openings, "-j", "2",
        ]);
        assert_eq!(forfeits_of(&result, "hostile"), vec![], "{}", grading.stdout);
        assert_eq!(forfeits_of(&result, "victim"), vec![], "{}", grading.stdout);
        for (reason, _, answer) in forfeits_of(&result, "killer") {
            assert_ne!(answer, "pwned");
            assert!(reason == "crash" || reason == "no answer", "{reason}");
        }
        assert_eq!(fs::read_to_string(&report).unwrap(), "before");
        assert!(before == (sandboxed::snapshot(&class), world.snapshot()), "files outside the runs changed");
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}

every_sandbox! {
    /// An agent that sleeps past the wall-time net and one that prints megabytes
    /// before its move: over the time and unreadable, the referee's memory small,
    /// nothing left behind.
    fn sleepers_and_floods_are_judged(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = class(world.path(), &["sleep", "megabytes"]);
        let openings = openings(world.path(), 1, 5);
        let traces = Traces::now();
        let openings = openings.display().to_string();
        let (grading, result) = arena_in(&world, mode, &class, &[
            "--opponent", "naive", "--games", "1", "--seconds", "0.2", "--start-allowance",
            "0.2", "--openings", &openings,
        ]);
        let sleep = forfeits_of(&result, "sleep");
        assert_eq!(sleep.len(), 1);
        assert_eq!(sleep[0].0, "over the time");
        let flood = forfeits_of(&result, "megabytes");
        assert_eq!(flood.len(), 1);
        assert_eq!(flood[0].0, "unreadable answer");
        assert!(
            grading.stdout.contains("still running after 2.2 s of wall time (the net"),
            "{}",
            grading.stdout
        );
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}
