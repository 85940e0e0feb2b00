//! The command line as a user meets it: exit codes, messages (snapshots), files
//! left untouched on failure, and the stdout path.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const START: &str = "X\r\n3\r\n********\r\n********\r\n********\r\n***OX***\r\n***XO***\r\n********\r\n********\r\n********";

fn reversi(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Runs the solver in grader mode on `input` beside an existing `output.txt`, checks
/// it fails with exit 2 leaving that file and the folder as they were, and returns
/// the message.
fn refused(input: &[u8], args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), input).unwrap();
    fs::write(dir.path().join("output.txt"), b"previous output").unwrap();
    let out = reversi(dir.path(), args);
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty());
    assert_eq!(
        fs::read(dir.path().join("output.txt")).unwrap(),
        b"previous output"
    );
    assert_eq!(
        file_names(dir.path()),
        ["input.txt", "output.txt"],
        "no stray files"
    );
    String::from_utf8(out.stderr).unwrap()
}

fn start_with(replace: &str, by: &str) -> Vec<u8> {
    START.replacen(replace, by, 1).into_bytes()
}

#[test]
fn bad_inputs_are_refused_with_the_line_and_what_was_expected() {
    let row = "***OX***";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("only_blank_lines", b"\r\n  \r\n\r\n".to_vec()),
        ("player_lowercase", start_with("X\r\n3", "x\r\n3")),
        (
            "player_missing",
            b"\r\n"
                .to_vec()
                .into_iter()
                .chain(START.bytes().skip(3))
                .collect(),
        ),
        ("depth_negative", start_with("\r\n3\r\n", "\r\n-1\r\n")),
        ("depth_fraction", start_with("\r\n3\r\n", "\r\n2.5\r\n")),
        (
            "depth_too_large",
            start_with("\r\n3\r\n", "\r\n99999999999\r\n"),
        ),
        ("depth_missing", b"X\r\n".to_vec()),
        ("row_too_short", start_with(row, "***OX**")),
        ("row_too_long", start_with(row, "***OX****")),
        ("row_with_spaces", start_with(row, "* * O X *")),
        ("cell_not_allowed", start_with(row, "***OXo**")),
        (
            "seven_rows",
            START.rsplit_once("\r\n").unwrap().0.as_bytes().to_vec(),
        ),
        ("nine_rows", format!("{START}\r\n********").into_bytes()),
        ("task_five", format!("5\r\n{START}").into_bytes()),
        (
            "task_four_clock_not_seconds",
            [
                b"4\r\n".as_slice(),
                &start_with("\r\n3\r\n", "\r\nsoon\r\n"),
            ]
            .concat(),
        ),
        ("not_text", start_with(row, "***O\u{0}***")),
        ("invalid_utf8", [START.as_bytes(), b"\xff\xfe"].concat()),
        ("line_too_long", start_with(row, &"*".repeat(500))),
        ("file_too_large", vec![b'*'; 200_000]),
    ];
    for (name, input) in cases {
        let message = refused(&input, &[]);
        insta::assert_snapshot!(format!("bad_input_{name}"), message);
    }
}

#[test]
fn a_forced_dialect_that_does_not_fit_the_file_is_refused() {
    let f2014 = format!("3\r\n{START}");
    insta::assert_snapshot!(
        "bad_input_task_line_under_s2017",
        refused(f2014.as_bytes(), &["--dialect", "s2017"])
    );
    insta::assert_snapshot!(
        "bad_input_player_line_under_f2014",
        refused(START.as_bytes(), &["--dialect", "f2014"])
    );
}

#[test]
fn a_missing_input_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = reversi(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(file_names(dir.path()).is_empty(), "no output.txt created");
    insta::assert_snapshot!("missing_input", String::from_utf8(out.stderr).unwrap());
}

#[test]
fn bad_arguments_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = reversi(dir.path(), &["--eol", "cr"]);
    assert_eq!(out.status.code(), Some(2));
    let out = reversi(dir.path(), &["--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_output_that_cannot_be_written_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), START).unwrap();
    fs::create_dir(dir.path().join("output.txt")).unwrap();
    let out = reversi(dir.path(), &[]);
    assert_exit(&out, 1);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("reversi: cannot write output.txt: "),
        "{stderr}"
    );
    assert_eq!(
        file_names(dir.path()),
        ["input.txt", "output.txt"],
        "no stray files"
    );
}

#[test]
fn help_text() {
    let out = reversi(Path::new("."), &["--help"]);
    assert!(out.status.success());
    insta::assert_snapshot!("help", String::from_utf8(out.stdout).unwrap());
}

