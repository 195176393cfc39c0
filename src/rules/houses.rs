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
    /// The two houses (of the compiled houses).
    houses: [u16; 2],
    /// The first house's cells outside the second (`cells[..split]`), then the second's
    /// outside the first.
    cells: Vec<u16>,
    split: usize,
}

impl Intersection {
    /// Every pair of the houses (each of N cells) that share 2 to N-2 cells.
    pub(super) fn all(houses: &[Vec<u16>]) -> Vec<Intersection> {
        let mut out = Vec::new();
        for (i, h) in houses.iter().enumerate() {
            for (j, g) in houses.iter().enumerate().skip(i + 1) {
                let shared = h.iter().filter(|c| g.contains(c)).count();
                if shared >= 2 && shared + 2 <= h.len() {
                    let a = h.iter().copied().filter(|c| !g.contains(c));
                    let b = g.iter().copied().filter(|c| !h.contains(c));
                    let cells: Vec<u16> = a.chain(b).collect();
                    out.push(Intersection {
                        houses: [i as u16, j as u16],
                        split: h.len() - shared,
                        cells,
                    });
                }
            }
        }
        out
    }

    /// The cells of both sides.
    pub(super) fn cells(&self) -> Vec<u16> {
        self.cells.clone()
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        // Each side's digits: its open cells' candidates and its house's placed digits (those
        // of the shared cells too: no cell of either house can take those, so they change
        // neither the comparison nor what a side keeps).
        let placed = self.houses.map(|h| m.placed(usize::from(h)));
        let [ua, ub] = match <&[u16; 12]>::try_from(&self.cells[..]) {
            // Six cells a side (on a 9×9, a box or a window and a line, a diagonal and a box):
            // both sides in one unrolled pass. "I want to break free" 9% fewer instructions in
            // all. Other sizes matched beside it (6×6, 16×16) cost the 9×9 what it saved.
            Ok(cells) if self.split == 6 => {
                let [mut ua, mut ub] = placed;
                for i in 0..6 {
                    ua |= m.open(usize::from(cells[i]));
                    ub |= m.open(usize::from(cells[i + 6]));
                }
                [ua, ub]
            }
            _ => {
                let (a, b) = self.cells.split_at(self.split);
                [union(a, placed[0], m), union(b, placed[1], m)]
            }
        };
        if ua == ub {
            return Ok(false);
        }
        let (a, b) = self.cells.split_at(self.split);
        // Only the side with digits the other lacks loses any.
        let mut changed = false;
        if ua & !ub != 0 {
            for &c in a {
                changed |= m.restrict(c.into(), ub)?;
            }
        }
        if ub & !ua != 0 {
            for &c in b {
                changed |= m.restrict(c.into(), ua)?;
            }
        }
        Ok(changed)
    }
}

