//! `reversi`: a reference solver and grading kit for Othello/Reversi search homework.
//!
//! Layers, each using only those below it: [`cli`] -> [`arena`] (match runner) ->
//! [`format`] -> [`search`] and [`engine`] -> [`eval`] -> [`board`].

pub mod arena;
pub mod board;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod format;
pub mod grid;
pub mod search;
