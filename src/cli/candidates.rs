//! `candidates`: the true candidates of every puzzle, as a pencil-mark grid or JSON Lines.

use super::config::Config;
use super::input::{for_each_input, report_bad_in, InputErrors, Record};
use super::progress::{self, note, Batch, TermOut, Ticker};
use super::report::millis;
use super::status::{exit_for, Fatal, CANCEL};
use rayon::prelude::*;
use serde_json::json;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use sudoku_enum::format::digit_char;
use sudoku_enum::parse::{Alphabet, ParseError};
use sudoku_enum::{candidates, Candidates, Puzzle, StopReason};

/// Records answered together by several workers, at first (see [`next_chunk`]).
const FIRST_CHUNK: usize = 1;

/// The most records answered together: the output stays in input order, and memory bounded.
const MOST_CHUNK: usize = 512;

/// A chunk of records that took less than this grows, one that took more shrinks: many
/// quick puzzles are answered in large chunks (a classic 9×9 in some 70 µs), slow ones in
/// small chunks, so that each shows soon after it is found.
const CHUNK_TIME: Duration = Duration::from_millis(100);

/// The size of the chunk after one of `size` records that took `took`.
fn next_chunk(size: usize, took: Duration, threads: usize) -> usize {
    if took < CHUNK_TIME {
        (size * 2).min(MOST_CHUNK)
    } else {
        (size / 2).max(threads)
    }
}

/// A puzzle's true candidates as printed, or a record that could not be read.
enum Answered {
    Puzzle {
        /// The text or JSON of the answer.
        printed: Vec<u8>,
        /// Whether it is complete and there is a solution.
        solved: bool,
    },
    Bad(ParseError),
    /// Not started: Ctrl-C came first.
    Skipped,
}

