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

/// How an [`Estimate`] prices the work of counting by bands.
#[derive(Debug, Clone, Copy)]
struct Pricing {
    /// A node of the first band's search.
    node: f64,
    /// A boundary's tail: its table lookup and setup.
    tail: f64,
    /// A combination of the next band's ways; only those that pass Hall's condition where
    /// `fitted`, else all of them.
    combo: f64,
    /// A way of the last stack walked through for a combination of the other stacks that
    /// passes (see [`super::Plan::passing`]).
    last_way: f64,
    /// Three bands: Hall's condition counted, the boundaries that share a count after the
    /// renaming of [`super::Plan::relabel`] counted once, and the unit the microsecond.
    fitted: bool,
}

/// Three bands (9×9, 6×6 with 2×3 boxes): microseconds, roughly, for a node, a boundary, a
/// combination that passes Hall's condition and a way of the last stack walked through.
/// Fitted by least squares to the CPU time of each of the six turns of 95 sparse 9×9 counts
/// (44 held-out puzzles of the lowest rate and 51 others; 3,000 dives per turn, each set's fit
/// within 5% of the other's): picking by these prices cost 1.029 and 1.007 times the cheapest
/// turns' time on the two sets, against 1.099 and 1.036 with the prices before (a node 0.17, a
/// boundary 0.3, a combination 0.02, no ways, no renaming). The arrangements counted on table
/// misses are left out: they are about half of such counts' time, but the dives cannot see
/// which arrangements the table already holds, and the fit without them ranks the turns as
/// well (the fit on the counts' actual counters picked within 1.029 of the cheapest without
/// them, 1.023 with them).
const THREE_BANDS: Pricing = Pricing {
    node: 0.34,
    tail: 0.75,
    combo: 0.058,
    last_way: 0.021,
    fitted: true,
};

/// Two bands, or four and more (8×8, 12×12, 16×16): each of the next band's combinations
/// leads to the deeper bands' own, which the dives do not see; every combination is priced,
/// high, in a unit about three times the microsecond (set on sparse 8×8 and 12×12 counts,
/// where the three-band pricing chose bands over the plain search for puzzles that the plain
/// search counted up to 3.4 times faster).
const OTHER_BANDS: Pricing = Pricing {
    node: 0.4,
    tail: 4.0,
    combo: 0.3,
    last_way: 0.0,
    fitted: false,
};

/// Whether the estimate of `plan` goes on below the next band ([`Estimate::deeper`]): four
/// bands or more, three rows high (12×12 with 3×4 boxes, 15×15 with 3×5). Pricing only the
/// next band, the estimates of sparse 12×12 and 15×15 counts came up to a hundred times below
/// the time counting by bands took, which then took 5–30 s where the plain search took 0.1–0.5
/// s. Boards of two-row bands keep the prices they were set with (8×8 with 2×4 boxes; the
/// taller are left to the plain search, see `too_deep` in `src/solver/mod.rs`).
fn deep(plan: &super::Plan) -> bool {
    plan.bands > 3 && plan.rows > 2
}

impl Pricing {
    fn of(plan: &super::Plan) -> Pricing {
        if plan.bands == 3 {
            THREE_BANDS
        } else {
            OTHER_BANDS
        }
    }
}

/// An estimate of the cost (microseconds, roughly) of counting by bands under one plan: the
/// mean of Knuth estimates from random dives of the first band's search tree, where a node
/// costs its expansion and a leaf (a boundary) the tail's setup, the combinations of the next
/// band's ways that pass Hall's condition and the last stack's ways walked through
/// ([`super::Plan::passing`]), shared by the leaves whose boundaries share one count (the same
/// column sets, or the same but for the digits renamed: [`super::Plan::sharing`]; the tail
/// remembers them). Each dive is an unbiased estimate on its own (but where
/// [`super::Plan::sharing`] stops counting), so more dives can be added to an estimate whose
/// error is too large to rank it.
pub(crate) struct Estimate {
    sum: f64,
    squares: f64,
    dives: u32,
    rng: crate::rng::SplitMix64,
    /// Whether the unit is the microsecond ([`THREE_BANDS`]).
    fitted: bool,
    /// Whether the plan's bands below the next one are priced too ([`deep`]).
    deep: bool,
    /// The ways of the second band's stacks its dives met (see [`super::Ways::small`]).
    ways: super::Ways,
}

impl Estimate {
    /// No dives yet; `seed` for the dives' random choices.
    pub(crate) fn new(seed: u64) -> Estimate {
        Estimate {
            sum: 0.0,
            squares: 0.0,
            dives: 0,
            rng: crate::rng::SplitMix64::new(seed),
            fitted: false,
            deep: false,
            ways: super::Ways::small(),
        }
    }

    /// An estimate of a plan that cannot count (none, or an unsolvable root).
    pub(crate) fn infinite() -> Estimate {
        let mut e = Estimate::new(0);
        e.sum = f64::INFINITY;
        e.dives = 1;
        e
    }

