//! Splitting a count over processes (`split`, `count --json`, `merge`) and estimating it
//! (`estimate`).

use crate::oracle;
use crate::util::{puzzle_path, run};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use sudoku_enum::estimate::{self, EstimateOptions};
use sudoku_enum::partition;
use sudoku_enum::{count, CountBy, EngineChoice, Options, Puzzle, Shape};

/// The 6×6 board with its first row fixed: 28,200,960 / 720 = 39,168 solutions.
const ROW6: &str = "123456..............................";
/// The 9×9 first band plus a fourth row: 632,016 solutions (a fraction of a second).
const BAND4: &str =
    "123456789456789123789123456231564897.............................................";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("write");
    path.display().to_string()
}

fn parse(line: &str) -> Puzzle {
    sudoku_enum::parse::parse_one(line, &Default::default()).expect("a puzzle")
}

fn exact(p: &Puzzle) -> u128 {
    let o = count(p, &Options::default());
    assert!(o.complete());
    o.solutions
}

/// Random puzzles with 10³..=10⁶ solutions (deterministic).
fn puzzles_with_many_solutions(want: usize) -> Vec<Puzzle> {
    let mut rng = oracle::Rng::new(2024);
    let mut found = Vec::new();
    let shapes = [Shape::new(2, 3).expect("shape"), Shape::NINE];
    for round in 0..400 {
        if found.len() >= want {
            break;
        }
        let shape = shapes[round % 2];
        let keep = if shape == Shape::NINE { 30 } else { 12 };
        let p = oracle::random_puzzle(shape, keep + round % 7, &mut rng);
        let o = count(
            &p,
            &Options {
                limit: Some(1_000_001),
                ..Options::default()
            },
        );
        if o.complete() && (1_000..=1_000_000).contains(&o.solutions) {
            found.push(p);
        }
    }
    assert!(found.len() >= want, "only {} puzzles found", found.len());
    found
}

#[test]
fn parts_add_up_to_the_whole() {
    for p in puzzles_with_many_solutions(6) {
        let whole = exact(&p);
        for k in [1, 2, 10, 97] {
            let parts = partition::split(&p, k, EngineChoice::Auto, partition::Follow::default())
                .expect("valid");
            let sum: u128 = parts.iter().map(|part| exact(&part.puzzle)).sum();
            assert_eq!(sum, whole, "{p:?} in {k} parts");
            // Every part keeps the original givens.
            for part in &parts {
                assert!(p
                    .cells()
                    .iter()
                    .zip(part.puzzle.cells())
                    .all(|(&g, &v)| g == 0 || g == v));
            }
        }
        let by_depth =
            partition::split_depth(&p, 3, EngineChoice::Generic, partition::Follow::default())
                .expect("valid");
        assert_eq!(
            by_depth.iter().map(|q| exact(&q.puzzle)).sum::<u128>(),
            whole
        );
    }
}

#[test]
fn parts_partition_the_solution_set() {
    let mut rng = oracle::Rng::new(77);
    let shape = Shape::new(2, 3).expect("shape");
    let mut checked = 0;
    for round in 0..200 {
        let p = oracle::random_puzzle(shape, 15 + round % 10, &mut rng);
        let whole: HashSet<Vec<u8>> = oracle::solutions(&p, 20_001).into_iter().collect();
        if !(50..=20_000).contains(&whole.len()) {
            continue;
        }
        for k in [3, 16, 200] {
            let mut union = HashSet::new();
            for part in partition::split(&p, k, EngineChoice::Auto, partition::Follow::default())
                .expect("valid")
            {
                for s in sudoku_enum::solutions(&part.puzzle, &Options::default()) {
                    assert!(p.is_solution(&s));
                    assert!(union.insert(s), "two parts share a solution ({k} parts)");
                }
            }
            assert_eq!(union, whole, "{p:?} in {k} parts");
        }
        checked += 1;
        if checked == 5 {
            break;
        }
    }
    assert_eq!(checked, 5);
}

