//! `reversi arena --protocol nboard` (docs/arena.md): our own `reversi engine
//! nboard` as a student's engine plays whole games against the naive opponent, and
//! broken engines of our own (`tests/arena/nboard.py`, one mode each) forfeit with
//! the reason and their answer escaped, under every sandbox; nothing left behind.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/arena_class.rs"]
mod arena_class;
use arena_class::read_json;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use sandboxed::{Mode, Traces, World, BIN};
use serde_json::Value;

/// `player`'s forfeits: (reason, answer).
fn forfeits_of(report: &Value, player: &str) -> Vec<(String, String)> {
    arena_class::forfeits(report, player, "answer")
}

every_sandbox! {
    /// Our engine (its `othello.sh` execs the solver, shown read-only) plays its games
    /// to the end and wins; each broken engine forfeits both its games with its
    /// reason and its answer escaped.
    fn engines_play_and_broken_ones_forfeit(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let modes = ["garbage", "illegal", "pass", "bad-move", "quits", "crashes", "silent"];
        let class = arena_class::class_of(world.path(), "nboard.py", &modes);
        let ours = class.join("ours");
        fs::create_dir_all(&ours).unwrap();
        let run = ours.join("othello.sh");
        fs::write(&run, format!("#!/bin/sh\nexec {BIN} engine nboard\n")).unwrap();
        fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
        let bin = Path::new(BIN).parent().unwrap().display().to_string();
        let json = world.path().join("result.json");
        let traces = Traces::now();
        let mut args = vec![
            "arena", class.to_str().unwrap(), "--protocol", "nboard", "--nboard-depth", "2",
            "--opponent", "naive", "--games", "2", "--seconds", "1", "--start-allowance",
            "0.5", "--read-only", &bin, "-j", "2", "--json", json.to_str().unwrap(),
        ];
        args.extend(mode.flags());
        let grading = sandboxed::grader(&world, &args, sandboxed::Launch::default());
        assert_eq!(grading.code, Some(0), "{}", grading.stderr);
        let report = read_json(&json);
        assert!(grading.stdout.contains("only `set depth 2`"), "{}", grading.stdout);
        assert_eq!(forfeits_of(&report, "ours"), vec![], "{}", grading.stdout);
        let games: Vec<&Value> = report["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["white"] == "ours" || g["black"] == "ours")
            .collect();
        assert_eq!(games.len(), 2);
        for game in games {
            assert_eq!(game["forfeit"], Value::Null);
            let discs = &game["discs"];
            let filled = discs["white"].as_u64().unwrap() + discs["black"].as_u64().unwrap();
            let moves = game["moves"].as_array().unwrap();
            assert!(filled == 64 || moves.len() > 40, "{game}");
        }
        for (agent, reason, answer) in [
            ("garbage", "unreadable answer", "hello \\u{1b}[2J there"),
            ("illegal", "illegal move", "=== A1"),
            ("pass", "pass with a legal move", "=== PA"),
            ("bad-move", "unreadable answer", "=== Z9/0.00"),
            ("quits", "no answer", ""),
            ("crashes", "crash", ""),
            ("silent", "over the time", ""),
        ] {
            let expected = vec![(reason.to_string(), answer.to_string()); 2];
            assert_eq!(forfeits_of(&report, agent), expected, "{agent}: {}", grading.stdout);
        }
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}

/// A line that is no NBoard message before the answer: unreadable (strict), skipped
/// under `--lax` (the answer after it then judged: a pass with a legal move).
#[test]
fn other_lines_are_unreadable_unless_lax() {
    let dir = tempfile::tempdir().unwrap();
    let class = arena_class::class_of(dir.path(), "nboard.py", &["chatty"]);
    let json = dir.path().join("out.json");
    for (lax, reason, answer) in [
        (false, "unreadable answer", "debug: thinking"),
        (true, "pass with a legal move", "=== PA"),
    ] {
        let mut command = std::process::Command::new(BIN);
        command
            .arg("arena")
            .arg(&class)
            .args([
                "--protocol",
                "nboard",
                "--opponent",
                "naive",
                "--games",
                "1",
            ])
            .arg("--json")
            .arg(&json);
        if lax {
            command.arg("--lax");
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let report = read_json(&json);
        assert_eq!(
            forfeits_of(&report, "chatty"),
            vec![(reason.to_string(), answer.to_string())],
            "lax {lax}"
        );
    }
}
