//! The CSCI-561 game-tree search: minimax or alpha-beta (AIMA 3rd ed. Fig 5.7) over
//! positional move order, reporting every printed node to a [`Trace`] sink.
//!
//! The search holds nothing proportional to the tree: each node is reported the
//! moment it is printed, so a sink can stream the traverse log straight to a file.
//!
//! The related courses' searches, on the shared [`crate::rules`] and evaluations, live
//! in [`york`] (`mmeval` and its alpha-beta variant) and [`uf`] (the example AI).

pub mod uf;
pub mod york;

use crate::board::{bit_instructions, Board, Geometry, Square, Squares};
use crate::eval::Evaluation;

/// The value printed as `Infinity` (and its negation as `-Infinity`). Far above any
/// evaluation: the CS561 weights sum to less than 1,000 in absolute value.
pub const INFINITY: i32 = 1 << 24;

/// What a node of the traverse log is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeName {
    /// The position given on the input.
    Root,
    /// The child of a side that had no legal move.
    Pass,
    /// The child made by placing a disc on this square.
    Cell(Square),
}

/// Receives one call per line of the traverse log, in order.
pub trait Trace {
    /// A node is printed with its current value and the window it holds. Minimax
    /// searches report the full window throughout.
    fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32);

    /// Whether the sink has given up (its output failed): the search then returns at
    /// once, its outcome meaningless. Asked once per node before its children.
    #[inline(always)]
    fn stopped(&self) -> bool {
        false
    }
}

/// A sink that drops every line: a search without a log costs nothing for it.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn node(&mut self, _: NodeName, _: u32, _: i32, _: i32, _: i32) {}
}

/// When a node below the cut-off depth is nevertheless a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafRule {
    /// Spring 2017 (revised samples): only a pass that follows a pass ends the game.
    /// Full boards and wiped-out colours lead to `pass`, `pass` like any blocked side.
    PassAfterPass,
    /// Spring 2017 first samples and Fall 2014: the game also ends on a full board,
    /// when one colour has no discs, or once the path from the root holds two passes,
    /// consecutive or not.
    GameOverOrSecondPass,
}

impl LeafRule {
    /// Whether a node is a leaf under the rule: at the cut-off depth `cutoff` or
    /// deeper, or the game over on its `board` (either side's view) with
    /// `consecutive` passes right before it and `passes` on its whole path. The one
    /// statement of the rule: the search and the judge of a student's tree
    /// ([`crate::explain::audit`]) both ask it.
    #[inline]
    pub fn is_leaf(
        self,
        cutoff: u32,
        depth: u32,
        board: Board,
        consecutive: u32,
        passes: u32,
    ) -> bool {
        if depth >= cutoff {
            return true;
        }
        match self {
            LeafRule::PassAfterPass => consecutive >= 2,
            LeafRule::GameOverOrSecondPass => {
                passes >= 2
                    || board.own == 0
                    || board.opp == 0
                    || board.empty(Geometry::STANDARD) == 0
            }
        }
    }

    /// The other release's rule.
    pub fn other(self) -> LeafRule {
        match self {
            LeafRule::PassAfterPass => LeafRule::GameOverOrSecondPass,
            LeafRule::GameOverOrSecondPass => LeafRule::PassAfterPass,
        }
    }
}

/// How deep and how to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// The cut-off depth D: nodes at this depth are leaves.
    pub depth: u32,
    /// The dialect's end-of-game rule.
    pub leaf_rule: LeafRule,
    /// Alpha-beta pruning (true) or plain minimax (false).
    pub pruning: bool,
}

/// The result of a search from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The root's value.
    pub value: i32,
    /// The root's first child with the strictly best value; `None` when the root is a
    /// leaf or its player must pass.
    pub best: Option<Square>,
}

/// Passes on the path from the root to a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PathPasses {
    /// Passes that immediately precede the node.
    consecutive: u8,
    /// All passes on the path.
    total: u8,
}

impl PathPasses {
    fn after(self, name: NodeName) -> PathPasses {
        match name {
            NodeName::Pass => PathPasses {
                consecutive: self.consecutive + 1,
                total: self.total.saturating_add(1),
            },
            _ => PathPasses {
                consecutive: 0,
                total: self.total,
            },
        }
    }
}

