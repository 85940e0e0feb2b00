//! Tri-state Othello: every answer is legal on random boards with blocked cells, and
//! `skip` comes exactly when no move exists. Legality is checked by a plain
//! re-implementation of the rules on a character grid, independent of `Grid`.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use reversi::board::{Board, Square, Squares};
use reversi::engine::shaped::think_grid;
use reversi::format::tristate::{self, answer, Base, Coords, Notation};
use reversi::shaped_board::Colour;

/// Cells of a board file, row by row.
fn board_strategy() -> impl Strategy<Value = (char, Vec<Vec<char>>)> {
    (3usize..=13, 3usize..=13, prop::bool::ANY).prop_flat_map(|(w, h, black)| {
        let cell = prop::sample::select(vec!['B', 'W', '-', '-', '-', 'E']);
        let rows = prop::collection::vec(prop::collection::vec(cell, w), h);
        (Just(if black { 'B' } else { 'W' }), rows)
    })
}

fn file_text(colour: char, rows: &[Vec<char>]) -> String {
    let mut text = format!("{colour} {} {}\n", rows[0].len(), rows.len());
    for row in rows {
        text.extend(row.iter());
        text.push('\n');
    }
    text
}

/// The rules, plainly: an empty `-` cell from which some direction runs over one or
/// more opponent discs and ends on one of ours.
fn legal(rows: &[Vec<char>], colour: char, x: usize, y: usize) -> bool {
    let opponent = if colour == 'B' { 'W' } else { 'B' };
    if rows[y][x] != '-' {
        return false;
    }
    let (w, h) = (rows[0].len() as i64, rows.len() as i64);
    for (dx, dy) in [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ] {
        let (mut cx, mut cy, mut seen) = (x as i64 + dx, y as i64 + dy, 0);
        while cx >= 0 && cy >= 0 && cx < w && cy < h && rows[cy as usize][cx as usize] == opponent {
            cx += dx;
            cy += dy;
            seen += 1;
        }
        if seen > 0
            && cx >= 0
            && cy >= 0
            && cx < w
            && cy < h
            && rows[cy as usize][cx as usize] == colour
        {
            return true;
        }
    }
    false
}

fn any_legal(rows: &[Vec<char>], colour: char) -> bool {
    (0..rows.len()).any(|y| (0..rows[0].len()).any(|x| legal(rows, colour, x, y)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_answer_is_legal_and_skip_only_without_moves((colour, rows) in board_strategy()) {
        let problem = tristate::parse(&file_text(colour, &rows)).unwrap();
        let thought = think_grid(&problem.grid, problem.colour, Instant::now() + Duration::from_millis(3));
        match thought.best {
            None => prop_assert!(!any_legal(&rows, colour)),
            Some((x, y)) => prop_assert!(legal(&rows, colour, x, y), "({x},{y}) is not legal"),
        }
    }

    #[test]
    fn grid_moves_match_the_plain_rules((colour, rows) in board_strategy()) {
        let problem = tristate::parse(&file_text(colour, &rows)).unwrap();
        let grid = &problem.grid;
        let moves: Vec<(usize, usize)> = grid.moves(problem.colour).into_iter().map(|i| grid.coords(i)).collect();
        let expected: Vec<(usize, usize)> = (0..rows.len())
            .flat_map(|y| (0..rows[0].len()).map(move |x| (x, y)))
            .filter(|&(x, y)| legal(&rows, colour, x, y))
            .collect();
        prop_assert_eq!(moves, expected);
    }

    #[test]
    fn grid_agrees_with_bitboards_on_8x8(own in any::<u64>(), mask in any::<u64>()) {
        let opp = mask & !own;
        let board = Board { own, opp };
        let rows: Vec<Vec<char>> = (0..8u8)
            .map(|r| {
                (0..8u8)
                    .map(|c| {
                        let bit = Square::new(r, c).bit();
                        if own & bit != 0 { 'B' } else if opp & bit != 0 { 'W' } else { '-' }
                    })
                    .collect()
            })
            .collect();
        let problem = tristate::parse(&file_text('B', &rows)).unwrap();
        let grid = &problem.grid;
        let moves: Vec<(usize, usize)> = grid.moves(Colour::Black).into_iter().map(|i| grid.coords(i)).collect();
        let expected: Vec<(usize, usize)> =
            Squares(board.moves()).map(|s| (s.col() as usize, s.row() as usize)).collect();
        prop_assert_eq!(moves, expected);
    }
}

#[test]
fn boards_from_3x3_to_16x16_get_legal_answers() {
    for size in 3..=16usize {
        let mut rows = vec![vec!['-'; size]; size];
        let c = size / 2;
        rows[c - 1][c - 1] = 'W';
        rows[c][c] = 'W';
        rows[c - 1][c] = 'B';
        rows[c][c - 1] = 'B';
        rows[0][size - 1] = 'E';
        let problem = tristate::parse(&file_text('B', &rows)).unwrap();
        let thought = think_grid(
            &problem.grid,
            problem.colour,
            Instant::now() + Duration::from_millis(5),
        );
        let (x, y) = thought.best.expect("the start has moves");
        assert!(legal(&rows, 'B', x, y), "{size}x{size}: ({x},{y})");
        let text = answer(thought.best, Coords::Rc, Base::One, Notation::Space);
        assert_eq!(text, format!("{} {}", y + 1, x + 1));
    }
}

#[test]
fn a_blocked_cell_between_discs_gives_skip() {
    let problem = tristate::parse("B 4 1\nBWE-\n").unwrap();
    let thought = think_grid(
        &problem.grid,
        problem.colour,
        Instant::now() + Duration::from_millis(5),
    );
    assert_eq!(thought.best, None);
    let problem = tristate::parse("B 4 1\nBW--\n").unwrap();
    let thought = think_grid(
        &problem.grid,
        problem.colour,
        Instant::now() + Duration::from_millis(5),
    );
    assert_eq!(thought.best, Some((2, 0)));
}
