//! Parse errors and their messages: where (line, column in characters) and what was expected.

use super::alphabet::Alphabet;
use super::bytes::{isqrt, symbol_value};
use crate::puzzle::PuzzleError;
use crate::shape::{Shape, ShapeError};
use std::fmt;
use std::io;

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
    /// A number in a grid of numbers that is above the board's side, or below 0.
    #[error(
        "number {value} is out of range for a {side}x{side} board; expected {}",
        Expected::Number(Some(*.side))
    )]
    NumberOutOfRange {
        /// The number.
        value: i32,
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
        /// The shape given in [`ParseOptions::shape`](super::ParseOptions::shape).
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
        found: LineKind,
        /// The 1-based row expected.
        row: usize,
        /// The grid's side N.
        side: usize,
        /// Line of the grid's first row.
        start_line: usize,
    },
    /// A `0` on a board above 9×9 whose top standard digit never appears: an empty cell in
    /// the standard alphabet, the digit 1 in hex. Only when no alphabet was given.
    #[error(
        "'0' on a {side}x{side} board that has no '{top}': is '0' an empty cell \
         (--alphabet 1-9A-Z) or the hex digit for 1 (--alphabet 0-F, '.' for empty)? \
         give --alphabet"
    )]
    AmbiguousZero {
        /// The board's side N.
        side: usize,
        /// The standard alphabet's character for N (`G` on 16×16).
        top: char,
    },
    /// A character of a pencil-mark (sukaku) line that is neither the digit of its place in
    /// its cell nor an empty mark.
    #[error(
        "unexpected {found} at place {place} of {side} in a pencil-mark cell; expected '{digit}' \
         (the candidate {place}) or '.' or '0' (not a candidate){}",
        board_hint(*.board)
    )]
    PencilMark {
        /// The character found.
        found: Found,
        /// Its 1-based place in the cell's characters.
        place: usize,
        /// The digit character that belongs at that place.
        digit: char,
        /// The board's side N (N characters a cell).
        side: usize,
        /// The side of the board the line would also be (no shape given), for a hint.
        board: Option<usize>,
    },
    /// A pencil-mark (sukaku) cell with no candidate at all.
    #[error(
        "pencil-mark cell {cell} has no candidate (all its characters are '.' or '0'){}",
        board_hint(*.board)
    )]
    NoCandidate {
        /// The cell's name (`r1c1`).
        cell: String,
        /// The side of the board the line would also be (no shape given), for a hint.
        board: Option<usize>,
    },
    /// A HoDoKu library line (`:type:digits:puzzle:…`) without its puzzle field.
    #[error("a HoDoKu line has its puzzle in the third field (:type:digits:puzzle:...); this one has fewer fields")]
    HodokuFields,
    /// `--column NAME` names no column of the header.
    #[error("no column {column:?} in the header (its columns: {columns}); give --column NAME or a 1-based INDEX")]
    NoSuchColumn {
        /// The name asked for.
        column: String,
        /// The header's names.
        columns: String,
    },
    /// No field of a table's first row is a puzzle, and no column was named.
    #[error(
        "no field of this row ({}) is a puzzle, and no header names a puzzle column; give \
         --column NAME or a 1-based INDEX",
        Count(*.fields, "field")
    )]
    NoPuzzleColumn {
        /// Fields on the row.
        fields: usize,
    },
    /// A table row without the puzzle's column.
    #[error("column {column} is missing: this row has {}", Count(*.fields, "field"))]
    MissingColumn {
        /// The column (1-based, and its header name).
        column: String,
        /// Fields on the row.
        fields: usize,
    },
    /// A JSON string that does not end on its line.
    #[error("a JSON string that does not end on its line (puzzles are strings on one line)")]
    JsonString,
    /// Something in JSON that is not a string, number, `true`, `false` or `null`.
    #[error("unexpected {found:?} in JSON: a value is a string, a number, true, false or null")]
    JsonValue {
        /// The text found (up to the next separator).
        found: String,
    },
    /// JSON that breaks JSON's grammar: what was expected where.
    #[error("expected {expected} in JSON, found {found}")]
    JsonSyntax {
        /// What may come there.
        expected: String,
        /// What came (quoted).
        found: String,
    },
    /// A JSON document (or string) still open at the end of the input.
    #[error("the input ends inside a JSON document: a closing {close:?} is missing")]
    JsonUnclosed {
        /// The missing closing character.
        close: char,
    },
    /// An element of an array of puzzles that is not a string.
    #[error("{found} where the JSON array holds puzzle strings")]
    JsonNotPuzzle {
        /// The value found.
        found: String,
    },
    /// A JSON object of a table without the member that holds the puzzle.
    #[error("{}", match member {
        Some(m) => format!("this JSON object has no member {m:?} (the puzzles' column)"),
        None => "no member of this JSON object holds a puzzle (name it with --column)".to_string(),
    })]
    JsonNoPuzzle {
        /// The puzzles' member (`--column`, or the one the first object chose).
        member: Option<String>,
    },
    /// A line longer than [`ParseOptions::max_line_len`](super::ParseOptions::max_line_len).
    #[error("line is longer than {limit} bytes; skipped (the limit keeps memory bounded)")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A JSON record (an element of an array) longer than
    /// [`ParseOptions::max_line_len`](super::ParseOptions::max_line_len) on one line: the
    /// input ends there (what follows cannot be told apart).
    #[error(
        "a JSON record longer than {limit} bytes on one line; the input ends here (the limit \
         keeps memory bounded)"
    )]
    JsonValueTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A variant puzzle (ISS constraint string, f-puzzles JSON or link) that cannot be read:
    /// an unsupported constraint type is named here.
    #[error("{0}")]
    Variant(String),
    /// [`parse_one`](super::parse_one) found nothing.
    #[error("no puzzle found: the input is empty or has only blank and comment lines")]
    NoPuzzle,
    /// An input whose only text was title lines (a word first, as `Grid 01` above a grid),
    /// which are skipped: reported at the first one, at the end of the input.
    #[error(
        "no puzzle found: this line ({text:?}) was skipped as a title, as a line that starts \
         with a word is (`Grid 01` above a grid), and no puzzle follows"
    )]
    OnlyTitles {
        /// The first title line, cut to 40 characters.
        text: String,
    },
    /// [`parse_one`](super::parse_one) found more than one puzzle.
    #[error(
        "a second puzzle starts here (the first starts on line {first_line}); \
         expected exactly one puzzle"
    )]
    ExtraPuzzle {
        /// Line where the first puzzle starts.
        first_line: usize,
    },
    /// The values were rejected by [`Puzzle::new`](crate::Puzzle::new) (not expected: the parser checks them).
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
    /// A character of this alphabet (given with `--alphabet`) on a board of this side.
    Symbol(Alphabet, usize),
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
            Expected::Symbol(a, n) => {
                let (first, last) = (a.symbol(1).unwrap_or('?'), a.symbol(n as u8).unwrap_or('?'));
                write!(
                    f,
                    "a digit {first}-{last} of --alphabet {a} on a {n}x{n} board, or {} for an \
                     empty cell",
                    a.empties()
                )
            }
        }
    }
}

