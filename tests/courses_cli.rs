//! The Umea, CS561 task 4 and Tri-state modes through the built binary: what reaches
//! stdout, exit codes and messages.

use std::fs;
use std::process::{Command, Output};

use reversi::board::{Board, Squares};
use reversi::format::umea::{parse_answer, parse_position, position_text, START};

fn reversi(args: &[&str], dir: Option<&std::path::Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reversi"));
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command.output().expect("run reversi")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A position where the side to move (white) has no move but black has: black on a1,
/// white on b1.
const WHITE_MUST_PASS: &str = "WXOEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE";

#[test]
fn umea_prints_exactly_one_legal_move_line() {
    let position = position_text(START);
    let output = reversi(&["umea", &position, "0.2"], None);
    assert!(output.status.success());
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1);
    assert!(text.ends_with('\n'));
    let square = parse_answer(&text).unwrap().expect("a move");
    assert!(START.board().moves() & square.bit() != 0);
}

#[test]
fn umea_passes_only_without_a_move() {
    let board = parse_position(WHITE_MUST_PASS).unwrap().board();
    assert_eq!(board.moves(), 0);
    assert_ne!(board.pass().moves(), 0);
    for extra in [&[][..], &["--naive"][..]] {
        let mut args = vec!["umea", WHITE_MUST_PASS, "1"];
        args.extend_from_slice(extra);
        let output = reversi(&args, None);
        assert_eq!(stdout(&output), "pass\n");
    }
}

#[test]
fn umea_compile_step_exits_at_once_with_nothing_on_stdout() {
    let output = reversi(&["umea", "anything", "x", "1"], None);
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
}

#[test]
fn umea_bad_arguments_exit_2_with_a_message_on_stderr_only() {
    for (args, message) in [
        (
            vec!["umea", "WEE", "1"],
            "the position (first argument): expected 65 characters",
        ),
        (
            vec!["umea", &position_text(START)[..], "-1"],
            "the time limit (second argument)",
        ),
        (
            vec!["umea", &position_text(START)[..], "1", "2"],
            "the third argument",
        ),
    ] {
        let output = reversi(&args, None);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(message), "{stderr}");
    }
}

#[test]
fn umea_on_two_threads_prints_one_legal_move_line() {
    let position = position_text(START);
    let output = reversi(&["umea", "--threads", "2", &position, "0.2"], None);
    assert!(output.status.success());
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1);
    let square = parse_answer(&text).unwrap().expect("a move");
    assert!(START.board().moves() & square.bit() != 0);
}

/// A position with 18 empty cells, black to move (value -28: a 1.2M-node solve).
const EIGHTEEN_EMPTIES: &str = "BOOOOOOOOOOOOXXOOOOOOXOOOOOOOOOOOOOOXXEXOEOOOOXXEEEOEEEEEEEEEEEEE";

#[test]
fn engine_solve_on_two_threads_finds_the_value_of_one() {
    let line = |threads: &str| {
        let output = reversi(
            &["engine", "solve", "--threads", threads, EIGHTEEN_EMPTIES],
            None,
        );
        assert!(output.status.success(), "{output:?}");
        let text = stdout(&output);
        let value = text.split_whitespace().nth(1).expect("value V").to_string();
        value
    };
    assert_eq!(line("2"), line("1"));
}

/// All-zero weights, stage by stage: every position evaluates as a draw.
fn zero_stages() -> Vec<Vec<i16>> {
    vec![vec![0i16; reversi::eval::pattern::layout().per_stage]; reversi::eval::pattern::STAGES]
}

#[test]
fn engine_solve_orders_by_a_weights_file_and_finds_the_same_value() {
    let board = parse_position(EIGHTEEN_EMPTIES).unwrap().board();
    let zero = zero_stages();
    let zero_weights = reversi::eval::pattern::Weights::from_stages(&zero);
    let expected = reversi::engine::Engine::new().solve_with(board, &zero_weights);
    let embedded = reversi::engine::Engine::new().solve(board);
    assert_eq!(expected.value, embedded.value);
    assert_ne!(expected.nodes, embedded.nodes);
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("zero.bin");
    fs::write(&weights, reversi::eval::pattern::Weights::to_bytes(&zero)).unwrap();
    let args = ["engine", "solve", "--weights", weights.to_str().unwrap()];
    let output = reversi(&[&args[..], &[EIGHTEEN_EMPTIES]].concat(), None);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).starts_with(&format!(
        "value {} best {} nodes {} in ",
        expected.value,
        reversi::format::umea::answer(expected.best),
        expected.nodes
    )));
    fs::write(&weights, b"not weights").unwrap();
    let refused = reversi(&[&args[..], &[EIGHTEEN_EMPTIES]].concat(), None);
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--weights"));
}

