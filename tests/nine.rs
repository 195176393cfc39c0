// 9×9 engine tests (owned by the 9×9 engine work).
//
// The bundled samples in `puzzles/samples/` come from the data sets in `../shared/data`; the
// full-data test is ignored by default:
//
//     cargo test --release -- --ignored nine_full

use crate::util::{on_search_stack, puzzle_path, shared_data};
use std::path::Path;
use sudoku_enum::internals::Engine;
use sudoku_enum::internals::Generic;
use sudoku_enum::internals::Nine;
use sudoku_enum::internals::{Ctx, Shared};
use sudoku_enum::{CountSink, Puzzle, Shape};

/// One 81-character puzzle per line (`.`/`0` empty), `#` comments; an optional second field
/// (the expected count) is returned alongside.
fn read_puzzles(path: &Path) -> Vec<(Puzzle, Option<u128>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.split_whitespace();
            let grid = fields.next().unwrap();
            assert_eq!(grid.len(), 81, "not a 9×9 line: {l}");
            let cells = grid
                .bytes()
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                .collect();
            let expected = fields.next().map(|n| n.parse().unwrap());
            (Puzzle::new(Shape::NINE, cells).unwrap(), expected)
        })
        .collect()
}

fn count<E: Engine>(p: &Puzzle, limit: Option<u64>) -> u128 {
    let Some(e) = E::new(p) else { return 0 };
    on_search_stack(|| {
        let shared = Shared::new(limit);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        let _ = e.search(&mut ctx, 1.0);
        ctx.stats.solutions
    })
}

fn agree_with_generic(path: &Path) -> usize {
    let puzzles = read_puzzles(path);
    for (p, _) in &puzzles {
        let ours = count::<Nine>(p, Some(2));
        let oracle = count::<Generic>(p, Some(2));
        assert_eq!(ours, oracle, "{}: {}", path.display(), p.to_line());
    }
    puzzles.len()
}

fn exact_counts(path: &Path) -> usize {
    let puzzles = read_puzzles(path);
    for (p, expected) in &puzzles {
        let expected = expected.expect("a count after each puzzle");
        assert_eq!(count::<Nine>(p, None), expected, "{}", p.to_line());
    }
    puzzles.len()
}

#[test]
fn nine_agrees_with_generic_on_samples() {
    for name in [
        "17clue_200.txt",
        "top1465_200.txt",
        "hardest_200.txt",
        "serg_200.txt",
    ] {
        let n = agree_with_generic(&puzzle_path(&format!("samples/{name}")));
        assert_eq!(n, 200, "{name}");
    }
}

#[test]
fn nine_exact_counts_on_multi_truth_small() {
    let n = exact_counts(&puzzle_path("samples/multi_truth_small.txt"));
    assert!(n >= 100, "only {n} puzzles");
}

#[test]
fn nine_limits_and_zero_counts() {
    // Limits cut exactly, including when the last step counts several solutions at once.
    let puzzles = read_puzzles(&puzzle_path("samples/multi_truth_small.txt"));
    for (p, expected) in puzzles.iter().take(60) {
        let total = expected.unwrap();
        for limit in [1u64, 2, 3, 7, 100] {
            assert_eq!(
                count::<Nine>(p, Some(limit)),
                total.min(limit as u128),
                "{}",
                p.to_line()
            );
        }
    }
}

#[test]
#[ignore = "needs ../shared/data; minutes: cargo test --release -- --ignored nine_full"]
fn nine_full_data_sets() {
    for name in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles7_serg_benchmark",
    ] {
        agree_with_generic(&shared_data(name));
    }
    exact_counts(&shared_data("multi_truth_dev.txt"));
}
