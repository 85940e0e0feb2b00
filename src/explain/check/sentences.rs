//! The catalogue's sentences: what each mistake of the catalogue does at the line
//! where the files part, said of the trees (the reference file, without the mistake,
//! and the student's), with the board where it shows.

use super::next_board::{board_cells, board_difference, FIRST_MOVE_GUESS};
use super::{cutoff_rule, kind, BoardView, Mistake};
use crate::board::{Board, Square};
use crate::explain::log::{self, Entry, LOG_START};
use crate::explain::replay::{grid_pair, square_of, Position};
use crate::format::cs561::{Dialect, Problem};

/// The rules' name for a direction from a cell.
const DIRECTION_NAMES: [(&str, i32, i32); 8] = [
    ("up-left", -1, -1),
    ("up", -1, 0),
    ("up-right", -1, 1),
    ("left", 0, -1),
    ("right", 0, 1),
    ("down-left", 1, -1),
    ("down", 1, 0),
    ("down-right", 1, 1),
];

/// The directions in which the side to move on `board` turns discs by playing
/// `square`.
fn bracketing_directions(board: Board, square: Square) -> Vec<&'static str> {
    let at = |row: i32, col: i32, bits: u64| {
        (0..8).contains(&row) && (0..8).contains(&col) && bits >> (row * 8 + col) & 1 == 1
    };
    let (row, col) = (i32::from(square.row()), i32::from(square.col()));
    DIRECTION_NAMES
        .iter()
        .filter(|&&(_, dr, dc)| {
            let (mut r, mut c, mut run) = (row + dr, col + dc, 0);
            while at(r, c, board.opp) {
                r += dr;
                c += dc;
                run += 1;
            }
            run > 0 && at(r, c, board.own)
        })
        .map(|&(name, ..)| name)
        .collect()
}

/// Where the files part, seen from the reference file (the file without the mistake
/// explained) and the student's.
pub(super) struct Context<'a> {
    problem: &'a Problem,
    root: Position,
    reference: &'a [String],
    actual: &'a [String],
    /// 0-based line.
    at: usize,
    exp: Vec<Entry<'a>>,
    act: Vec<Entry<'a>>,
}

impl<'a> Context<'a> {
    /// The context of line `at` (0-based) of the files.
    pub(super) fn new(
        problem: &'a Problem,
        reference: &'a [String],
        actual: &'a [String],
        at: usize,
    ) -> Self {
        let entries = |lines: &'a [String]| -> Vec<Entry<'a>> {
            lines
                .iter()
                .skip(LOG_START)
                .map(|l| Entry::parse(l))
                .collect()
        };
        Context {
            problem,
            root: Position::root(problem),
            reference,
            actual,
            at,
            exp: entries(reference),
            act: entries(actual),
        }
    }

    /// The log entry index of the line, if it is a log line of the reference.
    fn entry(&self) -> Option<usize> {
        self.at
            .checked_sub(LOG_START)
            .filter(|&j| j < self.exp.len())
    }

