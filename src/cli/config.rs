//! The settings of the puzzle-answering subcommands (`count`, `check`, `solve`, `dump`), and the
//! search options they give each puzzle.

use super::args::Common;
use super::input::or_stdin;
use super::report::Job;
use super::status::CANCEL;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_enum::format::Layout;
use sudoku_enum::parse::{Alphabet, ParseOptions};
use sudoku_enum::{CountBy, EngineChoice, Options, Progress};

/// The settings of `count`, `check`, `solve` and `dump`.
pub struct Config {
    /// The job.
    pub job: Job,
    /// Inputs (`-` = stdin).
    pub files: Vec<PathBuf>,
    /// Worker threads.
    pub threads: usize,
    /// JSON Lines.
    pub json: bool,
    /// Layout of printed boards.
    pub layout: Layout,
    /// Parser settings.
    pub parse: ParseOptions,
    /// `--output-alphabet`: boards in this alphabet rather than the input's.
    pub out_alphabet: Option<Alphabet>,
    /// No bars, no summary.
    pub quiet: bool,
    /// Per-puzzle time limit.
    pub timeout: Option<Duration>,
    /// Stop at the first unreadable record.
    pub strict: bool,
    /// Engine choice.
    pub engine: EngineChoice,
    /// How count-only searches count.
    pub count_by: CountBy,
    /// `count --turn`: count by bands on this turn.
    pub turn: Option<usize>,
    /// Solution limit per puzzle.
    pub limit: Option<u64>,
    /// `check --explain`: the setter's report.
    pub explain: bool,
    /// `check --minimal`: are all givens needed?
    pub minimal: bool,
}

impl Config {
    /// The alphabet `puzzle`'s answers are written in, read in `read`: `--output-alphabet`,
    /// else the input's. A board of values from 0 (`.Shape~6x6~0-5`) is always written in
    /// `0-F`, the one alphabet whose first digit is 0 (the others would shift every value).
    pub fn out_alphabet_for(&self, puzzle: &sudoku_enum::Puzzle, read: Alphabet) -> Alphabet {
        if puzzle
            .rules()
            .is_some_and(sudoku_enum::rules::Rules::zero_based)
        {
            return Alphabet::Hex;
        }
        self.out_alphabet.unwrap_or(read)
    }

    /// The settings of `job` from its common options, with this solution limit.
    pub fn new(job: Job, common: Common, limit: Option<u64>) -> Config {
        let threads = sudoku_enum::worker_threads(common.threads);
        let files = or_stdin(&common.files);
        Config {
            job,
            files,
            threads,
            json: common.json,
            layout: common.format.unwrap_or(Layout::Line),
            parse: common.input.parse_options(common.box_shape),
            out_alphabet: common.output_alphabet,
            quiet: common.quiet,
            timeout: common.timeout.map(Duration::from_secs_f64),
            strict: common.strict,
            engine: common.engine.into(),
            count_by: CountBy::Auto,
            turn: None,
            limit,
            explain: false,
            minimal: false,
        }
    }

    /// The search options for one puzzle: stop at `limit`, report to `progress` if given.
    pub fn options(&self, limit: Option<u64>, progress: Option<Progress>) -> Options {
        Options {
            threads: self.threads,
            limit,
            timeout: self.timeout,
            deadline: None,
            cancel: Some(CANCEL.clone()),
            progress,
            engine: self.engine,
            count_by: self.count_by,
            turn: self.turn,
        }
    }
}
