//! Running searches for Python: off the interpreter lock, on every core, and stoppable by Ctrl-C.
//!
//! Python only runs its signal handlers on the main thread, between bytecodes, so a search that
//! runs for minutes inside one call must let the calling thread look for signals now and then.
//! [`run_items`] does it in two phases per item:
//!
//! 1. **Inline.** The calling thread answers items itself, with the interpreter lock released,
//!    in slices of about [`SLICE`] (one item after another, or a chunk spread over a rayon pool
//!    with `threads > 1`), and looks for signals between slices. Each item's search carries a
//!    deadline a little after the end of its slice, so no item holds the calling thread for long;
//!    almost every puzzle is done in microseconds and never reaches it. This path costs a clock
//!    read per item and nothing else: no thread hand-off, no channel.
//! 2. **On a worker.** An item whose search ran into that deadline is searched again from the
//!    start on a worker thread (with all `threads`), while the calling thread waits in steps of
//!    [`POLL`] and looks for signals between them. On Ctrl-C it raises the cancel flag of that
//!    search (the engines see it within a few thousand nodes), waits for the worker to stop, and
//!    returns the `KeyboardInterrupt`.
//!
//! At most about [`SLICE`] × 2 of work is done twice per long item, and a signal is seen within
//! about [`SLICE`] × 2 + [`POLL`].

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use sudoku_enum::{Cancel, Options, Outcome, StopReason};

/// How long the calling thread works between two looks for signals.
pub const SLICE: Duration = Duration::from_millis(25);

/// How long the calling thread waits for a worker between two looks for signals.
pub const POLL: Duration = Duration::from_millis(50);

/// Items of a parallel inline slice: the first slice's size per thread; later slices adapt.
const FIRST_SLICE_PER_THREAD: usize = 64;

/// The largest parallel inline slice.
const MAX_SLICE_ITEMS: usize = 1 << 16;

// ---------------------------------------------------------------------------------------------
// Thread pools

/// Rayon pools by size, built on first use and kept, with the process that built them: a child
/// made by `fork` (multiprocessing) has the pool objects but not their threads, so it builds
/// its own.
static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

/// The process that built the pools, and its pools by size.
type Pools = (u32, HashMap<usize, Arc<rayon::ThreadPool>>);

