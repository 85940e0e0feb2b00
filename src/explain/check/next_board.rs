//! The next board (the output's first 8 lines): the cells that differ and which of
//! the root's moves each board is the one after.

use super::plain::square_order;
use super::{BoardView, Difference, Mistake};
use crate::explain::log::{self, Entry, LOG_START};
use crate::explain::replay::grid_pair;

/// The cells of 8 board rows, or `None` if they are not 8 rows of 8 cells.
pub(super) fn board_cells(lines: &[String]) -> Option<Vec<Vec<char>>> {
    let rows: Vec<Vec<char>> = lines
        .get(..8)?
        .iter()
        .map(|l| l.chars().collect())
        .collect();
    rows.iter().all(|r| r.len() == 8).then_some(rows)
}

/// The name of the cell at `row` and `col` (from 0), as the log writes it: `a1`.
fn cell_name(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// The cell of `rows` that the move `name` is played on; `None` for a name that is
/// not a cell (`pass`).
fn cell_at(rows: &[Vec<char>], name: &str) -> Option<char> {
    let order = square_order(name);
    (order < 64).then(|| rows[order / 8][order % 8])
}

/// The root's children in the expected log, with their final values as printed.
fn root_children<'a>(entries: &[Entry<'a>]) -> Vec<(&'a str, Option<&'a str>)> {
    let mut children: Vec<(&str, Option<&str>)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if entry.depth == Some(1) {
            let value = entry.values.first().copied();
            if log::is_first_print(entries, i) {
                children.push((entry.name, value));
            } else if let Some(last) = children.last_mut() {
                last.1 = value;
            }
        }
    }
    children
}

/// How the plain reading guesses why the board after the root's first move is written.
pub(super) const FIRST_MOVE_GUESS: &str =
    ": most likely the board saved for the first move is never replaced by a better one";

/// Explains a difference in the next board when the logs agree.
pub(super) fn board_difference(want: &[String], got: &[String]) -> Difference {
    let first = (0..8).find(|&i| want.get(i) != got.get(i)).unwrap_or(0);
    let mut difference = Difference {
        board: None,
        line: Some(first + 1),
        expected: want.get(first).cloned(),
        actual: got.get(first).cloned(),
        node: Some("root (the next board)".into()),
        mistake: Some(Mistake::WrongBoard),
        explanation: String::new(),
    };
    let (Some(w), Some(g)) = (board_cells(want), board_cells(got)) else {
        difference.explanation =
            "the file starts with the next board: 8 lines of 8 cells, `*`, `X` or `O`".into();
        return difference;
    };
    difference.board = Some(BoardView {
        title: "the next board".into(),
        grid: grid_pair("expected", &w.concat(), "yours", &g.concat())
            .trim_end()
            .to_string(),
    });
    let cells: Vec<String> = (0..64)
        .filter(|&i| w[i / 8][i % 8] != g[i / 8][i % 8])
        .map(|i| {
            format!(
                "{} (expected {}, found {})",
                cell_name(i / 8, i % 8),
                w[i / 8][i % 8],
                g[i / 8][i % 8]
            )
        })
        .collect();
    let cells_text = format!("{} cell(s) differ: {}", cells.len(), cells.join(", "));
    let entries: Vec<Entry> = want
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect();
    let children = root_children(&entries);
    let root_value = entries
        .iter()
        .rev()
        .find(|e| e.depth == Some(0))
        .and_then(|e| e.values.first().copied());
    let played = |rows: &[Vec<char>], other: &[Vec<char>]| {
        children.iter().position(|(name, _)| {
            cell_at(rows, name).is_some_and(|c| c != '*')
                && cell_at(other, name).is_some_and(|c| c == '*')
        })
    };
    let best = children
        .iter()
        .position(|&(name, v)| name != "pass" && v.is_some() && v == root_value);
    difference.explanation = match (played(&g, &w), best) {
        (Some(yours), Some(best)) if yours > best && children[yours].1 == root_value => {
            difference.mistake = Some(Mistake::LastTiedMove);
            let tied: Vec<&str> = children
                .iter()
                .filter(|&&(_, v)| v == root_value)
                .map(|&(name, _)| name)
                .collect();
            format!(
                "{} share the best value {}; the move is the FIRST of them in positional \
                 order, {} (the root changes its choice only on a strictly better value); \
                 your board is the one after {}. {cells_text}",
                tied.join(", "),
                root_value.unwrap_or("?"),
                children[best].0,
                children[yours].0
            )
        }
        (Some(0), Some(best)) if best != 0 => {
            difference.mistake = Some(Mistake::FirstMoveBoard);
            format!(
                "your board is the one after {}, the root's first move (value {}), but the \
                 best move is {} (value {}){FIRST_MOVE_GUESS}. {cells_text}",
                children[0].0,
                children[0].1.unwrap_or("?"),
                children[best].0,
                root_value.unwrap_or("?")
            )
        }
        (Some(yours), Some(best)) if yours != best => format!(
            "your board is the one after {} (value {}), but the best move is {} (value {}). \
             {cells_text}",
            children[yours].0,
            children[yours].1.unwrap_or("?"),
            children[best].0,
            root_value.unwrap_or("?")
        ),
        (_, Some(best)) => format!(
            "the next board is the one after {}, the root's first child with the best value \
             {}: place the disc and flip every bracketed line in all 8 directions. \
             {cells_text}",
            children[best].0,
            root_value.unwrap_or("?")
        ),
        _ if children.first().is_some_and(|&(name, _)| name == "pass") => {
            difference.mistake = Some(Mistake::BoardAfterPass);
            format!(
                "the root player has no legal move (the root's only child is pass), so the \
                 next board is the input board unchanged. {cells_text}"
            )
        }
        _ if !entries.is_empty() && children.is_empty() => format!(
            "the root is a leaf (the cut-off depth is 0, or the game is over at the root), \
             so the next board is the input board unchanged. {cells_text}"
        ),
        _ => cells_text,
    };
    difference
}