/// The digits of `cells` (their open cells' candidates) and `placed` (their house's placed
/// digits).
#[inline(always)]
fn union<M: Masks>(cells: &[u16], placed: u64, m: &M) -> u64 {
    cells
        .iter()
        .fold(placed, |u, &c| u | m.open(usize::from(c)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::sums::tests::Grid;
    use crate::rules::tests::Rng;
    use crate::rules::{compile, Rule, Rules};

    /// A board as the engine keeps it: open cells' candidates, placed cells' digits (their
    /// digit gone from every peer), read by `open` and `placed` as the engine's view reads it.
    #[derive(Clone, Debug)]
    struct Board {
        cand: Vec<u64>,
        value: Vec<u8>,
        houses: Vec<Vec<u16>>,
    }

    impl Masks for Board {
        fn mask(&self, cell: usize) -> u64 {
            match self.value[cell] {
                0 => self.cand[cell],
                v => 1 << (v - 1),
            }
        }
        fn open(&self, cell: usize) -> u64 {
            self.cand[cell]
        }
        fn placed(&self, h: usize) -> u64 {
            self.houses[h]
                .iter()
                .filter(|&&c| self.value[usize::from(c)] != 0)
                .fold(0, |u, &c| u | 1 << (self.value[usize::from(c)] - 1))
        }
        fn restrict(&mut self, cell: usize, allowed: u64) -> Result<bool, Contradiction> {
            if self.value[cell] != 0 {
                return match allowed >> (self.value[cell] - 1) & 1 {
                    1 => Ok(false),
                    _ => Err(Contradiction),
                };
            }
            let kept = self.cand[cell] & allowed;
            if kept == 0 {
                return Err(Contradiction);
            }
            let changed = kept != self.cand[cell];
            self.cand[cell] = kept;
            Ok(changed)
        }
    }

    /// Reading a side by its open cells and its house's placed digits gives what reading
    /// every cell's mask gives, and both what locked candidates are by definition: the same
    /// verdict and the same candidates kept, on random states of a 9×9 with a diagonal and
    /// windoku windows (intersections of every kind).
    #[test]
    fn intersections_read_by_placed_digits_as_by_masks() {
        let mut rules = Rules::new();
        rules.push(Rule::Diagonal(super::super::Diagonal::Main));
        rules.push(Rule::Windoku);
        let houses = compile(Shape::NINE, &rules).houses;
        let all = Intersection::all(&houses);
        assert!(all.len() > 54, "{} intersections", all.len());
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut next = |below: usize| rng.next(below);
        let (mut runs, mut changed, mut failed, mut with_placed) = (0, 0, 0, 0);
        for _ in 0..300 {
            let mut board = Board {
                cand: vec![0x1FF; 81],
                value: vec![0; 81],
                houses: houses.clone(),
            };
            // Place digits at random (each leaving its peers), then take candidates away.
            'place: for _ in 0..next(40) {
                let cell = next(81);
                let c = board.cand[cell];
                if board.value[cell] != 0 || c == 0 {
                    continue;
                }
                let d = (0..9)
                    .filter(|d| c >> d & 1 == 1)
                    .nth(next(c.count_ones() as usize));
                let Some(d) = d else { continue };
                board.value[cell] = d as u8 + 1;
                board.cand[cell] = 0;
                for h in houses.iter().filter(|h| h.contains(&(cell as u16))) {
                    for &p in h {
                        let p = usize::from(p);
                        board.cand[p] &= !(1 << d);
                        if board.value[p] == 0 && board.cand[p] == 0 {
                            break 'place;
                        }
                    }
                }
            }
            for _ in 0..next(120) {
                let cell = next(81);
                let without = board.cand[cell] & !(1 << next(9));
                if board.value[cell] == 0 && without != 0 {
                    board.cand[cell] = without;
                }
            }
            if board
                .cand
                .iter()
                .zip(&board.value)
                .any(|(&c, &v)| c == 0 && v == 0)
            {
                continue;
            }
            for x in &all {
                // The same board read by `mask` alone: a placed cell as its digit's bit.
                let (mut by_placed, mut by_mask) = (
                    board.clone(),
                    Grid((0..81).map(|c| board.mask(c)).collect()),
                );
                let (a, b) = (x.run(&mut by_placed), x.run(&mut by_mask));
                // The two readings differ by the digits placed in the shared cells.
                let [h, g] = x.houses.map(usize::from);
                let placed = houses[h]
                    .iter()
                    .any(|c| houses[g].contains(c) && board.value[usize::from(*c)] != 0);
                runs += 1;
                with_placed += usize::from(placed);
                // Locked candidates by their definition: a side keeps the digits the other
                // side's cells can hold.
                let mut plain: Vec<u64> = (0..81).map(|c| board.mask(c)).collect();
                let (sa, sb) = x.cells.split_at(x.split);
                let union =
                    |side: &[u16], g: &[u64]| side.iter().fold(0, |u, &c| u | g[usize::from(c)]);
                let (ua, ub) = (union(sa, &plain), union(sb, &plain));
                for (side, keep) in [(sa, ub), (sb, ua)] {
                    for &c in side {
                        plain[usize::from(c)] &= keep;
                    }
                }
                let dead = plain.contains(&0);
                match (a, b) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b);
                        let read: Vec<u64> = (0..81).map(|c| by_placed.mask(c)).collect();
                        assert_eq!(read, by_mask.0);
                        assert!(!dead);
                        assert_eq!(read, plain, "{x:?}");
                        changed += usize::from(a);
                    }
                    (Err(_), Err(_)) => {
                        assert!(dead, "{x:?}");
                        failed += 1;
                    }
                    (a, b) => panic!("by placed digits {a:?}, by masks {b:?}"),
                }
            }
        }
        assert!(
            runs > 20_000 && with_placed > 5_000,
            "{runs} runs, {with_placed}"
        );
        assert!(
            changed > 2_000 && failed > 500,
            "{changed} changed, {failed} failed"
        );
    }

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
