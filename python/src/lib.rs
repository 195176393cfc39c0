//! `sudoku_enum._native`: the Python binding of the `sudoku_enum` library.
//!
//! Only glue lives here: converting Python values, running the library's `search` off the
//! interpreter lock and on every core (`run`), and the solutions iterator (`stream`). The
//! public, documented API is the `sudoku_enum` Python package that wraps this module.

mod errors;
mod input;
mod run;
mod stream;

use input::{
    alphabet_arg, batch_error, parse_text, parse_text_answered, reading, rows_to_puzzles,
    shape_arg, shape_of_rows, threads_arg, Texts, CHUNK,
};
use numpy::ndarray::Array2;
use numpy::{PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use run::{on_worker, run_items};
use std::ops::ControlFlow;
use sudoku_enum::parse::ParseOptions;
use sudoku_enum::{
    count as count_solutions, search, Options, Outcome, Puzzle, Shape, Sink, Verdict,
};

/// Verdict codes, in the order of `VERDICTS`: a code below 3 is the number of solutions capped
/// at 2.
const UNSOLVABLE: u8 = 0;
const UNIQUE: u8 = 1;
const MULTIPLE: u8 = 2;
const INVALID: u8 = 3;
const VERDICTS: [&str; 4] = ["unsolvable", "unique", "multiple", "invalid"];

/// The verdict code of a finished uniqueness search.
fn verdict_code(outcome: &Outcome) -> PyResult<u8> {
    match outcome.verdict() {
        Verdict::Unsolvable => Ok(UNSOLVABLE),
        Verdict::Unique => Ok(UNIQUE),
        Verdict::Multiple => Ok(MULTIPLE),
        Verdict::Invalid => Ok(INVALID),
        // Searches here are only stopped by their limit, or by Ctrl-C (which raises instead).
        Verdict::Unknown => Err(PyRuntimeError::new_err("the search stopped early")),
    }
}

/// The first solution found in the earliest piece of the tree (of a search split across
/// threads, or the only piece of a serial one), and which piece that was.
#[derive(Default)]
struct First(Option<(usize, Vec<u8>)>);

impl Sink for First {
    const NEEDS_GRID: bool = true;

    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        if self.0.is_none() {
            self.0 = Some((0, grid.to_vec()));
        }
        ControlFlow::Continue(())
    }

    fn fork(&self, _piece: usize) -> First {
        First(None)
    }

    fn join(&mut self, piece: usize, part: First) {
        if let Some((_, grid)) = part.0 {
            if self.0.as_ref().is_none_or(|(j, _)| piece < *j) {
                self.0 = Some((piece, grid));
            }
        }
    }
}

/// The search's outcome and its first solution (of the earliest piece of the tree, when the
/// search was split).
fn first_solution(puzzle: &Puzzle, options: &Options) -> (Outcome, Option<Vec<u8>>) {
    let mut first = First::default();
    let outcome = search(puzzle, options, &mut first);
    (outcome, first.0.map(|(_, grid)| grid))
}

/// Count the solutions of one puzzle, up to `limit`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None, shape=None, threads=None, alphabet=None))]
fn count(
    py: Python<'_>,
    puzzle: &str,
    limit: Option<u64>,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
    alphabet: Option<&str>,
) -> PyResult<u128> {
    let puzzle = parse_text(py, puzzle, &reading(shape, alphabet)?)?;
    let threads = threads_arg(threads)?;
    let outcomes = run_items(py, 1, limit, threads, |_, options| {
        count_solutions(&puzzle, options)
    })?;
    Ok(outcomes.into_iter().next().map_or(0, |o| o.solutions))
}

/// The first solution of one puzzle as a line, or None.
#[pyfunction]
#[pyo3(signature = (puzzle, shape=None, threads=None, alphabet=None))]
fn solve(
    py: Python<'_>,
    puzzle: &str,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
    alphabet: Option<&str>,
) -> PyResult<Option<String>> {
    let (puzzle, alphabet) = parse_text_answered(py, puzzle, &reading(shape, alphabet)?)?;
    let threads = threads_arg(threads)?;
    let answers = run_items(py, 1, Some(1), threads, |_, options| {
        first_solution(&puzzle, options)
    })?;
    Ok(answers
        .into_iter()
        .next()
        .and_then(|(_, grid)| grid)
        .map(|grid| alphabet.line(&grid)))
}

