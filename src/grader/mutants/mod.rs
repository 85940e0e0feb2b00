//! The bug catalogue: a "mutant solver" that writes `output.txt` as a student's
//! program with known faults would.
//!
//! It is a second, plain implementation of the CSCI-561 search (an array board, one
//! recursive function with its MAX and MIN branches written out) in which each
//! [`Fault`] of the catalogue is a switch. With no fault on it writes our solver's
//! output byte for byte (a test checks that over `testcases/` and generated cases);
//! with faults on it writes what a program with those bugs writes. `check` runs it to
//! name the mistakes in a student's file with certainty, `gen --catch-every-fault`
//! to choose cases that catch every fault, and the tests to measure `check`.
//!
//! It never touches the plain solver: the fast search in [`crate::course_search`]
//! knows nothing of it.

mod grid;
mod search;

use std::fmt;

use serde::Serialize;

use crate::format::cs561::{Dialect, Problem, Task};
use crate::format::{LineEnd, Style};

/// Where in a program a fault lives; `check` tests the upstream ones (input, rules,
/// names) before it blames the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Reading the input, generating moves, flipping discs, naming nodes.
    Upstream,
    /// The alpha-beta search itself: pruning, passes, leaves, values.
    Search,
    /// Choosing the next board.
    NextBoard,
    /// The bytes of the file: line ends, number spellings, the board and header.
    Form,
}

