//! Sums: killer cages (different digits: the digit sets that make the sum, the digits every
//! such set holds placed, or cleared from the cells that see all their places), little
//! killers, arrows and the law of leftovers' derived sums (repeats allowed, but cells that
//! share a house differ: the sums each group of such cells can make, combined group by group;
//! bounds where the partial sums do not fit 128 values).

use super::{range_mask, required, Contradiction, Masks};

/// `Σ coef[i] · digit(cells[i]) = target`.
#[derive(Debug)]
pub(super) struct Sum {
    cells: Vec<u16>,
    coef: Vec<i64>,
    target: i64,
    /// For cages (different digits, coefficients 1, N ≤ 16): every set of `cells.len()`
    /// digits that sums to the target.
    combos: Option<Vec<u64>>,
    /// For cages and sums with groups: the houses that hold two or more of the cells (see
    /// `link_houses`).
    links: Vec<required::Link>,
    /// Sums with repeats whose partial sums span fewer than 128 values (at most
    /// [`REACH_CELLS`] cells): the exact filter, `run_reach`, runs for them.
    reach: bool,
    /// For `run_reach`: the cells in runs that must hold different digits (see `group`), in
    /// order; one cell each until `group` is called.
    groups: Vec<Group>,
    /// N: the digits are 1 to N.
    side: u32,
    /// The first of this sum's slots in the propagation scratch's [`Seen`] memos (see
    /// [`Sum::memo_slots`]).
    memo: usize,
    /// [`Sum::mirrored`] of the groups as they are (set with them).
    goal_span: (i64, i64),
    /// Derived from other rules (the law of leftovers): it prunes earlier but never changes the
    /// solutions, so a search may stop running it (see [`Sum::is_redundant`]).
    redundant: bool,
}

/// Cells of a sum (`cells[start..start + len]`, one to three) with one coefficient that must
/// hold different digits (they share a house, a cage or a rule's different pair).
#[derive(Debug)]
struct Group {
    start: usize,
    len: usize,
    coef: i64,
}

impl Group {
    /// The least sum of its cells' different digits, 1 + 2 + ...: the exact filter counts the
    /// group's sums from it (bit `s` for sum `least + s`), which keeps partial sums small.
    fn least(&self) -> i64 {
        let len = self.len as i64;
        len * (len + 1) / 2
    }
}

/// The assignments of different digits to a group's two or three cells: the sums they make
/// (bit `s` for sum `s`: at most 16 + 15 + 14 = 45, the exact filter's boards being at most
/// 16×16), the digits each cell takes in one, and the digits every one uses.
#[derive(Debug, Clone, Copy, Default)]
struct Made {
    sums: u64,
    support: [u64; 3],
    required: u64,
}

/// The assignments of different digits to the cells of `ms` (two or three candidate masks)
/// whose sum is one of `allowed`. Exact: loops over the digits of all cells but the one with
/// the most candidates, whose digits are taken as one mask (the loops run over the fewest).
#[inline]
fn assignments(ms: &[u64], allowed: u64) -> Made {
    // The cell with the most candidates goes last, and comes back to its place after.
    let last = ms.len() - 1;
    let mut big = last;
    for i in (0..last).rev() {
        if ms[i].count_ones() >= ms[big].count_ones() {
            big = i;
        }
    }
    let mut moved = [0u64; 3];
    moved[..ms.len()].copy_from_slice(ms);
    moved.swap(big, last);
    let mut out = assignments_in_order(&moved[..ms.len()], allowed);
    out.support.swap(big, last);
    out
}

/// [`assignments`], the cells' loops in the order given.
#[inline]
fn assignments_in_order(ms: &[u64], allowed: u64) -> Made {
    let mut out = Made {
        sums: 0,
        support: [0; 3],
        required: u64::MAX,
    };
    // The last cell's digits (bit d - 1 for digit d) that make an allowed sum with `base`
    // (the others' digits' sum) and are none of `used`.
    let last = |mask: u64, used: u64, base: u32| -> u64 {
        // Sum base + d is bit base + d of `allowed`: d's bit d - 1 is bit base + 1 of it.
        (allowed >> (base + 1)) & mask & !used
    };
    let single = |m: u64| if m & m.wrapping_sub(1) == 0 { m } else { 0 };
    let mut a_bits = ms[0];
    while a_bits != 0 {
        let a = a_bits & a_bits.wrapping_neg();
        a_bits &= a_bits - 1;
        let va = a.trailing_zeros() + 1;
        if ms.len() == 2 {
            let b = last(ms[1], a, va);
            if b != 0 {
                out.sums |= b << (va + 1);
                out.support[0] |= a;
                out.support[1] |= b;
                out.required &= a | single(b);
            }
            continue;
        }
        let mut b_bits = ms[1] & !a;
        while b_bits != 0 {
            let b = b_bits & b_bits.wrapping_neg();
            b_bits &= b_bits - 1;
            let vb = b.trailing_zeros() + 1;
            let c = last(ms[2], a | b, va + vb);
            if c != 0 {
                out.sums |= c << (va + vb + 1);
                out.support[0] |= a;
                out.support[1] |= b;
                out.support[2] |= c;
                out.required &= a | b | single(c);
            }
        }
    }
    out
}

/// A group's candidate masks (mirrored where its coefficient is negative) and their
/// [`assignments`] for every sum, as last computed: propagation scratch, one per group of
/// the sums with repeats (see [`Sum::memo_slots`]). A sum runs when any of its cells
/// changed, and its other groups' assignments are then often those of the last run (a third
/// of the lookups on a hard killer of ISS's collection, 3% fewer instructions in all).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Seen {
    masks: [u64; 3],
    made: Made,
    /// The assignments for the sums `cut_sums` alone (0: none kept), as the backward pass
    /// last narrowed them for these masks: they recur as often (a third of those walks).
    cut_sums: u64,
    cut: Made,
}

/// The most digit sets a group of a sum may have (n choose its cells): bounds the cost of
/// walking its assignments.
const GROUP_SETS: usize = 256;

/// The most cells of a group of a sum: larger groups prune more but cost more than they save
/// (measured on the ISS killer and little-killer puzzles).
const GROUP_CELLS: usize = 3;

/// A sum with repeats (all coefficients ±1) whose target lies this far or more inside both
/// ends of what its cells can make (each cell's least and greatest candidates, repeats
/// counted) is not filtered: with that much room the exact filter rarely narrows anything,
/// and a run costs a few thousand instructions. The Interactive Sudoku Solver's sums stop
/// narrowing at a room of N - 1 (8 on a 9×9, where ours took 14% more guesses on the 51
/// puzzles of its bench above 20 ms); at 12 they took 4% more, and the CPU time of those 51
/// fell 5–6%, of "LITTLE_KILLER_SNIPES#9" 21%, of seven killers made after the choice 4% (see
/// PERFORMANCE.md). Every cell placed, the room is none: a full assignment is always checked.
const SLACK: i64 = 12;

/// The most cells the exact filter of sums with repeats takes.
pub(super) const REACH_CELLS: usize = 16;

