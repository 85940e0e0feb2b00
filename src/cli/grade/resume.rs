//! `grade --resume`: the grading's journal opened, and the settings it is kept for.

use std::path::Path;

use anyhow::{Context, Result};

use super::{CompareArg, GradeArgs};
use crate::grading::grade::journal::{self, Journal, Settings};
use crate::grading::grade::{Class, StudentGrade};
use crate::printable::printable;

/// The journal of the grading, and the grades it keeps (by the class's positions):
/// with `--resume`, those of the earlier grading's journal; else a journal started
/// afresh (none, with a warning, where it cannot be written). `submissions` and
/// `cases` are the folders the arguments name.
pub(super) fn open_journal(
    args: &GradeArgs,
    class: &Class,
    submissions: &Path,
    cases: &Path,
) -> Result<(Option<Journal>, Vec<Option<StudentGrade>>)> {
    let nothing_kept = || class.submissions.iter().map(|_| None).collect();
    if args.single {
        return Ok((None, nothing_kept()));
    }
    let path = journal::location(submissions, cases, args.shard);
    let settings = settings(args, class)?;
    if !args.resume {
        let journal = path.and_then(|path| match Journal::start(&path, &settings) {
            Ok((journal, held)) => {
                if held > 0 {
                    let shown = printable(&path.display().to_string()).into_owned();
                    eprintln!(
                        "reversi: note: an earlier grading of this class was stopped with \
                         {held} students graded; without --resume every student is graded \
                         again ({shown} starts afresh)"
                    );
                }
                Some(journal)
            }
            Err(error) => {
                eprintln!(
                    "reversi: warning: {error}; this grading keeps no journal, so --resume \
                     cannot go on with it"
                );
                None
            }
        });
        return Ok((journal, nothing_kept()));
    }
    let path = path.ok_or(journal::JournalError::Nowhere)?;
    let (journal, resumed) = Journal::resume(&path, &settings, &class.submissions, &class.cases)?;
    let shown = printable(&path.display().to_string()).into_owned();
    let kept = resumed.grades.iter().flatten().count();
    if !resumed.found {
        eprintln!(
            "reversi: note: no earlier grading of this class to resume ({shown}); every \
             student is graded"
        );
    } else {
        let total = class.submissions.len();
        let mut note = format!(
            "reversi: resuming the grading of {shown}: {kept} of {total} students kept, {} to \
             grade",
            total - kept
        );
        if resumed.changed > 0 {
            note += &format!(
                " ({} of them graded again: their folders changed since)",
                resumed.changed
            );
        }
        eprintln!("{note}");
    }
    Ok((Some(journal), resumed.grades))
}

/// What decides this grading's verdicts, for its journal: the cases (their files
/// and points), the program, the comparison and every limit.
fn settings(args: &GradeArgs, class: &Class) -> Result<Settings> {
    let mut settings = Settings::new();
    let cases = journal::cases_digest(&class.cases, &class.points)
        .context("reading the cases for the grading's journal")?;
    settings.insert("set of cases (their files or points)".into(), cases);
    let run = args
        .run
        .clone()
        .unwrap_or_else(|| "none (each by its language)".into());
    settings.insert("--run".into(), run);
    for flag in args.languages.flags() {
        if let Some((name, value)) = flag.split_once('=') {
            settings.insert(name.into(), value.into());
        }
    }
    let compare = match args.compare {
        CompareArg::Strict => "strict",
        CompareArg::Lenient => "lenient",
    };
    settings.insert("--compare".into(), compare.into());
    settings.insert("--timeout".into(), args.timeout.as_secs_f64().to_string());
    for (name, value) in args.sandbox.settings() {
        settings.insert(name.into(), value);
    }
    Ok(settings)
}
