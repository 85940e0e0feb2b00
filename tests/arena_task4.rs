//! `reversi arena --protocol cs561-task4` (docs/arena.md): CS561 Fall 2014's referee
//! with Makefile agents of our own (`tests/arena_task4/agent.py`, one mode per
//! behaviour) and our solver in task-4 mode as the reference agent: a game to the
//! end, every verdict of the handout (build failed, run failed, bank spent, over the
//! wall limit, illegal move), the folder kept across moves and games and private to
//! its agent under both sandboxes, ties broken by CPU time left, a knockout of
//! 3-game pairings without the withdrawn. Games start from late positions and banks are small.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/arena_class.rs"]
mod arena_class;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use arena_class::{empties, games_of, late_positions, openings_in, positions, read_json};
use reversi::format::umea::parse_position;
use sandboxed::{Mode, Traces, World, BIN};
use serde_json::Value;

/// The folder of the solver's binary, shown to the agents read-only.
fn bin_dir() -> String {
    Path::new(BIN).parent().unwrap().display().to_string()
}

/// A class under `dir`: one folder per mode, each with `agent.py` and a Makefile
/// running it in that mode (`build-fails`: `make agent` fails; `run-fails`: `make
/// run` fails; `solver`: our solver plays).
fn class(dir: &Path, modes: &[&str]) -> PathBuf {
    let class = dir.join("class");
    for mode in modes {
        let folder = class.join(mode);
        fs::create_dir_all(&folder).unwrap();
        fs::copy(
            sandboxed::root().join("tests/arena_task4/agent.py"),
            folder.join("agent.py"),
        )
        .unwrap();
        let agent = if *mode == "build-fails" {
            "exit 1"
        } else {
            "@true"
        };
        let run = match *mode {
            "run-fails" => "exit 3".to_string(),
            "solver" => BIN.to_string(),
            _ => format!("python3 agent.py {mode} run"),
        };
        fs::write(
            folder.join("Makefile"),
            format!(
                "agent:\n\t{agent}\ncalibrate:\n\ttouch calibrated.txt\n\
                 newgame:\n\tpython3 agent.py {mode} newgame\nrun:\n\t{run}\n"
            ),
        )
        .unwrap();
    }
    class
}

/// Late positions of `n` empty cells or fewer, written as an openings file under `dir`.
fn late(dir: &Path, count: usize, n: u32) -> PathBuf {
    openings_in(dir, "openings.txt", &late_positions(11, count, n))
}

/// Runs `reversi arena CLASS --protocol cs561-task4` (the solver's folder shown) in
/// `format` with `games` a pairing, a bank of `bank` seconds and `openings`, then
/// `extra`; checks that it succeeded and its games (see [`check_games`]); its
/// standard output and JSON report.
fn arena(
    dir: &Path,
    class: &Path,
    (format, games, bank): (&str, &str, &str),
    openings: &Path,
    extra: &[&str],
) -> (String, Value) {
    let json = dir.join("out.json");
    let output = Command::new(BIN)
        .arg("arena")
        .arg(class)
        .args(["--protocol", "cs561-task4", "--read-only", &bin_dir()])
        .args(["--calibrate-seconds", "5", "--json", json.to_str().unwrap()])
        .args(["--format", format, "--games", games, "--bank", bank])
        .arg("--openings")
        .arg(openings)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report = read_json(&json);
    check_games(&report, bank.parse().unwrap());
    (String::from_utf8(output.stdout).unwrap(), report)
}

/// `player`'s forfeits: (reason, detail).
fn forfeits_of(report: &Value, player: &str) -> Vec<(String, String)> {
    arena_class::forfeits(report, player, "detail")
}