/// One named bug, as students' programs have it. Each variant says what the program
/// does and where that comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    // Upstream: input, rules and names.
    /// `input.txt` read with its CR: the player is `"X\r"`, which matches no disc (its
    /// opponent is taken as `X`, from `'O' if p == 'X' else 'X'`), and the board rows
    /// are 9 cells, the 9th a CR, printed back as they were read. From reading a CRLF
    /// file with `readlines()` / `getline` and stripping only `\n`.
    InputCr,
    /// A move turns only the discs of one direction, the last of the 8 that brackets
    /// any: each direction's flips overwrite the previous ones (`flips = run` for
    /// `flips += run`).
    OneDirectionFlips,
    /// A move that brackets discs in several directions is listed once per direction
    /// (the move list is built inside the direction loop), so it is searched twice.
    DuplicateMoves,
    /// The square a1 is never tried (a loop that starts at 1, or a `while i > 0`).
    SkipsA1,
    /// No square of column a is ever tried (`for col in range(1, 8)`).
    SkipsColumnA,
    /// Nodes in column a are printed as `root` (a name looked up as "column 0 means
    /// the root").
    ColumnANamedRoot,
    /// Row-1 names written with a NUL byte for the digit (`'0' + row` written as
    /// `row`, which is 0 on the first line).
    Row1NulNames,
    // The search.
    /// Pruning only on a strict inequality: `v > beta` / `v < alpha` instead of
    /// `v >= beta` / `v <= alpha`.
    StrictPruning,
    /// Alpha or beta updated before the cut-off test, so a cut-off line prints the
    /// updated window: the handout's worked example (`c4,1,-3,-3,-3`).
    UpdateBeforeCutoff,
    /// Minimax with alpha and beta printed and updated but never a cut-off.
    NoPruning,
    /// A node that prunes returns at once without printing its line (the print is
    /// after the cut-off test's `return`).
    NoLineAtCutoff,
    /// Fail-hard alpha-beta: an inner node's value is printed and returned as
    /// max(alpha, v) at MAX and min(beta, v) at MIN.
    FailHard,
    /// A side with no legal move is a leaf: no `pass` child.
    NoPassNode,
    /// A pass does not use up a ply: the `pass` child gets its parent's depth (the
    /// recursion passes `depth` instead of `depth + 1`).
    PassCostsNoDepth,
    /// Two passes in a row do not end the game: a third pass is the leaf.
    GameEndsLate,
    /// The game is seen over one node early: a node reached by a pass whose side to
    /// move cannot move either is a leaf, without the second pass.
    GameEndsEarly,
    /// The older release's end rule (s2017-jan, f2014: a full board, a colour gone or
    /// a second pass on the path) applied to an s2017 case.
    OlderEndRule,
    /// The revised release's end rule (only two passes in a row) applied to an
    /// s2017-jan or f2014 case.
    NewerEndRule,
    /// The end-of-game test reads the parent's name (`dad == "pass"` and no legal
    /// move): a node reached by a move right after a pass, whose side cannot move, is
    /// a leaf instead of getting its `pass` child.
    PassTestOnParent,
    /// One global "passed" flag, set by every pass and never reset when the search
    /// backs up: after the first pass of the search, every pass is taken as the
    /// second one in a row and is a leaf.
    StalePassFlag,
    /// A node at the cut-off depth expanded: the leaf test is `depth > D`.
    ExpandsAtCutoffDepth,
    /// The root counted as depth 1: every printed depth is one more, and the search
    /// stops one ply early.
    DepthFromOne,
    /// E counted for the other player: the program's MAX is fixed (always `X`, say)
    /// rather than the player named on the input.
    WrongRootPlayer,
    /// The root searched as a MIN node (the MAX and MIN functions called the wrong
    /// way round).
    RootAsMin,
    /// Leaves evaluated for the side to move there (a negamax habit): negated at MIN.
    LeavesFromSideToMove,
    /// Moves tried column by column: a1, a2, ..., a8, b1, ...
    ColumnMajorOrder,
    // The next board.
    /// The next board is the one after the last of the tied best moves (`>=`).
    LastTiedMove,
    /// After a root pass, the next board is taken from the position after the
    /// opponent's best reply instead of the input board.
    BoardAfterPass,
    /// The next board is the first root child whose static evaluation equals the
    /// root's value (the input board when none does).
    BoardByStaticValue,
    /// The first move's board is saved and never replaced.
    FirstMoveBoard,
    // The bytes of the file.
    /// Values printed as floats: `-3.0`, `0.0` (Java's `double`, Python's floats).
    FloatValues,
    /// Infinities spelled `inf` and `-inf` (Python's `float('inf')`).
    InfSpelling,
    /// The board's cells separated by spaces: `* * * X O * * *`.
    SpacedBoard,
    /// The header line `Node,Depth,Value,Alpha,Beta` left out.
    MissingHeader,
    /// The next board left out: the file starts with the header.
    MissingBoard,
    /// The other line ends: LF for CRLF (or the reverse).
    LineEnds,
    /// A line end after the last line (or none where one is expected).
    FinalNewline,
}

impl Fault {
    /// Every fault, upstream ones first, in the order `check` tries them.
    pub const ALL: [Fault; 37] = [
        Fault::InputCr,
        Fault::OneDirectionFlips,
        Fault::DuplicateMoves,
        Fault::SkipsA1,
        Fault::SkipsColumnA,
        Fault::ColumnANamedRoot,
        Fault::Row1NulNames,
        Fault::StrictPruning,
        Fault::UpdateBeforeCutoff,
        Fault::NoPruning,
        Fault::NoLineAtCutoff,
        Fault::FailHard,
        Fault::NoPassNode,
        Fault::PassCostsNoDepth,
        Fault::GameEndsLate,
        Fault::GameEndsEarly,
        Fault::OlderEndRule,
        Fault::NewerEndRule,
        Fault::PassTestOnParent,
        Fault::StalePassFlag,
        Fault::ExpandsAtCutoffDepth,
        Fault::DepthFromOne,
        Fault::WrongRootPlayer,
        Fault::RootAsMin,
        Fault::LeavesFromSideToMove,
        Fault::ColumnMajorOrder,
        Fault::LastTiedMove,
        Fault::BoardAfterPass,
        Fault::BoardByStaticValue,
        Fault::FirstMoveBoard,
        Fault::FloatValues,
        Fault::InfSpelling,
        Fault::SpacedBoard,
        Fault::MissingHeader,
        Fault::MissingBoard,
        Fault::LineEnds,
        Fault::FinalNewline,
    ];