/// What interrupted a grid (see [`ParseErrorKind::MixedFormats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// A line that is a whole one-line puzzle.
    OneLine,
    /// A row of characters inside a grid of whitespace-separated numbers.
    CharRow,
}

impl fmt::Display for LineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineKind::OneLine => "a one-line puzzle",
            LineKind::CharRow => "a row of characters (in a grid of whitespace-separated numbers)",
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
    /// A section header (`[State]`, as `.sdk` files have).
    Section,
    /// A `*---*` line, which closes a `.ss` grid.
    ClosingFrame,
}

impl fmt::Display for GridEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GridEnd::EndOfInput => "at the end of the input",
            GridEnd::BlankLine => "at a blank line",
            GridEnd::Section => "at a section header",
            GridEnd::ClosingFrame => "at its closing frame (*---*)",
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
/// For a line that is also a whole board: how to read it as one.
fn board_hint(board: Option<usize>) -> String {
    match board {
        Some(m) => format!("; for a {m}x{m} board give --box"),
        None => String::new(),
    }
}

fn digit_label(digit: char, value: u8) -> String {
    if digit.is_ascii_digit() {
        format!("'{digit}'")
    } else {
        format!("'{digit}' (= {value})")
    }
}

/// The error for a cell character `b` at `pos` that is not valid on a board of side `n`.
pub(super) fn symbol_error(
    line: &[u8],
    pos: usize,
    b: u8,
    n: usize,
    expected: Expected,
) -> ParseErrorKind {
    match symbol_value(b, n) {
        Some(value) => ParseErrorKind::DigitOutOfRange {
            digit: char::from(b),
            value,
            side: n,
        },
        None => unexpected(line, pos, expected),
    }
}

/// [`symbol_error`] in an alphabet: the standard alphabet's messages, or for the others a
/// character that is no digit of the alphabet on this board.
pub(super) fn alphabet_error(
    line: &[u8],
    pos: usize,
    b: u8,
    n: usize,
    alphabet: Alphabet,
    expected: Expected,
) -> ParseErrorKind {
    match alphabet {
        Alphabet::Standard | Alphabet::Numbers => symbol_error(line, pos, b, n, expected),
        a => unexpected(line, pos, Expected::Symbol(a, n)),
    }
}

/// The error for an ambiguous `0` on a board of side `n`.
pub(super) fn ambiguous_zero(n: usize) -> ParseErrorKind {
    ParseErrorKind::AmbiguousZero {
        side: n,
        top: Alphabet::Standard.symbol(n as u8).unwrap_or('?'),
    }
}

pub(super) fn unexpected(line: &[u8], pos: usize, expected: Expected) -> ParseErrorKind {
    ParseErrorKind::UnexpectedChar {
        found: decode_at(line, pos).0,
        expected,
    }
}

/// The character at `pos` and its length in bytes (an invalid byte is one "character").
pub(super) fn decode_at(line: &[u8], pos: usize) -> (Found, usize) {
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
pub(super) fn char_column(line: &[u8], pos: usize) -> usize {
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
