//! `reversi`: a reference solver and grading kit for Othello/Reversi search homework.
//!
//! Layers, each using only those below it: [`cli`] -> [`grader`] (tools for graders)
//! and [`arena`] (the match runner) -> [`format`](mod@format) -> [`search`] and
//! [`engine`] (the timed player) -> [`eval`] -> [`rules`] -> [`board`] and [`grid`]
//! (bitboards; byte grids for boards larger than 8x8). [`process`] runs other
//! programs for the grader and the arena.

#![warn(missing_docs)]

pub mod arena;
pub mod board;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod format;
pub mod grader;
pub mod grid;
pub mod process;
pub mod rules;
pub mod search;
