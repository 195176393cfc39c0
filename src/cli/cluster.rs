//! Spreading one count over many processes or machines: `split` cuts a puzzle into disjoint
//! parts, `count --json` counts each part anywhere, and `merge` checks that every part was
//! counted exactly once and completely before adding the counts up. `estimate` predicts the
//! count and the run time without searching.
//!
//! The parts file: for each puzzle a comment header
//! `# split of=ID box=RxC parts=K source=FILE:LINE puzzle=LINE`, then one part per line,
//! `PART part=I/K of=ID box=RxC`, where `PART` is an ordinary one-line puzzle (the puzzle
//! readers ignore the tags after it) and `ID` is 16 hex digits naming the original puzzle (a
//! hash of its box shape and line).

use super::{display_name, exit, open_input, CANCEL};
use clap::{ArgGroup, Args};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use sudoku_enum::estimate::{self, EstimateError, EstimateOptions};
use sudoku_enum::parse::{ParseOptions, Parsed, ReadError, Reader};
use sudoku_enum::partition::{self, Part};
use sudoku_enum::{count, EngineChoice, Options, Puzzle, Shape};

use super::args::{parse_shape, EngineArg};

/// `split` arguments.
#[derive(Debug, Args, Clone)]
#[command(group(ArgGroup::new("how").required(true).args(["parts", "depth"])))]
pub struct SplitArgs {
    /// Puzzle files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Cut each puzzle into about K parts of similar estimated work (at least K where the tree
    /// allows; the last cut may add a few).
    #[arg(short = 'k', long, value_name = "K")]
    pub parts: Option<usize>,
    /// Cut each puzzle after D branch decisions instead (every surviving node is a part).
    #[arg(long, value_name = "D")]
    pub depth: Option<usize>,
    /// Box shape RxC; inferred from the puzzle size when absent.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape)]
    pub box_shape: Option<Shape>,
    /// Worker threads for the work estimates (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Engine for 9x9 puzzles (its tree is the one cut).
    #[arg(long, value_enum, default_value = "auto", hide = true)]
    pub engine: EngineArg,
}

/// `estimate` arguments.
#[derive(Debug, Args, Clone)]
pub struct EstimateArgs {
    /// Puzzle files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Random probes per puzzle.
    #[arg(short = 's', long, value_name = "S", default_value_t = estimate::DEFAULT_SAMPLES)]
    pub samples: u64,
    /// Seed of the random probes (the same seed gives the same estimate).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Pieces the top of the tree is expanded into before probing (1: Knuth's plain estimator).
    #[arg(long, value_name = "N", default_value_t = estimate::DEFAULT_STRATA)]
    pub strata: usize,
    /// Seconds of real counting used to measure the node rate (0: skip the prediction).
    #[arg(long, value_name = "SECS", default_value_t = 0.2, value_parser = parse_secs0)]
    pub calibrate: f64,
    /// Box shape RxC; inferred from the puzzle size when absent.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape)]
    pub box_shape: Option<Shape>,
    /// Worker threads for the probes; the prediction is also given for this many.
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// JSON Lines output: one object per puzzle.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Engine for 9x9 puzzles.
    #[arg(long, value_enum, default_value = "auto", hide = true)]
    pub engine: EngineArg,
}

/// `merge` arguments.
#[derive(Debug, Args, Clone)]
pub struct MergeArgs {
    /// JSON Lines from `count --json` on the parts; standard input when none is given or for `-`.
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    /// The parts file written by `split` (the reference: every part must have one complete
    /// result).
    #[arg(long, value_name = "PARTS_FILE")]
    pub parts: PathBuf,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

fn parse_secs0(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..1e6).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds")),
    }
}

fn set_threads(threads: Option<usize>) -> Result<usize, String> {
    let n = super::thread_count(threads);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .map_err(|e| format!("cannot start {n} worker threads: {e}"))?;
    Ok(n)
}

