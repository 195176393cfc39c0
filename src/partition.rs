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
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One part of a split puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The sub-puzzle: the original givens, the branch decisions and what propagation
    /// determined from them. A solved grid when the part is a single solution.
    pub puzzle: Puzzle,
    /// Its estimated share of the whole search (tree size), 0.0..=1.0.
    pub work: f64,
}

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
    progress: Option<&AtomicU64>,
) -> Result<Vec<Part>, Conflict> {
    cut(puzzle, Cut::Parts(parts), engine, progress)
}

/// Cut `puzzle`'s search tree after `depth` branch decisions (or at solved leaves above that):
/// every surviving node at that depth is a part, in search order.
pub fn split_depth(
    puzzle: &Puzzle,
    depth: usize,
    engine: EngineChoice,
    progress: Option<&AtomicU64>,
) -> Result<Vec<Part>, Conflict> {
    cut(puzzle, Cut::Depth(depth), engine, progress)
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
    progress: Option<&AtomicU64>,
) -> Result<Vec<Part>, Conflict> {
    if let Some(c) = puzzle.conflict() {
        return Err(c);
    }
    let parts = with_engine!(puzzle, engine, |root| match how {
        Cut::Parts(k) => split_engine(&root, puzzle, k, progress),
        Cut::Depth(d) => depth_engine(&root, puzzle, d, progress),
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
    progress: Option<&AtomicU64>,
) -> Vec<Part> {
    struct Node<E> {
        state: E,
        /// Estimated tree size; `None` for a solved leaf.
        work: Option<f64>,
    }
    let mut frontier = vec![Node {
        work: work_of(root, 0),
        state: root.clone(),
    }];
    let total = frontier[0].work.unwrap_or(1.0);
    let mut kids = Vec::new();
    let mut expanded = 0u64;
    while frontier.len() < parts {
        let Some(i) = (0..frontier.len())
            .filter(|&i| frontier[i].work.is_some())
            .max_by(|&a, &b| {
                let (wa, wb) = (frontier[a].work, frontier[b].work);
                wa.unwrap_or(0.0)
                    .total_cmp(&wb.unwrap_or(0.0))
                    .then(b.cmp(&a))
            })
        else {
            break;
        };
        kids.clear();
        if frontier[i].state.expand(&mut kids) == Expansion::Solved {
            frontier[i].work = None;
            continue;
        }
        expanded += 1;
        let salted: Vec<(E, u64)> = kids
            .drain(..)
            .enumerate()
            .map(|(k, s)| (s, (expanded << 8) ^ k as u64))
            .collect();
        let children: Vec<Node<E>> = salted
            .into_par_iter()
            .map(|(state, salt)| Node {
                work: work_of(&state, salt),
                state,
            })
            .collect();
        frontier.splice(i..=i, children);
        if let Some(p) = progress {
            p.fetch_add(1, Relaxed);
        }
    }
    frontier
        .iter()
        .map(|n| part_of(&n.state, puzzle, n.work.unwrap_or(1.0) / total))
        .collect()
}

fn depth_engine<E: Engine>(
    root: &E,
    puzzle: &Puzzle,
    depth: usize,
    progress: Option<&AtomicU64>,
) -> Vec<Part> {
    let mut level = vec![(root.clone(), 1.0f64)];
    let mut done = Vec::new();
    let mut kids = Vec::new();
    for _ in 0..depth {
        let mut next = Vec::new();
        for (state, w) in level {
            kids.clear();
            match state.expand(&mut kids) {
                Expansion::Solved => next.push((state, w)),
                Expansion::Branched { choices } => {
                    let cw = w / choices as f64;
                    next.extend(kids.drain(..).map(|k| (k, cw)));
                }
            }
            if let Some(p) = progress {
                p.fetch_add(1, Relaxed);
            }
        }
        level = next;
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
            let ps = split(&p, parts, EngineChoice::Auto, None).unwrap();
            assert!(ps.len() >= parts.min(288));
            let total: u128 = ps
                .iter()
                .map(|part| crate::count(&part.puzzle, &Default::default()).solutions)
                .sum();
            assert_eq!(total, 288, "{parts} parts");
        }
        let ps = split_depth(&p, 2, EngineChoice::Auto, None).unwrap();
        let total: u128 = ps
            .iter()
            .map(|part| crate::count(&part.puzzle, &Default::default()).solutions)
            .sum();
        assert_eq!(total, 288);
    }
}
