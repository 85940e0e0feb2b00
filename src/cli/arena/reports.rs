//! The reports of `reversi arena` and `arena merge` written: JSON, CSV, GGF, the
//! HTML page, JUnit, Gradescope's results.json and the text on standard output.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use super::Grading;
use crate::arena::legality::{Sheet, Suite};
use crate::arena::schedule::Results;
use crate::arena::{self, grades, legality, report};
use crate::cli::grader::{print_out, write_whole};

/// The reports beyond the core's: reviews and grades in every report, the HTML page,
/// JUnit and Gradescope's results.json.
#[derive(Clone, Copy, Default)]
pub(in crate::cli) struct Extra<'a> {
    /// The policy, its reference, and the students' grades.
    pub grading: Option<(Grading, &'a [grades::Grade])>,
    /// The reviews' strength and each game's reviews.
    pub reviews: Option<(
        crate::engine::fixed::Strength,
        &'a [arena::reviews::GameReviews],
    )>,
    /// `--html`.
    pub html: Option<&'a Path>,
    /// `--junit`.
    pub junit: Option<&'a Path>,
    /// `--gradescope`.
    pub gradescope: Option<&'a Path>,
    /// The legality suite run for csu's `C`: its positions, their words, and each
    /// student's answers.
    pub suite: Option<(&'a Suite, &'a str, &'a [Sheet])>,
}

/// Writes the reports of `results`: `json`, `csv` (where given), every game as GGF
/// into `games_dir`, `extra`'s, and the text report on standard output.
pub(in crate::cli) fn write_reports(
    header: &report::Header,
    results: &Results,
    standings: &[report::Standing],
    (json, csv): (Option<&Path>, Option<&Path>),
    games_dir: Option<&Path>,
    extra: &Extra,
) -> Result<()> {
    if json.is_some() || extra.html.is_some() {
        let mut value = report::json_value(header, results, standings);
        if let Some((_, reviews)) = extra.reviews {
            arena::reviews::add_to_json(&mut value, results, reviews);
        }
        if let (Some(((policy, reference), grades)), Some(report)) =
            (extra.grading, value.as_object_mut())
        {
            report.insert(
                "grading".into(),
                grades::json_field(policy, results, reference, grades),
            );
        }
        if let (Some((suite, words, sheets)), Some(report)) = (extra.suite, value.as_object_mut()) {
            report.insert("legality_positions".into(), words.into());
            report.insert("legality".into(), legality::json(sheets, suite));
        }
        if let Some(path) = json {
            write_whole(path, report::json_text(&value).as_bytes())?;
        }
        if let Some(path) = extra.html {
            let grades = extra.grading.map(|(_, g)| g);
            let page = arena::page::page(header, results, standings, grades, &value);
            write_whole(path, page.as_bytes())?;
        }
    }
    if let Some(path) = csv {
        write_whole(path, report::csv(results, standings).as_bytes())?;
    }
    if let Some(folder) = games_dir {
        fs::create_dir_all(folder).with_context(|| format!("cannot make {}", folder.display()))?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let date = crate::format::ggf::date(now);
        for (i, record) in report::ggf_games(results, standings, &date)
            .iter()
            .enumerate()
        {
            write_whole(
                &folder.join(format!("game-{:04}.ggf", i + 1)),
                format!("{record}\n").as_bytes(),
            )?;
        }
    }
    let mut text = report::text(header, results, standings);
    if let Some((suite, words, sheets)) = extra.suite {
        text += &format!(
            "\nlegality suite (csu's C): {words}; {}\n{}",
            legality::judged(&header.protocol),
            legality::text(sheets, suite)
        );
    }
    if let Some(((policy, reference), grades)) = extra.grading {
        text += &grades::text(policy, results, reference, grades);
    }
    if let Some((strength, reviews)) = extra.reviews {
        text += &arena::reviews::text(results, reviews, strength);
    }
    let extras = arena::platform::Extras {
        reviews: extra.reviews.map(|(_, r)| r),
        grades: extra.grading.map(|((policy, _), g)| (policy, g)),
    };
    if let Some(path) = extra.junit {
        write_whole(path, arena::platform::junit(results, extras).as_bytes())?;
    }
    if let Some(path) = extra.gradescope {
        let value = arena::platform::gradescope(results, standings, 0, &text, extras);
        write_whole(path, report::json_text(&value).as_bytes())?;
    }
    print_out(&text)
}
