//! The columns and states of tables (CSV, TSV, JSON): which column holds the puzzles
//! ([`Column`], `--column`), what an input is known to be ([`TableFormat`]), the state of a table
//! being read ([`Table`]: [`Csv`], [`Json`]), and the line tests that tell a table's first line
//! (a CSV/TSV header, the start of a JSON document). The reading itself is in `table` (CSV,
//! TSV) and `json_table` (JSON).

use super::bytes::is_ws;
use super::lines::{is_board_len, run_len};
use crate::shape::Shape;
use std::fmt;

/// Which column of a table holds the puzzles (`--column`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    /// A header name (case-insensitive) or JSON member name.
    Name(ColumnName),
    /// A 1-based position.
    Index(usize),
}

/// A column name of up to 64 bytes, held inline (so that options stay `Copy`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColumnName {
    bytes: [u8; 64],
    len: u8,
}

impl ColumnName {
    /// The name's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    pub(super) fn matches(&self, name: &[u8]) -> bool {
        self.as_bytes().eq_ignore_ascii_case(name)
    }
}

impl fmt::Debug for ColumnName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(self.as_bytes()))
    }
}

impl fmt::Display for ColumnName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.as_bytes()))
    }
}

impl std::str::FromStr for Column {
    type Err = String;

    /// A number is a 1-based index; anything else a name.
    fn from_str(s: &str) -> Result<Column, String> {
        if let Ok(i) = s.parse::<usize>() {
            return match i {
                0 => Err("columns are numbered from 1".into()),
                i => Ok(Column::Index(i)),
            };
        }
        if s.is_empty() || s.len() > 64 {
            return Err(format!("a column name has 1 to 64 bytes, not {}", s.len()));
        }
        let mut bytes = [0; 64];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Ok(Column::Name(ColumnName {
            bytes,
            len: s.len() as u8,
        }))
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Column::Name(n) => write!(f, "{n}"),
            Column::Index(i) => write!(f, "{i}"),
        }
    }
}

/// What an input is known to be before reading it (a file's extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableFormat {
    /// Comma-separated values.
    Csv,
    /// Tab-separated values.
    Tsv,
    /// JSON or JSON Lines.
    Json,
}

impl TableFormat {
    /// The format a file name's extension says (`.csv`, `.tsv`, `.json`, `.jsonl`, `.ndjson`).
    pub fn from_extension(path: &std::path::Path) -> Option<TableFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(TableFormat::Csv),
            "tsv" | "tab" => Some(TableFormat::Tsv),
            "json" | "jsonl" | "ndjson" => Some(TableFormat::Json),
            _ => None,
        }
    }
}

/// Header names of puzzle columns, in order of preference.
pub(super) const PUZZLE_NAMES: &[&[u8]] = &[
    b"puzzle",
    b"puzzles",
    b"quiz",
    b"quizzes",
    b"question",
    b"questions",
    b"sudoku",
    b"grid",
    b"board",
    b"problem",
    b"givens",
];

pub(super) fn is_puzzle_name(name: &[u8]) -> bool {
    PUZZLE_NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// A field that is a whole one-line puzzle: a grid (of characters, or of blank-separated
/// numbers as `--output-alphabet numbers` writes one), or a variant's constraint string or
/// link.
pub(super) fn holds_puzzle(field: &[u8], shape: Option<Shape>) -> bool {
    let grid =
        !field.is_empty() && run_len(field, 0) == field.len() && is_board_len(field.len(), shape);
    let numbers = || {
        let mut k = 0;
        let all = field
            .split(|&b| b == b' ')
            .filter(|t| !t.is_empty())
            .all(|t| {
                k += 1;
                t == b"." || (t.len() <= 2 && t.iter().all(u8::is_ascii_digit))
            });
        all && k > 1 && is_board_len(k, shape)
    };
    // A link is a web address (a header's `fpuzzles_link` is not one).
    let link = || {
        std::str::from_utf8(field).is_ok_and(|f| {
            super::fpuzzles::is_web_address(f)
                && super::fpuzzles::link_payload(f).is_some_and(|payload| payload.is_ok())
        })
    };
    grid || numbers() || super::iss::is_constraint_string(field) || link()
}

/// A table being read.
#[derive(Debug, Clone)]
pub(super) enum Table {
    Csv(Csv),
    Json(Json),
}

/// A CSV or TSV input.
#[derive(Debug, Clone)]
pub(super) struct Csv {
    pub(super) sep: u8,
    /// The header's names (empty without a header).
    pub(super) header: Vec<Vec<u8>>,
    /// The 0-based column of the puzzles, once known.
    pub(super) column: Option<usize>,
    /// The header was told by its look alone and reads like prose (a comma and a blank) or
    /// names no puzzle column, until the first row bears it out (a row of four or more
    /// characters without the separator makes it a title instead).
    pub(super) tentative: bool,
}

/// Where a JSON input's scan is.
#[derive(Debug, Clone, Default)]
pub(super) struct Json {
    /// Open containers: `true` for an object.
    pub(super) stack: Vec<bool>,
    /// What may come next.
    pub(super) expect: Expect,
    /// The key of the value that comes next, and its 1-based position in its object.
    pub(super) key: Vec<u8>,
    pub(super) member: usize,
    /// The puzzle member's name, once known (objects without a column given).
    pub(super) chosen: Option<Vec<u8>>,
    /// The record object now open (one per line, or in a top-level array) gave its puzzle.
    pub(super) found: bool,
    /// Where to go on in the current line (several puzzles may share one).
    pub(super) pos: usize,
    /// The end of the input was reached (and an unclosed document reported).
    pub(super) ended: bool,
    /// The line and the column after the last line read (where an unclosed document ends).
    pub(super) end: (usize, usize),
}

/// What JSON allows next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Expect {
    /// A value (a new document at the top level: JSON Lines).
    #[default]
    Value,
    /// A value or `]` (after `[`).
    ValueOrClose,
    /// A member name (after `,` in an object).
    Key,
    /// A member name or `}` (after `{`).
    KeyOrClose,
    /// `:` after a member name.
    Colon,
    /// `,` or the end of the container.
    CommaOrClose,
}

