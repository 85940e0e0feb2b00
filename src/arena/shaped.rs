//! The referee on Tri-state boards of any shape (CSU CS440, SPEC.md section 2):
//! rectangular boards of any size whose `E` cells are never playable and break a
//! line ([`crate::shaped_board::Grid`]). The board file an agent is given, the shape
//! in words, an answer judged by the shaped rules, as [`super::game::judge`] judges
//! one on 8x8, and a game played on such a board ([`play`]) into the same [`Game`]
//! record, so that standings, ratings, grades and the reports count it as any game.

use std::io;

use super::game::{judge_by, Answer, Fault, Forfeit, Game};
use super::protocol::tristate::Tristate;
use super::schedule::{Ready, Tournament, Withdrawn};
use crate::format::tristate::Problem;
use crate::rules::{Color, Position};
use crate::shaped_board::{Cell, Colour, Grid};
use crate::splitmix::SplitMix64;

/// A game on a board of any shape, as [`Game::shaped`] holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapedGame {
    /// The board and side to move it started from (a board file of `--openings`).
    pub start: Problem,
    /// The moves played, (x, y) the column and row 0-based (`None`: a skip).
    pub moves: Vec<Option<(usize, usize)>>,
    /// The last board (where a forfeit was, if one ended the game).
    pub last: Problem,
}

/// A player seated for one game on a board of any shape.
pub trait ShapedPlayer {
    /// The answer to `problem` (its side to move is this player's), the `number`-th
    /// move of the game (1-based). An error is the referee's own failure.
    fn answer(&mut self, problem: &Problem, number: usize) -> io::Result<Answer<(usize, usize)>>;
}

impl ShapedPlayer for Withdrawn {
    fn answer(&mut self, _problem: &Problem, _number: usize) -> io::Result<Answer<(usize, usize)>> {
        Ok(Answer {
            verdict: Err(self.0.clone()),
            text: String::new(),
            cpu: std::time::Duration::ZERO,
        })
    }
}

/// The colour of the 8x8 rules for a Tri-state colour.
fn color(colour: Colour) -> Color {
    match colour {
        Colour::Black => Color::Black,
        Colour::White => Color::White,
    }
}

/// Plays one game from `start`, asking `white` and `black` in turn (the side to
/// move asked even when it has no move: it must answer `skip`) until neither side
/// can move or one forfeits, each answer judged by [`judge`].
pub fn play(
    white: &mut dyn ShapedPlayer,
    black: &mut dyn ShapedPlayer,
    start: &Problem,
) -> io::Result<Game> {
    let mut game = Game::starting(Position {
        black: 0,
        white: 0,
        to_move: color(start.colour),
    });
    let mut record = ShapedGame {
        start: start.clone(),
        moves: Vec::new(),
        last: start.clone(),
    };
    let mut flipped = Vec::new();
    while !is_over(&record.last) {
        let side = color(record.last.colour);
        let number = record.moves.len() + 1;
        let mover: &mut dyn ShapedPlayer = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let answer = mover.answer(&record.last, number)?;
        let last = &record.last;
        let judged = game.judged((side, number, game.last), answer, |said, text| {
            judge(last, said, text)
        });
        let Some(cell) = judged else {
            break;
        };
        advance(&mut record.last, cell, &mut flipped);
        record.moves.push(cell);
    }
    game.shaped = Some(Box::new(record));
    Ok(game)
}

/// Plays a legal `cell` on `problem` (`None`: a skip), the other side to move.
fn advance(problem: &mut Problem, cell: Option<(usize, usize)>, flipped: &mut Vec<usize>) {
    if let Some((x, y)) = cell {
        let index = problem.grid.index(x, y);
        problem.grid.play(index, problem.colour, flipped);
    }
    problem.colour = problem.colour.other();
}

/// A move as the reports write it on a board of any shape: `(x,y)`, the column and
/// row 0-based, or `pass`.
pub fn move_text(cell: Option<(usize, usize)>) -> String {
    cell.map_or("pass".into(), |(x, y)| format!("({x},{y})"))
}

/// The board on one line for the text reports: the board file's lines joined by ` / `.
pub fn board_line(problem: &Problem) -> String {
    board_file(problem).lines().collect::<Vec<_>>().join(" / ")
}

