//! Grading students' programs: run folders of cases against our solver or a
//! student's program ([`batch`]), grade a class of submissions under a policy
//! ([`grade`]), find how each language is built and run ([`language`]), write what
//! the platforms read ([`platform`]) and the platforms' autograder bundles
//! ([`package`]), split a class over machines ([`shard`]) and make new cases
//! ([`gen`]).
//!
//! A layer under [`crate::cli`]: it runs programs through [`crate::sandbox`] and asks
//! [`crate::explain`] why an output differs. Solving goes through
//! [`crate::format::cs561`] like the plain solver, so every tool agrees with it byte
//! for byte.

pub mod batch;
pub mod gen;
pub mod grade;
pub mod language;
pub mod package;
pub mod platform;
pub mod shard;
