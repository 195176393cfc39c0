//! Puzzle values: a [`Shape`] plus its givens, and the checks on them.

use crate::rules::Rules;
use crate::shape::Shape;
use std::fmt;
use std::sync::Arc;

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

impl Conflict {
    /// The same clash with its digit written in `alphabet` (as the boards of a puzzle read in
    /// it are: `K`, not `B`, for the eleventh letter), or as a number where the alphabet has
    /// no character for it. `value` is the clashing given's value (1..=N).
    pub fn written_in(mut self, value: u8, alphabet: crate::parse::Alphabet) -> Conflict {
        self.digit = alphabet.name(value);
        self
    }
}

/// A puzzle: its shape and one value per cell, 0 for empty, 1..=N for a given; and the variant
/// rules, if any ([`Rules`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    shape: Shape,
    cells: Vec<u8>,
    rules: Option<Arc<Rules>>,
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
    /// Variant rules that do not fit the board ([`Rules::validate`]'s message, which names
    /// the rule).
    #[error("{0}")]
    Rules(String),
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
        // The largest value first (a loop that vectorises); the culprit only on failure.
        let side = shape.side();
        if usize::from(cells.iter().fold(0, |m, &v| m.max(v))) > side {
            let i = cells
                .iter()
                .position(|&v| usize::from(v) > side)
                .unwrap_or(0);
            return Err(PuzzleError::OutOfRange {
                value: cells[i],
                cell: shape.cell_name(i),
                side,
            });
        }
        Ok(Puzzle {
            shape,
            cells,
            rules: None,
        })
    }

    /// A puzzle from values the caller has already checked (N² of them, none above N): the
    /// parser's fast path, which checks them as it converts them.
    pub(crate) fn from_checked(shape: Shape, cells: Vec<u8>) -> Puzzle {
        debug_assert_eq!(cells.len(), shape.cells());
        debug_assert!(cells.iter().all(|&v| usize::from(v) <= shape.side()));
        Puzzle {
            shape,
            cells,
            rules: None,
        }
    }

    /// The empty puzzle of a shape.
    pub fn empty(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            cells: vec![0; shape.cells()],
            rules: None,
        }
    }

    /// This puzzle with variant rules (none when `rules` is empty), once they are checked
    /// against its shape ([`Rules::validate`]: cells on the board, regions of N cells,
    /// neighbours where a rule wants them, digits in range).
    ///
    /// ```
    /// use sudoku_enum::rules::{Rule, Rules};
    /// use sudoku_enum::{Puzzle, Shape};
    /// let mut rules = Rules::new();
    /// rules.push(Rule::Cage { cells: vec![0, 1, 200], sum: Some(5) });
    /// let four = Puzzle::empty(Shape::new(2, 2).unwrap());
    /// assert!(four.with_rules(rules).is_err()); // cell 200 is not on a 4x4 board
    /// ```
    pub fn with_rules(self, rules: Rules) -> Result<Puzzle, PuzzleError> {
        rules.validate(self.shape).map_err(PuzzleError::Rules)?;
        Ok(self.with_checked_rules(rules))
    }

    /// [`Puzzle::with_rules`] for rules already checked against the shape (the parsers').
    pub(crate) fn with_checked_rules(mut self, rules: Rules) -> Puzzle {
        debug_assert!(rules.validate(self.shape).is_ok());
        self.rules = (!rules.is_empty()).then(|| Arc::new(rules));
        self
    }

    /// This puzzle's shape and rules with other givens (N² values, none above N: an engine's
    /// values).
    pub(crate) fn with_values(&self, cells: Vec<u8>) -> Puzzle {
        Puzzle {
            rules: self.rules.clone(),
            ..Puzzle::from_checked(self.shape, cells)
        }
    }

    /// The variant rules, if any.
    #[inline]
    pub fn rules(&self) -> Option<&Rules> {
        self.rules.as_deref()
    }

    /// True when only the classic rules constrain the puzzle: no variant rules, or none but
    /// values from 0 (a relabelling, which the engines need not know of).
    #[inline]
    pub fn is_classic(&self) -> bool {
        self.rules.as_deref().is_none_or(Rules::is_classic)
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

    /// True when two givens share a digit in some house. One pass with bit masks and no
    /// allocation: this runs for every puzzle of a batch.
    pub fn has_conflict(&self) -> bool {
        let shape = self.shape;
        if self.rules.is_some() {
            self.conflict().is_some()
        } else if shape == Shape::NINE {
            nine_clash(&self.cells)
        } else {
            givens_clash(&self.cells, shape.box_rows(), shape.box_cols())
        }
    }

    /// The first pair of clashing givens, scanning rows, then columns, then boxes.
    pub fn conflict(&self) -> Option<Conflict> {
        let shape = self.shape;
        let houses: Vec<(String, Vec<usize>)> = match &self.rules {
            Some(rules) => rules.conflict_groups(shape),
            None if !self.has_conflict() => return None,
            None => shape
                .houses()
                .into_iter()
                .enumerate()
                .map(|(h, cells)| (shape.house_name(h), cells))
                .collect(),
        };
        for (name, house) in &houses {
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
                        house: name.clone(),
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

    /// True when every cell is filled, no house repeats a digit and every rule holds.
    pub fn is_solved_grid(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
            && match &self.rules {
                Some(rules) => rules.check(self.shape, &self.cells),
                None => self.conflict().is_none(),
            }
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
                .map(|p| Puzzle {
                    rules: self.rules.clone(),
                    ..p
                })
                .map(|p| p.is_solved_grid())
                .unwrap_or(false)
    }

    /// The one-line form: `.` for empty, digits `1-9` then letters `A-Z` (then `a-z`, then
    /// symbols) for larger boards.
    pub fn to_line(&self) -> String {
        line_of(self.shape, &self.cells)
    }

    /// A solution (or any grid of this puzzle's shape) on one line, in the puzzle's values:
    /// [`line_of`]'s characters, or `0`-`9` then `A`-`Z` where the values start at 0 (a
    /// zero-based board, see [`Rules::zero_based`]).
    pub fn solution_line(&self, grid: &[u8]) -> String {
        if self.rules().is_some_and(Rules::zero_based) {
            crate::parse::Alphabet::Hex.line(grid)
        } else {
            line_of(self.shape, grid)
        }
    }

    /// The text that reads back as this puzzle: [`to_line`](Puzzle::to_line) for a classic
    /// puzzle, the ISS constraint string (rules and givens) for a variant of side 16 or less
    /// ([`Rules::to_constraint_string`]).
    pub fn to_text(&self) -> String {
        self.rules
            .as_ref()
            .and_then(|r| r.to_constraint_string(self.shape, &self.cells))
            .unwrap_or_else(|| self.to_line())
    }
}

/// Do two givens of a board with `box_rows`×`box_cols` boxes share a digit in a house? Every
/// cell takes the same branch-free steps (an empty cell's bit is 0), which suits sparse
/// puzzles better than skipping empty cells.
fn givens_clash(cells: &[u8], box_rows: usize, box_cols: usize) -> bool {
    let n = box_rows * box_cols;
    let mut cols = [0u64; crate::shape::MAX_SIDE];
    let mut boxes = [0u64; crate::shape::MAX_SIDE];
    let mut clash = 0u64;
    for (r, row) in cells.chunks_exact(n).enumerate() {
        let band = r / box_rows * box_rows;
        let mut seen_in_row = 0u64;
        for (c, &v) in row.iter().enumerate() {
            let bit = u64::from(v != 0) << v.saturating_sub(1);
            let b = band + c / box_cols;
            clash |= (seen_in_row | cols[c] | boxes[b]) & bit;
            seen_in_row |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    clash != 0
}

/// [`givens_clash`] for 9×9 boards, from sums: a house repeats no digit exactly when the sum of
/// its givens' digit bits equals their OR (two equal bits carry). Adds and ORs in a fixed
/// pattern, with no index that depends on the data, take about half the time of the general
/// walk, and a batch of 9×9 puzzles runs this once per puzzle.
fn nine_clash(cells: &[u8]) -> bool {
    let (mut col_or, mut col_sum) = ([0u16; 9], [0u16; 9]);
    let (mut box_or, mut box_sum) = ([0u16; 3], [0u16; 3]);
    let mut clash = 0u16;
    for (r, row) in cells.chunks_exact(9).enumerate() {
        // Values are at most 9 (see `Puzzle::new`); an empty cell's bit is 0.
        let bits: [u16; 9] = std::array::from_fn(|c| (1u16 << row[c]) >> 1);
        let (mut row_or, mut row_sum) = (0, 0);
        for ((&bit, or), sum) in bits.iter().zip(&mut col_or).zip(&mut col_sum) {
            row_or |= bit;
            row_sum += bit;
            *or |= bit;
            *sum += bit;
        }
        clash |= row_or ^ row_sum;
        for ((three, or), sum) in bits.chunks_exact(3).zip(&mut box_or).zip(&mut box_sum) {
            *or |= three[0] | three[1] | three[2];
            *sum += three[0] + three[1] + three[2];
        }
        if r % 3 == 2 {
            clash |= box_or
                .iter()
                .zip(&box_sum)
                .fold(0, |acc, (or, sum)| acc | (or ^ sum));
            (box_or, box_sum) = ([0; 3], [0; 3]);
        }
    }
    clash |= col_or
        .iter()
        .zip(&col_sum)
        .fold(0, |acc, (or, sum)| acc | (or ^ sum));
    clash != 0
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

    /// Rules built by hand are checked against the board: a cell off it or regions of the
    /// wrong size are an error (they panicked, or read as unsolvable, in a release build).
    #[test]
    fn rules_that_do_not_fit_are_an_error() {
        use crate::rules::Rule;
        let four = Puzzle::empty(Shape::new(2, 2).unwrap());
        let mut off = Rules::new();
        off.push(Rule::Cage {
            cells: vec![0, 1, 200],
            sum: Some(5),
        });
        let e = four.clone().with_rules(off).unwrap_err();
        assert!(matches!(e, PuzzleError::Rules(_)), "{e}");
        let mut one_region = Rules::new();
        one_region.set_regions(vec![0; 16]);
        let e = four.clone().with_rules(one_region).unwrap_err();
        assert_eq!(
            e.to_string(),
            "irregular regions: region 1 has 16 cells, expected 4"
        );
        let mut anti_king = Rules::new();
        anti_king.push(Rule::AntiKing);
        assert!(four.with_rules(anti_king).unwrap().rules().is_some());
    }

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

    /// Any two givens with one digit in one row, column or box (by the definition).
    fn clashes(p: &Puzzle) -> bool {
        let s = p.shape();
        let given: Vec<usize> = (0..s.cells()).filter(|&c| p.cells()[c] != 0).collect();
        given.iter().enumerate().any(|(i, &a)| {
            given[i + 1..].iter().any(|&b| {
                p.cells()[a] == p.cells()[b]
                    && (s.row(a) == s.row(b) || s.col(a) == s.col(b) || s.box_of(a) == s.box_of(b))
            })
        })
    }

    #[test]
    fn has_conflict_agrees_with_the_definition_on_every_box_shape() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for (r, c) in [
            (1, 1),
            (1, 4),
            (4, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 5),
            (8, 8),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.side();
            for givens in [0, 1, n / 2 + 1, n, 3 * n] {
                for _ in 0..50 {
                    let mut p = Puzzle::empty(shape);
                    for _ in 0..givens {
                        p.set(next(shape.cells()), 1 + next(n) as u8);
                    }
                    assert_eq!(p.has_conflict(), clashes(&p), "{shape}: {p:?}");
                    assert_eq!(p.conflict().is_some(), clashes(&p), "{shape}: {p:?}");
                }
            }
        }
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
