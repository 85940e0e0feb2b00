//! The grader tools' command lines: `check`, `batch`, `gen` and `tree`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use thiserror::Error;

use crate::grader::check;

/// Arguments of `reversi check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The expected output file (the course's, or ours).
    expected: PathBuf,
    /// The output file to check (a student's `output.txt`).
    actual: PathBuf,
    /// Compare as the Fall 2014 grader did: ignore CR, trailing whitespace and
    /// trailing blank lines (and say what a byte-exact grader would see).
    #[arg(long)]
    lenient: bool,
    /// Print the report as JSON instead of words.
    #[arg(long)]
    json: bool,
}

/// Failures of the grader tools that the user fixes by changing the arguments (exit 2).
#[derive(Debug, Error)]
pub enum GraderUsageError {
    /// A file named on the command line does not exist.
    #[error("{path}: no such file")]
    MissingFile {
        /// The path as given.
        path: String,
    },
}

/// The files differ, or some case failed: exit status 1, the report says why.
#[derive(Debug, Error)]
#[error("the comparison failed")]
pub struct Failed;

fn read(path: &Path) -> Result<Vec<u8>> {
    if !path.exists() {
        return Err(GraderUsageError::MissingFile {
            path: path.display().to_string(),
        }
        .into());
    }
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// `reversi check EXPECTED ACTUAL`: prints the report; [`Failed`] when they differ.
pub fn check(args: &CheckArgs) -> Result<()> {
    let expected = read(&args.expected)?;
    let actual = read(&args.actual)?;
    let report = check::check(&expected, &actual, args.lenient);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    if report.passed() {
        Ok(())
    } else {
        Err(Failed.into())
    }
}
