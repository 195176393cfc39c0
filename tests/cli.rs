//! The command-line tool as a user runs it.

use crate::util::{cmd, puzzle_path, run as stdout_of};
use predicates::prelude::*;
use std::io::Write;

const TOP1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const TOP1_SOLUTION: &str =
    "468931527751624839392578461134756298289413675675289314846192753513867942927345186";

#[test]
fn check_unique_puzzle_from_stdin() {
    let (code, out, _) = stdout_of(&["check"], &format!("{TOP1}\n"));
    assert_eq!(code, 0);
    assert_eq!(out, "<stdin>:1: unique\n");
}

#[test]
fn check_verdicts_and_exit_code_one() {
    let input = format!(
        "{TOP1}\n# a comment\n{}\n11{}\n..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..\n",
        ".".repeat(81),
        ".".repeat(79)
    );
    let (code, out, err) = stdout_of(&["check"], &input);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "<stdin>:1: unique");
    assert_eq!(lines[1], "<stdin>:3: multiple (at least 2 solutions)");
    assert_eq!(
        lines[2],
        "<stdin>:4: invalid: 1 appears twice in row 1: r1c1 and r1c2"
    );
    assert_eq!(lines[3], "<stdin>:5: unsolvable");
    assert!(err.contains("checked 4 puzzles"), "{err}");
    assert!(
        err.contains("1 unique, 1 multiple, 1 unsolvable, 1 invalid"),
        "{err}"
    );
}

#[test]
fn check_json_lines() {
    let input = format!("{TOP1}\n11{}\n", ".".repeat(79));
    let (code, out, _) = stdout_of(&["check", "--json", "-q"], &input);
    assert_eq!(code, 1);
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs[0]["source"], "<stdin>:1");
    assert_eq!(objs[0]["puzzle"], TOP1);
    assert_eq!(objs[0]["verdict"], "unique");
    assert_eq!(objs[0]["solutions"], 1);
    assert_eq!(objs[0]["complete"], true);
    assert_eq!(objs[1]["verdict"], "invalid");
    assert!(objs[1]["error"].as_str().unwrap().contains("r1c1 and r1c2"));
}

#[test]
fn count_empty_4x4_and_limit() {
    let (code, out, _) = stdout_of(&["count", "-q"], &format!("{}\n", ".".repeat(16)));
    assert_eq!(code, 0);
    assert_eq!(out, "<stdin>:1: 288 solutions\n");
    let (code, out, _) = stdout_of(
        &["count", "-q", "--limit", "100"],
        &format!("{}\n", ".".repeat(16)),
    );
    assert_eq!(code, 0);
    assert_eq!(out, "<stdin>:1: at least 100 solutions (limit reached)\n");
    let (_, out, _) = stdout_of(
        &["count", "-q", "--json", "--limit", "100", "--threads", "4"],
        &format!("{}\n", ".".repeat(16)),
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["solutions"].as_u64(), v["complete"].as_bool()),
        (Some(100), Some(false))
    );
}

/// The empty 8×8 (2×4 boxes), as the README's tour counts it.
#[test]
fn count_the_empty_8x8() {
    let input = format!("{}\n", ".".repeat(64));
    for shape in ["2x4", "4x2"] {
        let (code, out, _) = stdout_of(&["count", "-q", "--box", shape], &input);
        assert_eq!(code, 0);
        assert_eq!(out, "<stdin>:1: 29136487207403520 solutions\n");
    }
}

#[test]
fn count_six_by_six_with_box_flag() {
    // First row fixed: 28,200,960 / 720.
    let input = format!("123456{}\n", ".".repeat(30));
    let (code, out, _) = stdout_of(&["count", "-q", "--box", "2x3"], &input);
    assert_eq!(code, 0);
    assert_eq!(out, "<stdin>:1: 39168 solutions\n");
    let (_, out, _) = stdout_of(&["count", "-q", "--box", "3x2"], &input);
    assert_eq!(out, "<stdin>:1: 39168 solutions\n");
}

#[test]
fn solve_line_and_grid() {
    let (code, out, _) = stdout_of(&["solve", "-q"], &format!("{TOP1}\n"));
    assert_eq!(code, 0);
    assert_eq!(out.trim(), TOP1_SOLUTION);
    let (code, out, _) = stdout_of(&["solve", "-q", "--format", "grid"], &format!("{TOP1}\n"));
    assert_eq!(code, 0);
    assert!(out.contains("The solution is found (unique):"), "{out}");
    assert!(out.contains("+------+------+------+"));
    assert!(out.contains("| 4 6 8| 9 3 1| 5 2 7| 0"), "{out}");
    // What solve prints reads back: its `Puzzle:` and `The solution is found` labels are not
    // cells; the puzzle and its solution are the two boards.
    for format in ["grid", "rows", "bands"] {
        let (_, printed, _) = stdout_of(&["solve", "-q", "--format", format], &format!("{TOP1}\n"));
        let (code, back, err) = stdout_of(&["solve", "-q"], &printed);
        assert_eq!(code, 0, "{format}: {err}");
        let want = if format == "bands" { 1 } else { 2 };
        assert_eq!(back.lines().count(), want, "{format}: {back}");
        assert!(back.lines().all(|l| l == TOP1_SOLUTION), "{format}: {back}");
    }
}

