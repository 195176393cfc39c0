//! What a line is before its cells are read: blank, comment, frame, or content; and how a
//! record starts (a one-line puzzle, a grid, a title, or a bad line). See the module docs of
//! `parse` for the rules.

use super::bytes::{find_first, is_cell_char, is_ws, isqrt, trim_end};
use crate::shape::{Shape, MAX_SIDE};

/// What a line is, before looking at its cells.
pub(super) enum LineClass {
    Blank,
    Comment,
    /// A frame or separator line; the index of its first non-blank byte.
    Frame(usize),
    /// Anything else; the index of its first non-blank byte.
    Content(usize),
}

pub(super) fn classify(line: &[u8]) -> LineClass {
    let Some(p) = line.iter().position(|&b| !is_ws(b)) else {
        return LineClass::Blank;
    };
    match line[p] {
        b'#' => LineClass::Comment,
        b'-' | b'+' | b'*' | b'=' | b'|' if is_frame(&line[p..]) => LineClass::Frame(p),
        // A label such as `Puzzle:` or `The solution is found:` (the seeds' and `solve`'s
        // own, above their boards): never cells. Not a board of letters with a field after it
        // (`AB..............:1:`): a label's first word is shorter than a board.
        b if b.is_ascii_alphabetic()
            && line[..trim_end(line)].last() == Some(&b':')
            && run_len(line, p) < 16 =>
        {
            LineClass::Comment
        }
        _ => LineClass::Content(p),
    }
}

/// Frame and separator lines (`*-----*`, `|---+---|`, `- - -`, `+------+`, `=====`): only
/// `-+*=|` and blanks, with at least one `-`, `=` or `+` (so a line of `*` is empty cells).
pub(super) fn is_frame(rest: &[u8]) -> bool {
    rest.iter()
        .all(|&b| is_ws(b) || matches!(b, b'-' | b'+' | b'*' | b'=' | b'|'))
        && rest.iter().any(|&b| matches!(b, b'-' | b'=' | b'+'))
}

/// Length of the run of cell characters starting at `p`.
pub(super) fn run_len(line: &[u8], p: usize) -> usize {
    find_first(&line[p..], |b| !is_cell_char(b))
}

/// Is a run of `len` cells a whole one-line board? With a shape: exactly N². Without: any
/// perfect square from 16 up (squares without a box shape are then reported as such).
pub(super) fn is_board_len(len: usize, shape: Option<Shape>) -> bool {
    match shape {
        Some(s) => len == s.cells(),
        None => len >= 16 && isqrt(len).pow(2) == len,
    }
}

/// Is `len` cells one row of a grid? With a shape: exactly N. Without: a side with a box shape.
pub(super) fn is_row_len(len: usize, shape: Option<Shape>) -> bool {
    match shape {
        Some(s) => len == s.side(),
        None => (4..=MAX_SIDE).contains(&len) && Shape::for_side(len).is_ok(),
    }
}

/// Is a line of just `len` cell characters one row of a grid? Without a shape only for the
/// usual small sides (4, 6, 8, 9, 10, 12): a longer run is more likely a one-line puzzle with a
/// wrong length, and bigger row-per-line grids need the shape.
pub(super) fn is_bare_row_len(len: usize, shape: Option<Shape>) -> bool {
    match shape {
        Some(_) => is_row_len(len, shape),
        None => len <= 12 && is_row_len(len, None),
    }
}

/// Is this content line (first non-blank at `p`) a whole one-line puzzle on its own?
pub(super) fn is_complete_line(line: &[u8], p: usize, shape: Option<Shape>) -> bool {
    line[p] != b'|' && is_board_len(run_len(line, p), shape)
}

/// How a record starts.
pub(super) enum Start {
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
pub(super) fn start_kind(line: &[u8], p: usize, shape: Option<Shape>) -> Start {
    if line[p] == b'|' {
        return Start::Grid;
    }
    // A row of numbers that starts with a negative one (`-1 0 0 …`): a grid whose number is
    // out of range, named once, rather than a bad line and a grid short of a row.
    if line[p] == b'-'
        && line.get(p + 1).is_some_and(u8::is_ascii_digit)
        && super::grid::detect_mode(line, p) == super::grid::Entries::Numbers
    {
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
pub(super) fn is_title(word: &[u8], next: Option<u8>) -> bool {
    word.len() >= 2
        && word.iter().all(u8::is_ascii_alphabetic)
        && word.iter().any(u8::is_ascii_lowercase)
        && next.is_none_or(is_ws)
}

/// A row of characters split by blanks or `|` (`2.. 1.5 ..3`) that makes one valid row.
pub(super) fn spaced_row(line: &[u8], p: usize, shape: Option<Shape>) -> bool {
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

/// Field separators of lines with ids before the puzzle.
fn is_field_sep(b: u8) -> bool {
    is_ws(b) || matches!(b, b',' | b';' | b':')
}

/// A section header `[Name]` at `p` (blanks around allowed): the name.
pub(super) fn section_name(line: &[u8], p: usize) -> Option<&[u8]> {
    let end = trim_end(line);
    let body = &line[p..end];
    let name = body.strip_prefix(b"[")?.strip_suffix(b"]")?;
    (!name.is_empty() && name.iter().all(|&b| b.is_ascii_alphanumeric() || is_ws(b)))
        .then_some(name)
}

/// A later field that holds the puzzle (see the module docs): its start and the length of its
/// run of cell characters. Only when the first field's run is shorter than 16.
pub(super) fn later_puzzle(line: &[u8], p: usize) -> Option<(usize, usize)> {
    if run_len(line, p) >= 16 {
        return None;
    }
    later_run(line, p, 16)
}

/// A later field whose run of cell characters is at least `min` long: its start and run.
pub(super) fn later_run(line: &[u8], p: usize, min: usize) -> Option<(usize, usize)> {
    let mut i = p;
    for _ in 0..16 {
        // Skip the field, then its separators.
        while i < line.len() && !is_field_sep(line[i]) {
            i += 1;
        }
        while i < line.len() && is_field_sep(line[i]) {
            i += 1;
        }
        if i >= line.len() {
            return None;
        }
        let run = run_len(line, i);
        if run >= min {
            return Some((i, run));
        }
    }
    None
}
