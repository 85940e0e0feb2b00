//! Naming every mistake in a file by reproducing it: run the bug catalogue
//! ([`crate::explain::mutants`]) on the case's input and find the faults whose program writes
//! the student's file.
//!
//! A single fault whose program writes the file byte for byte reproduces it. Otherwise
//! faults are added one at a time, each time the one whose program comes closest to
//! the file (fewest lines to insert or delete), upstream faults first among equals,
//! until the file is reproduced or no fault brings it closer. Each fault found is then
//! credited with the lines that change when it alone is switched off.

use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use serde::Serialize;
use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::course_search::INFINITY;
use crate::explain::log::{self, Entry, ALPHA_BETA_HEADER, MINIMAX_HEADER};
use crate::explain::mistake::Mistake;
use crate::explain::mutants::{self, style_of, Faults};
use crate::format::cs561::{Dialect, Problem};
use crate::format::Style;

/// Files with more lines than this are not diagnosed: the catalogue runs some 40
/// programs on the input and compares each output with the file.
pub const MAX_LINES: usize = 20_000;

/// Faults added at most, one at a time, when no single fault reproduces the file.
const MAX_FAULTS: usize = 3;

/// Expected files up to this many lines get a search over pairs of faults when
/// adding one fault at a time does not reproduce the student's file.
const MAX_PAIR_SEARCH_LINES: usize = 2_000;

/// Pairs of faults that change nothing alone are tried only when the pairs times the
/// log lines up to the student's first differing one stay within this: each pair's
/// program writes that far. (Checking every official output with each line broken
/// takes 2.4 s more of CPU with it in a debug build; 56 s more at 2,000 lines.)
const LATENT_PAIR_LINES: usize = 600;

/// A fault found in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// The fault.
    pub fault: Mistake,
    /// The first line (1-based, in the student's file) that the fault changes.
    pub first_line: usize,
    /// Lines of the student's file it accounts for: lines inserted, deleted or
    /// changed when it alone is switched off (see `distance`).
    pub lines: usize,
    /// Other faults of the catalogue that, in its place, write the very same bytes
    /// (only when the file is reproduced): the case cannot tell them from it.
    pub alike: Vec<Mistake>,
}

/// What the catalogue says about a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    /// The faults found, by first line.
    pub found: Vec<Found>,
    /// The program with these faults writes the file byte for byte.
    pub exact: bool,
    /// Lines the found faults leave unexplained (inserted, deleted or changed to get
    /// from their program's output to the file).
    pub unexplained: usize,
    /// The first of them (1-based, in the student's file).
    pub unexplained_from: Option<usize>,
    /// The problem as solved: the input's, with the release whose end rule writes
    /// the expected file.
    #[serde(skip)]
    pub problem: Problem,
}

/// Why there is no diagnosis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoDiagnosis {
    /// The input does not give the expected file under any release's rule.
    InputDoesNotFit,
    /// One of the files is longer than [`MAX_LINES`].
    TooLarge,
}

/// The lines of `bytes`, each with its line end.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

/// How far `from` is from `to`: lines inserted, deleted or changed (a block of
/// changed lines counts as the longer of its two sides), and the first line of `to`
/// (0-based) that is not kept from `from`.
///
/// The lines are numbered first (equal lines, equal numbers), so that the diff
/// compares numbers, not texts: the same edits, found several times faster.
fn distance<T: Hash + Eq>(from: &[T], to: &[T]) -> (usize, Option<usize>) {
    let mut numbers: HashMap<&T, u32> = HashMap::with_capacity(from.len() + to.len());
    let mut number = |line| {
        let next = numbers.len() as u32;
        *numbers.entry(line).or_insert(next)
    };
    let from: Vec<u32> = from.iter().map(&mut number).collect();
    let to: Vec<u32> = to.iter().map(&mut number).collect();
    let mut count = 0;
    let mut first = None;
    for op in capture_diff_slices(Algorithm::Myers, &from, &to) {
        let (changed, at) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_len, new_index, ..
            } => (old_len, new_index),
            DiffOp::Insert {
                new_len, new_index, ..
            } => (new_len, new_index),
            DiffOp::Replace {
                old_len,
                new_len,
                new_index,
                ..
            } => (old_len.max(new_len), new_index),
        };
        count += changed;
        first = Some(first.map_or(at, |f: usize| f.min(at)));
    }
    (count, first)
}