#[test]
fn solve_messages_of_the_seeds() {
    let (code, out, _) = stdout_of(
        &["solve", "-q"],
        "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..\n",
    );
    assert_eq!(code, 1);
    assert_eq!(out.trim(), "No solution");
    let (code, out, _) = stdout_of(&["solve", "-q"], &format!("11{}\n", ".".repeat(79)));
    assert_eq!(code, 1);
    assert!(
        out.starts_with("Invalid input: 1 appears twice in row 1"),
        "{out}"
    );
    // A record it cannot read has its line too: the output stays aligned with the input.
    let bad = format!("{}x", &TOP1[..80]);
    let (code, out, err) = stdout_of(&["solve", "-q"], &format!("{TOP1}\n{bad}\n{TOP1}\n"));
    assert_eq!(code, 2, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], TOP1_SOLUTION);
    assert!(
        lines[1].starts_with("Invalid input: unexpected character 'x'"),
        "{out}"
    );
    assert!(lines[1].ends_with("(line 2, column 81)"), "{out}");
    assert_eq!(lines[2], TOP1_SOLUTION);
    assert!(
        err.contains("<stdin>:2:81: unexpected character 'x'"),
        "{err}"
    );
}

/// Seed 003's boards and messages: rows with a line of dashes between bands, the solved board
/// alone, "This board has not solution!." and "Error"; its boards read back.
#[test]
fn solve_bands_as_seed_003() {
    let path = puzzle_path("seed003.txt");
    let (code, out, err) = stdout_of(
        &["solve", "-q", "--format", "bands", path.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 12, "{out}");
    assert_eq!(lines[0], "5 3 4 6 7 8 9 1 2");
    assert_eq!(lines[3], "- - - - - - - - -");
    assert_eq!(lines[7], "- - - - - - - - -");
    assert_eq!(lines[11], "");
    let (code, back, _) = stdout_of(&["solve", "-q"], &out);
    assert_eq!(code, 0);
    assert_eq!(
        back.trim(),
        out.lines()
            .filter(|l| !l.starts_with('-'))
            .collect::<Vec<_>>()
            .join("")
            .replace(' ', "")
    );
    let input = format!(
        "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..\n11{}\n1{}x\n",
        ".".repeat(79),
        ".".repeat(79)
    );
    let (code, out, _) = stdout_of(&["solve", "-q", "--format", "bands"], &input);
    assert_eq!(code, 2);
    assert_eq!(out, "This board has not solution!.\n\nError\n\nError\n\n");
}

#[test]
fn dump_writes_exactly_n_distinct_valid_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sols.txt");
    for threads in ["1", "3"] {
        cmd()
            .args([
                "dump",
                "-q",
                "-n",
                "100",
                "--force",
                "--threads",
                threads,
                "-o",
            ])
            .arg(&out)
            .write_stdin(format!("{}\n", ".".repeat(16)))
            .assert()
            .success();
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 100);
        let distinct: std::collections::HashSet<_> = lines.iter().collect();
        assert_eq!(distinct.len(), 100);
        assert!(!dir.path().join("sols.txt.partial").exists());
    }
    // All 288 when -n is absent; to stdout.
    let (code, text, _) = stdout_of(&["dump", "-q"], &format!("{}\n", ".".repeat(16)));
    assert_eq!(code, 0);
    assert_eq!(text.lines().count(), 288);
}

#[test]
fn dump_refuses_to_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("keep.txt");
    std::fs::write(&out, "precious\n").unwrap();
    cmd()
        .args(["dump", "-n", "3", "-o"])
        .arg(&out)
        .write_stdin(format!("{}\n", ".".repeat(16)))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists; pass --force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    // Nor an `OUT.partial` an interrupted dump left (it was emptied without a word, even where
    // it was the input being read).
    let out = dir.path().join("cut.txt");
    let partial = dir.path().join("cut.txt.partial");
    std::fs::write(&partial, format!("{}\n", ".".repeat(16))).unwrap();
    cmd()
        .args(["dump", "-n", "3", "-o"])
        .arg(&out)
        .arg(&partial)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(&partial).unwrap(),
        format!("{}\n", ".".repeat(16))
    );
    assert!(!out.exists());
    cmd()
        .args(["dump", "-q", "-n", "3", "--force", "-o"])
        .arg(&out)
        .write_stdin(format!("{}\n", ".".repeat(16)))
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    assert!(!partial.exists());
}

