//! How many ways a band's rows can be filled once each column's digits are known.
//!
//! A band is `rows` rows of the board (the height of a box). Once every column of the band has
//! been given its set of `rows` digits, and the columns of each stack split the digits between
//! them (so that each box holds each digit once), what is left is to put each column's digits
//! in some order down the band so that every row holds each digit once. Seen as a bipartite
//! graph (columns on one side, digits on the other, an edge for each digit of a column; every
//! vertex has degree `rows`), an arrangement gives every edge a row, the edges of one row
//! forming a perfect matching: a proper edge colouring with `rows` colours.
//!
//! The count runs row by row: enumerate the perfect matchings that the first row can take
//! (at most `rows!^(n/rows)` by Bregman's bound: 216 for a 9×9 band), remove them, go on; the
//! last two rows leave a 2-regular graph, a union of even cycles, each of which alternates
//! between the two rows in exactly two ways. Givens fix the row of some edges: a matching must
//! take the edges fixed to its row and no edge fixed to a later row, and a cycle with fixed
//! edges has one consistent way or none.

/// The arrangements of one band: `sets[c]` holds the digits of column `c` (bit `d`), `rows` of
/// each, every digit in exactly `rows` columns; `fixed[r * n + c]` is the digit (a single bit)
/// given at row `r` of column `c`, 0 where none is, and every fixed digit belongs to its
/// column's set. Returns 0 when no arrangement keeps the fixed digits.
pub(crate) fn arrangements(rows: usize, sets: &[u64], fixed: &[u64]) -> u128 {
    let n = sets.len();
    if rows == 3 {
        if let Some(three) = ThreeRows::new(n, fixed) {
            return three.count(sets);
        }
    }
    debug_assert_eq!(fixed.len(), rows * n);
    debug_assert!(n <= 64 && rows >= 1);
    let mut rem = [0u64; 64];
    rem[..n].copy_from_slice(sets);
    let mut later = [0u64; 64];
    for r in 1..rows {
        for (l, &f) in later[..n].iter_mut().zip(&fixed[r * n..(r + 1) * n]) {
            *l |= f;
        }
    }
    from_row(rows, 0, &mut rem[..n], &later[..n], fixed)
}

/// [`arrangements`] for bands of three rows and at most 16 columns (9×9, 12×12, 15×15 with
/// boxes three rows high), the hot case, with the same method made lean, and the band's givens
/// read once (a plan keeps one per band): the row with the most givens is the one whose
/// matchings are enumerated (givens prune them). Nine wide, the stacks' choices for that row
/// are joined ([`ThreeRows::count_nine`]); wider, the first two stacks' column with the fewest
/// digits left goes first, as long as every column of the last stack keeps one (this took a
/// third of the instructions off counting sparse 9×9 puzzles, and the join another tenth). The
/// other two rows are counted by walking the cycles, where the next column along a cycle is
/// found in constant time; and a band without givens counts one third of the matchings and
/// multiplies (its rows can be permuted).
#[derive(Debug, Clone)]
pub(crate) struct ThreeRows {
    n: usize,
    /// The givens of the two rows other than the one whose matchings are enumerated.
    fb: [u16; 16],
    fc: [u16; 16],
    /// The digits column `c` may give the enumerated row, of those it holds (`keep[c]`): its
    /// given there, else all but the digits given in the other two rows (`fb`, `fc`).
    keep: [u16; 16],
    /// Some given at all.
    any_fixed: bool,
    /// The columns with a given in one of the two other rows (bits).
    given_cols: u32,
}