/// Searches from `board` (the root player, MAX, to move) and reports every printed
/// node to `trace`. Values are `evaluation` scores from the root player's view.
pub fn search<E: Evaluation, T: Trace>(
    board: Board,
    params: SearchParams,
    evaluation: &E,
    trace: &mut T,
) -> Outcome {
    let mut searcher = Searcher {
        params,
        evaluation,
        trace,
        best: None,
    };
    let value = searcher.visit_root(board, true);
    Outcome {
        value,
        best: searcher.best,
    }
}

/// Whose turn it is in the search, as a type: MAX ([`Max`]) or MIN ([`Min`]).
trait Side {
    /// Whether this side maximises.
    const MAX: bool;
    /// The other side.
    type Other: Side;
}

/// The root player.
struct Max;

/// The root player's opponent.
struct Min;

impl Side for Max {
    const MAX: bool = true;
    type Other = Min;
}

impl Side for Min {
    const MAX: bool = false;
    type Other = Max;
}

/// The node visit, written once and compiled twice (see [`bit_instructions`]): as
/// `visit` for any x86-64 (or other) processor, and as `visit_bit_instructions` with
/// the bit-manipulation instructions of newer x86-64 processors enabled.
macro_rules! visit_function {
    ($visit:ident $(, #[$attribute:meta])*) => {
    /// Searches the node `board` reached as `name`; `score` is its evaluation, kept
    /// up to date move by move.
    /// The side to move is `S` (MAX or MIN), fixed at compile time so that each
    /// comparison below is one instruction.
    $(#[$attribute])*
    fn $visit<S: Side>(
        &mut self,
        board: Board,
        name: NodeName,
        depth: u32,
        passes: PathPasses,
        score: i32,
        (mut alpha, mut beta): (i32, i32),
    ) -> i32 {
        let max = S::MAX;
        if self.is_leaf(board, depth, passes) {
            self.trace.node(name, depth, score, alpha, beta);
            return score;
        }
        if self.trace.stopped() {
            return score;
        }
        let mut value = if max { -INFINITY } else { INFINITY };
        self.trace.node(name, depth, value, alpha, beta);

        let moves = board.moves();
        if depth + 1 >= self.params.depth && moves != 0 {
            // Every child is a leaf at the cut-off depth: printed here, saving a call
            // each, and weighed without a flip mask or a board of its own.
            for square in Squares(moves) {
                let gain = self.evaluation.leaf_gain(board, square);
                let child_value = if max { score + gain } else { score - gain };
                let child_name = NodeName::Cell(square);
                self.trace.node(child_name, depth + 1, child_value, alpha, beta);
                let window = (&mut alpha, &mut beta);
                if self.settle::<S>((name, depth), child_name, child_value, &mut value, window) {
                    return value;
                }
            }
            return value;
        }
        let pass = (moves == 0).then(|| (NodeName::Pass, board.pass(), score));
        let placements = Squares(moves).map(|square| {
            let flips = board.flips(square);
            let gain = self.evaluation.placement_gain(square, flips);
            let child = board.play_flipping(square, flips);
            let child_score = if max { score + gain } else { score - gain };
            (NodeName::Cell(square), child, child_score)
        });
        for (child_name, child, child_score) in pass.into_iter().chain(placements) {
            // A pass at the cut-off depth is a leaf whatever the rule.
            let child_value = if depth + 1 >= self.params.depth {
                self.trace
                    .node(child_name, depth + 1, child_score, alpha, beta);
                child_score
            } else {
                self.$visit::<S::Other>(
                    child,
                    child_name,
                    depth + 1,
                    passes.after(child_name),
                    child_score,
                    (alpha, beta),
                )
            };
            let window = (&mut alpha, &mut beta);
            if self.settle::<S>((name, depth), child_name, child_value, &mut value, window) {
                return value;
            }
        }
        value
    }
    };
}

struct Searcher<'a, E, T> {
    params: SearchParams,
    evaluation: &'a E,
    trace: &'a mut T,
    best: Option<Square>,
}

impl<E: Evaluation, T: Trace> Searcher<'_, E, T> {
    #[inline]
    fn is_leaf(&self, board: Board, depth: u32, passes: PathPasses) -> bool {
        self.params.leaf_rule.is_leaf(
            self.params.depth,
            depth,
            board,
            passes.consecutive.into(),
            passes.total.into(),
        )
    }

    /// Takes the value of a child of the node `(name, depth)` (side `S` to move) into
    /// the node's `value`, its window `(alpha, beta)` and the best root move, then
    /// prints the node's line. Returns whether the child cut the node off. Shared by
    /// the loop over leaves and the loop over other children.
    #[inline(always)]
    fn settle<S: Side>(
        &mut self,
        (name, depth): (NodeName, u32),
        child_name: NodeName,
        child_value: i32,
        value: &mut i32,
        (alpha, beta): (&mut i32, &mut i32),
    ) -> bool {
        let improves = if S::MAX {
            child_value > *value
        } else {
            child_value < *value
        };
        if improves {
            *value = child_value;
            if let (0, NodeName::Cell(square)) = (depth, child_name) {
                self.best = Some(square);
            }
        }
        if self.params.pruning {
            let cut = if S::MAX {
                *value >= *beta
            } else {
                *value <= *alpha
            };
            if cut {
                self.trace.node(name, depth, *value, *alpha, *beta);
                return true;
            }
            if S::MAX {
                *alpha = (*alpha).max(*value);
            } else {
                *beta = (*beta).min(*value);
            }
        }
        self.trace.node(name, depth, *value, *alpha, *beta);
        false
    }

    visit_function!(visit);

    #[cfg(target_arch = "x86_64")]
    visit_function!(visit_bit_instructions, #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]);

    /// Searches from the root `board` with the build of `visit` that uses the bit
    /// instructions if `bits` and the processor has them, else the plain one.
    fn visit_root(&mut self, board: Board, bits: bool) -> i32 {
        let (name, depth, passes) = (NodeName::Root, 0, PathPasses::default());
        let score = self.evaluation.score(board.own, board.opp);
        let window = (-INFINITY, INFINITY);
        #[cfg(target_arch = "x86_64")]
        if bits && bit_instructions::available() {
            // SAFETY: the processor has the instructions `visit_bit_instructions` is
            // compiled for (checked just above).
            return unsafe {
                self.visit_bit_instructions::<Max>(board, name, depth, passes, score, window)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bits;
        self.visit::<Max>(board, name, depth, passes, score, window)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Cs561;

    /// Every line of a trace.
    #[derive(Default)]
    struct Lines(Vec<(NodeName, u32, i32, i32, i32)>);

    impl Trace for Lines {
        fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32) {
            self.0.push((name, depth, value, alpha, beta));
        }
    }

    /// Searches with the plain or the bit-instruction build of `visit`.
    fn run(board: Board, params: SearchParams, bits: bool) -> (i32, Option<Square>, Lines) {
        let mut lines = Lines::default();
        let mut searcher = Searcher {
            params,
            evaluation: &Cs561,
            trace: &mut lines,
            best: None,
        };
        let value = searcher.visit_root(board, bits);
        let best = searcher.best;
        (value, best, lines)
    }

    /// Both builds of `visit` print the same log and choose the same move, over
    /// positions along a game, both end rules, with and without pruning.
    #[test]
    fn both_builds_of_visit_agree() {
        if !bit_instructions::available() {
            eprintln!("this processor lacks the bit instructions: one build only");
            return;
        }
        let mut board = Geometry::STANDARD.start();
        let mut positions = 0;
        while board.moves() != 0 || board.pass().moves() != 0 {
            for leaf_rule in [LeafRule::PassAfterPass, LeafRule::GameOverOrSecondPass] {
                for pruning in [true, false] {
                    let params = SearchParams {
                        depth: 3,
                        leaf_rule,
                        pruning,
                    };
                    let (plain, with_bits) = (run(board, params, false), run(board, params, true));
                    assert_eq!((plain.0, plain.1), (with_bits.0, with_bits.1));
                    assert_eq!(plain.2 .0, with_bits.2 .0);
                    assert!(!plain.2 .0.is_empty());
                }
            }
            positions += 1;
            // The last move of the side to move, or a pass: a game that ends.
            board = match Squares(board.moves()).last() {
                Some(square) => board.play(square),
                None => board.pass(),
            };
        }
        assert!(positions > 30);
    }
}
