//! Cutting a search into parts to count anywhere.
//!
//! [`split`] cuts the search tree of a puzzle into disjoint sub-puzzles ("parts") whose
//! solution sets partition the puzzle's: every solution of the puzzle is a solution of exactly
//! one part. It expands, in search order, the open node with the most estimated work (tree
//! size, by a few of Knuth's probes, see [`estimate`](crate::estimate)) until there are enough
//! parts; [`split_depth`] instead cuts at a fixed number of branch decisions.

use crate::engine::select::with_engine;
use crate::engine::{Engine, EngineChoice, Expansion};
use crate::estimate::{probe, Moments};
use crate::puzzle::{Conflict, Puzzle};
use crate::rng::SplitMix64;
use crate::solver::Cancel;
use rayon::prelude::*;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One part of a split puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The sub-puzzle: the original givens, the branch decisions and what propagation
    /// determined from them. A solved grid when the part is a single solution.
    pub puzzle: Puzzle,
    /// Its estimated share of the whole search (tree size, from random probes): a rough
    /// guide to which parts are big, between 0.0 and 1.0 each; the parts' shares need not add
    /// up to 1.
    pub work: f64,
}

/// What a long split reports to and listens to.
#[derive(Debug, Clone, Copy, Default)]
pub struct Follow<'a> {
    /// Counts the nodes expanded.
    pub progress: Option<&'a AtomicU64>,
    /// Cancelled (Ctrl-C), the split stops at once with the parts it has: still disjoint and
    /// together the whole puzzle, but fewer than asked (or above the depth asked).
    pub cancel: Option<&'a Cancel>,
}

impl Follow<'_> {
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(Cancel::is_cancelled)
    }
}

/// The most parts a cut makes (about: a last expansion may add a few). Each is a search state
/// in memory until the cut is done, and a line of the parts file: a million are some hundreds
/// of megabytes, and more than a job queue takes.
pub const MAX_PARTS: usize = 1_000_000;

/// Probes made for each node's work estimate while splitting.
const SPLIT_PROBES: u64 = 24;

/// Cut `puzzle`'s search tree into at least `parts` disjoint sub-puzzles where the tree allows
/// (the last expansion may add a few more; a small tree may give fewer), in search order, of
/// roughly equal estimated work: the open node with the largest estimated tree size (by a few
/// seeded Knuth probes) is expanded until there are enough. Dead branches give no part; a
/// solved leaf is a part (a full grid). `progress` counts expansions. An invalid puzzle is an
/// error; a puzzle that propagation proves unsolvable gives no parts.
pub fn split(
    puzzle: &Puzzle,
    parts: usize,
    engine: EngineChoice,
    follow: Follow<'_>,
) -> Result<Vec<Part>, Conflict> {
    cut(puzzle, Cut::Parts(parts), engine, follow)
}

/// Cut `puzzle`'s search tree after `depth` branch decisions (or at solved leaves above that):
/// every surviving node at that depth is a part, in search order. At most [`MAX_PARTS`]: where
/// a node's children would take a level past it, that node and those not yet expanded stay
/// whole and the cut goes no deeper (the parts still make up the whole puzzle).
pub fn split_depth(
    puzzle: &Puzzle,
    depth: usize,
    engine: EngineChoice,
    follow: Follow<'_>,
) -> Result<Vec<Part>, Conflict> {
    cut(puzzle, Cut::Depth(depth), engine, follow)
}

/// How [`cut`] cuts.
#[derive(Debug, Clone, Copy)]
enum Cut {
    /// Into about this many parts of similar estimated work.
    Parts(usize),
    /// After this many branch decisions.
    Depth(usize),
}

/// [`split`] and [`split_depth`]: an invalid puzzle is an error; a puzzle that propagation
/// proves unsolvable gives no parts.
fn cut(
    puzzle: &Puzzle,
    how: Cut,
    engine: EngineChoice,
    follow: Follow<'_>,
) -> Result<Vec<Part>, Conflict> {
    if let Some(c) = puzzle.conflict() {
        return Err(c);
    }
    let parts = with_engine!(puzzle, engine, |root| match how {
        Cut::Parts(k) => split_engine(&root, puzzle, k, follow),
        Cut::Depth(d) => depth_engine(&root, puzzle, d, follow),
    });
    Ok(parts.unwrap_or_default())
}

