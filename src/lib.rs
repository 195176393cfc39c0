//! # sudoku-enum
//!
//! Exact all-solutions enumeration and uniqueness checking for N×N sudoku with R×C boxes
//! (4×4, 6×6, 9×9, 12×12, 16×16, 25×25, … up to 64×64).
//!
//! The flow is `text → parse → Puzzle → engine state → search → Sink`, and one search routine
//! serves every mode: counting, checking uniqueness (limit 2), solving (limit 1) and dumping
//! (limit N) differ only in the sink and the limit.
#![deny(missing_docs)]

pub mod control;
pub mod engine;
pub mod estimate;
pub mod format;
pub mod parallel;
pub mod parse;
pub mod puzzle;
pub mod rate;
pub mod shape;
pub mod sink;
pub mod solver;

pub use control::{Ctx, Shared, StopReason};
pub use parse::{ParseError, ParseOptions, Reader};
pub use puzzle::{Conflict, Puzzle};
pub use shape::{Shape, ShapeError};
pub use sink::{CollectSink, CountSink, FnSink, Sink, Stats};
pub use solver::{count, is_unique, search, solutions, EngineChoice, Options, Outcome, Verdict};
