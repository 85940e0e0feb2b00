//! The mutant solver's search and its writing of `output.txt`: AIMA's alpha-beta as
//! the handout gives it, with every fault of [`super::Mistake`] an `if` where a program
//! goes wrong.

use super::grid::{Cell, Grid, Move, Rules, EMPTY, NOBODY};
use super::Faults;
use crate::course_search::{LeafRule, INFINITY};
use crate::explain::log::{ALPHA_BETA_HEADER, MINIMAX_HEADER};
use crate::explain::mistake::Mistake;
use crate::format::cs561::{Problem, Task};
use crate::format::{LineEnd, Style};

/// What a node is called in the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Name {
    Root,
    Pass,
    Cell(Cell),
}

/// One line of the log.
#[derive(Clone, Copy, Debug)]
struct Line {
    name: Name,
    depth: u32,
    value: i32,
    alpha: i32,
    beta: i32,
}

/// Passes on the path to a node.
#[derive(Clone, Copy, Debug, Default)]
struct Passes {
    /// Passes right before the node.
    consecutive: u32,
    /// Passes anywhere on the path.
    total: u32,
    /// The node is a pass made after another pass somewhere earlier in the search
    /// (what a global flag that is never reset says).
    after_any_pass: bool,
    /// The node's parent is a pass.
    parent_passed: bool,
}

/// Whose children a node records for the choice of the next board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Record {
    Nothing,
    Root,
    RootPass,
    /// A move of the root: the values its children return are recorded (for
    /// [`Mistake::BestGrandchildBoard`]).
    RootMove,
}

/// A child considered at the root (or below a root pass): its name, the value it
/// returned and its board.
type Child = (Name, i32, Grid);

/// The search stopped: the log reached its line limit, or the watcher said so.
struct Stopped;

/// Sees each log line as it is printed (its index and text, without a line end) and
/// says whether to go on.
pub(super) type Watch<'w> = &'w mut dyn FnMut(usize, &[u8]) -> bool;

struct Searcher<'w> {
    faults: Faults,
    task: Task,
    watch: Option<Watch<'w>>,
    rules: Rules,
    cutoff_depth: u32,
    leaf_rule: LeafRule,
    pruning: bool,
    /// The symbols E counts for and against.
    max_symbol: u8,
    min_symbol: u8,
    lines: Vec<Line>,
    max_lines: usize,
    /// A pass has been made somewhere in the search.
    pass_seen: bool,
    /// The global pass count of [`Mistake::GlobalPassCount`]: raised by every node
    /// that passes, cleared by every node expanded with a legal move.
    pass_count: u32,
    root_children: Vec<Child>,
    pass_children: Vec<Child>,
    /// The greatest value a child of the root move being searched has returned (its
    /// own value when it is a leaf).
    grandchild_best: Option<i32>,
    /// The root's moves, each with the greatest value its children returned.
    root_moves_by_grandchild: Vec<(Option<i32>, Grid)>,
}

