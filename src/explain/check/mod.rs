//! `check`: compare an output file with the expected one and explain the first
//! difference a person should fix, naming the node and the known mistake behind it.

use serde::{Deserialize, Serialize};

mod align;
mod catalogue;
mod honest;
mod next_board;
mod plain;
mod report;
mod sentences;
mod text;

use next_board::board_difference;
use plain::explain_log_line;
use report::shown;
use text::{byte_form, byte_order_mark, is_other_end, odd_value, only_inf_spellings, Lines};

pub use align::Change;
pub use honest::{Candidate, TreeChange};

use crate::board::Squares;
use crate::course_search::INFINITY;
use crate::explain::audit::{audit, Finding};
use crate::explain::diagnose::{diagnose, NoDiagnosis};
use crate::explain::log::{self, Entry, ALPHA_BETA_HEADER, LOG_START, MINIMAX_HEADER};
pub use crate::explain::mistake::Mistake;
use crate::explain::replay::{no_line_to_bracket, square_of, Position};
use crate::format::cs561::Problem;
use crate::printable::printable as escaped;

/// A board shown with a difference: an 8x8 grid with coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// What the board is: `the board at root > d3`, `the next board`.
    pub title: String,
    /// The grid, rows joined by `\n` (see [`crate::explain::replay::grid_lines`]).
    pub grid: String,
}

/// One mistake of a file, for `check --all`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed {
    /// The mistake, when it has a name.
    pub mistake: Option<Mistake>,
    /// Found by running the catalogue on the input: a program of the catalogue with
    /// this mistake (and the others so found) writes the lines it accounts for.
    pub from_catalogue: bool,
    /// The first line (1-based) it changes; none for the byte form of the file.
    pub line: Option<usize>,
    /// Lines of the file it accounts for (inserted, deleted or changed to undo it);
    /// none when not counted.
    pub lines: Option<usize>,
    /// What it is, in a few words.
    pub summary: String,
}

/// The first difference, explained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The 1-based line, or `None` when the difference is the byte form of the file.
    pub line: Option<usize>,
    /// The expected line (without its line end), if the expected file has it.
    pub expected: Option<String>,
    /// The actual line, if the actual file has it.
    pub actual: Option<String>,
    /// The node's path in the tree, `root > d3 > c3`.
    pub node: Option<String>,
    /// The known mistake, when the difference is one.
    pub mistake: Option<Mistake>,
    /// What is wrong and what the rule is, in words.
    pub explanation: String,
    /// The board where it goes wrong, when the input tells it.
    pub board: Option<BoardView>,
}

/// The result of comparing two output files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The files are byte for byte the same.
    pub identical: bool,
    /// The files are the same as the Fall 2014 grader compared them: without CR,
    /// trailing whitespace and trailing blank lines.
    pub lenient_identical: bool,
    /// The comparison asked for is the lenient one.
    pub lenient: bool,
    /// Size of the expected file in bytes.
    pub expected_bytes: usize,
    /// The first difference a person should fix (none when byte-identical).
    pub difference: Option<Difference>,
    /// Other things worth knowing: a second difference, how a lenient grader sees it.
    pub notes: Vec<String>,
    /// Every distinct mistake in the file, by first line (`check --all`).
    pub mistakes: Vec<Listed>,
    /// When the input was given and no program of the catalogue writes the file, or
    /// several do ([`Report::ambiguous`]): the possible causes, most likely first,
    /// each with its evidence.
    pub candidates: Vec<Candidate>,
    /// Several programs of the catalogue, each with one mistake, write the file byte
    /// for byte: the candidates are they, and none of them is named as the cause (the
    /// difference names, if any, the rule the student's own lines break there, which
    /// each of them breaks).
    pub ambiguous: bool,
    /// When the difference is not explained: what differs, node by node, in search
    /// order.
    pub aligned: Vec<TreeChange>,
}

/// Compares `actual` with `expected` (both whole output files). `lenient` asks for
/// the Fall 2014 grader's comparison; the report tells the strict one in any case.
pub fn check(expected: &[u8], actual: &[u8], lenient: bool) -> Report {
    check_with_input(expected, actual, lenient, None)
}

