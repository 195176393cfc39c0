use super::search::Hot;
use super::state::{State, View};
use super::*;
use crate::engine::count_below;
use crate::sink::CollectSink;
use crate::solver::Shared;

fn count(p: &Puzzle) -> u128 {
    Generic::new(p).map_or(0, |e| count_below(&e, None))
}

fn with(rules: Vec<crate::rules::Rule>) -> Puzzle {
    let mut r = crate::rules::Rules::new();
    rules.into_iter().for_each(|rule| r.push(rule));
    Puzzle::empty(Shape::new(2, 2).unwrap()).with_checked_rules(r)
}

/// Hidden singles over the stale houses alone reach the same state as rounds over every
/// house: givens kept at random from solutions with their digits renamed, propagated with
/// the stale houses known and without; 12×12 with the rules' tables but no rule and
/// anti-king 9×9 (the houses read from the cells marked changed: at most 64 houses), and
/// 16×16 with disjoint groups and both diagonals (66 houses, kept in two words).
#[test]
fn stale_houses_reach_the_same_fixpoint() {
    use crate::rules::{Diagonal, Rule};
    same_fixpoint(Shape::new(3, 4).unwrap(), vec![], 200);
    same_fixpoint(Shape::new(3, 3).unwrap(), vec![Rule::AntiKing], 400);
    let rules = vec![
        Rule::DisjointGroups,
        Rule::Diagonal(Diagonal::Main),
        Rule::Diagonal(Diagonal::Anti),
    ];
    same_fixpoint(Shape::new(4, 4).unwrap(), rules, 100);
}

fn same_fixpoint(shape: Shape, list: Vec<crate::rules::Rule>, trials: usize) {
    use crate::rules::{compile, Rules};
    let mut rules = Rules::new();
    list.into_iter().for_each(|r| rules.push(r));
    let empty = Puzzle::empty(shape).with_checked_rules(rules.clone());
    let shared = Shared::new(Some(20));
    let mut sink = CollectSink::default();
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = Generic::new(&empty).unwrap().search(&mut ctx, 1.0);
    drop(ctx);
    assert_eq!(sink.solutions.len(), 20);
    // Stale houses kept in words, or read from the cells marked changed (rules, at most
    // 64 houses).
    let tracked = Tables::build(shape, Some(compile(shape, &rules)));
    let derived = tracked.stale_from_changed;
    assert!(derived || tracked.house_words == tracked.nh.div_ceil(64));
    assert_eq!(derived, tracked.props.is_some() && tracked.nh <= 64);
    // A fresh state has every house stale, or every cell changed: `Generic::new` narrows
    // cells by the rules' initial digits (odd, even cells) without marking them.
    let fresh = State::empty(&tracked);
    let count = |words: &[u64]| words.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    if derived {
        assert_eq!(count(&fresh.changed), tracked.cells);
    } else {
        assert_eq!(count(&fresh.stale), tracked.nh);
    }
    // A changed cell marks exactly its houses, in every word (where derived, its word of
    // houses is read instead).
    for cell in 0..shape.cells() {
        let mut want = vec![0u64; tracked.house_words.max(1)];
        for &h in tracked.houses_of(cell) {
            want[usize::from(h) / 64] |= 1 << (h % 64);
        }
        if derived {
            assert_eq!(tracked.house_bits[cell], want[0], "cell {cell}");
            continue;
        }
        let mut st = State::empty(&tracked);
        st.stale.fill(0);
        st.touch(&tracked, cell);
        assert_eq!(st.stale, want, "cell {cell}");
    }
    let mut plain = Tables::build(shape, Some(compile(shape, &rules)));
    plain.house_words = 0;
    plain.house_bits.clear();
    plain.stale_from_changed = false;
    let propagate = |t: &Tables, givens: &[u8]| {
        let mut st = State::empty(t);
        let mut work = t.work();
        for (cell, &v) in givens.iter().enumerate() {
            if v != 0 && st.value[cell] == 0 {
                st.assign_any(t, cell, 1 << (v - 1), &mut work.queue).ok()?;
            }
        }
        st.propagate(t, &mut work).ok()?;
        Some((st.cand, st.value))
    };
    let (n, cells) = (shape.side(), shape.cells());
    let mut rng = crate::rng::SplitMix64::new(0x05EE_D0F5_7A1E);
    let (mut solved, mut open) = (0, 0);
    for trial in 0..trials {
        let grid = &sink.solutions[trial % sink.solutions.len()];
        let mut names: Vec<u8> = (1..=n as u8).collect();
        for i in (1..n).rev() {
            names.swap(i, rng.below(i + 1));
        }
        // 15% to 65% of the cells given.
        let keep = cells * 3 / 20 + rng.below(cells / 2);
        let givens: Vec<u8> = grid
            .iter()
            .map(|&v| {
                if rng.below(cells) < keep {
                    names[usize::from(v) - 1]
                } else {
                    0
                }
            })
            .collect();
        let a = propagate(&tracked, &givens);
        assert_eq!(a, propagate(&plain, &givens), "{givens:?}");
        match a {
            Some((_, value)) if value.iter().all(|&v| v != 0) => solved += 1,
            Some(_) => open += 1,
            None => {}
        }
    }
    assert!(
        solved > trials / 20 && open > trials / 20,
        "{solved} {open}"
    );
}

