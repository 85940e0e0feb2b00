//! The bug catalogue: a "mutant solver" that writes `output.txt` as a student's
//! program with known faults would.
//!
//! It is a second, plain implementation of the CSCI-561 search (an array board, one
//! recursive function with its MAX and MIN branches written out) in which each
//! mistake of the catalogue ([`Mistake::SIMULATED`]) is a switch, a fault. With no
//! fault on it writes our solver's output byte for byte (a test checks that over
//! `testcases/` and generated cases); with faults on it writes what a program with
//! those bugs writes. `check` runs it to
//! name the mistakes in a student's file by reproducing it, `gen --catch-every-fault`
//! to choose cases that catch every fault, and the tests to measure `check`.
//!
//! It never touches the plain solver: the fast search in [`crate::course_search`]
//! knows nothing of it.

mod grid;
pub(crate) use grid::DIRECTIONS;
mod search;

use std::fmt;

use crate::explain::mistake::Mistake;
use crate::format::cs561::Problem;
use crate::format::{LineEnd, Style};

/// A set of faults (mistakes of the catalogue) switched on together; a mistake the
/// catalogue does not simulate changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Faults(u64);

impl Faults {
    /// No fault: the mutant writes the right output.
    pub const NONE: Faults = Faults(0);

    /// The set holding `fault` alone.
    pub const fn one(fault: Mistake) -> Faults {
        Faults(1 << fault as u64)
    }

    /// This set with `fault` added.
    pub const fn with(self, fault: Mistake) -> Faults {
        Faults(self.0 | 1 << fault as u64)
    }

    /// This set without `fault`.
    pub const fn without(self, fault: Mistake) -> Faults {
        Faults(self.0 & !(1 << fault as u64))
    }

    /// Whether `fault` is on.
    pub const fn has(self, fault: Mistake) -> bool {
        self.0 & 1 << fault as u64 != 0
    }

    /// Whether no fault is on.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The faults on, in catalogue order.
    pub fn iter(self) -> impl Iterator<Item = Mistake> {
        Mistake::SIMULATED.into_iter().filter(move |&f| self.has(f))
    }
}

impl FromIterator<Mistake> for Faults {
    fn from_iter<I: IntoIterator<Item = Mistake>>(faults: I) -> Faults {
        faults.into_iter().fold(Faults::NONE, Faults::with)
    }
}

impl fmt::Display for Faults {
    /// The names joined by `+`, `none` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.iter().map(Mistake::name).collect();
        f.write_str(&names.join("+"))
    }
}

/// The byte form of the file that holds `bytes`: CRLF if any line ends so, and
/// whether the last line has an end. `check` writes mutants in the expected file's
/// form.
pub fn style_of(bytes: &[u8]) -> Style {
    Style {
        line_end: if bytes.windows(2).any(|w| w == b"\r\n") {
            LineEnd::Crlf
        } else {
            LineEnd::Lf
        },
        final_newline: bytes.last() == Some(&b'\n'),
    }
}

/// The output file a program with `faults` writes for `problem`, in the byte form
/// `style` (which [`Mistake::LineEnds`] and [`Mistake::FinalNewline`] change). `None`
/// when its log would pass `max_lines` lines: a fault such as [`Mistake::NoPruning`]
/// can make a tree far larger than the right one.
pub fn write(problem: &Problem, style: Style, faults: Faults, max_lines: usize) -> Option<Vec<u8>> {
    search::run(problem, style, faults, max_lines, None)
}

/// Like [`write()`], showing `watch` each log line as it is printed (its 0-based index
/// in the log and its text without a line end): the search stops, and this returns
/// `None`, as soon as `watch` returns false. Comparing with a student's file line by
/// line this way, a program that cannot have written it is left after a few lines.
pub fn write_watched(
    problem: &Problem,
    style: Style,
    faults: Faults,
    max_lines: usize,
    watch: &mut dyn FnMut(usize, &[u8]) -> bool,
) -> Option<Vec<u8>> {
    search::run(problem, style, faults, max_lines, Some(watch))
}
