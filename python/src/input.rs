//! Puzzles out of Python values: text (one puzzle, or a list of them) and rows of NumPy arrays.
//! All the reading is the library's ([`parse_one`], [`Reader`], [`Puzzle::new`]).

use crate::errors::read_error;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use std::ops::Range;
use sudoku_enum::parse::{parse_one, parse_one_record, Alphabet, ParseOptions, ReadError};
use sudoku_enum::rules::Rules;
use sudoku_enum::{Puzzle, Reader, Shape};

/// Puzzles copied out of Python and answered together: memory stays bounded for any batch, and
/// other Python threads get the interpreter between two chunks.
pub const CHUNK: usize = 1 << 14;

/// The shape given as `box=(rows, cols)`.
pub fn shape_arg(box_shape: Option<(usize, usize)>) -> PyResult<Option<Shape>> {
    box_shape
        .map(|(r, c)| Shape::new(r, c).map_err(|e| PyValueError::new_err(format!("box: {e}"))))
        .transpose()
}

/// The most worker threads a call may ask for, as the command line's `-j`.
const MAX_THREADS: usize = 1024;

/// The worker threads for `threads=` (None or 0: every core), at most [`MAX_THREADS`].
pub fn threads_arg(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(n) if n > MAX_THREADS => Err(PyValueError::new_err(format!(
            "threads={n} is too many (at most {MAX_THREADS}; 0 or None: every core)"
        ))),
        _ => Ok(sudoku_enum::worker_threads(threads)),
    }
}

/// The alphabet given as `alphabet=` (the names the command line's `--alphabet` takes).
pub fn alphabet_arg(alphabet: Option<&str>) -> PyResult<Option<Alphabet>> {
    alphabet
        .map(|a| {
            a.parse::<Alphabet>()
                .map_err(|e| PyValueError::new_err(format!("alphabet: {e}")))
        })
        .transpose()
}

/// How texts are read: `box=` and `alphabet=` (each recognised from the text when `None`).
pub fn reading(
    box_shape: Option<(usize, usize)>,
    alphabet: Option<&str>,
) -> PyResult<ParseOptions> {
    Ok(ParseOptions {
        shape: shape_arg(box_shape)?,
        alphabet: alphabet_arg(alphabet)?,
        ..ParseOptions::default()
    })
}

/// One puzzle from its text, in any layout the library reads.
pub fn parse_text(py: Python<'_>, text: &str, options: &ParseOptions) -> PyResult<Puzzle> {
    parse_one(text, options).map_err(|e| read_error(py, &e, None))
}

/// [`parse_text`], with the alphabet to write its solutions in: the one it was written in
/// (letters A-P stay letters), or hex digits where its values start at 0, as the command line
/// writes them.
pub fn parse_text_answered(
    py: Python<'_>,
    text: &str,
    options: &ParseOptions,
) -> PyResult<(Puzzle, Alphabet)> {
    let parsed = parse_one_record(text, options).map_err(|e| read_error(py, &e, None))?;
    let alphabet = if parsed.puzzle.rules().is_some_and(Rules::zero_based) {
        Alphabet::Hex
    } else {
        parsed.alphabet
    };
    Ok((parsed.puzzle, alphabet))
}

/// The texts of a slice of a Python list of puzzles, copied out of their strings.
pub struct Texts {
    /// The texts, each without one trailing line end, joined by `\n`.
    joined: Vec<u8>,
    /// Where each text ends in `joined`; the next starts one byte later.
    ends: Vec<usize>,
    /// No text has a line end inside (`joined` has exactly one line per text), nor a JSON
    /// bracket (a JSON document's lines, one per text, would read as one document).
    one_line_each: bool,
}

impl Texts {
    /// Copy `puzzles[range]`, which must be strings.
    pub fn copy(puzzles: &Bound<'_, PyList>, range: Range<usize>) -> PyResult<Texts> {
        let mut texts = Texts {
            joined: Vec::with_capacity(range.len() * 82),
            ends: Vec::with_capacity(range.len()),
            one_line_each: true,
        };
        for i in range {
            let item = puzzles.get_item(i)?;
            let s = item.cast::<PyString>().map_err(|_| {
                let type_name = item
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string());
                PyTypeError::new_err(format!("puzzles[{i}] is {type_name}, expected str"))
            })?;
            let text = s.to_str()?.as_bytes();
            // One line end at the end (lines of a file) is not part of the puzzle.
            let text = text
                .strip_suffix(b"\r\n")
                .or_else(|| text.strip_suffix(b"\n"))
                .or_else(|| text.strip_suffix(b"\r"))
                .unwrap_or(text);
            if !texts.ends.is_empty() {
                texts.joined.push(b'\n');
            }
            texts.one_line_each &= !text
                .iter()
                .any(|&b| matches!(b, b'\n' | b'\r' | b'[' | b'{'));
            texts.joined.extend_from_slice(text);
            texts.ends.push(texts.joined.len());
        }
        Ok(texts)
    }

    fn text(&self, k: usize) -> &[u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] + 1 };
        &self.joined[start..self.ends[k]]
    }

    /// Every text as one puzzle, or the first text (by position) that is not exactly one.
    ///
    /// One reader over all the lines, as the command line reads a file, when every text is one
    /// line (and no JSON) and the reader finds exactly one puzzle on each and nothing else;
    /// otherwise (a text spread over several lines, a line with two puzzles, or an error) each
    /// text on its own, so that errors name the line and column within their own text.
    pub fn parse(&self, options: &ParseOptions) -> Result<Vec<Puzzle>, (usize, ReadError)> {
        if self.one_line_each {
            let mut puzzles = Vec::with_capacity(self.ends.len());
            let mut one_each = true;
            for item in Reader::new(&self.joined[..], *options) {
                match item {
                    Ok(parsed) if parsed.line == puzzles.len() + 1 => puzzles.push(parsed.puzzle),
                    _ => {
                        one_each = false;
                        break;
                    }
                }
            }
            if one_each && puzzles.len() == self.ends.len() {
                return Ok(puzzles);
            }
        }
        (0..self.ends.len())
            .map(|k| {
                let text = String::from_utf8_lossy(self.text(k));
                parse_one(&text, options).map_err(|e| (k, e))
            })
            .collect()
    }
}

/// The shape of rows of `width` cells: `box_shape` when given (it must match), else inferred.
pub fn shape_of_rows(width: usize, box_shape: Option<Shape>) -> PyResult<Shape> {
    match box_shape {
        Some(shape) if shape.cells() == width => Ok(shape),
        Some(shape) => Err(PyValueError::new_err(format!(
            "rows have {width} cells but box={}x{} boards have {}",
            shape.box_rows(),
            shape.box_cols(),
            shape.cells()
        ))),
        None => Shape::for_cell_count(width).map_err(|e| {
            PyValueError::new_err(format!(
                "rows of {width} cells: {e}; give the shape with box=(rows, cols)"
            ))
        }),
    }
}

/// Puzzles from rows `range` of a row-major array of `shape.cells()` columns.
pub fn rows_to_puzzles(data: &[u8], shape: Shape, range: Range<usize>) -> PyResult<Vec<Puzzle>> {
    let width = shape.cells();
    range
        .map(|i| {
            let row = &data[i * width..(i + 1) * width];
            Puzzle::new(shape, row.to_vec())
                .map_err(|e| PyValueError::new_err(format!("row {i}: {e}")))
        })
        .collect()
}

/// A parse error of a batch as the Python exception, naming the puzzle's index.
pub fn batch_error(py: Python<'_>, first: usize, (k, e): (usize, ReadError)) -> PyErr {
    read_error(py, &e, Some(first + k))
}
