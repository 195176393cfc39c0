//! `estimate`: the solution count, tree size and count time of each puzzle by random probes
//! (Knuth 1975, see [`sudoku_enum::estimate`]), the time calibrated by short real counts.

use super::args::EstimateArgs;
use super::input::for_each_puzzle;
use super::progress::{note, Bar, TermOut, Trend};
use super::report::{millis, plural};
use super::status::{exit_for, Fatal, CANCEL};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use sudoku_enum::estimate::{self, EstimateError, EstimateOptions};
use sudoku_enum::{count, Cancel, EngineChoice, Options, Progress, Puzzle};

/// Seconds as a short human phrase: `0.42 s`, `3.1 h`, `2.0e9 years`.
pub fn human_secs(s: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    if !s.is_finite() {
        "unknown".to_string()
    } else if s < 120.0 {
        format!("{s:.2} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s < YEAR {
        format!("{:.1} days", s / 86400.0)
    } else {
        format!("{} years", sci(s / YEAR))
    }
}

/// A share as a percentage with 2 significant digits: `5.8%`, `0.0031%`, `1.2e-9%`.
fn share(f: f64) -> String {
    let p = f * 100.0;
    if p >= 10.0 {
        format!("{p:.0}%")
    } else if p >= 1e-4 {
        let digits = (1 - p.log10().floor() as i32).max(0) as usize;
        format!("{p:.digits$}%")
    } else {
        format!("{p:.1e}%")
    }
}

/// A count in 4 significant digits: `28200960` stays as is below 10^7, else `6.671e21`.
pub fn sci(x: f64) -> String {
    if !x.is_finite() {
        // An estimate beyond a 64-bit float (see `Estimate::solutions`).
        "more than 1.8e308".to_string()
    } else if x.abs() < 1e7 {
        format!("{}", x.round())
    } else {
        format!("{x:.3e}")
    }
}

/// An estimated number: `about 1.234e40`, or `more than 1.8e308` beyond a 64-bit float.
fn about(x: f64) -> String {
    if x.is_finite() {
        format!("about {}", sci(x))
    } else {
        sci(x)
    }
}

/// A 95% confidence interval, or what is known where the estimate is beyond a 64-bit float.
fn ci((low, high): (f64, f64)) -> String {
    if low.is_finite() {
        format!("95% CI {} .. {}", sci(low), sci(high))
    } else {
        "beyond a 64-bit float".to_string()
    }
}

/// What a short trial of the real count says about the whole count.
pub struct Trial {
    /// The exact count, when the trial finished.
    pub counted: Option<u128>,
    /// Seconds the whole count takes with the trial's threads: measured when the trial
    /// finished, else extrapolated from the share of the tree it did ([`Trend`]).
    pub predicted: Option<f64>,
    /// The share of the tree the trial did.
    pub done: f64,
    /// Seconds it ran.
    pub secs: f64,
}

/// Count `puzzle` as `count` would (the same engine choice, counting by bands where `count`
/// would, `threads` workers) for about `secs` seconds, watching the share of the tree done:
/// the time this takes accounts for everything the real count does (its table of counts below
/// band boundaries, the orientation it picks, the serial try before the split), which a
/// tree-size estimate cannot.
///
/// The trial goes on past `secs` (up to `4 × secs`) while the search has not yet been split
/// across the threads after its serial try, or has run less than `secs / 2` since its counters
/// last started again: the rate before is not the rate of the rest.
pub fn trial(puzzle: &Puzzle, engine: EngineChoice, threads: usize, secs: f64) -> Trial {
    let progress = Progress::new();
    let stop = Cancel::new();
    let started = Instant::now();
    let options = Options {
        threads,
        cancel: Some(stop.clone()),
        progress: Some(progress.clone()),
        engine,
        ..Options::default()
    };
    // About 50 samples a trial.
    let step = Duration::from_secs_f64((secs / 50.0).clamp(0.002, 0.1));
    let mut trend = Trend::default();
    let outcome = std::thread::scope(|scope| {
        let counting = scope.spawn(|| count(puzzle, &options));
        while !counting.is_finished() {
            std::thread::sleep(step);
            let t = started.elapsed().as_secs_f64();
            trend.push(t, progress.fraction_done());
            let (since, _) = trend.since_reset();
            let settled = (threads <= 1 || progress.is_split()) && since >= secs / 2.0;
            if (t >= secs && settled) || t >= 4.0 * secs || CANCEL.is_cancelled() {
                stop.cancel();
            }
        }
        counting.join()
    });
    let secs = started.elapsed().as_secs_f64();
    match outcome {
        Ok(o) if o.complete() => Trial {
            counted: Some(o.solutions),
            predicted: Some(secs),
            done: 1.0,
            secs,
        },
        _ => Trial {
            counted: None,
            predicted: trend.total(),
            done: trend.done(),
            secs,
        },
    }
}

/// `sudoku-enum estimate`.
pub fn run(args: EstimateArgs) -> Result<u8, Fatal> {
    let threads = sudoku_enum::worker_threads(args.threads);
    let engine = EngineChoice::from(args.engine);
    let options = EstimateOptions {
        samples: args.samples.max(1),
        seed: args.seed,
        strata: args.strata.max(1),
        engine,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(TermOut::new(stdout.lock()));
    let mut failed = false;
    let errors = for_each_puzzle(
        &args.files,
        args.input.parse_options(args.box_shape),
        |source, puzzle| {
            let counter = Arc::new(AtomicU64::new(0));
            let bar = Bar::start(
                args.quiet,
                Arc::clone(&counter),
                Some(options.samples),
                "probes".to_string(),
            );
            let started = Instant::now();
            let est = estimate::estimate_with(&puzzle, &options, Some(&counter), Some(&CANCEL));
            let probe_secs = started.elapsed().as_secs_f64();
            drop(bar);
            // Ctrl-C after every stratum had its first probes: the estimate of those made so
            // far is written, marked (the run still ends as interrupted).
            let (est, interrupted) = match est {
                Ok(e) => (e, false),
                Err(EstimateError::Interrupted(e)) => (e, true),
                Err(EstimateError::Cancelled) => return Ok(()),
                Err(EstimateError::Invalid(c)) => {
                    failed = true;
                    if args.json {
                        writeln!(
                            out,
                            "{}",
                            json!({"source": source, "puzzle": puzzle.to_text(),
                               "box": puzzle.shape().to_string(), "verdict": "invalid",
                               "error": format!("invalid: {c}")})
                        )?;
                    } else {
                        writeln!(out, "{source}: invalid: {c}")?;
                    }
                    return Ok(());
                }
            };
            let trial = (args.calibrate > 0.0 && !est.exact && !interrupted)
                .then(|| trial(&puzzle, engine, threads, args.calibrate));
            let exact = trial.as_ref().and_then(|t| t.counted);
            let predicted = trial.as_ref().and_then(|t| t.predicted);
            // A trial cut short by Ctrl-C: its prediction is of a shorter trial, and says so.
            let cut_trial = trial.is_some() && exact.is_none() && CANCEL.is_cancelled();
            if args.json {
                let mut m = Map::new();
                m.insert("source".into(), json!(source));
                m.insert("puzzle".into(), json!(puzzle.to_text()));
                m.insert("box".into(), json!(puzzle.shape().to_string()));
                if !est.solutions.is_finite() {
                    // `null` counts: beyond a 64-bit float, which JSON numbers are read into.
                    m.insert("overflow".into(), json!(true));
                }
                m.insert("solutions".into(), json!(est.solutions));
                m.insert("ci95".into(), json!([est.ci95.0, est.ci95.1]));
                m.insert("std_error".into(), json!(est.std_error));
                m.insert("nodes".into(), json!(est.nodes));
                m.insert(
                    "nodes_ci95".into(),
                    json!([est.nodes_ci95.0, est.nodes_ci95.1]),
                );
                m.insert("samples".into(), json!(est.samples));
                m.insert("strata".into(), json!(est.strata));
                m.insert("seed".into(), json!(options.seed));
                m.insert("exact".into(), json!(est.exact));
                if interrupted || cut_trial {
                    m.insert("interrupted".into(), json!(true));
                }
                if let Some(n) = exact {
                    m.insert("counted".into(), json!(n));
                }
                if let Some(t) = &trial {
                    if let Some(p) = predicted {
                        m.insert("predicted_s".into(), json!(p));
                    }
                    m.insert("threads".into(), json!(threads));
                    m.insert("trial_s".into(), json!(t.secs));
                    m.insert("trial_done".into(), json!(t.done));
                }
                m.insert("time_ms".into(), json!(millis(probe_secs)));
                writeln!(out, "{}", Value::Object(m))?;
            } else {
                let mut line = if est.exact {
                    format!("{source}: exactly {}", plural(est.solutions, "solution"))
                } else {
                    format!(
                        "{source}: {} solutions ({}; {} probes{}), {} nodes",
                        about(est.solutions),
                        ci(est.ci95),
                        est.samples,
                        if interrupted { ", interrupted" } else { "" },
                        about(est.nodes)
                    )
                };
                match (&trial, exact) {
                    (Some(t), Some(n)) => {
                        line += &format!(
                            "; counted exactly: {} in {}",
                            plural(n, "solution"),
                            human_secs(t.secs)
                        );
                    }
                    (Some(t), None) => {
                        line += &format!(
                            "; predicted count time {} with {} (a {} trial count{} did {} of the \
                             tree)",
                            predicted.map_or("unknown".to_string(), human_secs),
                            plural(threads, "thread"),
                            human_secs(t.secs),
                            if cut_trial { ", interrupted," } else { "" },
                            share(t.done)
                        );
                    }
                    (None, _) => {}
                }
                writeln!(out, "{line}")?;
            }
            Ok(out.flush()?)
        },
    )?;
    Ok(exit_for(errors > 0, failed))
}

/// How long a count runs before it is judged (a moment: most counts are done by then).
const JUDGE_AFTER: Duration = Duration::from_secs(2);

/// A count predicted to take at least this long is announced.
const LONG_COUNT_SECS: f64 = 60.0;

/// The watch over the long counts of a run (`count` without a limit): every count is
/// registered while it runs ([`LongWatch::begin`]); one thread looks at them ten times a
/// second, and a count still running after [`JUDGE_AFTER`] whose predicted time is a minute or
/// more (or that has not measurably progressed) is announced on stderr with a quick estimate
/// of its solutions (Knuth's probes, a tenth of `estimate`'s) and its predicted time, once;
/// the count goes on. A lone puzzle and the puzzles of a batch alike (on any thread).
pub struct LongWatch {
    shared: Arc<Watched>,
    handle: Option<std::thread::JoinHandle<()>>,
}

/// The counts running now, and the stop flag of the watching thread.
#[derive(Default)]
struct Watched {
    running: Mutex<Vec<Running>>,
    next_id: AtomicU64,
    stop: Cancel,
}

/// One registered count.
struct Running {
    id: u64,
    puzzle: Puzzle,
    source: String,
    progress: Progress,
    started: Instant,
}

/// A registered count; dropping it ends its registration.
pub struct Registered<'w> {
    watch: &'w LongWatch,
    id: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        let mut running = self
            .watch
            .shared
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        running.retain(|r| r.id != self.id);
    }
}

