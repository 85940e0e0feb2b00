//! The arena's reports for the student (docs/arena.md): each game's review, the
//! grades of `--policy`, JUnit, Gradescope, the HTML page in Chromium, the gauntlet's
//! Gradescope bundle. Agents: tests/arena.rs's (`first`, `last`) and one answering
//! markup (`tests/arena_reports/hostile.py`); games from late mid-game positions so
//! that they are short and their reviews exact.

#[path = "common/arena_class.rs"]
mod arena_class;
#[allow(dead_code)]
#[path = "tree_browser/browser.rs"]
mod chromium;
#[path = "common/sandboxed.rs"]
mod sandboxed;
#[path = "common/validators.rs"]
mod validators;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use arena_class::{arena, late_positions, openings_in, read_json, without_times};
use reversi::board::{Board, Square, Squares};
use reversi::format::umea::parse_position;
use sandboxed::BIN;
use serde_json::Value;

/// The agent of `mode` and its arguments before the position: tests/arena.rs's
/// (`first`, `last`), or the one answering markup (`hostile`).
fn agent_of(mode: &str) -> (&'static str, &str) {
    match mode {
        "hostile" => ("tests/arena_reports/hostile.py", ""),
        _ => ("tests/arena/agent.py", mode),
    }
}

/// A class under `dir`: a folder per (name, mode), its `othello.sh` running our agent.
fn class(dir: &Path, agents: &[(&str, &str)]) -> PathBuf {
    let class = dir.join("class");
    for (name, mode) in agents {
        let folder = class.join(name);
        fs::create_dir_all(&folder).unwrap();
        let (agent, mode) = agent_of(mode);
        fs::copy(sandboxed::root().join(agent), folder.join("agent.py")).unwrap();
        let script = folder.join("othello.sh");
        fs::write(
            &script,
            format!("#!/bin/sh\nexec python3 ./agent.py {mode} \"$@\"\n"),
        )
        .unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    }
    class
}

/// `count` positions of seeded random games (`seed`) with `empties` empty cells or
/// fewer, the side to move with a move, as an openings file under `dir`.
fn openings(dir: &Path, count: usize, empties: u32, seed: u64) -> PathBuf {
    let name = format!("openings-{empties}-{seed}.txt");
    openings_in(dir, &name, &late_positions(seed, count, empties))
}

/// The final disc margin for the side to move under perfect play (few empty cells).
fn solve(board: Board) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            return board.own.count_ones() as i32 - board.opp.count_ones() as i32;
        }
        return -solve(passed);
    }
    Squares(moves).map(|s| -solve(board.play(s))).max().unwrap()
}

fn square(text: &str) -> Square {
    let b = text.as_bytes();
    Square::new(b[1] - b'1', b[0] - b'a')
}

/// The usual run: the class against the naive opponent from late positions.
fn run(dir: &Path, class: &Path, empties: u32, extra: &[&str]) -> (Value, String) {
    let openings = openings(dir, 2, empties, 7);
    let json = dir.join("out.json");
    let mut args = vec![
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--games",
        "2",
        "--seconds",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = arena(&args);
    assert_eq!(code, Some(0), "{stderr}");
    (read_json(&json), stdout)
}

#[test]
fn every_game_is_reviewed_for_its_students_exactly_near_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first"), ("bob", "hostile")]);
    let (report, stdout) = run(dir.path(), &class, 8, &["--review-depth", "2", "-j", "2"]);
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let mut named = 0;
    for game in games {
        let review = game["review"].as_object().unwrap();
        assert!(!review.contains_key("naive"), "references are not reviewed");
        for (player, r) in review {
            let color = r["color"].as_str().unwrap();
            assert_eq!(game[color], player.as_str());
            for worst in r["worst"].as_array().unwrap() {
                // Eight empty cells: every value exact, checked by our own minimax.
                assert_eq!(worst["exact"], true);
                let number = worst["move"].as_u64().unwrap() as usize;
                assert_eq!(game["moves"][number - 1], worst["played"]);
                let position = parse_position(worst["position"].as_str().unwrap()).unwrap();
                let board = position.board();
                let value = |s: Square| -solve(board.play(s));
                let best = Squares(board.moves()).map(value).max().unwrap();
                let played = value(square(worst["played"].as_str().unwrap()));
                assert_eq!(value(square(worst["best"].as_str().unwrap())), best);
                assert_eq!(worst["loss"].as_f64().unwrap(), f64::from(best - played));
                assert!(best > played);
                named += 1;
            }
        }
    }
    assert!(
        named > 0,
        "the first-move agent never lost a disc: {report}"
    );
    // bob's first answer forfeits: its game's review has no move, its board is drawn.
    assert!(
        stdout.contains("reviews: our engine at depth 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bob forfeits: unreadable answer"),
        "{stdout}"
    );
    assert!(stdout.contains("   a b c d e f g h"), "{stdout}");
    assert!(
        stdout.contains("bob: 0 moves reviewed, 0 discs lost"),
        "{stdout}"
    );
    for key in [
        "white", "black", "start", "moves", "winner", "discs", "forfeit",
    ] {
        assert!(games[0].get(key).is_some(), "{key}");
    }
}

