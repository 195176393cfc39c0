//! Reading the inputs: each file (`-` = stdin) in turn, record by record, with its open and
//! read errors and "no puzzle found" reported the same way by every subcommand.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
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

/// Whether a read of the input at `path` (`-` = stdin) may wait for a writer: anything but a
/// regular file (a pipe, a terminal, a FIFO, a socket), or what cannot be told.
fn may_wait(path: &Path) -> bool {
    let path = if path == Path::new("-") {
        Path::new("/dev/stdin")
    } else {
        path
    };
    std::fs::metadata(path).map_or(true, |m| !m.is_file())
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
///
/// An input whose reads may wait (standard input, a pipe: anything but a regular file) is read
/// by a thread of its own, so that the records read so far can be answered, and their answers
/// shown, while the input waits for more ([`Records::ready`], [`Records::take_ready`]): a
/// slow writer, `tail -f`, or a program that writes a puzzle and waits for its answer gets
/// each answer as its puzzle comes, not once a chunk is full or the input ends.
pub struct Records {
    source: Source,
    /// What [`Records::ready`] or [`Records::lone`] read ahead: a record, or the end (`None`).
    ahead: Option<Option<Item>>,
    /// The end was handed out.
    ended: bool,
    seen_any: bool,
    io_error: Option<io::Error>,
}

/// What a reader yields.
type Item = Result<Parsed, ReadError>;

/// Where the records come from.
enum Source {
    /// Read on this thread, as asked for (a regular file: its reads do not wait).
    Here(Box<Reader<Box<dyn BufRead + Send>>>),
    /// Read by the input's own thread, which sends each as it is read.
    Thread(mpsc::Receiver<Item>),
}

/// How long [`Records::pull`] may wait.
#[derive(Clone, Copy)]
enum Wait {
    /// Until a record or the end comes (or the run is cancelled: then the end).
    Block,
    /// Not at all.
    Not,
    /// This long at most.
    For(Duration),
}

/// Records the input's thread may read ahead of the answers (memory stays bounded).
const READ_AHEAD: usize = 256;

/// How long to wait for a record's input to end before it is answered as the input's only
/// one (see [`Records::lone`]).
const LONE_WAIT: Duration = Duration::from_millis(20);

impl Records {
    /// The records of `reader`; `may_wait` where its reads may wait for a writer.
    fn new(reader: Reader<Box<dyn BufRead + Send>>, may_wait: bool) -> Records {
        let source = if may_wait {
            read_by_thread(reader)
        } else {
            Source::Here(Box::new(reader))
        };
        Records {
            source,
            ahead: None,
            ended: false,
            seen_any: false,
            io_error: None,
        }
    }

    /// The next item, or the end (`Some(None)`), if one comes within `wait` (`None` if not).
    fn pull(&mut self, wait: Wait) -> Option<Option<Item>> {
        let rx = match &mut self.source {
            Source::Here(reader) => return Some(reader.next()),
            Source::Thread(rx) => rx,
        };
        match wait {
            Wait::Block => loop {
                // Woken now and then to see whether the run was cancelled: the signal may
                // interrupt the input's thread's read, or this thread's wait.
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(item) => return Some(Some(item)),
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Some(None),
                    Err(mpsc::RecvTimeoutError::Timeout) if CANCEL.is_cancelled() => {
                        return Some(None)
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
            },
            Wait::Not => match rx.try_recv() {
                Ok(item) => Some(Some(item)),
                Err(mpsc::TryRecvError::Disconnected) => Some(None),
                Err(mpsc::TryRecvError::Empty) => None,
            },
            Wait::For(d) => match rx.recv_timeout(d) {
                Ok(item) => Some(Some(item)),
                Err(mpsc::RecvTimeoutError::Disconnected) => Some(None),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
            },
        }
    }

    /// Whether the next record, or the end, can be had without waiting for the input.
    pub fn ready(&mut self) -> bool {
        if self.ahead.is_some() || self.ended {
            return true;
        }
        match self.pull(Wait::Not) {
            Some(next) => {
                self.ahead = Some(next);
                true
            }
            None => false,
        }
    }

    /// Whether the input ends after the records handed out so far: known at once for a
    /// file; an input that may wait is given [`LONE_WAIT`] to end (else it is taken to go
    /// on).
    pub fn lone(&mut self) -> bool {
        if self.ended {
            return true;
        }
        if self.ahead.is_none() {
            match self.pull(Wait::For(LONE_WAIT)) {
                Some(next) => self.ahead = Some(next),
                None => return false,
            }
        }
        matches!(self.ahead, Some(None))
    }

    /// The next record (waiting for it as long as it takes), then, up to `most` in all, those
    /// that can be had without waiting: a chunk to answer, empty at the input's end.
    pub fn take_ready(&mut self, most: usize) -> Vec<Record> {
        let mut chunk = Vec::new();
        while chunk.len() < most && (chunk.is_empty() || self.ready()) {
            match self.next() {
                Some(record) => chunk.push(record),
                None => break,
            }
        }
        chunk
    }
}

/// A thread of its own that reads `reader` and sends each item on; where no thread can be
/// started, the reader is read here.
fn read_by_thread(reader: Reader<Box<dyn BufRead + Send>>) -> Source {
    let (tx, rx) = mpsc::sync_channel(READ_AHEAD);
    // Shared so that the reader can be had back when no thread starts.
    let shared = Arc::new(Mutex::new(Some(reader)));
    let theirs = Arc::clone(&shared);
    let started = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let reader = theirs.lock().ok().and_then(|mut r| r.take());
            for item in reader.into_iter().flatten() {
                // The records are no longer wanted (the run stopped, or --strict).
                if tx.send(item).is_err() {
                    break;
                }
            }
        });
    match started {
        Ok(_) => Source::Thread(rx),
        Err(_) => {
            let back = shared.lock().ok().and_then(|mut r| r.take());
            match back {
                Some(reader) => Source::Here(Box::new(reader)),
                // Taken by a thread that did start after all.
                None => Source::Thread(rx),
            }
        }
    }
}

impl Iterator for Records {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        if self.ended {
            return None;
        }
        let next = match self.ahead.take() {
            Some(next) => next,
            None => self.pull(Wait::Block).flatten(),
        };
        let record = match next {
            None => {
                self.ended = true;
                return None;
            }
            Some(Ok(Parsed {
                line,
                puzzle,
                alphabet,
            })) => Record::Puzzle(line, puzzle, alphabet),
            Some(Err(ReadError::Parse(e))) => Record::Bad(e),
            Some(Err(ReadError::Io(e))) => {
                self.io_error = Some(e);
                self.ended = true;
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
        let mut records = Records::new(Reader::new(input, parse), may_wait(&path));
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
