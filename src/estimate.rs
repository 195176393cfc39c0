//! Estimating and partitioning search trees without searching them.
//!
//! # Estimating (Knuth 1975)
//!
//! [`estimate`] follows D. E. Knuth, "Estimating the efficiency of backtrack programs"
//! (Math. Comp. 29, 1975): a *probe* walks from a node to a leaf, at each node taking one of
//! the `d` surviving children (those the engine's propagation keeps) uniformly at random and
//! multiplying a running product by `d`. The product reached at a solved leaf is an unbiased
//! estimate of the number of solutions below the start node (a dead end, `d = 0`, estimates
//! 0), and the sum over the path of `product × branching factor` (dead children included, as
//! the engines' `nodes` counter counts them) is an unbiased estimate of the tree size.
//!
//! Plain probes from the root vary a lot. So the top of the tree is *stratified*: it is
//! expanded exhaustively, always at the heaviest open node by Knuth's weight (the product of
//! 1/branching, as the parallel search does), into [`EstimateOptions::strata`] pieces;
//! solved leaves and expanded nodes found on the way are counted exactly; and each piece gets
//! its own probes, their number proportional to its weight (at least two). The sum over the
//! pieces of their mean probe values is still unbiased (each piece is estimated unbiasedly and
//! the pieces partition the tree), and its variance is the sum of the pieces' variances of the
//! mean, which gives the 95% interval `mean ± 1.96·sd`. With one stratum this is Knuth's plain
//! estimator and the interval is the usual `mean ± 1.96·sd/√S`.
//!
//! The probes of each piece use their own generator (SplitMix64) seeded from the seed and the
//! piece's index, so a result depends only on the puzzle, the options and the seed, never on
//! the number of threads.
//!
//! Cutting a search into parts of similar estimated work is [`partition`](crate::partition)'s.

use crate::engine::select::with_engine;
use crate::engine::{Engine, EngineChoice, Expansion};
use crate::puzzle::{Conflict, Puzzle};
use crate::rng::SplitMix64;
use crate::solver::Cancel;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Default number of probes for [`estimate`].
pub const DEFAULT_SAMPLES: u64 = 40_000;

/// Default number of strata (exhaustively expanded top pieces) for [`estimate`].
pub const DEFAULT_STRATA: usize = 256;

/// The most strata an estimate expands the top of the tree into (more are taken as this
/// many): each expansion looks through the pieces so far (10,000 of the empty 9×9 take a
/// quarter of a second), and the probes share them out.
pub const MAX_STRATA: usize = 10_000;

/// Settings of [`estimate_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EstimateOptions {
    /// Probes in all (at least two per stratum are made, so a few more may run).
    pub samples: u64,
    /// Seed of the random choices.
    pub seed: u64,
    /// How many pieces the top of the tree is expanded into (1 = Knuth's plain estimator).
    pub strata: usize,
    /// Which engine's tree is measured (they differ for 9×9: see [`EngineChoice`]).
    pub engine: EngineChoice,
}

impl Default for EstimateOptions {
    fn default() -> EstimateOptions {
        EstimateOptions {
            samples: DEFAULT_SAMPLES,
            seed: 0,
            strata: DEFAULT_STRATA,
            engine: EngineChoice::Auto,
        }
    }
}

/// The result of [`estimate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Estimated number of solutions (unbiased); infinite (and so are [`Estimate::ci95`] and
    /// [`Estimate::std_error`]) where it lies beyond an `f64` (above 1.8·10^308), never NaN.
    pub solutions: f64,
    /// 95% confidence interval of the solution count (normal approximation, lower end ≥ 0).
    pub ci95: (f64, f64),
    /// Standard error of [`Estimate::solutions`].
    pub std_error: f64,
    /// Estimated search-tree size in nodes, dead ends included (the engines' `nodes` counter);
    /// infinite (with [`Estimate::nodes_ci95`]) beyond an `f64`.
    pub nodes: f64,
    /// 95% confidence interval of the tree size.
    pub nodes_ci95: (f64, f64),
    /// Probes made.
    pub samples: u64,
    /// Strata the top of the tree was expanded into.
    pub strata: usize,
    /// True when the top expansion exhausted the tree: the counts are exact.
    pub exact: bool,
}

