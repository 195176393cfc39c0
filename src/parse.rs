//! Reading puzzles from text.
//!
//! [`Reader`] streams puzzles out of any [`BufRead`] in constant memory: it holds at most one
//! record and one line, and a line longer than [`ParseOptions::max_line_len`] is read through
//! without being buffered whole. [`parse_one`] reads exactly one puzzle from a string.
//!
//! # Layouts
//!
//! The layout is detected for each record (one puzzle) from its first line. Everywhere: input
//! is handled as bytes (never assumed to be UTF-8), a UTF-8 BOM at the start is skipped, lines
//! end with LF, CRLF or a lone CR, tabs count as spaces, lines whose first non-blank character
//! is `#` are comments, and blank lines between records are skipped, as are title lines
//! before a record: a word of two or more letters, some lowercase, alone or followed by a blank
//! (`Grid 01` in Project Euler's `sudoku.txt`, `Puzzle 3`).
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
//!
//! # Rules for ambiguous input
//!
//! * A first line whose cell run is a whole board (N² cells with a box shape, or N² for the
//!   given shape; without a shape: any perfect square from 16 up) is a one-line puzzle. So a
//!   16-character line is a 4×4 puzzle, not the first row of a 16×16 grid, and 25 or 49 cells
//!   are reported as a board without a box shape: rows of 16×16, 25×25, 36×36, 49×49 and 64×64
//!   grids need the shape (`--box`).
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

use crate::puzzle::{Puzzle, PuzzleError};
use crate::shape::{Shape, ShapeError, MAX_SIDE};
use std::fmt;
use std::io::{self, BufRead};

/// Default for [`ParseOptions::max_line_len`]: 1 MiB.
pub const DEFAULT_MAX_LINE_LEN: usize = 1 << 20;

/// The UTF-8 byte order mark, skipped at the start of the input.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How to read puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// The board shape (`--box`); `None` infers it from each record.
    pub shape: Option<Shape>,
    /// The longest line accepted, in bytes; longer lines are reported and skipped without being
    /// held in memory. Defaults to [`DEFAULT_MAX_LINE_LEN`].
    pub max_line_len: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            shape: None,
            max_line_len: DEFAULT_MAX_LINE_LEN,
        }
    }
}

/// One parsed puzzle with the 1-based line number where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The puzzle's first line: its only line, its first row, or the header of a boxed grid.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// A parse error: 1-based line and column (in characters; for a whole-record error, the place
/// where it went wrong) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters (an invalid UTF-8 byte counts as one).
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// What went wrong in a [`ParseError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A character that is not a cell here.
    #[error("unexpected {found}; expected {expected}")]
    UnexpectedChar {
        /// The character (or invalid byte) found.
        found: Found,
        /// What would have been valid at that place.
        expected: Expected,
    },
    /// A digit character whose value is above the board's side.
    #[error(
        "digit {} is out of range for a {side}x{side} board; expected {}",
        digit_label(*.digit, *.value),
        Expected::Cell(Some(*.side))
    )]
    DigitOutOfRange {
        /// The digit character.
        digit: char,
        /// Its value.
        value: u8,
        /// The board's side N.
        side: usize,
    },
    /// A number in a grid of numbers that is above the board's side.
    #[error(
        "number {value} is out of range for a {side}x{side} board; expected {}",
        Expected::Number(Some(*.side))
    )]
    NumberOutOfRange {
        /// The number.
        value: u32,
        /// The board's side N.
        side: usize,
    },
    /// A one-line puzzle whose length does not match the given shape.
    #[error(
        "got {}, expected {} for a {n}x{n} board with {shape} boxes",
        Count(*.got, "cell"),
        .shape.cells(),
        n = .shape.side()
    )]
    WrongCellCount {
        /// Cells on the line.
        got: usize,
        /// The shape given in [`ParseOptions::shape`].
        shape: Shape,
    },
    /// A one-line puzzle whose length is no board size (and no shape was given).
    #[error(
        "{} is not a board size: a one-line puzzle has N*N cells with N = R*C \
         (16, 36, 64, 81, 144, 256, 625, ...); the nearest is {nearest} ({n}x{n}); \
         for other shapes give --box",
        Count(*.got, "cell"),
        n = isqrt(*.nearest)
    )]
    NotABoardSize {
        /// Cells on the line.
        got: usize,
        /// The nearest board size, in cells.
        nearest: usize,
    },
    /// A size with no box shape to infer (prime side, too large).
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The first row of a grid does not tell the side.
    #[error(
        "cannot infer the board size from a first row of {}: a row has N entries with \
         N = R*C (4, 6, 8, 9, 10, 12, 16, ...) or holds all N*N; give the shape with --box",
        Count(*.entries, "entry")
    )]
    CannotInferSide {
        /// Entries on the first row.
        entries: usize,
    },
    /// A grid line that does not hold whole rows.
    #[error(
        "row {row} has {}, expected {side} (one row of a {side}x{side} board)",
        Count(*.got, "entry")
    )]
    RowLength {
        /// 1-based row of the grid where the line starts.
        row: usize,
        /// Entries on the line.
        got: usize,
        /// The board's side N.
        side: usize,
    },
    /// A grid that stopped before its last row.
    #[error("the grid ended {end} after {rows} of {side} rows")]
    GridEndedEarly {
        /// Rows read.
        rows: usize,
        /// Rows expected (the side N).
        side: usize,
        /// What ended it.
        end: GridEnd,
    },
    /// A grid interrupted by a line of another layout.
    #[error(
        "found {found} where row {row} of the {side}x{side} grid that starts on line \
         {start_line} was expected; one puzzle cannot mix layouts"
    )]
    MixedFormats {
        /// What was found.
        found: Layout,
        /// The 1-based row expected.
        row: usize,
        /// The grid's side N.
        side: usize,
        /// Line of the grid's first row.
        start_line: usize,
    },
    /// A line longer than [`ParseOptions::max_line_len`].
    #[error("line is longer than {limit} bytes; skipped (the limit keeps memory bounded)")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// [`parse_one`] found nothing.
    #[error("no puzzle found: the input is empty or has only blank and comment lines")]
    NoPuzzle,
    /// [`parse_one`] found more than one puzzle.
    #[error(
        "a second puzzle starts here (the first starts on line {first_line}); \
         expected exactly one puzzle"
    )]
    ExtraPuzzle {
        /// Line where the first puzzle starts.
        first_line: usize,
    },
    /// The values were rejected by [`Puzzle::new`] (not expected: the parser checks them).
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
}

/// A character as found in the input, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// A decoded character.
    Char(char),
    /// A byte that does not start a valid UTF-8 character.
    Byte(u8),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Char(c) if c.is_ascii() => write!(f, "character '{}'", c.escape_debug()),
            // Invisible or suspicious characters (NBSP, BOM, U+FFFD from a bad decode) are
            // shown as escapes; anything else as itself.
            Found::Char(c)
                if c.is_control() || c.is_whitespace() || matches!(c, '\u{fffd}' | '\u{feff}') =>
            {
                write!(f, "character '{}'", c.escape_unicode())
            }
            Found::Char(c) => write!(f, "character '{c}'"),
            Found::Byte(b) => write!(f, "byte 0x{b:02X} (not valid UTF-8)"),
        }
    }
}

/// What the parser expected at the place of an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// A cell character for a board of this side (`None`: side not known yet).
    Cell(Option<usize>),
    /// A number for a grid of numbers of this side (`None`: side not known yet).
    Number(Option<usize>),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const EMPTY: &str = "'.', '0', '_', '*' for an empty cell";
        match *self {
            Expected::Cell(Some(n)) => write!(f, "{}, or {EMPTY}", DigitRange(n)),
            Expected::Cell(None) => write!(
                f,
                "a digit 1-9 (and letters A-Z on boards over 9x9), or {EMPTY}"
            ),
            Expected::Number(Some(n)) => write!(f, "a number 0-{n} (0 or '.' for an empty cell)"),
            Expected::Number(None) => f.write_str("a number (0 or '.' for an empty cell)"),
        }
    }
}

/// What interrupted a grid (see [`ParseErrorKind::MixedFormats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A line that is a whole one-line puzzle.
    OneLine,
    /// A row of characters inside a grid of whitespace-separated numbers.
    CharRow,
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layout::OneLine => "a one-line puzzle",
            Layout::CharRow => "a row of characters (in a grid of whitespace-separated numbers)",
        })
    }
}

/// What ended a grid early (see [`ParseErrorKind::GridEndedEarly`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridEnd {
    /// The end of the input.
    EndOfInput,
    /// A blank line in a grid that is not double-spaced.
    BlankLine,
}

impl fmt::Display for GridEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GridEnd::EndOfInput => "at the end of the input",
            GridEnd::BlankLine => "at a blank line",
        })
    }
}

/// Errors from the reader: a parse error (the reader goes on with the next record) or an I/O
/// error (fatal: the reader ends after it).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A record could not be parsed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Reading the input failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// `n thing(s)`, for messages.
struct Count(usize, &'static str);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (1, what) => write!(f, "1 {what}"),
            (n, "entry") => write!(f, "{n} entries"),
            (n, what) => write!(f, "{n} {what}s"),
        }
    }
}

/// The digits of a board of side N, for messages: "a digit 1-9 or a letter A-G".
struct DigitRange(usize);

