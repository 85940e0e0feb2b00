//! Helpers of the `grade` tests (`tests/grade_*.rs`): the binary, the official
//! Spring 2017 cases, and running the binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_reversi");

/// The official Spring 2017 cases.
pub fn official() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/cs561/s2017")
}

/// Runs the binary with `args`.
pub fn reversi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// Bytes a command printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