#[test]
fn reviews_can_be_turned_off_and_do_not_depend_on_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first"), ("carol", "last")]);
    let (off, stdout) = run(dir.path(), &class, 10, &["--review-depth", "0", "-j", "2"]);
    assert!(off["games"][0].get("review").is_none());
    assert!(!stdout.contains("reviews:"));
    let (one, _) = run(dir.path(), &class, 10, &["-j", "1"]);
    let (two, _) = run(dir.path(), &class, 10, &["-j", "2"]);
    assert_eq!(
        without_times(&one.to_string())["games"],
        without_times(&two.to_string())["games"]
    );
    assert!(one["games"][0]["review"].is_object());
}

/// The points (1, 1/2, 0) of `player`'s games against `other` in the JSON report.
fn scores(report: &Value, player: &str, other: &str) -> Vec<f64> {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| {
            let color = if g["white"] == player && g["black"] == other {
                "white"
            } else if g["black"] == player && g["white"] == other {
                "black"
            } else {
                return None;
            };
            Some(match g["winner"].as_str().unwrap() {
                "draw" => 0.5,
                w if w == color => 1.0,
                _ => 0.0,
            })
        })
        .collect()
}

fn grade_of<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["grading"]["grades"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == name)
        .unwrap()
}

#[test]
fn umea_passes_those_that_beat_naive() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(
        dir.path(),
        &[("alice", "first"), ("bob", "hostile"), ("carol", "last")],
    );
    let (report, stdout) = run(
        dir.path(),
        &class,
        10,
        &["--policy", "umea", "--review-depth", "0"],
    );
    assert_eq!(report["grading"]["policy"], "umea");
    assert_eq!(report["grading"]["reference"], "naive");
    for name in ["alice", "bob", "carol"] {
        let s = scores(&report, name, "naive");
        let won = s.iter().filter(|&&x| x == 1.0).count();
        let lost = s.iter().filter(|&&x| x == 0.0).count();
        let grade = grade_of(&report, name);
        let pass = won > lost;
        assert_eq!(grade["mark"], if pass { "pass" } else { "fail" }, "{grade}");
        assert_eq!(grade["points"], if pass { 1.0 } else { 0.0 });
        assert_eq!(grade["max_points"], 1.0);
        assert!(
            stdout.contains(&format!("  {name}: {} (", grade["mark"].as_str().unwrap())),
            "{stdout}"
        );
    }
    assert_eq!(grade_of(&report, "bob")["mark"], "fail");
    assert!(
        stdout.contains("grades (umea): pass when it won more games than it lost against naive")
    );
}

#[test]
fn csu_gives_c_for_legal_answers_and_b_or_a_by_the_interval() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(
        dir.path(),
        &[("alice", "first"), ("bob", "hostile"), ("carol", "last")],
    );
    let openings = openings(dir.path(), 3, 10, 11);
    let json = dir.path().join("out.json");
    let (code, stdout, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "engine:depth=1",
        "--games",
        "6",
        "--openings",
        openings.to_str().unwrap(),
        "--policy",
        "csu",
        "--review-depth",
        "0",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report = read_json(&json);
    assert_eq!(report["grading"]["reference"], "engine:depth=1");
    // The C is the built-in legality suite's, run before the games.
    assert_eq!(grade_of(&report, "bob")["mark"], "none");
    let why = grade_of(&report, "bob")["why"].as_str().unwrap();
    assert!(
        why.starts_with("legality suite: 0/24 answered legally (the first wrong: unreadable"),
        "{why}"
    );
    assert_eq!(report["legality"].as_array().unwrap().len(), 3);
    assert!(
        stdout.contains("legality suite (csu's C): 24 built-in mid-game positions"),
        "{stdout}"
    );
    for name in ["alice", "carol"] {
        assert!(
            stdout.contains(&format!("{name}: 24/24 positions answered legally")),
            "{stdout}"
        );
        let mut s = scores(&report, name, "engine:depth=1");
        assert_eq!(s.len(), 6);
        s.push(0.5);
        let n = s.len() as f64;
        let mean = s.iter().sum::<f64>() / n;
        let se = (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n / n).sqrt();
        let (low, high) = (mean - 1.96 * se, mean + 1.96 * se);
        let expected = if low > 0.5 {
            ("A", 3.0)
        } else if high >= 0.5 {
            ("B", 2.0)
        } else {
            ("C", 1.0)
        };
        let grade = grade_of(&report, name);
        assert_eq!(grade["mark"], expected.0, "{name}: {grade}");
        assert_eq!(grade["points"], expected.1);
        assert_eq!(grade["max_points"], 3.0);
    }
    assert!(
        stdout.contains("grades (csu): C when every answer of the legality suite is right"),
        "{stdout}"
    );
}