/// `player`'s random moves over the tournament: (bank spent, run failed), from the
/// report's count, checked against the games' records.
fn random_of(report: &Value, player: &str) -> (u64, u64) {
    let count = report["random_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["player"] == player)
        .unwrap();
    let (bank, run) = (
        count["bank_spent"].as_u64().unwrap(),
        count["run_failed"].as_u64().unwrap(),
    );
    let recorded: Vec<&Value> = games_of(report, player)
        .into_iter()
        .flat_map(|g| g["random"].as_array().unwrap())
        .filter(|r| r["player"] == player)
        .collect();
    let why = |w: &str| recorded.iter().filter(|r| r["why"] == w).count() as u64;
    assert_eq!((why("bank spent"), why("run failed")), (bank, run));
    (bank, run)
}

/// Replays every game: its moves legal from its start, the discs and winner as the
/// handout decides them (a forfeit loses; equal discs: more CPU time left wins), the
/// CPU time left recorded for both sides.
fn check_games(report: &Value, bank: f64) {
    for game in report["games"].as_array().unwrap() {
        let mut position = parse_position(game["start"].as_str().unwrap()).unwrap();
        let moves = game["moves"].as_array().unwrap();
        for m in moves {
            let text = m.as_str().unwrap();
            let square = if text == "pass" {
                assert_eq!(position.board().moves(), 0, "{game}");
                None
            } else {
                let b = text.as_bytes();
                let square = reversi::board::Square::new(b[1] - b'1', b[0] - b'a');
                assert_ne!(position.board().moves() & square.bit(), 0, "{text}: {game}");
                Some(square)
            };
            position = position.after(square);
        }
        let (w, b) = (position.white.count_ones(), position.black.count_ones());
        assert_eq!(game["discs"]["white"], w);
        assert_eq!(game["discs"]["black"], b);
        let left = |side: &str| game["cpu_left"][side].as_f64().unwrap();
        assert!(left("white") <= bank && left("black") <= bank, "{game}");
        let winner = game["winner"].as_str().unwrap();
        if let Some(loser) = game["forfeit"]["player"].as_str() {
            assert_eq!(
                game["forfeit"]["move"].as_u64().unwrap() as usize,
                moves.len() + 1
            );
            let loser = if game["white"] == loser {
                "white"
            } else {
                "black"
            };
            assert_ne!(winner, loser, "{game}");
            continue;
        }
        assert!(position.board().moves() == 0 && position.board().pass().moves() == 0);
        let expected = match w.cmp(&b) {
            std::cmp::Ordering::Greater => "white",
            std::cmp::Ordering::Less => "black",
            std::cmp::Ordering::Equal => match left("white").total_cmp(&left("black")) {
                std::cmp::Ordering::Greater => "white",
                std::cmp::Ordering::Less => "black",
                // Equal to the millisecond the report shows: the exact times decided.
                std::cmp::Ordering::Equal => winner,
            },
        };
        assert_eq!(winner, expected, "{game}");
    }
}

#[test]
fn the_solver_plays_games_to_the_end_and_the_report_states_the_terms() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first", "solver"]);
    let openings = late(dir.path(), 1, 10);
    let (stdout, report) = arena(
        dir.path(),
        &class,
        ("round-robin", "2", "3"),
        &openings,
        &[],
    );
    assert_eq!(report["games"].as_array().unwrap().len(), 2);
    for player in ["first", "solver"] {
        assert!(forfeits_of(&report, player).is_empty(), "{stdout}");
        assert_eq!(random_of(&report, player), (0, 0));
    }
    // The solver's CPU time was charged.
    let solver_left: Vec<f64> = games_of(&report, "solver")
        .iter()
        .map(|g| {
            let side = if g["white"] == "solver" {
                "white"
            } else {
                "black"
            };
            g["cpu_left"][side].as_f64().unwrap()
        })
        .collect();
    assert!(solver_left.iter().all(|&l| l < 3.0), "{solver_left:?}");
    for words in [
        "bank: 3 s of CPU time per side per game",
        "wall limit: a run of `make run` is killed after its side's time left + 10 s",
        "killed after 5 s of wall time",
        "equal discs: more CPU time left wins",
        "random moves by the referee (bank spent / run failed):\n",
        "  first: 0 / 0\n",
        "  solver: 0 / 0\n",
    ] {
        assert!(stdout.contains(words), "{words}: {stdout}");
    }
}