fn part_of<E: Engine>(state: &E, puzzle: &Puzzle, work: f64) -> Part {
    Part {
        // The engine's values are in 0..=N by construction; the part keeps the rules.
        puzzle: puzzle.with_values(state.values()),
        work,
    }
}

/// Estimated tree size below `state` (`None`: solved, a leaf).
fn work_of<E: Engine>(state: &E, salt: u64) -> Option<f64> {
    let mut kids = Vec::new();
    if state.expand(&mut kids) == Expansion::Solved {
        return None;
    }
    let mut rng = SplitMix64::new(salt);
    let mut m = Moments::default();
    for _ in 0..SPLIT_PROBES {
        m.add(probe(state, &mut rng, &mut kids).nodes);
    }
    Some(m.mean)
}

fn split_engine<E: Engine>(
    root: &E,
    puzzle: &Puzzle,
    parts: usize,
    follow: Follow<'_>,
) -> Vec<Part> {
    // The open nodes in a heap by estimated work, ties to the first in search order (the
    // smallest path of child indices): each expansion costs a logarithm, not a pass over
    // every part (a million parts took minutes that way).
    struct Open<E> {
        work: f64,
        path: Vec<u32>,
        state: E,
    }
    impl<E> PartialEq for Open<E> {
        fn eq(&self, other: &Self) -> bool {
            self.cmp(other).is_eq()
        }
    }
    impl<E> Eq for Open<E> {}
    impl<E> PartialOrd for Open<E> {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl<E> Ord for Open<E> {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.work
                .total_cmp(&other.work)
                .then_with(|| other.path.cmp(&self.path))
        }
    }
    // Solved leaves: their paths and states.
    let mut leaves: Vec<(Vec<u32>, E)> = Vec::new();
    let mut open = BinaryHeap::new();
    let total = match work_of(root, 0) {
        Some(work) => {
            open.push(Open {
                work,
                path: Vec::new(),
                state: root.clone(),
            });
            work
        }
        None => {
            leaves.push((Vec::new(), root.clone()));
            1.0
        }
    };
    let mut kids = Vec::new();
    let mut expanded = 0u64;
    while open.len() + leaves.len() < parts && !follow.cancelled() {
        let Some(node) = open.pop() else {
            break;
        };
        kids.clear();
        if node.state.expand(&mut kids) == Expansion::Solved {
            leaves.push((node.path, node.state));
            continue;
        }
        expanded += 1;
        let salted: Vec<(E, u64)> = kids
            .drain(..)
            .enumerate()
            .map(|(k, s)| (s, (expanded << 8) ^ k as u64))
            .collect();
        let children: Vec<(Option<f64>, E)> = salted
            .into_par_iter()
            .map(|(state, salt)| (work_of(&state, salt), state))
            .collect();
        for (k, (work, state)) in children.into_iter().enumerate() {
            let mut path = node.path.clone();
            path.push(k as u32);
            match work {
                Some(work) => open.push(Open { work, path, state }),
                None => leaves.push((path, state)),
            }
        }
        if let Some(p) = follow.progress {
            p.fetch_add(1, Relaxed);
        }
    }
    let mut all: Vec<(Vec<u32>, E, f64)> = open
        .into_iter()
        .map(|n| (n.path, n.state, n.work))
        .chain(leaves.into_iter().map(|(path, state)| (path, state, 1.0)))
        .collect();
    all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    all.iter()
        .map(|(_, state, work)| part_of(state, puzzle, work / total))
        .collect()
}

