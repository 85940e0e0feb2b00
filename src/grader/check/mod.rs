//! `check`: compare an output file with the expected one and explain the first
//! difference a person should fix, naming the node and the known mistake behind it.

use std::fmt;

use serde::Serialize;

mod align;
mod catalogue;
mod honest;

pub use align::Change;
pub use honest::{Candidate, TreeChange};

use super::diagnose::{diagnose, NoDiagnosis};
use super::log::{self, Entry, ALPHA_BETA_HEADER, LOG_START, MINIMAX_HEADER};
use super::mutants::Fault;
use super::printable::printable as escaped;
use super::replay::{grid_pair, square_of, Position};
use crate::board::{Board, Square, Squares};
use crate::course_search::INFINITY;
use crate::format::cs561::Problem;

/// A mistake students make often enough to have a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mistake {
    /// The lines are right; their ends are LF instead of CRLF (or the reverse).
    LineEnds,
    /// The lines are right; the file ends with a line end, or lacks one.
    FinalNewline,
    /// A UTF-8 byte-order mark (EF BB BF) before the first line.
    ByteOrderMark,
    /// Spaces at the end of a line, or blank lines at the end of the file.
    TrailingWhitespace,
    /// Values printed as floats: `0.0` for `0`.
    FloatValues,
    /// A cut-off line that prints alpha or beta already updated (the handout's typo).
    UpdatedAtCutoff,
    /// A side with no legal move must get one child, `pass`; the log has none.
    MissingPass,
    /// A `pass` node where the tree has none.
    ExtraPass,
    /// A node left before its value reached the cut-off: lines missing.
    PrunedTooEarly,
    /// A node that goes on after its value reached the cut-off: extra lines.
    PrunedTooLate,
    /// A node that prunes returns without printing its line.
    NoLineAtCutoff,
    /// Values from the other player's point of view, or a root searched as MIN.
    WrongRootPlayer,
    /// The next board is the one after the last of the tied best moves.
    LastTiedMove,
    /// The file starts with the log: the next board is not there.
    MissingBoard,
    /// The next board is not the one after the first best move.
    WrongBoard,
    /// A child for a move that is not legal (needs the input to tell).
    IllegalMove,
    /// Children visited out of positional order (columns first, say).
    MoveOrder,
    /// A node expanded below the cut-off depth, or a leaf above it.
    CutoffDepth,
    /// The file stops before the expected end.
    MissingLines,
    /// The file goes on after the expected end.
    ExtraLines,
    /// `input.txt` read with its CR: the player `"X\r"` matches no disc.
    InputCarriageReturn,
    /// A move turns the discs of one direction only.
    OneDirectionFlips,
    /// A move that brackets in several directions listed once per direction.
    DuplicateMoves,
    /// Squares the move generator never tries (a1, or column a).
    SquaresNeverTried,
    /// Nodes printed under a wrong name (`root` for a cell, a NUL for a digit).
    MisnamedNodes,
    /// Alpha and beta printed and updated, but no cut-off ever.
    NoPruning,
    /// Values printed fail-hard: max(alpha, v) at MAX, min(beta, v) at MIN.
    FailHard,
    /// A pass that does not use up a ply.
    PassCostsNoDepth,
    /// Two passes in a row that do not end the game.
    GameEndsLate,
    /// The game taken as over one node before the second pass.
    GameEndsEarly,
    /// The first samples' end rule applied to a revised Spring 2017 case.
    OlderEndRule,
    /// The revised end rule applied to a case of an older release.
    NewerEndRule,
    /// The end-of-game test reads the parent's name: a node reached by a move right
    /// after a pass, whose side cannot move, is a leaf.
    PassTestOnParent,
    /// A global pass flag that is not reset when the search backs up.
    StalePassFlag,
    /// The root counted as depth 1.
    DepthFromOne,
    /// Leaves evaluated for the side to move there.
    LeavesFromSideToMove,
    /// After a root pass, a next board other than the input board.
    BoardAfterPass,
    /// The next board chosen by a child's static value.
    BoardByStaticValue,
    /// The next board of the root's first move, never replaced by a better one.
    FirstMoveBoard,
    /// Infinities spelled `inf` and `-inf`.
    InfinitySpelling,
    /// Board cells separated by spaces.
    SpacedBoard,
    /// The header line left out.
    MissingHeader,
}

