//! The student's own tree judged by the rules: the log's lines are read back as a
//! tree, the student's moves are replayed on the student's own boards, and every line
//! is judged by the rules *from the student's own state* (the alpha and beta their
//! parent's last line holds, the values their own children printed). The first line
//! that breaks a rule is where the program goes wrong, however many other bugs it has
//! and whether or not the catalogue has this one.
//!
//! Then the upstream causes are looked for locally: each reading of
//! [`Reading::ALL`] changes one rule (a move flips in one direction only, E for the
//! other side, a stale pass flag, ...) and the tree is judged again under it; a
//! reading that makes the broken line come true is a cause the file shows. A cause
//! is named only when one reading (or the rule itself) accounts for the line;
//! otherwise every reading that fits is shown, with how far each goes.

mod judge;
mod words;

use judge::Judge;
pub use judge::{Break, Rule};
pub use words::Finding;

use crate::explain::log::LOG_START;
use crate::explain::mistake::Mistake;
use crate::format::cs561::{Problem, Task};

/// One way of changing the rules, as a program with a known mistake does. Each is one
/// mistake of the [`Mistake`] model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The rules as they are.
    Rules,
    /// A move turns the discs of the last direction that brackets any
    /// ([`Mistake::OneDirectionFlips`]).
    OneDirectionFlips,
    /// A move turns only the discs of its row and column, no diagonal
    /// ([`Mistake::NoDiagonalFlips`]).
    NoDiagonalFlips,
    /// A move's walk goes on over empty cells to the mover's disc when finding moves,
    /// and turns nothing on such a line ([`Mistake::IllegalMove`]).
    MovesAcrossGaps,
    /// As [`Reading::MovesAcrossGaps`], once the walk has passed two of the opponent's
    /// discs: an empty cell right after the first still ends it ([`Mistake::IllegalMove`]).
    MovesAcrossLaterGaps,
    /// A move's walk goes on over empty cells to the mover's disc when turning discs,
    /// and fills every cell between ([`Mistake::FlipsAcrossGaps`]).
    FlipsAcrossGaps,
    /// The player line read with its CR (`"X\r"`, matching no disc): the root passes,
    /// then `X` moves (the program's other side), and E counts `X`'s discs against the
    /// root ([`Mistake::InputCr`]).
    InputCr,
    /// Cells counted in one run of 64, so a line walks off one row's edge onto the
    /// next row ([`Mistake::WrapAround`]).
    WrapAround,
    /// A move listed once per direction that brackets discs ([`Mistake::DuplicateMoves`]).
    DuplicateMoves,
    /// E for the other player at every leaf ([`Mistake::WrongRootPlayer`]).
    OtherPlayersE,
    /// E for the side to move: negated at MIN ([`Mistake::LeavesFromSideToMove`]).
    SideToMoveE,
    /// Nodes at the cut-off depth expanded: leaves one ply deeper
    /// ([`Mistake::ExpandsAtCutoffDepth`]).
    CutoffOneDeeper,
    /// Leaves one ply early ([`Mistake::CutoffDepth`]).
    CutoffOneEarlier,
    /// The other release's end-of-game rule ([`Mistake::OlderEndRule`],
    /// [`Mistake::NewerEndRule`]).
    OtherEndRule,
    /// A node reached by a pass whose side cannot move either is a leaf
    /// ([`Mistake::GameEndsEarly`]).
    GameEndsEarly,
    /// A blocked node whose parent is a pass is a leaf ([`Mistake::PassTestOnParent`]).
    PassTestOnParent,
    /// One pass flag for the whole search, never reset: after the search's first pass,
    /// every pass is a leaf ([`Mistake::StalePassFlag`]).
    StalePassFlag,
    /// A pass flag per side in globals, never restored when the search backs up: a
    /// node with no move sets the flag of its children's depth parity, a node with
    /// moves clears it, and a node is a leaf whenever both are set
    /// ([`Mistake::PassFlagsPerSide`]).
    PassFlagsPerSide,
    /// A move above the cut-off depth that wipes out a colour (neither side can move
    /// after it) printed as `pass` in its place, with the pass chain the program
    /// writes by hand under it ([`Mistake::GameOverAsPass`]).
    GameOverAsPass,
    /// A move to the cut-off depth after which neither side can move printed as
    /// `pass` in its place and expanded: the test for both sides blocked comes before
    /// the cut-off test ([`Mistake::BlockedBeforeCutoff`]).
    BlockedBeforeCutoff,
    /// Pruning only on a strict inequality ([`Mistake::StrictPruning`]).
    StrictPruning,
    /// Alpha and beta updated before the cut-off test ([`Mistake::UpdateBeforeCutoff`]).
    UpdateBeforeCutoff,
    /// Never a cut-off ([`Mistake::NoPruning`]).
    NoPruning,
    /// An inner node's value is max(alpha, v) at MAX, min(beta, v) at MIN
    /// ([`Mistake::FailHard`]).
    FailHard,
    /// The rules, but the student's pass at this 0-based line of the file is taken as
    /// made (on the board the rules give): the evidence for a pass the rules refuse.
    AcceptPassAt(usize),
}

