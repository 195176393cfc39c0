//! Reading the inputs: each file (`-` = stdin) in turn, record by record, with its open and
//! read errors and "no puzzle found" reported the same way by every subcommand.

use std::collections::VecDeque;
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
    open_with(path, None)
}

/// [`open_input`], with `before_read` called before each read of the input (see
/// [`Cancellable`]).
fn open_with(path: &Path, before_read: Option<BeforeRead>) -> io::Result<Box<dyn BufRead + Send>> {
    let inner: Box<dyn Read + Send> = if path == Path::new("-") {
        // Typed at a terminal: ask, as seed 000's program does.
        if io::stdin().is_terminal() {
            note(format_args!(
                "Enter a Sudoku puzzle: one line, or a grid of rows (Ctrl-D to end)"
            ));
        }
        Box::new(io::stdin())
    } else {
        let f = File::open(path)?;
        if f.metadata()?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        Box::new(f)
    };
    let inner = Cancellable { inner, before_read };
    Ok(Box::new(BufReader::with_capacity(1 << 16, inner)))
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
/// signal interrupted (`EINTR`, see `interrupts_reads` in `main.rs`), a read that returns once
/// it came (the writer, stopped by the same Ctrl-C, closed the pipe: its end, or what was in
/// it), and every read after it, return [`interrupted`]; a read it interrupted before the run
/// was cancelled is tried again. An error, not the end of the input: what was read of a record
/// when the signal came (part of a line, the first rows of a grid) must not be read as a
/// record cut short.
struct Cancellable<R> {
    inner: R,
    /// Called before each read (an input read by a thread of its own sends the records it
    /// holds on first: the read may wait).
    before_read: Option<BeforeRead>,
}

/// See [`Cancellable::before_read`].
type BeforeRead = Box<dyn FnMut() + Send>;

impl<R: Read> Read for Cancellable<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(before) = &mut self.before_read {
            before();
        }
        loop {
            if CANCEL.is_cancelled() {
                return Err(interrupted());
            }
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(_) if CANCEL.is_cancelled() => return Err(interrupted()),
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
    /// Read by the input's own thread, which sends them in batches (`batch`: the rest of the
    /// last one received).
    Thread {
        rx: mpsc::Receiver<Vec<Item>>,
        batch: VecDeque<Item>,
    },
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

/// Records an input's thread sends at once, unless its next read may wait: one wake-up of the
/// answering thread for many records (one each cost a pipe of 48,000 puzzles on one thread
/// 13% more time).
const BATCH: usize = 64;

/// Batches the input's thread may read ahead of the answers (memory stays bounded).
const BATCHES_AHEAD: usize = 8;

/// How long to wait for a record's input to end before it is answered as the input's only
/// one (see [`Records::lone`]).
const LONE_WAIT: Duration = Duration::from_millis(20);

/// The channel from an input's thread, and the records it holds until it sends them.
struct Batches {
    tx: mpsc::SyncSender<Vec<Item>>,
    rx: mpsc::Receiver<Vec<Item>>,
    held: Arc<Mutex<Vec<Item>>>,
}

impl Batches {
    fn new() -> Batches {
        let (tx, rx) = mpsc::sync_channel(BATCHES_AHEAD);
        Batches {
            tx,
            rx,
            held: Arc::new(Mutex::new(Vec::with_capacity(BATCH))),
        }
    }

    /// What the input's reads call first: send the records held (the read may wait).
    fn before_read(&self) -> BeforeRead {
        let (tx, held) = (self.tx.clone(), Arc::clone(&self.held));
        Box::new(move || {
            let batch = std::mem::take(&mut *held.lock().unwrap_or_else(|e| e.into_inner()));
            if !batch.is_empty() {
                // Not wanted any more where this fails: the thread stops at its next record.
                let _ = tx.send(batch);
            }
        })
    }
}

impl Records {
    /// The records of `reader`, read here.
    fn here(reader: Reader<Box<dyn BufRead + Send>>) -> Records {
        Records::of(Source::Here(Box::new(reader)))
    }

    /// The records of `reader` (whose reads call a sender of `batches` first), read by a
    /// thread of its own; where no thread can be started, read here.
    fn by_thread(reader: Reader<Box<dyn BufRead + Send>>, batches: Batches) -> Records {
        let Batches { tx, rx, held } = batches;
        // Shared so that the reader can be had back when no thread starts.
        let shared = Arc::new(Mutex::new(Some(reader)));
        let theirs = Arc::clone(&shared);
        let started = std::thread::Builder::new()
            .name("input".into())
            .spawn(move || {
                let reader = theirs.lock().ok().and_then(|mut r| r.take());
                let lock = || held.lock().unwrap_or_else(|e| e.into_inner());
                for item in reader.into_iter().flatten() {
                    let full = {
                        let mut held = lock();
                        held.push(item);
                        (held.len() >= BATCH).then(|| std::mem::take(&mut *held))
                    };
                    // The records are no longer wanted (the run stopped, or --strict).
                    if full.is_some_and(|batch| tx.send(batch).is_err()) {
                        return;
                    }
                }
                let rest = std::mem::take(&mut *lock());
                if !rest.is_empty() {
                    let _ = tx.send(rest);
                }
            });
        let back = match started {
            Ok(_) => None,
            Err(_) => shared.lock().ok().and_then(|mut r| r.take()),
        };
        match back {
            Some(reader) => Records::here(reader),
            None => Records::of(Source::Thread {
                rx,
                batch: VecDeque::new(),
            }),
        }
    }

    /// Cancelled, and read by a thread: what the input's thread read has come too late to be
    /// answered (it may be what a writer stopped by the same Ctrl-C left half written).
    fn cut_short(&self) -> bool {
        CANCEL.is_cancelled() && matches!(self.source, Source::Thread { .. })
    }

    fn of(source: Source) -> Records {
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
        let (rx, batch) = match &mut self.source {
            Source::Here(reader) => return Some(reader.next()),
            Source::Thread { rx, batch } => (rx, batch),
        };
        if let Some(item) = batch.pop_front() {
            return Some(Some(item));
        }
        let received = match wait {
            Wait::Block => loop {
                // Woken now and then to see whether the run was cancelled: the signal may
                // interrupt the input's thread's read, or this thread's wait.
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Err(mpsc::RecvTimeoutError::Timeout) if !CANCEL.is_cancelled() => {}
                    Err(mpsc::RecvTimeoutError::Timeout) => return Some(None),
                    done => break done.ok(),
                }
            },
            Wait::Not => match rx.try_recv() {
                Err(mpsc::TryRecvError::Empty) => return None,
                done => done.ok(),
            },
            Wait::For(d) => match rx.recv_timeout(d) {
                Err(mpsc::RecvTimeoutError::Timeout) => return None,
                done => done.ok(),
            },
        };
        // A batch, or the end (the thread is done).
        batch.extend(received.into_iter().flatten());
        Some(batch.pop_front())
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

    /// Whether nothing follows the records handed out so far: the input ends there (known at
    /// once for a file), or an input that may wait sends nothing more within [`LONE_WAIT`].
    pub fn lone(&mut self) -> bool {
        if self.ended {
            return true;
        }
        if self.ahead.is_none() {
            match self.pull(Wait::For(LONE_WAIT)) {
                Some(next) => self.ahead = Some(next),
                None => return true,
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

impl Iterator for Records {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        if self.ended || self.cut_short() {
            return None;
        }
        let next = match self.ahead.take() {
            Some(next) => next,
            None => self.pull(Wait::Block).flatten(),
        };
        // Again once it came: the signal may have been handled while this thread waited for
        // it, after the input's thread read what the writer, stopped by the same Ctrl-C, left
        // (half a line, then the pipe's end) and found the run not yet cancelled.
        if self.cut_short() {
            self.ended = true;
            return None;
        }
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
    /// Stop at the first input in error (`--strict`), as at the first unreadable puzzle.
    pub strict: bool,
    /// `strict` stopped the run at an input in error.
    pub stopped: bool,
}

impl InputErrors {
    /// The counts of a run that stops at the first input in error where `strict`.
    pub fn new(strict: bool) -> InputErrors {
        InputErrors {
            strict,
            ..InputErrors::default()
        }
    }

    /// After an input in error: whether the run stops there (`strict`; then `stopped`).
    fn stops_here(&mut self) -> bool {
        self.stopped = self.strict;
        self.stopped
    }
}

/// Read every input in turn: `each(name, records)` gets the records of each (it says whether
/// the run goes on). A file that cannot be opened, a read error (after every record before it)
/// and an input without a puzzle are reported on stderr and counted in `errors` (which stops
/// the run there where `errors.strict`); a `Break` from `each` stops at once, reporting nothing
/// more.
pub fn for_each_input(
    files: &[PathBuf],
    parse: ParseOptions,
    errors: &mut InputErrors,
    mut each: impl FnMut(&str, &mut Records) -> Result<ControlFlow<()>, Fatal>,
) -> Result<(), Fatal> {
    for path in or_stdin(files) {
        let name = display_name(&path);
        // An input that may wait is read by a thread of its own (see `Records`), which sends
        // what it holds before each read.
        let batches = may_wait(&path).then(Batches::new);
        let input = match open_with(&path, batches.as_ref().map(Batches::before_read)) {
            Ok(r) => r,
            Err(e) => {
                note(format_args!("sudoku-enum: {name}: {e}"));
                errors.io += 1;
                if errors.stops_here() {
                    return Ok(());
                }
                continue;
            }
        };
        // A file's extension says what it is (.csv, .tsv, .json); its content, otherwise.
        let parse = ParseOptions {
            table: TableFormat::from_extension(&path),
            ..parse
        };
        let mut records = match batches {
            Some(batches) => Records::by_thread(Reader::new(input, parse), batches),
            None => Records::here(Reader::new(input, parse)),
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
        } else {
            continue;
        }
        if errors.stops_here() {
            return Ok(());
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