/// Like [`check`], knowing the case's input: the catalogue of known mistakes
/// ([`crate::explain::mutants`]) is run on it to name every mistake in the file whose
/// program writes it byte for byte, moves are checked for legality, and the board
/// where the files part is shown.
pub fn check_with_input(
    expected: &[u8],
    actual: &[u8],
    lenient: bool,
    problem: Option<&Problem>,
) -> Report {
    const BOM: &[u8] = b"\xef\xbb\xbf";
    if let (false, Some(rest)) = (expected.starts_with(BOM), actual.strip_prefix(BOM)) {
        return byte_order_mark(expected, rest, lenient, problem);
    }
    let identical = expected == actual;
    let (want, got) = (Lines::split(expected), Lines::split(actual));
    let lenient_identical = want.lenient() == got.lenient();
    let root = problem.map(Position::root);
    let mut notes = Vec::new();
    let mut mistakes = Vec::new();
    let mut candidates = Vec::new();
    let mut ambiguous = false;
    let difference = if identical {
        None
    } else if got.texts.is_empty() {
        Some(Difference {
            board: None,
            line: Some(1),
            expected: want.texts.first().cloned(),
            actual: None,
            node: None,
            mistake: Some(Mistake::MissingLines),
            explanation: "the file is empty; it starts with the next board's 8 lines".into(),
        })
    } else if want.texts == got.texts {
        Some(byte_form(&want, &got))
    } else {
        let diagnosis = problem.map(|problem| diagnose(problem, expected, actual));
        let from_catalogue = match &diagnosis {
            Some(Ok(diagnosis)) => {
                mistakes = catalogue::listing(diagnosis);
                let explained = catalogue::difference(
                    diagnosis,
                    expected,
                    &want,
                    &got,
                    &mut notes,
                    &mut candidates,
                );
                ambiguous = !candidates.is_empty();
                explained
            }
            Some(Err(NoDiagnosis::InputDoesNotFit)) => {
                notes.push(
                    "the input given does not give the expected file under any release's \
                     rule, so the catalogue of known mistakes was not run on it"
                        .into(),
                );
                None
            }
            Some(Err(NoDiagnosis::TooLarge)) => {
                notes.push(format!(
                    "the files are longer than {} lines: the catalogue of known mistakes was \
                     not run, and the explanation is the plain rules' reading",
                    crate::explain::diagnose::MAX_LINES
                ));
                None
            }
            None => None,
        };
        let explained = from_catalogue.is_some();
        let mut content = from_catalogue
            .unwrap_or_else(|| content_difference(&want.texts, &got.texts, root, &mut notes));
        if let (Some(Ok(diagnosis)), false) = (&diagnosis, explained) {
            candidates = honest::settle(&mut content, diagnosis, &want.texts, &got.texts);
        }
        let reproduced = explained && !ambiguous;
        let fits = !matches!(diagnosis, Some(Err(NoDiagnosis::InputDoesNotFit)));
        if let (Some(problem), false, true) = (problem, reproduced, fits) {
            // (the judge explains the first line that differs, or nothing: a line it
            // finds later follows a difference it does not read, a header say)
            // (or the line before it, the rules' and the student's alike, when the
            // student's next line is shallower where the rules' is a child: that node
            // ends without a child, which the judge sees on its own line)
            let depth = |lines: &[String], line: usize| {
                lines.get(line - 1).and_then(|l| Entry::parse(l).depth)
            };
            let at_first = |f: &Finding| match content.line {
                Some(first) if f.line == first => true,
                Some(first) if f.line + 1 == first && f.line > LOG_START => matches!(
                    (depth(&got.texts, f.line), depth(&got.texts, first), depth(&want.texts, first)),
                    (Some(d), Some(next), Some(child)) if next < d && child == d + 1
                ),
                _ => false,
            };
            if let Some(finding) = audit(problem, &got.texts).filter(at_first) {
                content = judged(content, finding, ambiguous, &want.texts, &got.texts);
            }
        }
        if let (Some(named), false) = (content.mistake, ambiguous) {
            // (a definite finding leads: a candidate that does not write the file is
            // never listed above it, nor beside it)
            candidates.retain(|c| c.mistake == named);
        }
        if want
            .ends
            .iter()
            .zip(&got.ends)
            .any(|(w, g)| is_other_end(*w, *g))
        {
            notes.push("the line ends differ too (CRLF vs LF)".into());
        }
        Some(content)
    };
    let difference = difference.map(|d| with_headline(d, ambiguous, &candidates));
    if let (Some(difference), true) = (&difference, mistakes.is_empty()) {
        mistakes = plain_listing(difference, &want, &got, problem.is_some());
    }
    if !identical && lenient_identical && !lenient {
        notes.push(
            "the Fall 2014 grader (--lenient: ignores CR, trailing whitespace and trailing \
             blank lines) would accept this file; byte-exact graders do not"
                .into(),
        );
    }
    let aligned = match &difference {
        Some(d) if d.mistake.is_none() => honest::tree_changes(&want.texts, &got.texts),
        _ => Vec::new(),
    };
    Report {
        identical,
        lenient_identical,
        lenient,
        expected_bytes: expected.len(),
        difference,
        notes,
        mistakes,
        candidates,
        ambiguous,
        aligned,
    }
}

