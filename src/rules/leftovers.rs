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

/// Fold whole houses out of a linear sum `Σ coef[i] · digit(cells[i]) = target`: a house of N
/// cells holds each digit once, so where more than half its cells carry one coefficient k,
/// k · (those cells) = k · (N(N+1)/2 − the house's other cells). The sum keeps the same
/// solutions and loses cells at every step (a long arrow that covers rows becomes a few cells;
/// one that fills houses leaves their constants). Cells whose coefficients cancel leave.
pub(super) fn fold_houses(
    n: usize,
    houses: &[Vec<u16>],
    cells: &[usize],
    coef: &[i64],
    target: i64,
) -> (Vec<usize>, Vec<i64>, i64) {
    let total = (n * (n + 1) / 2) as i64;
    let mut terms: std::collections::BTreeMap<usize, i64> = std::collections::BTreeMap::new();
    for (&c, &k) in cells.iter().zip(coef) {
        *terms.entry(c).or_insert(0) += k;
    }
    terms.retain(|_, k| *k != 0);
    let mut target = target;
    loop {
        let mut folded = false;
        for house in houses.iter().filter(|h| h.len() == n) {
            // The coefficient most of the house's cells carry in the sum.
            let mut counts: Vec<(i64, usize)> = Vec::new();
            for c in house {
                if let Some(&k) = terms.get(&usize::from(*c)) {
                    match counts.iter_mut().find(|(x, _)| *x == k) {
                        Some((_, m)) => *m += 1,
                        None => counts.push((k, 1)),
                    }
                }
            }
            let Some(&(k, m)) = counts.iter().max_by_key(|&&(_, m)| m) else {
                continue;
            };
            if 2 * m <= n {
                continue;
            }
            target -= k * total;
            for c in house.iter().map(|&c| usize::from(c)) {
                if terms.get(&c) == Some(&k) {
                    terms.remove(&c);
                } else {
                    let e = terms.entry(c).or_insert(0);
                    *e -= k;
                    if *e == 0 {
                        terms.remove(&c);
                    }
                }
            }
            folded = true;
        }
        if !folded {
            break;
        }
    }
    let (cells, coef) = terms.into_iter().unzip();
    (cells, coef, target)
}

#[cfg(test)]
mod tests {
    use super::fold_houses;

    /// Every 4×4 grid (2×2 boxes), by backtracking.
    fn grids4() -> Vec<[i64; 16]> {
        fn fill(g: &mut [i64; 16], at: usize, out: &mut Vec<[i64; 16]>) {
            if at == 16 {
                out.push(*g);
                return;
            }
            let (r, c) = (at / 4, at % 4);
            for d in 1..=4 {
                let clash = (0..at).any(|o| {
                    let (r2, c2) = (o / 4, o % 4);
                    g[o] == d && (r2 == r || c2 == c || (r2 / 2 == r / 2 && c2 / 2 == c / 2))
                });
                if !clash {
                    g[at] = d;
                    fill(g, at + 1, out);
                }
            }
        }
        let mut out = Vec::new();
        fill(&mut [0; 16], 0, &mut out);
        out
    }

    /// On every 4×4 grid, a folded sum holds exactly where the sum it came from holds, and
    /// folding leaves no house with more than half its cells on one coefficient.
    #[test]
    fn folded_sums_hold_on_the_same_grids() {
        let grids = grids4();
        assert_eq!(grids.len(), 288);
        let mut houses: Vec<Vec<u16>> = Vec::new();
        for i in 0..4u16 {
            houses.push((0..4).map(|j| i * 4 + j).collect());
            houses.push((0..4).map(|j| j * 4 + i).collect());
            let (r, c) = (i / 2 * 2, i % 2 * 2);
            houses.push(vec![r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5]);
        }
        let mut rng = crate::rng::SplitMix64::new(0xD1B5_4A32_D192_ED03);
        let (mut shorter, mut constant) = (0, 0);
        for _ in 0..500 {
            let len = 2 + rng.below(15);
            let mut cells: Vec<usize> = (0..16).collect();
            for i in 0..len {
                let j = i + rng.below(16 - i);
                cells.swap(i, j);
            }
            cells.truncate(len);
            let coef: Vec<i64> = (0..len)
                .map(|_| [1, 1, 1, 1, -1, 2, -10][rng.below(7)])
                .collect();
            let value = |g: &[i64; 16], cells: &[usize], coef: &[i64]| -> i64 {
                cells.iter().zip(coef).map(|(&c, &k)| k * g[c]).sum()
            };
            let target = value(&grids[rng.below(grids.len())], &cells, &coef);
            let (fc, fk, ft) = fold_houses(4, &houses, &cells, &coef, target);
            shorter += usize::from(fc.len() < cells.len());
            constant += usize::from(fc.is_empty());
            for g in &grids {
                assert_eq!(
                    value(g, &cells, &coef) == target,
                    value(g, &fc, &fk) == ft,
                    "{cells:?} {coef:?} = {target} folded to {fc:?} {fk:?} = {ft}"
                );
            }
            for h in &houses {
                for k in &fk {
                    let on = h
                        .iter()
                        .filter(|&&c| {
                            fc.iter()
                                .zip(&fk)
                                .any(|(&x, y)| x == usize::from(c) && y == k)
                        })
                        .count();
                    assert!(2 * on <= 4, "{fc:?} {fk:?} keeps {on} cells of {h:?}");
                }
            }
        }
        assert!(
            shorter > 100 && constant > 0,
            "{shorter} shorter, {constant} constant"
        );
    }
}