/// The puzzles of `puzzles/variants/iss_137.txt` (ISS's collection), one constraint string each.
fn iss_137() -> impl Iterator<Item = &'static str> {
    include_str!("../../../puzzles/variants/iss_137.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
}

/// A propagation runs the rules' units of the cells that changed (marked as they change:
/// a placement, the peers that lose its digit, a rule narrowing a cell); it must end where
/// every unit is quiet. From the root of each of the first 40 puzzles of ISS's collection
/// that `iss_137.txt` holds, each candidate of a few open cells is tried and refuted;
/// wherever that reaches a fixpoint, every unit run once more changes nothing.
#[test]
fn propagation_ends_where_every_unit_is_quiet() {
    let options = crate::parse::ParseOptions::default();
    let (mut checked, mut changed) = (0, 0);
    let lines = iss_137();
    for line in lines.take(40) {
        let puzzle = crate::parse::parse_one(line, &options).unwrap();
        let Some(root) = Generic::new(&puzzle) else {
            continue;
        };
        let t = &root.t;
        let Some(props) = &t.props else { continue };
        let quiet = |st: &State| {
            let mut st = st.clone();
            let before = st.cand.clone();
            let (mut work, mut dirty) = (t.work(), vec![0; props.unit_words()]);
            props.mark_all(&mut dirty);
            let mut view = View {
                st: &mut st,
                t,
                full: t.full,
                queue: &mut work.queue,
                cleared: &mut work.cleared,
            };
            let ok = props.run_dirty(&mut view, &mut dirty, &mut work.memo, &mut work.yields);
            ok.is_ok() && st.cand == before
        };
        let open: Vec<usize> = (0..t.cells).filter(|&c| root.st.cand[c] != 0).collect();
        for &cell in open.iter().step_by(open.len() / 6 + 1) {
            let mut work = t.work();
            work.all = false;
            let mut cands = root.st.cand[cell];
            while cands != 0 {
                let bit = cands & cands.wrapping_neg();
                cands &= cands - 1;
                let mut tried = root.st.clone();
                if tried.try_digit(t, &mut work, cell, bit).is_ok() {
                    assert!(quiet(&tried), "{line}: cell {cell}, digit {bit:b} tried");
                    checked += 1;
                    changed += usize::from(tried.cand != root.st.cand);
                }
                let mut refuted = root.st.clone();
                if refuted.refute(t, &mut work, cell, bit).is_ok() {
                    assert!(
                        quiet(&refuted),
                        "{line}: cell {cell}, digit {bit:b} refuted"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500 && changed > 200, "{checked} {changed}");
}

/// Hidden singles over the houses of the cells marked changed (killer cages) reach the
/// same states as rounds over every house: from the root of the first 30 killer puzzles
/// of `iss_137.txt`, every candidate of a few open cells tried, propagated with the tables
/// as built and with their cells' houses left out.
#[test]
fn houses_of_changed_cells_reach_the_same_fixpoint() {
    let options = crate::parse::ParseOptions::default();
    let (mut compared, mut killers) = (0, 0);
    let lines = iss_137();
    for line in lines {
        let puzzle = crate::parse::parse_one(line, &options).unwrap();
        let Some(root) = Generic::new(&puzzle) else {
            continue;
        };
        let t = &root.t;
        if !t.stale_from_changed {
            continue;
        }
        killers += 1;
        if killers > 30 {
            break;
        }
        let rules = puzzle.rules().expect("a killer has rules");
        let mut plain = Tables::build(t.shape, Some(crate::rules::compile(t.shape, rules)));
        plain.stale_from_changed = false;
        plain.house_bits.clear();
        let open: Vec<usize> = (0..t.cells).filter(|&c| root.st.cand[c] != 0).collect();
        for &cell in open.iter().step_by(open.len() / 5 + 1) {
            let mut cands = root.st.cand[cell];
            while cands != 0 {
                let bit = cands & cands.wrapping_neg();
                cands &= cands - 1;
                let tried = |t: &Tables| {
                    let mut work = t.work();
                    work.all = false;
                    let mut st = root.st.clone();
                    let ok = st.try_digit(t, &mut work, cell, bit).is_ok();
                    (ok, st.cand, st.value)
                };
                assert_eq!(tried(t), tried(&plain), "{line}: cell {cell}, {bit:b}");
                compared += 1;
            }
        }
    }
    assert!(killers >= 20 && compared > 500, "{killers} {compared}");
}

/// House pairs are for puzzles with rules but no killer cage.
#[test]
fn house_pairs_where_there_is_no_cage() {
    use crate::rules::Rule;
    assert!(Tables::for_puzzle(&with(vec![Rule::AntiKing])).house_pairs);
    let cage = Rule::Cage {
        cells: vec![0, 1],
        sum: Some(3),
    };
    assert!(!Tables::for_puzzle(&with(vec![Rule::AntiKing, cage])).house_pairs);
    assert!(!Tables::for_puzzle(&Puzzle::empty(Shape::new(2, 2).unwrap())).house_pairs);
}

/// Dead ends are blamed on the last placement where there are rules but no sums; with killer
/// cages, on it too besides the guess and the failing house or rule.
#[test]
fn placed_blame_where_there_is_no_sum() {
    use crate::rules::Rule;
    assert!(Tables::for_puzzle(&with(vec![Rule::AntiKing])).placed_blame);
    let thermo = Rule::Thermo(vec![0, 5, 10]);
    assert!(Tables::for_puzzle(&with(vec![thermo.clone()])).placed_blame);
    let cage = Rule::Cage {
        cells: vec![0, 1],
        sum: Some(3),
    };
    let killer = Tables::for_puzzle(&with(vec![thermo.clone(), cage]));
    assert!(!killer.placed_blame && killer.last_blame);
    assert!(!Tables::for_puzzle(&with(vec![thermo])).last_blame);
    let arrow = Rule::Arrow {
        circle: vec![0],
        line: vec![5, 10],
    };
    let arrow = Tables::for_puzzle(&with(vec![arrow]));
    assert!(!arrow.placed_blame && !arrow.last_blame);
    assert!(!Tables::for_puzzle(&Puzzle::empty(Shape::new(2, 2).unwrap())).placed_blame);
}

/// A digit's two places in a house beat a cell whose score per candidate is below half
/// the better place's score; the better place comes first.
#[test]
fn a_digit_with_two_places_in_a_house() {
    use crate::rules::Rule;
    let t = Tables::for_puzzle(&with(vec![Rule::AntiKing]));
    let mut st = State::empty(&t);
    // Row 1: digit 1 only in r1c1 and r1c4 (no other house has a digit in two places).
    st.cand[..4].copy_from_slice(&[0b0011, 0b1110, 0b1110, 0b1111]);
    let mut scores = vec![1; 16];
    scores[3] = 5;
    // The cell r2c2 (4 candidates, score 1): 5 · 4 ≥ 2 · 1.
    assert_eq!(st.pair(&t, &scores, 5), Some((0b1, 3, 0)));
    // A cell scored 11 per candidate (44 over 4) beats 5 / 2.
    scores[5] = 44;
    assert_eq!(st.pair(&t, &scores, 5), None);
    // A place scored 22 ties with it: 22 · 4 = 2 · 44.
    scores[0] = 22;
    assert_eq!(st.pair(&t, &scores, 5), Some((0b1, 0, 3)));
}

/// A digit leads when it has at least one dead end per digit and more than 1.5 times the
/// fewest (of those with any).
#[test]
fn the_hot_digit_clearly_leads() {
    let hot = |c: &[u32]| {
        let h = Hot::of(c);
        (h.digit, h.score)
    };
    assert_eq!(hot(&[0, 0, 0, 0]), (0, 0));
    // Alone with dead ends, it is its own fewest: none.
    assert_eq!(hot(&[0, 7, 0, 0]), (0, 0));
    assert_eq!(hot(&[2, 7, 0, 0]), (0b10, 7));
    // Fewer dead ends than digits: none.
    assert_eq!(hot(&[0, 3, 0, 0]), (0, 0));
    // 7 against 5: not 1.5 times.
    assert_eq!(hot(&[5, 7, 0, 6]), (0, 0));
    // 8 against 5: it leads; the first of equals.
    assert_eq!(hot(&[5, 8, 0, 8]), (0b10, 8));
    // 6 against 4 is exactly 1.5 times: not enough.
    assert_eq!(hot(&[4, 0, 6, 0]), (0, 0));
}

#[test]
fn empty_4x4_has_288_grids() {
    assert_eq!(count(&Puzzle::empty(Shape::new(2, 2).unwrap())), 288);
}

#[test]
fn small_latin_and_rectangular_boxes() {
    // 1×3 boxes: 3×3 Latin squares.
    assert_eq!(count(&Puzzle::empty(Shape::new(1, 3).unwrap())), 12);
    // 2×1 boxes: 2×2 Latin squares.
    assert_eq!(count(&Puzzle::empty(Shape::new(2, 1).unwrap())), 2);
    assert_eq!(count(&Puzzle::empty(Shape::new(1, 1).unwrap())), 1);
}

#[test]
fn solutions_are_valid() {
    let p = Puzzle::empty(Shape::new(2, 2).unwrap());
    let e = Generic::new(&p).unwrap();
    let shared = Shared::new(Some(50));
    let mut sink = CollectSink::default();
    let mut ctx = Ctx::new(&mut sink, &shared);
    let _ = e.search(&mut ctx, 1.0);
    drop(ctx);
    assert_eq!(sink.solutions.len(), 50);
    for s in &sink.solutions {
        assert!(p.is_solution(s));
    }
}

#[test]
fn expansion_partitions_the_count() {
    let p = Puzzle::empty(Shape::new(2, 2).unwrap());
    let e = Generic::new(&p).unwrap();
    let mut kids = Vec::new();
    e.expand(&mut kids);
    let total: u128 = kids.iter().map(|k| count_below(k, None)).sum();
    assert_eq!(total, 288);
}
