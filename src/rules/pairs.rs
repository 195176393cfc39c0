//! Binary relations on pairs of cells: kropki dots, XV, thermometers, whispers, palindromes,
//! anti-consecutive and the negative rules. Every relation on one pair of cells is folded into
//! one table (for each digit of the first cell, the digits the second may hold), and the
//! propagator keeps each cell's candidates to those supported by the other's.

use super::required::Exclusions;
use super::{orthogonal_pairs, Contradiction, Masks, Negative, Rule, Rules};
use crate::shape::Shape;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A relation between the digits of two cells.
type Rel = Box<dyn Fn(u8, u8) -> bool>;

/// The relation a negative rule puts on unmarked neighbours.
pub(super) fn negative_relation(neg: Negative, all: &Rules) -> Rel {
    match neg {
        Negative::Kropki => Box::new(|a, b| a.abs_diff(b) != 1 && a != 2 * b && b != 2 * a),
        Negative::Xv => Box::new(|a, b| a + b != 5 && a + b != 10),
        Negative::Consecutive => Box::new(|a, b| a.abs_diff(b) != 1),
        Negative::Differences => {
            let mut diffs: Vec<u8> = all
                .rules()
                .iter()
                .filter_map(|r| match r {
                    Rule::WhiteDot { diff, .. } => Some(*diff),
                    _ => None,
                })
                .collect();
            if diffs.is_empty() {
                diffs.push(1);
            }
            Box::new(move |a, b| !diffs.contains(&a.abs_diff(b)))
        }
        Negative::Ratios => {
            let mut ratios: Vec<u16> = all
                .rules()
                .iter()
                .filter_map(|r| match r {
                    Rule::BlackDot { ratio, .. } => Some(u16::from(*ratio)),
                    _ => None,
                })
                .collect();
            if ratios.is_empty() {
                ratios.push(2);
            }
            Box::new(move |a, b| {
                let (a, b) = (u16::from(a), u16::from(b));
                !ratios.iter().any(|&r| a == r * b || b == r * a)
            })
        }
    }
}

/// The neighbour pairs (smaller cell first) a negative rule leaves alone: those with a mark.
pub(super) fn marked_pairs(neg: Negative, all: &Rules) -> HashSet<(usize, usize)> {
    all.rules()
        .iter()
        .filter_map(|r| match (neg, r) {
            (Negative::Xv, Rule::Xv { cells: [a, b], .. }) => Some((*a, *b)),
            (Negative::Xv, _) => None,
            (_, Rule::WhiteDot { cells: [a, b], .. } | Rule::BlackDot { cells: [a, b], .. }) => {
                Some((*a, *b))
            }
            _ => None,
        })
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect()
}

/// Collects the relations of every pair of cells.
pub(super) struct Builder {
    n: usize,
    /// The value of digit 1 (the relations are of values: 0 to N - 1 on a zero-based board).
    first: u8,
    /// (first, second) → for each digit of the first (index d - 1), the second's digits.
    tables: BTreeMap<(usize, usize), Vec<u64>>,
    /// The pairs of a marked rule on two cells (kropki dots, XV, whispers), which may have
    /// to hold a digit between them (see [`Pairs::run_one`]). Not anti-consecutive and the
    /// negative rules, which relate every neighbour: a digit such a pair must hold is rare and
    /// the check costs (ISS's hard anti-consecutive puzzle took 23% more time with it); nor
    /// renbans, whose digits are the line's (`required`).
    marked: HashSet<(usize, usize)>,
}

impl Builder {
    pub(super) fn new(n: usize, first: u8) -> Builder {
        Builder {
            n,
            first,
            tables: BTreeMap::new(),
            marked: HashSet::new(),
        }
    }

    /// Add `rel` between `a` and `b` (AND with what the pair already has).
    fn relate(&mut self, a: usize, b: usize, rel: &dyn Fn(u8, u8) -> bool) {
        let n = self.n;
        let (key, flip) = if a < b {
            ((a, b), false)
        } else {
            ((b, a), true)
        };
        let full = crate::shape::all_digits(n);
        let table = self.tables.entry(key).or_insert_with(|| vec![full; n]);
        // Digit d (bit d - 1) is the value d - 1 + first.
        let value = |d: u8| d - 1 + self.first;
        for x in 1..=n as u8 {
            let mut allowed = 0u64;
            for y in 1..=n as u8 {
                let (vx, vy) = (value(x), value(y));
                let ok = if flip { rel(vy, vx) } else { rel(vx, vy) };
                if ok {
                    allowed |= 1 << (y - 1);
                }
            }
            table[usize::from(x) - 1] &= allowed;
        }
    }

