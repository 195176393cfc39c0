//! `sudoku-enum`: the command-line tool. Glue over the library; one exit path.

mod cli;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The first of Ctrl-C / SIGTERM / SIGHUP to arrive (0: none).
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

fn main() -> ExitCode {
    let args = match cli::args::Cli::try_parse() {
        Ok(a) => a,
        Err(e) => {
            // --help and --version are not errors.
            let code = if e.use_stderr() {
                cli::status::exit::ERROR
            } else {
                cli::status::exit::OK
            };
            // Help that cannot be written (`--help > /dev/full`) is an error; a reader that
            // closed the pipe early (`--help | head`) is not.
            return match e.print() {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    let _ = writeln!(
                        std::io::stderr(),
                        "sudoku-enum: cannot write to standard output: {w}"
                    );
                    ExitCode::from(cli::status::exit::ERROR)
                }
                _ => ExitCode::from(code),
            };
        }
    };
    // First Ctrl-C / SIGTERM / SIGHUP: stop searching, flush, report the partial result, then
    // end by that signal (see `end`). A second one: end by it at once. A signal action, not a
    // watcher thread: a thread would cost every short run its start-up, and the process's exit
    // would wait for it.
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    // Made now: the action must not be the first to touch (and allocate) it.
    std::sync::LazyLock::force(&cli::status::CANCEL);
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        // SAFETY: the action only swaps and stores atomic flags, and ends the process by the
        // signal's default action or `_exit`, all async-signal-safe (`CANCEL` is initialised
        // above).
        let _ = unsafe {
            signal_hook::low_level::register(signal, move || {
                if INTERRUPTED.swap(true, Ordering::SeqCst) {
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    signal_hook::low_level::exit(i32::from(cli::status::exit::INTERRUPTED));
                }
                let _ = SIGNALLED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
                cli::status::CANCEL.cancel();
            })
        };
        interrupts_reads(signal);
    }
    // One-thread searches run on this thread. Its 8 MiB are enough for release builds on every
    // board (64×64 needs about 4), not for a debug build's frames: there, a thread with the
    // stack a search needs.
    if cfg!(debug_assertions) {
        let worker = std::thread::Builder::new()
            .stack_size(sudoku_enum::SEARCH_STACK)
            .spawn(move || cli::run(args));
        return match worker.map(std::thread::JoinHandle::join) {
            Ok(Ok(code)) => end(code),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(e) => {
                let _ = writeln!(
                    std::io::stderr(),
                    "sudoku-enum: cannot start the search thread: {e}"
                );
                ExitCode::from(cli::status::exit::ERROR)
            }
        };
    }
    end(cli::run(args))
}

/// Let `signal` interrupt a blocking read: a run waiting for standard input (typed at a
/// terminal, or from a pipe that stays open) ends at the first Ctrl-C, as ripgrep's does, not at
/// the end of the input. The registry installs its action with `SA_RESTART`, which resumes the
/// read as if nothing had happened; without it, the read fails with `EINTR`, and the inputs'
/// reader ([`cli::input`]) ends the input once the run is cancelled. Reads and writes that must
/// go on (`write_all`, buffered output) retry on `EINTR` by themselves.
#[cfg(target_os = "linux")]
fn interrupts_reads(signal: i32) {
    // SAFETY: `sigaction` with a null new action only reads the current one into `action`
    // (zeroed, a valid `sigaction`), which is then installed again with one flag cleared: the
    // same handler, mask and other flags.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(signal, std::ptr::null(), &mut action) == 0
            && action.sa_flags & libc::SA_RESTART != 0
        {
            action.sa_flags &= !libc::SA_RESTART;
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn interrupts_reads(_signal: i32) {}

/// The run's exit code; but a run stopped by a signal (its partial results written and
/// flushed) ends by that signal's default action, as a shell expects of a child it sent
/// Ctrl-C: so that a script's loop stops too, rather than going on to its next command (bash
/// goes on when a child exits with 130 of its own accord). Exit status 130, 143 or 129 to the
/// shell; where the default action cannot be taken, 130.
fn end(code: u8) -> ExitCode {
    let signal = SIGNALLED.load(Ordering::SeqCst);
    if code == cli::status::exit::INTERRUPTED && signal != 0 {
        let _ = std::io::stdout().flush();
        let _ = signal_hook::low_level::emulate_default_handler(signal);
    }
    ExitCode::from(code)
}