impl ThreeRows {
    /// The givens `fixed` (as in [`arrangements`]) of a band three rows high and `n` wide;
    /// `None` where the lean method does not apply (more than 16 columns, or not three stacks).
    pub(crate) fn new(n: usize, fixed: &[u64]) -> Option<ThreeRows> {
        if n > 16 || n % 3 != 0 {
            return None;
        }
        let count = |r: usize| {
            fixed[r * n..(r + 1) * n]
                .iter()
                .filter(|&&f| f != 0)
                .count()
        };
        let a = (0..3)
            .max_by_key(|&r| (count(r), std::cmp::Reverse(r)))
            .unwrap_or(0);
        let (b, c) = match a {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        let mut g = ThreeRows {
            n,
            fb: [0; 16],
            fc: [0; 16],
            keep: [0; 16],
            any_fixed: false,
            given_cols: 0,
        };
        for col in 0..n {
            let fa = fixed[a * n + col] as u16;
            g.fb[col] = fixed[b * n + col] as u16;
            g.fc[col] = fixed[c * n + col] as u16;
            let excl = g.fb[col] | g.fc[col];
            g.keep[col] = if fa != 0 { fa } else { !excl };
            g.any_fixed |= (fa | excl) != 0;
            if excl != 0 {
                g.given_cols |= 1 << col;
            }
        }
        Some(g)
    }

    /// The digits column `col` holding `set` may give the enumerated row: its given there (a
    /// given belongs to its column's set), else its digits not given in the other two rows.
    #[inline]
    fn first_row(&self, col: usize, set: u16) -> u16 {
        set & self.keep[col]
    }

    /// The arrangements of the band with column sets `sets`.
    pub(crate) fn count(&self, sets: &[u64]) -> u128 {
        debug_assert_eq!(sets.len(), self.n);
        // The stacks' width as a constant: the walk's loops over a stack's columns unroll.
        match self.n / 3 {
            0 => 1,
            1 => self.count_with::<1>(sets),
            2 => self.count_with::<2>(sets),
            3 => self.count_nine(sets),
            4 => self.count_with::<4>(sets),
            _ => self.count_with::<5>(sets),
        }
    }

    /// [`ThreeRows::count`] for stacks of `C` columns.
    fn count_with<const C: usize>(&self, sets: &[u64]) -> u128 {
        let mut w = Walk::<C> {
            g: self,
            set: [0; 16],
            allow: [0; 16],
            col_sum: [0; 16],
            matched: [0; 16],
            picked: [0; 16],
            halve: false,
        };
        for (col, &set) in sets.iter().enumerate().take(3 * C) {
            let set = set as u16;
            w.set[col] = set;
            w.allow[col] = self.first_row(col, set);
            let mut m = set;
            while m != 0 {
                w.col_sum[m.trailing_zeros() as usize] += col as u8;
                m &= m - 1;
            }
        }
        // The columns of the first two stacks are chosen; the last stack's follow.
        let open = (1u32 << (2 * C)) - 1;
        if self.any_fixed {
            return u128::from(w.rows(open, 0));
        }
        // No givens: the three rows can be permuted. Column 0's first-row digit is each of its
        // three digits equally often, and swapping the other two rows flips the cycle through
        // column 0: count one third of the matchings, that cycle once, and multiply by six.
        w.allow[0] &= w.set[0] & w.set[0].wrapping_neg();
        w.halve = true;
        6 * u128::from(w.rows(open, 0))
    }

    /// [`ThreeRows::count`] for bands nine wide (stacks of three columns), by joining the
    /// stacks' first-row choices rather than searching column by column: a stack's choices
    /// are the digit sets taking one allowed digit from each of its columns (at most 27);
    /// for each choice of the stack with the fewest, each choice of the next that avoids it
    /// (narrowed to those giving the digits the third cannot take, and leaving each column of
    /// the third one) is enumerated, and the digits left must be a choice of the third stack
    /// (each of its columns allows one of them; tested with four masks, which cost a fifth of
    /// the instructions less than a table of its choices made per count). Each matching found
    /// counts the other two rows' ways.
    fn count_nine(&self, sets: &[u64]) -> u128 {
        const ALL: u16 = 0x1FF;
        let mut set = [0u16; 9];
        let mut allow = [0u16; 9];
        for (col, &x) in sets.iter().enumerate().take(9) {
            let x = x as u16 & ALL;
            set[col] = x;
            allow[col] = self.first_row(col, x);
        }
        // Nibble `d` of `column[s]`: the column of stack `s` holding digit `d` (each stack
        // holds each digit once).
        let column: [u64; 3] = std::array::from_fn(|s| {
            (3 * s..3 * s + 3)
                .map(|c| SPREAD[usize::from(set[c])] * c as u64)
                .sum()
        });
        let halve = !self.any_fixed;
        if halve {
            // No givens: as in `count_with`, a third of the matchings, once each way round
            // the cycle through column 0, times six.
            allow[0] &= set[0] & set[0].wrapping_neg();
        }
        let size = |s: usize| {
            allow[3 * s].count_ones()
                * allow[3 * s + 1].count_ones()
                * allow[3 * s + 2].count_ones()
        };
        let (sizes, mut order) = ([size(0), size(1), size(2)], [0usize, 1, 2]);
        order.sort_unstable_by_key(|&s| sizes[s]);
        let [outer, middle, last] = order;
        if sizes[outer] == 0 {
            return 0;
        }
        // The digits the other two leave are a choice of the third stack when its columns
        // allow them all and each column one of them (they are three, the columns disjoint).
        let l = [allow[3 * last], allow[3 * last + 1], allow[3 * last + 2]];
        let outside = ALL & !(l[0] | l[1] | l[2]);
        let nine = Nine {
            g: self,
            set,
            column,
            halve,
        };
        let mut total = 0u64;
        // Matchings found, walked four at a time (see `Nine::two_rows`).
        let mut found = [[0u16; 3]; WALKS];
        let mut pending = 0;
        let m = [
            allow[3 * middle],
            allow[3 * middle + 1],
            allow[3 * middle + 2],
        ];
        let sm = [set[3 * middle], set[3 * middle + 1], set[3 * middle + 2]];
        for_each_choice(&allow[3 * outer..3 * outer + 3], 0, |to| {
            // Fewer choices of the middle stack to try: it must give the digits the other two
            // cannot (`must`; a middle column holding one gives it), and not a digit a column of
            // the last stack is left alone with. (Its loops' exits and the test below were half
            // the count's mispredicted branches.)
            let must = outside & !to;
            let mut keep = ALL;
            for lk in l {
                let lk = lk & !to;
                if lk & lk.wrapping_sub(1) == 0 {
                    keep &= !lk;
                }
            }
            let mut a = m;
            for (a, &sm) in a.iter_mut().zip(&sm) {
                let f = must & sm;
                *a &= if f != 0 { f } else { keep };
            }
            for_each_choice(&a, to, |tm| {
                let rest = ALL & !(to | tm);
                // One test, not four (each a branch of its own); the matching is written
                // whether it passes or not, and kept by counting it (no branch on the test:
                // 3% off the count).
                let ok = (rest & outside == 0)
                    & (rest & l[0] != 0)
                    & (rest & l[1] != 0)
                    & (rest & l[2] != 0);
                let t = &mut found[pending];
                (t[outer], t[middle], t[last]) = (to, tm, rest);
                pending += usize::from(ok);
                if pending == WALKS {
                    total += nine.two_rows(found);
                    pending = 0;
                }
            });
        });
        let [a, b, c, _] = found;
        total += match pending {
            1 => nine.two_rows([a]),
            2 => nine.two_rows([a, b]),
            3 => nine.two_rows([a, b, c]),
            _ => 0,
        };
        if halve {
            6 * u128::from(total)
        } else {
            u128::from(total)
        }
    }
}

/// Each 9-bit mask with its bit `d` moved to bit `4d` (the low bit of nibble `d`).
const SPREAD: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        let mut d = 0;
        while d < 9 {
            if m >> d & 1 != 0 {
                table[m] |= 1 << (4 * d);
            }
            d += 1;
        }
        m += 1;
    }
    table
};

