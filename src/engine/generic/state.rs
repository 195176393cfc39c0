//! One search state and its propagation: naked and hidden singles and, where there are rules,
//! their units (locked candidates among them), to a fixpoint.

use super::search::{Hot, HOT_SHARE};
use super::tables::Tables;
use crate::rules::{self, Contradiction, Masks};

/// The contradiction marker of propagation, with where it showed.
pub(super) struct Dead(pub(super) Blame);

/// Where a contradiction showed.
#[derive(Debug, Clone, Copy)]
pub(super) enum Blame {
    /// A cell left without candidates.
    Cell(usize),
    /// A house without a place for a digit, or with a digit twice.
    House(usize),
    /// A rule's propagator (a unit of `Propagators`).
    Unit(usize),
}

/// A state as the rules' propagators see it: candidates of open cells, the digit of placed
/// ones; a cell narrowed to one candidate is queued as a naked single.
pub(super) struct View<'a> {
    pub(super) st: &'a mut State,
    pub(super) t: &'a Tables,
    pub(super) full: u64,
    pub(super) queue: &'a mut Vec<u16>,
    pub(super) cleared: &'a mut Cleared,
}

/// What the rules' required digits cleared from the cells that see all their places, along
/// the search's path (see `Masks::cleared_before`): a direct-mapped table of the last clears,
/// each with the level of the state it was made in and that level's generation. A clear
/// made in a state holds in every state that narrows it: the same level later (after
/// refutations, which narrow it) and the levels below it; a level made anew (a new child)
/// takes a new generation, which voids what its earlier occupant noted.
#[derive(Debug, Clone)]
pub(super) struct Cleared {
    /// The level being propagated; `None`: nothing is noted or skipped (a propagation
    /// outside the search's levels).
    pub(super) level: Option<usize>,
    gens: Vec<u32>,
    table: Vec<ClearedEntry>,
}

#[derive(Debug, Clone, Copy, Default)]
struct ClearedEntry {
    unit: usize,
    bit: u64,
    places: u64,
    level: u32,
    gen: u32,
}

impl Cleared {
    const SLOTS: usize = 2048;

    /// An empty memo; its table is made at its first use (a search of a puzzle whose rules
    /// need digits in some cells), so that the many short searches of a batch or of true
    /// candidates do not each make one.
    pub(super) fn new() -> Cleared {
        Cleared {
            level: None,
            gens: Vec::new(),
            table: Vec::new(),
        }
    }

    /// Level `level` holds a new state.
    #[inline]
    pub(super) fn renew(&mut self, level: usize) {
        if self.gens.len() <= level {
            self.gens.resize(level + 1, 0);
        }
        self.gens[level] = self.gens[level].wrapping_add(1);
    }

    #[inline(always)]
    fn check(&mut self, unit: *const u16, bit: u64, places: u64) -> bool {
        let Some(level) = self.level else {
            return false;
        };
        if self.table.is_empty() {
            self.table = vec![ClearedEntry::default(); Self::SLOTS];
        }
        let unit = unit as usize;
        let h = ((unit as u64 >> 1) ^ u64::from(bit.trailing_zeros()))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.table[(h >> 53) as usize & (Self::SLOTS - 1)];
        let e = *slot;
        if e.unit == unit
            && e.bit == bit
            && e.places == places
            && (e.level as usize) <= level
            && self.gens.get(e.level as usize) == Some(&e.gen)
        {
            return true;
        }
        *slot = ClearedEntry {
            unit,
            bit,
            places,
            level: level as u32,
            gen: self.gens.get(level).copied().unwrap_or(0),
        };
        false
    }
}

/// Each value's bit (bit `v - 1` for value `v`), none for 0 (an open cell); a `u8`'s every
/// value has an entry, so that reading it needs no bounds check.
static VALUE_BIT: [u64; 256] = {
    let mut bits = [0u64; 256];
    let mut v = 1;
    while v <= 64 {
        bits[v] = 1 << (v - 1);
        v += 1;
    }
    bits
};

