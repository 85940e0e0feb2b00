//! The references an agent plays against in the referee's own process (not
//! sandboxed, not timed): the Umea course's naive opponent, and our engine at a fixed
//! strength (`engine::fixed`, deterministic: the same moves on every machine and at
//! every load).

use std::io;
use std::time::Duration;

use super::game::{Answer, Player};
use crate::engine::fixed::{best_move, Strength};
use crate::engine::naive::{naive_move, NAIVE_DEPTH};
use crate::format::umea;
use crate::rules::Position;

/// A reference player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The Umea course's naive opponent (alpha-beta to depth 7 on the disc count).
    Naive,
    /// Our engine searching this many plies on every move, exact from twice as many
    /// empty cells (`engine::fixed`, as `reversi engine nboard` plays `set depth`).
    Depth(u32),
}

impl Reference {
    /// Its name in reports: `naive`, `engine:depth=N`.
    pub fn name(self) -> String {
        match self {
            Reference::Naive => "naive".into(),
            Reference::Depth(depth) => format!("engine:depth={depth}"),
        }
    }

    /// Reads `naive` or `engine:depth=N` (N from 1 to 30).
    pub fn parse(text: &str) -> Option<Reference> {
        if text == "naive" {
            return Some(Reference::Naive);
        }
        let depth: u32 = text.strip_prefix("engine:depth=")?.parse().ok()?;
        (1..=30).contains(&depth).then_some(Reference::Depth(depth))
    }

    /// The reference seated for one game.
    pub fn seat(self) -> Box<dyn Player> {
        match self {
            Reference::Naive => Box::new(Naive),
            Reference::Depth(depth) => Box::new(AtDepth(Strength::plies(depth))),
        }
    }
}

struct Naive;

impl Player for Naive {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let said = naive_move(position.board(), NAIVE_DEPTH);
        Ok(Answer {
            verdict: Ok(said),
            text: umea::answer(said),
            cpu: Duration::ZERO,
        })
    }
}

struct AtDepth(Strength);

impl Player for AtDepth {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let (said, _) = best_move(position.board(), self.0);
        Ok(Answer {
            verdict: Ok(said),
            text: umea::answer(said),
            cpu: Duration::ZERO,
        })
    }
}