impl Estimate {
    fn exact(solutions: f64, nodes: f64) -> Estimate {
        Estimate {
            solutions,
            ci95: (solutions, solutions),
            std_error: 0.0,
            nodes,
            nodes_ci95: (nodes, nodes),
            samples: 0,
            strata: 0,
            exact: true,
        }
    }
}

/// Why [`estimate_with`] gave no estimate, or only one of part of its probes.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EstimateError {
    /// The givens clash: the puzzle is invalid.
    #[error("invalid: {0}")]
    Invalid(Conflict),
    /// The cancel flag was raised before every stratum had two probes.
    #[error("interrupted")]
    Cancelled,
    /// The cancel flag was raised after every stratum had two probes or more: the estimate
    /// of the probes made ([`Estimate::samples`] of them), still unbiased, its interval wider.
    #[error("interrupted after {} probes", .0.samples)]
    Interrupted(Estimate),
}

/// Knuth's estimate of the solution count and tree size of `puzzle` with `samples` probes and
/// the default strata and engine. See the [module docs](self).
pub fn estimate(puzzle: &Puzzle, samples: u64, seed: u64) -> Result<Estimate, Conflict> {
    let options = EstimateOptions {
        samples,
        seed,
        ..EstimateOptions::default()
    };
    match estimate_with(puzzle, &options, None, None) {
        Ok(e) => Ok(e),
        Err(EstimateError::Invalid(c)) => Err(c),
        // No cancel flag was given.
        Err(EstimateError::Cancelled) => Ok(Estimate::exact(0.0, 0.0)),
        Err(EstimateError::Interrupted(e)) => Ok(e),
    }
}

/// [`estimate`] with every setting, a counter of probes done (for progress bars) and a cancel
/// handle polled between probes. Probes run on the current rayon pool.
pub fn estimate_with(
    puzzle: &Puzzle,
    options: &EstimateOptions,
    progress: Option<&AtomicU64>,
    cancel: Option<&Cancel>,
) -> Result<Estimate, EstimateError> {
    if let Some(c) = puzzle.conflict() {
        return Err(EstimateError::Invalid(c));
    }
    let est = with_engine!(puzzle, options.engine, |root| {
        estimate_engine(&root, options, progress, cancel)
    });
    // No root: propagation alone proves there is no solution (one node, like the engines).
    est.unwrap_or(Ok(Estimate::exact(0.0, 1.0)))
}

/// What one probe read: solutions and nodes below its start node (the node itself included).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Reading {
    solutions: f64,
    /// The estimated tree size.
    pub(crate) nodes: f64,
}

/// A probe: a random walk from `start` to a leaf.
pub(crate) fn probe<E: Engine>(start: &E, rng: &mut SplitMix64, kids: &mut Vec<E>) -> Reading {
    let mut product = 1.0f64;
    let mut nodes = 1.0f64;
    let mut state = start.clone();
    loop {
        kids.clear();
        match state.expand(kids) {
            Expansion::Solved => {
                return Reading {
                    solutions: product,
                    nodes,
                }
            }
            Expansion::Branched { choices } => {
                nodes += product * choices as f64;
                if kids.is_empty() {
                    return Reading {
                        solutions: 0.0,
                        nodes,
                    };
                }
                product *= kids.len() as f64;
                let pick = rng.below(kids.len());
                state = kids.swap_remove(pick);
            }
        }
    }
}

/// Running mean and variance (Welford).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Moments {
    n: u64,
    pub(crate) mean: f64,
    m2: f64,
}

impl Moments {
    pub(crate) fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Variance of the mean.
    fn var_of_mean(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64 / self.n as f64
        }
    }
}

