//! The progress bar in a real pseudo-terminal, 80 columns wide, stdout and stderr both on it
//! (as in an interactive shell): no result line is lost or overwritten, no bar is left behind,
//! and no line the bar draws is wider than the terminal (a wrapped bar is what erased the
//! last result when it was cleared).
//!
//! The terminal is a Linux pty (libc's `posix_openpt`), its output replayed through a terminal
//! emulator (`vt100`) for the final screen. Each test first checks that the bar really was
//! drawn while results were printed, so that it cannot pass without testing anything.

#![cfg(target_os = "linux")]

use std::ffi::CStr;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::fd::FromRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Command, Stdio};

const COLS: u16 = 80;
const ROWS: u16 = 200;

/// The braille spinner that starts every bar line.
const SPINNER: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// Run the tool with stdout and stderr on one pty of `COLS`×`ROWS`: (everything it wrote to
/// the terminal, exit code).
fn run_in_pty(args: &[&str]) -> (Vec<u8>, i32) {
    run_in_pty_typed(args, None)
}

/// [`run_in_pty`] with stdin on the terminal too where `typed` is given: typed there, then
/// Ctrl-D (end of input).
fn run_in_pty_typed(args: &[&str], typed: Option<&str>) -> (Vec<u8>, i32) {
    // SAFETY: plain libc calls on a descriptor we own; every result is checked.
    let (master, slave_name) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt failed");
        assert_eq!(libc::grantpt(master), 0, "grantpt failed");
        assert_eq!(libc::unlockpt(master), 0, "unlockpt failed");
        let mut name = [0 as libc::c_char; 256];
        assert_eq!(
            libc::ptsname_r(master, name.as_mut_ptr(), name.len()),
            0,
            "ptsname_r failed"
        );
        let size = libc::winsize {
            ws_row: ROWS,
            ws_col: COLS,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        assert_eq!(
            libc::ioctl(master, libc::TIOCSWINSZ, &size),
            0,
            "TIOCSWINSZ"
        );
        let name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
        (File::from_raw_fd(master), name)
    };
    let slave = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(&slave_name)
        .expect("open the pty's terminal side");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-enum"))
        .args(args)
        .env("TERM", "xterm")
        // Draw the bar from the first tick, not after a second, so that short runs show it.
        .env("SUDOKU_ENUM_BAR_DELAY_MS", "0")
        .stdin(match typed {
            Some(_) => Stdio::from(slave.try_clone().expect("dup")),
            None => Stdio::null(),
        })
        .stdout(slave.try_clone().expect("dup"))
        .stderr(slave)
        .spawn()
        .expect("start sudoku-enum");
    if let Some(text) = typed {
        let mut keys = master.try_clone().expect("dup");
        keys.write_all(format!("{text}\n\x04").as_bytes())
            .expect("type");
    }
    // Read until every copy of the terminal side is closed (EIO on Linux), concurrently, so
    // that the child never blocks on a full pty.
    let reader = std::thread::spawn(move || {
        let mut master = master;
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match master.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => all.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => break, // EIO: the child closed the terminal
            }
        }
        all
    });
    let status = child.wait().expect("wait");
    let out = reader.join().expect("reader thread");
    (out, status.code().unwrap_or(-1))
}

/// The text segments the terminal sees between line starts (`\r`, `\n`), escape sequences
/// removed: each is what one line of the screen shows at once.
fn segments(raw: &str) -> Vec<String> {
    let mut segs = vec![String::new()];
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                // CSI: ESC [ params final (0x40..=0x7e); other escapes: ESC and one char.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for d in chars.by_ref() {
                        if ('\x40'..='\x7e').contains(&d) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\r' | '\n' => segs.push(String::new()),
            c if c.is_control() => {}
            c => segs.last_mut().expect("one").push(c),
        }
    }
    segs
}

