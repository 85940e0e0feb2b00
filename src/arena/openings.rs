//! The positions games start from: by default a built-in set of balanced short
//! openings, computed (not listed): every position 4 plies from the course's start,
//! one of each class of the board's 8 symmetries, that our engine scores within
//! [`BALANCED_DISCS`] of even at depth [`SCORING_DEPTH`]; or a seeded set of balanced
//! mid-game positions ([`midgame`], CSU's "beginning in the middle of games"); or the
//! positions of a file.
//! A seed orders them; every pairing plays them in that order, each twice with colours
//! swapped.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::board::Squares;
use crate::engine::{in_discs, Engine};
use crate::format::umea::{parse_position, START};
use crate::rules::Position;
use crate::splitmix::SplitMix64;

/// Plies from the start of the built-in openings.
pub const PLIES: u32 = 4;

/// The depth our engine scores them at.
pub const SCORING_DEPTH: u32 = 6;

/// The largest score, in discs either way, of a balanced opening.
pub const BALANCED_DISCS: f64 = 1.5;

/// The built-in balanced openings, in the order of their Umea text.
pub fn balanced() -> &'static [Position] {
    static SET: OnceLock<Vec<Position>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut found = BTreeSet::new();
        let mut positions = vec![START];
        for _ in 0..PLIES {
            positions = positions
                .iter()
                .flat_map(|p| {
                    let moves = p.board().moves();
                    let next: Vec<Position> = if moves == 0 {
                        vec![p.after(None)]
                    } else {
                        Squares(moves).map(|s| p.play(s)).collect()
                    };
                    next
                })
                .collect();
        }
        // The heuristic search of `engine::fixed` (no solve this far from the end), with
        // a small table: the referee stays small.
        let mut engine = Engine::for_time(std::time::Duration::from_millis(100));
        let mut kept = Vec::new();
        for position in positions {
            if !found.insert(canonical(position)) {
                continue;
            }
            let thought = engine.search_to_depth(position.board(), SCORING_DEPTH);
            if in_discs(thought.value).abs() <= BALANCED_DISCS {
                kept.push(position);
            }
        }
        kept.sort_by_key(|p| crate::format::umea::position_text(*p));
        kept
    })
}

/// How many positions [`midgame`] gives.
pub const MIDGAME_COUNT: usize = 16;

/// The discs on the board of a [`midgame`] position, fewest and most.
pub const MIDGAME_DISCS: (u32, u32) = (20, 36);

/// The largest score, in discs either way, of a [`midgame`] position.
pub const MIDGAME_BALANCE: f64 = 4.0;

/// Random games (SplitMix64 from `seed`) tried at most for [`midgame`].
const MIDGAME_TRIES: usize = 20_000;

/// Balanced mid-game positions, seeded: positions of random games from the course's
/// start, each stopped at a number of discs drawn in [`MIDGAME_DISCS`] with the side to
/// move holding a move, one of each class of the board's symmetries, kept when our
/// engine scores it within [`MIDGAME_BALANCE`] of even at depth [`SCORING_DEPTH`];
/// [`MIDGAME_COUNT`] of them (fewer only if that many random games find too few).
/// The same seed gives the same positions on every machine.
pub fn midgame(seed: u64) -> Vec<Position> {
    let mut random = SplitMix64::new(seed);
    let mut engine = Engine::for_time(std::time::Duration::from_millis(100));
    let mut seen = BTreeSet::new();
    let mut kept = Vec::new();
    for _ in 0..MIDGAME_TRIES {
        if kept.len() == MIDGAME_COUNT {
            break;
        }
        let stop = random.range(MIDGAME_DISCS.0, MIDGAME_DISCS.1);
        let mut position = START;
        loop {
            let board = position.board();
            let moves = board.moves();
            if moves == 0 && board.pass().moves() == 0 {
                break;
            }
            if (position.white | position.black).count_ones() >= stop && moves != 0 {
                if seen.insert(canonical(position)) {
                    let thought = engine.search_to_depth(board, SCORING_DEPTH);
                    if in_discs(thought.value).abs() <= MIDGAME_BALANCE {
                        kept.push(position);
                    }
                }
                break;
            }
            position = if moves == 0 {
                position.after(None)
            } else {
                position.play(random.square_of(moves))
            };
        }
    }
    kept
}

