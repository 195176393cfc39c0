//! What the generic engine runs of the rules: the propagators as numbered units, which units
//! read each cell, and how the redundant ones are retired when they seldom pay.

use super::{cells, houses, lines, outside, pairs, required, sums};

/// The propagation gave a contradiction: no solution below this state.
#[derive(Debug)]
pub(crate) struct Contradiction;

/// What propagators see of an engine state: each cell's candidates (a placed cell: its
/// digit's bit), and a way to narrow them.
pub(crate) trait Masks {
    /// The candidates of `cell`.
    fn mask(&self, cell: usize) -> u64;
    /// The candidates of `cell` where it is open; where it is placed, nothing or its digit's
    /// bit (as `mask`). With [`Masks::placed`], a cheaper read of a house's cells' digits:
    /// the union of `open` over some of a house's cells, with the house's placed digits, is
    /// the union of `mask` with, at most, digits placed in the house's other cells.
    #[inline(always)]
    fn open(&self, cell: usize) -> u64 {
        self.mask(cell)
    }
    /// The digits placed in house `h` (of the compiled houses), or none (when `open` gives
    /// placed cells' digits).
    #[inline(always)]
    fn placed(&self, h: usize) -> u64 {
        let _ = h;
        0
    }
    /// Keep only the `allowed` candidates of `cell`: `Ok(true)` when that removed some,
    /// `Err` when none is left.
    fn restrict(&mut self, cell: usize, allowed: u64) -> Result<bool, Contradiction>;
    /// Whether digit `bit`, which must go in one of the cells `places` (bits of the cells of
    /// the unit whose cells start at `unit`), was already cleared from the cells that see all
    /// of them in this state or one it narrows; if not, note that it is being cleared now.
    /// By default nothing is remembered (false).
    #[inline(always)]
    fn cleared_before(&mut self, unit: *const u16, bit: u64, places: u64) -> bool {
        let _ = (unit, bit, places);
        false
    }
}

/// Every propagator of a puzzle, by family, and which of them watch each cell.
///
/// The propagators are numbered as units (pairs, then sums, renban lines, between lines,
/// sandwiches, quadruples, intersections); a unit decides from its own cells' candidates
/// alone, so after a fixpoint only the units whose cells changed need to run again
/// (`run_dirty`).
#[derive(Debug, Default)]
pub(crate) struct Propagators {
    pub(super) pairs: pairs::Pairs,
    pub(super) sums: Vec<sums::Sum>,
    pub(super) renbans: Vec<lines::Renban>,
    pub(super) betweens: Vec<lines::Between>,
    pub(super) sandwiches: Vec<outside::Sandwich>,
    pub(super) quads: Vec<cells::Quad>,
    pub(super) intersections: Vec<houses::Intersection>,
    /// Each cell's peers, for the digits sums, renbans and marked pairs must hold (see
    /// `required::Exclusions`); `None` on boards above its size.
    pub(super) exclusions: Option<required::Exclusions>,
    /// `watch[watch_start[cell]..watch_start[cell + 1]]`: the units that read `cell`.
    watch: Vec<u32>,
    watch_start: Vec<u32>,
    /// The same as sets of units (`unit_words` words a cell), where they take at most
    /// [`CELL_UNIT_WORDS`] words; else empty. Marking a changed cell's units ORs a few words
    /// instead of setting a bit per unit (a cell of a hard killer is read by a dozen or more
    /// units: intersections, cages and the derived sums of the law of leftovers).
    cell_units: Vec<u64>,
    /// `unit_cells[unit_start[u]..unit_start[u + 1]]`: the cells unit `u` reads.
    unit_cells: Vec<u16>,
    unit_start: Vec<u32>,
    /// Where each family's units start: sums, renbans, betweens, sandwiches, quads,
    /// intersections, and the end.
    starts: [usize; 7],
    /// The sums' memo slots (see `sums::Seen`).
    memo_slots: usize,
    /// When [`Yields`] retires a redundant unit (a sum that `sums::Sum::is_redundant`): after
    /// this many runs, below one useful run in this many; `None` for [`RETIRE_AFTER`] and
    /// [`RETIRE_RATIO`] (the tests set others).
    retire: Option<(u32, u32)>,
}

/// How often each redundant unit narrowed a cell or failed, per search (propagation scratch,
/// like the memos): one that did so in fewer than one run in [`RETIRE_RATIO`] of its first
/// [`RETIRE_AFTER`] runs or more is retired, not run again in that search. Leaving out a
/// redundant sum never changes the solutions; it only lets some branches fail later.
#[derive(Debug, Clone, Default)]
pub(crate) struct Yields {
    /// Per unit: its runs, and those that narrowed a cell or failed.
    runs: Vec<[u32; 2]>,
    /// The retired units, as bits.
    retired: Vec<u64>,
    /// See [`Propagators::retire`].
    after: u32,
    ratio: u32,
}

