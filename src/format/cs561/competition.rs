//! f2014 task 4 (competition): the move only (`c4`), as the competition's handout
//! (Fall 2014 HW2b) says `output.txt` holds it, chosen by the engine within a share of
//! the CPU time left.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::input::Competition;
use crate::board::Square;
use crate::engine::{deadline_for, Engine};
use crate::format::Style;

/// The time to spend on this move: the time left shared over the player's moves
/// still to come (half the empty cells), counting the middle game's moves as worth
/// more than the last ones the solver settles fast; never more than half the time
/// left.
pub fn competition_budget(competition: &Competition) -> Duration {
    let empties = (!(competition.x_discs | competition.o_discs)).count_ones();
    let own_moves_left = empties.div_ceil(2).max(1) as f64;
    let share = 1.0 / (0.75 * own_moves_left + 1.0);
    competition.time_left.mul_f64(share.min(0.5))
}

/// The engine's move for `competition`, due within [`competition_budget`] of
/// `started` (less the engine's safety margin); `None` is a pass.
pub fn play_competition(competition: &Competition, started: Instant) -> Option<Square> {
    let budget = competition_budget(competition);
    let deadline = deadline_for(started, budget.as_secs_f64()).min(started + budget);
    Engine::for_time(budget)
        .think(competition.root(), deadline)
        .best
}

/// The bytes of the answer: the move, column then row (`c4`); `pass` when the player
/// has no move (the referee never calls a player then; a program called anyway says
/// so rather than repeat a board). A line end follows only when `style` asks for a
/// final newline.
pub fn competition_answer(best: Option<Square>, style: Style) -> Vec<u8> {
    let mut answer = best
        .map_or_else(|| "pass".to_string(), |s| s.to_string())
        .into_bytes();
    if style.final_newline {
        answer.extend_from_slice(style.line_end.bytes());
    }
    answer
}

/// Plays `competition` and writes the move (see [`competition_answer`]).
pub fn write_competition<W: Write>(
    competition: &Competition,
    style: Style,
    started: Instant,
    mut out: W,
) -> io::Result<Option<Square>> {
    let best = play_competition(competition, started);
    out.write_all(&competition_answer(best, style))?;
    out.flush()?;
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::cs561::Player;

    fn competition(empties: u32, seconds: f64) -> Competition {
        let full = !0u64 << empties;
        Competition {
            player: Player::X,
            time_left: Duration::from_secs_f64(seconds),
            x_discs: full & 0x5555_5555_5555_5555,
            o_discs: full & !0x5555_5555_5555_5555,
        }
    }

    #[test]
    fn a_game_never_spends_more_than_the_clock() {
        let mut left = 100.0;
        for empties in (1..=60).rev().step_by(2) {
            let spent = competition_budget(&competition(empties, left)).as_secs_f64();
            assert!(
                spent > 0.0 && spent <= left / 2.0 + 1e-9,
                "{empties} empties: {spent} of {left}"
            );
            left -= spent;
        }
        assert!(left > 0.0);
    }

    #[test]
    fn the_answer_is_the_move_alone() {
        let style = Style::default();
        assert_eq!(competition_answer(Some(Square::new(3, 2)), style), b"c4");
        assert_eq!(competition_answer(None, style), b"pass");
        let lf = Style {
            line_end: crate::format::LineEnd::Lf,
            final_newline: true,
        };
        assert_eq!(competition_answer(Some(Square::new(7, 7)), lf), b"h8\n");
    }

    #[test]
    fn the_opening_gets_a_thirtieth_or_so() {
        let budget = competition_budget(&competition(60, 10.5));
        assert!((budget.as_secs_f64() - 10.5 / 23.5).abs() < 1e-9);
    }
}
