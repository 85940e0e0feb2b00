//! `reversi engine nboard` as a GUI or a referee runs it: a process spoken to on its
//! standard input, answering on its standard output line by line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use reversi::board::Squares;
use reversi::format::ggf;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["engine", "nboard"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "the engine stopped: {line:?}");
        line.trim_end().to_string()
    }

    /// Lines up to the `pong N` answering a `ping N` sent now.
    fn until_pong(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            if line == format!("pong {n}") {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Quits and returns what went to standard error.
    fn quit(mut self) -> String {
        self.send("quit");
        let output = self.child.wait_with_output().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stderr).unwrap()
    }
}

const NBOARD_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]\
    PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O-----------\
    ---------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// Black to move with no move (its one disc beside white's in the corner); white has c1.
const BLACK_PASSES: &str = "(;GM[Othello]PC[test]DT[]PB[b]PW[w]TY[8]RE[?]\
    BO[8 O*------ -------- -------- -------- -------- -------- -------- -------- *];)";

/// The legal moves at the end of `game`, GGF-named.
fn legal_moves(game: &str) -> Vec<String> {
    let position = ggf::read(game).unwrap().last();
    Squares(position.board().moves())
        .map(ggf::square_name)
        .collect()
}

/// An engine at `depth` on `game`, its name read.
fn engine_on(depth: u32, game: &str) -> Engine {
    let mut engine = Engine::start();
    engine.send("nboard 2");
    engine.send(&format!("set depth {depth}"));
    assert_eq!(engine.line(), format!("set myname reversi{depth}"));
    engine.send(&format!("set game {game}"));
    engine
}

/// The `=== MOVE/EVAL/SECONDS` answer's move.
fn answered_move(line: &str) -> String {
    let rest = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("{line}"));
    let parts: Vec<&str> = rest.split('/').collect();
    assert_eq!(parts.len(), 3, "{line}");
    parts[1].parse::<f64>().unwrap();
    parts[2].parse::<f64>().unwrap();
    parts[0].to_string()
}

#[test]
fn answers_each_ping_before_the_next_command_comes() {
    let mut engine = Engine::start();
    engine.send("nboard 2");
    engine.send("set depth 3");
    assert_eq!(engine.line(), "set myname reversi3");
    for n in 1..=3 {
        engine.send(&format!("ping {n}"));
        assert_eq!(engine.line(), format!("pong {n}"));
    }
    assert_eq!(engine.quit(), "");
}

#[test]
fn plays_a_legal_move_in_a_game_set_from_ggf_and_the_same_each_time() {
    let legal = legal_moves(NBOARD_GAME);
    let mut engine = engine_on(4, NBOARD_GAME);
    engine.send("set contempt 0");
    assert!(engine.until_pong(1).is_empty());
    engine.send("go");
    let first = answered_move(&engine.line());
    assert!(legal.contains(&first), "{first} not in {legal:?}");
    // `go` does not play the move: asked again, it answers the same.
    engine.send("go");
    assert_eq!(answered_move(&engine.line()), first);
    assert_eq!(engine.quit(), "");
}

#[test]
fn hints_are_legal_moves_best_first() {
    let legal = legal_moves(NBOARD_GAME);
    let mut engine = engine_on(2, NBOARD_GAME);
    engine.send("hint 3");
    let lines = engine.until_pong(1);
    assert_eq!(lines.first().map(String::as_str), Some("status thinking"));
    assert_eq!(lines.last().map(String::as_str), Some("status"));
    let searches = &lines[1..lines.len() - 1];
    assert_eq!(searches.len(), 3.min(legal.len()), "{lines:?}");
    let mut previous = f64::INFINITY;
    for line in searches {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            (words[0], words[3], words[4]),
            ("search", "0", "2"),
            "{line}"
        );
        assert!(legal.iter().any(|m| m == words[1]), "{line}");
        let eval: f64 = words[2].parse().unwrap();
        assert!(eval <= previous, "{lines:?}");
        previous = eval;
    }
    engine.quit();
}

#[test]
fn passes_when_it_has_no_move_and_follows_moves_sent() {
    let mut engine = engine_on(2, BLACK_PASSES);
    engine.send("go");
    assert_eq!(answered_move(&engine.line()), "PA");
    engine.send("hint 1");
    assert_eq!(engine.line(), "status thinking");
    assert!(engine.line().starts_with("search PA "));
    assert_eq!(engine.line(), "status");
    // An illegal move is refused on standard error; the pass and white's c1 are played:
    // black then answers from the new position (b1 is now white's, a1 white's: black
    // has no disc left, so it passes again).
    engine.send("move A1");
    engine.send("move PA");
    engine.send("move C1/0.5/1.25");
    engine.send("go");
    assert_eq!(answered_move(&engine.line()), "PA");
    let stderr = engine.quit();
    assert_eq!(stderr, "move A1: not a legal move here; ignored\n");
}

#[test]
fn a_game_it_cannot_read_leaves_the_position_and_says_why() {
    let mut engine = engine_on(1, "(;GM[Othello]TY[10];)");
    engine.send("go");
    // Still the start position: one of black's four openings.
    let start = ["D3", "C4", "F5", "E6"];
    assert!(start.contains(&answered_move(&engine.line()).as_str()));
    let stderr = engine.quit();
    assert!(stderr.starts_with("set game: GGF, byte"), "{stderr}");
}
