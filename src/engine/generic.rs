//! The generic engine: any R×C box shape up to 64×64.
//!
//! A state is one `u64` candidate mask per cell, the value of each cell, and the digits already
//! placed in each house. Propagation applies naked singles (through a queue of cells whose mask
//! fell to one bit), hidden singles (a once/twice bit sweep per house) and the rules'
//! propagators ([`crate::rules`]; only those whose cells changed since the state's last
//! fixpoint run again), to a fixpoint. Without rules, the search branches on the open cell
//! with the fewest candidates, one child per candidate. With rules, it branches two ways, as
//! the Interactive Sudoku Solver does: a digit in the cell with the highest conflict score per
//! candidate (or in the better of a house digit's two places), then, back at the node, that
//! digit out of that cell, propagated, and a fresh choice. It backtracks by copying the state
//! into a preallocated stack of levels, so the loop does not allocate.

use super::{Engine, Expansion};
use crate::puzzle::Puzzle;
use crate::rules::{self, Compiled, Contradiction, Masks, Propagators};
use crate::shape::Shape;
use crate::sink::Sink;
use crate::solver::ctx::Ctx;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

/// Precomputed geometry of one shape (and of a puzzle's rules, if any), shared by every state.
#[derive(Debug)]
pub struct Tables {
    shape: Shape,
    n: usize,
    cells: usize,
    full: u64,
    /// `peers[peer_start[cell]..peer_start[cell + 1]]`: the cells that may not share a digit
    /// with `cell` (its houses' cells, and a rule's different pairs).
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// Number of houses (3N for a classic board).
    nh: usize,
    /// `houses[h * n ..][..n]`: the cells of house `h` (rows, columns, boxes or regions, then
    /// the rules' houses of N cells).
    houses: Vec<u16>,
    /// `cell_houses[house_start[cell]..house_start[cell + 1]]`: the houses of each cell.
    cell_houses: Vec<u16>,
    house_start: Vec<u32>,
    /// The same as sets of houses: `house_words` words a cell where stale houses are kept
    /// (`State::stale`), one word where hidden singles read them from the cells marked
    /// changed (`stale_from_changed`); none on boards of killer cages and more than 64
    /// houses, whose hidden singles look at every house each round.
    house_bits: Vec<u64>,
    /// The words of `State::stale` (0 where stale houses are not kept).
    house_words: usize,
    /// Whether hidden singles read the stale houses from the cells the rules mark changed
    /// (see `State::singles_where_changed`): where there are rules, at most 64 houses and
    /// `64 * CHANGED_WORDS` cells. Stale houses are then not kept.
    stale_from_changed: bool,
    /// Each cell's digits before the givens, when a rule narrows some (odd, even cells).
    initial: Option<Vec<u64>>,
    /// The rules' propagators, run after singles (see `crate::rules`).
    props: Option<Propagators>,
    /// Where there are propagators: each cell's branching priority, the conflict scores'
    /// start (see `Scratch`).
    priority: Vec<u32>,
    /// Whether the search may branch on a digit's two places in a house (`State::pair`):
    /// puzzles with rules and conflict scores, but no killer cage. On ISS's collection such
    /// pairs took thermometer and renban puzzles from millions of nodes to a few hundred
    /// thousand ("A kind of magic" 5.45 M to 153 k), and took its hardest killers 1.4 times
    /// the time (cells in cages branch better: their digit sets prune the rest).
    house_pairs: bool,
    /// Where there are propagators: the conflict scores the last search of these tables
    /// ended with. A search starts from them, so that the pieces of a split search (and a
    /// worker's next piece) go on from what the searches before them learned instead of
    /// learning it again from the priorities.
    learned: Mutex<Option<Learned>>,
}

/// Conflict scores kept between searches of one puzzle (see `Tables::learned`).
#[derive(Debug, Clone)]
struct Learned {
    scores: Vec<u32>,
    digits: Vec<u32>,
    countdown: u32,
}

