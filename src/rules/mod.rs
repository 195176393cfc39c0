//! Variant rules: what a puzzle asks beyond rows, columns and boxes, and how the generic engine
//! enforces it.
//!
//! A [`Rules`] value (carried by a [`Puzzle`](crate::Puzzle)) lists [`Rule`]s in the terms
//! setters use (a killer cage, a thermometer, a kropki dot). [`Rules::check`] is each rule's
//! definition on a filled grid: the reference the tests hold the engine to. For the search,
//! `compile` turns the rules into what the generic engine runs:
//!
//! - **houses**: groups of N cells that hold every digit once (rows, columns, boxes or the
//!   irregular regions replacing them, diagonals, windoku windows, disjoint groups, extra
//!   regions and cages of N cells): naked and hidden singles see them as they see rows;
//! - **different pairs**: two cells that may not hold the same digit (anti-knight, anti-king,
//!   smaller cages and extra regions, renban lines): they join each cell's peers;
//! - **propagators** over the candidate masks (`Propagators`): binary relations on pairs of
//!   cells (kropki, XV, thermometers, whispers, palindromes, non-consecutive and the negative
//!   rules; `pairs`), sums (cages, little killers, arrows; `sums`), lines (renban, between;
//!   `lines`), sandwich sums (`outside`), quadruples and cell sets (`cells`), and locked
//!   candidates between houses that share cells (`houses`). After a fixpoint only the
//!   propagators whose cells changed run again;
//! - **exclusions** (`required::Exclusions`): each cell's peers (houses and different pairs)
//!   as bits, so that a digit a cage, line, derived sum or marked pair must hold leaves every
//!   cell that sees all its places.
//!
//! Propagators never allocate and never do I/O; each is exact on filled cells (it rejects
//! every violation once its cells are placed), so the search accepts only true solutions.

mod cells;
mod compile;
mod houses;
mod leftovers;
mod lines;
mod outside;
mod pairs;
mod propagate;
mod required;
pub(crate) mod sums;
mod text;

use crate::shape::Shape;
use std::collections::BTreeSet;

pub(crate) use compile::{compile, Compiled};
pub(crate) use houses::{chess_pairs, orthogonal_pairs};
#[cfg(test)]
pub(crate) use propagate::RETIRED;
pub(crate) use propagate::{first_bits, range_mask, Contradiction, Masks, Propagators, Yields};
pub use text::{cell_id, little_killer_diagonals, MAX_TEXT_SIDE};

/// A puzzle's variant rules: irregular regions (replacing the boxes) and a list of [`Rule`]s.
///
/// The rules' numbers (sums, ratios, differences) are of the values a setter writes: 1 to N,
/// or 0 to N − 1 on a [zero-based](Rules::set_zero_based) board. Digit sets (givens, cell
/// digits, quadruples) are the engine's digits 1 to N either way (digit d is the value d − 1
/// on a zero-based board).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    regions: Option<Vec<u8>>,
    no_boxes: bool,
    zero_based: bool,
    rules: Vec<Rule>,
}

/// Which diagonal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// Top left to bottom right (f-puzzles `diagonal-`, ISS `Diagonal~-1`).
    Main,
    /// Bottom left to top right (f-puzzles `diagonal+`, ISS `Diagonal~1`).
    Anti,
}

/// A row or a column (0-based), for clues outside the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Line {
    /// Row `r`.
    Row(usize),
    /// Column `c`.
    Col(usize),
}

/// Negative rules: relations that hold only where marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Negative {
    /// Orthogonal neighbours without a kropki dot are neither consecutive nor one double the
    /// other (ISS `StrictKropki`).
    Kropki,
    /// Orthogonal neighbours without an X or V do not sum to 5 or 10 (ISS `StrictXV`,
    /// f-puzzles negative `xv`).
    Xv,
    /// Orthogonal neighbours without a kropki dot are not consecutive (f-puzzles
    /// `nonconsecutive`).
    Consecutive,
    /// Orthogonal neighbours without a kropki dot differ by none of the white dots'
    /// differences (1 when there is none) (f-puzzles negative `difference`).
    Differences,
    /// Orthogonal neighbours without a kropki dot are in none of the black dots' ratios (2
    /// when there is none) (f-puzzles negative `ratio`).
    Ratios,
}