impl Mistake {
    /// A short name for people.
    pub const fn label(self) -> &'static str {
        match self {
            Mistake::LineEnds => "line ends only (CRLF vs LF)",
            Mistake::FinalNewline => "final newline only",
            Mistake::ByteOrderMark => "byte-order mark at the start",
            Mistake::TrailingWhitespace => "trailing whitespace",
            Mistake::FloatValues => "values printed as floats",
            Mistake::UpdatedAtCutoff => "alpha/beta updated at a cutoff (the handout's typo)",
            Mistake::MissingPass => "missing pass node",
            Mistake::ExtraPass => "extra pass node",
            Mistake::PrunedTooEarly => "pruning too early (lines missing)",
            Mistake::PrunedTooLate => "pruning too late (extra lines)",
            Mistake::NoLineAtCutoff => "no line printed at a cut-off",
            Mistake::WrongRootPlayer => "wrong root player as MAX",
            Mistake::LastTiedMove => "last instead of first tied move",
            Mistake::MissingBoard => "next board missing",
            Mistake::WrongBoard => "wrong next board",
            Mistake::IllegalMove => "a move that is not legal",
            Mistake::MoveOrder => "moves out of positional order",
            Mistake::CutoffDepth => "wrong cut-off depth",
            Mistake::MissingLines => "file ends early",
            Mistake::ExtraLines => "extra lines at the end",
            Mistake::InputCarriageReturn => {
                "input.txt read with its CR (strip '\\r' when reading it)"
            }
            Mistake::OneDirectionFlips => "flips in one direction only",
            Mistake::DuplicateMoves => "a move listed once per direction",
            Mistake::SquaresNeverTried => "squares never tried as moves",
            Mistake::MisnamedNodes => "nodes printed under a wrong name",
            Mistake::NoPruning => "no pruning at all",
            Mistake::FailHard => "fail-hard values (max(alpha, v))",
            Mistake::PassCostsNoDepth => "a pass that does not use up a ply",
            Mistake::GameEndsLate => "two passes do not end the game",
            Mistake::GameEndsEarly => "game over one node early (no second pass)",
            Mistake::OlderEndRule => "the first samples' end-of-game rule",
            Mistake::NewerEndRule => "the revised end-of-game rule",
            Mistake::PassTestOnParent => "game over after a pass and a move (parent tested)",
            Mistake::StalePassFlag => "a pass flag never reset (stale)",
            Mistake::DepthFromOne => "depths counted from 1",
            Mistake::LeavesFromSideToMove => "leaves evaluated for the side to move",
            Mistake::BoardAfterPass => "next board after a root pass",
            Mistake::BoardByStaticValue => "next board chosen by static value",
            Mistake::FirstMoveBoard => "next board of the first move kept",
            Mistake::InfinitySpelling => "infinity spelled inf",
            Mistake::SpacedBoard => "board cells separated by spaces",
            Mistake::MissingHeader => "header line missing",
        }
    }

    /// The mistake a fault of the catalogue makes.
    pub const fn of(fault: Fault) -> Mistake {
        match fault {
            Fault::InputCr => Mistake::InputCarriageReturn,
            Fault::OneDirectionFlips => Mistake::OneDirectionFlips,
            Fault::DuplicateMoves => Mistake::DuplicateMoves,
            Fault::SkipsA1 | Fault::SkipsColumnA => Mistake::SquaresNeverTried,
            Fault::ColumnANamedRoot | Fault::Row1NulNames => Mistake::MisnamedNodes,
            Fault::StrictPruning => Mistake::PrunedTooLate,
            Fault::UpdateBeforeCutoff => Mistake::UpdatedAtCutoff,
            Fault::NoPruning => Mistake::NoPruning,
            Fault::NoLineAtCutoff => Mistake::NoLineAtCutoff,
            Fault::FailHard => Mistake::FailHard,
            Fault::NoPassNode => Mistake::MissingPass,
            Fault::PassCostsNoDepth => Mistake::PassCostsNoDepth,
            Fault::GameEndsLate => Mistake::GameEndsLate,
            Fault::GameEndsEarly => Mistake::GameEndsEarly,
            Fault::OlderEndRule => Mistake::OlderEndRule,
            Fault::NewerEndRule => Mistake::NewerEndRule,
            Fault::PassTestOnParent => Mistake::PassTestOnParent,
            Fault::StalePassFlag => Mistake::StalePassFlag,
            Fault::ExpandsAtCutoffDepth => Mistake::CutoffDepth,
            Fault::DepthFromOne => Mistake::DepthFromOne,
            Fault::WrongRootPlayer | Fault::RootAsMin => Mistake::WrongRootPlayer,
            Fault::LeavesFromSideToMove => Mistake::LeavesFromSideToMove,
            Fault::ColumnMajorOrder => Mistake::MoveOrder,
            Fault::LastTiedMove => Mistake::LastTiedMove,
            Fault::BoardAfterPass => Mistake::BoardAfterPass,
            Fault::BoardByStaticValue => Mistake::BoardByStaticValue,
            Fault::FirstMoveBoard => Mistake::FirstMoveBoard,
            Fault::FloatValues => Mistake::FloatValues,
            Fault::InfSpelling => Mistake::InfinitySpelling,
            Fault::SpacedBoard => Mistake::SpacedBoard,
            Fault::MissingHeader => Mistake::MissingHeader,
            Fault::MissingBoard => Mistake::MissingBoard,
            Fault::LineEnds => Mistake::LineEnds,
            Fault::FinalNewline => Mistake::FinalNewline,
        }
    }
}

/// A board shown with a difference: an 8x8 grid with coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// What the board is: `the board at root > d3`, `the next board`.
    pub title: String,
    /// The grid, rows joined by `\n` (see [`super::replay::grid_lines`]).
    pub grid: String,
}

/// One mistake of a file, for `check --all`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listed {
    /// The mistake, when it has a name.
    pub mistake: Option<Mistake>,
    /// The catalogue's fault behind it, when the input told.
    pub fault: Option<Fault>,
    /// The first line (1-based) it changes; none for the byte form of the file.
    pub line: Option<usize>,
    /// Lines of the file it accounts for (inserted, deleted or changed to undo it);
    /// none when not counted.
    pub lines: Option<usize>,
    /// What it is, in a few words.
    pub summary: String,
}

/// The first difference, explained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    /// When the input was given and no program of the catalogue writes the file:
    /// the possible causes, most likely first, each with its evidence.
    pub candidates: Vec<Candidate>,
    /// When the difference is not explained: what differs, node by node, in search
    /// order.
    pub aligned: Vec<TreeChange>,
}

impl Report {
    /// Whether the file passes the comparison asked for.
    pub fn passed(&self) -> bool {
        self.identical || (self.lenient && self.lenient_identical)
    }