/// The most words the first sentence of an explanation has: a student who reads only
/// it knows what to fix.
pub const HEADLINE_WORDS: usize = 30;

/// The first sentence of an explanation: up to its first full stop (or the whole
/// text).
pub fn first_sentence(explanation: &str) -> &str {
    explanation
        .find(". ")
        .map_or(explanation, |end| &explanation[..=end])
}

/// `difference` with a first sentence of at most [`HEADLINE_WORDS`] words: its own
/// when short enough, else one that says at which node the file does what, before
/// the explanation.
fn with_headline(
    mut difference: Difference,
    ambiguous: bool,
    candidates: &[Candidate],
) -> Difference {
    let words = first_sentence(&difference.explanation)
        .split_whitespace()
        .count();
    if words <= HEADLINE_WORDS {
        return difference;
    }
    let place = place(difference.node.as_deref(), difference.line);
    let headline = match (difference.mistake, ambiguous) {
        (None, true) => {
            let mut labels: Vec<&str> = candidates.iter().map(|c| c.mistake.label()).collect();
            labels.dedup();
            let named = format!(
                "{place} {} known mistakes each write your file ({}); this case cannot tell \
                 which.",
                candidates.len(),
                labels.join("; ")
            );
            if named.split_whitespace().count() <= HEADLINE_WORDS {
                named
            } else {
                format!(
                    "{place} {} known mistakes each write your file; this case cannot tell \
                     which.",
                    candidates.len()
                )
            }
        }
        (Some(mistake), _) => named_headline(&place, mistake),
        (None, false) => {
            format!("{place} your line is not the rules' line, and no known mistake explains it.")
        }
    };
    // (the explanation goes on as it was written: it may start with a node's name,
    // which stays in lower case)
    difference.explanation = format!("{headline} {}", difference.explanation);
    difference
}

/// Where a difference is, for the start of a first sentence: `At c4 (line 21)`.
fn place(node: Option<&str>, line: Option<usize>) -> String {
    match (node, line) {
        (Some(node), Some(line)) => {
            let name = node.rsplit(" > ").next().unwrap_or(node);
            format!("At {} (line {line})", escaped(name))
        }
        (None, Some(line)) => format!("At line {line}"),
        _ => "In the file's byte form".to_string(),
    }
}

/// The first sentence that names `mistake` at `place`: what the program does there,
/// and the rule.
fn named_headline(place: &str, mistake: Mistake) -> String {
    format!(
        "{place}: {}; the rule: {}.",
        mistake.label(),
        mistake.rule()
    )
}

