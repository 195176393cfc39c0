//! Turning outcomes into text lines or JSON objects, and the end-of-run summary.

use super::explain;
use serde_json::{json, Map, Value};
use std::fmt;
use std::io::{self, Write};
use std::time::Duration;
use sudoku_enum::format::{render_in, Layout};
use sudoku_enum::parse::{Alphabet, ParseError};
use sudoku_enum::setter::{Minimality, Rating};
use sudoku_enum::{Outcome, Puzzle, StopReason, Verdict};

/// `1 solution`, `2 solutions`: a count (any number type) and its noun, singular or plural.
pub struct Plural<N> {
    n: N,
    noun: &'static str,
}

/// A clash of givens named in the alphabet the puzzle's boards are written in (the library
/// names it in 1-9A-Z).
pub fn clash_in(
    conflict: Option<sudoku_enum::Conflict>,
    puzzle: &Puzzle,
    alphabet: Alphabet,
) -> Option<sudoku_enum::Conflict> {
    conflict.map(|c| {
        if alphabet == Alphabet::Standard {
            return c;
        }
        let value = puzzle.cells()[c.first_cell];
        c.written_in(value, alphabet)
    })
}

/// `n` and `noun`, with an `s` unless `n` is 1.
pub fn plural<N>(n: N, noun: &'static str) -> Plural<N> {
    Plural { n, noun }
}

impl<N: fmt::Display + PartialEq + From<u8>> fmt::Display for Plural<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.n == N::from(1) { "" } else { "s" };
        write!(f, "{} {}{s}", self.n, self.noun)
    }
}

/// Which job a line answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// `count`
    Count,
    /// `check`
    Check,
    /// `solve`
    Solve,
    /// `dump`
    Dump,
}

/// Where a puzzle starts, `FILE:LINE`: written straight into the output, never built as a
/// string of its own (a batch prints one per puzzle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source<'a> {
    /// The input's name for messages (a path, or `<stdin>`).
    pub name: &'a str,
    /// The puzzle's first line, 1-based.
    pub line: usize,
}

impl fmt::Display for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.name, self.line)
    }
}

/// One puzzle's answer, ready to print.
pub struct Answer<'a> {
    /// `FILE:LINE`.
    pub source: Source<'a>,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// What the search found.
    pub outcome: Outcome,
    /// The first solution, when asked for.
    pub solution: Option<Vec<u8>>,
    /// Wall time of the search; only measured for JSON output (zero otherwise).
    pub elapsed: Duration,
    /// `check --explain` / `--minimal`: the singles rating (valid puzzles only). Boxed: it is
    /// large and rare, and every answer of a batch is moved.
    pub rating: Option<Box<Rating>>,
    /// `check --minimal`: `Some(None)` when asked for but the puzzle is not unique.
    pub minimality: Option<Option<Minimality>>,
    /// The alphabet boards are written in (the input's, unless `--output-alphabet`).
    pub alphabet: Alphabet,
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

/// The verdict words of a text line: `unique`, `multiple (at least 2 solutions)`, ...
pub struct VerdictText<'a>(pub &'a Outcome);

impl fmt::Display for VerdictText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.0;
        match o.verdict() {
            Verdict::Invalid => match &o.conflict {
                Some(c) => write!(f, "invalid: {c}"),
                None => f.write_str("invalid"),
            },
            Verdict::Multiple => match o.stopped {
                None => write!(f, "multiple ({} solutions)", o.solutions),
                Some(StopReason::Limit) => {
                    write!(f, "multiple (at least {} solutions)", o.solutions)
                }
                Some(r) => write!(
                    f,
                    "multiple (at least {} solutions; {})",
                    o.solutions,
                    stop_note(Some(r))
                ),
            },
            Verdict::Unknown => write!(f, "unknown ({})", stop_note(o.stopped)),
            v => f.write_str(v.as_str()),
        }
    }
}

/// What `count` says of one puzzle: `288 solutions`, `at least 1000 solutions (limit reached)`,
/// `0 solutions (unsolvable)`, `invalid: ...`.
pub struct CountSummary<'a>(pub &'a Outcome);

