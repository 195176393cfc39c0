//! Rules into what the generic engine runs: houses, different pairs, each cell's first
//! digits and branching priority, and the propagators.

use super::{
    cells, chess_pairs, houses, leftovers, lines, outside, pairs, required, sums, Propagators,
    Rule, Rules,
};
use crate::shape::Shape;
use std::collections::BTreeSet;

/// The rules as the generic engine runs them (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Compiled {
    /// Groups of N cells holding every digit once, rows and columns first.
    pub houses: Vec<Vec<u16>>,
    /// Pairs of cells that must differ, beyond the houses.
    pub different: Vec<(u16, u16)>,
    /// Each cell's digits before any given (all but odd, even, pencil-mark cells: full).
    pub initial: Vec<u64>,
    /// Where there are propagators, each cell's branching priority: the sizes of the houses,
    /// pairs and rules that hold it (sums count more). The search's conflict scores start
    /// from these; empty (plain fewest-candidates) without propagators.
    pub priority: Vec<u32>,
    /// The propagators; `None` when there is none.
    pub propagators: Option<Propagators>,
}

/// Every two of `cells` as a different pair.
fn all_differ(different: &mut Vec<(u16, u16)>, cells: &[usize]) {
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            different.push((a as u16, b as u16));
        }
    }
}

/// A linear sum with the whole houses folded out of it (see `leftovers::fold_houses`).
fn linear(n: usize, houses: &[Vec<u16>], cells: &[usize], coef: &[i64], target: i64) -> sums::Sum {
    let (cells, coef, target) = leftovers::fold_houses(n, houses, cells, coef, target);
    sums::Sum::linear(n, &cells, &coef, target)
}