/// `content` (the first difference, as the catalogue or the plain rules read it) as the
/// judge of the student's own tree explains it, where it can: its `finding` is at the
/// first line that differs.
fn judged(
    content: Difference,
    mut finding: Finding,
    ambiguous: bool,
    want: &[String],
    got: &[String],
) -> Difference {
    if ambiguous {
        // (several programs of the catalogue write an ambiguous file byte for byte: no
        // reading of one line can tell them apart, but a rule the student's own lines
        // prove broken there is broken by each of them; a reading is one program at
        // most, so the rule's own words lead)
        let Some(proven) = finding.proven else {
            return content;
        };
        let by_rule = std::mem::take(&mut finding.by_rule);
        let ways = content
            .explanation
            .strip_prefix(catalogue::AMBIGUOUS)
            .unwrap_or(&content.explanation)
            .to_string();
        let board_line = finding.line < LOG_START;
        let mut judged = from_finding(finding, content.line, want, got);
        judged.mistake = Some(proven);
        judged.explanation = format!("{by_rule} Known ways of doing it: {ways}");
        if board_line {
            // (the next board: both boards side by side, as the catalogue shows them)
            (judged.node, judged.board) = (content.node, content.board);
        }
        judged
    } else if match content.mistake {
        None => true,
        // (the next board read with the logs alike says as much, cell by cell)
        Some(Mistake::WrongBoard) => finding.mistake != Some(Mistake::WrongBoard),
        Some(m) => finding.mistake.is_some() && !m.rewrites_text_only(),
    } {
        from_finding(finding, content.line, want, got)
    } else {
        content
    }
}

/// The difference the judge of the student's own tree found: its first sentence, then
/// the evidence; the board as the student's moves make it. `first` is the first
/// differing line (the finding's, or the one after it).
fn from_finding(
    finding: Finding,
    first: Option<usize>,
    want: &[String],
    got: &[String],
) -> Difference {
    let line = first.unwrap_or(finding.line);
    let index = line - 1;
    Difference {
        line: Some(line),
        expected: want.get(index).cloned(),
        actual: got.get(index).cloned(),
        node: Some(finding.node.clone()),
        mistake: finding.mistake,
        explanation: format!("{} {}", finding.sentence, finding.evidence)
            .trim_end()
            .to_string(),
        board: Some(BoardView {
            title: format!("the board at {} (as your moves make it)", finding.grid_node),
            grid: finding.grid,
        }),
    }
}

/// What `check --all` lists without the catalogue: the first difference, and what
/// the text alone shows about the rest of the file.
fn plain_listing(
    difference: &Difference,
    want: &Lines,
    got: &Lines,
    had_input: bool,
) -> Vec<Listed> {
    let mut listed = vec![Listed {
        mistake: difference.mistake,
        from_catalogue: false,
        line: difference.line,
        lines: None,
        summary: difference
            .mistake
            .map_or("differs (no known mistake)".to_string(), |m| {
                m.label().to_string()
            }),
    }];
    let mut add = |mistake: Mistake, line: Option<usize>, lines: usize| {
        if difference.mistake != Some(mistake) && lines > 0 {
            listed.push(Listed {
                mistake: Some(mistake),
                from_catalogue: false,
                line,
                lines: Some(lines),
                summary: mistake.label().into(),
            });
        }
    };
    let other_ends: Vec<usize> = (0..want.ends.len().min(got.ends.len()))
        .filter(|&i| is_other_end(want.ends[i], got.ends[i]))
        .collect();
    add(
        Mistake::LineEnds,
        other_ends.first().map(|i| i + 1),
        other_ends.len(),
    );
    if want.final_newline() != got.final_newline() {
        add(Mistake::FinalNewline, Some(got.texts.len()), 1);
    }
    let floats: Vec<usize> = (LOG_START..got.texts.len())
        .filter(|&i| {
            Entry::parse(&got.texts[i])
                .values
                .iter()
                .any(|v| odd_value(v))
        })
        .collect();
    add(
        if only_inf_spellings(&got.texts) {
            Mistake::InfSpelling
        } else {
            Mistake::FloatValues
        },
        floats.first().map(|i| i + 1),
        floats.len(),
    );
    if !had_input {
        listed.push(Listed {
            mistake: None,
            from_catalogue: false,
            line: None,
            lines: None,
            summary: "give the case's input (--input) to list every mistake of the file".into(),
        });
    }
    listed
}