/// The 16-hex-digit id of a puzzle: FNV-1a (64 bits) of `RxC LINE`.
pub fn puzzle_id(p: &Puzzle) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{} {}", p.shape(), p.to_line()).bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A progress bar for a counter, drawn only after about a second, only on a terminal.
struct Bar {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Bar {
    /// `len`: the counter's end (a spinner without). `message` is shown beside the count.
    fn start(quiet: bool, counter: Arc<AtomicU64>, len: Option<u64>, message: String) -> Bar {
        let stop = Arc::new(AtomicBool::new(false));
        if !super::progress::enabled(quiet) {
            return Bar { stop, handle: None };
        }
        let stop2 = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let mut bar: Option<ProgressBar> = None;
            while !stop2.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if started.elapsed() < Duration::from_millis(900) {
                    continue;
                }
                let b = bar.get_or_insert_with(|| {
                    let b =
                        ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr_with_hz(10));
                    let template = if len.is_some() {
                        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} (ETA {eta})"
                    } else {
                        "{spinner} [{elapsed_precise}] {human_pos} {msg}"
                    };
                    if let Ok(style) = ProgressStyle::with_template(template) {
                        b.set_style(style);
                    }
                    b.set_message(message.clone());
                    b.enable_steady_tick(Duration::from_millis(200));
                    b
                });
                b.set_position(counter.load(Relaxed));
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        Bar {
            stop,
            handle: Some(handle),
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Read every puzzle of the inputs, calling `each(source, puzzle)`; unreadable records and
/// files are reported on stderr. Returns the number of read errors.
fn for_each_puzzle(
    files: &[PathBuf],
    shape: Option<Shape>,
    mut each: impl FnMut(String, Puzzle) -> Result<(), io::Error>,
) -> Result<u64, io::Error> {
    let files = if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    let mut errors = 0;
    for path in &files {
        let name = display_name(path);
        let input = match open_input(path) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("sudoku-enum: {name}: {e}");
                errors += 1;
                continue;
            }
        };
        let options = ParseOptions {
            shape,
            ..ParseOptions::default()
        };
        let mut seen = false;
        for item in Reader::new(input, options) {
            match item {
                Ok(Parsed { line, puzzle }) => {
                    seen = true;
                    each(format!("{name}:{line}"), puzzle)?;
                }
                Err(ReadError::Parse(e)) => {
                    seen = true;
                    eprintln!("sudoku-enum: {name}:{}:{}: {}", e.line, e.column, e.kind);
                    errors += 1;
                }
                Err(ReadError::Io(e)) => {
                    eprintln!("sudoku-enum: {name}: read error: {e}");
                    errors += 1;
                    break;
                }
            }
            if CANCEL.is_cancelled() {
                return Ok(errors);
            }
        }
        if !seen {
            eprintln!("sudoku-enum: {name}: no puzzle found");
            errors += 1;
        }
    }
    Ok(errors)
}

fn finish(result: Result<u8, io::Error>) -> u8 {
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            eprintln!("sudoku-enum: cannot write output: {e}");
            exit::ERROR
        }
    }
}

