//! Which known bugs a set of cases catches: for each case and each fault of the
//! catalogue ([`crate::explain::mutants`]), whether the program with that fault writes an
//! output that differs from the right one. `gen --catch-every-fault` chooses, from
//! many random playouts, a few cases that together catch every fault; `batch
//! --mutants` measures an existing folder of cases.

use std::fmt;

use crate::explain::mistake::Mistake;
use crate::explain::mutants::{self, Faults};
use crate::format::cs561::Problem;
use crate::format::Style;

/// A fault's program whose log passes this many lines counts as caught: its output
/// differs in length from any right log a case of `gen` has.
const MAX_LINES: usize = 100_000;

/// The faults whose output on `problem` (in the byte form `style`) differs from the
/// right one.
pub fn caught_by(problem: &Problem, style: Style) -> Faults {
    let right = mutants::write(problem, style, Faults::NONE, usize::MAX);
    Mistake::SIMULATED
        .into_iter()
        .filter(|f| f.applies_to(problem))
        .filter(|&f| mutants::write(problem, style, Faults::one(f), MAX_LINES) != right)
        .collect()
}

/// Which faults each case catches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// The cases' names, in order.
    pub cases: Vec<String>,
    /// The faults each case catches, in the same order.
    pub caught: Vec<Faults>,
    /// The faults that can change each case's output at all (see
    /// [`Mistake::applies_to`]): the end rule of the other release cannot.
    pub applicable: Vec<Faults>,
}

impl Matrix {
    /// A matrix of no case.
    pub fn new() -> Matrix {
        Matrix {
            cases: Vec::new(),
            caught: Vec::new(),
            applicable: Vec::new(),
        }
    }

    /// Adds a column: the case `name` of `problem`, catching `caught`.
    pub fn push(&mut self, name: String, problem: &Problem, caught: Faults) {
        self.cases.push(name);
        self.caught.push(caught);
        self.applicable.push(
            Mistake::SIMULATED
                .into_iter()
                .filter(|f| f.applies_to(problem))
                .collect(),
        );
    }

    /// The faults that apply to some case and that no case catches.
    pub fn missed(&self) -> Vec<Mistake> {
        let any: Faults = self.caught.iter().flat_map(|f| f.iter()).collect();
        Mistake::SIMULATED
            .into_iter()
            .filter(|&f| !any.has(f) && self.applies(f))
            .collect()
    }

    /// Whether `fault` applies to some case.
    fn applies(&self, fault: Mistake) -> bool {
        self.applicable.iter().any(|a| a.has(fault))
    }

    /// The faults that apply to no case.
    pub fn not_applicable(&self) -> Vec<Mistake> {
        Mistake::SIMULATED
            .into_iter()
            .filter(|&f| !self.applies(f))
            .collect()
    }
}

impl Default for Matrix {
    fn default() -> Matrix {
        Matrix::new()
    }
}

impl fmt::Display for Matrix {
    /// One row per fault, one column per case (numbered; the names follow): `x`
    /// where the case catches the fault, `.` where it does not; the last column
    /// counts the cases that catch it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = Mistake::SIMULATED
            .iter()
            .map(|f| f.name().len())
            .max()
            .unwrap_or(0);
        let numbers: Vec<String> = (1..=self.cases.len()).map(|n| n.to_string()).collect();
        let column = numbers.last().map_or(1, String::len);
        write!(f, "{:<width$}", "fault \\ case")?;
        for number in &numbers {
            write!(f, " {number:>column$}")?;
        }
        writeln!(f, "  caught by")?;
        for fault in Mistake::SIMULATED {
            write!(f, "{:<width$}", fault.name())?;
            let mut count = 0;
            for caught in &self.caught {
                let mark = if caught.has(fault) {
                    count += 1;
                    "x"
                } else {
                    "."
                };
                write!(f, " {mark:>column$}")?;
            }
            let verdict = match (count, self.applies(fault)) {
                (0, false) => "n/a (not in these cases' release or task)".to_string(),
                (0, true) => "none: MISSED".to_string(),
                _ => count.to_string(),
            };
            writeln!(f, "  {verdict}")?;
        }
        for (number, name) in numbers.iter().zip(&self.cases) {
            writeln!(f, "{number:>4}  {name}")?;
        }
        Ok(())
    }
}

/// What a case costs in [`choose`], in log lines on top of its own: a few more
/// lines are better than one more case.
const CASE_COST: u64 = 30;

/// Chooses, among candidates (the faults each catches and its log's length), a few
/// that together catch every fault any of them catches, preferring small logs: each
/// time the one that catches the most faults not yet caught per line of log (plus
/// `CASE_COST`); then drops any chosen case the others make unneeded, longest
/// first. Returns their indices in the order chosen.
pub fn choose(candidates: &[(Faults, u64)]) -> Vec<usize> {
    let all: Faults = candidates.iter().flat_map(|(f, _)| f.iter()).collect();
    let mut chosen: Vec<usize> = Vec::new();
    let mut caught = Faults::NONE;
    while caught != all {
        let new = |i: usize| candidates[i].0.iter().filter(|&f| !caught.has(f)).count() as u64;
        let cost = |i: usize| candidates[i].1 + CASE_COST;
        let mut best: Option<usize> = None;
        for i in (0..candidates.len()).filter(|&i| new(i) > 0) {
            // new(i) / cost(i) > new(b) / cost(b), without division.
            if best.is_none_or(|b| new(i) * cost(b) > new(b) * cost(i)) {
                best = Some(i);
            }
        }
        let Some(best) = best else { break };
        caught = candidates[best].0.iter().fold(caught, Faults::with);
        chosen.push(best);
    }
    let mut by_length = chosen.clone();
    by_length.sort_by_key(|&i| std::cmp::Reverse(candidates[i].1));
    for drop in by_length {
        let others: Faults = chosen
            .iter()
            .filter(|&&i| i != drop)
            .flat_map(|&i| candidates[i].0.iter())
            .collect();
        if others == caught {
            chosen.retain(|&i| i != drop);
        }
    }
    chosen
}
