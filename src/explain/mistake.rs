//! The one model of a student's mistake: every mistake `check` and `grade` name, with
//! its name on the command line and in tables (`strict-pruning`), its label for people
//! and where in a program it lives. The catalogue's mistakes ([`Mistake::SIMULATED`])
//! are also switches of the mutant solver ([`crate::explain::mutants`]), which writes what a
//! program with them writes; the others are told by the text of a file alone.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::format::cs561::{Dialect, Problem, Task};

/// Where in a program a mistake lives; `check` tests the upstream ones (input, rules,
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

/// A mistake students make often enough to have a name. The variants up to
/// [`Mistake::FinalNewline`] are the catalogue's: each says what the program does and
/// where that comes from, and the mutant solver simulates it. The others are what a
/// file's text shows without telling which program wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mistake {
    // The catalogue. Upstream: input, rules and names.
    /// `input.txt` read with its CR: the player is `"X\r"`, which matches no disc (its
    /// opponent is taken as `X`, from `'O' if p == 'X' else 'X'`), and the board rows
    /// are 9 cells, the 9th a CR, printed back as they were read. From reading a CRLF
    /// file with `readlines()` / `getline` and stripping only `\n`.
    InputCr,
    /// Only the player line keeps its CR (the board is read cell by cell, or its rows
    /// stripped): the player is `"X\r"`, which matches no disc, its opponent is `X`,
    /// as in [`Mistake::InputCr`], but the board rows print without a CR.
    InputCrPlayer,
    /// The player line keeps its CR and each ply takes the side before's opponent
    /// with `'O' if p == 'X' else 'X'`: the root (`"X\r"`) has no move and passes, and
    /// below it `X` moves first, then `O` (the colours one ply late when the player is
    /// `X`). A leaf after two passes in a row is counted for the side to move there; a
    /// leaf at the cut-off depth for `"X\r"`, so every disc counts against it. The
    /// board rows print without a CR.
    InputCrColoursLate,
    /// A move turns only the discs of one direction, the last of the 8 that brackets
    /// any: each direction's flips overwrite the previous ones (`flips = run` for
    /// `flips += run`).
    OneDirectionFlips,
    /// A move that brackets discs in several directions is listed once per direction
    /// (the move list is built inside the direction loop), so it is searched twice.
    DuplicateMoves,
    /// A move that brackets discs in several directions is several children, one per
    /// direction, each turning only that direction's discs (the children are made by
    /// walking out from each of the mover's discs, one board per line that ends on an
    /// empty cell); a cell's children come in the row-major order of the discs that
    /// bracket them. At MIN's nodes every child of a cell is searched with the board
    /// of its first direction (the program read looks the board up by the cell's
    /// first key there, and by each child's own key at MAX).
    ChildPerDirection,
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
    /// The older release's end rule without its full-board test, on an s2017-jan or
    /// f2014 case: a colour gone or a second pass on the path ends the game, a full
    /// board does not (its side cannot move, so it passes).
    FullBoardNotTerminal,
    /// The end-of-game test reads the parent's name (`dad == "pass"` and no legal
    /// move): a node reached by a move right after a pass, whose side cannot move, is
    /// a leaf instead of getting its `pass` child.
    PassTestOnParent,
    /// One global "passed" flag, set by every pass and never reset when the search
    /// backs up: after the first pass of the search, every pass is taken as the
    /// second one in a row and is a leaf.
    StalePassFlag,
    /// A MIN node with no legal move makes its `pass` child a MAX node for the same
    /// side (the MAX function called with the player, not the opponent): the side that
    /// just passed looks for moves again, finds none and passes once more. A MAX
    /// node's pass hands the move over as it should.
    MinPassKeepsSide,
    /// One global pass count, raised by every node that passes and cleared only by a
    /// node expanded with a legal move, ends the game at a node with no move once it
    /// reaches 2: backing up never lowers it, so passes are counted across branches (a
    /// blocked node after a sibling's pass chain is a leaf, or its pass is). Two
    /// published Spring 2017 programs count so.
    GlobalPassCount,
    /// Game over written by hand: at a node that is no pass, where neither side can
    /// move, the program prints the pass (even at the cut-off depth) and the second
    /// pass below it with E, then the pass's line and the node's without a cut-off
    /// test; the pass's line updates alpha when the second pass is at the cut-off
    /// depth and beta otherwise, whether the pass is MAX or MIN. Read in a published
    /// Spring 2017 program.
    HandWrittenGameOver,
    /// A node at the cut-off depth expanded: the leaf test is `depth > D`.
    ExpandsAtCutoffDepth,
    /// D = 0 never cuts: the cut-off test compares a child's depth with D for
    /// equality (`depth == D`), and the root's children start at depth 1, so at D = 0
    /// the root is searched to the end of the game and a move is made.
    ZeroDepthIgnored,
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
    /// The next board is recorded at depth 1: each time a child of a depth-1 node
    /// returns a value greater than any returned before (strictly), that depth-1 board
    /// is kept (its own value when it is a leaf). So the board kept is the root move
    /// with the single greatest grandchild value, not the move with the best value.
    BestGrandchildBoard,
    // The bytes of the file.
    /// Values printed as floats: `-3.0`, `0.0` (Java's `double`, Python's floats).
    FloatValues,
    /// Infinities spelled `inf` and `-inf` (Python's `float('inf')`); `check` also tells from the
    /// text the other spellings (`-infinity`, `2147483647` for Infinity).
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
    // Told by the text alone.
    /// A UTF-8 byte-order mark (EF BB BF) before the first line.
    ByteOrderMark,
    /// Spaces at the end of a line, or blank lines at the end of the file.
    TrailingWhitespace,
    /// A `pass` node where the tree has none.
    ExtraPass,
    /// A node left before its value reached the cut-off: lines missing.
    PrunedTooEarly,
    /// A node that goes on after its value reached the cut-off: extra lines.
    PrunedTooLate,
    /// A node expanded below the cut-off depth, or a leaf above it.
    CutoffDepth,
    /// Children visited out of positional order (columns first, say).
    MoveOrder,
    /// Nodes printed under a wrong name (`root` for a cell, a NUL for a digit).
    MisnamedNodes,
    /// The next board is not the one after the first best move.
    WrongBoard,
    /// A child for a move that is not legal (needs the input to tell).
    IllegalMove,
    /// The file stops before the expected end.
    MissingLines,
    /// The file goes on after the expected end.
    ExtraLines,
    // Told by the student's own tree (see [`crate::explain::audit`]).
    /// A move turns only the discs of its row and column, never a diagonal.
    NoDiagonalFlips,
    /// A move's walk goes on over empty cells to the mover's disc, and every cell
    /// between is filled with the mover's colour.
    FlipsAcrossGaps,
    /// The board walked as one run of 64 cells: a line goes off one row's edge onto
    /// the next row.
    WrapAround,
    /// A leaf's value is not E of its board for the root player.
    WrongLeafValue,
    /// An inner node opens with another value than its infinity (`-Infinity` at MAX,
    /// `Infinity` at MIN).
    WrongOpeningValue,
    /// A node's alpha and beta are not those it should hold: received from its parent,
    /// or updated after a child.
    WrongWindow,
    /// A node's value after a child is not the best of its value and the child's.
    WrongBackedUpValue,
    /// A node's value after a child is that child's value, not the best so far.
    LastChildValue,
    /// A legal move of a node's board never searched.
    MissingMove,
    /// Leaves are searched but never printed.
    MissingLeafLines,
    /// A node that is a leaf by the rules is expanded, or one that is not is printed
    /// as a leaf, where no depth is at fault: the game's end misjudged.
    MisplacedLeaf,
    /// A pass flag per side kept outside the recursion (`x_pass`, `o_pass`): a node
    /// that must pass sets its side's flag, a node with moves clears it, backing up
    /// restores neither, and a node is a game-over leaf whenever both are set, so
    /// passes of branches searched before end the game where none is on its path.
    PassFlagsPerSide,
    /// A move that ends the game (the opponent wiped out: neither side can move) is
    /// printed as `pass` in its place, starting a pass chain written by hand.
    GameOverAsPass,
    /// The test "neither side can move" made before the cut-off test: a node at the
    /// cut-off depth where neither side can move is printed as `pass` and expanded.
    BlockedBeforeCutoff,
    /// A node whose name is no cell of the board and no `root` or `pass` (bytes such as
    /// a NUL for a digit, or a letter and a digit off the board), where no misnaming
    /// of the rules' child explains it: a misprinted name or a move off the board.
    NoCellName,
}