impl Reading {
    /// Every reading tried for a broken line, after the rules themselves.
    pub const ALL: [Reading; 23] = [
        Reading::InputCr,
        Reading::OneDirectionFlips,
        Reading::NoDiagonalFlips,
        Reading::MovesAcrossGaps,
        Reading::MovesAcrossLaterGaps,
        Reading::FlipsAcrossGaps,
        Reading::WrapAround,
        Reading::DuplicateMoves,
        Reading::OtherPlayersE,
        Reading::SideToMoveE,
        Reading::CutoffOneDeeper,
        Reading::CutoffOneEarlier,
        Reading::OtherEndRule,
        Reading::GameEndsEarly,
        Reading::PassTestOnParent,
        Reading::StalePassFlag,
        Reading::PassFlagsPerSide,
        Reading::GameOverAsPass,
        Reading::BlockedBeforeCutoff,
        Reading::StrictPruning,
        Reading::UpdateBeforeCutoff,
        Reading::NoPruning,
        Reading::FailHard,
    ];

    /// The mistake of the model this reading is, on `problem`.
    pub fn mistake(self, problem: &Problem) -> Option<Mistake> {
        use crate::format::cs561::Dialect;
        Some(match self {
            Reading::Rules | Reading::AcceptPassAt(_) => return None,
            Reading::InputCr => Mistake::InputCr,
            Reading::OneDirectionFlips => Mistake::OneDirectionFlips,
            Reading::NoDiagonalFlips => Mistake::NoDiagonalFlips,
            Reading::MovesAcrossGaps | Reading::MovesAcrossLaterGaps => Mistake::IllegalMove,
            Reading::FlipsAcrossGaps => Mistake::FlipsAcrossGaps,
            Reading::WrapAround => Mistake::WrapAround,
            Reading::DuplicateMoves => Mistake::DuplicateMoves,
            Reading::OtherPlayersE => Mistake::WrongRootPlayer,
            Reading::SideToMoveE => Mistake::LeavesFromSideToMove,
            Reading::CutoffOneDeeper | Reading::CutoffOneEarlier => Mistake::CutoffDepth,
            Reading::OtherEndRule if problem.dialect == Dialect::S2017 => Mistake::OlderEndRule,
            Reading::OtherEndRule => Mistake::NewerEndRule,
            Reading::GameEndsEarly => Mistake::GameEndsEarly,
            Reading::PassTestOnParent => Mistake::PassTestOnParent,
            Reading::StalePassFlag => Mistake::StalePassFlag,
            Reading::PassFlagsPerSide => Mistake::PassFlagsPerSide,
            Reading::GameOverAsPass => Mistake::GameOverAsPass,
            Reading::BlockedBeforeCutoff => Mistake::BlockedBeforeCutoff,
            Reading::StrictPruning => Mistake::PrunedTooLate,
            Reading::UpdateBeforeCutoff => Mistake::UpdateBeforeCutoff,
            Reading::NoPruning => Mistake::NoPruning,
            Reading::FailHard => Mistake::FailHard,
        })
    }

