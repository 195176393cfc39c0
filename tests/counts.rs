//! Exact counts against known values and the independent reference solver.

use crate::oracle::{self, Rng};
use crate::util;
use sudoku_enum::{count, CountBy, EngineChoice, Options, Progress, Puzzle, Shape};

fn exact(p: &Puzzle, options: &Options) -> u128 {
    let o = count(p, options);
    assert!(o.complete());
    o.solutions
}

fn threads(n: usize) -> Options {
    Options {
        threads: n,
        ..Options::default()
    }
}

/// `options` that stop at `limit` solutions.
fn limited(limit: u64, options: Options) -> Options {
    Options {
        limit: Some(limit),
        ..options
    }
}

fn in_pool<T: Send>(n: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .stack_size(sudoku_enum::SEARCH_STACK)
        .build()
        .expect("pool")
        .install(f)
}

/// Empty boards with boxes two rows high are counted in closed form (`CountBy::Auto`); the
/// searches count them too.
#[test]
fn empty_4x4_has_288_grids() {
    let p = Puzzle::empty(Shape::new(2, 2).unwrap());
    for how in [CountBy::Auto, CountBy::Bands, CountBy::Search] {
        assert_eq!(exact(&p, &by(how, 1)), 288);
        assert_eq!(in_pool(4, || exact(&p, &by(how, 4))), 288);
    }
}

/// 28,200,960 grids of 6×6 with 2×3 boxes (OEIS A107739): in closed form, and by bands across
/// threads (the first band searched, split, and the closed form below it).
#[test]
fn empty_6x6_has_28_200_960_grids() {
    let p = Puzzle::empty(Shape::new(2, 3).unwrap());
    let n = std::thread::available_parallelism().map_or(2, |n| n.get());
    for how in [CountBy::Auto, CountBy::Bands] {
        assert_eq!(in_pool(n, || exact(&p, &by(how, n))), 28_200_960);
    }
}

/// The stretch goal: the 8×8 with 2×4 boxes has 29,136,487,207,403,520 grids (and as
/// many with 4×2 boxes); a limit stops the count at exactly the limit.
#[test]
fn empty_8x8_in_closed_form() {
    const GRIDS: u128 = 29_136_487_207_403_520;
    for (r, c) in [(2, 4), (4, 2)] {
        let p = Puzzle::empty(Shape::new(r, c).unwrap());
        assert_eq!(exact(&p, &threads(1)), GRIDS);
        assert_eq!(in_pool(2, || exact(&p, &threads(2))), GRIDS);
        let o = count(&p, &limited(1 << 40, threads(1)));
        assert_eq!((o.solutions, o.complete()), (1 << 40, false));
    }
}

/// The 3×2 orientation is the same count (transposition).
#[test]
fn empty_6x6_tall_boxes_fixed_row() {
    let mut p = Puzzle::empty(Shape::new(3, 2).unwrap());
    for (i, v) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
        p.set(i, v);
    }
    // Fixing the first row divides by 6! = 720.
    assert_eq!(exact(&p, &threads(1)), 28_200_960 / 720);
}

/// 8×8 with 2×4 boxes, first two rows and more fixed: compare with the oracle.
#[test]
fn random_puzzles_agree_with_the_oracle() {
    let mut rng = Rng::new(2024);
    let shapes = [
        (Shape::new(2, 2).unwrap(), 10),
        (Shape::new(2, 3).unwrap(), 35),
        (Shape::new(3, 2).unwrap(), 35),
        (Shape::new(2, 4).unwrap(), 55),
        (Shape::NINE, 45),
    ];
    for (shape, keep) in shapes {
        for _ in 0..25 {
            let p = oracle::random_puzzle(shape, keep, &mut rng);
            let want = oracle::count(&p, 20_000).unwrap() as u128;
            for engine in [EngineChoice::Auto, EngineChoice::Generic] {
                let o = count(
                    &p,
                    &Options {
                        limit: Some(20_000),
                        engine,
                        ..Options::default()
                    },
                );
                assert_eq!(o.solutions, want, "{p:?} with {engine:?}");
            }
        }
    }
}

