//! Python exceptions for the library's errors.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use sudoku_enum::parse::{ParseError as LibParseError, ReadError};

pyo3::create_exception!(
    sudoku_enum,
    ParseError,
    PyValueError,
    "A puzzle could not be read. The message names the line and column (1-based, within the \
     puzzle's own text); the attributes `line`, `column` and `index` (the position of the \
     puzzle in a batch, or None) say the same."
);

/// The Python `ParseError` for the library's, with its place; `index` is the puzzle's position
/// in a batch (`None` for a single puzzle).
pub fn parse_error(py: Python<'_>, e: &LibParseError, index: Option<usize>) -> PyErr {
    let message = match index {
        Some(i) => format!("puzzles[{i}]: {e}"),
        None => e.to_string(),
    };
    let err = ParseError::new_err(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception does not fail in practice; if it did, the message
    // still says everything.
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("column", e.column);
    let _ = value.setattr("index", index);
    err
}

/// A [`ReadError`] as a Python exception (an in-memory string has no I/O errors, but the type
/// has the case).
pub fn read_error(py: Python<'_>, e: &ReadError, index: Option<usize>) -> PyErr {
    match e {
        ReadError::Parse(e) => parse_error(py, e, index),
        ReadError::Io(e) => PyOSError::new_err(e.to_string()),
    }
}
