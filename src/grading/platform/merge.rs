//! `grade merge`: the reports of a class graded in shards (`grade --shard K/N` on
//! several machines) joined into one of each, as one `grade` of the whole class
//! writes it: the CSV table, the JSON of `--json`, the JUnit XML, or a folder of
//! text reports. Students come in name order; a student in two inputs, inputs graded
//! on different cases or under different policies, and (for JSON, which names its
//! shard) a shard missing or given twice are refused.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use super::{junit, write_whole, WriteError};
use crate::grading::shard::Shard;

/// Why reports cannot be merged (bad arguments: exit 2).
#[derive(Debug, Error)]
pub enum MergeError {
    /// An input cannot be read.
    #[error("{path}: cannot read it: {reason}")]
    Read {
        /// The input.
        path: String,
        /// Why.
        reason: String,
    },
    /// An input is no report `grade` (or `arena`) writes.
    #[error("{path}: not a {kind} that `reversi` writes: {reason}")]
    NotAReport {
        /// The input.
        path: String,
        /// The kind of report expected.
        kind: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The inputs disagree on the cases, the policy or the isolation.
    #[error(
        "{path}: its {what} differs from that of {first}: these are not shards of one grading"
    )]
    Differ {
        /// The input that differs.
        path: String,
        /// The first input.
        first: String,
        /// What differs.
        what: &'static str,
    },
    /// A student in two inputs.
    #[error("{student}: graded in both {first} and {second}")]
    Twice {
        /// The student, as the reports write the name.
        student: String,
        /// One input.
        first: String,
        /// The other.
        second: String,
    },
    /// The JSON shards do not make a whole class.
    #[error("the shards given are {given}: {problem}")]
    Shards {
        /// The shards given, in order.
        given: String,
        /// What is missing or repeated.
        problem: String,
    },
    /// The merged report cannot be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Merges the reports `inputs` (all of one kind: CSV, JSON, JUnit XML, or folders
/// of text reports) into `out`, written whole. Returns the number of students.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<usize, MergeError> {
    if inputs.first().is_some_and(|first| first.is_dir()) {
        return merge_folders(inputs, out);
    }
    let texts = inputs
        .iter()
        .map(|path| {
            let text = fs::read_to_string(path).map_err(|e| MergeError::Read {
                path: path.display().to_string(),
                reason: e.to_string(),
            })?;
            Ok((path.display().to_string(), text))
        })
        .collect::<Result<Vec<_>, MergeError>>()?;
    let first = texts.first().map_or("", |(_, text)| text.as_str());
    let (students, merged) = if first.starts_with(junit::HEAD) {
        merge_junit(&texts)?
    } else if first.starts_with('{') {
        merge_json(&texts)?
    } else {
        merge_csv(&texts)?
    };
    write_whole(out, &merged)?;
    Ok(students)
}

/// A student's part of a report: the name to order by, the input, and the part.
struct Part<'a, T> {
    name: String,
    path: &'a str,
    text: T,
}

/// `parts` in name order, refusing a student twice.
fn in_name_order<T>(mut parts: Vec<Part<T>>) -> Result<Vec<Part<T>>, MergeError> {
    parts.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = parts.windows(2).find(|pair| pair[0].name == pair[1].name) {
        return Err(MergeError::Twice {
            student: pair[0].name.clone(),
            first: pair[0].path.to_string(),
            second: pair[1].path.to_string(),
        });
    }
    Ok(parts)
}

fn not_a(path: &str, kind: &'static str, reason: &str) -> MergeError {
    MergeError::NotAReport {
        path: path.to_string(),
        kind,
        reason: reason.to_string(),
    }
}

