//! The binary's glue: arguments → config → batch loop over inputs → output and exit code.

pub mod args;
mod cluster;
mod dump;
mod explain;
pub mod progress;
pub mod report;

use args::{Cli, Command, Common};
use progress::{Batch, Ticker};
use rayon::prelude::*;
use report::{Answer, Mode, Source, Summary};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};
use sudoku_enum::format::Layout;
use sudoku_enum::parse::{ParseError, ParseOptions, Parsed, ReadError, Reader};
use sudoku_enum::{
    search, setter, Cancel, CollectSink, CountBy, CountSink, EngineChoice, Options, Progress,
    Puzzle,
};

/// Cancelled by the Ctrl-C / SIGTERM handler; every search holds it.
pub static CANCEL: LazyLock<Cancel> = LazyLock::new(Cancel::new);

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
    /// How count-only searches count.
    pub count_by: CountBy,
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
            count_by: CountBy::Auto,
            limit,
            explain: false,
            minimal: false,
        }
    }

    /// The search options for one puzzle: stop at `limit`, report to `progress` if given.
    fn options(&self, limit: Option<u64>, progress: Option<Progress>) -> Options {
        Options {
            threads: self.threads,
            limit,
            timeout: self.timeout,
            deadline: None,
            cancel: Some(CANCEL.clone()),
            progress,
            engine: self.engine,
            count_by: self.count_by,
        }
    }
}

/// Run the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> u8 {
    let (config, dump_args) = match cli.command {
        Command::Count {
            common,
            limit,
            count_by,
        } => {
            let mut config = Config::new(Mode::Count, common, limit);
            config.count_by = count_by.into();
            (config, None)
        }
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

/// A record of a batch: a puzzle and its line, or a record that could not be read.
enum Record {
    Puzzle(usize, Puzzle),
    Bad(ParseError),
}

/// Records answered together by several workers (output stays in input order, memory stays
/// bounded); also how many records one worker answers between two flushes of the output.
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
    let mut printer = Printer {
        cfg,
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        summary: Summary::default(),
        stopped_strict: false,
    };
    for path in &cfg.files {
        if run_file(cfg, path, &mut printer, &ticker, &batch)?.is_break() {
            break;
        }
    }
    printer.out.flush()?;
    ticker.finish();
    let summary = printer.summary;
    if !cfg.quiet {
        eprintln!("{}", summary.line(cfg.mode, started.elapsed()));
        if printer.stopped_strict {
            eprintln!("sudoku-enum: stopped at the first unreadable puzzle (--strict)");
        }
    }
    Ok(exit_code(&summary))
}

/// Answer every record of one input; `Break` when the whole run must stop (--strict, Ctrl-C).
fn run_file<W: Write>(
    cfg: &Config,
    path: &Path,
    printer: &mut Printer<'_, W>,
    ticker: &Ticker,
    batch: &Batch,
) -> Result<ControlFlow<()>, Fatal> {
    let name = display_name(path);
    let input = match open_input(path) {
        Ok(r) => r,
        Err(e) => {
            printer.out.flush()?;
            eprintln!("sudoku-enum: {name}: {e}");
            printer.summary.io_errors += 1;
            return Ok(ControlFlow::Continue(()));
        }
    };
    let mut reader = Reader::new(input, cfg.parse);
    let work = Work {
        cfg,
        options: &cfg.options(cfg.limit, None),
        name: &name,
        ticker,
        batch,
    };
    let end = if cfg.threads <= 1 {
        work.one_by_one(&mut reader, printer)?
    } else {
        work.in_chunks(&mut reader, printer)?
    };
    match end {
        FileEnd::Stop => return Ok(ControlFlow::Break(())),
        FileEnd::ReadError(e) => {
            printer.out.flush()?;
            eprintln!("sudoku-enum: {name}: read error: {e}");
            printer.summary.io_errors += 1;
        }
        FileEnd::Done { seen_any: false } => {
            printer.out.flush()?;
            eprintln!("sudoku-enum: {name}: no puzzle found");
            printer.summary.unreadable += 1;
        }
        FileEnd::Done { seen_any: true } => {}
    }
    Ok(ControlFlow::Continue(()))
}