/// A bound below [`distance`], without a diff: the lines of the longer file that no
/// line of the other can be kept as (counting each text as often as each file has
/// it). A diff keeps at most that many lines, and each block it changes counts as
/// its longer side.
fn at_least<T: Hash + Eq>(from: &[T], to: &[T]) -> usize {
    let mut counts: HashMap<&T, (usize, usize)> = HashMap::with_capacity(from.len());
    for line in from {
        counts.entry(line).or_default().0 += 1;
    }
    for line in to {
        counts.entry(line).or_default().1 += 1;
    }
    let kept: usize = counts.values().map(|&(a, b)| a.min(b)).sum();
    from.len().max(to.len()) - kept
}

/// The problem variant (the input's, or the other Spring 2017 release's end rule)
/// whose right output is `expected`.
fn fitting(problem: &Problem, style: Style, expected: &[u8]) -> Option<Problem> {
    let mut variants = vec![problem.clone()];
    let other = match problem.dialect {
        Dialect::S2017 => Some(Dialect::S2017Jan),
        Dialect::S2017Jan => Some(Dialect::S2017),
        Dialect::F2014 => None,
    };
    if let Some(dialect) = other {
        variants.push(Problem {
            dialect,
            ..problem.clone()
        });
    }
    let limit = lines(expected).len() + 1;
    variants
        .into_iter()
        .find(|p| mutants::write(p, style, Faults::NONE, limit).as_deref() == Some(expected))
}

/// Whether a file starts with the next board (not with the log's header or root).
fn has_board(bytes: &[u8]) -> bool {
    !(bytes.starts_with(b"Node,") || bytes.starts_with(b"root,"))
}

/// The lines of a file with the text-only faults of `erase` undone, so that files
/// written with and without them compare equal: line ends, the final newline, number
/// spellings, spaces in the board, the header, node names in column a and row 1. The
/// board is kept only `with_board` (when the student's file has one).
fn canonical(bytes: &[u8], erase: Faults, with_board: bool) -> Vec<String> {
    let mut texts: Vec<String> = bytes
        .split_inclusive(|&b| b == b'\n')
        .map(|line| {
            let mut line = line;
            if erase.has(Mistake::LineEnds) || erase.has(Mistake::FinalNewline) {
                line = line.strip_suffix(b"\n").unwrap_or(line);
                if erase.has(Mistake::LineEnds) {
                    line = line.strip_suffix(b"\r").unwrap_or(line);
                }
            }
            String::from_utf8_lossy(line).into_owned()
        })
        .collect();
    if !erase.has(Mistake::FinalNewline) && bytes.ends_with(b"\n") {
        texts.push("<final line end>".into());
    }
    let starts_with_log = !has_board(bytes);
    let (board, log) = texts.split_at(if starts_with_log {
        0
    } else {
        8.min(texts.len())
    });
    let mut out = Vec::new();
    if !erase.has(Mistake::MissingBoard) && !starts_with_log {
        out.push("<board>".to_string());
    }
    if with_board || !erase.has(Mistake::MissingBoard) {
        for row in board {
            out.push(if erase.has(Mistake::SpacedBoard) {
                row.replace(' ', "")
            } else {
                row.clone()
            });
        }
    }
    for line in log {
        let bare = line.trim_end_matches(['\r', '\n']);
        if bare == ALPHA_BETA_HEADER || bare == MINIMAX_HEADER {
            if !erase.has(Mistake::MissingHeader) {
                out.push(line.clone());
            }
            continue;
        }
        out.push(canonical_line(line, erase));
    }
    out
}