/// `-o` through a link writes the linked file (the link stays); to a directory it is an error
/// at once (no `.partial` left); to a FIFO or a device, the lines go to it as written (it is
/// not replaced by a file).
#[test]
fn dump_writes_through_links_and_to_streams() {
    let dir = tempfile::tempdir().unwrap();
    let empty4 = format!("{}\n", ".".repeat(16));
    let real = dir.path().join("real.txt");
    std::fs::write(&real, "old\n").unwrap();
    #[cfg(unix)]
    {
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        cmd()
            .args(["dump", "-q", "-n", "5", "--force", "-o"])
            .arg(&link)
            .write_stdin(empty4.clone())
            .assert()
            .code(0);
        assert!(link.is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap().lines().count(), 5);
        // A link that names nothing yet (relative, through a second link): the file it names
        // is made and the links stay (the first link had been replaced by a file).
        std::fs::create_dir(dir.path().join("deeper")).unwrap();
        let (first, second) = (dir.path().join("first.txt"), dir.path().join("second.txt"));
        std::os::unix::fs::symlink("second.txt", &first).unwrap();
        std::os::unix::fs::symlink("deeper/named.txt", &second).unwrap();
        let dump_3_to = |out: &std::path::Path| {
            cmd()
                .args(["dump", "-q", "-n", "3", "-o"])
                .arg(out)
                .write_stdin(empty4.clone())
                .assert()
        };
        dump_3_to(&first).code(0);
        assert!(first.is_symlink() && second.is_symlink());
        let named = dir.path().join("deeper/named.txt");
        assert_eq!(std::fs::read_to_string(&named).unwrap().lines().count(), 3);
        // Where what it names cannot be made: an error naming it, the link untouched.
        let nowhere = dir.path().join("nowhere.txt");
        std::os::unix::fs::symlink("no/such/dir/x.txt", &nowhere).unwrap();
        dump_3_to(&nowhere)
            .code(2)
            .stderr(predicates::str::contains(
                "x.txt.partial: No such file or directory",
            ));
        assert!(nowhere.is_symlink());
        let dev_null = std::path::Path::new("/dev/null");
        if dev_null.exists() {
            cmd()
                .args(["dump", "-q", "-n", "5", "-o", "/dev/null"])
                .write_stdin(empty4.clone())
                .assert()
                .code(0);
            assert!(!dev_null.is_file(), "/dev/null is still a device");
        }
    }
    // `-` and /dev/stdout are standard output, also where it is a file the shell opened (it
    // was refused as an existing file).
    for name in ["-", "/dev/stdout"] {
        let out = dir.path().join("redirected.txt");
        let file = std::fs::File::create(&out).unwrap();
        let status = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-enum"))
            .args(["dump", "-q", "-n", "5", "-o", name])
            .arg(puzzle_path("empty4x4.txt"))
            .stdout(file)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "{name}");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap().lines().count(),
            5,
            "{name}"
        );
        assert!(!dir.path().join("redirected.txt.partial").exists());
    }
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    cmd()
        .args(["dump", "-q", "--force", "-o"])
        .arg(&sub)
        .write_stdin(empty4)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
    assert!(!dir.path().join("sub.partial").exists());
}

#[test]
fn missing_file_is_an_error_but_others_are_answered() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "{TOP1}").unwrap();
    cmd()
        .arg("check")
        .arg("/nonexistent/puzzles.txt")
        .arg(f.path())
        .assert()
        .code(2)
        .stdout(predicate::str::contains(": unique"))
        .stderr(predicate::str::contains("/nonexistent/puzzles.txt"));
    // --strict stops there, as at an unreadable puzzle (it read on), in every subcommand that
    // has it.
    for args in [
        &["check"][..],
        &["count"],
        &["dump", "-n", "1"],
        &["candidates"],
    ] {
        cmd()
            .args(args)
            .arg("--strict")
            .arg("/nonexistent/puzzles.txt")
            .arg(f.path())
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("/nonexistent/puzzles.txt"));
    }
    cmd()
        .args(["check", "--strict"])
        .arg(f.path())
        .arg("/nonexistent/puzzles.txt")
        .arg(f.path())
        .assert()
        .code(2)
        .stdout(predicate::str::contains(": unique").count(1))
        .stderr(predicate::str::contains(
            "stopped at the first input in error (--strict)",
        ));
}

#[test]
fn bad_line_names_line_and_column_and_batch_goes_on() {
    let input = format!("{TOP1}\n{}x{}\n{TOP1}\n", &TOP1[..10], &TOP1[11..]);
    let (code, out, err) = stdout_of(&["check"], &input);
    assert_eq!(code, 2);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.contains("<stdin>:2:11"), "{err}");
    let (code, out, _) = stdout_of(&["check", "--strict", "-q"], &input);
    assert_eq!(code, 2);
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn empty_input_is_an_error() {
    cmd()
        .arg("check")
        .write_stdin("# nothing here\n\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no puzzle found"));
}

#[test]
fn unknown_box_is_a_usage_error() {
    cmd()
        .args(["check", "--box", "3y3"])
        .write_stdin(format!("{TOP1}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected RxC"));
}

#[test]
fn help_has_examples_and_exit_codes() {
    cmd()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:").and(predicate::str::contains("Exit codes:")));
}