/// The first line that differs in content, explained; `notes` gets a board
/// difference that the log difference probably causes.
fn content_difference(
    want: &[String],
    got: &[String],
    root: Option<Position>,
    notes: &mut Vec<String>,
) -> Difference {
    let first = (0..want.len().min(got.len()))
        .find(|&i| want[i] != got[i])
        .unwrap_or(want.len().min(got.len()));
    let board_rows = 8.min(want.len());
    let only_spaces = match (want.get(first), got.get(first)) {
        (Some(w), Some(g)) => w.trim_end() == g.trim_end(),
        _ => false,
    };
    let header = want.get(LOG_START - 1).map_or("Node,", String::as_str);
    if first == 0 && got[0] == header {
        return Difference {
            board: None,
            line: Some(1),
            expected: want.first().cloned(),
            actual: got.first().cloned(),
            node: None,
            mistake: Some(Mistake::MissingBoard),
            explanation: "the file starts with the log's header: the next board's 8 lines \
                          must come first"
                .into(),
        };
    }
    if let (true, Some(line)) = (first < board_rows, got.get(first)) {
        let plain = |mistake: Mistake, explanation: &str| Difference {
            board: None,
            line: Some(first + 1),
            expected: want.get(first).cloned(),
            actual: Some(line.clone()),
            node: Some("root (the next board)".into()),
            mistake: Some(mistake),
            explanation: explanation.into(),
        };
        if line.ends_with('\r') {
            return plain(
                Mistake::InputCr,
                "your board line ends with a CR (\\r) before its line end: the rows were read \
                 from input.txt with their CR and written back, so your program most likely \
                 also read the player as \"X\\r\" or \"O\\r\", which matches no disc. Strip \
                 '\\r' (or all whitespace) from every line you read",
            );
        }
        let cells: Vec<char> = line.chars().collect();
        let spaced = cells.len() == 15 && cells.iter().skip(1).step_by(2).all(|&c| c == ' ');
        if spaced {
            return plain(
                Mistake::SpacedBoard,
                "a board row is its 8 cells with nothing between them (`***XX***`); your \
                 rows put spaces between the cells",
            );
        }
    }
    let truncated = got.len() < want.len() && got.len() <= LOG_START;
    if first < board_rows && !only_spaces && !truncated {
        let log_first =
            (LOG_START - 1..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i));
        let board = board_difference(want, got);
        match log_first {
            None => return board,
            Some(line) => {
                notes.push(format!(
                    "line {}: the next board differs too ({}); fix the log first, the \
                     board may follow from it",
                    first + 1,
                    board.explanation
                ));
                return line_difference(want, got, line, root, notes);
            }
        }
    }
    line_difference(want, got, first, root, notes)
}

