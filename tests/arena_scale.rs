//! `reversi arena` for large classes (docs/arena.md): a tournament killed at random
//! moments resumes from its journal to the very reports of a run never stopped; a
//! resume with other settings is refused, and so is a second tournament of the class
//! while one runs; shards merged give the whole tournament's reports. Agents of our own (`tests/arena/agent.py`),
//! games from late positions so that they are short.

#[path = "common/arena_class.rs"]
mod arena_class;
#[path = "common/sandboxed.rs"]
#[allow(unused_macros)]
mod sandboxed;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, SystemTime};

use arena_class::{class, openings, without_times};
use reversi::splitmix::SplitMix64;
use sandboxed::BIN;

/// `reversi arena` with its journal under `state`.
fn arena(state: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command
        .arg("arena")
        .args(args)
        .env("XDG_STATE_HOME", state)
        .stdin(Stdio::null());
    command
}

/// The reports of a run writing into `out`: JSON, CSV, the crosstable.
fn reports(out: &Path, output: &Output) -> (String, String, String) {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    (
        fs::read_to_string(out.join("report.json")).unwrap(),
        fs::read_to_string(out.join("report.csv")).unwrap(),
        text(&output.stdout),
    )
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The journals under `state`.
fn journals(state: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(state)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_path_buf())
        .collect()
}

/// The lines of the tournament's journal in `state` (0 when there is none).
fn journal_lines(state: &Path) -> usize {
    journals(state)
        .iter()
        .map(|journal| fs::read(journal).map_or(0, |b| b.split(|&c| c == b'\n').count() - 1))
        .sum()
}