/// A forfeit of a game on a board of any shape in words, as [`Forfeit::words`] says
/// one on 8x8: reason, move number, the board (`last`), answer, detail.
pub fn forfeit_words(forfeit: &Forfeit, last: &Problem) -> String {
    format!(
        "{} at move {} on {}: answered `{}`; {}",
        forfeit.fault.reason.words(),
        forfeit.number,
        board_line(last),
        forfeit.fault.answer,
        forfeit.fault.detail
    )
}

impl Tournament<'_> {
    /// Seats a player for one game on a board of any shape: a built agent through
    /// `tristate` under the tournament's terms, or a reference that plays any shape
    /// (`engine:depth=N`). An error for any other (the command line refuses them).
    pub(super) fn seat_on_boards<'a>(
        &'a self,
        ready: &'a Ready,
        tristate: &'a Tristate,
    ) -> io::Result<Box<dyn ShapedPlayer + 'a>> {
        match ready {
            Ready::Built(built, None) => Ok(tristate.seat_board(built, self.sandbox, self.terms)),
            Ready::Failed(fault) => Ok(Box::new(Withdrawn(fault.clone()))),
            Ready::Reference(reference) => reference
                .seat_shaped()
                .ok_or_else(|| io::Error::other(format!("{} plays on 8x8 only", reference.name()))),
            Ready::Built(_, Some(_)) => Err(io::Error::other(
                "an agent of its own protocol (nboard:) plays on 8x8 only",
            )),
            Ready::Elsewhere => Err(io::Error::other("a player of another shard was seated")),
        }
    }
}

/// A position of the suite given as a board file: its name (the file's) and the
/// board with the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The file it came from, as the TA named it.
    pub name: String,
    /// The board and the colour to move.
    pub problem: Problem,
}

/// The board file of `problem`, as the course writes it: `B|W width height`, then a
/// row of `B`, `W`, `-`, `E` per line.
pub fn board_file(problem: &Problem) -> String {
    let grid = &problem.grid;
    let mut text = format!(
        "{} {} {}\n",
        colour_letter(problem.colour),
        grid.width(),
        grid.height()
    );
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            text.push(match grid.get(x, y) {
                Cell::Empty => '-',
                Cell::Blocked => 'E',
                Cell::Disc(colour) => colour_letter(colour),
            });
        }
        text.push('\n');
    }
    text
}

fn colour_letter(colour: Colour) -> char {
    match colour {
        Colour::Black => 'B',
        Colour::White => 'W',
    }
}

/// The shape in words: `10x8` (width x height), with its blocked cells if any
/// (`8x8 with 4 blocked cells`).
pub fn shape(problem: &Problem) -> String {
    let grid = &problem.grid;
    let blocked = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.get(x, y) == Cell::Blocked)
        .count();
    let size = format!("{}x{}", grid.width(), grid.height());
    match blocked {
        0 => size,
        1 => format!("{size} with 1 blocked cell"),
        n => format!("{size} with {n} blocked cells"),
    }
}