impl Masks for View<'_> {
    #[inline(always)]
    fn mask(&self, cell: usize) -> u64 {
        // Without a branch: an open cell has value 0 and its candidates, a placed one no
        // candidates and its digit's bit.
        self.st.cand[cell] | VALUE_BIT[usize::from(self.st.value[cell])]
    }

    #[inline(always)]
    fn open(&self, cell: usize) -> u64 {
        self.st.cand[cell]
    }

    #[inline(always)]
    fn placed(&self, h: usize) -> u64 {
        self.st.placed[h]
    }

    #[inline(always)]
    fn cleared_before(&mut self, unit: *const u16, bit: u64, places: u64) -> bool {
        self.cleared.check(unit, bit, places)
    }

    // Always inlined: the rules call it in their loops (left to the compiler, the few
    // instructions of marking stale houses made it a call, 3% more instructions on the
    // hard killers).
    #[inline(always)]
    fn restrict(&mut self, cell: usize, allowed: u64) -> Result<bool, Contradiction> {
        let v = self.st.value[cell];
        if v != 0 {
            return if allowed >> (v - 1) & 1 == 1 {
                Ok(false)
            } else {
                Err(Contradiction)
            };
        }
        let c = self.st.cand[cell];
        let kept = c & allowed & self.full;
        if kept == c {
            return Ok(false);
        }
        if kept == 0 {
            return Err(Contradiction);
        }
        self.st.cand[cell] = kept;
        self.st.touch_all(self.t, cell);
        if kept & (kept - 1) == 0 {
            self.queue.push(cell as u16);
        }
        Ok(true)
    }
}

/// The most words of `State::changed` where hidden singles read the stale houses from it.
pub(super) const CHANGED_WORDS: usize = 8;

/// Propagation scratch: the naked-singles queue and, where there are rules, the units to
/// run, the sums' memos and the redundant sums' yields.
pub(super) struct Work {
    pub(super) queue: Vec<u16>,
    /// The units to run (see `Propagators::run_dirty`).
    pub(super) dirty: Vec<u64>,
    /// The sums' memos (see `Propagators::memo`).
    pub(super) memo: Vec<rules::sums::Seen>,
    /// How often the redundant sums paid, and those retired (see `rules::Yields`).
    pub(super) yields: rules::Yields,
    /// Run every unit at the next propagation (the root, where nothing was seen).
    pub(super) all: bool,
    /// The clears of required digits along the search's path.
    pub(super) cleared: Cleared,
}

/// One search state: candidates of open cells (0 for solved cells), values and per-house
/// placed digits.
#[derive(Debug, Clone)]
pub(super) struct State {
    pub(super) cand: Vec<u64>,
    pub(super) value: Vec<u8>,
    placed: Vec<u64>,
    pub(super) open: usize,
    /// The houses (bits) with a cell changed since hidden singles last looked at them: the
    /// others hold none and miss no digit, so `singles` passes them by (a third of the
    /// instructions of puzzles with thermometers went to looking at every house, round
    /// after round). Empty at every fixpoint.
    pub(super) stale: Vec<u64>,
    /// Where there are rules: the cells (bits) whose candidates changed since the rules'
    /// units were last marked for them (a unit none of whose cells changed needs no run).
    /// Empty at every fixpoint.
    pub(super) changed: Vec<u64>,
    /// The cell placed last (`NONE` before any placement since a refutation began): where
    /// `Tables::placed_blame` or `Tables::last_blame`, a cell a dead end is blamed on.
    last: u32,
}

/// No cell placed (see `State::last`).
const NONE: u32 = u32::MAX;

impl State {
    pub(super) fn empty(t: &Tables) -> State {
        // Every house stale: none looked at yet.
        let mut stale = vec![0; t.house_words];
        rules::first_bits(&mut stale, t.nh);
        State {
            cand: vec![t.full; t.cells],
            value: vec![0; t.cells],
            placed: vec![0; t.nh],
            open: t.cells,
            stale,
            // Every cell changed: none looked at yet.
            changed: if t.props.is_some() {
                let mut all = vec![0; t.cells.div_ceil(64)];
                rules::first_bits(&mut all, t.cells);
                all
            } else {
                Vec::new()
            },
            last: NONE,
        }
    }

