//! Splitting one search across rayon workers.
//!
//! The tree is expanded breadth-first, always at the heaviest open node (weight = product of
//! 1/branching along its path, Knuth's measure), until there are many more sub-problems than
//! workers. Sub-problems keep search order. Workers claim them in that order from an atomic
//! index, so the earliest unfinished sub-problem is always being worked on. Each worker has its
//! own sink and statistics; the exact solution limit and the stop flag live in [`Shared`].

use super::{Ctx, Shared};
use crate::engine::bands::Plan;
use crate::engine::{Engine, Expansion};
use crate::sink::{Sink, Stats};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Condvar, Mutex};

/// One independent piece of the search tree.
#[derive(Debug, Clone)]
pub struct SubProblem<E> {
    /// The propagated state at the root of the piece.
    pub state: E,
    /// Its share of the whole tree.
    pub weight: f64,
}

/// Expand `root` into at least `target` sub-problems where the tree allows, in search order.
/// Pruned children's weight is reported to `shared` as done. With a band `plan` the tree is
/// the one counting by bands searches (see [`Engine::expand_bands`]).
pub fn sub_problems<E: Engine>(
    root: &E,
    target: usize,
    shared: &Shared,
    plan: Option<&Plan>,
) -> Vec<SubProblem<E>> {
    let root = SubProblem {
        state: root.clone(),
        weight: 1.0,
    };
    split(vec![root], target, shared, plan)
}

/// [`sub_problems`] from several pieces (in search order): the heaviest expanded until there
/// are at least `target` where the tree allows.
pub fn split<E: Engine>(
    mut frontier: Vec<SubProblem<E>>,
    target: usize,
    shared: &Shared,
    plan: Option<&Plan>,
) -> Vec<SubProblem<E>> {
    let mut kids = Vec::new();
    // Expanded nodes that turned out to be solved are kept as leaves.
    let mut leaf = vec![false; frontier.len()];
    while frontier.len() < target {
        let Some(i) = (0..frontier.len()).filter(|&i| !leaf[i]).max_by(|&a, &b| {
            frontier[a]
                .weight
                .partial_cmp(&frontier[b].weight)
                .unwrap_or(std::cmp::Ordering::Equal)
                // prefer the earlier node on ties
                .then(b.cmp(&a))
        }) else {
            break;
        };
        kids.clear();
        let expansion = match plan {
            None => Some(frontier[i].state.expand(&mut kids)),
            Some(plan) => frontier[i].state.expand_bands(&mut kids, plan.rows()),
        };
        match expansion {
            // Solved, or a boundary of the band count: searched as it is.
            Some(Expansion::Solved) | None => leaf[i] = true,
            Some(Expansion::Branched { choices }) => {
                let w = frontier[i].weight / choices as f64;
                shared.add_done(w * (choices - kids.len()) as f64);
                let n = kids.len();
                frontier.splice(
                    i..=i,
                    kids.drain(..).map(|state| SubProblem { state, weight: w }),
                );
                leaf.splice(i..=i, std::iter::repeat_n(false, n));
            }
        }
    }
    frontier
}

