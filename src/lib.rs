//! `reversi`: a reference solver and grading kit for Othello/Reversi search homework.
//!
//! Layers, each using only those below it: [`cli`] -> [`grader`] (tools for graders)
//! -> [`format`](mod@format) -> [`search`] -> [`eval`] -> [`rules`] -> [`board`].

pub mod board;
pub mod cli;
pub mod eval;
pub mod format;
pub mod grader;
pub mod rules;
pub mod search;