#[test]
fn seed_samples_are_solved_as_the_seeds_show() {
    // seed 000's sample input and the solution it prints
    let want000 =
        "963174258178325649254689731821437596496852317735961824589713462317246985642598173";
    let (code, out, _) = stdout_of(
        &["solve", "-q", puzzle_path("seed000.txt").to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(out.trim(), want000);
    // seed 001: level-0 sample, solution as printed on its "Sample Output" slide
    let want001 =
        "491685273627391854853472619189243765732569481564817392348156927916724538275938146";
    let (_, out, _) = stdout_of(
        &["solve", "-q", puzzle_path("seed001.txt").to_str().unwrap()],
        "",
    );
    assert_eq!(out.trim(), want001);
    // seed 003's slide: the input as transcribed there lost a given (r4c5 = 6 of the classic
    // puzzle), so it has 2 solutions; the output printed on the slide is one of them.
    let want003 =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let (code, out, _) = stdout_of(
        &["dump", "-q", puzzle_path("seed003.txt").to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2);
    assert!(out.lines().any(|l| l == want003), "{out}");
    // seed 004's `seq` string has 5279 solutions (counted by the reference solver in
    // counts::seed_004_count); its blog only printed one.
    let (_, out, _) = stdout_of(
        &["count", "-q", puzzle_path("seed004.txt").to_str().unwrap()],
        "",
    );
    assert!(out.ends_with(": 5279 solutions\n"), "{out}");
    for name in ["seed002.txt", "sample.sdk", "sample.ss"] {
        let (code, out, err) = stdout_of(&["check", puzzle_path(name).to_str().unwrap()], "");
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(out.contains("unique"), "{name}: {out}");
    }
}

#[test]
fn sixteen_by_sixteen_is_unique() {
    let (code, out, err) = stdout_of(&["check", puzzle_path("big16.txt").to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("unique"));
}

/// The largest boards recurse a level per cell (4,096 on 64×64): worker threads get the stack
/// that needs (rayon's default of 2 MiB overflowed and aborted `-j 2`).
#[test]
fn the_largest_board_is_solved_on_worker_threads() {
    let empty = format!("{}\n", ".".repeat(64 * 64));
    for threads in ["1", "2"] {
        let (code, out, err) = stdout_of(&["solve", "-q", "-j", threads, "--box", "8x8"], &empty);
        assert_eq!(code, 0, "{threads} threads: {err}");
        let values = sudoku_enum::parse_one(out.trim(), &sudoku_enum::ParseOptions::default())
            .map(|p| p.cells().to_vec())
            .unwrap_or_default();
        assert_eq!(values.len(), 4096, "{out}");
        let shape = sudoku_enum::Shape::new(8, 8).unwrap();
        let mut grid = sudoku_enum::Puzzle::new(shape, values).unwrap();
        assert!(!grid.has_conflict() && grid.cells().iter().all(|&v| v != 0));
        grid.set(0, 0);
        assert_eq!(
            sudoku_enum::count(&grid, &sudoku_enum::Options::default()).solutions,
            1
        );
    }
}

#[test]
fn broken_pipe_is_quiet() {
    // `dump | head -1`: the tool must stop quietly when the reader goes away.
    let bin = assert_cmd::cargo::cargo_bin("sudoku-enum");
    let script = format!(
        "printf '%s\\n' '{}' | '{}' dump -q | head -n 1 >/dev/null; echo \"${{PIPESTATUS[1]}}\"",
        ".".repeat(81),
        bin.display()
    );
    bash_prints(&script, "0");
}

/// `/dev/full` (every write fails with ENOSPC) is Linux's; the tests are compiled there only.
#[test]
#[cfg(target_os = "linux")]
fn full_disk_is_reported() {
    // The same message from every subcommand (`check` said "cannot write output").
    for job in ["dump", "check", "solve", "candidates"] {
        let out = into_dev_full(&[job, "-q"]);
        assert_eq!(out.status.code(), Some(2), "{job}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("sudoku-enum: cannot write to standard output: No space left"),
            "{job}: {err}"
        );
    }
}

/// A dump whose solutions the output did not take says so, and not how many it found: each
/// puzzle's line on stderr is written only once its solutions are out.
#[test]
#[cfg(target_os = "linux")]
fn a_failed_dump_prints_no_count() {
    let out = into_dev_full(&["dump", "-n", "5", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("No space left"), "{err}");
    assert!(!err.contains("solutions"), "{err}");
}

/// The tool run with `args` on the empty 4×4, its stdout `/dev/full`.
#[cfg(target_os = "linux")]
fn into_dev_full(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-enum"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{}", ".".repeat(16)).unwrap();
    child.wait_with_output().unwrap()
}

/// Messages on a stderr that fails (`2>&1 | head`, `2>/dev/full`) are let go, as ripgrep lets
/// them go; help and completion scripts that cannot be written are errors (exit 2), a reader
/// that closed early is not. None of them may abort (a panic, exit 134 under `panic = abort`).
#[test]
#[cfg(target_os = "linux")]
fn failed_writes_to_stderr_and_of_scripts_never_abort() {
    let bin = assert_cmd::cargo::cargo_bin("sudoku-enum");
    let bin = bin.display();
    let seed = puzzle_path("seed000.txt");
    let seed = seed.display();
    for (script, want) in [
        // The summary line goes to a pipe that is already closed.
        (format!("printf '....\\n' | '{bin}' dump --box 1x2 2>&1 | head -c 1 >/dev/null; echo ${{PIPESTATUS[1]}}"), "0"),
        (format!("printf 'x\\n' | '{bin}' check 2>&1 | true; echo ${{PIPESTATUS[1]}}"), "2"),
        (format!("'{bin}' check '{seed}' >/dev/null 2>/dev/full; echo $?"), "0"),
        (format!("'{bin}' count -q '{seed}' >/dev/null 2>/dev/full; echo $?"), "0"),
        (format!("'{bin}' completions bash >/dev/full 2>/dev/null; echo $?"), "2"),
        (format!("'{bin}' completions zsh | head -c 0; echo ${{PIPESTATUS[0]}}"), "0"),
        (format!("'{bin}' --help >/dev/full 2>/dev/null; echo $?"), "2"),
        (format!("'{bin}' --help | head -c 0; echo ${{PIPESTATUS[0]}}"), "0"),
    ] {
        bash_prints(&script, want);
    }
}

/// Run `script` with bash: it must print `want` (an exit status it echoes) and nothing may
/// panic.
fn bash_prints(script: &str, want: &str) {
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        want,
        "{script}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{script}: {stderr}");
}

#[test]
fn interrupt_keeps_whole_lines_and_reports_partial_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("band.txt");
    let (out_arg, band) = (out.to_str().unwrap(), puzzle_path("first_band.txt"));
    let args = [
        "dump",
        "--threads",
        "2",
        "-o",
        out_arg,
        band.to_str().unwrap(),
    ];
    let result = interrupted_after(&args, 700);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ended_by_ctrl_c(&result.status, &stderr);
    assert!(!out.exists(), "an interrupted dump must not look complete");
    let partial = std::fs::read_to_string(dir.path().join("band.txt.partial")).unwrap();
    assert!(partial.ends_with('\n'));
    let lines: Vec<&str> = partial.lines().collect();
    assert!(lines
        .iter()
        .all(|l| l.len() == 81 && l.starts_with("123456789456789123789123456")));
    assert!(
        stderr.contains(&format!("at least {} solutions written", lines.len())),
        "{stderr} vs {} lines",
        lines.len()
    );
}

/// `split` of many parts stops at the first Ctrl-C (exit 130), writing no parts.
#[test]
fn interrupt_stops_a_long_split() {
    let empty = puzzle_path("empty9x9.txt");
    let args = ["split", "-q", "--parts", "1000000", empty.to_str().unwrap()];
    let result = interrupted_after(&args, 500);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ended_by_ctrl_c(&result.status, &stderr);
    assert!(result.stdout.is_empty());
}

/// `candidates` with a large cap stops soon after Ctrl-C, with the counts so far: its first
/// search's millions of solutions were each kept apart and counted after it stopped, which
/// took seconds more (3.3 s after a signal sent at 1 s; the solutions kept by then take some
/// 300 MB).
#[test]
fn interrupt_stops_candidates_with_a_large_cap_soon() {
    let empty = puzzle_path("empty9x9.txt");
    let args = [
        "candidates",
        "-j1",
        "--cap",
        "1000000000",
        empty.to_str().unwrap(),
    ];
    let started = std::time::Instant::now();
    let result = interrupted_after(&args, 1000);
    let after = started.elapsed().as_millis() - 1000;
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ended_by_ctrl_c(&result.status, &stderr);
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        stdout.contains("interrupted: counts are lower bounds"),
        "{stdout}"
    );
    assert!(after < 1500, "exited {after} ms after the signal");
}

/// `estimate` interrupted after its first round of probes (a 1,024th of them, every stratum's
/// share) writes the estimate of the probes made, marked, and ends as interrupted: it wrote
/// nothing before.
#[test]
fn interrupt_gives_the_estimate_so_far() {
    let empty = puzzle_path("empty9x9.txt");
    let args = [
        "estimate",
        "-q",
        "--samples",
        "5000000",
        empty.to_str().unwrap(),
    ];
    let result = interrupted_after(&args, 3000);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ended_by_ctrl_c(&result.status, &stderr);
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(stdout.contains(" probes, interrupted), about "), "{stdout}");
    // The empty 9×9 has 6.67·10²¹ grids.
    assert!(
        stdout.contains("about 6.") || stdout.contains("about 7.0"),
        "{stdout}"
    );
}

/// Interrupted, the tool writes what it has and then ends by the signal (a shell sees 130), so
/// that the loop of a script that ran it stops too.
fn assert_ended_by_ctrl_c(status: &std::process::ExitStatus, stderr: &str) {
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(2), "{status:?}: {stderr}");
}

