//! Turning outcomes into text lines or JSON objects, and the end-of-run summary.

use serde_json::{json, Map, Value};
use std::time::Duration;
use sudoku_enum::format::{render, Layout};
use sudoku_enum::rate::{explain_json, explain_text, Minimality, Rating};
use sudoku_enum::{Outcome, Puzzle, StopReason, Verdict};

/// Which job a line answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `count`
    Count,
    /// `check`
    Check,
    /// `solve`
    Solve,
    /// `dump`
    Dump,
}

/// One puzzle's answer, ready to print.
pub struct Answer {
    /// `FILE:LINE`.
    pub source: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// What the search found.
    pub outcome: Outcome,
    /// The first solution, when asked for.
    pub solution: Option<Vec<u8>>,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// `check --explain` / `--minimal`: the singles rating (valid puzzles only).
    pub rating: Option<Rating>,
    /// `check --minimal`: `Some(None)` when asked for but the puzzle is not unique.
    pub minimality: Option<Option<Minimality>>,
}

fn stop_note(stopped: Option<StopReason>) -> &'static str {
    match stopped {
        Some(StopReason::Limit) => "limit reached",
        Some(StopReason::TimedOut) => "timed out",
        Some(StopReason::Cancelled) => "interrupted",
        Some(StopReason::Budget) => "node budget used up",
        Some(StopReason::Sink) => "output closed",
        None => "complete",
    }
}

fn count_text(o: &Outcome) -> String {
    let n = o.solutions;
    let noun = if n == 1 { "solution" } else { "solutions" };
    match o.stopped {
        None => format!("{n} {noun}"),
        Some(r) => format!("at least {n} {noun} ({})", stop_note(Some(r))),
    }
}

/// The verdict words of a text line: `unique`, `multiple (at least 2 solutions)`, ...
pub fn verdict_text(o: &Outcome) -> String {
    match o.verdict() {
        Verdict::Invalid => match &o.conflict {
            Some(c) => format!("invalid: {c}"),
            None => "invalid".to_string(),
        },
        Verdict::Multiple => match o.stopped {
            None => format!("multiple ({} solutions)", o.solutions),
            Some(StopReason::Limit) => format!("multiple (at least {} solutions)", o.solutions),
            Some(r) => format!(
                "multiple (at least {} solutions; {})",
                o.solutions,
                stop_note(Some(r))
            ),
        },
        Verdict::Unknown => format!("unknown ({})", stop_note(o.stopped)),
        v => v.as_str().to_string(),
    }
}

/// What `count` says of one puzzle: `288 solutions`, `at least 1000 solutions (limit reached)`,
/// `0 solutions (unsolvable)`, `invalid: ...`.
pub fn count_summary(o: &Outcome) -> String {
    match o.verdict() {
        Verdict::Invalid => verdict_text(o),
        _ if o.solutions == 0 && o.complete() => "0 solutions (unsolvable)".to_string(),
        _ => count_text(o),
    }
}

/// The text printed for one answer (without the trailing newline for one-line layouts).
pub fn text(mode: Mode, a: &Answer, layout: Layout, explain: bool) -> String {
    let o = &a.outcome;
    match mode {
        Mode::Check => match (&a.rating, explain) {
            (Some(r), true) => format!(
                "# {}\n{}",
                a.source,
                explain_text(&a.puzzle, r, o, a.minimality.as_ref().map(Option::as_ref))
            ),
            _ => format!("{}: {}{}", a.source, verdict_text(o), minimal_note(a)),
        },
        Mode::Count | Mode::Dump => format!("{}: {}", a.source, count_summary(o)),
        Mode::Solve => solve_text(a, layout),
    }
}

/// `, minimal` / `, not minimal: redundant givens r1c1=5 r2c7=3` after a `check --minimal` verdict.
fn minimal_note(a: &Answer) -> String {
    match &a.minimality {
        None => String::new(),
        Some(None) => String::new(),
        Some(Some(m)) if m.minimal => ", minimal".to_string(),
        Some(Some(m)) => {
            let shape = a.puzzle.shape();
            let list: Vec<String> = m
                .redundant
                .iter()
                .map(|&c| {
                    format!(
                        "{}={}",
                        shape.cell_name(c),
                        sudoku_enum::puzzle::digit_char(shape, a.puzzle.cells()[c])
                    )
                })
                .collect();
            format!(", not minimal: redundant givens {}", list.join(" "))
        }
    }
}

/// `solve` output. Line layout: one line per puzzle (the solution, or the seeds' messages).
/// Grid and rows layouts: the seeds' wording ("The solution is found:", "No solution",
/// "Invalid input") around the boards.
fn solve_text(a: &Answer, layout: Layout) -> String {
    let o = &a.outcome;
    let shape = a.puzzle.shape();
    let unique_note = match o.verdict() {
        Verdict::Unique => "unique",
        Verdict::Multiple => "not unique: at least 2 solutions",
        _ => "uniqueness unknown",
    };
    match (&a.solution, layout) {
        (Some(s), Layout::Line) => render(shape, s, Layout::Line),
        (Some(s), _) => format!(
            "# {}\nPuzzle:\n{}The solution is found ({unique_note}):\n{}",
            a.source,
            render(shape, a.puzzle.cells(), layout),
            render(shape, s, layout)
        ),
        (None, _) => {
            let msg = match o.verdict() {
                Verdict::Invalid => format!(
                    "Invalid input: {}",
                    verdict_text(o).trim_start_matches("invalid: ")
                ),
                Verdict::Unsolvable => "No solution".to_string(),
                _ => format!("Unknown ({})", stop_note(o.stopped)),
            };
            if layout == Layout::Line {
                msg
            } else {
                format!(
                    "# {}\nPuzzle:\n{}{msg}\n",
                    a.source,
                    render(shape, a.puzzle.cells(), layout)
                )
            }
        }
    }
}