/// Runs before a redundant unit may be retired (see [`Yields`]).
const RETIRE_AFTER: u32 = 5_000;

/// A redundant unit that narrowed or failed in fewer than one run in this many is retired
/// (see [`Yields`]). Of 5, 8, 10, 14, 20 and 40, 10 took the least time on ISS's slow
/// puzzles with the ten hard killers outside its bench (13–16% less than 40 in the runs that
/// had both, 5% more guesses),
/// and 8% less than 40 on counts of random killers made after it was chosen (see
/// PERFORMANCE.md).
const RETIRE_RATIO: u32 = 10;

impl Yields {
    /// Note a run of the redundant unit `u`, and whether it narrowed a cell or failed
    /// (`useful`).
    #[inline]
    fn note(&mut self, u: usize, useful: bool) {
        let r = &mut self.runs[u];
        r[0] = r[0].saturating_add(1);
        r[1] = r[1].saturating_add(u32::from(useful));
        if r[0] >= self.after && r[1].saturating_mul(self.ratio) < r[0] {
            self.retired[u / 64] |= 1 << (u % 64);
            #[cfg(test)]
            RETIRED.with(|n| n.set(n.get() + 1));
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: the redundant units retired on this thread so far.
    pub(crate) static RETIRED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Propagators {
    pub(super) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
            && self.sums.is_empty()
            && self.renbans.is_empty()
            && self.betweens.is_empty()
            && self.sandwiches.is_empty()
            && self.quads.is_empty()
            && self.intersections.is_empty()
    }

    /// Number the units and list the units of each of the board's `cells`.
    pub(super) fn index(&mut self, cells: usize) {
        self.memo_slots = self
            .sums
            .iter_mut()
            .fold(0, |first, sum| sum.memo_slots(first));
        let mut of_unit: Vec<Vec<u16>> = (0..self.pairs.len())
            .map(|i| self.pairs.cells(i).to_vec())
            .collect();
        let mut starts = [0; 7];
        starts[0] = of_unit.len();
        of_unit.extend(self.sums.iter().map(|s| s.cells().to_vec()));
        starts[1] = of_unit.len();
        of_unit.extend(self.renbans.iter().map(|r| r.cells().to_vec()));
        starts[2] = of_unit.len();
        of_unit.extend(self.betweens.iter().map(lines::Between::cells));
        starts[3] = of_unit.len();
        of_unit.extend(self.sandwiches.iter().map(|s| s.cells().to_vec()));
        starts[4] = of_unit.len();
        of_unit.extend(self.quads.iter().map(|q| q.cells().to_vec()));
        starts[5] = of_unit.len();
        of_unit.extend(self.intersections.iter().map(houses::Intersection::cells));
        starts[6] = of_unit.len();
        self.unit_cells = of_unit.concat();
        self.unit_start = std::iter::once(0)
            .chain(of_unit.iter().scan(0u32, |at, c| {
                *at += c.len() as u32;
                Some(*at)
            }))
            .collect();
        let mut by_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (u, unit_cells) in of_unit.iter().enumerate() {
            for &c in unit_cells {
                let list = &mut by_cell[usize::from(c)];
                if list.last() != Some(&(u as u32)) {
                    list.push(u as u32);
                }
            }
        }
        let words = starts[6].div_ceil(64);
        self.cell_units = if words <= CELL_UNIT_WORDS {
            let mut sets = vec![0u64; cells * words];
            for (cell, list) in by_cell.iter().enumerate() {
                for &u in list {
                    sets[cell * words + u as usize / 64] |= 1 << (u % 64);
                }
            }
            sets
        } else {
            Vec::new()
        };
        self.watch.clear();
        self.watch_start = vec![0];
        for list in by_cell {
            self.watch.extend(list);
            self.watch_start.push(self.watch.len() as u32);
        }
        self.starts = starts;
    }

    /// Whether there is any sum, given (cages, little killers, arrows) or derived.
    pub(crate) fn has_sums(&self) -> bool {
        !self.sums.is_empty()
    }

    /// Whether some sum is a killer cage with digit sets.
    pub(crate) fn has_cages(&self) -> bool {
        self.sums.iter().any(sums::Sum::has_sets)
    }

    /// Fresh memos for [`Propagators::run_dirty`] (propagation scratch: any state's
    /// propagation may use them, one thread at a time).
    pub(crate) fn memo(&self) -> Vec<sums::Seen> {
        vec![sums::Seen::default(); self.memo_slots]
    }

    /// Fresh [`Yields`] for [`Propagators::run_dirty`] (propagation scratch, one per search).
    pub(crate) fn yields(&self) -> Yields {
        let (after, ratio) = self.retire.unwrap_or((RETIRE_AFTER, RETIRE_RATIO));
        Yields {
            runs: vec![[0; 2]; self.starts[6]],
            retired: vec![0; self.unit_words()],
            after,
            ratio,
        }
    }

    /// Tests: retire the redundant units after `after` runs, below one useful run in `ratio`.
    #[cfg(test)]
    pub(crate) fn set_retirement(&mut self, after: u32, ratio: u32) {
        self.retire = Some((after, ratio));
    }

    /// The words of a set of units (one bit each).
    pub(crate) fn unit_words(&self) -> usize {
        self.starts[6].div_ceil(64)
    }

    /// The cells unit `u` reads.
    pub(crate) fn unit_cells(&self, u: usize) -> &[u16] {
        &self.unit_cells[self.unit_start[u] as usize..self.unit_start[u + 1] as usize]
    }

    /// Mark every unit.
    pub(crate) fn mark_all(&self, dirty: &mut [u64]) {
        first_bits(dirty, self.starts[6]);
    }

    /// Mark the units that read `cell`.
    #[inline]
    pub(crate) fn mark_cell(&self, cell: usize, dirty: &mut [u64]) {
        if !self.cell_units.is_empty() {
            let words = dirty.len();
            for (d, &m) in dirty
                .iter_mut()
                .zip(&self.cell_units[cell * words..(cell + 1) * words])
            {
                *d |= m;
            }
            return;
        }
        let (a, b) = (
            self.watch_start[cell] as usize,
            self.watch_start[cell + 1] as usize,
        );
        for &u in &self.watch[a..b] {
            dirty[u as usize / 64] |= 1 << (u % 64);
        }
    }

    #[inline]
    fn run_unit<M: Masks>(
        &self,
        u: usize,
        m: &mut M,
        memo: &mut [sums::Seen],
        yields: &mut Yields,
    ) -> Result<bool, Contradiction> {
        let s = &self.starts;
        // The intersections first: most runs are theirs (a hundred per guess on a hard 9×9).
        if u >= s[5] {
            self.intersections[u - s[5]].run(m)
        } else if u < s[0] {
            self.pairs.run_one(u, m, self.exclusions.as_ref())
        } else if u < s[1] {
            let sum = &self.sums[u - s[0]];
            let result = sum.run(m, self.exclusions.as_ref(), memo);
            if sum.is_redundant() {
                yields.note(u, !matches!(result, Ok(false)));
            }
            result
        } else if u < s[2] {
            self.renbans[u - s[1]].run(m, self.exclusions.as_ref())
        } else if u < s[3] {
            self.betweens[u - s[2]].run(m)
        } else if u < s[4] {
            self.sandwiches[u - s[3]].run(m)
        } else {
            self.quads[u - s[4]].run(m)
        }
    }

    /// Run each marked unit once, in unit order, clearing its mark (a retired one is only
    /// cleared, see [`Yields`]); `Err(u)` when unit `u` found a contradiction. Cells they
    /// change are not marked here (the caller marks them from the cells that changed).
    /// `memo`: from [`Propagators::memo`]; `yields`: from [`Propagators::yields`].
    #[inline]
    pub(crate) fn run_dirty<M: Masks>(
        &self,
        m: &mut M,
        dirty: &mut [u64],
        memo: &mut [sums::Seen],
        yields: &mut Yields,
    ) -> Result<(), usize> {
        for (i, word) in dirty.iter_mut().enumerate() {
            *word &= !yields.retired[i];
            while *word != 0 {
                let b = word.trailing_zeros() as usize;
                *word &= *word - 1;
                self.run_unit(i * 64 + b, m, memo, yields)
                    .map_err(|Contradiction| i * 64 + b)?;
            }
        }
        Ok(())
    }
}

/// The most words of a set of units kept per cell (see `Propagators::cell_units`): 512 units.
const CELL_UNIT_WORDS: usize = 8;

/// Set the first `n` bits of `words` (bit `i` of word `i / 64` is `i`), clear the rest.
pub(crate) fn first_bits(words: &mut [u64], n: usize) {
    for (i, w) in words.iter_mut().enumerate() {
        let left = n.saturating_sub(i * 64);
        *w = if left >= 64 {
            u64::MAX
        } else {
            (1u64 << left) - 1
        };
    }
}

/// Digits `lo..=hi` as a mask (empty when `lo > hi`); digits outside 1..=64 are dropped.
#[inline]
pub(crate) fn range_mask(lo: i64, hi: i64) -> u64 {
    let lo = lo.max(1);
    let hi = hi.min(64);
    if lo > hi {
        return 0;
    }
    let top = if hi == 64 { u64::MAX } else { (1u64 << hi) - 1 };
    top & !((1u64 << (lo - 1)) - 1)
}