    /// The fault's name on the command line and in tables (`strict-pruning`).
    pub const fn name(self) -> &'static str {
        match self {
            Fault::InputCr => "input-cr",
            Fault::OneDirectionFlips => "one-direction-flips",
            Fault::DuplicateMoves => "duplicate-moves",
            Fault::SkipsA1 => "skips-a1",
            Fault::SkipsColumnA => "skips-column-a",
            Fault::ColumnANamedRoot => "column-a-named-root",
            Fault::Row1NulNames => "row-1-nul-names",
            Fault::StrictPruning => "strict-pruning",
            Fault::UpdateBeforeCutoff => "update-before-cutoff",
            Fault::NoPruning => "no-pruning",
            Fault::NoLineAtCutoff => "no-line-at-cutoff",
            Fault::FailHard => "fail-hard",
            Fault::NoPassNode => "no-pass-node",
            Fault::PassCostsNoDepth => "pass-costs-no-depth",
            Fault::GameEndsLate => "game-ends-late",
            Fault::GameEndsEarly => "game-ends-early",
            Fault::OlderEndRule => "older-end-rule",
            Fault::NewerEndRule => "newer-end-rule",
            Fault::PassTestOnParent => "pass-test-on-parent",
            Fault::StalePassFlag => "stale-pass-flag",
            Fault::ExpandsAtCutoffDepth => "expands-at-cutoff-depth",
            Fault::DepthFromOne => "depth-from-one",
            Fault::WrongRootPlayer => "wrong-root-player",
            Fault::RootAsMin => "root-as-min",
            Fault::LeavesFromSideToMove => "leaves-from-side-to-move",
            Fault::ColumnMajorOrder => "column-major-order",
            Fault::LastTiedMove => "last-tied-move",
            Fault::BoardAfterPass => "board-after-pass",
            Fault::BoardByStaticValue => "board-by-static-value",
            Fault::FirstMoveBoard => "first-move-board",
            Fault::FloatValues => "float-values",
            Fault::InfSpelling => "inf-spelling",
            Fault::SpacedBoard => "spaced-board",
            Fault::MissingHeader => "missing-header",
            Fault::MissingBoard => "missing-board",
            Fault::LineEnds => "line-ends",
            Fault::FinalNewline => "final-newline",
        }
    }

    /// Where in a program the fault lives.
    pub const fn stage(self) -> Stage {
        match self {
            Fault::InputCr
            | Fault::OneDirectionFlips
            | Fault::DuplicateMoves
            | Fault::SkipsA1
            | Fault::SkipsColumnA
            | Fault::ColumnANamedRoot
            | Fault::Row1NulNames => Stage::Upstream,
            Fault::LastTiedMove
            | Fault::BoardAfterPass
            | Fault::BoardByStaticValue
            | Fault::FirstMoveBoard => Stage::NextBoard,
            Fault::FloatValues
            | Fault::InfSpelling
            | Fault::SpacedBoard
            | Fault::MissingHeader
            | Fault::MissingBoard
            | Fault::LineEnds
            | Fault::FinalNewline => Stage::Form,
            _ => Stage::Search,
        }
    }

    /// Whether the fault only rewrites the text of a right file (line ends, number
    /// spellings, the board's and header's presence, node names), leaving the search
    /// and the next board as they are: such faults can be seen apart from the others.
    pub const fn rewrites_text_only(self) -> bool {
        matches!(self.stage(), Stage::Form)
            || matches!(self, Fault::ColumnANamedRoot | Fault::Row1NulNames)
    }

    /// Whether the fault can change the output of `problem` at all: the end rules
    /// belong to one release each, the search faults need a log, and the pruning
    /// faults need alpha-beta.
    pub fn applies_to(self, problem: &Problem) -> bool {
        let log = problem.task != Task::Greedy;
        let alpha_beta = problem.task == Task::AlphaBeta;
        match self {
            Fault::OlderEndRule => problem.dialect == Dialect::S2017 && log,
            Fault::NewerEndRule => problem.dialect != Dialect::S2017 && log,
            Fault::StrictPruning
            | Fault::UpdateBeforeCutoff
            | Fault::NoPruning
            | Fault::NoLineAtCutoff
            | Fault::FailHard => alpha_beta,
            Fault::InputCr
            | Fault::OneDirectionFlips
            | Fault::SkipsA1
            | Fault::SkipsColumnA
            | Fault::ColumnMajorOrder
            | Fault::WrongRootPlayer
            | Fault::RootAsMin
            | Fault::LastTiedMove
            | Fault::BoardAfterPass
            | Fault::BoardByStaticValue
            | Fault::FirstMoveBoard
            | Fault::SpacedBoard
            | Fault::MissingBoard
            | Fault::LineEnds
            | Fault::FinalNewline => true,
            _ => log,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of faults switched on together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Faults(u64);

impl Faults {
    /// No fault: the mutant writes the right output.
    pub const NONE: Faults = Faults(0);

    /// The set holding `fault` alone.
    pub const fn one(fault: Fault) -> Faults {
        Faults(1 << fault as u64)
    }

    /// This set with `fault` added.
    pub const fn with(self, fault: Fault) -> Faults {
        Faults(self.0 | 1 << fault as u64)
    }

    /// This set without `fault`.
    pub const fn without(self, fault: Fault) -> Faults {
        Faults(self.0 & !(1 << fault as u64))
    }

    /// Whether `fault` is on.
    pub const fn has(self, fault: Fault) -> bool {
        self.0 & 1 << fault as u64 != 0
    }

    /// Whether no fault is on.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The faults on, in catalogue order.
    pub fn iter(self) -> impl Iterator<Item = Fault> {
        Fault::ALL.into_iter().filter(move |&f| self.has(f))
    }
}

impl FromIterator<Fault> for Faults {
    fn from_iter<I: IntoIterator<Item = Fault>>(faults: I) -> Faults {
        faults.into_iter().fold(Faults::NONE, Faults::with)
    }
}

impl fmt::Display for Faults {
    /// The names joined by `+`, `none` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.iter().map(Fault::name).collect();
        f.write_str(&names.join("+"))
    }
}

/// The byte form of the file that holds `bytes`: CRLF if any line ends so, and
/// whether the last line has an end. `check` writes mutants in the expected file's
/// form.
pub fn style_of(bytes: &[u8]) -> Style {
    Style {
        line_end: if bytes.windows(2).any(|w| w == b"\r\n") {
            LineEnd::Crlf
        } else {
            LineEnd::Lf
        },
        final_newline: bytes.last() == Some(&b'\n'),
    }
}

/// The output file a program with `faults` writes for `problem`, in the byte form
/// `style` (which [`Fault::LineEnds`] and [`Fault::FinalNewline`] change). `None`
/// when its log would pass `max_lines` lines: a fault such as [`Fault::NoPruning`]
/// can make a tree far larger than the right one.
pub fn write(problem: &Problem, style: Style, faults: Faults, max_lines: usize) -> Option<Vec<u8>> {
    search::run(problem, style, faults, max_lines, None)
}

/// Like [`write`], showing `watch` each log line as it is printed (its 0-based index
/// in the log and its text without a line end): the search stops, and this returns
/// `None`, as soon as `watch` returns false. Comparing with a student's file line by
/// line this way, a program that cannot have written it is left after a few lines.
pub fn write_watched(
    problem: &Problem,
    style: Style,
    faults: Faults,
    max_lines: usize,
    watch: &mut dyn FnMut(usize, &[u8]) -> bool,
) -> Option<Vec<u8>> {
    search::run(problem, style, faults, max_lines, Some(watch))
}
