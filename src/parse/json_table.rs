//! JSON inputs of puzzles, read by the line reader with each puzzle's own line and column: an
//! input whose first character is `[` (not a `.sdk` section) or `{`. Strings in a top-level
//! array are puzzles; in objects (in a top-level array, or one per line as JSON Lines, as
//! `--json` writes them) the puzzle is the member named by the column (or its 1-based
//! position), else the first member with a puzzle's name, else the first string that holds a
//! puzzle. Strings may not span lines. A line over the length limit is read in pieces cut
//! between records (see `Reader::split_long_line`), so an array on one line may be of any
//! length; a record over the limit ends the input (in JSON Lines, it is skipped).
//!
//! The scan checks the JSON as it goes (what may follow what, every container closed by the
//! end of the input): a syntax error is reported at its line and column and ends the input
//! (nothing after it can be trusted). An element of a top-level array that is not a string,
//! and a record object without the puzzle's member, are reported each on their own, and the
//! scan goes on.

use super::bytes::is_ws;
use super::columns::{holds_puzzle, is_json_literal, is_puzzle_name, Column, Expect, Json, Table};
use super::error::{ParseError, ParseErrorKind, ReadError};
use super::reader::{Parsed, Reader};
use crate::shape::Shape;
use std::io::BufRead;

impl<R: BufRead> Reader<R> {
    /// Start reading JSON at the current line.
    pub(super) fn start_json(&mut self) {
        self.table = Some(Table::Json(Json::default()));
        // A first line over the limit: an array written on one line, read in pieces.
        self.split_long_line();
        self.push_back();
    }