impl Sum {
    /// A linear sum; repeats allowed.
    pub(super) fn linear(n: usize, cells: &[usize], coef: &[i64], target: i64) -> Sum {
        // Every partial sum (negative terms' digits mirrored, see `run_reach`) lies between 0
        // and Σ |k|·N.
        let n = n as i64;
        let span: i64 = coef.iter().map(|&k| k.abs() * n).sum();
        let fits = cells.len() <= REACH_CELLS && span < 128 && n <= 16;
        let groups = if fits {
            (0..cells.len())
                .map(|i| Group {
                    start: i,
                    len: 1,
                    coef: coef[i],
                })
                .collect()
        } else {
            Vec::new()
        };
        Sum {
            cells: cells.iter().map(|&c| c as u16).collect(),
            coef: coef.to_vec(),
            target,
            combos: None,
            links: Vec::new(),
            reach: fits,
            groups,
            side: n as u32,
            memo: 0,
            goal_span: (0, 0),
            redundant: false,
        }
        .mirror_set()
    }

    /// The sum with [`Sum::mirrored`] of its groups noted.
    fn mirror_set(mut self) -> Sum {
        self.goal_span = self.mirrored();
        self
    }

    /// Gather a sum's cells (repeats allowed) into groups that must hold different digits:
    /// `differ(a, b)` says whether two cells must. Greedy: each cell joins the first group of
    /// its coefficient whose cells it all differs from, while the group's digit sets stay few.
    /// Cells are reordered group by group.
    pub(super) fn group(&mut self, n: usize, differ: impl Fn(u16, u16) -> bool) {
        if self.cells.is_empty() || self.combos.is_some() {
            return;
        }
        if !self.reach {
            // Bounds only: groups of any size, for the least and greatest sums of different
            // digits (see `run_bounds`).
            if self.cells.len() <= 64 {
                let groups = cliques(&self.cells, &self.coef, &differ);
                self.set_groups(groups);
            }
            return;
        }
        // Cells that all differ, with one coefficient of 1 or -1: a cage (of the target, or
        // of its opposite).
        let k = self.coef[0];
        let all_differ = self
            .cells
            .iter()
            .enumerate()
            .all(|(i, &a)| self.cells[i + 1..].iter().all(|&b| differ(a, b)));
        if k.abs() == 1 && self.coef.iter().all(|&x| x == k) && all_differ && self.target * k > 0 {
            let cells: Vec<usize> = self.cells.iter().map(|&c| usize::from(c)).collect();
            let redundant = self.redundant;
            *self = Sum::cage(n, &cells, (self.target * k) as u32);
            self.redundant = redundant;
            return;
        }
        self.gather(|groups: &[(i64, Vec<u16>)], g, c, k| {
            let (gk, cells) = &groups[g];
            *gk == k
                && cells.len() < GROUP_CELLS
                && cells.iter().all(|&o| differ(o, c))
                && choose(n, cells.len() + 1) <= GROUP_SETS
        });
    }

    /// Gather the cells into groups, greedily: each joins the first group `fits(groups, g,
    /// cell, coefficient)` accepts, else starts one; the cells are reordered group by group.
    fn gather(&mut self, fits: impl Fn(&[(i64, Vec<u16>)], usize, u16, i64) -> bool) {
        let mut groups: Vec<(i64, Vec<u16>)> = Vec::new();
        for (&c, &k) in self.cells.iter().zip(&self.coef) {
            match (0..groups.len()).find(|&g| fits(&groups, g, c, k)) {
                Some(g) => groups[g].1.push(c),
                None => groups.push((k, vec![c])),
            }
        }
        self.set_groups(groups);
    }

    /// Reorder the cells group by group.
    fn set_groups(&mut self, groups: Vec<(i64, Vec<u16>)>) {
        self.cells.clear();
        self.coef.clear();
        self.groups.clear();
        for (k, cells) in groups {
            self.groups.push(Group {
                start: self.cells.len(),
                len: cells.len(),
                coef: k,
            });
            self.coef.extend(cells.iter().map(|_| k));
            self.cells.extend(cells);
        }
        self.goal_span = self.mirrored();
    }

    /// A killer cage with a sum: different digits.
    pub(super) fn cage(n: usize, cells: &[usize], sum: u32) -> Sum {
        let combos = (n <= 16).then(|| digit_sets(n as u32, cells.len() as u32, sum));
        Sum {
            cells: cells.iter().map(|&c| c as u16).collect(),
            coef: vec![1; cells.len()],
            target: i64::from(sum),
            combos,
            links: Vec::new(),
            reach: false,
            groups: Vec::new(),
            side: n as u32,
            memo: 0,
            goal_span: (0, 0),
            redundant: false,
        }
        .mirror_set()
    }

    /// Note the houses (each a list of cells) that hold two or more of a cage's or a grouped
    /// sum's cells (at most 64 cells): required digits then leave the rest of such a house.
    pub(super) fn link_houses(&mut self, houses: &[Vec<u16>], houses_of: &[Vec<usize>]) {
        if (self.combos.is_none() && (!self.reach || self.groups.iter().all(|g| g.len < 2)))
            || self.cells.len() > 64
        {
            return;
        }
        self.links = required::links(&self.cells, houses, houses_of);
    }

    /// Number this sum's memo slots from `first` (one per group of a sum with repeats whose
    /// partial sums the exact filter runs on); the first slot after them.
    pub(super) fn memo_slots(&mut self, first: usize) -> usize {
        self.memo = first;
        if self.combos.is_none() && self.reach {
            first + self.groups.len()
        } else {
            first
        }
    }

    /// The sum marked as derived from other rules (see [`Sum::is_redundant`]).
    pub(super) fn redundant(mut self) -> Sum {
        self.redundant = true;
        self
    }

    /// Whether the sum is derived from other rules (the law of leftovers): implied by them, so
    /// leaving it out never changes the solutions, only how early a branch fails.
    pub(super) fn is_redundant(&self) -> bool {
        self.redundant
    }

    /// Whether this sum is a cage with digit sets.
    pub(super) fn has_sets(&self) -> bool {
        self.combos.is_some()
    }

    /// The sum's cells.
    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The sum's value on a filled grid (digits 1 to N, cell by cell) and its target.
    #[cfg(test)]
    pub(super) fn value_on(&self, grid: &[u8]) -> (i64, i64) {
        let value = self
            .cells
            .iter()
            .zip(&self.coef)
            .map(|(&c, &k)| k * i64::from(grid[usize::from(c)]))
            .sum();
        (value, self.target)
    }

    /// Narrow the cells' candidates (`memo`: the propagation scratch's [`Seen`] slots of
    /// every sum, or none).
    pub(super) fn run<M: Masks>(
        &self,
        m: &mut M,
        peers: Option<&required::Exclusions>,
        memo: &mut [Seen],
    ) -> Result<bool, Contradiction> {
        match (&self.combos, self.reach) {
            (Some(combos), _) => {
                required::keep_sets(&self.cells, &self.links, peers, combos, true, m)
            }
            (None, true) => self.run_reach(m, peers, memo),
            (None, false) => self.run_bounds(m),
        }
    }