/// Ctrl-C while the tool waits for more input (a pipe whose writer keeps it open, as a
/// terminal does) ends the run at once, after the puzzles read so far, as ripgrep's does. The
/// read used to resume after the signal: the tool waited for the input's end, then reported
/// "no puzzle found" or an error, not the interruption. What was read of the next record when
/// the signal came (here half a line) is dropped, not read as a record cut short.
#[test]
fn ctrl_c_ends_a_wait_for_input() {
    let half = &TOP1[..40];
    for args in [&["check", "-j1"][..], &["count", "-j1"], &["solve"]] {
        let result = ctrl_c_while_waiting(args, &format!("{TOP1}\n{half}"));
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_ended_by_ctrl_c(&result.status, &stderr);
        let stdout = String::from_utf8_lossy(&result.stdout);
        let want = match args[0] {
            "check" => "<stdin>:1: unique\n".to_string(),
            "count" => "<stdin>:1: 1 solution\n".to_string(),
            _ => format!("{TOP1_SOLUTION}\n"),
        };
        assert_eq!(stdout, want, "{args:?}: {stderr}");
        for wrong in ["no puzzle found", ":2:", "unreadable", "error"] {
            assert!(!stderr.contains(wrong), "{args:?}: {stderr}");
        }
    }
}

/// The same for `dump -o` (the file stays `OUT.partial`, as any interrupted dump's does) and
/// `merge` (no total of the results read so far).
#[test]
fn ctrl_c_while_waiting_keeps_a_dump_partial_and_a_merge_unsummed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let result = ctrl_c_while_waiting(&["dump", "-o", out.to_str().unwrap()], &format!("{TOP1}\n"));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ended_by_ctrl_c(&result.status, &stderr);
    assert!(!out.exists(), "{stderr}");
    let partial = std::fs::read_to_string(dir.path().join("out.txt.partial")).unwrap();
    assert_eq!(partial, format!("{TOP1_SOLUTION}\n"));
    assert!(
        stderr.contains("interrupted: at least 1 solution written"),
        "{stderr}"
    );

    let (_, parts, _) = stdout_of(&["split", "--parts", "3", "-q"], &format!("{TOP1}\n"));
    let parts_file = dir.path().join("parts.txt");
    std::fs::write(&parts_file, &parts).unwrap();
    let (_, results, _) = stdout_of(
        &["count", "--json", "-q", "-j1", parts_file.to_str().unwrap()],
        "",
    );
    let first = results.lines().next().unwrap();
    let result = ctrl_c_while_waiting(
        &["merge", "--parts", parts_file.to_str().unwrap(), "-"],
        &format!("{first}\n"),
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_ended_by_ctrl_c(&result.status, &stderr);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "");
    assert!(stderr.contains("merge: interrupted"), "{stderr}");
    assert!(!stderr.contains("has no result"), "{stderr}");
}

