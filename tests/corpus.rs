//! `check` on students' real programs: every folder of `testcases/corpus/` holds a
//! case (`input.txt`, `output.txt`), what a published solution wrote and the true cause found
//! by reading it (`bug.txt`: `cause:` a mistake's name or `none`; `shows:`, where the
//! program's mistake is one way of breaking a rule of the model, that rule's mistake).
//! This measures `check --input` on them and prints the accuracy table: the true cause
//! named; the rule the student's own lines break named, with the programs of the
//! catalogue that write the file, the true cause among them; an honest "ambiguous"
//! (several mistakes of the catalogue write the file, the true cause among them:
//! honest, not wrong, and not fully right either); an honest "not explained"; or a
//! wrong cause (the worst outcome; none is allowed). An ambiguous answer that leaves
//! the true cause out is wrong. Every explanation's first sentence has at most
//! [`HEADLINE_WORDS`] words.

use std::fs;
use std::path::Path;

use reversi::explain::check::{check_with_input, first_sentence, HEADLINE_WORDS};
use reversi::format::cs561;
use walkdir::WalkDir;

#[derive(Default)]
struct Tally {
    right: Vec<String>,
    rule: Vec<String>,
    ambiguous: Vec<String>,
    honest: Vec<String>,
    wrong: Vec<String>,
}

#[test]
fn check_names_the_true_cause_or_says_it_cannot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/corpus");
    let mut tally = Tally::default();
    let mut long = Vec::new();
    for entry in WalkDir::new(&root)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let dir = entry.unwrap().into_path();
        if !dir.is_dir() {
            continue;
        }
        let read = |name: &str| fs::read(dir.join(name)).unwrap();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let bug = String::from_utf8(read("bug.txt")).unwrap();
        let cause = bug
            .lines()
            .find_map(|l| l.strip_prefix("cause: "))
            .unwrap_or_else(|| panic!("{name}: bug.txt has no `cause:` line"))
            .trim()
            .to_string();
        let shows = bug
            .lines()
            .find_map(|l| l.strip_prefix("shows: "))
            .map(|s| s.trim().to_string());
        let problem = cs561::parse(&read("input.txt"), None).unwrap();
        let report = check_with_input(
            &read("output.txt"),
            &read("actual.txt"),
            false,
            Some(&problem),
        );
        if let Some(difference) = &report.difference {
            let first = first_sentence(&difference.explanation);
            let words = first.split_whitespace().count();
            if words > HEADLINE_WORDS {
                long.push(format!("{name}: {words} words: {first}"));
            }
        }
        // (only the mistake itself counts: another way of making the same kind of
        // mistake tells the student something false about the program)
        let named = report
            .difference
            .as_ref()
            .and_then(|d| d.mistake)
            .map(|m| m.name().to_string());
        // (a candidate of the cause's kind is honest: it says nothing false)
        let among = report
            .candidates
            .iter()
            .any(|c| c.mistake.name() == cause || c.mistake.kind().name() == cause);
        let alike: Vec<String> = report
            .candidates
            .iter()
            .map(|c| c.mistake.to_string())
            .collect();
        match named {
            Some(named) if named == cause => {
                tally
                    .right
                    .push(format!("{name}: true cause {cause}, check says {named}"));
            }
            // (the rule the student's lines break, which the program's mistake is one
            // way of breaking: right when the program is among the ways shown)
            Some(named)
                if Some(named.as_str()) == shows.as_deref() && (among || !report.ambiguous) =>
            {
                tally.rule.push(format!(
                    "{name}: true cause {cause}, check says {named}{}",
                    if alike.is_empty() {
                        String::new()
                    } else {
                        format!(", by one of {}", alike.join(", "))
                    }
                ));
            }
            Some(named) => tally
                .wrong
                .push(format!("{name}: true cause {cause}, check says {named}")),
            // (an ambiguous report that names nothing: each candidate is told "if it is
            // this one"; honest when the cause is among them)
            None if report.ambiguous => {
                let row = format!(
                    "{name}: true cause {cause}, check says one of {}",
                    alike.join(", ")
                );
                if among {
                    tally.ambiguous.push(row);
                } else {
                    tally.wrong.push(row);
                }
            }
            None => tally.honest.push(format!(
                "{name}: true cause {cause}, check says not explained"
            )),
        }
    }
    let total = tally.right.len()
        + tally.rule.len()
        + tally.ambiguous.len()
        + tally.honest.len()
        + tally.wrong.len();
    assert!(total > 0, "the corpus is empty");
    println!("| outcome | differences |\n|---|---|");
    println!("| true cause named | {} |", tally.right.len());
    println!(
        "| the rule the student's lines break named, the true cause one way of breaking it | {} |",
        tally.rule.len()
    );
    println!(
        "| honest \"ambiguous\", the true cause among the candidates | {} |",
        tally.ambiguous.len()
    );
    println!("| honest \"not explained\" | {} |", tally.honest.len());
    println!("| wrong cause named | {} |", tally.wrong.len());
    println!("| total | {total} |");
    let named = tally.right.len() + tally.rule.len();
    println!(
        "named: {named} of {total} ({:.0}%)",
        100.0 * named as f64 / total as f64
    );
    let rows = tally
        .right
        .iter()
        .chain(&tally.rule)
        .chain(&tally.ambiguous);
    for row in rows.chain(&tally.honest).chain(&tally.wrong) {
        println!("  {row}");
    }
    assert!(tally.wrong.is_empty(), "wrong causes: {:#?}", tally.wrong);
    assert!(
        long.is_empty(),
        "first sentences over {HEADLINE_WORDS} words: {long:#?}"
    );
}