    fn path(&self) -> Vec<&'a str> {
        self.entry()
            .map_or_else(Vec::new, |j| log::path_at(&self.exp, j))
    }

    /// The node's path, `root (the next board)` on the board lines.
    pub(super) fn path_text(&self) -> Option<String> {
        if self.at < LOG_START - 1 {
            return Some("root (the next board)".into());
        }
        let path = self.path();
        (!path.is_empty()).then(|| log::path_text(&path))
    }

    /// The reference's entry and the student's at the line.
    fn entries(&self) -> (Option<&Entry<'a>>, Option<&Entry<'a>>) {
        let j = self.at.checked_sub(LOG_START);
        (
            j.and_then(|j| self.exp.get(j)),
            j.and_then(|j| self.act.get(j)),
        )
    }

    /// The board at the node (its parent when the student's line names another
    /// node), as a grid.
    fn node_board(&self) -> Option<BoardView> {
        let path = self.path();
        let (e, a) = self.entries();
        let same = matches!((e, a), (Some(e), Some(a)) if e.name == a.name);
        let shown = if same || path.len() <= 1 {
            &path[..]
        } else {
            &path[..path.len() - 1]
        };
        let position = self.root.at(shown)?;
        Some(BoardView {
            title: format!("the board at {}", log::path_text(shown)),
            grid: position.grid(),
        })
    }

    /// The expected and the student's next board side by side, when both are 8 rows
    /// of 8 cells once spaces and CRs are taken out.
    fn next_boards(&self) -> Option<BoardView> {
        let clean = |lines: &[String]| -> Option<Vec<char>> {
            let rows: Vec<String> = lines
                .get(..8)?
                .iter()
                .map(|l| l.chars().filter(|c| !matches!(c, ' ' | '\r')).collect())
                .collect();
            board_cells(&rows).map(|rows| rows.concat())
        };
        let (expected, yours) = (clean(self.reference)?, clean(self.actual)?);
        Some(BoardView {
            title: "the next board".into(),
            grid: grid_pair("expected", &expected, "yours", &yours)
                .trim_end()
                .to_string(),
        })
    }

    /// The root's board as a grid.
    fn root_board(&self) -> BoardView {
        BoardView {
            title: "the board at root (the input)".into(),
            grid: self.root.grid(),
        }
    }

    fn player(&self) -> char {
        char::from(self.problem.player.symbol())
    }

    fn values(&self) -> (String, String) {
        let (e, a) = self.entries();
        let value = |x: Option<&Entry>| {
            x.and_then(|x| x.values.first().copied())
                .unwrap_or("?")
                .to_string()
        };
        (value(e), value(a))
    }

    fn node_name(&self) -> String {
        self.entries()
            .0
            .map_or_else(|| "the node".into(), |e| e.name.to_string())
    }

    fn parent_text(&self) -> String {
        let path = self.path();
        if path.len() >= 2 {
            log::path_text(&path[..path.len() - 1])
        } else {
            "root".into()
        }
    }

    /// Whether the node at `path` (as [`log::path_text`] writes it) is a MAX node: its
    /// depth, the moves from the root, is even.
    fn is_max_at(&self, path: &str) -> bool {
        log::is_max_depth(path.matches(" > ").count() as u32)
    }

    /// The first move on the way to the line (or the best move, on the board lines)
    /// that turns discs in more than one direction.
    fn multi_direction_move(&self) -> Option<(String, String, Vec<&'static str>)> {
        let path: Vec<&str> = if self.at < LOG_START - 1 {
            let best = root_best(&self.exp)?;
            vec!["root", best]
        } else {
            self.path()
        };
        let mut position = self.root;
        for (i, name) in path.iter().enumerate().skip(1) {
            if let Some(square) = square_of(name) {
                let directions = bracketing_directions(position.board, square);
                if directions.len() > 1 {
                    return Some((name.to_string(), log::path_text(&path[..i]), directions));
                }
            }
            position = position.child(name)?;
        }
        None
    }

    /// What the fault does here, and the board to show.
    pub(super) fn explain(&self, fault: Mistake) -> (String, Option<BoardView>) {
        let (e, a) = self.entries();
        let name = self.node_name();
        let parent = self.parent_text();
        let (ev, av) = self.values();
        let depth = e.and_then(|e| e.depth).unwrap_or(0);
        let cutoff = e.map_or_else(|| "the node reaches its cut-off".into(), cutoff_rule);
        let bound = if e.is_some_and(Entry::is_max) {
            "alpha"
        } else {
            "beta"
        };
        let text = match fault {
            Mistake::InputCr => format!(
                "your program reads input.txt with its line ends: the player line is \
                 \"{}\\r\", which matches no disc, and every board row is 9 characters, the \
                 9th a CR (your board lines end in \\r). So it finds no move for either side \
                 and passes. Strip '\\r' (or all whitespace) from every line you read",
                self.player()
            ),
            Mistake::InputCrPlayer => format!(
                "your program reads the player line with its line end: the player is \
                 \"{}\\r\", which matches no disc, so the root has no move and passes, and \
                 its opponent comes out as X ('O' if p == 'X' else 'X'), which has no move \
                 either with no disc of the player's to turn; the values count X's discs \
                 against the player and O's for nobody. Strip '\\r' (or all whitespace) \
                 from every line you read",
                self.player()
            ),
            Mistake::InputCrColoursLate => format!(
                "your program reads the player line with its line end: the player is \
                 \"{}\\r\", which matches no disc, so the root has no move and passes; \
                 the side after it is X ('O' if p == 'X' else 'X'), then O, and so on{}. \
                 A leaf after two passes in a row is counted for the side to move there, a \
                 leaf at the cut-off depth for \"{}\\r\", against which every disc \
                 counts. Strip '\\r' (or all whitespace) from every line you read",
                self.player(),
                if self.player() == 'X' {
                    " (one ply late: after X's pass O moves)"
                } else {
                    ""
                },
                self.player()
            ),
            Mistake::OneDirectionFlips => match self.multi_direction_move() {
                Some((square, at, directions)) => format!(
                    "{square} at {at} brackets discs in {} directions ({}) and turns them \
                     all; your program turns only one direction's discs (each direction's \
                     flips replace the previous ones instead of adding to them), so the \
                     boards from there on differ",
                    directions.len(),
                    directions.join(", ")
                ),
                None => "a move turns the bracketed discs in all 8 directions; your program \
                         keeps only one direction's flips, so the boards below differ"
                    .into(),
            },
            Mistake::DuplicateMoves => format!(
                "your log visits {} a second time under {parent}: that move brackets discs in \
                 more than one direction, and your program lists it once per direction. A \
                 node has one child per legal move",
                a.map_or("a move", |a| a.name)
            ),
            Mistake::ChildPerDirection => match self.multi_direction_move() {
                Some((square, at, directions)) => format!(
                    "{square} at {at} brackets discs in {} directions ({}): it is one \
                     child, which turns them all. Your program makes one child per \
                     direction (a board for each line walked out from one of your discs), \
                     {}, so {square} is {} children there, the first with fewer discs \
                     turned, and the boards below it differ",
                    directions.len(),
                    directions.join(", "),
                    if self.is_max_at(&at) {
                        "each turning that direction's discs only"
                    } else {
                        "and at this MIN node searches each of them with the first one's \
                         board, which turns one direction's discs only"
                    },
                    directions.len()
                ),
                None => "a move is one child, which turns the bracketed discs in every \
                         direction; your program makes one child per direction, each \
                         turning one line, so the boards below differ"
                    .into(),
            },
            Mistake::SkipsA1 => format!(
                "a1 is a legal move at {parent} and comes first in positional order; your \
                 program never tries a1 (a loop over cells that starts at 1, or stops before \
                 0)"
            ),
            Mistake::SkipsColumnA => format!(
                "{name} is a legal move at {parent}; your program never tries a move in column \
                 a (a column loop that starts at 1)"
            ),
            Mistake::ColumnANamedRoot => format!(
                "{name} is printed as `root`: a node is named by its cell, column letter then \
                 row (a1 to h8), and only the root is `root`"
            ),
            Mistake::Row1NulNames => format!(
                "the name of {name} is written with a NUL byte where the row digit goes: \
                 row 1 is the character '1' (write '0' + row + 1, not row)"
            ),
            Mistake::StrictPruning => format!(
                "{cutoff}, so it prunes: equality prunes too (v >= beta at MAX, v <= alpha at \
                 MIN), printing alpha and beta unchanged. Your program prunes only on a strict \
                 inequality (v > beta, v < alpha), so it updates {bound} and goes on"
            ),
            Mistake::UpdateBeforeCutoff => format!(
                "{cutoff}, so it prunes: it prints its value with alpha and beta UNCHANGED and \
                 returns; your line updates {bound} before the test, as the handout's example \
                 wrongly shows"
            ),
            Mistake::NoPruning => format!(
                "{cutoff}, so it prunes and returns at once; your program never prunes: it \
                 updates {bound} and visits every child (minimax with alpha and beta printed)"
            ),
            Mistake::NoLineAtCutoff => format!(
                "the line after {name}'s cut-off is missing: {cutoff}, so it prunes, and it \
                 still prints its value with alpha and beta unchanged before it returns; your \
                 program returns without printing that line"
            ),
            Mistake::FailHard => format!(
                "{name} ({}) prints v, the best value of its children so far (-Infinity at \
                 MAX and Infinity at MIN before the first child); alpha and beta have their \
                 own columns. Your program prints max(alpha, v) at MAX and min(beta, v) at \
                 MIN (fail-hard): expected value {ev}, found {av}",
                e.map_or("?", kind)
            ),
            Mistake::NoPassNode => format!(
                "the side to move at {} has no legal move, so it gets exactly one child, \
                 `pass` (same board, other player, one ply deeper); only a pass that follows \
                 a pass ends the game. Your program makes it a leaf instead",
                if name == "pass" {
                    parent.clone()
                } else {
                    log::path_text(&self.path())
                }
            ),
            Mistake::PassCostsNoDepth => format!(
                "a pass uses up a ply like a move: a pass is one deeper than its parent and \
                 the cut-off depth counts it; your program gives the pass its parent's depth \
                 and so searches one ply deeper below it (expected {}, found {})",
                e.map_or(String::new(), |e| format!("{},{}", e.name, show(e.depth))),
                a.map_or(String::new(), |a| format!("{},{}", a.name, show(a.depth)))
            ),
            Mistake::GameEndsLate => format!(
                "{}; your program goes on with a third pass",
                self.end_rule_text()
            ),
            Mistake::GameEndsEarly => format!(
                "a node reached by a pass whose side to move cannot move either still gets \
                 its own `pass` child; {}. Your program ends the game one node early, \
                 without the second pass",
                self.end_rule_text()
            ),
            Mistake::OlderEndRule => "this case follows the revised Spring 2017 rule: only two \
                 passes in a row end the game, and full boards, a colour with no discs and \
                 passes that are not consecutive lead to `pass` nodes like any blocked side. \
                 Your program applies the first samples' rule (a full board, a colour gone or \
                 a second pass anywhere on the path ends the game)"
                .into(),
            Mistake::NewerEndRule => format!(
                "this case follows the {} rule: the game also ends on a full board, when one \
                 colour has no discs, or at the second pass on the path. Your file goes on \
                 past a node where that rule ends the game, as a program with the revised \
                 Spring 2017 rule (only two passes in a row end the game) does",
                self.older_rule_release()
            ),
            Mistake::FullBoardNotTerminal => {
                let full = self
                    .root
                    .at(&self.path())
                    .is_some_and(|p| p.board.own | p.board.opp == u64::MAX);
                let release = self.older_rule_release();
                let here = if full {
                    format!(
                        "the board at {name} is full, so under the {release} rule the game is \
                         over there: {name} is a leaf, printed once with E(s). "
                    )
                } else {
                    format!(
                        "under the {release} rule a full board ends the game: it is a leaf, \
                         printed once with E(s). "
                    )
                };
                format!(
                    "{here}Your file goes on below a full board, as a program does whose \
                     end-of-game test has the other parts of that rule (one colour with no \
                     discs, a second pass on the path) but not the full board"
                )
            }
            Mistake::PassTestOnParent => format!(
                "{name} was reached by a move, not a pass, so it does not end the game: its \
                 side has no legal move and it gets exactly one child, `pass`. Your program \
                 makes it a leaf because its parent is a pass: the end-of-game test reads \
                 the parent's name instead of the node's own"
            ),
            Mistake::StalePassFlag => format!(
                "{name} follows a move, not a pass, so it does not end the game; your program \
                 makes a pass a leaf as if it followed another pass: a \"passed\" flag set by \
                 an earlier pass elsewhere in the tree is never reset when the search backs \
                 up. Keep the pass state per node (a parameter), not in a global"
            ),
            Mistake::MinPassKeepsSide => {
                let path = self.path();
                // (the last pass on the path, made at a MIN node: an odd depth)
                let pass = path
                    .iter()
                    .rposition(|&n| n == "pass")
                    .filter(|&i| i.is_multiple_of(2));
                let at_pass = pass.and_then(|i| self.root.at(&path[..=i]));
                match (pass, at_pass) {
                    (Some(i), Some(position)) => {
                        let mover = char::from(position.player.symbol());
                        let passer = if mover == 'X' { 'O' } else { 'X' };
                        format!(
                            "{passer} has no legal move at {}, a MIN node, so it passes and \
                             {mover} moves next, below {}. Your file has {passer}, who just \
                             passed, look for moves again there, as a program does whose MIN \
                             pass calls the MAX function with the same player instead of the \
                             opponent",
                            log::path_text(&path[..i]),
                            log::path_text(&path[..=i])
                        )
                    }
                    _ => "after a pass the other player moves; your file has the side that \
                          passed at a MIN node look for moves again, as a program does whose \
                          MIN pass calls the MAX function with the same player"
                        .into(),
                }
            }
            Mistake::GlobalPassCount => format!(
                "the side to move at {} has no legal move and the node is not reached by \
                 two passes in a row, so the game goes on: it gets exactly one child, \
                 `pass`. Your program makes it a leaf: it counts passes in one global \
                 variable that only a node with a legal move clears and that backing up \
                 never lowers, so a pass made in a branch searched before it, not on its \
                 path, still counts. Keep the pass count per node (a parameter)",
                log::path_text(&self.path())
            ),
            Mistake::HandWrittenGameOver => self.game_over_text(),
            Mistake::ExpandsAtCutoffDepth => format!(
                "{name} is at depth {depth}, the cut-off depth D, so it is a leaf printed once \
                 with E(s); your program expands it: its leaf test is depth > D instead of \
                 depth == D"
            ),
            Mistake::ZeroDepthIgnored => "the cut-off depth D is 0, so the root is a leaf: \
                 it prints its E(s) once, and the next board is the input board unchanged. \
                 Your file searches the root's moves to the end of the game, as a program does \
                 whose cut-off test compares a child's depth with D for equality (depth == D), \
                 which no child (depth 1 and more) meets when D is 0"
                .into(),
            Mistake::DepthFromOne => "the root is at depth 0 and its children at depth 1; your \
                 depths count the root as 1, so every depth is one more and the search stops \
                 one ply early"
                .into(),
            Mistake::WrongRootPlayer => format!(
                "E(s) is counted for the player named on the input, {}, who is MAX (X or O \
                 alike); your values are counted for the other player: expected {ev}, found \
                 {av}",
                self.player()
            ),
            Mistake::RootAsMin => format!(
                "the root is a MAX node (the player named on the input, {}, moves and is \
                 MAX): it starts at -Infinity and takes the largest value; your root is \
                 searched as MIN",
                self.player()
            ),
            Mistake::LeavesFromSideToMove => format!(
                "a leaf's value is E(s) for the root player at every leaf, where MIN is to \
                 move too; your program counts it for the side to move at the leaf, which \
                 negates it at MIN's leaves: expected {ev}, found {av}"
            ),
            Mistake::ColumnMajorOrder => "children come in positional order, upper rows first \
                 and left first within a row (a1, b1, ..., h1, a2, ...); your program takes \
                 the moves column by column (a1, a2, ..., a8, b1, ...)"
                .into(),
            Mistake::LastTiedMove
            | Mistake::BoardAfterPass
            | Mistake::BoardByStaticValue
            | Mistake::FirstMoveBoard
            | Mistake::BestGrandchildBoard => self.board_text(fault),
            Mistake::FloatValues => "values are whole numbers or Infinity/-Infinity: print `0`, \
                 not `0.0` (the handout's `c5,2,0.0` is a typo)"
                .into(),
            Mistake::InfSpelling => "infinities print as the words `Infinity` and \
                 `-Infinity`; your file prints `inf` and `-inf` (Python's str of \
                 float('inf'))"
                .into(),
            Mistake::SpacedBoard => "a board row is its 8 cells with nothing between them \
                 (`***XX***`); your rows put spaces between the cells"
                .into(),
            Mistake::MissingHeader => format!(
                "the 9th line is the log's header, exactly `{}`; your file goes from the \
                 board straight to the log",
                self.reference.get(LOG_START - 1).map_or("", String::as_str)
            ),
            Mistake::MissingBoard => "the file starts with the next board's 8 lines, then the \
                 log's header; your file starts with the header"
                .into(),
            Mistake::LineEnds | Mistake::FinalNewline => "the lines are joined by CRLF with no \
                 line end after the last one"
                .into(),
            Mistake::ByteOrderMark
            | Mistake::TrailingWhitespace
            | Mistake::ExtraPass
            | Mistake::PrunedTooEarly
            | Mistake::PrunedTooLate
            | Mistake::CutoffDepth
            | Mistake::MoveOrder
            | Mistake::MisnamedNodes
            | Mistake::WrongBoard
            | Mistake::IllegalMove
            | Mistake::MissingLines
            | Mistake::NoDiagonalFlips
            | Mistake::FlipsAcrossGaps
            | Mistake::WrapAround
            | Mistake::WrongLeafValue
            | Mistake::WrongOpeningValue
            | Mistake::WrongWindow
            | Mistake::WrongBackedUpValue
            | Mistake::LastChildValue
            | Mistake::MissingMove
            | Mistake::MissingLeafLines
            | Mistake::MisplacedLeaf
            | Mistake::PassFlagsPerSide
            | Mistake::GameOverAsPass
            | Mistake::BlockedBeforeCutoff
            | Mistake::NoCellName
            // (the catalogue finds only the mistakes it simulates)
            | Mistake::ExtraLines => fault.label().into(),
        };
        let board = match fault {
            Mistake::InputCr | Mistake::OlderEndRule | Mistake::NewerEndRule
                if self.at < LOG_START - 1 =>
            {
                Some(self.root_board())
            }
            Mistake::MissingBoard | Mistake::MissingHeader | Mistake::DepthFromOne => None,
            Mistake::SpacedBoard | Mistake::InfSpelling | Mistake::FloatValues => None,
            _ if self.at < LOG_START - 1 => self.next_boards(),
            _ => self.node_board(),
        };
        (text, board)
    }

    /// [`Mistake::HandWrittenGameOver`] where the game ends: the node where neither
    /// side can move is the difference's node, or its parent when that is the pass.
    fn game_over_text(&self) -> String {
        let path = self.path();
        let (node, pass_depth) = match self.entries().0 {
            Some(e) if e.name == "pass" && path.len() > 1 => (&path[..path.len() - 1], e.depth),
            Some(e) => (&path[..], e.depth.map(|d| d + 1)),
            None => (&path[..], None),
        };
        let pass = if pass_depth == Some(self.problem.depth) {
            "a leaf at the cut-off depth, printed once with E(s)"
        } else {
            "whose only child, the second pass, is a leaf printed once with E(s)"
        };
        format!(
            "neither side can move at {}, so the game is over: it gets one child, `pass`, \
             {pass}. Each of them prints its line after its child returns with the cut-off \
             test of its kind: a MAX node prunes on v >= beta, else sets alpha to max(alpha, \
             v); a MIN node prunes on v <= alpha, else sets beta to min(beta, v). Your \
             program writes the end of the game by hand: the pass, and below it a second \
             pass even when the pass is at the cut-off depth, then the pass's line with \
             alpha updated when that second pass is at the cut-off depth and beta updated \
             otherwise, whether the pass is MAX or MIN, and the node's line with its bound \
             updated, neither tested for a cut-off",
            log::path_text(node)
        )
    }

    /// The release whose end-of-game rule (a full board, a colour gone or a second
    /// pass on the path) this case follows.
    fn older_rule_release(&self) -> &'static str {
        if self.problem.dialect == Dialect::F2014 {
            "Fall 2014"
        } else {
            "first Spring 2017 samples'"
        }
    }

    fn end_rule_text(&self) -> String {
        if self.problem.dialect.leaf_rule() == crate::course_search::LeafRule::PassAfterPass {
            "only two passes in a row end the game: the second pass is a leaf, printed once \
             with E(s)"
                .into()
        } else {
            "the second pass on the path ends the game: it is a leaf, printed once with E(s)".into()
        }
    }

    fn board_text(&self, fault: Mistake) -> String {
        let plain = board_difference(self.reference, self.actual).explanation;
        let first = match fault {
            Mistake::LastTiedMove => return plain,
            Mistake::BoardAfterPass => "your board is not the input board but a position from \
                 below the pass, after the opponent's best reply, as if the root had moved"
                .to_string(),
            Mistake::BoardByStaticValue => "the next board follows the root's first child with \
                 the best value backed up by the search; your program picks the child whose \
                 own static value E(s) equals the root's value"
                .to_string(),
            Mistake::BestGrandchildBoard => {
                let maxima = grandchild_maxima(&self.exp);
                let greatest = maxima.iter().filter_map(|&(_, v)| v).max();
                let kept = maxima
                    .iter()
                    .find(|&&(_, v)| v.is_some() && v == greatest)
                    .map(|&(name, _)| name);
                let which = match (kept, greatest) {
                    (Some(kept), Some(greatest)) => format!(
                        "; here the greatest value a grandchild of the root returns is \
                         {greatest}, first under {kept}, so that program writes the board \
                         after {kept}"
                    ),
                    _ => String::new(),
                };
                format!(
                    "the next board follows the root's first child with the best value, the \
                     value that child backs up (at MIN, the least of its children's). A \
                     program that records the board at depth 1, keeping it whenever one of \
                     its children returns a value greater than any returned before, keeps \
                     the move with the single greatest grandchild value instead{which}"
                )
            }
            _ => "the next board follows the root's first child with the best value; your \
                  board is the one after the root's first move: the board saved for the \
                  first move is never replaced by a better one"
                .to_string(),
        };
        // (the plain reading's guess at the first move's board is not this fault's)
        let plain = match fault {
            Mistake::BestGrandchildBoard => plain.replace(FIRST_MOVE_GUESS, ""),
            _ => plain,
        };
        format!("{first}. {}", capitalized(&plain))
    }
}