/// The true candidates of one puzzle: for each cell (row-major) the digits that appear in some
/// solution, each with the number of solutions through it counted up to `cap`. Every cell's
/// list is empty when the puzzle has no solution (or clashing givens).
#[pyfunction]
#[pyo3(signature = (puzzle, cap=8, shape=None, threads=None, alphabet=None))]
fn candidates(
    py: Python<'_>,
    puzzle: &str,
    cap: u64,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
    alphabet: Option<&str>,
) -> PyResult<Vec<Vec<(u8, u64)>>> {
    if cap == 0 {
        return Err(PyValueError::new_err("cap must be at least 1"));
    }
    let puzzle = parse_text(py, puzzle, &reading(shape, alphabet)?)?;
    let threads = threads_arg(threads)?;
    let found = on_worker(py, None, threads, |options| {
        sudoku_enum::candidates(&puzzle, options, cap)
    })?;
    if !found.complete() {
        return Err(PyRuntimeError::new_err("the search stopped early"));
    }
    // Digits as the puzzle's values: one less on a board whose values start at 0.
    let below = 1 - puzzle.rules().map_or(1, |r| r.first_value());
    Ok((0..puzzle.shape().cells())
        .map(|cell| {
            found
                .digits(cell)
                .into_iter()
                .map(|d| (d - below, found.count(cell, d)))
                .collect()
        })
        .collect())
}

/// A lazy iterator over the solutions of one puzzle, as lines.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None, shape=None, threads=1, alphabet=None))]
fn solutions(
    py: Python<'_>,
    puzzle: &str,
    limit: Option<u64>,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
    alphabet: Option<&str>,
) -> PyResult<stream::Solutions> {
    let (puzzle, alphabet) = parse_text_answered(py, puzzle, &reading(shape, alphabet)?)?;
    stream::Solutions::start(puzzle, alphabet, limit, threads_arg(threads)?)
}

/// Verdict codes of a list of puzzle texts.
fn check_codes(
    py: Python<'_>,
    puzzles: &Bound<'_, PyList>,
    options: &ParseOptions,
    threads: usize,
) -> PyResult<Vec<u8>> {
    let n = puzzles.len();
    let mut codes = Vec::with_capacity(n);
    for first in (0..n).step_by(CHUNK) {
        let texts = Texts::copy(puzzles, first..n.min(first + CHUNK))?;
        let chunk = py
            .detach(|| texts.parse(options))
            .map_err(|e| batch_error(py, first, e))?;
        let outcomes = run_items(py, chunk.len(), Some(2), threads, |i, options| {
            count_solutions(&chunk[i], options)
        })?;
        for outcome in &outcomes {
            codes.push(verdict_code(outcome)?);
        }
    }
    Ok(codes)
}

/// The verdict of each puzzle of a list of texts, as words.
#[pyfunction]
#[pyo3(signature = (puzzles, shape=None, threads=None, alphabet=None))]
fn check<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyList>,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
    alphabet: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let options = reading(shape, alphabet)?;
    let codes = check_codes(py, puzzles, &options, threads_arg(threads)?)?;
    let words = VERDICTS.map(|w| PyString::intern(py, w));
    PyList::new(py, codes.iter().map(|&c| &words[usize::from(c)]))
}

/// Rows `first..` of a 2-D array as puzzles, a chunk at a time: `each(first, puzzles)`.
fn for_row_chunks(
    array: &PyReadonlyArray2<'_, u8>,
    shape: Option<(usize, usize)>,
    mut each: impl FnMut(usize, Vec<Puzzle>) -> PyResult<()>,
) -> PyResult<Shape> {
    let [rows, width] = [array.shape()[0], array.shape()[1]];
    let shape = shape_of_rows(width, shape_arg(shape)?)?;
    let data = array
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("the array must be C-contiguous: {e}")))?;
    for first in (0..rows).step_by(CHUNK) {
        // Ctrl-C between chunks: a conversion of millions of rows takes seconds.
        array.py().check_signals()?;
        let puzzles = rows_to_puzzles(data, shape, first..rows.min(first + CHUNK))?;
        each(first, puzzles)?;
    }
    Ok(shape)
}

