//! Tests of the 9×9 engine: against the generic engine, the staged and plain searches, both builds.

use super::search::*;
use super::tables::{BAND, KEEP, MINI, ONE_COL_BOX, PERM_KEEP, SINGLE};
use super::*;
use crate::engine::count_below;
use crate::engine::generic::Generic;
use crate::engine::{Engine, Expansion};
use crate::puzzle::Puzzle;
use crate::shape::Shape;
use crate::sink::{CollectSink, CountSink};
use crate::solver::{on_search_stack, Ctx, Shared};

const BAND1: &str = "123456789456789123789123456";

fn puzzle(line: &str) -> Puzzle {
    assert_eq!(line.len(), 81);
    let cells = line
        .bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect();
    Puzzle::new(Shape::NINE, cells).unwrap()
}

fn count_puzzle<E: Engine>(p: &Puzzle, limit: Option<u64>) -> u128 {
    E::new(p).map_or(0, |e| count_below(&e, limit))
}

/// A few puzzles: no solution, unique ones, several solutions.
const SAMPLES: [&str; 5] = [
    ".....2.8..7.6......1.....92....263.99..7.......8.1567.....61.4.........35...97...",
    "...............1.2...34..5...6.......7..5.8...6.......4....7.8.5...3.....1.9.....",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
    "123456789456789123789123456214365897365897214....................................",
];

#[test]
fn tables() {
    on_search_stack(|| {
        // The full mini-row matrix keeps everything; a matrix without a permutation nothing.
        assert_eq!(PERM_KEEP[0x1FF], BAND);
        assert_eq!(PERM_KEEP[0b000_000_111], 0);
        // A diagonal matrix keeps exactly its three mini-rows.
        assert_eq!(PERM_KEEP[0b100_010_001], 7 | 7 << 12 | 7 << 24);
        assert_eq!(MINI[0b000_010_000], 0b010);
        assert_eq!(SINGLE[0b000_100_000], 0b000_100_000);
        assert_eq!(SINGLE[0b000_100_001], 0);
        assert_eq!(ONE_COL_BOX[0b011_100_001], 0b000_100_001);
        for (p, keep) in KEEP.iter().enumerate() {
            assert_eq!(keep.count_ones(), 27 - 9 - 6 + 1, "cell {p}");
            assert_ne!(keep & (1 << p), 0);
        }
    })
}

#[test]
fn agrees_with_generic_on_small_samples() {
    on_search_stack(|| {
        for line in SAMPLES {
            let p = puzzle(line);
            assert_eq!(
                count_puzzle::<Nine>(&p, Some(2)),
                count_puzzle::<Generic>(&p, Some(2)),
                "{line}"
            );
        }
    })
}

#[test]
fn first_band_with_three_more_rows_matches_generic() {
    on_search_stack(|| {
        let line = format!("{BAND1}214365897365897214897214365{}", ".".repeat(27));
        let p = puzzle(&line);
        let ours = count_puzzle::<Nine>(&p, None);
        assert!(ours > 0);
        assert_eq!(ours, count_puzzle::<Generic>(&p, None));
        // Two more rows given, a few more columns open: still quick, many solutions.
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let p = puzzle(&line);
        let ours = count_puzzle::<Nine>(&p, None);
        assert!(ours > 100, "{ours}");
        assert_eq!(ours, count_puzzle::<Generic>(&p, None));
    })
}

/// The count without the table of subtree counts.
fn count_plain(p: &Puzzle) -> u128 {
    let Some(e) = Nine::new(p) else { return 0 };
    let shared = Shared::new(None);
    let mut sink = CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = Portable.search(&e, &mut ctx, 1.0, Strategy::Plain);
    ctx.stats.solutions
}

