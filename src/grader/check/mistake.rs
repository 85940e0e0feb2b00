//! The named mistakes `check` tells, with their labels: the catalogue's faults
//! ([`Fault`]) each make one of them; the others are told by the text of a file.

use serde::Serialize;

use crate::grader::mutants::Fault;

/// A mistake students make often enough to have a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mistake {
    /// The lines are right; their ends are LF instead of CRLF (or the reverse).
    LineEnds,
    /// The lines are right; the file ends with a line end, or lacks one.
    FinalNewline,
    /// A UTF-8 byte-order mark (EF BB BF) before the first line.
    ByteOrderMark,
    /// Spaces at the end of a line, or blank lines at the end of the file.
    TrailingWhitespace,
    /// Values printed as floats: `0.0` for `0`.
    FloatValues,
    /// A cut-off line that prints alpha or beta already updated (the handout's typo).
    UpdatedAtCutoff,
    /// A side with no legal move must get one child, `pass`; the log has none.
    MissingPass,
    /// A `pass` node where the tree has none.
    ExtraPass,
    /// A node left before its value reached the cut-off: lines missing.
    PrunedTooEarly,
    /// A node that goes on after its value reached the cut-off: extra lines.
    PrunedTooLate,
    /// A node that prunes returns without printing its line.
    NoLineAtCutoff,
    /// Values from the other player's point of view, or a root searched as MIN.
    WrongRootPlayer,
    /// The next board is the one after the last of the tied best moves.
    LastTiedMove,
    /// The file starts with the log: the next board is not there.
    MissingBoard,
    /// The next board is not the one after the first best move.
    WrongBoard,
    /// A child for a move that is not legal (needs the input to tell).
    IllegalMove,
    /// Children visited out of positional order (columns first, say).
    MoveOrder,
    /// A node expanded below the cut-off depth, or a leaf above it.
    CutoffDepth,
    /// The file stops before the expected end.
    MissingLines,
    /// The file goes on after the expected end.
    ExtraLines,
    /// `input.txt` read with its CR: the player `"X\r"` matches no disc.
    InputCarriageReturn,
    /// A move turns the discs of one direction only.
    OneDirectionFlips,
    /// A move that brackets in several directions listed once per direction.
    DuplicateMoves,
    /// Squares the move generator never tries (a1, or column a).
    SquaresNeverTried,
    /// Nodes printed under a wrong name (`root` for a cell, a NUL for a digit).
    MisnamedNodes,
    /// Alpha and beta printed and updated, but no cut-off ever.
    NoPruning,
    /// Values printed fail-hard: max(alpha, v) at MAX, min(beta, v) at MIN.
    FailHard,
    /// A pass that does not use up a ply.
    PassCostsNoDepth,
    /// Two passes in a row that do not end the game.
    GameEndsLate,
    /// The game taken as over one node before the second pass.
    GameEndsEarly,
    /// The first samples' end rule applied to a revised Spring 2017 case.
    OlderEndRule,
    /// The revised end rule applied to a case of an older release.
    NewerEndRule,
    /// The end-of-game test reads the parent's name: a node reached by a move right
    /// after a pass, whose side cannot move, is a leaf.
    PassTestOnParent,
    /// A global pass flag that is not reset when the search backs up.
    StalePassFlag,
    /// The root counted as depth 1.
    DepthFromOne,
    /// Leaves evaluated for the side to move there.
    LeavesFromSideToMove,
    /// After a root pass, a next board other than the input board.
    BoardAfterPass,
    /// The next board chosen by a child's static value.
    BoardByStaticValue,
    /// The next board of the root's first move, never replaced by a better one.
    FirstMoveBoard,
    /// Infinities spelled `inf` and `-inf`.
    InfinitySpelling,
    /// Board cells separated by spaces.
    SpacedBoard,
    /// The header line left out.
    MissingHeader,
}