    /// Repeats allowed but for the groups of cells that must differ: each cell keeps the
    /// digits of its group's assignments (different digits) whose sum some choice of the
    /// other groups' sums completes to the target. A group with a negative coefficient `-k`
    /// counts mirrored digits (`N + 1 - d`, which make `k·(N + 1) - k·d`), so that every
    /// partial sum lies between 0 and `Σ |k|·N` (less than 128 where this filter runs): one
    /// machine word when below 64, else two.
    fn run_reach<M: Masks>(
        &self,
        m: &mut M,
        peers: Option<&required::Exclusions>,
        memo: &mut [Seen],
    ) -> Result<bool, Contradiction> {
        let (goal, span) = self.goal_span;
        let run = |memo: &mut [Seen], m: &mut M| {
            if span < 64 {
                self.reach::<u64, M>(goal, m, peers, memo, SLACK)
            } else {
                self.reach::<u128, M>(goal, m, peers, memo, SLACK)
            }
        };
        match memo.get_mut(self.memo..self.memo + self.groups.len()) {
            Some(slots) => run(slots, m),
            // Without the propagation scratch's slots (a sum run on its own): slots here.
            None => run(&mut vec![Seen::default(); self.groups.len()], m),
        }
    }

    /// The target with the negative groups' digits mirrored, and the largest partial sum, both
    /// counted from the least sum the groups can make (see [`Group::least`]): a little killer
    /// of eight cells on a 9×9 spans 8 to 72 before, up to 59 values in groups (one word).
    fn mirrored(&self) -> (i64, i64) {
        let n = i64::from(self.side);
        let (mut goal, mut span) = (self.target, 0i64);
        for g in &self.groups {
            let (k, len) = (g.coef.abs(), g.len as i64);
            let least = g.least();
            // Different digits: at most N + (N - 1) + ... for the group's cells.
            let most = len * n - len * (len - 1) / 2;
            span += k * (most - least);
            goal -= k * least;
            if g.coef < 0 {
                goal += k * len * (n + 1);
            }
        }
        (goal, span)
    }

    /// [`Sum::run_reach`] with partial sums (bit `s` for sum `s` above the groups' least, see
    /// [`Sum::mirrored`]) in words of type `W`:
    /// `before[i]` the sums the groups before `i` can make, `after` those the groups from `i`
    /// on must make. Nothing is done where the target lies `slack` or more inside both ends
    /// of what the cells can make (see [`SLACK`]; `i64::MAX`: the exact filter always).
    #[inline]
    fn reach<W: Word, M: Masks>(
        &self,
        goal: i64,
        m: &mut M,
        peers: Option<&required::Exclusions>,
        memo: &mut [Seen],
        slack: i64,
    ) -> Result<bool, Contradiction> {
        if !(0..i64::from(W::BITS)).contains(&goal) {
            return Err(Contradiction);
        }
        let goal = goal as u32;
        let n = self.side;
        // Digit d <-> N + 1 - d: an involution on masks of N digits.
        let mirror = |mask: u64| mask.reverse_bits() >> (64 - n);
        // Every partial sum of `sums` (a group's sums) times `k` added to `from`, or taken
        // from it (`up` false). Shifts stay below `W::BITS`: every partial sum does.
        // A run of consecutive sums `lo..lo + len` spreads `from` by doubling (`from` shifted
        // by 0, k, 2k, ... at once), then by `k·lo`: partial sums mostly form one run.
        let spread = |from: W, mut sums: W, k: u32, up: bool| {
            let shift = |x: W, by: u32| if up { x << by } else { x >> by };
            let mut out = W::ZERO;
            while sums != W::ZERO {
                let lo = sums.tz();
                let len = (sums >> lo).trailing_ones();
                sums = sums.drop_lowest_run();
                let (mut smeared, mut have) = (from, 1);
                while 2 * have <= len {
                    smeared = smeared | shift(smeared, k * have);
                    have *= 2;
                }
                if have < len {
                    smeared = smeared | shift(smeared, k * (len - have));
                }
                out = out | shift(smeared, k * lo);
            }
            out
        };
        let mut masks = [0u64; REACH_CELLS];
        for g in &self.groups {
            let cells = &self.cells[g.start..g.start + g.len];
            for (mask, &c) in masks[g.start..].iter_mut().zip(cells) {
                let digits = m.mask(usize::from(c));
                *mask = if g.coef < 0 { mirror(digits) } else { digits };
            }
        }
        if slack < i64::MAX {
            // The least and greatest sums of the cells' least and greatest candidates (repeats
            // counted: looser than the groups' own), from the groups' least as `goal` is.
            let (mut lo, mut hi, mut unit) = (0i64, 0i64, true);
            for g in &self.groups {
                unit &= g.coef.abs() == 1;
                lo -= g.least();
                hi -= g.least();
                for &mask in &masks[g.start..g.start + g.len] {
                    lo += i64::from(mask.trailing_zeros()) + 1;
                    hi += 64 - i64::from(mask.leading_zeros());
                }
            }
            if unit && lo + slack <= i64::from(goal) && i64::from(goal) <= hi - slack {
                return Ok(false);
            }
        }
        let groups = self.groups.len();
        let mut before = [W::ZERO; REACH_CELLS + 1];
        let mut made = [W::ZERO; REACH_CELLS];
        before[0] = W::ONE;
        for (i, g) in self.groups.iter().enumerate() {
            // Sums counted from the group's least (see `Group::least`): bit s for least + s.
            made[i] = if g.len == 1 {
                W::from_u128(u128::from(masks[g.start]))
            } else {
                // The assignments of a group of two or three cells, kept in its memo slot.
                let group = &masks[g.start..g.start + g.len];
                let mut key = [0u64; 3];
                key[..g.len].copy_from_slice(group);
                let seen = &mut memo[i];
                if seen.masks != key {
                    *seen = Seen {
                        masks: key,
                        made: assignments(group, u64::MAX),
                        cut_sums: 0,
                        cut: Made::default(),
                    };
                }
                W::from_u128(u128::from(seen.made.sums >> g.least()))
            };
            before[i + 1] = spread(before[i], made[i], g.coef.unsigned_abs() as u32, true);
        }
        if (before[groups] >> goal) & W::ONE == W::ZERO {
            return Err(Contradiction);
        }
        let mut changed = false;
        let mut after = W::ONE << goal;
        for (i, g) in self.groups.iter().enumerate().rev() {
            let k = g.coef.unsigned_abs() as u32;
            let unmirror = |mask: u64| if g.coef < 0 { mirror(mask) } else { mask };
            // The group's sums that the other groups complete to the target.
            let sums = if k == 1 {
                // Sum s fits where some x of `before` makes x + s one of `after`.
                made[i] & spread(after, before[i], 1, false)
            } else {
                let mut sums = W::ZERO;
                let mut rest = made[i];
                while rest != W::ZERO {
                    let s = rest.tz();
                    rest = rest.drop_lowest();
                    if (before[i] << (k * s)) & after != W::ZERO {
                        sums = sums | (W::ONE << s);
                    }
                }
                sums
            };
            let cut = sums != made[i];
            let cells = &self.cells[g.start..g.start + g.len];
            if g.len == 1 {
                if cut {
                    let digits = unmirror(sums.to_u128() as u64);
                    changed |= m.restrict(usize::from(cells[0]), digits)?;
                }
            } else {
                let group = &masks[g.start..g.start + g.len];
                let seen = &mut memo[i];
                let w = if !cut {
                    seen.made
                } else {
                    // The memo slot holds this run's masks (the forward pass saw to it). The
                    // group's sums themselves (at most 16 + 15 + 14) fit a word.
                    let sums = (sums.to_u128() as u64) << g.least();
                    if seen.cut_sums != sums || sums == 0 {
                        seen.cut = assignments(group, sums);
                        seen.cut_sums = sums;
                    }
                    seen.cut
                };
                for (j, &c) in cells.iter().enumerate() {
                    changed |= m.restrict(usize::from(c), unmirror(w.support[j]))?;
                }
                let (_, fixed) = union_placed(group.iter().copied());
                if w.required & !fixed != 0 {
                    changed |= required::place(
                        &self.cells,
                        &self.links,
                        peers,
                        g.start..g.start + g.len,
                        unmirror(w.required & !fixed),
                        m,
                    )?;
                }
            }
            after = spread(after, sums, k, false);
        }
        Ok(changed)
    }