/// A log line with the number spellings and node names of `erase` undone.
fn canonical_line(line: &str, erase: Faults) -> String {
    let body = line.trim_end_matches(['\r', '\n']);
    let end = &line[body.len()..];
    let entry = Entry::parse(body);
    let column_a = erase.has(Mistake::ColumnANamedRoot);
    let name = match entry.name.as_bytes() {
        _ if entry.name == "root" && entry.depth != Some(0) && column_a => "a?".to_string(),
        &[letter, digit] => {
            let row_1 = matches!(digit, b'1' | 0) && erase.has(Mistake::Row1NulNames);
            let digit = if row_1 { b'?' } else { digit };
            if letter == b'a' && digit != 0 && column_a {
                "a?".to_string()
            } else {
                String::from_utf8_lossy(&[letter, digit]).into_owned()
            }
        }
        _ => entry.name.to_string(),
    };
    let mut fields = vec![name, entry.depth.map_or("?".into(), |d| d.to_string())];
    for value in &entry.values {
        let undone = match (
            log::parse_infinity_spelling(value),
            log::parse_float_value(value),
        ) {
            (Some(v), _) if erase.has(Mistake::InfSpelling) => Some(v),
            (_, Some(v)) if erase.has(Mistake::FloatValues) => Some(v),
            _ => None,
        };
        fields.push(match undone {
            Some(INFINITY) => "Infinity".into(),
            Some(v) if v == -INFINITY => "-Infinity".into(),
            Some(v) => v.to_string(),
            None => value.to_string(),
        });
    }
    fields.join(",") + end
}

impl Diagnosis {
    /// The faults found, as a set.
    pub fn faults(&self) -> Faults {
        self.found.iter().map(|f| f.fault).collect()
    }
}

/// The catalogue's programs run on one case, each set of faults written at most once
/// (as far as the lines asked for).
struct Catalogue {
    /// The problem whose right output is the expected file.
    problem: Problem,
    /// The expected file's byte form.
    style: Style,
    /// What each set of faults written so far writes.
    written: RefCell<HashMap<Faults, Written>>,
    /// The text-blind view (see [`canonical`]) of files written so far, by faults and
    /// whether the board is kept.
    seen_blind: RefCell<HashMap<(Faults, bool), Rc<BlindLines>>>,
}

/// A file's lines in the text-blind view.
type BlindLines = Vec<String>;

/// What a set of faults was found to write.
#[derive(Clone)]
enum Written {
    /// The whole file, and its log's length in lines.
    File(Rc<Vec<u8>>, usize),
    /// A log longer than this many lines (the search was left there).
    LongerThan(usize),
}

/// Sets of faults remembered per case before the memory is cleared.
const REMEMBERED: usize = 4096;

impl Catalogue {
    /// What the program with `faults` writes, `None` when its log is longer than
    /// `max_lines` lines.
    fn write(&self, faults: Faults, max_lines: usize) -> Option<Rc<Vec<u8>>> {
        match self.written.borrow().get(&faults) {
            Some(Written::File(out, length)) => {
                return (*length <= max_lines).then(|| Rc::clone(out));
            }
            Some(&Written::LongerThan(known)) if max_lines <= known => return None,
            _ => {}
        }
        let out = mutants::write(&self.problem, self.style, faults, max_lines).map(Rc::new);
        let record = match &out {
            Some(out) => Written::File(Rc::clone(out), lines(out).len()),
            None => Written::LongerThan(max_lines),
        };
        let mut written = self.written.borrow_mut();
        if written.len() >= REMEMBERED {
            written.clear();
        }
        let fits = match &record {
            Written::File(_, length) => *length <= max_lines,
            Written::LongerThan(_) => false,
        };
        written.insert(faults, record);
        out.filter(|_| fits)
    }

    /// [`Catalogue::write`] in the text-blind view, the board kept `with_board`.
    fn write_blind(
        &self,
        faults: Faults,
        max_lines: usize,
        with_board: bool,
    ) -> Option<Rc<BlindLines>> {
        let out = self.write(faults, max_lines)?;
        if let Some(seen) = self.seen_blind.borrow().get(&(faults, with_board)) {
            return Some(Rc::clone(seen));
        }
        let seen = Rc::new(canonical(&out, text_only(), with_board));
        let mut cache = self.seen_blind.borrow_mut();
        if cache.len() >= REMEMBERED {
            cache.clear();
        }
        cache.insert((faults, with_board), Rc::clone(&seen));
        Some(seen)
    }
}

