//! `sudoku-enum`: the command-line tool. Glue over the library; one exit path.

mod cli;

use clap::Parser;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

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
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // First Ctrl-C / SIGTERM: stop searching, flush, report the partial result (exit 130).
    // A second one: leave at once.
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(cli::status::exit::INTERRUPTED as i32);
        }
        cli::status::CANCEL.cancel();
    });
    ExitCode::from(cli::run(args))
}