#[test]
fn knockout_counts_the_rounds_won() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(
        dir.path(),
        &[
            ("alice", "first"),
            ("bob", "hostile"),
            ("carol", "last"),
            ("dave", "first"),
        ],
    );
    let (report, stdout) = run(
        dir.path(),
        &class,
        8,
        &[
            "--format",
            "knockout",
            "--policy",
            "knockout",
            "--review-depth",
            "0",
        ],
    );
    let rounds = report["rounds"].as_array().unwrap();
    // Four students and naive: three rounds, a bye in the first two.
    assert_eq!(rounds.len(), 3);
    for name in ["alice", "bob", "carol", "dave"] {
        let won = rounds
            .iter()
            .filter(|r| r.as_array().unwrap().iter().any(|p| p["advances"] == name))
            .count();
        let grade = grade_of(&report, name);
        assert_eq!(grade["points"], won as f64, "{name}");
        assert_eq!(grade["max_points"], 3.0);
        let mark = if won == 3 {
            "champion".to_string()
        } else {
            format!("round {}", won + 1)
        };
        assert_eq!(grade["mark"], mark.as_str());
    }
    assert_eq!(grade_of(&report, "bob")["points"], 0.0);
    assert!(stdout.contains("grades (knockout)"));
}

#[test]
fn a_policy_that_cannot_apply_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first")]);
    let (code, _, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--policy",
        "knockout",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("knockout grades a --format knockout"),
        "{stderr}"
    );
    let (code, _, stderr) = arena(&[
        class.to_str().unwrap(),
        "--opponent",
        "naive",
        "--policy",
        "csu",
        "--grade-against",
        "nobody",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no player named \"nobody\""), "{stderr}");
}

#[test]
fn junit_has_a_testcase_per_game_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first"), ("bob", "hostile")]);
    let junit = dir.path().join("arena.xml");
    let (report, _) = run(
        dir.path(),
        &class,
        8,
        &["--policy", "umea", "--junit", junit.to_str().unwrap()],
    );
    validators::validate_junit(&junit);
    let xml = fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
    // Two games each, and the grade.
    assert_eq!(xml.matches("<testcase ").count(), 6, "{xml}");
    assert!(xml.contains("<testcase name=\"grade (umea)\" classname=\"bob\""));
    // bob's forfeits are errors, its answer escaped, its board drawn.
    assert_eq!(
        xml.matches("<error message=\"forfeit: unreadable answer\"")
            .count(),
        2
    );
    assert!(
        xml.contains("&lt;script&gt;document.title=&apos;pwned&apos;&lt;/script&gt;&amp;amp;"),
        "{xml}"
    );
    assert!(!xml.contains("<script>"));
    assert!(xml.contains("   a b c d e f g h"));
    let alice_lost = scores(&report, "alice", "naive")
        .iter()
        .filter(|&&x| x == 0.0)
        .count();
    let suite = xml.split("<testsuite name=\"alice\"").nth(1).unwrap();
    let suite = suite.split("</testsuite>").next().unwrap();
    assert_eq!(
        suite.matches("<failure message=\"lost\"").count(),
        alice_lost,
        "{suite}"
    );
}

