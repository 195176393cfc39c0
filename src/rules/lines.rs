//! Lines beyond pairs: renban (a run of consecutive digits) and between lines.

use super::{range_mask, required, Contradiction, Masks};

/// A renban line: its digits (different: the line is a group of different cells) form a run
/// of `len` consecutive digits: the runs are its digit sets, kept as a cage's but without the
/// singles (`required::keep_sets`): each cell keeps the digits of the runs that still fit, and a
/// digit every such run holds is on the line, so it is placed when one cell of the line is
/// left for it, and leaves every cell that sees all its places on the line.
#[derive(Debug)]
pub(super) struct Renban {
    cells: Vec<u16>,
    /// Every run of `cells.len()` consecutive digits.
    windows: Vec<u64>,
    /// The houses that hold two or more of its cells.
    links: Vec<required::Link>,
}

impl Renban {
    pub(super) fn new(
        n: usize,
        cells: &[usize],
        houses: &[Vec<u16>],
        houses_of: &[Vec<usize>],
    ) -> Renban {
        let k = cells.len() as i64;
        let cells: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
        let links = required::links(&cells, houses, houses_of);
        Renban {
            cells,
            windows: (1..=n as i64 - k + 1)
                .map(|lo| range_mask(lo, lo + k - 1))
                .collect(),
            links,
        }
    }

    /// The line's cells.
    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub(super) fn run<M: Masks>(
        &self,
        m: &mut M,
        peers: Option<&required::Exclusions>,
    ) -> Result<bool, Contradiction> {
        required::keep_sets(&self.cells, &self.links, peers, &self.windows, false, m)
    }
}

/// A between line: the cells inside lie strictly between the two ends (which differ).
#[derive(Debug)]
pub(super) struct Between {
    ends: [u16; 2],
    mids: Vec<u16>,
}

impl Between {
    pub(super) fn new(cells: &[usize]) -> Between {
        Between {
            ends: [cells[0] as u16, cells[cells.len() - 1] as u16],
            mids: cells[1..cells.len() - 1]
                .iter()
                .map(|&c| c as u16)
                .collect(),
        }
    }

    /// The line's cells.
    pub(super) fn cells(&self) -> Vec<u16> {
        self.ends.iter().chain(&self.mids).copied().collect()
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        let (e0, e1) = (usize::from(self.ends[0]), usize::from(self.ends[1]));
        // The low end lies below every middle digit, the high end above: below the least of
        // the middle cells' greatest candidates, above the greatest of their least ones.
        let (mut lo_max, mut hi_min) = (i64::MAX, 0i64);
        for &c in &self.mids {
            let mask = m.mask(usize::from(c));
            lo_max = lo_max.min(64 - i64::from(mask.leading_zeros()) - 1);
            hi_min = hi_min.max(i64::from(mask.trailing_zeros()) + 1 + 1);
        }
        let mut changed = false;
        for (me, other) in [(e0, e1), (e1, e0)] {
            let (mm, mo) = (m.mask(me), m.mask(other));
            let (o_min, o_max) = (
                i64::from(mo.trailing_zeros()) + 1,
                64 - i64::from(mo.leading_zeros()),
            );
            // `me` is the low end (at most lo_max, below some high end of the other) or the
            // high end (at least hi_min, above some low end of the other).
            let as_low = if o_max >= hi_min {
                range_mask(1, lo_max.min(o_max - 1))
            } else {
                0
            };
            let as_high = if o_min <= lo_max {
                range_mask(hi_min.max(o_min + 1), 64)
            } else {
                0
            };
            changed |= m.restrict(me, mm & (as_low | as_high))?;
        }
        let (m0, m1) = (m.mask(e0), m.mask(e1));
        let span = |a: u64, b: u64| {
            // Digits strictly above some digit of `a` and strictly below some digit of `b`.
            let low = i64::from(a.trailing_zeros()) + 1;
            let high = 64 - i64::from(b.leading_zeros());
            range_mask(low + 1, high - 1)
        };
        let inside = span(m0, m1) | span(m1, m0);
        for &c in &self.mids {
            changed |= m.restrict(usize::from(c), inside)?;
        }
        Ok(changed)
    }
}
