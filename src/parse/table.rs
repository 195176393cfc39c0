//! Tables of puzzles: CSV and TSV with a header, and JSON (an array of strings, an array of
//! objects, or one object per line), read by the line reader with each puzzle's own line and
//! column.
//!
//! - **CSV / TSV**: the first content line of an input is a header when it is split by `,` or
//!   a tab into two or more fields, none of them a puzzle, one with a word (`quizzes,solutions`,
//!   `id,puzzle,solution,clues,difficulty`, `source,question,answer,rating`). Each later line is
//!   a row; fields may be quoted (`"..."`, `""` for a quote). The puzzle is in the column given
//!   ([`Column`]: a header name, or a 1-based index), else in the first column whose header
//!   is a puzzle's name (`puzzle`, `quizzes`, `question`, …), else in the first column that
//!   holds a puzzle in the first row. With [`TableFormat::Csv`] or [`TableFormat::Tsv`] (a file's
//!   extension) the input is a table even without a header.
//! - **JSON**: an input whose first character is `[` (not a `.sdk` section) or `{`. Strings in
//!   a top-level array are puzzles; in objects (in a top-level array, or one per line as JSON
//!   Lines, as `--json` writes them) the puzzle is the member named by the column (or its
//!   1-based position), else the first member with a puzzle's name, else the first string
//!   that holds a puzzle. Strings may not span lines.

