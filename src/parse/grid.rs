//! Grid lines: their entries (numbers, or characters, or positional cells of the boxed
//! layout), split by a tokenizer, and the grid that collects them row by row.

use super::alphabet::{detect, Alphabet};
use super::bytes::{is_cell_char, is_ws, trim_end};
use super::error::{
    alphabet_error, ambiguous_zero, unexpected, Expected, ParseError, ParseErrorKind,
};
use super::lines::is_row_len;
use crate::shape::{Shape, MAX_SIDE};

/// How the entries of a grid are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entries {
    /// Whitespace-separated numbers (a single character is a cell character).
    Numbers,
    /// Every character is a cell.
    Chars,
}

impl Entries {
    pub(super) fn expected(self, side: Option<usize>) -> Expected {
        match self {
            Entries::Numbers => Expected::Number(side),
            Entries::Chars => Expected::Cell(side),
        }
    }
}

/// A grid's layout, from its first line: numbers when tokens are separated by whitespace and
/// each is a number of at most two digits or a single character.
pub(super) fn detect_mode(line: &[u8], p: usize) -> Entries {
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
        let digits = tok.strip_prefix(b"-").unwrap_or(tok);
        numeric &= tok.len() == 1
            || (digits.len() <= 2 && !digits.is_empty() && digits.iter().all(u8::is_ascii_digit));
        ws_between |= pending_ws;
        pending_ws = false;
        tokens += 1;
    }
    if numeric && ws_between {
        Entries::Numbers
    } else {
        Entries::Chars
    }
}

/// One entry of a grid row, before the side is known.
#[derive(Debug, Clone, Copy)]
pub(super) enum Raw {
    /// A number token.
    Num(u16),
    /// A negative number token (`-1`, as seed 000's `cin >>` reads one): never a cell, but
    /// read as a number so that the grid it starts is read whole and named once.
    Neg(u16),
    /// A cell character (a positional blank is `.`).
    Sym(u8),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub(super) pos: usize,
    pub(super) raw: Raw,
}

/// Why a grid line could not be split into entries.
pub(super) enum TokError {
    /// A bad character: its byte position and the error.
    Bad(usize, ParseErrorKind),
    /// A run of characters in a grid of numbers, at this byte position.
    CharRun(usize),
}

/// Split a grid line (first non-blank at `p`) into entries; returns the end of its content.
/// `hex`: the alphabet is hex, where a single-character token of a grid of numbers is a cell
/// character (`0` is the value 1), as `--format grid` writes a board in 0-F.
pub(super) fn tokenize(
    line: &[u8],
    p: usize,
    mode: Entries,
    side: Option<usize>,
    hex: bool,
    toks: &mut Vec<Tok>,
) -> Result<usize, TokError> {
    toks.clear();
    let end = trim_end(line);
    // `p` is at the end where the line holds only blanks (a table's field of spaces).
    let framed = line.get(p) == Some(&b'|');
    if framed && line[p..end].contains(&b'\t') {
        // Tabs in a boxed row: read as the eye sees it (stops every 8 columns), so that blank
        // cells keep their places; positions are given back in the line's own bytes.
        let (wide, from) = expand_tabs(&line[..end]);
        let at = from.iter().position(|&i| i == p).unwrap_or(p);
        let back = |i: usize| from.get(i).copied().unwrap_or(end);
        tokenize(&wide, at, mode, side, hex, toks).map_err(|e| match e {
            TokError::Bad(i, kind) => TokError::Bad(back(i), kind),
            TokError::CharRun(i) => TokError::CharRun(back(i)),
        })?;
        for t in toks.iter_mut() {
            t.pos = back(t.pos);
        }
        return Ok(end);
    }
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
            push_tokens(line, seg_start, i, mode, side, hex, toks)?;
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
            push_tokens(line, start, stop, mode, side, hex, toks)?;
        }
    }
    Ok(end)
}

/// `line` with each tab replaced by the blanks to the next multiple of 8 columns, and for each
/// byte of the result the position of the byte of `line` it comes from.
fn expand_tabs(line: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let (mut wide, mut from) = (Vec::with_capacity(line.len() + 16), Vec::new());
    for (i, &b) in line.iter().enumerate() {
        if b == b'\t' {
            let n = 8 - wide.len() % 8;
            wide.extend(std::iter::repeat_n(b' ', n));
            from.extend(std::iter::repeat_n(i, n));
        } else {
            wide.push(b);
            from.push(i);
        }
    }
    (wide, from)
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
    mode: Entries,
    side: Option<usize>,
    hex: bool,
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
        push_token(line, s, i, mode, side, hex, toks)?;
    }
    Ok(())
}