impl Mistake {
    /// The catalogue: every mistake the mutant solver simulates, upstream ones first,
    /// in the order `check` tries them.
    pub const SIMULATED: [Mistake; 46] = [
        Mistake::InputCr,
        Mistake::InputCrPlayer,
        Mistake::InputCrColoursLate,
        Mistake::OneDirectionFlips,
        Mistake::DuplicateMoves,
        Mistake::ChildPerDirection,
        Mistake::SkipsA1,
        Mistake::SkipsColumnA,
        Mistake::ColumnANamedRoot,
        Mistake::Row1NulNames,
        Mistake::StrictPruning,
        Mistake::UpdateBeforeCutoff,
        Mistake::NoPruning,
        Mistake::NoLineAtCutoff,
        Mistake::FailHard,
        Mistake::NoPassNode,
        Mistake::PassCostsNoDepth,
        Mistake::GameEndsLate,
        Mistake::GameEndsEarly,
        Mistake::OlderEndRule,
        Mistake::NewerEndRule,
        Mistake::FullBoardNotTerminal,
        Mistake::PassTestOnParent,
        Mistake::StalePassFlag,
        Mistake::MinPassKeepsSide,
        Mistake::GlobalPassCount,
        Mistake::HandWrittenGameOver,
        Mistake::ExpandsAtCutoffDepth,
        Mistake::ZeroDepthIgnored,
        Mistake::DepthFromOne,
        Mistake::WrongRootPlayer,
        Mistake::RootAsMin,
        Mistake::LeavesFromSideToMove,
        Mistake::ColumnMajorOrder,
        Mistake::LastTiedMove,
        Mistake::BoardAfterPass,
        Mistake::BoardByStaticValue,
        Mistake::FirstMoveBoard,
        Mistake::BestGrandchildBoard,
        Mistake::FloatValues,
        Mistake::InfSpelling,
        Mistake::SpacedBoard,
        Mistake::MissingHeader,
        Mistake::MissingBoard,
        Mistake::LineEnds,
        Mistake::FinalNewline,
    ];

