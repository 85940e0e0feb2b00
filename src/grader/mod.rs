//! Tools for people who grade the homework: compare output files and explain the
//! difference ([`check`]), run folders of cases against our solver or a student's
//! program ([`batch`]), grade a class of submissions ([`grade`]), write what the
//! platforms read ([`platform`]) and the platforms' autograder bundles
//! ([`package`]), split a class over machines ([`shard`]), make new cases
//! ([`gen`]), name students' mistakes ([`mistake`]), play them on purpose
//! ([`mutants`]) and draw the search tree ([`tree`]).
//!
//! A layer between [`crate::cli`] and [`crate::format`](mod@crate::format): it uses the format, search,
//! evaluation and board layers, and only the command line uses it. Solving goes
//! through [`crate::format::cs561`] like the plain solver, so every tool agrees with
//! it byte for byte.

pub mod batch;
pub mod catching;
pub mod check;
pub mod diagnose;
pub mod gen;
pub mod grade;
pub mod language;
pub mod log;
pub mod mistake;
pub mod mutants;
pub mod package;
pub mod platform;
pub mod printable;
pub mod replay;
pub mod shard;
pub mod tree;
