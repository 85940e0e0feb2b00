//! What the related courses' commands (`york`, `uf`) share: reading a board file, and
//! telling their bad-input errors (exit 2) from I/O failures.

use std::error::Error as StdError;
use std::path::Path;

use anyhow::{Context, Result};
use thiserror::Error;

use super::{display_name, read_input};
use crate::format::cs561::MAX_INPUT_BYTES;
use crate::format::{uf, york};

/// A board file that cannot be a board, whatever the course (exit 2).
#[derive(Debug, Error)]
pub(super) enum CourseInputError {
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
    let bytes = read_input(path, "")?;
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