#[test]
fn split_prints_tagged_parts_in_search_order() {
    let input = format!("{ROW6}\n{BAND4}\n{ROW6}\n");
    let (code, out, err) = run(&["split", "--parts", "5", "-q"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the same puzzle as <stdin>:1"), "{err}");
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(headers.len(), 2, "{out}");
    let ids: HashSet<&str> = out
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            l.split(" of=")
                .nth(1)
                .expect("of=")
                .split(' ')
                .next()
                .expect("id")
        })
        .collect();
    assert_eq!(ids.len(), 2);
    for line in out.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.split(' ');
        let grid = words.next().expect("grid");
        assert!(grid.len() == 36 || grid.len() == 81, "{line}");
        assert!(words.next().expect("part").starts_with("part="), "{line}");
    }
    let sum = |len: usize| -> u128 {
        out.lines()
            .filter(|l| !l.starts_with('#') && l.find(' ') == Some(len))
            .map(|l| exact(&parse(l)))
            .sum()
    };
    assert_eq!(sum(36), 39_168);
    assert_eq!(sum(81), 632_016);
    // A puzzle propagation already solves is one part: the grid.
    let solved = "123456456123231564564231312645645312";
    let (code, out, _) = run(&["split", "-k", "4", "-q"], &format!("{solved}\n"));
    assert_eq!(code, 0);
    assert_eq!(out.lines().filter(|l| !l.starts_with('#')).count(), 1);
    assert!(out.contains(&format!("{solved} part=1/1 of=")), "{out}");
    // Invalid givens: no parts, exit 1.
    let (code, _, err) = run(&["split", "-k", "4", "-q"], &format!("11{}\n", &ROW6[2..]));
    assert_eq!(code, 1);
    assert!(err.contains("invalid"), "{err}");
}

/// Whether GNU parallel runs here. Without it the recipe test is skipped with a note, except
/// when `SUDOKU_ENUM_REQUIRE_PARALLEL=1` (as `.ci/run` sets, after installing it): then it fails.
fn have_parallel(test: &str) -> bool {
    let found = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var("SUDOKU_ENUM_REQUIRE_PARALLEL").is_ok_and(|v| v == "1");
    assert!(
        found || !required,
        "SUDOKU_ENUM_REQUIRE_PARALLEL=1 but GNU parallel does not run (apt-get install parallel)"
    );
    if !found {
        eprintln!("SKIPPED {test}: GNU parallel is not installed (apt-get install parallel)");
    }
    found
}