/// Ctrl-C at a terminal goes to the whole pipeline: the writer dies too, and closes the pipe
/// on half a line. That half line is not read as a record cut short: the puzzle before it is
/// answered, nothing else is reported, and the tool ends by the signal. (Its input is read by a
/// thread of its own, which the signal may not interrupt; the read then returns the pipe's end.)
#[cfg(unix)]
#[test]
fn ctrl_c_to_a_pipeline_drops_the_half_line_its_writer_left() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};
    let bin = assert_cmd::cargo::cargo_bin("sudoku-enum");
    for args in ["check -j1", "check -j2", "count -j1", "candidates -j2"] {
        // The writer outlives the signal by far, yet not long: where the test runs with
        // SIGINT ignored (inherited from a shell that started it in the background), the
        // writer does not die of it, and the pipeline ends only when its sleep does.
        let script = format!(
            "(printf '%s\\n..3..' '{TOP1}'; exec sleep 10) | exec '{}' {args}",
            bin.display()
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(800));
        let group = format!("-{}", child.id());
        let sent = Command::new("kill")
            .args(["-INT", "--", &group])
            .status()
            .unwrap();
        assert!(sent.success());
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.signal() == Some(2) || out.status.code() == Some(130),
            "{args}: {:?} {stderr}",
            out.status
        );
        assert!(stdout.contains("<stdin>:1"), "{args}: {stdout}");
        assert!(!stderr.contains("<stdin>:2"), "{args}: {stderr}");
        assert!(!stderr.contains("unreadable"), "{args}: {stderr}");
    }
}

/// A program that writes a puzzle to a pipe and waits for its answer before it writes the
/// next gets each answer while its pipe stays open: the answers of what was read are shown
/// once the input waits (not once a chunk of 512 puzzles is full, or the input ends), on one
/// thread or several, by every subcommand that answers puzzles.
#[test]
fn each_answer_comes_while_the_input_waits() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;
    for args in [
        &["check", "-j1"][..],
        &["check", "-j2"],
        &["count", "-j2", "--json"],
        &["solve", "-j2"],
        &["candidates", "-j2", "--json"],
    ] {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-enum"))
            .args(args)
            .arg("-q")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // The answers' lines as they come, read on a thread of their own.
        let (tx, rx) = mpsc::channel();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let reading = std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        for n in 1..=3 {
            writeln!(stdin, "{TOP1}").unwrap();
            stdin.flush().unwrap();
            let line = rx
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| {
                    let _ = child.kill();
                    panic!("{args:?}: no answer to puzzle {n} while the input stays open")
                });
            let source = format!("<stdin>:{n}");
            assert!(
                line.contains(&source) || line == TOP1_SOLUTION,
                "{args:?}: {line}"
            );
        }
        drop(stdin);
        assert!(child.wait().unwrap().success(), "{args:?}");
        reading.join().unwrap();
    }
}