/// CSV tables: the same header, then every row in name order.
fn merge_csv(texts: &[(String, String)]) -> Result<(usize, String), MergeError> {
    let kind = "CSV table";
    let mut header: Option<(&str, &str)> = None;
    let mut parts = Vec::new();
    for (path, text) in texts {
        let mut rows = text.split_inclusive("\r\n");
        let head = rows.next().unwrap_or_default();
        if !head.starts_with("student,") || !head.ends_with("\r\n") {
            return Err(not_a(path, kind, "its first row is not the header"));
        }
        match header {
            None => header = Some((head, path)),
            Some((first_head, first)) if first_head != head => {
                return Err(MergeError::Differ {
                    path: path.clone(),
                    first: first.to_string(),
                    what: "header (the cases)",
                })
            }
            Some(_) => {}
        }
        for row in rows {
            if !row.ends_with("\r\n") {
                return Err(not_a(path, kind, "its last row is cut short"));
            }
            parts.push(Part {
                name: csv_name(row),
                path,
                text: row.to_string(),
            });
        }
    }
    let parts = in_name_order(parts)?;
    let mut merged = header.map_or_else(String::new, |(head, _)| head.to_string());
    merged.extend(parts.iter().map(|part| part.text.as_str()));
    Ok((parts.len(), merged))
}

/// The student of a CSV row: its first field unquoted, a spreadsheet formula's
/// guard taken off.
fn csv_name(row: &str) -> String {
    let name = match row.strip_prefix('"') {
        Some(quoted) => {
            let mut name = String::new();
            let mut chars = quoted.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '"' if chars.peek() == Some(&'"') => {
                        name.push('"');
                        chars.next();
                    }
                    '"' => break,
                    c => name.push(c),
                }
            }
            name
        }
        None => row
            .split([',', '\r'])
            .next()
            .unwrap_or_default()
            .to_string(),
    };
    match name.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest.to_string(),
        _ => name,
    }
}

/// JUnit documents: every `testsuite` (a student) in name order in one document.
fn merge_junit(texts: &[(String, String)]) -> Result<(usize, String), MergeError> {
    let kind = "JUnit XML document";
    let mut parts = Vec::new();
    for (path, text) in texts {
        let body = text
            .strip_prefix(junit::HEAD)
            .and_then(|rest| rest.strip_suffix(junit::TAIL))
            .ok_or_else(|| not_a(path, kind, "it does not start and end as one"))?;
        let mut suite = String::new();
        for line in body.split_inclusive('\n') {
            if suite.is_empty() && !line.starts_with(junit::SUITE_START) {
                return Err(not_a(path, kind, "a line outside any testsuite"));
            }
            suite += line;
            if line == junit::SUITE_END {
                let name = suite[junit::SUITE_START.len()..]
                    .split('"')
                    .next()
                    .unwrap_or_default();
                parts.push(Part {
                    name: unescape_xml(name),
                    path,
                    text: std::mem::take(&mut suite),
                });
            }
        }
        if !suite.is_empty() {
            return Err(not_a(path, kind, "its last testsuite is not closed"));
        }
    }
    let parts = in_name_order(parts)?;
    let mut merged = junit::HEAD.to_string();
    merged.extend(parts.iter().map(|part| part.text.as_str()));
    merged += junit::TAIL;
    Ok((parts.len(), merged))
}