#[test]
fn gradescope_results_carry_the_grade_and_a_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path(), &[("alice", "first")]);
    let results = dir.path().join("results.json");
    let (report, stdout) = run(
        dir.path(),
        &class,
        8,
        &[
            "--opponent",
            "engine:depth=1",
            "--policy",
            "umea",
            "--gradescope",
            results.to_str().unwrap(),
        ],
    );
    validators::validate_gradescope(&results);
    let json = read_json(&results);
    let grade = grade_of(&report, "alice");
    assert_eq!(json["score"], grade["points"]);
    let tests = json["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3, "{json}");
    assert!(tests[0]["name"]
        .as_str()
        .unwrap()
        .starts_with("grade (umea): "));
    for (test, opponent) in tests[1..].iter().zip(["naive", "engine:depth=1"]) {
        assert_eq!(test["name"], format!("against {opponent}"));
        assert_eq!(test["max_score"], 2);
        let won: f64 = scores(&report, "alice", opponent).iter().sum();
        assert_eq!(test["score"].as_f64().unwrap(), won);
        assert_eq!(test["output"].as_str().unwrap().matches("game ").count(), 2);
    }
    let board: Vec<&str> = json["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(board, ["Elo", "Score %", "Forfeits"]);
    let alice = &report["players"].as_array().unwrap()[0];
    assert_eq!(
        json["leaderboard"][1]["value"].as_f64().unwrap(),
        (alice["score"].as_f64().unwrap() * 1000.0).round() / 10.0
    );
    assert_eq!(json["output"].as_str().unwrap(), stdout);
    // One submission only.
    let two = self::class(dir.path(), &[("alice", "first"), ("bob", "first")]);
    let (code, _, stderr) = arena(&[
        two.to_str().unwrap(),
        "--opponent",
        "naive",
        "--gradescope",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("one submission's"), "{stderr}");
}

/// The board the page shows: 64 cells, `W`, `B` or empty.
async fn page_board(client: &fantoccini::Client) -> Vec<String> {
    let value = client
        .execute(
            "return Array.from(document.querySelectorAll('#board td')).map(c => c.textContent);",
            Vec::new(),
        )
        .await
        .unwrap();
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn expected_board(position: reversi::rules::Position) -> Vec<String> {
    (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if position.white & bit != 0 {
                "W".to_string()
            } else if position.black & bit != 0 {
                "B".to_string()
            } else {
                String::new()
            }
        })
        .collect()
}

async fn click(client: &fantoccini::Client, css: &str) {
    client
        .find(fantoccini::Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[test]
fn the_page_replays_every_game_and_runs_nothing_of_the_agents() {
    let dir = tempfile::tempdir().unwrap();
    let hostile_name = "<img src=x onerror=\"document.title='pwned'\">";
    let class = class(dir.path(), &[("alice", "first"), (hostile_name, "hostile")]);
    let page = dir.path().join("arena.html");
    let (report, _) = run(
        dir.path(),
        &class,
        8,
        &[
            "--policy",
            "umea",
            "--review-depth",
            "2",
            "--html",
            page.to_str().unwrap(),
        ],
    );
    let html = fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<img"), "the name is escaped");
    assert!(!html.contains("<script>document"), "the answer is escaped");
    assert!(html.contains("&lt;img src=x onerror=&quot;document.title=&apos;pwned&apos;&quot;&gt;"));
    let games = report["games"].as_array().unwrap().clone();
    let url = format!("file://{}", page.display());
    chromium::in_chromium(move |client| async move {
        client.goto(&url).await.unwrap();
        assert_eq!(client.title().await.unwrap(), "arena: umea gauntlet");
        let images = client
            .execute(
                "return document.querySelectorAll('img').length;",
                Vec::new(),
            )
            .await
            .unwrap();
        assert_eq!(images, 0);
        let standings = client
            .find(fantoccini::Locator::Css("#standings"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(standings.contains(hostile_name), "{standings}");
        // Every game, stepped through to its end: the board after each move.
        for (k, game) in games.iter().enumerate() {
            click(&client, &format!("#game-{}", k + 1)).await;
            let mut position = parse_position(game["start"].as_str().unwrap()).unwrap();
            assert_eq!(page_board(&client).await, expected_board(position));
            for m in game["moves"].as_array().unwrap() {
                let text = m.as_str().unwrap();
                position = position.after((text != "pass").then(|| square(text)));
                click(&client, "#next").await;
                assert_eq!(
                    page_board(&client).await,
                    expected_board(position),
                    "game {k} {text}"
                );
            }
            click(&client, "#next").await;
            assert_eq!(
                page_board(&client).await,
                expected_board(position),
                "stays at the end"
            );
            click(&client, "#first").await;
            let start = parse_position(game["start"].as_str().unwrap()).unwrap();
            assert_eq!(page_board(&client).await, expected_board(start));
            let forfeit = client
                .find(fantoccini::Locator::Css("#forfeit"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            if game["forfeit"].is_null() {
                assert_eq!(forfeit, "");
            } else {
                assert!(
                    forfeit.contains("answer: <script>document.title='pwned'</script>&amp;"),
                    "{forfeit}"
                );
                assert!(forfeit.contains("unreadable answer"), "{forfeit}");
            }
        }
        let scripts = client
            .execute(
                "return document.querySelectorAll('script').length;",
                Vec::new(),
            )
            .await
            .unwrap();
        assert_eq!(scripts, 2);
        assert_eq!(client.title().await.unwrap(), "arena: umea gauntlet");
    });
}

/// Packages a gauntlet bundle under `flags`; the exit code and stderr.
fn package(out: &Path, flags: &str) -> (Option<i32>, String) {
    let output = Command::new(BIN)
        .args(["package", "gradescope", "--arena", flags, "--out"])
        .arg(out)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Unpacks `zip` as Gradescope does under `dir/autograder`, puts the files of
/// `submission` (name, text, executable) in its submission folder, runs
/// `run_autograder` under `sandbox` and returns the root.
fn run_bundle(dir: &Path, zip: &Path, submission: &[(&str, &str, bool)], sandbox: &str) -> PathBuf {
    let root = dir.join("autograder");
    let mut archive = zip::ZipArchive::new(fs::File::open(zip).unwrap()).unwrap();
    archive.extract(root.join("source")).unwrap();
    let folder = root.join("submission");
    fs::create_dir_all(&folder).unwrap();
    for (name, text, executable) in submission {
        let path = folder.join(name);
        fs::write(&path, text).unwrap();
        let mode = if *executable { 0o755 } else { 0o644 };
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
    }
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", &root)
        .env("REVERSI_SANDBOX", sandbox)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    root
}

fn agent_files(mode: &str) -> Vec<(&'static str, String, bool)> {
    let (agent, mode) = agent_of(mode);
    vec![
        (
            "agent.py",
            fs::read_to_string(sandboxed::root().join(agent)).unwrap(),
            false,
        ),
        (
            "othello.sh",
            format!("#!/bin/sh\nexec python3 \"$(dirname \"$0\")/agent.py\" {mode} \"$@\"\n"),
            true,
        ),
    ]
}

fn borrowed<'a>(files: &'a [(&'static str, String, bool)]) -> Vec<(&'static str, &'a str, bool)> {
    files.iter().map(|(n, t, x)| (*n, t.as_str(), *x)).collect()
}

#[test]
fn the_gauntlet_bundle_grades_a_submission_as_gradescope_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let openings = openings(dir.path(), 1, 8, 3);
    let zip = dir.path().join("autograder.zip");
    let flags = format!(
        "--opponent naive --opponent engine:depth=1 --games 2 --seconds 1 --policy umea \
         --review-depth 2 --openings {}",
        openings.display()
    );
    let (code, stderr) = package(&zip, &flags);
    assert_eq!(code, Some(0), "{stderr}");
    // Honest.
    let honest = dir.path().join("honest");
    let root = run_bundle(&honest, &zip, &borrowed(&agent_files("first")), "auto");
    let results = root.join("results/results.json");
    validators::validate_gradescope(&results);
    let json = read_json(&results);
    let tests = json["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3, "{json}");
    assert!(tests[0]["name"]
        .as_str()
        .unwrap()
        .starts_with("grade (umea): "));
    assert_eq!(json["score"], tests[0]["score"]);
    assert_eq!(json["leaderboard"].as_array().unwrap().len(), 3);
    assert!(
        json["output"].as_str().unwrap().contains("1 positions of"),
        "{json}"
    );
    // Failing: no othello.sh: the referee refuses, the student is told, score 0.
    let failing = dir.path().join("failing");
    let root = run_bundle(&failing, &zip, &[("main.py", "print(1)\n", false)], "auto");
    let results = root.join("results/results.json");
    validators::validate_gradescope(&results);
    let json = read_json(&results);
    assert_eq!(json["score"], 0);
    assert!(
        json["output"].as_str().unwrap().contains("othello.sh"),
        "{json}"
    );
    // Forfeiting: every game lost by its answers, scored 0, answers escaped.
    let forfeiting = dir.path().join("forfeiting");
    let root = run_bundle(
        &forfeiting,
        &zip,
        &borrowed(&agent_files("hostile")),
        "auto",
    );
    let results = root.join("results/results.json");
    validators::validate_gradescope(&results);
    let json = read_json(&results);
    assert_eq!(json["score"], 0.0);
    assert!(json["tests"][1]["output"]
        .as_str()
        .unwrap()
        .contains("unreadable answer"));
}

#[test]
fn a_hostile_submission_changes_nothing_of_the_bundle_under_either_sandbox() {
    for sandbox in ["bubblewrap", "separate-user"] {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
        let openings = openings(dir.path(), 1, 6, 3);
        let zip = dir.path().join("autograder.zip");
        let flags = format!(
            "--opponent naive --games 2 --seconds 1 --policy umea --openings {}",
            openings.display()
        );
        assert_eq!(package(&zip, &flags).0, Some(0));
        let root = dir.path().join("autograder");
        let mut files = agent_files("first");
        // Before each answer: try to overwrite the results, the referee's binary and
        // openings, and to read the openings (answering `read-it` if it could); then
        // answer well.
        files[1].1 = format!(
            "#!/bin/sh\nR={root}\necho '{{\"score\": 100}}' > $R/results/results.json 2>/dev/null\n\
             echo x > $R/source/openings.txt 2>/dev/null\necho x >> $R/source/reversi 2>/dev/null\n\
             cat $R/source/openings.txt > /dev/null 2>&1 && {{ echo read-it; exit 0; }}\n\
             exec python3 \"$(dirname \"$0\")/agent.py\" first \"$@\"\n",
            root = root.display()
        );
        let source_before: Vec<Vec<u8>> = ["openings.txt", "reversi"]
            .iter()
            .map(|f| {
                let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut archive.by_name(f).unwrap(), &mut bytes).unwrap();
                bytes
            })
            .collect();
        run_bundle(dir.path(), &zip, &borrowed(&files), sandbox);
        let results = root.join("results/results.json");
        validators::validate_gradescope(&results);
        let json = read_json(&results);
        assert_ne!(json["score"], 100, "{sandbox}");
        assert!(
            json["tests"].as_array().unwrap().len() == 2,
            "{sandbox}: {json}"
        );
        for (f, before) in ["openings.txt", "reversi"].iter().zip(&source_before) {
            assert_eq!(
                &fs::read(root.join("source").join(f)).unwrap(),
                before,
                "{sandbox}: {f}"
            );
        }
        // Had it read the referee's openings, its answer `read-it` would forfeit.
        assert_eq!(json["leaderboard"][2]["name"], "Forfeits");
        assert_eq!(json["leaderboard"][2]["value"], 0, "{sandbox}: {json}");
    }
}

#[test]
fn a_gauntlet_bundle_is_refused_when_it_cannot_work() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    for (flags, says) in [
        (
            "--opponent naive --games 100 --seconds 1",
            "more than the budget of 540 s",
        ),
        (
            "--opponent cmd:./strong --games 2",
            "the bundle holds no command",
        ),
        (
            "--opponent naive --json x.json",
            "--json: the bundle sets it itself",
        ),
        (
            "--opponent naive --format round-robin",
            "a submission plays a gauntlet",
        ),
        ("--games 2", "at least one --opponent"),
        ("--opponent naive --bogus", "--bogus"),
        // Without csu's suite the games fit (60 + 2 x 32 x 6.5 = 476 s); with it not.
        (
            "--opponent naive --games 2 --seconds 6 --policy csu",
            "24 answers of the legality suite",
        ),
        (
            "--opponent naive --policy csu --positions boards",
            "--positions: the bundle holds no suite's files",
        ),
    ] {
        let (code, stderr) = package(&zip, flags);
        assert_eq!(code, Some(2), "{flags}: {stderr}");
        assert!(stderr.contains(says), "{flags}: {stderr}");
        assert!(!zip.exists());
    }
    // A folder of Tri-state board files: games of other shapes are not bundled.
    let boards = dir.path().join("boards");
    fs::create_dir(&boards).unwrap();
    let flags = format!(
        "--protocol tristate --opponent engine:depth=1 --openings {}",
        boards.display()
    );
    let (code, stderr) = package(&zip, &flags);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("a bundle plays 8x8 openings"), "{stderr}");
    assert!(!zip.exists());
}
