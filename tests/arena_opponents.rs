//! `reversi arena --opponent nboard:COMMAND` and `--opponent engine:nodes=N`
//! (docs/arena.md): an NBoard engine (our own `reversi engine nboard`) as the
//! opponent of a class speaking umea plays whole games of legal moves, and broken
//! engines of our own (`tests/arena/nboard.py`) forfeit with their reason, under
//! every sandbox; our engine at a node budget plays whole games under its name.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/arena_class.rs"]
mod arena_class;

use std::fs;
use std::path::Path;
use std::process::Command;

use arena_class::{games_of, read_json};
use reversi::board::Square;
use reversi::format::ggf::parse_move_name;
use reversi::format::umea::parse_position;
use sandboxed::{Mode, Traces, World, BIN};
use serde_json::Value;

/// `player`'s forfeits: (reason, answer).
fn forfeits_of(report: &Value, player: &str) -> Vec<(String, String)> {
    arena_class::forfeits(report, player, "answer")
}

/// Replays `game` from its start: every move legal (a pass only with no move), and
/// the game over at the end.
fn check_complete(game: &Value) {
    let mut position = parse_position(game["start"].as_str().unwrap()).unwrap();
    for name in game["moves"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        let moves = position.board().moves();
        let square: Option<Square> = if name == "pass" {
            None
        } else {
            parse_move_name(name).unwrap()
        };
        match square {
            None => assert_eq!(moves, 0, "a pass with a move: {game}"),
            Some(square) => assert!(moves & square.bit() != 0, "{name} illegal: {game}"),
        }
        position = position.after(square);
    }
    let board = position.board();
    assert!(
        board.moves() == 0 && board.pass().moves() == 0,
        "not over: {game}"
    );
}

every_sandbox! {
    /// A umea class (agents playing the first and the last legal move) against our
    /// engine over NBoard (its command shown read-only) plays every game to its end
    /// with legal moves; an NBoard engine that crashes or plays an illegal move
    /// forfeits each of its games with that reason; the reports name the engines as
    /// given and state their bank; nothing left behind.
    fn nboard_engines_play_a_umea_class(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = arena_class::class(world.path(), &["first", "last"]);
        let engines = world.path().join("engines");
        fs::create_dir_all(&engines).unwrap();
        let broken = engines.join("nboard.py");
        fs::copy(sandboxed::root().join("tests/arena/nboard.py"), &broken).unwrap();
        let ours = format!("nboard:{BIN} engine nboard");
        let crashes = format!("nboard:python3 {} crashes", broken.display());
        let illegal = format!("nboard:python3 {} illegal", broken.display());
        let openings = arena_class::openings(world.path(), 1, 16);
        let bin = Path::new(BIN).parent().unwrap().display().to_string();
        let json = world.path().join("result.json");
        let ggf = world.path().join("games");
        let traces = Traces::now();
        let mut args = vec![
            "arena", class.to_str().unwrap(), "--protocol", "umea", "--opponent", &ours,
            "--opponent", &crashes, "--opponent", &illegal, "--nboard-depth", "2",
            "--games", "2", "--seconds", "1", "--openings", openings.to_str().unwrap(),
            "--read-only", &bin, "--read-only", engines.to_str().unwrap(), "-j", "2",
            "--json", json.to_str().unwrap(), "--games-dir", ggf.to_str().unwrap(),
        ];
        args.extend(mode.flags());
        let grading = sandboxed::grader(&world, &args, sandboxed::Launch::default());
        assert_eq!(grading.code, Some(0), "{}", grading.stderr);
        let report = read_json(&json);
        assert!(
            grading.stdout.contains("nboard: opponents (NBoard engines, 30 times --seconds a move): time: a bank of 30 s"),
            "{}",
            grading.stdout
        );
        assert!(grading.stdout.contains("only `set depth 2`"), "{}", grading.stdout);
        let players: Vec<&str> = report["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(players.contains(&ours.as_str()), "{players:?}");
        let games = games_of(&report, &ours);
        assert_eq!(games.len(), 4);
        for game in games {
            assert_eq!(game["forfeit"], Value::Null, "{}", grading.stdout);
            check_complete(game);
        }
        for (engine, reason, answer) in [(&crashes, "crash", ""), (&illegal, "illegal move", "=== A1")] {
            let expected = vec![(reason.to_string(), answer.to_string()); 4];
            assert_eq!(forfeits_of(&report, engine), expected, "{engine}: {}", grading.stdout);
        }
        for student in ["first", "last"] {
            assert_eq!(forfeits_of(&report, student), vec![], "{}", grading.stdout);
        }
        let records: Vec<String> = fs::read_dir(&ggf)
            .unwrap()
            .map(|f| fs::read_to_string(f.unwrap().path()).unwrap())
            .collect();
        assert_eq!(records.len(), 12);
        assert!(records.iter().any(|r| r.contains("engine nboard")), "{records:?}");
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}

/// Our engine at a node budget plays a umea class's games to their end under its
/// name; budgets out of range and empty commands are refused with the forms the
/// option takes.
#[test]
fn a_node_budget_plays_and_bad_specs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let class = arena_class::class(dir.path(), &["first"]);
    let openings = arena_class::openings(dir.path(), 1, 20);
    let json = dir.path().join("out.json");
    let arena = |opponent: &str| {
        Command::new(BIN)
            .arg("arena")
            .arg(&class)
            .args(["--opponent", opponent, "--games", "2", "--openings"])
            .arg(&openings)
            .arg("--json")
            .arg(&json)
            .output()
            .unwrap()
    };
    let output = arena("engine:nodes=20000");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report = read_json(&json);
    let games = games_of(&report, "engine:nodes=20000");
    assert_eq!(games.len(), 2);
    for game in games {
        assert_eq!(game["forfeit"], Value::Null);
        check_complete(game);
    }
    for bad in [
        "engine:nodes=999",
        "engine:nodes=2000000000",
        "nboard:",
        "nboard: ",
    ] {
        let output = arena(bad);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("engine:nodes=N (1000-1000000000)")
                || stderr.contains("nboard: needs a command"),
            "{bad}: {stderr}"
        );
    }
}
