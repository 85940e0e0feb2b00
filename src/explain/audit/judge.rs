//! The walk: the student's log read as a tree, node by node, each line judged by
//! the rules (or a [`Reading`] of them) from the student's own state.

use super::Reading;
use crate::board::{Board, Square};
use crate::course_search::INFINITY;
use crate::eval::{Cs561, Evaluation};
use crate::explain::log::{self, Entry, LOG_START};
use crate::explain::mutants::DIRECTIONS;
use crate::explain::replay::{other, square_of};
use crate::format::cs561::{board_lines, Player, Problem, Task};
use crate::format::LineEnd;

/// A node as the student's own lines make it: the board their moves lead to (under
/// the reading's flips), who moves, and the passes on its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The board, from the view of the side to move.
    pub board: Board,
    /// The side to move.
    pub player: Player,
    /// Passes that immediately precede the node (the node itself when it is one).
    pub consecutive_passes: u32,
    /// Passes on the path from the root (the node included).
    pub passes: u32,
    /// Whether the node's parent is a pass.
    pub parent_is_pass: bool,
    /// The side to move is the player read with its CR (`"X\r"`), who owns no disc
    /// and has no move ([`Reading::InputCr`]): the root only.
    pub nobody: bool,
}

/// The rule a line breaks, with what the rule wants there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The log's first line is not `root,0,...`.
    RootLine,
    /// A leaf (at the cut-off depth, or the game over) is expanded: its children follow.
    LeafExpanded {
        /// The node is at the cut-off depth (else the game is over there).
        at_cutoff: bool,
    },
    /// An inner node is printed once, as a leaf.
    InnerAsLeaf {
        /// Its legal moves (none: it passes).
        moves: Vec<String>,
    },
    /// A leaf's value is not E of its board.
    LeafValue {
        /// E of the node's board for the root player.
        want: i32,
    },
    /// An inner node does not open with its infinity.
    OpeningValue {
        /// `-Infinity` at MAX, `Infinity` at MIN.
        want: i32,
    },
    /// A node's alpha and beta are not those it should hold.
    Window {
        /// The alpha and beta it should print.
        want: (i32, i32),
        /// The line is the node's first (it receives them from its parent).
        opening: bool,
        /// The node has just reached its cut-off (they stay unchanged).
        cut: bool,
    },
    /// A child other than the next one the rules give.
    WrongChild {
        /// The next child the rules give.
        want: String,
        /// The node's legal moves, in positional order (empty: it passes).
        moves: Vec<String>,
        /// The children the node has had before it, in order.
        visited: Vec<String>,
    },
    /// The node is left before all its children, without a cut-off.
    ChildMissing {
        /// The next child the rules give.
        want: String,
        /// The node's value and window (no cut-off is due).
        value: i32,
        /// Alpha and beta.
        window: (i32, i32),
        /// The missing child is a leaf.
        leaf: bool,
        /// It is the node's first child: the node printed none.
        first: bool,
    },
    /// Another child after the last one, or after a cut-off.
    ExtraChild {
        /// The node had reached its cut-off.
        after_cut: bool,
        /// The children it had, in order.
        children: Vec<String>,
    },
    /// The node's line after a child is missing (the next line is another node's).
    NoLineAfterChild {
        /// The node had just reached its cut-off.
        cut: bool,
    },
    /// The node's line after a child names another node.
    ClosingName {
        /// The node's own name.
        want: String,
    },
    /// The node's value after a child is not the best so far.
    BackedUpValue {
        /// max (MAX) or min (MIN) of its value before and the child's.
        want: i32,
        /// The node's value before the child.
        before: i32,
        /// The child's value.
        child: i32,
    },
    /// The file ends inside the tree.
    EndsEarly,
    /// Lines after the root's last.
    GoesOn,
    /// The next board is not the root's first best child's.
    NextBoard {
        /// The board the root's children choose (8 rows).
        want: Vec<String>,
        /// The root's child whose board it is; `None`: the input board.
        chosen: Option<String>,
    },
}

/// The first line that breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// The 0-based line of the file.
    pub index: usize,
    /// The node's path, from `root`.
    pub path: Vec<String>,
    /// The node there, as the student's lines make it.
    pub node: Node,
    /// The rule broken.
    pub rule: Rule,
    /// The node's depth.
    pub depth: u32,
}

