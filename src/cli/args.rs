//! Command-line arguments (clap derive).

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use sudoku_enum::format::Layout;
use sudoku_enum::parse::{Alphabet, Column, ParseOptions};
use sudoku_enum::{estimate, partition};
use sudoku_enum::{CountBy, EngineChoice, Shape};

/// The overview after `sudoku-enum --help`: one line a subcommand.
const EXAMPLES: &str = "\
Examples:
  sudoku-enum check puzzles/samples/top1465_200.txt  verdict per puzzle (unique, multiple, ...)
  sudoku-enum count puzzles/empty6x6.txt             exact count (28200960)
  sudoku-enum solve --format grid puzzles/seed001.txt  the solution as a boxed board
  sudoku-enum dump -n 100 puzzles/empty4x4.txt       the first 100 solutions, one per line
  sudoku-enum candidates puzzles/seed000.txt         true candidates of every cell
  sudoku-enum estimate puzzles/empty6x6.txt          how big is the job?
  sudoku-enum split --parts 16 p.txt > parts.txt     cut a long count into parts...
  sudoku-enum merge --parts parts.txt results.jsonl  ...and add their counts up
  sudoku-enum completions bash > sudoku-enum.bash    shell completions (bash, zsh, fish, ...)
  sudoku-enum man > sudoku-enum.1                    the manual page
Each subcommand's --help has examples of its own.

Exit codes:
  0    the answer asked for holds: every puzzle unique (check), solved (solve),
       counted with at least one solution (count), solutions written (dump)
  1    it does not: a puzzle is not unique, has no solution, is invalid, or timed out
  2    usage, input (parse) or I/O error
  130  interrupted (Ctrl-C / SIGTERM): the partial result is printed first, then the process
       ends by the signal (143 for SIGTERM), so a script's loop stops too";

/// The exit codes of count, check, solve and dump.
macro_rules! batch_exit_codes {
    () => {
        "Exit codes: 0 the answer asked for holds; 1 it does not (a puzzle not unique, without a
solution, invalid, or timed out); 2 usage, input or I/O error; 130 interrupted (the partial
result is printed first)."
    };
}

const COUNT_EXAMPLES: &str = concat!(
    "\
Examples:
  sudoku-enum count puzzles/empty6x6.txt            exact: 28200960 solutions
  sudoku-enum count puzzles/first_band.txt          7802998272, counted by bands in ms
  sudoku-enum count --limit 1000 puzzles/empty6x6.txt  stops: \"at least 1000 solutions\"
  sudoku-enum count --json -q -j 1 parts.txt        JSON Lines, as merge reads them
  sudoku-enum count --count-by search puzzles/empty4x4.txt  solution by solution

The count of a lone puzzle that turns out long (2 s in, predicted to take a minute or more)
is announced on stderr with an estimate of its solutions and its predicted time, then goes on.

",
    batch_exit_codes!(),
    "\nFor count, 0 means every puzzle has at least one solution."
);

const CHECK_EXAMPLES: &str = concat!(
    "\
Examples:
  sudoku-enum check puzzles/samples/top1465_200.txt   unique, multiple, unsolvable, invalid
  sudoku-enum check --json puzzles/seed000.txt         one JSON object per puzzle
  sudoku-enum check --explain puzzles/seed001.txt      singles levels, nodes, guesses
  sudoku-enum check --minimal puzzles/seed000.txt      are all the givens needed?
  sudoku-enum check --timeout 10 hard.txt              \"unknown (timed out)\" after 10 s

",
    batch_exit_codes!(),
    "\nFor check, 0 means every puzzle is unique."
);

const SOLVE_EXAMPLES: &str = concat!(
    "\
Examples:
  sudoku-enum solve puzzles/seed000.txt                the solution on one line
  sudoku-enum solve --format grid puzzles/seed001.txt  as a boxed board
  echo 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........ \\
      | sudoku-enum solve --format rows               from standard input, the puzzle and
                                                      its solution in rows of numbers
  sudoku-enum solve --output-alphabet 0-F puzzles/big16.txt  a 16x16 in hex digits

",
    batch_exit_codes!(),
    "\nFor solve, 0 means every puzzle was solved."
);