#[test]
fn remembered_counts_are_exact() {
    on_search_stack(|| {
        // Puzzles whose trees repeat sub-problems, counted with a cold table, again with a warm
        // one (hits at the root), in an order that mixes them; against the plain search.
        let lines = [
            format!("{BAND1}214365897{}", ".".repeat(45)),
            format!("{BAND1}231564897{}", ".".repeat(45)),
            format!("{BAND1}214365897365897214{}", ".".repeat(36)),
            format!("{}214365897{BAND1}", ".".repeat(45)),
        ];
        let plain: Vec<u128> = lines.iter().map(|l| count_plain(&puzzle(l))).collect();
        assert!(plain.iter().all(|&n| n > 1000), "{plain:?}");
        memo::clear_table();
        for round in 0..2 {
            for (l, &want) in lines.iter().zip(&plain).rev() {
                let p = puzzle(l);
                assert_eq!(count_puzzle::<Nine>(&p, None), want, "round {round}: {l}");
            }
        }
        // A limit large enough for the table: still exactly min(limit, total), also when a
        // remembered count overshoots it.
        let p = puzzle(&lines[0]);
        for limit in [65_536, 633_311, 633_312, 700_000] {
            assert_eq!(
                count_puzzle::<Nine>(&p, Some(limit)),
                (limit as u128).min(633_312)
            );
        }
    })
}

#[test]
fn a_stopped_subtree_is_not_remembered() {
    on_search_stack(|| {
        // Stop a cold count early with a node budget, then count again: a partial subtree
        // count must not have been stored.
        let p = puzzle(&format!("{BAND1}214365897{}", ".".repeat(45)));
        memo::clear_table();
        let e = Nine::new(&p).unwrap();
        let shared = Shared::new(None);
        shared.set_node_budget(5_000);
        let mut sink = CountSink;
        let mut ctx = Ctx::new(&mut sink, &shared);
        assert!(e.search(&mut ctx, 1.0).is_break());
        assert!(ctx.stats.solutions < 633_312);
        assert_eq!(count_puzzle::<Nine>(&p, None), 633_312);
    })
}

/// Count under `limit`, plain (`stages` None) or staged with `(cell_nodes, nodes)`; the
/// count and the nodes visited.
fn count_mode(p: &Puzzle, limit: u64, stages: Option<(u64, u64)>) -> (u128, u64) {
    let Some(e) = Nine::new(p) else { return (0, 0) };
    let shared = Shared::new(Some(limit));
    let mut sink = CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = match stages {
        Some((cells, nodes)) => {
            search_staged_with(Portable, &e, &mut ctx, 1.0, limit, cells, nodes)
        }
        None => Portable.search(&e, &mut ctx, 1.0, Strategy::Plain),
    };
    (ctx.stats.solutions, ctx.stats.nodes)
}

#[test]
fn staged_checks_agree_with_the_plain_search() {
    on_search_stack(|| {
        // Hard unique puzzles (settled on configurations), puzzles with many solutions, nearly
        // empty grids (where configuration branching thrashes), no solution.
        let mut lines: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
        lines.push(".".repeat(81));
        lines.push(format!("1{}", ".".repeat(80)));
        lines.push(format!("{BAND1}{}", ".".repeat(54)));
        lines.push(format!("12{}", ".".repeat(79)));
        lines.push(format!("11{}", ".".repeat(79)));
        for line in &lines {
            let p = puzzle(line);
            for limit in 1..=STAGED_LIMIT {
                let (plain, _) = count_mode(&p, limit, None);
                for cells in [0, 1, 5, CELL_NODES] {
                    for nodes in [1, 100, STAGED_NODES] {
                        let (staged, _) = count_mode(&p, limit, Some((cells, nodes)));
                        assert_eq!(staged, plain, "limit {limit}, {cells}/{nodes}: {line}");
                    }
                }
                assert_eq!(count_puzzle::<Nine>(&p, Some(limit)), plain, "{line}");
            }
        }
        // The empty grid on configurations at once: no solution in the allowance, so the
        // plain search starts again and finds two.
        let empty = puzzle(&".".repeat(81));
        let (n, nodes) = count_mode(&empty, 2, Some((0, STAGED_NODES)));
        assert_eq!(n, 2);
        assert!(
            nodes > STAGED_NODES,
            "{nodes} nodes: was the attempt given up?"
        );
    })
}