    /// The mistakes that are not the catalogue's, as the enum declares them: what a
    /// file's text or the judge of a student's own tree shows.
    pub const OTHERS: [Mistake; 27] = [
        Mistake::ByteOrderMark,
        Mistake::TrailingWhitespace,
        Mistake::ExtraPass,
        Mistake::PrunedTooEarly,
        Mistake::PrunedTooLate,
        Mistake::CutoffDepth,
        Mistake::MoveOrder,
        Mistake::MisnamedNodes,
        Mistake::WrongBoard,
        Mistake::IllegalMove,
        Mistake::MissingLines,
        Mistake::ExtraLines,
        Mistake::NoDiagonalFlips,
        Mistake::FlipsAcrossGaps,
        Mistake::WrapAround,
        Mistake::WrongLeafValue,
        Mistake::WrongOpeningValue,
        Mistake::WrongWindow,
        Mistake::WrongBackedUpValue,
        Mistake::LastChildValue,
        Mistake::MissingMove,
        Mistake::MissingLeafLines,
        Mistake::MisplacedLeaf,
        Mistake::PassFlagsPerSide,
        Mistake::GameOverAsPass,
        Mistake::BlockedBeforeCutoff,
        Mistake::NoCellName,
    ];

    /// Every mistake: [`Mistake::SIMULATED`], then [`Mistake::OTHERS`].
    pub fn all() -> impl Iterator<Item = Mistake> {
        Mistake::SIMULATED.into_iter().chain(Mistake::OTHERS)
    }

