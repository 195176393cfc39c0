//! `estimate`: the solution count, tree size and count time of each puzzle by random probes
//! (Knuth 1975, see [`sudoku_enum::estimate`]), the time calibrated by short real counts.

use super::args::EstimateArgs;
use super::config::thread_count;
use super::input::for_each_puzzle;
use super::progress::Bar;
use super::report::plural;
use super::status::{exit_for, Fatal, CANCEL};
use indicatif::HumanCount;
use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};
use sudoku_enum::estimate::{self, EstimateError, EstimateOptions};
use sudoku_enum::{count, partition, EngineChoice, Options, Puzzle};

/// Seconds as a short human phrase: `0.42 s`, `3.1 h`, `2.0e9 years`.
fn human_secs(s: f64) -> String {
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

/// A count in 4 significant digits: `28200960` stays as is below 10^7, else `6.671e21`.
fn sci(x: f64) -> String {
    if x.abs() < 1e7 {
        format!("{}", x.round())
    } else {
        format!("{x:.3e}")
    }
}

/// Seconds the engine takes per estimated node ([`sudoku_enum::estimate::Estimate::nodes`]
/// units, which the engines may count differently), measured by counting for about `secs`:
/// first the whole puzzle (giving the exact count when that finishes in time), else random
/// sub-puzzles of known estimated size. `None` when nothing finished in time.
fn measure_speed(
    puzzle: &Puzzle,
    engine: EngineChoice,
    secs: f64,
    est_nodes: f64,
) -> (Option<f64>, Option<u128>) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(secs);
    let count_until = |p: &Puzzle, until: Instant| {
        let options = Options {
            deadline: Some(until),
            cancel: Some(CANCEL.clone()),
            engine,
            ..Options::default()
        };
        count(p, &options)
    };
    let whole = count_until(puzzle, started + Duration::from_secs_f64(secs / 2.0));
    if whole.complete() {
        let t = started.elapsed().as_secs_f64();
        return (Some(t / est_nodes.max(1.0)), Some(whole.solutions));
    }
    // Pieces meant to take about a twentieth of the time each at a typical speed.
    const TYPICAL_NODES_PER_S: f64 = 2e6;
    let max_nodes = (TYPICAL_NODES_PER_S * secs / 20.0).max(1000.0);
    let (mut time, mut nodes) = (0.0, 0.0);
    for seed in 0..1000 {
        if Instant::now() >= deadline {
            break;
        }
        for (p, size) in partition::timing_samples(puzzle, engine, max_nodes, 1, seed) {
            let t0 = Instant::now();
            if count_until(&p, deadline).complete() {
                time += t0.elapsed().as_secs_f64();
                nodes += size;
            }
        }
    }
    ((nodes > 0.0).then(|| time / nodes), None)
}

/// `sudoku-enum estimate`.
pub fn run(args: EstimateArgs) -> Result<u8, Fatal> {
    let threads = thread_count(args.threads);
    let engine = EngineChoice::from(args.engine);
    let options = EstimateOptions {
        samples: args.samples.max(1),
        seed: args.seed,
        strata: args.strata.max(1),
        engine,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
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
            let est = match est {
                Ok(e) => e,
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
            let (per_node, exact) = if args.calibrate > 0.0 && !est.exact {
                measure_speed(&puzzle, engine, args.calibrate, est.nodes)
            } else {
                (None, None)
            };
            let rate = per_node.filter(|&s| s > 0.0).map(|s| 1.0 / s);
            let predicted = per_node.map(|s| est.nodes * s);
            if args.json {
                let mut m = Map::new();
                m.insert("source".into(), json!(source));
                m.insert("puzzle".into(), json!(puzzle.to_text()));
                m.insert("box".into(), json!(puzzle.shape().to_string()));
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
                if let Some(n) = exact {
                    m.insert("counted".into(), json!(n));
                }
                if let Some(r) = rate {
                    m.insert("nodes_per_s".into(), json!(r.round()));
                }
                if let Some(p) = predicted {
                    m.insert("predicted_s".into(), json!(p));
                    m.insert("predicted_s_threads".into(), json!(p / threads as f64));
                    m.insert("threads".into(), json!(threads));
                }
                m.insert("time_ms".into(), json!((probe_secs * 1e6).round() / 1e3));
                writeln!(out, "{}", Value::Object(m))?;
            } else {
                let mut line = if est.exact {
                    format!("{source}: exactly {}", plural(est.solutions, "solution"))
                } else {
                    format!(
                        "{source}: about {} solutions (95% CI {} .. {}; {} probes), about {} nodes",
                        sci(est.solutions),
                        sci(est.ci95.0),
                        sci(est.ci95.1),
                        est.samples,
                        sci(est.nodes)
                    )
                };
                if let Some(n) = exact {
                    line += &format!("; counted exactly: {}", plural(n, "solution"));
                } else if let (Some(p), Some(r)) = (predicted, rate) {
                    line += &format!(
                    "; predicted count time {} serial, {} with {threads} threads (at {} nodes/s)",
                    human_secs(p),
                    human_secs(p / threads as f64),
                    HumanCount(r as u64)
                );
                }
                writeln!(out, "{line}")?;
            }
            Ok(out.flush()?)
        },
    )?;
    Ok(exit_for(errors > 0, failed))
}
