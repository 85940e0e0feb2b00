//! `gen`: new cases from random legal playouts, reproducible from a seed.
//!
//! The random numbers come from [`crate::splitmix`], so that a seed gives the same
//! cases on every machine and with every version of every crate.

use std::fmt;

use clap::ValueEnum;
use thiserror::Error;

use crate::board::{Board, Geometry, Square, Squares};
use crate::course_search::{search, NodeName, Trace};
use crate::eval::Cs561;
use crate::explain::catching::{self, caught_by, Matrix};
use crate::explain::mutants::Faults;
use crate::explain::replay::other;
use crate::format::cs561::{input_file, search_params, Dialect, Player, Problem, Task};
use crate::format::Style;
use crate::grading::batch::{solve_bytes, ArgsSyntax, CaseOptions};
use crate::splitmix::SplitMix64;

/// The kinds of position a case can test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum Category {
    /// 0-8 plies from the start, depth 1-4.
    Opening,
    /// 16-40 plies from the start, depth 2-4.
    Midgame,
    /// 44-56 plies from the start, depth 2-5.
    Endgame,
    /// The player to move has no legal move, the opponent has: the root's only child
    /// is `pass`.
    RootMustPass,
    /// Neither player can move: the game is over at the root.
    GameOverAtRoot,
    /// The tree holds two passes in a row (the game ends inside the tree).
    PassChain,
    /// O is to move (and so O is MAX).
    OToMove,
    /// Cut-off depth 0: the root is the only node.
    #[value(name = "depth-0")]
    Depth0,
    /// Two or more of the root's moves tie for the best value: the next board is
    /// the first of them (catches the last-tied-move bug).
    Tie,
    /// A node's value reaches its cut-off with equality (v = beta at MAX, v = alpha
    /// at MIN) somewhere in the tree: equality prunes (catches strict pruning).
    EqualCutoff,
}

impl fmt::Display for Category {
    /// The name used on the command line and in folder names (`root-must-pass`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.to_possible_value().expect("no category is skipped");
        f.write_str(value.get_name())
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// How many cases.
    pub count: usize,
    /// The seed: the same seed and options give the same bytes.
    pub seed: u64,
    /// The categories, taken in turn; empty means all of them, in declaration order.
    pub categories: Vec<Category>,
    /// The dialect of the inputs.
    pub dialect: Dialect,
    /// The byte form of inputs and outputs.
    pub style: Style,
    /// The most log lines a case may have.
    pub max_lines: u64,
    /// What the cases ask for: alpha-beta, or (f2014 only) minimax, task 2.
    pub task: Task,
    /// A fixed cut-off depth for every case, instead of the category's range.
    pub depth: Option<u32>,
}

/// A generated case, ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedCase {
    /// The folder name: number and category, `007-pass-chain`.
    pub name: String,
    /// The category.
    pub category: Category,
    /// The player to move.
    pub player: Player,
    /// The cut-off depth.
    pub depth: u32,
    /// Lines of the traverse log.
    pub log_lines: u64,
    /// The problem the input states.
    pub problem: Problem,
    /// `input.txt`.
    pub input: Vec<u8>,
    /// `output.txt`, as our solver writes it.
    pub output: Vec<u8>,
    /// The `args` file's text, empty when the defaults do.
    pub args: String,
}

/// Why no case could be made.
#[derive(Debug, Error)]
pub enum GenError {
    /// A task other than alpha-beta outside f2014, or greedy (it has no log).
    #[error(
        "only f2014 has tasks: --task minimax needs --dialect f2014 (greedy is not generated)"
    )]
    Task,
    /// `--depth` other than 0 with the `depth-0` category.
    #[error("the depth-0 category fixes the cut-off depth at 0; --depth {depth} contradicts it")]
    Depth0WithDepth {
        /// The depth asked for.
        depth: u32,
    },
    /// `equal-cutoff` asked of minimax, which never prunes.
    #[error("the equal-cutoff category needs alpha-beta: minimax (task 2) never prunes")]
    EqualCutoffWithoutPruning,
    /// No position of the category fitted the line limit in many tries.
    #[error(
        "no {category} position with a log of at most {max_lines} lines found in \
         {ATTEMPTS} playouts; raise --max-lines"
    )]
    NotFound {
        /// The category.
        category: Category,
        /// The limit in force.
        max_lines: u64,
    },
}

/// Playouts tried for one case before giving up.
const ATTEMPTS: usize = 20_000;

/// A game in progress: the board from the mover's view, and who moves.
#[derive(Clone, Copy, Debug)]
struct Game {
    board: Board,
    to_move: Player,
}

impl Game {
    fn start() -> Game {
        Game {
            board: Geometry::STANDARD.start(),
            to_move: Player::X,
        }
    }

    fn over(self) -> bool {
        self.board.moves() == 0 && self.board.pass().moves() == 0
    }

