//! Counting by bands: the count-mode strategy of the search when only the number of solutions
//! is wanted (the sink needs no grids, no small limit).
//!
//! A band is a row of boxes (`R` rows for `R×C` boxes). Rows and boxes lie inside one band;
//! only columns cross bands. So once the bands above are filled, the completions below depend
//! only on which digits each column still lacks (and the givens below), and the grid factors
//! band by band: choose for every column the digits each remaining band takes (each stack's
//! columns share out every digit once per band, so that boxes hold each digit once), then
//! arrange each band's rows on its own ([`arrange`]); the count is the sum over the choices of
//! the product of the bands' arrangements (Felgenhauer and Jarvis counted the 9×9 grids this
//! way).
//!
//! The search fills the first band by cells, as usual (propagation sees the whole grid). At a
//! *boundary* (the first `k` bands filled) [`Plan::tail`] counts everything below exactly: the
//! digit sets of the next band are enumerated stack by stack ([`choices`], which drops the
//! ways that cannot be arranged), and the count below them is the same question one band
//! further down, until one band is left, whose count is its arrangements. The counts below a
//! boundary are remembered in a per-thread [`table`] keyed by the digit sets (one shared by the
//! workers of a split search), with the digits given nowhere below renamed in a canonical order
//! first ([`Plan::relabel`]: states that differ only in those names share the entry);
//! arrangements under a key that forgets the digits' names
//! ([`places`]), shared by every puzzle of the shape. Where the choices for the next band
//! would be too many (a sparse board with many bands), the tail declines and the search fills
//! one more band by cells.
//!
//! The puzzle is first turned ([`orient`]: transposed or not, bands reordered, neither changes
//! the count) so that the band filled by search has few fillings.
//!
//! On boards whose bands are two rows high, up to 8×8, the bands below a boundary with no
//! givens under it are counted in closed form instead ([`empty`], over the perfect matchings
//! each stack's column pairs make), as is the empty board itself.

pub(crate) mod arrange;
mod choices;
pub(crate) mod empty;
mod orient;
mod places;
pub(crate) mod table;

pub(crate) use orient::{orientations, Estimate};

use crate::shape::{all_digits, Shape};
use crate::solver::shared::Shared;
use choices::{Hall, EXTRA, PLACES, PLACES_NEXT, SIG, SIG_NEXT};
use places::{Cache, Places, KEY_WORDS};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use table::{SharedTable, Table};

/// What [`Plan::tail`] made of a boundary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tail {
    /// The completions below, and the part of the state's weight not yet reported as done.
    Count(u128, f64),
    /// Too many choices: the search should fill the next band by cells.
    Declined,
    /// The search must stop (limit, interrupt, timeout) before the count was done.
    Stopped,
}

/// A tail's view of the search: the stop conditions, checked every [`POLL_EVERY`]
/// combinations (counted across tails: see [`Work::ticks`]) which also count as nodes toward
/// the node budget (a serial try must give up after about as much work when the work is in
/// tails), and the progress it reports (the top band's ways, each its share of the state's
/// weight).
struct Watch<'a> {
    shared: &'a Shared<'a>,
    /// The band of the boundary (only its ways report progress).
    top: usize,
    weight: f64,
    /// The weight of one way of the top band's first stack.
    share: f64,
    /// The weight reported so far.
    reported: f64,
    ticks: u32,
    stopped: bool,
}

/// Combinations between two checks of the stop conditions.
const POLL_EVERY: u32 = 4096;

impl Watch<'_> {
    /// Count `k` combinations; true when the search must stop.
    #[inline]
    fn tick(&mut self, k: u32) -> bool {
        self.ticks += k;
        if self.ticks >= POLL_EVERY {
            self.shared.add_work(u64::from(self.ticks));
            self.ticks = 0;
            if self.shared.must_stop() {
                self.stopped = true;
            }
        }
        self.stopped
    }
}

/// Per-thread size of the table of counts below boundaries (bytes).
const TABLE_BYTES: usize = 64 << 20;

/// Per-thread size of the table of arrangements by [`Places`] key (bytes).
const PLACES_BYTES: usize = 8 << 20;

/// The most combinations of one band's choices the tail enumerates for one boundary state;
/// beyond it the search goes one band deeper.
const MAX_CHOICES: u64 = 1 << 20;

/// Counting by bands for one puzzle (already turned, see [`orient`]): its geometry and the
/// givens of each band, and the tag of its entries in the per-thread tables.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Rows of a band (box height), also the number of stacks.
    rows: usize,
    /// Columns of a stack (box width).
    cols: usize,
    /// The side.
    n: usize,
    /// Number of bands (`n / rows`).
    bands: usize,
    /// `fixed[(b * rows + r) * n + c]`: the digit (one bit) given at row `r` of band `b`,
    /// column `c`; 0 where none.
    fixed: Vec<u64>,
    /// `given[b * n + c]`: the digits given in band `b`, column `c`.
    given: Vec<u64>,
    /// `below[b * n + c]`: the digits given in column `c` in the bands after `b`.
    below: Vec<u64>,
    /// `unnamed[b]`: the digits given nowhere in bands `b..`, whose names the count of those
    /// bands cannot depend on (see [`Plan::relabel`]).
    unnamed: Vec<u64>,
    /// `row_ok[(b * n + c) * n + d]`: the rows (bits) of band `b` where digit `d` may stand in
    /// column `c`, from the givens alone: its own row if given there, else the rows free in
    /// that column where it is not given elsewhere in the band.
    row_ok: Vec<u8>,
    /// Hall's condition on row signatures, where kept.
    hall: Option<Hall>,
    /// Keys of arrangements that forget the digits' names, where they fit.
    places: Option<Places>,
    /// Each band's givens read for [`arrange::ThreeRows`], where bands are three rows high.
    three: Vec<arrange::ThreeRows>,
    /// Words of a packed key of digit sets (`n` masks of `n` bits).
    words: usize,
    /// Tags of this plan's table entries: `generation << 8 | kind`.
    generation: u64,
}

