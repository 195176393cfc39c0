//! # sudoku-enum
//!
//! Exact all-solutions enumeration and uniqueness checking for N×N sudoku with R×C boxes
//! (4×4, 6×6, 9×9, 12×12, 16×16, 25×25, … up to 64×64).
//!
//! The flow is `text → parse → Puzzle → engine state → search → Sink`, and one search routine
//! serves every mode: counting, checking uniqueness (limit 2), solving (limit 1) and dumping
//! (limit N) differ only in the sink and the limit.
//!
//! The API in one breath: a [`Puzzle`] (from [`parse`], or built from values), [`Options`]
//! (threads, limit, timeout, a [`Cancel`] handle, a [`Progress`] to watch), and one
//! [`search`] that pushes solutions into a [`Sink`] and returns an [`Outcome`]; [`count`],
//! [`solutions`], [`solve`] and [`is_unique`] are that search with a ready-made sink.
//!
//! ```
//! use sudoku_enum::parse::{parse_one, ParseOptions};
//! use sudoku_enum::{count, is_unique, solve, Options, Puzzle, Shape};
//!
//! let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
//! let p = parse_one(line, &ParseOptions::default()).unwrap();
//! assert!(is_unique(&p));
//! assert!(p.is_solution(&solve(&p).unwrap()));
//!
//! // Any box shape: the 288 grids of 4×4, exactly, and a limit that stops at exactly N.
//! let empty = Puzzle::empty(Shape::new(2, 2).unwrap());
//! assert_eq!(count(&empty, &Options::default()).solutions, 288);
//! let some = count(&empty, &Options { limit: Some(100), ..Options::default() });
//! assert_eq!((some.solutions, some.complete()), (100, false));
//! ```
//!
//! Beside the search: [`estimate`] (the size of a search before running it), [`partition`]
//! (cutting a search into parts to count anywhere), [`setter`] (what a puzzle setter asks:
//! how far singles get, whether every given is needed), [`format`](mod@format) (printing boards).
#![deny(missing_docs)]

mod candidates;
mod engine;
pub mod estimate;
pub mod format;
pub mod parse;
pub mod partition;
mod puzzle;
mod rng;
pub mod rules;
pub mod setter;
mod shape;
mod sink;
mod solver;

pub use candidates::{candidates, Candidates};
pub use engine::EngineChoice;
pub use parse::{parse_one, ParseError, ParseOptions, Reader};
pub use puzzle::{Conflict, Puzzle, PuzzleError};
pub use rules::{Rule, Rules};
pub use shape::{Shape, ShapeError, MAX_SIDE};
pub use sink::{CollectSink, CountSink, FnSink, Sink, Stats};
pub use solver::{
    count, is_unique, search, solutions, solve, start_global_pool, worker_threads, Cancel, CountBy,
    Options, Outcome, Progress, StopReason, Verdict, SEARCH_STACK,
};

/// The engines and the search's moving parts, for the project's own tests, benchmarks and
/// examples. Not a stable API: anything here may change in any release.
#[doc(hidden)]
pub mod internals {
    pub use crate::engine::big::Big;
    pub use crate::engine::generic::Generic;
    pub use crate::engine::nine::Nine;
    pub use crate::engine::{Engine, Expansion};
    pub use crate::solver::parallel::{run, sub_problems, SubProblem};
    pub use crate::solver::{search_in, Ctx, Shared};

    /// Empty this thread's table of 9×9 subtree counts (benchmarks that count a puzzle again
    /// must not find it remembered).
    pub fn clear_memo() {
        crate::engine::nine::memo::clear_table();
    }
}