    fn must_pass(self) -> bool {
        self.board.moves() == 0 && self.board.pass().moves() != 0
    }

    /// One random legal move, or a pass; `false` when the game is over.
    fn step(&mut self, rng: &mut SplitMix64) -> bool {
        let moves = self.board.moves();
        if moves == 0 {
            if self.board.pass().moves() == 0 {
                return false;
            }
            self.board = self.board.pass();
        } else {
            let pick = rng.range(0, moves.count_ones() - 1) as usize;
            let square: Square = Squares(moves).nth(pick).expect("pick below the count");
            self.board = self.board.play(square);
        }
        self.to_move = other(self.to_move);
        true
    }

    /// Plays `plies` random plies, or until the game ends.
    fn play(&mut self, plies: u32, rng: &mut SplitMix64) {
        for _ in 0..plies {
            if !self.step(rng) {
                return;
            }
        }
    }
}

/// The lines of a log, kept to tell what a case tests.
#[derive(Default)]
struct Shape {
    lines: Vec<(NodeName, u32, i32, i32, i32)>,
}

impl Trace for Shape {
    fn node(&mut self, name: NodeName, depth: u32, value: i32, alpha: i32, beta: i32) {
        self.lines.push((name, depth, value, alpha, beta));
    }
}

impl Shape {
    /// Two passes in a row somewhere in the tree.
    fn pass_after_pass(&self) -> bool {
        self.lines.windows(2).any(|w| {
            let ((first, d1, ..), (second, d2, ..)) = (w[0], w[1]);
            first == NodeName::Pass && second == NodeName::Pass && d2 == d1 + 1
        })
    }

    /// Two or more root moves returned the root's final value.
    fn root_tie(&self) -> bool {
        let Some(&(_, 0, root_value, ..)) = self.lines.last() else {
            return false;
        };
        // A child's value is its last line before the root prints again.
        let returned = self.lines.windows(2).filter(|w| {
            let ((name, depth, value, ..), (_, next_depth, ..)) = (w[0], w[1]);
            depth == 1 && next_depth == 0 && value == root_value && name != NodeName::Pass
        });
        returned.count() >= 2
    }

    /// An inner node printed, after a child, with its value equal to the bound it
    /// prunes on: a cut-off by equality.
    fn equal_cutoff(&self) -> bool {
        self.lines.windows(2).any(|w| {
            let ((_, child_depth, ..), (_, depth, value, alpha, beta)) = (w[0], w[1]);
            let bound = if depth % 2 == 0 { beta } else { alpha };
            child_depth == depth + 1 && value == bound
        })
    }
}

/// A position of `category`, and the depths to try from the deepest down.
fn position(category: Category, rng: &mut SplitMix64) -> Option<(Game, u32, u32)> {
    let mut game = Game::start();
    let playable = |game: Game| game.board.moves() != 0;
    match category {
        Category::Opening => {
            game.play(rng.range(0, 8), rng);
            Some((game, 1, rng.range(1, 4))).filter(|_| playable(game))
        }
        Category::Midgame => {
            game.play(rng.range(16, 40), rng);
            Some((game, 2, rng.range(2, 4))).filter(|_| playable(game))
        }
        Category::Endgame => {
            game.play(rng.range(44, 56), rng);
            Some((game, 2, rng.range(2, 5))).filter(|_| playable(game))
        }
        Category::RootMustPass => {
            game.play(rng.range(20, 50), rng);
            while !game.must_pass() {
                if !game.step(rng) {
                    return None;
                }
            }
            Some((game, 1, rng.range(2, 4)))
        }
        Category::GameOverAtRoot => {
            while game.step(rng) {}
            Some((game, 1, rng.range(1, 3)))
        }
        Category::PassChain => {
            game.play(rng.range(46, 58), rng);
            Some((game, 2, rng.range(3, 5))).filter(|_| !game.over())
        }
        Category::OToMove => {
            game.play(rng.range(3, 40), rng);
            while game.to_move != Player::O || !playable(game) {
                if !game.step(rng) {
                    return None;
                }
            }
            Some((game, 1, rng.range(1, 4)))
        }
        Category::Depth0 => {
            game.play(rng.range(0, 50), rng);
            Some((game, 0, 0))
        }
        Category::Tie | Category::EqualCutoff => {
            game.play(rng.range(4, 50), rng);
            Some((game, 1, rng.range(2, 4))).filter(|_| playable(game))
        }
    }
}

/// The problem of solving `game` to `depth` in `dialect`.
fn problem(game: Game, depth: u32, dialect: Dialect, task: Task) -> Problem {
    let (x_discs, o_discs) = match game.to_move {
        Player::X => (game.board.own, game.board.opp),
        Player::O => (game.board.opp, game.board.own),
    };
    Problem {
        dialect,
        task,
        player: game.to_move,
        depth,
        x_discs,
        o_discs,
    }
}