impl Tables {
    fn build(shape: Shape, rules: Option<Compiled>) -> Tables {
        let n = shape.side();
        let cells = shape.cells();
        let full = crate::shape::all_digits(n);
        let (houses_list, different, initial, props, priority): (Vec<Vec<u16>>, _, _, _, _) =
            match rules {
                Some(c) => {
                    let initial = c.initial.iter().any(|&m| m != full).then_some(c.initial);
                    (c.houses, c.different, initial, c.propagators, c.priority)
                }
                None => (
                    shape
                        .houses()
                        .iter()
                        .map(|h| h.iter().map(|&c| c as u16).collect())
                        .collect(),
                    Vec::new(),
                    None,
                    None,
                    Vec::new(),
                ),
            };
        let mut of_cell: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for (h, house) in houses_list.iter().enumerate() {
            debug_assert_eq!(house.len(), n);
            for &c in house {
                of_cell[usize::from(c)].push(h as u16);
            }
        }
        let mut peer_sets: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for house in &houses_list {
            for &a in house {
                peer_sets[usize::from(a)].extend(house.iter().copied().filter(|&b| b != a));
            }
        }
        for &(a, b) in &different {
            if a != b {
                peer_sets[usize::from(a)].push(b);
                peer_sets[usize::from(b)].push(a);
            }
        }
        let (mut peers, mut peer_start) = (Vec::new(), vec![0u32]);
        for mut mine in peer_sets {
            mine.sort_unstable();
            mine.dedup();
            peers.extend(mine);
            peer_start.push(peers.len() as u32);
        }
        let cages = props.as_ref().is_some_and(Propagators::has_cages);
        let house_pairs = !priority.is_empty() && !cages;
        // Stale houses are kept (thermometers gained 16% of their instructions, the plain
        // counts of 24 sparse 12×12 puzzles 5% of their time) but where killer cages are:
        // their digit sets narrow many cells per round, and marking the houses at each change
        // cost the hard killers 4% of their time. Where there are rules, at most 64 houses and
        // `64 * CHANGED_WORDS` cells, hidden singles read the stale houses from the cells
        // marked changed instead (see `stale_from_changed`): the hard killers 8.4% fewer
        // instructions than with every house looked at, the thermometers, renbans and little
        // killers of ISS's collection 1.6-3.1% fewer than with the houses marked.
        let derive = props.is_some() && houses_list.len() <= 64 && cells <= 64 * CHANGED_WORDS;
        let house_words = if !cages && !derive {
            houses_list.len().div_ceil(64)
        } else {
            0
        };
        let bit_words = if derive { 1 } else { house_words };
        let mut house_bits = vec![0u64; cells * bit_words];
        let (mut cell_houses, mut house_start) = (Vec::new(), vec![0u32]);
        for (cell, mine) in of_cell.into_iter().enumerate() {
            if bit_words > 0 {
                for &h in &mine {
                    let h = usize::from(h);
                    house_bits[cell * bit_words + h / 64] |= 1 << (h % 64);
                }
            }
            cell_houses.extend(mine);
            house_start.push(cell_houses.len() as u32);
        }
        Tables {
            stale_from_changed: derive,
            shape,
            n,
            cells,
            full,
            peers,
            peer_start,
            house_pairs,
            nh: houses_list.len(),
            houses: houses_list.into_iter().flatten().collect(),
            cell_houses,
            house_start,
            house_bits,
            house_words,
            initial,
            props,
            priority,
            learned: Mutex::new(None),
        }
    }

    /// The shared tables for a shape (built once per shape per process).
    pub fn get(shape: Shape) -> Arc<Tables> {
        static CACHE: OnceLock<Mutex<Vec<Arc<Tables>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = guard.iter().find(|t| t.shape == shape) {
            return Arc::clone(t);
        }
        let t = Arc::new(Tables::build(shape, None));
        guard.push(Arc::clone(&t));
        t
    }

    /// The tables of a puzzle: its shape's, or built for its rules.
    pub fn for_puzzle(puzzle: &Puzzle) -> Arc<Tables> {
        match puzzle.rules().filter(|_| !puzzle.is_classic()) {
            Some(r) => Arc::new(Tables::build(
                puzzle.shape(),
                Some(rules::compile(puzzle.shape(), r)),
            )),
            None => Tables::get(puzzle.shape()),
        }
    }

    /// Fresh propagation scratch for states of these tables.
    fn work(&self) -> Work {
        Work {
            queue: Vec::with_capacity(self.cells),
            dirty: vec![0; self.props.as_ref().map_or(0, Propagators::unit_words)],
            memo: self.props.as_ref().map_or(Vec::new(), Propagators::memo),
            yields: self
                .props
                .as_ref()
                .map_or_else(rules::Yields::default, Propagators::yields),
            all: true,
        }
    }

    /// The conflict scores the last search of these tables ended with, if any.
    fn learned(&self) -> Option<Learned> {
        if self.priority.is_empty() {
            return None;
        }
        self.learned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    #[inline(always)]
    fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    #[inline(always)]
    fn houses_of(&self, cell: usize) -> &[u16] {
        &self.cell_houses[self.house_start[cell] as usize..self.house_start[cell + 1] as usize]
    }

    #[inline(always)]
    fn house(&self, h: usize) -> &[u16] {
        &self.houses[h * self.n..(h + 1) * self.n]
    }
}

/// The contradiction marker of propagation, with where it showed.
struct Dead(Blame);

/// Where a contradiction showed.
#[derive(Debug, Clone, Copy)]
enum Blame {
    /// A cell left without candidates.
    Cell(usize),
    /// A house without a place for a digit, or with a digit twice.
    House(usize),
    /// A rule's propagator (a unit of `Propagators`).
    Unit(usize),
}

/// A state as the rules' propagators see it: candidates of open cells, the digit of placed
/// ones; a cell narrowed to one candidate is queued as a naked single.
struct View<'a> {
    st: &'a mut State,
    t: &'a Tables,
    full: u64,
    queue: &'a mut Vec<u16>,
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
const CHANGED_WORDS: usize = 8;

/// Propagation scratch: the naked-singles queue and, where there are rules, the units to
/// run, the sums' memos and the redundant sums' yields.
struct Work {
    queue: Vec<u16>,
    /// The units to run (see `Propagators::run_dirty`).
    dirty: Vec<u64>,
    /// The sums' memos (see `Propagators::memo`).
    memo: Vec<rules::sums::Seen>,
    /// How often the redundant sums paid, and those retired (see `rules::Yields`).
    yields: rules::Yields,
    /// Run every unit at the next propagation (the root, where nothing was seen).
    all: bool,
}

/// One search state: candidates of open cells (0 for solved cells), values and per-house
/// placed digits.
#[derive(Debug, Clone)]
struct State {
    cand: Vec<u64>,
    value: Vec<u8>,
    placed: Vec<u64>,
    open: usize,
    /// The houses (bits) with a cell changed since hidden singles last looked at them: the
    /// others hold none and miss no digit, so `singles` passes them by (a third of the
    /// instructions of puzzles with thermometers went to looking at every house, round
    /// after round). Empty at every fixpoint.
    stale: Vec<u64>,
    /// Where there are rules: the cells (bits) whose candidates changed since the rules'
    /// units were last marked for them (a unit none of whose cells changed needs no run).
    /// Empty at every fixpoint.
    changed: Vec<u64>,
}

impl State {
    fn empty(t: &Tables) -> State {
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
        }
    }

