use super::*;
use crate::engine::count_below;
use crate::engine::generic::Generic;
use crate::sink::{CollectSink, CountSink};
use crate::solver::Shared;

fn count<E: Engine>(p: &Puzzle, limit: Option<u64>) -> (u128, u64) {
    let Some(e) = E::new(p) else { return (0, 0) };
    let shared = Shared::new(limit);
    let mut sink = CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    (ctx.stats.solutions, ctx.stats.nodes)
}

/// A random puzzle of `shape`: a solution grid of the generic engine, relabelled, `keep`
/// percent of its cells kept.
fn random_puzzle(shape: Shape, keep: u64, seed: &mut u64) -> Puzzle {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    let n = shape.side();
    let mut order: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    // A grid: the first solution of a few random givens' puzzle.
    let mut start = vec![0u8; n * n];
    start[..n].copy_from_slice(&order);
    let p = Puzzle::new(shape, start).unwrap();
    let grid = crate::solve(&p).expect("a solution");
    let cells = grid
        .iter()
        .map(|&v| if next() % 100 < keep { v } else { 0 })
        .collect();
    Puzzle::new(shape, cells).unwrap()
}

#[test]
fn agrees_with_the_generic_engine() {
    let mut seed = 0x5EED_1234_ABCD_0001;
    let cases: [(usize, usize, &[u64]); 9] = [
        (2, 2, &[0, 20, 40]),
        (2, 3, &[30, 40, 50]),
        (3, 2, &[30, 40, 50]),
        (2, 4, &[50, 60]),
        (3, 3, &[40, 50, 60]),
        (3, 4, &[55, 65, 75]),
        (4, 3, &[55, 65, 75]),
        (4, 4, &[60, 70]),
        (1, 5, &[0, 30]),
    ];
    for (r, c, keeps) in cases {
        let shape = Shape::new(r, c).unwrap();
        for &keep in keeps {
            for _ in 0..6 {
                let p = random_puzzle(shape, keep, &mut seed);
                for limit in [Some(1), Some(2), Some(1000)] {
                    let want = count::<Generic>(&p, limit).0;
                    assert_eq!(
                        count::<Big<u16>>(&p, limit).0,
                        want,
                        "{shape} {limit:?} {}",
                        p.to_line()
                    );
                    assert_eq!(
                        count::<Big<u64>>(&p, limit).0,
                        want,
                        "{shape} {limit:?} {}",
                        p.to_line()
                    );
                }
            }
        }
    }
}

#[test]
fn exact_counts_and_valid_solutions() {
    assert_eq!(
        count::<Big<u16>>(&Puzzle::empty(Shape::new(2, 2).unwrap()), None).0,
        288
    );
    assert_eq!(
        count::<Big<u32>>(&Puzzle::empty(Shape::new(1, 3).unwrap()), None).0,
        12
    );
    let mut p = Puzzle::empty(Shape::new(2, 3).unwrap());
    for (i, v) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
        p.set(i, v);
    }
    assert_eq!(count::<Big<u16>>(&p, None).0, 28_200_960 / 720);
    let e = Big::<u16>::new(&p).unwrap();
    let shared = Shared::new(Some(500));
    let mut sink = CollectSink::default();
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    drop(ctx);
    assert_eq!(sink.solutions.len(), 500);
    for s in &sink.solutions {
        assert!(p.is_solution(s));
    }
    let mut sorted = sink.solutions.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 500);
}

#[test]
fn expansion_partitions_the_count() {
    let mut p = Puzzle::empty(Shape::new(2, 3).unwrap());
    for (i, v) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
        p.set(i, v);
    }
    let root = Big::<u16>::new(&p).unwrap();
    let mut kids = Vec::new();
    root.expand(&mut kids);
    let sum: u128 = kids.iter().map(|k| count_below(k, None)).sum();
    assert_eq!(sum, 39_168);
}

#[test]
fn clashing_givens_give_no_state() {
    let shape = Shape::new(4, 4).unwrap();
    let mut p = Puzzle::empty(shape);
    p.set(0, 5);
    p.set(17, 5);
    assert!(Big::<u16>::new(&p).is_none());
}
