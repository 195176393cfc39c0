//! `dump`: stream solutions to a file or stdout as they are found.
//!
//! Workers format solutions into small buffers and send them through a bounded channel to one
//! writer thread (back-pressure instead of unbounded memory). A file is written as `OUT.partial`
//! and renamed to `OUT` only when the dump completed, so an interrupted or failed dump never
//! leaves a file that looks complete. Only whole solutions are ever written (a write that the
//! disk took only part of is cut back, see [`keep_whole`]).

use super::batch::exit_code;
use super::config::Config;
use super::input::{for_each_input, report_bad, InputErrors, Record};
use super::progress::{self, note, Batch, TermOut, Ticker};
use super::report::{CountSummary, Job, Summary};
use super::status::{exit, Fatal, CANCEL};
use serde_json::json;
use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use sudoku_enum::format::{digit_char, render_in, Layout};
use sudoku_enum::parse::Alphabet;
use sudoku_enum::{search, Progress, Shape, Sink, StopReason};

/// Bytes a worker buffers before handing them to the writer.
const BATCH_BYTES: usize = 16 * 1024;
/// Longest time a found solution waits in a worker's buffer.
const BATCH_AGE: Duration = Duration::from_millis(50);

/// What the writer thread is handed, in order.
enum Piece {
    /// Whole solutions to write.
    Data(Vec<u8>),
    /// A puzzle's line for stderr, after its solutions: written once they are all out
    /// (flushed), and never after a failed write, so that no line counts solutions the output
    /// did not take.
    Note(String),
}

/// A worker's sink: formats solutions and ships them to the writer in batches.
struct DumpSink<'a> {
    tx: SyncSender<Piece>,
    buf: Vec<u8>,
    /// Solutions in `buf`.
    count: u64,
    failed: &'a AtomicBool,
    shape: Shape,
    layout: Layout,
    /// The alphabet solutions are written in.
    alphabet: Alphabet,
    json_source: Option<&'a str>,
    last_send: Instant,
    /// `--ordered`: this sink's piece of the search and the turn-keeper.
    order: Option<(usize, &'a Order)>,
}

impl DumpSink<'_> {
    /// Hand the buffer to the writer (in `--ordered` mode: only on this sub-problem's turn).
    fn send(&mut self) -> ControlFlow<()> {
        if let Some((index, order)) = self.order {
            if self.buf.len() < ORDERED_CAP && !order.is_turn(index) {
                return self.status();
            }
            let flow = order.send_in_turn(index, &self.tx, &mut self.buf, &mut self.count);
            self.last_send = Instant::now();
            return if flow.is_break() { flow } else { self.status() };
        }
        if !self.buf.is_empty() {
            let full = std::mem::replace(&mut self.buf, Vec::with_capacity(BATCH_BYTES + 1024));
            self.count = 0;
            if self.tx.send(Piece::Data(full)).is_err() {
                return ControlFlow::Break(());
            }
        }
        self.last_send = Instant::now();
        self.status()
    }

    fn status(&self) -> ControlFlow<()> {
        if self.failed.load(Relaxed) || self.order.is_some_and(|(_, o)| o.is_full()) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Hand over what is left: to the writer, or in `--ordered` mode to the turn-keeper as
    /// this piece's rest (parked until its turn, then the turn passes on).
    fn close(mut self) {
        match self.order {
            Some((index, order)) => {
                let buf = std::mem::take(&mut self.buf);
                order.finish(index, &self.tx, buf, self.count);
            }
            None => {
                let _ = self.send();
            }
        }
    }
}

/// Bytes a waiting `--ordered` sub-problem may hold before it waits for its turn.
const ORDERED_CAP: usize = 256 * 1024;

/// `--ordered`: the pieces of the search are in search order; the one whose turn it is (the
/// head) streams, later ones buffer up to [`ORDERED_CAP`] and then wait, finished ones park
/// their output until their turn. The limit is applied here, in order, so the output is
/// exactly the first N solutions of a one-thread run; once it is reached every sink says stop.
struct Order {
    state: Mutex<OrderState>,
    turn: Condvar,
    limit: Option<u64>,
    /// The limit was reached.
    full: AtomicBool,
}

#[derive(Default)]
struct OrderState {
    head: usize,
    /// Finished pieces waiting for their turn: (bytes, solutions).
    parked: BTreeMap<usize, (Vec<u8>, u64)>,
    /// Solutions handed to the writer.
    emitted: u64,
}

impl Order {
    fn new(limit: Option<u64>) -> Order {
        Order {
            state: Mutex::new(OrderState::default()),
            turn: Condvar::new(),
            limit,
            full: AtomicBool::new(false),
        }
    }

