//! Explanations from the bug catalogue: when the case's input is known, the faults
//! whose program writes the student's file (see [`crate::explain::diagnose`]) name the
//! mistake, say how sure that is, and show the board where it shows.

use super::sentences::{capitalized, Context};
use super::{Candidate, Difference, Lines, Listed, Mistake};
use crate::explain::diagnose::{Diagnosis, Found};
use crate::explain::log::LOG_START;
use crate::explain::mistake::Stage;
use crate::explain::mutants::{self, style_of};
use crate::explain::replay::Position;
use crate::format::cs561::Problem;

/// Whether a fault shows first on the board lines rather than in the log.
fn shows_on_the_board(fault: Mistake) -> bool {
    fault.stage() == Stage::NextBoard
        || matches!(
            fault,
            Mistake::SpacedBoard | Mistake::MissingBoard | Mistake::InputCr
        )
}

/// Whether a fault is about line ends alone.
fn byte_form_only(fault: Mistake) -> bool {
    matches!(fault, Mistake::LineEnds | Mistake::FinalNewline)
}

/// The first line (0-based) where `a` and `b` differ, counting a line one file lacks.
fn first_difference(a: &[String], b: &[String], from: usize) -> Option<usize> {
    (from..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

/// The difference the catalogue explains, or `None` when its faults do not account
/// for the first line that differs (then the plain rules explain it). When other
/// faults in the place of the one that shows first write the same bytes, it names none
/// of them and `candidates` gets them all (see [`ambiguity`]).
pub(super) fn difference(
    diagnosis: &Diagnosis,
    expected: &[u8],
    want: &Lines,
    got: &Lines,
    notes: &mut Vec<String>,
    candidates: &mut Vec<Candidate>,
) -> Option<Difference> {
    if !diagnosis.exact {
        // A guess is never given as the cause (see `honest`).
        return None;
    }
    let style = style_of(expected);
    let limit = 2 * want.texts.len().max(got.texts.len()) + 64;
    let all = diagnosis.faults();
    // The fault that explains the first line a person should fix: one that shows in
    // the log before one that only changes the next board, then the one whose own
    // first line comes first (the file without it, its other mistakes kept, differs
    // from the student's there; the expected file when it is the only one).
    let (found, reference, first_any, at) = diagnosis
        .found
        .iter()
        .filter(|f| !byte_form_only(f.fault))
        .filter_map(|found| {
            let bytes = mutants::write(&diagnosis.problem, style, all.without(found.fault), limit)?;
            let reference = Lines::split(&bytes);
            let first_any = first_difference(&reference.texts, &got.texts, 0)?;
            let at = if shows_on_the_board(found.fault) {
                first_any
            } else {
                first_difference(&reference.texts, &got.texts, LOG_START - 1).unwrap_or(first_any)
            };
            Some((found, reference, first_any, at))
        })
        .min_by_key(|(f, _, _, at)| (f.fault.stage() == Stage::NextBoard, *at))?;
    let fault = found.fault;
    if !found.alike.is_empty() {
        let at_line = |fault: Mistake| {
            if shows_on_the_board(fault) {
                first_any
            } else {
                first_difference(&reference.texts, &got.texts, LOG_START - 1).unwrap_or(first_any)
            }
        };
        let (difference, alike) = ambiguity(
            diagnosis,
            found,
            &reference,
            got,
            &at_line,
            Ambient {
                others: all.without(fault),
                style,
            },
        );
        *candidates = alike;
        return Some(difference);
    }
    let context = Context::new(&diagnosis.problem, &reference.texts, &got.texts, at);
    let (text, board) = context.explain(fault);
    if at >= LOG_START - 1 && first_any < 8 && diagnosis.found.len() == 1 {
        notes.push(format!(
            "line {}: the next board differs too; it follows from the same mistake",
            first_any + 1
        ));
    }
    // (the first sentence says at which node the program does what; the reproduction
    // is the evidence that follows)
    let node = context.path_text();
    let headline = super::named_headline(&super::place(node.as_deref(), Some(at + 1)), fault);
    Some(Difference {
        line: Some(at + 1),
        expected: reference.texts.get(at).cloned(),
        actual: got.texts.get(at).cloned(),
        node,
        mistake: Some(fault),
        explanation: format!(
            "{headline} {} {}",
            certainty(diagnosis, found),
            capitalized(&text)
        ),
        board,
    })
}

/// How an ambiguous difference's explanation starts; what follows says which programs
/// write the file and what would tell them apart.
pub(super) const AMBIGUOUS: &str = "Ambiguous: ";

/// What the faults found besides the one explained are, and the byte form written.
struct Ambient {
    others: mutants::Faults,
    style: crate::format::Style,
}

/// When other faults in the place of `found` (the one that shows first) write the
/// student's file byte for byte: the difference names none of them as the cause, and
/// the candidates are all of them, most likely first (those whose kind the file's text
/// shows at its first differing line, then in the catalogue's order), each with what
/// it does here.
fn ambiguity(
    diagnosis: &Diagnosis,
    found: &Found,
    reference: &Lines,
    got: &Lines,
    at: &dyn Fn(Mistake) -> usize,
    ambient: Ambient,
) -> (Difference, Vec<Candidate>) {
    let problem = &diagnosis.problem;
    let root = Position::root(problem);
    let read = super::content_difference(&reference.texts, &got.texts, Some(root), &mut Vec::new())
        .mistake;
    let mut alike: Vec<Mistake> = std::iter::once(found.fault)
        .chain(found.alike.iter().copied())
        .collect();
    alike.sort_by_key(|f| Some(f.kind()) != read);
    let want = reference;
    let candidates: Vec<Candidate> = alike
        .iter()
        .map(|&fault| {
            let (text, _) =
                Context::new(problem, &want.texts, &got.texts, at(fault)).explain(fault);
            let reads = if Some(fault.kind()) == read {
                "; the first line that differs also reads as this mistake without the input"
            } else {
                ""
            };
            Candidate {
                mistake: fault,
                from_catalogue: true,
                evidence: format!(
                    "a program with this mistake ({fault}) writes your file byte for \
                     byte{reads}. If it is this one: {}",
                    capitalized(&text)
                ),
            }
        })
        .collect();
    let line = at(alike[0]);
    let context = Context::new(problem, &want.texts, &got.texts, line);
    let (_, board) = context.explain(alike[0]);
    let names: Vec<String> = alike
        .iter()
        .map(|f| format!("{} ({f})", f.label()))
        .collect();
    let explanation = format!(
        "{AMBIGUOUS}{} mistakes of the catalogue each write your file byte for byte{}, \
         so this case cannot tell which one your program has: {}. {}",
        alike.len(),
        if diagnosis.found.len() > 1 {
            " with the other mistakes found (see `check --all`)"
        } else {
            ""
        },
        names.join(", "),
        telling_cases(problem, &ambient, &alike)
    );
    (
        Difference {
            line: Some(line + 1),
            expected: want.texts.get(line).cloned(),
            actual: got.texts.get(line).cloned(),
            node: context.path_text(),
            mistake: None,
            explanation,
            board,
        },
        candidates,
    )
}

/// The cut-off depths tried, beside the case's own, for a case that tells mistakes
/// apart: the same board and player one or two plies deeper, or one shallower.
fn nearby_depths(depth: u32) -> Vec<u32> {
    let mut depths = vec![depth + 1, depth + 2];
    if depth > 1 {
        depths.push(depth - 1);
    }
    depths
}

/// Which input tells the most likely of `alike` (the first) from each of the others:
/// the same board at another cut-off depth, where their programs write different
/// files, or that none of those does.
fn telling_cases(problem: &Problem, ambient: &Ambient, alike: &[Mistake]) -> String {
    const LIMIT: usize = 20_000;
    let write = |depth: u32, fault: Mistake| {
        let at = Problem {
            depth,
            ..problem.clone()
        };
        mutants::write(&at, ambient.style, ambient.others.with(fault), LIMIT)
    };
    let first = alike[0];
    let mut text = String::new();
    // A program that reads the CR of input.txt reads none in the same file with LF
    // line ends: there it writes the right lines, and the others still differ.
    let reads_cr = |f: Mistake| f.kind() == Mistake::InputCr;
    let (cr, rest): (Vec<Mistake>, Vec<Mistake>) = alike.iter().partition(|&&f| reads_cr(f));
    let byte_form_only_besides = ambient.others.iter().all(byte_form_only);
    let lf_tells = !cr.is_empty() && !rest.is_empty() && byte_form_only_besides;
    if lf_tells {
        let names = |faults: &[Mistake]| {
            let names: Vec<String> = faults.iter().map(Mistake::to_string).collect();
            names.join(" and ")
        };
        text += &format!(
            "To tell the CR from the others, run your program on the same input.txt with \
             LF line ends (no CR to read): {} then write{} the expected lines, {} do{} \
             not. ",
            names(&cr),
            if cr.len() == 1 { "s" } else { "" },
            names(&rest),
            if rest.len() == 1 { "es" } else { "" },
        );
    }
    let mut told = Vec::new();
    let mut untold = Vec::new();
    for &other in &alike[1..] {
        if lf_tells && reads_cr(first) != reads_cr(other) {
            continue;
        }
        let depth = nearby_depths(problem.depth).into_iter().find(|&depth| {
            match (write(depth, first), write(depth, other)) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            }
        });
        match depth {
            Some(depth) => told.push(format!("at cut-off depth {depth}, {first} and {other}")),
            None => untold.push(other.to_string()),
        }
    }
    if !told.is_empty() {
        text += &format!(
            "To tell them apart, run your program on the same input with another cut-off \
             depth: {} write different files.",
            told.join("; ")
        );
    }
    if !untold.is_empty() {
        let mut depths: Vec<String> = nearby_depths(problem.depth)
            .iter()
            .map(u32::to_string)
            .collect();
        let last = depths.pop().unwrap_or_default();
        text += &format!(
            "{}The same board at cut-off depth {} or {last} does not tell {first} from {} \
             either: read your code against each one's description below.",
            if text.is_empty() { "" } else { " " },
            depths.join(", "),
            untold.join(" or ")
        );
    }
    text
}

/// How sure the label is, in words: a program of the catalogue that writes the file
/// byte for byte proves that much (a bug outside the catalogue may write the same
/// bytes), so the words say what was reproduced, not that the code has the mistake.
fn certainty(diagnosis: &Diagnosis, found: &Found) -> String {
    let others = || {
        let labels: Vec<String> = diagnosis
            .found
            .iter()
            .filter(|f| f.fault != found.fault)
            .map(|f| {
                // (a label that is this one's too says nothing more: the name does)
                let own = if f.fault.label() == found.fault.label() {
                    f.fault.to_string()
                } else {
                    format!("{} ({})", f.fault.label(), f.fault)
                };
                let alike: Vec<String> = f.alike.iter().map(Mistake::to_string).collect();
                if alike.is_empty() {
                    own
                } else {
                    format!(
                        "{own} or {}, which this case cannot tell apart",
                        alike.join(" or ")
                    )
                }
            })
            .collect();
        labels.join("; ")
    };
    match (
        diagnosis.exact,
        diagnosis.found.len(),
        found.alike.as_slice(),
    ) {
        (true, 1, []) => format!(
            "Reproduced: a program with this one mistake ({}) writes your file byte for \
             byte, and no other program of the catalogue does.",
            found.fault
        ),
        (false, ..) | (true, 1, [_, ..]) => {
            unreachable!("only an exact diagnosis of one program is told as the cause")
        }
        (true, n, _) => format!(
            "Reproduced: a program with these {n} mistakes writes your file byte for byte; this \
             one ({}) shows first, then {} (see `check --all`).",
            found.fault,
            others()
        ),
    }
}

/// Every mistake the catalogue found, for `check --all`; when several programs of one
/// mistake each write the file, each of them, said to be one of several.
pub(super) fn listing(diagnosis: &Diagnosis) -> Vec<Listed> {
    let mut listed: Vec<Listed> = diagnosis
        .found
        .iter()
        .flat_map(|f| {
            let alike = f.alike.len() + 1;
            std::iter::once(f.fault)
                .chain(f.alike.iter().copied())
                .map(move |mistake| Listed {
                    mistake: Some(mistake),
                    from_catalogue: true,
                    line: Some(f.first_line),
                    lines: Some(f.lines),
                    summary: if alike > 1 {
                        format!(
                            "{} (one of {alike} that each write this file)",
                            mistake.label()
                        )
                    } else {
                        mistake.label().into()
                    },
                })
        })
        .collect();
    if diagnosis.unexplained > 0 {
        listed.push(Listed {
            mistake: None,
            from_catalogue: false,
            line: diagnosis.unexplained_from,
            lines: Some(diagnosis.unexplained),
            summary: "not explained by any known mistake".into(),
        });
    }
    listed.sort_by_key(|l| l.line);
    listed
}
