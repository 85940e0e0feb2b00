//! Re-runs with LF line ends: a program that failed on a case whose input has CRLF
//! line ends (as every official input has) may only be misreading the CR.

use std::fs;

use super::program::{run_program, Produced};
use super::{Case, CaseResult, Turn};
use crate::explain::check::check_with_input;
use crate::sandbox::Sandbox;

/// Why a case may be run again with LF line ends in its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Rerun {
    /// It wrote this output, wrong by more than its line ends.
    Output(Vec<u8>),
    /// It crashed, and its standard error shows a CR.
    Crash,
}

/// The one LF re-run that decides whether the others are made. A program that
/// writes the very same file from the input with and without its CRs read them
/// the same way: on the other cases too, the LF re-run would only repeat the wrong
/// output, so they are not made (a crash showing a CR is run again all the same).
/// A program whose probe is right with LF line ends is shown to read the CR: the
/// others are not made either (they cannot change a verdict), and their rows say
/// that the CR may cause their difference too, citing the probe.
/// The probe is the case with the shortest expected output among those that show
/// a search (at least [`PROBE_LINES`] lines: on a smaller one a program that reads
/// the CR may write the same file by chance); without one, every re-run is made.
pub(super) struct LineEndsProbe;

/// Lines of an expected output that show a search: the board, the header and
/// at least four nodes.
const PROBE_LINES: usize = 13;

impl LineEndsProbe {
    /// The position in `reruns` of the probe, if there is one.
    pub(super) fn choose(cases: &[Case], reruns: &[(usize, Rerun)]) -> Option<usize> {
        reruns
            .iter()
            .enumerate()
            .filter(|(_, (_, rerun))| matches!(rerun, Rerun::Output(_)))
            .filter_map(|(at, (index, _))| {
                let expected = fs::read(&cases[*index].expected).ok()?;
                let lines = expected.split(|&b| b == b'\n').count();
                (lines >= PROBE_LINES).then_some((expected.len(), at))
            })
            .min()
            .map(|(_, at)| at)
    }
}

/// Adds to `result` what the LF re-run `lf` (its output, if it wrote one) tells;
/// true when that output is right (the program reads the CR).
pub(super) fn note_lf(result: &mut CaseResult, lf: Option<&[u8]>, case: &Case) -> bool {
    let right = lf.is_some_and(|actual| {
        fs::read(&case.expected)
            .is_ok_and(|expected| check_with_input(&expected, actual, true, None).passed())
    });
    if right {
        result.depends_on_cr = true;
        result.detail += "; with LF line ends in input.txt its output is right: input.txt \
                          read with its CR (strip '\\r' when reading it)";
    }
    right
}

/// What a program that failed on a case with CRLF line ends in its input (as every
/// official input has) writes when given the same input with LF line ends: right,
/// line ends of its output aside, for the most common upstream bug of published
/// solutions, which then look like search mistakes. `None` when it wrote nothing
/// that was read.
pub(super) fn run_with_lf(
    case: &Case,
    command: &str,
    sandbox: &Sandbox,
    turn: &mut Turn,
) -> Option<Vec<u8>> {
    let input = fs::read(&case.input).ok()?;
    let lf: Vec<u8> = input.iter().copied().filter(|&b| b != b'\r').collect();
    match run_program(case, &lf, command, sandbox, turn) {
        Ok(Produced::Output(actual)) => Some(actual),
        _ => None,
    }
}
