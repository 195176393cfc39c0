//! Progress bars on stderr. Workers only bump relaxed atomics (a search's [`Progress`] or a
//! [`Batch`]); a ticker thread composes one status line from them ten times a second. Nothing
//! is drawn for runs shorter than about a second, when stderr is not a terminal, or with
//! `--quiet`.
//!
//! The terminal stays readable:
//! - the line is composed here and handed to indicatif as its only, `{wide_msg}`, element, so
//!   it is cut to the terminal's width and never wraps (a wrapped bar is what erased result
//!   lines when it was cleared);
//! - whatever the run prints while a bar is shown goes through [`suspend`]: results on stdout
//!   ([`TermOut`]) and messages on stderr ([`note`]) — the bar is erased, the text written and
//!   the bar drawn again below it, so no line is lost or left behind a bar when stdout and
//!   stderr are the same terminal;
//! - a finished bar is erased;
//! - an ETA is shown only once there is one: a few seconds in and a measurable share done.
//!
//! `SUDOKU_ENUM_BAR_DELAY_MS` (for tests) changes the delay before a bar is first drawn.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use sudoku_enum::Progress;

/// The bar on screen now, if any: what [`suspend`] erases while something else is written.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Run `f` with the bar (if one is shown) erased, then draw the bar again.
pub fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let shown = SHOWN.lock().unwrap_or_else(PoisonError::into_inner).clone();
    match shown {
        Some(bar) => bar.suspend(f),
        None => f(),
    }
}

/// One line on stderr, with the bar kept intact. Unlike `eprintln!`, a write that fails (stderr
/// closed: `2>&1 | head`, or full: `2>/dev/full`) is let go, as ripgrep lets it go: messages
/// are not worth a panic, and the output and exit code still say what happened.
pub fn note(args: fmt::Arguments<'_>) {
    suspend(|| {
        let _ = writeln!(io::stderr().lock(), "{args}");
    });
}

/// Stdout that erases the bar around each write when stdout is a terminal too (elsewhere the
/// bar and the output do not meet): put it under the `BufWriter`, so the bar is erased once a
/// buffer, not once a line.
pub struct TermOut<W: Write> {
    out: W,
    tty: bool,
}

impl<W: Write> TermOut<W> {
    /// Wrap `out`, a handle on stdout.
    pub fn new(out: W) -> TermOut<W> {
        TermOut {
            out,
            tty: io::stdout().is_terminal(),
        }
    }
}

impl<W: Write> Write for TermOut<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.tty {
            return self.out.write(buf);
        }
        let out = &mut self.out;
        suspend(|| {
            out.write_all(buf)?;
            out.flush()
        })?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let out = &mut self.out;
        if self.tty {
            suspend(|| out.flush())
        } else {
            out.flush()
        }
    }
}

/// Whether bars may be drawn at all: on a terminal, unless the puzzles are typed at it
/// (standard input among the `inputs`, and a terminal): a bar's redraws would wipe the line
/// being typed.
pub fn enabled(quiet: bool, inputs: &[std::path::PathBuf]) -> bool {
    let typed = || inputs.iter().any(|f| f.as_os_str() == "-") && std::io::stdin().is_terminal();
    !quiet && std::io::stderr().is_terminal() && !typed()
}