/// The final screen's non-empty rows, as a terminal shows them.
fn screen(raw: &[u8]) -> Vec<String> {
    let size = |n| std::num::NonZeroU16::new(n).expect("not zero");
    let mut parser = vt100::Parser::new(size(ROWS), size(COLS), 0);
    parser.process(raw);
    let screen = parser.screen();
    // Rows joined where the terminal wrapped a long line (the summary may be wider).
    let mut lines = vec![String::new()];
    for (i, row) in screen.rows(0, COLS).enumerate() {
        let line = lines.last_mut().expect("one");
        line.push_str(&row);
        if !screen.row_wrapped(i as u16) {
            lines.push(String::new());
        }
    }
    lines
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// A file of `n` 6×6 puzzles (three givens each: 235,008 solutions, counted one by one).
fn six_by_six(n: usize, dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("six.txt");
    let mut f = File::create(&path).expect("create");
    let mut k = 0;
    'all: for a in 1..=6 {
        for b in (1..=6).filter(|&b| b != a) {
            for c in (1..=6).filter(|&c| c != a && c != b) {
                if k == n {
                    break 'all;
                }
                writeln!(f, "{a}{b}{c}{}", ".".repeat(33)).expect("write");
                k += 1;
            }
        }
    }
    path.to_string_lossy().into_owned()
}

/// What the bar drew: every bar line (with anything written after it before the next line
/// starts) fits the terminal; returns how many were drawn.
fn check_bar_lines(raw: &str) -> usize {
    let mut bars = 0;
    for seg in segments(raw).iter().filter(|s| s.starts_with(SPINNER)) {
        let width = seg.chars().count();
        assert!(
            width <= COLS as usize,
            "a line of {width} columns on an {COLS}-column terminal (it wraps): {seg:?}"
        );
        bars += 1;
    }
    bars
}

/// The bar's lines fit the terminal ([`check_bar_lines`]), and it was on screen while results
/// were printed: drawn three times or more, first before `late` (the second-to-last result)
/// was written. A test proves something only if so.
fn check_bar_during_results(raw: &str, late: &str) {
    let bars = check_bar_lines(raw);
    let first_bar = raw
        .find(SPINNER)
        .expect("the bar was never drawn on the pty");
    let before_last = raw
        .find(late)
        .expect("the second-to-last result is in the output");
    assert!(
        bars >= 3 && first_bar < before_last,
        "the bar was not drawn while results were printed ({bars} draws): nothing was tested"
    );
}

#[test]
fn batch_results_survive_the_bar_at_80_columns() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Long enough that the bar is drawn many times between results, in either profile.
    let n = if cfg!(debug_assertions) { 4 } else { 30 };
    let file = six_by_six(n, &dir);
    let args = ["count", "--count-by", "search", "-j", "1", file.as_str()];
    let expected = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-enum"))
        .args(args)
        .output()
        .expect("runs");
    let expected: Vec<String> = String::from_utf8_lossy(&expected.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(expected.len(), n, "one line a puzzle: {expected:?}");

    let (raw, code) = run_in_pty(&args);
    assert_eq!(code, 0);
    let raw = String::from_utf8_lossy(&raw);
    check_bar_during_results(&raw, &expected[n - 2]);

    let shown = screen(raw.as_bytes());
    assert_eq!(
        &shown[..shown.len() - 1],
        &expected[..],
        "the screen lost or changed a result line (or kept a bar):\n{}",
        shown.join("\n")
    );
    let summary = shown.last().expect("a summary line");
    assert!(
        summary.starts_with(&format!("counted {n} puzzles in ")),
        "the summary is the last line: {summary:?}"
    );
}

