//! Why a student's output differs from the right one: the student's own tree judged
//! by the rules ([`audit`]), the report of `check` ([`check`]), the one model of a named mistake ([`mistake`]), the catalogue of
//! student bugs played on purpose ([`mutants`]), which of them write a file
//! ([`diagnose`]) and which cases catch them ([`catching`]), a traverse log read back
//! ([`log`]) and its moves replayed on the input's board ([`replay`]).
//!
//! A layer between the tools ([`crate::grading`], [`crate::tree`]) and
//! [`crate::format`](mod@crate::format): the grading code and the tree page only ask
//! it; it uses the format, search and board layers.

pub mod audit;
pub mod catching;
pub mod check;
pub mod diagnose;
pub mod log;
pub mod mistake;
pub mod mutants;
pub mod replay;