    /// Repeats allowed but for the groups of cells that must differ (when grouped): each cell
    /// keeps the digits for which the least and greatest sums the others can make (different
    /// digits within a group) can still meet the target, until nothing changes.
    fn run_bounds<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        let one = [Group {
            start: 0,
            len: self.cells.len(),
            coef: 0,
        }];
        // Ungrouped sums (more than 64 cells): every cell its own group.
        let singles = self.groups.is_empty();
        let groups: &[Group] = if singles { &one } else { &self.groups };
        let mut changed = false;
        loop {
            // Each group's least and greatest sums (of its digits, before the coefficient).
            let (mut lo, mut hi) = (0i64, 0i64);
            for g in groups {
                for part in self.parts(g, singles) {
                    let (_, _, x, y) = self.contribution(part, m)?;
                    lo += x;
                    hi += y;
                }
            }
            if self.target < lo || self.target > hi {
                return Err(Contradiction);
            }
            let mut again = false;
            for g in groups {
                for part in self.parts(g, singles) {
                    let (ends, k, x, y) = self.contribution(part.clone(), m)?;
                    // No cell can lose a digit while the target lies a digit's span times
                    // the coefficient inside both ends (a cell left out lowers the least sum
                    // by one at least).
                    let top = ends.top();
                    let width = (top - 1) * k.abs();
                    if self.target - lo >= width && hi - self.target >= width {
                        continue;
                    }
                    // The other groups' least and greatest contributions.
                    let (rest_lo, rest_hi) = (lo - x, hi - y);
                    for cell in part.clone() {
                        let cell = usize::from(self.cells[cell]);
                        // The group's other cells: their least and greatest sums (this
                        // cell's ends are those `ends` read: a group's cells differ, and only
                        // its own step narrows it).
                        let own = span(m.mask(cell));
                        let (lo_o, hi_o) = ends.sums(Some(own)).ok_or(Contradiction)?;
                        let allowed = if k > 0 {
                            range_mask(
                                div_ceil(self.target - rest_hi, k) - hi_o,
                                (self.target - rest_lo).div_euclid(k) - lo_o,
                            )
                        } else {
                            let j = -k;
                            range_mask(
                                div_ceil(rest_lo - self.target, j) - hi_o,
                                (rest_hi - self.target).div_euclid(j) - lo_o,
                            )
                        };
                        if m.restrict(cell, allowed)? {
                            again = true;
                        }
                    }
                }
            }
            if !again {
                return Ok(changed);
            }
            changed = true;
        }
    }

    /// The cell ranges of group `g`: itself, or each of its cells (`singles`).
    fn parts(&self, g: &Group, singles: bool) -> impl Iterator<Item = std::ops::Range<usize>> {
        let (start, len) = (g.start, g.len);
        let step = if singles { 1 } else { len };
        (start..start + len)
            .step_by(step.max(1))
            .map(move |i| i..i + step.min(start + len - i))
    }

    /// The candidates' ends of the cells of `part` (one coefficient), the coefficient, and
    /// the least and greatest the part adds to the sum.
    #[inline]
    fn contribution<M: Masks>(
        &self,
        part: std::ops::Range<usize>,
        m: &M,
    ) -> Result<(Ends, i64, i64, i64), Contradiction> {
        let k = self.coef[part.start];
        let ends = self.ends(part, m);
        let (a, b) = ends.sums(None).ok_or(Contradiction)?;
        let (x, y) = if k >= 0 {
            (k * a, k * b)
        } else {
            (k * b, k * a)
        };
        Ok((ends, k, x, y))
    }

    /// The least and greatest candidates of the cells of `range`.
    #[inline]
    fn ends<M: Masks>(&self, range: std::ops::Range<usize>, m: &M) -> Ends {
        if range.len() == 1 {
            let (a, b) = span(m.mask(usize::from(self.cells[range.start])));
            return Ends::One(a, b);
        }
        Ends::many(range.map(|i| span(m.mask(usize::from(self.cells[i])))))
    }
}

/// The least and greatest candidates of a group's cells. On the stack, both variants: the
/// propagators do not allocate, and a single cell skips filling the counts.
enum Ends {
    /// One cell.
    One(i64, i64),
    /// Several: how many cells have each least candidate, and each greatest.
    Many(Tally, Tally),
}

/// How many of some cells have each digit (1 to 64) as their end (least or greatest
/// candidate): what the greedy sums below read in order of the digits, without a sort.
#[derive(Clone, Copy)]
struct Tally {
    /// The digits some cell has (bit `d - 1`).
    present: u64,
    /// How many have each (`count[d - 1]`).
    count: [u8; 64],
}

impl Tally {
    const NONE: Tally = Tally {
        present: 0,
        count: [0; 64],
    };

    /// One more cell with the end `e`.
    fn add(&mut self, e: i64) {
        let i = (e - 1) as usize;
        self.present |= 1 << i;
        self.count[i] += 1;
    }

    /// The cells' ends by digit, lowest first (`descending`: highest first), one cell whose
    /// end is `skip` left out: each digit with how many cells have it.
    fn by_digit(
        &self,
        skip: Option<i64>,
        descending: bool,
    ) -> impl Iterator<Item = (u32, u8)> + '_ {
        let skip = skip.map_or(u32::MAX, |e| (e - 1) as u32);
        let mut left = self.present;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let i = if descending {
                    63 - left.leading_zeros()
                } else {
                    left.trailing_zeros()
                };
                left &= !(1 << i);
                (i, self.count[i as usize] - u8::from(i == skip))
            })
        })
    }
}

