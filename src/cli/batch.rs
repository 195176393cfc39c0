//! `count`, `check` and `solve`: answer every puzzle of the inputs, in input order, one line
//! (or board) each, then the summary line. With several threads, chunks of puzzles are
//! answered in parallel and printed in order; a lone puzzle gets every thread and the detailed
//! progress bar.

use super::config::Config;
use super::estimate::LongWatch;
use super::input::{for_each_input, report_bad_in, InputErrors, Record, Records};
use super::progress::{self, note, Batch, TermOut, Ticker};
use super::report::{self, Answer, Job, Source, Summary};
use super::status::{exit_for, Fatal, CANCEL};
use rayon::prelude::*;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use sudoku_enum::parse::{Alphabet, ParseError};
use sudoku_enum::{search, setter, CollectSink, CountSink, Options, Progress, Puzzle, Verdict};

/// Records answered together by several workers (output stays in input order, memory stays
/// bounded); also how many records one worker answers between two flushes of the output.
const CHUNK: usize = 512;

/// Run `count`, `check` or `solve` over every puzzle of the inputs.
pub fn run(cfg: &Config) -> Result<u8, Fatal> {
    let started = Instant::now();
    let batch = Arc::new(Batch::default());
    let ticker = Ticker::start(
        progress::enabled(cfg.quiet, &cfg.files),
        Arc::clone(&batch),
        "solution",
    );
    let stdout = io::stdout();
    let mut printer = Printer {
        cfg,
        out: io::BufWriter::with_capacity(1 << 16, TermOut::new(stdout.lock())),
        summary: Summary::default(),
        stopped_strict: false,
    };
    // The search options of every puzzle but a lone one (built once: no handle is cloned per
    // puzzle).
    let options = cfg.options(cfg.limit, None);
    // Counts that turn out long are announced (estimated count and time), in a batch too.
    let long = LongWatch::start(
        cfg.job == Job::Count && cfg.limit.is_none() && !cfg.quiet,
        cfg.threads,
        cfg.engine,
    );
    let mut errors = InputErrors::new(cfg.strict);
    let live = io::stdout().is_terminal();
    for_each_input(&cfg.files, cfg.parse, &mut errors, |name, records| {
        let work = Work {
            cfg,
            options: &options,
            name,
            ticker: &ticker,
            batch: &batch,
            long: &long,
            live,
        };
        if cfg.threads <= 1 {
            work.one_by_one(records, &mut printer)
        } else {
            work.in_chunks(records, &mut printer)
        }
    })?;
    printer.out.flush()?;
    ticker.finish();
    let mut summary = printer.summary;
    summary.io_errors += errors.io;
    summary.unreadable += errors.empty;
    if !cfg.quiet {
        note(format_args!("{}", summary.line(cfg.job, started.elapsed())));
        if printer.stopped_strict {
            note(format_args!(
                "sudoku-enum: stopped at the first unreadable puzzle (--strict)"
            ));
        } else if errors.stopped {
            note(format_args!(
                "sudoku-enum: stopped at the first input in error (--strict)"
            ));
        }
    }
    Ok(exit_code(&summary))
}

/// Answering the records of one input.
struct Work<'a> {
    cfg: &'a Config,
    /// The search options of every puzzle but a lone one.
    options: &'a Options,
    /// The input's name for sources and messages.
    name: &'a str,
    ticker: &'a Ticker,
    batch: &'a Batch,
    /// The watch over counts that turn out long.
    long: &'a LongWatch,
    /// Stdout is a terminal: flush after every answer.
    live: bool,
}

impl<'a> Work<'a> {
    /// One worker: each record is answered and printed as soon as it is read, so nothing is
    /// kept and a puzzle's memory is reused by the next one.
    fn one_by_one<W: Write>(
        &self,
        records: &mut Records,
        printer: &mut Printer<'_, W>,
    ) -> Result<ControlFlow<()>, Fatal> {
        let mut count = 0;
        while let Some(record) = records.next() {
            // A lone puzzle gets the detailed bar (tree fraction, ETA).
            let single = count == 0 && records.lone();
            count += 1;
            let answered = self.answer(record, single);
            if printer.print(self.name, &answered)?.is_break() || CANCEL.is_cancelled() {
                return Ok(ControlFlow::Break(()));
            }
            // On a terminal each answer shows as soon as it is found; elsewhere once the
            // input waits (a slow writer gets each answer as its puzzle comes).
            if count % CHUNK == 0 || self.live || !records.ready() {
                printer.out.flush()?;
            }
        }
        printer.out.flush()?;
        Ok(ControlFlow::Continue(()))
    }

