//! `candidates`: the true candidates of every puzzle, as a pencil-mark grid or JSON Lines.

use super::config::Config;
use super::input::{for_each_input, report_bad, InputErrors, Record};
use super::report::millis;
use super::status::{exit_for, Fatal, CANCEL};
use serde_json::json;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Instant;
use sudoku_enum::format::digit_char;
use sudoku_enum::parse::Alphabet;
use sudoku_enum::{candidates, Candidates, Puzzle, StopReason};

/// Run `candidates` over every puzzle of the inputs.
pub fn run(cfg: &Config, cap: u64) -> Result<u8, Fatal> {
    let started = Instant::now();
    let options = cfg.options(None, None);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut errors = InputErrors::default();
    let (mut puzzles, mut failed, mut bad) = (0u64, 0u64, 0u64);
    for_each_input(&cfg.files, cfg.parse, &mut errors, |name, records| {
        for record in records {
            match record {
                Record::Puzzle(line, puzzle, alphabet) => {
                    let alphabet = cfg.out_alphabet.unwrap_or(alphabet);
                    let t = Instant::now();
                    let c = candidates(&puzzle, &options, cap);
                    let source = format!("{name}:{line}");
                    if cfg.json {
                        let secs = t.elapsed().as_secs_f64();
                        write_json(&mut out, &source, &puzzle, &c, alphabet, secs)?;
                    } else {
                        write_text(&mut out, &source, &c, alphabet)?;
                    }
                    out.flush()?;
                    puzzles += 1;
                    failed += u64::from(!c.complete() || !c.solvable());
                }
                Record::Bad(e) => {
                    report_bad(name, &e);
                    bad += 1;
                    if cfg.strict {
                        return Ok(ControlFlow::Break(()));
                    }
                }
            }
            if CANCEL.is_cancelled() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    out.flush()?;
    if !cfg.quiet {
        eprintln!(
            "candidates of {puzzles} puzzle{} in {:.3} s",
            if puzzles == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64()
        );
    }
    Ok(exit_for(bad + errors.io + errors.empty > 0, failed > 0))
}

/// The verdict word: `unique`, `multiple`, `unsolvable`, `invalid`, `unknown`.
/// Digit `d` in the output alphabet (the standard one where that has no single character).
fn symbol(alphabet: Alphabet, shape: sudoku_enum::Shape, d: u8) -> char {
    alphabet.symbol(d).unwrap_or_else(|| digit_char(shape, d))
}

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

fn stop_note(c: &Candidates) -> &'static str {
    match c.stopped {
        Some(StopReason::TimedOut) => " (timed out: counts are lower bounds)",
        Some(StopReason::Cancelled) => " (interrupted: counts are lower bounds)",
        Some(_) => " (stopped: counts are lower bounds)",
        None => "",
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