impl LongWatch {
    /// Start the watching thread (none when `enabled` is false: `--quiet`, or not a count);
    /// `threads` is for the announcement.
    pub fn start(enabled: bool, threads: usize, engine: EngineChoice) -> LongWatch {
        let shared = Arc::new(Watched::default());
        let handle = enabled.then(|| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || watch(&shared, threads, engine))
        });
        LongWatch { shared, handle }
    }

    /// Whether counts are watched.
    pub fn is_on(&self) -> bool {
        self.handle.is_some()
    }

    /// Register the count of `puzzle` (named `source`) whose counters are `progress`, until
    /// the returned guard is dropped. `None` when nothing watches.
    pub fn begin(
        &self,
        puzzle: &Puzzle,
        source: impl FnOnce() -> String,
        progress: &Progress,
    ) -> Option<Registered<'_>> {
        self.handle.as_ref()?;
        let id = self.shared.next_id.fetch_add(1, Relaxed);
        let running = Running {
            id,
            puzzle: puzzle.clone(),
            source: source(),
            progress: progress.clone(),
            started: Instant::now(),
        };
        self.shared
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(running);
        Some(Registered { watch: self, id })
    }
}

impl Drop for LongWatch {
    fn drop(&mut self) {
        self.shared.stop.cancel();
        if let Some(h) = self.handle.take() {
            // Wake it from its wait between two looks, so that the run ends at once.
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

/// The watching thread: each registered count's trend, judged once after [`JUDGE_AFTER`].
fn watch(shared: &Watched, threads: usize, engine: EngineChoice) {
    // By id: the count's trend, and whether it was judged.
    let mut seen: HashMap<u64, (Trend, bool)> = HashMap::new();
    while !shared.stop.is_cancelled() {
        std::thread::park_timeout(Duration::from_millis(50));
        let mut due = None;
        {
            let running = shared
                .running
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            seen.retain(|id, _| running.iter().any(|r| r.id == *id));
            for r in running.iter() {
                let (trend, judged) = seen.entry(r.id).or_default();
                let t = r.started.elapsed();
                trend.push(t.as_secs_f64(), r.progress.fraction_done());
                // A second since the counters last started again (the rate of a search split
                // after its serial try is only an approximation before: this judges orders of
                // magnitude, `estimate` waits for the split).
                if !*judged && due.is_none() && t >= JUDGE_AFTER && trend.since_reset().0 >= 1.0 {
                    *judged = true;
                    let total = trend.total();
                    if total.is_none_or(|s| s >= LONG_COUNT_SECS) {
                        due = Some((r.puzzle.clone(), r.source.clone(), total, r.started));
                    }
                }
            }
        }
        let Some((puzzle, source, total, started)) = due else {
            continue;
        };
        let Some(est) = quick_estimate(&puzzle, engine, &shared.stop) else {
            continue;
        };
        let time = match total {
            Some(s) => format!("about {} with {}", human_secs(s), plural(threads, "thread")),
            None => "its time unknown (no measurable share of the tree done yet)".to_string(),
        };
        note(format_args!(
            "sudoku-enum: {source}: a long count: {} solutions ({}), {time}, judged after {:.0} \
             s; counting on (Ctrl-C stops it and prints the count so far)",
            about(est.solutions),
            ci(est.ci95),
            started.elapsed().as_secs_f64()
        ));
    }
}

/// Knuth's estimate with a tenth of `estimate`'s probes, on a thread of its own (the count's
/// workers are busy); `None` when stopped or invalid.
fn quick_estimate(
    puzzle: &Puzzle,
    engine: EngineChoice,
    stop: &Cancel,
) -> Option<estimate::Estimate> {
    let options = EstimateOptions {
        samples: estimate::DEFAULT_SAMPLES / 10,
        seed: 0,
        strata: estimate::DEFAULT_STRATA / 4,
        engine,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(sudoku_enum::SEARCH_STACK)
        .build()
        .ok()?;
    pool.install(|| estimate::estimate_with(puzzle, &options, None, Some(stop)))
        .ok()
}
