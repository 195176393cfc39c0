//! The Slurm recipe, `examples/slurm-count.sh`, on a real Slurm: exact totals, and the failure
//! paths a cluster user meets (a task cancelled, a task killed by its time limit, re-counting only
//! the failed tasks).
//!
//! Needs a Slurm that `sinfo` reaches, with a node up: `eval "$(.ci/slurm.sh up)"` (as root)
//! starts a single-node one and exports its `SLURM_CONF`. Without one these tests are skipped
//! (with a note), except when `SUDOKU_ENUM_REQUIRE_SLURM=1` (as `.ci/run` sets): then a missing
//! Slurm is a failure.

use crate::util::puzzle_path;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The cluster name `.ci/slurm.sh` gives its Slurm: the only one these tests submit jobs to
/// (not a site's cluster that a login node happens to reach).
const TEST_CLUSTER: &str = "sudoku-enum-test";

/// Stdout of a command that succeeded.
fn stdout_of(program: &str, args: &[&str]) -> Option<String> {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Whether the test Slurm answers with a usable node; panics when one is required and absent.
fn slurm_is_up(test: &str) -> bool {
    let cluster = stdout_of("scontrol", &["show", "config"]).map(|c| {
        c.lines()
            .find_map(|l| l.strip_prefix("ClusterName"))
            .map(|v| v.trim_start_matches([' ', '=']).trim().to_string())
            .unwrap_or_default()
    });
    let states = stdout_of("sinfo", &["-h", "-o", "%T"]).unwrap_or_default();
    let usable = states
        .lines()
        .any(|l| ["idle", "mixed", "allocated", "completing"].contains(&l.trim()));
    let why = match cluster {
        None => "no Slurm answering (scontrol show config failed)".to_string(),
        Some(c) if c != TEST_CLUSTER => {
            format!("the Slurm answering is {c:?}, not the test cluster of .ci/slurm.sh")
        }
        Some(_) if !usable => format!("no node up (sinfo: {:?})", states.trim()),
        Some(_) => return true,
    };
    let required = std::env::var("SUDOKU_ENUM_REQUIRE_SLURM").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "SUDOKU_ENUM_REQUIRE_SLURM=1 but {why}: start one with `eval \"$(.ci/slurm.sh up)\"`"
    );
    eprintln!(
        "SKIPPED {test}: {why}. To run it, as root: `eval \"$(.ci/slurm.sh up)\"`, then \
         `cargo test --release slurm`, then `.ci/slurm.sh down`"
    );
    false
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The directory of the binary under test: put first on PATH, as the README asks of users.
fn path_with_the_binary() -> String {
    let bin = assert_cmd::cargo::cargo_bin("sudoku-enum");
    let dir = bin.parent().expect("the binary's folder");
    format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Jobs submitted by a test: cancelled when it ends (a no-op for finished ones), so that a
/// failing test leaves no job behind writing into a removed folder.
#[derive(Default)]
struct Jobs(Vec<String>);

impl Drop for Jobs {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            let _ = Command::new("scancel").args(&self.0).output();
        }
    }
}

/// One run of examples/slurm-count.sh.
struct Submitted {
    /// WORK: parts.txt, results/, logs/, total.txt.
    work: PathBuf,
    count_job: String,
    merge_job: String,
}

/// Run `examples/slurm-count.sh PUZZLE PARTS` in `cwd`, exactly as the README says: on the
/// "login node", `sudoku-enum` on PATH, WORK left to its default (`./count-<name>`). `env`:
/// extra variables (SBATCH_TIMELIMIT, SBATCH_HOLD).
fn submit(
    cwd: &Path,
    puzzle: &Path,
    parts: usize,
    env: &[(&str, &str)],
    jobs: &mut Jobs,
) -> Submitted {
    std::fs::create_dir_all(cwd).expect("mkdir");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/slurm-count.sh");
    let out = Command::new(&script)
        .arg(puzzle)
        .arg(parts.to_string())
        .current_dir(cwd)
        .env("PATH", path_with_the_binary())
        .env_remove("SUDOKU_ENUM")
        .env_remove("WORK")
        .envs(env.iter().copied())
        .output()
        .expect("runs examples/slurm-count.sh");
    let said = text(&out);
    assert!(out.status.success(), "slurm-count.sh failed:\n{said}");
    let job_after = |words: &str| -> String {
        said.split(words)
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| panic!("no {words:?} in:\n{said}"))
            .to_string()
    };
    let count_job = job_after("submitted count array job ");
    let merge_job = job_after("submitted merge job ");
    jobs.0.push(count_job.clone());
    jobs.0.push(merge_job.clone());
    let name = puzzle.file_stem().expect("a file name").to_string_lossy();
    Submitted {
        work: cwd.join(format!("count-{name}")),
        count_job,
        merge_job,
    }
}