    /// The limit was reached: the search must stop.
    fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, OrderState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn is_turn(&self, index: usize) -> bool {
        self.lock().head == index
    }

    fn emitted(&self) -> u64 {
        self.lock().emitted
    }

    /// Send `buf` (holding `count` whole solutions of equal length) to the writer, cut at the
    /// limit. The caller must hold the turn.
    fn emit(
        &self,
        st: &mut OrderState,
        tx: &SyncSender<Piece>,
        mut buf: Vec<u8>,
        count: u64,
    ) -> ControlFlow<()> {
        if count == 0 {
            return ControlFlow::Continue(());
        }
        let room = self
            .limit
            .map_or(u64::MAX, |l| l.saturating_sub(st.emitted));
        let take = count.min(room);
        if take < count {
            let each = buf.len() / count as usize;
            buf.truncate(each * take as usize);
        }
        st.emitted += take;
        if !buf.is_empty() && tx.send(Piece::Data(buf)).is_err() {
            return ControlFlow::Break(());
        }
        if take < count || Some(st.emitted) == self.limit {
            self.full.store(true, Relaxed);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Wait for `index`'s turn (or a stop), then send its buffer.
    fn send_in_turn(
        &self,
        index: usize,
        tx: &SyncSender<Piece>,
        buf: &mut Vec<u8>,
        count: &mut u64,
    ) -> ControlFlow<()> {
        let mut st = self.lock();
        while st.head != index {
            // Past the limit, or interrupted: no turn is worth waiting for. (Other stops end
            // the earlier pieces, so the turn comes.)
            if self.is_full() || CANCEL.is_cancelled() {
                return ControlFlow::Break(());
            }
            st = self
                .turn
                .wait_timeout(st, Duration::from_millis(50))
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        let full = std::mem::replace(buf, Vec::with_capacity(BATCH_BYTES + 1024));
        let n = std::mem::take(count);
        self.emit(&mut st, tx, full, n)
    }

    /// Piece `index` is done: send or park its rest, and pass the turn on.
    fn finish(&self, index: usize, tx: &SyncSender<Piece>, buf: Vec<u8>, count: u64) {
        let mut st = self.lock();
        st.parked.insert(index, (buf, count));
        loop {
            let head = st.head;
            let Some((buf, count)) = st.parked.remove(&head) else {
                break;
            };
            let _ = self.emit(&mut st, tx, buf, count);
            st.head += 1;
        }
        self.turn.notify_all();
    }
}

impl Sink for DumpSink<'_> {
    const NEEDS_GRID: bool = true;

    fn solution(&mut self, grid: &[u8]) -> ControlFlow<()> {
        if self.order.is_some_and(|(_, o)| o.is_full()) {
            return ControlFlow::Break(());
        }
        match (self.json_source, self.layout) {
            (Some(source), _) => {
                let line = render_in(self.shape, grid, Layout::Line, self.alphabet);
                let obj = json!({ "source": source, "solution": line });
                self.buf.extend_from_slice(obj.to_string().as_bytes());
                self.buf.push(b'\n');
            }
            (None, Layout::Line) if self.alphabet == Alphabet::Standard => {
                self.buf
                    .extend(grid.iter().map(|&v| digit_char(self.shape, v) as u8));
                self.buf.push(b'\n');
            }
            (None, layout) => {
                self.buf.extend_from_slice(
                    render_in(self.shape, grid, layout, self.alphabet).as_bytes(),
                );
                self.buf.push(b'\n');
            }
        }
        self.count += 1;
        if self.buf.len() >= BATCH_BYTES || self.last_send.elapsed() >= BATCH_AGE {
            self.send()
        } else {
            ControlFlow::Continue(())
        }
    }

    fn fork(&self, piece: usize) -> Self {
        DumpSink {
            tx: self.tx.clone(),
            buf: Vec::with_capacity(BATCH_BYTES + 1024),
            count: 0,
            last_send: Instant::now(),
            order: self.order.map(|(_, o)| (piece, o)),
            ..*self
        }
    }

    fn join(&mut self, _piece: usize, part: Self) {
        part.close();
    }
}

/// Where the batches handed to the writer end, in bytes from the start: each batch holds whole
/// solutions, so a file cut at one of these holds whole solutions only.
#[derive(Debug, Default)]
struct Ends {
    /// The end of everything flushed without error (the end of a batch).
    flushed: u64,
    /// The ends of the batches written since, in order.
    since: Vec<u64>,
}

/// Bytes that may be written and not yet on disk: the writer's buffer (64 KiB) and the batch
/// that failed (at most 256 KiB, an ordered piece), with room to spare.
const UNSURE: u64 = 1 << 20;

impl Ends {
    /// Forget the ends far enough behind `at` that the file surely holds them (a writer that
    /// never catches up, so never flushes, would otherwise keep one end per batch).
    fn forget_before(&mut self, at: u64) {
        if self.since.len() >= 4096 {
            let sure = at.saturating_sub(UNSURE);
            let keep = self.since.partition_point(|&end| end <= sure);
            if keep > 0 {
                self.flushed = self.since[keep - 1];
                self.since.drain(..keep);
            }
        }
    }

    /// The last end at or before `len` bytes.
    fn whole(&self, len: u64) -> u64 {
        self.since
            .iter()
            .rev()
            .copied()
            .find(|&end| end <= len)
            .unwrap_or(self.flushed)
    }
}

/// The writer thread: writes batches in arrival order, flushing whenever it catches up, and
/// each puzzle's line on stderr once its solutions are flushed. Where a write fails, the ends
/// of the batches tell what part of the file holds whole solutions.
fn writer(
    rx: Receiver<Piece>,
    mut out: Box<dyn Write + Send>,
    failed: Arc<AtomicBool>,
) -> Result<(), (io::Error, Ends)> {
    let mut result = Ok(());
    let mut ends = Ends::default();
    let mut at = 0u64;
    let flush = |out: &mut Box<dyn Write + Send>, ends: &mut Ends, at: u64| {
        out.flush().map(|()| {
            ends.flushed = at;
            ends.since.clear();
        })
    };
    loop {
        let piece = match rx.try_recv() {
            Ok(b) => b,
            Err(TryRecvError::Empty) => {
                if result.is_ok() {
                    result = flush(&mut out, &mut ends, at);
                }
                match rx.recv() {
                    Ok(b) => b,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        let batch = match piece {
            Piece::Data(batch) => batch,
            Piece::Note(line) => {
                if result.is_ok() {
                    result = flush(&mut out, &mut ends, at);
                }
                if result.is_ok() {
                    note(format_args!("{line}"));
                } else {
                    failed.store(true, Relaxed);
                }
                continue;
            }
        };
        if result.is_ok() {
            result = out.write_all(&batch);
            at += batch.len() as u64;
            ends.since.push(at);
            ends.forget_before(at);
        }
        if result.is_err() {
            // Keep draining so that workers never block on a dead writer.
            failed.store(true, Relaxed);
        }
    }
    if result.is_ok() {
        result = flush(&mut out, &mut ends, at);
    }
    result.map_err(|e| (e, ends))
}

/// After a failed write to `file` (`OUT.partial`), cut it back to the last whole solution
/// (a full disk takes part of the last write); `Err` where that failed too.
fn keep_whole(file: &fs::File, ends: &Ends) -> io::Result<()> {
    let len = file.metadata()?.len();
    let whole = ends.whole(len);
    if whole < len {
        file.set_len(whole)?;
    }
    Ok(())
}

/// Where the dump goes: stdout, a stream (a FIFO or a device, written as it goes), or
/// `OUT.partial` renamed to `OUT` at the end.
struct Destination {
    /// The file `partial` becomes at the end.
    target: Option<PathBuf>,
    partial: Option<PathBuf>,
    /// Where the lines go, for messages.
    name: String,
    /// `OUT.partial`, to cut back to whole solutions after a failed write.
    repair: Option<fs::File>,
}

impl Destination {
    /// Lines written as they go to `name` (stdout, a FIFO, a device): nothing to rename.
    fn stream(name: String) -> Destination {
        Destination {
            target: None,
            partial: None,
            name,
            repair: None,
        }
    }
}

fn open_destination(
    output: Option<&Path>,
    force: bool,
) -> Result<(Destination, Box<dyn Write + Send>), Fatal> {
    // `-`, and the names of this process's own standard output, are standard output itself,
    // whatever it is (a file the shell opened is not another file to make anew).
    let stdout_names = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];
    let Some(path) = output.filter(|p| !stdout_names.iter().any(|n| p.as_os_str() == *n)) else {
        let out: Box<dyn Write + Send> = Box::new(BufWriter::with_capacity(
            1 << 16,
            TermOut::new(io::stdout()),
        ));
        return Ok((Destination::stream("standard output".into()), out));
    };
    let fail = |e: &dyn std::fmt::Display| Fatal::Message(format!("{}: {e}", path.display()));
    // Through a link to what it names.
    if let Ok(meta) = fs::metadata(path) {
        if meta.is_dir() {
            return Err(fail(&"is a directory"));
        }
        if !meta.is_file() {
            // A FIFO, a device or a socket: nothing there to keep or to rename over; the lines
            // go to it as they are written.
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| fail(&e))?;
            let out: Box<dyn Write + Send> = Box::new(BufWriter::with_capacity(1 << 16, file));
            return Ok((Destination::stream(path.display().to_string()), out));
        }
        if !force {
            return Err(fail(&"already exists; pass --force to overwrite it"));
        }
    }
    // A link's file is replaced, not the link (a link that names nothing yet: the file it
    // names is made).
    let path = if path.is_symlink() {
        fs::canonicalize(path).unwrap_or_else(|_| link_target(path))
    } else {
        path.to_path_buf()
    };
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .ok_or_else(|| Fatal::Message(format!("{}: not a file name", path.display())))?;
    name.push(".partial");
    let partial = path.with_file_name(name);
    // An earlier interrupted dump (or any file of that name) is not wiped without --force.
    if !force && fs::symlink_metadata(&partial).is_ok() {
        return Err(Fatal::Message(format!(
            "{}: already exists (an earlier dump's partial output?); pass --force to overwrite it",
            partial.display()
        )));
    }
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&partial)
        .map_err(|e| Fatal::Message(format!("{}: {e}", partial.display())))?;
    let repair = file.try_clone().ok();
    let out: Box<dyn Write + Send> = Box::new(BufWriter::with_capacity(1 << 16, file));
    Ok((
        Destination {
            name: partial.display().to_string(),
            target: Some(path),
            partial: Some(partial),
            repair,
        },
        out,
    ))
}

/// The path a symbolic link that names nothing yet leads to (through links to links, as the
/// system follows them: at most 40), a relative target read from the link's directory.
fn link_target(link: &Path) -> PathBuf {
    let mut at = link.to_path_buf();
    for _ in 0..40 {
        match fs::read_link(&at) {
            Ok(target) => {
                at = match at.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                }
            }
            Err(_) => return at,
        }
    }
    at
}

/// Run `dump` over every puzzle of the inputs.
pub fn run(cfg: &Config, output: Option<&Path>, force: bool, ordered: bool) -> Result<u8, Fatal> {
    let started = Instant::now();
    let (dest, out) = open_destination(output, force)?;
    let failed = Arc::new(AtomicBool::new(false));
    let (tx, rx) = sync_channel::<Piece>(64);
    let writer_failed = Arc::clone(&failed);
    let handle = thread::spawn(move || writer(rx, out, writer_failed));
    let batch = Arc::new(Batch::default());
    let ticker = Ticker::start(
        progress::enabled(cfg.quiet, &cfg.files),
        Arc::clone(&batch),
        "solution",
    );
    let mut summary = Summary::default();
    let mut written: u128 = 0;
    let mut interrupted = false;
    // Puzzles whose dump a `--timeout` cut short: the file is not complete either.
    let mut timed_out = 0u64;
    let mut errors = InputErrors::new(cfg.strict);
    for_each_input(&cfg.files, cfg.parse, &mut errors, |name, records| {
        for record in records {
            let (line, puzzle, alphabet) = match record {
                Record::Puzzle(line, puzzle, alphabet) => (line, puzzle, alphabet),
                Record::Bad(e) => {
                    report_bad(name, &e);
                    summary.unreadable += 1;
                    if cfg.strict {
                        return Ok(ControlFlow::Break(()));
                    }
                    continue;
                }
            };
            let source = format!("{name}:{line}");
            // In --ordered mode the limit is applied in order by `Order`, not by the workers.
            let progress = Progress::new();
            ticker.watch(progress.clone());
            let limit = if ordered { None } else { cfg.limit };
            let options = cfg.options(limit, Some(progress));
            let order = Order::new(cfg.limit);
            let mut sink = DumpSink {
                tx: tx.clone(),
                buf: Vec::with_capacity(BATCH_BYTES + 1024),
                count: 0,
                failed: &failed,
                shape: puzzle.shape(),
                layout: cfg.layout,
                alphabet: cfg.out_alphabet_for(&puzzle, alphabet),
                json_source: cfg.json.then_some(source.as_str()),
                last_send: Instant::now(),
                // A serial search runs in the root sink: the first piece.
                order: ordered.then_some((0, &order)),
            };
            let mut outcome = search(&puzzle, &options, &mut sink);
            outcome.conflict = super::report::clash_in(
                outcome.conflict.take(),
                &puzzle,
                cfg.out_alphabet_for(&puzzle, alphabet),
            );
            // In a split search the root sink holds nothing (the pieces' sinks were closed).
            if sink.count > 0 || !sink.buf.is_empty() {
                sink.close();
            }
            if ordered {
                outcome.solutions = order.emitted() as u128;
                // The turn-keeper stopped the search at the limit (through a sink, or not at
                // all when the last solutions came in a finished piece).
                if order.is_full() && matches!(outcome.stopped, None | Some(StopReason::Sink)) {
                    outcome.stopped = Some(StopReason::Limit);
                }
            }
            ticker.unwatch();
            timed_out += u64::from(outcome.stopped == Some(StopReason::TimedOut));
            written += outcome.solutions;
            summary.add(Job::Dump, &outcome);
            batch.puzzles.fetch_add(1, Relaxed);
            // Written by the writer once the solutions are out (none after a failed write: the
            // count would say nothing of what was written; the error does).
            if !cfg.quiet && !failed.load(Relaxed) {
                let line = format!("{source}: {}", CountSummary(&outcome));
                let _ = tx.send(Piece::Note(line));
            }
            if failed.load(Relaxed) || outcome.stopped == Some(StopReason::Sink) {
                return Ok(ControlFlow::Break(()));
            }
            if outcome.stopped == Some(StopReason::Cancelled) || CANCEL.is_cancelled() {
                interrupted = true;
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    // Cancelled between puzzles, or while waiting for the next (the input then ends unread).
    interrupted |= CANCEL.is_cancelled();
    summary.io_errors += errors.io;
    summary.unreadable += errors.empty;
    drop(tx);
    let written_ok = handle
        .join()
        .unwrap_or_else(|_| Err((io::Error::other("writer thread failed"), Ends::default())));
    ticker.finish();
    if let Err((e, ends)) = written_ok {
        if dest.target.is_none() && e.kind() == io::ErrorKind::BrokenPipe {
            return Err(Fatal::BrokenPipe);
        }
        let kept = dest.repair.as_ref().map(|f| keep_whole(f, &ends));
        return Err(Fatal::Message(match (&dest.partial, kept) {
            (Some(p), Some(Ok(()))) => format!(
                "{}: {e}; the whole solutions written before the error are kept there",
                p.display()
            ),
            (Some(p), _) => format!("{}: {e}; its last solution may be cut short", p.display()),
            (None, _) => format!("cannot write to {}: {e}", dest.name),
        }));
    }
    if interrupted {
        note(format_args!(
            "sudoku-enum: interrupted: at least {} written to {}",
            super::report::plural(written, "solution"),
            dest.name
        ));
        return Ok(exit::INTERRUPTED);
    }
    if let (Some(target), Some(partial)) = (&dest.target, &dest.partial) {
        if timed_out > 0 {
            note(format_args!(
                "sudoku-enum: {} timed out: the solutions are left in {} (not renamed to {})",
                super::report::plural(u128::from(timed_out), "puzzle"),
                partial.display(),
                target.display()
            ));
        } else if summary.io_errors == 0 && summary.unreadable == 0 {
            fs::rename(partial, target).map_err(|e| {
                Fatal::Message(format!(
                    "cannot rename {} to {}: {e}",
                    partial.display(),
                    target.display()
                ))
            })?;
        } else {
            note(format_args!(
                "sudoku-enum: input errors: the solutions are left in {} (not renamed to {})",
                partial.display(),
                target.display()
            ));
        }
    }
    if !cfg.quiet {
        note(format_args!(
            "{}",
            summary.line(Job::Dump, started.elapsed())
        ));
    }
    Ok(exit_code(&summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk took part of the last write: the file is cut back to the last batch that
    /// reached it whole, and never below what was flushed.
    #[test]
    fn a_cut_file_keeps_its_whole_solutions() {
        let ends = Ends {
            flushed: 10,
            since: vec![20, 30, 45],
        };
        assert_eq!(ends.whole(44), 30);
        assert_eq!(ends.whole(45), 45);
        assert_eq!(ends.whole(19), 10);
        // Many ends: those a mebibyte behind are forgotten, the last of them kept as sure.
        let mut many = Ends::default();
        for k in 1..=5000u64 {
            many.since.push(k * 1000);
            many.forget_before(k * 1000);
        }
        assert!(many.since.len() <= 4096 && many.flushed <= 5_000_000 - UNSURE);
        assert_eq!(many.whole(4_999_999), 4_999_000);
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&[b'x'; 37]).unwrap();
        keep_whole(&file, &ends).unwrap();
        assert_eq!(file.metadata().unwrap().len(), 30);
        // Already whole: left alone.
        keep_whole(&file, &ends).unwrap();
        assert_eq!(file.metadata().unwrap().len(), 30);
    }
}
