//! The binary's glue: arguments → the subcommand → its exit code. One error convention (every
//! subcommand returns `Result<u8, Fatal>`), one rayon pool (built here), one input loop
//! (`input`), one kind of progress bar (`progress`).
//!
//! - `args`: the command line (clap derive), every subcommand's arguments;
//! - `status`: exit codes, [`Fatal`](status::Fatal), the Ctrl-C cancel handle;
//! - `input`: reading the inputs record by record, with their errors reported;
//! - `config`: the settings of `count`, `check`, `solve` and `dump`;
//! - `batch`: `count`, `check`, `solve`; `dump`: streaming solutions to a file or stdout;
//! - `candidates`: true candidates as pencil marks or JSON;
//! - `report`: answers as text lines or JSON, the summary line; `explain`: `check --explain`;
//! - `split`, `merge`, `estimate`: a count spread over many machines, and its size; `parts`:
//!   the parts file that `split` writes and `merge` reads;
//! - `docs`: `completions SHELL` and `man`, generated from `args`;
//! - `progress`: the bars on stderr.

pub mod args;
mod batch;
mod candidates;
mod config;
mod docs;
mod dump;
mod estimate;
mod explain;
mod input;
mod merge;
mod parts;
pub mod progress;
pub mod report;
mod split;
pub mod status;

use args::{Cli, Command};
use config::Config;
use report::Job;
use status::{exit, Fatal};

/// Options given where they would do nothing: the usage error that refuses them (exit 2, as
/// clap's own), naming the subcommand and why. `None` when the command line is coherent.
fn pointless(command: &Command) -> Option<(&'static str, String)> {
    let (name, common) = match command {
        Command::Count { common, .. } => ("count", common),
        Command::Check { common, .. } => ("check", common),
        Command::Solve { common } => ("solve", common),
        Command::Candidates { common, .. } => ("candidates", common),
        Command::Dump {
            common,
            output,
            force,
            ..
        } => {
            if *force && output.is_none() {
                return Some((
                    "dump",
                    "--force does nothing without -o OUT (it allows overwriting OUT)".into(),
                ));
            }
            ("dump", common)
        }
        Command::Split(_)
        | Command::Merge(_)
        | Command::Estimate(_)
        | Command::Completions { .. }
        | Command::Man => return None,
    };
    // count and check print no board but the puzzle of --json, and --explain's boards.
    let explain = matches!(command, Command::Check { explain: true, .. });
    if matches!(name, "count" | "check")
        && common.output_alphabet.is_some()
        && !common.json
        && !explain
    {
        return Some((
            name,
            format!(
                "--output-alphabet does nothing in {name} without --json{}: it writes boards, \
                 and {name} prints none",
                if name == "check" { " or --explain" } else { "" }
            ),
        ));
    }
    let format = common.format?;
    let format = match format {
        sudoku_enum::format::Layout::Line => "line",
        sudoku_enum::format::Layout::Grid => "grid",
        sudoku_enum::format::Layout::Rows => "rows",
        sudoku_enum::format::Layout::Bands => "bands",
    };
    if matches!(name, "count" | "check" | "candidates") {
        return Some((
            name,
            format!(
                "--format {format} does nothing in {name}: it lays out the solutions that \
                 solve and dump print"
            ),
        ));
    }
    (common.json && format != "line").then(|| {
        (
            name,
            format!(
                "--format {format} does nothing with --json (solutions are one-line strings there)"
            ),
        )
    })
}

/// Print a usage error for subcommand `name` as clap prints its own; returns exit code 2.
fn usage_error(name: &str, message: &str) -> u8 {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    cmd.build();
    let sub = cmd.find_subcommand_mut(name).map(|c| c.clone());
    let err = match sub {
        Some(mut sub) => sub.error(clap::error::ErrorKind::ArgumentConflict, message),
        None => cmd.error(clap::error::ErrorKind::ArgumentConflict, message),
    };
    let _ = err.print();
    exit::ERROR
}

/// Run the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> u8 {
    if let Some((name, message)) = pointless(&cli.command) {
        return usage_error(name, &message);
    }
    // The one rayon pool: every search and probe of the run uses it (`merge` needs none). The
    // searches start it when they first need it (`start_global_pool`: a batch's first chunk of
    // several puzzles, a lone puzzle's search once its serial try runs out): starting the
    // workers and waiting for them costs more than a small puzzle takes. `split` and
    // `estimate` start theirs here.
    let (threads, searches) = match &cli.command {
        Command::Count { common, .. }
        | Command::Check { common, .. }
        | Command::Solve { common }
        | Command::Dump { common, .. }
        | Command::Candidates { common, .. } => (Some(common.threads), true),
        Command::Split(args) => (Some(args.threads), false),
        Command::Estimate(args) => (Some(args.threads), false),
        Command::Merge(_) | Command::Completions { .. } | Command::Man => (None, false),
    };
    if let Some(requested) = threads {
        let n = sudoku_enum::worker_threads(requested);
        if !searches {
            if let Err(e) = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .stack_size(sudoku_enum::SEARCH_STACK)
                .build_global()
            {
                progress::note(format_args!(
                    "sudoku-enum: cannot start {n} worker threads: {e}"
                ));
                return exit::ERROR;
            }
        }
    }
    let result = match cli.command {
        Command::Count {
            common,
            limit,
            count_by,
            turn,
        } => {
            let mut config = Config::new(Job::Count, common, limit);
            config.count_by = count_by.into();
            if turn.is_some() {
                config.count_by = sudoku_enum::CountBy::Bands;
                config.turn = turn;
            }
            batch::run(&config)
        }
        Command::Check {
            common,
            explain,
            minimal,
        } => {
            let mut config = Config::new(Job::Check, common, Some(2));
            config.explain = explain;
            config.minimal = minimal;
            batch::run(&config)
        }
        Command::Solve { common } => batch::run(&Config::new(Job::Solve, common, Some(2))),
        Command::Dump {
            common,
            max,
            output,
            force,
            ordered,
        } => dump::run(
            &Config::new(Job::Dump, common, max),
            output.as_deref(),
            force,
            ordered,
        ),
        Command::Candidates { common, cap } => {
            candidates::run(&Config::new(Job::Check, common, None), cap)
        }
        Command::Split(args) => split::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Estimate(args) => estimate::run(args),
        Command::Completions { shell } => docs::completions(shell),
        Command::Man => docs::man(),
    };
    match result {
        Ok(code) => code,
        Err(Fatal::BrokenPipe) => exit::OK,
        Err(Fatal::Message(m)) => {
            progress::note(format_args!("sudoku-enum: {m}"));
            exit::ERROR
        }
    }
}