/// The table of counts below boundaries shared by the workers of split searches, for keys of
/// `words` words: made on first use, kept for the process (the tags tell plans apart, as in
/// the per-thread tables). Each worker searches its own pieces of the tree, so per-thread tables
/// would each count the boundary states the others met (on two threads, 40% more tails
/// counted on the largest count of the ground-truth file).
fn shared_counts(words: usize) -> &'static SharedTable {
    static TABLES: [OnceLock<SharedTable>; 65] = [const { OnceLock::new() }; 65];
    TABLES[words].get_or_init(|| SharedTable::new(words, SHARED_BYTES))
}

/// Size of each table of [`shared_counts`] (bytes).
const SHARED_BYTES: usize = 8 << 20;

/// The generation of the next plan (tags are never reused within a process).
static GENERATION: AtomicU64 = AtomicU64::new(1);

impl Plan {
    /// The plan for a puzzle of `shape` with these values (0 = open): typically the propagated
    /// root state of the turned puzzle. `None` for a board of a single band. (The count makes
    /// its plan in two steps, see [`Plan::unkeyed`].)
    #[cfg(test)]
    pub(crate) fn new(shape: Shape, values: &[u8]) -> Option<Plan> {
        let mut plan = Plan::unkeyed(shape, values)?;
        plan.make_keys();
        Some(plan)
    }

