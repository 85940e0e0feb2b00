//! The referee on Tri-state boards of any shape (CSU CS440, SPEC.md section 2):
//! rectangular boards of any size whose `E` cells are never playable and break a
//! line ([`crate::shaped_board::Grid`]). The board file an agent is given, the shape in words, and an
//! answer judged by the shaped rules, as [`super::game::judge`] judges one on 8x8.

use super::game::{judge_by, Fault};
use crate::format::tristate::Problem;
use crate::shaped_board::{Cell, Colour};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::Reason;
    use crate::format::tristate::parse;

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
}