/// Shapes in words, each with its count, in the order first met (`3 of 6x6, 1 of
/// 10x8`).
pub fn count_shapes(shapes: impl Iterator<Item = String>) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for shape in shapes {
        match counts.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, n)) => *n += 1,
            None => counts.push((shape, 1)),
        }
    }
    counts
        .iter()
        .map(|(shape, n)| format!("{n} of {shape}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the game is over on `problem`'s board: neither side has a move.
pub fn is_over(problem: &Problem) -> bool {
    !problem.grid.can_move(problem.colour) && !problem.grid.can_move(problem.colour.other())
}

/// Checks an answer against a board of any shape: the cell it names, (x, y) the
/// column and row 0-based (`None`: skip), or why it is a fault. `skip` is legal
/// exactly when the side to move has no move.
pub fn judge(
    problem: &Problem,
    said: Option<(usize, usize)>,
    answer: &str,
) -> Result<Option<(usize, usize)>, Fault> {
    let grid = &problem.grid;
    judge_by(
        said,
        grid.count_moves(problem.colour),
        |(x, y)| grid.is_legal(grid.index(x, y), problem.colour),
        |(x, y), some| {
            let why = match grid.get(x, y) {
                Cell::Blocked => "is a blocked cell (E)",
                Cell::Disc(_) => "is not empty",
                Cell::Empty => "flanks no disc",
            };
            let had = if some {
                "not a legal move"
            } else {
                "it had no legal move (skip)"
            };
            format!("column {x}, row {y} (0-based) {why}: {had}")
        },
        answer,
    )
}

/// How many positions a built-in suite of a shape has, and how many of them are
/// skips (the side to move has no move, its opponent has one) when the shape's
/// random games reach that many.
pub const BUILT_IN: (usize, usize) = (12, 2);

/// The sides a built-in board may have.
pub const BUILT_IN_SIDES: std::ops::RangeInclusive<usize> = 4..=26;

/// Random games tried for a built-in suite before it is taken as found.
const GAMES_TRIED: usize = 2000;

/// A built-in suite on a `width` x `height` board (each in [`BUILT_IN_SIDES`]): one
/// blocked cell per 16 cells, placed by `seed` off the four middle cells (the same on
/// every position), discs on the middle cells as at the 8x8 start, black first; then
/// mid-game positions of seeded random games (a third to three quarters of the
/// playable cells full), the last of them skips ([`BUILT_IN`]; fewer where the
/// shape's games reach none in its 2000 random games).
pub fn built_in(seed: u64, width: usize, height: usize) -> Vec<Board> {
    let mut random = SplitMix64::new(seed);
    let mut start = Grid::new(width, height);
    let (cx, cy) = (width / 2 - 1, height / 2 - 1);
    let middle = |x: usize, y: usize| (cx..=cx + 1).contains(&x) && (cy..=cy + 1).contains(&y);
    for (dx, dy, colour) in [
        (0, 0, Colour::White),
        (1, 0, Colour::Black),
        (0, 1, Colour::Black),
        (1, 1, Colour::White),
    ] {
        start.set(cx + dx, cy + dy, Cell::Disc(colour));
    }
    let mut blocked = 0;
    while blocked < width * height / 16 {
        let (x, y) = (
            random.below(width as u64) as usize,
            random.below(height as u64) as usize,
        );
        if !middle(x, y) && start.get(x, y) == Cell::Empty {
            start.set(x, y, Cell::Blocked);
            blocked += 1;
        }
    }
    let playable = start.empties() + 4;
    let (total, skips) = BUILT_IN;
    let (mut moving, mut skipping) = (Vec::new(), Vec::new());
    for _ in 0..GAMES_TRIED {
        if moving.len() == total - skips && skipping.len() == skips {
            break;
        }
        let stop = random.range(playable as u32 / 3, playable as u32 * 3 / 4) as usize;
        let (mut grid, mut colour) = (start.clone(), Colour::Black);
        let mut flipped = Vec::new();
        loop {
            let moves = grid.moves(colour);
            let (black, white) = grid.counts();
            if moves.is_empty() {
                if !grid.can_move(colour.other()) {
                    break;
                }
                if skipping.len() < skips && black + white > 4 {
                    skipping.push(Problem { colour, grid });
                    break;
                }
            } else if black + white >= stop {
                if moving.len() < total - skips {
                    moving.push(Problem { colour, grid });
                }
                break;
            } else {
                let index = moves[random.below(moves.len() as u64) as usize];
                grid.play(index, colour, &mut flipped);
            }
            colour = colour.other();
        }
    }
    moving
        .into_iter()
        .chain(skipping)
        .enumerate()
        .map(|(i, problem)| Board {
            name: format!("built-in {}", i + 1),
            problem,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::Reason;
    use crate::arena::reference::Reference;
    use crate::format::tristate::parse;

    /// Answers (0,0) whatever the board.
    struct Corner;

    impl ShapedPlayer for Corner {
        fn answer(&mut self, _: &Problem, _: usize) -> io::Result<Answer<(usize, usize)>> {
            Ok(Answer {
                verdict: Ok(Some((0, 0))),
                text: "(0,0)".into(),
                cpu: std::time::Duration::from_millis(3),
            })
        }
    }

    #[test]
    fn a_game_on_a_shaped_board_is_played_out_into_the_game_record() {
        let start = parse("W 6 5\nE-----\n--WB--\n--BW--\n-----E\n------\n").unwrap();
        let mut white = Reference::Depth(1).seat_shaped().unwrap();
        let mut black = Reference::Depth(2).seat_shaped().unwrap();
        let game = play(white.as_mut(), black.as_mut(), &start).unwrap();
        let record = game.shaped.as_deref().unwrap();
        assert_eq!(record.start, start);
        assert!(record.moves.len() > 10, "{:?}", record.moves);
        let (mut board, mut flipped) = (start.clone(), Vec::new());
        for &cell in &record.moves {
            assert_eq!(judge(&board, cell, "x"), Ok(cell));
            advance(&mut board, cell, &mut flipped);
        }
        assert_eq!(board, record.last);
        assert!(is_over(&board) && game.forfeit.is_none());
        let (black_discs, white_discs) = board.grid.counts();
        assert_eq!(game.discs(), (white_discs as u32, black_discs as u32));
        let winner = match white_discs.cmp(&black_discs) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(game.winner(), winner);
        // The same moves every time: no clock.
        let again = play(white.as_mut(), black.as_mut(), &start).unwrap();
        assert_eq!(again, game);
        // 8x8's references other than a fixed depth play no other shape.
        assert!(Reference::Naive.seat_shaped().is_none());
        assert!(Reference::Nodes(5000).seat_shaped().is_none());
    }

    #[test]
    fn an_illegal_cell_forfeits_at_the_board_it_was_asked_on() {
        let start = parse("B 6 5\nE-----\n--WB--\n--BW--\n-----E\n------\n").unwrap();
        let mut engine = Reference::Depth(1).seat_shaped().unwrap();
        let game = play(engine.as_mut(), &mut Corner, &start).unwrap();
        let forfeit = game.forfeit.as_ref().unwrap();
        assert_eq!((forfeit.side, forfeit.number), (Color::Black, 1));
        assert_eq!(forfeit.fault.reason, Reason::IllegalMove);
        assert_eq!(game.winner(), Some(Color::White));
        assert_eq!(game.cpu.1, std::time::Duration::from_millis(3));
        let record = game.shaped.as_deref().unwrap();
        assert_eq!((record.moves.len(), &record.last), (0, &start));
        assert_eq!(
            forfeit_words(forfeit, &record.last),
            "illegal move at move 1 on B 6 5 / E----- / --WB-- / --BW-- / -----E / ------: \
             answered `(0,0)`; column 0, row 0 (0-based) is a blocked cell (E): not a legal move"
        );
        assert_eq!(move_text(Some((9, 2))), "(9,2)");
        assert_eq!(move_text(None), "pass");
    }

    #[test]
    fn the_board_file_reads_back_and_states_its_shape() {
        let text = "W 5 3\nB-E--\n-WB--\n--E--\n";
        let problem = parse(text).unwrap();
        assert_eq!(board_file(&problem), text);
        assert_eq!(shape(&problem), "5x3 with 2 blocked cells");
        assert!(!is_over(&problem));
    }

    #[test]
    fn judging_follows_the_shaped_rules() {
        // The blocked cell breaks black's line to (4,0): black has no move.
        let blocked = parse("B 5 2\nBWEW-\n-----\n").unwrap();
        assert_eq!(judge(&blocked, None, "skip"), Ok(None));
        let through = judge(&blocked, Some((4, 0)), "(4,0)").unwrap_err();
        assert_eq!(through.reason, Reason::IllegalMove);
        assert!(through
            .detail
            .contains("flanks no disc: it had no legal move"));
        let on = judge(&blocked, Some((2, 0)), "(2,0)").unwrap_err();
        assert!(on.detail.contains("blocked cell"), "{}", on.detail);
        // Without it the line flanks three discs.
        let open = parse("B 5 2\nBWWW-\n-----\n").unwrap();
        assert_eq!(judge(&open, Some((4, 0)), "(4,0)"), Ok(Some((4, 0))));
        let skip = judge(&open, None, "skip").unwrap_err();
        assert_eq!(skip.reason, Reason::PassWithMove);
        let occupied = judge(&open, Some((0, 0)), "(0,0)").unwrap_err();
        assert!(occupied.detail.contains("not empty"));
    }

    #[test]
    fn a_built_in_suite_has_its_skips_on_one_shape() {
        for (width, height) in [(6, 6), (10, 8), (4, 4)] {
            let suite = built_in(1, width, height);
            assert_eq!(suite, built_in(1, width, height));
            let shapes: Vec<_> = suite.iter().map(|b| shape(&b.problem)).collect();
            assert!(shapes.iter().all(|s| *s == shapes[0]), "{shapes:?}");
            let skips = suite
                .iter()
                .filter(|b| !b.problem.grid.can_move(b.problem.colour))
                .count();
            assert!(suite.iter().all(|b| !is_over(&b.problem)));
            if (width, height) != (4, 4) {
                assert_eq!(suite.len(), BUILT_IN.0, "{width}x{height}");
                assert_eq!(skips, BUILT_IN.1, "{width}x{height}");
                assert!(shapes[0].contains("blocked"), "{shapes:?}");
            }
            // The skips come last.
            assert!(suite[suite.len() - skips..]
                .iter()
                .all(|b| !b.problem.grid.can_move(b.problem.colour)));
        }
    }
}