/// The tournament's options, its reports written into `out`.
fn options(class: &Path, openings: &Path, out: &Path) -> Vec<String> {
    [
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--opponent",
        "engine:depth=1",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "-j",
        "2",
        "--json",
        out.join("report.json").to_str().unwrap(),
        "--csv",
        out.join("report.csv").to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_tournament_killed_at_random_moments_resumes_to_the_same_reports() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first", "last", "illegal", "build-fails"]);
    let openings = openings(dir.path(), 2, 6);
    let (whole_out, killed_out) = (dir.path().join("whole"), dir.path().join("killed"));
    fs::create_dir_all(&whole_out).unwrap();
    fs::create_dir_all(&killed_out).unwrap();
    let (whole_state, state) = (dir.path().join("state-a"), dir.path().join("state-b"));

    let args = options(&class, &openings, &whole_out);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = std::time::Instant::now();
    let whole = arena(&whole_state, &args).output().unwrap();
    let took = started.elapsed();
    let whole = reports(&whole_out, &whole);
    assert!(
        journals(&whole_state).is_empty(),
        "a whole run leaves no journal"
    );

    let seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    println!("kill seed {seed} (the whole run took {took:?})");
    let mut random = SplitMix64::new(seed);
    let args = options(&class, &openings, &killed_out);
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut resumable = 0;
    for kill in 0..4 {
        // The run is killed once it has recorded a game of its own (so that every
        // kill leaves progress to resume, whatever the machine's load), at a random
        // moment within the next 30 ms.
        let before = journal_lines(&state);
        let mut child = arena(&state, &args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let waited = std::time::Instant::now();
        while journal_lines(&state) <= before
            && child.try_wait().unwrap().is_none()
            && waited.elapsed() < Duration::from_secs(120)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        let moment = Duration::from_millis(random.below(30));
        std::thread::sleep(moment);
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        println!("kill {kill} after {moment:?}");
        if kill == 0 {
            args.push("--resume");
        }
        let Some(journal) = journals(&state).pop() else {
            continue;
        };
        resumable += 1;
        // A line cut by the kill: passed over.
        let mut bytes = fs::read(&journal).unwrap();
        bytes.extend_from_slice(br#"{"white":"first","black":"na"#);
        fs::write(&journal, bytes).unwrap();
        if kill == 1 {
            // Another --seed decides other openings: refused, the journal kept.
            let mut other = args.clone();
            other.extend(["--seed", "2"]);
            let refused = arena(&state, &other).output().unwrap();
            assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
            assert!(
                text(&refused.stderr).contains("another --seed (1; now 2)"),
                "{}",
                text(&refused.stderr)
            );
            assert!(journal.exists());
        }
    }
    assert!(
        resumable > 0,
        "every killed run had finished the tournament"
    );
    let held = !journals(&state).is_empty();
    let resumed = arena(&state, &args).output().unwrap();
    let stderr = text(&resumed.stderr);
    assert!(
        !held || stderr.contains("resuming the tournament"),
        "{stderr}"
    );
    let resumed = reports(&killed_out, &resumed);
    assert_eq!(without_times(&resumed.0), without_times(&whole.0), "JSON");
    assert_eq!(resumed.1, whole.1, "CSV");
    assert_eq!(resumed.2, whole.2, "crosstable");
    assert!(journals(&state).is_empty(), "the journal goes with the end");
}

/// Runs `reversi arena` (or `arena merge`) to the end; its output.
fn finished(state: &Path, args: &[&str]) -> Output {
    let output = arena(state, args).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    output
}

#[test]
fn shards_merged_give_the_whole_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first", "last", "illegal", "build-fails"]);
    let openings = openings(dir.path(), 1, 6);
    let state = dir.path().join("state");
    let class = class.to_str().unwrap();
    let openings = openings.to_str().unwrap();
    for (format, shards) in [("gauntlet", 3), ("round-robin", 2)] {
        let out = |name: &str| dir.path().join(format!("{format}-{name}"));
        let common = [
            class,
            "--format",
            format,
            "--opponent",
            "naive",
            "--opponent",
            "engine:depth=1",
            "--games",
            "2",
            "--openings",
            openings,
        ];
        let run = |name: &str, extra: &[&str]| {
            let (json, csv) = (out(&format!("{name}.json")), out(&format!("{name}.csv")));
            let mut args = common.to_vec();
            args.extend([
                "--json",
                json.to_str().unwrap(),
                "--csv",
                csv.to_str().unwrap(),
            ]);
            args.extend(extra);
            let output = finished(&state, &args);
            (
                fs::read_to_string(json).unwrap(),
                fs::read_to_string(csv).unwrap(),
                text(&output.stdout),
            )
        };
        let whole = run("whole", &[]);
        let mut inputs = Vec::new();
        for k in 1..=shards {
            let shard = format!("{k}/{shards}");
            let (json, ..) = run(&format!("shard-{k}"), &["--shard", &shard]);
            let games = serde_json::from_str::<serde_json::Value>(&json).unwrap()["games"]
                .as_array()
                .unwrap()
                .len();
            assert!(games > 0 && games < 20, "{format} {shard}: {games} games");
            inputs.push(
                out(&format!("shard-{k}.json"))
                    .to_str()
                    .unwrap()
                    .to_string(),
            );
        }
        let (json, csv) = (out("merged.json"), out("merged.csv"));
        let mut args = vec![
            "merge",
            "--json",
            json.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ];
        // (the shards in any order)
        args.extend(inputs.iter().rev().map(String::as_str));
        let merged = finished(&state, &args);
        assert_eq!(
            without_times(&fs::read_to_string(json).unwrap()),
            without_times(&whole.0),
            "{format}: JSON"
        );
        assert_eq!(fs::read_to_string(csv).unwrap(), whole.1, "{format}: CSV");
        assert_eq!(text(&merged.stdout), whole.2, "{format}: crosstable");

        // A shard missing, or given twice: refused.
        for wrong in [&inputs[1..], &[inputs[0].clone(), inputs[0].clone()][..]] {
            let mut args = vec!["merge"];
            args.extend(wrong.iter().map(String::as_str));
            let refused = arena(&state, &args).output().unwrap();
            assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
            assert!(text(&refused.stderr).contains("the shards given are"));
        }
    }
    assert!(journals(&state).is_empty());
    let knockout = arena(
        &state,
        &[
            class,
            "--format",
            "knockout",
            "--opponent",
            "naive",
            "--shard",
            "1/2",
        ],
    )
    .output()
    .unwrap();
    assert_eq!(knockout.status.code(), Some(2));
    assert!(text(&knockout.stderr).contains("--shard"));
}

#[test]
fn a_second_tournament_of_the_class_waits_for_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first", "last"]);
    let openings = openings(dir.path(), 2, 6);
    let state = dir.path().join("state");
    let args = options(&class, &openings, dir.path());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut first = arena(&state, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // (its header is written once it holds the journal)
    while !journals(&state)
        .iter()
        .any(|j| fs::metadata(j).is_ok_and(|m| m.len() > 0))
    {
        assert!(
            first.try_wait().unwrap().is_none(),
            "it ended before its journal was seen"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // (without --resume, it would play on without a journal, with a warning)
    let mut resuming = args.clone();
    resuming.push("--resume");
    let second = arena(&state, &resuming).output().unwrap();
    let running = first.try_wait().unwrap().is_none();
    first.wait().unwrap();
    assert!(running, "the first ended before the second was refused");
    assert_eq!(second.status.code(), Some(2), "{}", text(&second.stderr));
    assert!(
        text(&second.stderr).contains("another tournament of this class is running"),
        "{}",
        text(&second.stderr)
    );
}