    /// Note `a` and `b` as a marked pair.
    fn mark(&mut self, a: usize, b: usize) {
        self.marked.insert((a.min(b), a.max(b)));
    }

    /// Add the pair relations of `rule` (other rules add nothing here).
    pub(super) fn add(&mut self, shape: Shape, rule: &Rule, all: &Rules) {
        match rule {
            Rule::Thermo(cells) => {
                for w in cells.windows(2) {
                    self.relate(w[0], w[1], &|a, b| a < b);
                }
            }
            Rule::WhiteDot {
                cells: [a, b],
                diff,
            } => {
                let d = *diff;
                self.relate(*a, *b, &|x, y| x.abs_diff(y) == d);
                self.mark(*a, *b);
            }
            Rule::BlackDot {
                cells: [a, b],
                ratio,
            } => {
                let r = u16::from(*ratio);
                self.relate(*a, *b, &|x, y| {
                    let (x, y) = (u16::from(x), u16::from(y));
                    x == r * y || y == r * x
                });
                self.mark(*a, *b);
            }
            Rule::Xv { cells: [a, b], sum } => {
                let s = *sum;
                self.relate(*a, *b, &|x, y| x + y == s);
                self.mark(*a, *b);
            }
            Rule::Whisper { cells, diff } => {
                let d = *diff;
                for w in cells.windows(2) {
                    self.relate(w[0], w[1], &|x, y| x.abs_diff(y) >= d);
                    self.mark(w[0], w[1]);
                }
            }
            Rule::Palindrome(cells) => {
                let k = cells.len();
                for i in 0..k / 2 {
                    self.relate(cells[i], cells[k - 1 - i], &|x, y| x == y);
                }
            }
            Rule::AntiConsecutive => {
                for (a, b) in orthogonal_pairs(shape) {
                    self.relate(a, b, &|x, y| x.abs_diff(y) != 1);
                }
            }
            Rule::Renban(cells) => {
                // Pairwise: within the line's length of each other (the window propagator
                // does the rest).
                let k = cells.len() as u8;
                for (i, &a) in cells.iter().enumerate() {
                    for &b in &cells[i + 1..] {
                        self.relate(a, b, &|x, y| x != y && x.abs_diff(y) < k);
                    }
                }
            }
            Rule::Negative(neg) => {
                let rel = negative_relation(*neg, all);
                let marked = marked_pairs(*neg, all);
                for p in orthogonal_pairs(shape) {
                    if !marked.contains(&p) {
                        self.relate(p.0, p.1, &*rel);
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn build(self) -> Pairs {
        let n = self.n;
        let mut rel: Vec<u64> = Vec::new();
        let mut index: HashMap<Vec<u64>, u32> = HashMap::new();
        let mut intern = |t: Vec<u64>, rel: &mut Vec<u64>| -> u32 {
            *index.entry(t.clone()).or_insert_with(|| {
                let at = rel.len() as u32;
                rel.extend_from_slice(&t);
                at
            })
        };
        let mut pairs = Vec::with_capacity(self.tables.len());
        for ((a, b), fwd) in self.tables {
            let mut back = vec![0u64; n];
            for (x, &ys) in fwd.iter().enumerate() {
                let mut m = ys;
                while m != 0 {
                    let y = m.trailing_zeros() as usize;
                    m &= m - 1;
                    back[y] |= 1 << x;
                }
            }
            let forcing = self.marked.contains(&(a, b)) && !transitive(&fwd);
            let ab = intern(fwd, &mut rel);
            let ba = intern(back, &mut rel);
            pairs.push(Pair {
                a: a as u16,
                b: b as u16,
                ab,
                ba,
                forcing,
            });
        }
        Pairs { rel, pairs }
    }
}

#[derive(Debug, Clone, Copy)]
struct Pair {
    a: u16,
    b: u16,
    /// Offset in `rel` of the table from `a`'s digits to `b`'s.
    ab: u32,
    /// ... and back.
    ba: u32,
    /// Whether the pair may have to hold a digit between its two cells (see
    /// [`Pairs::run_one`]): its relation is not transitive.
    forcing: bool,
}

/// Whether a relation (for each digit `x`, index `x - 1`, the digits it allows) is
/// transitive: `x → y` and `y → z` give `x → z`. A pair under a transitive relation (`<`,
/// `=`) never has to hold a digit `v` once each cell's digits are supported and each has two
/// or more: a digit `x ≠ v` of the first cell then relates only to `v`, the second cell's
/// other digits `y` are supported by `v` alone (`v → y`), and `x → v → y` would give `x → y`.
/// The check at run time is exact either way; this only spares it.
fn transitive(fwd: &[u64]) -> bool {
    fwd.iter().all(|&ys| {
        let mut m = ys;
        let mut reach = 0u64;
        while m != 0 {
            reach |= fwd[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        reach & !ys == 0
    })
}

/// The pairs and their tables.
#[derive(Debug, Default)]
pub(super) struct Pairs {
    rel: Vec<u64>,
    pairs: Vec<Pair>,
}

impl Pairs {
    pub(super) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The digits `table` allows the other cell when this one holds one of `mask`.
    #[inline(always)]
    fn support(&self, table: u32, mask: u64) -> u64 {
        let t = &self.rel[table as usize..];
        let mut m = mask;
        let mut out = 0;
        while m != 0 {
            out |= t[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }

    /// The number of pairs.
    pub(super) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The two cells of pair `i`.
    pub(super) fn cells(&self, i: usize) -> [u16; 2] {
        [self.pairs[i].a, self.pairs[i].b]
    }

    /// Keep each cell of pair `i` to the digits the other's candidates support. Then, with
    /// `peers`, a digit the pair must hold (the second cell is left only it whenever the
    /// first is not) leaves every cell that sees both (the Interactive Sudoku Solver's
    /// required values of a binary constraint).
    #[inline]
    pub(super) fn run_one<M: Masks>(
        &self,
        i: usize,
        m: &mut M,
        peers: Option<&Exclusions>,
    ) -> Result<bool, Contradiction> {
        let p = &self.pairs[i];
        let (a, b) = (usize::from(p.a), usize::from(p.b));
        let ma = m.mask(a);
        let mut changed = m.restrict(b, self.support(p.ab, ma))?;
        let mb = m.mask(b);
        changed |= m.restrict(a, self.support(p.ba, mb))?;
        let Some(ex) = peers.filter(|_| p.forcing) else {
            return Ok(changed);
        };
        let (ma, mb) = (m.mask(a), m.mask(b));
        if ma & ma.wrapping_sub(1) == 0 || mb & mb.wrapping_sub(1) == 0 {
            return Ok(changed);
        }
        let mut both = ma & mb;
        while both != 0 {
            let v = both & both.wrapping_neg();
            both &= both - 1;
            if self.support(p.ab, ma & !v) & mb == v {
                changed |= ex.clear_common([a, b].into_iter(), v, m)?;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::required::tests::houses_4x4;
    use crate::rules::sums::tests::Grid;

    /// A white dot between cells 1 and 7 of a 4×4 board (no shared house), both left 1 and 2:
    /// whichever the first is not, the second is, so the pair holds both digits and the
    /// cells that see both cells (2, 3, 4 and 5) lose them. Unmarked, or under a transitive
    /// relation (a thermometer), nothing is cleared.
    #[test]
    fn a_pair_clears_the_digits_it_must_hold_from_the_cells_that_see_both() {
        let ex = Exclusions::new(16, &houses_4x4(), &[]).unwrap();
        let consecutive = |x: u8, y: u8| x.abs_diff(y) == 1;
        let below = |x: u8, y: u8| x < y;
        for (rel, marked, clears) in [
            (&consecutive as &dyn Fn(u8, u8) -> bool, true, true),
            (&consecutive, false, false),
            (&below, true, false),
        ] {
            let mut builder = Builder::new(4, 1);
            builder.relate(1, 7, rel);
            if marked {
                builder.marked.insert((1, 7));
            }
            let pairs = builder.build();
            let mut grid = Grid(vec![0b1111; 16]);
            grid.0[1] = 0b0011;
            grid.0[7] = 0b0011;
            pairs.run_one(0, &mut grid, Some(&ex)).unwrap();
            for (c, &m) in grid.0.iter().enumerate() {
                let lost = [2, 3, 4, 5].contains(&c) && clears;
                assert_eq!(m & 0b0011 == 0, lost, "cell {c}: {m:04b}");
            }
        }
    }

    #[test]
    fn transitive_relations() {
        let table = |rel: &dyn Fn(u64, u64) -> bool| -> Vec<u64> {
            (1..=9)
                .map(|x| {
                    (1..=9)
                        .filter(|&y| rel(x, y))
                        .fold(0, |m, y| m | 1 << (y - 1))
                })
                .collect()
        };
        assert!(transitive(&table(&|x, y| x < y)));
        assert!(transitive(&table(&|x, y| x == y)));
        assert!(!transitive(&table(&|x, y| x.abs_diff(y) == 1)));
        assert!(!transitive(&table(&|x, y| x + y == 10)));
    }
}