/// `text` with its first letter in capitals, unless it starts with a node's name
/// (`d3`, `pass`, `root`).
pub(super) fn capitalized(text: &str) -> String {
    let first_word = text.split([' ', ',', ':']).next().unwrap_or("");
    if square_of(first_word).is_some() || matches!(first_word, "pass" | "root") {
        return text.to_string();
    }
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A depth as printed, `?` when unreadable.
fn show(depth: Option<u32>) -> String {
    depth.map_or("?".into(), |d| d.to_string())
}

/// The root's moves in a log, each with the greatest value one of its children
/// returns to it (a child's last line is followed by its parent's), or its own value
/// when it is a leaf.
fn grandchild_maxima<'a>(entries: &[Entry<'a>]) -> Vec<(&'a str, Option<i32>)> {
    let mut maxima: Vec<(&'a str, Option<i32>)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let next_depth = entries.get(i + 1).and_then(|n| n.depth);
        let value = entry.value();
        match entry.depth {
            Some(1) if log::is_first_print(entries, i) && entry.name != "pass" => {
                let leaf = next_depth == Some(0);
                maxima.push((entry.name, if leaf { value } else { None }));
            }
            Some(2) if next_depth == Some(1) => {
                if let Some((_, best)) = maxima.last_mut() {
                    *best = match (*best, value) {
                        (Some(b), Some(v)) => Some(b.max(v)),
                        (b, v) => b.or(v),
                    };
                }
            }
            _ => {}
        }
    }
    maxima
}

/// The root's first child with the root's final value, from a log: the child's
/// value is its last line before the root prints again.
fn root_best<'a>(entries: &[Entry<'a>]) -> Option<&'a str> {
    let root_value = entries.last()?.value();
    let mut child = None;
    for (i, entry) in entries.iter().enumerate() {
        if entry.depth != Some(1) {
            continue;
        }
        if log::is_first_print(entries, i) {
            child = Some(entry.name);
        }
        let returns = entries.get(i + 1).is_some_and(|n| n.depth == Some(0));
        if returns && entry.value() == root_value {
            return child;
        }
    }
    None
}
