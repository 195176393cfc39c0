//! `solutions()`: a lazy iterator over the solutions of one puzzle.
//!
//! A worker thread runs the search and hands each solution, as a line, through a bounded
//! channel: it runs at most [`AHEAD`] solutions ahead of the reader and then waits, so a
//! puzzle with billions of solutions costs no memory. When the iterator is closed or dropped,
//! its cancel flag stops the search (within a few thousand nodes) and the worker's next hand-off
//! fails, which stops it too.

use crate::run::POLL;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Mutex;
use sudoku_enum::parse::Alphabet;
use sudoku_enum::{search, Cancel, FnSink, Options, Puzzle};

/// Solutions the worker may have found and the reader not yet taken.
const AHEAD: usize = 256;

/// Stream workers still running (for tests: a dropped iterator's worker must end).
pub static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// What the worker hands over: a solution, or why the search failed.
type Item = Result<String, String>;

enum State {
    /// Waiting for the reader.
    Ready(Receiver<Item>),
    /// A `__next__` is waiting for the worker (the receiver is out with it).
    Busy,
    /// Exhausted or closed.
    Done,
}

/// A lazy iterator over the solutions of one puzzle, as lines (see `solutions()` in Python).
#[pyclass(module = "sudoku_enum")]
pub struct Solutions {
    state: Mutex<State>,
    cancel: Cancel,
}

impl Solutions {
    /// Start the worker for `puzzle`, stopping after `limit` solutions, with `threads` workers;
    /// the solutions written in `alphabet`.
    pub fn start(
        puzzle: Puzzle,
        alphabet: Alphabet,
        limit: Option<u64>,
        threads: usize,
    ) -> PyResult<Solutions> {
        let (tx, rx) = mpsc::sync_channel::<Item>(AHEAD);
        let cancel = Cancel::new();
        let flag = cancel.clone();
        RUNNING.fetch_add(1, Relaxed);
        let spawned = std::thread::Builder::new()
            .name("sudoku-enum-solutions".into())
            .stack_size(sudoku_enum::SEARCH_STACK)
            .spawn(move || {
                if let Err(message) = produce(&puzzle, alphabet, limit, threads, &flag, &tx) {
                    let _ = tx.send(Err(message));
                }
                drop(tx);
                drop(flag);
                RUNNING.fetch_sub(1, Relaxed);
            });
        if let Err(e) = spawned {
            RUNNING.fetch_sub(1, Relaxed);
            return Err(PyRuntimeError::new_err(format!(
                "cannot start a thread: {e}"
            )));
        }
        Ok(Solutions {
            state: Mutex::new(State::Ready(rx)),
            cancel,
        })
    }

    fn set_state(&self, state: State) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = state;
    }
}

/// The worker: search, sending each solution; an error message if the search could not run
/// (or panicked).
fn produce(
    puzzle: &Puzzle,
    alphabet: Alphabet,
    limit: Option<u64>,
    threads: usize,
    cancel: &Cancel,
    tx: &mpsc::SyncSender<Item>,
) -> Result<(), String> {
    let options = Options {
        threads,
        limit,
        cancel: Some(cancel.clone()),
        ..Options::default()
    };
    let run = || {
        let tx = tx.clone();
        let mut sink = FnSink(move |grid: &[u8]| match tx.send(Ok(alphabet.line(grid))) {
            Ok(()) => ControlFlow::Continue(()),
            // The iterator is gone.
            Err(_) => ControlFlow::Break(()),
        });
        search(puzzle, &options, &mut sink);
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if threads > 1 {
            // A pool of its own: a worker waiting for a slow reader must not hold up other calls.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(sudoku_enum::SEARCH_STACK)
                .thread_name(|i| format!("sudoku-enum-solutions-{i}"))
                .build()
                .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
            pool.install(run);
        } else {
            run();
        }
        Ok(())
    }));
    match outcome {
        Ok(result) => result,
        Err(panic) => Err(panic_message(&*panic)),
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("the search failed: {what}")
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let rx = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            match std::mem::replace(&mut *state, State::Busy) {
                State::Ready(rx) => rx,
                State::Busy => {
                    return Err(PyValueError::new_err(
                        "solutions iterator already executing (in another thread)",
                    ))
                }
                State::Done => {
                    *state = State::Done;
                    return Ok(None);
                }
            }
        };
        // A consumer in C (`list(it)`) never returns to the interpreter's loop, which looks
        // for signals: look here (a flag's load when none came).
        if let Err(e) = py.check_signals() {
            self.set_state(State::Ready(rx));
            return Err(e);
        }
        // Most solutions are waiting already: no need to release the interpreter.
        match rx.try_recv() {
            Ok(item) => self.deliver(rx, Some(item)),
            Err(TryRecvError::Disconnected) => self.deliver(rx, None),
            Err(TryRecvError::Empty) => self.wait(py, rx),
        }
    }

    /// Stop the search and release its thread; later `next()` calls end the iteration.
    fn close(&self) {
        self.cancel.cancel();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*state, State::Ready(_)) {
            // Dropping the receiver makes the worker's next hand-off fail.
            *state = State::Done;
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        _exc_type: Option<&Bound<'_, PyAny>>,
        _exc: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> bool {
        self.close();
        false
    }
}

impl Solutions {
    /// Hand a received item to Python and put the receiver back; `None`: the worker is done
    /// and everything was taken.
    fn deliver(&self, rx: Receiver<Item>, got: Option<Item>) -> PyResult<Option<String>> {
        match got {
            Some(Ok(line)) => {
                self.set_state(State::Ready(rx));
                Ok(Some(line))
            }
            Some(Err(message)) => {
                self.set_state(State::Done);
                Err(PyRuntimeError::new_err(message))
            }
            None => {
                self.set_state(State::Done);
                Ok(None)
            }
        }
    }

    /// Wait for the next item with the interpreter released, looking for signals every
    /// [`POLL`]; an interrupted wait leaves the iterator usable.
    fn wait(&self, py: Python<'_>, mut rx: Receiver<Item>) -> PyResult<Option<String>> {
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            match got {
                Ok(item) => return self.deliver(back, Some(item)),
                Err(RecvTimeoutError::Disconnected) => return self.deliver(back, None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.set_state(State::Ready(back));
                        return Err(e);
                    }
                    rx = back;
                }
            }
        }
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        // The receiver goes with `state`; the flag stops a search that finds nothing for a while.
        self.cancel.cancel();
    }
}
