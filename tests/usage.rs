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
    refused(
        &["count", "--output-alphabet", "0-F", file],
        "--output-alphabet does nothing in count without --json: it writes boards, and count \
         prints none",
    );
    refused(
        &["check", "--output-alphabet", "A-Z", file],
        "--output-alphabet does nothing in check without --json or --explain: it writes boards, \
         and check prints none",
    );
    // With --json (the puzzle is written) and --explain (boards) it does something.
    for args in [
        &["count", "--json", "--output-alphabet", "0-F", file][..],
        &["check", "--explain", "--output-alphabet", "0-F", file][..],
    ] {
        let (code, _, err) = run(args, "");
        assert!(code <= 1, "{args:?}: {err}");
    }
    // The usage line names the subcommand.
    let (_, _, err) = run(&["count", "--format", "grid", file], "");
    assert!(
        err.contains("Usage: sudoku-enum count [OPTIONS] [FILE]..."),
        "{err}"
    );
    // --format line is what solve and dump do anyway; it is fine there, also with --json.
    let (code, _, err) = run(&["solve", "--json", "--format", "line", file], "");
    assert_eq!(code, 0, "{err}");
    // Where it does nothing, --help does not offer it.
    for job in ["count", "check", "candidates"] {
        let (_, help, _) = run(&[job, "--help"], "");
        assert!(!help.contains("--format"), "{job} --help offers --format");
    }
    let (_, help, _) = run(&["solve", "--help"], "");
    assert!(help.contains("--format"));
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

/// The subcommands a user sees in `--help`.
const SUBCOMMANDS: [&str; 10] = [
    "count",
    "check",
    "solve",
    "dump",
    "candidates",
    "split",
    "merge",
    "estimate",
    "completions",
    "man",
];

/// The example lines of a `--help` text (after its `Examples` line, up to the first blank).
fn examples(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| !l.starts_with("Examples"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn every_subcommand_has_its_own_examples_and_they_run() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut ran = 0;
    for sub in SUBCOMMANDS {
        let (code, help, err) = run(&[sub, "--help"], "");
        assert_eq!(code, 0, "{sub}: {err}");
        let lines = examples(&help);
        assert!(
            lines.len() >= 2,
            "{sub} --help has no examples of its own:\n{help}"
        );
        // Every example line is about this subcommand (not one generic block for all).
        let own = format!("sudoku-enum {sub}");
        assert!(
            lines.iter().filter(|l| l.contains(&own)).count() >= 2,
            "{sub} --help: its examples do not run {own}:\n{help}"
        );
        // The examples that read the repository's own puzzles, without pipes or redirections,
        // run as written (from the repository's root): no usage error.
        for line in &lines {
            let Some(command) = line.trim().strip_prefix("sudoku-enum ") else {
                continue;
            };
            // The comment starts after a run of at least two spaces.
            let command = command.split("  ").next().unwrap_or_default();
            let words: Vec<&str> = command.split_whitespace().collect();
            let files: Vec<&&str> = words.iter().filter(|w| w.ends_with(".txt")).collect();
            if command.contains(['|', '>', '<', '\\'])
                || files.is_empty()
                || !files
                    .iter()
                    .all(|f| std::path::Path::new(root).join(f).exists())
            {
                continue;
            }
            let out = crate::util::cmd()
                .args(&words)
                .current_dir(root)
                .output()
                .expect("runs");
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "`{line}` (from {sub} --help) exits {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 12, "only {ran} examples were run");
}

#[test]
fn completions_and_man_page() {
    for (shell, marker) in [
        ("bash", "_sudoku__enum()"),
        ("zsh", "#compdef sudoku-enum"),
        ("fish", "complete -c sudoku-enum"),
    ] {
        let (code, out, err) = run(&["completions", shell], "");
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains(marker), "{shell}: {out}");
        for sub in SUBCOMMANDS {
            assert!(out.contains(sub), "{shell} completions lack {sub}");
        }
        assert!(out.contains("count-by"), "{shell}: no options");
    }
    let (code, _, err) = run(&["completions", "tcsh"], "");
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'tcsh'"), "{err}");

    let (code, page, err) = run(&["man"], "");
    assert_eq!(code, 0, "{err}");
    // One roff prelude (the sections are rendered one by one).
    assert_eq!(page.matches(".ds Aq").count(), 2, "{page}");
    assert!(page.contains(".TH sudoku-enum 1"), "{page}");
    for sub in SUBCOMMANDS {
        let section = format!(".SH \"SUDOKU-ENUM {}\"", sub.to_uppercase());
        assert!(page.contains(&section), "the man page has no {section}");
    }
    // Examples keep their columns (no-fill), and every .nf is closed.
    assert_eq!(
        page.matches("\n.nf\n").count(),
        page.matches("\n.fi\n").count()
    );
    assert!(page.matches(".SS EXAMPLES\n.nf\n").count() >= 9, "{page}");
}