/// `openings` in the order `seed` gives (a Fisher-Yates shuffle by SplitMix64).
pub fn shuffled(openings: &[Position], seed: u64) -> Vec<Position> {
    let mut out = openings.to_vec();
    let mut random = SplitMix64::new(seed);
    for i in (1..out.len()).rev() {
        let j = random.below(i as u64 + 1) as usize;
        out.swap(i, j);
    }
    out
}

/// Reads a file of positions, one Umea position a line (blank lines and `#` lines
/// skipped): the error names the line.
pub fn parse_file(text: &str) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = parse_position(line).map_err(|e| format!("line {}: {e}", index + 1))?;
        let board = position.board();
        if board.moves() == 0 && board.pass().moves() == 0 {
            return Err(format!(
                "line {}: the game is over in this position",
                index + 1
            ));
        }
        out.push(position);
    }
    if out.is_empty() {
        return Err("no position in it".into());
    }
    Ok(out)
}

/// The least of a position's 8 images under the board's symmetries (the side to move
/// kept), to find positions that are the same game.
fn canonical(position: Position) -> (u64, u64, bool) {
    (0..8)
        .map(|t| {
            (
                transform(position.white, t),
                transform(position.black, t),
                position.to_move == crate::rules::Color::White,
            )
        })
        .min()
        .expect("eight images")
}

/// `bits` under the symmetry `t` (0-7: transposed if bit 2, rows reversed if bit 1,
/// columns reversed if bit 0).
fn transform(bits: u64, t: u8) -> u64 {
    Squares(bits)
        .map(|s| {
            let (mut row, mut col) = (s.row(), s.col());
            if t & 4 != 0 {
                std::mem::swap(&mut row, &mut col);
            }
            if t & 2 != 0 {
                row = 7 - row;
            }
            if t & 1 != 0 {
                col = 7 - col;
            }
            1u64 << (row * 8 + col)
        })
        .fold(0, |acc, bit| acc | bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_balanced_openings_are_distinct_4_ply_positions() {
        let set = balanced();
        assert!(set.len() >= 8, "{} openings", set.len());
        let classes: BTreeSet<_> = set.iter().map(|p| canonical(*p)).collect();
        assert_eq!(classes.len(), set.len());
        for p in set {
            assert_eq!((p.white | p.black).count_ones(), 4 + PLIES);
        }
        assert_eq!(shuffled(set, 7), shuffled(set, 7));
        assert_ne!(shuffled(set, 7), shuffled(set, 8));
    }

    #[test]
    fn the_midgame_positions_are_distinct_balanced_and_seeded() {
        let set = midgame(1);
        assert_eq!(set.len(), MIDGAME_COUNT);
        let classes: BTreeSet<_> = set.iter().map(|p| canonical(*p)).collect();
        assert_eq!(classes.len(), set.len());
        let mut engine = Engine::for_time(std::time::Duration::from_millis(100));
        for p in &set {
            let discs = (p.white | p.black).count_ones();
            assert!(
                (MIDGAME_DISCS.0..=MIDGAME_DISCS.1).contains(&discs),
                "{discs}"
            );
            assert_ne!(p.board().moves(), 0);
            let value = in_discs(engine.search_to_depth(p.board(), SCORING_DEPTH).value);
            assert!(value.abs() <= MIDGAME_BALANCE + 2.0, "{value}");
        }
        assert_eq!(midgame(1), set);
        assert_ne!(midgame(2), set);
    }
}
