//! York EECS 3401 A4 evaluations `h(State, Val)`, from player 1's (MAX's) point of view.

use super::GameEvaluation;
use crate::rules::Ending;

/// The score of a finished game that MAX wins (its negation: MAX loses).
pub const WIN_SCORE: i32 = 100;

/// The two evaluations the course uses; both score a finished game +100, -100 or 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum YorkHeuristic {
    /// 0 for every unfinished game: the handout's minimal `h`.
    #[default]
    Zero,
    /// The opponent's discs minus MAX's for an unfinished game: fewer discs are good
    /// under the course's fewer-discs rule.
    Stones,
}

impl GameEvaluation for YorkHeuristic {
    fn score(&self, max: u64, min: u64, ending: Option<Ending>) -> i32 {
        match (ending, self) {
            (Some(Ending::Win), _) => WIN_SCORE,
            (Some(Ending::Loss), _) => -WIN_SCORE,
            (Some(Ending::Draw), _) | (None, YorkHeuristic::Zero) => 0,
            (None, YorkHeuristic::Stones) => min.count_ones() as i32 - max.count_ones() as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_games_score_the_same_for_both() {
        for h in [YorkHeuristic::Zero, YorkHeuristic::Stones] {
            assert_eq!(h.score(0b1, 0b11, Some(Ending::Win)), 100);
            assert_eq!(h.score(0b1, 0b11, Some(Ending::Loss)), -100);
            assert_eq!(h.score(0b1, 0b11, Some(Ending::Draw)), 0);
        }
        assert_eq!(YorkHeuristic::Zero.score(0b1, 0b111, None), 0);
        assert_eq!(YorkHeuristic::Stones.score(0b1, 0b111, None), 2);
    }
}