    /// Several workers: chunks of records are answered in parallel, then printed in order. A
    /// chunk ends where the input waits, so that what was read so far is answered meanwhile.
    fn in_chunks<W: Write>(
        &self,
        records: &mut Records,
        printer: &mut Printer<'_, W>,
    ) -> Result<ControlFlow<()>, Fatal> {
        loop {
            let chunk = records.take_ready(CHUNK);
            if chunk.is_empty() {
                return Ok(ControlFlow::Continue(()));
            }
            // A lone puzzle gets the detailed bar (tree fraction, ETA), and all the workers.
            let answers: Vec<Answered<'a>> = if chunk.len() == 1 {
                chunk.into_iter().map(|r| self.answer(r, true)).collect()
            } else {
                sudoku_enum::start_global_pool(self.cfg.threads);
                chunk
                    .into_par_iter()
                    .map(|r| self.answer(r, false))
                    .collect()
            };
            for a in answers {
                if printer.print(self.name, &a)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            printer.out.flush()?;
            if CANCEL.is_cancelled() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }

    /// Answer one record; a `single` puzzle is followed by the detailed progress bar.
    fn answer(&self, record: Record, single: bool) -> Answered<'a> {
        let (line, puzzle, alphabet) = match record {
            Record::Bad(e) => return Err(e),
            Record::Puzzle(line, puzzle, alphabet) => (line, puzzle, alphabet),
        };
        let alphabet = self.cfg.out_alphabet_for(&puzzle, alphabet);
        let (cfg, ticker) = (self.cfg, self.ticker);
        let source = Source {
            name: self.name,
            line,
        };
        let source_text = || format!("{}:{line}", self.name);
        let a = if single {
            let progress = Progress::new();
            ticker.watch(progress.clone());
            let registered = self.long.begin(&puzzle, source_text, &progress);
            let options = cfg.options(cfg.limit, Some(progress));
            let a = answer(cfg, source, puzzle, alphabet, &options);
            drop(registered);
            ticker.unwatch();
            a
        } else if self.long.is_on() {
            let progress = Progress::new();
            let registered = self.long.begin(&puzzle, source_text, &progress);
            let options = Options {
                progress: Some(progress),
                ..self.options.clone()
            };
            let a = answer(cfg, source, puzzle, alphabet, &options);
            drop(registered);
            a
        } else {
            answer(cfg, source, puzzle, alphabet, self.options)
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
                self.summary.add(cfg.job, &a.outcome);
                emit(cfg, &mut self.out, a)?;
            }
            Err(e) => {
                self.summary.unreadable += 1;
                // `solve` prints a line for every record, so that its output stays aligned
                // with its input: the seeds' "Invalid input" for one it could not read.
                if cfg.job == Job::Solve && !cfg.json {
                    writeln!(self.out, "{}", report::unreadable_text(e, cfg.layout))?;
                }
                report_bad_in(&mut self.out, name, e, cfg.json)?;
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
pub fn exit_code(s: &Summary) -> u8 {
    exit_for(s.io_errors > 0 || s.unreadable > 0, s.failed > 0)
}

type Answered<'a> = Result<Answer<'a>, ParseError>;

/// Search one puzzle for count, check or solve.
fn answer<'a>(
    cfg: &Config,
    source: Source<'a>,
    puzzle: Puzzle,
    alphabet: Alphabet,
    options: &Options,
) -> Answer<'a> {
    // Only JSON prints the time, and reading the clock twice a puzzle shows in big batches.
    let started = cfg.json.then(Instant::now);
    let (mut outcome, solution) = if cfg.job == Job::Solve {
        let mut sink = CollectSink::default();
        let o = search(&puzzle, options, &mut sink);
        (o, sink.solutions.into_iter().next())
    } else {
        (search(&puzzle, options, &mut CountSink), None)
    };
    outcome.conflict = report::clash_in(outcome.conflict.take(), &puzzle, alphabet);
    // The singles rating knows rows, columns and boxes only: none for variants.
    let report = (cfg.explain || cfg.minimal) && outcome.conflict.is_none();
    let rating = report
        .then(|| setter::rate(&puzzle).map(Box::new))
        .flatten();
    let minimality = (cfg.minimal && outcome.conflict.is_none()).then(|| {
        if outcome.verdict() == Verdict::Unique {
            setter::minimality_with(&puzzle, options)
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
        alphabet,
    }
}

fn emit(cfg: &Config, out: &mut impl Write, a: &Answer<'_>) -> io::Result<()> {
    if cfg.json {
        writeln!(
            out,
            "{}",
            report::json(cfg.job, a, cfg.limit.filter(|_| cfg.job == Job::Count))
        )
    } else {
        report::write_text(out, cfg.job, a, cfg.layout, cfg.explain)
    }
}
