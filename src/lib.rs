//! `reversi`: a reference solver and grading kit for Othello/Reversi search homework.
//!
//! Layers, each using only those below it: [`cli`] -> [`grading`] (running and
//! grading students' programs), [`tree`] (the search tree drawn) and [`arena`] (the
//! match runner) -> [`explain`] (why an output differs) -> [`format`](mod@format) -> [`course_search`]
//! (the courses' own searches, reproduced exactly: the CS561 traverse log, York's
//! `mmeval`, UF's example AI) and [`engine`] (our strong timed player) -> [`eval`] ->
//! [`rules`] -> [`board`] (8x8 bitboards) and [`shaped_board`] (byte boards of any
//! shape, with blocked cells). [`sandbox`] runs students' programs for the grader and the
//! arena, confined and limited; [`printable`] escapes what students' files say. [`output_file`] (used by [`cli`], using none of the
//! others) writes an output file whole or not at all, within a size limit.

#![warn(missing_docs)]

pub mod arena;
pub mod board;
pub mod cli;
pub mod course_search;
pub mod engine;
pub mod eval;
pub mod explain;
pub mod format;
pub mod grading;
pub mod output_file;
pub mod printable;
pub mod rules;
pub mod sandbox;
pub mod shaped_board;
pub mod splitmix;
pub mod tree;