impl Searcher<'_> {
    fn print(
        &mut self,
        name: Name,
        depth: u32,
        value: i32,
        alpha: i32,
        beta: i32,
    ) -> Result<(), Stopped> {
        if self.lines.len() >= self.max_lines {
            return Err(Stopped);
        }
        let depth = depth + u32::from(self.faults.has(Mistake::DepthFromOne));
        let line = Line {
            name,
            depth,
            value,
            alpha,
            beta,
        };
        if let Some(watch) = self.watch.as_mut() {
            if !watch(self.lines.len(), &line_text(&line, self.faults, self.task)) {
                return Err(Stopped);
            }
        }
        self.lines.push(line);
        Ok(())
    }

    /// E at a leaf where `max` tells whether MAX is to move, `me` against `them`;
    /// `by_passes` when two passes in a row end the game there.
    fn evaluate(&self, grid: &Grid, max: bool, (me, them): (u8, u8), by_passes: bool) -> i32 {
        let mut value = match (self.faults.has(Mistake::InputCrColoursLate), by_passes) {
            (false, _) => grid.score(self.max_symbol, self.min_symbol),
            // (the side to move there against its opponent)
            (true, true) => grid.score(me, them),
            // (for "X\r", which no disc is: every disc counts against it)
            (true, false) => -grid.score(b'X', NOBODY) - grid.score(b'O', NOBODY),
        };
        if self.faults.has(Mistake::WrongRootPlayer) {
            value = -value;
        }
        if self.faults.has(Mistake::LeavesFromSideToMove) && !max {
            value = -value;
        }
        value
    }

    /// Whether the node is a leaf; `blocked` says its side to move has no legal move.
    #[allow(clippy::too_many_arguments)]
    fn is_leaf(
        &self,
        grid: &Grid,
        name: Name,
        depth: u32,
        passes: Passes,
        blocked: bool,
        me: u8,
        them: u8,
    ) -> bool {
        let printed = depth + u32::from(self.faults.has(Mistake::DepthFromOne));
        let at_cutoff = if self.faults.has(Mistake::ZeroDepthIgnored) && self.cutoff_depth == 0 {
            // (`depth == D` tested on children, whose depths start at 1)
            false
        } else if self.faults.has(Mistake::ExpandsAtCutoffDepth) {
            printed > self.cutoff_depth
        } else {
            printed >= self.cutoff_depth
        };
        if at_cutoff {
            return true;
        }
        let passes_to_end = if self.faults.has(Mistake::GameEndsLate) {
            3
        } else {
            2
        };
        let ended_by_passes = if self.faults.has(Mistake::GlobalPassCount) {
            blocked && self.pass_count >= 2
        } else if self.faults.has(Mistake::StalePassFlag) {
            name == Name::Pass && passes.after_any_pass
        } else {
            match self.leaf_rule {
                LeafRule::PassAfterPass => passes.consecutive >= passes_to_end,
                LeafRule::GameOverOrSecondPass => passes.total >= passes_to_end,
            }
        };
        let full = grid.count(EMPTY) == 0 && !self.faults.has(Mistake::FullBoardNotTerminal);
        let game_over = self.leaf_rule == LeafRule::GameOverOrSecondPass
            && (grid.count(me) == 0 || grid.count(them) == 0 || full);
        let seen_early =
            self.faults.has(Mistake::GameEndsEarly) && passes.consecutive >= 1 && blocked;
        let parent_test =
            self.faults.has(Mistake::PassTestOnParent) && passes.parent_passed && blocked;
        ended_by_passes || game_over || seen_early || parent_test
    }

    /// What [`Mistake::HandWrittenGameOver`] prints below `name`, a node that is no
    /// pass and not a leaf, where neither side can move: the pass child (even at the
    /// cut-off depth) with the second pass written as its only child by hand, then
    /// the pass's line and the node's, both without a cut-off test. The pass's line
    /// updates alpha, as at MAX, when the second pass is at the cut-off depth, and beta,
    /// as at MIN, otherwise, whichever the pass is; the node's line updates its own
    /// bound.
    fn hand_written_game_over(
        &mut self,
        grid: &Grid,
        name: Name,
        depth: u32,
        (max, me, them): (bool, u8, u8),
        (mut alpha, mut beta): (i32, i32),
        record: Record,
    ) -> Result<i32, Stopped> {
        // (the game ends below two passes, the second written by hand)
        let value = self.evaluate(grid, max, (me, them), true);
        let opened = if max { INFINITY } else { -INFINITY };
        self.print(Name::Pass, depth + 1, opened, alpha, beta)?;
        self.print(Name::Pass, depth + 2, value, alpha, beta)?;
        let printed = depth + u32::from(self.faults.has(Mistake::DepthFromOne));
        if printed + 2 == self.cutoff_depth {
            self.print(Name::Pass, depth + 1, value, alpha.max(value), beta)?;
        } else {
            self.print(Name::Pass, depth + 1, value, alpha, beta.min(value))?;
        }
        if record == Record::Root {
            self.root_children.push((Name::Pass, value, *grid));
        }
        if record == Record::RootMove {
            self.grandchild_best = Some(value);
        }
        if max {
            alpha = alpha.max(value);
        } else {
            beta = beta.min(value);
        }
        self.print(name, depth, value, alpha, beta)?;
        Ok(value)
    }

    /// Searches the node `grid` reached as `name`, with `me` to move against `them`;
    /// `max` says whether that is MAX. Returns the value the node hands its parent.
    #[allow(clippy::too_many_arguments)]
    fn visit(
        &mut self,
        grid: &Grid,
        name: Name,
        depth: u32,
        passes: Passes,
        (max, me, them): (bool, u8, u8),
        (mut alpha, mut beta): (i32, i32),
        record: Record,
    ) -> Result<i32, Stopped> {
        let moves = grid.moves(me, them, self.rules);
        let blocked = moves.is_empty();
        let blocked_leaf = blocked && self.faults.has(Mistake::NoPassNode);
        if blocked_leaf || self.is_leaf(grid, name, depth, passes, blocked, me, them) {
            let by_passes = passes.consecutive >= 2;
            let value = self.evaluate(grid, max, (me, them), by_passes);
            self.print(name, depth, value, alpha, beta)?;
            if record == Record::RootMove {
                self.grandchild_best = Some(value);
            }
            return Ok(value);
        }
        if record == Record::RootMove {
            self.grandchild_best = None;
        }
        if self.faults.has(Mistake::GlobalPassCount) {
            self.pass_count = if blocked { self.pass_count + 1 } else { 0 };
        }
        let fail_hard = self.faults.has(Mistake::FailHard);
        let shown = |v: i32, alpha: i32, beta: i32| match (fail_hard, max) {
            (false, _) => v,
            (true, true) => v.max(alpha),
            (true, false) => v.min(beta),
        };
        let mut v = if max { -INFINITY } else { INFINITY };
        self.print(name, depth, shown(v, alpha, beta), alpha, beta)?;

        let hand_written = blocked
            && name != Name::Pass
            && self.faults.has(Mistake::HandWrittenGameOver)
            && grid.moves(them, me, self.rules).is_empty();
        if hand_written {
            return self.hand_written_game_over(
                grid,
                name,
                depth,
                (max, me, them),
                (alpha, beta),
                record,
            );
        }

        let children: Vec<(Name, Grid)> = if blocked {
            vec![(Name::Pass, *grid)]
        } else {
            // (with a child per direction, the program read searches every child of a
            // cell at MIN's nodes with the board of its first direction)
            let shared = self.rules.child_per_direction && !max;
            let mut first: Option<Move> = None;
            moves
                .iter()
                .map(|&the_move| {
                    let played = match first {
                        Some(first) if shared && first.cell == the_move.cell => first,
                        _ => {
                            first = Some(the_move);
                            the_move
                        }
                    };
                    let child = grid.play(played, me, them, self.rules);
                    (Name::Cell(the_move.cell), child)
                })
                .collect()
        };
        for (child_name, child) in children {
            let child_passes = if child_name == Name::Pass {
                let after_any_pass = self.pass_seen;
                self.pass_seen = true;
                Passes {
                    consecutive: passes.consecutive + 1,
                    total: passes.total + 1,
                    after_any_pass,
                    parent_passed: name == Name::Pass,
                }
            } else {
                Passes {
                    consecutive: 0,
                    total: passes.total,
                    after_any_pass: false,
                    parent_passed: name == Name::Pass,
                }
            };
            let child_depth =
                if child_name == Name::Pass && self.faults.has(Mistake::PassCostsNoDepth) {
                    depth
                } else {
                    depth + 1
                };
            let child_record = match (record, child_name) {
                (Record::Root, Name::Pass) => Record::RootPass,
                (Record::Root, Name::Cell(_)) => Record::RootMove,
                _ => Record::Nothing,
            };
            // (a side read as "X\r" has `X` for its opponent, and `X` has `O`)
            let (next, after) = match self.faults.has(Mistake::InputCrColoursLate) {
                true if them == b'X' => (b'X', b'O'),
                true if them == b'O' => (b'O', b'X'),
                _ => (them, me),
            };
            // (the MAX function called for the player who just passed)
            let keeps_side =
                child_name == Name::Pass && !max && self.faults.has(Mistake::MinPassKeepsSide);
            let (next, after) = if keeps_side {
                (me, them)
            } else {
                (next, after)
            };
            let child_value = self.visit(
                &child,
                child_name,
                child_depth,
                child_passes,
                (!max, next, after),
                (alpha, beta),
                child_record,
            )?;
            match record {
                Record::Root => {
                    self.root_children.push((child_name, child_value, child));
                    if child_record == Record::RootMove {
                        self.root_moves_by_grandchild
                            .push((self.grandchild_best, child));
                    }
                }
                Record::RootPass => self.pass_children.push((child_name, child_value, child)),
                Record::RootMove => {
                    let best = self
                        .grandchild_best
                        .map_or(child_value, |b| b.max(child_value));
                    self.grandchild_best = Some(best);
                }
                Record::Nothing => {}
            }
            if (max && child_value > v) || (!max && child_value < v) {
                v = child_value;
            }
            if self.pruning {
                let update_first = self.faults.has(Mistake::UpdateBeforeCutoff);
                let update = |alpha: &mut i32, beta: &mut i32| {
                    if max {
                        *alpha = (*alpha).max(v);
                    } else {
                        *beta = (*beta).min(v);
                    }
                };
                if update_first {
                    update(&mut alpha, &mut beta);
                }
                let strict = self.faults.has(Mistake::StrictPruning);
                let cut = match (max, strict) {
                    (true, false) => v >= beta,
                    (true, true) => v > beta,
                    (false, false) => v <= alpha,
                    (false, true) => v < alpha,
                };
                if cut && !self.faults.has(Mistake::NoPruning) {
                    let value = shown(v, alpha, beta);
                    if !self.faults.has(Mistake::NoLineAtCutoff) {
                        self.print(name, depth, value, alpha, beta)?;
                    }
                    return Ok(value);
                }
                if !update_first {
                    update(&mut alpha, &mut beta);
                }
            }
            self.print(name, depth, shown(v, alpha, beta), alpha, beta)?;
        }
        Ok(shown(v, alpha, beta))
    }
}