/// One variant rule. Cells are row-major indices; digits run 1..=N.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A diagonal holds every digit once.
    Diagonal(Diagonal),
    /// Windoku: the windows (boxes offset by one cell, with one cell between them) hold
    /// every digit once.
    Windoku,
    /// Disjoint groups: the cells at the same place in every box hold every digit once.
    DisjointGroups,
    /// These cells hold different digits (an extra region; with N cells every digit once).
    AllDifferent(Vec<usize>),
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Cells a king's move apart differ.
    AntiKing,
    /// Orthogonal neighbours are never consecutive (ISS `AntiConsecutive`: every pair, dots
    /// or not).
    AntiConsecutive,
    /// A killer cage: different digits, summing to `sum` when given.
    Cage {
        /// The cells.
        cells: Vec<usize>,
        /// The sum, if any.
        sum: Option<u32>,
    },
    /// A little killer: the digits along a diagonal (repeats allowed) sum to `sum`.
    LittleKiller {
        /// The diagonal's cells.
        cells: Vec<usize>,
        /// The sum.
        sum: u32,
    },
    /// An arrow: the number in the circle (one cell) or pill (its digits read in order) is
    /// the sum of the digits on the arrow (repeats allowed).
    Arrow {
        /// The circle or pill, in reading order.
        circle: Vec<usize>,
        /// The arrow's cells.
        line: Vec<usize>,
    },
    /// A thermometer: strictly increasing from the bulb (the first cell).
    Thermo(Vec<usize>),
    /// A white kropki dot: the two digits differ by `diff` (1 for the usual dot).
    WhiteDot {
        /// The two (orthogonally adjacent) cells.
        cells: [usize; 2],
        /// The difference.
        diff: u8,
    },
    /// A black kropki dot: one digit is `ratio` times the other (2 for the usual dot).
    BlackDot {
        /// The two cells.
        cells: [usize; 2],
        /// The ratio.
        ratio: u8,
    },
    /// An X (sum 10) or V (sum 5) between two cells.
    Xv {
        /// The two cells.
        cells: [usize; 2],
        /// 10 for X, 5 for V.
        sum: u8,
    },
    /// A renban line: different digits forming a run of consecutive numbers, in any order.
    Renban(Vec<usize>),
    /// A whisper line: neighbours on the line differ by at least `diff` (5 for German
    /// whispers on 9×9).
    Whisper {
        /// The cells, in line order.
        cells: Vec<usize>,
        /// The least difference.
        diff: u8,
    },
    /// A palindrome line: it reads the same both ways.
    Palindrome(Vec<usize>),
    /// A between line: the digits strictly inside lie strictly between the two ends.
    Between(Vec<usize>),
    /// A sandwich sum: the digits between the 1 and the N of a row or column sum to `sum`.
    Sandwich {
        /// The row or column.
        line: Line,
        /// The sum.
        sum: u32,
    },
    /// A quadruple: these digits (repeats mean as many) appear among the four cells.
    Quadruple {
        /// The 2×2 cells.
        cells: [usize; 4],
        /// The digits.
        digits: Vec<u8>,
    },
    /// The cell holds one of these digits (bit `d - 1` for digit `d`): odd and even cells,
    /// pencil-mark givens.
    Only {
        /// The cell.
        cell: usize,
        /// The digits allowed.
        digits: u64,
    },
    /// A negative rule.
    Negative(Negative),
}

impl Rules {
    /// No rules.
    pub fn new() -> Rules {
        Rules::default()
    }

    /// True when there is nothing beyond the classic rules (values 1 to N).
    pub fn is_empty(&self) -> bool {
        self.is_classic() && !self.zero_based
    }

    /// True when the rules constrain nothing beyond the classic rules (values from 0 may
    /// be set: they only name the digits).
    pub fn is_classic(&self) -> bool {
        self.regions.is_none() && !self.no_boxes && self.rules.is_empty()
    }

    /// The values are 0 to N − 1 (ISS `Shape~9x9~0-8`): sums, ratios and the other rules'
    /// numbers are of those values; digit d of the engine is the value d − 1.
    pub fn set_zero_based(&mut self) {
        self.zero_based = true;
    }

