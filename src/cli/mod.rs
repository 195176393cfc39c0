//! The binary's glue: arguments → config → batch loop over inputs → output and exit code.

pub mod args;
mod cluster;
mod dump;
pub mod progress;
pub mod report;

use args::{Cli, Command, Common};
use progress::{Batch, Ticker};
use rayon::prelude::*;
use report::{Answer, Mode, Summary};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use sudoku_enum::format::Layout;
use sudoku_enum::parse::{ParseOptions, Parsed, ReadError, Reader};
use sudoku_enum::sink::{CollectSink, CountSink};
use sudoku_enum::{rate, search, EngineChoice, Options, Puzzle, Shared};

/// Set by the Ctrl-C / SIGTERM handler; every search polls it.
pub static CANCEL: AtomicBool = AtomicBool::new(false);

/// Exit codes (documented in `--help` and the README).
pub mod exit {
    /// The answer asked for holds.
    pub const OK: u8 = 0;
    /// It does not (not unique, no solution, invalid, timed out).
    pub const NO: u8 = 1;
    /// Usage, input or I/O error.
    pub const ERROR: u8 = 2;
    /// Interrupted.
    pub const INTERRUPTED: u8 = 130;
}

/// A failure that ends the run (exit code 2), or a closed stdout (quiet exit 0).
#[derive(Debug)]
pub enum Fatal {
    /// Standard output was closed by the reader (`| head`): stop quietly, like ripgrep.
    BrokenPipe,
    /// Anything else: printed as `sudoku-enum: {0}`.
    Message(String),
}

impl From<io::Error> for Fatal {
    fn from(e: io::Error) -> Fatal {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fatal::BrokenPipe
        } else {
            Fatal::Message(format!("cannot write output: {e}"))
        }
    }
}

/// Settings shared by the subcommands.
pub struct Config {
    /// The job.
    pub mode: Mode,
    /// Inputs (`-` = stdin).
    pub files: Vec<PathBuf>,
    /// Worker threads.
    pub threads: usize,
    /// JSON Lines.
    pub json: bool,
    /// Layout of printed boards.
    pub layout: Layout,
    /// Parser settings.
    pub parse: ParseOptions,
    /// No bars, no summary.
    pub quiet: bool,
    /// Per-puzzle time limit.
    pub timeout: Option<Duration>,
    /// Stop at the first unreadable record.
    pub strict: bool,
    /// Engine choice.
    pub engine: EngineChoice,
    /// Solution limit per puzzle.
    pub limit: Option<u64>,
    /// `check --explain`: the setter's report.
    pub explain: bool,
    /// `check --minimal`: are all givens needed?
    pub minimal: bool,
}

impl Config {
    fn new(mode: Mode, common: Common, limit: Option<u64>) -> Config {
        let threads = thread_count(common.threads);
        let files = if common.files.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            common.files
        };
        Config {
            mode,
            files,
            threads,
            json: common.json,
            layout: common.format,
            parse: ParseOptions {
                shape: common.box_shape,
                ..ParseOptions::default()
            },
            quiet: common.quiet,
            timeout: common.timeout.map(Duration::from_secs_f64),
            strict: common.strict,
            engine: common.engine.into(),
            limit,
            explain: false,
            minimal: false,
        }
    }

    fn options(&self) -> Options {
        Options {
            threads: self.threads,
            engine: self.engine,
        }
    }

    fn shared(&self, limit: Option<u64>) -> Shared {
        Shared::new(limit)
            .with_cancel(&CANCEL)
            .with_deadline(self.timeout.map(|t| Instant::now() + t))
    }
}