/// Run `candidates` over every puzzle of the inputs. With several threads, chunks of puzzles
/// are answered in parallel (each puzzle's searches on every thread too, so that a slow
/// puzzle's work is shared once the others are done) and printed in input order.
pub fn run(cfg: &Config, cap: u64) -> Result<u8, Fatal> {
    let started = Instant::now();
    let options = cfg.options(None, None);
    // After about a second on a terminal: puzzles answered and searches made so far.
    let batch = Arc::new(Batch::default());
    let ticker = Ticker::start(
        progress::enabled(cfg.quiet, &cfg.files),
        Arc::clone(&batch),
        "search",
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(TermOut::new(stdout.lock()));
    let mut errors = InputErrors::new(cfg.strict);
    let (mut puzzles, mut failed, mut bad) = (0u64, 0u64, 0u64);
    // Answered and printed (into memory) by the workers.
    let answer = |name: &str, record: Record| match record {
        Record::Puzzle(..) if CANCEL.is_cancelled() => Answered::Skipped,
        Record::Puzzle(line, puzzle, alphabet) => {
            let alphabet = cfg.out_alphabet_for(&puzzle, alphabet);
            let t = Instant::now();
            let mut c = candidates(&puzzle, &options, cap);
            c.conflict = super::report::clash_in(c.conflict.take(), &puzzle, alphabet);
            let source = format!("{name}:{line}");
            let mut printed = Vec::new();
            let written = if cfg.json {
                let secs = t.elapsed().as_secs_f64();
                write_json(&mut printed, &source, &puzzle, &c, alphabet, secs)
            } else {
                write_text(&mut printed, &source, &c, alphabet)
            };
            debug_assert!(written.is_ok(), "writing to memory");
            if ticker.is_running() {
                batch.puzzles.fetch_add(1, Relaxed);
                batch.solutions.fetch_add(c.searches, Relaxed);
            }
            Answered::Puzzle {
                printed,
                solved: c.complete() && c.solvable(),
            }
        }
        Record::Bad(e) => Answered::Bad(e),
    };
    for_each_input(&cfg.files, cfg.parse, &mut errors, |name, records| {
        let mut size = FIRST_CHUNK;
        loop {
            // Up to `size`, ending where the input waits.
            let chunk = records.take_ready(size);
            if chunk.is_empty() {
                return Ok(ControlFlow::Continue(()));
            }
            let t = Instant::now();
            let answers: Vec<Answered> = if cfg.threads <= 1 || chunk.len() == 1 {
                chunk.into_iter().map(|r| answer(name, r)).collect()
            } else {
                sudoku_enum::start_global_pool(cfg.threads);
                chunk.into_par_iter().map(|r| answer(name, r)).collect()
            };
            for a in answers {
                match a {
                    Answered::Puzzle { printed, solved } => {
                        out.write_all(&printed)?;
                        puzzles += 1;
                        failed += u64::from(!solved);
                    }
                    Answered::Bad(e) => {
                        // As `check --json`: a line for every record, readable or not.
                        report_bad_in(&mut out, name, &e, cfg.json)?;
                        bad += 1;
                        if cfg.strict {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                    Answered::Skipped => break,
                }
            }
            out.flush()?;
            if CANCEL.is_cancelled() {
                return Ok(ControlFlow::Break(()));
            }
            if cfg.threads > 1 {
                size = next_chunk(size, t.elapsed(), cfg.threads);
            }
        }
    })?;
    out.flush()?;
    ticker.finish();
    if !cfg.quiet {
        note(format_args!(
            "candidates of {puzzles} puzzle{} in {:.3} s",
            if puzzles == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64()
        ));
    }
    Ok(exit_for(bad + errors.io + errors.empty > 0, failed > 0))
}

/// Digit `d` in the output alphabet (the standard one where that has no single character).
fn symbol(alphabet: Alphabet, shape: sudoku_enum::Shape, d: u8) -> char {
    alphabet.symbol(d).unwrap_or_else(|| digit_char(shape, d))
}

/// The verdict word: `unique`, `multiple`, `unsolvable`, `invalid`, `unknown`.
fn verdict(c: &Candidates) -> &'static str {
    if c.conflict.is_some() {
        "invalid"
    } else if !c.complete() && !c.is_unique() {
        if (0..c.shape().cells()).any(|cell| c.mask(cell).count_ones() > 1) {
            "multiple"
        } else {
            "unknown"
        }
    } else if !c.solvable() {
        "unsolvable"
    } else if c.is_unique() {
        "unique"
    } else {
        "multiple"
    }
}

/// Why the work stopped short, for the header line: the grids below it (where a solution was
/// found) show what was seen so far.
fn stop_note(c: &Candidates) -> String {
    let why = match c.stopped {
        Some(StopReason::TimedOut) => "timed out",
        Some(StopReason::Cancelled) => "interrupted",
        Some(_) => "stopped",
        None => return String::new(),
    };
    if c.solvable() {
        format!(" ({why}: counts are lower bounds, and a '.' may yet be a candidate)")
    } else {
        format!(" ({why} before a solution was found)")
    }
}

/// A header line, then two pencil-mark grids: the candidates of each cell (each cell `N`
/// characters wide, a digit where it is a candidate, `.` where not), then the solutions
/// through each candidate at the same places (`1`-`9`, `+` for more; the cap counts as "at
/// least").
fn write_text<W: Write>(
    out: &mut W,
    source: &str,
    c: &Candidates,
    alphabet: Alphabet,
) -> io::Result<()> {
    let shape = c.shape();
    let n = shape.side();
    write!(out, "# {source}: {}", verdict(c))?;
    if let Some(conflict) = &c.conflict {
        return writeln!(out, ": {conflict}");
    }
    let open = (0..shape.cells())
        .filter(|&cell| c.mask(cell).count_ones() > 1)
        .count();
    if c.solvable() {
        write!(
            out,
            "; {open} cell{} with more than one candidate",
            if open == 1 { "" } else { "s" }
        )?;
    }
    writeln!(out, "{}", stop_note(c))?;
    if !c.solvable() {
        return Ok(());
    }
    let grid = |out: &mut W, title: &str, mark: &dyn Fn(usize, u8) -> char| -> io::Result<()> {
        writeln!(out, "{title}")?;
        let rule = {
            let stack = "-".repeat(shape.box_cols() * (n + 1) + 1);
            let mut s = String::from("+");
            for _ in 0..n / shape.box_cols() {
                s.push_str(&stack);
                s.push('+');
            }
            s
        };
        for r in 0..n {
            if r % shape.box_rows() == 0 {
                writeln!(out, "{rule}")?;
            }
            let mut line = String::with_capacity(rule.len());
            for col in 0..n {
                line.push_str(match col {
                    0 => "| ",
                    _ if col % shape.box_cols() == 0 => " | ",
                    _ => " ",
                });
                let cell = r * n + col;
                for d in 1..=n as u8 {
                    line.push(mark(cell, d));
                }
            }
            line.push_str(" |");
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{rule}")
    };
    grid(out, "candidates:", &|cell, d| {
        if c.count(cell, d) > 0 {
            symbol(alphabet, shape, d)
        } else {
            '.'
        }
    })?;
    if c.cap() > 1 {
        let title = format!("solutions through each candidate (up to {}):", c.cap());
        grid(out, &title, &|cell, d| match c.count(cell, d) {
            0 => '.',
            k @ 1..=9 => char::from(b'0' + k as u8),
            _ => '+',
        })?;
    }
    Ok(())
}

/// One JSON object: `candidates` (a string of digits per cell) and `counts` (the solutions
/// through each of those digits, in the same order, capped at `cap`).
fn write_json<W: Write>(
    out: &mut W,
    source: &str,
    puzzle: &Puzzle,
    c: &Candidates,
    alphabet: Alphabet,
    secs: f64,
) -> io::Result<()> {
    let shape = c.shape();
    let cells = 0..shape.cells();
    let mut obj = json!({
        "source": source,
        "puzzle": puzzle.to_text(),
        "box": shape.to_string(),
        "verdict": verdict(c),
        "cap": c.cap(),
        "complete": c.complete(),
        "candidates": cells.clone().map(|cell| c.digits(cell).into_iter().map(|d| symbol(alphabet, shape, d)).collect::<String>()).collect::<Vec<_>>(),
        "counts": cells.map(|cell| c.digits(cell).into_iter().map(|d| c.count(cell, d)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "searches": c.searches,
        "nodes": c.stats.nodes,
        "time_ms": millis(secs),
    });
    if let Some(conflict) = &c.conflict {
        obj["error"] = json!(conflict.to_string());
    }
    writeln!(out, "{obj}")
}