impl fmt::Display for CountSummary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.0;
        let n = o.solutions;
        let noun = if n == 1 { "solution" } else { "solutions" };
        match o.verdict() {
            Verdict::Invalid => VerdictText(o).fmt(f),
            _ if n == 0 && o.complete() => f.write_str("0 solutions (unsolvable)"),
            _ => match o.stopped {
                None => write!(f, "{n} {noun}"),
                Some(r) => write!(f, "at least {n} {noun} ({})", stop_note(Some(r))),
            },
        }
    }
}

/// Write the text for one answer and a newline (multi-line boards end with their own newline:
/// the extra one separates puzzles). One-line answers go straight into `out`, so a batch
/// builds no string per puzzle.
pub fn write_text(
    out: &mut impl Write,
    job: Job,
    a: &Answer<'_>,
    layout: Layout,
    explain: bool,
) -> io::Result<()> {
    let o = &a.outcome;
    match job {
        Job::Check => match (&a.rating, explain) {
            (Some(r), true) => writeln!(
                out,
                "# {}\n{}",
                a.source,
                explain::text(
                    &a.puzzle,
                    r,
                    o,
                    a.minimality.as_ref().map(Option::as_ref),
                    a.alphabet
                )
            ),
            _ => {
                match fixed_verdict(o).filter(|_| a.minimality.is_none()) {
                    Some(words) => write_line(out, a.source, words)?,
                    None => writeln!(out, "{}: {}{}", a.source, VerdictText(o), MinimalNote(a))?,
                }
                if explain && a.puzzle.rules().is_some() {
                    writeln!(
                        out,
                        "# {}: no singles rating: --explain rates classic rules only",
                        a.source
                    )?;
                }
                Ok(())
            }
        },
        Job::Count | Job::Dump => writeln!(out, "{}: {}", a.source, CountSummary(o)),
        Job::Solve => writeln!(out, "{}", solve_text(a, layout)),
    }
}

/// The verdict words of the usual `check` lines as fixed text, the same as [`VerdictText`]
/// writes them: `unique`, `unsolvable`, and `multiple (at least 2 solutions)` at the check
/// limit. `None` for words that need formatting.
fn fixed_verdict(o: &Outcome) -> Option<&'static str> {
    match o.verdict() {
        v @ (Verdict::Unique | Verdict::Unsolvable) => Some(v.as_str()),
        Verdict::Multiple if o.stopped == Some(StopReason::Limit) && o.solutions == 2 => {
            Some("multiple (at least 2 solutions)")
        }
        _ => None,
    }
}

/// `FILE:LINE: TEXT` and a newline by plain copies: in a batch of easy puzzles the formatting
/// machinery would cost as much as a search.
fn write_line(out: &mut impl Write, source: Source<'_>, text: &str) -> io::Result<()> {
    let mut digits = [0u8; 20];
    out.write_all(source.name.as_bytes())?;
    out.write_all(b":")?;
    out.write_all(decimal(source.line, &mut digits))?;
    out.write_all(b": ")?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")
}

/// The decimal digits of `n`, written at the end of `buf` (20 digits hold any `u64`).
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[start..];
        }
    }
}

/// `, minimal` / `, not minimal: redundant givens r1c1=5 r2c7=3` after a `check --minimal` verdict.
struct MinimalNote<'a>(&'a Answer<'a>);

impl fmt::Display for MinimalNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0;
        match &a.minimality {
            // A unique puzzle's check that a stop cut short.
            Some(None) if a.outcome.verdict() == Verdict::Unique => {
                f.write_str(", minimality not known (stopped)")
            }
            None | Some(None) => Ok(()),
            Some(Some(m)) if m.minimal => f.write_str(", minimal"),
            Some(Some(m)) => {
                let shape = a.puzzle.shape();
                f.write_str(", not minimal: redundant givens ")?;
                for (i, &c) in m.redundant.iter().enumerate() {
                    let sep = if i == 0 { "" } else { " " };
                    let v = a.puzzle.cells()[c];
                    write!(f, "{sep}{}={}", shape.cell_name(c), a.alphabet.name(v))?;
                }
                Ok(())
            }
        }
    }
}