/// How long a run goes before its bar is first drawn.
fn delay() -> Duration {
    let ms = std::env::var("SUDOKU_ENUM_BAR_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(900);
    Duration::from_millis(ms)
}

/// A bar on stderr drawing the lines it is given, cut to the terminal's width; registered in
/// [`SHOWN`] while it lives.
struct Line {
    bar: ProgressBar,
    frame: usize,
}

impl Line {
    fn new() -> Line {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
        if let Ok(style) = ProgressStyle::with_template("{wide_msg}") {
            bar.set_style(style);
        }
        *SHOWN.lock().unwrap_or_else(PoisonError::into_inner) = Some(bar.clone());
        Line { bar, frame: 0 }
    }

    /// Draw `text` after a spinner and the elapsed time.
    fn show(&mut self, elapsed: Duration, text: &str) {
        const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        self.frame = (self.frame + 1) % SPINNER.len();
        self.bar.set_message(format!(
            "{} [{}] {text}",
            SPINNER[self.frame],
            clock(elapsed)
        ));
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        *SHOWN.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.bar.finish_and_clear();
    }
}

/// `H:MM:SS`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A `width`-character bar for a fraction.
fn gauge(fraction: f64, width: usize) -> String {
    let full = ((fraction.clamp(0.0, 1.0) * width as f64) as usize).min(width);
    let mut s = String::with_capacity(width + 2);
    s.push('[');
    s.extend(std::iter::repeat_n('#', full));
    s.extend(std::iter::repeat_n('-', width - full));
    s.push(']');
    s
}

/// The time left when `done` (0..1) took `elapsed`, once that is worth showing: a few seconds
/// in and at least 1% done (before, the rate is mostly start-up and the guess is noise).
fn eta(elapsed: Duration, done: f64) -> Option<Duration> {
    if elapsed < Duration::from_secs(3) || !(0.01..1.0).contains(&done) {
        return None;
    }
    let left = elapsed.as_secs_f64() * (1.0 - done) / done;
    (left < 1e9).then(|| Duration::from_secs_f64(left))
}

/// " · ETA 0:01:23", or nothing before there is one.
fn eta_text(elapsed: Duration, done: f64) -> String {
    eta(elapsed, done).map_or(String::new(), |d| format!(" · ETA {}", clock(d)))
}

/// A search's ETA from its [`Trend`] (the rate since the middle of its run, its counters
/// perhaps started again), on the same terms as [`eta`]: 3 s since the counters last started
/// and 1% done.
fn trend_eta_text(trend: &Trend) -> String {
    let (since, _) = trend.since_reset();
    let done = trend.done();
    let t = trend.samples.last().map_or(0.0, |s| s.0);
    match trend.total() {
        Some(total) if since >= 3.0 && (0.01..1.0).contains(&done) && total - t < 1e9 => {
            format!(
                " · ETA {}",
                clock(Duration::from_secs_f64((total - t).max(0.0)))
            )
        }
        _ => String::new(),
    }
}

/// A search's share of the tree done over time, for predicting when it ends.
///
/// The rate is taken over the later half of the samples, not from the start: counting by bands
/// remembers the counts below band boundaries, so a count speeds up as its table fills and the
/// average rate since the start overstates the time left. A search that starts again (a
/// parallel search after its serial try, counting by bands after the plain attempt) resets its
/// counters; the samples before are dropped. (Checked on puzzles that count in 2 to 25 s on
/// two threads: see the README, `estimate`.)
#[derive(Debug, Default)]
pub struct Trend {
    /// (seconds since the search started, share done), in time order, since the last reset.
    samples: Vec<(f64, f64)>,
    /// When the search last started again (0: never).
    base: f64,
    /// How many times it started again.
    resets: u32,
}

impl Trend {
    /// Record the share `done` at `secs`.
    pub fn push(&mut self, secs: f64, done: f64) {
        if let Some(&(t, f)) = self.samples.last() {
            if done < f {
                self.samples.clear();
                self.base = t;
                self.resets += 1;
            }
        }
        // Thinned to at most 512 samples (every other one dropped), so a run of days stays
        // small; the later half keeps enough.
        if self.samples.len() >= 1024 {
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i % 2 == 0
            });
        }
        self.samples.push((secs, done));
    }

    /// The predicted total seconds of the search, or `None` before anything is done.
    pub fn total(&self) -> Option<f64> {
        let &(t, f) = self.samples.last()?;
        if f >= 1.0 {
            return Some(t);
        }
        if f <= 0.0 {
            return None;
        }
        // The sample nearest half the time since the start (or the reset), and the rate since.
        let half = (self.base + t) / 2.0;
        let (t0, f0) = self
            .samples
            .iter()
            .rev()
            .find(|s| s.0 <= half)
            .copied()
            .unwrap_or((self.base, 0.0));
        let total = if f > f0 && t > t0 {
            t + (1.0 - f) * (t - t0) / (f - f0)
        } else {
            self.base + (t - self.base) / f
        };
        total.is_finite().then_some(total)
    }

    /// The share done at the last sample (since the last reset).
    pub fn done(&self) -> f64 {
        self.samples.last().map_or(0.0, |s| s.1)
    }

    /// Seconds since the last reset (or the start), and how many resets there were.
    pub fn since_reset(&self) -> (f64, u32) {
        let t = self.samples.last().map_or(0.0, |s| s.0);
        (t - self.base, self.resets)
    }
}