#[test]
fn engine_search_prints_the_librarys_fixed_depth_search_in_discs() {
    let board = parse_position(EIGHTEEN_EMPTIES).unwrap().board();
    let thought = reversi::engine::Engine::new().search_to_depth(board, 5);
    let expected = format!(
        "value {:.2} best {} nodes {}",
        reversi::engine::in_discs(thought.value),
        reversi::format::umea::answer(thought.best),
        thought.nodes
    );
    let embedded = reversi(
        &["engine", "search", "--depth", "5", EIGHTEEN_EMPTIES],
        None,
    );
    assert!(embedded.status.success(), "{embedded:?}");
    assert!(stdout(&embedded).starts_with(&format!("{expected} in ")));
    // `--full-width` is the library's search without ProbCut, a bigger tree here.
    let full = reversi::engine::Engine::new().full_width_search_to_depth_with(
        board,
        5,
        reversi::eval::pattern::embedded(),
    );
    assert!(full.nodes > thought.nodes, "{} nodes", full.nodes);
    let full_width = reversi(
        &[
            "engine",
            "search",
            "--depth",
            "5",
            "--full-width",
            EIGHTEEN_EMPTIES,
        ],
        None,
    );
    assert!(stdout(&full_width).starts_with(&format!(
        "value {:.2} best {} nodes {} in ",
        reversi::engine::in_discs(full.value),
        reversi::format::umea::answer(full.best),
        full.nodes
    )));
    // The same weights from a file search the same tree.
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("weights.bin");
    fs::write(
        &weights,
        reversi::eval::pattern::Weights::to_bytes(reversi::eval::pattern::embedded().stages()),
    )
    .unwrap();
    let args = ["engine", "search", "--depth", "5", "--weights"];
    let from_file = reversi(
        &[&args[..], &[weights.to_str().unwrap(), EIGHTEEN_EMPTIES]].concat(),
        None,
    );
    assert!(stdout(&from_file).starts_with(&format!("{expected} in ")));
    // All-zero weights value every position a draw: the file is the evaluation.
    let zero = zero_stages();
    fs::write(&weights, reversi::eval::pattern::Weights::to_bytes(&zero)).unwrap();
    let zeroed = reversi(
        &[&args[..], &[weights.to_str().unwrap(), EIGHTEEN_EMPTIES]].concat(),
        None,
    );
    assert!(stdout(&zeroed).starts_with("value 0.00 "), "{zeroed:?}");
    // No search of 0 plies (it would answer "pass" for a position with moves).
    let none = reversi(
        &["engine", "search", "--depth", "0", EIGHTEEN_EMPTIES],
        None,
    );
    assert_eq!(none.status.code(), Some(2));
    assert!(none.stdout.is_empty());
    // A damaged weights file is refused, naming the option.
    fs::write(&weights, b"not weights").unwrap();
    let refused = reversi(
        &[&args[..], &[weights.to_str().unwrap(), EIGHTEEN_EMPTIES]].concat(),
        None,
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--weights"));
}

#[test]
fn threads_must_be_at_least_one() {
    let position = position_text(START);
    for args in [
        vec!["umea", "--threads", "0", &position[..], "1"],
        vec!["engine", "solve", "--threads", "0", &position[..]],
        vec!["umea", "--naive", "--threads", "2", &position[..], "1"],
    ] {
        let output = reversi(&args, None);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn umea_naive_matches_the_library() {
    let position = position_text(START.after(Squares(START.board().moves()).next()));
    let output = reversi(&["umea", "--naive", &position, "1"], None);
    let expected =
        reversi::engine::naive::naive_move(parse_position(&position).unwrap().board(), 7);
    assert_eq!(
        stdout(&output).trim(),
        reversi::format::umea::answer(expected)
    );
}

fn board_text(board: &str) -> String {
    board.lines().collect::<Vec<_>>().join("\r\n")
}

const START_ROWS: &str =
    "********\n********\n********\n***OX***\n***XO***\n********\n********\n********";

fn parse_rows(text: &str) -> (u64, u64) {
    let (mut x, mut o) = (0u64, 0u64);
    for (row, line) in text.split("\r\n").enumerate() {
        for (col, c) in line.chars().enumerate() {
            let bit = 1u64 << (row * 8 + col);
            match c {
                'X' => x |= bit,
                'O' => o |= bit,
                _ => {}
            }
        }
    }
    (x, o)
}

#[test]
fn task_4_writes_the_move_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("4\r\nX\r\n2.5\r\n{}", board_text(START_ROWS));
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let output = reversi(&[], Some(dir.path()));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Two bytes, column then row, no line end: one of the player's legal moves.
    let text = fs::read(dir.path().join("output.txt")).unwrap();
    let (x, o) = parse_rows(board_text(START_ROWS).as_str());
    let root = Board { own: x, opp: o };
    let legal: Vec<String> = Squares(root.moves()).map(|s| s.to_string()).collect();
    assert!(
        legal.iter().any(|m| m.as_bytes() == text),
        "{text:?} is not one of {legal:?}"
    );
}

/// What task 4 prints for `player` on the board whose first row is `first_row` (the
/// others empty), with a final newline ended by `eol`.
fn task_4_answer(player: &str, first_row: &str, eol: &str) -> String {
    let rows = format!("{first_row}{}", "\n********".repeat(7));
    let input = format!("4\n{player}\n10\n{rows}\n");
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let output = reversi(
        &["--eol", eol, "--final-newline", "-o", "-"],
        Some(dir.path()),
    );
    assert!(output.status.success());
    stdout(&output)
}

#[test]
fn task_4_with_lf_and_a_final_newline_and_a_forced_pass() {
    // O has no move: the answer is `pass` (the referee never calls a player then).
    assert_eq!(task_4_answer("O", "XO******", "lf"), "pass\n");
}

#[test]
fn task_4_with_one_move_writes_it_with_the_asked_line_end() {
    // X's only move is h1 (it flips g1).
    assert_eq!(task_4_answer("X", "XXXXXXO*", "crlf"), "h1\r\n");
}

#[test]
fn task_4_refuses_a_bad_clock_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("input.txt"),
        format!("4\nX\nsoon\n{START_ROWS}"),
    )
    .unwrap();
    let output = reversi(&[], Some(dir.path()));
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        "reversi: input.txt: line 3: expected the CPU seconds left, a number >= 0; found \"soon\"\n"
    );
    assert!(!dir.path().join("output.txt").exists());
}