/// ISS's "Classic sudoku, was slow (3)": 148,357,268 solutions, but the digits in their own
/// order lead the plain search into a subtree without any for 244,541 nodes. The restarts
/// (another digit order, bounded) find two within the staged allowance and about a thousand
/// more.
#[test]
fn restarts_find_solutions_a_digit_order_hides() {
    on_search_stack(|| {
        let p = puzzle(
            ".....6....59.....82....8....45........3........6..3.54...325..6..................",
        );
        let (n, nodes) = count_mode(&p, 2, Some((CELL_NODES, STAGED_NODES)));
        assert_eq!(n, 2);
        assert!(nodes < STAGED_NODES + STAGED_NODES / 2, "{nodes} nodes");
    })
}

/// A relabelled state has the same solutions, counted.
#[test]
fn relabelled_states_count_the_same() {
    on_search_stack(|| {
        for line in SAMPLES {
            let p = puzzle(line);
            let Some(e) = Nine::new(&p) else { continue };
            let count = |st: &Nine| {
                let shared = Shared::new(Some(1000));
                let mut sink = CountSink;
                let mut ctx = Ctx::new(&mut sink, &shared);
                let _ = Portable.search(st, &mut ctx, 1.0, Strategy::Plain);
                ctx.stats.solutions
            };
            let own = count(&e);
            for order in &super::search::RESTART_ORDERS {
                assert_eq!(count(&e.relabelled(order)), own, "{order:?}: {line}");
            }
        }
    })
}

/// Count under `limit` with the search compiled for `isa`: the count and the nodes visited.
#[cfg(target_arch = "x86_64")]
fn count_isa<I: Isa>(isa: I, p: &Puzzle, limit: Option<u64>) -> (u128, u64) {
    let Some(e) = Nine::new(p) else { return (0, 0) };
    let shared = Shared::new(limit);
    let mut sink = CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search_with(isa, &mut ctx, 1.0);
    (ctx.stats.solutions, ctx.stats.nodes)
}

#[test]
#[cfg(target_arch = "x86_64")]
fn the_v3_build_walks_the_same_trees() {
    on_search_stack(|| {
        let Some(v3) = V3::detect() else {
            eprintln!("this CPU lacks AVX2/BMI2: only the portable build can run here");
            return;
        };
        // Uniqueness checks (staged), multi-solution counts, an exhaustive count (remembered
        // subtrees), no solution: same counts, same nodes.
        let mut lines: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
        lines.push(format!("{BAND1}214365897{}", ".".repeat(45)));
        lines.push(format!("12{}", ".".repeat(79)));
        lines.push(".".repeat(81));
        for line in &lines {
            let p = puzzle(line);
            assert_eq!(v3.root(p.cells()), Portable.root(p.cells()), "{line}");
            for limit in [Some(1), Some(2), Some(1000), None] {
                if limit.is_none() && line.matches('.').count() > 60 {
                    continue;
                }
                memo::clear_table();
                let portable = count_isa(Portable, &p, limit);
                memo::clear_table();
                assert_eq!(
                    count_isa(v3, &p, limit),
                    portable,
                    "limit {limit:?}: {line}"
                );
            }
        }
        // Root states of random grids, clashing or not, sparse or dense.
        let mut x = 0x3C6E_F372u32;
        let mut next = |n: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % n) as usize
        };
        for round in 0..5000 {
            let mut cells = [0u8; 81];
            for _ in 0..next(10 + round % 40) {
                cells[next(81)] = 1 + next(9) as u8;
            }
            assert_eq!(v3.root(&cells), Portable.root(&cells), "{cells:?}");
        }
    })
}

#[test]
fn given_cells_match_a_cell_by_cell_reading() {
    on_search_stack(|| {
        let mut x = 0x2545_F491u32;
        for _ in 0..1000 {
            let mut cells = [0u8; 81];
            for c in cells.iter_mut() {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                // Mostly empty, values 1..=9, and a few odd bytes (0x80 and up).
                *c = match x % 8 {
                    0..=4 => 0,
                    5 => 0x80 | (x >> 8) as u8,
                    _ => 1 + (x >> 8) as u8 % 9,
                };
            }
            let mut want = [0u32; 3];
            for (cell, &v) in cells.iter().enumerate() {
                if v != 0 {
                    want[cell / 27] |= 1 << (cell % 27);
                }
            }
            assert_eq!(given_cells(&cells), want, "{cells:?}");
        }
    })
}