/// Run sub-problems on the current rayon pool (the global one, started here if need be) with
/// `workers` workers. Sub-problem `i` gets the
/// sink `sink.fork(i)`, handed back through `sink.join(i, ..)` when that piece is done (or
/// abandoned because the search stopped). Returns the statistics summed over all workers.
pub fn run<E: Engine, S: Sink + Send>(
    subs: &[SubProblem<E>],
    workers: usize,
    shared: &Shared,
    sink: &mut S,
    plan: Option<&Plan>,
) -> Stats {
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Stats::default());
    let root = Mutex::new(sink);
    let lock = || root.lock().unwrap_or_else(|e| e.into_inner());
    let work = || {
        let mut mine = Stats::default();
        loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= subs.len() {
                break;
            }
            let mut piece = lock().fork(i);
            {
                // Once the search has stopped, remaining pieces are still claimed, so that each
                // sink is handed back through `join`, but not searched. Pieces smaller than
                // a flush of progress are searched whole: the budget and the deadline are
                // looked at between them too.
                let mut ctx = Ctx::new(&mut piece, shared).with_bands(plan);
                if !shared.must_stop() {
                    let _ = subs[i].state.search(&mut ctx, subs[i].weight);
                }
                mine += ctx.stats;
            }
            lock().join(i, piece);
        }
        *total.lock().unwrap_or_else(|e| e.into_inner()) += mine;
    };
    on_workers(workers, work);
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Run the pieces of a search whose sink does not need them in order ([`Sink::IN_ORDER`]) and
/// whose engine keeps what it leaves when it stops ([`Engine::search_resumable`]), sharing them
/// as they go instead of cutting many small pieces up front: a worker that finds no piece
/// waiting sets a flag, the first worker to flush its progress after that (every
/// [`super::ctx::FLUSH_EVERY`] nodes) stops and puts what is left of its piece back, and
/// everyone takes the heaviest of the pieces waiting, the one put back last. So the workers
/// search few, large pieces, each from the conflict scores the searches before it learned.
/// Pieces are numbered in the order they are taken. Returns the statistics summed over all
/// workers.
pub fn run_sharing<E: Engine, S: Sink + Send>(
    pieces: Vec<SubProblem<E>>,
    workers: usize,
    shared: &Shared,
    sink: &mut S,
) -> Stats {
    debug_assert!(!S::IN_ORDER);
    struct Queue<E> {
        /// Pieces waiting, the heaviest (the one put back last) at the end.
        waiting: Vec<SubProblem<E>>,
        /// Pieces being searched.
        busy: usize,
    }
    /// A piece being searched. Dropped when it is done, or by a panic (so that the workers
    /// waiting for pieces are not left waiting): no longer busy, and what it put back waits.
    struct Busy<'q, E> {
        queue: &'q Mutex<Queue<E>>,
        changed: &'q Condvar,
        back: Vec<SubProblem<E>>,
    }
    impl<E> Drop for Busy<'_, E> {
        fn drop(&mut self) {
            let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            q.busy -= 1;
            q.waiting.append(&mut self.back);
            drop(q);
            self.changed.notify_all();
        }
    }
    let queue = Mutex::new(Queue {
        waiting: pieces,
        busy: 0,
    });
    let changed = Condvar::new();
    let hungry = AtomicBool::new(false);
    let taken = AtomicUsize::new(0);
    let total = Mutex::new(Stats::default());
    let root = Mutex::new(sink);
    let lock_sink = || root.lock().unwrap_or_else(|e| e.into_inner());
    let work = || {
        let mut mine = Stats::default();
        loop {
            // The next piece, or none when none is waiting or being searched (or on a stop).
            let piece = {
                let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if shared.must_stop() {
                        break None;
                    }
                    if let Some(p) = q.waiting.pop() {
                        q.busy += 1;
                        break Some(p);
                    }
                    if q.busy == 0 {
                        break None;
                    }
                    hungry.store(true, Relaxed);
                    q = changed.wait(q).unwrap_or_else(|e| e.into_inner());
                }
            };
            let Some(piece) = piece else {
                changed.notify_all();
                break;
            };
            let mut busy = Busy {
                queue: &queue,
                changed: &changed,
                back: Vec::new(),
            };
            let i = taken.fetch_add(1, Relaxed);
            let mut part = lock_sink().fork(i);
            let (yielded, rest) = {
                let mut ctx = Ctx::new(&mut part, shared).sharing(&hungry);
                let (_, rest) = piece.state.search_resumable(&mut ctx, piece.weight);
                mine += ctx.stats;
                (ctx.yielded, rest)
            };
            lock_sink().join(i, part);
            if yielded && shared.stopped().is_none() {
                let Some(rest) = rest else {
                    unreachable!("only engines that keep what they leave share their pieces");
                };
                busy.back = rest
                    .into_iter()
                    .map(|(state, weight)| SubProblem { state, weight })
                    .collect();
            }
        }
        *total.lock().unwrap_or_else(|e| e.into_inner()) += mine;
    };
    on_workers(workers, work);
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Run `work` on `workers` workers of the current rayon pool (the global one, started here if
/// need be), this thread among them, until every one returns.
pub(crate) fn on_workers(workers: usize, work: impl Fn() + Sync) {
    super::start_global_pool(workers);
    rayon::scope(|s| {
        for _ in 1..workers.max(1) {
            s.spawn(|_| work());
        }
        work();
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generic::Generic;
    use crate::puzzle::Puzzle;
    use crate::shape::Shape;
    use crate::sink::CountSink;

    #[test]
    fn split_pieces_sum_to_the_whole() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let root = Generic::new(&p).unwrap();
        for target in [1, 2, 5, 17, 100, 1000] {
            let shared = Shared::new(None);
            let subs = sub_problems(&root, target, &shared, None);
            assert!(subs.len() >= target.min(288));
            let w: f64 = subs.iter().map(|s| s.weight).sum::<f64>() + shared.fraction_done();
            assert!((w - 1.0).abs() < 1e-9);
            let stats = run(&subs, 3, &shared, &mut CountSink, None);
            assert_eq!(stats.solutions, 288, "target {target}");
            assert!((shared.fraction_done() - 1.0).abs() < 1e-6);
        }
    }

    /// One piece of 97,109 nodes (the empty 6×6 with the anti-king rule, 74,160 solutions):
    /// the idle workers get shares of it as it goes, and every solution is counted once.
    #[test]
    fn shared_pieces_count_every_solution_once() {
        let p = crate::solver::anti_king_six();
        let root = Generic::new(&p).unwrap();
        for (workers, limit) in [(1, None), (3, None), (4, None), (3, Some(50_000))] {
            let shared = Shared::new(limit);
            let pieces = vec![SubProblem {
                state: root.clone(),
                weight: 1.0,
            }];
            let pool = crate::solver::test_pool(workers);
            let stats = pool.install(|| run_sharing(pieces, workers, &shared, &mut CountSink));
            let want = limit.map_or(74_160, u128::from);
            assert_eq!(stats.solutions, want, "{workers} workers, limit {limit:?}");
            if limit.is_none() {
                assert!((shared.fraction_done() - 1.0).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn limit_is_exact_across_workers() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let root = Generic::new(&p).unwrap();
        for limit in [1, 7, 100, 288, 1000] {
            let shared = Shared::new(Some(limit));
            let subs = sub_problems(&root, 40, &shared, None);
            let stats = run(&subs, 4, &shared, &mut CountSink, None);
            assert_eq!(stats.solutions, (limit as u128).min(288));
        }
    }
}