#[test]
fn recipe_with_gnu_parallel_merges_to_the_exact_total() {
    if !have_parallel("recipe_with_gnu_parallel_merges_to_the_exact_total") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = assert_cmd::cargo::cargo_bin("sudoku-enum");
    let bin = bin.display();
    let input = write(dir.path(), "puzzles.txt", &format!("{ROW6}\n{BAND4}\n"));
    let script = format!(
        "set -eu\n\
         cd '{d}'\n\
         '{bin}' split --parts 24 -q '{input}' > parts.txt\n\
         grep -v '^#' parts.txt | parallel -j 2 --pipe -N 1 '{bin}' count --json -q -j 1 \
         > results.jsonl\n\
         '{bin}' merge -q --parts parts.txt results.jsonl\n",
        d = dir.path().display()
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .expect("bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(": 39168 solutions ("), "{stdout}");
    assert!(stdout.contains(": 632016 solutions ("), "{stdout}");
    let total = 39_168 + 632_016;
    assert!(
        stdout.contains(&format!("total: {total} solutions (")),
        "{stdout}"
    );
}

/// A split of ROW6 into 6 parts, and their `count --json` results (one line per part).
fn split_and_count(dir: &Path) -> (String, Vec<String>) {
    let input = write(dir, "row6.txt", &format!("{ROW6}\n"));
    let (code, parts, err) = run(&["split", "--parts", "6", "-q", &input], "");
    assert_eq!(code, 0, "{err}");
    let parts_path = write(dir, "parts.txt", &parts);
    let (code, results, err) = run(&["count", "--json", "-q", "-j", "1", &parts_path], "");
    assert_eq!(code, 0, "{err}");
    (parts_path, results.lines().map(str::to_string).collect())
}

#[test]
fn merge_adds_up_complete_results() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, results) = split_and_count(dir.path());
    assert!(results.len() >= 6);
    let (code, out, err) = run(&["merge", "--parts", &parts], &results.join("\n"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("total: 39168 solutions ({} parts)\n", results.len())
    );
    // Any order, several files, JSON.
    let mut shuffled = results.clone();
    shuffled.reverse();
    let a = write(dir.path(), "a.jsonl", &(shuffled[..2].join("\n") + "\n"));
    let b = write(dir.path(), "b.jsonl", &(shuffled[2..].join("\n") + "\n"));
    let (code, out, _) = run(&["merge", "--json", "--parts", &parts, &a, &b], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["solutions"], 39168);
    assert_eq!(v["parts"], results.len());
    assert_eq!(v["complete"], true);
}

/// Files saved by Windows tools with a UTF-8 byte-order mark (PowerShell 5's `Set-Content
/// -Encoding utf8`, Notepad) are read: the mark was read as part of the first line, which was
/// then "not a part line" or "not a JSON result line".
#[test]
fn merge_reads_files_that_start_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, results) = split_and_count(dir.path());
    let text = std::fs::read_to_string(&parts).expect("parts");
    let marked = write(dir.path(), "marked.txt", &format!("\u{feff}{text}"));
    let results = write(
        dir.path(),
        "results.jsonl",
        &format!("\u{feff}{}\n", results.join("\n")),
    );
    let (code, out, err) = run(&["merge", "--parts", &marked, &results], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("total: 39168 solutions ("), "{out}");
}

/// An empty parts file (a split that refused an invalid puzzle, or was interrupted) is no
/// evidence of a count of 0: it said "total: 0 solutions", exit 0.
#[test]
fn merge_refuses_an_empty_parts_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let parts = write(dir.path(), "parts.txt", "");
    let (code, out, err) = run(&["merge", "--parts", &parts], "");
    assert_eq!(code, 2, "{out}");
    assert_eq!(out, "");
    assert!(err.contains("no parts"), "{err}");
}

/// A split of an unsolvable puzzle writes only its header, `parts=0`: proof of a count of 0,
/// which merge adds up (it had refused it as "no parts", so no pipeline could answer 0).
#[test]
fn merge_of_an_unsolvable_puzzle_is_zero() {
    let dir = tempfile::tempdir().expect("tempdir");
    let unsolvable =
        "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..";
    let input = write(dir.path(), "unsolvable.txt", &format!("{unsolvable}\n"));
    let (code, parts, err) = run(&["split", "--parts", "4", "-q", &input], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        parts.starts_with("# split ") && parts.contains(" parts=0 "),
        "{parts}"
    );
    assert_eq!(parts.lines().count(), 1, "{parts}");
    let parts = write(dir.path(), "parts.txt", &parts);
    let (code, out, err) = run(&["merge", "--parts", &parts], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "total: 0 solutions (0 parts)\n");
    let (code, out, _) = run(&["merge", "--json", "--parts", &parts], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        (v["solutions"].as_u64(), v["complete"].as_bool()),
        (Some(0), Some(true))
    );
}

/// Counts whose sum is beyond 2^128 - 1 are refused: they were added with wraparound
/// ("total: 0 solutions" for four parts of 2^127 each).
#[test]
fn merge_refuses_a_total_beyond_u128() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, results) = split_and_count(dir.path());
    let huge: Vec<String> = results
        .iter()
        .map(|r| {
            let v: serde_json::Value = serde_json::from_str(r).expect("json");
            let n = &v["solutions"];
            let huge = format!("\"solutions\":{}", 1u128 << 127);
            let line = r.replace(&format!("\"solutions\":{n}"), &huge);
            assert!(line.contains(&huge), "{r}");
            line
        })
        .collect();
    let (code, out, err) = run(&["merge", "--parts", &parts], &huge.join("\n"));
    assert_eq!(code, 2, "{out}");
    assert_eq!(out, "");
    assert!(err.contains("exceeds 2^128 - 1"), "{err}");
}

