//! Geometry of the extra houses and of the chess and neighbour rules: diagonals, windoku
//! windows, disjoint groups, knight's and king's moves, orthogonal neighbours.

use super::{Contradiction, Diagonal, Masks};
use crate::shape::Shape;

/// The cells of a diagonal, top row first.
pub(crate) fn diagonal(shape: Shape, d: Diagonal) -> Vec<usize> {
    let n = shape.side();
    (0..n)
        .map(|r| match d {
            Diagonal::Main => r * n + r,
            Diagonal::Anti => r * n + (n - 1 - r),
        })
        .collect()
}

/// The windoku windows: boxes of the board's box shape, starting one cell in from the top
/// left and one cell apart, as far as they fit (four on 9×9).
pub(crate) fn windows(shape: Shape) -> Vec<Vec<usize>> {
    let (n, h, w) = (shape.side(), shape.box_rows(), shape.box_cols());
    let mut out = Vec::new();
    let mut col = 1;
    while col + w < n {
        let mut row = 1;
        while row + h < n {
            let cells = (0..h)
                .flat_map(|dr| (0..w).map(move |dc| (row + dr) * n + col + dc))
                .collect();
            out.push(cells);
            row += h + 1;
        }
        col += w + 1;
    }
    out
}

/// The disjoint groups: for each place in a box, the cells at that place in every box.
pub(crate) fn disjoint_groups(shape: Shape) -> Vec<Vec<usize>> {
    let (n, h, w) = (shape.side(), shape.box_rows(), shape.box_cols());
    (0..n)
        .map(|place| {
            let (pr, pc) = (place / w, place % w);
            (0..n)
                .map(|b| {
                    let (br, bc) = (b / (n / w), b % (n / w));
                    (br * h + pr) * n + bc * w + pc
                })
                .collect()
        })
        .collect()
}

/// The pairs of cells a knight's move apart (`knight`) or a king's move apart, each once.
pub(crate) fn chess_pairs(shape: Shape, knight: bool) -> Vec<(usize, usize)> {
    let n = shape.side() as isize;
    let moves: &[(isize, isize)] = if knight {
        &[(1, 2), (2, 1), (1, -2), (2, -1)]
    } else {
        &[(1, 1), (1, -1), (0, 1), (1, 0)]
    };
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            for &(dr, dc) in moves {
                let (r2, c2) = (r + dr, c + dc);
                if (0..n).contains(&r2) && (0..n).contains(&c2) {
                    out.push(((r * n + c) as usize, (r2 * n + c2) as usize));
                }
            }
        }
    }
    out
}

/// Orthogonal neighbours, each pair once, the smaller cell first.
pub(crate) fn orthogonal_pairs(shape: Shape) -> Vec<(usize, usize)> {
    let n = shape.side();
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let cell = r * n + c;
            if c + 1 < n {
                out.push((cell, cell + 1));
            }
            if r + 1 < n {
                out.push((cell, cell + n));
            }
        }
    }
    out
}

/// Are `a` and `b` orthogonal neighbours?
pub(crate) fn orthogonal(shape: Shape, a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (shape.row(a), shape.col(a), shape.row(b), shape.col(b));
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// Two houses that share two or more cells (a box and a row, a diagonal and a box): the cells
/// of each outside the other hold the same digits, those the shared cells leave. Each such cell
/// keeps only the digits the other side can still hold: locked candidates (pointing and
/// claiming) as one rule.
#[derive(Debug)]
pub(super) struct Intersection {
    /// The first house's cells outside the second.
    a: Vec<u16>,
    /// The second house's cells outside the first.
    b: Vec<u16>,
}

impl Intersection {
    /// Every pair of the houses (each of N cells) that share 2 to N-2 cells.
    pub(super) fn all(houses: &[Vec<u16>]) -> Vec<Intersection> {
        let mut out = Vec::new();
        for (i, h) in houses.iter().enumerate() {
            for g in &houses[i + 1..] {
                let shared = h.iter().filter(|c| g.contains(c)).count();
                if shared >= 2 && shared + 2 <= h.len() {
                    out.push(Intersection {
                        a: h.iter().copied().filter(|c| !g.contains(c)).collect(),
                        b: g.iter().copied().filter(|c| !h.contains(c)).collect(),
                    });
                }
            }
        }
        out
    }

    /// The cells of both sides.
    pub(super) fn cells(&self) -> Vec<u16> {
        self.a.iter().chain(&self.b).copied().collect()
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        let union = |cells: &[u16], m: &M| cells.iter().fold(0u64, |u, &c| u | m.mask(c.into()));
        let (ua, ub) = (union(&self.a, m), union(&self.b, m));
        if ua == ub {
            return Ok(false);
        }
        // Only the side with digits the other lacks loses any.
        let mut changed = false;
        if ua & !ub != 0 {
            for &c in &self.a {
                changed |= m.restrict(c.into(), ub)?;
            }
        }
        if ub & !ua != 0 {
            for &c in &self.b {
                changed |= m.restrict(c.into(), ua)?;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windoku_on_9x9_and_6x6() {
        let w = windows(Shape::NINE);
        assert_eq!(w.len(), 4);
        assert_eq!(w[0], vec![10, 11, 12, 19, 20, 21, 28, 29, 30]);
        let six = windows(Shape::new(2, 3).unwrap());
        assert_eq!(six, vec![vec![7, 8, 9, 13, 14, 15]]);
    }

    #[test]
    fn disjoint_groups_take_one_cell_per_box() {
        let s = Shape::new(2, 3).unwrap();
        for g in disjoint_groups(s) {
            let mut boxes: Vec<usize> = g.iter().map(|&c| s.box_of(c)).collect();
            boxes.sort_unstable();
            assert_eq!(boxes, (0..6).collect::<Vec<_>>());
        }
        assert_eq!(
            disjoint_groups(Shape::NINE)[0],
            vec![0, 3, 6, 27, 30, 33, 54, 57, 60]
        );
    }

    #[test]
    fn move_counts() {
        // 9x9: 2*(8*7)*2 = 224 knight pairs; king: 2*8*8 diagonal + 2*9*8 orthogonal.
        assert_eq!(chess_pairs(Shape::NINE, true).len(), 224);
        assert_eq!(chess_pairs(Shape::NINE, false).len(), 128 + 144);
        assert_eq!(orthogonal_pairs(Shape::NINE).len(), 144);
    }
}
