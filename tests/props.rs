//! Property tests of the search invariants.

use crate::oracle::{self, Rng};
use proptest::prelude::*;
use std::collections::HashSet;
use sudoku_enum::internals::{sub_problems, Engine, Generic, Shared};
use sudoku_enum::{count, solutions, Options, Puzzle, Shape};

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::new(2, 2).unwrap()),
        Just(Shape::new(2, 3).unwrap()),
        Just(Shape::new(3, 2).unwrap()),
        Just(Shape::new(2, 4).unwrap()),
        Just(Shape::NINE),
    ]
}

/// Puzzles with between a handful and ~10^5 solutions: random grids with some cells kept.
fn puzzles() -> impl Strategy<Value = Puzzle> {
    (shapes(), any::<u64>()).prop_map(|(shape, seed)| {
        let mut rng = Rng::new(seed);
        let keep = match shape.side() {
            4 => 15,
            6 => 35,
            8 => 50,
            _ => 55,
        };
        oracle::random_puzzle(shape, keep, &mut rng)
    })
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .stack_size(sudoku_enum::SEARCH_STACK)
        .build()
        .expect("pool")
}

fn collect(p: &Puzzle, limit: u64, threads: usize) -> Vec<Vec<u8>> {
    let options = Options {
        threads,
        limit: Some(limit),
        ..Options::default()
    };
    pool(threads).install(|| solutions(p, &options))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Serial and parallel counts agree, and both match the reference solver.
    #[test]
    fn parallel_equals_serial(p in puzzles()) {
        let serial = count(&p, &Options { limit: Some(200_000), ..Options::default() });
        let par = pool(4).install(|| count(&p, &Options { limit: Some(200_000), threads: 4, ..Options::default() }));
        prop_assert_eq!(serial.solutions, par.solutions);
        if serial.solutions < 20_000 {
            prop_assert_eq!(serial.solutions, oracle::count(&p, 200_000).unwrap() as u128);
        }
    }

    /// Limit N gives exactly min(N, total) distinct valid solutions that keep the givens.
    #[test]
    fn limit_gives_exactly_min_n_total(p in puzzles(), limit in 1u64..300, threads in 1usize..5) {
        let total = count(&p, &Options { limit: Some(100_000), ..Options::default() }).solutions;
        let sols = collect(&p, limit, threads);
        prop_assert_eq!(sols.len() as u128, total.min(limit as u128));
        let distinct: HashSet<_> = sols.iter().collect();
        prop_assert_eq!(distinct.len(), sols.len());
        for s in &sols {
            prop_assert!(p.is_solution(s));
        }
    }

    /// The pieces of a split search sum to the whole, and their solution sets are disjoint.
    #[test]
    fn split_pieces_sum_to_the_whole(p in puzzles(), target in 1usize..64) {
        let Some(root) = Generic::new(&p) else { return Ok(()); };
        let whole = count(&p, &Options { limit: Some(20_000), ..Options::default() });
        prop_assume!(whole.complete());
        let shared = Shared::new(None);
        let subs = sub_problems(&root, target, &shared, None);
        let mut all = HashSet::new();
        let mut sum = 0u128;
        for sub in &subs {
            let piece = Puzzle::new(p.shape(), sub.state.values()).unwrap();
            let sols = collect(&piece, u64::MAX, 1);
            sum += sols.len() as u128;
            for s in sols {
                prop_assert!(p.is_solution(&s));
                prop_assert!(all.insert(s), "a solution appears in two pieces");
            }
        }
        prop_assert_eq!(sum, whole.solutions);
    }

    /// Relabelling digits and transposing (square boxes) keep the count.
    #[test]
    fn symmetries_keep_the_count(p in puzzles(), seed in any::<u64>()) {
        let shape = p.shape();
        let n = shape.side();
        let base = count(&p, &Options { limit: Some(50_000), ..Options::default() }).solutions;
        let mut rng = Rng::new(seed);
        let mut perm: Vec<u8> = (1..=n as u8).collect();
        for i in (1..n).rev() { perm.swap(i, rng.below(i + 1)); }
        let relabelled: Vec<u8> = p.cells().iter().map(|&v| if v == 0 { 0 } else { perm[v as usize - 1] }).collect();
        let q = Puzzle::new(shape, relabelled).unwrap();
        prop_assert_eq!(count(&q, &Options { limit: Some(50_000), ..Options::default() }).solutions, base);
        let tshape = Shape::new(shape.box_cols(), shape.box_rows()).unwrap();
        let transposed: Vec<u8> = (0..n * n).map(|i| p.cells()[(i % n) * n + i / n]).collect();
        let t = Puzzle::new(tshape, transposed).unwrap();
        prop_assert_eq!(count(&t, &Options { limit: Some(50_000), ..Options::default() }).solutions, base);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The parser never panics on arbitrary bytes, and every error points inside the input.
    #[test]
    fn parser_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        // LF, CRLF and lone CR all end lines.
        let lines = 1 + bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .count();
        for item in sudoku_enum::Reader::new(&bytes[..], sudoku_enum::ParseOptions::default()) {
            if let Err(sudoku_enum::parse::ReadError::Parse(e)) = item {
                prop_assert!(e.line >= 1 && e.line <= lines + 1, "{e}");
                prop_assert!(e.column >= 1, "{e}");
            }
        }
    }

    /// Mutated valid puzzles: each record either parses to a puzzle of the right size or is
    /// reported; a valid line after the damage is still read.
    #[test]
    fn parser_recovers_after_damage(pos in 0usize..81, byte in any::<u8>(), extra in "[ -~]{0,20}") {
        let good = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let mut damaged = good.as_bytes().to_vec();
        damaged[pos] = byte;
        let mut input = damaged;
        input.extend_from_slice(extra.as_bytes());
        input.extend_from_slice(b"\n");
        input.extend_from_slice(good.as_bytes());
        input.extend_from_slice(b"\n");
        let items: Vec<_> = sudoku_enum::Reader::new(&input[..], sudoku_enum::ParseOptions::default()).collect();
        let last = items.last().expect("at least the good line");
        match last {
            Ok(p) => prop_assert_eq!(p.puzzle.to_line(), good),
            Err(e) => prop_assert!(false, "good line lost: {}", e),
        }
    }
}

