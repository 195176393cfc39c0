//! Puzzle values: a [`Shape`] plus its givens, and the checks on them.

use crate::shape::Shape;
use std::fmt;

/// Two givens that share a digit in one house: the puzzle is *invalid* (not merely unsolvable).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{digit} appears twice in {house}: {first} and {second}")]
pub struct Conflict {
    /// The clashing digit, rendered as the board writes it.
    pub digit: String,
    /// The house ("row 3", "column 5", "box 2").
    pub house: String,
    /// First cell, e.g. `r3c1`.
    pub first: String,
    /// Second cell, e.g. `r3c7`.
    pub second: String,
    /// First cell index (row-major).
    pub first_cell: usize,
    /// Second cell index (row-major).
    pub second_cell: usize,
}

/// A puzzle: its shape and one value per cell, 0 for empty, 1..=N for a given.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    shape: Shape,
    cells: Vec<u8>,
}

/// Errors building a [`Puzzle`] from raw values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The value slice does not have N² entries.
    #[error("expected {expected} cells for a {shape} board, got {got}")]
    WrongLength {
        /// Shape asked for.
        shape: Shape,
        /// N².
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// A value above N.
    #[error("value {value} at {cell} is out of range 0..={side}")]
    OutOfRange {
        /// The value.
        value: u8,
        /// Cell name.
        cell: String,
        /// N.
        side: usize,
    },
}

impl Puzzle {
    /// A puzzle from row-major values (0 = empty).
    pub fn new(shape: Shape, cells: Vec<u8>) -> Result<Puzzle, PuzzleError> {
        if cells.len() != shape.cells() {
            return Err(PuzzleError::WrongLength {
                shape,
                expected: shape.cells(),
                got: cells.len(),
            });
        }
        if let Some((i, &v)) = cells
            .iter()
            .enumerate()
            .find(|&(_, &v)| v as usize > shape.side())
        {
            return Err(PuzzleError::OutOfRange {
                value: v,
                cell: shape.cell_name(i),
                side: shape.side(),
            });
        }
        Ok(Puzzle { shape, cells })
    }

    /// The empty puzzle of a shape.
    pub fn empty(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// The board's shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Row-major values, 0 for empty.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of givens.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Set one cell (0 clears it). Panics if `cell` or `value` is out of range (programming error).
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value as usize <= self.shape.side());
        self.cells[cell] = value;
    }

    /// True when two givens share a digit in some house. One pass with bit masks, no
    /// allocation: this runs for every puzzle of a batch.
    pub fn has_conflict(&self) -> bool {
        let shape = self.shape;
        let n = shape.side();
        let mut rows = [0u64; crate::shape::MAX_SIDE];
        let mut cols = [0u64; crate::shape::MAX_SIDE];
        let mut boxes = [0u64; crate::shape::MAX_SIDE];
        for (cell, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u64 << (v - 1);
            let (r, c, b) = (cell / n, cell % n, shape.box_of(cell));
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return true;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        false
    }

    /// The first pair of clashing givens, scanning rows, then columns, then boxes.
    pub fn conflict(&self) -> Option<Conflict> {
        if !self.has_conflict() {
            return None;
        }
        let shape = self.shape;
        for (h, house) in shape.houses().iter().enumerate() {
            let mut seen = vec![usize::MAX; shape.side() + 1];
            for &cell in house {
                let v = self.cells[cell] as usize;
                if v == 0 {
                    continue;
                }
                if seen[v] != usize::MAX {
                    let first = seen[v];
                    return Some(Conflict {
                        digit: digit_char(shape, v as u8).to_string(),
                        house: shape.house_name(h),
                        first: shape.cell_name(first),
                        second: shape.cell_name(cell),
                        first_cell: first,
                        second_cell: cell,
                    });
                }
                seen[v] = cell;
            }
        }
        None
    }

    /// True when every cell is filled and no house repeats a digit.
    pub fn is_solved_grid(&self) -> bool {
        self.cells.iter().all(|&v| v != 0) && self.conflict().is_none()
    }

    /// True when `solution` is a complete valid grid of this shape that keeps every given.
    pub fn is_solution(&self, solution: &[u8]) -> bool {
        if solution.len() != self.cells.len() {
            return false;
        }
        let keeps = self
            .cells
            .iter()
            .zip(solution)
            .all(|(&g, &s)| g == 0 || g == s);
        keeps
            && Puzzle::new(self.shape, solution.to_vec())
                .map(|p| p.is_solved_grid())
                .unwrap_or(false)
    }

    /// The one-line form: `.` for empty, digits `1-9` then letters `A-Z` (then `a-z`, then
    /// symbols) for larger boards.
    pub fn to_line(&self) -> String {
        line_of(self.shape, &self.cells)
    }
}

/// The character for value `v` on a board of this shape: `.` for 0; for N ≤ 9 `1-9`;
/// for larger boards `1-9`, then `A-Z` (10..=35), then `a-z` (36..=61), then `@`, `$`, `%`.
pub fn digit_char(_shape: Shape, v: u8) -> char {
    const ALPHABET: &[u8; 65] =
        b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%";
    ALPHABET[v as usize] as char
}

/// Render values (0 = empty) as one line of characters.
pub fn line_of(shape: Shape, cells: &[u8]) -> String {
    cells.iter().map(|&v| digit_char(shape, v)).collect()
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({} {})", self.shape, self.to_line())
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Puzzle {
        let cells = s
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        Puzzle::new(Shape::for_cell_count(s.len()).unwrap(), cells).unwrap()
    }

    #[test]
    fn finds_row_column_and_box_clashes() {
        let row = p("1..1............");
        let c = row.conflict().unwrap();
        assert_eq!(
            (c.house.as_str(), c.first.as_str(), c.second.as_str()),
            ("row 1", "r1c1", "r1c4")
        );
        let col = p("1.......1.......");
        assert_eq!(col.conflict().unwrap().house, "column 1");
        let bx = p("1....1..........");
        let c = bx.conflict().unwrap();
        assert_eq!((c.house.as_str(), c.second.as_str()), ("box 1", "r2c2"));
        assert!(p("1234341221434321").conflict().is_none());
    }

    #[test]
    fn solution_check() {
        let puzzle = p("1...............");
        assert!(puzzle.is_solution(&p("1234341221434321").cells));
        assert!(!puzzle.is_solution(&p("2134341221434321").cells));
        assert!(!puzzle.is_solution(&p("1234341221434312").cells));
    }

    #[test]
    fn rejects_bad_values() {
        assert!(Puzzle::new(Shape::new(2, 2).unwrap(), vec![5; 16]).is_err());
        assert!(Puzzle::new(Shape::new(2, 2).unwrap(), vec![0; 15]).is_err());
    }
}