const DUMP_EXAMPLES: &str = concat!(
    "\
Examples:
  sudoku-enum dump puzzles/empty4x4.txt                all 288 solutions, one per line
  sudoku-enum dump -n 100000 -o out.txt puzzles/empty6x6.txt  the first 100000, to a file
  sudoku-enum dump --ordered -n 10 puzzles/empty6x6.txt  the order one thread finds them in
  sudoku-enum dump --json -n 5 puzzles/empty4x4.txt    JSON Lines with the source

",
    batch_exit_codes!(),
    "\nFor dump, 0 means solutions were written."
);

const CANDIDATES_EXAMPLES: &str = "\
Examples:
  sudoku-enum candidates puzzle.txt            pencil marks of every cell, counts up to 8
  sudoku-enum candidates --cap 1 --json p.txt  only the candidates, as JSON Lines

Each candidate is decided by a search with it as one more given, stopped at the cap;
the solutions of the first search (and of every later one) answer many at once.
Exit codes: 0 every puzzle has a solution and was decided; 1 one has none, is invalid,
or timed out; 2 usage, input or I/O error; 130 interrupted.";

const SPLIT_EXAMPLES: &str = "\
Examples:
  sudoku-enum split --parts 16 puzzles/empty6x6.txt > parts.txt   about 16 parts
  sudoku-enum split --depth 2 puzzles/empty6x6.txt > parts.txt    every node 2 decisions down
  grep -v '^#' parts.txt | parallel -j 2 --pipe -N 1 sudoku-enum count --json -q -j 1 \\
      > results.jsonl                                  count the parts anywhere
  sudoku-enum merge --parts parts.txt results.jsonl  the total

The parts file: '#' comment lines (the original puzzle, its id), then one part a line
(an ordinary puzzle line: every solution belongs to exactly one part).
Exit codes: 0 parts written; 1 a puzzle is invalid (no parts); 2 usage, input or I/O
error; 130 interrupted.";

const MERGE_EXAMPLES: &str = "\
Examples:
  sudoku-enum merge --parts parts.txt results.jsonl      total: N solutions (K parts)
  cat a.jsonl b.jsonl | sudoku-enum merge --parts parts.txt   results from several runs
  sudoku-enum merge --json --parts parts.txt results.jsonl    one JSON object

Exit codes: 0 every part has exactly one complete result and the total is printed; 2 a part
is missing, duplicated or incomplete (limit, timeout, interrupted), a result belongs to no
part, or a file cannot be read: nothing is added up.";

const ESTIMATE_EXAMPLES: &str = "\
Examples:
  sudoku-enum estimate puzzles/empty6x6.txt          count (95% CI), tree size, count time
  sudoku-enum estimate puzzles/long9x9.txt           counts of seconds: predicted times
  sudoku-enum estimate --seed 7 -s 100000 p.txt      more probes, another seed
  sudoku-enum estimate --calibrate 0 p.txt           the count alone, no trial count
  sudoku-enum estimate --json puzzles/empty6x6.txt   JSON Lines

The count time comes from a trial of the real count (--calibrate SECS, 1 s by default: counting
by bands where count would, with -j threads), extrapolated from the share of the tree it did;
a trial that finishes gives the exact count.
Exit codes: 0 estimated; 1 a puzzle is invalid; 2 usage, input or I/O error; 130
interrupted.";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  sudoku-enum completions bash > ~/.local/share/bash-completion/completions/sudoku-enum
  sudoku-enum completions zsh > ~/.zfunc/_sudoku-enum     (with fpath+=~/.zfunc in .zshrc)
  sudoku-enum completions fish > ~/.config/fish/completions/sudoku-enum.fish";

