//! Usage errors and wording (issue 20): options that would do nothing are refused, `--limit 0`
//! is refused, and counts read in the singular where they are one.

use crate::util::{puzzle_path, run};

/// A usage error: exit 2, clap's `error:` line with `message`, nothing on stdout.
fn refused(args: &[&str], message: &str) {
    let (code, out, err) = run(args, "");
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert!(
        err.starts_with(&format!("error: {message}")),
        "{args:?}: {err}"
    );
}

#[test]
fn options_that_do_nothing_are_refused() {
    let file = puzzle_path("empty4x4.txt");
    let file = file.to_str().unwrap();
    refused(
        &["count", "--format", "grid", file],
        "--format grid does nothing in count: it lays out the solutions that solve and dump print",
    );
    refused(
        &["check", "--format", "rows", file],
        "--format rows does nothing in check: it lays out the solutions that solve and dump print",
    );
    refused(
        &["solve", "--json", "--format", "grid", file],
        "--format grid does nothing with --json (solutions are one-line strings there)",
    );
    refused(
        &["dump", "--force", "-n", "3", file],
        "--force does nothing without -o OUT (it allows overwriting OUT)",
    );
    // The usage line names the subcommand.
    let (_, _, err) = run(&["count", "--format", "grid", file], "");
    assert!(
        err.contains("Usage: sudoku-enum count [OPTIONS] [FILE]..."),
        "{err}"
    );
    // --format line is what solve and dump do anyway; it is fine there, also with --json.
    let (code, _, err) = run(&["solve", "--json", "--format", "line", file], "");
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_limit_of_zero_is_refused() {
    let file = puzzle_path("empty4x4.txt");
    let file = file.to_str().unwrap();
    let message = "a limit of 0 would stop before the first solution; give 1 or more";
    refused(
        &["count", "--limit", "0", file],
        &format!("invalid value '0' for '--limit <N>': {message}"),
    );
    refused(
        &["dump", "-n", "0", file],
        &format!("invalid value '0' for '--max <N>': {message}"),
    );
}

#[test]
fn one_is_singular() {
    let sudoku =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let (code, out, err) = run(
        &["count", "-", "/nonexistent/x.txt"],
        &format!("{sudoku}\n"),
    );
    assert_eq!(code, 2);
    assert_eq!(out, "<stdin>:1: 1 solution\n");
    let summary = err.lines().last().unwrap();
    assert!(
        summary.starts_with("counted 1 puzzle in ")
            && summary.ends_with(
                "1 unique, 0 multiple, 0 unsolvable, 0 invalid, 1 file error; 1 solution in all"
            ),
        "{err}"
    );
}