/// Verdict codes, and maybe solutions.
type CodesAndGrids<'py> = (Bound<'py, PyArray1<u8>>, Option<Bound<'py, PyArray2<u8>>>);

/// Verdict codes of the rows of a (n, N*N) uint8 array, and with `solutions` the first solution
/// of each (zeros where there is none).
#[pyfunction]
#[pyo3(signature = (array, shape=None, threads=None, solutions=false))]
fn check_array<'py>(
    py: Python<'py>,
    array: PyReadonlyArray2<'py, u8>,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
    solutions: bool,
) -> PyResult<CodesAndGrids<'py>> {
    let threads = threads_arg(threads)?;
    let rows = array.shape()[0];
    let width = array.shape()[1];
    let mut codes = Vec::with_capacity(rows);
    let mut grids = if solutions {
        vec![0u8; rows * width]
    } else {
        Vec::new()
    };
    for_row_chunks(&array, shape, |first, chunk| {
        if solutions {
            let answers = run_items(py, chunk.len(), Some(2), threads, |i, options| {
                first_solution(&chunk[i], options)
            })?;
            for (k, (outcome, grid)) in answers.iter().enumerate() {
                codes.push(verdict_code(outcome)?);
                if let Some(grid) = grid {
                    let at = (first + k) * width;
                    grids[at..at + width].copy_from_slice(grid);
                }
            }
        } else {
            let outcomes = run_items(py, chunk.len(), Some(2), threads, |i, options| {
                count_solutions(&chunk[i], options)
            })?;
            for outcome in &outcomes {
                codes.push(verdict_code(outcome)?);
            }
        }
        Ok(())
    })?;
    let codes = PyArray1::from_vec(py, codes);
    let grids = if solutions {
        Some(grid_array(py, rows, width, grids)?)
    } else {
        None
    };
    Ok((codes, grids))
}

/// The first solution of each row of a (n, N*N) uint8 array (zeros where there is none).
#[pyfunction]
#[pyo3(signature = (array, shape=None, threads=None))]
fn solve_array<'py>(
    py: Python<'py>,
    array: PyReadonlyArray2<'py, u8>,
    shape: Option<(usize, usize)>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let threads = threads_arg(threads)?;
    let rows = array.shape()[0];
    let width = array.shape()[1];
    let mut grids = vec![0u8; rows * width];
    for_row_chunks(&array, shape, |first, chunk| {
        let answers = run_items(py, chunk.len(), Some(1), threads, |i, options| {
            first_solution(&chunk[i], options)
        })?;
        for (k, (_, grid)) in answers.iter().enumerate() {
            if let Some(grid) = grid {
                let at = (first + k) * width;
                grids[at..at + width].copy_from_slice(grid);
            }
        }
        Ok(())
    })?;
    grid_array(py, rows, width, grids)
}

fn grid_array(
    py: Python<'_>,
    rows: usize,
    width: usize,
    grids: Vec<u8>,
) -> PyResult<Bound<'_, PyArray2<u8>>> {
    let grids = Array2::from_shape_vec((rows, width), grids)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(PyArray2::from_owned_array(py, grids))
}

