//! The law of leftovers: a house holds each digit once, so its digits sum to N(N+1)/2, and so
//! do k houses' 45·k; the cages with sums and little killers that lie in or stick out of a set
//! of houses then fix a sum of the few cells left over, and a long sum that covers most of a
//! house folds it out. Little killers merged where their union bounds tighter. The sums derived
//! are redundant: they prune earlier, and never change the solutions.

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
                    let s = u32::try_from(rules.digit_sum(cells.len(), *s)).unwrap_or(u32::MAX);
                    sum = sum.saturating_add(s);
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

/// The sums the law of leftovers starts from, with their targets in digits 1 to N: the cages
/// with sums and the little killers (repeats allowed: the law needs only the sum).
fn known_sums(rules: &Rules) -> Vec<(&[usize], i64)> {
    rules
        .rules
        .iter()
        .filter_map(|r| match r {
            Rule::Cage {
                cells,
                sum: Some(s),
            }
            | Rule::LittleKiller { cells, sum: s } => {
                Some((cells.as_slice(), rules.digit_sum(cells.len(), *s)))
            }
            _ => None,
        })
        .collect()
}

/// Each of `cells` flagged among `cells_n`.
fn member(cells_n: usize, cells: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut m = vec![false; cells_n];
    cells.into_iter().for_each(|c| m[c] = true);
    m
}

/// A choice among the sums `among` (indices into `sums`, whose cells `member` flags) that
/// share no cell: those that overlap the fewest of the others in `among` first (ties in
/// index order), each taken if it overlaps none taken. The indices taken, in that order.
fn disjoint(sums: &[(&[usize], i64)], member: &[Vec<bool>], among: &[usize]) -> Vec<usize> {
    let meets = |j: usize, cells: &[usize]| cells.iter().any(|&c| member[j][c]);
    let mut order: Vec<(usize, usize)> = among
        .iter()
        .map(|&i| {
            let overlaps = among
                .iter()
                .filter(|&&j| j != i && meets(j, sums[i].0))
                .count();
            (overlaps, i)
        })
        .collect();
    order.sort_unstable();
    let mut taken: Vec<usize> = Vec::new();
    for (_, i) in order {
        if !taken.iter().any(|&t| meets(t, sums[i].0)) {
            taken.push(i);
        }
    }
    taken
}

/// The least sum the digits of `cells` can make, how far above it their greatest lies, and
/// the number of their groups of different digits (`sums::cliques`, by `differ`), on a board
/// of side `n`.
fn group_bounds(n: usize, cells: &[usize], differ: &impl Fn(u16, u16) -> bool) -> (i64, i64, i64) {
    let as16: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
    let groups = sums::cliques(&as16, &vec![1; as16.len()], differ);
    let (mut least, mut span) = (0i64, 0i64);
    for (_, g) in &groups {
        let k = g.len() as i64;
        least += k * (k + 1) / 2;
        span += (n as i64 - k) * k;
    }
    (least, span, groups.len() as i64)
}

