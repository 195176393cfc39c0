//! Board geometry: an N×N grid whose boxes are R rows by C columns (N = R·C ≤ 64).

use std::fmt;
use std::str::FromStr;

/// The largest side length supported: candidates are kept in `u64` bit masks.
pub const MAX_SIDE: usize = 64;

/// The digits of a board of side `n` (at most [`MAX_SIDE`]), as bits: bit `d - 1` for digit `d`.
pub(crate) fn all_digits(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Errors building or naming a [`Shape`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A box dimension was zero or the side would exceed [`MAX_SIDE`].
    #[error("box {rows}x{cols} {}; sides from 1 to {max} are supported", gives(*side), max = MAX_SIDE)]
    OutOfRange {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
        /// The side N = rows·cols (`usize::MAX` where that overflows).
        side: usize,
    },
    /// `--box` text that is not `RxC`.
    #[error("cannot read box shape {0:?}: expected RxC, e.g. 3x3 or 2x3")]
    Syntax(String),
    /// A cell count that is not a square, or whose side has no box shape to infer.
    #[error("{cells} cells is not a board size: expected N*N cells with N = R*C (16, 36, 81, 144, 256, ...)")]
    NotSquare {
        /// Number of cells seen.
        cells: usize,
    },
    /// A prime side (other than a 1×N Latin square) has no box shape to infer.
    #[error("side {side} has no box shape to infer (prime); give one with --box 1x{side}")]
    NoBoxShape {
        /// The side N.
        side: usize,
    },
}

/// An N×N board with R×C boxes. Cheap to copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// `gives side N`, or where N overflowed (`usize::MAX`, see [`Shape::new`]) `is too large`.
fn gives(side: usize) -> String {
    if side == usize::MAX {
        "is too large".to_string()
    } else {
        format!("gives side {side}")
    }
}

impl Shape {
    /// The classic 9×9 board with 3×3 boxes.
    pub const NINE: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// A board whose boxes are `box_rows` rows by `box_cols` columns.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        let side = box_rows.saturating_mul(box_cols);
        if box_rows == 0 || box_cols == 0 || side > MAX_SIDE {
            return Err(ShapeError::OutOfRange {
                rows: box_rows,
                cols: box_cols,
                side,
            });
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The usual box shape for a side N: R×C with R ≤ C and R as large as possible
    /// (4→2×2, 6→2×3, 8→2×4, 9→3×3, 12→3×4, 16→4×4, 25→5×5).
    pub fn for_side(side: usize) -> Result<Shape, ShapeError> {
        if side == 0 || side > MAX_SIDE {
            return Err(ShapeError::OutOfRange {
                rows: 0,
                cols: 0,
                side,
            });
        }
        if side == 1 {
            return Shape::new(1, 1);
        }
        let mut r = (side as f64).sqrt() as usize + 1;
        while r > 1 && (r * r > side || side % r != 0) {
            r -= 1;
        }
        if r == 1 {
            return Err(ShapeError::NoBoxShape { side });
        }
        Shape::new(r, side / r)
    }

    /// The shape for a puzzle of `cells` cells (16→2×2, 36→2×3, 81→3×3, 256→4×4, 625→5×5).
    pub fn for_cell_count(cells: usize) -> Result<Shape, ShapeError> {
        let side = (cells as f64).sqrt().round() as usize;
        if side * side != cells || side == 0 {
            return Err(ShapeError::NotSquare { cells });
        }
        if side > MAX_SIDE {
            return Err(ShapeError::NotSquare { cells });
        }
        Shape::for_side(side)
    }

    /// Rows of one box.
    #[inline]
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns of one box.
    #[inline]
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The side N = R·C: digits run 1..=N.
    #[inline]
    pub fn side(self) -> usize {
        self.box_rows as usize * self.box_cols as usize
    }

    /// Number of cells, N².
    #[inline]
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// Row of a cell index.
    #[inline]
    pub fn row(self, cell: usize) -> usize {
        cell / self.side()
    }

    /// Column of a cell index.
    #[inline]
    pub fn col(self, cell: usize) -> usize {
        cell % self.side()
    }

    /// Box index (row-major over boxes) of a cell.
    #[inline]
    pub fn box_of(self, cell: usize) -> usize {
        let (r, c) = (self.row(cell), self.col(cell));
        let boxes_per_row = self.side() / self.box_cols();
        (r / self.box_rows()) * boxes_per_row + c / self.box_cols()
    }

    /// The 3N houses (rows, then columns, then boxes), each a list of N cell indices.
    pub fn houses(self) -> Vec<Vec<usize>> {
        let n = self.side();
        let mut houses = Vec::with_capacity(3 * n);
        for r in 0..n {
            houses.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            houses.push((0..n).map(|r| r * n + c).collect());
        }
        let mut boxes = vec![Vec::with_capacity(n); n];
        for cell in 0..self.cells() {
            boxes[self.box_of(cell)].push(cell);
        }
        houses.extend(boxes);
        houses
    }

    /// Name of house `h` as returned by [`Shape::houses`] ("row 3", "column 5", "box 2"), 1-based.
    pub fn house_name(self, h: usize) -> String {
        let n = self.side();
        match h / n {
            0 => format!("row {}", h % n + 1),
            1 => format!("column {}", h % n + 1),
            _ => format!("box {}", h % n + 1),
        }
    }

    /// Human name of a cell, 1-based: `r3c5`.
    pub fn cell_name(self, cell: usize) -> String {
        format!("r{}c{}", self.row(cell) + 1, self.col(cell) + 1)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let (a, b) = s
            .split_once(['x', 'X', '*', '×'])
            .ok_or_else(|| ShapeError::Syntax(s.to_string()))?;
        let r = a
            .trim()
            .parse::<usize>()
            .map_err(|_| ShapeError::Syntax(s.to_string()))?;
        let c = b
            .trim()
            .parse::<usize>()
            .map_err(|_| ShapeError::Syntax(s.to_string()))?;
        Shape::new(r, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inferred_shapes() {
        let cases = [
            (16, (2, 2)),
            (36, (2, 3)),
            (64, (2, 4)),
            (81, (3, 3)),
            (144, (3, 4)),
            (256, (4, 4)),
            (625, (5, 5)),
            (4096, (8, 8)),
        ];
        for (cells, (r, c)) in cases {
            let s = Shape::for_cell_count(cells).unwrap();
            assert_eq!((s.box_rows(), s.box_cols()), (r, c), "{cells}");
        }
        assert!(Shape::for_cell_count(80).is_err());
        assert!(matches!(
            Shape::for_cell_count(49),
            Err(ShapeError::NoBoxShape { side: 7 })
        ));
        assert!(Shape::for_cell_count(65 * 65).is_err());
    }

    #[test]
    fn parse_box() {
        assert_eq!(
            "9x9".parse::<Shape>().unwrap_err().to_string(),
            "box 9x9 gives side 81; sides from 1 to 64 are supported"
        );
        assert_eq!(
            "4294967296x4294967296"
                .parse::<Shape>()
                .unwrap_err()
                .to_string(),
            "box 4294967296x4294967296 is too large; sides from 1 to 64 are supported"
        );
        assert_eq!("2x3".parse::<Shape>().unwrap(), Shape::new(2, 3).unwrap());
        assert!("2x".parse::<Shape>().is_err());
        assert!("0x3".parse::<Shape>().is_err());
        assert!("9x9".parse::<Shape>().is_err());
    }

    #[test]
    fn boxes_partition_the_grid() {
        for (r, c) in [(2, 3), (3, 2), (3, 3), (2, 4), (1, 5)] {
            let s = Shape::new(r, c).unwrap();
            let houses = s.houses();
            assert_eq!(houses.len(), 3 * s.side());
            let mut seen = vec![0; s.cells()];
            for h in &houses[2 * s.side()..] {
                assert_eq!(h.len(), s.side());
                for &cell in h {
                    seen[cell] += 1;
                }
            }
            assert!(seen.iter().all(|&k| k == 1));
        }
    }
}