impl Ends {
    /// The ends (least and greatest candidate) of several cells.
    fn many(spans: impl Iterator<Item = (i64, i64)>) -> Ends {
        let (mut mins, mut maxs) = (Tally::NONE, Tally::NONE);
        for (a, b) in spans {
            mins.add(a);
            maxs.add(b);
        }
        Ends::Many(mins, maxs)
    }

    /// The largest candidate.
    fn top(&self) -> i64 {
        match self {
            Ends::One(_, b) => *b,
            Ends::Many(_, maxs) => 64 - i64::from(maxs.present.leading_zeros()),
        }
    }

    /// The least and greatest sums of different digits of the cells but one whose least and
    /// greatest candidates are `skip` (`None`: all of them); `None` when digits run out.
    fn sums(&self, skip: Option<(i64, i64)>) -> Option<(i64, i64)> {
        if let (Ends::Many(mins, maxs), Some((a, b))) = (self, skip) {
            debug_assert!(mins.present >> (a - 1) & 1 == 1 && maxs.present >> (b - 1) & 1 == 1);
        }
        match self {
            Ends::One(..) if skip.is_some() => Some((0, 0)),
            Ends::One(a, b) => Some((*a, *b)),
            Ends::Many(mins, maxs) => Some((
                least(mins.by_digit(skip.map(|s| s.0), false))?,
                greatest(maxs.by_digit(skip.map(|s| s.1), true))?,
            )),
        }
    }
}

/// The cells of a sum (coefficients `coef`) in groups of one coefficient that must hold
/// different digits, for the bounds: the fewer and larger the groups, the nearer the least
/// and greatest sums (a group of g cells spans g·(N − g) where g single cells span g·(N − 1)).
/// Of three greedy partitions (each cell joining the first group it fits, in the sum's order;
/// cliques grown in cell order; cliques grown from the cell that differs from the most), the
/// one with the largest sum of squared group sizes.
pub(super) fn cliques(
    cells: &[u16],
    coef: &[i64],
    differ: impl Fn(u16, u16) -> bool,
) -> Vec<(i64, Vec<u16>)> {
    let len = cells.len();
    assert!(len <= 64, "groups are bit sets of at most 64 cells");
    let bit = |i: usize| 1u64 << i;
    // adj[i]: the cells (bits by position in the sum) that must differ from cell i and share
    // its coefficient.
    let adj: Vec<u64> = (0..len)
        .map(|i| {
            (0..len)
                .filter(|&j| j != i && coef[j] == coef[i] && differ(cells[i], cells[j]))
                .fold(0, |m, j| m | bit(j))
        })
        .collect();
    let score = |p: &[u64]| p.iter().map(|g| g.count_ones().pow(2)).sum::<u32>();
    // First fit, in the sum's order.
    let mut best: Vec<u64> = Vec::new();
    for (i, &links) in adj.iter().enumerate() {
        match best.iter_mut().find(|g| **g & !links == 0) {
            Some(g) => *g |= bit(i),
            None => best.push(bit(i)),
        }
    }
    // Cliques grown in cell order (the cells sorted), from the first cell left or from the
    // one that differs from the most cells left.
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_unstable_by_key(|&i| cells[i]);
    let all = if len == 64 { u64::MAX } else { bit(len) - 1 };
    for most in [false, true] {
        let mut left = all;
        let mut out = Vec::new();
        while left != 0 {
            let first = order.iter().copied().find(|&i| left & bit(i) != 0);
            let Some(first) = first else { break };
            let same = (0..len)
                .filter(|&j| coef[j] == coef[first])
                .fold(0, |m, j| m | bit(j));
            let mut open = left & same;
            let mut group = 0u64;
            while open != 0 {
                let mut pick = usize::MAX;
                for &i in order.iter().filter(|&&i| open & bit(i) != 0) {
                    if !most {
                        pick = i;
                        break;
                    }
                    let links = |j: usize| (adj[j] & open).count_ones();
                    if pick == usize::MAX || links(i) > links(pick) {
                        pick = i;
                    }
                }
                group |= bit(pick);
                open &= adj[pick];
            }
            left &= !group;
            out.push(group);
        }
        if score(&out) > score(&best) {
            best = out;
        }
    }
    best.into_iter()
        .map(|g| {
            let members = order.iter().filter(|&&i| g & bit(i) != 0);
            let k = coef[g.trailing_zeros() as usize];
            (k, members.map(|&i| cells[i]).collect())
        })
        .collect()
}

/// The sets of `k` different digits of 1 to `n` (at most 64) that sum to `sum`, as masks
/// (bit `d - 1` for digit `d`), in increasing order. Made by choosing the digits from the
/// greatest down, within the least and greatest sums the digits left can make: a cage of a
/// 16×16 board no longer tries all 65,536 masks (84% of a 16×16 killer's check).
fn digit_sets(n: u32, k: u32, sum: u32) -> Vec<u64> {
    /// The sets of `k` digits of 1 to `top` summing to `sum`, each with `mask`.
    fn walk(top: u32, k: u32, sum: u32, mask: u64, out: &mut Vec<u64>) {
        if k == 0 {
            if sum == 0 {
                out.push(mask);
            }
            return;
        }
        // k digits of 1..=top: at least 1 + ... + k, at most top + ... + (top - k + 1).
        if top < k || sum < k * (k + 1) / 2 || sum > k * top - k * (k - 1) / 2 {
            return;
        }
        if top <= sum {
            walk(top - 1, k - 1, sum - top, mask | 1 << (top - 1), out);
        }
        walk(top - 1, k, sum, mask, out);
    }
    let mut out = Vec::new();
    if n <= 64 {
        walk(n, k, sum, 0, &mut out);
    }
    out.sort_unstable();
    out
}

/// The least sum of different digits, each at least its cell's least candidate (`mins`: how
/// many cells have each, bit index of the digit, lowest first): each cell in turn taking the
/// least digit still free. `None` when digits run out (past 64).
fn least(mins: impl Iterator<Item = (u32, u8)>) -> Option<i64> {
    let (mut used, mut sum) = (0u64, 0i64);
    for (i, cells) in mins {
        for _ in 0..cells {
            let free = !used & (u64::MAX << i);
            if free == 0 {
                return None;
            }
            let v = free.trailing_zeros();
            used |= 1 << v;
            sum += i64::from(v) + 1;
        }
    }
    Some(sum)
}

/// The greatest sum of different digits, each at most its cell's greatest candidate (`maxs`:
/// how many cells have each, highest first). `None` when no digit is free.
fn greatest(maxs: impl Iterator<Item = (u32, u8)>) -> Option<i64> {
    let (mut used, mut sum) = (0u64, 0i64);
    for (i, cells) in maxs {
        let below = if i >= 63 { u64::MAX } else { (2u64 << i) - 1 };
        for _ in 0..cells {
            let free = !used & below;
            if free == 0 {
                return None;
            }
            let v = 63 - free.leading_zeros();
            used |= 1 << v;
            sum += i64::from(v) + 1;
        }
    }
    Some(sum)
}

/// The least and greatest digit of a mask (not empty).
#[inline]
fn span(mask: u64) -> (i64, i64) {
    (
        i64::from(mask.trailing_zeros()) + 1,
        64 - i64::from(mask.leading_zeros()),
    )
}