impl fmt::Display for DigitRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        let letter = |base: u8, v: usize| char::from(base + (v as u8));
        match n {
            0..=9 => write!(f, "a digit 1-{n}"),
            10 => f.write_str("a digit 1-9 or the letter A"),
            11..=35 => write!(f, "a digit 1-9 or a letter A-{}", letter(b'A', n - 10)),
            36 => f.write_str("a digit 1-9, a letter A-Z or a"),
            37..=61 => write!(f, "a digit 1-9, a letter A-Z or a-{}", letter(b'a', n - 36)),
            _ => {
                let symbols = ["'@'", "'@', '$'", "'@', '$', '%'"];
                let extra = symbols[(n - 62).min(2)];
                write!(f, "a digit 1-9, a letter A-Z or a-z, or {extra}")
            }
        }
    }
}

/// `'5'`, or `'G' (= 16)` for a letter or symbol.
fn digit_label(digit: char, value: u8) -> String {
    if digit.is_ascii_digit() {
        format!("'{digit}'")
    } else {
        format!("'{digit}' (= {value})")
    }
}

/// Parse the digit character `c` for a board of side `n`: `'1'`-`'9'`, then `'A'`-`'Z'` for
/// 10..=35 (lowercase is the same when 10 ≤ n ≤ 35); for n > 35, `'a'`-`'z'` are 36..=61 and
/// `'@'`, `'$'`, `'%'` are 62..=64 (the mirror of [`digit_char`](crate::puzzle::digit_char)).
/// `'.'`, `'0'`, `'_'` and `'*'` are empty: `Some(0)`. Returns `None` for anything else,
/// including a digit above `n`.
pub fn cell_value(c: u8, n: usize) -> Option<u8> {
    symbol_value(c, n).filter(|&v| usize::from(v) <= n)
}

/// The value a character stands for on a board of side `n`, even when above `n`: uppercase
/// letters are digits 10..=35 on every board (so `G` on a 9×9 board is a digit out of range),
/// lowercase letters only on boards that use letters (so `g` on a 9×9 board is a bad character).
fn symbol_value(c: u8, n: usize) -> Option<u8> {
    match value_table(n)[usize::from(c)] {
        NO_VALUE => None,
        v => Some(v),
    }
}

/// Marks a byte that is no cell character in [`VALUE_TABLES`]; above every side.
const NO_VALUE: u8 = u8::MAX;

/// Byte → value tables (the one-line path looks up every character): for sides up to 9, up to
/// 35 and above 35, which differ in lowercase letters and `@` `$` `%`.
static VALUE_TABLES: [[u8; 256]; 3] =
    [value_table_for(9), value_table_for(35), value_table_for(64)];

fn value_table(n: usize) -> &'static [u8; 256] {
    &VALUE_TABLES[usize::from(n > 9) + usize::from(n > 35)]
}

/// [`symbol_value`] for boards up to 9×9 as arithmetic (vectorises, unlike table lookups):
/// the value of a digit, 0 for an empty-cell mark, a letter's value 10..=35, else [`NO_VALUE`].
fn small_value(b: u8) -> u8 {
    let digit = b.wrapping_sub(b'0');
    let letter = b.wrapping_sub(b'A');
    if digit < 10 {
        digit
    } else if (b == b'.') | (b == b'_') | (b == b'*') {
        0
    } else if letter < 26 {
        letter + 10
    } else {
        NO_VALUE
    }
}

const fn value_table_for(n: usize) -> [u8; 256] {
    let mut table = [NO_VALUE; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        table[i] = match c {
            b'.' | b'0' | b'_' | b'*' => 0,
            b'1'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            b'a'..=b'z' if n > 35 => c - b'a' + 36,
            b'a'..=b'z' if n > 9 => c - b'a' + 10,
            b'@' if n > 35 => 62,
            b'$' if n > 35 => 63,
            b'%' if n > 35 => 64,
            _ => NO_VALUE,
        };
        i += 1;
    }
    table
}

/// The error for a cell character `b` at `pos` that is not valid on a board of side `n`.
fn symbol_error(line: &[u8], pos: usize, b: u8, n: usize, expected: Expected) -> ParseErrorKind {
    match symbol_value(b, n) {
        Some(value) => ParseErrorKind::DigitOutOfRange {
            digit: char::from(b),
            value,
            side: n,
        },
        None => unexpected(line, pos, expected),
    }
}

fn unexpected(line: &[u8], pos: usize, expected: Expected) -> ParseErrorKind {
    ParseErrorKind::UnexpectedChar {
        found: decode_at(line, pos).0,
        expected,
    }
}

// ---------------------------------------------------------------------------------------------
// Bytes and characters

/// Blanks inside a line (line ends are handled by the reader).
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C')
}

/// Characters that can be part of a run of cells on some board.
/// Digits, letters, `.`, `_`, `*`, `@`, `$`, `%`: the cell characters of the largest boards.
/// (Arithmetic rather than a table lookup, so that scans over whole chunks vectorise.)
fn is_cell_char(b: u8) -> bool {
    (b.wrapping_sub(b'0') < 10)
        | ((b | 0x20).wrapping_sub(b'a') < 26)
        | (b == b'.')
        | (b == b'_')
        | (b == b'*')
        | (b == b'@')
        | (b == b'$')
        | (b == b'%')
}

/// The index of the first byte of `bytes` for which `stop` holds, else `bytes.len()`.
/// Checks 16 bytes at a time without early exit (vectorised) before looking closer: the
/// one-line path runs this over every line.
fn find_first(bytes: &[u8], stop: impl Fn(u8) -> bool) -> usize {
    let mut done = 0;
    for chunk in bytes.chunks_exact(16) {
        if chunk.iter().fold(false, |any, &b| any | stop(b)) {
            break;
        }
        done += 16;
    }
    let tail = &bytes[done..];
    done + tail.iter().position(|&b| stop(b)).unwrap_or(tail.len())
}

/// Characters that may end a one-line puzzle's run before trailing text.
fn is_soft_end(b: u8) -> bool {
    is_ws(b) || matches!(b, b':' | b';' | b',')
}

/// The character at `pos` and its length in bytes (an invalid byte is one "character").
fn decode_at(line: &[u8], pos: usize) -> (Found, usize) {
    let Some(&b) = line.get(pos) else {
        return (Found::Byte(0), 1);
    };
    if b < 0x80 {
        return (Found::Char(char::from(b)), 1);
    }
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (Found::Byte(b), 1),
    };
    let decoded = line
        .get(pos..pos + len)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|s| s.chars().next());
    match decoded {
        Some(c) => (Found::Char(c), len),
        None => (Found::Byte(b), 1),
    }
}

/// The 1-based column, in characters, of byte `pos`.
fn char_column(line: &[u8], pos: usize) -> usize {
    let pos = pos.min(line.len());
    if line[..pos].is_ascii() {
        return pos + 1;
    }
    let (mut i, mut col) = (0, 1);
    while i < pos {
        i += decode_at(line, i).1;
        col += 1;
    }
    col
}

fn trim_end(line: &[u8]) -> usize {
    line.iter().rposition(|&b| !is_ws(b)).map_or(0, |i| i + 1)
}

