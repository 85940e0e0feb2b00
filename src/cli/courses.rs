//! What the related courses' commands (`york`, `uf`) share: reading a board file, and
//! telling their bad-input errors (exit 2) from I/O failures.

use std::error::Error as StdError;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use anyhow::{Context, Result};
use thiserror::Error;

use super::display_name;
use crate::format::cs561::MAX_INPUT_BYTES;
use crate::format::{uf, york};

/// A board file that cannot be a board, whatever the course (exit 2).
#[derive(Debug, Error)]
pub(super) enum CourseInputError {
    /// The board file does not exist.
    #[error("no such file")]
    MissingFile,
    /// Over the size limit.
    #[error("the file is larger than {MAX_INPUT_BYTES} bytes; a board is a few short lines")]
    TooLarge,
    /// Not UTF-8 text.
    #[error("the file is not UTF-8 text")]
    NotText,
    /// The side asked for has no legal move, and the program is never asked then.
    #[error("{color} has no legal move (the example AI is only asked when it has one)")]
    NoMove {
        /// The side's name.
        color: &'static str,
    },
    /// Standard input ended before the game was over.
    #[error("standard input ended before the game was over")]
    InputEnded,
}

/// Reads the board file `path` (`-`: standard input) as text; errors name the file.
pub(super) fn read_board_text(path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    // One byte more than the limit tells a file that is too large without reading it.
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let read = if path == Path::new("-") {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        match File::open(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(CourseInputError::MissingFile).context(display_name(path));
            }
            Err(e) => Err(e),
            Ok(file) => file.take(limit).read_to_end(&mut bytes),
        }
    };
    read.with_context(|| format!("cannot read {}", display_name(path)))?;
    let checked = if bytes.len() > MAX_INPUT_BYTES {
        Err(CourseInputError::TooLarge)
    } else {
        String::from_utf8(bytes).map_err(|_| CourseInputError::NotText)
    };
    checked.with_context(|| display_name(path))
}

/// True for the errors of the course commands that bad input or arguments cause.
pub(super) fn is_bad_input(cause: &(dyn StdError + 'static)) -> bool {
    cause.is::<CourseInputError>() || cause.is::<york::BoardError>() || cause.is::<uf::BoardError>()
}