/// The walk's state.
pub struct Judge<'a> {
    problem: &'a Problem,
    reading: Reading,
    lines: &'a [String],
    entries: Vec<Entry<'a>>,
    values: Vec<Vec<Option<i32>>>,
    next: usize,
    passes_seen: u32,
    /// The pass flags of [`Reading::PassFlagsPerSide`], by depth parity.
    pass_flags: [bool; 2],
    path: Vec<String>,
    root_children: Vec<(String, i32, Board)>,
}

type Judged<T> = Result<T, Box<Break>>;

/// A value as the student wrote it: the course's form, a float or another spelling of
/// infinity (the form is told apart elsewhere).
fn read_value(text: &str) -> Option<i32> {
    log::parse_value(text)
        .or_else(|| log::parse_float_value(text))
        .or_else(|| log::parse_infinity_spelling(text))
}

/// A value as the course prints it.
pub fn shown(value: i32) -> String {
    match value {
        INFINITY => "Infinity".into(),
        v if v == -INFINITY => "-Infinity".into(),
        v => v.to_string(),
    }
}

impl<'a> Judge<'a> {
    /// A judge of the file `lines` under `reading`; `None` when the file has no log
    /// (fewer lines than the board and a header).
    pub fn new(problem: &'a Problem, lines: &'a [String], reading: Reading) -> Option<Judge<'a>> {
        let entries: Vec<Entry> = lines
            .get(LOG_START..)?
            .iter()
            .map(|l| Entry::parse(l))
            .collect();
        let values = entries
            .iter()
            .map(|e| e.values.iter().map(|v| read_value(v)).collect())
            .collect();
        Some(Judge {
            problem,
            reading,
            lines,
            entries,
            values,
            next: 0,
            passes_seen: 0,
            pass_flags: [false; 2],
            path: Vec::new(),
            root_children: Vec::new(),
        })
    }

    /// Judges the whole file: the log, then the next board.
    pub fn run(mut self) -> Judged<()> {
        let root = Node {
            board: self.problem.root(),
            player: self.problem.player,
            consecutive_passes: 0,
            passes: 0,
            parent_is_pass: false,
            nobody: self.reading == Reading::InputCr,
        };
        self.path.push("root".into());
        let first = self.entries.first();
        if first.is_none_or(|e| e.name != "root" || e.depth != Some(0)) {
            return Err(self.broken(0, root, 0, Rule::RootLine));
        }
        self.visit(root, 0, -INFINITY, INFINITY)?;
        if self.next < self.entries.len() {
            return Err(self.broken(self.next, root, 0, Rule::GoesOn));
        }
        self.next_board(root)
    }

    fn broken(&self, entry: usize, node: Node, depth: u32, rule: Rule) -> Box<Break> {
        Box::new(Break {
            index: LOG_START + entry,
            path: self.path.clone(),
            node,
            rule,
            depth,
        })
    }

    fn alpha_beta(&self) -> bool {
        self.problem.task == Task::AlphaBeta
    }

    fn value(&self, entry: usize) -> Option<i32> {
        self.values[entry].first().copied().flatten()
    }

    fn window(&self, entry: usize) -> Option<(i32, i32)> {
        let v = &self.values[entry];
        Some((v.get(1).copied().flatten()?, v.get(2).copied().flatten()?))
    }

    /// E of a node's board for the root player, as the reading counts it.
    fn evaluation(&self, node: Node, depth: u32) -> i32 {
        if self.reading == Reading::InputCr {
            // (for "X\r", who owns nothing; the program's other side, X, counts against)
            let x = if node.player == Player::X {
                node.board.own
            } else {
                node.board.opp
            };
            return Cs561.score(0, x);
        }
        let (max, min) = if node.player == self.problem.player {
            (node.board.own, node.board.opp)
        } else {
            (node.board.opp, node.board.own)
        };
        let e = Cs561.score(max, min);
        match self.reading {
            Reading::OtherPlayersE => -e,
            Reading::SideToMoveE if !log::is_max_depth(depth) => -e,
            _ => e,
        }
    }

    fn cutoff(&self) -> u32 {
        let d = self.problem.depth;
        match self.reading {
            Reading::CutoffOneDeeper => d + 1,
            Reading::CutoffOneEarlier => d.saturating_sub(1),
            _ => d,
        }
    }

    /// Whether the node is a leaf under the reading: the cut-off depth, or the game over.
    fn is_leaf(&self, node: Node, depth: u32) -> bool {
        let rule = match self.reading {
            Reading::OtherEndRule => self.problem.dialect.leaf_rule().other(),
            _ => self.problem.dialect.leaf_rule(),
        };
        let (consecutive, passes) = (node.consecutive_passes, node.passes);
        if rule.is_leaf(self.cutoff(), depth, node.board, consecutive, passes) {
            return true;
        }
        let blocked = self.node_moves(node) == 0;
        match self.reading {
            Reading::GameEndsEarly => node.consecutive_passes >= 1 && blocked,
            Reading::PassTestOnParent => {
                node.parent_is_pass && node.consecutive_passes == 0 && blocked
            }
            Reading::StalePassFlag => node.consecutive_passes >= 1 && self.passes_seen >= 2,
            Reading::PassFlagsPerSide => self.pass_flags == [true; 2],
            _ => false,
        }
    }

    /// One direction of a move on the empty cell (`row`, `col`), as the reading walks
    /// it: whether it makes the move legal, and the cells it turns to the mover.
    fn line(&self, board: Board, (row, col): (i32, i32), (dr, dc): (i32, i32)) -> (bool, u64) {
        let wrap = self.reading == Reading::WrapAround;
        let cell = |r: i32, c: i32| -> Option<u64> {
            if wrap {
                let i = row * 8 + col + (r - row) * 8 + (c - col);
                (0..64).contains(&i).then(|| 1u64 << i)
            } else {
                ((0..8).contains(&r) && (0..8).contains(&c)).then(|| 1u64 << (r * 8 + c))
            }
        };
        let holds = |bit: Option<u64>, set: u64| bit.is_some_and(|b| set & b != 0);
        let (mut r, mut c, mut run) = (row + dr, col + dc, 0u64);
        while holds(cell(r, c), board.opp) {
            run |= cell(r, c).unwrap_or(0);
            r += dr;
            c += dc;
        }
        let bracketed = run != 0 && holds(cell(r, c), board.own);
        let across_gaps = match self.reading {
            Reading::MovesAcrossGaps | Reading::FlipsAcrossGaps => true,
            Reading::MovesAcrossLaterGaps => run.count_ones() >= 2,
            _ => false,
        };
        if bracketed || !across_gaps || run == 0 {
            return (bracketed, if bracketed { run } else { 0 });
        }
        // (a walk that goes on over empty cells, after at least one of the opponent's
        // discs, until it meets the mover's)
        let mut between = run;
        while let Some(bit) = cell(r, c).filter(|&b| board.own & b == 0) {
            between |= bit;
            r += dr;
            c += dc;
        }
        let closed = holds(cell(r, c), board.own);
        match self.reading {
            Reading::MovesAcrossGaps | Reading::MovesAcrossLaterGaps => (closed, 0),
            _ => (false, if closed { between } else { 0 }),
        }
    }

    /// The directions in which the reading walks.
    fn directions(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        DIRECTIONS
            .into_iter()
            .filter(|&(dr, dc)| self.reading != Reading::NoDiagonalFlips || dr == 0 || dc == 0)
    }

    /// How many directions make a move on the empty `square` legal, as the reading
    /// finds moves.
    fn legal_lines(&self, board: Board, square: Square) -> usize {
        if (board.own | board.opp) & square.bit() != 0 {
            return 0;
        }
        let at = (i32::from(square.row()), i32::from(square.col()));
        self.directions()
            .filter(|&d| self.line(board, at, d).0)
            .count()
    }

    /// The legal moves of the side to move, as the reading finds them.
    fn moves(&self, board: Board) -> u64 {
        if matches!(self.reading, Reading::Rules | Reading::AcceptPassAt(_)) {
            return board.moves();
        }
        (0..64u8)
            .map(|i| Square::new(i / 8, i % 8))
            .filter(|&s| self.legal_lines(board, s) > 0)
            .fold(0, |moves, s| moves | s.bit())
    }

    /// The cells a legal move on `square` turns to the mover, as the reading flips.
    fn flips(&self, board: Board, square: Square) -> u64 {
        let at = (i32::from(square.row()), i32::from(square.col()));
        let mut turned = 0;
        for d in self.directions() {
            let (legal, run) = self.line(board, at, d);
            turned = match self.reading {
                Reading::OneDirectionFlips if legal => run,
                _ => turned | run,
            };
        }
        turned
    }

    /// The node after the child `name`, or `None` when the rules give no such child.
    fn child(&self, node: Node, name: &str) -> Option<Node> {
        if node.nobody {
            // (the CR-read player passes; the program's other side, `X`, moves next)
            let board = match self.problem.player {
                Player::X => node.board,
                Player::O => node.board.pass(),
            };
            return (name == "pass").then_some(Node {
                board,
                player: Player::X,
                consecutive_passes: 1,
                passes: 1,
                parent_is_pass: false,
                nobody: false,
            });
        }
        let board = if name == "pass" {
            (self.moves(node.board) == 0).then(|| node.board.pass())?
        } else {
            let square = square_of(name)?;
            if self.moves(node.board) & square.bit() == 0 {
                return None;
            }
            let flips = self.flips(node.board, square);
            Board {
                own: node.board.opp & !flips,
                opp: node.board.own | flips | square.bit(),
            }
        };
        let pass = name == "pass";
        Some(Node {
            board,
            player: other(node.player),
            consecutive_passes: if pass { node.consecutive_passes + 1 } else { 0 },
            passes: node.passes + u32::from(pass),
            parent_is_pass: node.consecutive_passes > 0,
            nobody: false,
        })
    }

    /// The legal moves of the node's side, as the reading finds them.
    fn node_moves(&self, node: Node) -> u64 {
        if node.nobody {
            0
        } else {
            self.moves(node.board)
        }
    }

    /// The children the rules give a node: its legal moves in positional order (each
    /// once per direction under [`Reading::DuplicateMoves`]), or a pass.
    fn children(&self, node: Node) -> Vec<String> {
        let moves = self.node_moves(node);
        if moves == 0 {
            return vec!["pass".into()];
        }
        let mut children = Vec::new();
        for square in (0..64u8).map(|i| Square::new(i / 8, i % 8)) {
            if moves & square.bit() != 0 {
                let times = match self.reading {
                    Reading::DuplicateMoves => self.legal_lines(node.board, square),
                    _ => 1,
                };
                children.extend(std::iter::repeat_n(square.to_string(), times));
            }
        }
        children
    }

    fn depth_at(&self, entry: usize) -> Option<u32> {
        self.entries.get(entry).and_then(|e| e.depth)
    }

    /// Judges the node whose first line is the next one; returns its value.
    fn visit(&mut self, node: Node, depth: u32, alpha: i32, beta: i32) -> Judged<i32> {
        let first = self.next;
        self.next += 1;
        // (a node with a pass right before it is itself a pass)
        if node.consecutive_passes > 0 {
            self.passes_seen += 1;
        }
        let leaf = self.is_leaf(node, depth);
        let max = log::is_max_depth(depth);
        let opening = if max { -INFINITY } else { INFINITY };
        // (a node that opens with its infinity and prints its own line next has
        // children, printed or not)
        let closes_next = self
            .entries
            .get(self.next)
            .is_some_and(|e| e.depth == Some(depth) && e.name == self.entries[first].name);
        // (a node printed as a leaf has no line deeper than itself next: a line two
        // levels deeper is still below it, a child's child printed before the child)
        let printed_leaf = self.depth_at(self.next).is_none_or(|d| d <= depth)
            && !(closes_next && self.value(first) == Some(opening));
        if leaf && !printed_leaf {
            let at_cutoff = depth >= self.cutoff();
            return Err(self.broken(first, node, depth, Rule::LeafExpanded { at_cutoff }));
        }
        if !leaf && printed_leaf {
            let moves = self
                .children(node)
                .into_iter()
                .filter(|c| c != "pass")
                .collect();
            return Err(self.broken(first, node, depth, Rule::InnerAsLeaf { moves }));
        }
        let want = if leaf {
            self.evaluation(node, depth)
        } else {
            opening
        };
        if self.value(first) != Some(want) {
            let rule = match leaf {
                true => Rule::LeafValue { want },
                false => Rule::OpeningValue { want },
            };
            return Err(self.broken(first, node, depth, rule));
        }
        if self.alpha_beta() && self.window(first) != Some((alpha, beta)) {
            let rule = Rule::Window {
                want: (alpha, beta),
                opening: true,
                cut: false,
            };
            return Err(self.broken(first, node, depth, rule));
        }
        if leaf {
            return Ok(want);
        }
        let (mut v, mut a, mut b) = (want, alpha, beta);
        let children = self.children(node);
        if self.reading == Reading::PassFlagsPerSide {
            // (the flag of the children's depth parity: set by a pass, cleared by moves)
            self.pass_flags[(depth as usize + 1) % 2] = children == ["pass"];
        }
        let mut visited: Vec<String> = Vec::new();
        for want_child in &children {
            let at = self.next;
            if self.depth_at(at) != Some(depth + 1) {
                if at >= self.entries.len() {
                    return Err(self.broken(at, node, depth, Rule::EndsEarly));
                }
                let missing = self
                    .child(node, want_child)
                    .expect("a child the rules give");
                let rule = Rule::ChildMissing {
                    want: want_child.clone(),
                    value: v,
                    window: (a, b),
                    leaf: self.is_leaf(missing, depth + 1),
                    first: visited.is_empty(),
                };
                return Err(self.broken(at, node, depth, rule));
            }
            let name = self.entries[at].name;
            // (under `AcceptPassAt`, the student's pass there is searched as made, on
            // the board the rules give, and the judging goes on as for any child)
            let accepted = self.reading == Reading::AcceptPassAt(LOG_START + at) && name == "pass";
            // (under `GameOverAsPass` or `BlockedBeforeCutoff`, a move after which
            // neither side can move is printed as `pass` in its place, a pass chain
            // under it)
            let as_pass = name == "pass"
                && self
                    .entries
                    .get(at + 1)
                    .is_some_and(|e| e.name == "pass" && e.depth.is_some_and(|d| d > depth + 1))
                && self.blocked_as_pass(node, want_child, depth + 1);
            if name != want_child && !accepted && !as_pass {
                let moves = children.iter().filter(|c| *c != "pass").cloned().collect();
                let rule = Rule::WrongChild {
                    want: want_child.clone(),
                    moves,
                    visited: visited.clone(),
                };
                return Err(self.broken(at, node, depth, rule));
            }
            let (cv, child_board, child_name) = if as_pass {
                let board = self
                    .child(node, want_child)
                    .expect("a child the rules give")
                    .board;
                (
                    self.hand_written_chain(at, depth + 1, want_child, v),
                    board,
                    want_child.clone(),
                )
            } else {
                let child = if accepted {
                    Node {
                        board: node.board.pass(),
                        player: other(node.player),
                        consecutive_passes: node.consecutive_passes + 1,
                        passes: node.passes + 1,
                        parent_is_pass: node.consecutive_passes > 0,
                        nobody: false,
                    }
                } else {
                    self.child(node, want_child)
                        .expect("a child the rules give")
                };
                self.path.push(name.to_string());
                let cv = self.visit(child, depth + 1, a, b)?;
                self.path.pop();
                (cv, child.board, name.to_string())
            };
            visited.push(child_name.clone());
            if depth == 0 {
                self.root_children.push((child_name, cv, child_board));
            }
            let closing = self.next;
            if self.depth_at(closing) != Some(depth) {
                if closing >= self.entries.len() {
                    return Err(self.broken(closing, node, depth, Rule::EndsEarly));
                }
                let cut = self.cuts(depth, v.max(cv), v.min(cv), a, b);
                return Err(self.broken(closing, node, depth, Rule::NoLineAfterChild { cut }));
            }
            self.next += 1;
            let own_name = self.path.last().cloned().unwrap_or_default();
            if self.entries[closing].name != own_name {
                let rule = Rule::ClosingName { want: own_name };
                return Err(self.broken(closing, node, depth, rule));
            }
            let before = v;
            v = if max { v.max(cv) } else { v.min(cv) };
            let cut = self.cuts(depth, v, v, a, b);
            let shown_v = match (self.reading, max) {
                (Reading::FailHard, true) if !cut => v.max(a),
                (Reading::FailHard, false) if !cut => v.min(b),
                _ => v,
            };
            if self.value(closing) != Some(shown_v) {
                let rule = Rule::BackedUpValue {
                    want: shown_v,
                    before,
                    child: cv,
                };
                return Err(self.broken(closing, node, depth, rule));
            }
            let update = !cut || matches!(self.reading, Reading::UpdateBeforeCutoff);
            if update {
                if max {
                    a = a.max(v);
                } else {
                    b = b.min(v);
                }
            }
            if self.alpha_beta() && self.window(closing) != Some((a, b)) {
                let rule = Rule::Window {
                    want: (a, b),
                    opening: false,
                    cut,
                };
                return Err(self.broken(closing, node, depth, rule));
            }
            if cut {
                break;
            }
        }
        if self.depth_at(self.next) == Some(depth + 1) {
            let after_cut = visited.len() < children.len();
            let rule = Rule::ExtraChild {
                after_cut,
                children: visited,
            };
            return Err(self.broken(self.next, node, depth, rule));
        }
        Ok(if self.reading == Reading::FailHard {
            self.value(self.next - 1).unwrap_or(v)
        } else {
            v
        })
    }

    /// Whether the reading prints the move `name` of `node`, to a node at `depth`,
    /// as `pass`: neither side can move after it, and it wipes out a colour above the
    /// cut-off depth ([`Reading::GameOverAsPass`]) or is at the cut-off depth
    /// ([`Reading::BlockedBeforeCutoff`]).
    fn blocked_as_pass(&self, node: Node, name: &str, depth: u32) -> bool {
        let Some(child) = (name != "pass").then(|| self.child(node, name)).flatten() else {
            return false;
        };
        let blocked = child.board.moves() == 0 && child.board.pass().moves() == 0;
        let wiped = child.board.own == 0 || child.board.opp == 0;
        blocked
            && match self.reading {
                Reading::GameOverAsPass => wiped && depth < self.cutoff(),
                Reading::BlockedBeforeCutoff => depth >= self.cutoff(),
                _ => false,
            }
    }

    /// Reads the pass chain a program writes by hand for a move printed as `pass` at
    /// entry `at` (depth `depth`): the lines deeper than it, then the move's own line
    /// at its depth if there is one; returns the value of the last (`otherwise` when
    /// it has none).
    fn hand_written_chain(&mut self, at: usize, depth: u32, name: &str, otherwise: i32) -> i32 {
        let mut last = at;
        self.next = at + 1;
        while self.depth_at(self.next).is_some_and(|d| d > depth) {
            last = self.next;
            self.next += 1;
        }
        if self.depth_at(self.next) == Some(depth) && self.entries[self.next].name == name {
            last = self.next;
            self.next += 1;
        }
        self.value(last).unwrap_or(otherwise)
    }

    /// Whether a node at `depth` whose value is now `high` (MAX) or `low` (MIN) with
    /// the window (`a`, `b`) prunes, under the reading.
    fn cuts(&self, depth: u32, high: i32, low: i32, a: i32, b: i32) -> bool {
        if !self.alpha_beta() || self.reading == Reading::NoPruning {
            return false;
        }
        let strict = self.reading == Reading::StrictPruning;
        match (log::is_max_depth(depth), strict) {
            (true, false) => high >= b,
            (true, true) => high > b,
            (false, false) => low <= a,
            (false, true) => low < a,
        }
    }

    /// The next board: the root's first child with the strictly best value, from the
    /// student's own values; the input board when the root passes or is a leaf.
    fn next_board(&self, root: Node) -> Judged<()> {
        let mut best: Option<&(String, i32, Board)> = None;
        for child in self.root_children.iter().filter(|c| c.0 != "pass") {
            if best.is_none_or(|b| child.1 > b.1) {
                best = Some(child);
            }
        }
        let (board, player, chosen) = match best {
            Some((name, _, board)) => (*board, other(root.player), Some(name.clone())),
            None => (root.board, root.player, None),
        };
        let (x, o) = player.x_and_o(board);
        let text = String::from_utf8_lossy(&board_lines(x, o, LineEnd::Lf)).into_owned();
        let want: Vec<String> = text.lines().map(str::to_string).collect();
        match (0..8).find(|&i| self.lines.get(i) != want.get(i)) {
            None => Ok(()),
            Some(i) => Err(Box::new(Break {
                index: i,
                path: vec!["root".into()],
                node: root,
                rule: Rule::NextBoard { want, chosen },
                depth: 0,
            })),
        }
    }
}