fn isqrt(n: usize) -> usize {
    let mut r = (n as f64).sqrt() as usize;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

// ---------------------------------------------------------------------------------------------
// Line classification

/// What a line is, before looking at its cells.
enum LineClass {
    Blank,
    Comment,
    /// A frame or separator line; the index of its first non-blank byte.
    Frame(usize),
    /// Anything else; the index of its first non-blank byte.
    Content(usize),
}

fn classify(line: &[u8]) -> LineClass {
    let Some(p) = line.iter().position(|&b| !is_ws(b)) else {
        return LineClass::Blank;
    };
    match line[p] {
        b'#' => LineClass::Comment,
        b'-' | b'+' | b'*' | b'=' | b'|' if is_frame(&line[p..]) => LineClass::Frame(p),
        _ => LineClass::Content(p),
    }
}

/// Frame and separator lines (`*-----*`, `|---+---|`, `- - -`, `+------+`, `=====`): only
/// `-+*=|` and blanks, with at least one `-`, `=` or `+` (so a line of `*` is empty cells).
fn is_frame(rest: &[u8]) -> bool {
    rest.iter()
        .all(|&b| is_ws(b) || matches!(b, b'-' | b'+' | b'*' | b'=' | b'|'))
        && rest.iter().any(|&b| matches!(b, b'-' | b'=' | b'+'))
}

/// Length of the run of cell characters starting at `p`.
fn run_len(line: &[u8], p: usize) -> usize {
    find_first(&line[p..], |b| !is_cell_char(b))
}

/// Is a run of `len` cells a whole one-line board? With a shape: exactly N². Without: any
/// perfect square from 16 up (squares without a box shape are then reported as such).
fn is_board_len(len: usize, shape: Option<Shape>) -> bool {
    match shape {
        Some(s) => len == s.cells(),
        None => len >= 16 && isqrt(len).pow(2) == len,
    }
}

/// Is `len` cells one row of a grid? With a shape: exactly N. Without: a side with a box shape.
fn is_row_len(len: usize, shape: Option<Shape>) -> bool {
    match shape {
        Some(s) => len == s.side(),
        None => (4..=MAX_SIDE).contains(&len) && Shape::for_side(len).is_ok(),
    }
}

/// Is a line of just `len` cell characters one row of a grid? Without a shape only for the
/// usual small sides (4, 6, 8, 9, 10, 12): a longer run is more likely a one-line puzzle with a
/// wrong length, and bigger row-per-line grids need the shape.
fn is_bare_row_len(len: usize, shape: Option<Shape>) -> bool {
    match shape {
        Some(_) => is_row_len(len, shape),
        None => len <= 12 && is_row_len(len, None),
    }
}

/// Is this content line (first non-blank at `p`) a whole one-line puzzle on its own?
fn is_complete_line(line: &[u8], p: usize, shape: Option<Shape>) -> bool {
    line[p] != b'|' && is_board_len(run_len(line, p), shape)
}

/// How a record starts.
enum Start {
    /// A one-line puzzle of this many cells.
    OneLine(usize),
    /// The first line of a multi-line grid.
    Grid,
    /// A title line such as `Grid 01`, skipped.
    Title,
    /// A one-line puzzle that is wrong; its run length.
    Bad(usize),
}

/// Decide the layout of a record from its first content line (see the module docs).
fn start_kind(line: &[u8], p: usize, shape: Option<Shape>) -> Start {
    if line[p] == b'|' {
        return Start::Grid;
    }
    let len = run_len(line, p);
    if is_board_len(len, shape) {
        return Start::OneLine(len);
    }
    let after = p + len;
    if is_title(&line[p..after], line.get(after).copied()) {
        return Start::Title;
    }
    let rest_blank = line[after..].iter().all(|&b| is_ws(b));
    match line.get(after) {
        Some(b'|') if len > 0 => Start::Grid,
        _ if rest_blank => {
            if is_bare_row_len(len, shape) {
                Start::Grid
            } else {
                Start::Bad(len)
            }
        }
        Some(&b) if is_ws(b) && len > 0 && (len <= 2 || spaced_row(line, p, shape)) => Start::Grid,
        _ => Start::Bad(len),
    }
}

/// A title such as `Grid 01` (Project Euler's `sudoku.txt`) or `Puzzle`: a first word of two
/// or more letters, some lowercase, then a blank or the end of the line. No row is written so.
fn is_title(word: &[u8], next: Option<u8>) -> bool {
    word.len() >= 2
        && word.iter().all(u8::is_ascii_alphabetic)
        && word.iter().any(u8::is_ascii_lowercase)
        && next.map_or(true, is_ws)
}

/// A row of characters split by blanks or `|` (`2.. 1.5 ..3`) that makes one valid row.
fn spaced_row(line: &[u8], p: usize, shape: Option<Shape>) -> bool {
    let mut cells = 0;
    for &b in &line[p..] {
        if is_cell_char(b) {
            cells += 1;
        } else if !(is_ws(b) || b == b'|') {
            return false;
        }
    }
    is_row_len(cells, shape)
}

// ---------------------------------------------------------------------------------------------
// Grid rows

/// How the entries of a grid are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Whitespace-separated numbers (a single character is a cell character).
    Numbers,
    /// Every character is a cell.
    Chars,
}

impl Mode {
    fn expected(self, side: Option<usize>) -> Expected {
        match self {
            Mode::Numbers => Expected::Number(side),
            Mode::Chars => Expected::Cell(side),
        }
    }
}

/// A grid's layout, from its first line: numbers when tokens are separated by whitespace and
/// each is a number of at most two digits or a single character.
fn detect_mode(line: &[u8], p: usize) -> Mode {
    let end = trim_end(line);
    let (mut numeric, mut ws_between, mut pending_ws, mut tokens) = (true, false, false, 0);
    let mut i = p;
    while i < end {
        let b = line[i];
        if b == b'|' || is_ws(b) {
            pending_ws |= is_ws(b) && tokens > 0;
            i += 1;
            continue;
        }
        let start = i;
        while i < end && !is_ws(line[i]) && line[i] != b'|' {
            i += 1;
        }
        let tok = &line[start..i];
        numeric &= tok.len() == 1 || (tok.len() == 2 && tok.iter().all(u8::is_ascii_digit));
        ws_between |= pending_ws;
        pending_ws = false;
        tokens += 1;
    }
    if numeric && ws_between {
        Mode::Numbers
    } else {
        Mode::Chars
    }
}

/// One entry of a grid row, before the side is known.
#[derive(Debug, Clone, Copy)]
enum Raw {
    /// A number token.
    Num(u16),
    /// A cell character (a positional blank is `.`).
    Sym(u8),
}

#[derive(Debug, Clone, Copy)]
struct Tok {
    pos: usize,
    raw: Raw,
}

/// Why a grid line could not be split into entries.
enum TokError {
    /// A bad character: its byte position and the error.
    Bad(usize, ParseErrorKind),
    /// A run of characters in a grid of numbers, at this byte position.
    CharRun(usize),
}

/// Split a grid line (first non-blank at `p`) into entries; returns the end of its content.
fn tokenize(
    line: &[u8],
    p: usize,
    mode: Mode,
    side: Option<usize>,
    toks: &mut Vec<Tok>,
) -> Result<usize, TokError> {
    toks.clear();
    let end = trim_end(line);
    let framed = line[p] == b'|';
    let (body_end, index) = if framed {
        split_row_index(line, p, end)
    } else {
        (end, None)
    };
    // Segments between `|`; in a framed row a segment closed on both sides may be positional.
    let mut seg_start = p;
    for i in p..=body_end {
        let closed = i < body_end && line[i] == b'|';
        if !closed && i < body_end {
            continue;
        }
        let seg = &line[seg_start..i];
        if framed && closed && seg_start > p && is_positional(seg) {
            push_positional(seg, seg_start, toks);
        } else {
            push_tokens(line, seg_start, i, mode, side, toks)?;
        }
        seg_start = i + 1;
    }
    // The boxed layout's row index after the last `|`: dropped when the entries before it make
    // whole rows (or, on a first line, a valid row).
    if let Some((start, stop)) = index {
        let k = toks.len();
        let is_index = match side {
            Some(n) => k > 0 && k % n == 0,
            None => is_row_len(k, None),
        };
        if !is_index {
            push_tokens(line, start, stop, mode, side, toks)?;
        }
    }
    Ok(end)
}

/// For a row starting with `|`: when the text after the last `|` is a blank then one number of
/// up to two digits (a row index, as in `| 4 9 1| 6 8 5| 2 7 3| 0`), the end of the body and
/// the index's range.
fn split_row_index(line: &[u8], p: usize, end: usize) -> (usize, Option<(usize, usize)>) {
    let Some(last) = line[p..end].iter().rposition(|&b| b == b'|').map(|i| p + i) else {
        return (end, None);
    };
    let tail = &line[last + 1..end];
    let Some(first) = tail.iter().position(|&b| !is_ws(b)) else {
        return (end, None);
    };
    let number = &tail[first..];
    if first > 0 && number.len() <= 2 && number.iter().all(u8::is_ascii_digit) {
        (last + 1, Some((last + 1 + first, end)))
    } else {
        (end, None)
    }
}

/// A `|…|` segment written positionally: 2 characters per cell, a space then the cell, with a
/// space for an empty cell (`| 4   1|`). Only when at least one cell is blank, since otherwise
/// splitting at blanks reads the same.
fn is_positional(seg: &[u8]) -> bool {
    let cells = || seg.iter().skip(1).step_by(2);
    seg.len() >= 2
        && seg.len() % 2 == 0
        && seg.iter().step_by(2).all(|&b| b == b' ')
        && cells().any(|&b| b == b' ')
        && cells().all(|&b| b == b' ' || is_cell_char(b))
}

fn push_positional(seg: &[u8], start: usize, toks: &mut Vec<Tok>) {
    for (j, &b) in seg.iter().enumerate().skip(1).step_by(2) {
        let b = if b == b' ' { b'.' } else { b };
        toks.push(Tok {
            pos: start + j,
            raw: Raw::Sym(b),
        });
    }
}

