//! `reversi arena --format uf`'s options: what UF's six pairings decide themselves
//! (the opponents, the start) refused when given, and the opponents' names.

use super::UsageError;
use crate::arena::reference::Reference;
use crate::course_search::uf::Level;

/// Refuses the flags given (`Some(flag)`) that UF's pairings decide themselves or
/// cannot follow, and the protocols they cannot play.
pub(super) fn refuse<const N: usize>(
    given: [Option<String>; N],
    protocol: &str,
) -> Result<(), UsageError> {
    let bad = |what: &str, message: &str| UsageError::BadArgument {
        what: what.into(),
        message: message.into(),
    };
    if let Some(flag) = given.into_iter().flatten().next() {
        return Err(bad(
            &flag,
            "--format uf plays UF's six pairings against the example AI, one game each \
             from the standard start, on one machine, not resumed",
        ));
    }
    if protocol == "cs561-task4" {
        return Err(bad(
            "--protocol",
            "--format uf plays umea, tristate, line or nboard agents, not cs561-task4's",
        ));
    }
    Ok(())
}

/// The example AI's names, as the players after the students.
pub(super) fn opponents() -> Vec<String> {
    Level::ALL
        .iter()
        .map(|&level| Reference::Uf(level).name())
        .collect()
}
