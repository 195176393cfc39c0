//! Benchmark of the engines on any board, one puzzle per line (the peer harness's format).
//!
//!     cargo run --release --example big_bench -- LIMIT FILE [--box RxC] [--engine big|generic] [-v]
//!
//! Parses every puzzle first, then runs `new` + `search` with a `CountSink` under the limit
//! (0 = none) on one thread and prints a summary line; `-v` prints each puzzle's count, nodes
//! and milliseconds.

use std::time::Instant;
use sudoku_enum::internals::Big;
use sudoku_enum::internals::Engine;
use sudoku_enum::internals::Generic;
use sudoku_enum::internals::{Ctx, Shared};
use sudoku_enum::parse::{ParseOptions, Parsed, Reader};
use sudoku_enum::{CountSink, Puzzle, Shape};

fn run<E: Engine>(p: &Puzzle, limit: Option<u64>) -> (u128, u64) {
    let Some(e) = E::new(p) else { return (0, 0) };
    let shared = Shared::new(limit);
    let mut sink = CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    (ctx.stats.solutions, ctx.stats.nodes)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let limit: u64 = args[0].parse().expect("LIMIT");
    let path = &args[1];
    let shape = args
        .iter()
        .position(|a| a == "--box")
        .map(|i| args[i + 1].parse::<Shape>().expect("RxC"));
    let engine = args
        .iter()
        .position(|a| a == "--engine")
        .map_or("big", |i| args[i + 1].as_str())
        .to_string();
    let verbose = args.iter().any(|a| a == "-v");
    let options = ParseOptions {
        shape,
        ..ParseOptions::default()
    };
    let text = std::fs::read(path).expect("read");
    let puzzles: Vec<Puzzle> = Reader::new(&text[..], options)
        .filter_map(|r| match r {
            Ok(Parsed { puzzle, .. }) => Some(puzzle),
            Err(_) => None,
        })
        .collect();
    let limit = (limit > 0).then_some(limit);
    let start = Instant::now();
    let (mut sols, mut nodes) = (0u128, 0u64);
    for p in &puzzles {
        let t = Instant::now();
        let n = p.shape().side();
        let (s, k) = match (engine.as_str(), n) {
            ("generic", _) => run::<Generic>(p, limit),
            (_, 0..=16) => run::<Big<u16>>(p, limit),
            (_, 17..=32) => run::<Big<u32>>(p, limit),
            _ => run::<Big<u64>>(p, limit),
        };
        if verbose {
            println!(
                "{s} solutions, {k} nodes, {:.3} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        sols += s;
        nodes += k;
    }
    println!(
        "engine={engine} puzzles={} solutions={sols} nodes={nodes} seconds={:.4}",
        puzzles.len(),
        start.elapsed().as_secs_f64()
    );
}