/// Turn `rules` on a board of `shape` into houses, different pairs, initial masks and
/// propagators for the generic engine.
pub(crate) fn compile(shape: Shape, rules: &Rules) -> Compiled {
    let n = shape.side();
    let full = crate::shape::all_digits(n);
    let mut out = Compiled {
        houses: rules
            .houses(shape)
            .into_iter()
            .map(|(_, cells)| cells.into_iter().map(|c| c as u16).collect())
            .collect(),
        different: Vec::new(),
        initial: vec![full; shape.cells()],
        priority: Vec::new(),
        propagators: None,
    };
    // The houses of each cell.
    let mut houses_of = vec![Vec::new(); shape.cells()];
    for (h, house) in out.houses.iter().enumerate() {
        for &c in house {
            houses_of[usize::from(c)].push(h);
        }
    }
    let mut props = Propagators::default();
    let mut pair_rules = pairs::Builder::new(n, rules.first_value());
    for rule in &rules.rules {
        // Smaller all-different groups become different pairs.
        for (_, cells) in rule.groups(shape) {
            if cells.len() < n {
                all_differ(&mut out.different, &cells);
            }
        }
        pair_rules.add(shape, rule, rules);
        match rule {
            // Strictly increasing: the cells all differ (pairs, not a group: equal givens on a
            // thermometer are unsolvable, not clashing givens).
            Rule::Thermo(cells) => all_differ(&mut out.different, cells),
            Rule::AntiKnight | Rule::AntiKing => {
                for (a, b) in chess_pairs(shape, *rule == Rule::AntiKnight) {
                    out.different.push((a as u16, b as u16));
                }
            }
            Rule::Cage {
                cells,
                sum: Some(s),
            } => {
                let s = u32::try_from(rules.digit_sum(cells.len(), *s)).unwrap_or(u32::MAX);
                props.sums.push(sums::Sum::cage(n, cells, s))
            }
            Rule::LittleKiller { cells, sum } => props.sums.push(linear(
                n,
                &out.houses,
                cells,
                &vec![1; cells.len()],
                rules.digit_sum(cells.len(), *sum),
            )),
            Rule::Arrow { circle, line } => {
                let mut cells = line.clone();
                let mut coef = vec![1i64; line.len()];
                for (i, &c) in circle.iter().enumerate() {
                    cells.push(c);
                    coef.push(-(10i64.pow((circle.len() - 1 - i) as u32)));
                }
                // Σ coef · value = 0, and each value is its digit less one on a zero-based
                // board.
                let target = if rules.zero_based() {
                    coef.iter().sum()
                } else {
                    0
                };
                props
                    .sums
                    .push(linear(n, &out.houses, &cells, &coef, target));
            }
            // A line without cells holds nothing (as ISS reads it).
            Rule::Renban(cells) if !cells.is_empty() => {
                props
                    .renbans
                    .push(lines::Renban::new(n, cells, &out.houses, &houses_of))
            }
            Rule::Between(cells) if cells.len() > 2 => {
                out.different
                    .push((cells[0] as u16, cells[cells.len() - 1] as u16));
                props.betweens.push(lines::Between::new(cells));
            }
            Rule::Sandwich { line, sum } => props
                .sandwiches
                .push(outside::Sandwich::new(shape, *line, *sum)),
            Rule::Quadruple { cells, digits } => props.quads.push(cells::Quad::new(*cells, digits)),
            Rule::Only { cell, digits } => out.initial[*cell] &= digits,
            _ => {}
        }
    }
    props.pairs = pair_rules.build();
    // The law of leftovers' sums are implied by the rules above: redundant.
    let derived = leftovers::in_houses(shape, rules, &out.houses)
        .into_iter()
        .chain(leftovers::innies_outies(shape, rules));
    props.sums.extend(derived.map(sums::Sum::redundant));
    // Which cells must differ: a house or a different pair holds both. As bits where the
    // board has at most `Exclusions::MAX_CELLS` cells (the law of leftovers asks it of
    // every two cells of each sum it makes: a fifth of a small killer's check was here).
    let exclusions = required::Exclusions::new(shape.cells(), &out.houses, &out.different);
    let pairs: BTreeSet<(u16, u16)> = if exclusions.is_some() {
        BTreeSet::new()
    } else {
        out.different
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect()
    };
    let differ = |a: u16, b: u16| match &exclusions {
        Some(ex) => ex.differ(usize::from(a), usize::from(b)),
        None => {
            a != b
                && (houses_of[usize::from(a)]
                    .iter()
                    .any(|h| houses_of[usize::from(b)].contains(h))
                    || pairs.contains(&(a.min(b), a.max(b))))
        }
    };
    let combined = leftovers::combined(n, rules, &differ);
    props
        .sums
        .extend(combined.into_iter().map(sums::Sum::redundant));
    // ISS's sum intersections over every house, gaps filled with other houses: those not
    // already made (the innies and outies name some of the same cells).
    let sorted = |cells: &[u16]| {
        let mut v = cells.to_vec();
        v.sort_unstable();
        v
    };
    let known: Vec<Vec<u16>> = props.sums.iter().map(|s| sorted(s.cells())).collect();
    let crossed = leftovers::intersections(shape, rules, &out.houses, &differ);
    props.sums.extend(
        crossed
            .into_iter()
            .filter(|s| !known.contains(&sorted(s.cells())))
            .map(sums::Sum::redundant),
    );
    for sum in &mut props.sums {
        sum.group(n, differ);
        sum.link_houses(&out.houses, &houses_of);
    }
    // Locked candidates between every two houses that share cells. With the rules' houses
    // (diagonals, windows, regions) they pay on their own: the hard 16×16 Sudoku X of ISS's
    // collection went from 372,000 nodes to 34,000 with them and the conflict scores.
    props.intersections = houses::Intersection::all(&out.houses);
    props.exclusions = exclusions;
    if !props.is_empty() {
        out.priority = vec![0; shape.cells()];
        // Priorities as the Interactive Sudoku Solver weighs its constraints: a house or rule
        // adds its number of cells to each of them, a sum max(2N - cells, N).
        for house in &out.houses {
            for &c in house {
                out.priority[usize::from(c)] += house.len() as u32;
            }
        }
        for &(a, b) in &out.different {
            out.priority[usize::from(a)] += 2;
            out.priority[usize::from(b)] += 2;
        }
        for rule in &rules.rules {
            let cells = rule.cells();
            let weight = match rule {
                Rule::Cage { sum: Some(_), .. }
                | Rule::LittleKiller { .. }
                | Rule::Arrow { .. } => (2 * n).saturating_sub(cells.len()).max(n),
                _ => cells.len(),
            } as u32;
            for c in cells {
                out.priority[c] += weight;
            }
        }
        props.index(shape.cells());
        out.propagators = Some(props);
    }
    out
}