#[test]
fn every_verdict_of_the_handout() {
    let dir = tempfile::tempdir().unwrap();
    let modes = [
        "first",
        "build-fails",
        "run-fails",
        "burn",
        "sleep",
        "illegal",
        "keeps-state",
    ];
    let class = class(dir.path(), &modes);
    let openings = late(dir.path(), 1, 12);
    let (stdout, report) = arena(
        dir.path(),
        &class,
        ("gauntlet", "2", "0.5"),
        &openings,
        &["--opponent", "engine:depth=2", "-j", "3"],
    );
    let reasons = |player| -> Vec<String> {
        forfeits_of(&report, player)
            .into_iter()
            .map(|f| f.0)
            .collect()
    };
    for player in ["first", "run-fails", "burn", "keeps-state"] {
        assert!(reasons(player).is_empty(), "{player}: {stdout}");
    }
    assert_eq!(reasons("build-fails"), ["build failed", "build failed"]);
    assert_eq!(reasons("illegal"), ["illegal move", "illegal move"]);
    // The sleeper sleeps in its first game only (its folder kept across games): over
    // the wall limit once, after its 0.5 s left + 10 s.
    let sleep = forfeits_of(&report, "sleep");
    assert_eq!(sleep.len(), 1, "{sleep:?}");
    assert_eq!(sleep[0].0, "over the time");
    assert!(
        sleep[0]
            .1
            .contains("still running after 10.5 s of wall time"),
        "{sleep:?}"
    );
    // A failing run: a random move each time, recorded.
    let (bank, run) = random_of(&report, "run-fails");
    assert_eq!(bank, 0);
    assert!(run >= 2, "{run}");
    // The burner spends its 0.5 s in two moves; then the referee plays for it.
    let (bank, run) = random_of(&report, "burn");
    assert_eq!(run, 0);
    assert!(bank >= 2, "{bank}: {stdout}");
    for game in games_of(&report, "burn") {
        let side = if game["white"] == "burn" {
            "white"
        } else {
            "black"
        };
        assert!(game["cpu_left"][side].as_f64().unwrap() <= 0.0, "{game}");
        let mut randoms = game["random"].as_array().unwrap().iter();
        assert!(randoms.all(|r| r["why"] == "bank spent" && r["player"] == "burn"));
    }
    for player in ["first", "keeps-state", "illegal", "engine:depth=2"] {
        assert_eq!(random_of(&report, player), (0, 0), "{player}");
    }
    assert!(stdout.contains("  run-fails: 0 / "), "{stdout}");
}

#[test]
fn equal_discs_go_to_more_cpu_time_left() {
    let dir = tempfile::tempdir().unwrap();
    // One empty cell, whose move fills the board 32-32.
    let tie = positions(11, 1, |p| {
        empties(p) == 1 && {
            let after = p.play(reversi::board::Square::from_index(
                p.board().moves().trailing_zeros() as u8,
            ));
            after.white.count_ones() == 32
        }
    });
    let openings = openings_in(dir.path(), "openings.txt", &tie);
    let class = class(dir.path(), &["first", "tie-burn"]);
    let (stdout, report) = arena(
        dir.path(),
        &class,
        ("round-robin", "2", "2"),
        &openings,
        &[],
    );
    let to_move = if tie[0].to_move == reversi::rules::Color::White {
        "white"
    } else {
        "black"
    };
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["discs"]["white"], 32);
        assert_eq!(game["moves"].as_array().unwrap().len(), 1);
        // The mover spent CPU time; the other, never called, has its whole bank.
        let other = if to_move == "white" { "black" } else { "white" };
        assert_eq!(game["winner"], other, "{game}");
        assert_eq!(game["cpu_left"][other], 2.0);
    }
    assert!(stdout.contains("1/2"), "{stdout}");
}

