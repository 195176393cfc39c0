//! The law of leftovers for killer cages: a house holds each digit once, so its digits sum to
//! N(N+1)/2, and so do k houses' 45·k; the cages with sums that lie in or stick out of a set of
//! houses then fix a sum of the few cells left over. The sums derived are redundant: they
//! prune earlier, and never change the solutions.

use super::{sums, Rule, Rules};
use crate::shape::Shape;

/// The law of leftovers: a house's digits sum to N(N+1)/2, so where cages with sums lie wholly
/// inside a house (disjoint, taken in order) and leave some of its cells, those cells sum to
/// the rest, with different digits. Redundant sums that prune earlier.
pub(super) fn in_houses(shape: Shape, rules: &Rules, houses: &[Vec<u16>]) -> Vec<sums::Sum> {
    let n = shape.side();
    let total = (n * (n + 1) / 2) as u32;
    let mut out = Vec::new();
    let mut covered = vec![false; shape.cells()];
    for house in houses {
        covered.iter_mut().for_each(|c| *c = false);
        let mut sum = 0u32;
        for rule in &rules.rules {
            if let Rule::Cage {
                cells,
                sum: Some(s),
            } = rule
            {
                let inside = cells
                    .iter()
                    .all(|&c| house.contains(&(c as u16)) && !covered[c]);
                if inside {
                    cells.iter().for_each(|&c| covered[c] = true);
                    sum += s;
                }
            }
        }
        let rest: Vec<usize> = house
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| !covered[c])
            .collect();
        if sum > 0 && !rest.is_empty() && rest.len() < n && sum < total {
            out.push(sums::Sum::cage(n, &rest, total - sum));
        }
    }
    out
}

/// Innies and outies over bands of whole rows or columns (1 to N-1 consecutive ones), each box
/// and the first 2 to N-1 boxes: with the cages (with sums, disjoint) that have more than half
/// their cells in the band, Σ(cells of those cages outside the band) − Σ(cells of the band in
/// none of them) = Σ(their sums) − k·N(N+1)/2. Kept where that names at most N cells (6 where
/// all are in cages), two or fewer on one side, as the Interactive Sudoku Solver's optimizer
/// does (repeats allowed: a linear sum, whose cells that share a house differ).
pub(super) fn innies_outies(shape: Shape, rules: &Rules) -> Vec<sums::Sum> {
    let n = shape.side();
    let total = (n * (n + 1) / 2) as i64;
    let cages: Vec<(&[usize], i64)> = rules
        .rules
        .iter()
        .filter_map(|r| match r {
            Rule::Cage {
                cells,
                sum: Some(s),
            } => Some((cells.as_slice(), i64::from(*s))),
            _ => None,
        })
        .collect();
    let mut owner = vec![usize::MAX; shape.cells()];
    for (i, (cells, _)) in cages.iter().enumerate() {
        for &c in *cells {
            if owner[c] != usize::MAX {
                return Vec::new(); // overlapping cages: the sums do not add up
            }
            owner[c] = i;
        }
    }
    // The unions: bands of 1 to N-1 consecutive rows or columns, and each box.
    let mut unions: Vec<(Vec<bool>, i64)> = Vec::new();
    for by_rows in [true, false] {
        for first in 0..n {
            for last in first..n - 1 {
                let inside = (0..shape.cells())
                    .map(|c| (first..=last).contains(&if by_rows { c / n } else { c % n }))
                    .collect();
                unions.push((inside, (last - first + 1) as i64));
            }
        }
    }
    if rules.regions.is_none() && !rules.no_boxes {
        // Each box, and the first 2 to N-1 boxes in reading order.
        for b in 0..n {
            unions.push((
                (0..shape.cells()).map(|c| shape.box_of(c) == b).collect(),
                1,
            ));
        }
        for b in 1..n - 1 {
            unions.push((
                (0..shape.cells()).map(|c| shape.box_of(c) <= b).collect(),
                (b + 1) as i64,
            ));
        }
    }
    let mut out = Vec::new();
    let mut seen: Vec<(Vec<usize>, Vec<i64>, i64)> = Vec::new();
    for (inside, k) in &unions {
        let inside = |c: usize| inside[c];
        // The cages with more than half their cells inside.
        let mut met = vec![0usize; cages.len()];
        (0..shape.cells())
            .filter(|&c| inside(c) && owner[c] != usize::MAX)
            .for_each(|c| met[owner[c]] += 1);
        let met: Vec<bool> = met
            .iter()
            .zip(&cages)
            .map(|(&k, (cs, _))| 2 * k > cs.len())
            .collect();
        let mut cells = Vec::new();
        let mut coef = Vec::new();
        let mut target = -k * total;
        for (i, (cs, s)) in cages.iter().enumerate() {
            if met[i] {
                target += s;
                for &c in cs.iter().filter(|&&c| !inside(c)) {
                    cells.push(c);
                    coef.push(1);
                }
            }
        }
        let outies = cells.len();
        for c in
            (0..shape.cells()).filter(|&c| inside(c) && (owner[c] == usize::MAX || !met[owner[c]]))
        {
            cells.push(c);
            coef.push(-1);
        }
        let innies = cells.len() - outies;
        // Cells all in cages already have sums: a new one pays only when short.
        let limit = if cells.iter().all(|&c| owner[c] != usize::MAX) {
            6
        } else {
            n
        };
        if !met.contains(&true)
            || cells.is_empty()
            || cells.len() > limit
            || (innies > 2 && outies > 2)
        {
            continue;
        }
        let key = (cells.clone(), coef.clone(), target);
        if !seen.contains(&key) {
            out.push(sums::Sum::linear(n, &cells, &coef, target));
            seen.push(key);
        }
    }
    out
}