/// The first of `children` (cells only) that the program takes as best for a node
/// that maximises when `max`: strictly better than those before it, or as good when
/// `ties_to_last`.
fn best_child(children: &[Child], max: bool, ties_to_last: bool) -> Option<Grid> {
    let mut best: Option<(i32, Grid)> = None;
    for &(name, value, grid) in children {
        let Name::Cell(_) = name else { continue };
        let better = match best {
            None => true,
            Some((best_value, _)) if ties_to_last => {
                if max {
                    value >= best_value
                } else {
                    value <= best_value
                }
            }
            Some((best_value, _)) => {
                if max {
                    value > best_value
                } else {
                    value < best_value
                }
            }
        };
        if better {
            best = Some((value, grid));
        }
    }
    best.map(|(_, grid)| grid)
}

/// See [`super::write`].
pub(super) fn run(
    problem: &Problem,
    style: Style,
    faults: Faults,
    max_lines: usize,
    watch: Option<Watch>,
) -> Option<Vec<u8>> {
    let grid = Grid::from_discs(problem.x_discs, problem.o_discs);
    let (player, opponent) = match problem.player.symbol() {
        b'X' => (b'X', b'O'),
        _ => (b'O', b'X'),
    };
    // A player read as "X\r" owns no cell; its opponent comes out as X either way.
    let reads_cr = faults.has(Mistake::InputCr)
        || faults.has(Mistake::InputCrPlayer)
        || faults.has(Mistake::InputCrColoursLate);
    let (me, them) = if reads_cr {
        (NOBODY, b'X')
    } else {
        (player, opponent)
    };
    let release_rule = problem.dialect.leaf_rule();
    let leaf_rule = match release_rule {
        LeafRule::PassAfterPass if faults.has(Mistake::OlderEndRule) => {
            LeafRule::GameOverOrSecondPass
        }
        LeafRule::GameOverOrSecondPass if faults.has(Mistake::NewerEndRule) => {
            LeafRule::PassAfterPass
        }
        rule => rule,
    };
    let mut searcher = Searcher {
        faults,
        task: problem.task,
        watch,
        rules: Rules {
            column_major: faults.has(Mistake::ColumnMajorOrder),
            move_per_direction: faults.has(Mistake::DuplicateMoves),
            child_per_direction: faults.has(Mistake::ChildPerDirection),
            skip_a1: faults.has(Mistake::SkipsA1),
            skip_column_a: faults.has(Mistake::SkipsColumnA),
            last_direction_only: faults.has(Mistake::OneDirectionFlips),
        },
        cutoff_depth: problem.depth,
        leaf_rule,
        pruning: problem.task != Task::Minimax,
        max_symbol: me,
        min_symbol: them,
        lines: Vec::new(),
        max_lines,
        pass_seen: false,
        pass_count: 0,
        root_children: Vec::new(),
        pass_children: Vec::new(),
        grandchild_best: None,
        root_moves_by_grandchild: Vec::new(),
    };
    let root_max = !faults.has(Mistake::RootAsMin);
    let root_value = searcher
        .visit(
            &grid,
            Name::Root,
            0,
            Passes::default(),
            (root_max, me, them),
            (-INFINITY, INFINITY),
            Record::Root,
        )
        .ok()?;

    let children = &searcher.root_children;
    let root_passes = children
        .first()
        .is_some_and(|&(name, _, _)| name == Name::Pass);
    let next = if faults.has(Mistake::BoardAfterPass) && root_passes {
        best_child(&searcher.pass_children, !root_max, false)
    } else if faults.has(Mistake::BoardByStaticValue) {
        children
            .iter()
            .find(|&&(name, _, child)| {
                matches!(name, Name::Cell(_))
                    && searcher.evaluate(&child, !root_max, (them, me), false) == root_value
            })
            .map(|&(_, _, child)| child)
    } else if faults.has(Mistake::FirstMoveBoard) {
        children
            .iter()
            .find(|&&(name, _, _)| matches!(name, Name::Cell(_)))
            .map(|&(_, _, child)| child)
    } else if faults.has(Mistake::BestGrandchildBoard) {
        // (the first board whose grandchild beats every value before: a strict `<`)
        let mut kept: Option<(i32, Grid)> = None;
        for &(value, child) in &searcher.root_moves_by_grandchild {
            if let Some(value) = value.filter(|&v| kept.is_none_or(|(best, _)| v > best)) {
                kept = Some((value, child));
            }
        }
        kept.map(|(_, child)| child)
    } else {
        best_child(children, root_max, faults.has(Mistake::LastTiedMove))
    };
    Some(render(
        problem,
        style,
        faults,
        &next.unwrap_or(grid),
        &searcher.lines,
    ))
}