/// Puzzles with a wrong given: both solvers say 0, and clashing givens are "invalid".
#[test]
fn unsolvable_and_invalid_agree_with_the_oracle() {
    let mut rng = Rng::new(99);
    let shape = Shape::new(2, 3).unwrap();
    let mut zero = 0;
    for _ in 0..200 {
        let mut p = oracle::random_puzzle(shape, 30, &mut rng);
        let cell = rng.below(36);
        p.set(cell, 1 + rng.below(6) as u8);
        let o = count(&p, &threads(1));
        match oracle::count(&p, u64::MAX) {
            None => assert!(o.conflict.is_some(), "{p:?}"),
            Some(n) => {
                assert!(o.conflict.is_none());
                assert_eq!(o.solutions, n as u128, "{p:?}");
                zero += (n == 0) as u32;
            }
        }
    }
    assert!(zero > 0, "the sample should hold unsolvable puzzles");
}

fn truth_lines(text: &str) -> Vec<(Puzzle, u128)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (p, n) = l.split_once(' ').expect("PUZZLE COUNT");
            let cells = p
                .bytes()
                .map(|b| if b == b'.' { 0 } else { b - b'0' })
                .collect();
            (
                Puzzle::new(Shape::NINE, cells).unwrap(),
                n.trim().parse().unwrap(),
            )
        })
        .collect()
}

/// Ground truth counts (bundled sample of ../shared/data/multi_truth_dev.txt), generic engine.
#[test]
fn multi_truth_sample_generic_engine() {
    let text = std::fs::read_to_string(util::puzzle_path("samples/multi_truth_small.txt")).unwrap();
    let cases = truth_lines(&text);
    assert!(cases.len() > 50);
    let options = Options {
        threads: 2,
        engine: EngineChoice::Generic,
        ..Options::default()
    };
    for (p, want) in cases.into_iter().filter(|&(_, n)| n <= 100_000) {
        assert_eq!(in_pool(2, || exact(&p, &options)), want, "{p:?}");
    }
}

/// The whole ground-truth file, both engines, all threads (needs ../shared; minutes in release):
/// `cargo test --release -- --ignored multi_truth_full`
#[test]
#[ignore = "needs ../shared/data; minutes: cargo test --release -- --ignored multi_truth_full"]
fn multi_truth_full() {
    let path = util::shared_data("multi_truth_dev.txt");
    let n = std::thread::available_parallelism().map_or(2, |n| n.get());
    for (p, want) in truth_lines(&std::fs::read_to_string(path).unwrap()) {
        assert_eq!(in_pool(n, || exact(&p, &threads(n))), want, "{p:?}");
    }
}

/// Seed 004's puzzle string: the reference solver's count is the count the tool prints.
#[test]
fn seed_004_count() {
    let line = "003000000400080036008000100040060073000900000000002005004070062600000000700600500";
    let cells = line.bytes().map(|b| b - b'0').collect();
    let p = Puzzle::new(Shape::NINE, cells).unwrap();
    assert_eq!(oracle::count(&p, u64::MAX), Some(5279));
    assert_eq!(exact(&p, &threads(1)), 5279);
}

fn by(count_by: CountBy, threads: usize) -> Options {
    Options {
        threads,
        count_by,
        ..Options::default()
    }
}

/// Counting by bands (forced, from the start) agrees with the plain search on random puzzles
/// of every shape it serves, serial and split across threads, and with the reference solver
/// where it can count.
#[test]
fn counting_by_bands_agrees_with_the_plain_search() {
    let mut rng = Rng::new(0xBA4D5);
    let cases = [
        (Shape::new(2, 2).unwrap(), [0, 20, 40]),
        (Shape::new(2, 3).unwrap(), [15, 30, 45]),
        (Shape::new(3, 2).unwrap(), [15, 30, 45]),
        (Shape::new(1, 4).unwrap(), [0, 20, 40]),
        (Shape::new(2, 4).unwrap(), [45, 55, 65]),
        (Shape::new(4, 2).unwrap(), [45, 55, 65]),
        (Shape::NINE, [38, 45, 55]),
        (Shape::new(3, 4).unwrap(), [62, 70, 80]),
        (Shape::new(4, 3).unwrap(), [62, 70, 80]),
        (Shape::new(2, 5).unwrap(), [55, 65, 75]),
    ];
    let mut nonzero = 0;
    for (shape, keeps) in cases {
        for keep in keeps {
            for _ in 0..4 {
                let p = oracle::random_puzzle(shape, keep, &mut rng);
                let plain = count(&p, &by(CountBy::Search, 1));
                assert!(plain.complete());
                let bands = count(&p, &by(CountBy::Bands, 1));
                assert_eq!(bands.solutions, plain.solutions, "{shape} {}", p.to_line());
                assert_eq!(bands.conflict.is_some(), plain.conflict.is_some());
                let par = in_pool(3, || count(&p, &by(CountBy::Bands, 3)));
                assert_eq!(par.solutions, plain.solutions, "3 threads: {}", p.to_line());
                if plain.solutions <= 2_000 {
                    let want = oracle::count(&p, 2_000).unwrap_or(0) as u128;
                    assert_eq!(plain.solutions, want, "{}", p.to_line());
                }
                nonzero += (plain.solutions > 1) as u32;
            }
        }
    }
    assert!(
        nonzero > 60,
        "the sample should be mostly multi-solution puzzles: {nonzero}"
    );
}