    /// One line: the verdict and, on a difference, its line and mistake.
    pub fn summary(&self) -> String {
        let Some(difference) = &self.difference else {
            return "identical".into();
        };
        let mut text = match difference.line {
            Some(line) => format!("line {line}"),
            None => "byte form".into(),
        };
        match difference.mistake {
            Some(mistake) => text += &format!(": {}", mistake.label()),
            None => text += ": differs",
        }
        if self.passed() {
            text = format!("identical under --lenient ({text})");
        }
        text
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(difference) = &self.difference else {
            return writeln!(f, "identical ({} bytes)", self.expected_bytes);
        };
        if self.passed() {
            write_wrapped(
                f,
                "",
                "",
                "identical under --lenient (the Fall 2014 grader ignores CR, trailing \
                 whitespace and trailing blank lines), but not byte for byte:",
            )?;
        }
        match difference.line {
            Some(line) => writeln!(f, "differ at line {line}")?,
            None => writeln!(f, "differ in byte form only (every line is the same)")?,
        }
        if let Some(expected) = &difference.expected {
            writeln!(f, "  expected: {}", shown(expected))?;
        } else if difference.line.is_some() {
            writeln!(f, "  expected: (end of file)")?;
        }
        if let Some(actual) = &difference.actual {
            writeln!(f, "  actual:   {}", shown(actual))?;
        } else if difference.line.is_some() {
            writeln!(f, "  actual:   (end of file)")?;
        }
        if let Some(node) = &difference.node {
            writeln!(f, "  node:     {}", shown(node))?;
        }
        if let Some(mistake) = difference.mistake {
            writeln!(f, "  mistake:  {}", mistake.label())?;
        }
        write_wrapped(f, "  ", "  ", &shown(&difference.explanation))?;
        if let Some(board) = &difference.board {
            writeln!(f, "  {}:", board.title)?;
            for line in board.grid.lines() {
                writeln!(f, "    {}", line.trim_end())?;
            }
        }
        if difference.mistake.is_none() && self.aligned.len() > 1 {
            writeln!(f, "  what differs, node by node ({}):", self.aligned.len())?;
            for change in self.aligned.iter().take(SHOWN_CHANGES) {
                write_wrapped(f, "    - ", "      ", &shown(&change.text()))?;
            }
            if self.aligned.len() > SHOWN_CHANGES {
                writeln!(
                    f,
                    "    - ... and {} more",
                    self.aligned.len() - SHOWN_CHANGES
                )?;
            }
        }
        if !self.candidates.is_empty() {
            writeln!(f, "  candidate causes, most likely first:")?;
            for (i, candidate) in self.candidates.iter().enumerate() {
                write_wrapped(
                    f,
                    &format!("    {}. ", i + 1),
                    "       ",
                    &shown(&format!(
                        "{}: {}",
                        candidate.mistake.label(),
                        candidate.evidence
                    )),
                )?;
            }
        }
        for note in &self.notes {
            write_wrapped(f, "note: ", "  ", &shown(note))?;
        }
        Ok(())
    }
}

impl Report {
    /// Every distinct mistake in the file, one per line with its first line and the
    /// lines it accounts for (`check --all`).
    pub fn listing(&self) -> String {
        if self.mistakes.is_empty() {
            return "no mistakes\n".into();
        }
        let mut text = format!("mistakes in this file ({}):\n", self.mistakes.len());
        for listed in &self.mistakes {
            let line = listed
                .line
                .map_or("byte form".to_string(), |l| format!("line {l}"));
            let lines = match listed.lines {
                Some(1) => "1 line".to_string(),
                Some(n) => format!("{n} lines"),
                None => String::new(),
            };
            let fault = listed.fault.map_or(String::new(), |f| format!(" [{f}]"));
            text += &format!("  {line:<11} {lines:>11}  {}{fault}\n", listed.summary);
        }
        text
    }
}

/// `text` with its control characters escaped (see [`escaped`]) for a terminal;
/// backslashes stay, since our own words hold some (`\r\n`).
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| escaped(&c.to_string()) != c.to_string().as_str() && c != '\\')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push(c),
            c => out.push_str(&escaped(&c.to_string())),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Width of the words in a report.
const WIDTH: usize = 88;

/// Differences of the aligned trees shown in words.
const SHOWN_CHANGES: usize = 8;

/// Writes `text` in lines of at most [`WIDTH`] characters (longer words stay whole),
/// the first starting with `first`, the others with `rest`.
fn write_wrapped(f: &mut fmt::Formatter<'_>, first: &str, rest: &str, text: &str) -> fmt::Result {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            writeln!(f, "{line}")?;
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    writeln!(f, "{line}")
}

/// How one line of a file ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Crlf,
    Lf,
    /// The last line, with no line end.
    None,
}

/// A file cut into lines (without `\n` or the `\r` before it) and their ends.
struct Lines {
    texts: Vec<String>,
    ends: Vec<End>,
}

impl Lines {
    fn split(bytes: &[u8]) -> Lines {
        let mut texts = Vec::new();
        let mut ends = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let (line, end, after) = match rest.iter().position(|&b| b == b'\n') {
                Some(at) => match rest[..at].strip_suffix(b"\r") {
                    Some(line) => (line, End::Crlf, &rest[at + 1..]),
                    None => (&rest[..at], End::Lf, &rest[at + 1..]),
                },
                None => (rest, End::None, &rest[rest.len()..]),
            };
            texts.push(String::from_utf8_lossy(line).into_owned());
            ends.push(end);
            rest = after;
        }
        Lines { texts, ends }
    }

    /// The lines as the Fall 2014 grader saw them: no CR, no trailing whitespace, no
    /// trailing blank lines.
    fn lenient(&self) -> Vec<&str> {
        let mut lines: Vec<&str> = self
            .texts
            .iter()
            .map(|t| t.trim_end_matches(|c: char| c.is_whitespace()))
            .collect();
        while lines.last() == Some(&"") {
            lines.pop();
        }
        lines
    }

    fn final_newline(&self) -> bool {
        self.ends.last().is_some_and(|&end| end != End::None)
    }
}