/// Call `f` with every digit set that takes one digit of each of the three masks `allow`,
/// none in `avoid`.
#[inline]
fn for_each_choice(allow: &[u16], avoid: u16, mut f: impl FnMut(u16)) {
    let (mut a, b, c) = (allow[0] & !avoid, allow[1] & !avoid, allow[2] & !avoid);
    if b == 0 || c == 0 {
        return;
    }
    while a != 0 {
        let x = a & a.wrapping_neg();
        a &= a - 1;
        let mut b = b;
        while b != 0 {
            let y = b & b.wrapping_neg();
            b &= b - 1;
            let mut c = c;
            while c != 0 {
                let z = c & c.wrapping_neg();
                c &= c - 1;
                f(x | y | z);
            }
        }
    }
}

/// A count of [`ThreeRows::count_nine`]: the band's givens, the columns' digits and, for each
/// stack, the column holding each digit.
struct Nine<'a> {
    g: &'a ThreeRows,
    set: [u16; 9],
    /// Nibble `d` of `column[s]`: the column of stack `s` holding digit `d`.
    column: [u64; 3],
    /// Count the cycle through column 0 once.
    halve: bool,
}

/// First-row matchings whose other two rows [`Nine::two_rows`] walks at once.
const WALKS: usize = 4;

impl Nine<'_> {
    /// The ways of the two rows below the first once each stack `s` gave the first row the
    /// digits `t[s]`, summed over the `K` first rows `ts`: the digits left in the columns form
    /// cycles (column, digit, column, ...: each digit left stands in the two stacks where it is
    /// not in the first row), each of which alternates between the two rows in two ways, or
    /// one or none under givens: walked `K` at once by [`cycles`].
    #[inline]
    fn two_rows<const K: usize>(&self, ts: [[u16; 3]; K]) -> u64 {
        const STACK: [usize; 16] = [0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0];
        let mut left = [[0u16; 16]; K];
        // Nibble `d` of `other[k]`: the exclusive or of the two columns where digit `d` is
        // left (its columns in the two stacks whose first-row digits do not hold it).
        let mut other = [0u64; K];
        for (k, t) in ts.iter().enumerate() {
            for (col, l) in left[k].iter_mut().enumerate().take(9) {
                *l = self.set[col] & !t[STACK[col]];
            }
            let left_in = |s: usize| self.column[s] & !(SPREAD[usize::from(t[s])] * 15);
            other[k] = left_in(0) ^ left_in(1) ^ left_in(2);
        }
        let next = |k: usize, col: usize, bottom: u16| {
            ((other[k] >> ((4 * bottom.trailing_zeros()) & 63)) as usize & 15) ^ col
        };
        cycles(9, &left, self.g, self.halve, next)
    }
}

