//! Our own positions, beyond the official cases, as `insta` snapshots.
//!
//! UNVERIFIED: nobody outside this project checked these outputs. They pin our
//! reading of SPEC.md so that a change to the log is seen, not the course's truth.
//! (Snapshots compare text with line ends normalised; the byte form is proven by the
//! golden cases.)

use reversi::format::cs561::{self, Dialect};
use reversi::format::Style;

const START: &str =
    "********\n********\n********\n***OX***\n***XO***\n********\n********\n********";

/// Solves `input` (LF lines) in `dialect` (None: chosen by the file) and returns the
/// output text.
fn solve(input: &str, dialect: Option<Dialect>) -> String {
    let problem = cs561::parse(input.as_bytes(), dialect).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    cs561::write_output(&problem, Style::default(), &mut out).unwrap();
    String::from_utf8(out.into_inner()).unwrap()
}

/// Snapshots `input` under s2017 and s2017-jan.
fn both_end_rules(name: &str, input: &str) {
    insta::assert_snapshot!(format!("unverified_{name}_s2017"), solve(input, None));
    insta::assert_snapshot!(
        format!("unverified_{name}_s2017_jan"),
        solve(input, Some(Dialect::S2017Jan))
    );
}

#[test]
fn unverified_o_to_move() {
    insta::assert_snapshot!(solve(&format!("O\n3\n{START}"), None));
}

#[test]
fn unverified_depth_zero() {
    insta::assert_snapshot!(solve(&format!("X\n0\n{START}"), None));
}

#[test]
fn unverified_tie_at_the_root_keeps_the_first_move() {
    // The four opening moves are symmetric: all score the same, d3 comes first.
    let out = solve(&format!("X\n1\n{START}"), None);
    assert!(out.starts_with("********\r\n********\r\n***X****\r\n***XX***"));
    insta::assert_snapshot!(out);
}

#[test]
fn unverified_full_board() {
    let full = "XXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXOOOO\nOOOOOOOO\nOOOOOOOO\nOOOOOOOO\nOOOOOOOO";
    both_end_rules("full_board", &format!("X\n3\n{full}"));
}

#[test]
fn unverified_one_colour_wiped_out() {
    let no_o = "********\n********\n**XXX***\n***X****\n********\n********\n********\n********";
    both_end_rules("one_colour_wiped_out", &format!("O\n4\n{no_o}"));
}

#[test]
fn unverified_both_blocked_at_the_root() {
    let blocked = "OOOOOOOO\nOOOOOOOO\nOOOOOOOO\nOOOOOOO*\nOOOOOO**\nOOOOOO*X\nOOOOOOO*\nOOOOOOOO";
    both_end_rules("both_blocked_at_the_root", &format!("X\n4\n{blocked}"));
}

#[test]
fn unverified_deep_pass_chain() {
    // White's two discs sit where black can take them one at a time, and each side is
    // blocked in turn: passes that are not consecutive, deep in the tree.
    let board = "********\n********\n********\n********\n********\n********\n*O***O**\nXXXXXX**";
    both_end_rules("deep_pass_chain", &format!("X\n6\n{board}"));
}

#[test]
fn unverified_depth_larger_than_the_game() {
    let late = "XXXXXXXX\nXOOOOOOX\nXOXXXXOX\nXOXOOXOX\nXOXOOXOX\nXOXXXXOX\nXOOOOOO*\nXXXXXX**";
    both_end_rules("depth_larger_than_the_game", &format!("O\n40\n{late}"));
}

#[test]
fn unverified_f2014_tasks_with_o_to_move() {
    let board = "********\n********\n**XO****\n***XO***\n***OXX**\n********\n********\n********";
    insta::assert_snapshot!(
        "unverified_f2014_greedy_o",
        solve(&format!("1\nO\n7\n{board}"), None)
    );
    insta::assert_snapshot!(
        "unverified_f2014_minimax_o",
        solve(&format!("2\nO\n2\n{board}"), None)
    );
    insta::assert_snapshot!(
        "unverified_f2014_alpha_beta_o",
        solve(&format!("3\nO\n3\n{board}"), None)
    );
}