/// Counting by bands counts the bands below a boundary with no givens under it in closed form
/// on boards whose bands are two rows high (`engine::bands::empty`): puzzles with givens in
/// their top bands only agree with the plain search.
#[test]
fn empty_lower_bands_agree_with_the_plain_search() {
    let mut rng = Rng::new(0xE8);
    // (shape, bands that keep givens, percent of their cells kept)
    let cases = [
        (Shape::new(2, 2).unwrap(), 1, 60),
        (Shape::new(2, 3).unwrap(), 1, 50),
        (Shape::new(2, 3).unwrap(), 2, 40),
        (Shape::new(3, 2).unwrap(), 1, 50),
        (Shape::new(2, 4).unwrap(), 2, 85),
        (Shape::new(2, 4).unwrap(), 3, 45),
        (Shape::new(4, 2).unwrap(), 2, 85),
    ];
    for (shape, top, keep) in cases {
        let n = shape.side();
        let rows = top * shape.box_rows();
        for _ in 0..4 {
            let g = oracle::random_grid(shape, &mut rng);
            let cells = (g.iter().enumerate())
                .map(|(i, &v)| {
                    if i < rows * n && rng.below(100) < keep {
                        v
                    } else {
                        0
                    }
                })
                .collect();
            let p = Puzzle::new(shape, cells).expect("valid values");
            let plain = count(&p, &by(CountBy::Search, 1));
            assert!(plain.complete());
            let bands = count(&p, &by(CountBy::Bands, 1));
            assert_eq!(bands.solutions, plain.solutions, "{shape} {}", p.to_line());
            let auto = in_pool(2, || count(&p, &by(CountBy::Auto, 2)));
            assert_eq!(auto.solutions, plain.solutions, "{shape} {}", p.to_line());
        }
    }
}

/// Ground truth (the bundled sample) by bands, from the start, on both engines.
#[test]
fn multi_truth_sample_by_bands() {
    let text = std::fs::read_to_string(util::puzzle_path("samples/multi_truth_small.txt")).unwrap();
    for (p, want) in truth_lines(&text) {
        for engine in [EngineChoice::Auto, EngineChoice::Generic] {
            let options = Options {
                engine,
                ..by(CountBy::Bands, 1)
            };
            assert_eq!(exact(&p, &options), want, "{p:?} with {engine:?}");
        }
    }
}

/// A limit large enough for counting by bands stops at exactly min(limit, total), serial and
/// across threads.
#[test]
fn limits_are_exact_when_counting_by_bands() {
    let p = Puzzle::empty(Shape::new(2, 3).unwrap());
    for (limit, threads) in [
        (70_000, 1),
        (1_000_000, 2),
        (28_200_959, 3),
        (28_200_960, 1),
        (u64::MAX, 2),
    ] {
        let o = in_pool(threads, || {
            count(&p, &limited(limit, by(CountBy::Bands, threads)))
        });
        assert_eq!(
            o.solutions,
            u128::from(limit).min(28_200_960),
            "limit {limit}"
        );
        assert_eq!(
            o.complete(),
            u128::from(limit) > 28_200_960 || limit == u64::MAX
        );
    }
    // The first-band 9×9 (7,802,998,272 solutions: one boundary at the root).
    let mut line = String::from("123456789456789123789123456");
    line.push_str(&".".repeat(54));
    let cells = line
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let p = Puzzle::new(Shape::NINE, cells).unwrap();
    assert_eq!(exact(&p, &threads(1)), 7_802_998_272);
    let o = count(&p, &limited(5_000_000_000, threads(1)));
    assert_eq!((o.solutions, o.complete()), (5_000_000_000, false));
}