use super::bytes::is_ws;
use super::error::{ParseErrorKind, ReadError};
use super::lines::{is_board_len, run_len};
use super::reader::{Parsed, Reader};
use crate::shape::Shape;
use std::fmt;
use std::io::BufRead;

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

    fn matches(&self, name: &[u8]) -> bool {
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
const PUZZLE_NAMES: &[&[u8]] = &[
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

fn is_puzzle_name(name: &[u8]) -> bool {
    PUZZLE_NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// A field that is a whole one-line puzzle.
fn holds_puzzle(field: &[u8], shape: Option<Shape>) -> bool {
    !field.is_empty() && run_len(field, 0) == field.len() && is_board_len(field.len(), shape)
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
    sep: u8,
    /// The header's names (empty without a header).
    header: Vec<Vec<u8>>,
    /// The 0-based column of the puzzles, once known.
    column: Option<usize>,
}

/// Where a JSON input's scan is.
#[derive(Debug, Clone, Default)]
pub(super) struct Json {
    /// Open containers: `true` for an object.
    stack: Vec<bool>,
    /// In an object: the next string is a key.
    expect_key: bool,
    /// The key of the value that comes next, and its 1-based position in its object.
    key: Vec<u8>,
    member: usize,
    /// The puzzle member's name, once known (objects without a column given).
    chosen: Option<Vec<u8>>,
    /// Where to go on in the current line (several puzzles may share one).
    pos: usize,
}

/// The fields of a CSV line: (start, end) of each field's content, quotes excluded; a quoted
/// field's doubled quotes stay in it (puzzles have none).
fn split_fields(line: &[u8], sep: u8) -> Vec<(usize, usize)> {
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

impl<R: BufRead> Reader<R> {
    /// Start reading a table whose header (or, without one, first row) is the current line.
    pub(super) fn start_csv(&mut self, sep: u8, header: bool) -> Result<(), ReadError> {
        let mut csv = Csv {
            sep,
            header: Vec::new(),
            column: None,
        };
        if header {
            csv.header = split_fields(&self.line, sep)
                .iter()
                .map(|&(s, e)| self.line[s..e].to_vec())
                .collect();
            csv.column = match self.options.column {
                Some(Column::Index(i)) => Some(i - 1),
                Some(Column::Name(name)) => match csv.header.iter().position(|h| name.matches(h)) {
                    Some(i) => Some(i),
                    None => {
                        let names: Vec<String> = csv
                            .header
                            .iter()
                            .map(|h| String::from_utf8_lossy(h).into_owned())
                            .collect();
                        self.table = Some(Table::Csv(csv));
                        self.give_up();
                        let kind = ParseErrorKind::NoSuchColumn {
                            column: name.to_string(),
                            columns: names.join(", "),
                        };
                        return Err(self.error_at(0, kind));
                    }
                },
                None => PUZZLE_NAMES
                    .iter()
                    .find_map(|n| csv.header.iter().position(|h| n.eq_ignore_ascii_case(h))),
            };
        } else {
            csv.column = match self.options.column {
                Some(Column::Index(i)) => Some(i - 1),
                _ => None,
            };
            self.push_back();
        }
        self.table = Some(Table::Csv(csv));
        Ok(())
    }

    /// The next puzzle of a table: `Ok(None)` at the end of the input.
    pub(super) fn table_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        match self.table {
            Some(Table::Csv(_)) => self.csv_record(),
            Some(Table::Json(_)) => self.json_record(),
            None => Ok(None),
        }
    }

    fn csv_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        loop {
            if !self.next_line()? {
                return Ok(None);
            }
            let Some(Table::Csv(csv)) = &mut self.table else {
                return Ok(None);
            };
            let (sep, shape) = (csv.sep, self.options.shape);
            let line = &self.line;
            if line.iter().all(|&b| is_ws(b)) || line.first() == Some(&b'#') {
                continue;
            }
            let fields = split_fields(line, sep);
            let column = match csv.column {
                Some(c) => c,
                None => {
                    let found = fields
                        .iter()
                        .position(|&(s, e)| holds_puzzle(&line[s..e], shape));
                    match found {
                        Some(c) => {
                            csv.column = Some(c);
                            c
                        }
                        None => {
                            let kind = ParseErrorKind::NoPuzzleColumn {
                                fields: fields.len(),
                            };
                            return Err(self.error_at(0, kind));
                        }
                    }
                }
            };
            let Some(&(s, e)) = fields.get(column) else {
                let name = csv
                    .header
                    .get(column)
                    .map(|h| format!(" ({})", String::from_utf8_lossy(h)))
                    .unwrap_or_default();
                let kind = ParseErrorKind::MissingColumn {
                    column: format!("{}{name}", column + 1),
                    fields: fields.len(),
                };
                return Err(self.error_at(self.line.len(), kind));
            };
            let run: Vec<u8> = self.line[s..e].to_vec();
            let at: Vec<usize> = (s..e).collect();
            return self.read_cells(&run, &at, e).map(Some);
        }
    }

    /// Start reading JSON at the current line.
    pub(super) fn start_json(&mut self) {
        self.table = Some(Table::Json(Json::default()));
        self.push_back();
    }

    fn json_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        loop {
            let resume = self.resumes();
            if !self.next_line()? {
                return Ok(None);
            }
            let Some(Table::Json(json)) = &mut self.table else {
                return Ok(None);
            };
            if !resume {
                json.pos = 0;
            }
            match scan_json(&self.line, json, self.options.column, self.options.shape) {
                Scan::Line => continue,
                Scan::Puzzle(s, e) => {
                    json.pos = e + 1;
                    self.push_back();
                    let run: Vec<u8> = self.line[s..e].to_vec();
                    let at: Vec<usize> = (s..e).collect();
                    return self.read_cells(&run, &at, e).map(Some);
                }
                Scan::Error(pos, kind) => {
                    self.give_up();
                    return Err(self.error_at(pos, kind));
                }
            }
        }
    }
}

/// What a scan of a JSON line found.
enum Scan {
    /// Nothing more on this line.
    Line,
    /// A puzzle string's content.
    Puzzle(usize, usize),
    /// A syntax error.
    Error(usize, ParseErrorKind),
}

/// Does the rest of a JSON line name a member with a puzzle's name (`"puzzle":`)? Then a
/// string that holds a puzzle before it (a solution) is not the puzzle column.
fn names_puzzle_later(rest: &[u8]) -> bool {
    let mut i = 0;
    while let Some(q) = rest[i..].iter().position(|&b| b == b'"') {
        let start = i + q + 1;
        let Some(len) = rest[start..].iter().position(|&b| b == b'"') else {
            return false;
        };
        let after = &rest[start + len + 1..];
        let colon = after.iter().find(|&&b| !is_ws(b)) == Some(&b':');
        if colon && is_puzzle_name(&rest[start..start + len]) {
            return true;
        }
        i = start + len + 1;
    }
    false
}

/// Scan `line` from `json.pos` to the next puzzle string.
fn scan_json(line: &[u8], json: &mut Json, column: Option<Column>, shape: Option<Shape>) -> Scan {
    let mut i = json.pos;
    while i < line.len() {
        let b = line[i];
        match b {
            _ if is_ws(b) => i += 1,
            b'[' | b'{' => {
                json.stack.push(b == b'{');
                json.expect_key = b == b'{';
                json.member = 0;
                i += 1;
            }
            b']' | b'}' => {
                json.stack.pop();
                json.expect_key = false;
                i += 1;
            }
            b',' => {
                json.expect_key = json.stack.last() == Some(&true);
                i += 1;
            }
            b':' => {
                json.expect_key = false;
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < line.len() && line[j] != b'"' {
                    j += if line[j] == b'\\' { 2 } else { 1 };
                }
                if j >= line.len() {
                    return Scan::Error(i, ParseErrorKind::JsonString);
                }
                let text = &line[start..j];
                i = j + 1;
                if json.expect_key {
                    json.key = text.to_vec();
                    json.member += 1;
                    json.expect_key = false;
                    continue;
                }
                let in_object = json.stack.last() == Some(&true);
                let depth = json.stack.len();
                let wanted = if in_object {
                    // Objects one per line (depth 1) or in a top-level array (depth 2).
                    let top = depth == 1 || (depth == 2 && !json.stack[0]);
                    top && match column {
                        Some(Column::Name(n)) => n.matches(&json.key),
                        Some(Column::Index(k)) => json.member == k,
                        None => match &json.chosen {
                            Some(name) => *name == json.key,
                            None if is_puzzle_name(&json.key)
                                || (holds_puzzle(text, shape)
                                    && !names_puzzle_later(&line[i..])) =>
                            {
                                json.chosen = Some(json.key.clone());
                                true
                            }
                            None => false,
                        },
                    }
                } else {
                    depth == 1
                };
                if wanted {
                    return Scan::Puzzle(start, j);
                }
            }
            _ => {
                // A number, true, false or null.
                while i < line.len() && !matches!(line[i], b',' | b']' | b'}') && !is_ws(line[i]) {
                    i += 1;
                }
            }
        }
    }
    json.pos = i;
    Scan::Line
}