    /// [`Plan::new`] without the table that [`Places`] keys are summed from, which only
    /// counting needs: enough to estimate the turn's cost ([`Estimate::dive`]), and cheaper
    /// (of the six turns of a 9×9 puzzle only the chosen one is counted). [`Plan::make_keys`]
    /// completes it.
    pub(crate) fn unkeyed(shape: Shape, values: &[u8]) -> Option<Plan> {
        let (rows, cols, n) = (shape.box_rows(), shape.box_cols(), shape.side());
        let bands = n / rows;
        if bands < 2 {
            return None;
        }
        let mut fixed = vec![0u64; n * n];
        let mut given = vec![0u64; bands * n];
        for (cell, &v) in values.iter().enumerate() {
            if v != 0 {
                let bit = 1u64 << (v - 1);
                fixed[cell] = bit;
                given[cell / n / rows * n + cell % n] |= bit;
            }
        }
        let mut below = vec![0u64; bands * n];
        for b in (0..bands - 1).rev() {
            for c in 0..n {
                below[b * n + c] = below[(b + 1) * n + c] | given[(b + 1) * n + c];
            }
        }
        let all = all_digits(n);
        let unnamed = (0..bands)
            .map(|b| {
                let named = (0..n).fold(0, |m, c| m | given[b * n + c] | below[b * n + c]);
                all & !named
            })
            .collect();
        let mut row_ok = vec![0u8; bands * n * n];
        if rows <= 8 {
            for b in 0..bands {
                // The rows where each digit is given in this band; the free rows of a column.
                let mut given_rows = [0u8; 64];
                let mut free = vec![((1u16 << rows) - 1) as u8; n];
                for r in 0..rows {
                    for c in 0..n {
                        let f = fixed[(b * rows + r) * n + c];
                        if f != 0 {
                            given_rows[f.trailing_zeros() as usize] |= 1 << r;
                            free[c] &= !(1 << r);
                        }
                    }
                }
                for c in 0..n {
                    for d in 0..n {
                        let here = (0..rows).find(|&r| fixed[(b * rows + r) * n + c] == 1 << d);
                        row_ok[(b * n + c) * n + d] = match here {
                            Some(r) => 1 << r,
                            None => free[c] & !given_rows[d],
                        };
                    }
                }
            }
        }
        let places = Places::new(rows, cols, n, &fixed);
        let three = if rows == 3 {
            (0..bands)
                .map_while(|b| arrange::ThreeRows::new(n, &fixed[b * rows * n..(b + 1) * rows * n]))
                .collect()
        } else {
            Vec::new()
        };
        Some(Plan {
            rows,
            cols,
            n,
            bands,
            fixed,
            given,
            below,
            unnamed,
            row_ok,
            hall: Hall::new(rows, n),
            places,
            three,
            words: (n * n).div_ceil(64),
            generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Make what counting needs that [`Plan::unkeyed`] left out.
    pub(crate) fn make_keys(&mut self) {
        if let Some(p) = &mut self.places {
            p.make_keys();
        }
    }

    /// Rows of a band.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The number of completions of bands `k..` when the bands above are filled and column
    /// `c` still lacks the digits `rem[c]`, for a state of weight `weight` in the search's
    /// progress measure. A long count checks the search's stop conditions as it goes and
    /// reports its progress to `shared` itself.
    pub(crate) fn tail(&self, k: usize, rem: &[u64], shared: &Shared, weight: f64) -> Tail {
        debug_assert_eq!(rem.len(), self.n);
        if k >= self.bands {
            return Tail::Count(1, weight);
        }
        WORK.with(|cell| {
            let mut work = cell.borrow_mut();
            let work = &mut *work;
            if work.table.as_ref().is_none_or(|t| t.words() != self.words) {
                work.table = Some(Table::new(self.words, TABLE_BYTES));
            }
            if let Some(p) = &self.places {
                if work.places.as_ref().is_none_or(|t| t.shape() != p.tag) {
                    work.places = Some(Cache::new(p.tag, PLACES_BYTES));
                }
            }
            let mut watch = Watch {
                shared,
                top: k,
                weight,
                share: 0.0,
                reported: 0.0,
                ticks: work.ticks,
                stopped: false,
            };
            work.split = shared.tables_shared();
            work.zeros.start(self.generation);
            let count = self.count(work, k, rem, &mut watch);
            work.ticks = watch.ticks;
            match count {
                Some(n) => Tail::Count(n, weight - watch.reported),
                None if watch.stopped => Tail::Stopped,
                None => Tail::Declined,
            }
        })
    }

    fn tag(&self, band: usize, kind: u64) -> u64 {
        self.generation << 8 | (2 * band as u64 + kind)
    }

    fn fresh(&self) -> impl Fn(u64) -> bool {
        let g = self.generation;
        move |tag| tag >> 8 == g
    }

    /// `rem` (the digits each column lacks above band `b`) with the digits given nowhere in
    /// bands `b..` renamed in the order of the columns that lack them (into `out`, at least
    /// `n` long; or `rem` itself when they are in that order already, or fewer than two).
    /// Renaming those digits in the rest of the grid renames them in its completions and keeps
    /// every given, so the count below is the same.
    fn relabel<'a>(&self, b: usize, rem: &'a [u64], out: &'a mut [u64]) -> &'a [u64] {
        let free = self.unnamed[b];
        if free & free.wrapping_sub(1) == 0 {
            return rem;
        }
        // Scratch sized for the board (zeroing 64 words on every call cost 9×9 counts 1%).
        if self.n <= 16 {
            relabel_with::<16>(free, rem, out)
        } else {
            relabel_with::<64>(free, rem, out)
        }
    }

    /// `masks` packed into key words.
    fn pack(&self, masks: &[u64], key: &mut [u64; 64]) {
        let key = &mut key[..self.words];
        key.fill(0);
        let n = self.n;
        for (c, &m) in masks.iter().enumerate() {
            let bit = c * n;
            key[bit / 64] |= m << (bit % 64);
            if bit % 64 + n > 64 {
                key[bit / 64 + 1] |= m >> (64 - bit % 64);
            }
        }
    }

    /// Words of a way in the stacks' lists (see [`choices`]).
    fn stride(&self) -> usize {
        self.cols + EXTRA
    }

    /// The completions of bands `b..` when column `c` lacks `rem[c]`.
    fn count(&self, work: &mut Work, b: usize, rem: &[u64], watch: &mut Watch) -> Option<u128> {
        if b + 1 == self.bands {
            return Some(self.arrange(work, b, rem));
        }
        // The digits given nowhere below get their names from their columns: boundary states
        // that differ only in those names share one count (and one table entry).
        let (mut small, mut big);
        let named: &mut [u64] = if self.n <= 16 {
            small = [0u64; 16];
            &mut small
        } else {
            big = [0u64; 64];
            &mut big
        };
        let rem = self.relabel(b, rem, named);
        let mut key = [0u64; 64];
        self.pack(rem, &mut key);
        let key = &key[..self.words];
        let tag = self.tag(b, 1);
        // A split search's workers share the counts below boundaries; one thread keeps them in
        // its own table (plain words, no atomics).
        let split = work.split;
        let known = if split {
            shared_counts(self.words).get(tag, key)
        } else {
            work.table.as_ref().and_then(|t| t.get(tag, key))
        };
        if let Some(v) = known {
            return Some(v);
        }
        let result = if self.closed_below(b) {
            // No givens below: the closed form over the stacks' matchings.
            let c = self.cols;
            let counter = match &mut work.matchings {
                Some(m) if m.cols() == c => m,
                slot => slot.insert(empty::Counter::new(c)),
            };
            let mut lacking = [0u16; 8];
            for (l, &m) in lacking.iter_mut().zip(rem) {
                *l = m as u16;
            }
            Some(counter.below(&lacking[..c], &lacking[c..self.n]))
        } else {
            self.sum_below(work, b, rem, watch)
        };
        if let Some(v) = result {
            let fresh = self.fresh();
            if split {
                shared_counts(self.words).put(tag, key, v, &fresh);
            } else if let Some(t) = work.table.as_mut() {
                t.put(tag, key, v, &fresh);
            }
        }
        result
    }

    /// The fillings of the first band whose boundary shares one count below with a filling
    /// whose columns hold the digits `sets` (`arranged`: the first band's arrangements with
    /// those sets): the fillings with the same sets, and those whose sets differ only in the
    /// digits given nowhere below, renamed ([`Plan::relabel`] gives them one key). For the
    /// orientation estimate of boards of three bands ([`Estimate::dive`]), where the count below
    /// a boundary is looked up by that key: one tail's work serves them all. Renaming a
    /// digit that is not given in the first band either keeps the arrangements; the renamings
    /// of those given there are counted, at most [`SHARING_COUNTS`] of them (where there are
    /// more, the sum so far).
    pub(super) fn sharing(&self, sets: &[u64], arranged: f64) -> f64 {
        let n = self.n;
        let free = self.unnamed[1];
        if free.count_ones() < 2 {
            return arranged;
        }
        // The free digits' columns in the first band (its "pattern"; every digit has one
        // column per stack), the distinct patterns and how many digits have each.
        let pattern = digit_columns::<64>(sets, free);
        // The columns where each digit is given in the first band.
        let given = digit_columns::<64>(&self.given[..n], all_digits(n));
        let mut kinds = Sharing {
            patterns: [0; 64],
            left: [0; 64],
            len: 0,
            counts: 0,
            total: 0.0,
        };
        let (mut named, mut unnamed) = ([0u8; 64], [0u8; 64]);
        let (mut named_len, mut unnamed_len) = (0, 0);
        let mut f = free;
        while f != 0 {
            let d = f.trailing_zeros() as usize;
            f &= f - 1;
            let p = pattern[d];
            match kinds.patterns[..kinds.len].iter().position(|&q| q == p) {
                Some(k) => kinds.left[k] += 1,
                None => {
                    kinds.patterns[kinds.len] = p;
                    kinds.left[kinds.len] = 1;
                    kinds.len += 1;
                }
            }
            if given[d] != 0 {
                named[named_len] = d as u8;
                named_len += 1;
            } else {
                unnamed[unnamed_len] = d as u8;
                unnamed_len += 1;
            }
        }
        let digits = SharingDigits {
            sets,
            free,
            pattern: &pattern,
            given: &given,
            named: &named[..named_len],
            unnamed: &unnamed[..unnamed_len],
            arranged,
        };
        let mut chosen = [0usize; 64];
        self.sharing_from(&digits, &mut kinds, &mut chosen, 0);
        kinds.total.max(arranged)
    }

    /// [`Plan::sharing`]: the free digits given in the first band from the `i`-th on take a
    /// pattern each (their own first, so that the sum starts with `sets` itself).
    fn sharing_from(
        &self,
        digits: &SharingDigits,
        kinds: &mut Sharing,
        chosen: &mut [usize; 64],
        i: usize,
    ) {
        if kinds.counts >= SHARING_COUNTS {
            return;
        }
        if i == digits.named.len() {
            // The unnamed free digits share out the patterns left, in every distinct way.
            let mut ways = (1..=digits.unnamed.len())
                .map(|k| k as f64)
                .product::<f64>();
            for &l in &kinds.left[..kinds.len] {
                ways /= (1..=l).map(f64::from).product::<f64>();
            }
            let own = digits
                .named
                .iter()
                .zip(chosen.iter())
                .all(|(&d, &k)| kinds.patterns[k] == digits.pattern[d as usize]);
            let arranged = if own {
                digits.arranged
            } else {
                kinds.counts += 1;
                let mut image = [0u64; 64];
                for (o, &m) in image.iter_mut().zip(digits.sets) {
                    *o = m & !digits.free;
                }
                let mut put = |d: usize, mut p: u64| {
                    while p != 0 {
                        image[p.trailing_zeros() as usize] |= 1 << d;
                        p &= p - 1;
                    }
                };
                for (&d, &k) in digits.named.iter().zip(chosen.iter()) {
                    put(d as usize, kinds.patterns[k]);
                }
                let mut left = kinds.left;
                let mut k = 0;
                for &d in digits.unnamed {
                    while left[k] == 0 {
                        k += 1;
                    }
                    left[k] -= 1;
                    put(d as usize, kinds.patterns[k]);
                }
                self.arrangements(0, &image[..self.n]) as f64
            };
            kinds.total += ways * arranged;
            return;
        }
        let d = digits.named[i] as usize;
        let own = digits.pattern[d];
        let first = kinds.patterns[..kinds.len]
            .iter()
            .position(|&p| p == own)
            .expect("every free digit's pattern is a kind");
        let order = std::iter::once(first).chain((0..kinds.len).filter(|&k| k != first));
        for k in order {
            // The digit must stay in the columns where the first band gives it.
            if kinds.left[k] == 0 || kinds.patterns[k] & digits.given[d] != digits.given[d] {
                continue;
            }
            kinds.left[k] -= 1;
            chosen[i] = k;
            self.sharing_from(digits, kinds, chosen, i + 1);
            kinds.left[k] += 1;
        }
    }

    /// Whether bands `b..` are counted in closed form ([`empty`]): bands two rows high on a
    /// board up to 8×8, at most [`empty::MOST_BELOW`] of them, and no givens among them.
    fn closed_below(&self, b: usize) -> bool {
        self.rows == 2
            && empty::fits(self.cols)
            && self.bands - b <= empty::MOST_BELOW
            && self.unnamed[b] == all_digits(self.n)
    }

    /// [`Plan::count`] by enumeration: the ways of each stack for band `b`, combined.
    fn sum_below(&self, work: &mut Work, b: usize, rem: &[u64], watch: &mut Watch) -> Option<u128> {
        // The ways of each stack for this band, remembered by the stack's columns' digit sets
        // (boundary states share them: a stack's ways depend on nothing else).
        let stacks = self.rows;
        if work.ways.len() <= b {
            work.ways.resize_with(b + 1, Ways::default);
        }
        let mut ways = std::mem::take(&mut work.ways[b]);
        ways.start(self.generation, self.cols.min(8) + 1);
        let mut spans = [(0usize, 0usize); 8];
        let mut product = 1u64;
        for (s, span) in spans[..stacks].iter_mut().enumerate() {
            let c0 = s * self.cols;
            *span = ways.get_or_make(s, &rem[c0..c0 + self.cols], |out| {
                self.stack_choices(b, s, rem, out)
            });
            product = product.saturating_mul((span.1 / self.stride()) as u64);
        }
        let list = &ways.arena;
        let result = if product == 0 {
            Some(0)
        } else if product > MAX_CHOICES {
            None
        } else {
            // The stacks with the fewest ways outermost: the last stack's loop is the tight
            // one (see `sum_last`), and every combination of the others costs a call. The
            // count does not depend on the order (each way carries its own stack's places).
            let mut at = Combo::new();
            for (i, s) in at.stack[..stacks].iter_mut().enumerate() {
                *s = i;
            }
            at.stack[..stacks].sort_by_key(|&s| spans[s].1);
            if b == watch.top {
                watch.share = watch.weight / (spans[at.stack[0]].1 / self.stride()) as f64;
            }
            let lists: [&[u64]; 8] = std::array::from_fn(|i| {
                let (start, len) = spans[at.stack[i % stacks]];
                &list[start..start + len]
            });
            self.sum_from(work, b, rem, &lists[..stacks], 0, &mut at, watch)
        };
        work.ways[b] = ways;
        result
    }

    /// Σ, over every combination of the ways in `lists[s..]` (the stacks chosen `s`-th and
    /// after, in the order of `at.stack`; those before are in `at`), of
    /// band `b`'s arrangements times the completions below. A combination whose signatures
    /// fail Hall's condition has no arrangement and is skipped with everything after it.
    #[allow(clippy::too_many_arguments)]
    fn sum_from(
        &self,
        work: &mut Work,
        b: usize,
        rem: &[u64],
        lists: &[&[u64]],
        s: usize,
        at: &mut Combo,
        watch: &mut Watch,
    ) -> Option<u128> {
        let (n, cols, stride) = (self.n, self.cols, self.stride());
        let stacks = lists.len();
        let ways = lists[s];
        if s + 1 == stacks && self.places.is_some() && b + 2 == self.bands {
            return self.sum_last(work, b, rem, ways, at, watch);
        }
        let mut total = 0u128;
        for way in ways.chunks_exact(stride) {
            let extra = &way[cols..];
            let sig = [extra[SIG], extra[SIG_NEXT]];
            if s == 0 && b == watch.top {
                // Progress: this way of the top band's first stack is about to be done.
                watch.shared.add_done(watch.share);
                watch.reported += watch.share;
            }
            if !self.hall_ok(&at.sigs[..s], sig, s + 1 == stacks) {
                continue;
            }
            let c0 = at.stack[s] * cols;
            at.sets[c0..c0 + cols].copy_from_slice(&way[..cols]);
            at.sigs[s] = sig;
            let word = |i: usize| u128::from(extra[i]) | u128::from(extra[i + 1]) << 64;
            at.places[s + 1] = at.places[s] + word(PLACES);
            at.places_next[s + 1] = at.places_next[s] + word(PLACES_NEXT);
            if s + 1 < stacks {
                total += self.sum_from(work, b, rem, lists, s + 1, at, watch)?;
                continue;
            }
            if watch.tick(1) {
                return None;
            }
            let here = self.arrange(work, b, &at.sets[..n]);
            if here == 0 {
                continue;
            }
            let mut left = [0u64; 64];
            for c in 0..n {
                left[c] = rem[c] & !at.sets[c];
            }
            total += here * self.count(work, b + 1, &left[..n], watch)?;
        }
        Some(total)
    }

    /// [`Plan::sum_from`] for the last stack of the last two bands, with [`Places`] keys:
    /// the keys of a batch of ways are made and their table slots fetched first, then looked
    /// up (the table is bigger than the caches: this way the loads overlap).
    fn sum_last(
        &self,
        work: &mut Work,
        b: usize,
        rem: &[u64],
        ways: &[u64],
        at: &mut Combo,
        watch: &mut Watch,
    ) -> Option<u128> {
        let (cols, stride) = (self.cols, self.stride());
        let places = self.places.as_ref().expect("sum_last runs with places");
        let s = self.rows - 1;
        // The last stack's columns.
        let c0 = at.stack[s] * cols;
        let count = ways.len() / stride;
        let mut total = 0u128;
        let mut next = 0;
        // Three stacks nine wide or less (then `s` is 2): the Hall check written out.
        let third = self.hall.as_ref().is_some_and(|h| h.third());
        let (sig0, sig1) = (at.sigs[0][0], at.sigs[1][0]);
        while next < count {
            // The keys of the next batch of ways that pass Hall's condition.
            let mut k = 0;
            while next < count && k < BATCH {
                let i = next;
                next += 1;
                let extra = &ways[i * stride + cols..(i + 1) * stride];
                let ok = if third {
                    self.hall_ok_third(sig0, sig1, extra[SIG])
                } else {
                    self.hall_ok(&at.sigs[..s], [extra[SIG], extra[SIG_NEXT]], true)
                };
                if !ok {
                    continue;
                }
                let word = |i: usize| u128::from(extra[i]) | u128::from(extra[i + 1]) << 64;
                places.key(b, at.places[s] + word(PLACES), &mut at.keys[k][0]);
                places.key(
                    b + 1,
                    at.places_next[s] + word(PLACES_NEXT),
                    &mut at.keys[k][1],
                );
                at.hashes[k] = [Cache::hash(&at.keys[k][0]), Cache::hash(&at.keys[k][1])];
                if let Some(t) = work.places.as_ref() {
                    t.prefetch(at.hashes[k][0]);
                    t.prefetch(at.hashes[k][1]);
                }
                at.batch[k] = i;
                k += 1;
            }
            if watch.tick(k as u32) {
                return None;
            }
            for j in 0..k {
                let i = at.batch[j];
                let (key, h) = (&at.keys[j], at.hashes[j]);
                let table = work.places.as_ref();
                let known = |side: usize| table.and_then(|t| t.get(&key[side], h[side]));
                let here = known(0);
                if here == Some(0) {
                    continue;
                }
                let below = known(1);
                if below == Some(0) {
                    continue;
                }
                let (here, below) = if let (Some(here), Some(below)) = (here, below) {
                    (here, below)
                } else {
                    let way = (&ways[i * stride..i * stride + cols], c0);
                    match self.count_unknown(
                        work,
                        b,
                        (key, h),
                        way,
                        &mut at.sets,
                        rem,
                        [here, below],
                    ) {
                        Some(both) => both,
                        None => continue,
                    }
                };
                total += u128::from(here) * u128::from(below);
            }
        }
        Some(total)
    }

    /// For [`Plan::sum_last`]: the arrangements of band `b` and of the next band, `known`
    /// (from the table, not 0) or not, of the combination whose keys are `keys` (with
    /// their hashes), whose column sets are `sets` but the last stack's (from column `c0`),
    /// which takes `way`: those unknown are counted and remembered; `None` where one is 0.
    ///
    /// Where neither is known, the band whose counts gave 0 more often so far ([`Work::zeros`])
    /// is counted first, and a 0 spares the other's count. (A sparse count's next band often
    /// has no arrangement: on two of the weakest held-out sparse counts, 42% and 65% of this
    /// band's counts were made for a product of 0 when this band was always counted first.)
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn count_unknown(
        &self,
        work: &mut Work,
        b: usize,
        (keys, hashes): (&[[u64; KEY_WORDS]; 2], [u64; 2]),
        (way, c0): (&[u64], usize),
        sets: &mut [u64; 64],
        rem: &[u64],
        mut known: [Option<u64>; 2],
    ) -> Option<(u64, u64)> {
        sets[c0..c0 + self.cols].copy_from_slice(way);
        let sets = &sets[..self.n];
        let next_first = known == [None, None] && work.zeros.next_first();
        let order = if next_first { [1, 0] } else { [0, 1] };
        for side in order {
            if known[side].is_some() {
                continue;
            }
            let key = (&keys[side], hashes[side]);
            let v = if side == 0 {
                self.count_key(work, b, key, sets, None)
            } else {
                self.count_key(work, b + 1, key, sets, Some(rem))
            };
            work.zeros.tally(side, v == 0);
            if v == 0 {
                return None;
            }
            known[side] = Some(v);
        }
        Some((known[0]?, known[1]?))
    }

    /// The arrangements of band `b` with column sets `sets`, remembered.
    fn arrange(&self, work: &mut Work, b: usize, sets: &[u64]) -> u128 {
        if let Some(p) = &self.places {
            let mut key = [0u64; KEY_WORDS];
            p.key(b, p.of_sets(self.cols, sets), &mut key);
            let hash = Cache::hash(&key);
            let v = match work.places.as_ref().and_then(|t| t.get(&key, hash)) {
                Some(v) => v,
                None => self.count_key(work, b, (&key, hash), sets, None),
            };
            return u128::from(v);
        }
        let mut key = [0u64; 64];
        self.pack(sets, &mut key);
        let key = &key[..self.words];
        let tag = self.tag(b, 0);
        let table = work
            .table
            .as_mut()
            .expect("the tables are made before counting");
        if let Some(v) = table.get(tag, key) {
            return v;
        }
        let v = self.arrangements(b, sets);
        table.put(tag, key, v, &self.fresh());
        v
    }

    /// The arrangements of band `b` whose [`Places`] key is `key` (with its [`Cache::hash`]),
    /// not in the table of the shape: counted and remembered there. Its column sets are
    /// `sets`, or (with `rem`) what `rem` keeps of the columns after `sets`. Out of line: the
    /// lookups' loop stays small.
    #[inline(never)]
    fn count_key(
        &self,
        work: &mut Work,
        b: usize,
        (key, hash): (&[u64; KEY_WORDS], u64),
        sets: &[u64],
        rem: Option<&[u64]>,
    ) -> u64 {
        // A split search's workers share what they counted: each worker's own table misses
        // what the others counted (on two threads, half again as many arrangements counted).
        let tag = self.places.as_ref().map_or(0, |p| p.tag);
        let shared = work.split.then(|| shared_counts(KEY_WORDS));
        let known = shared.and_then(|t| t.get(tag, key));
        let v = known.unwrap_or_else(|| match rem {
            None => self.arrangements(b, sets),
            Some(rem) => {
                // Keys are made for boards up to 16 wide (see `Places::new`).
                let mut left = [0u64; 16];
                for (l, (&r, &s)) in left.iter_mut().zip(rem.iter().zip(sets)) {
                    *l = r & !s;
                }
                self.arrangements(b, &left[..self.n])
            }
        });
        if let (Some(t), None) = (shared, known) {
            t.put(tag, key, v, &|t| t == tag);
        }
        // At most (rows!)^n, below 2^63 for every shape with keys (see `Places::new`).
        let v = v as u64;
        work.places
            .as_mut()
            .expect("the tables are made before counting")
            .put(key, hash, v);
        v
    }

    /// The arrangements of band `b` with column sets `sets`, counted.
    pub(crate) fn arrangements(&self, b: usize, sets: &[u64]) -> u128 {
        if let Some(three) = self.three.get(b) {
            return three.count(sets);
        }
        let rows = self.rows;
        arrange::arrangements(
            rows,
            sets,
            &self.fixed[b * rows * self.n..(b + 1) * rows * self.n],
        )
    }
}

/// The most arrangements [`Plan::sharing`] counts for one boundary.
const SHARING_COUNTS: u32 = 16;

/// The distinct patterns of [`Plan::sharing`]'s free digits (the first `len`), how many digits
/// are left to take each, the arrangements counted so far (up to [`SHARING_COUNTS`]) and the
/// sum so far.
struct Sharing {
    patterns: [u64; 64],
    left: [u32; 64],
    len: usize,
    counts: u32,
    total: f64,
}

/// What [`Plan::sharing`] reads: the first band's sets, the free digits, their patterns, the
/// columns where the first band gives each digit, the free digits given there (`named`) and
/// the others, and the arrangements of `sets`.
struct SharingDigits<'a> {
    sets: &'a [u64],
    free: u64,
    pattern: &'a [u64; 64],
    given: &'a [u64; 64],
    named: &'a [u8],
    unnamed: &'a [u8],
    arranged: f64,
}

/// For each of the `digits` (bit `d`), the columns (bit `c`) whose mask `masks[c]` holds it.
#[inline]
fn digit_columns<const N: usize>(masks: &[u64], digits: u64) -> [u64; N] {
    let mut cols = [0u64; N];
    for (c, &mask) in masks.iter().enumerate() {
        let mut m = mask & digits;
        while m != 0 {
            cols[m.trailing_zeros() as usize] |= 1 << c;
            m &= m - 1;
        }
    }
    cols
}

/// [`Plan::relabel`] of the digits `free` (two or more) with scratch for boards up to `N` wide.
fn relabel_with<'a, const N: usize>(free: u64, rem: &'a [u64], out: &'a mut [u64]) -> &'a [u64] {
    // Each unnamed digit's columns (bit `c`: column `c` lacks it).
    let cols = digit_columns::<N>(rem, free);
    // Sorted, they go to the unnamed digits in increasing order (often they are already).
    let mut sorted = [0u64; N];
    let (mut k, mut moved) = (0, false);
    let mut f = free;
    while f != 0 {
        let v = cols[f.trailing_zeros() as usize];
        f &= f - 1;
        let mut i = k;
        while i > 0 && sorted[i - 1] > v {
            sorted[i] = sorted[i - 1];
            i -= 1;
        }
        moved |= i != k;
        sorted[i] = v;
        k += 1;
    }
    if !moved {
        return rem;
    }
    let out = &mut out[..rem.len()];
    for (o, &r) in out.iter_mut().zip(rem) {
        *o = r & !free;
    }
    let mut f = free;
    for &v in &sorted[..k] {
        let bit = f & f.wrapping_neg();
        f &= f - 1;
        let mut m = v;
        while m != 0 {
            out[m.trailing_zeros() as usize] |= bit;
            m &= m - 1;
        }
    }
    out
}

/// Ways of the last stack whose keys are made and fetched together (see [`Plan::sum_last`]).
const BATCH: usize = 16;

/// The ways chosen so far in a combination, and scratch for the last stack.
struct Combo {
    /// `stack[i]`: the stack chosen `i`-th (see [`Plan::count`]).
    stack: [usize; 8],
    /// The column sets of the band, stacks chosen so far.
    sets: [u64; 64],
    /// The signatures of the stacks chosen so far (this band, the next).
    sigs: [[u64; 2]; 8],
    /// `places[s]`: the digits' places in this band from the stacks chosen before the `s`-th.
    places: [u128; 9],
    /// The same for the next band.
    places_next: [u128; 9],
    /// Keys of a batch of ways of the last stack (this band, the next).
    keys: [[[u64; KEY_WORDS]; 2]; BATCH],
    /// Their ways (index in the stack's list).
    batch: [usize; BATCH],
    /// Their keys' hashes (this band, the next).
    hashes: [[u64; 2]; BATCH],
}

impl Combo {
    fn new() -> Combo {
        Combo {
            stack: [0; 8],
            sets: [0; 64],
            sigs: [[0; 2]; 8],
            places: [0; 9],
            places_next: [0; 9],
            keys: [[[0; KEY_WORDS]; 2]; BATCH],
            batch: [0; BATCH],
            hashes: [[0; 2]; BATCH],
        }
    }
}

/// A thread's tables and scratch lists (kept across searches and puzzles).
#[derive(Default)]
struct Work {
    /// Counts below boundaries, and arrangements where [`Places`] keys do not fit.
    table: Option<Table>,
    /// Arrangements by [`Places`] key.
    places: Option<Cache>,
    /// The stacks' ways at each band depth of the tail's recursion.
    ways: Vec<Ways>,
    /// The closed form below boundaries with no givens under them, on boards of bands two rows
    /// high ([`empty::Counter`], for one box width at a time).
    matchings: Option<empty::Counter>,
    /// How often the arrangements counted in [`Plan::sum_last`] were 0, for each side.
    zeros: Zeros,
    /// Combinations since the stop conditions were last checked, carried from tail to tail:
    /// a split search's tails are often smaller than [`POLL_EVERY`], and checking only within
    /// one would never check (a timeout or Ctrl-C went unheard).
    ticks: u32,
    /// The tail keeps its counts in the tables the workers share ([`Shared::tables_shared`]):
    /// counts below boundaries there instead of in `table`, and arrangements missing from
    /// `places` looked up in (and put into) one before (after) they are counted.
    split: bool,
}

/// The ways of the stacks of one band depth, remembered by the stack and its columns' digit
/// sets: lists in an arena, found through a table. Emptied when the plan changes, or when the
/// arena outgrows its limit; the table is kept (its entries of an earlier epoch are stale).
/// The counts keep one per band depth and thread; each turn's estimate keeps a small one
/// ([`Ways::small`]).
struct Ways {
    generation: u64,
    /// The tag of the table's current entries (from 1).
    epoch: u64,
    table: Option<Table>,
    arena: Vec<u64>,
    /// The table's size limit (bytes) and the arena's (words).
    table_bytes: usize,
    max_words: usize,
}

impl Default for Ways {
    fn default() -> Ways {
        Ways::with_limits(WAYS_BYTES, WAYS_WORDS)
    }
}

/// The most words the ways of one band depth keep (then they start again).
const WAYS_WORDS: usize = 4 << 20;

/// The size of the table of [`Ways`]: one huge page (see [`crate::engine::pages`]). A table
/// under half of one is on 4 KiB pages, and its first touch costs a fault per page: the
/// 16,384 slots of 56 bytes this table had took 224 faults, 1–2 ms of a 30 ms count.
const WAYS_BYTES: usize = 2 << 20;

/// The limits of [`Ways::small`]: a table on small pages (a few faults on its first touch,
/// where a huge page of its own would cost each turn of each count its zeroing), and 2^18
/// words (a sparse 9×9 count's dives keep 4,000–6,000 words, 60–100 lists, a turn).
const SMALL_WAYS_BYTES: usize = 64 << 10;
const SMALL_WAYS_WORDS: usize = 1 << 18;

impl Ways {
    fn with_limits(table_bytes: usize, max_words: usize) -> Ways {
        Ways {
            generation: 0,
            epoch: 0,
            table: None,
            arena: Vec::new(),
            table_bytes,
            max_words,
        }
    }

    /// Ways for one turn's estimate ([`orient::Estimate`]): its dives meet the same stacks
    /// again and again (making the lists anew at each boundary had been 4% of a sparse 9×9
    /// count).
    fn small() -> Ways {
        Ways::with_limits(SMALL_WAYS_BYTES, SMALL_WAYS_WORDS)
    }

    /// Make ready for `generation`'s plan, with keys of `words` words.
    fn start(&mut self, generation: u64, words: usize) {
        let fits = self.table.as_ref().is_some_and(|t| t.words() == words);
        if self.generation != generation || !fits || self.arena.len() > self.max_words {
            self.generation = generation;
            self.epoch += 1;
            if !fits {
                self.table = Some(Table::new(words, self.table_bytes));
            }
            self.arena.clear();
        }
    }

    /// The span (start, length) in the arena of stack `s`'s ways when its columns lack
    /// `rem`; `make` appends them to the arena if they are not there yet.
    fn get_or_make(
        &mut self,
        s: usize,
        rem: &[u64],
        make: impl FnOnce(&mut Vec<u64>),
    ) -> (usize, usize) {
        if rem.len() > 8 {
            // Wide stacks (Latin squares and the like): not remembered.
            let start = self.arena.len();
            make(&mut self.arena);
            return (start, self.arena.len() - start);
        }
        let mut key = [0u64; 9];
        key[0] = s as u64 + 1;
        key[1..=rem.len()].copy_from_slice(rem);
        let key = &key[..=rem.len()];
        let tag = self.epoch;
        let table = self.table.as_mut().expect("started");
        if let Some(v) = table.get(tag, key) {
            return (v as u64 as usize, (v >> 64) as usize);
        }
        let start = self.arena.len();
        make(&mut self.arena);
        let len = self.arena.len() - start;
        table.put(tag, key, start as u128 | (len as u128) << 64, &|t| t == tag);
        (start, len)
    }
}

/// For each side of [`Plan::sum_last`]'s combinations (the band, the next band): how many
/// arrangements were counted there for the plan of `generation`, and how many of them were 0.
#[derive(Default)]
struct Zeros {
    generation: u64,
    counted: [u64; 2],
    zero: [u64; 2],
}

impl Zeros {
    /// Start again for the plan of `generation`, if these were another's.
    fn start(&mut self, generation: u64) {
        if self.generation != generation {
            *self = Zeros {
                generation,
                ..Zeros::default()
            };
        }
    }

    /// Note a count on `side`, `zero` or not.
    #[inline]
    fn tally(&mut self, side: usize, zero: bool) {
        self.counted[side] += 1;
        self.zero[side] += u64::from(zero);
    }

    /// Whether the next band is to be counted first: its counts were 0 at least as often as
    /// the band's (each side starts with one count that was 0, so at first it is).
    #[inline]
    fn next_first(&self) -> bool {
        // Wide products: no tally is large enough to overflow them.
        let [c0, c1] = self.counted.map(|c| u128::from(c) + 1);
        let [z0, z1] = self.zero.map(|z| u128::from(z) + 1);
        z1 * c0 >= z0 * c1
    }
}

thread_local! {
    static WORK: RefCell<Work> = RefCell::new(Work::default());
}

#[cfg(test)]
mod tests;
