//! How a student's cases make a score: the points of the cases passed, or a
//! course's own rule (the Fall 2014 grading agent's).

use serde::{Deserialize, Serialize};

use super::StudentGrade;

/// The rule that makes a student's score from the cases passed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// The points of the cases passed, out of the points of all cases.
    #[default]
    Points,
    /// As CSCI-561 Fall 2014's official grading agent (`grading_agent.pl`, given to
    /// the students) computed it: 100 when every case passes, else 50 x passed /
    /// cases, to the hundredth (its `%.2f`); 0 for a program that did not build.
    F2014,
}

impl Scoring {
    /// The rule in words, for the reports (none for plain points).
    pub fn description(self) -> Option<&'static str> {
        match self {
            Scoring::Points => None,
            Scoring::F2014 => Some(
                "f2014: as the Fall 2014 grading agent, 100 when every case passes, else \
                 50 x passed / cases",
            ),
        }
    }

    /// `grade` scored under this rule: its `score` and `max_score` made from its
    /// cases passed (plain points leave it as graded).
    pub fn apply(self, grade: &mut StudentGrade) {
        grade.scoring = self;
        match self {
            Scoring::Points => {}
            Scoring::F2014 => {
                grade.max_score = 100.0;
                grade.score = f2014(grade.passed, grade.total);
            }
        }
    }
}

/// The Fall 2014 agent's score of `passed` cases of `cases`.
fn f2014(passed: usize, cases: usize) -> f64 {
    if passed == cases {
        return 100.0;
    }
    let score = 50.0 * passed as f64 / cases as f64;
    (score * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fall_2014_score_is_100_or_half_the_share_passed() {
        assert_eq!(f2014(24, 24), 100.0);
        assert_eq!(f2014(23, 24), 47.92);
        assert_eq!(f2014(12, 24), 25.0);
        assert_eq!(f2014(1, 3), 16.67);
        assert_eq!(f2014(0, 24), 0.0);
    }
}