/// Boards above 12×12 run on the big engine (inference and conflict-weighted branching): on
/// random puzzles of three such shapes its counts (up to a cap) equal the generic engine's,
/// serial and parallel, and the first N solutions are N distinct solutions of the puzzle.
/// (The grids come from the library: the reference solver is too slow to make them.)
#[test]
fn big_boards_agree_with_the_generic_engine() {
    let mut rng = Rng::new(1616);
    let cap = 3_000;
    let mut multiple = 0;
    for (shape, keep, tries) in [
        (Shape::new(4, 4).unwrap(), 50, 16),
        (Shape::new(3, 5).unwrap(), 50, 8),
        (Shape::new(5, 5).unwrap(), 60, 4),
    ] {
        let n = shape.side();
        for _ in 0..tries {
            // A grid: the first solution once the boxes on the diagonal hold random digits.
            let mut start = Puzzle::empty(shape);
            for b in 0..n / shape.box_rows().max(shape.box_cols()) {
                let mut digits: Vec<u8> = (1..=n as u8).collect();
                for i in (1..n).rev() {
                    digits.swap(i, rng.below(i + 1));
                }
                for (k, &d) in digits.iter().enumerate() {
                    let (r, c) = (k / shape.box_cols(), k % shape.box_cols());
                    start.set((b * shape.box_rows() + r) * n + b * shape.box_cols() + c, d);
                }
            }
            let grid = sudoku_enum::solve(&start).expect("a solution");
            let cells = grid
                .iter()
                .map(|&v| if rng.below(100) < keep { v } else { 0 })
                .collect();
            let p = Puzzle::new(shape, cells).unwrap();
            let with = |engine, threads| Options {
                threads,
                engine,
                ..Options::default()
            };
            let want = count(&p, &limited(cap, with(EngineChoice::Generic, 1))).solutions;
            let serial = count(&p, &limited(cap, with(EngineChoice::Auto, 1))).solutions;
            let parallel = in_pool(2, || count(&p, &limited(cap, with(EngineChoice::Auto, 2))));
            assert_eq!(serial, want, "{}", p.to_line());
            assert_eq!(parallel.solutions, want, "{}", p.to_line());
            let first = sudoku_enum::solutions(&p, &limited(100, Options::default()));
            assert_eq!(first.len() as u128, want.min(100));
            let mut distinct = first.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), first.len());
            assert!(first.iter().all(|s| p.is_solution(s)));
            multiple += u32::from(want > 1);
        }
    }
    assert!(
        multiple >= 5,
        "the sample should hold puzzles with many solutions: {multiple}"
    );
}

/// Counting by bands split across threads (the workers share one table of the counts below
/// band boundaries): three counts of ../shared/data/multi_truth_dev.txt (copied here), on four
/// threads, by both engines, equal the ground truth, and the searches did split (else the
/// shared table would go untested).
#[test]
fn split_band_counts_share_their_boundary_table() {
    let text = "\
..4.......2.........8....59....6294..1...57...4....5....2.4.1.5..1..8............ 6140781
..6....73.....6.............6..........5.4...5..2.1.........1..2.......8.7.94.... 25656495
.................4.....4...38.....16....65...5.....4.2.......47...8.61...3.....6. 72588608
";
    for (p, want) in truth_lines(text) {
        for engine in [EngineChoice::Auto, EngineChoice::Generic] {
            let progress = Progress::new();
            let options = Options {
                threads: 4,
                count_by: CountBy::Bands,
                engine,
                progress: Some(progress.clone()),
                ..Options::default()
            };
            assert_eq!(in_pool(4, || exact(&p, &options)), want, "{p:?} {engine:?}");
            assert!(progress.is_split(), "{p:?} {engine:?}: not split");
        }
    }
}
