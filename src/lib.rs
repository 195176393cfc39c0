//! # sudoku-enum
//!
//! Exact all-solutions enumeration and uniqueness checking for N×N sudoku with R×C boxes
//! (4×4, 6×6, 9×9, 12×12, 16×16, 25×25, … up to 64×64).
//!
//! The flow is `text → parse → Puzzle → engine state → search → Sink`, and one search routine
//! serves every mode: counting, checking uniqueness (limit 2), solving (limit 1) and dumping
//! (limit N) differ only in the sink and the limit.
//!
//! ```
//! use sudoku_enum::parse::{parse_one, ParseOptions};
//! use sudoku_enum::{count, is_unique, solutions, Options, Puzzle, Shape};
//!
//! let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
//! let p = parse_one(line, &ParseOptions::default()).unwrap();
//! assert!(is_unique(&p));
//! assert!(p.is_solution(&solutions(&p, 1)[0]));
//!
//! // Any box shape: the 288 grids of 4×4, exactly, and a limit that stops at exactly N.
//! let empty = Puzzle::empty(Shape::new(2, 2).unwrap());
//! assert_eq!(count(&empty, None, &Options::default()).solutions, 288);
//! let some = count(&empty, Some(100), &Options::default());
//! assert_eq!((some.solutions, some.complete()), (100, false));
//! ```
#![deny(missing_docs)]

mod engine;
pub mod estimate;
pub mod format;
pub mod parse;
pub mod puzzle;
pub mod rate;
pub mod shape;
pub mod sink;
mod solver;

pub use engine::EngineChoice;
pub use parse::{ParseError, ParseOptions, Reader};
pub use puzzle::{Conflict, Puzzle};
pub use shape::{Shape, ShapeError};
pub use sink::{CollectSink, CountSink, FnSink, Sink, Stats};
pub use solver::{count, is_unique, search, solutions, CountBy, Options, Outcome, Verdict};
pub use solver::{parallel, Ctx, Shared, StopReason};

/// The engines and the search's moving parts, for the project's own tests, benchmarks and
/// examples. Not a stable API: anything here may change in any release.
#[doc(hidden)]
pub mod internals {
    pub use crate::engine::big::Big;
    pub use crate::engine::generic::Generic;
    pub use crate::engine::nine::Nine;
    pub use crate::engine::{Engine, Expansion};

    /// Empty this thread's table of 9×9 subtree counts (benchmarks that count a puzzle again
    /// must not find it remembered).
    pub fn clear_memo() {
        crate::engine::nine::memo::clear_table();
    }
}