/// The union of some candidate masks, and the digits of those that are placed (one bit).
#[inline]
fn union_placed(masks: impl IntoIterator<Item = u64>) -> (u64, u64) {
    masks.into_iter().fold((0, 0), |(union, placed), mask| {
        let one = if mask & mask.wrapping_sub(1) == 0 {
            mask
        } else {
            0
        };
        (union | mask, placed | one)
    })
}

/// The partial sums of a sum with repeats, one bit each: `u64` or `u128`.
trait Word:
    Copy
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    /// The low bits of `x`.
    fn from_u128(x: u128) -> Self;
    fn to_u128(self) -> u128;
    fn tz(self) -> u32;
    /// Without its lowest set bit.
    fn drop_lowest(self) -> Self;
    /// Without its lowest run of set bits.
    fn drop_lowest_run(self) -> Self;
    fn trailing_ones(self) -> u32;
}

/// `Word` for a primitive unsigned integer.
macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn from_u128(x: u128) -> $t {
                x as $t
            }
            #[inline]
            fn to_u128(self) -> u128 {
                u128::from(self)
            }
            #[inline]
            fn tz(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn drop_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn drop_lowest_run(self) -> $t {
                self & self.wrapping_add(self & self.wrapping_neg())
            }
            #[inline]
            fn trailing_ones(self) -> u32 {
                <$t>::trailing_ones(self)
            }
        }
    };
}

word!(u64);
word!(u128);