    /// Mark the houses of `cell` stale (its candidates changed).
    #[inline(always)]
    pub(super) fn touch(&mut self, t: &Tables, cell: usize) {
        let w = t.house_words;
        if w == 0 {
            // Not kept (see `Tables::house_words`).
            return;
        }
        if w == 1 {
            // At most 64 houses (every 9×9 board with its rules' houses).
            self.stale[0] |= t.house_bits[cell];
            return;
        }
        for (s, &b) in self
            .stale
            .iter_mut()
            .zip(&t.house_bits[cell * w..(cell + 1) * w])
        {
            *s |= b;
        }
    }

    /// Note that the candidates of `cell` changed: its houses are stale, and where there are
    /// rules, the cell is marked changed.
    #[inline(always)]
    fn touch_all(&mut self, t: &Tables, cell: usize) {
        self.touch(t, cell);
        if let Some(word) = self.changed.get_mut(cell / 64) {
            *word |= 1 << (cell % 64);
        }
    }

    #[inline(always)]
    pub(super) fn copy_from(&mut self, o: &State) {
        self.cand.copy_from_slice(&o.cand);
        self.value.copy_from_slice(&o.value);
        self.placed.copy_from_slice(&o.placed);
        self.open = o.open;
        self.stale.copy_from_slice(&o.stale);
        if !o.changed.is_empty() {
            self.changed.copy_from_slice(&o.changed);
        }
    }

    /// Place digit `bit` (a one-bit mask) in an open cell and remove it from the peers.
    #[inline]
    fn assign<const CELLS: bool>(
        &mut self,
        t: &Tables,
        cell: usize,
        bit: u64,
        queue: &mut Vec<u16>,
    ) -> Result<(), Dead> {
        if self.cand[cell] & bit == 0 {
            return Err(Dead(Blame::Cell(cell)));
        }
        for &h in t.houses_of(cell) {
            let p = &mut self.placed[h as usize];
            if *p & bit != 0 {
                return Err(Dead(Blame::House(usize::from(h))));
            }
            *p |= bit;
        }
        self.value[cell] = bit.trailing_zeros() as u8 + 1;
        self.last = cell as u32;
        // Solved cells keep no candidates, so the peer loop needs no "is it open?" test.
        self.cand[cell] = 0;
        self.open -= 1;
        if CELLS {
            self.touch_all(t, cell);
        } else {
            self.touch(t, cell);
        }
        for &p in t.peers_of(cell) {
            let p = p as usize;
            let c = self.cand[p];
            if c & bit != 0 {
                let c = c & !bit;
                self.cand[p] = c;
                if CELLS {
                    self.touch_all(t, p);
                } else {
                    self.touch(t, p);
                }
                if c & c.wrapping_sub(1) == 0 {
                    if c == 0 {
                        return Err(Dead(Blame::Cell(p)));
                    }
                    queue.push(p as u16);
                }
            }
        }
        Ok(())
    }

    /// [`State::assign`], marking the changed cells where there are rules.
    #[inline]
    pub(super) fn assign_any(
        &mut self,
        t: &Tables,
        cell: usize,
        bit: u64,
        queue: &mut Vec<u16>,
    ) -> Result<(), Dead> {
        if self.changed.is_empty() {
            self.assign::<false>(t, cell, bit, queue)
        } else {
            self.assign::<true>(t, cell, bit, queue)
        }
    }

    /// Assign every queued naked single.
    #[inline]
    fn drain<const CELLS: bool>(&mut self, t: &Tables, queue: &mut Vec<u16>) -> Result<(), Dead> {
        if CELLS && t.placed_blame {
            // First in, first out (see `Tables::placed_blame`).
            let mut i = 0;
            while let Some(&cell) = queue.get(i) {
                i += 1;
                let cell = cell as usize;
                if self.value[cell] == 0 {
                    self.assign::<CELLS>(t, cell, self.cand[cell], queue)?;
                }
            }
            queue.clear();
            return Ok(());
        }
        while let Some(cell) = queue.pop() {
            let cell = cell as usize;
            if self.value[cell] == 0 {
                self.assign::<CELLS>(t, cell, self.cand[cell], queue)?;
            }
        }
        Ok(())
    }

