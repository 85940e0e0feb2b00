//! The Umea course's naive opponent: every answer of its recorded self-play game.

use std::path::PathBuf;

use reversi::engine::naive::{naive_move, NAIVE_DEPTH};
use reversi::format::umea::{answer, parse_position};

fn selfplay() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testcases/umea/naive_selfplay.tsv");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn naive_reproduces_all_62_recorded_answers() {
    let data = selfplay();
    let mut checked = 0;
    for (number, line) in data.lines().enumerate() {
        let (text, expected) = line.split_once('\t').expect("position<TAB>answer");
        let position = parse_position(text).unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        let got = answer(naive_move(position.board(), NAIVE_DEPTH));
        assert_eq!(got, expected, "line {}: {text}", number + 1);
        checked += 1;
    }
    assert_eq!(checked, 62);
}
