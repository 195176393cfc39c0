//! Benchmark of the 9×9 engine, shaped like the peer harness (`peer sudoku count LIMIT FILE`).
//!
//!     cargo run --release --example nine_bench -- LIMIT FILE [--reps K] [--engine nine|generic] [--secs S] [-v]
//!
//! Reads one 81-character puzzle per line (`.`, `0` or `_` for empty; `#` comments), parses
//! them all before the clock starts, then for each puzzle runs `new` + `search` with a
//! `CountSink` and `Shared::new(limit)` (LIMIT 0 = unlimited). Prints one summary line:
//! puzzles, solutions, zero/one/multi, seconds, puzzles/s, solutions/s. `--secs S` stops each
//! puzzle's search after S seconds (for rates on huge counts). `-v` prints each puzzle with its
//! count and nodes.

use std::time::{Duration, Instant};
use sudoku_enum::internals::Engine;
use sudoku_enum::internals::Generic;
use sudoku_enum::internals::Nine;
use sudoku_enum::internals::{Ctx, Shared};
use sudoku_enum::{CountSink, Puzzle, Shape, Stats};

fn parse_line(line: &str) -> Option<Puzzle> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let cells: Vec<u8> = line
        .bytes()
        .take(81)
        .map(|b| match b {
            b'1'..=b'9' => b - b'0',
            _ => 0,
        })
        .collect();
    if cells.len() != 81 {
        eprintln!("skipping a short line: {line}");
        return None;
    }
    Puzzle::new(Shape::NINE, cells).ok()
}

fn count<E: Engine>(p: &Puzzle, limit: Option<u64>, secs: Option<f64>, stats: &mut Stats) -> u128 {
    // Each puzzle (and each repetition) starts with an empty table of subtree counts, so that
    // `--reps` measures the work of one count, not a lookup of the last one.
    sudoku_enum::internals::clear_memo();
    let Some(e) = E::new(p) else { return 0 };
    let deadline = secs.map(|s| Instant::now() + Duration::from_secs_f64(s));
    let shared = Shared::new(limit).with_deadline(deadline);
    let mut sink = CountSink;
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    *stats += ctx.stats;
    ctx.stats.solutions
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut positional = Vec::new();
    let mut reps = 1usize;
    let mut engine = String::from("nine");
    let mut verbose = false;
    let mut secs = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).expect("--reps K"),
            "--engine" => engine = args.next().expect("--engine NAME"),
            "--secs" => secs = args.next().and_then(|s| s.parse().ok()),
            "-v" => verbose = true,
            _ => positional.push(a),
        }
    }
    if positional.len() != 2 {
        eprintln!(
            "usage: nine_bench LIMIT FILE [--reps K] [--engine nine|generic] [--secs S] [-v]"
        );
        std::process::exit(2);
    }
    let limit: u64 = positional[0].parse().expect("LIMIT is a number");
    let limit = (limit > 0).then_some(limit);
    let text = std::fs::read_to_string(&positional[1]).expect("readable puzzle file");
    let puzzles: Vec<Puzzle> = text.lines().filter_map(parse_line).collect();

    let (mut total, mut zero, mut one, mut multi) = (0u128, 0u64, 0u64, 0u64);
    let mut stats = Stats::default();
    let start = Instant::now();
    for _ in 0..reps {
        for p in &puzzles {
            let before = stats.nodes;
            let n = match engine.as_str() {
                "generic" => count::<Generic>(p, limit, secs, &mut stats),
                _ => count::<Nine>(p, limit, secs, &mut stats),
            };
            if verbose {
                println!("{} {} {}", p.to_line(), n, stats.nodes - before);
            }
            total += n;
            match n {
                0 => zero += 1,
                1 => one += 1,
                _ => multi += 1,
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = (puzzles.len() * reps) as f64;
    println!(
        "{} puzzles, {} solutions, zero {} one {} multi {}, {:.3} s, {:.0} puzzles/s, {:.0} solutions/s, {} nodes, {} guesses",
        puzzles.len() * reps,
        total,
        zero,
        one,
        multi,
        secs,
        n / secs,
        total as f64 / secs,
        stats.nodes,
        stats.guesses
    );
}