/// Counters of a batch run, bumped once per puzzle.
#[derive(Debug, Default)]
pub struct Batch {
    /// Puzzles answered.
    pub puzzles: AtomicU64,
    /// Solutions counted over all puzzles (saturating display value).
    pub solutions: AtomicU64,
}

/// The search the ticker follows in detail, and when it started.
type Watched = Option<(Progress, Instant)>;

/// What the ticker shows: a batch, or one long search (with the tree fraction and ETA).
pub struct Ticker {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
    current: Arc<Mutex<Watched>>,
}

impl Ticker {
    /// Start a ticker (a no-op when `enabled` is false). `what` names the unit, singular
    /// ("solution").
    pub fn start(enabled: bool, batch: Arc<Batch>, what: &'static str) -> Ticker {
        let stop = Arc::new(AtomicBool::new(false));
        let current: Arc<Mutex<Watched>> = Arc::new(Mutex::new(None));
        if !enabled {
            return Ticker {
                stop,
                handle: None,
                current,
            };
        }
        let (stop2, current2) = (Arc::clone(&stop), Arc::clone(&current));
        let handle = std::thread::spawn(move || tick(&stop2, &current2, &batch, what));
        Ticker {
            stop,
            handle: Some(handle),
            current,
        }
    }

    /// True when a bar may be drawn (the counters of a [`Batch`] are only read then).
    pub fn is_running(&self) -> bool {
        self.handle.is_some()
    }