    /// Whether the reading can change anything on `problem`'s log.
    fn applies_to(self, problem: &Problem) -> bool {
        let pruning = matches!(
            self,
            Reading::StrictPruning
                | Reading::UpdateBeforeCutoff
                | Reading::NoPruning
                | Reading::FailHard
        );
        !pruning || problem.task == Task::AlphaBeta
    }
}

/// A reading that makes the broken line come true, and how far it then goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    /// The reading.
    pub reading: Reading,
    /// The mistake it is.
    pub mistake: Mistake,
    /// The 0-based line of the file where it breaks in its turn; `None` when the whole
    /// log holds under it.
    pub breaks_at: Option<usize>,
    /// It breaks among the broken node's own lines (before the first line above the
    /// node's depth): the student's next lines there are not what it writes.
    pub within_node: bool,
}

/// The first line of `got` that breaks a rule under `reading`; `None` when the whole
/// file holds (or it has no log to judge).
pub fn first_break(problem: &Problem, got: &[String], reading: Reading) -> Option<Break> {
    Judge::new(problem, got, reading)?.run().err().map(|b| *b)
}

/// Judges the student's file `got` (its lines, without line ends) on `problem`: the
/// first line that breaks a rule from the student's own state, with the readings
/// that account for it. `None` when the log holds under the rules (or is not a log
/// the judge can read: no header, a greedy task).
pub fn audit(problem: &Problem, got: &[String]) -> Option<Finding> {
    // (the line before the log is its header: a file without its board or header
    // has its log elsewhere)
    let header = got.get(LOG_START - 1)?;
    if problem.task == Task::Greedy || header.is_empty() || depth_of(got, LOG_START - 1).is_some() {
        return None;
    }
    let broken = Judge::new(problem, got, Reading::Rules)?.run().err()?;
    let node_end = (broken.index + 1..got.len())
        .find(|&i| depth_of(got, i).is_none_or(|d| d < broken.depth))
        .unwrap_or(got.len());
    let fits: Vec<Fit> = Reading::ALL
        .into_iter()
        .filter(|r| r.applies_to(problem))
        .filter_map(|reading| {
            let mistake = reading.mistake(problem)?;
            // (the next board is judged after the whole log: a reading that breaks in
            // the log never reaches it, and accounts for none of its lines)
            let on_board = |index: usize| index < LOG_START - 1;
            let breaks_at = match Judge::new(problem, got, reading)?.run() {
                Ok(()) => None,
                Err(other) if on_board(broken.index) && !on_board(other.index) => return None,
                Err(other) if other.index > broken.index => Some(other.index),

                Err(_) => return None,
            };
            Some(Fit {
                reading,
                mistake,
                breaks_at,
                within_node: breaks_at.is_some_and(|i| i <= node_end),
            })
        })
        .collect();
    let pass_holds = matches!(broken.rule, Rule::WrongChild { .. })
        && got
            .get(broken.index)
            .is_some_and(|l| l.starts_with("pass,"))
        && passes_on_our_board(problem, got, broken.index);
    Some(words::finding(problem, got, *broken, fits, pass_holds))
}

/// The depth the 0-based line `index` of `got` gives, if it reads as a log line.
fn depth_of(got: &[String], index: usize) -> Option<u32> {
    got.get(index)
        .and_then(|l| l.split(',').nth(1))
        .and_then(|d| d.trim().parse::<u32>().ok())
}

/// Whether the student's lines under their pass at line `index` hold on the board the
/// rules give there: then their board is ours, and the pass itself is the mistake.
fn passes_on_our_board(problem: &Problem, got: &[String], index: usize) -> bool {
    let depth_of = |i: usize| depth_of(got, i);
    let Some(depth) = depth_of(index) else {
        return false;
    };
    // (the pass's own lines: up to the next line above its depth, then the pass's
    // closing line comes from its parent)
    let end = (index + 1..got.len())
        .find(|&i| depth_of(i).is_none_or(|d| d < depth))
        .unwrap_or(got.len());
    let subtree_has_leaves = end > index + 1;
    let judged = Judge::new(problem, got, Reading::AcceptPassAt(index)).map(Judge::run);
    subtree_has_leaves
        && match judged {
            Some(Ok(())) => true,
            Some(Err(other)) => other.index >= end,
            None => false,
        }
}