impl Mistake {
    /// A short name for people.
    pub const fn label(self) -> &'static str {
        match self {
            Mistake::LineEnds => "line ends only (CRLF vs LF)",
            Mistake::FinalNewline => "final newline only",
            Mistake::ByteOrderMark => "byte-order mark at the start",
            Mistake::TrailingWhitespace => "trailing whitespace",
            Mistake::FloatValues => "values printed as floats",
            Mistake::UpdatedAtCutoff => "alpha/beta updated at a cutoff (the handout's typo)",
            Mistake::MissingPass => "missing pass node",
            Mistake::ExtraPass => "extra pass node",
            Mistake::PrunedTooEarly => "pruning too early (lines missing)",
            Mistake::PrunedTooLate => "pruning too late (extra lines)",
            Mistake::NoLineAtCutoff => "no line printed at a cut-off",
            Mistake::WrongRootPlayer => "wrong root player as MAX",
            Mistake::LastTiedMove => "last instead of first tied move",
            Mistake::MissingBoard => "next board missing",
            Mistake::WrongBoard => "wrong next board",
            Mistake::IllegalMove => "a move that is not legal",
            Mistake::MoveOrder => "moves out of positional order",
            Mistake::CutoffDepth => "wrong cut-off depth",
            Mistake::MissingLines => "file ends early",
            Mistake::ExtraLines => "extra lines at the end",
            Mistake::InputCarriageReturn => {
                "input.txt read with its CR (strip '\\r' when reading it)"
            }
            Mistake::OneDirectionFlips => "flips in one direction only",
            Mistake::DuplicateMoves => "a move listed once per direction",
            Mistake::SquaresNeverTried => "squares never tried as moves",
            Mistake::MisnamedNodes => "nodes printed under a wrong name",
            Mistake::NoPruning => "no pruning at all",
            Mistake::FailHard => "fail-hard values (max(alpha, v))",
            Mistake::PassCostsNoDepth => "a pass that does not use up a ply",
            Mistake::GameEndsLate => "two passes do not end the game",
            Mistake::GameEndsEarly => "game over one node early (no second pass)",
            Mistake::OlderEndRule => "the first samples' end-of-game rule",
            Mistake::NewerEndRule => "the revised end-of-game rule",
            Mistake::PassTestOnParent => "game over after a pass and a move (parent tested)",
            Mistake::StalePassFlag => "a pass flag never reset (stale)",
            Mistake::DepthFromOne => "depths counted from 1",
            Mistake::LeavesFromSideToMove => "leaves evaluated for the side to move",
            Mistake::BoardAfterPass => "next board after a root pass",
            Mistake::BoardByStaticValue => "next board chosen by static value",
            Mistake::FirstMoveBoard => "next board of the first move kept",
            Mistake::InfinitySpelling => "infinity spelled inf",
            Mistake::SpacedBoard => "board cells separated by spaces",
            Mistake::MissingHeader => "header line missing",
        }
    }

    /// The mistake a fault of the catalogue makes.
    pub const fn of(fault: Fault) -> Mistake {
        match fault {
            Fault::InputCr => Mistake::InputCarriageReturn,
            Fault::OneDirectionFlips => Mistake::OneDirectionFlips,
            Fault::DuplicateMoves => Mistake::DuplicateMoves,
            Fault::SkipsA1 | Fault::SkipsColumnA => Mistake::SquaresNeverTried,
            Fault::ColumnANamedRoot | Fault::Row1NulNames => Mistake::MisnamedNodes,
            Fault::StrictPruning => Mistake::PrunedTooLate,
            Fault::UpdateBeforeCutoff => Mistake::UpdatedAtCutoff,
            Fault::NoPruning => Mistake::NoPruning,
            Fault::NoLineAtCutoff => Mistake::NoLineAtCutoff,
            Fault::FailHard => Mistake::FailHard,
            Fault::NoPassNode => Mistake::MissingPass,
            Fault::PassCostsNoDepth => Mistake::PassCostsNoDepth,
            Fault::GameEndsLate => Mistake::GameEndsLate,
            Fault::GameEndsEarly => Mistake::GameEndsEarly,
            Fault::OlderEndRule => Mistake::OlderEndRule,
            Fault::NewerEndRule => Mistake::NewerEndRule,
            Fault::PassTestOnParent => Mistake::PassTestOnParent,
            Fault::StalePassFlag => Mistake::StalePassFlag,
            Fault::ExpandsAtCutoffDepth => Mistake::CutoffDepth,
            Fault::DepthFromOne => Mistake::DepthFromOne,
            Fault::WrongRootPlayer | Fault::RootAsMin => Mistake::WrongRootPlayer,
            Fault::LeavesFromSideToMove => Mistake::LeavesFromSideToMove,
            Fault::ColumnMajorOrder => Mistake::MoveOrder,
            Fault::LastTiedMove => Mistake::LastTiedMove,
            Fault::BoardAfterPass => Mistake::BoardAfterPass,
            Fault::BoardByStaticValue => Mistake::BoardByStaticValue,
            Fault::FirstMoveBoard => Mistake::FirstMoveBoard,
            Fault::FloatValues => Mistake::FloatValues,
            Fault::InfSpelling => Mistake::InfinitySpelling,
            Fault::SpacedBoard => Mistake::SpacedBoard,
            Fault::MissingHeader => Mistake::MissingHeader,
            Fault::MissingBoard => Mistake::MissingBoard,
            Fault::LineEnds => Mistake::LineEnds,
            Fault::FinalNewline => Mistake::FinalNewline,
        }
    }
}