/// Makes the `index`-th case of a run: a problem of its category whose log fits.
fn one_case(
    index: usize,
    category: Category,
    options: &GenOptions,
) -> Result<(Problem, u64), GenError> {
    let mut rng =
        SplitMix64::new(options.seed ^ (index as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
    for _ in 0..ATTEMPTS {
        let Some((game, lowest, highest)) = position(category, &mut rng) else {
            continue;
        };
        let (lowest, highest) = options.depth.map_or((lowest, highest), |d| (d, d));
        for depth in (lowest..=highest).rev() {
            let problem = problem(game, depth, options.dialect, options.task);
            let mut shape = Shape::default();
            search(problem.root(), search_params(&problem), &Cs561, &mut shape);
            let lines = shape.lines.len() as u64;
            let promised = match category {
                Category::PassChain => shape.pass_after_pass(),
                Category::Tie => shape.root_tie(),
                Category::EqualCutoff => shape.equal_cutoff(),
                _ => true,
            };
            if lines <= options.max_lines && promised {
                return Ok((problem, lines));
            }
        }
    }
    Err(GenError::NotFound {
        category,
        max_lines: options.max_lines,
    })
}

/// Generates `options.count` cases; `syntax` writes their `args` files.
pub fn generate(
    options: &GenOptions,
    syntax: &dyn ArgsSyntax,
) -> Result<Vec<GeneratedCase>, GenError> {
    let task_fits = match options.task {
        Task::AlphaBeta => true,
        Task::Minimax => options.dialect == Dialect::F2014,
        Task::Greedy => false,
    };
    if !task_fits {
        return Err(GenError::Task);
    }
    if let Some(depth) = options.depth.filter(|&d| d != 0) {
        if options.categories.contains(&Category::Depth0) {
            return Err(GenError::Depth0WithDepth { depth });
        }
    }
    let minimax = options.task == Task::Minimax;
    if minimax && options.categories.contains(&Category::EqualCutoff) {
        return Err(GenError::EqualCutoffWithoutPruning);
    }
    // With a fixed depth other than 0, `depth-0` is not among the defaults; under
    // minimax, `equal-cutoff` is not.
    let categories: Vec<Category> = if options.categories.is_empty() {
        Category::value_variants()
            .iter()
            .copied()
            .filter(|&c| c != Category::Depth0 || options.depth.unwrap_or(0) == 0)
            .filter(|&c| c != Category::EqualCutoff || !minimax)
            .collect()
    } else {
        options.categories.clone()
    };
    let digits = options.count.to_string().len().max(3);
    let case_options = CaseOptions {
        dialect: (options.dialect == Dialect::S2017Jan).then_some(Dialect::S2017Jan),
        style: options.style,
    };
    (0..options.count)
        .map(|index| {
            let category = categories[index % categories.len()];
            let (problem, log_lines) = one_case(index, category, options)?;
            let input = input_file(&problem, options.style);
            let output = solve_bytes(&input, case_options)
                .expect("a generated input is valid: it is written by input_file");
            Ok(GeneratedCase {
                name: format!("{:0digits$}-{category}", index + 1),
                category,
                player: problem.player,
                depth: problem.depth,
                log_lines,
                problem,
                input,
                output,
                args: syntax.render(&case_options),
            })
        })
        .collect()
}

/// Cases chosen to catch every fault of the catalogue, and which catches which.
#[derive(Clone, Debug)]
pub struct CatchingSet {
    /// The chosen cases, renumbered in the order chosen.
    pub cases: Vec<GeneratedCase>,
    /// Which faults each chosen case catches.
    pub matrix: Matrix,
    /// How many candidates they were chosen from.
    pub candidates: usize,
}

/// Generates `options.count` candidate cases and chooses among them a few that
/// together catch every fault of the catalogue that any candidate catches (see
/// [`catching::choose`]).
pub fn generate_catching(
    options: &GenOptions,
    syntax: &dyn ArgsSyntax,
) -> Result<CatchingSet, GenError> {
    let candidates = generate(options, syntax)?;
    let caught: Vec<(Faults, u64)> = candidates
        .iter()
        .map(|case| (caught_by(&case.problem, options.style), case.log_lines))
        .collect();
    let chosen = catching::choose(&caught);
    let digits = chosen.len().to_string().len().max(3);
    let mut matrix = Matrix::new();
    let mut cases = Vec::new();
    for (number, &index) in chosen.iter().enumerate() {
        let mut case = candidates[index].clone();
        case.name = format!("{:0digits$}-{}", number + 1, case.category);
        matrix.push(case.name.clone(), &case.problem, caught[index].0);
        cases.push(case);
    }
    Ok(CatchingSet {
        cases,
        matrix,
        candidates: candidates.len(),
    })
}