    /// Whether the values are 0 to N − 1.
    pub fn zero_based(&self) -> bool {
        self.zero_based
    }

    /// The value digit 1 stands for: 0 on a zero-based board, else 1.
    pub fn first_value(&self) -> u8 {
        u8::from(!self.zero_based)
    }

    /// A sum of `cells` values (coefficients 1) as a sum of the engine's digits, which exceed
    /// the values by one each on a zero-based board.
    pub(crate) fn digit_sum(&self, cells: usize, sum: u32) -> i64 {
        i64::from(sum) + if self.zero_based { cells as i64 } else { 0 }
    }

    /// Add a rule.
    pub fn push(&mut self, rule: Rule) {
        self.rules.push(rule);
    }

    /// The rules.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Irregular regions replacing the boxes: the region (0..N) of every cell.
    pub fn set_regions(&mut self, regions: Vec<u8>) {
        self.regions = Some(regions);
    }

    /// The irregular regions, if any.
    pub fn regions(&self) -> Option<&[u8]> {
        self.regions.as_deref()
    }

    /// Drop the boxes (ISS `NoBoxes`; irregular regions replace them anyway).
    pub fn set_no_boxes(&mut self) {
        self.no_boxes = true;
    }

    /// Whether the boxes are dropped.
    pub fn no_boxes(&self) -> bool {
        self.no_boxes
    }

    /// Check that every rule fits a board of `shape`: cells on the board, regions of N cells,
    /// pairs of neighbours, digits in range. The message names the rule.
    pub fn validate(&self, shape: Shape) -> Result<(), String> {
        let n = shape.side();
        let cells = shape.cells();
        if let Some(reg) = &self.regions {
            if reg.len() != cells {
                return Err(format!(
                    "irregular regions: {} cells, expected {cells}",
                    reg.len()
                ));
            }
            let mut size = vec![0usize; n];
            for &r in reg {
                if usize::from(r) >= n {
                    return Err(format!("irregular regions: region {} of {n}", r + 1));
                }
                size[usize::from(r)] += 1;
            }
            if let Some(r) = size.iter().position(|&k| k != n) {
                return Err(format!(
                    "irregular regions: region {} has {} cells, expected {n}",
                    r + 1,
                    size[r]
                ));
            }
        }
        self.validate_from(shape, 0)?;
        if self.regions.is_some() && self.rules.contains(&Rule::DisjointGroups) {
            return Err("disjoint groups need the standard boxes, not irregular regions".into());
        }
        if self.zero_based
            && self
                .rules
                .iter()
                .any(|r| matches!(r, Rule::Sandwich { .. }))
        {
            return Err("sandwich sums on a board of values from 0 are not supported".into());
        }
        Ok(())
    }

    /// [`Rules::validate`]'s check of each rule alone, for the rules from the `from`th on: a
    /// reader checks the rules of each item it reads, so that an error names the item.
    pub(crate) fn validate_from(&self, shape: Shape, from: usize) -> Result<(), String> {
        self.rules
            .get(from..)
            .unwrap_or_default()
            .iter()
            .try_for_each(|rule| rule.validate(shape))
    }