/// A node of an exhaustively expanded top of the tree.
struct Top<E> {
    state: E,
    /// Knuth weight: product of 1/branching along the path.
    weight: f64,
    /// Found solved when expanded.
    leaf: bool,
}

/// Expand the top of the tree at the heaviest open node until `target` pieces; returns the
/// pieces (in search order, solved leaves included and flagged) and the nodes counted on the
/// way (expanded nodes and dead children).
fn expand_top<E: Engine>(
    root: &E,
    target: usize,
    cancel: Option<&Cancel>,
) -> Result<(Vec<Top<E>>, f64), EstimateError> {
    let mut frontier = vec![Top {
        state: root.clone(),
        weight: 1.0,
        leaf: false,
    }];
    let mut counted = 0.0;
    let mut kids = Vec::new();
    while frontier.len() < target {
        if cancel.is_some_and(Cancel::is_cancelled) {
            return Err(EstimateError::Cancelled);
        }
        let Some(i) = (0..frontier.len())
            .filter(|&i| !frontier[i].leaf)
            .max_by(|&a, &b| {
                frontier[a]
                    .weight
                    .total_cmp(&frontier[b].weight)
                    .then(b.cmp(&a))
            })
        else {
            break;
        };
        kids.clear();
        match frontier[i].state.expand(&mut kids) {
            Expansion::Solved => frontier[i].leaf = true,
            Expansion::Branched { choices } => {
                counted += 1.0 + (choices - kids.len()) as f64;
                let w = frontier[i].weight / choices as f64;
                frontier.splice(
                    i..=i,
                    kids.drain(..).map(|state| Top {
                        state,
                        weight: w,
                        leaf: false,
                    }),
                );
                if frontier.is_empty() {
                    break;
                }
            }
        }
    }
    Ok((frontier, counted))
}

fn estimate_engine<E: Engine>(
    root: &E,
    options: &EstimateOptions,
    progress: Option<&AtomicU64>,
    cancel: Option<&Cancel>,
) -> Result<Estimate, EstimateError> {
    let (top, counted) = expand_top(root, options.strata.clamp(1, MAX_STRATA), cancel)?;
    let exact_solutions = top.iter().filter(|t| t.leaf).count() as f64;
    let open: Vec<&Top<E>> = top.iter().filter(|t| !t.leaf).collect();
    if open.is_empty() {
        return Ok(Estimate::exact(exact_solutions, counted + exact_solutions));
    }
    let total_weight: f64 = open.iter().map(|t| t.weight).sum();
    let samples = options.samples.max(1) as f64;
    let mut strata: Vec<Stratum> = open
        .iter()
        .enumerate()
        .map(|(i, t)| Stratum {
            probes: ((samples * t.weight / total_weight).round() as u64).max(2),
            rng: SplitMix64::new(options.seed ^ (i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)),
            sols: Moments::default(),
            nodes: Moments::default(),
        })
        .collect();
    // The probes in rounds, each stratum's made up to 1/2^ROUNDS of its share (at least two)
    // in the first, then twice as many each round, so that an estimate interrupted after the
    // first round still covers every stratum. Each stratum's probes are the same, in the same
    // order, however they are cut into rounds.
    let cancelled = || cancel.is_some_and(Cancel::is_cancelled);
    for round in (0..=ROUNDS).rev() {
        strata.par_iter_mut().zip(&open).for_each(|(st, t)| {
            let upto = (st.probes >> round).max(2);
            let mut kids = Vec::new();
            while st.sols.n < upto && !cancelled() {
                let p = probe(&t.state, &mut st.rng, &mut kids);
                st.sols.add(p.solutions);
                st.nodes.add(p.nodes);
                if let Some(done) = progress {
                    done.fetch_add(1, Relaxed);
                }
            }
        });
        if cancelled() {
            break;
        }
    }
    let mut est = Estimate::exact(exact_solutions, counted + exact_solutions);
    est.exact = false;
    est.strata = open.len();
    let (mut var_s, mut var_n) = (0.0, 0.0);
    let interrupted = strata.iter().any(|st| st.sols.n < st.probes);
    if strata.iter().any(|st| st.sols.n < 2) {
        return Err(EstimateError::Cancelled);
    }
    for Stratum {
        sols: s, nodes: n, ..
    } in strata
    {
        est.samples += s.n;
        est.solutions += s.mean;
        est.nodes += n.mean;
        var_s += s.var_of_mean();
        var_n += n.var_of_mean();
    }
    est.std_error = var_s.sqrt();
    let half = 1.96 * est.std_error;
    est.ci95 = ((est.solutions - half).max(0.0), est.solutions + half);
    let half_n = 1.96 * var_n.sqrt();
    est.nodes_ci95 = ((est.nodes - half_n).max(1.0), est.nodes + half_n);
    // Beyond a 64-bit float (the empty 25×25 has about 4·10^308 grids): the probes' products
    // overflow and their moments turn NaN. Infinite then, never NaN.
    if !(est.solutions.is_finite() && est.std_error.is_finite()) {
        est.solutions = f64::INFINITY;
        est.std_error = f64::INFINITY;
        est.ci95 = (f64::INFINITY, f64::INFINITY);
    }
    if !(est.nodes.is_finite() && var_n.is_finite()) {
        est.nodes = f64::INFINITY;
        est.nodes_ci95 = (f64::INFINITY, f64::INFINITY);
    }
    if interrupted {
        return Err(EstimateError::Interrupted(est));
    }
    Ok(est)
}