const MAN_EXAMPLES: &str = "\
Examples:
  sudoku-enum man > sudoku-enum.1 && man ./sudoku-enum.1
  sudoku-enum man | gzip > /usr/local/share/man/man1/sudoku-enum.1.gz";

/// Exact all-solutions enumerator and uniqueness checker for N×N sudoku.
#[derive(Debug, Parser)]
#[command(name = "sudoku-enum", version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the solutions of each puzzle (exactly, or up to --limit).
    #[command(after_help = COUNT_EXAMPLES, mut_arg("format", |a| a.hide(true)))]
    Count {
        #[command(flatten)]
        common: Common,
        /// Stop at N solutions and report "at least N" (N >= 1).
        #[arg(long, value_name = "N", value_parser = parse_limit)]
        limit: Option<u64>,
        /// How to count: auto (the search, then by bands once the count turns out big),
        /// search (the search alone), bands (by bands from the start).
        #[arg(
            long = "count-by",
            value_enum,
            default_value = "auto",
            value_name = "HOW"
        )]
        count_by: CountByArg,
        /// Count by bands on the N-th turn of each puzzle, not the one the estimates pick, where
        /// a count goes by bands at all (a whole count of a classic puzzle; on 9×9: 0–2 each
        /// band first, 3–5 the same transposed; a turn the board does not have counts by the
        /// search). For measuring the choice of turn (`benches/turns.py`). It says how to
        /// count: not with `--count-by`.
        #[arg(long, value_name = "N", hide = true, conflicts_with = "count_by")]
        turn: Option<usize>,
    },
    /// Say whether each puzzle is unique, multiple, unsolvable or invalid.
    #[command(after_help = CHECK_EXAMPLES, mut_arg("format", |a| a.hide(true)))]
    Check {
        #[command(flatten)]
        common: Common,
        /// The setter's report: level 0 (naked singles, as seed 001), naked + hidden singles, or
        /// search; cells filled at each level; search nodes and guesses; boards as seed 001 prints.
        #[arg(long)]
        explain: bool,
        /// Also say whether every given is necessary, listing the redundant ones.
        #[arg(long)]
        minimal: bool,
    },
    /// Print the first solution of each puzzle (and whether it is the only one).
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve {
        #[command(flatten)]
        common: Common,
    },
    /// Write the first N solutions (all without -n), one per line, as they are found.
    #[command(after_help = DUMP_EXAMPLES)]
    Dump {
        #[command(flatten)]
        common: Common,
        /// Write at most N solutions per puzzle (exactly min(N, total); N >= 1).
        #[arg(short = 'n', long = "max", value_name = "N", value_parser = parse_limit)]
        max: Option<u64>,
        /// Write to this file (via OUT.partial, renamed when complete) instead of stdout ("-"
        /// and /dev/stdout: stdout, as without -o).
        #[arg(short = 'o', long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Overwrite OUT if it exists.
        #[arg(long)]
        force: bool,
        /// Write solutions in the order a one-thread search finds them (the same lines as
        /// --threads 1), still using every thread.
        #[arg(long)]
        ordered: bool,
    },
    /// True candidates: the digits of each cell that appear in at least one solution, with
    /// the number of solutions through each (up to --cap), as a pencil-mark grid.
    #[command(after_help = CANDIDATES_EXAMPLES, mut_arg("format", |a| a.hide(true)))]
    Candidates {
        #[command(flatten)]
        common: Common,
        /// Count the solutions through each candidate up to K (1: only say which digits are
        /// candidates).
        #[arg(long, value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..))]
        cap: u64,
    },
    /// Cut each puzzle into disjoint parts (one-line sub-puzzles) to count anywhere with
    /// `count --json`; `merge` adds the results up.
    #[command(after_help = SPLIT_EXAMPLES)]
    Split(SplitArgs),
    /// Add up `count --json` results of the parts written by `split`, refusing when a part is
    /// missing, duplicated or incomplete.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// Estimate the solution count, tree size and count time by random probes (Knuth 1975).
    #[command(after_help = ESTIMATE_EXAMPLES)]
    Estimate(EstimateArgs),
    /// Print a completion script for SHELL to stdout (bash, zsh, fish, elvish, powershell).
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell.
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff, for man) to stdout.
    #[command(after_help = MAN_EXAMPLES)]
    Man,
}