/// Innies and outies over bands of whole rows or columns (1 to N-1 consecutive ones), each box
/// and the first 2 to N-1 boxes (the sum intersections of single houses are [`intersections`]'):
/// with the cages with sums and the little killers (a disjoint choice; "cages" below) that
/// have more than half their cells in the band, Σ(cells of those cages outside the band) −
/// Σ(cells of the band in none of them) = Σ(their sums) − k·N(N+1)/2. Kept where that names
/// at most N cells (6 where all are in cages), two or fewer on one side, as the Interactive
/// Sudoku Solver's optimizer does (repeats allowed: a linear sum, whose cells that share a
/// house differ).
pub(super) fn innies_outies(shape: Shape, rules: &Rules) -> Vec<sums::Sum> {
    let n = shape.side();
    let total = (n * (n + 1) / 2) as i64;
    // A disjoint choice of the cages with sums and the little killers.
    let all = known_sums(rules);
    if all.is_empty() {
        return Vec::new();
    }
    let flags: Vec<Vec<bool>> = all
        .iter()
        .map(|(c, _)| member(shape.cells(), c.iter().copied()))
        .collect();
    let every: Vec<usize> = (0..all.len()).collect();
    let mut owner = vec![usize::MAX; shape.cells()];
    let mut cages: Vec<(&[usize], i64)> = Vec::new();
    for i in disjoint(&all, &flags, &every) {
        all[i].0.iter().for_each(|&c| owner[c] = cages.len());
        cages.push(all[i]);
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
    // The sums made (cells, coefficients, target), each once.
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
        let key = (cells, coef, target);
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen.into_iter()
        .map(|(cells, coef, target)| sums::Sum::linear(n, &cells, &coef, target))
        .collect()
}

/// The most cells a sum intersection may name and be kept however loosely its target is
/// bounded: short ones narrow cheaply (on the 13 "MATHEMAGIC_KILLERS" of ISS's collection,
/// keeping those of up to 6 cells took 4% fewer guesses and 4% less time than keeping only
/// the tight ones; 4, 5, 7, 8 or 9 cells took the collection's 137 puzzles 3-13% more
/// guesses than 6).
const INTERSECTION_CELLS: usize = 6;

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

/// A sum of different or repeated digits with unit coefficients, as `combined` weighs it.
struct Record {
    cells: Vec<usize>,
    sum: i64,
    /// One of the puzzle's own sums (not added again).
    original: bool,
    score: i64,
}

/// Sum intersections over every house, as the Interactive Sudoku Solver's optimizer makes them
/// (`_addSumIntersectionHandler`; see [`crossings`]), kept where the exact filter of sums takes
/// them and they are short ([`INTERSECTION_CELLS`]) or the cells' groups of different digits
/// bound the target tightly: the span of their
/// sums more than four times the target's distance to the nearer end (ISS's measure; a target
/// out of reach is kept, to fail at the root). On "Hailstone - little killer", whose little
/// killers cross the diagonals, these are ISS's two sums of twelve cells (3,010 guesses
/// instead of 44,732). Redundant sums: they prune, never change the solutions.
pub(super) fn intersections(
    shape: Shape,
    rules: &Rules,
    houses: &[Vec<u16>],
    differ: &impl Fn(u16, u16) -> bool,
) -> Vec<sums::Sum> {
    let n = shape.side();
    crossings(shape, rules, houses)
        .into_iter()
        .filter(|(cells, target)| {
            // Only sums the exact filter takes (see `sums::Sum::linear`): the others are only
            // bounded, cost time at every node and seldom narrow (two little killer snipes,
            // sums of 30 and 33 cells: 1 ms more each, the same guesses).
            if cells.len() > sums::REACH_CELLS || n > 16 || cells.len() * n >= 128 {
                return false;
            }
            let (least, span, _) = group_bounds(n, cells, differ);
            let room = (target - least).min(least + span - target);
            span > 0 && (room < 0 || span > 4 * room || cells.len() <= INTERSECTION_CELLS)
        })
        .map(|(cells, target)| sums::Sum::linear(n, &cells, &vec![1; cells.len()], target))
        .collect()
}

/// The sums [`intersections`] chooses from, one per house at most, as cells and target: the
/// cages with sums and little killers that meet the house (those that overlap the fewest of
/// the others first, each kept if it overlaps none kept) and, where they leave some of its
/// cells, other houses that share no cell with them and hold two or more of those cover the
/// house; then the cells they hold outside it sum to their totals less the house's, and the
/// houses wholly among those cells are taken out with their totals.
fn crossings(shape: Shape, rules: &Rules, houses: &[Vec<u16>]) -> Vec<(Vec<usize>, i64)> {
    let (n, cells_n) = (shape.side(), shape.cells());
    let total = (n * (n + 1) / 2) as i64;
    let sums = known_sums(rules);
    if sums.is_empty() {
        return Vec::new();
    }
    let sum_cells: Vec<Vec<bool>> = sums
        .iter()
        .map(|(c, _)| member(cells_n, c.iter().copied()))
        .collect();
    let house_cells: Vec<Vec<bool>> = houses
        .iter()
        .map(|h| member(cells_n, h.iter().map(|&c| usize::from(c))))
        .collect();
    let meets = |a: &[bool], cells: &[usize]| cells.iter().any(|&c| a[c]);
    let mut out: Vec<(Vec<usize>, i64)> = Vec::new();
    for (b, base) in houses.iter().enumerate() {
        let base: Vec<usize> = base.iter().map(|&c| usize::from(c)).collect();
        // The sums that meet the house, those that overlap the fewest of the others first.
        let near: Vec<usize> = (0..sums.len())
            .filter(|&i| meets(&sum_cells[i], &base))
            .collect();
        if near.is_empty() {
            continue;
        }
        let mut taken = vec![false; cells_n];
        let mut target = 0i64;
        for i in disjoint(&sums, &sum_cells, &near) {
            let (cells, s) = sums[i];
            cells.iter().for_each(|&c| taken[c] = true);
            target += s;
        }
        // The gaps filled by other houses that share no cell with those taken (so they meet
        // this one only in cells left open) and hold two or more of the open cells.
        let mut open: Vec<usize> = base.iter().copied().filter(|&c| !taken[c]).collect();
        for (g, gap) in houses.iter().enumerate() {
            if open.is_empty() {
                break;
            }
            if g == b
                || gap.iter().any(|&c| taken[usize::from(c)])
                || open.iter().filter(|&&c| house_cells[g][c]).count() < 2
            {
                continue;
            }
            gap.iter().for_each(|&c| taken[usize::from(c)] = true);
            target += total;
            open.retain(|&c| !taken[c]);
        }
        if !open.is_empty() {
            continue;
        }
        base.iter().for_each(|&c| taken[c] = false);
        target -= total;
        // Houses wholly among the cells outside.
        for (h, house) in houses.iter().enumerate() {
            if h != b && house.iter().all(|&c| taken[usize::from(c)]) {
                house.iter().for_each(|&c| taken[usize::from(c)] = false);
                target -= total;
            }
        }
        let cells: Vec<usize> = (0..cells_n).filter(|&c| taken[c]).collect();
        if !cells.is_empty() && !out.iter().any(|(c, _)| *c == cells) {
            out.push((cells, target));
        }
    }
    out
}

/// Little killers added together where their union is tighter than either: sums that share
/// no cell and whose cells must often differ from each other's (six at least) make one sum
/// whose cells fall in larger groups of different digits, so its least and greatest sums come
/// nearer its target. A sum's score is Σ over its groups of size g of g·(N − g) − slack, the
/// slack being how far the target lies from the nearer of the least and greatest sums; merges
/// are made best first while the union scores above both parts or above their total, as the
/// Interactive Sudoku Solver's optimizer does. Redundant sums: they prune, never change the
/// solutions. (ISS merges cages too; on its collection that changed two puzzles' searches,
/// one for the worse, and the merged sums cost time at every node: cages are left out.)
pub(super) fn combined(
    n: usize,
    rules: &Rules,
    differ: &impl Fn(u16, u16) -> bool,
) -> Vec<sums::Sum> {
    const RELATED: usize = 6;
    let record = |mut cells: Vec<usize>, sum: i64, original: bool| -> Option<Record> {
        if cells.len() > 64 {
            return None;
        }
        cells.sort_unstable();
        let (least, range, groups) = group_bounds(n, &cells, differ);
        if sum < least || sum > least + range {
            return None;
        }
        let slack = (sum - least).min(least + range - sum);
        // Σ over the groups of g·(N − g) − slack.
        let score = range - groups * slack;
        Some(Record {
            cells,
            sum,
            original,
            score,
        })
    };
    // Every record made, and which are still active (not merged into another).
    let mut made: Vec<Record> = Vec::new();
    for rule in &rules.rules {
        let Rule::LittleKiller { cells, sum } = rule else {
            continue;
        };
        let sum = rules.digit_sum(cells.len(), *sum);
        if let Some(r) = record(cells.clone(), sum, true) {
            if !made.iter().any(|a| a.cells == r.cells) {
                made.push(r);
            }
        }
    }
    let mut active = vec![true; made.len()];
    // Two sums that share no cell, the smaller with six cells at least that must differ from
    // some cell of the larger.
    let related = |a: &Record, b: &Record| {
        let (small, big) = if a.cells.len() < b.cells.len() {
            (a, b)
        } else {
            (b, a)
        };
        small.cells.len() >= RELATED
            && !small
                .cells
                .iter()
                .any(|c| big.cells.binary_search(c).is_ok())
            && small
                .cells
                .iter()
                .filter(|&&c| big.cells.iter().any(|&o| differ(c as u16, o as u16)))
                .count()
                >= RELATED
    };
    // The merges worth making: (parts, union).
    let mut open: Vec<(usize, usize, Record)> = Vec::new();
    let consider = |open: &mut Vec<(usize, usize, Record)>, made: &[Record], i: usize, j: usize| {
        let (a, b) = (&made[i], &made[j]);
        if !related(a, b) {
            return;
        }
        let cells: Vec<usize> = a.cells.iter().chain(&b.cells).copied().collect();
        if let Some(r) = record(cells, a.sum + b.sum, false) {
            if r.score > a.score.max(b.score) || r.score > a.score + b.score {
                open.push((i, j, r));
            }
        }
    };
    for i in 0..made.len() {
        for j in i + 1..made.len() {
            consider(&mut open, &made, i, j);
        }
    }
    loop {
        // The best merge whose parts are both still active and whose union is new.
        open.retain(|(i, j, r)| {
            active[*i]
                && active[*j]
                && !made
                    .iter()
                    .zip(&active)
                    .any(|(m, &on)| on && m.cells == r.cells)
        });
        let best = (0..open.len()).max_by(|&x, &y| {
            let (a, b) = (&open[x].2, &open[y].2);
            (a.score, &a.cells).cmp(&(b.score, &b.cells))
        });
        let Some(best) = best else { break };
        let (i, j, r) = open.swap_remove(best);
        active[i] = false;
        active[j] = false;
        made.push(r);
        active.push(true);
        let new = made.len() - 1;
        let others: Vec<usize> = (0..new).filter(|&o| active[o]).collect();
        for o in others {
            consider(&mut open, &made, o, new);
        }
    }
    made.into_iter()
        .zip(active)
        .filter(|(r, on)| *on && !r.original && r.score > 0)
        .map(|(r, _)| sums::Sum::linear(n, &r.cells, &vec![1; r.cells.len()], r.sum))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{combined, crossings, fold_houses, innies_outies, intersections};
    use crate::rules::{Rule, Rules};
    use crate::shape::Shape;

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

    /// The innies and outies of random cage tilings hold on the grid the cages' sums were
    /// taken from.
    #[test]
    fn derived_sums_hold_on_their_grid() {
        let grids = grids4();
        let shape = Shape::new(2, 2).unwrap();
        let mut rng = crate::rng::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        let mut made = 0;
        for _ in 0..400 {
            let g = grids[rng.below(grids.len())];
            let mut cells: Vec<usize> = (0..16).collect();
            for i in 0..16 {
                let j = i + rng.below(16 - i);
                cells.swap(i, j);
            }
            // Cages of one to three cells of different digits, most cells in one.
            let mut rules = Rules::new();
            let mut cage: Vec<usize> = Vec::new();
            for c in cells {
                if cage.len() == 1 + rng.below(3) || cage.iter().any(|&o| g[o] == g[c]) {
                    let sum = cage.iter().map(|&o| g[o] as u32).sum();
                    rules.push(Rule::Cage {
                        cells: std::mem::take(&mut cage),
                        sum: Some(sum),
                    });
                }
                if rng.below(8) != 0 {
                    cage.push(c);
                }
            }
            let grid: Vec<u8> = g.iter().map(|&d| d as u8).collect();
            for sum in innies_outies(shape, &rules) {
                let (value, target) = sum.value_on(&grid);
                assert_eq!(value, target, "{rules:?} {sum:?}");
                made += 1;
            }
        }
        assert!(made > 1000, "{made}");
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

    /// Little killers on the parallel diagonals of 9×9 grids, their sums taken from the grid:
    /// the merged sums hold on it and each covers whole diagonals only.
    #[test]
    fn combined_little_killers_hold_on_their_grids() {
        use super::super::{Rule, Rules};
        use crate::puzzle::Puzzle;
        use crate::shape::Shape;
        use crate::solver::{solutions, Options};
        let shape = Shape::new(3, 3).unwrap();
        let some = Options {
            limit: Some(200),
            ..Options::default()
        };
        let grids = solutions(&Puzzle::empty(shape), &some);
        let differ = |a: u16, b: u16| {
            let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
            a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
        };
        // Down-right diagonals of six cells or more, from the top row and the left column.
        let starts = (0..4).map(|c| (0, c)).chain((1..4).map(|r| (r, 0)));
        let diagonals: Vec<Vec<usize>> = starts
            .map(|(r, c)| (0..9 - r.max(c)).map(|i| (r + i) * 9 + c + i).collect())
            .collect();
        let mut merged_any = 0;
        for grid in grids.iter().step_by(13) {
            let mut rules = Rules::new();
            for d in &diagonals {
                let sum = d.iter().map(|&c| u32::from(grid[c])).sum();
                rules.push(Rule::LittleKiller {
                    cells: d.clone(),
                    sum,
                });
            }
            for s in combined(9, &rules, &differ) {
                merged_any += 1;
                let (value, target) = s.value_on(grid);
                assert_eq!(value, target);
                let cells: Vec<usize> = s.cells().iter().map(|&c| usize::from(c)).collect();
                for d in &diagonals {
                    let inside = d.iter().filter(|c| cells.contains(c)).count();
                    assert!(inside == 0 || inside == d.len(), "{cells:?} cuts {d:?}");
                }
                assert!(
                    cells.len() > 9,
                    "{cells:?}: a merge joins two diagonals at least"
                );
            }
        }
        assert!(merged_any > 0);
    }

    /// Cells that share a house of `houses`, as the compiled rules' `differ` (no pairs here).
    fn differ_in(houses: &[Vec<u16>]) -> impl Fn(u16, u16) -> bool + '_ {
        move |a, b| a != b && houses.iter().any(|h| h.contains(&a) && h.contains(&b))
    }

    /// "Hailstone - little killer" (ISS's collection): cages, both diagonals and little
    /// killers that cross them.
    fn hailstone() -> crate::puzzle::Puzzle {
        let line = "..Cage~14~R5C3~R5C4~R6C4.Cage~19~R6C6~R6C5~R7C5.Cage~14~R4C4~R4C5~R3C5\
            .Cage~14~R4C6~R5C6~R5C7.Diagonal~1.Diagonal~-1.LittleKiller~47~R3C1\
            .LittleKiller~49~R2C1.LittleKiller~30~R8C9.LittleKiller~45~R7C9\
            .LittleKiller~43~R1C7.LittleKiller~44~R1C8.LittleKiller~34~R9C2\
            .LittleKiller~52~R9C3";
        let line: String = line.split_whitespace().collect();
        crate::parse::parse_one(&line, &crate::parse::ParseOptions::default()).unwrap()
    }

    /// The houses of `rules` on `shape` as the compiled rules keep them.
    fn houses_of(rules: &Rules, shape: Shape) -> Vec<Vec<u16>> {
        rules
            .houses(shape)
            .into_iter()
            .map(|(_, cells)| cells.into_iter().map(|c| c as u16).collect())
            .collect()
    }

    /// Hailstone's cages and little killers, each kept with probability 7/8 and its sum taken
    /// from a 9×9 grid with both diagonals, and as many cages of two to four cells in a row
    /// or column: every sum intersection holds on the grid, those kept and those the tightness
    /// measure leaves out, and many fill a gap with another house (more cells than one
    /// house's outside).
    #[test]
    fn sum_intersections_hold_on_their_grids() {
        use super::super::Diagonal;
        use crate::puzzle::Puzzle;
        use crate::solver::{solutions, Options};
        let shape = Shape::new(3, 3).unwrap();
        let mut x = Rules::new();
        x.push(Rule::Diagonal(Diagonal::Main));
        x.push(Rule::Diagonal(Diagonal::Anti));
        let some = Options {
            limit: Some(300),
            ..Options::default()
        };
        let grids = solutions(&Puzzle::empty(shape).with_checked_rules(x.clone()), &some);
        let houses = houses_of(&x, shape);
        assert_eq!(houses.len(), 29);
        let differ = differ_in(&houses);
        let hailstone = hailstone();
        let sums: Vec<&Rule> = hailstone
            .rules()
            .expect("rules")
            .rules
            .iter()
            .filter(|r| matches!(r, Rule::Cage { .. } | Rule::LittleKiller { .. }))
            .collect();
        assert_eq!(sums.len(), 12);
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let (mut made, mut long, mut kept) = (0, 0, 0);
        for grid in &grids {
            let sum_of = |cells: &[usize]| cells.iter().map(|&c| u32::from(grid[c])).sum();
            let mut rules = x.clone();
            for rule in &sums {
                if rng.below(8) == 0 {
                    continue;
                }
                rules.push(match rule {
                    Rule::Cage { cells, .. } => Rule::Cage {
                        cells: cells.clone(),
                        sum: Some(sum_of(cells)),
                    },
                    Rule::LittleKiller { cells, .. } => Rule::LittleKiller {
                        cells: cells.clone(),
                        sum: sum_of(cells),
                    },
                    _ => unreachable!("sums only"),
                });
            }
            for _ in 0..rng.below(6) {
                let at = rng.below(81);
                let step = if rng.below(2) == 0 { 1 } else { 9 };
                let cells: Vec<usize> = (0..2 + rng.below(3))
                    .map(|i| at + i * step)
                    .filter(|&c| c < 81 && (step == 9 || c / 9 == at / 9))
                    .collect();
                let mut digits: Vec<u8> = cells.iter().map(|&c| grid[c]).collect();
                digits.sort_unstable();
                digits.dedup();
                if cells.len() >= 2 && digits.len() == cells.len() {
                    let sum = Some(sum_of(&cells));
                    rules.push(Rule::Cage { cells, sum });
                }
            }
            for (cells, target) in crossings(shape, &rules, &houses) {
                let value: i64 = cells.iter().map(|&c| i64::from(grid[c])).sum();
                assert_eq!(value, target, "{rules:?} {cells:?}");
                made += 1;
                long += usize::from(cells.len() > 9);
            }
            for s in intersections(shape, &rules, &houses, &differ) {
                let (value, target) = s.value_on(grid);
                assert_eq!(value, target, "{rules:?} {s:?}");
                kept += 1;
            }
        }
        assert!(
            made > 300 && long > 300 && kept > 30,
            "{made} made, {long} long, {kept} kept"
        );
    }

    /// A box wholly covered by cages leaves two cells outside it, in no house together, whose
    /// sum is loosely bounded (their groups' span not above four times the target's room):
    /// kept all the same, being short.
    #[test]
    fn short_loose_intersections_are_kept() {
        use crate::puzzle::Puzzle;
        use crate::solver::{solutions, Options};
        let shape = Shape::new(3, 3).unwrap();
        let some = Options {
            limit: Some(50),
            ..Options::default()
        };
        let grids = solutions(&Puzzle::empty(shape), &some);
        let grid = grids
            .iter()
            .find(|g| (6..=14).contains(&(g[3] + g[27])))
            .expect("a grid whose two cells sum to 6-14");
        let sum_of = |cells: &[usize]| cells.iter().map(|&c| u32::from(grid[c])).sum();
        let mut rules = Rules::new();
        for cells in [vec![0, 1, 2, 3], vec![9, 10, 11], vec![18, 19, 20, 27]] {
            let sum = Some(sum_of(&cells));
            rules.push(Rule::Cage { cells, sum });
        }
        let houses = houses_of(&rules, shape);
        let differ = differ_in(&houses);
        assert!(!differ(3, 27));
        // Two groups of one cell: least 2, span 2·8 = 16; the room is at least 4.
        let target = i64::from(grid[3] + grid[27]);
        assert!(16 <= 4 * (target - 2).min(18 - target));
        let kept: Vec<(Vec<u16>, i64)> = intersections(shape, &rules, &houses, &differ)
            .iter()
            .map(|s| (s.cells().to_vec(), s.value_on(grid).1))
            .collect();
        assert!(kept.contains(&(vec![3, 27], target)), "{kept:?}");
    }

    /// "Hailstone - little killer" (ISS's collection): its little killers cross the two
    /// diagonals, and ISS's optimizer derives two sums of twelve cells from them (81 and 83),
    /// with boxes filling the diagonals' gaps; so does `intersections`.
    #[test]
    fn hailstone_gets_iss_sums_of_twelve_cells() {
        let puzzle = hailstone();
        let rules = puzzle.rules().expect("rules");
        let shape = puzzle.shape();
        let houses = houses_of(rules, shape);
        let mut got: Vec<(Vec<u16>, i64)> =
            intersections(shape, rules, &houses, &differ_in(&houses))
                .iter()
                .map(|s| {
                    let mut cells = s.cells().to_vec();
                    cells.sort_unstable();
                    let grid = vec![1u8; 81];
                    (cells, s.value_on(&grid).1)
                })
                .collect();
        got.sort();
        let want = vec![
            (vec![12, 21, 22, 28, 29, 38, 42, 51, 52, 58, 59, 68], 81),
            (vec![14, 22, 23, 33, 34, 38, 42, 46, 47, 57, 58, 66], 83),
        ];
        for w in &want {
            assert!(got.contains(w), "{w:?} not among {got:?}");
        }
    }
}