/// The ways of a band's two rows below the first once the first is taken, summed over `K`
/// first rows: `left[k][c]` holds the two digits column `c` (of `n`, at most 15) has left
/// under first row `k`, and `next(k, c, d)` is the other column where digit `d` (one bit) of
/// column `c` is left. The columns form cycles (column, digit, column, ...), each of which
/// alternates between the two rows in two ways, or one or none under the givens of `g`;
/// `halve` counts the cycle through column 0 once (only without givens).
///
/// The walk only numbers the cycles and notes each column's digit in the second row under
/// way 0; the givens (in a few columns of a sparse band) are checked afterwards, column by
/// column, so that the walk's step does not test them (about 40% off the walk's instructions).
/// A walk is a chain of dependent steps (each finds the next column from the last), and where
/// a cycle closes is a branch no predictor guesses. So the `K` walks go in step, each step the
/// same for all (`n` of them, one for each column: a closed cycle moves on to the first column
/// not seen yet by selection, not by a branch), and each walk's latency hides the others': a
/// sparse 9×9 count's arrangements took a fifth less time with four walks at once than one by
/// one.
#[inline]
fn cycles<const K: usize>(
    n: usize,
    left: &[[u16; 16]; K],
    g: &ThreeRows,
    halve: bool,
    next: impl Fn(usize, usize, u16) -> usize,
) -> u64 {
    debug_assert!(n < 16);
    // Way 0 of each cycle puts `top` in the second row (`bottom` in the third); column `c` is
    // on cycle `cycle[c]` and has `top[c]`. Each walk starts at column 0 with its lowest digit
    // on top.
    let mut seen = [0u32; K];
    let mut top = [[0u16; 16]; K];
    let mut cycle = [[0u8; 16]; K];
    let mut count = [0u32; K];
    let mut start = [0usize; K];
    let mut col = [0usize; K];
    let mut t: [u16; K] = std::array::from_fn(|k| left[k][0] & left[k][0].wrapping_neg());
    for _ in 0..n {
        for k in 0..K {
            let c = col[k];
            seen[k] |= 1 << c;
            top[k][c] = t[k];
            cycle[k][c] = count[k] as u8;
            let bottom = left[k][c] & !t[k];
            let to = next(k, c, bottom) & 15;
            let closed = to == start[k];
            count[k] += u32::from(closed);
            // Where the cycle closed, the next starts at the first column not seen (once every
            // column is, column `n`, which holds no digit: the walk is over).
            let fresh = (!seen[k]).trailing_zeros() as usize & 15;
            let first = left[k][fresh] & left[k][fresh].wrapping_neg();
            start[k] = if closed { fresh } else { start[k] };
            t[k] = if closed { first } else { bottom };
            col[k] = if closed { fresh } else { to };
        }
    }
    let mut total = 0;
    for k in 0..K {
        total += ways_under_givens(g, &left[k], &top[k], &cycle[k], count[k], halve);
    }
    total
}