    /// The mistake of a [`Mistake::name`].
    pub fn from_name(name: &str) -> Option<Mistake> {
        Mistake::all().find(|mistake| mistake.name() == name)
    }

    /// Whether the mutant solver simulates it (it is in [`Mistake::SIMULATED`]).
    pub const fn is_simulated(self) -> bool {
        (self as usize) < Mistake::SIMULATED.len()
    }

    /// The name on the command line, in tables and in JSON (`strict-pruning`).
    pub const fn name(self) -> &'static str {
        match self {
            Mistake::InputCr => "input-cr",
            Mistake::InputCrPlayer => "input-cr-player",
            Mistake::InputCrColoursLate => "input-cr-colours-late",
            Mistake::OneDirectionFlips => "one-direction-flips",
            Mistake::DuplicateMoves => "duplicate-moves",
            Mistake::ChildPerDirection => "child-per-direction",
            Mistake::SkipsA1 => "skips-a1",
            Mistake::SkipsColumnA => "skips-column-a",
            Mistake::ColumnANamedRoot => "column-a-named-root",
            Mistake::Row1NulNames => "row-1-nul-names",
            Mistake::StrictPruning => "strict-pruning",
            Mistake::UpdateBeforeCutoff => "update-before-cutoff",
            Mistake::NoPruning => "no-pruning",
            Mistake::NoLineAtCutoff => "no-line-at-cutoff",
            Mistake::FailHard => "fail-hard",
            Mistake::NoPassNode => "no-pass-node",
            Mistake::PassCostsNoDepth => "pass-costs-no-depth",
            Mistake::GameEndsLate => "game-ends-late",
            Mistake::GameEndsEarly => "game-ends-early",
            Mistake::OlderEndRule => "older-end-rule",
            Mistake::NewerEndRule => "newer-end-rule",
            Mistake::FullBoardNotTerminal => "full-board-not-terminal",
            Mistake::PassTestOnParent => "pass-test-on-parent",
            Mistake::StalePassFlag => "stale-pass-flag",
            Mistake::MinPassKeepsSide => "min-pass-keeps-side",
            Mistake::GlobalPassCount => "global-pass-count",
            Mistake::HandWrittenGameOver => "hand-written-game-over",
            Mistake::ExpandsAtCutoffDepth => "expands-at-cutoff-depth",
            Mistake::ZeroDepthIgnored => "zero-depth-ignored",
            Mistake::DepthFromOne => "depth-from-one",
            Mistake::WrongRootPlayer => "wrong-root-player",
            Mistake::RootAsMin => "root-as-min",
            Mistake::LeavesFromSideToMove => "leaves-from-side-to-move",
            Mistake::ColumnMajorOrder => "column-major-order",
            Mistake::LastTiedMove => "last-tied-move",
            Mistake::BoardAfterPass => "board-after-pass",
            Mistake::BoardByStaticValue => "board-by-static-value",
            Mistake::FirstMoveBoard => "first-move-board",
            Mistake::BestGrandchildBoard => "best-grandchild-board",
            Mistake::FloatValues => "float-values",
            Mistake::InfSpelling => "inf-spelling",
            Mistake::SpacedBoard => "spaced-board",
            Mistake::MissingHeader => "missing-header",
            Mistake::MissingBoard => "missing-board",
            Mistake::LineEnds => "line-ends",
            Mistake::FinalNewline => "final-newline",
            Mistake::ByteOrderMark => "byte-order-mark",
            Mistake::TrailingWhitespace => "trailing-whitespace",
            Mistake::ExtraPass => "extra-pass",
            Mistake::PrunedTooEarly => "pruned-too-early",
            Mistake::PrunedTooLate => "pruned-too-late",
            Mistake::CutoffDepth => "cutoff-depth",
            Mistake::MoveOrder => "move-order",
            Mistake::MisnamedNodes => "misnamed-nodes",
            Mistake::WrongBoard => "wrong-board",
            Mistake::IllegalMove => "illegal-move",
            Mistake::MissingLines => "missing-lines",
            Mistake::ExtraLines => "extra-lines",
            Mistake::NoDiagonalFlips => "no-diagonal-flips",
            Mistake::FlipsAcrossGaps => "flips-across-gaps",
            Mistake::WrapAround => "wrap-around",
            Mistake::WrongLeafValue => "wrong-leaf-value",
            Mistake::WrongOpeningValue => "wrong-opening-value",
            Mistake::WrongWindow => "wrong-window",
            Mistake::WrongBackedUpValue => "wrong-backed-up-value",
            Mistake::LastChildValue => "last-child-value",
            Mistake::MissingMove => "missing-move",
            Mistake::MissingLeafLines => "missing-leaf-lines",
            Mistake::MisplacedLeaf => "misplaced-leaf",
            Mistake::PassFlagsPerSide => "pass-flags-per-side",
            Mistake::GameOverAsPass => "game-over-as-pass",
            Mistake::BlockedBeforeCutoff => "blocked-before-cutoff",
            Mistake::NoCellName => "no-cell-name",
        }
    }

    /// The mistake the text alone shows for this one: a program of the catalogue that
    /// is one way of making a kind of mistake belongs to that kind (strict pruning is
    /// one way of pruning too late). The mistake itself when it is its own kind.
    pub const fn kind(self) -> Mistake {
        match self {
            Mistake::StrictPruning => Mistake::PrunedTooLate,
            Mistake::ExpandsAtCutoffDepth | Mistake::ZeroDepthIgnored => Mistake::CutoffDepth,
            Mistake::ColumnMajorOrder => Mistake::MoveOrder,
            Mistake::ColumnANamedRoot | Mistake::Row1NulNames => Mistake::MisnamedNodes,
            Mistake::RootAsMin => Mistake::WrongRootPlayer,
            Mistake::InputCrPlayer | Mistake::InputCrColoursLate => Mistake::InputCr,
            other => other,
        }
    }

    /// A short name for people, the same in `check`, `grade` and every report: one
    /// per kind (see [`Mistake::kind`]); `check` gives the catalogue's name beside it.
    pub const fn label(self) -> &'static str {
        match self {
            Mistake::InputCr | Mistake::InputCrPlayer | Mistake::InputCrColoursLate => {
                "input.txt read with its CR (strip '\\r' when reading it)"
            }
            Mistake::OneDirectionFlips => "flips in one direction only",
            Mistake::DuplicateMoves => "a move listed once per direction",
            Mistake::ChildPerDirection => "a child per direction, each turning one line",
            Mistake::SkipsA1 | Mistake::SkipsColumnA => "squares never tried as moves",
            Mistake::UpdateBeforeCutoff => "alpha/beta updated at a cutoff (the handout's typo)",
            Mistake::NoPruning => "no pruning at all",
            Mistake::NoLineAtCutoff => "no line printed at a cut-off",
            Mistake::FailHard => "fail-hard values (max(alpha, v))",
            Mistake::NoPassNode => "missing pass node",
            Mistake::PassCostsNoDepth => "a pass that does not use up a ply",
            Mistake::GameEndsLate => "two passes do not end the game",
            Mistake::GameEndsEarly => "game over one node early (no second pass)",
            Mistake::OlderEndRule => "the first samples' end-of-game rule",
            Mistake::NewerEndRule => "the revised end-of-game rule",
            Mistake::FullBoardNotTerminal => "a full board not the end of the game",
            Mistake::PassTestOnParent => "game over after a pass and a move (parent tested)",
            Mistake::StalePassFlag => "a pass flag never reset (stale)",
            Mistake::MinPassKeepsSide => "a pass at MIN that keeps the side to move",
            Mistake::GlobalPassCount => "passes counted across branches (a global count)",
            Mistake::HandWrittenGameOver => "game over written by hand (no cut-off test)",
            Mistake::DepthFromOne => "depths counted from 1",
            Mistake::WrongRootPlayer | Mistake::RootAsMin => "wrong root player as MAX",
            Mistake::LeavesFromSideToMove => "leaves evaluated for the side to move",
            Mistake::LastTiedMove => "last instead of first tied move",
            Mistake::BoardAfterPass => "next board after a root pass",
            Mistake::BoardByStaticValue => "next board chosen by static value",
            Mistake::FirstMoveBoard => "next board of the first move kept",
            Mistake::BestGrandchildBoard => "next board by its best grandchild value",
            Mistake::FloatValues => "values printed as floats",
            Mistake::InfSpelling => "infinity not spelled Infinity",
            Mistake::SpacedBoard => "board cells separated by spaces",
            Mistake::MissingHeader => "header line missing",
            Mistake::MissingBoard => "next board missing",
            Mistake::LineEnds => "line ends only (CRLF vs LF)",
            Mistake::FinalNewline => "final newline only",
            Mistake::ByteOrderMark => "byte-order mark at the start",
            Mistake::TrailingWhitespace => "trailing whitespace",
            Mistake::ExtraPass => "extra pass node",
            Mistake::PrunedTooEarly => "pruning too early (lines missing)",
            Mistake::PrunedTooLate | Mistake::StrictPruning => "pruning too late (extra lines)",
            Mistake::CutoffDepth | Mistake::ExpandsAtCutoffDepth | Mistake::ZeroDepthIgnored => {
                "wrong cut-off depth"
            }
            Mistake::MoveOrder | Mistake::ColumnMajorOrder => "moves out of positional order",
            Mistake::MisnamedNodes | Mistake::ColumnANamedRoot | Mistake::Row1NulNames => {
                "nodes printed under a wrong name"
            }
            Mistake::WrongBoard => "wrong next board",
            Mistake::IllegalMove => "a move that is not legal",
            Mistake::MissingLines => "file ends early",
            Mistake::ExtraLines => "extra lines at the end",
            Mistake::NoDiagonalFlips => "no flips along diagonals",
            Mistake::FlipsAcrossGaps => "flips across empty cells",
            Mistake::WrapAround => "lines that wrap round the board's edge",
            Mistake::WrongLeafValue => "a leaf's value is not E of its board",
            Mistake::WrongOpeningValue => "a node opens with another value than its infinity",
            Mistake::WrongWindow => "alpha/beta not those the node holds",
            Mistake::WrongBackedUpValue => "a node's value is not the best so far",
            Mistake::LastChildValue => "a node takes its last child's value, not the best",
            Mistake::MissingMove => "a legal move never searched",
            Mistake::MissingLeafLines => "leaves searched but not printed",
            Mistake::MisplacedLeaf => "a leaf where the game goes on, or none where it ends",
            Mistake::PassFlagsPerSide => "pass flags per side, never restored on the way back",
            Mistake::GameOverAsPass => "a move that ends the game printed as pass",
            Mistake::BlockedBeforeCutoff => "both sides blocked tested before the cut-off",
            Mistake::NoCellName => "a node named by no cell of the board",
        }
    }

    /// The rule the mistake breaks, in a few words, for the first sentence of an
    /// explanation.
    pub const fn rule(self) -> &'static str {
        match self {
            Mistake::InputCr | Mistake::InputCrPlayer | Mistake::InputCrColoursLate => {
                "every line of input.txt is read without its line end"
            }
            Mistake::OneDirectionFlips | Mistake::NoDiagonalFlips | Mistake::FlipsAcrossGaps => {
                "a move turns the discs it brackets in all 8 directions"
            }
            Mistake::DuplicateMoves | Mistake::ChildPerDirection => {
                "each legal move is one child, turning every line it brackets"
            }
            Mistake::SkipsA1 | Mistake::SkipsColumnA | Mistake::MissingMove => {
                "every legal move of a node is searched"
            }
            Mistake::ColumnANamedRoot
            | Mistake::Row1NulNames
            | Mistake::MisnamedNodes
            | Mistake::NoCellName => "a node is named by its cell, a1 to h8; only the root is root",
            Mistake::StrictPruning
            | Mistake::PrunedTooLate
            | Mistake::PrunedTooEarly
            | Mistake::NoPruning => {
                "v >= beta at MAX, v <= alpha at MIN prunes at once, equality too"
            }
            Mistake::UpdateBeforeCutoff => "a node that prunes prints alpha and beta unchanged",
            Mistake::NoLineAtCutoff => {
                "a node prints its line after every child, the one that prunes too"
            }
            Mistake::FailHard | Mistake::WrongBackedUpValue | Mistake::LastChildValue => {
                "a node's value is the best of its children's values so far"
            }
            Mistake::GameOverAsPass => "a node where the game ends is a leaf under its move's name",
            Mistake::NoPassNode | Mistake::ExtraPass => {
                "a side with no legal move, and only such a side, gets one child, pass"
            }
            Mistake::PassCostsNoDepth => "a pass uses up one ply",
            Mistake::GameEndsLate
            | Mistake::GameEndsEarly
            | Mistake::PassTestOnParent
            | Mistake::StalePassFlag
            | Mistake::MinPassKeepsSide
            | Mistake::GlobalPassCount
            | Mistake::PassFlagsPerSide
            | Mistake::HandWrittenGameOver => "only two passes in a row end the game",
            Mistake::OlderEndRule | Mistake::NewerEndRule | Mistake::FullBoardNotTerminal => {
                "each release ends the game by its own rule (SPEC.md)"
            }
            Mistake::ExpandsAtCutoffDepth
            | Mistake::ZeroDepthIgnored
            | Mistake::CutoffDepth
            | Mistake::BlockedBeforeCutoff
            | Mistake::MisplacedLeaf => "only nodes at depth D or at the game's end are leaves",
            Mistake::DepthFromOne => "the root is at depth 0",
            Mistake::WrongRootPlayer | Mistake::RootAsMin | Mistake::LeavesFromSideToMove => {
                "E counts for the player named on the input, who is MAX"
            }
            Mistake::WrongLeafValue => "a leaf prints E of its board",
            Mistake::WrongOpeningValue => "a node opens with -Infinity at MAX, Infinity at MIN",
            Mistake::WrongWindow => {
                "a node holds the alpha and beta its parent holds, then its own"
            }
            Mistake::MissingLeafLines => "every node prints its lines, leaves too",
            Mistake::ColumnMajorOrder | Mistake::MoveOrder => {
                "moves are tried row by row, left to right"
            }
            Mistake::LastTiedMove
            | Mistake::BoardAfterPass
            | Mistake::BoardByStaticValue
            | Mistake::FirstMoveBoard
            | Mistake::BestGrandchildBoard
            | Mistake::WrongBoard => "the next board is the root's first child with the best value",
            Mistake::FloatValues | Mistake::InfSpelling => {
                "values are integers, Infinity and -Infinity"
            }
            Mistake::SpacedBoard => "a board row is its 8 cells with nothing between",
            Mistake::MissingHeader => "the log starts with its header line",
            Mistake::MissingBoard => "the file starts with the next board's 8 lines",
            Mistake::LineEnds | Mistake::FinalNewline => {
                "lines are joined by CRLF, with no line end after the last"
            }
            Mistake::ByteOrderMark => "the file starts with its first cell",
            Mistake::TrailingWhitespace => "lines end after their last field",
            Mistake::IllegalMove | Mistake::WrapAround => {
                "a move is legal only where it brackets discs, within the board's edges"
            }
            Mistake::MissingLines => "the log goes on to the root's last line",
            Mistake::ExtraLines => "the log ends with the root's last line",
        }
    }

    /// Where in a program the mistake lives.
    pub const fn stage(self) -> Stage {
        match self {
            Mistake::InputCr
            | Mistake::InputCrPlayer
            | Mistake::InputCrColoursLate
            | Mistake::OneDirectionFlips
            | Mistake::DuplicateMoves
            | Mistake::ChildPerDirection
            | Mistake::SkipsA1
            | Mistake::SkipsColumnA
            | Mistake::ColumnANamedRoot
            | Mistake::Row1NulNames
            | Mistake::MoveOrder
            | Mistake::MisnamedNodes
            | Mistake::IllegalMove
            | Mistake::NoDiagonalFlips
            | Mistake::FlipsAcrossGaps
            | Mistake::WrapAround
            | Mistake::NoCellName
            | Mistake::MissingMove => Stage::Upstream,
            Mistake::LastTiedMove
            | Mistake::BoardAfterPass
            | Mistake::BoardByStaticValue
            | Mistake::FirstMoveBoard
            | Mistake::BestGrandchildBoard
            | Mistake::WrongBoard => Stage::NextBoard,
            Mistake::FloatValues
            | Mistake::InfSpelling
            | Mistake::SpacedBoard
            | Mistake::MissingHeader
            | Mistake::MissingBoard
            | Mistake::LineEnds
            | Mistake::FinalNewline
            | Mistake::ByteOrderMark
            | Mistake::TrailingWhitespace
            | Mistake::MissingLines
            | Mistake::ExtraLines => Stage::Form,
            _ => Stage::Search,
        }
    }

    /// Whether the mistake only rewrites the text of a right file (line ends, number
    /// spellings, the board's and header's presence, node names), leaving the search
    /// and the next board as they are: such mistakes can be seen apart from the others.
    pub const fn rewrites_text_only(self) -> bool {
        matches!(self.stage(), Stage::Form)
            || matches!(
                self,
                Mistake::ColumnANamedRoot | Mistake::Row1NulNames | Mistake::MisnamedNodes
            )
    }

    /// Whether a mistake of the catalogue can change the output of `problem` at all: the end rules
    /// belong to one release each (the pass count and the game over written by hand
    /// stand in for the revised rule, two passes in a row), the search mistakes need a
    /// log, and the pruning mistakes need alpha-beta.
    pub fn applies_to(self, problem: &Problem) -> bool {
        let log = problem.task != Task::Greedy;
        let alpha_beta = problem.task == Task::AlphaBeta;
        match self {
            Mistake::OlderEndRule => problem.dialect == Dialect::S2017 && log,
            Mistake::NewerEndRule | Mistake::FullBoardNotTerminal => {
                problem.dialect != Dialect::S2017 && log
            }
            Mistake::GlobalPassCount | Mistake::HandWrittenGameOver => {
                problem.dialect == Dialect::S2017 && log
            }
            Mistake::StrictPruning
            | Mistake::UpdateBeforeCutoff
            | Mistake::NoPruning
            | Mistake::NoLineAtCutoff
            | Mistake::FailHard => alpha_beta,
            Mistake::InputCr
            | Mistake::InputCrPlayer
            | Mistake::InputCrColoursLate
            | Mistake::OneDirectionFlips
            | Mistake::ChildPerDirection
            | Mistake::SkipsA1
            | Mistake::SkipsColumnA
            | Mistake::ColumnMajorOrder
            | Mistake::WrongRootPlayer
            | Mistake::RootAsMin
            | Mistake::LastTiedMove
            | Mistake::BoardAfterPass
            | Mistake::BoardByStaticValue
            | Mistake::FirstMoveBoard
            | Mistake::SpacedBoard
            | Mistake::MissingBoard
            | Mistake::LineEnds
            | Mistake::FinalNewline => true,
            _ => log,
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Mistake {
    /// As its name (`strict-pruning`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Mistake {
    /// From its name.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Mistake::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("no mistake is named {name:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::Mistake;

    #[test]
    fn every_mistake_is_listed_once_and_read_back_from_its_name() {
        // The enum's variants, as this file declares them.
        let source = include_str!("mistake.rs");
        let body = &source[source.find("pub enum Mistake {").unwrap()..];
        let body = &body[..body.find("\n}\n").unwrap()];
        let declared = body
            .lines()
            .filter(|line| {
                let line = line.trim_end();
                line.starts_with("    ")
                    && line[4..].starts_with(|c: char| c.is_ascii_uppercase())
                    && line.ends_with(',')
            })
            .count();
        let mut positions: Vec<usize> = Mistake::all().map(|m| m as usize).collect();
        positions.sort_unstable();
        assert_eq!(positions, (0..declared).collect::<Vec<_>>());
        for mistake in Mistake::all() {
            let json = serde_json::to_string(&mistake).unwrap();
            assert_eq!(serde_json::from_str::<Mistake>(&json).unwrap(), mistake);
        }
        assert!(serde_json::from_str::<Mistake>("\"no-such-mistake\"").is_err());
    }
}