/// `(array task id, state)` of every record of a job (`scontrol show job -o`).
fn states(job: &str) -> Vec<(Option<String>, String)> {
    let out = Command::new("scontrol")
        .args(["show", "job", "-o", job])
        .output()
        .expect("scontrol");
    assert!(
        out.status.success(),
        "scontrol show job {job}: {}",
        text(&out)
    );
    let field = |line: &str, key: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .map(str::to_string)
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let state = field(l, "JobState=").unwrap_or_else(|| panic!("no JobState: {l}"));
            (field(l, "ArrayTaskId="), state)
        })
        .collect()
}

const ENDED: [&str; 9] = [
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "PREEMPTED",
    "BOOT_FAIL",
    "DEADLINE",
    "OUT_OF_MEMORY",
];

/// Wait until every record of `job` has ended; its `(task, state)` list.
fn wait_ended(job: &str, within: Duration) -> Vec<(Option<String>, String)> {
    let started = Instant::now();
    loop {
        let s = states(job);
        if s.iter().all(|(_, state)| ENDED.contains(&state.as_str())) {
            return s;
        }
        assert!(
            started.elapsed() < within,
            "job {job} not ended after {within:?}: {s:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Wait until `task` of array `job` is running.
fn wait_running(job: &str, task: &str, within: Duration) {
    let started = Instant::now();
    loop {
        let s = states(job);
        if s.iter()
            .any(|(t, state)| t.as_deref() == Some(task) && state == "RUNNING")
        {
            return;
        }
        assert!(
            started.elapsed() < within,
            "task {job}_{task} not running after {within:?}: {s:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The number of parts in WORK/parts.txt: the array's tasks are 1..=that.
fn parts_in(work: &Path) -> usize {
    read(&work.join("parts.txt"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count()
}

/// Tasks 1..=n of the array ended COMPLETED, except those listed in `other` (a task cancelled
/// before it started may have no record at all).
fn assert_tasks(job: &str, n: usize, other: &[(&str, &str)]) {
    let tasks = states(job);
    for i in 1..=n {
        let id = i.to_string();
        let expected = other
            .iter()
            .find(|(t, _)| *t == id)
            .map_or("COMPLETED", |(_, s)| s);
        let found: Vec<&str> = tasks
            .iter()
            .filter(|(t, _)| t.as_deref() == Some(id.as_str()))
            .map(|(_, s)| s.as_str())
            .collect();
        assert!(
            found == [expected] || (found.is_empty() && expected == "CANCELLED"),
            "task {i}: {found:?}, expected {expected}: {tasks:?}"
        );
    }
    assert!(
        tasks.len() <= n,
        "more records than tasks (1..={n}): {tasks:?}"
    );
}

/// The merge job's final state, waiting up to `within`.
fn merge_state(s: &Submitted, within: Duration) -> String {
    let m = wait_ended(&s.merge_job, within);
    assert_eq!(m.len(), 1, "{m:?}");
    m[0].1.clone()
}

#[test]
fn slurm_recipe_counts_exactly() {
    if !slurm_is_up("slurm_recipe_counts_exactly") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut jobs = Jobs::default();
    let started = Instant::now();
    // Both submitted at once, as two users would; each in its own WORK.
    let six = submit(dir.path(), &puzzle_path("empty6x6.txt"), 16, &[], &mut jobs);
    let nine = submit(dir.path(), &puzzle_path("many9x9.txt"), 16, &[], &mut jobs);
    for (s, total) in [(&six, 28_200_960u64), (&nine, 11_949_151)] {
        assert_eq!(
            merge_state(s, Duration::from_secs(120)),
            "COMPLETED",
            "{}",
            s.work.display()
        );
        let n = parts_in(&s.work);
        assert!(n >= 16, "{n} parts");
        assert_tasks(&s.count_job, n, &[]);
        assert_eq!(
            read(&s.work.join("total.txt")),
            format!("total: {total} solutions ({n} parts)\n")
        );
        eprintln!(
            "slurm: {} counted in {n} array tasks: {total}",
            s.work.display()
        );
    }
    eprintln!(
        "slurm: both totals in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn slurm_failed_tasks_are_refused_then_recounted() {
    if !slurm_is_up("slurm_failed_tasks_are_refused_then_recounted") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut jobs = Jobs::default();
    let started = Instant::now();

    // 1. A count of decades in two parts, with a one-minute time limit: task 1 is cancelled
    //    while it counts, task 2 runs into the limit. Both leave an incomplete result.
    let slow_puzzle = dir.path().join("slow.txt");
    std::fs::write(&slow_puzzle, format!("1234567{}\n", ".".repeat(74))).expect("write");
    let slow = submit(
        &dir.path().join("slow"),
        &slow_puzzle,
        2,
        &[("SBATCH_TIMELIMIT", "1")],
        &mut jobs,
    );
    wait_running(&slow.count_job, "1", Duration::from_secs(120));
    std::thread::sleep(Duration::from_secs(2)); // let it count for a while
    let out = Command::new("scancel")
        .arg(format!("{}_1", slow.count_job))
        .output()
        .expect("scancel");
    assert!(out.status.success(), "scancel: {}", text(&out));

    // 2. Meanwhile, the empty 6×6 submitted held (SBATCH_HOLD), its task 3 cancelled before it
    //    ran, then released: one result missing.
    let held = submit(
        &dir.path().join("held"),
        &puzzle_path("empty6x6.txt"),
        16,
        &[("SBATCH_HOLD", "1")],
        &mut jobs,
    );
    for args in [
        vec!["scancel".to_string(), format!("{}_3", held.count_job)],
        vec!["scontrol".into(), "release".into(), held.count_job.clone()],
        vec!["scontrol".into(), "release".into(), held.merge_job.clone()],
    ] {
        let out = Command::new(&args[0])
            .args(&args[1..])
            .output()
            .expect("slurm command");
        assert!(out.status.success(), "{args:?}: {}", text(&out));
    }
    // The merge job runs after the tasks (afterany) and refuses, naming the part and the task.
    assert_eq!(merge_state(&held, Duration::from_secs(120)), "FAILED");
    let n = parts_in(&held.work);
    assert!(n >= 16, "{n} parts");
    assert_tasks(&held.count_job, n, &[("3", "CANCELLED")]);
    assert!(!held.work.join("results/3.json").exists());
    assert!(!held.work.join("total.txt").exists());
    let log = read(&held.work.join("logs/merge.log"));
    assert!(
        log.contains(&format!("part 3/{n} of ")) && log.contains(") has no result"),
        "{log}"
    );
    assert!(log.contains("refusing to add up: 1 problem"), "{log}");
    assert!(
        log.contains("array tasks without a complete result: 3;"),
        "{log}"
    );
    // Re-running the merge by hand says the same.
    let out = Command::new("bash")
        .arg(held.work.join("merge.sbatch"))
        .env("PATH", path_with_the_binary())
        .output()
        .expect("bash merge.sbatch");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("part 3/{n} of ")),
        "{}",
        text(&out)
    );
    // The command it prints re-counts task 3 alone and merges again: the exact total.
    let again = log
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("j=$(sbatch --parsable --array=3 ")
        })
        .unwrap_or_else(|| panic!("no re-submit command in:\n{log}"));
    let out = Command::new("bash")
        .args(["-c", again])
        .env("PATH", path_with_the_binary())
        .output()
        .expect("bash");
    assert!(out.status.success(), "{again}: {}", text(&out));
    let merge_again = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .last()
        .expect("Submitted batch job N")
        .to_string();
    jobs.0.push(merge_again.clone());
    let m = wait_ended(&merge_again, Duration::from_secs(120));
    assert_eq!(m[0].1, "COMPLETED", "{m:?}");
    assert_eq!(
        read(&held.work.join("total.txt")),
        format!("total: 28200960 solutions ({n} parts)\n")
    );
    assert!(
        read(&held.work.join("logs/merge.log"))
            .ends_with(&format!("total: 28200960 solutions ({n} parts)\n")),
        "merge.log keeps both merges"
    );
    eprintln!(
        "slurm: task 3 of {n} cancelled, refused, re-counted alone: exact total after {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // 3. Back to the slow count: task 2 killed at its time limit (Slurm checks every 30 s, so
    //    60-90 s after it started), then the merge refuses both parts as incomplete.
    assert_eq!(merge_state(&slow, Duration::from_secs(240)), "FAILED");
    assert_eq!(parts_in(&slow.work), 2);
    assert_tasks(&slow.count_job, 2, &[("1", "CANCELLED"), ("2", "TIMEOUT")]);
    assert!(
        read(&slow.work.join("logs/count-2.log")).contains("DUE TO TIME LIMIT"),
        "count-2.log"
    );
    for task in ["1", "2"] {
        let result = read(&slow.work.join(format!("results/{task}.json")));
        let v: serde_json::Value = serde_json::from_str(&result).expect("a JSON result line");
        assert_eq!(v["complete"], false, "{result}");
        assert_eq!(v["stopped"], "interrupted", "{result}");
    }
    assert!(!slow.work.join("total.txt").exists());
    let log = read(&slow.work.join("logs/merge.log"));
    for (part, task) in [("1/2", "1"), ("2/2", "2")] {
        assert!(
            log.contains(&format!("part {part} of "))
                && log.contains(&format!(
                    "results/{task}.json:1 is incomplete (interrupted)"
                )),
            "{log}"
        );
    }
    assert!(
        log.contains("array tasks without a complete result: 1,2;") && log.contains("--array=1,2 "),
        "{log}"
    );
    eprintln!(
        "slurm: cancelled and timed-out tasks refused after {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
