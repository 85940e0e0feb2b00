//! `reversi`: a reference solver and grading kit for Othello/Reversi search homework.
//!
//! Layers, each using only those below it: [`cli`] -> [`format`] -> [`search`] ->
//! [`eval`] -> [`board`].

pub mod board;
pub mod cli;
pub mod eval;
pub mod format;
pub mod grader;
pub mod search;