/// Options every subcommand takes.
#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Puzzle files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Worker threads (default, or 0: all cores; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// JSON Lines output: one object per puzzle.
    #[arg(long)]
    pub json: bool,
    /// Board layout for printed solutions (solve, dump): line (default), grid, rows, bands.
    #[arg(long, value_name = "FORMAT", value_parser = parse_layout)]
    pub format: Option<Layout>,
    /// Box shape RxC (rows x columns of a box); inferred from the puzzle size when absent:
    /// the squarest box with no more rows than columns (16 cells: 2x2, 36: 2x3, 64: 2x4, 81:
    /// 3x3, 100: 2x5, 144: 3x4, 256: 4x4, 625: 5x5).
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape)]
    pub box_shape: Option<Shape>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Write boards in this alphabet instead of the input's: 1-9A-Z, 0-F, A-Z or numbers.
    #[arg(long, value_name = "ALPHABET")]
    pub output_alphabet: Option<Alphabet>,
    /// No progress bar, no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Give up on a puzzle after SECS seconds ("unknown (timed out)").
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<f64>,
    /// Stop at the first unreadable puzzle, or input that cannot be read or holds no puzzle,
    /// instead of reporting it and going on.
    #[arg(long)]
    pub strict: bool,
    /// Engine for 9x9 puzzles (generic: the any-size engine, for cross-checks).
    #[arg(long, value_enum, default_value = "auto", hide = true)]
    pub engine: EngineArg,
}

/// How inputs are read, beside the box shape (every subcommand that reads puzzles).
#[derive(Debug, Args, Clone, Default)]
pub struct InputArgs {
    /// The characters of digits on boards above 9x9: 1-9A-Z (1-9 then letters, '0' or '.'
    /// empty), 0-F (hex: '0' is 1, '.' empty), A-Z (letters: 'A' is 1) or numbers. Recognised
    /// when absent; a '0' it cannot place is an error that asks for this option.
    #[arg(long, value_name = "ALPHABET")]
    pub alphabet: Option<Alphabet>,
    /// The column of a CSV/TSV/JSON table that holds the puzzles: a header name or a 1-based
    /// index (default: a column named puzzle, quizzes, question, ..., else the first whose
    /// first row holds a puzzle).
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<Column>,
}

impl InputArgs {
    /// The parser's options for these arguments and a box shape.
    pub fn parse_options(&self, shape: Option<Shape>) -> ParseOptions {
        ParseOptions {
            shape,
            alphabet: self.alphabet,
            column: self.column,
            ..ParseOptions::default()
        }
    }
}

/// `split` arguments.
#[derive(Debug, Args, Clone)]
#[command(group(ArgGroup::new("how").required(true).args(["parts", "depth"])))]
pub struct SplitArgs {
    /// Puzzle files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Cut each puzzle into about K parts of similar estimated work (at least K where the tree
    /// allows; the last cut may add a few).
    #[arg(short = 'k', long, value_name = "K", value_parser = parse_parts)]
    pub parts: Option<usize>,
    /// Cut each puzzle after D branch decisions instead (every surviving node is a part).
    #[arg(long, value_name = "D")]
    pub depth: Option<usize>,
    /// Box shape RxC; inferred from the puzzle size when absent.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape)]
    pub box_shape: Option<Shape>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads for the work estimates (default, or 0: all cores).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Engine for 9x9 puzzles (its tree is the one cut).
    #[arg(long, value_enum, default_value = "auto", hide = true)]
    pub engine: EngineArg,
}