#[test]
fn a_knockout_of_three_game_pairings() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(
        dir.path(),
        &["first", "solver", "illegal", "run-fails", "build-fails"],
    );
    let openings = late(dir.path(), 2, 8);
    let (stdout, report) = arena(
        dir.path(),
        &class,
        ("knockout", "3", "1"),
        &openings,
        &["-j", "2"],
    );
    let rounds = report["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{stdout}");
    assert_eq!(rounds[0].as_array().unwrap().len(), 2);
    // 4 drawn: the agent whose build failed is withdrawn before the draw.
    assert_eq!(report["games"].as_array().unwrap().len(), 9);
    assert!(games_of(&report, "build-fails").is_empty());
    // No game measures the withdrawn agent: it has no rating.
    let withdrawn = report["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "build-fails")
        .unwrap();
    assert!(withdrawn["elo"].is_null(), "{withdrawn}");
    assert!(stdout.contains("build failed: build-fails: `make agent` exited with status 2"));
    // Each pairing: 3 games between its two players, the majority advancing.
    for pairing in rounds.iter().flat_map(|r| r.as_array().unwrap()) {
        let (a, b) = (
            pairing["first"].as_str().unwrap(),
            pairing["second"].as_str().unwrap(),
        );
        let games: Vec<&Value> = games_of(&report, a)
            .into_iter()
            .filter(|g| g["white"] == b || g["black"] == b)
            .collect();
        assert_eq!(games.len(), 3);
        let wins = |p: &str| {
            games
                .iter()
                .filter(|g| g[g["winner"].as_str().unwrap()] == p)
                .count()
        };
        let advances = pairing["advances"].as_str().unwrap();
        let other = if advances == a { b } else { a };
        assert!(wins(advances) > wins(other), "{pairing}: {stdout}");
    }
    assert!(stdout.contains("round 2:"), "{stdout}");
}

every_sandbox! {
    /// An agent that looks for the other agent's files (the class folder, the
    /// referee's temporary folders where agents' folders are kept, the referee's
    /// home) and tries to read and change them: it finds nothing and plays on; the
    /// victim's files are untouched and its own state is kept; nothing outside the
    /// runs changed or stayed.
    fn agents_folders_are_private(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = class(world.path(), &["spy", "victim", "keeps-state"]);
        fs::write(class.join("victim/secret.txt"), "victim's secret").unwrap();
        fs::write(
            class.join("spy/target.txt"),
            format!("{} {} {}", class.display(), world.tmp.display(), world.home.display()),
        )
        .unwrap();
        let openings = late(world.path(), 1, 8);
        let before = (sandboxed::snapshot(&class), world.snapshot());
        let traces = Traces::now();
        let json = world.path().join("result.json");
        let bin = bin_dir();
        let mut args = vec![
            "arena", class.to_str().unwrap(), "--protocol", "cs561-task4",
            "--format", "round-robin", "--games", "2", "--bank", "2",
            "--calibrate-seconds", "5", "--read-only", &bin,
            "--openings", openings.to_str().unwrap(), "--json", json.to_str().unwrap(),
        ];
        args.extend(mode.flags());
        let grading = sandboxed::grader(&world, &args, sandboxed::Launch::default());
        assert_eq!(grading.code, Some(0), "{}", grading.stderr);
        let report = read_json(&json);
        check_games(&report, 2.0);
        for player in ["spy", "victim", "keeps-state"] {
            assert_eq!(forfeits_of(&report, player), vec![], "{player}: {}", grading.stdout);
            assert_eq!(random_of(&report, player), (0, 0), "{player}");
        }
        assert!(
            before == (sandboxed::snapshot(&class), world.snapshot()),
            "files outside the runs changed"
        );
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}