#[test]
fn first_band_with_one_more_row() {
    on_search_stack(|| {
        // Cross-checked with the sudoku crate (peer harness).
        let line = format!("{BAND1}214365897{}", ".".repeat(45));
        assert_eq!(count_puzzle::<Nine>(&puzzle(&line), None), 633_312);
    })
}

#[test]
fn expansion_partitions_the_count() {
    on_search_stack(|| {
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let root = Nine::new(&puzzle(&line)).unwrap();
        let total = count_below(&root, None);
        // Two levels of expansion.
        let mut kids = Vec::new();
        let Expansion::Branched { choices } = root.expand(&mut kids) else {
            panic!("solved?")
        };
        assert!(choices >= kids.len() && !kids.is_empty());
        let mut sum = 0;
        for k in &kids {
            assert!(k.open_cells() < root.open_cells());
            let mut grandkids = Vec::new();
            match k.expand(&mut grandkids) {
                Expansion::Solved => sum += 1,
                Expansion::Branched { .. } => {
                    sum += grandkids.iter().map(|g| count_below(g, None)).sum::<u128>()
                }
            }
        }
        assert_eq!(sum, total);
        // A solved state says so.
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let s = Nine::new(&puzzle(solved)).unwrap();
        assert_eq!(s.expand(&mut Vec::new()), Expansion::Solved);
        assert_eq!(s.open_cells(), 0);
        assert_eq!(s.values(), puzzle(solved).cells());
    })
}

#[test]
fn solutions_are_valid_keep_givens_and_limits_are_exact() {
    on_search_stack(|| {
        let line = format!("{BAND1}214365897365897214{}", ".".repeat(36));
        let p = puzzle(&line);
        let e = Nine::new(&p).unwrap();
        let total = count_below(&e, None);
        for limit in [1u64, 2, 5, 64, 1_000_000] {
            let shared = Shared::new(Some(limit));
            let mut sink = CollectSink::default();
            let mut ctx = Ctx::new(&mut sink, &shared);
            let _ = e.search(&mut ctx, 1.0);
            drop(ctx);
            assert_eq!(sink.solutions.len() as u128, total.min(limit as u128));
            for s in &sink.solutions {
                assert!(p.is_solution(s), "{s:?}");
            }
            let mut sorted = sink.solutions.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), sink.solutions.len(), "duplicates");
            // Count mode with the same limit agrees.
            assert_eq!(count_below(&e, Some(limit)), total.min(limit as u128));
        }
    })
}

#[test]
fn values_keep_the_givens() {
    on_search_stack(|| {
        let p = puzzle(SAMPLES[2]);
        let e = Nine::new(&p).unwrap();
        let v = e.values();
        for (i, &g) in p.cells().iter().enumerate() {
            if g != 0 {
                assert_eq!(v[i], g);
            }
        }
        assert_eq!(e.open_cells(), v.iter().filter(|&&x| x == 0).count());
    })
}

#[test]
fn clashing_givens_give_no_state() {
    on_search_stack(|| {
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "11");
        assert!(Nine::new(&puzzle(&line)).is_none());
    })
}

/// Too few cells filled for one solution (16 or fewer): a check searches plainly, where the
/// staged search would thrash on configurations (the empty grid: 32,814 nodes staged, 46
/// plain).
#[test]
fn checks_of_nearly_empty_grids_search_plainly() {
    on_search_stack(|| {
        for line in [".".repeat(81), format!("12{}", ".".repeat(79))] {
            let e = Nine::new(&puzzle(&line)).unwrap();
            let shared = Shared::new(Some(2));
            let mut sink = CountSink;
            let mut ctx = Ctx::new(&mut sink, &shared);
            let _ = crate::engine::Engine::search(&e, &mut ctx, 1.0);
            assert_eq!(ctx.stats.solutions, 2);
            assert!(ctx.stats.nodes < 1000, "{} nodes: {line}", ctx.stats.nodes);
        }
    })
}