/// The pool of `threads` workers.
pub fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if pools.as_ref().is_some_and(|(owner, _)| *owner != pid) {
        // Forked: the threads are gone; dropping the pools could wait on them.
        if let Some(old) = pools.take() {
            std::mem::forget(old);
        }
    }
    let (_, by_size) = pools.get_or_insert_with(|| (pid, HashMap::new()));
    if let Some(p) = by_size.get(&threads) {
        return Ok(Arc::clone(p));
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(sudoku_enum::SEARCH_STACK)
        .thread_name(|i| format!("sudoku-enum-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let built = Arc::new(built);
    by_size.insert(threads, Arc::clone(&built));
    Ok(built)
}

// ---------------------------------------------------------------------------------------------
// Running items

/// What a job answers: something with the outcome of its search (to see whether it ran into
/// the slice's deadline).
pub trait Searched {
    /// The outcome of the job's search.
    fn outcome(&self) -> &Outcome;
}

impl Searched for Outcome {
    fn outcome(&self) -> &Outcome {
        self
    }
}

impl<T> Searched for (Outcome, T) {
    fn outcome(&self) -> &Outcome {
        &self.0
    }
}

/// Answer items `0..n` with `job(i, options)`, in order, with `threads` workers; every search
/// stops at `limit` solutions. See the module docs for how the work is spread and interrupted.
/// Errors: the `KeyboardInterrupt` (or whatever a Python signal handler raised), or a failure
/// to start threads.
pub fn run_items<T, J>(
    py: Python<'_>,
    n: usize,
    limit: Option<u64>,
    threads: usize,
    job: J,
) -> PyResult<Vec<T>>
where
    T: Searched + Send,
    J: Fn(usize, &Options) -> T + Sync,
{
    let mut out: Vec<T> = Vec::with_capacity(n);
    let pool = if threads > 1 && n > 1 {
        Some(pool(threads)?)
    } else {
        None
    };
    let mut slice_len = FIRST_SLICE_PER_THREAD * threads;
    while out.len() < n {
        let start = Instant::now();
        // One serial search per item, all stopping at the same deadline.
        let inline = Options {
            limit,
            deadline: Some(start + 2 * SLICE),
            ..Options::default()
        };
        let timed_out = |answer: &T| answer.outcome().stopped == Some(StopReason::TimedOut);
        let from = out.len();
        // Items answered inline, and the first one that ran into the deadline.
        let retry = py.detach(|| match &pool {
            None => {
                for i in from..n {
                    let answer = job(i, &inline);
                    if timed_out(&answer) {
                        return vec![i];
                    }
                    out.push(answer);
                    if Instant::now() >= start + SLICE {
                        break;
                    }
                }
                Vec::new()
            }
            Some(pool) => {
                let to = n.min(from + slice_len);
                let answers: Vec<(T, bool)> = pool.install(|| {
                    (from..to)
                        .into_par_iter()
                        .map(|i| {
                            let answer = job(i, &inline);
                            let late = timed_out(&answer);
                            (answer, late)
                        })
                        .collect()
                });
                let elapsed = start.elapsed();
                if elapsed < SLICE / 2 {
                    slice_len = (slice_len * 2).min(MAX_SLICE_ITEMS);
                } else if elapsed > SLICE * 2 {
                    slice_len = (slice_len / 2).max(threads);
                }
                let mut retry = Vec::new();
                for (k, (answer, timed_out)) in answers.into_iter().enumerate() {
                    if timed_out {
                        retry.push(from + k);
                    }
                    out.push(answer);
                }
                retry
            }
        });
        py.check_signals()?;
        for i in retry {
            let answer = on_worker(py, limit, threads, |options| job(i, options))?;
            if i < out.len() {
                out[i] = answer;
            } else {
                out.push(answer);
            }
        }
    }
    Ok(out)
}

/// Run one search `job(options)` on a worker thread with `threads` workers, stopping at `limit`
/// solutions, while the calling thread waits with the interpreter lock released and looks for
/// signals every [`POLL`]. On a signal's exception the search is cancelled and waited for,
/// then the exception is returned.
pub fn on_worker<T, J>(py: Python<'_>, limit: Option<u64>, threads: usize, job: J) -> PyResult<T>
where
    T: Send,
    J: FnOnce(&Options) -> T + Send,
{
    let pool = if threads > 1 {
        Some(pool(threads)?)
    } else {
        None
    };
    let cancel = Cancel::new();
    let options = Options {
        threads,
        limit,
        cancel: Some(cancel.clone()),
        ..Options::default()
    };
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel(1);
        let (options, pool) = (&options, pool.as_deref());
        let worker = std::thread::Builder::new()
            .name("sudoku-enum-search".into())
            .stack_size(sudoku_enum::SEARCH_STACK)
            .spawn_scoped(scope, move || {
                let answer = match pool {
                    Some(pool) => pool.install(|| job(options)),
                    None => job(options),
                };
                // The receiver only goes away after a signal, when the answer is not wanted.
                let _ = tx.send(answer);
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let mut rx = rx;
        loop {
            // The receiver goes into the wait and comes back (it cannot be shared).
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(answer) => return Ok(answer),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.cancel();
                        let _ = py.detach(move || worker.join());
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The worker ended without an answer: it panicked. Hand the panic on
                    // (PyO3 turns it into a `PanicException`).
                    return match py.detach(move || worker.join()) {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => Err(PyRuntimeError::new_err(
                            "the search ended without an answer",
                        )),
                    };
                }
            }
        }
    })
}