#[test]
fn a_lone_search_bar_is_cut_to_80_columns_and_erased() {
    let dir = tempfile::tempdir().expect("tempdir");
    // One puzzle: the detailed bar (tree share, solutions, rate, nodes), wider than 80
    // columns in full.
    let givens = if cfg!(debug_assertions) { "123" } else { "1" };
    let path = dir.path().join("one.txt");
    std::fs::write(
        &path,
        format!("{givens}{}\n", ".".repeat(36 - givens.len())),
    )
    .expect("write");
    let file = path.to_string_lossy().into_owned();
    let (raw, code) = run_in_pty(&["count", "--count-by", "search", "-j", "1", &file]);
    assert_eq!(code, 0);
    let raw = String::from_utf8_lossy(&raw);
    let bars = check_bar_lines(&raw);
    assert!(
        bars >= 3,
        "the bar was drawn {bars} times: nothing was tested"
    );
    assert!(
        raw.contains("% of the tree"),
        "the detailed bar was not shown: {raw:?}"
    );
    let shown = screen(raw.as_bytes());
    let count = if givens == "1" { 4_700_160 } else { 235_008 };
    assert_eq!(
        shown.len(),
        2,
        "the result and the summary only: {shown:#?}"
    );
    assert_eq!(shown[0], format!("{file}:1: {count} solutions"));
    assert!(shown[1].starts_with("counted 1 puzzle in "), "{shown:#?}");
}

/// `candidates` on a terminal: the batch bar (puzzles answered, searches made) while it works,
/// then every JSON line whole on the screen and the bar gone. Five variant puzzles of
/// `puzzles/variants/candidates_bench.txt` that take 20–100 ms each in a release build (their
/// lines fill 13–22 rows each).
#[test]
fn candidates_results_survive_the_bar_at_80_columns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bench = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles/variants/candidates_bench.txt"),
    )
    .expect("the candidates benchmark");
    let puzzles: Vec<&str> = bench.lines().filter(|l| !l.starts_with('#')).collect();
    let rounds = if cfg!(debug_assertions) { 1 } else { 2 };
    let mut text = String::new();
    for _ in 0..rounds {
        for i in [4, 12, 15, 17, 60] {
            text.push_str(puzzles[i]);
            text.push('\n');
        }
    }
    let path = dir.path().join("variants.txt");
    std::fs::write(&path, text).expect("write");
    let file = path.to_string_lossy().into_owned();
    let args = ["candidates", "--json", "-j", "1", file.as_str()];
    // The answers less their times, which differ from run to run.
    let timeless = |line: &str| {
        let mut v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{e}: not one JSON line on the screen: {line:?}"));
        v.as_object_mut().expect("an object").remove("time_ms");
        v
    };
    let expected = Command::new(env!("CARGO_BIN_EXE_sudoku-enum"))
        .args(args)
        .output()
        .expect("runs");
    let expected: Vec<serde_json::Value> = String::from_utf8_lossy(&expected.stdout)
        .lines()
        .map(timeless)
        .collect();
    let n = 5 * rounds;
    assert_eq!(expected.len(), n, "one line a puzzle");

    let (raw, code) = run_in_pty(&args);
    assert_eq!(code, 0);
    let raw = String::from_utf8_lossy(&raw);
    check_bar_during_results(&raw, &format!("\"source\":\"{file}:{}\"", n - 1));
    assert!(raw.contains(" searches"), "the batch bar was not shown");

    let shown = screen(raw.as_bytes());
    let (summary, lines) = shown.split_last().expect("a summary line");
    let lines: Vec<serde_json::Value> = lines.iter().map(|l| timeless(l)).collect();
    assert_eq!(lines, expected, "the screen lost or changed a result line");
    assert!(
        summary.starts_with(&format!("candidates of {n} puzzles in ")),
        "the summary is the last line: {summary:?}"
    );
}

/// Puzzles typed at a terminal: the tool asks first, as seed 000's program does.
#[test]
fn a_terminal_is_asked_for_a_puzzle() {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let (raw, code) = run_in_pty_typed(&["solve", "-q"], Some(puzzle));
    let text = String::from_utf8_lossy(&raw);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Enter a Sudoku puzzle:"), "{text}");
    assert!(
        text.contains(
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
        ),
        "{text}"
    );
}