/// n choose k (saturating).
fn choose(n: usize, k: usize) -> usize {
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

#[inline]
fn div_ceil(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Candidates as a plain list, for a rule run on its own.
    pub(in crate::rules) struct Grid(pub(in crate::rules) Vec<u64>);

    impl Masks for Grid {
        fn mask(&self, cell: usize) -> u64 {
            self.0[cell]
        }
        fn restrict(&mut self, cell: usize, allowed: u64) -> Result<bool, Contradiction> {
            let kept = self.0[cell] & allowed;
            if kept == 0 {
                return Err(Contradiction);
            }
            let changed = kept != self.0[cell];
            self.0[cell] = kept;
            Ok(changed)
        }
    }

    /// Every assignment of digits (1 to `n`) to cells with candidates `masks` in which cells
    /// `i` and `j` hold different digits where `differ(i, j)`.
    pub(in crate::rules) fn every_assignment(
        n: usize,
        masks: &[u64],
        differ: impl Fn(usize, usize) -> bool,
    ) -> Vec<Vec<u64>> {
        let mut all: Vec<Vec<u64>> = vec![Vec::new()];
        for &m in masks {
            all = all
                .into_iter()
                .flat_map(|a| {
                    (1..=n as u64)
                        .filter(move |d| m >> (d - 1) & 1 == 1)
                        .map(move |d| [a.clone(), vec![d]].concat())
                })
                .collect();
        }
        let len = masks.len();
        all.retain(|a| (0..len).all(|i| (0..i).all(|j| !differ(i, j) || a[i] != a[j])));
        all
    }

    /// `Σ coef[i] · a[i]`.
    fn value(a: &[u64], coef: &[i64]) -> i64 {
        a.iter().zip(coef).map(|(&d, &k)| k * d as i64).sum()
    }

    /// Each cell's digits (bit d - 1) in the assignments of `all` that make `target`.
    fn support(all: &[Vec<u64>], coef: &[i64], target: i64) -> Vec<u64> {
        let mut support = vec![0u64; coef.len()];
        for a in all.iter().filter(|a| value(a, coef) == target) {
            for (s, &d) in support.iter_mut().zip(a) {
                *s |= 1 << (d - 1);
            }
        }
        support
    }

    /// A run that must keep every digit of `support` (each cell's digits that some
    /// assignment uses): on `Ok` every cell kept them, and `Err` comes only where no
    /// assignment is left. Whether the run went through.
    pub(in crate::rules) fn kept_support(
        got: Result<bool, Contradiction>,
        kept: &[u64],
        support: &[u64],
        case: &dyn std::fmt::Debug,
    ) -> bool {
        match got {
            Ok(_) => {
                for (&k, &s) in kept.iter().zip(support) {
                    assert_eq!(k & s, s, "{case:?}");
                }
                true
            }
            Err(Contradiction) => {
                assert!(support.iter().all(|&s| s == 0), "{case:?}");
                false
            }
        }
    }

    /// The bounds' least and greatest sums of different digits, read from the cells' ends
    /// counted by digit, are the greedy sums over the ends sorted (the definition the bounds
    /// were written from), with every cell left out in turn and with none.
    #[test]
    fn tallied_ends_give_the_sorted_greedy_sums() {
        fn plainly(ends: &[(i64, i64)], skip: Option<usize>) -> Option<(i64, i64)> {
            let others = |f: fn(&(i64, i64)) -> i64| -> Vec<i64> {
                let kept = ends.iter().enumerate().filter(|&(j, _)| Some(j) != skip);
                kept.map(|(_, e)| f(e)).collect()
            };
            let (mut mins, mut maxs) = (others(|e| e.0), others(|e| e.1));
            mins.sort_unstable();
            maxs.sort_unstable_by(|x, y| y.cmp(x));
            let (mut used, mut lo, mut hi) = (std::collections::BTreeSet::new(), 0, 0);
            for a in mins {
                let d = (a..=64).find(|d| !used.contains(d))?;
                used.insert(d);
                lo += d;
            }
            used.clear();
            for b in maxs {
                let d = (1..=b).rev().find(|d| !used.contains(d))?;
                used.insert(d);
                hi += d;
            }
            Some((lo, hi))
        }
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move |k: usize| rng.below(k) as i64;
        let (mut some, mut none) = (0, 0);
        for _ in 0..3000 {
            let n = [4, 9, 16, 64][next(4) as usize];
            let len = 2 + next(12) as usize;
            let ends: Vec<(i64, i64)> = (0..len)
                .map(|_| {
                    let a = 1 + next(n as usize);
                    (a, a + next((n - a + 1) as usize))
                })
                .collect();
            let tally = Ends::many(ends.iter().copied());
            let got = tally.sums(None);
            assert_eq!(got, plainly(&ends, None), "{ends:?}");
            (some, none) = (
                some + usize::from(got.is_some()),
                none + usize::from(got.is_none()),
            );
            for (j, &e) in ends.iter().enumerate() {
                assert_eq!(
                    tally.sums(Some(e)),
                    plainly(&ends, Some(j)),
                    "{ends:?} but {j}"
                );
            }
        }
        // Both answers are met.
        assert!(some > 100 && none > 100, "{some} {none}");
    }

    /// Sums with a large coefficient (bounds only, cells grouped by the digits they must not
    /// share) never lose a digit some assignment of the candidates uses.
    #[test]
    fn bounds_keep_every_supported_digit() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |k: u64| rng.below(k as usize) as u64;
        let n = 6usize;
        let (mut pruned, mut dead) = (0, 0);
        for _ in 0..4000 {
            let len = 3 + next(3) as usize;
            let cells: Vec<usize> = (0..len).collect();
            let coef: Vec<i64> = (0..len)
                .map(|i| match (i, next(5)) {
                    (0, _) => [-100, 100][next(2) as usize],
                    (_, 0) => -1,
                    (_, 1) => 10,
                    _ => 1,
                })
                .collect();
            // Two houses per cell (a row and a column, say): cells that share either differ,
            // which is not transitive, as on a board.
            let house: Vec<(u64, u64)> = (0..len).map(|_| (next(2), next(3))).collect();
            let differ = |i: usize, j: usize| house[i].0 == house[j].0 || house[i].1 == house[j].1;
            let masks: Vec<u64> = (0..len).map(|_| 1 + next((1 << n) - 1)).collect();
            // Every assignment (digits differ within a house).
            let all = every_assignment(n, &masks, differ);
            let target = if next(2) == 0 && !all.is_empty() {
                value(&all[next(all.len() as u64) as usize], &coef)
            } else {
                next(400) as i64 - 200
            };
            let support = support(&all, &coef, target);
            let mut sum = Sum::linear(n, &cells, &coef, target);
            assert!(!sum.reach);
            sum.group(n, |a, b| a != b && differ(usize::from(a), usize::from(b)));
            let mut grid = Grid(masks.clone());
            let got = sum.run(&mut grid, None, &mut []);
            if kept_support(got, &grid.0, &support, &(&coef, &masks, target)) {
                pruned += usize::from(grid.0 != masks);
            } else {
                dead += 1;
            }
        }
        // The test means something: runs prune and find contradictions.
        assert!(pruned > 100 && dead > 100, "{pruned} {dead}");
    }

    /// The exact filter of sums with repeats keeps exactly the digits some assignment uses
    /// (digits differ within a group), in one machine word and in two alike, and with memo
    /// slots that earlier sums filled: coefficients of both signs, groups of one to three
    /// cells.
    #[test]
    fn reach_keeps_exactly_the_supported_digits() {
        let mut rng = crate::rng::SplitMix64::new(0xD1B5_4A32_D192_ED03);
        let mut next = move |k: u64| rng.below(k as usize) as u64;
        let n = 6usize;
        let mut memo = vec![Seen::default(); REACH_CELLS];
        let (mut pruned, mut dead) = (0, 0);
        for _ in 0..3000 {
            let len = 2 + next(4) as usize;
            let cells: Vec<usize> = (0..len).collect();
            let coef: Vec<i64> = (0..len)
                .map(|_| [-2, -1, 1, 1, 2][next(5) as usize])
                .collect();
            let house: Vec<u64> = (0..len).map(|_| next(3)).collect();
            let masks: Vec<u64> = (0..len).map(|_| 1 + next((1 << n) - 1)).collect();
            let target = next(60) as i64 - 30;
            let mut sum = Sum::linear(n, &cells, &coef, target);
            assert!(sum.reach);
            sum.group(n, |a, b| {
                a != b && house[usize::from(a)] == house[usize::from(b)]
            });
            if !sum.reach {
                continue; // became a cage
            }
            // Every assignment whose cells of one group differ (the groups hold the cells
            // reordered: each cell's group by the cell).
            let mut group_of = vec![0; len];
            for (k, g) in sum.groups.iter().enumerate() {
                for &c in &sum.cells[g.start..g.start + g.len] {
                    group_of[usize::from(c)] = k;
                }
            }
            let all = every_assignment(n, &masks, |i, j| group_of[i] == group_of[j]);
            let support = support(&all, &coef, target);
            let (goal, span) = sum.mirrored();
            let mut wide = Grid(masks.clone());
            let fresh = &mut vec![Seen::default(); sum.groups.len()];
            let got = sum.reach::<u128, Grid>(goal, &mut wide, None, fresh, i64::MAX);
            // The memo slots hold what earlier sums saw, then this one's: the same result.
            for _ in 0..2 {
                let mut again = Grid(masks.clone());
                let w = sum.groups.len();
                let reused = if span < 64 {
                    sum.reach::<u64, Grid>(goal, &mut again, None, &mut memo[..w], i64::MAX)
                } else {
                    sum.reach::<u128, Grid>(goal, &mut again, None, &mut memo[..w], i64::MAX)
                };
                assert_eq!(reused.is_ok(), got.is_ok());
                assert_eq!(again.0, wide.0);
            }
            // Another target on the same masks: the slots' masks match, their narrowed
            // assignments (kept for this target's sums) must not be taken for the other's.
            let mut other = Sum::linear(n, &cells, &coef, target + 1);
            other.group(n, |a, b| {
                a != b && house[usize::from(a)] == house[usize::from(b)]
            });
            if other.reach && other.groups.len() == sum.groups.len() {
                let (goal, _) = other.mirrored();
                let w = other.groups.len();
                let mut shared = Grid(masks.clone());
                let mut alone = Grid(masks.clone());
                let a =
                    other.reach::<u128, Grid>(goal, &mut shared, None, &mut memo[..w], i64::MAX);
                let fresh = &mut vec![Seen::default(); w];
                let b = other.reach::<u128, Grid>(goal, &mut alone, None, fresh, i64::MAX);
                assert_eq!(a.is_ok(), b.is_ok());
                assert_eq!(shared.0, alone.0, "{coef:?} {masks:?} {target}");
            }
            match got {
                Ok(_) => {
                    assert_eq!(wide.0, support, "{coef:?} {masks:?} {target}");
                    pruned += usize::from(wide.0 != masks);
                }
                Err(Contradiction) => {
                    assert!(
                        support.iter().all(|&s| s == 0),
                        "{coef:?} {masks:?} {target}"
                    );
                    dead += 1;
                }
            }
        }
        assert!(pruned > 100 && dead > 100, "{pruned} {dead}");
    }

    #[test]
    fn digit_sets_are_every_set_of_the_size_and_sum() {
        for n in 1..=12u32 {
            for k in 0..=n + 1 {
                for sum in 0..=n * (n + 1) / 2 + 2 {
                    let plain: Vec<u64> = (0u64..1 << n)
                        .filter(|m| m.count_ones() == k)
                        .filter(|m| {
                            (0..n)
                                .filter(|d| m >> d & 1 == 1)
                                .map(|d| d + 1)
                                .sum::<u32>()
                                == sum
                        })
                        .collect();
                    assert_eq!(digit_sets(n, k, sum), plain, "n {n}, k {k}, sum {sum}");
                }
            }
        }
        // The largest: 16 digits choose 8 summing to 68 (of 12,870 sets of eight).
        let plain = (0u64..1 << 16)
            .filter(|m| m.count_ones() == 8)
            .filter(|m| {
                (0..16)
                    .filter(|d| m >> d & 1 == 1)
                    .map(|d| d + 1)
                    .sum::<u64>()
                    == 68
            })
            .count();
        assert_eq!(digit_sets(16, 8, 68).len(), plain);
        assert!(digit_sets(9, 3, u32::MAX).is_empty());
    }

    /// Cages never lose a digit some assignment of different digits with the sum uses (random
    /// candidates, a third of the cells with one), and they prune beyond the union of the
    /// digit sets every cell meets (the counted runs; the next test shows the naked singles'
    /// part of that).
    #[test]
    fn cages_keep_every_supported_digit() {
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move |k: u64| rng.below(k as usize) as u64;
        let n = 7usize;
        let (mut beyond, mut dead) = (0, 0);
        for _ in 0..4000 {
            let len = 2 + next(4) as usize;
            let cells: Vec<usize> = (0..len).collect();
            let masks: Vec<u64> = (0..len)
                .map(|_| match next(3) {
                    0 => 1 << next(n as u64),
                    _ => 1 + next((1 << n) - 1),
                })
                .collect();
            let all = every_assignment(n, &masks, |_, _| true);
            let target = if next(3) > 0 && !all.is_empty() {
                all[next(all.len() as u64) as usize].iter().sum::<u64>() as i64
            } else {
                next(30) as i64
            };
            let support = support(&all, &vec![1; len], target);
            let mut sum = Sum::cage(n, &cells, target as u32);
            let mut grid = Grid(masks.clone());
            let got = sum.run(&mut grid, None, &mut []);
            if kept_support(got, &grid.0, &support, &(&masks, target)) {
                // What the union of the digit sets that fit (each cell meeting each set)
                // would have kept.
                let union: u64 = sum
                    .combos
                    .take()
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|&c| masks.iter().all(|&m| m & c != 0))
                    .fold(0, |u, c| u | c);
                beyond += usize::from(grid.0.iter().zip(&masks).any(|(&g, &m)| g != m & union));
            } else {
                dead += 1;
            }
        }
        assert!(beyond > 100 && dead > 100, "{beyond} {dead}");
    }

    /// A cell left with one digit of the only digit set takes it from the others: 1, 12, 123
    /// with the sum 6 is 1, 2, 3.
    #[test]
    fn a_cage_cell_with_one_digit_takes_it_from_the_others() {
        let sum = Sum::cage(6, &[0, 1, 2], 6);
        let mut grid = Grid(vec![0b1, 0b11, 0b111]);
        assert!(sum.run(&mut grid, None, &mut []).unwrap());
        assert_eq!(grid.0, vec![0b1, 0b10, 0b100]);
    }

    /// With [`SLACK`], a sum whose target lies that far inside both ends is left alone: the
    /// cells keep at least what the exact filter keeps, it fails only where the exact filter
    /// does, and with every cell left one digit it judges as the exact filter judges (9×9
    /// digits, three to eight cells, groups of cells that differ, coefficients of both signs).
    #[test]
    fn a_sum_with_room_keeps_at_least_what_the_exact_filter_keeps() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |k: u64| rng.below(k as usize) as u64;
        let n = 9usize;
        let (mut left, mut narrowed, mut judged) = (0, 0, 0);
        for round in 0..4000 {
            let len = 3 + next(6) as usize;
            let cells: Vec<usize> = (0..len).collect();
            let coef: Vec<i64> = (0..len).map(|_| [-1, 1, 1][next(3) as usize]).collect();
            let full = round % 4 == 0;
            let masks: Vec<u64> = (0..len)
                .map(|_| {
                    if full {
                        1 << next(9)
                    } else {
                        (1 + next(511)) | 1 << next(9)
                    }
                })
                .collect();
            // A target that some digits of the masks make, or near it (far from it too, for
            // the full assignments).
            let off = if full { 20 } else { 1 };
            let target: i64 = masks
                .iter()
                .zip(&coef)
                .map(|(&m, &k)| k * (63 - i64::from(m.leading_zeros()) + 1))
                .sum::<i64>()
                + next(2 * off + 1) as i64
                - off as i64;
            let mut sum = Sum::linear(n, &cells, &coef, target);
            sum.group(n, |a, b| a != b && a / 3 == b / 3);
            if !sum.reach {
                continue;
            }
            let (goal, _) = sum.mirrored();
            let w = sum.groups.len();
            let (mut exact, mut loose) = (Grid(masks.clone()), Grid(masks.clone()));
            let e = sum.reach::<u128, Grid>(
                goal,
                &mut exact,
                None,
                &mut vec![Seen::default(); w],
                i64::MAX,
            );
            let l = sum.reach::<u128, Grid>(
                goal,
                &mut loose,
                None,
                &mut vec![Seen::default(); w],
                SLACK,
            );
            if full {
                assert_eq!(e.is_ok(), l.is_ok(), "{coef:?} {masks:?} {target}");
                judged += 1;
            }
            if e.is_ok() {
                assert!(l.is_ok(), "{coef:?} {masks:?} {target}");
                for (x, l) in exact.0.iter().zip(&loose.0) {
                    assert_eq!(x & l, *x, "{coef:?} {masks:?} {target}");
                }
            }
            if loose.0 == masks && (e.is_err() || exact.0 != masks) {
                left += 1;
            }
            if loose.0 != masks {
                narrowed += 1;
            }
        }
        // The test means something: some sums were left alone where the filter narrows, and
        // others narrowed, and full assignments were judged.
        assert!(
            left > 50 && narrowed > 200 && judged > 500,
            "{left} {narrowed} {judged}"
        );
    }

    /// `assignments` against every assignment of digits, on pseudo-random masks and sums.
    #[test]
    fn assignments_match_brute_force() {
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next_u64();
        for round in 0..3000 {
            let len = 2 + round % 2;
            let n = if round % 3 == 0 { 16 } else { 9 };
            let full = (1u64 << n) - 1;
            let ms: Vec<u64> = (0..len)
                .map(|_| {
                    let m = next() & next() & full;
                    if m == 0 {
                        1 << (next() % n)
                    } else {
                        m
                    }
                })
                .collect();
            let allowed = if round % 4 == 0 { u64::MAX } else { next() };
            let (mut sums, mut support, mut required) = (0u64, [0u64; 3], u64::MAX);
            let digits = |m: u64| (0..n).filter(move |d| m >> d & 1 == 1);
            let mut visit = |ds: &[u64]| {
                let set = ds.iter().fold(0u64, |s, &d| s | 1 << d);
                let sum: u64 = ds.iter().map(|d| d + 1).sum();
                if set.count_ones() as usize == ds.len() && allowed >> sum & 1 == 1 {
                    sums |= 1 << sum;
                    for (s, &d) in support.iter_mut().zip(ds) {
                        *s |= 1 << d;
                    }
                    required &= set;
                }
            };
            for a in digits(ms[0]) {
                for b in digits(ms[1]) {
                    if len == 2 {
                        visit(&[a, b]);
                    } else {
                        for c in digits(ms[2]) {
                            visit(&[a, b, c]);
                        }
                    }
                }
            }
            let got = assignments(&ms, allowed);
            assert_eq!(got.sums, sums, "{ms:?}");
            assert_eq!(got.support, support, "{ms:?}");
            if sums != 0 {
                assert_eq!(got.required, required, "{ms:?}");
            }
        }
    }
}