/// `solve` output. Line layout: one line per puzzle (the solution, or the seeds' messages).
/// Grid and rows layouts: the seeds' wording ("The solution is found:", "No solution",
/// "Invalid input") around the boards. Bands layout: seed 003's output, the solved board alone
/// or its messages ("This board has not solution!.", "Error").
fn solve_text(a: &Answer<'_>, layout: Layout) -> String {
    let o = &a.outcome;
    let shape = a.puzzle.shape();
    let unique_note = match o.verdict() {
        Verdict::Unique => "unique",
        Verdict::Multiple => "not unique: at least 2 solutions",
        _ => "uniqueness unknown",
    };
    match (&a.solution, layout) {
        (Some(s), Layout::Line) => render_in(shape, s, Layout::Line, a.alphabet),
        // Seed 003's output: the solved board alone, or its messages.
        (Some(s), Layout::Bands) => render_in(shape, s, layout, a.alphabet),
        (None, Layout::Bands) => match o.verdict() {
            Verdict::Unsolvable => "This board has not solution!.\n".to_string(),
            Verdict::Invalid => SEED_003_ERROR.to_string(),
            _ => format!("Unknown ({})\n", stop_note(o.stopped)),
        },
        (Some(s), _) => format!(
            "# {}\nPuzzle:\n{}The solution is found ({unique_note}):\n{}",
            a.source,
            render_in(shape, a.puzzle.cells(), layout, a.alphabet),
            render_in(shape, s, layout, a.alphabet)
        ),
        (None, _) => {
            let msg = match o.verdict() {
                Verdict::Invalid => format!(
                    "Invalid input: {}",
                    VerdictText(o).to_string().trim_start_matches("invalid: ")
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
                    render_in(shape, a.puzzle.cells(), layout, a.alphabet)
                )
            }
        }
    }
}

/// Seed 003's message for a board it cannot take (after a board, a blank line follows).
const SEED_003_ERROR: &str = "Error\n";

/// `solve`'s line for a record it could not read, so that its output stays aligned with its
/// input: the seeds' "Invalid input", with where; seed 003's "Error" in the bands layout.
pub fn unreadable_text(e: &ParseError, layout: Layout) -> String {
    if layout == Layout::Bands {
        return SEED_003_ERROR.to_string();
    }
    format!(
        "Invalid input: {} (line {}, column {})",
        e.kind, e.line, e.column
    )
}

/// One JSON object per puzzle.
pub fn json(job: Job, a: &Answer<'_>, limit: Option<u64>) -> Value {
    let o = &a.outcome;
    let mut m = Map::new();
    m.insert("source".into(), json!(a.source.to_string()));
    let shape = a.puzzle.shape();
    let puzzle = match a.puzzle.rules() {
        Some(_) => a.puzzle.to_text(),
        None => render_in(shape, a.puzzle.cells(), Layout::Line, a.alphabet),
    };
    m.insert("puzzle".into(), json!(puzzle));
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
    if job == Job::Solve {
        if let Some(s) = &a.solution {
            m.insert(
                "solution".into(),
                json!(render_in(shape, s, Layout::Line, a.alphabet)),
            );
        }
    }
    if let Some(r) = &a.rating {
        let extra = explain::json(
            &a.puzzle,
            r,
            o,
            a.minimality.as_ref().map(Option::as_ref),
            a.alphabet,
        );
        if let Value::Object(extra) = extra {
            for (k, v) in extra {
                m.entry(k).or_insert(v);
            }
        }
    }
    m.insert("nodes".into(), json!(o.stats.nodes));
    m.insert("guesses".into(), json!(o.stats.guesses));
    m.insert("time_ms".into(), json!(millis(a.elapsed.as_secs_f64())));
    Value::Object(m)
}