/// Puzzle texts as a (n, N*N) uint8 array, 0 for an empty cell.
#[pyfunction]
#[pyo3(signature = (puzzles, shape=None, alphabet=None))]
fn to_array<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyList>,
    shape: Option<(usize, usize)>,
    alphabet: Option<&str>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let options = reading(shape, alphabet)?;
    let n = puzzles.len();
    let mut board: Option<Shape> = options.shape;
    let mut cells = Vec::new();
    for first in (0..n).step_by(CHUNK) {
        py.check_signals()?;
        let texts = Texts::copy(puzzles, first..n.min(first + CHUNK))?;
        let chunk = py
            .detach(|| texts.parse(&options))
            .map_err(|e| batch_error(py, first, e))?;
        for (k, p) in chunk.iter().enumerate() {
            if p.rules().is_some_and(|r| !r.is_empty()) {
                return Err(PyValueError::new_err(format!(
                    "puzzles[{}] has variant rules, pencil marks or values from 0, which an \
                     array of givens cannot hold",
                    first + k
                )));
            }
            let expected = *board.get_or_insert(p.shape());
            if p.shape() != expected {
                let board = |s: Shape| format!("{0}x{0} board ({s} boxes)", s.side());
                return Err(PyValueError::new_err(format!(
                    "puzzles[{}] is a {} but the others are {}: one array holds one shape",
                    first + k,
                    board(p.shape()),
                    board(expected)
                )));
            }
            if cells.is_empty() {
                cells.reserve(n * expected.cells());
            }
            cells.extend_from_slice(p.cells());
        }
    }
    let width = board.unwrap_or(Shape::NINE).cells();
    grid_array(py, n, width, cells)
}

/// The rows of a (n, N*N) uint8 array as puzzle lines ('.' for empty), in `alphabet` when
/// given.
#[pyfunction]
#[pyo3(signature = (array, shape=None, alphabet=None))]
fn to_strings(
    array: PyReadonlyArray2<'_, u8>,
    shape: Option<(usize, usize)>,
    alphabet: Option<&str>,
) -> PyResult<Vec<String>> {
    let alphabet = alphabet_arg(alphabet)?;
    if let Some(a) = alphabet {
        let side = shape_of_rows(array.shape()[1], shape_arg(shape)?)?.side();
        if side > a.max_side() {
            return Err(PyValueError::new_err(format!(
                "alphabet: {a} writes boards up to {0}x{0}, not {side}x{side}",
                a.max_side()
            )));
        }
    }
    let mut lines = Vec::with_capacity(array.shape()[0]);
    for_row_chunks(&array, shape, |_, chunk| {
        match alphabet {
            Some(a) => lines.extend(chunk.iter().map(|p| a.line(p.cells()))),
            None => lines.extend(chunk.iter().map(Puzzle::to_line)),
        }
        Ok(())
    })?;
    Ok(lines)
}

/// Load NumPy's C API where a failure (a `KeyboardInterrupt` while NumPy's modules are
/// imported, NumPy missing or broken) is an exception. rust-numpy loads it on the first array
/// made or read, and panics if that fails; the package calls this before each array function.
#[pyfunction]
fn _numpy_ready(py: Python<'_>) -> PyResult<()> {
    // Once a process: a call on a one-row array takes microseconds.
    static READY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if READY.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(());
    }
    numpy::get_array_module(py)?;
    // Past the imports, loading the API runs no Python code.
    PyArray1::<u8>::zeros(py, 0, false);
    READY.store(true, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// Stream workers still running (for tests).
#[pyfunction]
fn _running_streams() -> usize {
    stream::RUNNING.load(std::sync::atomic::Ordering::Relaxed)
}

/// The Rust part of `sudoku_enum`; use the `sudoku_enum` package instead.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solutions, m)?)?;
    m.add_function(wrap_pyfunction!(candidates, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(check_array, m)?)?;
    m.add_function(wrap_pyfunction!(solve_array, m)?)?;
    m.add_function(wrap_pyfunction!(to_array, m)?)?;
    m.add_function(wrap_pyfunction!(to_strings, m)?)?;
    m.add_function(wrap_pyfunction!(_numpy_ready, m)?)?;
    m.add_function(wrap_pyfunction!(_running_streams, m)?)?;
    m.add_class::<stream::Solutions>()?;
    m.add("ParseError", m.py().get_type::<errors::ParseError>())?;
    m.add("VERDICTS", VERDICTS.to_vec())?;
    m.add("UNSOLVABLE", UNSOLVABLE)?;
    m.add("UNIQUE", UNIQUE)?;
    m.add("MULTIPLE", MULTIPLE)?;
    m.add("INVALID", INVALID)?;
    Ok(())
}