/// An attribute's value as it was before the markup was escaped.
fn unescape_xml(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The JSON of `grade --json`: one document with every student, in name order, the
/// same policy and isolation; shards (`"shard": "K/N"`) must be 1/N to N/N, each once.
fn merge_json(texts: &[(String, String)]) -> Result<(usize, String), MergeError> {
    let kind = "JSON report (grade --json)";
    let mut merged: Option<(Value, &str)> = None;
    let mut shards = Vec::new();
    let mut parts = Vec::new();
    for (path, text) in texts {
        let mut report: Value =
            serde_json::from_str(text).map_err(|e| not_a(path, kind, &e.to_string()))?;
        let Some(Value::Array(students)) = report.get_mut("students").map(Value::take) else {
            return Err(not_a(path, kind, "it has no list of students"));
        };
        if let Some(shard) = report.as_object_mut().and_then(|r| r.remove("shard")) {
            shards.push(shard.as_str().unwrap_or_default().to_string());
        }
        for student in students {
            let name = student["student"]
                .as_str()
                .ok_or_else(|| not_a(path, kind, "a student without a name"))?;
            let name = name.to_string();
            parts.push(Part {
                name,
                path,
                text: student,
            });
        }
        match &merged {
            None => merged = Some((report, path)),
            Some((first, first_path)) => {
                for what in ["policy", "scoring", "isolation"] {
                    if first.get(what) != report.get(what) {
                        return Err(MergeError::Differ {
                            path: path.clone(),
                            first: first_path.to_string(),
                            what,
                        });
                    }
                }
            }
        }
    }
    check_shards(&shards, texts.len())?;
    let parts = in_name_order(parts)?;
    let count = parts.len();
    let students: Vec<Value> = parts.into_iter().map(|part| part.text).collect();
    let mut report = merged.map_or(Value::Null, |(report, _)| report);
    report["students"] = Value::Array(students);
    let text = serde_json::to_string_pretty(&report).expect("a JSON value serializes");
    Ok((count, format!("{text}\n")))
}

/// Shards named `K/N` (by `inputs` inputs) are each of 1/N to N/N once, or none.
pub(crate) fn check_shards(shards: &[String], inputs: usize) -> Result<(), MergeError> {
    if shards.is_empty() {
        return Ok(());
    }
    let given = shards.join(", ");
    let problem = |problem: String| MergeError::Shards {
        given: given.clone(),
        problem,
    };
    if shards.len() != inputs {
        return Err(problem("some inputs name no shard".into()));
    }
    let parsed: Vec<Shard> = shards
        .iter()
        .map(|s| s.parse().map_err(problem))
        .collect::<Result<_, _>>()?;
    let count = parsed[0].count;
    for index in 1..=count {
        match parsed
            .iter()
            .filter(|s| s.index == index && s.count == count)
            .count()
        {
            0 => return Err(problem(format!("{index}/{count} is missing"))),
            1 => {}
            _ => return Err(problem(format!("{index}/{count} is given twice"))),
        }
    }
    if parsed.len() != count {
        return Err(problem(format!("not all of them are of {count}")));
    }
    Ok(())
}

/// Folders of text reports (`STUDENT.txt`): every file, in one folder.
fn merge_folders(inputs: &[PathBuf], out: &Path) -> Result<usize, MergeError> {
    let mut files = Vec::new();
    for folder in inputs {
        let path = folder.display().to_string();
        let read = |e: std::io::Error| MergeError::Read {
            path: path.clone(),
            reason: e.to_string(),
        };
        if !folder.is_dir() {
            return Err(not_a(&path, "folder of reports", "not a folder"));
        }
        for entry in fs::read_dir(folder).map_err(read)? {
            let entry = entry.map_err(read)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            files.push((name, path.clone(), entry.path()));
        }
    }
    files.sort();
    if let Some(pair) = files.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(MergeError::Twice {
            student: pair[0].0.trim_end_matches(".txt").to_string(),
            first: pair[0].1.clone(),
            second: pair[1].1.clone(),
        });
    }
    fs::create_dir_all(out).map_err(|source| WriteError {
        path: out.display().to_string(),
        source,
    })?;
    for (name, _, file) in &files {
        let text = fs::read_to_string(file).map_err(|e| MergeError::Read {
            path: file.display().to_string(),
            reason: e.to_string(),
        })?;
        write_whole(&out.join(name), &text)?;
    }
    Ok(files.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_row_gives_back_the_student() {
        assert_eq!(csv_name("alice,5,5\r\n"), "alice");
        assert_eq!(csv_name("\"a,\"\"b\"\"\",5\r\n"), "a,\"b\"");
        assert_eq!(csv_name("'=cmd,5\r\n"), "=cmd");
        assert_eq!(csv_name("'o,5\r\n"), "'o");
    }

    #[test]
    fn json_shards_must_make_a_whole_class() {
        let shards = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_shards(&shards(&["2/3", "1/3", "3/3"]), 3).is_ok());
        assert!(check_shards(&[], 2).is_ok());
        for wrong in [
            shards(&["1/3", "3/3"]),
            shards(&["1/2", "1/2"]),
            shards(&["1/2", "2/2", "1/3"]),
        ] {
            let error = check_shards(&wrong, wrong.len()).unwrap_err().to_string();
            assert!(error.starts_with("the shards given are"), "{error}");
        }
        assert!(check_shards(&shards(&["1/1"]), 2).is_err());
    }
}