    /// True when `grid` (N² digits, row-major, a valid sudoku of the rows and columns) keeps
    /// every rule and the boxes or regions: each rule's definition, as a setter states it.
    pub fn check(&self, shape: Shape, grid: &[u8]) -> bool {
        let n = shape.side();
        let all_differ = |cells: &[usize]| {
            let mut seen = 0u64;
            cells.iter().all(|&c| {
                let bit = 1u64 << (grid[c] - 1);
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        };
        let regions_ok = match &self.regions {
            Some(reg) => (0..n as u8).all(|r| {
                let cells: Vec<usize> = (0..shape.cells()).filter(|&c| reg[c] == r).collect();
                all_differ(&cells)
            }),
            None => {
                self.no_boxes
                    || (0..n).all(|b| {
                        let cells: Vec<usize> = (0..shape.cells())
                            .filter(|&c| shape.box_of(c) == b)
                            .collect();
                        all_differ(&cells)
                    })
            }
        };
        regions_ok
            && (0..n).all(|i| {
                all_differ(&(0..n).map(|c| i * n + c).collect::<Vec<_>>())
                    && all_differ(&(0..n).map(|r| r * n + i).collect::<Vec<_>>())
            })
            && self.rules.iter().all(|r| r.check(shape, grid, self))
    }

    /// The houses of a board of `shape` under these rules, named: rows, columns, boxes (or
    /// the irregular regions; none with `NoBoxes`), then the rules' groups of N cells that
    /// hold every digit once.
    pub(crate) fn houses(&self, shape: Shape) -> Vec<(String, Vec<usize>)> {
        let n = shape.side();
        let classic = shape.houses();
        let mut out: Vec<(String, Vec<usize>)> = classic
            .into_iter()
            .enumerate()
            .take(2 * n)
            .map(|(h, cells)| (shape.house_name(h), cells))
            .collect();
        match &self.regions {
            Some(reg) => {
                for r in 0..n as u8 {
                    let cells = (0..shape.cells()).filter(|&c| reg[c] == r).collect();
                    out.push((format!("region {}", r + 1), cells));
                }
            }
            None if !self.no_boxes => {
                for (h, cells) in shape.houses().into_iter().enumerate().skip(2 * n) {
                    out.push((shape.house_name(h), cells));
                }
            }
            None => {}
        }
        for rule in &self.rules {
            for (name, cells) in rule.groups(shape) {
                if cells.len() == n {
                    out.push((name, cells));
                }
            }
        }
        out
    }
}

impl Rules {
    /// Every group of cells that may not repeat a digit, named: the houses, then the rules'
    /// smaller groups (cages, extra regions, renban lines), for naming clashing givens.
    pub(crate) fn conflict_groups(&self, shape: Shape) -> Vec<(String, Vec<usize>)> {
        let n = shape.side();
        let mut out = self.houses(shape);
        for rule in &self.rules {
            out.extend(rule.groups(shape).into_iter().filter(|(_, c)| c.len() < n));
        }
        out
    }
}

impl Rule {
    /// The groups of cells this rule makes all different, named (houses when they have N
    /// cells).
    fn groups(&self, shape: Shape) -> Vec<(String, Vec<usize>)> {
        match self {
            Rule::Diagonal(d) => vec![(
                match d {
                    Diagonal::Main => "the main diagonal".into(),
                    Diagonal::Anti => "the anti-diagonal".into(),
                },
                houses::diagonal(shape, *d),
            )],
            Rule::Windoku => houses::windows(shape)
                .into_iter()
                .enumerate()
                .map(|(i, w)| (format!("window {}", i + 1), w))
                .collect(),
            Rule::DisjointGroups => houses::disjoint_groups(shape)
                .into_iter()
                .enumerate()
                .map(|(i, g)| (format!("disjoint group {}", i + 1), g))
                .collect(),
            Rule::AllDifferent(cells) => vec![("an extra region".into(), cells.clone())],
            Rule::Cage { cells, .. } => vec![("a cage".into(), cells.clone())],
            Rule::Renban(cells) => vec![("a renban line".into(), cells.clone())],
            _ => Vec::new(),
        }
    }

    fn validate(&self, shape: Shape) -> Result<(), String> {
        let n = shape.side();
        let on_board = |cells: &[usize]| cells.iter().all(|&c| c < shape.cells());
        // The first cell named twice, if any.
        let twice = |cells: &[usize]| {
            let mut seen = BTreeSet::new();
            cells.iter().copied().find(|&c| !seen.insert(c))
        };
        let distinct = |cells: &[usize]| twice(cells).is_none();
        let name = self.name();
        let cells: Vec<usize> = self.cells();
        if !on_board(&cells) {
            return Err(format!("{name}: a cell is off the board"));
        }
        match self {
            Rule::Diagonal(_) | Rule::Windoku | Rule::DisjointGroups => Ok(()),
            Rule::AllDifferent(c)
            | Rule::Cage { cells: c, .. }
            | Rule::Renban(c)
            | Rule::Thermo(c)
                if !distinct(c) =>
            {
                let cell = twice(c).map_or_else(String::new, |x| shape.cell_name(x));
                Err(format!("{name}: cell {cell} appears twice"))
            }
            Rule::AllDifferent(c) | Rule::Cage { cells: c, .. } | Rule::Renban(c)
                if c.len() > n =>
            {
                Err(format!(
                    "{name}: {} cells, more than the {n} different digits of the board",
                    c.len()
                ))
            }
            Rule::Thermo(c) if c.len() > n => Err(format!(
                "{name}: {} cells, longer than the {n} digits of the board",
                c.len()
            )),
            Rule::Arrow { circle, line }
                if circle.is_empty() || circle.len() > 3 || line.is_empty() =>
            {
                Err(format!(
                    "{name}: needs a circle of 1 to 3 cells and an arrow"
                ))
            }
            Rule::WhiteDot { cells: [a, b], .. }
            | Rule::BlackDot { cells: [a, b], .. }
            | Rule::Xv { cells: [a, b], .. }
                if !houses::orthogonal(shape, *a, *b) =>
            {
                Err(format!(
                    "{name}: {} and {} are not orthogonal neighbours",
                    shape.cell_name(*a),
                    shape.cell_name(*b)
                ))
            }
            Rule::Sandwich {
                line: Line::Row(i) | Line::Col(i),
                ..
            } if *i >= n => Err(format!("{name}: no such row or column")),
            Rule::Quadruple { cells, digits }
                if digits.len() > 4
                    || digits.iter().any(|&d| d == 0 || usize::from(d) > n)
                    || !distinct(cells) =>
            {
                Err(format!("{name}: at most 4 digits from 1 to {n}"))
            }
            Rule::Only { digits, .. } if *digits == 0 => Err(format!("{name}: no digit allowed")),
            _ => Ok(()),
        }
    }

    /// The rule's name as setters say it.
    pub fn name(&self) -> &'static str {
        match self {
            Rule::Diagonal(_) => "diagonal",
            Rule::Windoku => "windoku",
            Rule::DisjointGroups => "disjoint groups",
            Rule::AllDifferent(_) => "extra region",
            Rule::AntiKnight => "anti-knight",
            Rule::AntiKing => "anti-king",
            Rule::AntiConsecutive => "anti-consecutive",
            Rule::Cage { .. } => "killer cage",
            Rule::LittleKiller { .. } => "little killer",
            Rule::Arrow { .. } => "arrow",
            Rule::Thermo(_) => "thermometer",
            Rule::WhiteDot { .. } => "white kropki dot",
            Rule::BlackDot { .. } => "black kropki dot",
            Rule::Xv { .. } => "XV",
            Rule::Renban(_) => "renban line",
            Rule::Whisper { .. } => "whisper line",
            Rule::Palindrome(_) => "palindrome",
            Rule::Between(_) => "between line",
            Rule::Sandwich { .. } => "sandwich sum",
            Rule::Quadruple { .. } => "quadruple",
            Rule::Only { .. } => "cell digits",
            Rule::Negative(_) => "negative constraint",
        }
    }

    /// Every cell the rule names.
    fn cells(&self) -> Vec<usize> {
        match self {
            Rule::AllDifferent(c)
            | Rule::Cage { cells: c, .. }
            | Rule::LittleKiller { cells: c, .. }
            | Rule::Thermo(c)
            | Rule::Renban(c)
            | Rule::Whisper { cells: c, .. }
            | Rule::Palindrome(c)
            | Rule::Between(c) => c.clone(),
            Rule::Arrow { circle, line } => circle.iter().chain(line).copied().collect(),
            Rule::WhiteDot { cells, .. }
            | Rule::BlackDot { cells, .. }
            | Rule::Xv { cells, .. } => cells.to_vec(),
            Rule::Quadruple { cells, .. } => cells.to_vec(),
            Rule::Only { cell, .. } => vec![*cell],
            _ => Vec::new(),
        }
    }

    /// The rule's definition on a filled grid.
    fn check(&self, shape: Shape, g: &[u8], all: &Rules) -> bool {
        let n = shape.side();
        // The value a setter writes (digit d is d - 1 on a zero-based board).
        let v = |c: usize| i64::from(g[c]) - 1 + i64::from(all.first_value());
        let differ = |cells: &[usize]| {
            let set: BTreeSet<u8> = cells.iter().map(|&c| g[c]).collect();
            set.len() == cells.len()
        };
        match self {
            Rule::Diagonal(_) | Rule::Windoku | Rule::DisjointGroups | Rule::AllDifferent(_) => {
                self.groups(shape).iter().all(|(_, cells)| differ(cells))
            }
            Rule::AntiKnight | Rule::AntiKing => chess_pairs(shape, *self == Rule::AntiKnight)
                .iter()
                .all(|&(a, b)| g[a] != g[b]),
            Rule::AntiConsecutive => orthogonal_pairs(shape)
                .iter()
                .all(|&(a, b)| (v(a) - v(b)).abs() != 1),
            Rule::Cage { cells, sum } => {
                differ(cells)
                    && sum.is_none_or(|s| cells.iter().map(|&c| v(c)).sum::<i64>() == i64::from(s))
            }
            Rule::LittleKiller { cells, sum } => {
                cells.iter().map(|&c| v(c)).sum::<i64>() == i64::from(*sum)
            }
            Rule::Arrow { circle, line } => {
                circle.iter().fold(0, |acc, &c| acc * 10 + v(c))
                    == line.iter().map(|&c| v(c)).sum::<i64>()
            }
            Rule::Thermo(c) => c.windows(2).all(|w| v(w[0]) < v(w[1])),
            Rule::WhiteDot {
                cells: [a, b],
                diff,
            } => (v(*a) - v(*b)).abs() == i64::from(*diff),
            Rule::BlackDot {
                cells: [a, b],
                ratio,
            } => {
                let r = i64::from(*ratio);
                v(*a) == r * v(*b) || v(*b) == r * v(*a)
            }
            Rule::Xv { cells: [a, b], sum } => v(*a) + v(*b) == i64::from(*sum),
            Rule::Renban(c) => {
                let (lo, hi) = c
                    .iter()
                    .fold((i64::MAX, 0), |(lo, hi), &x| (lo.min(v(x)), hi.max(v(x))));
                differ(c) && hi - lo + 1 == c.len() as i64
            }
            Rule::Whisper { cells, diff } => cells
                .windows(2)
                .all(|w| (v(w[0]) - v(w[1])).abs() >= i64::from(*diff)),
            Rule::Palindrome(c) => (0..c.len()).all(|i| g[c[i]] == g[c[c.len() - 1 - i]]),
            Rule::Between(c) => {
                if c.len() <= 2 {
                    return true;
                }
                let (a, b) = (v(c[0]), v(c[c.len() - 1]));
                let (lo, hi) = (a.min(b), a.max(b));
                c[1..c.len() - 1].iter().all(|&x| lo < v(x) && v(x) < hi)
            }
            Rule::Sandwich { line, sum } => {
                let cells = outside::line_cells(shape, *line);
                let p1 = cells.iter().position(|&c| g[c] == 1).unwrap_or(0);
                let pn = cells
                    .iter()
                    .position(|&c| usize::from(g[c]) == n)
                    .unwrap_or(0);
                // On a 1×1 board 1 and N are one cell: nothing between them.
                let lo = p1.min(pn);
                let hi = p1.max(pn).max(lo + 1);
                cells[lo + 1..hi].iter().map(|&c| v(c)).sum::<i64>() == i64::from(*sum)
            }
            Rule::Quadruple { cells, digits } => {
                let mut have: Vec<u8> = cells.iter().map(|&c| g[c]).collect();
                digits
                    .iter()
                    .all(|d| match have.iter().position(|x| x == d) {
                        Some(i) => {
                            have.swap_remove(i);
                            true
                        }
                        None => false,
                    })
            }
            Rule::Only { cell, digits } => digits >> (g[*cell] - 1) & 1 == 1,
            Rule::Negative(neg) => {
                let rel = pairs::negative_relation(*neg, all);
                let marked = pairs::marked_pairs(*neg, all);
                orthogonal_pairs(shape)
                    .iter()
                    .filter(|p| !marked.contains(p))
                    .all(|&(a, b)| {
                        let first = all.first_value();
                        rel(g[a] - 1 + first, g[b] - 1 + first)
                    })
            }
        }
    }
}

#[cfg(test)]
mod tests;