/// Push one token: a number (up to 3 digits, in a grid of numbers, unless a single character
/// in `hex`) or cell characters.
fn push_token(
    line: &[u8],
    s: usize,
    e: usize,
    mode: Entries,
    side: Option<usize>,
    hex: bool,
    toks: &mut Vec<Tok>,
) -> Result<(), TokError> {
    let tok = &line[s..e];
    if mode == Entries::Numbers && !(hex && tok.len() == 1) {
        let (negative, digits) = match tok.strip_prefix(b"-") {
            Some(d) => (true, d),
            None => (false, tok),
        };
        if !digits.is_empty() && digits.len() <= 3 && digits.iter().all(u8::is_ascii_digit) {
            let v = digits
                .iter()
                .fold(0u16, |v, &d| v * 10 + u16::from(d - b'0'));
            toks.push(Tok {
                pos: s,
                raw: if negative { Raw::Neg(v) } else { Raw::Num(v) },
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
pub(super) fn infer_shape(entries: usize, shape: Option<Shape>) -> Result<Shape, ParseErrorKind> {
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
pub(super) fn nearest_board(len: usize) -> usize {
    (4..=MAX_SIDE)
        .filter(|&s| Shape::for_side(s).is_ok())
        .map(|s| s * s)
        .min_by_key(|&cells| cells.abs_diff(len))
        .unwrap_or(81)
}

/// A grid being read.
pub(super) struct Grid {
    pub(super) mode: Entries,
    pub(super) shape: Shape,
    pub(super) rows: usize,
    pub(super) cells: Vec<u8>,
    pub(super) start_line: usize,
    pub(super) double_spaced: bool,
    /// Line and end column of the last row, for "ended at the end of the input".
    pub(super) last_row: (usize, usize),
    /// The alphabet given (`None`: recognise it).
    pub(super) alphabet: Option<Alphabet>,
    /// Characters of a board above 9×9 whose alphabet is not known yet: decoded at the end,
    /// once every character has been seen (their cells hold 0 until then).
    pub(super) pending: Vec<Pending>,
    /// The first row's entries were `0 1 2 … N-1` as written (the boxed layout's header, if
    /// a frame line follows; see [`Grid::is_header`]).
    pub(super) header_like: bool,
    /// A grid of blank-separated entries read with the hex alphabet: a `.` or a letter was
    /// seen (the board is written in hex characters, as `--format grid` writes it), or a
    /// number of two digits (it is written in numbers, as `--format rows` writes it). Its
    /// single digits wait in `pending` until the grid is read ([`Grid::resolve`]).
    pub(super) hex_signs: bool,
    pub(super) two_digits: bool,
    /// A number other than 0 was read (in a grid of numbers).
    pub(super) numbers: bool,
}

/// A character waiting for the grid's alphabet: its cell, and where it was.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pending {
    cell: usize,
    byte: u8,
    line: usize,
    column: usize,
}

impl Grid {
    pub(super) fn side(&self) -> usize {
        self.shape.side()
    }

    /// Add the entries of one line, which must hold whole rows.
    pub(super) fn add_row(
        &mut self,
        line: &[u8],
        line_no: usize,
        toks: &[Tok],
        end: usize,
    ) -> Result<(), (usize, ParseErrorKind)> {
        let n = self.side();
        if self.rows == 0 {
            // A row inside the frame (`| 0 | 1 | 2 | 3 |`) is cells, never the header.
            let framed = line.iter().find(|b| !is_ws(**b)) == Some(&b'|');
            self.header_like = !framed
                && toks.len() == n
                && toks.iter().enumerate().all(|(i, t)| match t.raw {
                    Raw::Num(v) => usize::from(v) == i,
                    Raw::Sym(b) => b.is_ascii_digit() && usize::from(b - b'0') == i,
                    Raw::Neg(_) => false,
                });
        }
        // Characters of a board above 9x9 wait for the alphabet they are written in; so do the
        // single digits of a grid of blank-separated entries read in hex (numbers or
        // characters: see `hex_signs`).
        // So do the letters of a grid of numbers above 9x9 (`--format grid` of a board of
        // letters, whose header and row indices are numbers): letters alone are read as
        // their own alphabet, letters among numbers as 1-9A-Z.
        let defer = self.alphabet.is_none() && n > 9;
        let hex_entries = self.hex_entries();
        let alphabet = self.alphabet.unwrap_or_default();
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
                Raw::Num(v) if usize::from(v) <= n => {
                    self.two_digits |= hex_entries;
                    self.numbers |= v > 0;
                    v as u8
                }
                Raw::Num(v) => {
                    let kind = ParseErrorKind::NumberOutOfRange {
                        value: i32::from(v),
                        side: n,
                    };
                    return Err((t.pos, kind));
                }
                Raw::Neg(v) => {
                    let kind = ParseErrorKind::NumberOutOfRange {
                        value: -i32::from(v),
                        side: n,
                    };
                    return Err((t.pos, kind));
                }
                Raw::Sym(b) if defer || (hex_entries && b.is_ascii_digit()) => {
                    self.pending.push(Pending {
                        cell: self.cells.len(),
                        byte: b,
                        line: line_no,
                        column: super::error::char_column(line, t.pos),
                    });
                    0
                }
                Raw::Sym(b) => {
                    self.hex_signs |= hex_entries;
                    alphabet.value(b, n).ok_or_else(|| {
                        let expected = self.mode.expected(Some(n));
                        (t.pos, alphabet_error(line, t.pos, b, n, alphabet, expected))
                    })?
                }
            };
            self.cells.push(value);
        }
        self.rows += k / n;
        Ok(())
    }

    /// A grid of blank-separated entries read with the hex alphabet (see `hex_signs`).
    fn hex_entries(&self) -> bool {
        self.mode == Entries::Numbers && self.alphabet == Some(Alphabet::Hex)
    }

    /// The boxed layout's header was read as the first row: forget it.
    pub(super) fn drop_header(&mut self) {
        self.rows = 0;
        self.cells.clear();
        self.pending.clear();
        (self.hex_signs, self.two_digits, self.numbers) = (false, false, false);
    }

    /// The alphabet of the whole grid, once read, and the cells that waited for it decoded.
    pub(super) fn resolve(&mut self) -> Result<Alphabet, ParseError> {
        let n = self.side();
        if self.hex_entries() {
            // Hex characters where the grid shows them (a `.` or a letter, and no number of
            // two digits); else numbers.
            let chars = self.hex_signs && !self.two_digits;
            for p in &self.pending {
                let value = if chars {
                    Alphabet::Hex.value(p.byte, n)
                } else {
                    Some(p.byte - b'0').filter(|&v| usize::from(v) <= n)
                };
                self.cells[p.cell] = value.ok_or(ParseError {
                    line: p.line,
                    column: p.column,
                    kind: ParseErrorKind::NumberOutOfRange {
                        value: i32::from(p.byte - b'0') + i32::from(chars),
                        side: n,
                    },
                })?;
            }
            self.pending.clear();
            return Ok(Alphabet::Hex);
        }
        if self.pending.is_empty() {
            return Ok(match self.alphabet {
                Some(a) => a,
                None if self.mode == Entries::Numbers && n > 9 => Alphabet::Numbers,
                None => Alphabet::Standard,
            });
        }
        let bytes: Vec<u8> = self.pending.iter().map(|p| p.byte).collect();
        let at = |p: &Pending, kind| ParseError {
            line: p.line,
            column: p.column,
            kind,
        };
        // Letters among numbers: 1-9A-Z, and the board is written in numbers (as before
        // letters waited).
        let (alphabet, written) = if self.mode == Entries::Numbers && self.numbers {
            (Alphabet::Standard, Alphabet::Numbers)
        } else {
            let a = detect(&bytes, n).map_err(|i| at(&self.pending[i], ambiguous_zero(n)))?;
            (a, a)
        };
        for p in &self.pending {
            match alphabet.value(p.byte, n) {
                Some(v) => self.cells[p.cell] = v,
                None => {
                    let byte = [p.byte];
                    let kind =
                        alphabet_error(&byte, 0, p.byte, n, alphabet, Expected::Cell(Some(n)));
                    return Err(at(p, kind));
                }
            }
        }
        Ok(written)
    }

    /// The boxed layout's header `0 1 2 … N-1`: the only row so far, followed by a `+---` line.
    pub(super) fn is_header(&self, frame_first: u8) -> bool {
        self.mode == Entries::Numbers && self.rows == 1 && frame_first == b'+' && self.header_like
    }
}

/// Skipping the rest of a bad grid.
#[derive(Debug, Clone, Copy)]
pub(super) struct Skip {
    /// Row lines still to skip.
    pub(super) rows_left: usize,
    /// Rows seen, including the bad line (for the double-spacing rule).
    pub(super) rows_seen: usize,
    pub(super) double_spaced: bool,
}
