//! `reversi arena --format uf --policy uf` (docs/arena.md): UF CAP4053's six
//! pairings. An NBoard agent of our own that IS the example AI at the level `set
//! depth` tells it (`tests/arena/uf.py example`, `reversi uf move`) plays the
//! handout's games move for move (`testcases/uf/example_vs_example.txt`), ends with
//! the black counts 8, 56, 33, 50, 55, 39 and passes all six, under every sandbox; a
//! naive one (`first`) fails where it falls short. The grade is in every report.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/arena_class.rs"]
mod arena_class;
use arena_class::read_json;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use sandboxed::{Mode, Traces, World, BIN};
use serde_json::Value;

/// The pairings in the handout's order: (black level, white's name, black count).
const PAIRINGS: [(&str, &str, u64); 6] = [
    ("Beginner", "uf:beginner", 8),
    ("Intermediate", "uf:beginner", 56),
    ("Intermediate", "uf:intermediate", 33),
    ("Advanced", "uf:beginner", 50),
    ("Advanced", "uf:intermediate", 55),
    ("Advanced", "uf:advanced", 39),
];

/// The folder of our binary, shown to the agents read-only.
fn bin_dir() -> String {
    Path::new(BIN).parent().unwrap().display().to_string()
}

/// A class of `tests/arena/uf.py` agents in `modes`, each told where our binary is.
fn class(dir: &Path, modes: &[&str]) -> PathBuf {
    let class = arena_class::class_of(dir, "uf.py", modes);
    for mode in modes {
        fs::write(
            class.join(mode).join("othello.sh"),
            format!("#!/bin/sh\nexec python3 ./uf.py {mode} {BIN} \"$@\"\n"),
        )
        .unwrap();
    }
    class
}

/// The handout's listing: each game's moves as the JSON report writes them (`d3`,
/// `pass`), keyed by `Black(black) vs White(white)`.
fn listed_moves() -> Vec<(String, Vec<String>)> {
    let text =
        fs::read_to_string(sandboxed::root().join("testcases/uf/example_vs_example.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(2)
        .map(|pair| {
            let title = pair[0].split(':').next().unwrap().to_string();
            let moves = pair[1]
                .split_whitespace()
                .skip(1)
                .map(|m| match m.as_bytes() {
                    [_, row, col] => format!("{}{}", (col + b'a' - b'0') as char, row - b'0' + 1),
                    _ => "pass".to_string(),
                })
                .collect();
            (title, moves)
        })
        .collect()
}

fn games_of<'a>(report: &'a Value, player: &str) -> Vec<&'a Value> {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["black"] == player || g["white"] == player)
        .collect()
}

fn grade_of<'a>(report: &'a Value, player: &str) -> &'a Value {
    report["grading"]["grades"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == player)
        .unwrap()
}

every_sandbox! {
    /// The example AI as an NBoard agent plays the handout's six games exactly and
    /// passes all six; `first` passes none; JSON, text, HTML and JUnit carry the grade.
    fn the_example_ai_reproduces_the_handouts_counts(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = class(world.path(), &["example", "first"]);
        let json = world.path().join("out.json");
        let html = world.path().join("out.html");
        let junit = world.path().join("out.xml");
        let bin = bin_dir();
        let traces = Traces::now();
        let mut args = vec![
            "arena", class.to_str().unwrap(), "--format", "uf", "--protocol", "nboard",
            "--policy", "uf", "--seconds", "30", "--read-only", &bin, "-j", "2",
            "--json", json.to_str().unwrap(), "--html", html.to_str().unwrap(),
            "--junit", junit.to_str().unwrap(),
        ];
        args.extend(mode.flags());
        let grading = sandboxed::grader(&world, &args, sandboxed::Launch::default());
        assert_eq!(grading.code, Some(0), "{}", grading.stderr);
        let report = read_json(&json);
        assert_eq!(report["format"], "uf");
        let listed = listed_moves();
        let games = games_of(&report, "example");
        assert_eq!(games.len(), 6);
        for (game, (level, white, count)) in games.iter().zip(PAIRINGS) {
            assert_eq!(game["black"], "example");
            assert_eq!(game["white"], white);
            assert_eq!(game["forfeit"], Value::Null, "{game}");
            assert_eq!(game["discs"]["black"], count, "{level} vs {white}");
            let white_level = white.strip_prefix("uf:").unwrap();
            let title = format!(
                "{level}(black) vs {}{}(white)",
                white_level[..1].to_uppercase(),
                &white_level[1..]
            );
            let (_, moves) = listed.iter().find(|(t, _)| *t == title).unwrap();
            let played: Vec<&str> =
                game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
            assert_eq!(&played, moves, "{title}");
        }
        let example = grade_of(&report, "example");
        assert_eq!((example["mark"].as_str(), example["points"].as_f64()), (Some("6/6"), Some(6.0)));
        assert_eq!(example["max_points"], 6.0);
        for needed in [
            "Beginner-Beginner 8-56 (needs 8): pass",
            "Intermediate-Beginner 56-8 (needs 56): pass",
            "Advanced-Intermediate 55-8 (needs 55): pass",
            "Advanced-Advanced 39-25 (needs 39): pass",
        ] {
            assert!(example["why"].as_str().unwrap().contains(needed), "{example}");
        }
        // `first` (the first legal move) falls short in every pairing.
        let first = grade_of(&report, "first");
        assert_eq!(first["points"], 0.0, "{first}");
        let why = first["why"].as_str().unwrap();
        for (game, (_, _, count)) in games_of(&report, "first").iter().zip(PAIRINGS) {
            let black = game["discs"]["black"].as_u64().unwrap();
            assert!(black < count, "{game}");
            let white = game["discs"]["white"].as_u64().unwrap();
            assert!(why.contains(&format!("{black}-{white} (needs {count}): fail")), "{why}");
        }
        assert!(grading.stdout.contains("grades (uf): "), "{}", grading.stdout);
        assert!(grading.stdout.contains("  example: 6/6 (6 of 6 points): Beginner-Beginner"));
        assert!(grading.stdout.contains("`set depth N`"), "{}", grading.stdout);
        let page = fs::read_to_string(&html).unwrap();
        assert!(page.contains("6/6") && page.contains("0/6"));
        let xml = fs::read_to_string(&junit).unwrap();
        assert!(xml.contains("<testcase name=\"grade (uf)\" classname=\"first\""), "{xml}");
        sandboxed::nothing_stayed("the arena", &world, &traces, &grading);
    }
}