/// Rounds the probes are made in, less one (see [`estimate_engine`]).
const ROUNDS: u32 = 10;

/// One stratum's probes: how many to make, its generator, and what they read so far.
struct Stratum {
    probes: u64,
    rng: SplitMix64,
    sols: Moments,
    nodes: Moments,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn exact_on_small_trees() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let options = EstimateOptions {
            strata: 100_000,
            ..EstimateOptions::default()
        };
        let e = estimate_with(&p, &options, None, None).unwrap();
        // Enough strata for the top expansion to finish the 4×4 tree.
        assert!(e.exact);
        assert_eq!(e.solutions, 288.0);
    }

    /// Cancelled once the first round is done (a 1,024th of the probes: every stratum's
    /// share, at least two), the estimate of the probes made so far comes back, still close.
    #[test]
    fn interrupted_after_the_first_round_gives_the_estimate_so_far() {
        let p = Puzzle::empty(Shape::new(2, 3).unwrap());
        let options = EstimateOptions {
            samples: 100_000_000,
            seed: 5,
            strata: 64,
            engine: EngineChoice::Auto,
        };
        let (done, cancel) = (AtomicU64::new(0), Cancel::new());
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                // Rounds are made one after the other: past the first round's probes, it is done.
                while done.load(Relaxed) < 200_000 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                cancel.cancel();
            });
            estimate_with(&p, &options, Some(&done), Some(&cancel))
        });
        let Err(EstimateError::Interrupted(e)) = result else {
            panic!("{result:?}");
        };
        assert!(
            e.samples >= 100_000_000 / 1024 && e.samples < 100_000_000,
            "{e:?}"
        );
        assert!(!e.exact && e.strata >= 64);
        assert!((e.solutions / 28_200_960.0 - 1.0).abs() < 0.05, "{e:?}");
    }

    #[test]
    fn plain_knuth_is_close_on_4x4() {
        let p = Puzzle::empty(Shape::new(2, 2).unwrap());
        let options = EstimateOptions {
            samples: 20_000,
            seed: 3,
            strata: 1,
            engine: EngineChoice::Auto,
        };
        let e = estimate_with(&p, &options, None, None).unwrap();
        assert!(!e.exact);
        assert!((e.solutions / 288.0 - 1.0).abs() < 0.05, "{e:?}");
        assert!(e.ci95.0 <= 288.0 && 288.0 <= e.ci95.1, "{e:?}");
    }
}