/// Compares `actual` with `expected` (both whole output files). `lenient` asks for
/// the Fall 2014 grader's comparison; the report tells the strict one in any case.
pub fn check(expected: &[u8], actual: &[u8], lenient: bool) -> Report {
    check_with_input(expected, actual, lenient, None)
}

/// Like [`check`], knowing the case's input: the catalogue of known mistakes
/// ([`crate::grader::mutants`]) is run on it to name every mistake in the file with
/// certainty where a known program writes it, moves are checked for legality, and the
/// board where the files part is shown.
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
                catalogue::difference(diagnosis, expected, &want, &got, &mut notes)
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
                    super::diagnose::MAX_LINES
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
        aligned,
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
        fault: None,
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
                fault: None,
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
                .any(|v| log::parse_float_value(v).is_some())
        })
        .collect();
    add(
        if only_inf_spellings(&got.texts) {
            Mistake::InfinitySpelling
        } else {
            Mistake::FloatValues
        },
        floats.first().map(|i| i + 1),
        floats.len(),
    );
    if !had_input {
        listed.push(Listed {
            mistake: None,
            fault: None,
            line: None,
            lines: None,
            summary: "give the case's input (--input) to list every mistake of the file".into(),
        });
    }
    listed
}

/// Whether every value of the log that is not in the course's form is `inf` or
/// `-inf`, and there is one.
fn only_inf_spellings(lines: &[String]) -> bool {
    let odd: Vec<String> = lines
        .iter()
        .skip(LOG_START)
        .flat_map(|l| {
            Entry::parse(l)
                .values
                .into_iter()
                .filter(|v| log::parse_float_value(v).is_some())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    !odd.is_empty() && odd.iter().all(|v| v == "inf" || v == "-inf")
}

fn is_other_end(want: End, got: End) -> bool {
    matches!((want, got), (End::Crlf, End::Lf) | (End::Lf, End::Crlf))
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Crlf => "CRLF (\\r\\n)",
        End::Lf => "LF (\\n)",
        End::None => "none",
    }
}

/// `actual` is `rest` after a byte-order mark: that is the first thing to fix, and
/// what `rest` alone would get is a note.
fn byte_order_mark(
    expected: &[u8],
    rest: &[u8],
    lenient: bool,
    problem: Option<&Problem>,
) -> Report {
    let after = check_with_input(expected, rest, lenient, problem);
    let mut notes = vec![match &after.difference {
        None => "without the mark the file is byte-identical".to_string(),
        Some(_) => format!("without the mark: {}", after.summary()),
    }];
    notes.extend(after.notes);
    Report {
        identical: false,
        lenient_identical: false,
        lenient,
        expected_bytes: expected.len(),
        difference: Some(Difference {
            board: None,
            line: Some(1),
            expected: Lines::split(expected).texts.into_iter().next(),
            actual: Some(format!(
                "<EF BB BF>{}",
                Lines::split(rest).texts.first().map_or("", String::as_str)
            )),
            node: None,
            mistake: Some(Mistake::ByteOrderMark),
            explanation: "the file starts with a UTF-8 byte-order mark (EF BB BF), which \
                          graders compare as three more bytes: write plain ASCII (in C#, \
                          encode with `new UTF8Encoding(false)` rather than \
                          `Encoding.UTF8`; in Python, not with \"utf-8-sig\")"
                .into(),
        }),
        notes,
        candidates: after.candidates,
        aligned: after.aligned,
        mistakes: vec![Listed {
            mistake: Some(Mistake::ByteOrderMark),
            fault: None,
            line: Some(1),
            lines: Some(1),
            summary: Mistake::ByteOrderMark.label().into(),
        }]
        .into_iter()
        .chain(after.mistakes)
        .collect(),
    }
}

/// Same lines, different bytes: line ends, or the final newline.
fn byte_form(want: &Lines, got: &Lines) -> Difference {
    let mut parts = Vec::new();
    let other_ends: Vec<usize> = (0..want.ends.len())
        .filter(|&i| is_other_end(want.ends[i], got.ends[i]))
        .collect();
    if let Some(&first) = other_ends.first() {
        let between = want.ends.iter().filter(|&&e| e != End::None).count();
        let which = if other_ends.len() == between {
            "every line end".to_string()
        } else {
            format!(
                "{} of {between} line ends, first after line {}",
                other_ends.len(),
                first + 1
            )
        };
        parts.push(format!(
            "expected {} line ends, found {} ({which})",
            end_name(want.ends[first]),
            end_name(got.ends[first])
        ));
    }
    if want.final_newline() != got.final_newline() {
        parts.push(if want.final_newline() {
            "expected a line end after the last line; the file has none".into()
        } else {
            "expected no line end after the last line; the file ends with one".into()
        });
    }
    let mistake = if other_ends.is_empty() {
        Mistake::FinalNewline
    } else {
        Mistake::LineEnds
    };
    Difference {
        board: None,
        line: None,
        expected: None,
        actual: None,
        node: None,
        mistake: Some(mistake),
        explanation: format!(
            "{}. The official files join lines with CRLF and have no final newline: \
             write \"\\r\\n\" between lines and nothing after the last.",
            parts.join("; and ")
        ),
    }
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
                Mistake::InputCarriageReturn,
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

/// Whether no move at `square` can bracket a line on any board with the same cells
/// filled as `board`, whatever their colours: no direction has two filled cells in a
/// row next to it.
fn no_line_to_bracket(board: Board, square: Square) -> bool {
    let filled = board.own | board.opp;
    let at = |row: i32, col: i32| {
        (0..8).contains(&row)
            && (0..8).contains(&col)
            && filled & Square::new(row as u8, col as u8).bit() != 0
    };
    let (row, col) = (i32::from(square.row()), i32::from(square.col()));
    (-1..=1)
        .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
        .filter(|&d| d != (0, 0))
        .all(|(dr, dc)| !(at(row + dr, col + dc) && at(row + 2 * dr, col + 2 * dc)))
}

/// Explains a difference in the log at entry `j` (0-based after the header).
fn explain_log_line(
    exp: &[Entry],
    act: &[Entry],
    j: usize,
    path: &[&str],
) -> (Option<Mistake>, String) {
    let (Some(e), Some(a)) = (exp.get(j), act.get(j)) else {
        return if j >= act.len() {
            (
                Some(Mistake::MissingLines),
                format!(
                    "the file ends here; the expected log has {} more line(s), up to the \
                     root's last line",
                    exp.len() - j
                ),
            )
        } else {
            (
                Some(Mistake::ExtraLines),
                format!(
                    "the expected log ends with the root's last line; the file goes on \
                     with {} more line(s)",
                    act.len() - j
                ),
            )
        };
    };
    if j == 0 && a.name == "root" && a.depth == Some(1) && e.depth == Some(0) {
        return (
            Some(Mistake::DepthFromOne),
            "the root is at depth 0 and its children at depth 1; your depths count the root \
             as 1 (and a search that counts so also stops one ply early)"
                .into(),
        );
    }
    if j > 0 && e.name != a.name && (a.name == "root" || a.name.contains('\0')) {
        return (
            Some(Mistake::MisnamedNodes),
            format!(
                "expected node {} here; your line names it {}: a node is named by its cell, \
                 column letter then row digit (a1 to h8), and only the root is `root`",
                e.name,
                shown(a.name)
            ),
        );
    }
    let floats: Vec<Option<i32>> = a.values.iter().map(|v| log::parse_float_value(v)).collect();
    let inf_only = floats.iter().any(Option::is_some)
        && a.values
            .iter()
            .zip(&floats)
            .all(|(text, float)| float.is_none() || matches!(*text, "inf" | "-inf"));
    if inf_only {
        return (
            Some(Mistake::InfinitySpelling),
            "infinities print as the words `Infinity` and `-Infinity`; your line prints `inf` \
             or `-inf` (Python's str of float('inf'))"
                .into(),
        );
    }
    if floats.iter().any(Option::is_some) {
        let as_integers: Vec<Option<i32>> = a
            .values
            .iter()
            .zip(&floats)
            .map(|(text, float)| float.or_else(|| log::parse_value(text)))
            .collect();
        let expected: Vec<Option<i32>> = e.values.iter().map(|v| log::parse_value(v)).collect();
        let same = e.name == a.name && e.depth == a.depth && as_integers == expected;
        let lines = act
            .iter()
            .filter(|x| x.values.iter().any(|v| log::parse_float_value(v).is_some()))
            .count();
        return (
            Some(Mistake::FloatValues),
            format!(
                "values are whole numbers or Infinity/-Infinity: print `0`, not `0.0` (the \
                 handout's `c5,2,0.0` is a typo); {lines} line(s) of the file print floats{}",
                if same {
                    ", and this one is right but for that"
                } else {
                    ", and this one differs even read as whole numbers"
                }
            ),
        );
    }
    let name = e.name;
    if e.name == a.name && e.depth == a.depth {
        return explain_same_node(exp, act, j);
    }
    if e.name == "pass" && a.name == "pass" && a.depth.map(|d| d + 1) == e.depth {
        return (
            Some(Mistake::PassCostsNoDepth),
            format!(
                "a pass uses up a ply like a move: this pass is at depth {}, one deeper than \
                 its parent, and the cut-off depth counts it; your log gives it its parent's \
                 depth {} (and so searches one ply deeper below it)",
                show_depth(e),
                show_depth(a)
            ),
        );
    }
    if e.name == "pass" && a.name != "pass" {
        let parent = path.len().checked_sub(2).map_or("the parent", |i| path[i]);
        return (
            Some(Mistake::MissingPass),
            format!(
                "the side to move at {parent} has no legal move, so {parent} has exactly one \
                 child, `pass` (same board, other player, one ply deeper); your log has {} \
                 instead",
                a.name
            ),
        );
    }
    if a.name == "pass" && e.name != "pass" {
        return (
            Some(Mistake::ExtraPass),
            format!(
                "a `pass` child is made only when the side to move has no legal move, and \
                 only two passes in a row end the game (the older releases: also a second \
                 pass anywhere on the path, a full board or a colour gone); expected {name} \
                 here"
            ),
        );
    }
    let before = j.checked_sub(1).and_then(|i| exp.get(i));
    match (e.depth, a.depth, before) {
        (Some(de), Some(da), Some(parent)) if de > da && !log::is_first_print(exp, j - 1) => (
            Some(Mistake::PrunedTooEarly),
            format!(
                "{} ({}, value {}, alpha {}, beta {}) has not reached its cut-off, so it goes on \
                 to its next child {name}; your log leaves it here",
                parent.name,
                kind(parent),
                parent.values.first().copied().unwrap_or("?"),
                parent.values.get(1).copied().unwrap_or("?"),
                parent.values.get(2).copied().unwrap_or("?"),
            ),
        ),
        (Some(de), Some(da), Some(node)) if da > de && node.reaches_cutoff() => (
            Some(Mistake::PrunedTooLate),
            format!(
                "{}, so it prunes: it returns at once without visiting {} (equality prunes \
                 too: v >= beta at MAX, v <= alpha at MIN)",
                cutoff_rule(node),
                a.name
            ),
        ),
        (Some(de), Some(da), _) if de == da => {
            let later = later_siblings(exp, j);
            if later.contains(&a.name) {
                return (
                    Some(Mistake::MoveOrder),
                    format!(
                        "expected {name} here: your log visits {} first. Children come in \
                         positional order, upper rows first and left first within a row \
                         (a1, b1, ..., h1, a2, ...): {name} before {}",
                        a.name,
                        later.join(", ")
                    ),
                );
            }
            let order = if square_order(e.name) < square_order(a.name) {
                format!("your log skips {name}")
            } else {
                format!(
                    "your log has {}, which the expected tree does not visit here",
                    a.name
                )
            };
            (
                None,
                format!(
                    "expected node {name} here: {order}. A node has one child for every \
                     legal move (all 8 directions, every bracketed line), in positional order"
                ),
            )
        }
        _ => (
            None,
            format!(
                "expected node {name} at depth {}, found {}",
                show_depth(e),
                a.name
            ),
        ),
    }
}

/// The first entry, from `j` on, where an inner node prints v = alpha = beta (its
/// value reached its bound exactly, the window updated) and its next line is another
/// child: what a program that does not prune on equality writes.
fn goes_on_after_equality(entries: &[Entry], j: usize) -> Option<usize> {
    (j..entries.len().saturating_sub(1)).find(|&i| {
        let x = &entries[i];
        let finite = x.value().is_some_and(|v| v.abs() < INFINITY);
        let child = entries[i + 1]
            .depth
            .zip(x.depth)
            .is_some_and(|(c, d)| c == d + 1);
        finite
            && x.value() == x.alpha()
            && x.value() == x.beta()
            && !log::is_first_print(entries, i)
            && child
    })
}

/// The names of the siblings that follow the node first printed at `j`, in order.
fn later_siblings<'a>(entries: &[Entry<'a>], j: usize) -> Vec<&'a str> {
    let Some(depth) = entries[j].depth else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for (i, entry) in entries.iter().enumerate().skip(j + 1) {
        match entry.depth {
            Some(d) if d < depth.saturating_sub(1) => break,
            Some(d) if d == depth && log::is_first_print(entries, i) => names.push(entry.name),
            _ => {}
        }
    }
    names
}

