//! The puzzle setter's questions (`setter`): seed 001's level-0 solver, singles, minimality,
//! and `check --explain`'s report of them.

use crate::util::{puzzle_path, run, shared_data};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::time::Instant;
use sudoku_enum::parse::parse_one;
use sudoku_enum::setter::{self, minimality, Level};
use sudoku_enum::{count, Options, ParseOptions, Puzzle, Reader, Shape, Verdict};

fn read_all(path: &Path) -> Vec<Puzzle> {
    let file = File::open(path).expect("open puzzle file");
    Reader::new(BufReader::new(file), ParseOptions::default())
        .map(|r| r.expect("parse").puzzle)
        .collect()
}

/// The 17-clue puzzles of the bundled sample (the first 200 of ../shared's puzzles2_17_clue).
fn sample_17() -> Vec<Puzzle> {
    read_all(&puzzle_path("samples/17clue_200.txt"))
}

/// Per level: (naked singles, singles, search).
fn levels(puzzles: &[Puzzle]) -> [usize; 3] {
    let mut k = [0; 3];
    for p in puzzles {
        let r = setter::rate(p).expect("classic");
        assert!(r.contradiction.is_none(), "{p}");
        k[match r.level {
            Level::NakedSingles => 0,
            Level::Singles => 1,
            Level::Search => 2,
        }] += 1;
    }
    k
}

#[test]
fn seed_001_sample_is_level_0() {
    let text = std::fs::read_to_string(puzzle_path("seed001.txt")).expect("seed001.txt");
    let p = parse_one(&text, &ParseOptions::default()).expect("parses");
    let r = setter::rate(&p).expect("classic");
    assert_eq!(r.level, Level::NakedSingles);
    assert_eq!((r.givens, r.level0_filled, r.level1_filled), (31, 50, 0));
    // The seed's "Sample Output" board.
    let solved: Vec<u8> =
        "491685273627391854853472619189243765732569481564817392348156927916724538275938146"
            .bytes()
            .map(|b| b - b'0')
            .collect();
    assert_eq!(r.after_level0, solved);
    assert!(minimality(&p).is_some(), "unique");
    // The report, as `check --explain --minimal` prints it (seed 001's layout).
    let path = puzzle_path("seed001.txt");
    let (code, report, _) = run(
        &[
            "check",
            "--explain",
            "--minimal",
            "-q",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{report}");
    print!("{report}");
    let initially = report
        .find("Statistics initially:")
        .expect("initial statistics");
    let after = report
        .find("Statistics Sudoku level 0")
        .expect("level 0 statistics");
    assert!(initially < after);
    let (first, second) = report.split_at(after);
    for line in [
        "Total # of fields: 81",
        "Fields filled: 31",
        "empty fields: 50",
    ] {
        assert!(first.contains(line), "{line}");
    }
    for line in [
        "Total # of fields: 81",
        "Fields filled: 81",
        "empty fields: 0",
    ] {
        assert!(second.contains(line), "{line}");
    }
    assert!(report.contains("\nField was solvable with level 0\n"));
    assert!(report.contains("\n  0 1 2  3 4 5  6 7 8\n"));
    assert!(report.contains("| 4 9 1| 6 8 5| 2 7 3| 0"));
    assert!(report.contains("Uniqueness: unique"));
    let (code, out, _) = run(
        &[
            "check",
            "--explain",
            "--minimal",
            "--json",
            "-q",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(j["level"], "naked-singles");
    assert_eq!(
        (j["level0_filled"].as_u64(), j["singles_filled"].as_u64()),
        (Some(50), Some(0))
    );
    assert_eq!(
        (j["givens"].as_u64(), j["empty"].as_u64()),
        (Some(31), Some(50))
    );
    assert!(j["minimal"].is_boolean() && j["redundant"].is_array());
}

#[test]
fn seventeen_clue_sample_is_unique_and_minimal() {
    let puzzles = sample_17();
    assert_eq!(puzzles.len(), 200);
    let start = Instant::now();
    for p in &puzzles {
        assert_eq!(p.givens(), 17);
        assert_eq!(
            count(
                p,
                &Options {
                    limit: Some(2),
                    ..Options::default()
                }
            )
            .verdict(),
            Verdict::Unique,
            "{p}"
        );
        let m = minimality(p).expect("unique");
        assert!(
            m.minimal && m.redundant.is_empty(),
            "{p}: {:?}",
            m.redundant
        );
    }
    eprintln!(
        "minimality of a 17-clue puzzle (uniqueness + 17 removals): {:?} each",
        start.elapsed() / puzzles.len() as u32
    );
    assert_eq!(levels(&puzzles), PINNED_200);
}

/// Of the first 200 17-clue puzzles: fall to naked singles, need hidden singles, need search.
const PINNED_200: [usize; 3] = [0, 96, 104];

/// The whole 17-clue collection (49,158 puzzles): all unique and minimal; singles pinned.
/// Release build: about 7 s (5.5 s minimality, 1 s rating).
#[test]
#[ignore = "needs ../shared/data/puzzles2_17_clue; about 7 s in release"]
fn all_seventeen_clue_puzzles() {
    let path = shared_data("puzzles2_17_clue");
    let puzzles = read_all(&path);
    assert_eq!(puzzles.len(), 49_158);
    let start = Instant::now();
    for p in &puzzles {
        let m = minimality(p).unwrap_or_else(|| panic!("not unique: {p}"));
        assert!(m.minimal, "{p}: {:?}", m.redundant);
    }
    eprintln!("minimality: {:?}", start.elapsed());
    let start = Instant::now();
    let k = levels(&puzzles);
    eprintln!("levels {k:?}: {:?}", start.elapsed());
    assert_eq!(k, PINNED_ALL);
}

const PINNED_ALL: [usize; 3] = [0, 21_905, 27_253];

/// Every 4×4 puzzle with exactly 4 givens: 25,728 are uniquely solvable (OEIS A109252).
#[test]
fn four_given_4x4_puzzles() {
    let shape = Shape::new(2, 2).expect("2x2");
    let options = Options {
        limit: Some(2),
        ..Options::default()
    };
    let (mut unique, mut placements, mut valid) = (0u64, 0u64, 0u64);
    let mut by_level = [0u64; 3];
    let start = Instant::now();
    for a in 0..16 {
        for b in a + 1..16 {
            for c in b + 1..16 {
                for d in c + 1..16 {
                    let cells = [a, b, c, d];
                    for digits in 0..256u32 {
                        placements += 1;
                        let mut values = vec![0u8; 16];
                        for (k, &cell) in cells.iter().enumerate() {
                            values[cell] = ((digits >> (2 * k)) & 3) as u8 + 1;
                        }
                        let p = Puzzle::new(shape, values).expect("in range");
                        if p.conflict().is_some() {
                            continue;
                        }
                        valid += 1;
                        if count(&p, &options).verdict() == Verdict::Unique {
                            unique += 1;
                            let r = setter::rate(&p).expect("classic");
                            by_level[match r.level {
                                Level::NakedSingles => 0,
                                Level::Singles => 1,
                                Level::Search => 2,
                            }] += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "4x4, 4 givens: {placements} placements, {valid} without clashes, {unique} unique \
         {by_level:?} in {:?}",
        start.elapsed()
    );
    assert_eq!(placements, 465_920);
    assert_eq!(unique, 25_728);
    // And every one of them falls to naked singles alone.
    assert_eq!(by_level, [25_728, 0, 0]);
}