/// Run the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> u8 {
    let (config, dump_args) = match cli.command {
        Command::Count { common, limit } => (Config::new(Mode::Count, common, limit), None),
        Command::Check {
            common,
            explain,
            minimal,
        } => {
            let mut config = Config::new(Mode::Check, common, Some(2));
            config.explain = explain;
            config.minimal = minimal;
            (config, None)
        }
        Command::Solve { common } => (Config::new(Mode::Solve, common, Some(2)), None),
        Command::Dump {
            common,
            max,
            output,
            force,
            ordered,
        } => (
            Config::new(Mode::Dump, common, max),
            Some((output, force, ordered)),
        ),
        Command::Split(args) => return cluster::split(args),
        Command::Merge(args) => return cluster::merge(args),
        Command::Estimate(args) => return cluster::estimate(args),
    };
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build_global()
    {
        eprintln!(
            "sudoku-enum: cannot start {} worker threads: {e}",
            config.threads
        );
        return exit::ERROR;
    }
    let result = match dump_args {
        Some((output, force, ordered)) => dump::run(&config, output.as_deref(), force, ordered),
        None => run_batch(&config),
    };
    match result {
        Ok(code) => code,
        Err(Fatal::BrokenPipe) => exit::OK,
        Err(Fatal::Message(m)) => {
            eprintln!("sudoku-enum: {m}");
            exit::ERROR
        }
    }
}

/// The worker count: as asked, or every core.
pub fn thread_count(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Name of an input for messages: the path, or `<stdin>`.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Open an input for reading (`-` = stdin).
pub fn open_input(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    if path == Path::new("-") {
        Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin())))
    } else {
        let f = File::open(path)?;
        if f.metadata()?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        Ok(Box::new(BufReader::with_capacity(1 << 16, f)))
    }
}

/// A record of a batch: a puzzle, or a line that could not be read.
enum Record {
    Puzzle(String, Puzzle),
    Bad(String, String),
}

/// Puzzles answered together; output stays in input order, memory stays bounded.
const CHUNK: usize = 512;

fn run_batch(cfg: &Config) -> Result<u8, Fatal> {
    let started = Instant::now();
    let batch = Arc::new(Batch::default());
    let ticker = Ticker::start(
        progress::enabled(cfg.quiet),
        Arc::clone(&batch),
        "solutions",
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut summary = Summary::default();
    let mut stopped_strict = false;
    'files: for path in &cfg.files {
        let name = display_name(path);
        let input = match open_input(path) {
            Ok(r) => r,
            Err(e) => {
                out.flush()?;
                eprintln!("sudoku-enum: {name}: {e}");
                summary.io_errors += 1;
                continue;
            }
        };
        let mut reader = Reader::new(input, cfg.parse);
        let mut seen_any = false;
        let mut read_failed = false;
        loop {
            let mut chunk = Vec::with_capacity(CHUNK);
            let mut io_error = None;
            for item in reader.by_ref() {
                match item {
                    Ok(Parsed { line, puzzle }) => {
                        chunk.push(Record::Puzzle(format!("{name}:{line}"), puzzle))
                    }
                    Err(ReadError::Parse(e)) => chunk.push(Record::Bad(
                        format!("{name}:{}:{}", e.line, e.column),
                        e.kind.to_string(),
                    )),
                    Err(ReadError::Io(e)) => {
                        io_error = Some(e);
                        break;
                    }
                }
                if chunk.len() >= CHUNK {
                    break;
                }
            }
            if chunk.is_empty() && io_error.is_none() {
                break;
            }
            seen_any |= !chunk.is_empty();
            // A lone puzzle gets the detailed bar (tree fraction, ETA).
            let single = chunk.len() == 1;
            let answers = answer_chunk(cfg, chunk, single, &ticker, &batch);
            for item in answers {
                match item {
                    Ok(a) => {
                        summary.add(cfg.mode, &a.outcome);
                        emit(cfg, &mut out, &a)?;
                    }
                    Err((source, msg)) => {
                        summary.unreadable += 1;
                        if cfg.json {
                            writeln!(out, "{}", report::json_error(&source, &msg))?;
                        }
                        out.flush()?;
                        eprintln!("sudoku-enum: {source}: {msg}");
                        if cfg.strict {
                            stopped_strict = true;
                            break 'files;
                        }
                    }
                }
            }
            out.flush()?;
            if let Some(e) = io_error {
                eprintln!("sudoku-enum: {name}: read error: {e}");
                summary.io_errors += 1;
                read_failed = true;
                break;
            }
            if CANCEL.load(Relaxed) {
                break 'files;
            }
        }
        if !seen_any && !read_failed {
            out.flush()?;
            eprintln!("sudoku-enum: {name}: no puzzle found");
            summary.unreadable += 1;
        }
    }
    out.flush()?;
    ticker.finish();
    if !cfg.quiet {
        eprintln!("{}", summary.line(cfg.mode, started.elapsed()));
        if stopped_strict {
            eprintln!("sudoku-enum: stopped at the first unreadable puzzle (--strict)");
        }
    }
    Ok(exit_code(&summary))
}