fn show_depth(entry: &Entry) -> String {
    entry.depth.map_or("?".into(), |d| d.to_string())
}

/// `a1` = 0, ..., `h8` = 63; anything else sorts after.
fn square_order(name: &str) -> usize {
    square_of(name).map_or(usize::MAX, |square| usize::from(square.index()))
}

/// The same node on both sides, printed with different values.
fn explain_same_node(exp: &[Entry], act: &[Entry], j: usize) -> (Option<Mistake>, String) {
    let (e, a) = (&exp[j], &act[j]);
    let name = e.name;
    let entry_value = if e.is_max() { -INFINITY } else { INFINITY };
    let bound = if e.is_max() { a.alpha() } else { a.beta() };
    let opens = log::is_first_print(exp, j) && !log::is_leaf(exp, j);
    if opens && e.value() == Some(entry_value) && a.value() != e.value() && a.value() == bound {
        return (
            Some(Mistake::FailHard),
            format!(
                "{name} ({}) starts at {} before its first child, whatever the window: its \
                 value is v, the best of its children so far; alpha and beta have their own \
                 columns. Your line prints {} there, the node's {}: values printed as \
                 max(alpha, v) at MAX and min(beta, v) at MIN (fail-hard)",
                kind(e),
                e.values.first().copied().unwrap_or("?"),
                a.values.first().copied().unwrap_or("?"),
                if e.is_max() { "alpha" } else { "beta" }
            ),
        );
    }
    if j == 0 && e.value() == Some(-INFINITY) && a.value() == Some(INFINITY) {
        return (
            Some(Mistake::WrongRootPlayer),
            format!(
                "the root is a MAX node (the player named on the input moves and is MAX, X or \
                 O alike): it starts at -Infinity; your root starts at {}",
                a.values.first().copied().unwrap_or("?")
            ),
        );
    }
    let depth = e.depth.unwrap_or(0);
    let child_is_pass = |entries: &[Entry]| {
        entries
            .get(j + 1)
            .is_some_and(|c| c.name == "pass" && c.depth == Some(depth + 1))
    };
    if child_is_pass(exp) && !child_is_pass(act) {
        return (
            Some(Mistake::MissingPass),
            format!(
                "the side to move at {name} has no legal move, so {name} has exactly one \
                 child, `pass` (same board, other player, one ply deeper); only a pass that \
                 follows a pass ends the game. Your log has no pass here"
            ),
        );
    }
    if child_is_pass(act) && log::is_leaf(exp, j) {
        return (
            Some(Mistake::ExtraPass),
            format!(
                "{name} is a leaf in the expected tree (the cut-off depth, or the game is \
                 over under this release's rule), printed once with its value; your log \
                 gives it a `pass` child"
            ),
        );
    }
    let deepest = exp.iter().filter_map(|x| x.depth).max().unwrap_or(0);
    let has_child = |entries: &[Entry]| {
        entries
            .get(j + 1)
            .is_some_and(|c| c.depth == Some(depth + 1))
    };
    if log::is_leaf(exp, j) && has_child(act) {
        return if depth == deepest {
            (
                Some(Mistake::CutoffDepth),
                format!(
                    "{name} is at depth {depth}, the cut-off depth D, so it is a leaf: printed \
                     once with E(s). The root is at depth 0, and a node at depth D is never \
                     expanded; your log goes on below it"
                ),
            )
        } else {
            (
                None,
                format!(
                    "{name} is a leaf in the expected tree although it is above the cut-off \
                     depth: the game is over there under this release's rule (two passes in \
                     a row; the older releases also end on a full board, a colour gone or a \
                     second pass). Your log expands it"
                ),
            )
        };
    }
    if has_child(exp) && !has_child(act) && log::is_first_print(exp, j) {
        return (
            Some(Mistake::CutoffDepth),
            format!(
                "{name} is at depth {depth}, above the cut-off depth (the expected tree goes down \
                 to depth {deepest}), so it is expanded: its children follow. Your log makes it \
                 a leaf; only nodes at depth D (the root is at depth 0) or where the game is \
                 over are leaves"
            ),
        );
    }
    if log::is_leaf(exp, j) {
        return match (e.value(), a.value()) {
            (Some(ev), Some(av)) if ev != 0 && av == -ev => (
                Some(Mistake::WrongRootPlayer),
                format!(
                    "the leaf's value is negated: E(s) is always counted for the player named \
                     on the input (MAX), also at MIN nodes and also when that player is O; \
                     expected {ev}, found {av}"
                ),
            ),
            (ev, av) if ev != av => (
                None,
                format!(
                    "the leaf's value differs: E(s) = sum of the weights under the root \
                     player's discs - sum under the opponent's; expected {}, found {}",
                    e.values.first().copied().unwrap_or("?"),
                    a.values.first().copied().unwrap_or("?")
                ),
            ),
            _ => (
                None,
                format!(
                    "a leaf prints the alpha and beta it received from its parent; expected \
                     {}",
                    e.values.get(1..).map_or(String::new(), |v| v.join(","))
                ),
            ),
        };
    }
    let next_act = act.get(j + 1).and_then(|x| x.depth);
    let next_exp = exp.get(j + 1).and_then(|x| x.depth);
    if !log::is_first_print(exp, j) && e.reaches_cutoff() {
        if next_act == Some(depth + 1) {
            let equality = e.value() == if e.is_max() { e.beta() } else { e.alpha() };
            return (
                Some(Mistake::PrunedTooLate),
                format!(
                    "{}, so it prunes: it prints alpha and beta unchanged and returns at once; \
                     your log updates them and goes on to the next child{}",
                    cutoff_rule(e),
                    if equality {
                        " (equality prunes: v >= beta at MAX, v <= alpha at MIN, not only >)"
                    } else {
                        ""
                    }
                ),
            );
        }
        let updated = |x: &Entry| {
            if x.is_max() {
                x.alpha() == x.value()
            } else {
                x.beta() == x.value()
            }
        };
        if e.value() == a.value() && updated(a) && !updated(e) {
            // A program that prunes only on a strict inequality prints this very line
            // at an equality; it shows itself where it goes on after one.
            if let Some(later) = goes_on_after_equality(act, j) {
                return (
                    Some(Mistake::PrunedTooLate),
                    format!(
                        "{}, so it prunes: it prints its value with alpha and beta \
                         UNCHANGED and returns. Your line updates {} instead, and at line \
                         {} your log goes on to another child after a node's value reached \
                         its bound exactly (v = alpha = beta): your program prunes only on a \
                         strict inequality (v > beta, v < alpha); equality prunes too",
                        cutoff_rule(e),
                        if e.is_max() { "alpha" } else { "beta" },
                        later + LOG_START + 1
                    ),
                );
            }
            return (
                Some(Mistake::UpdatedAtCutoff),
                format!(
                    "{}, so it prunes: it prints its value with alpha and beta UNCHANGED \
                     ({}, {}) and returns; your line updates {} first, as the handout's \
                     example wrongly shows. (A program that prunes only on v > beta or \
                     v < alpha prints this line too; yours does not go on after such a line \
                     anywhere in this file, so the updated window is the likelier cause: \
                     give --input to be sure.)",
                    cutoff_rule(e),
                    e.values.get(1).copied().unwrap_or("?"),
                    e.values.get(2).copied().unwrap_or("?"),
                    if e.is_max() { "alpha" } else { "beta" }
                ),
            );
        }
    }
    if !log::is_first_print(exp, j)
        && !e.reaches_cutoff()
        && next_exp == Some(depth + 1)
        && next_act.is_some_and(|d| d < depth)
    {
        return (
            Some(Mistake::PrunedTooEarly),
            format!(
                "{name} ({}) has not reached its cut-off (v >= beta at MAX, v <= alpha at MIN), \
                 so it updates {} and goes on to its next child; your log prunes here",
                kind(e),
                if e.is_max() { "alpha" } else { "beta" }
            ),
        );
    }
    let fields = ["value", "alpha", "beta"];
    let which: Vec<String> = fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| e.values.get(i) != a.values.get(i))
        .map(|(i, field)| {
            format!(
                "{field} expected {}, found {}",
                e.values.get(i).copied().unwrap_or("(none)"),
                a.values.get(i).copied().unwrap_or("(none)")
            )
        })
        .collect();
    (
        None,
        format!(
            "{name} ({}) prints differently: {}",
            kind(e),
            which.join("; ")
        ),
    )
}