/// One JSON object per puzzle.
pub fn json(mode: Mode, a: &Answer, limit: Option<u64>) -> Value {
    let o = &a.outcome;
    let mut m = Map::new();
    m.insert("source".into(), json!(a.source));
    m.insert("puzzle".into(), json!(a.puzzle.to_line()));
    m.insert("box".into(), json!(a.puzzle.shape().to_string()));
    m.insert("verdict".into(), json!(o.verdict().as_str()));
    m.insert("solutions".into(), json!(o.solutions));
    m.insert("complete".into(), json!(o.complete()));
    if let Some(r) = o.stopped {
        m.insert("stopped".into(), json!(stop_note(Some(r))));
    }
    if let Some(limit) = limit {
        m.insert("limit".into(), json!(limit));
    }
    if let Some(c) = &o.conflict {
        m.insert("error".into(), json!(format!("invalid: {c}")));
        m.insert("cells".into(), json!([c.first, c.second]));
        m.insert("house".into(), json!(c.house));
    }
    if mode == Mode::Solve {
        if let Some(s) = &a.solution {
            m.insert(
                "solution".into(),
                json!(render(a.puzzle.shape(), s, Layout::Line)),
            );
        }
    }
    if let Some(r) = &a.rating {
        let extra = explain_json(&a.puzzle, r, o, a.minimality.as_ref().map(Option::as_ref));
        if let Value::Object(extra) = extra {
            for (k, v) in extra {
                m.entry(k).or_insert(v);
            }
        }
    }
    m.insert("nodes".into(), json!(o.stats.nodes));
    m.insert("guesses".into(), json!(o.stats.guesses));
    m.insert(
        "time_ms".into(),
        json!((a.elapsed.as_secs_f64() * 1e6).round() / 1e3),
    );
    Value::Object(m)
}

/// A JSON object for an input that could not be read.
pub fn json_error(source: &str, message: &str) -> Value {
    json!({ "source": source, "verdict": "error", "error": message })
}

/// Totals for the summary line.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    /// Puzzles answered.
    pub puzzles: u64,
    /// Per verdict.
    pub unique: u64,
    /// Two or more solutions.
    pub multiple: u64,
    /// No solution.
    pub unsolvable: u64,
    /// Clashing givens.
    pub invalid: u64,
    /// Timed out or interrupted before a verdict.
    pub unknown: u64,
    /// Records that could not be parsed.
    pub unreadable: u64,
    /// Files that could not be opened or read.
    pub io_errors: u64,
    /// Solutions counted (sum).
    pub solutions: u128,
    /// Puzzles whose answer does not "hold" for this mode (exit code 1).
    pub failed: u64,
}

impl Summary {
    /// Account one answer.
    pub fn add(&mut self, mode: Mode, o: &Outcome) {
        self.puzzles += 1;
        self.solutions += o.solutions;
        let v = o.verdict();
        match v {
            Verdict::Unique => self.unique += 1,
            Verdict::Multiple => self.multiple += 1,
            Verdict::Unsolvable => self.unsolvable += 1,
            Verdict::Invalid => self.invalid += 1,
            Verdict::Unknown => self.unknown += 1,
        }
        let holds = match mode {
            Mode::Check => v == Verdict::Unique,
            Mode::Count | Mode::Solve | Mode::Dump => {
                o.solutions > 0 && o.conflict.is_none() && o.stopped != Some(StopReason::TimedOut)
            }
        };
        if !holds {
            self.failed += 1;
        }
    }

    /// The closing line on stderr.
    pub fn line(&self, mode: Mode, elapsed: Duration) -> String {
        let verb = match mode {
            Mode::Count => "counted",
            Mode::Check => "checked",
            Mode::Solve => "solved",
            Mode::Dump => "dumped",
        };
        let mut s = format!(
            "{verb} {} puzzle{} in {:.3} s: {} unique, {} multiple, {} unsolvable, {} invalid",
            self.puzzles,
            if self.puzzles == 1 { "" } else { "s" },
            elapsed.as_secs_f64(),
            self.unique,
            self.multiple,
            self.unsolvable,
            self.invalid
        );
        if self.unknown > 0 {
            s += &format!(", {} unknown", self.unknown);
        }
        if self.unreadable > 0 {
            s += &format!(", {} unreadable", self.unreadable);
        }
        if self.io_errors > 0 {
            s += &format!(", {} file errors", self.io_errors);
        }
        if mode == Mode::Count {
            s += &format!("; {} solutions in all", self.solutions);
        }
        s
    }
}