/// The ways of `count` cycles whose columns hold `left` (two digits each), way 0 of each
/// putting `top[c]` in the second row of column `c` on cycle `cycle[c]`: two for each cycle
/// the givens of `g` in the second and third rows do not decide, one for each they do, none
/// if they rule out both; `halve` counts the cycle through column 0 once.
#[inline]
fn ways_under_givens(
    g: &ThreeRows,
    left: &[u16; 16],
    top: &[u16; 16],
    cycle: &[u8; 16],
    count: u32,
    halve: bool,
) -> u64 {
    // The cycles where a given in the second or third row rules out way 0, or way 1.
    let (mut bad0, mut bad1) = (0u32, 0u32);
    let mut given = g.given_cols;
    while given != 0 {
        let col = given.trailing_zeros() as usize & 15;
        given &= given - 1;
        let (t, b, c) = (top[col], g.fb[col], g.fc[col]);
        let bottom = left[col] & !t;
        let bit = 1u32 << cycle[col];
        if (b & !t) | (c & !bottom) != 0 {
            bad0 |= bit;
        }
        if (b & !bottom) | (c & !t) != 0 {
            bad1 |= bit;
        }
    }
    if bad0 & bad1 != 0 {
        return 0;
    }
    // Two ways for each cycle no given decides; `halve` (no givens) counts column 0's once.
    let free = count - (bad0 | bad1).count_ones() - u32::from(halve);
    1u64 << free
}

/// One count of [`ThreeRows`] with stacks of `C` columns: the band's givens, the columns'
/// digits (`u16` masks) and the digits each may give the first row (its given there, else its
/// digits not given in another row), and for each digit the sum of its columns' indices and
/// the column where the matching took it.
struct Walk<'a, const C: usize> {
    g: &'a ThreeRows,
    set: [u16; 16],
    allow: [u16; 16],
    col_sum: [u8; 16],
    matched: [u8; 16],
    /// The digit the first row took in each column.
    picked: [u16; 16],
    /// Count the cycle through column 0 once (see [`ThreeRows::count`]).
    halve: bool,
}