/// `secs` as the JSON outputs' `time_ms`: milliseconds, rounded to the microsecond.
pub fn millis(secs: f64) -> f64 {
    (secs * 1e6).round() / 1e3
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
    /// Answers whose count is only a lower bound (a limit, a timeout or Ctrl-C stopped them).
    pub lower_bounds: u64,
    /// Puzzles whose answer does not "hold" for this mode (exit code 1).
    pub failed: u64,
}

impl Summary {
    /// Account one answer.
    pub fn add(&mut self, job: Job, o: &Outcome) {
        self.puzzles += 1;
        self.solutions += o.solutions;
        self.lower_bounds += u64::from(!o.complete());
        let v = o.verdict();
        match v {
            Verdict::Unique => self.unique += 1,
            Verdict::Multiple => self.multiple += 1,
            Verdict::Unsolvable => self.unsolvable += 1,
            Verdict::Invalid => self.invalid += 1,
            Verdict::Unknown => self.unknown += 1,
        }
        let holds = match job {
            Job::Check => v == Verdict::Unique,
            Job::Count | Job::Solve | Job::Dump => {
                o.solutions > 0 && o.conflict.is_none() && o.stopped != Some(StopReason::TimedOut)
            }
        };
        if !holds {
            self.failed += 1;
        }
    }

    /// The closing line on stderr.
    pub fn line(&self, job: Job, elapsed: Duration) -> String {
        let verb = match job {
            Job::Count => "counted",
            Job::Check => "checked",
            Job::Solve => "solved",
            Job::Dump => "dumped",
        };
        let mut s = format!(
            "{verb} {} in {:.3} s: {} unique, {} multiple, {} unsolvable, {} invalid",
            plural(self.puzzles, "puzzle"),
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
            s += &format!(", {}", plural(self.io_errors, "file error"));
        }
        if job == Job::Count {
            let bound = if self.lower_bounds > 0 {
                "at least "
            } else {
                ""
            };
            s += &format!("; {bound}{} in all", plural(self.solutions, "solution"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_enum::Stats;

    fn outcome(solutions: u128, stopped: Option<StopReason>) -> Outcome {
        Outcome {
            solutions,
            stopped,
            stats: Stats::default(),
            conflict: None,
        }
    }

    /// The sum of counts that a limit, a timeout or Ctrl-C cut short is a lower bound too.
    #[test]
    fn a_total_with_a_stopped_count_is_at_least() {
        let mut s = Summary::default();
        s.add(Job::Count, &outcome(288, None));
        let t = Duration::ZERO;
        assert!(s.line(Job::Count, t).ends_with("; 288 solutions in all"));
        s.add(Job::Count, &outcome(5, Some(StopReason::Cancelled)));
        assert!(s
            .line(Job::Count, t)
            .ends_with("; at least 293 solutions in all"));
    }

    #[test]
    fn fixed_verdicts_read_as_the_formatted_ones() {
        let reasons = [
            None,
            Some(StopReason::Limit),
            Some(StopReason::TimedOut),
            Some(StopReason::Cancelled),
        ];
        for n in [0, 1, 2, 3, 1000] {
            for stopped in reasons {
                let o = outcome(n, stopped);
                if let Some(words) = fixed_verdict(&o) {
                    assert_eq!(words, VerdictText(&o).to_string(), "{o:?}");
                }
            }
        }
        assert_eq!(fixed_verdict(&outcome(1, None)), Some("unique"));
        assert_eq!(
            fixed_verdict(&outcome(2, Some(StopReason::Limit))),
            Some("multiple (at least 2 solutions)")
        );
    }

    #[test]
    fn lines_by_copies_read_as_formatted_ones() {
        for line in [0, 1, 9, 10, 99, 100, 4096, 123_456_789, usize::MAX] {
            let source = Source {
                name: "a/b.txt",
                line,
            };
            let mut out = Vec::new();
            write_line(&mut out, source, "unique").unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("{source}: unique\n")
            );
        }
    }
}