#[test]
fn version() {
    let out = reversi(Path::new("."), &["--version"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("reversi {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Large enough that the log goes out in several buffers and the board is written in
/// place at the end.
#[test]
fn stdout_and_file_give_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = START.replacen("\r\n3\r\n", "\r\n8\r\n", 1);
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let to_stdout = reversi(dir.path(), &["-o", "-"]);
    assert!(to_stdout.status.success());
    let to_file = reversi(dir.path(), &[]);
    assert!(to_file.status.success());
    let file = fs::read(dir.path().join("output.txt")).unwrap();
    assert!(
        file.len() > 2 * 256 * 1024,
        "{} bytes: more than two 256 KiB buffers",
        file.len()
    );
    assert!(file == to_stdout.stdout, "stdout and file differ");
    assert!(file.starts_with(b"********\r\n********\r\n***X****\r\n"));
}

#[test]
fn stdin_and_line_end_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::with_stdin(
        &["-i", "-", "-o", "-", "--eol", "lf", "--final-newline"],
        START,
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\r'));
    assert!(text.ends_with("root,0,-3,-3,Infinity\n") || text.ends_with('\n'));
    let lf_lines = text.lines().count();
    fs::write(dir.path().join("input.txt"), START).unwrap();
    assert!(reversi(dir.path(), &[]).status.success());
    let crlf = fs::read_to_string(dir.path().join("output.txt")).unwrap();
    assert_eq!(crlf.replace("\r\n", "\n") + "\n", text);
    assert_eq!(lf_lines, crlf.split("\r\n").count());
}

#[test]
fn an_existing_output_is_replaced_with_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), START).unwrap();
    assert!(reversi(dir.path(), &[]).status.success());
    let mode = fs::metadata(dir.path().join("output.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o777,
        0o644,
        "a new output is readable by the grader"
    );
    fs::set_permissions(
        dir.path().join("output.txt"),
        fs::Permissions::from_mode(0o664),
    )
    .unwrap();
    assert!(reversi(dir.path(), &[]).status.success());
    let mode = fs::metadata(dir.path().join("output.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o664);
}

/// A FIFO (like `/dev/null` or a terminal) is written to, never renamed over.
#[test]
fn a_pipe_as_output_is_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), START).unwrap();
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let out = reversi(dir.path(), &["-o", "pipe"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let through_pipe = reader.join().unwrap();
    assert!(
        fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "still a FIFO"
    );
    assert!(reversi(dir.path(), &[]).status.success());
    assert!(through_pipe == fs::read(dir.path().join("output.txt")).unwrap());
}

/// A link to the output is followed: its target gets the new output, the link stays.
#[test]
fn a_linked_output_keeps_its_link() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), START).unwrap();
    fs::write(dir.path().join("real.txt"), b"old").unwrap();
    std::os::unix::fs::symlink("real.txt", dir.path().join("output.txt")).unwrap();
    assert!(reversi(dir.path(), &[]).status.success());
    assert!(fs::symlink_metadata(dir.path().join("output.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read(dir.path().join("real.txt"))
        .unwrap()
        .starts_with(b"********\r\n"));
}

/// A reader that stops early (`| head`) ends the program quietly and successfully.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let perf = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/perf/mid-d8.in");
    for args in [
        vec!["-i", perf.to_str().unwrap(), "-o", "-"],
        vec!["uf", "game"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The pipe's reader is gone now.
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{args:?}");
    }
}

#[test]
fn engine_train_learns_from_a_teacher_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let teacher = dir.path().join("teacher.bin");
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/patterns.bin"),
        &teacher,
    )
    .unwrap();
    let small = [
        "engine",
        "train",
        "--teacher",
        "teacher.bin",
        "--out",
        "next.bin",
        "--games",
        "3",
        "--play-depth",
        "1",
        "--solve-empties",
        "8",
        "--epochs",
        "2",
        "--threads",
        "2",
    ];
    let out = reversi(dir.path(), &small);
    assert_exit(&out, 0);
    let made = fs::read(dir.path().join("next.bin")).unwrap();
    assert_eq!(made.len(), fs::metadata(&teacher).unwrap().len() as usize);
    assert_ne!(
        made,
        fs::read(&teacher).unwrap(),
        "two epochs left the weights as they were"
    );

    // A damaged teacher is refused, naming the file and what is wrong.
    let mut damaged = fs::read(&teacher).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    fs::write(dir.path().join("damaged.bin"), damaged).unwrap();
    let mut args = small;
    args[3] = "damaged.bin";
    args[5] = "refused.bin";
    assert_refused_as_damaged(&reversi(dir.path(), &args), "damaged.bin");
    assert!(!dir.path().join("refused.bin").exists());

    args[3] = "missing.bin";
    let out = reversi(dir.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.bin"));

    // A share of the outcome outside 0..1, and the first generation's options with
    // a teacher, are refused too.
    let mut args = small.to_vec();
    args.extend(["--outcome-share", "1.5"]);
    let out = reversi(dir.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--outcome-share"));
    let mut args = small.to_vec();
    args.extend(["--label-depth", "3"]);
    assert_eq!(reversi(dir.path(), &args).status.code(), Some(2));

    // Labels from two depths: with a teacher only.
    let mut args = small.to_vec();
    args.push("--odd-even");
    args[5] = "odd_even.bin";
    args[11] = "2"; // --play-depth
    let out = reversi(dir.path(), &args);
    assert_exit(&out, 0);
    assert!(dir.path().join("odd_even.bin").exists());
    let out = reversi(
        dir.path(),
        &[
            "engine",
            "train",
            "--out",
            "no.bin",
            "--odd-even",
            "--games",
            "1",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--teacher"));
    assert!(!dir.path().join("no.bin").exists());

    // Deeper labels for a range of empty cells: made with a teacher; a range out of
    // order or past 60, or a range without a depth, refused before any game.
    let mut args = small.to_vec();
    args[5] = "deep.bin";
    args.extend(["--deep-label-depth", "3", "--deep-label-empties", "40-55"]);
    let out = reversi(dir.path(), &args);
    assert_exit(&out, 0);
    assert!(dir.path().join("deep.bin").exists());
    // Kept stages: the teacher's, byte for byte; at most the 12 there are.
    let mut args = small.to_vec();
    args[5] = "kept.bin";
    args.extend(["--keep-teacher-stages", "3"]);
    let out = reversi(dir.path(), &args);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("(the teacher's, kept)"));
    let stages = |file: &Path| {
        reversi::eval::pattern::Weights::parse(&fs::read(file).unwrap())
            .unwrap()
            .stages()
            .to_vec()
    };
    let (kept, taught) = (stages(&dir.path().join("kept.bin")), stages(&teacher));
    assert_eq!(kept[..3], taught[..3]);
    assert_ne!(kept[3], taught[3]);
    let mut args = small.to_vec();
    args[5] = "no.bin";
    args.extend(["--keep-teacher-stages", "13"]);
    let out = reversi(dir.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--keep-teacher-stages"));
    assert!(!dir.path().join("no.bin").exists());
    for (range, with_depth) in [
        ("45-26", true),
        ("30-61", true),
        ("26", true),
        ("26-45", false),
    ] {
        let mut args = small.to_vec();
        args[5] = "no.bin";
        if with_depth {
            args.extend(["--deep-label-depth", "10"]);
        }
        args.extend(["--deep-label-empties", range]);
        let out = reversi(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{range}");
        let said = String::from_utf8_lossy(&out.stderr);
        let named = if with_depth {
            "--deep-label-empties"
        } else {
            "--deep-label-depth"
        };
        assert!(said.contains(named), "{range}: {said}");
        assert!(!dir.path().join("no.bin").exists());
    }
}

#[test]
fn engine_train_saves_its_samples_and_fits_those_of_earlier_runs() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/patterns.bin"),
        dir.path().join("teacher.bin"),
    )
    .unwrap();
    let run = |games: &str, seed: &str, out: &str, more: &[&str]| {
        let mut args = vec![
            "engine",
            "train",
            "--teacher",
            "teacher.bin",
            "--games",
            games,
            "--seed",
            seed,
            "--play-depth",
            "1",
            "--solve-empties",
            "8",
            "--epochs",
            "2",
        ];
        if !out.is_empty() {
            args.extend(["--out", out]);
        }
        args.extend(more);
        reversi(dir.path(), &args)
    };
    let read = |name: &str| fs::read(dir.path().join(name)).unwrap();

    // Two runs save their positions; the first's own fit is what a fit of its
    // saved positions alone gives, byte for byte.
    assert_exit(&run("2", "1", "a.bin", &["--save-samples", "a.rvs"]), 0);
    assert_exit(&run("3", "2", "b.bin", &["--save-samples", "b.rvs"]), 0);
    assert!(read("a.rvs").starts_with(reversi::engine::train::samples::MAGIC));
    assert_exit(&run("0", "9", "a_again.bin", &["--samples", "a.rvs"]), 0);
    assert_eq!(read("a_again.bin"), read("a.bin"));
    // Without --out the run saves its positions and fits nothing; without both it
    // is refused.
    assert_exit(&run("2", "1", "", &["--save-samples", "only.rvs"]), 0);
    assert_eq!(read("only.rvs"), read("a.rvs"));
    let out = run("2", "1", "", &[]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out"));

    // Both files and a run's own games together: the fit sees all of them.
    let out = run(
        "1",
        "3",
        "all.bin",
        &["--samples", "a.rvs", "--samples", "b.rvs"],
    );
    assert_exit(&out, 0);
    let said = String::from_utf8_lossy(&out.stderr);
    let loaded = |name: &str| {
        reversi::engine::train::samples::parse(&read(name))
            .unwrap()
            .len()
    };
    let expected = format!(", {} from samples files", loaded("a.rvs") + loaded("b.rvs"));
    assert!(said.contains(&expected), "{said}");
    assert_ne!(read("all.bin"), read("a.bin"));

    // A damaged, foreign or missing samples file is refused before any game, by
    // name, and no weights are written.
    let mut damaged = read("a.rvs");
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    fs::write(dir.path().join("damaged.rvs"), damaged).unwrap();
    assert_refused_as_damaged(
        &run("1", "1", "no.bin", &["--samples", "damaged.rvs"]),
        "damaged.rvs",
    );
    for name in ["teacher.bin", "missing.rvs"] {
        let out = run("1", "1", "no.bin", &["--samples", name]);
        assert_exit(&out, 2);
        assert!(String::from_utf8_lossy(&out.stderr).contains(name));
    }
    assert!(!dir.path().join("no.bin").exists());
}

#[test]
fn engine_tempo_measures_the_odd_even_effect_and_refuses_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let learned =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/patterns.bin")).unwrap();
    fs::write(dir.path().join("learned.bin"), &learned).unwrap();
    // The same weights with 5 discs against the side to move in every stage: an
    // even-depth search loses 5, an odd-depth one gains 5.
    let mut stages = reversi::eval::pattern::Weights::parse(&learned)
        .unwrap()
        .stages()
        .to_vec();
    for stage in &mut stages {
        let constant = stage.len() - reversi::eval::pattern::EXTRAS;
        stage[constant] -= 500;
    }
    let biased = reversi::eval::pattern::Weights::to_bytes(&stages);
    fs::write(dir.path().join("biased.bin"), &biased).unwrap();
    let table = |file: &str| {
        let out = reversi(
            dir.path(),
            &["engine", "tempo", file, "--games", "3", "--depth", "2"],
        );
        assert_exit(&out, 0);
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 1 + 12, "{text}");
        text.lines()
            .skip(1)
            .map(|line| {
                // The last two columns: positions and alternation.
                let words: Vec<&str> = line.split_whitespace().rev().take(2).collect();
                (
                    words[1].parse::<usize>().unwrap(),
                    words[0].parse::<f64>().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let (plain, shifted) = (table("learned.bin"), table("biased.bin"));
    let mut measured = 0;
    for (s, (&(positions, before), &(again, after))) in plain.iter().zip(&shifted).enumerate() {
        assert_eq!(positions, again, "stage {s}: the same positions");
        if positions > 0 {
            // Passes inside a search swap the side to move at a few leaves; near the
            // end many lines finish the game, whose exact scores the constant leaves.
            let shift = after - before;
            if s >= 3 {
                assert!(
                    (shift - 10.0).abs() < 1.0,
                    "stage {s}: {before} then {after}"
                );
            } else {
                assert!(
                    shift > 2.0 && shift < 10.5,
                    "stage {s}: {before} then {after}"
                );
            }
            measured += 1;
        }
    }
    assert!(measured >= 8, "{plain:?}");

    // A damaged file is refused, naming it and what is wrong.
    let mut damaged = biased;
    damaged[100] ^= 1;
    fs::write(dir.path().join("damaged.bin"), damaged).unwrap();
    let out = reversi(dir.path(), &["engine", "tempo", "damaged.bin"]);
    assert_refused_as_damaged(&out, "damaged.bin");
}

/// `out` ended with exit status `code` (its standard error shown if not).
fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `out` is the refusal of the weights file `name` as damaged: exit 2, the file and
/// the failed checksum named.
fn assert_refused_as_damaged(out: &Output, name: &str) {
    assert_exit(out, 2);
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains(name) && message.contains("checksum"),
        "{message}"
    );
}