/// Exit code from the totals.
fn exit_code(s: &Summary) -> u8 {
    exit_for(s.io_errors > 0 || s.unreadable > 0, s.failed > 0)
}

/// The one rule for exit codes: errors beat interruption beats "does not hold".
pub fn exit_for(errors: bool, failed: bool) -> u8 {
    if errors {
        exit::ERROR
    } else if CANCEL.load(Relaxed) {
        exit::INTERRUPTED
    } else if failed {
        exit::NO
    } else {
        exit::OK
    }
}

type Answered = Result<Answer, (String, String)>;

fn answer_chunk(
    cfg: &Config,
    chunk: Vec<Record>,
    single: bool,
    ticker: &Ticker,
    batch: &Batch,
) -> Vec<Answered> {
    let solve = |record: Record| -> Answered {
        match record {
            Record::Bad(source, msg) => Err((source, msg)),
            Record::Puzzle(source, puzzle) => {
                let shared = Arc::new(cfg.shared(cfg.limit));
                if single {
                    ticker.watch(Arc::clone(&shared));
                }
                let a = answer(cfg, source, puzzle, &shared);
                if single {
                    ticker.unwatch();
                }
                batch.puzzles.fetch_add(1, Relaxed);
                batch
                    .solutions
                    .fetch_add(a.outcome.solutions.min(u64::MAX as u128) as u64, Relaxed);
                Ok(a)
            }
        }
    };
    if cfg.threads <= 1 || chunk.len() <= 1 {
        chunk.into_iter().map(solve).collect()
    } else {
        chunk.into_par_iter().map(solve).collect()
    }
}

/// Search one puzzle for count, check or solve.
fn answer(cfg: &Config, source: String, puzzle: Puzzle, shared: &Shared) -> Answer {
    let started = Instant::now();
    let options = cfg.options();
    let (outcome, solution) = if cfg.mode == Mode::Solve {
        let first = Mutex::new(None::<Vec<u8>>);
        let o = search(
            &puzzle,
            &options,
            shared,
            |_| CollectSink::default(),
            |_, s: CollectSink| {
                let mut f = first.lock().unwrap_or_else(|e| e.into_inner());
                if f.is_none() {
                    *f = s.solutions.into_iter().next();
                }
            },
        );
        (o, first.into_inner().unwrap_or_else(|e| e.into_inner()))
    } else {
        (
            search(&puzzle, &options, shared, |_| CountSink, |_, _| {}),
            None,
        )
    };
    let report = (cfg.explain || cfg.minimal) && outcome.conflict.is_none();
    let rating = report.then(|| rate::rate(&puzzle));
    let minimality = (cfg.minimal && outcome.conflict.is_none()).then(|| {
        if outcome.verdict() == sudoku_enum::Verdict::Unique {
            rate::minimality(&puzzle)
        } else {
            None
        }
    });
    Answer {
        source,
        puzzle,
        outcome,
        solution,
        elapsed: started.elapsed(),
        rating,
        minimality,
    }
}

fn emit(cfg: &Config, out: &mut impl Write, a: &Answer) -> io::Result<()> {
    if cfg.json {
        writeln!(
            out,
            "{}",
            report::json(cfg.mode, a, cfg.limit.filter(|_| cfg.mode == Mode::Count))
        )
    } else {
        // Multi-line boards end with their own newline: the extra one separates puzzles.
        writeln!(
            out,
            "{}",
            report::text(cfg.mode, a, cfg.layout, cfg.explain)
        )
    }
}
