//! Output layouts: one line, rows of numbers (as seeds 000/002 print), the same with a line of
//! dashes between bands (as seed 003 prints), and the boxed board with row and column indices
//! (as seed 001 prints).

use crate::parse::Alphabet;
pub use crate::puzzle::{digit_char, line_of};
use crate::shape::Shape;
use std::fmt::Write;
use std::str::FromStr;

/// How a board is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// One line of N² characters, `.` for empty.
    #[default]
    Line,
    /// A boxed board with column indices on top and row indices on the right.
    Grid,
    /// N lines of N space-separated numbers, 0 for empty.
    Rows,
    /// [`Layout::Rows`] with a line of dashes (`- - - …`) between bands, as seed 003 reads
    /// and prints boards.
    Bands,
}

impl FromStr for Layout {
    type Err = String;

    fn from_str(s: &str) -> Result<Layout, String> {
        match s {
            "line" => Ok(Layout::Line),
            "grid" => Ok(Layout::Grid),
            "rows" => Ok(Layout::Rows),
            "bands" => Ok(Layout::Bands),
            _ => Err(format!(
                "unknown format {s:?}: expected line, grid, rows or bands"
            )),
        }
    }
}

/// Render values (0 = empty) in a layout. Multi-line layouts end with a newline; `Line` does not.
///
/// # Panics
/// When `values` holds a value above 64 (no character writes it); `values` should hold N²
/// values of at most N, as [`Puzzle::cells`](crate::Puzzle::cells) and solutions do.
pub fn render(shape: Shape, values: &[u8], layout: Layout) -> String {
    render_in(shape, values, layout, Alphabet::Standard)
}

/// [`render`] in an alphabet (the rows layout is numbers in every alphabet).
pub fn render_in(shape: Shape, values: &[u8], layout: Layout, alphabet: Alphabet) -> String {
    match layout {
        Layout::Line if alphabet == Alphabet::Standard => line_of(shape, values),
        Layout::Line => alphabet.line(values),
        Layout::Grid => boxed_in(shape, values, alphabet),
        Layout::Rows => rows(shape, values),
        Layout::Bands => bands(shape, values),
    }
}

/// [`rows`] with a line of dashes, one under each number, between bands (seed 003's boards).
pub fn bands(shape: Shape, values: &[u8]) -> String {
    let n = shape.side();
    let width = if n > 9 { 2 } else { 1 };
    let dashes = vec![format!("{:>width$}", "-"); n].join(" ");
    let mut out = String::new();
    for (i, line) in rows(shape, values).lines().enumerate() {
        if i > 0 && i % shape.box_rows() == 0 {
            out.push_str(&dashes);
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// N lines of space-separated numbers, 0 for empty (the seeds' input and output layout).
pub fn rows(shape: Shape, values: &[u8]) -> String {
    let n = shape.side();
    let width = if n > 9 { 2 } else { 1 };
    let mut out = String::with_capacity(values.len() * (width + 1) + n);
    for row in values.chunks(n) {
        for (j, &v) in row.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{v:>width$}");
        }
        out.push('\n');
    }
    out
}

/// The boxed board of seed 001: column indices, `+---+` separators, `|` between boxes, and the
/// row index after each row. Empty cells print as `.`.
pub fn boxed(shape: Shape, values: &[u8]) -> String {
    boxed_in(shape, values, Alphabet::Standard)
}

/// [`boxed`] in an alphabet (numbers as numbers, `.` for empty).
pub fn boxed_in(shape: Shape, values: &[u8], alphabet: Alphabet) -> String {
    let n = shape.side();
    let w = if n > 10 || (n > 9 && alphabet == Alphabet::Numbers) {
        3
    } else {
        2
    }; // characters per cell, including the leading space
    let mut out = String::new();
    // Column indices, right-aligned over the cells.
    out.push(' ');
    for j in 0..n {
        if j > 0 && j % shape.box_cols() == 0 {
            out.push(' ');
        }
        let _ = write!(out, "{j:>w$}");
    }
    out.push('\n');
    let sep = {
        let mut s = String::new();
        for _ in 0..n / shape.box_cols() {
            s.push('+');
            s.push_str(&"-".repeat(w * shape.box_cols()));
        }
        s.push_str("+\n");
        s
    };
    for (i, row) in values.chunks(n).enumerate() {
        if i % shape.box_rows() == 0 {
            out.push_str(&sep);
        }
        for (j, &v) in row.iter().enumerate() {
            if j % shape.box_cols() == 0 {
                out.push('|');
            }
            match alphabet.symbol(v) {
                Some(c) if alphabet != Alphabet::Numbers || v == 0 => {
                    let _ = write!(out, "{c:>w$}");
                }
                _ => {
                    let _ = write!(out, "{v:>w$}");
                }
            }
        }
        let _ = writeln!(out, "| {i}");
    }
    out.push_str(&sep);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved 9×9 board written as 81 digits, as values.
    fn values(solved: &str) -> Vec<u8> {
        solved.bytes().map(|b| b - b'0').collect()
    }

    #[test]
    fn bands_match_seed_003() {
        let text = bands(
            Shape::NINE,
            &values(
                "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
            ),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "5 3 4 6 7 8 9 1 2");
        assert_eq!(lines[3], "- - - - - - - - -");
        assert_eq!(lines[7], "- - - - - - - - -");
        assert_eq!(lines[10], "3 4 5 2 8 6 1 7 9");
        let six = bands(Shape::new(2, 3).unwrap(), &[1; 36]);
        assert_eq!(six.lines().filter(|l| l.starts_with('-')).count(), 2);
    }

    #[test]
    fn boxed_matches_seed_001() {
        let text = boxed(
            Shape::NINE,
            &values(
                "491685273627391854853472619189243765732569481564817392348156927916724538275938146",
            ),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  0 1 2  3 4 5  6 7 8");
        assert_eq!(lines[1], "+------+------+------+");
        assert_eq!(lines[2], "| 4 9 1| 6 8 5| 2 7 3| 0");
        assert_eq!(lines[12], "| 2 7 5| 9 3 8| 1 4 6| 8");
        assert_eq!(lines.len(), 14);
    }

    #[test]
    fn rows_layout() {
        let values = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0];
        assert_eq!(
            rows(Shape::new(2, 2).unwrap(), &values),
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 0\n"
        );
    }
}