/// `sudoku-enum split`.
pub fn split(args: SplitArgs) -> u8 {
    if let Err(m) = set_threads(args.threads) {
        eprintln!("sudoku-enum: {m}");
        return exit::ERROR;
    }
    if args.parts == Some(0) {
        eprintln!("sudoku-enum: --parts must be at least 1");
        return exit::ERROR;
    }
    let engine = EngineChoice::from(args.engine);
    let counter = Arc::new(AtomicU64::new(0));
    let _bar = Bar::start(
        args.quiet,
        Arc::clone(&counter),
        None,
        "nodes expanded".to_string(),
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut failed = false;
    let result = for_each_puzzle(&args.files, args.box_shape, |source, puzzle| {
        let id = puzzle_id(&puzzle);
        if let Some(first) = seen.get(&id) {
            eprintln!("sudoku-enum: {source}: the same puzzle as {first}; its parts are there");
            return Ok(());
        }
        seen.insert(id.clone(), source.clone());
        let parts: Result<Vec<Part>, _> = match (args.parts, args.depth) {
            (_, Some(d)) => partition::split_depth(&puzzle, d, engine, Some(&counter)),
            (k, None) => partition::split(&puzzle, k.unwrap_or(1), engine, Some(&counter)),
        };
        let parts = match parts {
            Ok(p) => p,
            Err(c) => {
                eprintln!("sudoku-enum: {source}: invalid: {c}; no parts");
                failed = true;
                return Ok(());
            }
        };
        let shape = puzzle.shape();
        writeln!(
            out,
            "# split of={id} box={shape} parts={} source={source} puzzle={}",
            parts.len(),
            puzzle.to_line()
        )?;
        let k = parts.len();
        for (i, part) in parts.iter().enumerate() {
            writeln!(
                out,
                "{} part={}/{k} of={id} box={shape}",
                part.puzzle.to_line(),
                i + 1
            )?;
        }
        out.flush()
    });
    drop(_bar);
    finish(result.map(|errors| super::exit_for(errors > 0, failed)))
}

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
pub fn estimate(args: EstimateArgs) -> u8 {
    let threads = match set_threads(args.threads) {
        Ok(n) => n,
        Err(m) => {
            eprintln!("sudoku-enum: {m}");
            return exit::ERROR;
        }
    };
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
    let result = for_each_puzzle(&args.files, args.box_shape, |source, puzzle| {
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
                        json!({"source": source, "puzzle": puzzle.to_line(),
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
            m.insert("puzzle".into(), json!(puzzle.to_line()));
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
                format!("{source}: exactly {} solutions", est.solutions)
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
                line += &format!("; counted exactly: {n} solutions");
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
        out.flush()
    });
    finish(result.map(|errors| super::exit_for(errors > 0, failed)))
}

/// One part of the parts file.
struct PartLine {
    /// `FILE:LINE` in the parts file.
    at: String,
    /// `I/K`.
    tag: String,
    /// The original's id.
    of: String,
    box_shape: Option<String>,
    puzzle: String,
    /// The result found for it: (solutions, where).
    result: Option<(u128, String)>,
    /// An incomplete result was seen for it (reported already).
    incomplete: bool,
}

/// One original puzzle of the parts file.
struct Original {
    id: String,
    header: Option<String>,
    /// Parts announced (`K` of `I/K`, or `parts=` of the header).
    announced: Option<usize>,
    parts: Vec<usize>,
}

/// The tags `key=value` after a part's grid.
fn tags(rest: &[&str]) -> HashMap<String, String> {
    rest.iter()
        .filter_map(|t| t.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Read the parts file: the parts (in file order) and the originals (in order of appearance).
fn read_parts(path: &Path) -> Result<(Vec<PartLine>, Vec<Original>), String> {
    let name = display_name(path);
    let input = open_input(path).map_err(|e| format!("{name}: {e}"))?;
    let mut parts = Vec::new();
    let mut originals: Vec<Original> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut original = |id: &str, originals: &mut Vec<Original>| -> usize {
        *index.entry(id.to_string()).or_insert_with(|| {
            originals.push(Original {
                id: id.to_string(),
                header: None,
                announced: None,
                parts: Vec::new(),
            });
            originals.len() - 1
        })
    };
    for (n, line) in input.split(b'\n').enumerate() {
        let line = line.map_err(|e| format!("{name}: read error: {e}"))?;
        let line = String::from_utf8_lossy(&line);
        let at = format!("{name}:{}", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            None => continue,
            Some(&"#") if words.get(1) == Some(&"split") => {
                let t = tags(&words[2..]);
                let Some(id) = t.get("of") else { continue };
                let o = original(id, &mut originals);
                let k = t.get("parts").and_then(|k| k.parse().ok());
                originals[o].announced = originals[o].announced.or(k);
                originals[o].header = Some(match (t.get("source"), t.get("puzzle")) {
                    (Some(s), _) => s.clone(),
                    (None, Some(p)) => p.clone(),
                    _ => id.clone(),
                });
            }
            Some(w) if w.starts_with('#') => continue,
            Some(&grid) => {
                let t = tags(&words[1..]);
                let (Some(tag), Some(of)) = (t.get("part"), t.get("of")) else {
                    return Err(format!(
                        "{at}: not a part line (expected PUZZLE part=I/K of=ID from split)"
                    ));
                };
                let k = tag
                    .split_once('/')
                    .and_then(|(_, k)| k.parse::<usize>().ok())
                    .ok_or_else(|| format!("{at}: bad part tag {tag:?} (expected I/K)"))?;
                let o = original(of, &mut originals);
                if let Some(a) = originals[o].announced {
                    if a != k {
                        return Err(format!(
                            "{at}: part {tag} of {of} disagrees with the {a} parts announced"
                        ));
                    }
                }
                originals[o].announced = Some(k);
                originals[o].parts.push(parts.len());
                parts.push(PartLine {
                    at,
                    tag: tag.clone(),
                    of: of.clone(),
                    box_shape: t.get("box").cloned(),
                    puzzle: grid.to_string(),
                    result: None,
                    incomplete: false,
                });
            }
        }
    }
    // Each original must list parts 1..=K once each.
    for o in &originals {
        let k = o.announced.unwrap_or(0);
        let mut have = vec![false; k];
        for &p in &o.parts {
            let i = parts[p]
                .tag
                .split_once('/')
                .and_then(|(i, _)| i.parse::<usize>().ok())
                .filter(|&i| (1..=k).contains(&i));
            match i {
                Some(i) if !have[i - 1] => have[i - 1] = true,
                _ => {
                    return Err(format!(
                        "{}: part {} of {} is out of range or listed twice in the parts file",
                        parts[p].at, parts[p].tag, o.id
                    ))
                }
            }
        }
        if let Some(i) = have.iter().position(|h| !h) {
            return Err(format!(
                "{name}: part {}/{k} of {} is not in the parts file (truncated?)",
                i + 1,
                o.id
            ));
        }
    }
    Ok((parts, originals))
}

/// The exact integer after `"key":` in a JSON line (serde_json's `Value` keeps only 64 bits).
fn exact_integer(line: &str, key: &str) -> Option<u128> {
    let pat = format!("\"{key}\":");
    let mut rest = line;
    while let Some(i) = rest.find(&pat) {
        let after = rest[i + pat.len()..].trim_start();
        let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
        let end = after[digits.len()..].trim_start().chars().next();
        if !digits.is_empty() && matches!(end, Some(',') | Some('}')) {
            return digits.parse().ok();
        }
        rest = &rest[i + pat.len()..];
    }
    None
}

/// `sudoku-enum merge`.
pub fn merge(args: MergeArgs) -> u8 {
    let (mut parts, originals) = match read_parts(&args.parts) {
        Ok(p) => p,
        Err(m) => {
            eprintln!("sudoku-enum: merge: {m}");
            return exit::ERROR;
        }
    };
    let mut by_grid: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, p) in parts.iter().enumerate() {
        by_grid.entry(p.puzzle.as_str()).or_default().push(i);
    }
    let by_grid: HashMap<String, Vec<usize>> = by_grid
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let counter = Arc::new(AtomicU64::new(0));
    let bar = Bar::start(
        args.quiet,
        Arc::clone(&counter),
        Some(parts.len() as u64),
        "results".to_string(),
    );
    let mut problems: Vec<String> = Vec::new();
    let files = if args.results.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.results.clone()
    };
    for path in &files {
        let name = display_name(path);
        let input = match open_input(path) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (n, line) in input.split(b'\n').enumerate() {
            let at = format!("{name}:{}", n + 1);
            let line = match line {
                Ok(l) => String::from_utf8_lossy(&l).into_owned(),
                Err(e) => {
                    problems.push(format!("{name}: read error: {e}"));
                    break;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            counter.fetch_add(1, Relaxed);
            if let Err(m) = take_result(&line, &at, &mut parts, &by_grid) {
                problems.push(m);
            }
        }
    }
    drop(bar);
    for p in &parts {
        if p.result.is_none() && !p.incomplete {
            problems.push(format!(
                "part {} of {} ({}, {}) has no result",
                p.tag, p.of, p.at, p.puzzle
            ));
        }
    }
    if !problems.is_empty() {
        const SHOWN: usize = 20;
        for m in problems.iter().take(SHOWN) {
            eprintln!("sudoku-enum: merge: {m}");
        }
        if problems.len() > SHOWN {
            eprintln!(
                "sudoku-enum: merge: ... and {} more problems",
                problems.len() - SHOWN
            );
        }
        eprintln!(
            "sudoku-enum: merge: refusing to add up: {} problem{} (every part needs exactly one \
             complete result)",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        );
        return exit::ERROR;
    }
    let per: Vec<(u128, usize)> = originals
        .iter()
        .map(|o| {
            let sum = o
                .parts
                .iter()
                .map(|&p| parts[p].result.as_ref().map_or(0, |r| r.0))
                .sum();
            (sum, o.parts.len())
        })
        .collect();
    let total: u128 = per.iter().map(|p| p.0).sum();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        let puzzles: Vec<Value> = originals
            .iter()
            .zip(&per)
            .map(|(o, (sum, k))| {
                json!({"of": o.id, "source": o.header, "solutions": sum, "parts": k})
            })
            .collect();
        writeln!(
            out,
            "{}",
            json!({"solutions": total, "parts": parts.len(), "complete": true, "puzzles": puzzles})
        )
    } else {
        let mut text = String::new();
        if originals.len() > 1 {
            for (o, (sum, k)) in originals.iter().zip(&per) {
                let label = o.header.clone().unwrap_or_else(|| o.id.clone());
                text += &format!("{label} (of={}): {sum} solutions ({k} parts)\n", o.id);
            }
        }
        text += &format!("total: {total} solutions ({} parts)\n", parts.len());
        out.write_all(text.as_bytes())
    };
    finish(written.map(|()| exit::OK))
}

/// Match one JSON result line to its part.
fn take_result(
    line: &str,
    at: &str,
    parts: &mut [PartLine],
    by_grid: &HashMap<String, Vec<usize>>,
) -> Result<(), String> {
    let v: Value =
        serde_json::from_str(line).map_err(|e| format!("{at}: not a JSON result line: {e}"))?;
    let source = v.get("source").and_then(Value::as_str).unwrap_or("?");
    if v.get("verdict").and_then(Value::as_str) == Some("error") {
        let msg = v.get("error").and_then(Value::as_str).unwrap_or("error");
        return Err(format!(
            "{at}: result for {source} is an error ({msg}); it belongs to no part"
        ));
    }
    let Some(grid) = v.get("puzzle").and_then(Value::as_str) else {
        return Err(format!(
            "{at}: no \"puzzle\" field (expected count --json output)"
        ));
    };
    let Some(candidates) = by_grid.get(grid) else {
        return Err(format!(
            "{at}: result for {source} ({grid}) belongs to no part of the parts file"
        ));
    };
    let rbox = v.get("box").and_then(Value::as_str);
    let candidates: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| match (&parts[i].box_shape, rbox) {
            (Some(b), Some(r)) => b == r,
            _ => true,
        })
        .collect();
    let Some(&first) = candidates.first() else {
        return Err(format!(
            "{at}: result for {source} was counted with box {} but its part has box {} \
             (pass --box to count)",
            rbox.unwrap_or("?"),
            by_grid[grid]
                .first()
                .and_then(|&i| parts[i].box_shape.clone())
                .unwrap_or_default()
        ));
    };
    let name = |i: usize, parts: &[PartLine]| {
        format!("part {} of {} ({})", parts[i].tag, parts[i].of, parts[i].at)
    };
    if v.get("complete").and_then(Value::as_bool) != Some(true) {
        let why = v
            .get("stopped")
            .and_then(Value::as_str)
            .unwrap_or("not complete");
        parts[first].incomplete = true;
        let again = match why {
            "interrupted" => "count it again (cancelled, or stopped at a time limit?)",
            _ => "count it again without --limit/--timeout",
        };
        return Err(format!(
            "{}: result {at} is incomplete ({why}); {again}",
            name(first, parts)
        ));
    }
    let n = match v.get("solutions") {
        Some(Value::Number(x)) => match x.as_u64() {
            Some(n) => Some(n as u128),
            // Beyond 64 bits `Value` keeps only an f64: read the digits themselves.
            None => exact_integer(line, "solutions")
                .filter(|&n| x.as_f64().is_some_and(|f| (n as f64 - f).abs() <= f * 1e-9)),
        },
        _ => None,
    };
    let Some(n) = n else {
        return Err(format!("{at}: no integer \"solutions\" field"));
    };
    match candidates.iter().find(|&&i| parts[i].result.is_none()) {
        Some(&i) => {
            parts[i].result = Some((n, at.to_string()));
            Ok(())
        }
        None => {
            let earlier = parts[first]
                .result
                .as_ref()
                .map_or(String::new(), |r| r.1.clone());
            Err(format!(
                "{}: duplicated: results at {earlier} and {at}",
                name(first, parts)
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_integers_survive() {
        let line = r#"{"source":"a:1","solutions":6670903752021072936960,"complete":true}"#;
        assert_eq!(
            exact_integer(line, "solutions"),
            Some(6_670_903_752_021_072_936_960)
        );
        assert_eq!(
            exact_integer(r#"{"solutions": 12 }"#, "solutions"),
            Some(12)
        );
        assert_eq!(
            exact_integer(r#"{"x":"\"solutions\":1x"}"#, "solutions"),
            None
        );
    }
}