/// The tool run with `args`, `input` written to its standard input, which is then kept open;
/// sent Ctrl-C (SIGINT) 0.8 s later: what it wrote and how it ended (it must end within 10 s).
fn ctrl_c_while_waiting(args: &[&str], input: &str) -> std::process::Output {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-enum"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kept open (not dropped) until the tool has ended.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    ctrl_c(&child);
    let sent = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if sent.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("{args:?}: still waiting for input 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let result = child.wait_with_output().unwrap();
    drop(stdin);
    result
}

/// The tool run with `args`, sent Ctrl-C (SIGINT) after `ms` milliseconds: what it wrote and
/// how it ended.
fn interrupted_after(args: &[&str], ms: u64) -> std::process::Output {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-enum"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(ms));
    ctrl_c(&child);
    child.wait_with_output().unwrap()
}

/// Send `child` Ctrl-C (SIGINT).
fn ctrl_c(child: &std::process::Child) {
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

#[test]
fn ordered_dump_is_identical_to_one_thread() {
    for (file, n) in [
        ("first_band.txt", "150000"),
        ("empty6x6.txt", "400000"),
        ("empty4x4.txt", "1000"),
    ] {
        let path = puzzle_path(file);
        let path = path.to_str().unwrap();
        let (_, serial, _) = stdout_of(&["dump", "-q", "--threads", "1", "-n", n, path], "");
        let (code, ordered, err) = stdout_of(
            &["dump", "-q", "--ordered", "--threads", "3", "-n", n, path],
            "",
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(serial.lines().count(), ordered.lines().count(), "{file}");
        assert!(
            serial == ordered,
            "{file}: --ordered differs from the one-thread order"
        );
    }
}

#[test]
fn check_explain_and_minimal() {
    let path = puzzle_path("seed001.txt");
    let (code, out, _) = stdout_of(
        &["check", "--explain", "--minimal", path.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.contains("Fields filled: 31"), "{out}");
    assert!(out.contains("Field was solvable with level 0"), "{out}");
    assert!(out.contains("Uniqueness: unique"), "{out}");
    assert!(out.contains("24 of 31 givens are redundant"), "{out}");
    let (_, out, _) = stdout_of(&["check", "--minimal", "-q"], &format!("{TOP1}\n"));
    assert_eq!(out, "<stdin>:1: unique, minimal\n");
    let (_, out, _) = stdout_of(
        &["check", "--json", "--explain", "-q"],
        &format!("{TOP1}\n"),
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["level"], "search");
    assert_eq!(v["verdict"], "unique");
}

/// `--minimal` keeps to `--timeout` (one deadline for all its counts; its counts ignored it,
/// and Ctrl-C, for 8 s on this 25×25, one count per given), and says it does not know.
#[test]
fn minimality_keeps_to_the_timeout() {
    let text = std::fs::read_to_string(puzzle_path("big/25x25_minimal.txt")).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let started = std::time::Instant::now();
    let (code, out, _) = stdout_of(
        &["check", "-q", "-j1", "--minimal", "--timeout", "0.2"],
        &format!("{line}\n"),
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(
        (code, out.as_str()),
        (0, "<stdin>:1: unique, minimality not known (stopped)\n")
    );
    let (_, out, _) = stdout_of(
        &[
            "check",
            "-q",
            "-j1",
            "--json",
            "--minimal",
            "--timeout",
            "0.2",
        ],
        &format!("{line}\n"),
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (&v["verdict"], &v["minimal"]),
        (&"unique".into(), &serde_json::Value::Null)
    );
}

/// Regression: counting the empty 12×12 and 16×16 by bands spent seconds to minutes inside one
/// band's arrangement count (four rows high), deaf to timeouts and Ctrl-C.
#[test]
fn timeouts_stop_counts_of_empty_big_boards() {
    let dir = tempfile::tempdir().unwrap();
    for (side, threads) in [(12, "1"), (12, "2"), (16, "1"), (16, "2"), (25, "1")] {
        let path = dir.path().join(format!("empty{side}.txt"));
        std::fs::write(&path, format!("{}\n", ".".repeat(side * side))).unwrap();
        let started = std::time::Instant::now();
        let (code, out, _) = stdout_of(
            &[
                "count",
                "-q",
                "-j",
                threads,
                "--timeout",
                "0.3",
                path.to_str().unwrap(),
            ],
            "",
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{side}x{side}, {threads} threads: {:?}",
            started.elapsed()
        );
        assert_eq!(code, 1);
        assert!(out.contains("(timed out)"), "{out}");
    }
}

/// A count by bands stops at its timeout, on one thread and split across two. A sparse 9×9 (this
/// one with three more givens, 1.4·10^10 solutions in 8 s of one core then) used to run to the
/// end past a 5 s timeout once split: its pieces' tails were each too short to check the clock
/// (see the bands unit test `stops_are_noticed_across_short_tails`). It now counts in 0.6 s,
/// under the timeout; this one has 9.7·10^11 solutions and takes 24 s.
#[test]
fn timeouts_stop_split_counts_by_bands() {
    let puzzle =
        "5.............5.4.......5..8......2...6..........2...6...5.......7.....5.........\n";
    for threads in ["1", "2"] {
        let started = std::time::Instant::now();
        let (code, out, _) = stdout_of(&["count", "-q", "-j", threads, "--timeout", "0.5"], puzzle);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(4),
            "{threads} threads: {:?}",
            started.elapsed()
        );
        assert_eq!(code, 1);
        assert!(out.contains("(timed out)"), "{out}");
    }
}

#[test]
fn timeout_gives_a_partial_answer() {
    // The empty 9×9 grid: 6.67·10^21 solutions, out of reach.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty9.txt");
    std::fs::write(&path, format!("{}\n", ".".repeat(81))).unwrap();
    let started = std::time::Instant::now();
    let (code, out, _) = stdout_of(
        &["count", "-q", "--timeout", "0.3", path.to_str().unwrap()],
        "",
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(code, 1);
    assert!(
        out.contains("solutions (timed out)") && out.contains("at least"),
        "{out}"
    );
    let (_, out, _) = stdout_of(
        &[
            "count",
            "-q",
            "--json",
            "--timeout",
            "0.2",
            path.to_str().unwrap(),
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["stopped"], "timed out");
}

/// A dump that `--timeout` cut short is not complete: its file stays `OUT.partial`, as after
/// Ctrl-C (it was renamed to OUT, looking complete).
#[test]
fn a_timed_out_dump_is_left_partial() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty9.txt");
    std::fs::write(&path, format!("{}\n", ".".repeat(81))).unwrap();
    let out = dir.path().join("sols.txt");
    let assert = cmd()
        .args(["dump", "-j1", "--timeout", "0.2", "-o"])
        .arg(&out)
        .arg(&path)
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains("1 puzzle timed out: the solutions are left in"),
        "{err}"
    );
    assert!(!out.exists());
    let partial = std::fs::read_to_string(dir.path().join("sols.txt.partial")).unwrap();
    assert!(partial.ends_with('\n') && partial.lines().all(|l| l.len() == 81));
}

/// A puzzle typed at a terminal (seed 000's prompt) is not overdrawn: no progress bar runs
/// while standard input is that terminal (its redraws wiped the half-typed line). Run under
/// `script` (util-linux), which gives the program a terminal; skipped where it is missing.
#[test]
fn no_bar_while_a_puzzle_is_typed() {
    let script = std::process::Command::new("script")
        .arg("--version")
        .output();
    if !script.is_ok_and(|o| o.status.success()) {
        eprintln!("no `script`: skipped");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("sudoku-enum");
    let typed = format!(
        "(sleep 0.8; printf '1..4....'; sleep 0.8; printf '.....32.\\n'; sleep 0.2; printf '\\004') \
         | SUDOKU_ENUM_BAR_DELAY_MS=50 script -qc '{} solve -j1' /dev/null",
        bin.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &typed])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Enter a Sudoku puzzle"), "{text}");
    assert!(text.contains("1234341221434321"), "{text}");
    assert!(
        !text.contains("\x1b[2K") && !text.contains("puzzles ("),
        "{text}"
    );
}

/// `count --turn N` (hidden, for measuring the choice of turn) counts by bands on that turn:
/// the count is the puzzle's on every turn, the first band searched differs from turn to
/// turn, `--count-by` is refused with it, and `--help` does not show it.
#[test]
fn count_on_a_turn_asked_for() {
    const SPARSE: &str =
        "...7...43..7..6.1......56.....5.....5..6..7..4..1.92.......3......9...8.....6....";
    let mut nodes = Vec::new();
    for turn in ["0", "3", "4"] {
        let (code, out, err) = stdout_of(
            &["count", "--json", "-q", "-j", "1", "--turn", turn],
            &format!("{SPARSE}\n"),
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("\"solutions\":1331650"), "{out}");
        let n = out.split("\"nodes\":").nth(1).expect("nodes");
        nodes.push(n[..n.find(',').expect("a field after")].to_string());
    }
    nodes.sort();
    nodes.dedup();
    assert_eq!(nodes.len(), 3, "{nodes:?}");
    let (code, _, err) = stdout_of(&["count", "--turn", "x"], "");
    assert_eq!(code, 2, "{err}");
    // It says how to count: `--count-by` with it is refused, whatever it says.
    let (code, _, err) = stdout_of(&["count", "--count-by", "search", "--turn", "1"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--count-by"), "{err}");
    let (code, help, _) = stdout_of(&["count", "--help"], "");
    assert_eq!(code, 0);
    assert!(!help.contains("--turn"), "{help}");
}