    /// Follow one search in detail (fraction of the tree, ETA) until [`Ticker::unwatch`].
    pub fn watch(&self, progress: Progress) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((progress, Instant::now()));
    }

    /// Go back to batch counters.
    pub fn unwatch(&self) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Stop and erase the bar.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(h) = self.handle.take() {
            // Wake it from its wait between two looks, so that the run ends at once.
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// `1 puzzle`, `1,234 puzzles`, `2 searches`: a count with thousands separators and its noun.
fn counted(n: u64, noun: &str) -> String {
    let s = match (n, noun.ends_with("ch")) {
        (1, _) => "",
        (_, true) => "es",
        (_, false) => "s",
    };
    format!("{} {noun}{s}", HumanCount(n))
}

fn tick(stop: &AtomicBool, current: &Mutex<Watched>, batch: &Batch, what: &str) {
    let started = Instant::now();
    let delay = delay();
    let mut line: Option<Line> = None;
    let mut last = (Instant::now(), 0u64);
    let mut rate = 0.0f64;
    // The watched search's trend, by when its watch began.
    let mut trend: Option<(Instant, Trend)> = None;
    while !stop.load(Relaxed) {
        std::thread::park_timeout(Duration::from_millis(100));
        if started.elapsed() < delay || stop.load(Relaxed) {
            continue;
        }
        let watched = current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let now = Instant::now();
        let text = match watched {
            Some((progress, since)) => {
                let sols = progress.solutions();
                let dt = now.duration_since(last.0).as_secs_f64();
                if dt >= 0.5 {
                    let r = sols.saturating_sub(last.1) as f64 / dt;
                    rate = if rate == 0.0 { r } else { 0.7 * rate + 0.3 * r };
                    last = (now, sols);
                }
                let done = progress.fraction_done();
                if trend.as_ref().is_none_or(|(s, _)| *s != since) {
                    trend = Some((since, Trend::default()));
                }
                let eta = trend.as_mut().map_or(String::new(), |(_, t)| {
                    t.push(since.elapsed().as_secs_f64(), done);
                    trend_eta_text(t)
                });
                format!(
                    "{} {:>3}% of the tree{eta} · {}, {}/s, {}",
                    gauge(done, 20),
                    (done * 100.0) as u32,
                    counted(sols, what),
                    HumanCount(rate as u64),
                    counted(progress.nodes(), "node")
                )
            }
            None => {
                let p = batch.puzzles.load(Relaxed);
                let secs = started.elapsed().as_secs_f64();
                format!(
                    "{} ({}/s) · {}",
                    counted(p, "puzzle"),
                    HumanCount((p as f64 / secs) as u64),
                    counted(batch.solutions.load(Relaxed), what)
                )
            }
        };
        line.get_or_insert_with(Line::new)
            .show(started.elapsed(), &text);
    }
    // Dropping the line erases it.
}

/// A progress bar for a counter, drawn only after about a second, only on a terminal.
pub struct Bar {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Bar {
    /// `len`: the counter's end (a spinner without). `message` is shown beside the count.
    pub fn start(quiet: bool, counter: Arc<AtomicU64>, len: Option<u64>, message: String) -> Bar {
        let stop = Arc::new(AtomicBool::new(false));
        if !enabled(quiet, &[]) {
            return Bar { stop, handle: None };
        }
        let stop2 = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let delay = delay();
            let mut line: Option<Line> = None;
            while !stop2.load(Relaxed) {
                std::thread::park_timeout(Duration::from_millis(100));
                if started.elapsed() < delay || stop2.load(Relaxed) {
                    continue;
                }
                let pos = counter.load(Relaxed);
                let text = match len {
                    Some(len) => {
                        let done = if len == 0 {
                            1.0
                        } else {
                            pos as f64 / len as f64
                        };
                        format!(
                            "{} {}/{} {message}{}",
                            gauge(done, 20),
                            HumanCount(pos),
                            HumanCount(len),
                            eta_text(started.elapsed(), done)
                        )
                    }
                    None => format!("{} {message}", HumanCount(pos)),
                };
                line.get_or_insert_with(Line::new)
                    .show(started.elapsed(), &text);
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
            // Wake it from its wait between two looks, so that the run ends at once.
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_their_nouns() {
        assert_eq!(counted(1, "puzzle"), "1 puzzle");
        assert_eq!(counted(1_234, "puzzle"), "1,234 puzzles");
        assert_eq!(counted(1, "search"), "1 search");
        assert_eq!(counted(0, "search"), "0 searches");
        assert_eq!(counted(2, "solution"), "2 solutions");
    }

    #[test]
    fn no_eta_before_there_is_one() {
        assert_eq!(eta(Duration::from_secs(1), 0.5), None);
        assert_eq!(eta(Duration::from_secs(10), 0.001), None);
        assert_eq!(eta(Duration::from_secs(10), 1.0), None);
        assert_eq!(
            eta(Duration::from_secs(10), 0.5),
            Some(Duration::from_secs(10))
        );
        assert_eq!(eta_text(Duration::from_secs(30), 0.25), " · ETA 0:01:30");
    }

    #[test]
    fn trend_takes_the_later_rate() {
        let mut t = Trend::default();
        assert_eq!(t.total(), None);
        t.push(0.5, 0.0);
        assert_eq!(t.total(), None);
        // 10% in the first second, then 20% a second: 1 + 0.9/0.2 s.
        for (secs, done) in [(1.0, 0.1), (1.5, 0.2), (2.0, 0.3)] {
            t.push(secs, done);
        }
        let total = t.total().expect("a prediction");
        assert!((total - 5.5).abs() < 1e-9, "{total}");
        // A reset: the samples before are dropped; 10% a second since.
        t.push(2.5, 0.05);
        t.push(3.0, 0.1);
        t.push(3.5, 0.15);
        assert_eq!(t.since_reset(), (1.5, 1));
        let total = t.total().expect("a prediction");
        assert!((total - 12.0).abs() < 1e-9, "{total}");
        t.push(4.0, 1.0);
        assert_eq!(t.total(), Some(4.0));
        for i in 0..5000 {
            t.push(3.0 + f64::from(i), 0.5);
        }
        assert!(t.samples.len() <= 1024);
    }

    #[test]
    fn the_tree_eta_waits_and_follows_the_later_rate() {
        let mut t = Trend::default();
        t.push(1.0, 0.05);
        t.push(2.0, 0.10);
        assert_eq!(trend_eta_text(&t), "", "before 3 s");
        // 5% a second, then 10% a second: 0.6 left at 10%/s.
        t.push(3.0, 0.20);
        t.push(4.0, 0.30);
        t.push(5.0, 0.40);
        assert_eq!(trend_eta_text(&t), " · ETA 0:00:06");
    }

    #[test]
    fn gauge_and_clock() {
        assert_eq!(gauge(0.5, 4), "[##--]");
        assert_eq!(gauge(2.0, 2), "[##]");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }
}