/// How the records of an input ran out.
enum FileEnd {
    /// At the end of the input.
    Done { seen_any: bool },
    /// At a read error (after answering every record before it).
    ReadError(io::Error),
    /// The whole run stops here (--strict, Ctrl-C).
    Stop,
}

/// The next record of an input, or the I/O error that ends it.
fn next_record<R: BufRead>(reader: &mut Reader<R>) -> Option<io::Result<Record>> {
    Some(match reader.next()? {
        Ok(Parsed { line, puzzle }) => Ok(Record::Puzzle(line, puzzle)),
        Err(ReadError::Parse(e)) => Ok(Record::Bad(e)),
        Err(ReadError::Io(e)) => Err(e),
    })
}

/// Up to [`CHUNK`] records, and the I/O error that ended the input, if one did.
fn read_chunk<R: BufRead>(reader: &mut Reader<R>) -> (Vec<Record>, Option<io::Error>) {
    let mut chunk = Vec::with_capacity(CHUNK);
    while let Some(item) = next_record(reader) {
        match item {
            Ok(record) => chunk.push(record),
            Err(e) => return (chunk, Some(e)),
        }
        if chunk.len() >= CHUNK {
            break;
        }
    }
    (chunk, None)
}

/// Answering the records of one input.
struct Work<'a> {
    cfg: &'a Config,
    /// The search options of every puzzle but a lone one (built once: no handle is cloned
    /// per puzzle).
    options: &'a Options,
    /// The input's name for sources and messages.
    name: &'a str,
    ticker: &'a Ticker,
    batch: &'a Batch,
}

impl<'a> Work<'a> {
    /// One worker: each record is answered and printed as soon as it is read, so nothing is
    /// kept and a puzzle's memory is reused by the next one.
    fn one_by_one<R: BufRead, W: Write>(
        &self,
        reader: &mut Reader<R>,
        printer: &mut Printer<'_, W>,
    ) -> Result<FileEnd, Fatal> {
        let mut records = std::iter::from_fn(|| next_record(reader)).peekable();
        let mut count = 0;
        while let Some(item) = records.next() {
            let record = match item {
                Ok(record) => record,
                Err(e) => return Ok(FileEnd::ReadError(e)),
            };
            // A lone puzzle gets the detailed bar (tree fraction, ETA).
            let single = count == 0 && records.peek().is_none();
            count += 1;
            let answered = self.answer(record, single);
            if printer.print(self.name, &answered)?.is_break() || CANCEL.is_cancelled() {
                return Ok(FileEnd::Stop);
            }
            if count % CHUNK == 0 {
                printer.out.flush()?;
            }
        }
        printer.out.flush()?;
        Ok(FileEnd::Done {
            seen_any: count > 0,
        })
    }

    /// Several workers: chunks of records are answered in parallel, then printed in order.
    fn in_chunks<R: BufRead, W: Write>(
        &self,
        reader: &mut Reader<R>,
        printer: &mut Printer<'_, W>,
    ) -> Result<FileEnd, Fatal> {
        let mut seen_any = false;
        loop {
            let (chunk, io_error) = read_chunk(reader);
            if chunk.is_empty() && io_error.is_none() {
                return Ok(FileEnd::Done { seen_any });
            }
            seen_any |= !chunk.is_empty();
            // A lone puzzle gets the detailed bar (tree fraction, ETA), and all the workers.
            let answers: Vec<Answered<'a>> = if chunk.len() == 1 {
                chunk.into_iter().map(|r| self.answer(r, true)).collect()
            } else {
                chunk
                    .into_par_iter()
                    .map(|r| self.answer(r, false))
                    .collect()
            };
            for a in answers {
                if printer.print(self.name, &a)?.is_break() {
                    return Ok(FileEnd::Stop);
                }
            }
            printer.out.flush()?;
            if let Some(e) = io_error {
                return Ok(FileEnd::ReadError(e));
            }
            if CANCEL.is_cancelled() {
                return Ok(FileEnd::Stop);
            }
        }
    }

    /// Answer one record; a `single` puzzle is followed by the detailed progress bar.
    fn answer(&self, record: Record, single: bool) -> Answered<'a> {
        let (line, puzzle) = match record {
            Record::Bad(e) => return Err(e),
            Record::Puzzle(line, puzzle) => (line, puzzle),
        };
        let (cfg, ticker) = (self.cfg, self.ticker);
        let source = Source {
            name: self.name,
            line,
        };
        let a = if single {
            let progress = Progress::new();
            ticker.watch(progress.clone());
            let a = answer(cfg, source, puzzle, &cfg.options(cfg.limit, Some(progress)));
            ticker.unwatch();
            a
        } else {
            answer(cfg, source, puzzle, self.options)
        };
        // Only the ticker reads these counters.
        if ticker.is_running() {
            let batch = self.batch;
            batch.puzzles.fetch_add(1, Relaxed);
            batch
                .solutions
                .fetch_add(a.outcome.solutions.min(u64::MAX as u128) as u64, Relaxed);
        }
        Ok(a)
    }
}