/// Rule fragments (ISS constraint strings) for a 6×6: each puzzle takes two of them, so that
/// the search with rules (two ways per branch, conflict scores, house pairs where there is no
/// cage) meets many kinds of propagators.
const SIX_RULES: &[&str] = &[
    ".AntiKnight",
    ".AntiKing",
    ".Diagonal~1",
    ".Thermo~R1C1~R1C2~R1C3",
    ".Thermo~R4C6~R5C5~R6C4",
    ".Cage~10~R2C2~R2C3~R3C2",
    ".Cage~~R5C1~R6C1~R6C2",
    ".Renban~R3C4~R4C4~R5C4",
    ".Whisper~R1C6~R2C6~R3C6",
    ".Arrow~R4C1~R4C2~R4C3",
    ".LittleKiller~12~R1C2",
    ".WhiteDot~R6C5~R6C6",
];

/// 6×6 puzzles with two rules and a few givens of a random grid (that may break the rules:
/// some have no solution).
fn variant_puzzles() -> impl Strategy<Value = Puzzle> {
    (
        0..SIX_RULES.len(),
        0..SIX_RULES.len(),
        any::<u64>(),
        0usize..10,
    )
        .prop_map(|(a, b, seed, keep)| {
            let mut rng = Rng::new(seed);
            let shape = Shape::new(2, 3).unwrap();
            let grid = oracle::random_grid(shape, &mut rng);
            let mut text = format!(".Shape~6x6{}{}.", SIX_RULES[a], SIX_RULES[b]);
            for _ in 0..keep {
                let cell = rng.below(36);
                text += &format!("~R{}C{}_{}", cell / 6 + 1, cell % 6 + 1, grid[cell]);
            }
            sudoku_enum::parse_one(&text, &sudoku_enum::ParseOptions::default())
                .unwrap_or_else(|e| panic!("{text}: {e}"))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// With rules too: serial and parallel counts agree, and limit N gives exactly
    /// min(N, total) distinct valid solutions that keep the givens and the rules.
    #[test]
    fn variant_searches_agree(p in variant_puzzles(), limit in 1u64..300, threads in 2usize..5) {
        let serial = count(&p, &Options { limit: Some(1_000_000), ..Options::default() });
        prop_assume!(serial.complete());
        let par = pool(threads).install(|| count(&p, &Options { threads, limit: Some(1_000_000), ..Options::default() }));
        prop_assert_eq!(serial.solutions, par.solutions);
        let sols = collect(&p, limit, threads);
        prop_assert_eq!(sols.len() as u128, serial.solutions.min(limit as u128));
        let distinct: HashSet<_> = sols.iter().collect();
        prop_assert_eq!(distinct.len(), sols.len());
        for s in &sols {
            prop_assert!(p.is_solution(s));
        }
    }
}

/// Text of a parse error that leaked a Rust debug form instead of the input's own text.
fn debug_form(message: &str) -> Option<&'static str> {
    [
        "Some(", "None", "Number(", "String(", "Bool(", "Object(", "Array(",
    ]
    .into_iter()
    .find(|f| message.contains(f))
}

/// A damaged copy of `line` (an ISS constraint string): sections dropped, repeated, taken from
/// `other`, numbers changed, cells dropped or repeated, as `rng` says.
fn damaged_constraints(line: &str, other: &str, rng: &mut Rng) -> String {
    let mut sections: Vec<String> = line
        .split('.')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let others: Vec<&str> = other.split('.').filter(|s| !s.is_empty()).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(sections.len() + 1);
        match rng.below(5) {
            0 if !sections.is_empty() => {
                sections.remove(at.min(sections.len() - 1));
            }
            1 if !sections.is_empty() => {
                let s = sections[rng.below(sections.len())].clone();
                sections.insert(at, s);
            }
            2 if !others.is_empty() => {
                sections.insert(at, others[rng.below(others.len())].to_string())
            }
            3 if !sections.is_empty() => {
                // A number of one section changed (to 0, to one past a bound, to something big).
                let i = at.min(sections.len() - 1);
                let s = &sections[i];
                let digits: Vec<usize> = s
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(j, _)| j)
                    .collect();
                if let Some(&j) = digits.get(rng.below(digits.len().max(1))) {
                    let value = ["0", "10", "17", "99", "-1", "123456789012"][rng.below(6)];
                    sections[i] = format!("{}{value}{}", &s[..j], &s[j + 1..]);
                }
            }
            _ if !sections.is_empty() => {
                // A cell of one section dropped or repeated.
                let i = at.min(sections.len() - 1);
                let mut parts: Vec<&str> = sections[i].split('~').collect();
                if parts.len() > 2 {
                    let j = 1 + rng.below(parts.len() - 1);
                    if rng.below(2) == 0 {
                        parts.remove(j);
                    } else {
                        parts.insert(j, parts[j]);
                    }
                }
                sections[i] = parts.join("~");
            }
            _ => {}
        }
    }
    format!(".{}", sections.join("."))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Damaged variant puzzles (ISS's collection, bundled): each is read or refused with an
    /// error in the input's own terms, never a panic, never a Rust debug form such as
    /// `Some("2")`; what is read is searched for a while without a panic, and every solution
    /// found keeps its rules.
    #[test]
    fn damaged_variants_are_refused_or_searched(a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>(), seed in any::<u64>()) {
        let text = include_str!("../puzzles/variants/iss_collection.txt");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with('.')).collect();
        let mut rng = Rng::new(seed);
        let line = damaged_constraints(lines[a.index(lines.len())], lines[b.index(lines.len())], &mut rng);
        match sudoku_enum::parse_one(&line, &sudoku_enum::ParseOptions::default()) {
            Err(e) => {
                let message = e.to_string();
                prop_assert!(debug_form(&message).is_none(), "{line}: {message}");
            }
            Ok(p) => {
                let shared = Shared::new(Some(3));
                shared.set_node_budget(2_000);
                let mut sink = sudoku_enum::CollectSink::default();
                let _ = sudoku_enum::internals::search_in(&p, &Options::default(), &shared, &mut sink);
                for s in &sink.solutions {
                    prop_assert!(p.is_solution(s), "{line}");
                }
            }
        }
    }

    /// Damaged f-puzzles JSON: values of the wrong kind, cells off the grid, unknown
    /// directions are refused in JSON's own terms (`"yes"`, `1`), never as Rust debug forms.
    #[test]
    fn damaged_fpuzzles_name_values_as_json(key in 0usize..8, value in 0usize..8) {
        let grid = format!("[{}]", vec![format!("[{}]", ["{}"; 6].join(",")); 6].join(","));
        let values = ["\"yes\"", "1", "2.5", "null", "[]", "{}", "\"R9C9\"", "\"R1C1\""];
        let v = values[value];
        let item = [
            format!(r#""antiknight":{v}"#),
            format!(r#""size":{v}"#),
            format!(r#""killercage":[{{"cells":["R1C1",{v}],"value":"3"}}]"#),
            format!(r#""thermometer":[{{"lines":[["R1C1",{v}]]}}]"#),
            format!(r#""littlekiller":[{{"cell":"R0C0","direction":{v},"value":"6"}}]"#),
            format!(r#""xv":[{{"cells":["R1C1","R1C2"],"value":{v}}}]"#),
            format!(r#""negative":[{v}]"#),
            format!(r#""quadruple":[{{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[{v}]}}]"#),
        ];
        let json = format!(r#"{{"size":6,"grid":{grid},{}}}"#, item[key]);
        if let Err(e) = sudoku_enum::parse_one(&json, &sudoku_enum::ParseOptions::default()) {
            let message = e.to_string();
            prop_assert!(debug_form(&message).is_none(), "{json}: {message}");
        }
    }
}
