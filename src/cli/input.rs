//! Reading the inputs: each file (`-` = stdin) in turn, record by record, with its open and
//! read errors and "no puzzle found" reported the same way by every subcommand.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use sudoku_enum::parse::{
    Alphabet, ParseError, ParseOptions, Parsed, ReadError, Reader, TableFormat,
};
use sudoku_enum::Puzzle;

use super::progress::note;
use super::report::json_error;
use super::status::{Fatal, CANCEL};

/// Name of an input for messages: the path, or `<stdin>`.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Open an input for reading (`-` = stdin).
pub fn open_input(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    if path == Path::new("-") {
        // Typed at a terminal: ask, as seed 000's program does.
        if io::stdin().is_terminal() {
            note(format_args!(
                "Enter a Sudoku puzzle: one line, or a grid of rows (Ctrl-D to end)"
            ));
        }
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            Cancellable(io::stdin()),
        )))
    } else {
        let f = File::open(path)?;
        if f.metadata()?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        Ok(Box::new(BufReader::with_capacity(1 << 16, Cancellable(f))))
    }
}

/// An input that fails once the run is cancelled (Ctrl-C, SIGTERM, SIGHUP): a read the
/// signal interrupted (`EINTR`, see `interrupts_reads` in `main.rs`), and every read after it,
/// returns [`interrupted`] rather than waiting on; a read it did not interrupt is tried again.
/// An error, not the end of the input: what was read of a record when the signal came (part
/// of a line, the first rows of a grid) must not be read as a record cut short.
struct Cancellable<R>(R);

impl<R: Read> Read for Cancellable<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if CANCEL.is_cancelled() {
                return Err(interrupted());
            }
            match self.0.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                done => return done,
            }
        }
    }
}

/// The error of an input read after the run was cancelled. Not of the kind
/// [`io::ErrorKind::Interrupted`], which readers retry (for ever, here): the run is over.
fn interrupted() -> io::Error {
    io::Error::other("interrupted")
}

/// The inputs of a subcommand: the files given, or standard input when none is.
pub fn or_stdin(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

/// A record of an input: a puzzle and its first line, or a record that could not be read.
pub enum Record {
    /// A puzzle, its first line and the alphabet it is written in.
    Puzzle(usize, Puzzle, Alphabet),
    /// An unreadable record.
    Bad(ParseError),
}

/// The records of one input, ending at its end or at an I/O error (kept for the report).
pub struct Records {
    reader: Reader<Box<dyn BufRead + Send>>,
    seen_any: bool,
    io_error: Option<io::Error>,
}

impl Iterator for Records {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        let record = match self.reader.next()? {
            Ok(Parsed {
                line,
                puzzle,
                alphabet,
            }) => Record::Puzzle(line, puzzle, alphabet),
            Err(ReadError::Parse(e)) => Record::Bad(e),
            Err(ReadError::Io(e)) => {
                self.io_error = Some(e);
                return None;
            }
        };
        self.seen_any = true;
        Some(record)
    }
}

/// Input errors counted by [`for_each_input`].
#[derive(Debug, Default, Clone, Copy)]
pub struct InputErrors {
    /// Files that could not be opened or read.
    pub io: u64,
    /// Inputs without a puzzle.
    pub empty: u64,
}

/// Read every input in turn: `each(name, records)` gets the records of each (it says whether
/// the run goes on). A file that cannot be opened, a read error (after every record before it)
/// and an input without a puzzle are reported on stderr and counted in `errors`; a `Break`
/// from `each` stops at once, reporting nothing more.
pub fn for_each_input(
    files: &[PathBuf],
    parse: ParseOptions,
    errors: &mut InputErrors,
    mut each: impl FnMut(&str, &mut Records) -> Result<ControlFlow<()>, Fatal>,
) -> Result<(), Fatal> {
    for path in or_stdin(files) {
        let name = display_name(&path);
        let input = match open_input(&path) {
            Ok(r) => r,
            Err(e) => {
                note(format_args!("sudoku-enum: {name}: {e}"));
                errors.io += 1;
                continue;
            }
        };
        // A file's extension says what it is (.csv, .tsv, .json); its content, otherwise.
        let parse = ParseOptions {
            table: TableFormat::from_extension(&path),
            ..parse
        };
        let mut records = Records {
            reader: Reader::new(input, parse),
            seen_any: false,
            io_error: None,
        };
        // Cancelled (the input may have been cut short by it): nothing more to report.
        if each(&name, &mut records)?.is_break() || CANCEL.is_cancelled() {
            return Ok(());
        }
        if let Some(e) = records.io_error {
            note(format_args!("sudoku-enum: {name}: read error: {e}"));
            errors.io += 1;
        } else if !records.seen_any {
            note(format_args!("sudoku-enum: {name}: no puzzle found"));
            errors.empty += 1;
        }
    }
    Ok(())
}

/// Report an unreadable record of input `name` on stderr.
pub fn report_bad(name: &str, e: &ParseError) {
    note(format_args!(
        "sudoku-enum: {name}:{}:{}: {}",
        e.line, e.column, e.kind
    ));
}

/// Report an unreadable record of input `name` in the output `out` too: with `json`, a JSON
/// error line in its place (`check --json`, `candidates --json`); `out` is flushed before
/// the message goes to stderr, so that the two show in order on one terminal.
pub fn report_bad_in<W: Write>(
    out: &mut W,
    name: &str,
    e: &ParseError,
    json: bool,
) -> io::Result<()> {
    if json {
        let source = format!("{name}:{}:{}", e.line, e.column);
        writeln!(out, "{}", json_error(&source, &e.kind.to_string()))?;
    }
    out.flush()?;
    report_bad(name, e);
    Ok(())
}

/// Every puzzle of the inputs in turn, as `each(source, puzzle)` with `source` = `FILE:LINE`,
/// until the end or Ctrl-C. Unreadable records are reported on stderr; returns how many
/// records and inputs were in error.
pub fn for_each_puzzle(
    files: &[PathBuf],
    parse: ParseOptions,
    mut each: impl FnMut(String, Puzzle) -> Result<(), Fatal>,
) -> Result<u64, Fatal> {
    let (mut errors, mut bad) = (InputErrors::default(), 0);
    for_each_input(files, parse, &mut errors, |name, records| {
        for record in records {
            match record {
                Record::Puzzle(line, puzzle, _) => each(format!("{name}:{line}"), puzzle)?,
                Record::Bad(e) => {
                    report_bad(name, &e);
                    bad += 1;
                }
            }
            if CANCEL.is_cancelled() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(bad + errors.io + errors.empty)
}