/// The fields of a CSV line: (start, end) of each field's content, quotes excluded; a quoted
/// field's doubled quotes stay in it (puzzles have none).
pub(super) fn split_fields(line: &[u8], sep: u8) -> Vec<(usize, usize)> {
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        // Blanks before a field (not a tab in TSV).
        while i < line.len() && line[i] != sep && is_ws(line[i]) {
            i += 1;
        }
        if i < line.len() && line[i] == b'"' {
            let start = i + 1;
            let mut j = start;
            while j < line.len() {
                if line[j] == b'"' {
                    if line.get(j + 1) == Some(&b'"') {
                        j += 2;
                        continue;
                    }
                    break;
                }
                j += 1;
            }
            fields.push((start, j));
            i = j + 1;
            while i < line.len() && line[i] != sep {
                i += 1;
            }
        } else {
            let start = i;
            while i < line.len() && line[i] != sep {
                i += 1;
            }
            let mut end = i;
            while end > start && is_ws(line[end - 1]) && line[end - 1] != sep {
                end -= 1;
            }
            fields.push((start, end));
        }
        if i >= line.len() {
            return fields;
        }
        i += 1;
    }
}

/// Is this first line a CSV/TSV header? Its separator when it is.
pub(super) fn header_sep(line: &[u8], shape: Option<Shape>) -> Option<u8> {
    let sep = if line.contains(&b'\t') {
        b'\t'
    } else if line.contains(&b',') {
        b','
    } else {
        return None;
    };
    let fields = split_fields(line, sep);
    let ok = fields.len() >= 2
        && fields
            .iter()
            .all(|&(s, e)| !holds_puzzle(&line[s..e], shape) && e - s <= 64)
        && fields.iter().any(|&(s, e)| {
            line[s..e]
                .windows(2)
                .any(|w| w.iter().all(u8::is_ascii_alphabetic))
        });
    ok.then_some(sep)
}

/// A JSON number, `true`, `false` or `null`.
pub(super) fn is_json_literal(token: &[u8]) -> bool {
    if matches!(token, b"true" | b"false" | b"null") {
        return true;
    }
    // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    let digits = |t: &[u8]| t.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut t = token.strip_prefix(b"-").unwrap_or(token);
    let n = digits(t);
    if n == 0 || (n > 1 && t[0] == b'0') {
        return false;
    }
    t = &t[n..];
    if let Some(rest) = t.strip_prefix(b".") {
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        t = &rest[n..];
    }
    if let Some(rest) = t.strip_prefix(b"e").or_else(|| t.strip_prefix(b"E")) {
        let rest = rest
            .strip_prefix(b"+")
            .or_else(|| rest.strip_prefix(b"-"))
            .unwrap_or(rest);
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        t = &rest[n..];
    }
    t.is_empty()
}

/// Does a JSON document start at `p` (a `{` or `[`)? Its next non-blank is what JSON puts
/// there (a key or the end for `{`; a value or the end for `[`), or the line ends (the
/// document goes on below). A damaged one-line puzzle that happens to start with a brace is
/// read (and reported) as a puzzle line, not swallowed as JSON.
pub(super) fn starts_json(line: &[u8], p: usize) -> bool {
    let next = line[p + 1..].iter().copied().find(|&b| !is_ws(b));
    match (line[p], next) {
        (_, None) => true,
        (b'{', Some(b)) => matches!(b, b'"' | b'}'),
        // A number first (`[1, 2]`), unless the bracket closes before more text: `[1] 4...3..`
        // numbers a puzzle.
        (b'[', Some(b)) if b == b'-' || b.is_ascii_digit() => {
            match line[p..].iter().position(|&b| b == b']') {
                Some(i) => line[p + i + 1..]
                    .iter()
                    .find(|&&b| !is_ws(b))
                    .is_none_or(|&b| b == b','),
                None => true,
            }
        }
        (b'[', Some(b)) => matches!(b, b'"' | b'{' | b'[' | b']' | b't' | b'f' | b'n'),
        _ => false,
    }
}