impl<const C: usize> Walk<'_, C> {
    /// Σ over the first row's matchings of the other two rows' arrangements: the columns of the
    /// first two stacks still to choose are `open` (bits), the one with the fewest digits left
    /// first, with digits `used` taken; the last stack must then take exactly the digits left,
    /// one in each column.
    fn rows(&mut self, open: u32, used: u16) -> u64 {
        if open == 0 {
            return self.last_stack(used);
        }
        // Every column of the last stack must keep a digit it may give the first row.
        let mut dead = false;
        for j in 0..C {
            dead |= self.allow[2 * C + j] & !used == 0;
        }
        if dead {
            return 0;
        }
        // The open column with the fewest digits left (none left: no matching).
        let (mut c, mut fewest) = (0, u32::MAX);
        let mut m = open;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let left = (self.allow[k] & !used).count_ones();
            if left < fewest {
                (c, fewest) = (k, left);
            }
        }
        let mut choices = self.allow[c] & !used;
        let open = open & !(1 << c);
        let mut total = 0;
        while choices != 0 {
            let bit = choices & choices.wrapping_neg();
            choices &= choices - 1;
            self.matched[bit.trailing_zeros() as usize] = c as u8;
            self.picked[c] = bit;
            total += self.rows(open, used | bit);
        }
        total
    }

    /// The last stack takes the digits not `used`: one in each of its columns, none fixed in
    /// another row, the fixed one where there is one; then the other two rows.
    #[inline]
    fn last_stack(&mut self, used: u16) -> u64 {
        let left = !used;
        let mut bad = false;
        for c in 2 * C..3 * C {
            let m = self.set[c] & left;
            bad |= m.count_ones() != 1 || m & !self.allow[c] != 0;
        }
        if bad {
            return 0;
        }
        for c in 2 * C..3 * C {
            let m = self.set[c] & left;
            self.matched[m.trailing_zeros() as usize] = c as u8;
            self.picked[c] = m;
        }
        self.two_rows(self.halve)
    }

    /// The arrangements of the two other rows once the first row's matching is taken: each
    /// cycle of the remaining columns has two ways, or one or none under givens; `halve`
    /// counts the cycle through column 0 once.
    #[inline]
    fn two_rows(&self, halve: bool) -> u64 {
        let mut left = [0u16; 16];
        for ((l, &set), &picked) in left.iter_mut().zip(&self.set).zip(&self.picked) {
            *l = set & !picked;
        }
        // Each digit's three columns sum to `col_sum`: the other column where it is left is
        // that sum less the first row's column and this one.
        let next = |_: usize, col: usize, bottom: u16| {
            let d = bottom.trailing_zeros() as usize & 15;
            usize::from(self.col_sum[d] - self.matched[d] - col as u8)
        };
        cycles(3 * C, &[left], self.g, halve, next)
    }
}

/// The arrangements of rows `r..rows` given the digits `rem` still to place in each column;
/// `later[c]`: the digits fixed in column `c` at rows after `r` (kept up to date).
fn from_row(rows: usize, r: usize, rem: &mut [u64], later: &[u64], fixed: &[u64]) -> u128 {
    let n = rem.len();
    match rows - r {
        0 => 1,
        1 => {
            // One digit left in each column, each digit in one column: a single way, if the
            // fixed digits agree.
            let row = &fixed[r * n..(r + 1) * n];
            u128::from(rem.iter().zip(row).all(|(&x, &f)| f == 0 || f == x))
        }
        2 => two_rows(
            rem,
            &fixed[r * n..(r + 1) * n],
            &fixed[(r + 1) * n..(r + 2) * n],
        ),
        _ => {
            // Below this row, `later` loses the next row's fixed digits.
            let next = &fixed[(r + 1) * n..(r + 2) * n];
            let mut below = [0u64; 64];
            for ((b, &l), &f) in below.iter_mut().zip(later).zip(next) {
                *b = l & !f;
            }
            let mut total = 0;
            matchings(0, 0, rem, later, &fixed[r * n..(r + 1) * n], &mut |rem| {
                total += from_row(rows, r + 1, rem, &below[..n], fixed);
            });
            total
        }
    }
}

/// Enumerate the perfect matchings of one row: column `c` onwards takes one digit of `rem[c]`
/// not in `used`, the fixed one where `fixed_row[c]` has one, never one fixed at a later row.
/// `f` sees `rem` with the matching taken out.
fn matchings(
    c: usize,
    used: u64,
    rem: &mut [u64],
    later: &[u64],
    fixed_row: &[u64],
    f: &mut impl FnMut(&mut [u64]),
) {
    if c == rem.len() {
        f(rem);
        return;
    }
    let mut choices = if fixed_row[c] != 0 {
        fixed_row[c] & rem[c] & !used
    } else {
        rem[c] & !used & !later[c]
    };
    while choices != 0 {
        let bit = choices & choices.wrapping_neg();
        choices &= choices - 1;
        rem[c] &= !bit;
        matchings(c + 1, used | bit, rem, later, fixed_row, f);
        rem[c] |= bit;
    }
}