/// A difference at 0-based line `index`, at or after the board.
fn line_difference(
    want: &[String],
    got: &[String],
    index: usize,
    root: Option<Position>,
    notes: &mut Vec<String>,
) -> Difference {
    let mut difference = Difference {
        board: None,
        line: Some(index + 1),
        expected: want.get(index).cloned(),
        actual: got.get(index).cloned(),
        node: None,
        mistake: None,
        explanation: String::new(),
    };
    match (want.get(index), got.get(index)) {
        (Some(w), Some(g)) if w.trim_end() == g.trim_end() => {
            difference.mistake = Some(Mistake::TrailingWhitespace);
            difference.explanation =
                "the line ends with spaces or tabs; lines hold nothing after their last field"
                    .into();
            return difference;
        }
        (None, Some(_)) if got[index..].iter().all(|l| l.trim().is_empty()) => {
            difference.mistake = Some(Mistake::TrailingWhitespace);
            difference.explanation = format!(
                "the file ends with {} blank line(s); nothing follows the root's last line",
                got.len() - index
            );
            return difference;
        }
        _ => {}
    }
    if index < LOG_START && want.get(index).is_none() {
        difference.mistake = Some(Mistake::ExtraLines);
        difference.explanation = format!(
            "the expected file ends after line {index}; this one goes on with {} more \
             line(s)",
            got.len() - index
        );
        return difference;
    }
    if index < LOG_START && got.get(index).is_none() {
        difference.mistake = Some(Mistake::MissingLines);
        difference.explanation = format!(
            "the file ends after line {index}; the expected file goes on with {} more \
             line(s)",
            want.len() - index
        );
        return difference;
    }
    if index < LOG_START - 1 {
        difference.explanation = "the line differs".into();
        return difference;
    }
    if index == LOG_START - 1 {
        let header = if want[index].split(',').count() == 3 {
            MINIMAX_HEADER
        } else {
            ALPHA_BETA_HEADER
        };
        difference.explanation = match got.get(index) {
            Some(line) if line.starts_with("root,") => {
                difference.mistake = Some(Mistake::MissingHeader);
                format!(
                    "the header line `{header}` is missing; the log starts right after the board"
                )
            }
            _ => format!("the 9th line is the log's header, exactly `{header}`"),
        };
        return difference;
    }
    let exp: Vec<Entry> = want
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect();
    let act: Vec<Entry> = got
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect();
    let j = index - LOG_START;
    let path = if j < exp.len() {
        log::path_at(&exp, j)
    } else {
        log::path_at(&act, j)
    };
    difference.node = (!path.is_empty()).then(|| log::path_text(&path));
    if let Some(cause) = align::Alignment::new(&exp, &act).cause(&exp, &act) {
        return tree_difference(want, got, cause, &exp, root);
    }
    let (mut mistake, mut explanation) = explain_log_line(&exp, &act, j, &path);
    if mistake == Some(Mistake::PrunedTooLate) {
        // A window turned inside out (alpha above beta) is printed only by a program
        // that never prunes.
        if let Some(i) = act
            .iter()
            .position(|x| x.alpha().zip(x.beta()).is_some_and(|(a, b)| a > b))
        {
            mistake = Some(Mistake::NoPruning);
            explanation += &format!(
                ". Your program does not prune at all: at line {} it prints alpha {} above \
                 beta {}, which only a search that never prunes can print",
                i + LOG_START + 1,
                act[i].values.get(1).copied().unwrap_or("?"),
                act[i].values.get(2).copied().unwrap_or("?")
            );
        }
    }
    difference.mistake = mistake;
    difference.explanation = explanation;
    match root {
        Some(root) if log_fits_input(root, exp.iter().cloned()) => {
            replay(&exp, &act, j, root, &mut difference)
        }
        Some(_) => notes.push(format!(
            "{}, so it was not used",
            input_does_not_fit("the expected log")
        )),
        None => {}
    }
    difference
}

/// A difference explained from the aligned trees (see [`align::Alignment::cause`]).
fn tree_difference(
    want: &[String],
    got: &[String],
    cause: align::Cause,
    exp: &[Entry],
    root: Option<Position>,
) -> Difference {
    let line = cause
        .actual
        .or(cause.expected)
        .map_or(want.len().min(got.len()), |j| j + LOG_START);
    let mut difference = Difference {
        board: None,
        line: Some(line + 1),
        expected: cause
            .expected
            .and_then(|i| want.get(i + LOG_START))
            .cloned(),
        actual: cause.actual.and_then(|a| got.get(a + LOG_START)).cloned(),
        node: Some(cause.node),
        mistake: cause.mistake,
        explanation: cause.text,
    };
    if let (Some(root), Some(i)) = (root, cause.expected) {
        if log_fits_input(root, exp.iter().cloned()) {
            let path = log::path_at(exp, i);
            if let Some(position) = root.at(&path) {
                difference.board = Some(BoardView {
                    title: format!("the board at {}", log::path_text(&path)),
                    grid: position.grid(),
                });
            }
        }
    }
    difference
}

fn kind(entry: &Entry) -> &'static str {
    if entry.is_max() {
        "MAX"
    } else {
        "MIN"
    }
}

fn cutoff_rule(entry: &Entry) -> String {
    let (v, a, b) = (
        entry.values.first().copied().unwrap_or("?"),
        entry.values.get(1).copied().unwrap_or("?"),
        entry.values.get(2).copied().unwrap_or("?"),
    );
    if entry.is_max() {
        format!("{} is a MAX node and its value {v} >= beta {b}", entry.name)
    } else {
        format!(
            "{} is a MIN node and its value {v} <= alpha {a}",
            entry.name
        )
    }
}

/// The logs of two output files aligned as trees by node path: what the student's
/// (`actual`) lacks, has beyond the expected one, or prints otherwise, node by node
/// in search order (the alignment `check` explains from).
pub fn tree_changes(expected: &[u8], actual: &[u8]) -> Vec<TreeChange> {
    honest::tree_changes(&Lines::split(expected).texts, &Lines::split(actual).texts)
}