/// The faults that only rewrite the text of a file.
fn text_only() -> Faults {
    Mistake::SIMULATED
        .into_iter()
        .filter(|f| f.rewrites_text_only())
        .collect()
}

/// What identifies a [`Catalogue`]: the input's problem, the byte form and the
/// expected file (by length and hash).
type CatalogueKey = (Problem, Style, usize, u64);

thread_local! {
    /// The last catalogue run on this thread: `batch` and the tests check many files
    /// against one expected output, and each program need run only once.
    static LAST: RefCell<Option<(CatalogueKey, Rc<Catalogue>)>> = const { RefCell::new(None) };
}

/// The catalogue on the problem (the variant whose right output is `expected`), or
/// `None` when no variant gives `expected`.
fn catalogue(problem: &Problem, style: Style, expected: &[u8]) -> Option<Rc<Catalogue>> {
    let mut hasher = DefaultHasher::new();
    expected.hash(&mut hasher);
    let key = (problem.clone(), style, expected.len(), hasher.finish());
    if let Some(hit) = LAST.with_borrow(|last| {
        last.as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, c)| Rc::clone(c))
    }) {
        return Some(hit);
    }
    let problem = fitting(problem, style, expected)?;
    let catalogue = Rc::new(Catalogue {
        problem,
        style,
        written: RefCell::new(HashMap::new()),
        seen_blind: RefCell::new(HashMap::new()),
    });
    LAST.set(Some((key, Rc::clone(&catalogue))));
    Some(catalogue)
}

/// Finds the faults of the catalogue that make `problem`'s right output `expected`
/// into `actual`. The files must differ.
pub fn diagnose(
    problem: &Problem,
    expected: &[u8],
    actual: &[u8],
) -> Result<Diagnosis, NoDiagnosis> {
    let (want, got) = (lines(expected), lines(actual));
    if want.len().max(got.len()) > MAX_LINES {
        return Err(NoDiagnosis::TooLarge);
    }
    let style = style_of(expected);
    let catalogue = catalogue(problem, style, expected).ok_or(NoDiagnosis::InputDoesNotFit)?;
    // A log longer than the student's cannot be it, nor come within `n` lines of it
    // when longer by more than `n` lines.
    let near = |n: usize| got.len() + n;
    let exact: Vec<Mistake> = Mistake::SIMULATED
        .into_iter()
        .filter(|f| f.applies_to(&catalogue.problem))
        .filter(|&f| {
            catalogue
                .write(Faults::one(f), near(0))
                .is_some_and(|out| out.as_slice() == actual)
        })
        .collect();
    if let Some((&fault, others)) = exact.split_first() {
        let (lines, first) = distance(&want, &got);
        return Ok(Diagnosis {
            found: vec![Found {
                fault,
                first_line: first.unwrap_or(0) + 1,
                lines,
                alike: others.to_vec(),
            }],
            exact: true,
            unexplained: 0,
            unexplained_from: None,
            problem: catalogue.problem.clone(),
        });
    }
    let chosen = search(&catalogue, expected, actual);
    let write = |faults: Faults| catalogue.write(faults, near(want.len() + got.len()));
    let left = match write(chosen) {
        Some(out) => distance(&lines(&out), &got).0,
        None => distance(&want, &got).0,
    };
    let mut found: Vec<Found> = chosen
        .iter()
        .map(|fault| {
            // Without it the program may write a far longer log (the fault cut the
            // tree short): then every line of the file is its.
            let (d, first) = match catalogue.write(chosen.without(fault), MAX_LINES) {
                Some(without) => distance(&lines(&without), &got),
                None => (got.len(), Some(0)),
            };
            Found {
                fault,
                first_line: first.unwrap_or(0) + 1,
                lines: d.saturating_sub(left),
                alike: Vec::new(),
            }
        })
        .collect();
    if left == 0 {
        // The file is reproduced: which other fault could stand in for each one.
        for f in found.iter_mut().filter(|f| !f.fault.rewrites_text_only()) {
            let others = chosen.without(f.fault);
            f.alike = Mistake::SIMULATED
                .into_iter()
                .filter(|&g| g.applies_to(&catalogue.problem) && !chosen.has(g))
                .filter(|g| !g.rewrites_text_only())
                .filter(|&g| {
                    catalogue
                        .write(others.with(g), near(0))
                        .is_some_and(|out| out.as_slice() == actual)
                })
                .collect();
        }
    }
    found.sort_by_key(|f| f.first_line);
    let unexplained_from = match write(chosen) {
        Some(out) if left > 0 => distance(&lines(&out), &got).1.map(|i| i + 1),
        _ => None,
    };
    Ok(Diagnosis {
        found,
        exact: left == 0 && !chosen.is_empty(),
        unexplained: left,
        unexplained_from,
        problem: catalogue.problem.clone(),
    })
}