    /// The next puzzle of a JSON input: `Ok(None)` at its end.
    pub(super) fn json_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        loop {
            let resume = self.resumes();
            if !self.next_line()? {
                let Some(Table::Json(json)) = &mut self.table else {
                    return Ok(None);
                };
                if json.ended {
                    return Ok(None);
                }
                json.ended = true;
                // Only an open container can be left unfinished: a member name or value
                // expected is always inside one, and a string ends on its line.
                // Reported where the input ends: after the last line read.
                return match json.stack.last() {
                    Some(&object) => {
                        let close = if object { '}' } else { ']' };
                        let (line, column) = json.end;
                        let kind = ParseErrorKind::JsonUnclosed { close };
                        Err(ParseError { line, column, kind }.into())
                    }
                    None => Ok(None),
                };
            }
            let Some(Table::Json(json)) = &mut self.table else {
                return Ok(None);
            };
            if self.too_long {
                // A record over the limit (no place between records to cut its line at).
                if json.stack.is_empty() {
                    // A document of its own line (JSON Lines): skipped, the next line read.
                    return Err(self.too_long_error());
                }
                // Inside a document, what follows it cannot be read: the input ends here.
                let limit = self.options.max_line_len;
                let at = self.line.iter().position(|&b| !is_ws(b)).unwrap_or(0);
                self.give_up();
                return Err(self.error_at(at, ParseErrorKind::JsonValueTooLong { limit }));
            }
            if !resume {
                json.pos = 0;
            }
            match scan(&self.line, json, self.options.column, self.options.shape) {
                Scan::Line => {
                    // Where a document left open ends, if the input ends after this line.
                    let end = (self.line_no, self.column(self.line.len()));
                    if let Some(Table::Json(json)) = &mut self.table {
                        json.end = end;
                    }
                    continue;
                }
                Scan::Puzzle(s, e) => {
                    json.pos = e + 1;
                    self.push_back();
                    return self.read_field(s, e).map(Some);
                }
                Scan::Skip(pos, kind) => {
                    self.push_back();
                    return Err(self.error_at(pos, kind));
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
    /// A record that is not a puzzle (reported; the scan goes on after it).
    Skip(usize, ParseErrorKind),
    /// A syntax error (the input ends there).
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

impl Json {
    /// The innermost open container is a record: an object on its own (JSON Lines) or in a
    /// top-level array.
    fn in_record(&self) -> bool {
        matches!(self.stack[..], [true] | [false, true])
    }

    /// A value ended: what may follow it.
    fn after_value(&mut self) {
        self.expect = if self.stack.is_empty() {
            Expect::Value
        } else {
            Expect::CommaOrClose
        };
    }

    /// A syntax error at `at`: what was expected there.
    fn unexpected(&self, line: &[u8], at: usize) -> ParseErrorKind {
        let close = if self.stack.last() == Some(&true) {
            "'}'"
        } else {
            "']'"
        };
        let expected = match self.expect {
            Expect::Value => "a value".to_string(),
            Expect::ValueOrClose => "a value or ']'".to_string(),
            Expect::Key => "a member name (a string)".to_string(),
            Expect::KeyOrClose => "a member name or '}'".to_string(),
            Expect::Colon => "':'".to_string(),
            Expect::CommaOrClose => format!("',' or {close}"),
        };
        ParseErrorKind::JsonSyntax {
            expected,
            found: token(line, at),
        }
    }

    /// The record object closing now gave no puzzle: what it lacks.
    fn no_member(&self, column: Option<Column>) -> ParseErrorKind {
        ParseErrorKind::JsonNoPuzzle {
            member: match (column, &self.chosen) {
                (Some(c), _) => Some(c.to_string()),
                (None, Some(name)) => Some(String::from_utf8_lossy(name).into_owned()),
                (None, None) => None,
            },
        }
    }
}

/// The token at `at` for a message: a string, a word or number, or one character.
fn token(line: &[u8], at: usize) -> String {
    let rest = &line[at..];
    let len = match rest.first() {
        None => return "the end of the line".to_string(),
        Some(b'"') => rest[1..]
            .iter()
            .position(|&b| b == b'"')
            .map_or(rest.len(), |e| e + 2),
        Some(b) if b.is_ascii_alphanumeric() || *b == b'-' => rest
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')))
            .unwrap_or(rest.len()),
        // The character's own bytes; a byte that starts none is named as such (a lossy
        // decoding's replacement character had been three bytes, past a line's end).
        Some(_) => match super::error::decode_at(rest, 0) {
            (found @ super::error::Found::Byte(_), _) => return found.to_string(),
            (_, len) => len,
        },
    };
    let text = String::from_utf8_lossy(&rest[..len.min(40).min(rest.len())]);
    format!("{text:?}")
}

/// Scan `line` from `json.pos` to the next puzzle string (or record to report).
fn scan(line: &[u8], json: &mut Json, column: Option<Column>, shape: Option<Shape>) -> Scan {
    let mut i = json.pos;
    while i < line.len() {
        let b = line[i];
        if is_ws(b) {
            i += 1;
            continue;
        }
        let at = i;
        match b {
            b'[' | b'{' => {
                if !matches!(json.expect, Expect::Value | Expect::ValueOrClose) {
                    return Scan::Error(at, json.unexpected(line, at));
                }
                let object = b == b'{';
                json.stack.push(object);
                if object {
                    json.expect = Expect::KeyOrClose;
                    json.member = 0;
                    if json.in_record() {
                        json.found = false;
                    }
                } else {
                    json.expect = Expect::ValueOrClose;
                }
                i += 1;
            }
            b']' | b'}' => {
                let object = b == b'}';
                let open = if object {
                    Expect::KeyOrClose
                } else {
                    Expect::ValueOrClose
                };
                let fits = json.stack.last() == Some(&object)
                    && (json.expect == open || json.expect == Expect::CommaOrClose);
                if !fits {
                    return Scan::Error(at, json.unexpected(line, at));
                }
                let record = object && json.in_record();
                json.stack.pop();
                json.after_value();
                i += 1;
                if record && !json.found {
                    json.pos = i;
                    return Scan::Skip(at, json.no_member(column));
                }
            }
            b',' => {
                if json.expect != Expect::CommaOrClose {
                    return Scan::Error(at, json.unexpected(line, at));
                }
                json.expect = if json.stack.last() == Some(&true) {
                    Expect::Key
                } else {
                    Expect::Value
                };
                i += 1;
            }
            b':' => {
                if json.expect != Expect::Colon {
                    return Scan::Error(at, json.unexpected(line, at));
                }
                json.expect = Expect::Value;
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < line.len() && line[j] != b'"' {
                    j += if line[j] == b'\\' { 2 } else { 1 };
                }
                if j >= line.len() {
                    return Scan::Error(at, ParseErrorKind::JsonString);
                }
                let text = &line[start..j];
                i = j + 1;
                match json.expect {
                    Expect::Key | Expect::KeyOrClose => {
                        json.key = text.to_vec();
                        json.member += 1;
                        json.expect = Expect::Colon;
                        continue;
                    }
                    Expect::Value | Expect::ValueOrClose => {}
                    _ => return Scan::Error(at, json.unexpected(line, at)),
                }
                let wanted = if json.stack.last() == Some(&true) {
                    json.in_record()
                        && !json.found
                        && match column {
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
                    // A string in a top-level array, or on its own (JSON Lines of strings).
                    json.stack.len() <= 1
                };
                json.after_value();
                if wanted {
                    json.found = true;
                    return Scan::Puzzle(start, j);
                }
            }
            _ => {
                // A number, true, false or null.
                if !matches!(json.expect, Expect::Value | Expect::ValueOrClose) {
                    return Scan::Error(at, json.unexpected(line, at));
                }
                while i < line.len() && !matches!(line[i], b',' | b']' | b'}') && !is_ws(line[i]) {
                    i += 1;
                }
                let literal = &line[at..i];
                if !is_json_literal(literal) {
                    let found = String::from_utf8_lossy(literal).into_owned();
                    return Scan::Error(at, ParseErrorKind::JsonValue { found });
                }
                json.after_value();
                // In an array of puzzles every element is one.
                if json.stack.is_empty() || json.stack[..] == [false] {
                    json.pos = i;
                    let found = String::from_utf8_lossy(literal).into_owned();
                    return Scan::Skip(at, ParseErrorKind::JsonNotPuzzle { found });
                }
            }
        }
    }
    json.pos = i;
    Scan::Line
}
