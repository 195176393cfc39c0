//! Make unique puzzles of any shape for benchmarks, with this library's checker:
//!
//!     cargo run --release --example gen_big -- R C KEEP_PERCENT SEED COUNT [--minimal]
//!
//! A random grid (the first solution once the diagonal boxes hold random permutations, its digits, bands, stacks, and rows and
//! columns inside them shuffled), KEEP_PERCENT of its cells kept at random, clues of the grid
//! added where a second solution differs until the puzzle is unique; with `--minimal`, then
//! every clue whose removal keeps it unique is removed (in random order), which makes hard
//! puzzles. One puzzle per line ('1'-'9', 'A'-'Z', then 'a'-'z' for 36 and up; '.' empty).

use sudoku_enum::{count, solutions, solve, Options, Puzzle, Shape};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// A permutation of `0..groups * size` that keeps groups of `size` together.
fn grouped(rng: &mut Rng, groups: usize, size: usize) -> Vec<usize> {
    let mut g: Vec<usize> = (0..groups).collect();
    rng.shuffle(&mut g);
    let mut out = Vec::new();
    for &k in &g {
        let mut inner: Vec<usize> = (0..size).collect();
        rng.shuffle(&mut inner);
        out.extend(inner.into_iter().map(|i| k * size + i));
    }
    out
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (r, c): (usize, usize) = (a[0].parse().unwrap(), a[1].parse().unwrap());
    let keep: usize = a[2].parse().unwrap();
    let mut rng = Rng(a[3].parse().unwrap());
    let count_wanted: usize = a[4].parse().unwrap();
    let minimal = a.iter().any(|x| x == "--minimal");
    let shape = Shape::new(r, c).unwrap();
    let n = shape.side();
    let two = Options {
        limit: Some(2),
        ..Options::default()
    };
    for _ in 0..count_wanted {
        // A base grid: the first solution once the boxes on the diagonal (band i, stack i:
        // no row or column in common) hold random permutations, so grids differ in kind.
        let mut start = vec![0u8; n * n];
        for b in 0..(n / r).min(n / c) {
            let mut digits: Vec<u8> = (1..=n as u8).collect();
            rng.shuffle(&mut digits);
            for (k, &d) in digits.iter().enumerate() {
                start[(b * r + k / c) * n + b * c + k % c] = d;
            }
        }
        let base = solve(&Puzzle::new(shape, start).unwrap()).expect("a grid");
        let rows = grouped(&mut rng, n / r, r);
        let cols = grouped(&mut rng, n / c, c);
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        rng.shuffle(&mut digits);
        let grid: Vec<u8> = (0..n * n)
            .map(|i| digits[base[rows[i / n] * n + cols[i % n]] as usize - 1])
            .collect();
        let mut cells: Vec<u8> = grid
            .iter()
            .map(|&v| if rng.below(100) < keep { v } else { 0 })
            .collect();
        // Add clues of the grid where another solution differs, until unique.
        loop {
            let p = Puzzle::new(shape, cells.clone()).unwrap();
            let sols = solutions(&p, &two);
            let Some(other) = sols.iter().find(|s| **s != grid) else {
                break;
            };
            let diff: Vec<usize> = (0..n * n).filter(|&i| other[i] != grid[i]).collect();
            let i = diff[rng.below(diff.len())];
            cells[i] = grid[i];
        }
        if minimal {
            let mut order: Vec<usize> = (0..n * n).filter(|&i| cells[i] != 0).collect();
            rng.shuffle(&mut order);
            for i in order {
                let v = cells[i];
                cells[i] = 0;
                let p = Puzzle::new(shape, cells.clone()).unwrap();
                if count(&p, &two).solutions != 1 {
                    cells[i] = v;
                }
            }
        }
        let p = Puzzle::new(shape, cells).unwrap();
        println!("{}", p.to_line());
    }
}
