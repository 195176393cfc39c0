//! `check --explain`: the puzzle setter's report ([`sudoku_enum::setter`]) as seed 001 prints
//! its run, or as JSON fields.

use serde_json::{json, Value};
use std::fmt::Write;
use sudoku_enum::format::{boxed_in, digit_char};
use sudoku_enum::parse::Alphabet;
use sudoku_enum::setter::{Contradiction, Level, Minimality, Rating};
use sudoku_enum::{Outcome, Puzzle, Verdict};

/// `r1c1=5` for a given of the puzzle.
fn given_name(p: &Puzzle, cell: usize, alphabet: Alphabet) -> String {
    let v = p.cells().get(cell).copied().unwrap_or(0);
    let digit = match alphabet.symbol(v) {
        _ if alphabet == Alphabet::Numbers => v.to_string(),
        Some(ch) => ch.to_string(),
        None => digit_char(p.shape(), v).to_string(),
    };
    format!("{}={digit}", p.shape().cell_name(cell))
}

fn filled(values: &[u8]) -> usize {
    values.iter().filter(|&&v| v != 0).count()
}

fn statistics(out: &mut String, title: &str, values: &[u8]) {
    let total = values.len();
    let done = filled(values);
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "Total # of fields: {total}");
    let _ = writeln!(out, "Fields filled: {done}");
    let _ = writeln!(out, "empty fields: {}", total - done);
}

/// The human report, laid out as seed 001 prints its run: the board and its statistics
/// initially, after level 0 and (when it ran) after level 1, the search cost, the uniqueness
/// verdict and, when `minimal` is `Some`, the minimality result (`Some(None)`: asked for, but
/// the puzzle is not unique, or a stop cut the check short).
pub fn text(
    p: &Puzzle,
    r: &Rating,
    outcome: &Outcome,
    minimal: Option<Option<&Minimality>>,
    alphabet: Alphabet,
) -> String {
    let shape = p.shape();
    let mut out = String::new();
    out.push_str("After setting initial fields sudoku board.\n");
    out.push_str(&boxed_in(shape, p.cells(), alphabet));
    statistics(&mut out, "Statistics initially:", p.cells());
    if let Some(Contradiction::Clash(c)) = &r.contradiction {
        let _ = writeln!(out, "Field is invalid: {c}");
    } else {
        out.push_str("\nSudoku level 0 sudoku board.\n");
        out.push_str(&boxed_in(shape, &r.after_level0, alphabet));
        statistics(&mut out, "Statistics Sudoku level 0", &r.after_level0);
        if r.level == Level::NakedSingles {
            out.push_str("Field was solvable with level 0\n");
        } else if !r.level1_ran {
            let why = r
                .contradiction
                .as_ref()
                .map(|c| c.describe_in(shape, alphabet))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "Field was not solvable with level 0: contradiction after {} of {} empty fields \
                 filled: {why}",
                r.level0_filled,
                r.empty()
            );
        } else {
            let _ = writeln!(
                out,
                "Field was not solvable with level 0: {} of {} empty fields filled",
                r.level0_filled,
                r.empty()
            );
            out.push_str("\nSudoku level 1 sudoku board (naked + hidden singles).\n");
            out.push_str(&boxed_in(shape, &r.after_singles, alphabet));
            statistics(&mut out, "Statistics Sudoku level 1", &r.after_singles);
            let left = r.empty() - r.level0_filled;
            match (&r.contradiction, r.level) {
                (Some(c), _) => {
                    let _ = writeln!(
                        out,
                        "Field was not solvable with level 1: contradiction after {} more of {left} \
                         empty fields filled: {}",
                        r.level1_filled,
                        c.describe_in(shape, alphabet)
                    );
                }
                (None, Level::Singles) => {
                    let _ = writeln!(
                        out,
                        "Field was solvable with level 1 (naked + hidden singles): {} more fields \
                         filled",
                        r.level1_filled
                    );
                }
                (None, _) => {
                    let _ = writeln!(
                        out,
                        "Field was not solvable with level 1 (naked + hidden singles): {} more of \
                         {left} empty fields filled",
                        r.level1_filled
                    );
                }
            }
        }
    }
    let (nodes, guesses) = (outcome.stats.nodes, outcome.stats.guesses);
    if r.contradiction.is_some() {
        let _ = writeln!(out, "Search: {nodes} nodes, {guesses} guesses");
    } else if r.level == Level::Search {
        let _ = writeln!(out, "Needs search: {nodes} nodes, {guesses} guesses");
    } else {
        let _ = writeln!(
            out,
            "No search needed (engine: {nodes} nodes, {guesses} guesses)"
        );
    }
    let verdict = match outcome.verdict() {
        Verdict::Unique => "unique (exactly one solution)",
        Verdict::Multiple => "not unique (two or more solutions)",
        Verdict::Unsolvable => "no solution",
        Verdict::Invalid => "invalid (givens clash)",
        Verdict::Unknown => "unknown (the search stopped early)",
    };
    let _ = writeln!(out, "Uniqueness: {verdict}");
    match minimal {
        None => {}
        Some(None) if outcome.verdict() == Verdict::Unique => {
            out.push_str("Minimal: not known (the timeout or Ctrl-C stopped the check)\n");
        }
        Some(None) => {
            let _ = writeln!(
                out,
                "Minimal: not checked (the puzzle is {})",
                outcome.verdict().as_str()
            );
        }
        Some(Some(m)) if m.minimal => {
            let _ = writeln!(
                out,
                "Minimal: yes, {} needed",
                if r.givens == 1 {
                    "the one given is".to_string()
                } else {
                    format!("each of the {} givens is", r.givens)
                }
            );
        }
        Some(Some(m)) => {
            let names: Vec<String> = m
                .redundant
                .iter()
                .map(|&c| given_name(p, c, alphabet))
                .collect();
            let _ = writeln!(
                out,
                "Minimal: no, {} of {} givens are redundant (removing one alone keeps the \
                 puzzle unique)",
                m.redundant.len(),
                r.givens
            );
            let _ = writeln!(out, "Redundant givens: {}", names.join(" "));
        }
    }
    out
}