fn depth_engine<E: Engine>(
    root: &E,
    puzzle: &Puzzle,
    depth: usize,
    follow: Follow<'_>,
) -> Vec<Part> {
    let mut level = vec![(root.clone(), 1.0f64)];
    let mut done = Vec::new();
    let mut kids = Vec::new();
    for _ in 0..depth {
        // Every node a leaf: going deeper changes nothing (and `--depth` may be huge).
        let mut branched = false;
        let mut next = Vec::new();
        let (total, mut taken, mut capped) = (level.len(), 0, false);
        let mut nodes = level.into_iter();
        for (state, w) in nodes.by_ref() {
            taken += 1;
            kids.clear();
            match state.expand(&mut kids) {
                Expansion::Solved => next.push((state, w)),
                // Its children would take the level past the bound: it stays whole.
                Expansion::Branched { .. }
                    if next.len() + kids.len() + (total - taken) > MAX_PARTS =>
                {
                    next.push((state, w));
                    capped = true;
                    break;
                }
                Expansion::Branched { choices } => {
                    branched = true;
                    let cw = w / choices as f64;
                    next.extend(kids.drain(..).map(|k| (k, cw)));
                }
            }
            if let Some(p) = follow.progress {
                p.fetch_add(1, Relaxed);
            }
            if follow.cancelled() {
                break;
            }
        }
        // Cancelled, or too many: the nodes not expanded stay whole, after the others (search
        // order).
        let stop = capped || follow.cancelled() || !branched;
        next.extend(nodes);
        level = next;
        if stop {
            break;
        }
    }
    done.extend(level.iter().map(|(s, w)| part_of(s, puzzle, *w)));
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn split_parts_partition_the_count() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        for parts in [1, 2, 7, 50, 1000] {
            let ps = split(&p, parts, EngineChoice::Auto, Follow::default()).unwrap();
            assert!(ps.len() >= parts.min(288));
            let total: u128 = ps
                .iter()
                .map(|part| crate::count(&part.puzzle, &Default::default()).solutions)
                .sum();
            assert_eq!(total, 288, "{parts} parts");
        }
        let ps = split_depth(&p, 2, EngineChoice::Auto, Follow::default()).unwrap();
        let total: u128 = ps
            .iter()
            .map(|part| crate::count(&part.puzzle, &Default::default()).solutions)
            .sum();
        assert_eq!(total, 288);
    }

    /// A cancelled split stops with the parts it has, which still partition the puzzle; and
    /// the heap gives the parts a pass over every open node gives, in the same order.
    #[test]
    fn a_cancelled_split_partitions_and_the_heap_splits_as_a_scan_does() {
        let p = Puzzle::empty(Shape::new(2, 3).unwrap());
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = Follow {
            progress: None,
            cancel: Some(&cancel),
        };
        for ps in [
            split(&p, 50, EngineChoice::Auto, stopped).unwrap(),
            split_depth(&p, 4, EngineChoice::Auto, stopped).unwrap(),
        ] {
            assert!(ps.len() < 50);
            let total: u128 = ps
                .iter()
                .map(|part| crate::count(&part.puzzle, &Default::default()).solutions)
                .sum();
            assert_eq!(total, 28_200_960);
        }
        // The same parts as the plain way: a pass over every open node for the one with the
        // most work, the first of equal ones, its children put in its place.
        for (shape, parts) in [((2, 3), 40), ((3, 3), 200), ((2, 2), 30)] {
            let p = Puzzle::empty(Shape::new(shape.0, shape.1).unwrap());
            let fast = split(&p, parts, EngineChoice::Generic, Follow::default()).unwrap();
            let root = crate::engine::generic::Generic::new(&p).unwrap();
            let total = work_of(&root, 0).unwrap_or(1.0);
            let mut frontier = vec![(work_of(&root, 0), root)];
            let (mut kids, mut expanded) = (Vec::new(), 0u64);
            while frontier.len() < parts {
                let Some(i) = (0..frontier.len())
                    .filter(|&i| frontier[i].0.is_some())
                    .max_by(|&a, &b| {
                        let (wa, wb) = (frontier[a].0.unwrap(), frontier[b].0.unwrap());
                        wa.total_cmp(&wb).then(b.cmp(&a))
                    })
                else {
                    break;
                };
                kids.clear();
                if frontier[i].1.expand(&mut kids) == Expansion::Solved {
                    frontier[i].0 = None;
                    continue;
                }
                expanded += 1;
                let children: Vec<_> = kids
                    .drain(..)
                    .enumerate()
                    .map(|(k, s)| (work_of(&s, (expanded << 8) ^ k as u64), s))
                    .collect();
                frontier.splice(i..=i, children);
            }
            let plain: Vec<Part> = frontier
                .iter()
                .map(|(w, s)| part_of(s, &p, w.unwrap_or(1.0) / total))
                .collect();
            assert_eq!(fast, plain, "{shape:?}");
        }
    }
}