/// The arrangements of the last two rows (`a` above `b`): every column has two digits left and
/// every digit two columns, so the constraints form even cycles (column, digit, column, ...);
/// choosing which digit of one column goes to row `a` settles its whole cycle.
fn two_rows(rem: &[u64], fixed_a: &[u64], fixed_b: &[u64]) -> u128 {
    let n = rem.len();
    // The two columns of each digit.
    let mut cols = [[u8::MAX; 2]; 64];
    for (c, &m) in rem.iter().enumerate() {
        let mut m = m;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let slot = if cols[d][0] == u8::MAX { 0 } else { 1 };
            cols[d][slot] = c as u8;
        }
    }
    let mut seen = 0u64;
    let mut ways = 1u128;
    for start in 0..n {
        if seen >> start & 1 != 0 {
            continue;
        }
        // Way 0 puts the lower digit of `start` in row `a`; way 1 the other one.
        let (mut ok0, mut ok1) = (true, true);
        let mut c = start;
        let mut top = rem[start] & rem[start].wrapping_neg();
        loop {
            seen |= 1 << c;
            let bottom = rem[c] & !top;
            if fixed_a[c] != 0 {
                ok0 &= fixed_a[c] == top;
                ok1 &= fixed_a[c] == bottom;
            }
            if fixed_b[c] != 0 {
                ok0 &= fixed_b[c] == bottom;
                ok1 &= fixed_b[c] == top;
            }
            // `bottom` is in row b here, so in row a in its other column.
            let d = bottom.trailing_zeros() as usize;
            let next = if cols[d][0] as usize == c {
                cols[d][1]
            } else {
                cols[d][0]
            } as usize;
            if next == start {
                break;
            }
            c = next;
            top = bottom;
        }
        ways *= u128::from(ok0) + u128::from(ok1);
        if ways == 0 {
            return 0;
        }
    }
    ways
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way to fill the band cell by cell from each column's set, no digit twice in a
    /// row or a column, the fixed cells kept: the definition, searched plainly.
    fn brute(rows: usize, sets: &[u64], fixed: &[u64]) -> u128 {
        fn go(i: usize, rows: usize, sets: &[u64], fixed: &[u64], grid: &mut [u64]) -> u128 {
            let n = sets.len();
            if i == rows * n {
                return 1;
            }
            let (r, c) = (i % rows, i / rows);
            let in_row = (0..c).fold(0, |m, k| m | grid[r * n + k]);
            let in_col = (0..r).fold(0, |m, k| m | grid[k * n + c]);
            let mut total = 0;
            for d in 0..64 {
                let bit = 1u64 << d;
                let allowed = fixed[r * n + c] == 0 || fixed[r * n + c] == bit;
                if sets[c] & bit != 0 && (in_row | in_col) & bit == 0 && allowed {
                    grid[r * n + c] = bit;
                    total += go(i + 1, rows, sets, fixed, grid);
                    grid[r * n + c] = 0;
                }
            }
            total
        }
        go(0, rows, sets, fixed, &mut vec![0; rows * sets.len()])
    }

    /// A random band of a `rows`×`cols`-box board (filled cell by cell with random digits,
    /// backtracking): its column sets and `givens` fixed cells of that filling.
    fn random_band(
        rows: usize,
        cols: usize,
        seed: &mut u64,
        givens: usize,
    ) -> (Vec<u64>, Vec<u64>) {
        let n = rows * cols;
        let mut next = |m: usize| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % m as u64) as usize
        };
        fn fill(i: usize, rows: usize, cols: usize, grid: &mut [u64], order: &[Vec<u64>]) -> bool {
            let n = rows * cols;
            if i == rows * n {
                return true;
            }
            let (r, c) = (i / n, i % n);
            let used = (0..n)
                .filter(|&k| k != c)
                .fold(0, |m, k| m | grid[r * n + k])
                | (0..rows)
                    .filter(|&k| k != r)
                    .fold(0, |m, k| m | grid[k * n + c])
                | (0..rows)
                    .flat_map(|k| (c / cols * cols..(c / cols + 1) * cols).map(move |j| (k, j)))
                    .filter(|&(k, j)| (k, j) != (r, c))
                    .fold(0, |m, (k, j)| m | grid[k * n + j]);
            for &bit in &order[i] {
                if used & bit == 0 {
                    grid[i] = bit;
                    if fill(i + 1, rows, cols, grid, order) {
                        return true;
                    }
                }
            }
            grid[i] = 0;
            false
        }
        let order: Vec<Vec<u64>> = (0..rows * n)
            .map(|_| {
                let mut ds: Vec<u64> = (0..n).map(|d| 1u64 << d).collect();
                for i in (1..n).rev() {
                    ds.swap(i, next(i + 1));
                }
                ds
            })
            .collect();
        let mut grid = vec![0u64; rows * n];
        assert!(fill(0, rows, cols, &mut grid, &order));
        let sets: Vec<u64> = (0..n)
            .map(|c| (0..rows).fold(0, |m, r| m | grid[r * n + c]))
            .collect();
        let mut fixed = vec![0u64; rows * n];
        for _ in 0..givens {
            let (r, c) = (next(rows), next(n));
            fixed[r * n + c] = grid[r * n + c];
        }
        (sets, fixed)
    }

    #[test]
    fn agrees_with_the_definition() {
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        for (rows, cols) in [
            (1, 3),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 4),
            (4, 2),
            (2, 5),
            (3, 4),
        ] {
            for givens in [0, 1, 2, 4, 8] {
                for _ in 0..6 {
                    let (sets, fixed) = random_band(rows, cols, &mut seed, givens);
                    let want = brute(rows, &sets, &fixed);
                    assert_eq!(
                        arrangements(rows, &sets, &fixed),
                        want,
                        "{rows}x{cols} {sets:?} {fixed:?}"
                    );
                    let n = sets.len();
                    let mut rem = sets.clone();
                    let mut later = vec![0u64; n];
                    for r in 1..rows {
                        for c in 0..n {
                            later[c] |= fixed[r * n + c];
                        }
                    }
                    assert_eq!(
                        from_row(rows, 0, &mut rem, &later, &fixed),
                        want,
                        "general method"
                    );
                }
            }
        }
    }

    /// The join of nine-wide bands ([`ThreeRows::count_nine`]) against the column-by-column
    /// walk and the general method, on many random bands with and without givens (given
    /// cells of the band's own filling, so that most have arrangements, and some contradicting
    /// ones, which must leave none).
    #[test]
    fn nine_wide_join_agrees_with_the_walk() {
        let mut seed = 0x5DEE_CE66_D1CE_4E5B;
        let mut rng = crate::rng::SplitMix64::new(7);
        let mut nonzero = 0;
        for round in 0..3000 {
            let givens = round % 12;
            let (sets, mut fixed) = random_band(3, 3, &mut seed, givens);
            if round % 5 == 4 {
                // A given of the column's digits that may clash with the other givens.
                let (r, c) = (rng.below(3), rng.below(9));
                let mut digits = sets[c];
                for _ in 0..rng.below(3) {
                    digits &= digits - 1;
                }
                fixed[r * 9 + c] = digits & digits.wrapping_neg();
            }
            let three = ThreeRows::new(9, &fixed).expect("nine wide");
            let join = three.count(&sets);
            assert_eq!(join, three.count_with::<3>(&sets), "{sets:?} {fixed:?}");
            let mut rem = sets.clone();
            let mut later = vec![0u64; 9];
            for r in 1..3 {
                for c in 0..9 {
                    later[c] |= fixed[r * 9 + c];
                }
            }
            assert_eq!(
                join,
                from_row(3, 0, &mut rem, &later, &fixed),
                "{sets:?} {fixed:?}"
            );
            nonzero += usize::from(join > 0);
        }
        assert!(nonzero > 1000, "too few bands with arrangements: {nonzero}");
    }

    #[test]
    fn a_contradicting_given_leaves_nothing() {
        // 2×2 boxes: columns {1,2},{3,4},{1,2},{3,4} (bits 0..4); row 0 of column 0 and
        // column 2 both fixed to digit 1: impossible.
        let sets = [0b0011, 0b1100, 0b0011, 0b1100];
        let mut fixed = [0u64; 8];
        assert_eq!(arrangements(2, &sets, &fixed), 4);
        fixed[0] = 0b0001;
        assert_eq!(arrangements(2, &sets, &fixed), 2);
        fixed[2] = 0b0001;
        assert_eq!(arrangements(2, &sets, &fixed), 0);
    }
}
