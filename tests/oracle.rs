//! A deliberately simple, independent reference solver: plain backtracking in row-major order
//! over the first empty cell, checking row, column and box by scanning (seed 000's textbook
//! algorithm, counting instead of stopping). No propagation, no bit tricks, nothing shared with
//! the library but the `Puzzle` value type.
#![allow(dead_code)]

use sudoku_enum::{Puzzle, Shape};

/// Side, box rows, box cols, and the grid.
pub struct Board {
    n: usize,
    br: usize,
    bc: usize,
    g: Vec<u8>,
}

impl Board {
    /// From a puzzle.
    pub fn new(p: &Puzzle) -> Board {
        let s = p.shape();
        Board {
            n: s.side(),
            br: s.box_rows(),
            bc: s.box_cols(),
            g: p.cells().to_vec(),
        }
    }

    fn ok(&self, i: usize, j: usize, v: u8) -> bool {
        let n = self.n;
        for k in 0..n {
            if self.g[i * n + k] == v || self.g[k * n + j] == v {
                return false;
            }
        }
        let (r0, c0) = (i / self.br * self.br, j / self.bc * self.bc);
        for r in r0..r0 + self.br {
            for c in c0..c0 + self.bc {
                if self.g[r * n + c] == v {
                    return false;
                }
            }
        }
        true
    }

    fn givens_ok(&mut self) -> bool {
        for cell in 0..self.g.len() {
            let v = self.g[cell];
            if v != 0 {
                self.g[cell] = 0;
                let fine = self.ok(cell / self.n, cell % self.n, v);
                self.g[cell] = v;
                if !fine {
                    return false;
                }
            }
        }
        true
    }

    /// Visit solutions in lexicographic order until `f` returns false or `cap` are seen.
    fn walk(&mut self, cap: u64, seen: &mut u64, f: &mut dyn FnMut(&[u8]) -> bool) -> bool {
        let Some(cell) = self.g.iter().position(|&v| v == 0) else {
            *seen += 1;
            return f(&self.g) && *seen < cap;
        };
        let (i, j) = (cell / self.n, cell % self.n);
        for v in 1..=self.n as u8 {
            if self.ok(i, j, v) {
                self.g[cell] = v;
                let go_on = self.walk(cap, seen, f);
                self.g[cell] = 0;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

/// Number of solutions, up to `cap`; `None` when the givens clash.
pub fn count(p: &Puzzle, cap: u64) -> Option<u64> {
    let mut b = Board::new(p);
    if !b.givens_ok() {
        return None;
    }
    let mut seen = 0;
    b.walk(cap, &mut seen, &mut |_| true);
    Some(seen)
}

/// Up to `cap` solutions in lexicographic order (row-major, smallest digit first).
pub fn solutions(p: &Puzzle, cap: u64) -> Vec<Vec<u8>> {
    let mut b = Board::new(p);
    let mut out = Vec::new();
    if !b.givens_ok() {
        return out;
    }
    let mut seen = 0;
    b.walk(cap, &mut seen, &mut |g| {
        out.push(g.to_vec());
        true
    });
    out
}

/// A small deterministic PRNG (xorshift64*), so tests need no extra crates.
pub struct Rng(u64);

impl Rng {
    /// Seeded generator (any seed; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random complete grid: the reference solver's first solution after shuffling the digits
/// and permuting rows within bands and bands (validity-preserving transformations).
pub fn random_grid(shape: Shape, rng: &mut Rng) -> Vec<u8> {
    let n = shape.side();
    let base = solutions(&Puzzle::empty(shape), 1).remove(0);
    let mut perm: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    let br = shape.box_rows();
    let mut rows: Vec<usize> = Vec::new();
    let mut bands: Vec<usize> = (0..n / br).collect();
    for i in (1..bands.len()).rev() {
        bands.swap(i, rng.below(i + 1));
    }
    for b in bands {
        let mut within: Vec<usize> = (0..br).collect();
        for i in (1..br).rev() {
            within.swap(i, rng.below(i + 1));
        }
        rows.extend(within.into_iter().map(|r| b * br + r));
    }
    let mut g = vec![0u8; n * n];
    for (i, &src) in rows.iter().enumerate() {
        for j in 0..n {
            g[i * n + j] = perm[base[src * n + j] as usize - 1];
        }
    }
    g
}

/// A puzzle keeping each cell of a random grid with probability `keep` percent.
pub fn random_puzzle(shape: Shape, keep: usize, rng: &mut Rng) -> Puzzle {
    let g = random_grid(shape, rng);
    let cells = g
        .into_iter()
        .map(|v| if rng.below(100) < keep { v } else { 0 })
        .collect();
    Puzzle::new(shape, cells).expect("valid values")
}

#[test]
fn oracle_knows_small_counts() {
    assert_eq!(
        count(&Puzzle::empty(Shape::new(2, 2).unwrap()), u64::MAX),
        Some(288)
    );
    let mut rng = Rng::new(7);
    for shape in [
        Shape::new(2, 2).unwrap(),
        Shape::new(2, 3).unwrap(),
        Shape::NINE,
    ] {
        let g = random_grid(shape, &mut rng);
        let p = Puzzle::new(shape, g).unwrap();
        assert!(p.is_solved_grid());
    }
}