/// A name as the program prints it.
fn name_text(name: Name, faults: Faults) -> Vec<u8> {
    match name {
        Name::Root => b"root".to_vec(),
        Name::Pass => b"pass".to_vec(),
        Name::Cell(cell) if cell.col == 0 && faults.has(Mistake::ColumnANamedRoot) => {
            b"root".to_vec()
        }
        Name::Cell(cell) => {
            let digit = if cell.row == 0 && faults.has(Mistake::Row1NulNames) {
                0
            } else {
                b'1' + cell.row as u8
            };
            vec![b'a' + cell.col as u8, digit]
        }
    }
}

/// A value as the program prints it.
fn value_text(value: i32, faults: Faults) -> String {
    let inf = faults.has(Mistake::InfSpelling);
    match value {
        INFINITY if inf => "inf".into(),
        INFINITY => "Infinity".into(),
        v if v == -INFINITY && inf => "-inf".into(),
        v if v == -INFINITY => "-Infinity".into(),
        v if faults.has(Mistake::FloatValues) => format!("{v}.0"),
        v => v.to_string(),
    }
}

/// A log line as the program prints it, without its line end.
fn line_text(line: &Line, faults: Faults, task: Task) -> Vec<u8> {
    let mut text = name_text(line.name, faults);
    text.extend_from_slice(
        format!(",{},{}", line.depth, value_text(line.value, faults)).as_bytes(),
    );
    if task == Task::AlphaBeta {
        let window = format!(
            ",{},{}",
            value_text(line.alpha, faults),
            value_text(line.beta, faults)
        );
        text.extend_from_slice(window.as_bytes());
    }
    text
}

