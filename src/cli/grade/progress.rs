//! The progress of a class's grading on a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

use crate::printable::printable;

/// The progress of a class's grading, on stderr where it is a terminal (else
/// nothing): cases done of all, cases a second, the time left, students done and the
/// one being graded (its name escaped).
pub(super) struct ClassProgress {
    bar: ProgressBar,
    students: usize,
    graded: usize,
    now: String,
}

impl ClassProgress {
    pub(super) fn new(students: usize, cases: usize) -> ClassProgress {
        let total = (students * cases) as u64;
        let bar = if std::io::stderr().is_terminal() {
            ProgressBar::new(total)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "[{bar:30}] {pos}/{len} cases, {per_sec}, {eta} left; {msg}",
            )
            .expect("a valid template")
            .progress_chars("#>-"),
        );
        let mut progress = ClassProgress {
            bar,
            students,
            graded: 0,
            now: String::new(),
        };
        progress.show();
        progress
    }

    fn show(&mut self) {
        let mut message = format!("{}/{} students", self.graded, self.students);
        if !self.now.is_empty() {
            message += &format!(", now {}", self.now);
        }
        self.bar.set_message(message);
    }

    /// Cases done in all.
    pub(super) fn cases(&self, done: usize) {
        self.bar.set_position(done as u64);
    }

    /// A case of `student` done.
    pub(super) fn now(&mut self, student: &str) {
        let name = printable(student).into_owned();
        if name != self.now {
            self.now = name;
            self.show();
        }
    }

    /// A student graded.
    pub(super) fn graded(&mut self) {
        self.graded += 1;
        self.show();
    }

    /// Runs `print` with the bar out of the way.
    pub(super) fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }

    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