/// Where the answers of a batch go, and what they add up to.
struct Printer<'c, W: Write> {
    cfg: &'c Config,
    out: W,
    summary: Summary,
    stopped_strict: bool,
}

impl<W: Write> Printer<'_, W> {
    /// Print one answer, or report a record of input `name` that could not be read;
    /// `Break` when --strict stops the run there.
    fn print(&mut self, name: &str, item: &Answered<'_>) -> Result<ControlFlow<()>, Fatal> {
        let cfg = self.cfg;
        match item {
            Ok(a) => {
                self.summary.add(cfg.mode, &a.outcome);
                emit(cfg, &mut self.out, a)?;
            }
            Err(e) => {
                self.summary.unreadable += 1;
                let source = format!("{name}:{}:{}", e.line, e.column);
                let msg = e.kind.to_string();
                if cfg.json {
                    writeln!(self.out, "{}", report::json_error(&source, &msg))?;
                }
                self.out.flush()?;
                eprintln!("sudoku-enum: {source}: {msg}");
                if cfg.strict {
                    self.stopped_strict = true;
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Exit code from the totals.
fn exit_code(s: &Summary) -> u8 {
    exit_for(s.io_errors > 0 || s.unreadable > 0, s.failed > 0)
}

/// The one rule for exit codes: errors beat interruption beats "does not hold".
pub fn exit_for(errors: bool, failed: bool) -> u8 {
    if errors {
        exit::ERROR
    } else if CANCEL.is_cancelled() {
        exit::INTERRUPTED
    } else if failed {
        exit::NO
    } else {
        exit::OK
    }
}

type Answered<'a> = Result<Answer<'a>, ParseError>;

/// Search one puzzle for count, check or solve.
fn answer<'a>(cfg: &Config, source: Source<'a>, puzzle: Puzzle, options: &Options) -> Answer<'a> {
    // Only JSON prints the time, and reading the clock twice a puzzle shows in big batches.
    let started = cfg.json.then(Instant::now);
    let (outcome, solution) = if cfg.mode == Mode::Solve {
        let mut sink = CollectSink::default();
        let o = search(&puzzle, options, &mut sink);
        (o, sink.solutions.into_iter().next())
    } else {
        (search(&puzzle, options, &mut CountSink), None)
    };
    let report = (cfg.explain || cfg.minimal) && outcome.conflict.is_none();
    let rating = report.then(|| Box::new(setter::rate(&puzzle)));
    let minimality = (cfg.minimal && outcome.conflict.is_none()).then(|| {
        if outcome.verdict() == sudoku_enum::Verdict::Unique {
            setter::minimality(&puzzle)
        } else {
            None
        }
    });
    Answer {
        source,
        puzzle,
        outcome,
        solution,
        elapsed: started.map_or(Duration::ZERO, |t| t.elapsed()),
        rating,
        minimality,
    }
}

fn emit(cfg: &Config, out: &mut impl Write, a: &Answer<'_>) -> io::Result<()> {
    if cfg.json {
        writeln!(
            out,
            "{}",
            report::json(cfg.mode, a, cfg.limit.filter(|_| cfg.mode == Mode::Count))
        )
    } else {
        report::write_text(out, cfg.mode, a, cfg.layout, cfg.explain)
    }
}
