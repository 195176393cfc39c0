//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Path of a file under the repository's `puzzles/` folder.
pub fn puzzle_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
}

/// Path of a file under `../shared/data`, for the opt-in (`#[ignore]`d) tests over the full
/// data sets. Panics, naming the file, when it is absent (it is not in a user's clone): an
/// opt-in test that cannot run must fail, not pass without testing.
pub fn shared_data(name: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("data")
        .join(name);
    assert!(
        p.exists(),
        "{} is absent: this opt-in test needs the project's shared data set beside the checkout",
        p.display()
    );
    p
}

/// The tool under test.
pub fn cmd() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("sudoku-enum").expect("binary built")
}

/// Run the tool with `args` and `stdin`: (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = cmd()
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run `f` on a thread with the stack a search needs (`sudoku_enum::SEARCH_STACK`), as the
/// library asks of threads that call the engines directly: a debug build's 9×9 search needs
/// more than a test thread's 2 MiB.
pub fn on_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(sudoku_enum::SEARCH_STACK)
            .spawn_scoped(scope, f)
            .expect("a search thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