    /// Mark the houses of `cell` stale (its candidates changed).
    #[inline(always)]
    fn touch(&mut self, t: &Tables, cell: usize) {
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
    fn copy_from(&mut self, o: &State) {
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
    fn assign_any(
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
    fn try_digit(&mut self, t: &Tables, w: &mut Work, cell: usize, bit: u64) -> Result<(), Dead> {
        let ok = self
            .assign_any(t, cell, bit, &mut w.queue)
            .and_then(|()| self.propagate(t, w));
        w.queue.clear();
        ok
    }

    /// From a fixpoint: digit `bit` taken out of the open `cell` (which holds another), then
    /// propagated to the next fixpoint. The queue is empty on return.
    #[inline]
    fn refute(&mut self, t: &Tables, w: &mut Work, cell: usize, bit: u64) -> Result<(), Dead> {
        let rest = self.cand[cell] & !bit;
        debug_assert!(rest != 0 && rest != self.cand[cell]);
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
    fn propagate(&mut self, t: &Tables, w: &mut Work) -> Result<(), Dead> {
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

    /// The number of leading bands (`rows` rows each) whose cells are all placed.
    fn filled_bands(&self, t: &Tables, rows: usize) -> usize {
        let band = rows * t.n;
        self.value
            .chunks_exact(band)
            .take_while(|b| b.iter().all(|&v| v != 0))
            .count()
    }

    /// The digits each column lacks in the first `k` bands (`rows` rows each), into `rem`.
    fn lacking(&self, t: &Tables, rows: usize, k: usize, rem: &mut [u64]) {
        rem.fill(t.full);
        for (cell, &v) in self.value[..k * rows * t.n].iter().enumerate() {
            rem[cell % t.n] &= !(1u64 << (v - 1));
        }
    }

    /// The open cell with the fewest candidates (first such in row-major order).
    #[inline]
    fn branch_cell(&self) -> usize {
        self.branch_cell_in(0..self.cand.len())
    }

    /// The open cell with the highest score per candidate (`scores`: each cell's priority,
    /// the sizes of the houses and rules that hold it, plus the dead ends met in its guesses
    /// and in the houses and rules that hold it, decayed; plus a fifth of the `hot` digit's
    /// dead ends where the cell holds it), the fewest candidates breaking ties: dom/wdeg over
    /// the Interactive Sudoku Solver's priorities, where the rules make some cells far more
    /// telling than their candidate counts say.
    #[inline]
    fn branch_cell_scored(&self, scores: &[u32], hot: Hot) -> usize {
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
    fn pair(&self, t: &Tables, scores: &[u32], cell: usize) -> Option<(u64, usize, usize)> {
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
    fn branch_cell_in(&self, range: std::ops::Range<usize>) -> usize {
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

/// A propagated state of the generic engine.
#[derive(Debug, Clone)]
pub struct Generic {
    t: Arc<Tables>,
    st: State,
}

impl Generic {
    /// The shape of this state.
    pub fn shape(&self) -> Shape {
        self.t.shape
    }

    /// Each cell's candidates after propagation, as bit masks (a placed cell: its digit's bit).
    pub(crate) fn candidate_masks(&self) -> Vec<u64> {
        self.st
            .cand
            .iter()
            .zip(&self.st.value)
            .map(|(&c, &v)| if v == 0 { c } else { 1u64 << (v - 1) })
            .collect()
    }
}

/// Per-search scratch: one state per depth, grown on first use, the singles queue, and for
/// puzzles with rules the conflict scores of the cells.
struct Scratch {
    levels: Vec<State>,
    work: Work,
    /// Each cell's priority plus the dead ends met in its guesses and in its houses and rules
    /// (empty: plain MRV), halved every `DECAY` dead ends.
    scores: Vec<u32>,
    /// Each digit's dead ends (guessed in the cell where they showed), quartered with the
    /// cells' halvings.
    digits: Vec<u32>,
    /// The digit with the most dead ends, where it stands out.
    hot: Hot,
    countdown: u32,
    /// Where the search keeps what is left when it stops (`Engine::search_resumable`): the
    /// states not searched to the end, with their weights, deepest (earliest) first.
    rest: Option<Vec<(State, f64)>>,
}

/// The digit that has met the most dead ends lately, where it clearly leads (as the
/// Interactive Sudoku Solver's value scores): a cell holding it gains a fifth of its count,
/// so the search goes where that digit is tight.
#[derive(Debug, Clone, Copy, Default)]
struct Hot {
    /// The digit's bit (0: none leads).
    digit: u64,
    /// Its dead ends.
    score: u64,
}

impl Hot {
    /// The leading digit of `counts`: the most dead ends, at least one per digit and more
    /// than 1.5 times the fewest (nonzero); else none.
    fn of(counts: &[u32]) -> Hot {
        let (mut max, mut at, mut min) = (0u32, 0usize, u32::MAX);
        for (d, &c) in counts.iter().enumerate() {
            if c > max {
                (max, at) = (c, d);
            }
            if c != 0 && c < min {
                min = c;
            }
        }
        if (max as usize) < counts.len() || u64::from(max) * 2 <= u64::from(min) * 3 {
            Hot::default()
        } else {
            Hot {
                digit: 1 << at,
                score: u64::from(max),
            }
        }
    }
}

/// A cell holding the hot digit gains its dead ends divided by this (ISS's fifth: a half or a
/// tenth took the collection's 137 puzzles 6–10% more guesses and 5–25% more time).
const HOT_SHARE: u64 = 5;

/// How many dead ends pass between two halvings of the conflict scores.
const DECAY: u32 = 1 << 14;

impl Scratch {
    fn new(t: &Tables, root: &State) -> Scratch {
        let learned = t.learned();
        let hot = learned
            .as_ref()
            .map_or_else(Hot::default, |l| Hot::of(&l.digits));
        let (scores, digits, countdown) = match learned {
            Some(l) => (l.scores, l.digits, l.countdown),
            None => (t.priority.clone(), vec![0; t.n], DECAY),
        };
        Scratch {
            levels: vec![root.clone()],
            work: Work {
                all: false,
                ..t.work()
            },
            scores,
            digits,
            hot,
            countdown,
            rest: None,
        }
    }

    /// The search stopped at the unexplored state of level `depth`, of weight `w`: keep it
    /// where what is left is kept.
    #[cold]
    fn keep(&mut self, depth: usize, w: f64) {
        if let Some(rest) = &mut self.rest {
            rest.push((self.levels[depth].clone(), w));
        }
    }

    /// The search stopped below level `depth` after trying digit `bit` in `cell`: what is
    /// left at this level, of weight `w`, is its state without that digit there, kept
    /// propagated; false where that fails (nothing is left: a dead end).
    #[cold]
    fn keep_refuted(&mut self, t: &Tables, depth: usize, cell: usize, bit: u64, w: f64) -> bool {
        if self.rest.is_none() {
            return true;
        }
        let mut st = self.levels[depth].clone();
        if st.refute(t, &mut self.work, cell, bit).is_err() {
            return false;
        }
        if let Some(rest) = &mut self.rest {
            rest.push((st, w));
        }
        true
    }

    /// Keep this search's conflict scores for the next search of the same tables.
    fn learn(&self, t: &Tables) {
        if self.scores.is_empty() {
            return;
        }
        let mut slot = t.learned.lock().unwrap_or_else(|e| e.into_inner());
        *slot = Some(Learned {
            scores: self.scores.clone(),
            digits: self.digits.clone(),
            countdown: self.countdown,
        });
    }

    /// Level `depth + 1` made a copy of level `depth` (the levels grow as the search goes
    /// deeper, then are reused); its index.
    #[inline]
    fn child_of(&mut self, depth: usize) -> usize {
        if self.levels.len() == depth + 1 {
            let fresh = self.levels[depth].clone();
            self.levels.push(fresh);
        } else {
            let (parent, rest) = self.levels.split_at_mut(depth + 1);
            rest[0].copy_from(&parent[depth]);
        }
        depth + 1
    }

    /// A guess of digit `bit` in `cell` met a dead end that showed in `blame`: one more for
    /// the guessed cell and for every cell of the house or rule where it showed (dom/wdeg, as
    /// the big engine weighs houses: the cells of the constraints that fail get branched on
    /// first), and one more for the digit (see [`Hot`]). Only the search where scores choose
    /// (`search_scored`) keeps them.
    #[inline]
    fn conflict(&mut self, t: &Tables, cell: usize, bit: u64, blame: Blame) {
        debug_assert!(!self.scores.is_empty());
        let cells: &[u16] = match blame {
            Blame::Cell(c) => {
                self.scores[c] += 1;
                &[]
            }
            Blame::House(h) => t.house(h),
            Blame::Unit(u) => t.props.as_ref().map_or(&[][..], |p| p.unit_cells(u)),
        };
        for &x in cells {
            self.scores[usize::from(x)] += 1;
        }
        self.scores[cell] += 1;
        self.digits[bit.trailing_zeros() as usize] += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.scores.iter_mut().for_each(|s| *s >>= 1);
            self.digits.iter_mut().for_each(|s| *s >>= 2);
            self.countdown = DECAY;
        }
        self.hot = Hot::of(&self.digits);
    }
}

/// The search without rules: k ways at the open cell with the fewest candidates (in the
/// first open band when counting by bands), one child per candidate.
fn search_level<S: Sink>(
    t: &Tables,
    scratch: &mut Scratch,
    depth: usize,
    ctx: &mut Ctx<'_, S>,
    weight: f64,
    mut asked: usize,
) -> ControlFlow<()> {
    ctx.node()?;
    let (cell, mut cands) = {
        let st = &scratch.levels[depth];
        if st.open == 0 {
            return ctx.solved(&st.value, weight);
        }
        let cell = match ctx.bands {
            None => st.branch_cell(),
            Some(plan) => {
                // Counting by bands: at a new boundary, the plan counts what lies below;
                // else (or where it declines: `asked`) branch in the first open band.
                let rows = plan.rows();
                let k = st.filled_bands(t, rows);
                let lacking = |rem: &mut [u64]| st.lacking(t, rows, k, rem);
                if let Some(flow) = ctx.band_boundary(k, &mut asked, t.n, weight, lacking) {
                    return flow;
                }
                let band = rows * t.n;
                st.branch_cell_in(k * band..(k + 1) * band)
            }
        };
        (cell, st.cand[cell])
    };
    let w = weight / f64::from(cands.count_ones());
    while cands != 0 {
        let bit = cands & cands.wrapping_neg();
        cands &= cands - 1;
        ctx.guess();
        // The last candidate reuses the parent's level: no copy needed, nothing left to undo.
        let level = if cands == 0 {
            depth
        } else {
            scratch.child_of(depth)
        };
        let ok = scratch.levels[level].try_digit(t, &mut scratch.work, cell, bit);
        match ok {
            Ok(()) => search_level(t, scratch, level, ctx, w, asked)?,
            Err(_) => {
                ctx.node()?;
                ctx.dead_end(w);
            }
        }
    }
    ControlFlow::Continue(())
}

/// The search where conflict scores choose (puzzles with rules): two ways at each branch,
/// as the Interactive Sudoku Solver branches. One child takes the chosen digit in the chosen
/// cell (or a house's digit in the better of its two places); then this node drops that digit
/// from the cell, propagates, and chooses afresh with the scores the child left: a cell that
/// failed its first digit need not be the best place to go on.
fn search_scored<S: Sink>(
    t: &Tables,
    scratch: &mut Scratch,
    depth: usize,
    ctx: &mut Ctx<'_, S>,
    weight: f64,
) -> ControlFlow<()> {
    if ctx.node().is_break() {
        scratch.keep(depth, weight);
        return ControlFlow::Break(());
    }
    let mut left = weight;
    loop {
        let st = &scratch.levels[depth];
        if st.open == 0 {
            return ctx.solved(&st.value, left);
        }
        let cell = st.branch_cell_scored(&scratch.scores, scratch.hot);
        let cands = st.cand[cell];
        let mut choice = (cell, cands & cands.wrapping_neg(), cands.count_ones());
        if t.house_pairs && choice.2 > 2 {
            if let Some((bit, first, _)) = st.pair(t, &scratch.scores, cell) {
                choice = (first, bit, 2);
            }
        }
        let (cell, bit, choices) = choice;
        let w = left / f64::from(choices);
        left -= w;
        ctx.guess();
        let child = scratch.child_of(depth);
        let flow = match scratch.levels[child].try_digit(t, &mut scratch.work, cell, bit) {
            Ok(()) => search_scored(t, scratch, child, ctx, w),
            Err(Dead(blame)) => {
                scratch.conflict(t, cell, bit, blame);
                ctx.dead_end(w);
                ctx.node()
            }
        };
        if flow.is_break() {
            if !scratch.keep_refuted(t, depth, cell, bit, left) {
                ctx.dead_end(left);
            }
            return flow;
        }
        // The other way: not that digit there.
        let st = &mut scratch.levels[depth];
        let rest = st.cand[cell] & !bit;
        if let Err(Dead(blame)) = st.refute(t, &mut scratch.work, cell, bit) {
            // Scored as a failure of the cell's next digit.
            scratch.conflict(t, cell, rest & rest.wrapping_neg(), blame);
            ctx.dead_end(left);
            return ControlFlow::Continue(());
        }
    }
}

impl Engine for Generic {
    fn new(puzzle: &Puzzle) -> Option<Generic> {
        let t = Tables::for_puzzle(puzzle);
        let mut st = State::empty(&t);
        let mut work = t.work();
        let queue = &mut work.queue;
        if let Some(initial) = &t.initial {
            for (cell, &m) in initial.iter().enumerate() {
                st.cand[cell] &= m;
                if st.cand[cell] == 0 {
                    return None;
                }
                if st.cand[cell] & (st.cand[cell] - 1) == 0 {
                    queue.push(cell as u16);
                }
            }
        }
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 && st.value[cell] == 0 {
                st.assign_any(&t, cell, 1u64 << (v - 1), queue).ok()?;
            } else if v != 0 && st.value[cell] != v {
                return None;
            }
        }
        st.propagate(&t, &mut work).ok()?;
        Some(Generic { t, st })
    }

    fn search<S: Sink>(&self, ctx: &mut Ctx<'_, S>, weight: f64) -> ControlFlow<()> {
        let mut scratch = Scratch::new(&self.t, &self.st);
        if !scratch.scores.is_empty() {
            // Rules (never counted by bands).
            debug_assert!(ctx.bands.is_none());
            return self.search_rules(scratch, ctx, weight, false).0;
        }
        search_level(&self.t, &mut scratch, 0, ctx, weight, 0)
    }

    /// Where the rules' conflict scores choose, the search keeps what is left when it stops.
    fn search_resumable<S: Sink>(
        &self,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
    ) -> (ControlFlow<()>, Option<Vec<(Generic, f64)>>) {
        if !self.resumes() {
            return (self.search(ctx, weight), None);
        }
        let scratch = Scratch::new(&self.t, &self.st);
        let (flow, rest) = self.search_rules(scratch, ctx, weight, true);
        (flow, Some(rest))
    }

    fn resumes(&self) -> bool {
        // Where the rules' conflict scores choose.
        !self.t.priority.is_empty()
    }

    fn expand(&self, out: &mut Vec<Generic>) -> Expansion {
        if self.st.open == 0 {
            return Expansion::Solved;
        }
        // Where conflict scores choose, the split follows what the searches so far learned.
        let cell = match self.t.learned() {
            Some(l) => self.st.branch_cell_scored(&l.scores, Hot::of(&l.digits)),
            None => self.st.branch_cell(),
        };
        self.expand_at(cell, out)
    }

    fn expand_bands(&self, out: &mut Vec<Generic>, rows: usize) -> Option<Expansion> {
        if self.st.open == 0 {
            return Some(Expansion::Solved);
        }
        let band = rows * self.t.n;
        if self.st.filled_bands(&self.t, rows) > 0 {
            return None;
        }
        Some(self.expand_at(self.st.branch_cell_in(0..band), out))
    }

    fn values(&self) -> Vec<u8> {
        self.st.value.clone()
    }

    fn open_cells(&self) -> usize {
        self.st.open
    }
}

impl Generic {
    /// The search where the rules' conflict scores choose, from `scratch` made for this state:
    /// its scores go on to the next search of the puzzle (see `Tables::learned`), and where
    /// `keep`, what it left when it stopped (see `Engine::search_resumable`).
    fn search_rules<S: Sink>(
        &self,
        mut scratch: Scratch,
        ctx: &mut Ctx<'_, S>,
        weight: f64,
        keep: bool,
    ) -> (ControlFlow<()>, Vec<(Generic, f64)>) {
        if keep {
            scratch.rest = Some(Vec::new());
        }
        let flow = search_scored(&self.t, &mut scratch, 0, ctx, weight);
        scratch.learn(&self.t);
        let rest = scratch.rest.take().unwrap_or_default();
        let rest = rest
            .into_iter()
            .map(|(st, w)| {
                let t = Arc::clone(&self.t);
                (Generic { t, st }, w)
            })
            .collect();
        (flow, rest)
    }

    /// Branch on `cell`: its propagated children, in search order.
    fn expand_at(&self, cell: usize, out: &mut Vec<Generic>) -> Expansion {
        let mut cands = self.st.cand[cell];
        let choices = cands.count_ones() as usize;
        let mut work = self.t.work();
        work.all = false;
        while cands != 0 {
            let bit = cands & cands.wrapping_neg();
            cands &= cands - 1;
            let mut child = self.st.clone();
            if child.try_digit(&self.t, &mut work, cell, bit).is_ok() {
                out.push(Generic {
                    t: Arc::clone(&self.t),
                    st: child,
                });
            }
        }
        Expansion::Branched { choices }
    }
}

/// Tests: the count of `p` on this thread, its redundant sums retired after `after` runs below
/// one useful run in `ratio` (see `rules::Yields`); `None` where its tables have no rules.
#[cfg(test)]
pub(crate) fn count_retiring(p: &Puzzle, after: u32, ratio: u32) -> Option<u128> {
    let Some(mut e) = Generic::new(p) else {
        return Some(0);
    };
    Arc::get_mut(&mut e.t)?
        .props
        .as_mut()?
        .set_retirement(after, ratio);
    Some(count_serially(&e))
}

/// Tests: the count below `e`'s root, searched on this thread.
#[cfg(test)]
fn count_serially(e: &Generic) -> u128 {
    let shared = crate::solver::Shared::new(None);
    let mut sink = crate::sink::CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    ctx.stats.solutions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::{CollectSink, CountSink};
    use crate::solver::Shared;

    fn count(p: &Puzzle) -> u128 {
        Generic::new(p).map_or(0, |e| count_serially(&e))
    }

    fn with(rules: Vec<crate::rules::Rule>) -> Puzzle {
        let mut r = crate::rules::Rules::new();
        rules.into_iter().for_each(|rule| r.push(rule));
        Puzzle::empty(Shape::new(2, 2).unwrap()).with_rules(r)
    }

    /// Hidden singles over the stale houses alone reach the same state as rounds over every
    /// house: givens kept at random from solutions with their digits renamed, propagated with
    /// the stale houses known and without; 12×12 with the rules' tables but no rule and
    /// anti-king 9×9 (the houses read from the cells marked changed: at most 64 houses), and
    /// 16×16 with disjoint groups and both diagonals (66 houses, kept in two words).
    #[test]
    fn stale_houses_reach_the_same_fixpoint() {
        use crate::rules::{Diagonal, Rule};
        same_fixpoint(Shape::new(3, 4).unwrap(), vec![], 200);
        same_fixpoint(Shape::new(3, 3).unwrap(), vec![Rule::AntiKing], 400);
        let rules = vec![
            Rule::DisjointGroups,
            Rule::Diagonal(Diagonal::Main),
            Rule::Diagonal(Diagonal::Anti),
        ];
        same_fixpoint(Shape::new(4, 4).unwrap(), rules, 100);
    }

    fn same_fixpoint(shape: Shape, list: Vec<crate::rules::Rule>, trials: usize) {
        use crate::rules::{compile, Rules};
        let mut rules = Rules::new();
        list.into_iter().for_each(|r| rules.push(r));
        let empty = Puzzle::empty(shape).with_rules(rules.clone());
        let shared = Shared::new(Some(20));
        let mut sink = CollectSink::default();
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = Generic::new(&empty).unwrap().search(&mut ctx, 1.0);
        drop(ctx);
        assert_eq!(sink.solutions.len(), 20);
        // Stale houses kept in words, or read from the cells marked changed (rules, at most
        // 64 houses).
        let tracked = Tables::build(shape, Some(compile(shape, &rules)));
        let derived = tracked.stale_from_changed;
        assert!(derived || tracked.house_words == tracked.nh.div_ceil(64));
        assert_eq!(derived, tracked.props.is_some() && tracked.nh <= 64);
        // A fresh state has every house stale, or every cell changed: `Generic::new` narrows
        // cells by the rules' initial digits (odd, even cells) without marking them.
        let fresh = State::empty(&tracked);
        let count = |words: &[u64]| words.iter().map(|w| w.count_ones() as usize).sum::<usize>();
        if derived {
            assert_eq!(count(&fresh.changed), tracked.cells);
        } else {
            assert_eq!(count(&fresh.stale), tracked.nh);
        }
        // A changed cell marks exactly its houses, in every word (where derived, its word of
        // houses is read instead).
        for cell in 0..shape.cells() {
            let mut want = vec![0u64; tracked.house_words.max(1)];
            for &h in tracked.houses_of(cell) {
                want[usize::from(h) / 64] |= 1 << (h % 64);
            }
            if derived {
                assert_eq!(tracked.house_bits[cell], want[0], "cell {cell}");
                continue;
            }
            let mut st = State::empty(&tracked);
            st.stale.fill(0);
            st.touch(&tracked, cell);
            assert_eq!(st.stale, want, "cell {cell}");
        }
        let mut plain = Tables::build(shape, Some(compile(shape, &rules)));
        plain.house_words = 0;
        plain.house_bits.clear();
        plain.stale_from_changed = false;
        let propagate = |t: &Tables, givens: &[u8]| {
            let mut st = State::empty(t);
            let mut work = t.work();
            for (cell, &v) in givens.iter().enumerate() {
                if v != 0 && st.value[cell] == 0 {
                    st.assign_any(t, cell, 1 << (v - 1), &mut work.queue).ok()?;
                }
            }
            st.propagate(t, &mut work).ok()?;
            Some((st.cand, st.value))
        };
        let (n, cells) = (shape.side(), shape.cells());
        let mut rng = crate::rng::SplitMix64::new(0x05EE_D0F5_7A1E);
        let (mut solved, mut open) = (0, 0);
        for trial in 0..trials {
            let grid = &sink.solutions[trial % sink.solutions.len()];
            let mut names: Vec<u8> = (1..=n as u8).collect();
            for i in (1..n).rev() {
                names.swap(i, rng.below(i + 1));
            }
            // 15% to 65% of the cells given.
            let keep = cells * 3 / 20 + rng.below(cells / 2);
            let givens: Vec<u8> = grid
                .iter()
                .map(|&v| {
                    if rng.below(cells) < keep {
                        names[usize::from(v) - 1]
                    } else {
                        0
                    }
                })
                .collect();
            let a = propagate(&tracked, &givens);
            assert_eq!(a, propagate(&plain, &givens), "{givens:?}");
            match a {
                Some((_, value)) if value.iter().all(|&v| v != 0) => solved += 1,
                Some(_) => open += 1,
                None => {}
            }
        }
        assert!(
            solved > trials / 20 && open > trials / 20,
            "{solved} {open}"
        );
    }

    /// A propagation runs the rules' units of the cells that changed (marked as they change:
    /// a placement, the peers that lose its digit, a rule narrowing a cell); it must end where
    /// every unit is quiet. From the root of each of the first 40 puzzles of ISS's collection
    /// that `iss_137.txt` holds, each candidate of a few open cells is tried and refuted;
    /// wherever that reaches a fixpoint, every unit run once more changes nothing.
    #[test]
    fn propagation_ends_where_every_unit_is_quiet() {
        let options = crate::parse::ParseOptions::default();
        let (mut checked, mut changed) = (0, 0);
        let lines = include_str!("../../puzzles/variants/iss_137.txt")
            .lines()
            .filter(|l| !l.starts_with('#'));
        for line in lines.take(40) {
            let puzzle = crate::parse::parse_one(line, &options).unwrap();
            let Some(root) = Generic::new(&puzzle) else {
                continue;
            };
            let t = &root.t;
            let Some(props) = &t.props else { continue };
            let quiet = |st: &State| {
                let mut st = st.clone();
                let before = st.cand.clone();
                let (mut work, mut dirty) = (t.work(), vec![0; props.unit_words()]);
                props.mark_all(&mut dirty);
                let mut view = View {
                    st: &mut st,
                    t,
                    full: t.full,
                    queue: &mut work.queue,
                };
                let ok = props.run_dirty(&mut view, &mut dirty, &mut work.memo, &mut work.yields);
                ok.is_ok() && st.cand == before
            };
            let open: Vec<usize> = (0..t.cells).filter(|&c| root.st.cand[c] != 0).collect();
            for &cell in open.iter().step_by(open.len() / 6 + 1) {
                let mut work = t.work();
                work.all = false;
                let mut cands = root.st.cand[cell];
                while cands != 0 {
                    let bit = cands & cands.wrapping_neg();
                    cands &= cands - 1;
                    let mut tried = root.st.clone();
                    if tried.try_digit(t, &mut work, cell, bit).is_ok() {
                        assert!(quiet(&tried), "{line}: cell {cell}, digit {bit:b} tried");
                        checked += 1;
                        changed += usize::from(tried.cand != root.st.cand);
                    }
                    let mut refuted = root.st.clone();
                    if refuted.refute(t, &mut work, cell, bit).is_ok() {
                        assert!(
                            quiet(&refuted),
                            "{line}: cell {cell}, digit {bit:b} refuted"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500 && changed > 200, "{checked} {changed}");
    }

    /// Hidden singles over the houses of the cells marked changed (killer cages) reach the
    /// same states as rounds over every house: from the root of the first 30 killer puzzles
    /// of `iss_137.txt`, every candidate of a few open cells tried, propagated with the tables
    /// as built and with their cells' houses left out.
    #[test]
    fn houses_of_changed_cells_reach_the_same_fixpoint() {
        let options = crate::parse::ParseOptions::default();
        let (mut compared, mut killers) = (0, 0);
        let lines = include_str!("../../puzzles/variants/iss_137.txt")
            .lines()
            .filter(|l| !l.starts_with('#'));
        for line in lines {
            let puzzle = crate::parse::parse_one(line, &options).unwrap();
            let Some(root) = Generic::new(&puzzle) else {
                continue;
            };
            let t = &root.t;
            if !t.stale_from_changed {
                continue;
            }
            killers += 1;
            if killers > 30 {
                break;
            }
            let rules = puzzle.rules().expect("a killer has rules");
            let mut plain = Tables::build(t.shape, Some(crate::rules::compile(t.shape, rules)));
            plain.stale_from_changed = false;
            plain.house_bits.clear();
            let open: Vec<usize> = (0..t.cells).filter(|&c| root.st.cand[c] != 0).collect();
            for &cell in open.iter().step_by(open.len() / 5 + 1) {
                let mut cands = root.st.cand[cell];
                while cands != 0 {
                    let bit = cands & cands.wrapping_neg();
                    cands &= cands - 1;
                    let tried = |t: &Tables| {
                        let mut work = t.work();
                        work.all = false;
                        let mut st = root.st.clone();
                        let ok = st.try_digit(t, &mut work, cell, bit).is_ok();
                        (ok, st.cand, st.value)
                    };
                    assert_eq!(tried(t), tried(&plain), "{line}: cell {cell}, {bit:b}");
                    compared += 1;
                }
            }
        }
        assert!(killers >= 20 && compared > 500, "{killers} {compared}");
    }

    /// House pairs are for puzzles with rules but no killer cage.
    #[test]
    fn house_pairs_where_there_is_no_cage() {
        use crate::rules::Rule;
        assert!(Tables::for_puzzle(&with(vec![Rule::AntiKing])).house_pairs);
        let cage = Rule::Cage {
            cells: vec![0, 1],
            sum: Some(3),
        };
        assert!(!Tables::for_puzzle(&with(vec![Rule::AntiKing, cage])).house_pairs);
        assert!(!Tables::for_puzzle(&Puzzle::empty(Shape::new(2, 2).unwrap())).house_pairs);
    }

    /// A digit's two places in a house beat a cell whose score per candidate is below half
    /// the better place's score; the better place comes first.
    #[test]
    fn a_digit_with_two_places_in_a_house() {
        use crate::rules::Rule;
        let t = Tables::for_puzzle(&with(vec![Rule::AntiKing]));
        let mut st = State::empty(&t);
        // Row 1: digit 1 only in r1c1 and r1c4 (no other house has a digit in two places).
        st.cand[..4].copy_from_slice(&[0b0011, 0b1110, 0b1110, 0b1111]);
        let mut scores = vec![1; 16];
        scores[3] = 5;
        // The cell r2c2 (4 candidates, score 1): 5 · 4 ≥ 2 · 1.
        assert_eq!(st.pair(&t, &scores, 5), Some((0b1, 3, 0)));
        // A cell scored 11 per candidate (44 over 4) beats 5 / 2.
        scores[5] = 44;
        assert_eq!(st.pair(&t, &scores, 5), None);
        // A place scored 22 ties with it: 22 · 4 = 2 · 44.
        scores[0] = 22;
        assert_eq!(st.pair(&t, &scores, 5), Some((0b1, 0, 3)));
    }

    /// A digit leads when it has at least one dead end per digit and more than 1.5 times the
    /// fewest (of those with any).
    #[test]
    fn the_hot_digit_clearly_leads() {
        let hot = |c: &[u32]| {
            let h = Hot::of(c);
            (h.digit, h.score)
        };
        assert_eq!(hot(&[0, 0, 0, 0]), (0, 0));
        // Alone with dead ends, it is its own fewest: none.
        assert_eq!(hot(&[0, 7, 0, 0]), (0, 0));
        assert_eq!(hot(&[2, 7, 0, 0]), (0b10, 7));
        // Fewer dead ends than digits: none.
        assert_eq!(hot(&[0, 3, 0, 0]), (0, 0));
        // 7 against 5: not 1.5 times.
        assert_eq!(hot(&[5, 7, 0, 6]), (0, 0));
        // 8 against 5: it leads; the first of equals.
        assert_eq!(hot(&[5, 8, 0, 8]), (0b10, 8));
        // 6 against 4 is exactly 1.5 times: not enough.
        assert_eq!(hot(&[4, 0, 6, 0]), (0, 0));
    }

    #[test]
    fn empty_4x4_has_288_grids() {
        assert_eq!(count(&Puzzle::empty(Shape::new(2, 2).unwrap())), 288);
    }

    #[test]
    fn small_latin_and_rectangular_boxes() {
        // 1×3 boxes: 3×3 Latin squares.
        assert_eq!(count(&Puzzle::empty(Shape::new(1, 3).unwrap())), 12);
        // 2×1 boxes: 2×2 Latin squares.
        assert_eq!(count(&Puzzle::empty(Shape::new(2, 1).unwrap())), 2);
        assert_eq!(count(&Puzzle::empty(Shape::new(1, 1).unwrap())), 1);
    }

    #[test]
    fn solutions_are_valid() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let e = Generic::new(&p).unwrap();
        let shared = Shared::new(Some(50));
        let mut sink = CollectSink::default();
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = e.search(&mut ctx, 1.0);
        drop(ctx);
        assert_eq!(sink.solutions.len(), 50);
        for s in &sink.solutions {
            assert!(p.is_solution(s));
        }
    }

    #[test]
    fn expansion_partitions_the_count() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let e = Generic::new(&p).unwrap();
        let mut kids = Vec::new();
        e.expand(&mut kids);
        let total: u128 = kids
            .iter()
            .map(|k| {
                let shared = Shared::new(None);
                let mut sink = CountSink;
                let mut ctx = Ctx::new(&mut sink, &shared);
                let _ = k.search(&mut ctx, 1.0);
                ctx.stats.solutions
            })
            .sum();
        assert_eq!(total, 288);
    }
}
