//! How a run ends: the exit codes, the one error type of the subcommands ([`Fatal`]), the
//! cancel handle that Ctrl-C cancels, and the rule that picks the exit code.

use std::io;
use std::sync::LazyLock;
use sudoku_enum::Cancel;

/// Cancelled by the Ctrl-C / SIGTERM handler; every search holds it.
pub static CANCEL: LazyLock<Cancel> = LazyLock::new(Cancel::new);

/// Exit codes (documented in `--help` and the README).
pub mod exit {
    /// The answer asked for holds.
    pub const OK: u8 = 0;
    /// It does not (not unique, no solution, invalid, timed out).
    pub const NO: u8 = 1;
    /// Usage, input or I/O error.
    pub const ERROR: u8 = 2;
    /// Interrupted.
    pub const INTERRUPTED: u8 = 130;
}

/// A failure that ends the run (exit code 2), or a closed stdout (quiet exit 0). Every
/// subcommand returns `Result<u8, Fatal>`: its exit code, or this.
#[derive(Debug)]
pub enum Fatal {
    /// Standard output was closed by the reader (`| head`): stop quietly, like ripgrep.
    BrokenPipe,
    /// Anything else: printed as `sudoku-enum: {0}`.
    Message(String),
}

impl From<io::Error> for Fatal {
    fn from(e: io::Error) -> Fatal {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fatal::BrokenPipe
        } else {
            Fatal::Message(format!("cannot write to standard output: {e}"))
        }
    }
}

/// The one rule for exit codes: errors beat interruption beats "does not hold".
pub fn exit_for(errors: bool, failed: bool) -> u8 {
    if errors {
        exit::ERROR
    } else if CANCEL.is_cancelled() {
        exit::INTERRUPTED
    } else if failed {
        exit::NO
    } else {
        exit::OK
    }
}