/// `split --depth` past the bottom of the tree stops there (it went on expanding solved
/// leaves, for ever with a huge depth), and a level too wide for memory is not made: its
/// nodes stay whole (the parts still add up to the puzzle).
#[test]
fn split_depth_stops_at_the_leaves() {
    let (code, parts, err) = run(
        &["split", "-q", "--depth", "18446744073709551615"],
        "................\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(parts.lines().filter(|l| !l.starts_with('#')).count(), 288);
}

#[test]
fn merge_refuses_a_missing_part() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, results) = split_and_count(dir.path());
    let (code, out, err) = run(&["merge", "--parts", &parts], &results[1..].join("\n"));
    assert_eq!(code, 2);
    assert_eq!(out, "");
    let first = results[0].clone();
    let v: serde_json::Value = serde_json::from_str(&first).expect("json");
    let grid = v["puzzle"].as_str().expect("puzzle");
    assert!(
        err.contains(&format!("part 1/{} of ", results.len())) && err.contains("has no result"),
        "{err}"
    );
    assert!(err.contains(grid), "{err}");
    assert!(err.contains("refusing to add up"), "{err}");
}

#[test]
fn merge_refuses_a_duplicated_part() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, mut results) = split_and_count(dir.path());
    results.push(results[2].clone());
    let (code, out, err) = run(&["merge", "--parts", &parts], &results.join("\n"));
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains(&format!("part 3/{} of ", results.len() - 1)) && err.contains("duplicated"),
        "{err}"
    );
}

#[test]
fn merge_refuses_an_incomplete_part() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, mut results) = split_and_count(dir.path());
    let v: serde_json::Value = serde_json::from_str(&results[1]).expect("json");
    let grid = v["puzzle"].as_str().expect("puzzle").to_string();
    let (code, limited, _) = run(&["count", "--json", "-q", "--limit", "3"], &grid);
    assert_eq!(code, 0);
    results[1] = limited.trim().to_string();
    let (code, out, err) = run(&["merge", "--parts", &parts], &results.join("\n"));
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains(&format!("part 2/{} of ", results.len()))
            && err.contains("incomplete (limit reached)"),
        "{err}"
    );
    assert!(!err.contains("has no result"), "{err}");
}

#[test]
fn merge_refuses_a_result_of_no_part() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (parts, mut results) = split_and_count(dir.path());
    let (_, other, _) = run(&["count", "--json", "-q"], &format!("{BAND4}\n"));
    results.push(other.trim().to_string());
    let (code, _, err) = run(&["merge", "--parts", &parts], &results.join("\n"));
    assert_eq!(code, 2);
    assert!(err.contains("belongs to no part"), "{err}");
    // A parts file that is not one.
    let bad = write(dir.path(), "bad.txt", &format!("{ROW6}\n"));
    let (code, _, err) = run(&["merge", "--parts", &bad], &results.join("\n"));
    assert_eq!(code, 2);
    assert!(err.contains("not a part line"), "{err}");
}

fn within(estimate: f64, truth: f64, tolerance: f64) -> bool {
    (estimate / truth - 1.0).abs() <= tolerance
}