/// The cells of 8 board rows, or `None` if they are not 8 rows of 8 cells.
fn board_cells(lines: &[String]) -> Option<Vec<Vec<char>>> {
    let rows: Vec<Vec<char>> = lines
        .get(..8)?
        .iter()
        .map(|l| l.chars().collect())
        .collect();
    rows.iter().all(|r| r.len() == 8).then_some(rows)
}

fn cell_name(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

fn cell_at(rows: &[Vec<char>], name: &str) -> Option<char> {
    let order = square_order(name);
    (order < 64).then(|| rows[order / 8][order % 8])
}

/// The root's children in the expected log, with their final values as printed.
fn root_children<'a>(entries: &[Entry<'a>]) -> Vec<(&'a str, Option<&'a str>)> {
    let mut children: Vec<(&str, Option<&str>)> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if entry.depth == Some(1) {
            let value = entry.values.first().copied();
            if log::is_first_print(entries, i) {
                children.push((entry.name, value));
            } else if let Some(last) = children.last_mut() {
                last.1 = value;
            }
        }
    }
    children
}

/// Explains a difference in the next board when the logs agree.
fn board_difference(want: &[String], got: &[String]) -> Difference {
    let first = (0..8).find(|&i| want.get(i) != got.get(i)).unwrap_or(0);
    let mut difference = Difference {
        board: None,
        line: Some(first + 1),
        expected: want.get(first).cloned(),
        actual: got.get(first).cloned(),
        node: Some("root (the next board)".into()),
        mistake: Some(Mistake::WrongBoard),
        explanation: String::new(),
    };
    let (Some(w), Some(g)) = (board_cells(want), board_cells(got)) else {
        difference.explanation =
            "the file starts with the next board: 8 lines of 8 cells, `*`, `X` or `O`".into();
        return difference;
    };
    difference.board = Some(BoardView {
        title: "the next board".into(),
        grid: grid_pair("expected", &w.concat(), "yours", &g.concat())
            .trim_end()
            .to_string(),
    });
    let cells: Vec<String> = (0..64)
        .filter(|&i| w[i / 8][i % 8] != g[i / 8][i % 8])
        .map(|i| {
            format!(
                "{} (expected {}, found {})",
                cell_name(i / 8, i % 8),
                w[i / 8][i % 8],
                g[i / 8][i % 8]
            )
        })
        .collect();
    let cells_text = format!("{} cell(s) differ: {}", cells.len(), cells.join(", "));
    let entries: Vec<Entry> = want
        .iter()
        .skip(LOG_START)
        .map(|l| Entry::parse(l))
        .collect();
    let children = root_children(&entries);
    let root_value = entries
        .iter()
        .rev()
        .find(|e| e.depth == Some(0))
        .and_then(|e| e.values.first().copied());
    let played = |rows: &[Vec<char>], other: &[Vec<char>]| {
        children.iter().position(|(name, _)| {
            cell_at(rows, name).is_some_and(|c| c != '*')
                && cell_at(other, name).is_some_and(|c| c == '*')
        })
    };
    let best = children
        .iter()
        .position(|&(name, v)| name != "pass" && v.is_some() && v == root_value);
    difference.explanation = match (played(&g, &w), best) {
        (Some(yours), Some(best)) if yours > best && children[yours].1 == root_value => {
            difference.mistake = Some(Mistake::LastTiedMove);
            let tied: Vec<&str> = children
                .iter()
                .filter(|&&(_, v)| v == root_value)
                .map(|&(name, _)| name)
                .collect();
            format!(
                "{} share the best value {}; the move is the FIRST of them in positional \
                 order, {} (the root changes its choice only on a strictly better value); \
                 your board is the one after {}. {cells_text}",
                tied.join(", "),
                root_value.unwrap_or("?"),
                children[best].0,
                children[yours].0
            )
        }
        (Some(0), Some(best)) if best != 0 => {
            difference.mistake = Some(Mistake::FirstMoveBoard);
            format!(
                "your board is the one after {}, the root's first move (value {}), but the \
                 best move is {} (value {}): most likely the board saved for the first move \
                 is never replaced by a better one. {cells_text}",
                children[0].0,
                children[0].1.unwrap_or("?"),
                children[best].0,
                root_value.unwrap_or("?")
            )
        }
        (Some(yours), Some(best)) if yours != best => format!(
            "your board is the one after {} (value {}), but the best move is {} (value {}). \
             {cells_text}",
            children[yours].0,
            children[yours].1.unwrap_or("?"),
            children[best].0,
            root_value.unwrap_or("?")
        ),
        (_, Some(best)) => format!(
            "the next board is the one after {}, the root's first child with the best value \
             {}: place the disc and flip every bracketed line in all 8 directions. \
             {cells_text}",
            children[best].0,
            root_value.unwrap_or("?")
        ),
        _ if children.first().is_some_and(|&(name, _)| name == "pass") => {
            difference.mistake = Some(Mistake::BoardAfterPass);
            format!(
                "the root player has no legal move (the root's only child is pass), so the \
                 next board is the input board unchanged. {cells_text}"
            )
        }
        _ if !entries.is_empty() && children.is_empty() => format!(
            "the root is a leaf (the cut-off depth is 0, or the game is over at the root), \
             so the next board is the input board unchanged. {cells_text}"
        ),
        _ => cells_text,
    };
    difference
}