    /// The mean of the dives (infinite before any).
    pub(crate) fn mean(&self) -> f64 {
        if self.dives == 0 {
            return f64::INFINITY;
        }
        self.sum / f64::from(self.dives)
    }

    /// The standard error of [`Estimate::mean`].
    pub(crate) fn error(&self) -> f64 {
        if self.dives < 2 || !self.sum.is_finite() {
            return 0.0;
        }
        let k = f64::from(self.dives);
        let mean = self.sum / k;
        let var = (self.squares - k * mean * mean).max(0.0) / (k - 1.0);
        (var / k).sqrt()
    }

    /// Whether the estimate is in microseconds (roughly; fitted on 9×9 counts), not only
    /// comparable between the turns of one puzzle.
    pub(crate) fn fitted(&self) -> bool {
        self.fitted
    }

    /// Whether the estimate prices bands below the next one ([`Estimate::deeper`]): it counts
    /// every boundary of theirs as new, where the table of counts below boundaries finds
    /// some again.
    pub(crate) fn deep(&self) -> bool {
        self.deep
    }

    /// `dives` more random dives from `root` (the turned puzzle's root state) under `plan`.
    pub(crate) fn dive<E: crate::engine::Engine>(
        &mut self,
        root: &E,
        plan: &super::Plan,
        dives: usize,
    ) {
        use crate::engine::Expansion;
        let n = plan.n;
        let price = Pricing::of(plan);
        self.fitted = price.fitted;
        self.deep = deep(plan);
        let mut kids = Vec::new();
        let mut lists: Vec<Vec<u64>> = vec![Vec::new(); plan.rows];
        let full = crate::shape::all_digits(n);
        for _ in 0..dives {
            let mut state = root.clone();
            let (mut w, mut cost) = (1.0, 0.0);
            loop {
                cost += w * price.node;
                kids.clear();
                match state.expand_bands(&mut kids, plan.rows) {
                    None => {
                        let values = state.values();
                        let mut s0 = [0u64; 64];
                        for (cell, &v) in values[..plan.rows * n].iter().enumerate() {
                            s0[cell % n] |= 1 << (v - 1);
                        }
                        let mut rem = [0u64; 64];
                        for c in 0..n {
                            rem[c] = full & !s0[c];
                        }
                        let mult = plan.arrangements(0, &s0[..n]).max(1) as f64;
                        // A plan has two bands or more: band 1 is the next.
                        self.ways.start(plan.generation, plan.cols.min(8) + 1);
                        for (s, list) in lists.iter_mut().enumerate() {
                            let c0 = s * plan.cols;
                            let (start, len) =
                                self.ways.get_or_make(s, &rem[c0..c0 + plan.cols], |out| {
                                    plan.stack_choices(1, s, &rem[..n], out)
                                });
                            list.clear();
                            list.extend_from_slice(&self.ways.arena[start..start + len]);
                        }
                        let (walk, shared) = if price.fitted {
                            (plan.passing(&lists), plan.sharing(&s0[..n], mult))
                        } else {
                            let ways = |l: &Vec<u64>| (l.len() / plan.stride()) as f64;
                            let combos = lists.iter().map(ways).product();
                            let walk = super::choices::Passing {
                                combos,
                                ..Default::default()
                            };
                            (walk, mult)
                        };
                        let tail = price.tail
                            + price.combo * walk.combos
                            + price.last_way * walk.last_ways
                            + self.deeper(plan, price, &rem, &lists);
                        cost += w * tail / shared;
                        break;
                    }
                    Some(Expansion::Solved) => break,
                    Some(Expansion::Branched { .. }) => {
                        if kids.is_empty() {
                            break;
                        }
                        w *= kids.len() as f64;
                        let i = (self.rng.next_u64() % kids.len() as u64) as usize;
                        state = kids.swap_remove(i);
                    }
                }
            }
            self.add(cost);
        }
    }