/// The JUnit report validates, and Gradescope's results.json of one Umea agent
/// carries the grade: Umea's protocol passes no level, so the example AI's program
/// at its one level (Advanced) passes five pairings and falls short in
/// Intermediate-Beginner (50 of the 56 the example's Intermediate gets).
#[test]
fn one_umea_agent_on_gradescope_passes_five() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["example"]);
    let results = dir.path().join("results.json");
    let junit = dir.path().join("out.xml");
    let json = dir.path().join("out.json");
    let out = Command::new(BIN)
        .args([
            "arena",
            class.to_str().unwrap(),
            "--format",
            "uf",
            "--policy",
            "uf",
        ])
        .args(["--seconds", "10", "--read-only", &bin_dir(), "-j", "2"])
        .args(["--gradescope", results.to_str().unwrap()])
        .args([
            "--junit",
            junit.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("levels: umea passes no level"), "{stdout}");
    validators::validate_gradescope(&results);
    validators::validate_junit(&junit);
    let report = read_json(&json);
    let grade = grade_of(&report, "example");
    assert_eq!(grade["mark"], "5/6", "{grade}");
    assert!(grade["why"]
        .as_str()
        .unwrap()
        .contains("Intermediate-Beginner 50-14 (needs 56): fail"));
    let gradescope = read_json(&results);
    assert_eq!(gradescope["score"], 5.0);
    assert_eq!(
        gradescope["tests"][0]["name"], "grade (uf): 5/6",
        "{gradescope}"
    );
}

/// What the six pairings decide themselves is refused (exit 2), as is `--policy uf`
/// on another format.
#[test]
fn the_pairings_options_are_refused_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &["first"]);
    let class = class.to_str().unwrap();
    for (extra, says) in [
        (
            vec!["--policy", "uf", "--opponent", "uf:beginner"],
            "--policy: uf grades a --format uf",
        ),
        (
            vec!["--format", "uf", "--opponent", "naive"],
            "--opponent: --format uf plays",
        ),
        (
            vec!["--format", "uf", "--resume"],
            "--resume: --format uf plays",
        ),
        (
            vec!["--format", "uf", "--shard", "1/2"],
            "--shard: --format uf plays",
        ),
        (
            vec!["--format", "uf", "--start", "midgame"],
            "--start: --format uf plays",
        ),
        (
            vec!["--format", "uf", "--protocol", "cs561-task4"],
            "--protocol: --format uf plays",
        ),
    ] {
        let out = Command::new(BIN)
            .args(["arena", class])
            .args(&extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
}

/// `package gradescope --arena '--format uf ...'` writes an autograder whose
/// `run_autograder` grades a submission by the six pairings; the pairings' budget and
/// options are checked when packaging.
#[test]
fn the_gradescope_bundle_plays_the_pairings() {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let zip = dir.path().join("autograder.zip");
    let package = |flags: &str| {
        Command::new(BIN)
            .args(["package", "gradescope", "--arena", flags, "--out"])
            .arg(&zip)
            .output()
            .unwrap()
    };
    for (flags, says) in [
        (
            "--format uf --seconds 5",
            "then 6 games x 32 answers x 5.5 s",
        ),
        (
            "--format uf --opponent naive",
            "--opponent: --format uf plays",
        ),
    ] {
        let out = package(flags);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags}: {stderr}");
        assert!(stderr.contains(says), "{flags}: {stderr}");
        assert!(!zip.exists());
    }
    let out = package("--format uf --policy uf --seconds 1 --review-depth 0");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = dir.path().join("autograder");
    zip::ZipArchive::new(fs::File::open(&zip).unwrap())
        .unwrap()
        .extract(root.join("source"))
        .unwrap();
    let submission = root.join("submission");
    fs::create_dir_all(&submission).unwrap();
    fs::copy(
        sandboxed::root().join("tests/arena/uf.py"),
        submission.join("uf.py"),
    )
    .unwrap();
    let run = submission.join("othello.sh");
    fs::write(
        &run,
        "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/uf.py\" first - \"$@\"\n",
    )
    .unwrap();
    fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", &root)
        .env("REVERSI_SANDBOX", "bubblewrap")
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let results = root.join("results/results.json");
    validators::validate_gradescope(&results);
    let json = read_json(&results);
    assert_eq!(json["tests"][0]["name"], "grade (uf): 0/6", "{json}");
    assert_eq!(json["score"], 0.0);
    let output = json["tests"][0]["output"].as_str().unwrap();
    assert!(
        output.contains("Beginner-Beginner 0-28 (needs 8): fail"),
        "{output}"
    );
}
