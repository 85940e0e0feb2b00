//! The references an agent plays against in the referee's own process (not
//! sandboxed, not timed): the Umea course's naive opponent, the UF example AI at its
//! levels (`course_search::uf`, the 8x8 standard rules), and our engine at a fixed
//! depth or node budget (`engine::fixed`, deterministic: the same moves on every
//! machine and at every load).

use std::io;
use std::time::Duration;

use super::game::{Answer, Player};
use super::shaped::{self, ShapedPlayer};
use crate::course_search::uf::{choose, Level};
use crate::engine::fixed::{best_move, within_nodes, Strength};
use crate::engine::naive::{naive_move, NAIVE_DEPTH};
use crate::engine::shaped::grid_at_strength;
use crate::eval::uf::UfExample;
use crate::format::tristate::Problem;
use crate::format::umea;
use crate::rules::{Position, Rules};

/// A reference player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The Umea course's naive opponent (alpha-beta to depth 7 on the disc count).
    Naive,
    /// Our engine searching this many plies on every move, exact from twice as many
    /// empty cells (`engine::fixed`, as `reversi engine nboard` plays `set depth`).
    Depth(u32),
    /// Our engine deepening within this many nodes on every move, exact once it
    /// reaches the end within them (`engine::fixed::within_nodes`).
    Nodes(u64),
    /// The UF CAP4053 example AI at one of its levels (minimax to depth 0, 1 or 3).
    Uf(Level),
}

/// The node budgets `engine:nodes=N` takes: from a depth of about 2 to a few minutes
/// a move.
pub const NODES: std::ops::RangeInclusive<u64> = 1_000..=1_000_000_000;

/// The UF levels' names after `uf:`, weakest first.
const UF_LEVELS: [(&str, Level); 3] = [
    ("beginner", Level::Beginner),
    ("intermediate", Level::Intermediate),
    ("advanced", Level::Advanced),
];

impl Reference {
    /// Its name in reports: `naive`, `engine:depth=N`, `engine:nodes=N`, `uf:LEVEL`.
    pub fn name(self) -> String {
        match self {
            Reference::Naive => "naive".into(),
            Reference::Depth(depth) => format!("engine:depth={depth}"),
            Reference::Nodes(nodes) => format!("engine:nodes={nodes}"),
            Reference::Uf(level) => {
                let (name, _) = UF_LEVELS
                    .iter()
                    .find(|(_, each)| *each == level)
                    .expect("every level has a name");
                format!("uf:{name}")
            }
        }
    }

    /// Reads `naive`, `engine:depth=N` (N from 1 to 30), `engine:nodes=N` (N from
    /// [`NODES`]' start to its end, digits only) or `uf:beginner`, `uf:intermediate`,
    /// `uf:advanced`.
    pub fn parse(text: &str) -> Option<Reference> {
        if text == "naive" {
            return Some(Reference::Naive);
        }
        if let Some(name) = text.strip_prefix("uf:") {
            return UF_LEVELS
                .iter()
                .find(|(each, _)| *each == name)
                .map(|&(_, level)| Reference::Uf(level));
        }
        if let Some(nodes) = text.strip_prefix("engine:nodes=") {
            let nodes: u64 = nodes
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| nodes.parse().ok())??;
            return NODES.contains(&nodes).then_some(Reference::Nodes(nodes));
        }
        let depth: u32 = text.strip_prefix("engine:depth=")?.parse().ok()?;
        (1..=30).contains(&depth).then_some(Reference::Depth(depth))
    }

    /// The reference seated for one game.
    pub fn seat(self) -> Box<dyn Player> {
        match self {
            Reference::Naive => Box::new(Naive),
            Reference::Depth(depth) => Box::new(AtDepth(Strength::plies(depth))),
            Reference::Nodes(nodes) => Box::new(AtNodes(nodes)),
            Reference::Uf(level) => Box::new(Uf(level)),
        }
    }

    /// The reference seated for one game on a board of any shape, if it plays one:
    /// `engine:depth=N` only ([`grid_at_strength`]: the same search, no clock); the
    /// others play the 8x8 board of their course (naive, UF) or a node budget of the
    /// 8x8 engine.
    pub fn seat_shaped(self) -> Option<Box<dyn ShapedPlayer>> {
        match self {
            Reference::Depth(depth) => Some(Box::new(AtDepth(Strength::plies(depth)))),
            Reference::Naive | Reference::Nodes(_) | Reference::Uf(_) => None,
        }
    }
}

impl ShapedPlayer for AtDepth {
    fn answer(&mut self, problem: &Problem, _number: usize) -> io::Result<Answer<(usize, usize)>> {
        let said = grid_at_strength(&problem.grid, problem.colour, self.0);
        Ok(Answer {
            verdict: Ok(said),
            text: shaped::move_text(said),
            cpu: Duration::ZERO,
        })
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

struct AtNodes(u64);

impl Player for AtNodes {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let said = within_nodes(position.board(), self.0).best;
        Ok(Answer {
            verdict: Ok(said),
            text: umea::answer(said),
            cpu: Duration::ZERO,
        })
    }
}

/// The UF example AI: the course's 8x8 standard rules (Black first from the standard
/// start; a side with no move passes), its evaluation, its depth for the level.
struct Uf(Level);

impl Player for Uf {
    fn answer(&mut self, position: Position, _number: usize) -> io::Result<Answer> {
        let said = choose(Rules::STANDARD, position, self.0.depth(), &UfExample)
            .map(|chosen| chosen.square);
        Ok(Answer {
            verdict: Ok(said),
            text: umea::answer(said),
            cpu: Duration::ZERO,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for text in [
            "naive",
            "engine:depth=3",
            "engine:nodes=1000",
            "engine:nodes=1000000000",
            "uf:beginner",
            "uf:intermediate",
            "uf:advanced",
        ] {
            assert_eq!(Reference::parse(text).unwrap().name(), text);
        }
        assert_eq!(Reference::parse("uf:expert"), None);
        assert_eq!(Reference::parse("uf:Beginner"), None);
        for bad in ["999", "1000000001", "+5000", "1e6", "", "5000 "] {
            assert_eq!(
                Reference::parse(&format!("engine:nodes={bad}")),
                None,
                "{bad}"
            );
        }
    }
}