    /// The cost of the bands below the next one, for the plans that are [`deep`] (0 for the
    /// others; `price` is the plan's [`Pricing`], both set by [`Estimate::dive`]): the dive goes on down the bands' tails, one combination of the stacks' ways at
    /// each (a way per stack picked at random, the combination's weight the product of the
    /// lists' lengths; one without arrangements ends the dive), pricing each band's boundary
    /// and its combinations as the next band's are. Unbiased for the tails without the table
    /// of counts below boundaries (which only saves): `lists` are the next band's ways (band
    /// 1), `rem` the digits each column lacks above it.
    fn deeper(
        &mut self,
        plan: &super::Plan,
        price: Pricing,
        rem: &[u64; 64],
        lists: &[Vec<u64>],
    ) -> f64 {
        if !self.deep {
            return 0.0;
        }
        let (n, cols, stride) = (plan.n, plan.cols, plan.stride());
        let (mut rem, mut sets) = (*rem, [0u64; 64]);
        let mut spans = [(0usize, 0usize); 8];
        let (mut w, mut cost) = (1.0, 0.0);
        for b in 2..plan.bands.saturating_sub(1) {
            // A combination of band b - 1's ways.
            for s in 0..plan.rows {
                let list: &[u64] = if b == 2 {
                    &lists[s]
                } else {
                    let (start, len) = spans[s];
                    &self.ways.arena[start..start + len]
                };
                let k = list.len() / stride;
                if k == 0 {
                    return cost;
                }
                w *= k as f64;
                let i = (self.rng.next_u64() % k as u64) as usize;
                sets[s * cols..(s + 1) * cols]
                    .copy_from_slice(&list[i * stride..i * stride + cols]);
            }
            if plan.arrangements(b - 1, &sets[..n]) == 0 {
                return cost;
            }
            for c in 0..n {
                rem[c] &= !sets[c];
            }
            // Band b's ways below it, remembered apart from the other bands' (their stacks
            // are numbered on).
            let mut combos = 1.0;
            for (s, span) in spans[..plan.rows].iter_mut().enumerate() {
                let c0 = s * cols;
                *span =
                    self.ways
                        .get_or_make((b - 1) * plan.rows + s, &rem[c0..c0 + cols], |out| {
                            plan.stack_choices(b, s, &rem[..n], out)
                        });
                combos *= (span.1 / stride) as f64;
            }
            cost += w * (price.tail + price.combo * combos);
        }
        cost
    }

    /// One dive's estimate.
    fn add(&mut self, cost: f64) {
        self.sum += cost;
        self.squares += cost * cost;
        self.dives += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate's small table of ways hands each stack the ways `stack_choices` makes,
    /// whether it makes them (a miss) or has them (a hit), and after it starts again.
    #[test]
    fn the_estimates_ways_are_what_stack_choices_makes() {
        let shape = Shape::new(3, 3).unwrap();
        // q00 of the held-out sparse set, and fillings of its first band from solutions.
        let line =
            ".4...12.....2.....1...3......7.13.2.......3.....6....8...5..8..5..1....4..9.....2";
        let cells: Vec<u8> = line.bytes().map(|b| b.saturating_sub(b'0') % 10).collect();
        let p = Puzzle::new(shape, cells).unwrap();
        let mut plan = super::super::Plan::unkeyed(shape, p.cells()).unwrap();
        plan.make_keys();
        let lacking = |band: &str| -> [u64; 9] {
            let mut rem = [0x1FF; 9];
            for (i, b) in band.bytes().enumerate() {
                rem[i % 9] &= !(1 << (b - b'1'));
            }
            rem
        };
        let rems = [
            lacking("845791263673258941192436587"),
            lacking("345791286796258143182436957"),
        ];
        // The two fillings share their middle stack: five different lists in all.
        assert_eq!(rems[0][3..6], rems[1][3..6]);
        let mut want = Vec::new();
        let mut distinct = 0;
        for (i, rem) in rems.iter().enumerate() {
            for s in 0..3 {
                want.clear();
                plan.stack_choices(1, s, rem, &mut want);
                if i == 0 || s != 1 {
                    distinct += want.len();
                }
            }
        }
        assert!(distinct > 0);
        let mut ways = super::super::Ways::small();
        for round in 0..3 {
            ways.start(plan.generation, 4);
            for rem in &rems {
                for s in 0..3 {
                    want.clear();
                    plan.stack_choices(1, s, rem, &mut want);
                    let (start, len) = ways.get_or_make(s, &rem[3 * s..3 * s + 3], |out| {
                        plan.stack_choices(1, s, rem, out)
                    });
                    assert_eq!(ways.arena[start..start + len], want[..], "round {round}");
                }
            }
            // Each list made once (round 1 only finds them), and again after the restart.
            assert_eq!(ways.arena.len(), distinct, "round {round}");
            if round == 1 {
                // Past its limit: the next start empties it.
                let full = ways.max_words + 1;
                ways.arena.resize(full, 0);
            }
        }
    }

    #[test]
    fn mean_and_standard_error_of_the_dives() {
        let mut e = Estimate::new(1);
        assert_eq!(e.mean(), f64::INFINITY);
        e.add(2.0);
        assert_eq!((e.mean(), e.error()), (2.0, 0.0));
        for x in [4.0, 6.0, 8.0] {
            e.add(x);
        }
        // Sample variance of 2, 4, 6, 8 is 20/3; the mean's standard error sqrt(20/3/4).
        assert!((e.mean() - 5.0).abs() < 1e-12);
        assert!((e.error() - (20.0f64 / 12.0).sqrt()).abs() < 1e-12);
        let inf = Estimate::infinite();
        assert_eq!((inf.mean(), inf.error()), (f64::INFINITY, 0.0));
    }
}