/// Push the entries of the blank-separated tokens of `line[start..stop]`.
fn push_tokens(
    line: &[u8],
    start: usize,
    stop: usize,
    mode: Mode,
    side: Option<usize>,
    toks: &mut Vec<Tok>,
) -> Result<(), TokError> {
    let mut i = start;
    while i < stop {
        if is_ws(line[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < stop && !is_ws(line[i]) {
            i += 1;
        }
        push_token(line, s, i, mode, side, toks)?;
    }
    Ok(())
}

/// Push one token: a number (up to 3 digits, in a grid of numbers) or cell characters.
fn push_token(
    line: &[u8],
    s: usize,
    e: usize,
    mode: Mode,
    side: Option<usize>,
    toks: &mut Vec<Tok>,
) -> Result<(), TokError> {
    let tok = &line[s..e];
    if mode == Mode::Numbers {
        if tok.len() <= 3 && tok.iter().all(u8::is_ascii_digit) {
            let v = tok.iter().fold(0u16, |v, &d| v * 10 + u16::from(d - b'0'));
            toks.push(Tok {
                pos: s,
                raw: Raw::Num(v),
            });
            return Ok(());
        }
        if tok.len() > 1 {
            return Err(match tok.iter().position(|&b| !is_cell_char(b)) {
                Some(j) => TokError::Bad(s + j, unexpected(line, s + j, mode.expected(side))),
                None => TokError::CharRun(s),
            });
        }
    }
    for (j, &b) in tok.iter().enumerate() {
        if !is_cell_char(b) {
            let kind = unexpected(line, s + j, mode.expected(side));
            return Err(TokError::Bad(s + j, kind));
        }
        toks.push(Tok {
            pos: s + j,
            raw: Raw::Sym(b),
        });
    }
    Ok(())
}

/// The shape of a grid from the entry count of its first line (see the module docs).
fn infer_shape(entries: usize, shape: Option<Shape>) -> Result<Shape, ParseErrorKind> {
    if let Some(s) = shape {
        return Ok(s);
    }
    match entries {
        0 | 1 => Err(ParseErrorKind::CannotInferSide { entries }),
        2..=MAX_SIDE => Ok(Shape::for_side(entries)?),
        _ => {
            Shape::for_cell_count(entries).map_err(|_| ParseErrorKind::CannotInferSide { entries })
        }
    }
}

/// The nearest board size (N² with a box shape) to `len` cells; the smaller one on a tie.
fn nearest_board(len: usize) -> usize {
    (4..=MAX_SIDE)
        .filter(|&s| Shape::for_side(s).is_ok())
        .map(|s| s * s)
        .min_by_key(|&cells| cells.abs_diff(len))
        .unwrap_or(81)
}

/// A grid being read.
struct Grid {
    mode: Mode,
    shape: Shape,
    rows: usize,
    cells: Vec<u8>,
    start_line: usize,
    double_spaced: bool,
    /// Line and end column of the last row, for "ended at the end of the input".
    last_row: (usize, usize),
}

impl Grid {
    fn side(&self) -> usize {
        self.shape.side()
    }

    /// Add the entries of one line, which must hold whole rows.
    fn add_row(
        &mut self,
        line: &[u8],
        toks: &[Tok],
        end: usize,
    ) -> Result<(), (usize, ParseErrorKind)> {
        let n = self.side();
        let (k, room) = (toks.len(), (n - self.rows) * n);
        if k == 0 || k % n != 0 || k > room {
            // Point at the first entry that cannot be placed, or at the end of a short row.
            let pos = if k < n {
                end
            } else {
                toks.get((k - k % n).min(room)).map_or(end, |t| t.pos)
            };
            let kind = ParseErrorKind::RowLength {
                row: self.rows + 1,
                got: k,
                side: n,
            };
            return Err((pos, kind));
        }
        for t in toks {
            let value = match t.raw {
                Raw::Num(v) if usize::from(v) <= n => v as u8,
                Raw::Num(v) => {
                    let kind = ParseErrorKind::NumberOutOfRange {
                        value: u32::from(v),
                        side: n,
                    };
                    return Err((t.pos, kind));
                }
                Raw::Sym(b) => cell_value(b, n).ok_or_else(|| {
                    (
                        t.pos,
                        symbol_error(line, t.pos, b, n, self.mode.expected(Some(n))),
                    )
                })?,
            };
            self.cells.push(value);
        }
        self.rows += k / n;
        Ok(())
    }

    /// The boxed layout's header `0 1 2 … N-1`: the only row so far, followed by a `+---` line.
    fn is_header(&self, frame_first: u8) -> bool {
        self.mode == Mode::Numbers
            && self.rows == 1
            && frame_first == b'+'
            && self
                .cells
                .iter()
                .enumerate()
                .all(|(i, &v)| usize::from(v) == i)
    }
}

/// Skipping the rest of a bad grid.
#[derive(Debug, Clone, Copy)]
struct Skip {
    /// Row lines still to skip.
    rows_left: usize,
    /// Rows seen, including the bad line (for the double-spacing rule).
    rows_seen: usize,
    double_spaced: bool,
}

// ---------------------------------------------------------------------------------------------
// The reader

/// Streaming multi-puzzle reader over any [`BufRead`], in constant memory: it never holds more
/// than one record and one line, and reads through lines longer than
/// [`ParseOptions::max_line_len`] without buffering them.
///
/// Yields each puzzle in input order, or a [`ReadError`] for a bad record, after which it goes
/// on with the next record (see the [module docs](self) for the layouts and recovery rules).
#[derive(Debug)]
pub struct Reader<R: BufRead> {
    input: R,
    options: ParseOptions,
    /// The current line, without its line end (at most `max_line_len` bytes).
    line: Vec<u8>,
    /// 1-based number of the current line.
    line_no: usize,
    /// The current line was longer than the limit (and was cut).
    too_long: bool,
    /// The current line is to be read again by the next record.
    pushed_back: bool,
    /// The last line ended with CR: a following LF belongs to it.
    skip_lf: bool,
    at_start: bool,
    done: bool,
    skip: Option<Skip>,
    toks: Vec<Tok>,
    /// Cache of the last inferred one-line shape.
    last_inferred: Option<(usize, Shape)>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` with these options.
    pub fn new(input: R, options: ParseOptions) -> Self {
        Reader {
            input,
            options,
            line: Vec::new(),
            line_no: 0,
            too_long: false,
            pushed_back: false,
            skip_lf: false,
            at_start: true,
            done: false,
            skip: None,
            toks: Vec::new(),
            last_inferred: None,
        }
    }

    /// Read the next line into `self.line`; false at the end of the input.
    fn read_line(&mut self) -> io::Result<bool> {
        if self.pushed_back {
            self.pushed_back = false;
            return Ok(true);
        }
        self.line.clear();
        self.too_long = false;
        let limit = self.options.max_line_len;
        let mut got_any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if buf[0] == b'\n' {
                    self.input.consume(1);
                    continue;
                }
            }
            got_any = true;
            let chunk = find_first(buf, |b| (b == b'\n') | (b == b'\r'));
            let eol = (chunk < buf.len()).then_some(chunk);
            let room = limit.saturating_sub(self.line.len());
            self.too_long |= chunk > room;
            self.line.extend_from_slice(&buf[..chunk.min(room)]);
            match eol {
                Some(i) => {
                    self.skip_lf = buf[i] == b'\r';
                    self.input.consume(i + 1);
                    break;
                }
                None => self.input.consume(chunk),
            }
        }
        if !got_any {
            return Ok(false);
        }
        self.line_no += 1;
        if self.at_start {
            self.at_start = false;
            if self.line.starts_with(BOM) {
                self.line.drain(..BOM.len());
            }
        }
        Ok(true)
    }

    /// An error at byte `pos` of the current line.
    fn error(&self, pos: usize, kind: ParseErrorKind) -> ReadError {
        ReadError::Parse(ParseError {
            line: self.line_no,
            column: char_column(&self.line, pos),
            kind,
        })
    }

    fn too_long_error(&self) -> ReadError {
        let limit = self.options.max_line_len;
        self.error(self.line.len(), ParseErrorKind::LineTooLong { limit })
    }

    fn next_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        if let Some(skip) = self.skip.take() {
            self.skip_rows(skip)?;
        }
        loop {
            if !self.read_line()? {
                return Ok(None);
            }
            if self.too_long {
                return Err(self.too_long_error());
            }
            if let Some(parsed) = self.whole_line_puzzle() {
                return Ok(Some(parsed));
            }
            if let LineClass::Content(p) = classify(&self.line) {
                match start_kind(&self.line, p, self.options.shape) {
                    Start::OneLine(len) => return self.read_one_line(p, len).map(Some),
                    Start::Grid => return self.read_grid_record(p).map(Some),
                    Start::Title => {}
                    Start::Bad(len) => return Err(self.bad_one_line(p, len)),
                }
            }
        }
    }

    fn read_grid_record(&mut self, p: usize) -> Result<Parsed, ReadError> {
        let mut toks = std::mem::take(&mut self.toks);
        let result = self.read_grid(p, &mut toks);
        self.toks = toks;
        result
    }

    /// The shape of a one-line puzzle of `len` cells.
    fn line_shape(&mut self, len: usize) -> Result<Shape, ParseErrorKind> {
        if let Some(s) = self.options.shape {
            return Ok(s);
        }
        match self.last_inferred {
            Some((l, s)) if l == len => Ok(s),
            _ => {
                let s = Shape::for_cell_count(len)?;
                self.last_inferred = Some((len, s));
                Ok(s)
            }
        }
    }

    /// The usual line of a batch in one pass: the whole line is one puzzle of side at most 9
    /// (N² characters, each a digit up to N or an empty-cell mark, nothing before or after).
    /// The general path reads such a line the same way, after classifying it and measuring its
    /// run; any other line gives `None` and takes that path, so every message stays as it is.
    fn whole_line_puzzle(&mut self) -> Option<Parsed> {
        let len = self.line.len();
        let shape = match self.options.shape {
            Some(s) if s.cells() == len => s,
            None if len >= 16 => self.line_shape(len).ok()?,
            _ => return None,
        };
        let n = shape.side();
        if n > 9 {
            return None;
        }
        let cells: Vec<u8> = self.line.iter().map(|&b| small_value(b)).collect();
        // NO_VALUE and letters are above 9, so the largest value also flags other characters.
        if usize::from(cells.iter().fold(0, |m, &v| m.max(v))) > n {
            return None;
        }
        Some(Parsed {
            line: self.line_no,
            puzzle: Puzzle::from_checked(shape, cells),
        })
    }

    /// A one-line puzzle: the `len` cells from `p` (the hot path: one allocation per puzzle).
    fn read_one_line(&mut self, p: usize, len: usize) -> Result<Parsed, ReadError> {
        let shape = self.line_shape(len).map_err(|k| self.error(p + len, k))?;
        let n = shape.side();
        let run = &self.line[p..p + len];
        let cells: Vec<u8> = if n <= 9 {
            run.iter().map(|&b| small_value(b)).collect()
        } else {
            let table = value_table(n);
            run.iter().map(|&b| table[usize::from(b)]).collect()
        };
        // NO_VALUE is above every side, so the largest value also flags bad characters.
        if usize::from(cells.iter().fold(0, |m, &v| m.max(v))) > n {
            let i = cells.iter().position(|&v| usize::from(v) > n).unwrap_or(0);
            let kind = symbol_error(&self.line, p + i, run[i], n, Expected::Cell(Some(n)));
            return Err(self.error(p + i, kind));
        }
        let puzzle = Puzzle::new(shape, cells).map_err(|e| self.error(p, e.into()))?;
        Ok(Parsed {
            line: self.line_no,
            puzzle,
        })
    }

    /// The error for a line that is neither a board nor a grid row: a bad character where the
    /// run stopped, else a wrong cell count.
    fn bad_one_line(&self, p: usize, len: usize) -> ReadError {
        let after = p + len;
        let shape = self.options.shape;
        let kind = match self.line.get(after) {
            Some(&b) if len == 0 || !is_soft_end(b) => {
                unexpected(&self.line, after, Expected::Cell(shape.map(Shape::side)))
            }
            _ => match shape {
                Some(shape) => ParseErrorKind::WrongCellCount { got: len, shape },
                None => ParseErrorKind::NotABoardSize {
                    got: len,
                    nearest: nearest_board(len),
                },
            },
        };
        self.error(after, kind)
    }

    /// A multi-line grid whose first line (first non-blank at `p`) is the current line.
    fn read_grid(&mut self, p: usize, toks: &mut Vec<Tok>) -> Result<Parsed, ReadError> {
        let given = self.options.shape;
        let mode = detect_mode(&self.line, p);
        let end = tokenize(&self.line, p, mode, given.map(Shape::side), toks)
            .map_err(|e| self.first_row_error(e))?;
        let shape = infer_shape(toks.len(), given).map_err(|k| self.error(end, k))?;
        let mut grid = Grid {
            mode,
            shape,
            rows: 0,
            cells: Vec::with_capacity(shape.cells()),
            start_line: self.line_no,
            double_spaced: false,
            last_row: (0, 0),
        };
        self.add_row(&mut grid, toks, end)?;
        while grid.rows < grid.side() {
            if !self.read_line()? {
                let (line, column) = grid.last_row;
                let kind = ParseErrorKind::GridEndedEarly {
                    rows: grid.rows,
                    side: grid.side(),
                    end: GridEnd::EndOfInput,
                };
                return Err(ParseError { line, column, kind }.into());
            }
            if self.too_long {
                self.skip_rest(&grid);
                return Err(self.too_long_error());
            }
            match classify(&self.line) {
                // A blank line right after the first row makes the grid double-spaced.
                LineClass::Blank if grid.double_spaced || grid.rows <= 1 => {
                    grid.double_spaced = true;
                }
                LineClass::Blank => {
                    let kind = ParseErrorKind::GridEndedEarly {
                        rows: grid.rows,
                        side: grid.side(),
                        end: GridEnd::BlankLine,
                    };
                    return Err(self.error(0, kind));
                }
                LineClass::Comment => {}
                LineClass::Frame(q) => {
                    if grid.is_header(self.line[q]) {
                        grid.rows = 0;
                        grid.cells.clear();
                    }
                }
                LineClass::Content(q) => self.grid_line(&mut grid, q, toks)?,
            }
        }
        let start_line = grid.start_line;
        let puzzle = Puzzle::new(shape, grid.cells).map_err(|e| ParseError {
            line: start_line,
            column: 1,
            kind: e.into(),
        })?;
        Ok(Parsed {
            line: start_line,
            puzzle,
        })
    }

    /// One more content line of a grid.
    fn grid_line(
        &mut self,
        grid: &mut Grid,
        q: usize,
        toks: &mut Vec<Tok>,
    ) -> Result<(), ReadError> {
        if is_complete_line(&self.line, q, self.options.shape) {
            // Not a row: report the grid, and read this line again as the next record.
            self.pushed_back = true;
            return Err(self.error(q, self.mixed(grid, Layout::OneLine)));
        }
        match tokenize(&self.line, q, grid.mode, Some(grid.side()), toks) {
            Ok(end) => self.add_row(grid, toks, end),
            Err(e) => {
                let err = match e {
                    TokError::Bad(pos, kind) => self.error(pos, kind),
                    TokError::CharRun(pos) => self.error(pos, self.mixed(grid, Layout::CharRow)),
                };
                self.skip_rest(grid);
                Err(err)
            }
        }
    }

    fn mixed(&self, grid: &Grid, found: Layout) -> ParseErrorKind {
        ParseErrorKind::MixedFormats {
            found,
            row: grid.rows + 1,
            side: grid.side(),
            start_line: grid.start_line,
        }
    }

    /// Add the current line's entries to the grid; on error, arrange to skip the rest of it.
    fn add_row(&mut self, grid: &mut Grid, toks: &[Tok], end: usize) -> Result<(), ReadError> {
        match grid.add_row(&self.line, toks, end) {
            Ok(()) => {
                grid.last_row = (self.line_no, char_column(&self.line, end));
                Ok(())
            }
            Err((pos, kind)) => {
                self.skip_rest(grid);
                Err(self.error(pos, kind))
            }
        }
    }

    /// A bad first line of a grid: nothing to skip, as its size is unknown.
    fn first_row_error(&self, e: TokError) -> ReadError {
        match e {
            TokError::Bad(pos, kind) => self.error(pos, kind),
            // Not produced on a first line (its layout comes from its own tokens).
            TokError::CharRun(pos) => {
                self.error(pos, unexpected(&self.line, pos, Expected::Number(None)))
            }
        }
    }

    /// After a bad line in `grid`, skip the rest of the grid on the next call.
    fn skip_rest(&mut self, grid: &Grid) {
        self.skip = Some(Skip {
            rows_left: grid.side().saturating_sub(grid.rows + 1),
            rows_seen: grid.rows + 1,
            double_spaced: grid.double_spaced,
        });
    }

    /// Skip the rest of a bad grid: up to `rows_left` row lines, stopping at a blank line
    /// (unless double-spaced), at a whole one-line puzzle (kept) or at the end of the input.
    fn skip_rows(&mut self, mut skip: Skip) -> io::Result<()> {
        while skip.rows_left > 0 {
            if !self.read_line()? {
                return Ok(());
            }
            if self.too_long {
                skip.rows_left -= 1;
                continue;
            }
            match classify(&self.line) {
                LineClass::Blank if skip.double_spaced || skip.rows_seen <= 1 => {
                    skip.double_spaced = true;
                }
                LineClass::Blank => return Ok(()),
                LineClass::Comment | LineClass::Frame(_) => {}
                LineClass::Content(q) => {
                    if is_complete_line(&self.line, q, self.options.shape) {
                        self.pushed_back = true;
                        return Ok(());
                    }
                    skip.rows_left -= 1;
                    skip.rows_seen += 1;
                }
            }
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Parsed, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_record() {
            Ok(Some(parsed)) => Some(Ok(parsed)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(ReadError::Io(e)) => {
                self.done = true;
                Some(Err(ReadError::Io(e)))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// Exactly one puzzle from a string, in any layout the [`Reader`] accepts.
///
/// Errors (all [`ReadError::Parse`]; an in-memory string cannot fail to read):
/// [`ParseErrorKind::NoPuzzle`] when there is none, [`ParseErrorKind::ExtraPuzzle`] when a
/// second puzzle follows, the first record's error when it is bad, or the error of whatever
/// bad text follows the puzzle.
pub fn parse_one(text: &str, options: &ParseOptions) -> Result<Puzzle, ReadError> {
    let mut reader = Reader::new(text.as_bytes(), *options);
    let first = match reader.next() {
        Some(result) => result?,
        None => {
            let kind = ParseErrorKind::NoPuzzle;
            return Err(ParseError {
                line: 1,
                column: 1,
                kind,
            }
            .into());
        }
    };
    match reader.next() {
        None => Ok(first.puzzle),
        Some(Ok(extra)) => {
            let kind = ParseErrorKind::ExtraPuzzle {
                first_line: first.line,
            };
            Err(ParseError {
                line: extra.line,
                column: 1,
                kind,
            }
            .into())
        }
        Some(Err(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOP1: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    const SEED000: &str =
        "060104050008305600200000001800407006006000300700901004500000002007206900040508070";
    const SEED001: &str =
        "4.1..52..6.73..85..53.7..1..8.243........9..1..48....23....69......2.5.8.7.9....6";
    const SEED001_SOLUTION: &str =
        "491685273627391854853472619189243765732569481564817392348156927916724538275938146";
    const SEED002: &str =
        "900703504000000670006450800015200063000506000670009450008047200047000000309108005";
    const SEED003: &str =
        "530070000600195000098000060800000003400803001700020006060000280000419005000080079";
    const SEED004: &str =
        "003000000400080036008000100040060073000900000000002005004070062600000000700600500";
    const SAMPLE: &str =
        "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

    fn boxed(r: usize, c: usize) -> ParseOptions {
        ParseOptions {
            shape: Shape::new(r, c).ok(),
            ..ParseOptions::default()
        }
    }

    /// Every record as `"line: puzzle"` or the error's display.
    fn records_with(input: &[u8], options: ParseOptions) -> Vec<String> {
        Reader::new(input, options)
            .map(|r| match r {
                Ok(p) => format!("{}: {}", p.line, p.puzzle.to_line()),
                Err(e) => e.to_string(),
            })
            .collect()
    }

    fn records(input: &str) -> Vec<String> {
        records_with(input.as_bytes(), ParseOptions::default())
    }

    /// A one-puzzle expectation in the form `records` produces (`0` becomes `.`).
    fn ok(line: usize, cells: &str) -> String {
        format!("{line}: {}", cells.replace('0', "."))
    }

    /// The only record of `input`, which must be an error: (line, column, message).
    fn error_with(input: &[u8], options: ParseOptions) -> (usize, usize, String) {
        let all: Vec<_> = Reader::new(input, options).collect();
        assert_eq!(all.len(), 1, "expected one record");
        match all.into_iter().next() {
            Some(Err(ReadError::Parse(e))) => (e.line, e.column, e.kind.to_string()),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    fn error(input: &str) -> (usize, usize, String) {
        error_with(input.as_bytes(), ParseOptions::default())
    }

    /// A 9×9 grid of whitespace-separated numbers, one row per line.
    fn number_grid(cells: &str) -> String {
        let rows: Vec<String> = cells
            .as_bytes()
            .chunks(9)
            .map(|row| {
                let nums: Vec<String> = row.iter().map(|&b| char::from(b).to_string()).collect();
                nums.join(" ")
            })
            .collect();
        rows.join("\n") + "\n"
    }

    const EMPTY_HINT: &str = "'.', '0', '_', '*' for an empty cell";

    // --- one line per puzzle -------------------------------------------------------------

    #[test]
    fn one_line_with_trailing_text() {
        let input = format!(
            "{TOP1}\n{TOP1}:1:extra\n  {TOP1} {SEED003}\n\t{TOP1};x\n{TOP1},2\n{TOP1} COUNT\n"
        );
        let want: Vec<String> = (1..=6).map(|l| ok(l, TOP1)).collect();
        assert_eq!(records(&input), want);
        // 81 cells then a space and junk is fine.
        assert_eq!(records(&format!("{SEED004} !!\u{e9}\0")), [ok(1, SEED004)]);
    }

    #[test]
    fn one_line_empty_markers() {
        let input = SEED003.replace('0', "_");
        let stars = SEED003.replace('0', "*");
        assert_eq!(
            records(&format!("{input}\n{stars}\n{SEED003}")),
            [ok(1, SEED003), ok(2, SEED003), ok(3, SEED003)]
        );
    }

    #[test]
    fn one_line_sizes() {
        let four = parse_one("1...............", &ParseOptions::default()).unwrap();
        assert_eq!(four.shape().to_string(), "2x2");
        let eight = "1.2.3.4.5.6.7.8.".to_string() + &".".repeat(48);
        let p = parse_one(&eight, &ParseOptions::default()).unwrap();
        assert_eq!((p.shape().to_string(), p.givens()), ("2x4".into(), 8));
        // 36 cells: 2x3 boxes unless --box says 3x2.
        let six = "123456".to_string() + &".".repeat(30);
        let p = parse_one(&six, &ParseOptions::default()).unwrap();
        assert_eq!(p.shape(), Shape::new(2, 3).unwrap());
        let p = parse_one(&six, &boxed(3, 2)).unwrap();
        assert_eq!(p.shape(), Shape::new(3, 2).unwrap());
        // 12x12 with letters, 25x25 with 'P' and lowercase 'p'.
        let twelve = "9ABC".to_string() + &".".repeat(140);
        let p = parse_one(&twelve, &ParseOptions::default()).unwrap();
        assert_eq!(
            (p.shape().to_string(), &p.cells()[..4]),
            ("3x4".into(), &[9, 10, 11, 12][..])
        );
        let big = "Pp".to_string() + &".".repeat(623);
        let p = parse_one(&big, &ParseOptions::default()).unwrap();
        assert_eq!((p.shape().side(), &p.cells()[..2]), (25, &[25, 25][..]));
    }

    #[test]
    fn big16_file() {
        let text = include_str!("../puzzles/big16.txt");
        let p = parse_one(text, &ParseOptions::default()).unwrap();
        assert_eq!(p.shape(), Shape::new(4, 4).unwrap());
        assert_eq!(&p.cells()[..6], &[0, 0, 7, 0, 10, 0]);
        assert_eq!(p.cells().iter().filter(|&&v| v == 16).count(), 12);
        assert_eq!(p.givens(), 132);
        // Lowercase letters are the same digits on boards up to 35x35.
        let line = text.lines().last().unwrap().to_ascii_lowercase();
        assert_eq!(parse_one(&line, &ParseOptions::default()).unwrap(), p);
    }

    #[test]
    fn cell_values() {
        assert_eq!(cell_value(b'.', 9), Some(0));
        assert_eq!(cell_value(b'0', 9), Some(0));
        assert_eq!(cell_value(b'_', 4), Some(0));
        assert_eq!(cell_value(b'*', 4), Some(0));
        assert_eq!(cell_value(b'9', 9), Some(9));
        assert_eq!(cell_value(b'5', 4), None);
        assert_eq!(cell_value(b'A', 9), None);
        assert_eq!(cell_value(b'G', 16), Some(16));
        assert_eq!(cell_value(b'g', 16), Some(16));
        assert_eq!(cell_value(b'g', 9), None);
        assert_eq!(cell_value(b'Z', 35), Some(35));
        assert_eq!(cell_value(b'a', 36), Some(36));
        assert_eq!(cell_value(b'z', 64), Some(61));
        assert_eq!(cell_value(b'@', 64), Some(62));
        assert_eq!(cell_value(b'$', 64), Some(63));
        assert_eq!(cell_value(b'%', 64), Some(64));
        assert_eq!(cell_value(b'%', 63), None);
        assert_eq!(cell_value(b'@', 25), None);
        assert_eq!(cell_value(b' ', 9), None);
        // The mirror of digit_char.
        let shape = Shape::new(8, 8).unwrap();
        for v in 0..=64u8 {
            let c = crate::puzzle::digit_char(shape, v);
            assert_eq!(cell_value(c as u8, 64), Some(v), "{c}");
        }
    }

    #[test]
    fn fast_paths_match_the_tables() {
        for b in 0..=255u8 {
            assert_eq!(
                is_cell_char(b),
                VALUE_TABLES[2][usize::from(b)] != NO_VALUE,
                "{b}"
            );
            assert_eq!(small_value(b), value_table(9)[usize::from(b)], "{b}");
        }
        let line = b"x\r\n".repeat(40);
        assert_eq!(find_first(&line, |b| b == b'\n'), 2);
        assert_eq!(find_first(&line[3..], |b| b == b'\r'), 1);
        assert_eq!(find_first(&[b'a'; 40], |b| b == b'\n'), 40);
        assert_eq!(run_len(&[b'1'; 100], 3), 97);
    }

    #[test]
    fn line_endings_bom_tabs_and_comments() {
        let crlf = format!("# comment\r\n{TOP1}\r\n\r\n{SEED003}\r\n");
        assert_eq!(records(&crlf), [ok(2, TOP1), ok(4, SEED003)]);
        let cr = format!("{TOP1}\r{SEED003}\r\r{SEED004}");
        assert_eq!(records(&cr), [ok(1, TOP1), ok(2, SEED003), ok(4, SEED004)]);
        let bom = format!("\u{feff}{TOP1}\n");
        assert_eq!(records(&bom), [ok(1, TOP1)]);
        let tabs = format!("\t{TOP1}\t0\n\t # indented comment\n5\t3\t0 0 7 0 0 0 0\n");
        let grid = number_grid(SEED003);
        let tabbed = tabs + &grid[18..].replace(' ', "\t");
        assert_eq!(records(&tabbed), [ok(1, TOP1), ok(3, SEED003)]);
        // CRLF does not shift columns; the BOM is not a column either.
        let bad = format!("{}\r\n", &TOP1[..80]);
        assert_eq!(error(&bad).1, 81);
        let bad = format!("\u{feff}{}\n", &TOP1[..80]);
        assert_eq!(error(&bad).1, 81);
    }

    #[test]
    fn project_euler_titles() {
        let rows: String = SEED004
            .as_bytes()
            .chunks(9)
            .map(|row| String::from_utf8_lossy(row) + "\n")
            .collect();
        let input = format!("Grid 01\n{rows}Grid 02\n{rows}Puzzle\n{TOP1}\n");
        assert_eq!(
            records(&input),
            [ok(2, SEED004), ok(12, SEED004), ok(22, TOP1)]
        );
    }

    #[test]
    fn empty_input_yields_nothing() {
        assert!(records("").is_empty());
        assert!(records("\n\n   \n# only a comment\r\n\t\n").is_empty());
        assert!(records("\u{feff}").is_empty());
    }

    #[test]
    fn streams_ten_thousand_puzzles() {
        let mut input = String::from("# many\n");
        for i in 0..10_000 {
            input.push_str(if i % 2 == 0 { TOP1 } else { SEED004 });
            input.push('\n');
        }
        let mut count = 0;
        for (i, r) in Reader::new(input.as_bytes(), ParseOptions::default()).enumerate() {
            let p = r.unwrap();
            assert_eq!(p.line, i + 2);
            count += 1;
        }
        assert_eq!(count, 10_000);
    }

    #[test]
    fn counts_file_layout() {
        // As in ../shared/data/multi_truth_dev.txt: `puzzle COUNT`.
        let input = "# PUZZLE COUNT\n\
            ..............1..2.38....5.......6.......73.18.5..........8......245.....6....1.. 0\n\
            ..............1..2.38....5.......6.......73.18.5..........8......245.....6....1.. 12\n";
        assert_eq!(records(input).len(), 2);
        assert!(records(input)
            .iter()
            .all(|r| r.starts_with(|c: char| c.is_ascii_digit())));
    }

    // --- grids -----------------------------------------------------------------------------

    #[test]
    fn seed_files() {
        let cases = [
            (include_str!("../puzzles/seed000.txt"), 2, SEED000),
            (include_str!("../puzzles/seed001.txt"), 3, SEED001),
            (include_str!("../puzzles/seed002.txt"), 2, SEED002),
            (include_str!("../puzzles/seed003.txt"), 3, SEED003),
            (include_str!("../puzzles/seed004.txt"), 2, SEED004),
            (include_str!("../puzzles/sample.sdk"), 4, SAMPLE),
            (include_str!("../puzzles/sample.ss"), 4, SAMPLE),
        ];
        for (i, (text, line, want)) in cases.into_iter().enumerate() {
            assert_eq!(records(text), [ok(line, want)], "case {i}");
        }
        let p = parse_one(
            include_str!("../puzzles/seed001.txt"),
            &ParseOptions::default(),
        );
        let solution: Vec<u8> = SEED001_SOLUTION.bytes().map(|b| b - b'0').collect();
        assert!(p.unwrap().is_solution(&solution));
    }

    #[test]
    fn numbers_grid_flavours() {
        let plain = number_grid(SEED003);
        assert_eq!(records(&plain), [ok(1, SEED003)]);
        // Separators, `|` glued to numbers or standing alone, dots for empty cells.
        let fancy = "|5 3 0|0 7 0|0 0 0|\n6 0 0 | 1 9 5 | 0 0 0\n0 9 8 |0 0 0| 0 6 0\n\
            ------+-------+------\n8 . . . . . . . 3\n4 0 0 8 0 3 0 0 1\n7 0 0 0 2 0 0 0 6\n\
            ======+=======+======\n0 6 0 0 0 0 2 8 0\n0 0 0 4 1 9 0 0 5\n0 0 0 0 8 0 0 7 9\n";
        assert_eq!(records(fancy), [ok(1, SEED003)]);
        // All 81 numbers on one line, or three rows per line.
        let one_line = plain.replace('\n', " ");
        assert_eq!(records(&one_line), [ok(1, SEED003)]);
        let three: String = plain
            .lines()
            .collect::<Vec<_>>()
            .chunks(3)
            .map(|rows| rows.join("  ") + "\n")
            .collect();
        // (27 entries on a first line would be a row of a 27x27 board: that needs --box.)
        assert_eq!(
            records_with(three.as_bytes(), boxed(3, 3)),
            [ok(1, SEED003)]
        );
    }

    #[test]
    fn numbers_grid_sixteen() {
        let text = include_str!("../puzzles/big16.txt");
        let p = parse_one(text, &ParseOptions::default()).unwrap();
        let grid: String = p
            .cells()
            .chunks(16)
            .map(|row| {
                let nums: Vec<String> = row.iter().map(|v| format!("{v:2}")).collect();
                nums.join(" ") + "\n"
            })
            .collect();
        assert!(grid.contains("16"));
        let back = parse_one(&grid, &ParseOptions::default()).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn char_rows() {
        let sdk = "#A author\n#B x\n2..1.5..3\n.54...71.\n...|.6.|...\n---+---+---\n\
            *********\n.........\n.........\n.........\n.........\n.........\n";
        let want = "2..1.5..3".to_string() + ".54...71." + "....6...." + &".".repeat(54);
        assert_eq!(records(sdk), [ok(3, &want)]);
        // The unframed .ss variant, and rows of a 12x12 board with letters.
        let unframed = "2..|1.5|..3\n.54|...|71.\n...|.6.|...\n---+---+---\n".to_string()
            + &"...|...|...\n".repeat(6);
        assert_eq!(records(&unframed), [ok(1, &want)]);
        let twelve = "1.9.AB......\n".to_string() + &"............\n".repeat(11);
        let p = parse_one(&twelve, &ParseOptions::default()).unwrap();
        assert_eq!(
            (p.shape().to_string(), &p.cells()[..6]),
            ("3x4".into(), &[1, 0, 9, 0, 10, 11][..])
        );
        // With --box, a row of N characters starts a grid even when N*N would be a board.
        let four = "12..\n..34\n....\n....\n";
        assert_eq!(
            records_with(four.as_bytes(), boxed(2, 2)),
            [ok(1, "12....34........")]
        );
    }

    #[test]
    fn boxed_output_layout() {
        // The solve command's layout, with dots for empty cells and with the header.
        let printed = "   0 1 2 3 4 5 6 7 8\n  +------+------+------+\n\
              | 4 . 1| . . 5| 2 . .| 0\n  | 6 . 7| 3 . .| 8 5 .| 1\n  | . 5 3| . 7 .| . 1 .| 2\n\
              +------+------+------+\n  | . 8 .| 2 4 3| . . .| 3\n  | . . .| . . 9| . . 1| 4\n\
              | . . 4| 8 . .| . . 2| 5\n  +------+------+------+\n  | 3 . .| . . 6| 9 . .| 6\n\
              | . . .| . 2 .| 5 . 8| 7\n  | . 7 .| 9 . .| . . 6| 8\n  +------+------+------+\n";
        assert_eq!(records(printed), [ok(1, SEED001)]);
        // Without the header, and the solution with no empty cells.
        let no_header = printed.split_once('\n').unwrap().1;
        assert_eq!(records(no_header), [ok(2, SEED001)]);
        // A 0..N-1 first row not followed by `+---` is a row like any other.
        let first_row = "0 1 2 3\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        assert_eq!(
            records(first_row),
            [ok(1, ".1233412214343 21".replace(' ', "").as_str())]
        );
    }

    // --- errors ----------------------------------------------------------------------------

    #[test]
    fn error_message_format() {
        let mut line = TOP1.as_bytes().to_vec();
        line[16] = b'x';
        let input = format!("# c\n\n{}\n{SEED004}\n", String::from_utf8(line).unwrap());
        let all: Vec<_> = Reader::new(input.as_bytes(), ParseOptions::default()).collect();
        assert_eq!(
            all[0].as_ref().unwrap_err().to_string(),
            "line 3, column 17: unexpected character 'x'; expected a digit 1-9, or '.', '0', \
             '_', '*' for an empty cell"
        );
        assert_eq!(all[1].as_ref().unwrap().line, 4);
    }

    #[test]
    fn wrong_cell_counts() {
        let hint = "a one-line puzzle has N*N cells with N = R*C (16, 36, 64, 81, 144, 256, 625, \
            ...)";
        let (l, c, m) = error(&TOP1[..80]);
        assert_eq!((l, c), (1, 81));
        assert_eq!(m, format!("80 cells is not a board size: {hint}; the nearest is 81 (9x9); for other shapes give --box"));
        let (l, c, m) = error(&format!("{TOP1}4."));
        assert_eq!((l, c), (1, 84));
        assert!(m.starts_with("83 cells is not a board size"), "{m}");
        let (l, c, m) = error(&format!("\n{TOP1}. solution"));
        assert_eq!((l, c), (2, 83));
        assert!(m.starts_with("82 cells is not a board size"), "{m}");
        let (_, c, m) = error(&".".repeat(50));
        assert_eq!(c, 51);
        assert!(
            m.ends_with("the nearest is 36 (6x6); for other shapes give --box"),
            "{m}"
        );
        // With a shape, the count must match it.
        let (l, c, m) = error_with(b"1...............\n", boxed(3, 3));
        assert_eq!(
            (l, c, m.as_str()),
            (
                1,
                17,
                "got 16 cells, expected 81 for a 9x9 board with 3x3 boxes"
            )
        );
        let (_, c, m) = error_with(format!("{TOP1}.").as_bytes(), boxed(3, 3));
        assert_eq!(
            (c, m.as_str()),
            (
                83,
                "got 82 cells, expected 81 for a 9x9 board with 3x3 boxes"
            )
        );
    }

    #[test]
    fn prime_side_needs_a_box() {
        let seven = ".".repeat(49);
        let (l, c, m) = error(&seven);
        assert_eq!((l, c), (1, 50));
        assert_eq!(
            m,
            "side 7 has no box shape to infer (prime); give one with --box 1x7"
        );
        let p = parse_one(&seven, &boxed(1, 7)).unwrap();
        assert_eq!(p.shape().side(), 7);
        let (_, c, m) = error("5 3 0 0 7 0 0\n");
        assert_eq!(
            (c, m.as_str()),
            (
                14,
                "side 7 has no box shape to infer (prime); give one with --box 1x7"
            )
        );
    }

    #[test]
    fn bad_characters() {
        let cases: [(&[u8], usize, &str); 6] = [
            (b"4...3..!....", 8, "unexpected character '!'"),
            (b"4...3..\0....", 8, "unexpected character '\\0'"),
            (
                b"4...3..\xFF....",
                8,
                "unexpected byte 0xFF (not valid UTF-8)",
            ),
            (
                "4...3..\u{e9}....".as_bytes(),
                8,
                "unexpected character '\u{e9}'",
            ),
            (
                "4...3..\u{fffd}....".as_bytes(),
                8,
                "unexpected character '\\u{fffd}'",
            ),
            (
                "4...3..\u{a0}....".as_bytes(),
                8,
                "unexpected character '\\u{a0}'",
            ),
        ];
        for (input, column, start) in cases {
            let (line, col, m) = error_with(input, ParseOptions::default());
            assert_eq!((line, col), (1, column), "{m}");
            let expected = format!(
                "{start}; expected a digit 1-9 (and letters A-Z on boards over 9x9), or {EMPTY_HINT}"
            );
            assert_eq!(m, expected);
        }
        // Inside a 9x9 line, a lowercase letter is no digit at all.
        let bad = format!("{}g{}", &TOP1[..40], &TOP1[41..]);
        let (_, c, m) = error(&bad);
        assert_eq!(
            (c, m),
            (
                41,
                format!("unexpected character 'g'; expected a digit 1-9, or {EMPTY_HINT}")
            )
        );
    }

    #[test]
    fn digits_out_of_range() {
        let (l, c, m) = error("1..5............");
        assert_eq!((l, c), (1, 4));
        assert_eq!(
            m,
            format!(
                "digit '5' is out of range for a 4x4 board; expected a digit 1-4, or {EMPTY_HINT}"
            )
        );
        let bad = format!("{}G{}", &TOP1[..10], &TOP1[11..]);
        let (_, c, m) = error(&bad);
        assert_eq!((c, m), (11, format!("digit 'G' (= 16) is out of range for a 9x9 board; expected a digit 1-9, or {EMPTY_HINT}")));
        let big = include_str!("../puzzles/big16.txt")
            .lines()
            .last()
            .unwrap()
            .replacen('G', "H", 1);
        let (_, c, m) = error(&big);
        assert_eq!(c, 17);
        assert_eq!(m, format!("digit 'H' (= 17) is out of range for a 16x16 board; expected a digit 1-9 or a letter A-G, or {EMPTY_HINT}"));
    }

    #[test]
    fn number_out_of_range_then_recovers() {
        let mut grid = number_grid(SEED003);
        grid = grid.replacen("6 0 0 1 9", "6 0 17 1 9", 1);
        let input = format!("{grid}{TOP1}\n");
        let got = records(&input);
        assert_eq!(got, [
            "line 2, column 5: number 17 is out of range for a 9x9 board; expected a number 0-9 (0 or '.' for an empty cell)".to_string(),
            ok(10, TOP1),
        ]);
        let bad = number_grid(SEED003).replacen("0 9 8", "0 x 8", 1) + "\n" + &number_grid(SEED004);
        assert_eq!(records(&bad), [
            "line 3, column 3: unexpected character 'x'; expected a number 0-9 (0 or '.' for an empty cell)".to_string(),
            ok(11, SEED004),
        ]);
    }

    #[test]
    fn row_with_wrong_entry_count() {
        let grid = number_grid(SEED003).replacen("6 0 0 1 9 5 0 0 0", "6 0 0 1 9 5 0 0", 1);
        let input = format!("{grid}\n{}", number_grid(SEED004));
        assert_eq!(
            records(&input),
            [
                "line 2, column 16: row 2 has 8 entries, expected 9 (one row of a 9x9 board)"
                    .to_string(),
                ok(11, SEED004),
            ]
        );
        // Too many: the column of the first entry that does not fit.
        let grid = number_grid(SEED003).replacen("6 0 0 1 9 5 0 0 0", "6 0 0 1 9 5 0 0 0 4", 1);
        let (l, c, m) = error(&grid);
        assert_eq!(
            (l, c, m.as_str()),
            (
                2,
                19,
                "row 2 has 10 entries, expected 9 (one row of a 9x9 board)"
            )
        );
        // A shape from --box applies to the first row too.
        let (l, c, m) = error_with(b"1 2 3\n", boxed(2, 2));
        assert_eq!(
            (l, c, m.as_str()),
            (
                1,
                6,
                "row 1 has 3 entries, expected 4 (one row of a 4x4 board)"
            )
        );
        let (_, c, m) = error(&"0 ".repeat(70));
        assert_eq!(c, 140);
        assert!(
            m.starts_with("cannot infer the board size from a first row of 70 entries"),
            "{m}"
        );
    }

    #[test]
    fn grid_cut_short() {
        let eight: String = number_grid(SEED003)
            .lines()
            .take(8)
            .map(|l| format!("{l}\n"))
            .collect();
        let (l, c, m) = error(&eight);
        assert_eq!(
            (l, c, m.as_str()),
            (
                8,
                18,
                "the grid ended at the end of the input after 8 of 9 rows"
            )
        );
        // A blank line ends a single-spaced grid, and the next grid is read normally.
        let input = format!("{eight}\n{}", number_grid(SEED004));
        assert_eq!(
            records(&input),
            [
                "line 9, column 1: the grid ended at a blank line after 8 of 9 rows".to_string(),
                ok(10, SEED004),
            ]
        );
        // The same in a double-spaced grid reaches the end of the input.
        let double = eight.replace('\n', "\n\n");
        assert_eq!(
            error(&double).2,
            "the grid ended at the end of the input after 8 of 9 rows"
        );
        let sdk = "2..1.5..3\n.54...71.\n";
        assert_eq!(
            error(sdk),
            (
                2,
                10,
                "the grid ended at the end of the input after 2 of 9 rows".into()
            )
        );
    }

    #[test]
    fn mixed_layouts() {
        let rows: Vec<&str> = include_str!("../puzzles/seed003.txt")
            .lines()
            .skip(2)
            .collect();
        let input = format!("{}\n{}\n{}\n{TOP1}\n", rows[0], rows[1], rows[2]);
        assert_eq!(records(&input), [
            "line 4, column 1: found a one-line puzzle where row 4 of the 9x9 grid that starts on \
             line 1 was expected; one puzzle cannot mix layouts".to_string(),
            ok(4, TOP1),
        ]);
        let input = format!("{}\n{}\n 2..1.5..3\n{TOP1}\n", rows[0], rows[1]);
        assert_eq!(
            records(&input),
            [
                "line 3, column 2: found a row of characters (in a grid of whitespace-separated \
             numbers) where row 3 of the 9x9 grid that starts on line 1 was expected; one puzzle \
             cannot mix layouts"
                    .to_string(),
                ok(4, TOP1),
            ]
        );
    }

    #[test]
    fn bad_row_skips_rest_of_grid() {
        let sdk = include_str!("../puzzles/sample.sdk").replacen("6..195...", "6..1!5...", 1);
        let input = format!("{sdk}{SEED004}\n");
        assert_eq!(records(&input), [
            format!("line 5, column 5: unexpected character '!'; expected a digit 1-9, or {EMPTY_HINT}"),
            ok(13, SEED004),
        ]);
    }

    #[test]
    fn long_line_is_bounded_and_skipped() {
        let mut input = vec![b'.'; 5_000_000];
        input.push(b'\n');
        input.extend_from_slice(TOP1.as_bytes());
        let options = ParseOptions {
            max_line_len: 4096,
            ..ParseOptions::default()
        };
        let mut reader = Reader::new(&input[..], options);
        let first = reader.next().unwrap().unwrap_err().to_string();
        assert_eq!(first, "line 1, column 4097: line is longer than 4096 bytes; skipped (the limit keeps memory bounded)");
        assert!(
            reader.line.capacity() <= 2 * 4096,
            "{}",
            reader.line.capacity()
        );
        assert_eq!(reader.next().unwrap().unwrap().line, 2);
        assert!(reader.next().is_none());
        // Through a small BufReader, with multi-byte characters: the column counts characters.
        let text = "\u{e9}".repeat(3000) + "\n" + TOP1;
        let buffered = io::BufReader::with_capacity(64, text.as_bytes());
        let got: Vec<String> = Reader::new(buffered, options)
            .map(|r| r.map_or_else(|e| e.to_string(), |p| p.line.to_string()))
            .collect();
        assert_eq!(got[0].split(':').next(), Some("line 1, column 2049"));
        assert_eq!(got[1], "2");
        // Inside a grid: the grid is abandoned and the next puzzle read.
        let grid = format!(
            "5 3 0 0 7 0 0 0 0\n{}\n6 0 0 1 9 5 0 0 0\n\n{TOP1}\n",
            "0 ".repeat(3000)
        );
        let got = records_with(grid.as_bytes(), options);
        assert_eq!(got.len(), 2);
        assert!(
            got[0].starts_with("line 2, column 4097: line is longer"),
            "{}",
            got[0]
        );
        assert_eq!(got[1], ok(5, TOP1));
    }

    #[test]
    fn parse_one_counts_puzzles() {
        let options = ParseOptions::default();
        assert_eq!(
            parse_one(&format!("# x\n{TOP1}\n"), &options)
                .unwrap()
                .to_line(),
            TOP1
        );
        let none = parse_one("# nothing\n\n", &options)
            .unwrap_err()
            .to_string();
        assert_eq!(none, "line 1, column 1: no puzzle found: the input is empty or has only blank and comment lines");
        let two = parse_one(&format!("{TOP1}\n\n{SEED004}"), &options)
            .unwrap_err()
            .to_string();
        assert_eq!(two, "line 3, column 1: a second puzzle starts here (the first starts on line 1); expected exactly one puzzle");
        let bad = parse_one(&TOP1[..5], &options).unwrap_err();
        assert!(matches!(
            bad,
            ReadError::Parse(ParseError {
                line: 1,
                column: 6,
                ..
            })
        ));
    }

    #[test]
    fn columns_count_characters() {
        let line = "a\u{e9}\u{20ac}\u{1f600}!".as_bytes();
        assert_eq!(char_column(line, 0), 1);
        assert_eq!(char_column(line, 1 + 2 + 3 + 4), 5);
        assert_eq!(char_column(b"a\xFF\xFEb", 3), 4);
    }

    #[test]
    fn io_error_is_fatal() {
        struct Failing;
        impl io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let text = format!("{TOP1}\n");
        let input = io::BufReader::new(io::Read::chain(text.as_bytes(), Failing));
        let got: Vec<_> = Reader::new(input, ParseOptions::default()).collect();
        assert_eq!(got.len(), 2);
        assert!(matches!(&got[1], Err(ReadError::Io(e)) if e.to_string() == "disk on fire"));
    }
}