/// `estimate` arguments.
#[derive(Debug, Args, Clone)]
pub struct EstimateArgs {
    /// Puzzle files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Random probes per puzzle (at least two a stratum are made: with few, more).
    #[arg(short = 's', long, value_name = "S", default_value_t = estimate::DEFAULT_SAMPLES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub samples: u64,
    /// Seed of the random probes (the same seed gives the same estimate).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Pieces the top of the tree is expanded into before probing (1: Knuth's plain estimator;
    /// at most 10000).
    #[arg(long, value_name = "N", default_value_t = estimate::DEFAULT_STRATA,
          value_parser = parse_strata)]
    pub strata: usize,
    /// Seconds of a trial of the real count, whose progress predicts the count time (a trial
    /// that finishes gives the exact count; 0: no trial, no prediction).
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = parse_secs0)]
    pub calibrate: f64,
    /// Box shape RxC; inferred from the puzzle size when absent.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_shape)]
    pub box_shape: Option<Shape>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads for the probes and the trial count (the prediction is for this many;
    /// default, or 0: all cores).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// JSON Lines output: one object per puzzle.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Engine for 9x9 puzzles.
    #[arg(long, value_enum, default_value = "auto", hide = true)]
    pub engine: EngineArg,
}

/// `merge` arguments.
#[derive(Debug, Args, Clone)]
pub struct MergeArgs {
    /// JSON Lines from `count --json` on the parts; standard input when none is given or for `-`.
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    /// The parts file written by `split` (the reference: every part must have one complete
    /// result).
    #[arg(long, value_name = "PARTS_FILE")]
    pub parts: PathBuf,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `s` as a number of `what` from 1 to `most`.
fn count_up_to(s: &str, most: usize, what: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(v) if (1..=most).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of {what} from 1 to {most}")),
    }
}

fn parse_strata(s: &str) -> Result<usize, String> {
    count_up_to(s, estimate::MAX_STRATA, "strata")
}

fn parse_parts(s: &str) -> Result<usize, String> {
    count_up_to(s, partition::MAX_PARTS, "parts")
}

fn parse_secs0(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..1e6).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds")),
    }
}

/// `count --count-by` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountByArg {
    /// The search for a few thousand nodes, then by bands if it has not finished.
    Auto,
    /// The search alone.
    Search,
    /// By bands from the start.
    Bands,
}

impl From<CountByArg> for CountBy {
    fn from(c: CountByArg) -> CountBy {
        match c {
            CountByArg::Auto => CountBy::Auto,
            CountByArg::Search => CountBy::Search,
            CountByArg::Bands => CountBy::Bands,
        }
    }
}

/// `--engine` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Pick the fastest engine for the shape.
    Auto,
    /// The generic engine everywhere.
    Generic,
}

impl From<EngineArg> for EngineChoice {
    fn from(e: EngineArg) -> EngineChoice {
        match e {
            EngineArg::Auto => EngineChoice::Auto,
            EngineArg::Generic => EngineChoice::Generic,
        }
    }
}

/// `--limit` and `dump -n`: a positive number (a limit of 0 would stop before the first
/// solution and report nothing).
fn parse_limit(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("a limit of 0 would stop before the first solution; give 1 or more".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("{s:?} is not a number of solutions: {e}")),
    }
}

fn parse_layout(s: &str) -> Result<Layout, String> {
    s.parse()
}

/// `--box` values.
pub fn parse_shape(s: &str) -> Result<Shape, String> {
    s.parse::<Shape>().map_err(|e| e.to_string())
}

fn parse_secs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        Ok(v) if v >= 1e9 => Err(format!("{s:?} seconds is too long (below 10^9, 31 years)")),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

/// The most worker threads `-j` takes. Each thread keeps tables of its own (megabytes when
/// counting): thousands of them cost seconds to start and gigabytes, for no gain on any
/// machine this runs on.
pub const MAX_THREADS: usize = 1024;

fn parse_threads(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        Ok(_) => Err(format!(
            "{s} worker threads is too many (at most {MAX_THREADS}; 0: every core)"
        )),
        Err(_) => Err(format!("{s:?} is not a number of threads")),
    }
}
