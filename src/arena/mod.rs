//! The referee and tournament director (`reversi arena`, and `reversi umea match` on
//! top of it): students' agents built and played in the sandbox through their
//! course's protocol ([`protocol`], one adapter each), against references played in
//! process ([`mod@reference`]), in a gauntlet, a round robin or a knockout
//! ([`schedule`]) or UF's six pairings ([`uf`]), from balanced openings ([`openings`]); every answer judged
//! ([`game`]: legality, CPU time, the answer's form) and every forfeit explained in
//! the reports ([`report`]).

pub mod bank;
pub mod bundle;
pub mod game;
pub mod grades;
pub mod journal;
pub mod legality;
pub mod openings;
pub mod page;
pub mod platform;
pub mod protocol;
pub mod rating;
pub mod record;
pub mod reference;
pub mod report;
pub mod review;
pub mod reviews;
pub mod schedule;
pub mod shaped;
pub mod shard;
pub mod uf;

pub use game::{Forfeit, Game, Reason};

use crate::sandbox::policy::{self, PolicyError};
use crate::sandbox::Sandbox;

/// Refuses, before any game, commands that name a file the agents could not see in
/// `sandbox` (the sandbox's policy, as for `batch`): every answer would fail.
pub fn admit(commands: &[&str], sandbox: &Sandbox) -> Result<(), PolicyError> {
    commands
        .iter()
        .try_for_each(|command| policy::refuse_unseen_files(command, sandbox))
}

#[cfg(test)]
mod tests {
    use super::game::{judge, Reason};
    use crate::board::{Square, Squares};
    use crate::format::umea::START;

    #[test]
    fn judge_refuses_illegal_answers() {
        let illegal = judge(START, Some(Square::new(0, 0)), "(1,1)").unwrap_err();
        assert_eq!(illegal.reason, Reason::IllegalMove);
        assert_eq!(illegal.answer, "(1,1)");
        let pass = judge(START, None, "pass").unwrap_err();
        assert_eq!(pass.reason, Reason::PassWithMove);
        let first = Squares(START.board().moves()).next().unwrap();
        assert_eq!(judge(START, Some(first), "x"), Ok(Some(first)));
    }
}