    /// From a fixpoint: digit `bit` placed in the open `cell`, then propagated to the next
    /// fixpoint. The queue is empty on return.
    #[inline]
    pub(super) fn try_digit(
        &mut self,
        t: &Tables,
        w: &mut Work,
        cell: usize,
        bit: u64,
    ) -> Result<(), Dead> {
        let ok = self
            .assign_any(t, cell, bit, &mut w.queue)
            .and_then(|()| self.propagate(t, w));
        w.queue.clear();
        ok
    }

    /// From a fixpoint: digit `bit` taken out of the open `cell` (which holds another), then
    /// propagated to the next fixpoint. The queue is empty on return.
    #[inline]
    pub(super) fn refute(
        &mut self,
        t: &Tables,
        w: &mut Work,
        cell: usize,
        bit: u64,
    ) -> Result<(), Dead> {
        let rest = self.cand[cell] & !bit;
        debug_assert!(rest != 0 && rest != self.cand[cell]);
        self.last = NONE;
        self.cand[cell] = rest;
        self.touch_all(t, cell);
        if rest & (rest - 1) == 0 {
            w.queue.push(cell as u16);
        }
        self.propagate(t, w)
    }

    /// Naked and hidden singles and the rules' propagators to a fixpoint. The queue is empty
    /// on return. The rules' units run where a cell of theirs changed since the state's last
    /// fixpoint (`State::changed`; every unit where `w.all`).
    pub(super) fn propagate(&mut self, t: &Tables, w: &mut Work) -> Result<(), Dead> {
        let result = self.propagate_inner(t, w);
        w.queue.clear();
        if result.is_err() && !self.changed.is_empty() {
            self.changed.fill(0);
        }
        result
    }

    fn propagate_inner(&mut self, t: &Tables, w: &mut Work) -> Result<(), Dead> {
        let Some(props) = &t.props else {
            return self.singles::<false>(t, &mut w.queue);
        };
        w.dirty.fill(0);
        if w.all {
            props.mark_all(&mut w.dirty);
            w.all = false;
        }
        loop {
            self.singles::<true>(t, &mut w.queue)?;
            for (i, word) in self.changed.iter_mut().enumerate() {
                let mut bits = std::mem::take(word);
                while bits != 0 {
                    props.mark_cell(i * 64 + bits.trailing_zeros() as usize, &mut w.dirty);
                    bits &= bits - 1;
                }
            }
            if w.dirty.iter().all(|&d| d == 0) {
                return Ok(());
            }
            let mut view = View {
                st: self,
                t,
                full: t.full,
                queue: &mut w.queue,
                cleared: &mut w.cleared,
            };
            if let Err(u) = props.run_dirty(&mut view, &mut w.dirty, &mut w.memo, &mut w.yields) {
                return Err(Dead(Blame::Unit(u)));
            }
        }
    }

    /// Naked and hidden singles to a fixpoint.
    fn singles<const CELLS: bool>(&mut self, t: &Tables, queue: &mut Vec<u16>) -> Result<(), Dead> {
        self.drain::<CELLS>(t, queue)?;
        if CELLS && t.stale_from_changed {
            return self.singles_where_changed(t, queue);
        }
        // Rounds over the houses in order until one assigns nothing; where stale houses are
        // kept, over those alone until none is: the houses scanned, and what they find, are
        // the same (a house not stale finds nothing).
        let tracked = t.house_words > 0;
        let mut again = true;
        while self.open > 0 && again {
            again = false;
            for h in 0..t.nh {
                if tracked {
                    let (w, b) = (h / 64, 1u64 << (h % 64));
                    if self.stale[w] & b == 0 {
                        continue;
                    }
                    self.stale[w] &= !b;
                }
                // The body of `hidden_singles`, written out: called here, it cost a plain 6×6
                // search 2% more instructions.
                let placed = self.placed[h];
                if placed == t.full {
                    continue;
                }
                let (mut once, mut twice) = (0u64, 0u64);
                for &c in t.house(h) {
                    let m = self.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if (once | placed) != t.full {
                    return Err(Dead(Blame::House(h)));
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    let cell = t
                        .house(h)
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| self.cand[c] & bit != 0)
                        .ok_or(Dead(Blame::House(h)))?;
                    self.assign::<CELLS>(t, cell, bit, queue)?;
                    again = true;
                }
                self.drain::<CELLS>(t, queue)?;
            }
            if tracked {
                again = self.stale.iter().any(|&w| w != 0);
            }
        }
        Ok(())
    }