#[test]
fn estimator_is_within_five_percent_on_empty_boards() {
    let cases = [
        (Shape::NINE, 6_670_903_752_021_072_936_960f64),
        (Shape::new(2, 4).expect("shape"), 29_136_487_207_403_520f64),
        (Shape::new(2, 3).expect("shape"), 28_200_960f64),
    ];
    for (shape, truth) in cases {
        let started = std::time::Instant::now();
        let options = EstimateOptions {
            seed: 42,
            ..EstimateOptions::default()
        };
        let e =
            estimate::estimate_with(&Puzzle::empty(shape), &options, None, None).expect("valid");
        eprintln!(
            "{shape}: {:.4e} (truth {truth:.4e}, {:+.2}%), 95% CI {:.4e}..{:.4e}, {:.4e} nodes, \
             {} probes, {:.2} s",
            e.solutions,
            (e.solutions / truth - 1.0) * 100.0,
            e.ci95.0,
            e.ci95.1,
            e.nodes,
            e.samples,
            started.elapsed().as_secs_f64()
        );
        assert!(within(e.solutions, truth, 0.05), "{shape}: {e:?}");
        assert!(e.ci95.0 < e.solutions && e.solutions < e.ci95.1);
    }
    // The generic engine's tree size is what the plain search reports as nodes (6×6, first
    // row fixed; counting by bands walks a smaller tree).
    let p = parse(ROW6);
    let e = estimate::estimate(&p, 10_000, 7).expect("valid");
    let plain = Options {
        count_by: CountBy::Search,
        ..Options::default()
    };
    let o = count(&p, &plain);
    assert!(within(e.solutions, 39_168.0, 0.05), "{e:?}");
    assert!(
        within(e.nodes, o.stats.nodes as f64, 0.05),
        "{e:?} vs {o:?}"
    );
}

#[test]
fn estimate_cli_reports_the_count_and_a_prediction() {
    let (code, out, err) = run(
        &["estimate", "--json", "-q", "--seed", "1"],
        &format!("{BAND4}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let sols = v["solutions"].as_f64().expect("solutions");
    assert!(within(sols, 632_016.0, 0.05), "{out}");
    assert!(v["ci95"][0].as_f64() < Some(sols));
    assert!(v["nodes"].as_f64() > Some(sols));
    assert!(
        v["predicted_s"].as_f64().is_some() || v["counted"] == 632_016,
        "{out}"
    );
    let path = puzzle_path("empty6x6.txt");
    let (code, out, _) = run(&["estimate", "-q", &path.display().to_string()], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("about 2.") && out.contains("e7 solutions (95% CI"),
        "{out}"
    );
    let (code, out, _) = run(&["estimate", "-q"], "................\n");
    assert_eq!(code, 0);
    assert!(out.contains("counted exactly: 288 solutions"), "{out}");
}

/// The empty 25×25 has about 4·10^308 grids, beyond a 64-bit float: its estimate said
/// "about NaN solutions" (JSON `null` with a lower bound of 0) and exited 0. It now says so.
#[test]
fn estimates_beyond_a_float_say_so() {
    let empty = format!("{}\n", ".".repeat(625));
    let args = ["estimate", "-q", "--samples", "20", "--calibrate", "0"];
    let (code, out, err) = run(&args, &empty);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("more than 1.8e308 solutions (beyond a 64-bit float;"),
        "{out}"
    );
    assert!(!out.contains("NaN"), "{out}");
    let (code, out, err) = run(&[&args[..], &["--json"]].concat(), &empty);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["overflow"], true, "{out}");
    assert!(v["solutions"].is_null() && v["ci95"][0].is_null(), "{out}");
}

/// `--strata 100000000` ran for minutes, deaf to Ctrl-C and SIGTERM, its memory growing: the
/// strata are now at most 10,000, and the expansion listens for Ctrl-C.
#[test]
fn strata_are_bounded() {
    let (code, _, err) = run(
        &["estimate", "--strata", "100000000"],
        &format!("{}\n", empty9()),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("is not a number of strata from 1 to 10000"),
        "{err}"
    );
    let (code, out, err) = run(
        &[
            "estimate",
            "-q",
            "-s",
            "2",
            "--calibrate",
            "0",
            "--strata",
            "10000",
        ],
        &format!("{}\n", empty9()),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("about 6."), "{out}");
}