/// The report as JSON: `level` (`naked-singles`, `singles`, `search`), `level0_filled`,
/// `singles_filled` (cells level 1 filled beyond level 0), `givens`, `empty`, `cells`, `nodes`,
/// `guesses`, `verdict`, `contradiction` (text or null), `minimal` (bool, or null when not asked
/// for, the puzzle is not unique, or a timeout or Ctrl-C stopped the check) and `redundant`
/// (`["r1c1=5", ...]` or null).
pub fn json(
    p: &Puzzle,
    r: &Rating,
    outcome: &Outcome,
    minimal: Option<Option<&Minimality>>,
    alphabet: Alphabet,
) -> Value {
    let m = minimal.flatten();
    json!({
        "level": r.level.as_str(),
        "level0_filled": r.level0_filled,
        "singles_filled": r.level1_filled,
        "givens": r.givens,
        "empty": r.empty(),
        "cells": r.cells,
        "nodes": outcome.stats.nodes,
        "guesses": outcome.stats.guesses,
        "verdict": outcome.verdict().as_str(),
        "contradiction": r.contradiction.as_ref().map(|c| c.describe_in(p.shape(), alphabet)),
        "minimal": m.map(|m| m.minimal),
        "redundant": m.map(|m| m.redundant.iter().map(|&c| given_name(p, c, alphabet)).collect::<Vec<_>>()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_enum::setter::{minimality, rate};
    use sudoku_enum::{count, solve, Options, Shape};

    fn two() -> Options {
        Options {
            limit: Some(2),
            ..Options::default()
        }
    }

    /// A valid full grid for any box shape: value(r, c) = (C·(r mod R) + r div R + c) mod N.
    fn pattern(shape: Shape) -> Vec<u8> {
        let (n, rr, cc) = (shape.side(), shape.box_rows(), shape.box_cols());
        (0..shape.cells())
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((cc * (r % rr) + r / rr + c) % n + 1) as u8
            })
            .collect()
    }

    #[test]
    fn a_contradiction_is_told_with_what_was_filled() {
        // Row 1 has no place for 1: boxes 1 and 2 already hold a 1, r1c7..9 are taken.
        let mut s = vec![0u8; 81];
        s[6..9].copy_from_slice(&[2, 3, 4]);
        s[9] = 1; // r2c1
        s[21] = 1; // r3c4
        let p = Puzzle::new(Shape::NINE, s).unwrap();
        let t = text(
            &p,
            &rate(&p).unwrap(),
            &count(&p, &two()),
            None,
            Alphabet::Standard,
        );
        assert!(
            t.contains("contradiction after 0 more of 76 empty fields filled"),
            "{t}"
        );
    }

    #[test]
    fn a_puzzle_for_hidden_singles() {
        // The first blanking (deterministic) of a 6×6 grid that level 0 stalls on and singles
        // solve.
        let shape = Shape::new(2, 3).unwrap();
        let grid = solve(&Puzzle::empty(shape)).unwrap();
        let mut x = 7u64;
        let p = loop {
            let mut cells = grid.clone();
            for _ in 0..30 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                cells[(x % 36) as usize] = 0;
            }
            let p = Puzzle::new(shape, cells).unwrap();
            let r = rate(&p).unwrap();
            if r.level == Level::Singles && r.level0_filled > 0 {
                break p;
            }
        };
        let (r, o, m) = (rate(&p).unwrap(), count(&p, &two()), minimality(&p));
        let t = text(&p, &r, &o, Some(m.as_ref()), Alphabet::Standard);
        assert!(t.contains("Total # of fields: 36"));
        assert!(t.contains("Field was not solvable with level 0"));
        assert!(t.contains("Field was solvable with level 1 (naked + hidden singles)"));
        assert!(t.contains("Uniqueness: unique"));
        assert!(t.contains("Minimal: "));
        let j = json(&p, &r, &o, Some(m.as_ref()), Alphabet::Standard);
        assert_eq!(j["level"], "singles");
        assert_eq!(j["singles_filled"], r.level1_filled);
    }

    #[test]
    fn redundant_givens_are_named() {
        let mut grid = pattern(Shape::NINE);
        grid[0] = 0;
        let p = Puzzle::new(Shape::NINE, grid).unwrap();
        let m = minimality(&p).unwrap();
        let (r, o) = (rate(&p).unwrap(), count(&p, &two()));
        let j = json(&p, &r, &o, Some(Some(&m)), Alphabet::Standard);
        assert_eq!(j["minimal"], false);
        assert_eq!(j["redundant"][0], "r1c2=2");
        let t = text(&p, &r, &o, Some(Some(&m)), Alphabet::Standard);
        assert!(t.contains("Minimal: no, 80 of 80 givens are redundant"));
        let empty = Puzzle::empty(Shape::NINE);
        let t = text(
            &empty,
            &rate(&empty).unwrap(),
            &count(&empty, &two()),
            Some(None),
            Alphabet::Standard,
        );
        assert!(t.contains("Minimal: not checked (the puzzle is multiple)"));
        assert!(t.contains("Uniqueness: not unique"));
    }

    /// The contradiction's digit is written as the boards beside it are: in hex, 8 is `7`
    /// (it said `8` under boards written in 0-F).
    #[test]
    fn a_contradiction_names_its_digit_in_the_boards_alphabet() {
        let line =
            "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..";
        let cells = line
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let p = Puzzle::new(Shape::NINE, cells).unwrap();
        let (r, o) = (rate(&p).unwrap(), count(&p, &two()));
        let t = text(&p, &r, &o, None, Alphabet::Hex);
        assert!(t.contains("filled: 7 has no place left in column 2"), "{t}");
        let j = json(&p, &r, &o, None, Alphabet::Letters);
        assert_eq!(j["contradiction"], "H has no place left in column 2");
        let t = text(&p, &r, &o, None, Alphabet::Standard);
        assert!(t.contains("filled: 8 has no place left in column 2"), "{t}");
    }
}