    /// [`State::singles`] where stale houses are not kept but cells are marked changed
    /// (rules, at most 64 houses): the stale houses are those of the cells changed
    /// since the rules' units were last marked, and of those each hidden single changes as
    /// the rounds go. The same houses are scanned, in the same order, as where stale houses
    /// are kept.
    #[inline(never)]
    fn singles_where_changed(&mut self, t: &Tables, queue: &mut Vec<u16>) -> Result<(), Dead> {
        // The marks are taken as they are read (so that a cell changed again marks its houses
        // again) and given back at the end, for the rules' units (on a dead end the caller
        // clears them).
        let mut taken = [0u64; CHANGED_WORDS];
        let mut stale = 0u64;
        let mut read = |st: &mut State, stale: &mut u64| {
            for (i, (mark, all)) in st.changed.iter_mut().zip(taken.iter_mut()).enumerate() {
                let mut fresh = std::mem::take(mark);
                *all |= fresh;
                while fresh != 0 {
                    *stale |= t.house_bits[i * 64 + fresh.trailing_zeros() as usize];
                    fresh &= fresh - 1;
                }
            }
        };
        read(self, &mut stale);
        while self.open > 0 && stale != 0 {
            // A round: the stale houses in order; those that turn stale behind it are left
            // for the next round.
            let mut from = 0;
            while from < 64 {
                let ahead = stale & (u64::MAX << from);
                if ahead == 0 {
                    break;
                }
                let h = ahead.trailing_zeros() as usize;
                stale &= !(1 << h);
                from = h + 1;
                if self.hidden_singles(t, h, queue)? {
                    read(self, &mut stale);
                }
            }
        }
        for (mark, all) in self.changed.iter_mut().zip(taken) {
            *mark |= all;
        }
        Ok(())
    }

    /// Hidden singles of house `h` placed (and the naked singles they leave), the cells that
    /// change marked; whether there was any.
    #[inline(always)]
    fn hidden_singles(&mut self, t: &Tables, h: usize, queue: &mut Vec<u16>) -> Result<bool, Dead> {
        let placed = self.placed[h];
        if placed == t.full {
            return Ok(false);
        }
        let (mut once, mut twice) = (0u64, 0u64);
        for &c in t.house(h) {
            let m = self.cand[c as usize];
            twice |= once & m;
            once |= m;
        }
        if (once | placed) != t.full {
            return Err(Dead(Blame::House(h)));
        }
        let mut hidden = once & !twice;
        let found = hidden != 0;
        while hidden != 0 {
            let bit = hidden & hidden.wrapping_neg();
            hidden &= hidden - 1;
            let cell = t
                .house(h)
                .iter()
                .map(|&c| c as usize)
                .find(|&c| self.cand[c] & bit != 0)
                .ok_or(Dead(Blame::House(h)))?;
            self.assign::<true>(t, cell, bit, queue)?;
        }
        self.drain::<true>(t, queue)?;
        Ok(found)
    }

    /// The cell placed last and its digit's bit, if any was placed since the guess or
    /// refutation that led here (a guess places its own cell first).
    pub(super) fn last_placed(&self) -> Option<(usize, u64)> {
        (self.last != NONE).then(|| {
            let c = self.last as usize;
            (c, 1u64 << (self.value[c] - 1))
        })
    }

    /// The number of leading bands (`rows` rows each) whose cells are all placed.
    pub(super) fn filled_bands(&self, t: &Tables, rows: usize) -> usize {
        let band = rows * t.n;
        self.value
            .chunks_exact(band)
            .take_while(|b| b.iter().all(|&v| v != 0))
            .count()
    }

