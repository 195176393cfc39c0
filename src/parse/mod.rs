//! Reading puzzles from text.
//!
//! [`Reader`] streams puzzles out of any [`BufRead`](std::io::BufRead) in constant memory: it holds at most one
//! record and one line, and a line longer than [`ParseOptions::max_line_len`] is read through
//! without being buffered whole (a JSON input's such line is read in pieces cut between its
//! records). [`parse_one`] reads exactly one puzzle from a string.
//!
//! # Layouts
//!
//! The layout is detected for each record (one puzzle) from its first line. Everywhere: input
//! is handled as bytes (never assumed to be UTF-8; UTF-16, told by its byte-order mark or by a
//! first line of ASCII in it, is read as the same text in UTF-8), a UTF-8 BOM at the start of a
//! line is skipped, lines end with LF, CRLF or a lone CR, tabs count as spaces, lines whose
//! first non-blank character is `#` are comments, as are labels (a line that starts with a
//! letter and ends with `:`, such as `Puzzle:` above `solve`'s boards), and blank lines between
//! records are skipped, as are title lines before a record: a word of two or more letters, some
//! lowercase, alone or followed by a blank (`Grid 01` in Project Euler's `sudoku.txt`, `Puzzle
//! 3`).
//!
//! Cell characters are `1`-`9`, then `A`-`Z` for 10..=35 (lowercase is the same on boards
//! from 10×10 to 35×35), and for boards over 35×35 `a`-`z` for 36..=61 and `@` `$` `%` for
//! 62..=64 (the mirror of [`digit_char`](crate::puzzle::digit_char)); `.`, `0`, `_` and `*`
//! mark an empty cell.
//!
//! 1. **One puzzle per line**: a run of cell characters, optionally after blanks. The run ends
//!    at the first other character and anything after it is ignored (`puzzle solution`,
//!    `puzzle;count`, `puzzle:1:extra`, `puzzle 0`). Without a shape, the run length gives the
//!    board (16 → 4×4, 36 → 6×6, 81 → 9×9, 256 → 16×16, …); with [`ParseOptions::shape`] the
//!    run must hold exactly N² cells.
//! 2. **A grid, one board row per line**, in three flavours that share one reader:
//!    * whitespace-separated numbers (`5 3 0 0 7 0 0 0 0`, `16 0 3 …`), `0` or `.` for empty;
//!    * rows of characters (`2..1.5..3`, the `.sdk` layout), also framed (`|2..|1.5|..3|`, the
//!      `.ss` layout) or split by `|` (`2..|1.5|..3`);
//!    * the boxed layout printed by the solve command: a header `0 1 2 … N-1` (dropped when a
//!      `+---` line follows it), `+---` separators, rows `| 4 9 1| 6 8 5| 2 7 3| 0` whose
//!      trailing number after the last `|` is the row index (dropped), and empty cells written
//!      as `.` or as blanks at fixed places (a `|…|` segment of 2·k characters whose even
//!      positions are spaces is read positionally, one cell per 2 characters).
//!
//!    Lines made only of `-`, `+`, `=`, `*`, `|` and blanks that contain a `-`, `=` or `+` are
//!    frame/separator lines and are skipped (so `*-----*` is a frame but `*********` is a row of
//!    nine empty cells). Other `|` characters just separate cells.
//! 3. **Pencil marks** ("sukaku"), one puzzle per line: a run of N³ characters (729 for 9×9),
//!    N a cell; place k of a cell holds the digit k+1 when it is a candidate, an empty-cell
//!    mark when it is not. A cell with one candidate is a given, one with some a
//!    [`Rule::Only`](crate::rules::Rule::Only) (see `pencil`).
//!
//! # Rules for ambiguous input
//!
//! * A first line whose cell run is a whole board (N² cells with a box shape, or N² for the
//!   given shape; without a shape: any perfect square from 16 up) is a one-line puzzle. So a
//!   16-character line is a 4×4 puzzle, not the first row of a 16×16 grid, and 25 or 49 cells
//!   are reported as a board without a box shape: rows of 16×16, 25×25, 36×36, 49×49 and 64×64
//!   grids need the shape (`--box`).
//! * A run of N³ characters (N from 4) is pencil marks, except that 64, 729 and 4096 are also
//!   whole boards (8×8, 27×27, 64×64): without a shape such a run is pencil marks when it has a
//!   digit and every character is a digit up to N or an empty mark, else the board; with a
//!   shape, N×N's shape reads pencil marks and the board's the board.
//! * Otherwise a first line starts a grid when it starts with `|`, when its run stops at `|`,
//!   when its first token is at most two characters and more tokens follow, when its cells,
//!   split by blanks or `|`, make a valid row (N = R·C from 4 to 64), or when it is a lone run
//!   of 4, 6, 8, 9, 10 or 12 cells (a longer lone run is taken as a one-line puzzle of the wrong
//!   length; rows of bigger boards need the shape). Any other first line is a one-line puzzle
//!   with an error: a bad character where its run stops, else a wrong cell count (or a size
//!   without a box shape). Tokens are numbers when the first line
//!   separates its tokens by whitespace and each is a number of up to two digits or a single
//!   character; otherwise every character is a cell (so `12|34` is four cells, `12 34` two).
//! * The side N of a grid is the number of cells on its first line when that is a valid side
//!   (a row), else the square root when that count is a whole board (81 numbers on one line).
//!   Each later line must hold whole rows (N, 2N, … entries).
//! * Blank lines: a grid ends at a blank line (a grid cut short is reported there, and not
//!   merged with the next one), except a *double-spaced* grid — one whose first row is followed
//!   by a blank line, as in textbook samples — where blank lines between rows are skipped.
//! * A line inside a grid that is on its own a whole one-line puzzle is not a row: the grid is
//!   reported as mixing layouts and that line is read again as the next record.
//!
//! # Errors and recovery
//!
//! A [`ParseError`] names the 1-based line and column (in characters) and what was expected;
//! the reader then goes on with the next record, so every good puzzle of a batch is still read,
//! in order. After a bad one-line puzzle it resumes on the next line. After a bad row in a grid
//! it skips the rest of that grid: the following row-like lines up to the grid's N rows,
//! stopping early at a blank line (unless the grid is double-spaced), at a line that is a whole
//! one-line puzzle (kept for the next record) or at the end of the input. A grid cut short by a
//! blank line or a mixed-in one-line puzzle needs no skipping. I/O errors are fatal: the reader
//! reports one and then ends.
//!
//! # Files
//! `reader`: the streaming [`Reader`] (the state machine over records) and
//! [`parse_one`]; `lines`: what a line is (blank, comment, frame, the start of a one-line
//! puzzle or of a grid); `grid`: splitting grid lines into entries and collecting rows;
//! `bytes`: byte classes and the byte → value tables; `error`: the errors and their messages;
//! `alphabet`: the characters of digits above 9×9 (`--alphabet`) and how one is recognised;
//! `sections`: what other tools write around grids (`.sdk` sections, HoDoKu lines, ids before
//! a puzzle); `columns`: the column of a table (`--column`) and a table's state; `table`: CSV
//! and TSV inputs; `json_table`: JSON inputs; `pencil`: pencil marks. A new input family goes
//! where its first line is recognised (`lines::start_kind`, or `Reader::table_start` for a
//! whole input) and gets an `impl Reader` file of its own.

mod alphabet;
mod bytes;
mod columns;
mod error;
#[cfg(test)]
mod format_tests;
mod fpuzzles;
mod grid;
pub mod iss;
mod json;
mod json_table;
mod lines;
mod lz;
mod pencil;
mod reader;
mod sections;
mod table;
#[cfg(test)]
mod tests;
mod utf16;
mod variant;

pub use alphabet::Alphabet;
pub use bytes::cell_value;
pub use columns::{Column, ColumnName, TableFormat};
pub use error::{Expected, Found, GridEnd, LineKind, ParseError, ParseErrorKind, ReadError};
pub use reader::{parse_one, parse_one_record, ParseOptions, Parsed, Reader, DEFAULT_MAX_LINE_LEN};