#[test]
fn tristate_answers_in_the_chosen_convention() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    fs::write(&file, "B 5 1\nBW---\n").unwrap();
    let path = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["tristate", path, "--seconds", "1"];
        args.extend_from_slice(extra);
        stdout(&reversi(&args, None))
    };
    assert_eq!(run(&[]), "(2,0)\n");
    assert_eq!(run(&["--coords", "rc", "--base", "1"]), "(1,3)\n");
    assert_eq!(run(&["--notation", "space"]), "2 0\n");
    fs::write(&file, "W 5 1\nBWE--\n").unwrap();
    assert_eq!(run(&[]), "skip\n");
}

#[test]
fn tristate_bad_files_exit_2_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    fs::write(&file, "B 3 2\n---\n-Q-\n").unwrap();
    let output = reversi(&["tristate", file.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("board.txt: line 3, column 2: expected a cell"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

/// This binary's `--naive` player as a match command.
fn naive_player() -> String {
    format!("'{}' umea --naive", env!("CARGO_BIN_EXE_reversi"))
}

/// One match game of `white` against `black` from the start position.
fn match_from_the_start(white: &str, black: &str) -> std::process::Output {
    reversi(
        &[
            "umea",
            "match",
            "--white",
            white,
            "--black",
            black,
            "--opening-plies",
            "0",
            "--read-only",
            env!("CARGO_BIN_EXE_reversi"),
        ],
        None,
    )
}

#[test]
fn match_of_naive_against_itself_replays_the_recorded_game() {
    let naive = naive_player();
    let output = match_from_the_start(&naive, &naive);
    assert!(output.status.success());
    // The recorded self-play game, replayed from its last position and answer.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/umea/naive_selfplay.tsv");
    let data = fs::read_to_string(path).unwrap();
    let (position, answer) = data.lines().last().unwrap().split_once('\t').unwrap();
    let last = parse_position(position)
        .unwrap()
        .after(parse_answer(answer).unwrap());
    let discs = format!("{}-{}", last.white.count_ones(), last.black.count_ones());
    let text = stdout(&output);
    let game = text.lines().next().unwrap();
    assert!(
        game.contains(&format!(": {discs} ")),
        "{game}\nexpected {discs}"
    );
}

#[test]
fn match_forfeits_a_pass_with_a_legal_move() {
    let output = match_from_the_start("echo pass #", &naive_player());
    let text = stdout(&output);
    assert!(
        text.contains(
            ": 2-2 White forfeits: pass with a legal move (it had 4 legal moves; answer \"pass\")"
        ),
        "{text}"
    );
    assert!(text.contains("1 game(s) ended by a fault"), "{text}");
}

/// The time limit counts from when the process was created, not from when the
/// program's own code began: a process that spent 1.2 s of a 1 s limit before it
/// became `reversi` (here in `sh`, which then runs it in its place) answers at once,
/// and says the 1.2 s were spent.
#[test]
fn umea_counts_the_time_before_the_program_ran_against_the_limit() {
    let position = position_text(START);
    let output = Command::new("sh")
        .args([
            "-c",
            "sleep 1.2; exec \"$0\" umea \"$1\" 1 0 --verbose",
            env!("CARGO_BIN_EXE_reversi"),
            &position,
        ])
        .output()
        .expect("run sh");
    assert!(output.status.success());
    let square = parse_answer(&stdout(&output)).unwrap().expect("a move");
    assert!(START.board().moves() & square.bit() != 0);
    let report = String::from_utf8(output.stderr).unwrap();
    let seconds: f64 = report
        .rsplit(" in ")
        .next()
        .and_then(|rest| rest.trim().strip_suffix(" s"))
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no time in {report:?}"));
    assert!(seconds >= 1.15, "{report:?}");
}