    /// The digits each column lacks in the first `k` bands (`rows` rows each), into `rem`.
    pub(super) fn lacking(&self, t: &Tables, rows: usize, k: usize, rem: &mut [u64]) {
        rem.fill(t.full);
        for (cell, &v) in self.value[..k * rows * t.n].iter().enumerate() {
            rem[cell % t.n] &= !(1u64 << (v - 1));
        }
    }

    /// The open cell with the fewest candidates (first such in row-major order).
    #[inline]
    pub(super) fn branch_cell(&self) -> usize {
        self.branch_cell_in(0..self.cand.len())
    }

    /// The open cell with the highest score per candidate (`scores`: each cell's priority,
    /// the sizes of the houses and rules that hold it, plus the dead ends met in its guesses
    /// and in the houses and rules that hold it, decayed; plus a fifth of the `hot` digit's
    /// dead ends where the cell holds it), the fewest candidates breaking ties: dom/wdeg over
    /// the Interactive Sudoku Solver's priorities, where the rules make some cells far more
    /// telling than their candidate counts say.
    #[inline]
    pub(super) fn branch_cell_scored(&self, scores: &[u32], hot: Hot) -> usize {
        let (mut best, mut best_score, mut best_count) = (usize::MAX, 0u64, 1u64);
        for (i, (&m, &s)) in self.cand.iter().zip(scores).enumerate() {
            if m != 0 {
                let k = u64::from(m.count_ones());
                let bonus = if m & hot.digit != 0 { hot.score } else { 0 };
                let s = HOT_SHARE * u64::from(s) + bonus;
                // s / k > best_score / best_count, or equal with fewer candidates.
                if best == usize::MAX
                    || s * best_count > best_score * k
                    || (s * best_count == best_score * k && k < best_count)
                {
                    (best, best_score, best_count) = (i, s, k);
                }
            }
        }
        best
    }

    /// A digit with exactly two places in a house, as the Interactive Sudoku Solver's house
    /// candidates: where the higher score of its two places, halved, is at least the score
    /// per candidate of the chosen `cell` (the best such pair; ties to the later), the digit's
    /// bit and its places, the higher scored first.
    pub(super) fn pair(
        &self,
        t: &Tables,
        scores: &[u32],
        cell: usize,
    ) -> Option<(u64, usize, usize)> {
        // score / 2 >= scores[cell] / k, compared as score · k >= 2 · scores[cell] (at least).
        let k = u64::from(self.cand[cell].count_ones());
        let mut bar = 2 * u64::from(scores[cell]);
        if bar == 0 {
            return None;
        }
        let mut best = None;
        for h in 0..t.nh {
            let (mut once, mut twice, mut more) = (0u64, 0u64, 0u64);
            for &c in t.house(h) {
                let m = self.cand[usize::from(c)];
                more |= twice & m;
                twice |= once & m;
                once |= m;
            }
            let mut two = twice & !more;
            while two != 0 {
                let bit = two & two.wrapping_neg();
                two &= two - 1;
                let mut places = t
                    .house(h)
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| self.cand[c] & bit != 0);
                let (Some(a), Some(b)) = (places.next(), places.next()) else {
                    continue;
                };
                let (a, b) = if scores[a] >= scores[b] {
                    (a, b)
                } else {
                    (b, a)
                };
                let score = u64::from(scores[a]) * k;
                if score >= bar {
                    bar = score;
                    best = Some((bit, a, b));
                }
            }
        }
        best
    }

    /// [`State::branch_cell`] among the cells of `range` (which holds an open cell).
    #[inline]
    pub(super) fn branch_cell_in(&self, range: std::ops::Range<usize>) -> usize {
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        let start = range.start;
        for (i, &m) in self.cand[range].iter().enumerate() {
            let i = start + i;
            if m != 0 {
                let k = m.count_ones();
                if k < best_count {
                    best_count = k;
                    best = i;
                    if k <= 2 {
                        break;
                    }
                }
            }
        }
        best
    }
}