/// What `check --input` and `tree --log` say of an input that does not fit `log`
/// (see [`log_fits_input`]).
pub fn input_does_not_fit(log: &str) -> String {
    format!("the input given does not fit {log} (its moves are not all legal there)")
}

/// Whether every move of a log (its entries after the header) is legal from `root`:
/// the input belongs to this log.
pub fn log_fits_input<'a>(root: Position, entries: impl IntoIterator<Item = Entry<'a>>) -> bool {
    // The position of each node on the current path, by depth.
    let mut positions: Vec<Position> = Vec::new();
    let mut previous_depth: Option<Option<u32>> = None;
    entries.into_iter().all(|entry| {
        let Some(depth) = entry.depth.map(|d| d as usize) else {
            return false;
        };
        // The first print of a node: the first line, or one level below the line before.
        let first_print = match previous_depth {
            None => true,
            Some(before) => before.is_some_and(|b| b as usize + 1 == depth),
        };
        previous_depth = Some(entry.depth);
        if !first_print {
            positions.truncate(depth + 1);
            return positions.len() == depth + 1;
        }
        positions.truncate(depth);
        let position = match depth {
            0 => Some(root),
            _ => positions
                .get(depth - 1)
                .and_then(|parent| parent.child(entry.name)),
        };
        position.map(|p| positions.push(p)).is_some()
    })
}

/// With the input's position: names a move of the actual log at entry `j` that is
/// not legal where it is made, and otherwise shows the board where the logs part.
fn replay(exp: &[Entry], act: &[Entry], j: usize, root: Position, difference: &mut Difference) {
    if let Some(a) = act.get(j).filter(|a| square_of(a.name).is_some()) {
        let path = log::path_at(act, j);
        let parent = &path[..path.len() - 1];
        if let Some(position) = root.at(parent).filter(|p| p.child(a.name).is_none()) {
            // The program's own board at the parent is the right one only when no move
            // was made on the way there: a program that turns the wrong discs has the
            // same cells filled, in other colours. The move is its mistake only when it
            // is illegal whatever those colours are.
            let board_certain = parent.iter().all(|&name| square_of(name).is_none());
            let certain = board_certain
                || square_of(a.name).is_some_and(|s| no_line_to_bracket(position.board, s));
            difference.explanation = format!(
                "{} is not a legal move for {} at {}: a move must flip at least one disc, \
                 bracketing a line of the opponent's discs in one of the 8 directions \
                 without crossing the board's edge",
                a.name,
                char::from(position.player.symbol()),
                log::path_text(parent),
            );
            if certain {
                difference.mistake = Some(Mistake::IllegalMove);
            } else {
                difference.explanation += &format!(
                    " (on the right board; {} has two filled cells in a line next to it, so \
                     on a board where an earlier move turned other discs it may be legal)",
                    a.name
                );
            }
            difference.board = Some(BoardView {
                title: format!("the board at {}", log::path_text(parent)),
                grid: position.grid(),
            });
            return;
        }
    }
    if act.get(j).is_some_and(|a| a.name == "pass") {
        let path = log::path_at(act, j);
        let parent = &path[..path.len() - 1];
        if let Some(position) = root.at(parent).filter(|p| p.board.moves() != 0) {
            let moves: Vec<String> = Squares(position.board.moves())
                .map(|square| square.to_string())
                .collect();
            difference.explanation += &format!(
                ". At {} {} has legal moves, {}, so it cannot pass",
                log::path_text(parent),
                char::from(position.player.symbol()),
                moves.join(", ")
            );
            return;
        }
    }
    if difference.mistake.is_none() && j < exp.len() {
        let path = log::path_at(exp, j);
        let (shown, position) = if exp[j].name == act.get(j).map_or("", |a| a.name) {
            (&path[..], root.at(&path))
        } else {
            (&path[..path.len() - 1], root.at(&path[..path.len() - 1]))
        };
        if let Some(position) = position {
            difference.board = Some(BoardView {
                title: format!("the board at {}", log::path_text(shown)),
                grid: position.grid(),
            });
        }
    }
}