/// The empty 9×9: 6.67·10²¹ solutions, centuries to count.
fn empty9() -> String {
    ".".repeat(81)
}

#[test]
fn an_astronomic_count_is_announced_and_still_runs() {
    // Judged after 2 s, then estimated: a debug build's estimate takes seconds more.
    let timeout = if cfg!(debug_assertions) { "15" } else { "4" };
    let (code, out, err) = run(&["count", "--timeout", timeout], &format!("{}\n", empty9()));
    // It ran (to the timeout), after saying what it is up against.
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("at least") && out.contains("(timed out)"),
        "{out}"
    );
    let warning = err
        .lines()
        .find(|l| l.contains("a long count"))
        .unwrap_or_else(|| panic!("no warning: {err}"));
    assert!(
        warning.starts_with("sudoku-enum: <stdin>:1: a long count: about 6.")
            && warning.contains("e21 solutions (95% CI ")
            // Its time: from the share of the tree done, or unknown where none is measurable
            // yet (a slow build, a loaded machine).
            && (warning.contains(" years with ") || warning.contains("its time unknown"))
            && warning.contains("counting on"),
        "{warning}"
    );
    // In a batch too, on one thread or several: the long one is named by its line.
    for threads in ["1", "2"] {
        let input = format!("{BAND4}\n{}\n{BAND4}\n", empty9());
        let (code, out, err) = run(&["count", "-j", threads, "--timeout", timeout], &input);
        assert_eq!(code, 1, "{err}");
        assert_eq!(out.lines().count(), 3, "{out}");
        assert!(
            err.lines()
                .any(|l| l.starts_with("sudoku-enum: <stdin>:2: a long count: about 6.")),
            "-j {threads}: {err}"
        );
        assert!(!err.contains("<stdin>:1: a long count"), "{err}");
    }
    // Short counts say nothing of the kind; --quiet silences it.
    let (_, _, err) = run(&["count"], &format!("{BAND4}\n"));
    assert!(!err.contains("a long count"), "{err}");
    let (_, _, err) = run(
        &["count", "-q", "--timeout", "3"],
        &format!("{}\n", empty9()),
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn estimate_predicts_from_a_trial_of_the_real_count() {
    // A trial that finishes is the count itself.
    let (code, out, _) = run(&["estimate", "-q", "-s", "2000"], &format!("{BAND4}\n"));
    assert_eq!(code, 0);
    assert!(
        out.contains("; counted exactly: 632016 solutions in "),
        "{out}"
    );
    // One that does not gives its share of the tree and the extrapolated time (on two threads
    // whatever the machine's cores: decades on a 2-core machine of 2026, and the bounds below
    // leave a factor of 20 for faster ones).
    let (code, out, err) = run(
        &[
            "estimate",
            "--json",
            "-q",
            "-s",
            "2000",
            "--calibrate",
            "0.5",
            "-j2",
        ],
        &format!("{}\n", empty9()),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let done = v["trial_done"].as_f64().expect("trial_done");
    assert!(done > 0.0 && done < 1e-3, "{out}");
    assert!(v["trial_s"].as_f64() >= Some(0.5), "{out}");
    // Years: the trial's share of the time it took, and far more than the trial.
    let predicted = v["predicted_s"].as_f64().expect("predicted_s");
    assert!(predicted > 3.2e7, "{out}");
    let trial = v["trial_s"].as_f64().expect("trial_s");
    assert!(
        predicted > 0.1 * trial / done && predicted < 10.0 * trial / done,
        "{out}"
    );
    assert!(v.get("counted").is_none(), "{out}");
    let (_, out, _) = run(
        &["estimate", "-q", "-s", "2000", "--calibrate", "0.5", "-j2"],
        &format!("{}\n", empty9()),
    );
    assert!(
        out.contains("years with ")
            && out.contains(" trial count did ")
            && out.contains("% of the tree)"),
        "{out}"
    );
}
