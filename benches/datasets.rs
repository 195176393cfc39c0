//! Library benchmarks (divan): uniqueness checks over each data set and exhaustive counting.
//!
//!     cargo bench --bench datasets                      # bundled samples (puzzles/samples)
//!     SUDOKU_DATA=../shared/data cargo bench --bench datasets   # the full public sets
//!
//! Ratios against the peers are measured end to end by `benches/compare.sh`.

use std::path::PathBuf;
use sudoku_enum::parse::{ParseOptions, Reader};
use sudoku_enum::{count, EngineChoice, Options, Puzzle};

fn main() {
    divan::main();
}

/// (name, bundled sample, full data set file name)
const SETS: [(&str, &str, &str); 4] = [
    ("17clue", "17clue_200.txt", "puzzles2_17_clue"),
    ("top1465", "top1465_200.txt", "puzzles3_magictour_top1465"),
    (
        "hardest",
        "hardest_200.txt",
        "puzzles5_forum_hardest_1905_11+",
    ),
    ("serg", "serg_200.txt", "puzzles7_serg_benchmark"),
];

fn load(name: &str) -> Vec<Puzzle> {
    let (_, sample, full) = SETS
        .iter()
        .find(|s| s.0 == name)
        .copied()
        .expect("known data set");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = match std::env::var_os("SUDOKU_DATA") {
        Some(dir) => PathBuf::from(dir).join(full),
        None => root.join("puzzles/samples").join(sample),
    };
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Reader::new(std::io::BufReader::new(file), ParseOptions::default())
        .map(|r| r.expect("benchmark data parses").puzzle)
        .collect()
}

fn check_all(puzzles: &[Puzzle], engine: EngineChoice) -> u128 {
    let options = Options {
        limit: Some(2),
        engine,
        ..Options::default()
    };
    puzzles.iter().map(|p| count(p, &options).solutions).sum()
}

#[divan::bench(args = ["17clue", "top1465", "hardest", "serg"])]
fn check_9x9_engine(bencher: divan::Bencher, set: &str) {
    let puzzles = load(set);
    bencher
        .counter(divan::counter::ItemsCount::new(puzzles.len()))
        .bench(|| check_all(&puzzles, EngineChoice::Auto));
}

#[divan::bench(args = ["17clue", "top1465"])]
fn check_generic_engine(bencher: divan::Bencher, set: &str) {
    let puzzles = load(set);
    bencher
        .counter(divan::counter::ItemsCount::new(puzzles.len()))
        .bench(|| check_all(&puzzles, EngineChoice::Generic));
}

/// The first band plus a fourth row fixed: 632,016 solutions, counted exhaustively (with an
/// empty table of subtree counts each time, so every iteration does the whole count).
#[divan::bench(sample_count = 10)]
fn count_first_band_plus_row(bencher: divan::Bencher) {
    let line = format!("123456789456789123789123456214365897{}", ".".repeat(45));
    let p = sudoku_enum::parse::parse_one(&line, &ParseOptions::default()).expect("valid");
    bencher.bench(|| {
        sudoku_enum::internals::clear_memo();
        count(&p, &Options::default()).solutions
    });
}
