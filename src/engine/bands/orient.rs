//! Turning a puzzle for counting by bands: the band the search fills first should be the one
//! with the fewest fillings, and its bands should be low (cheap arrangements).

use crate::puzzle::Puzzle;
use crate::shape::Shape;

/// How a puzzle was turned for counting by bands: transposed or not, then its bands reordered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orientation {
    /// Rows and columns swapped first (boxes `R×C` become `C×R`).
    pub transpose: bool,
    /// New band `k` is band `order[k]` (of the transposed grid when `transpose`).
    pub order: Vec<usize>,
}

impl Orientation {
    /// The turned puzzle.
    pub(crate) fn apply(&self, p: &Puzzle) -> Puzzle {
        let shape = p.shape();
        let n = shape.side();
        let (shape, cells) = if self.transpose {
            let s = Shape::new(shape.box_cols(), shape.box_rows()).expect("same side");
            let mut t = vec![0u8; n * n];
            for r in 0..n {
                for c in 0..n {
                    t[c * n + r] = p.cells()[r * n + c];
                }
            }
            (s, t)
        } else {
            (shape, p.cells().to_vec())
        };
        let rows = shape.box_rows();
        let mut out = vec![0u8; n * n];
        for (k, &b) in self.order.iter().enumerate() {
            let (from, to) = (b * rows * n, k * rows * n);
            out[to..to + rows * n].copy_from_slice(&cells[from..from + rows * n]);
        }
        Puzzle::new(shape, out).expect("same values")
    }
}

/// Whether the arrangements of a band `rows` high and `n` wide count quickly enough for
/// counting by bands ([`super::arrange`]; measured per band without givens): two rows are
/// cycles, three rows of at most 16 columns take 1–30 µs, four rows of 8 columns about 1 ms;
/// but four rows of 12 columns take 0.2 s and of 16 columns 10 s (every arrangement of the
/// first rows is enumerated), too slow to count by, and to interrupt.
pub(crate) fn quick_bands(rows: usize, n: usize) -> bool {
    rows <= 2 || (rows == 3 && n <= 16) || (rows == 4 && n <= 8)
}

/// The orientations worth trying for counting `p` by bands: both ways round (where the bands'
/// arrangements count quickly: [`quick_bands`]), each band first, the others after it in
/// order.
pub(crate) fn orientations(p: &Puzzle) -> Vec<Orientation> {
    let shape = p.shape();
    let n = shape.side();
    let mut out = Vec::new();
    for transpose in [false, true] {
        let rows = if transpose {
            shape.box_cols()
        } else {
            shape.box_rows()
        };
        if !quick_bands(rows, n) || n / rows < 2 {
            continue;
        }
        for first in 0..n / rows {
            let mut order: Vec<usize> = (0..n / rows).filter(|&b| b != first).collect();
            order.insert(0, first);
            out.push(Orientation { transpose, order });
        }
    }
    out
}

/// Estimated cost (microseconds, roughly) of counting by bands from `root` under `plan`: a
/// Knuth estimate over `probes` random dives of the first band's search tree, where a node
/// costs its expansion and a leaf (a boundary) the tail's setup and combinations, shared by
/// the leaves with the same column sets (the tail remembers them).
pub(crate) fn cost<E: crate::engine::Engine>(
    root: &E,
    plan: &super::Plan,
    probes: usize,
    seed: u64,
) -> f64 {
    use crate::engine::Expansion;
    const NODE: f64 = 0.4;
    const TAIL: f64 = 4.0;
    const COMBO: f64 = 0.3;
    let mut rng = crate::rng::SplitMix64::new(seed);
    let n = plan.n;
    let mut total = 0.0;
    let mut kids = Vec::new();
    let mut list = Vec::new();
    for _ in 0..probes {
        let mut state = root.clone();
        let mut w = 1.0;
        loop {
            total += w * NODE;
            kids.clear();
            match state.expand_bands(&mut kids, plan.rows) {
                None => {
                    let values = state.values();
                    let mut s0 = [0u64; 64];
                    for (cell, &v) in values[..plan.rows * n].iter().enumerate() {
                        s0[cell % n] |= 1 << (v - 1);
                    }
                    let full = if n == 64 { u64::MAX } else { (1 << n) - 1 };
                    let mut rem = [0u64; 64];
                    for c in 0..n {
                        rem[c] = full & !s0[c];
                    }
                    let mult = plan.arrangements(0, &s0[..n]).max(1) as f64;
                    let mut combos = 1.0;
                    if plan.bands > 1 {
                        for s in 0..plan.rows {
                            list.clear();
                            plan.stack_choices(1.min(plan.bands - 1), s, &rem[..n], &mut list);
                            combos *= (list.len() / plan.stride()) as f64;
                        }
                    }
                    total += w * (TAIL + COMBO * combos) / mult;
                    break;
                }
                Some(Expansion::Solved) => break,
                Some(Expansion::Branched { .. }) => {
                    if kids.is_empty() {
                        break;
                    }
                    w *= kids.len() as f64;
                    let i = (rng.next_u64() % kids.len() as u64) as usize;
                    state = kids.swap_remove(i);
                }
            }
        }
    }
    total / probes as f64
}