/// The whole file: the next board `next`, the header and the log `lines`.
fn render(problem: &Problem, style: Style, faults: Faults, next: &Grid, lines: &[Line]) -> Vec<u8> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    if !faults.has(Mistake::MissingBoard) {
        for row in &next.cells {
            let mut text = Vec::new();
            for (col, &cell) in row.iter().enumerate() {
                if col > 0 && faults.has(Mistake::SpacedBoard) {
                    text.push(b' ');
                }
                text.push(cell);
            }
            if faults.has(Mistake::InputCr) {
                text.push(b'\r');
            }
            out.push(text);
        }
    }
    let columns = match problem.task {
        Task::Greedy => None,
        Task::Minimax => Some(MINIMAX_HEADER),
        Task::AlphaBeta => Some(ALPHA_BETA_HEADER),
    };
    if let Some(header) = columns {
        if !faults.has(Mistake::MissingHeader) {
            out.push(header.as_bytes().to_vec());
        }
        out.extend(
            lines
                .iter()
                .map(|line| line_text(line, faults, problem.task)),
        );
    }
    let line_end = match (style.line_end, faults.has(Mistake::LineEnds)) {
        (LineEnd::Crlf, false) | (LineEnd::Lf, true) => LineEnd::Crlf,
        _ => LineEnd::Lf,
    };
    let mut bytes = out.join(line_end.bytes());
    if style.final_newline != faults.has(Mistake::FinalNewline) && !out.is_empty() {
        bytes.extend_from_slice(line_end.bytes());
    }
    bytes
}
