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
    let text = in_python_terms(&e.to_string());
    let message = match index {
        Some(i) => format!("puzzles[{i}]: {text}"),
        None => text,
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

/// A library message with the command line's options named as this package's arguments:
/// `--box 1x7` as `box=(1, 7)` (a bare `--box` as `box=(rows, cols)`), `--alphabet 0-F` as
/// `alphabet="0-F"` (a bare one as `alphabet=`); `--column`, which has none, left out.
fn in_python_terms(message: &str) -> String {
    // An option's value: the word after it, up to a blank or punctuation, and what follows.
    fn value(tail: &str) -> Option<(&str, &str)> {
        let word = tail.strip_prefix(' ')?;
        let end = word.find([' ', ',', ')', ';']).unwrap_or(word.len());
        Some((&word[..end], &word[end..]))
    }
    // `--column` has no argument here: the puzzles are given as their own strings.
    let message = message
        .replace(
            "; give --column NAME or a 1-based INDEX",
            "; give each puzzle as its own string (this package picks no table column)",
        )
        .replace(
            " (name it with --column)",
            " (give the puzzle as its own string)",
        );
    let mut out = String::with_capacity(message.len() + 16);
    let mut rest = message.as_str();
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        if let Some(tail) = after.strip_prefix("box") {
            match value(tail).and_then(|(v, t)| Some((v.split_once('x')?, t))) {
                Some(((r, c), t))
                    if !r.is_empty() && r.bytes().chain(c.bytes()).all(|b| b.is_ascii_digit()) =>
                {
                    out.push_str(&format!("box=({r}, {c})"));
                    rest = t;
                }
                _ => {
                    out.push_str("box=(rows, cols)");
                    rest = tail;
                }
            }
        } else if let Some(tail) = after.strip_prefix("alphabet") {
            match value(tail).filter(|(v, _)| !v.is_empty()) {
                Some((v, t)) => {
                    out.push_str(&format!("alphabet=\"{v}\""));
                    rest = t;
                }
                None => {
                    out.push_str("alphabet=");
                    rest = tail;
                }
            }
        } else {
            out.push_str("--");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}
