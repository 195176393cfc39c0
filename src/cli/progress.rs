//! Progress bars on stderr. Workers only bump relaxed atomics (a search's [`Progress`] or a [`Batch`]); a
//! ticker thread copies them into an indicatif bar ten times a second. Nothing is drawn for runs
//! shorter than about a second, when stderr is not a terminal, or with `--quiet`.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use sudoku_enum::Progress;

/// Counters of a batch run, bumped once per puzzle.
#[derive(Debug, Default)]
pub struct Batch {
    /// Puzzles answered.
    pub puzzles: AtomicU64,
    /// Solutions counted over all puzzles (saturating display value).
    pub solutions: AtomicU64,
}

/// What the ticker shows: a batch, or one long search (with the tree fraction and ETA).
pub struct Ticker {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
    current: Arc<Mutex<Option<Progress>>>,
}

/// Whether bars may be drawn at all.
pub fn enabled(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

impl Ticker {
    /// Start a ticker (a no-op when `enabled` is false). `what` names the unit ("solutions").
    pub fn start(enabled: bool, batch: Arc<Batch>, what: &'static str) -> Ticker {
        let stop = Arc::new(AtomicBool::new(false));
        let current: Arc<Mutex<Option<Progress>>> = Arc::new(Mutex::new(None));
        if !enabled {
            return Ticker {
                stop,
                handle: None,
                current,
            };
        }
        let (stop2, current2) = (Arc::clone(&stop), Arc::clone(&current));
        let handle = std::thread::spawn(move || tick(stop2, current2, batch, what));
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
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(progress);
    }

    /// Go back to batch counters.
    pub fn unwatch(&self) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Stop and erase the bar.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop_now();
    }
}

fn tick(
    stop: Arc<AtomicBool>,
    current: Arc<Mutex<Option<Progress>>>,
    batch: Arc<Batch>,
    what: &'static str,
) {
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut mode_tree = None::<bool>;
    let mut last = (Instant::now(), 0u64);
    let mut rate = 0.0f64;
    while !stop.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if started.elapsed() < Duration::from_millis(900) {
            continue;
        }
        let watched = current.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let tree = watched.is_some();
        let b = bar.get_or_insert_with(|| {
            let b =
                ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr_with_hz(10));
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        if mode_tree != Some(tree) {
            mode_tree = Some(tree);
            let style = if tree {
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% tree, ETA {eta}  {msg}",
                )
            } else {
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
            };
            if let Ok(style) = style {
                b.set_style(style);
            }
        }
        let now = Instant::now();
        match watched {
            Some(progress) => {
                let sols = progress.solutions();
                let dt = now.duration_since(last.0).as_secs_f64();
                if dt >= 0.5 {
                    let r = sols.saturating_sub(last.1) as f64 / dt;
                    rate = if rate == 0.0 { r } else { 0.7 * rate + 0.3 * r };
                    last = (now, sols);
                }
                b.set_position((progress.fraction_done() * 1000.0) as u64);
                b.set_message(format!(
                    "{} {what}, {}/s, {} nodes",
                    HumanCount(sols),
                    HumanCount(rate as u64),
                    HumanCount(progress.nodes())
                ));
            }
            None => {
                let p = batch.puzzles.load(Relaxed);
                let secs = started.elapsed().as_secs_f64();
                b.set_message(format!(
                    "{} puzzles ({}/s), {} {what}",
                    HumanCount(p),
                    HumanCount((p as f64 / secs) as u64),
                    HumanCount(batch.solutions.load(Relaxed))
                ));
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
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
        if !enabled(quiet) {
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