/// The set of faults that comes nearest `actual`: first the faults that change the
/// search or the next board, seen through text with every text-only fault undone
/// (one at a time, then pairs); then each text-only fault on its own.
fn search(catalogue: &Catalogue, expected: &[u8], actual: &[u8]) -> Faults {
    let problem = &catalogue.problem;
    let with_board = has_board(actual);
    let text_only: Faults = Mistake::SIMULATED
        .into_iter()
        .filter(|f| f.rewrites_text_only())
        .collect();
    let blind = |bytes: &[u8]| canonical(bytes, text_only, with_board);
    let got_blind = blind(actual);
    // How far a set's output is, in the blind view; `None` when it is no nearer than
    // `than` (told by the line counts alone, without a diff).
    let blind_distance = |faults: Faults, than: usize| -> Option<usize> {
        let out = catalogue.write_blind(faults, got_blind.len() + than, with_board)?;
        if out.len().abs_diff(got_blind.len()) >= than || at_least(&out, &got_blind) >= than {
            return None;
        }
        let d = distance(&out, &got_blind).0;
        (d < than).then_some(d)
    };
    // Every fault that may change the search, also those that change nothing on
    // this case alone (with another fault on, they may).
    let searching: Vec<Mistake> = Mistake::SIMULATED
        .into_iter()
        .filter(|f| f.applies_to(problem) && !f.rewrites_text_only())
        .collect();
    let start = distance(&blind(expected), &got_blind).0;
    let mut ranked: Vec<(usize, Mistake)> = searching
        .iter()
        .map(|&f| (blind_distance(Faults::one(f), start).unwrap_or(start), f))
        .collect();
    ranked.sort();
    let mut chosen = Faults::NONE;
    let mut left = start;
    for round in 0..MAX_FAULTS {
        if left == 0 {
            break;
        }
        let best = if round == 0 {
            ranked.first().copied().filter(|&(d, _)| d < left)
        } else {
            let mut best: Option<(usize, Mistake)> = None;
            for &f in searching.iter().filter(|&&f| !chosen.has(f)) {
                let than = best.map_or(left, |(d, _)| d);
                if let Some(d) = blind_distance(chosen.with(f), than) {
                    best = Some((d, f));
                }
            }
            best
        };
        let Some((d, fault)) = best else { break };
        chosen = chosen.with(fault);
        left = d;
    }
    if left > 0 && lines(expected).len() <= MAX_PAIR_SEARCH_LINES {
        // Adding one fault at a time can miss two that only together come close:
        // try each fault that alone changes the very line where the student's file
        // first differs, with every other.
        let want_blind = blind(expected);
        // (in the log first: a board that differs may only follow from it)
        let log_start = if with_board {
            got_blind.len().min(8)
        } else {
            0
        };
        let first_change = |x: &[String]| {
            let differs = |i: &usize| want_blind.get(*i) != x.get(*i);
            let end = want_blind.len().max(x.len());
            (log_start..end)
                .find(differs)
                .or_else(|| (0..log_start).find(differs))
        };
        let first = first_change(&got_blind);
        // (a single fault's whole file when it is not very long: it is kept for the
        // next file of the case)
        let near = 4 * got_blind.len() + 200;
        let writes_first = |f: Mistake| match first.and_then(|i| i.checked_sub(log_start)) {
            _ if catalogue.write(Faults::one(f), near).is_some() => catalogue
                .write_blind(Faults::one(f), near, with_board)
                .is_some_and(|out| first_change(&out) == first),
            // A long log: only its lines up to that one are needed; write no further.
            Some(line) => {
                let mut prefix: Vec<String> = Vec::new();
                let _ = mutants::write_watched(
                    problem,
                    catalogue.style,
                    Faults::one(f),
                    MAX_LINES,
                    &mut |index, text| {
                        prefix.push(canonical_line(&String::from_utf8_lossy(text), text_only));
                        index < line
                    },
                );
                let differs = |i: &usize| prefix.get(*i) != want_blind.get(log_start + *i);
                (0..=line).find(differs) == Some(line)
            }
            None => catalogue
                .write_blind(Faults::one(f), MAX_LINES, with_board)
                .is_some_and(|out| first_change(&out) == first),
        };
        let leads: Vec<Mistake> = ranked
            .iter()
            .map(|&(_, f)| f)
            .filter(|&f| writes_first(f))
            .collect();
        // Each pair's log is compared line by line as it is written, and left at its
        // first line that is not the student's.
        let mut same_line = |index: usize, text: &[u8]| {
            let line = canonical_line(&String::from_utf8_lossy(text), text_only);
            got_blind.get(log_start + index) == Some(&line)
        };
        let mut writes_it = |pair: Faults| {
            let out =
                mutants::write_watched(problem, catalogue.style, pair, MAX_LINES, &mut same_line)?;
            (blind(&out) == got_blind).then_some(pair)
        };
        let others = |f: Mistake| ranked.iter().map(|&(_, g)| g).filter(move |&g| g != f);
        let pair = leads
            .iter()
            .find_map(|&f| others(f).find_map(|g| writes_it(Faults::one(f).with(g))));
        // Two faults that change nothing alone can together (a third pass that only
        // a deeper leaf test lets happen): then each of them writes the right file.
        // (on a difference on the board alone, each pair writes the whole log)
        let first_log_line = match first {
            Some(i) if i >= log_start => i - log_start + 1,
            _ => want_blind.len().saturating_sub(log_start) + 1,
        };
        let pair = pair.or_else(|| {
            let latent: Vec<Mistake> = ranked
                .iter()
                .map(|&(_, f)| f)
                .filter(|&f| {
                    catalogue
                        .write_blind(Faults::one(f), near, with_board)
                        .is_some_and(|out| *out == want_blind)
                })
                .collect();
            let pairs = latent.len() * latent.len().saturating_sub(1) / 2;
            if pairs * first_log_line > LATENT_PAIR_LINES {
                return None;
            }
            latent.iter().enumerate().find_map(|(i, &f)| {
                latent[i + 1..]
                    .iter()
                    .find_map(|&g| writes_it(Faults::one(f).with(g)))
            })
        });
        if let Some(pair) = pair {
            chosen = pair;
        }
    }
    let searched = chosen;
    let longest = 2 * got_blind.len() + 64;
    let Some(base) = catalogue.write(searched, longest) else {
        return searched;
    };
    for fault in text_only.iter().filter(|f| f.applies_to(problem)) {
        let erase = text_only.without(fault);
        let seen = |bytes: &[u8]| canonical(bytes, erase, with_board);
        let target = seen(actual);
        let Some(with) = catalogue.write(searched.with(fault), longest) else {
            continue;
        };
        if distance(&seen(&with), &target).0 < distance(&seen(&base), &target).0 {
            chosen = chosen.with(fault);
        }
    }
    chosen
}
