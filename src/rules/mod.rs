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
mod houses;
mod leftovers;
mod lines;
mod outside;
mod pairs;
mod required;
pub(crate) mod sums;
mod text;

use crate::shape::Shape;
use std::collections::BTreeSet;

pub(crate) use houses::{chess_pairs, orthogonal_pairs};
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
        for rule in &self.rules {
            rule.validate(shape)?;
        }
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
        let distinct = |cells: &[usize]| cells.iter().collect::<BTreeSet<_>>().len() == cells.len();
        let name = self.name();
        let cells: Vec<usize> = self.cells();
        if !on_board(&cells) {
            return Err(format!("{name}: a cell is off the board"));
        }
        match self {
            Rule::Diagonal(_) | Rule::Windoku | Rule::DisjointGroups => Ok(()),
            Rule::AllDifferent(c) | Rule::Cage { cells: c, .. } | Rule::Renban(c)
                if !distinct(c) || c.len() > n =>
            {
                Err(format!(
                    "{name}: {} cells, or a cell twice (at most {n} different cells)",
                    c.len()
                ))
            }
            Rule::Thermo(c) if c.len() > n || !distinct(c) => {
                Err(format!("{name}: longer than {n} cells or a cell twice"))
            }
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
                let (lo, hi) = (p1.min(pn), p1.max(pn));
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

/// The propagation gave a contradiction: no solution below this state.
#[derive(Debug)]
pub(crate) struct Contradiction;

/// What propagators see of an engine state: each cell's candidates (a placed cell: its
/// digit's bit), and a way to narrow them.
pub(crate) trait Masks {
    /// The candidates of `cell`.
    fn mask(&self, cell: usize) -> u64;
    /// The candidates of `cell` where it is open; where it is placed, nothing or its digit's
    /// bit (as `mask`). With [`Masks::placed`], a cheaper read of a house's cells' digits:
    /// the union of `open` over some of a house's cells, with the house's placed digits, is
    /// the union of `mask` with, at most, digits placed in the house's other cells.
    #[inline(always)]
    fn open(&self, cell: usize) -> u64 {
        self.mask(cell)
    }
    /// The digits placed in house `h` (of the compiled houses), or none (when `open` gives
    /// placed cells' digits).
    #[inline(always)]
    fn placed(&self, h: usize) -> u64 {
        let _ = h;
        0
    }
    /// Keep only the `allowed` candidates of `cell`: `Ok(true)` when that removed some,
    /// `Err` when none is left.
    fn restrict(&mut self, cell: usize, allowed: u64) -> Result<bool, Contradiction>;
}

/// The rules as the generic engine runs them (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Compiled {
    /// Groups of N cells holding every digit once, rows and columns first.
    pub houses: Vec<Vec<u16>>,
    /// Pairs of cells that must differ, beyond the houses.
    pub different: Vec<(u16, u16)>,
    /// Each cell's digits before any given (all but odd, even, pencil-mark cells: full).
    pub initial: Vec<u64>,
    /// Where there are propagators, each cell's branching priority: the sizes of the houses,
    /// pairs and rules that hold it (sums count more). The search's conflict scores start
    /// from these; empty (plain fewest-candidates) without propagators.
    pub priority: Vec<u32>,
    /// The propagators; `None` when there is none.
    pub propagators: Option<Propagators>,
}

/// Every propagator of a puzzle, by family, and which of them watch each cell.
///
/// The propagators are numbered as units (pairs, then sums, renban lines, between lines,
/// sandwiches, quadruples, intersections); a unit decides from its own cells' candidates
/// alone, so after a fixpoint only the units whose cells changed need to run again
/// (`run_dirty`).
#[derive(Debug, Default)]
pub(crate) struct Propagators {
    pairs: pairs::Pairs,
    sums: Vec<sums::Sum>,
    renbans: Vec<lines::Renban>,
    betweens: Vec<lines::Between>,
    sandwiches: Vec<outside::Sandwich>,
    quads: Vec<cells::Quad>,
    intersections: Vec<houses::Intersection>,
    /// Each cell's peers, for the digits sums, renbans and marked pairs must hold (see
    /// `required::Exclusions`); `None` on boards above its size.
    exclusions: Option<required::Exclusions>,
    /// `watch[watch_start[cell]..watch_start[cell + 1]]`: the units that read `cell`.
    watch: Vec<u32>,
    watch_start: Vec<u32>,
    /// The same as sets of units (`unit_words` words a cell), where they take at most
    /// [`CELL_UNIT_WORDS`] words; else empty. Marking a changed cell's units ORs a few words
    /// instead of setting a bit per unit (a cell of a hard killer is read by a dozen or more
    /// units: intersections, cages and the derived sums of the law of leftovers).
    cell_units: Vec<u64>,
    /// `unit_cells[unit_start[u]..unit_start[u + 1]]`: the cells unit `u` reads.
    unit_cells: Vec<u16>,
    unit_start: Vec<u32>,
    /// Where each family's units start: sums, renbans, betweens, sandwiches, quads,
    /// intersections, and the end.
    starts: [usize; 7],
    /// The sums' memo slots (see `sums::Seen`).
    memo_slots: usize,
    /// When [`Yields`] retires a redundant unit (a sum that `sums::Sum::is_redundant`): after
    /// this many runs, below one useful run in this many; `None` for [`RETIRE_AFTER`] and
    /// [`RETIRE_RATIO`] (the tests set others).
    retire: Option<(u32, u32)>,
}

/// How often each redundant unit narrowed a cell or failed, per search (propagation scratch,
/// like the memos): one that did so in fewer than one run in [`RETIRE_RATIO`] of its first
/// [`RETIRE_AFTER`] runs or more is retired, not run again in that search. Leaving out a
/// redundant sum never changes the solutions; it only lets some branches fail later.
#[derive(Debug, Clone, Default)]
pub(crate) struct Yields {
    /// Per unit: its runs, and those that narrowed a cell or failed.
    runs: Vec<[u32; 2]>,
    /// The retired units, as bits.
    retired: Vec<u64>,
    /// See [`Propagators::retire`].
    after: u32,
    ratio: u32,
}

/// Runs before a redundant unit may be retired (see [`Yields`]).
const RETIRE_AFTER: u32 = 5_000;

/// A redundant unit that narrowed or failed in fewer than one run in this many is retired
/// (see [`Yields`]). Of 5, 8, 10, 14, 20 and 40, 10 took the least time on ISS's slow
/// puzzles with the ten hard killers outside its bench (13–16% less than 40 in the runs that
/// had both, 5% more guesses),
/// and 8% less than 40 on counts of random killers made after it was chosen (see
/// PERFORMANCE.md).
const RETIRE_RATIO: u32 = 10;

impl Yields {
    /// Note a run of the redundant unit `u`, and whether it narrowed a cell or failed
    /// (`useful`).
    #[inline]
    fn note(&mut self, u: usize, useful: bool) {
        let r = &mut self.runs[u];
        r[0] = r[0].saturating_add(1);
        r[1] = r[1].saturating_add(u32::from(useful));
        if r[0] >= self.after && r[1].saturating_mul(self.ratio) < r[0] {
            self.retired[u / 64] |= 1 << (u % 64);
            #[cfg(test)]
            RETIRED.with(|n| n.set(n.get() + 1));
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: the redundant units retired on this thread so far.
    pub(crate) static RETIRED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Propagators {
    fn is_empty(&self) -> bool {
        self.pairs.is_empty()
            && self.sums.is_empty()
            && self.renbans.is_empty()
            && self.betweens.is_empty()
            && self.sandwiches.is_empty()
            && self.quads.is_empty()
            && self.intersections.is_empty()
    }

    /// Number the units and list the units of each of the board's `cells`.
    fn index(&mut self, cells: usize) {
        self.memo_slots = self
            .sums
            .iter_mut()
            .fold(0, |first, sum| sum.memo_slots(first));
        let mut of_unit: Vec<Vec<u16>> = (0..self.pairs.len())
            .map(|i| self.pairs.cells(i).to_vec())
            .collect();
        let mut starts = [0; 7];
        starts[0] = of_unit.len();
        of_unit.extend(self.sums.iter().map(|s| s.cells().to_vec()));
        starts[1] = of_unit.len();
        of_unit.extend(self.renbans.iter().map(|r| r.cells().to_vec()));
        starts[2] = of_unit.len();
        of_unit.extend(self.betweens.iter().map(lines::Between::cells));
        starts[3] = of_unit.len();
        of_unit.extend(self.sandwiches.iter().map(|s| s.cells().to_vec()));
        starts[4] = of_unit.len();
        of_unit.extend(self.quads.iter().map(|q| q.cells().to_vec()));
        starts[5] = of_unit.len();
        of_unit.extend(self.intersections.iter().map(houses::Intersection::cells));
        starts[6] = of_unit.len();
        self.unit_cells = of_unit.concat();
        self.unit_start = std::iter::once(0)
            .chain(of_unit.iter().scan(0u32, |at, c| {
                *at += c.len() as u32;
                Some(*at)
            }))
            .collect();
        let mut by_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (u, unit_cells) in of_unit.iter().enumerate() {
            for &c in unit_cells {
                let list = &mut by_cell[usize::from(c)];
                if list.last() != Some(&(u as u32)) {
                    list.push(u as u32);
                }
            }
        }
        let words = starts[6].div_ceil(64);
        self.cell_units = if words <= CELL_UNIT_WORDS {
            let mut sets = vec![0u64; cells * words];
            for (cell, list) in by_cell.iter().enumerate() {
                for &u in list {
                    sets[cell * words + u as usize / 64] |= 1 << (u % 64);
                }
            }
            sets
        } else {
            Vec::new()
        };
        self.watch.clear();
        self.watch_start = vec![0];
        for list in by_cell {
            self.watch.extend(list);
            self.watch_start.push(self.watch.len() as u32);
        }
        self.starts = starts;
    }

    /// Whether some sum is a killer cage with digit sets.
    pub(crate) fn has_cages(&self) -> bool {
        self.sums.iter().any(sums::Sum::has_sets)
    }

    /// Fresh memos for [`Propagators::run_dirty`] (propagation scratch: any state's
    /// propagation may use them, one thread at a time).
    pub(crate) fn memo(&self) -> Vec<sums::Seen> {
        vec![sums::Seen::default(); self.memo_slots]
    }

    /// Fresh [`Yields`] for [`Propagators::run_dirty`] (propagation scratch, one per search).
    pub(crate) fn yields(&self) -> Yields {
        let (after, ratio) = self.retire.unwrap_or((RETIRE_AFTER, RETIRE_RATIO));
        Yields {
            runs: vec![[0; 2]; self.starts[6]],
            retired: vec![0; self.unit_words()],
            after,
            ratio,
        }
    }

    /// Tests: retire the redundant units after `after` runs, below one useful run in `ratio`.
    #[cfg(test)]
    pub(crate) fn set_retirement(&mut self, after: u32, ratio: u32) {
        self.retire = Some((after, ratio));
    }

    /// The words of a set of units (one bit each).
    pub(crate) fn unit_words(&self) -> usize {
        self.starts[6].div_ceil(64)
    }

    /// The cells unit `u` reads.
    pub(crate) fn unit_cells(&self, u: usize) -> &[u16] {
        &self.unit_cells[self.unit_start[u] as usize..self.unit_start[u + 1] as usize]
    }

    /// Mark every unit.
    pub(crate) fn mark_all(&self, dirty: &mut [u64]) {
        first_bits(dirty, self.starts[6]);
    }

    /// Mark the units that read `cell`.
    #[inline]
    pub(crate) fn mark_cell(&self, cell: usize, dirty: &mut [u64]) {
        if !self.cell_units.is_empty() {
            let words = dirty.len();
            for (d, &m) in dirty
                .iter_mut()
                .zip(&self.cell_units[cell * words..(cell + 1) * words])
            {
                *d |= m;
            }
            return;
        }
        let (a, b) = (
            self.watch_start[cell] as usize,
            self.watch_start[cell + 1] as usize,
        );
        for &u in &self.watch[a..b] {
            dirty[u as usize / 64] |= 1 << (u % 64);
        }
    }

    #[inline]
    fn run_unit<M: Masks>(
        &self,
        u: usize,
        m: &mut M,
        memo: &mut [sums::Seen],
        yields: &mut Yields,
    ) -> Result<bool, Contradiction> {
        let s = &self.starts;
        // The intersections first: most runs are theirs (a hundred per guess on a hard 9×9).
        if u >= s[5] {
            self.intersections[u - s[5]].run(m)
        } else if u < s[0] {
            self.pairs.run_one(u, m, self.exclusions.as_ref())
        } else if u < s[1] {
            let sum = &self.sums[u - s[0]];
            let result = sum.run(m, self.exclusions.as_ref(), memo);
            if sum.is_redundant() {
                yields.note(u, !matches!(result, Ok(false)));
            }
            result
        } else if u < s[2] {
            self.renbans[u - s[1]].run(m, self.exclusions.as_ref())
        } else if u < s[3] {
            self.betweens[u - s[2]].run(m)
        } else if u < s[4] {
            self.sandwiches[u - s[3]].run(m)
        } else {
            self.quads[u - s[4]].run(m)
        }
    }

    /// Run each marked unit once, in unit order, clearing its mark (a retired one is only
    /// cleared, see [`Yields`]); `Err(u)` when unit `u` found a contradiction. Cells they
    /// change are not marked here (the caller marks them from the cells that changed).
    /// `memo`: from [`Propagators::memo`]; `yields`: from [`Propagators::yields`].
    #[inline]
    pub(crate) fn run_dirty<M: Masks>(
        &self,
        m: &mut M,
        dirty: &mut [u64],
        memo: &mut [sums::Seen],
        yields: &mut Yields,
    ) -> Result<(), usize> {
        for (i, word) in dirty.iter_mut().enumerate() {
            *word &= !yields.retired[i];
            while *word != 0 {
                let b = word.trailing_zeros() as usize;
                *word &= *word - 1;
                self.run_unit(i * 64 + b, m, memo, yields)
                    .map_err(|Contradiction| i * 64 + b)?;
            }
        }
        Ok(())
    }
}

/// The most words of a set of units kept per cell (see `Propagators::cell_units`): 512 units.
const CELL_UNIT_WORDS: usize = 8;

/// Set the first `n` bits of `words` (bit `i` of word `i / 64` is `i`), clear the rest.
pub(crate) fn first_bits(words: &mut [u64], n: usize) {
    for (i, w) in words.iter_mut().enumerate() {
        let left = n.saturating_sub(i * 64);
        *w = if left >= 64 {
            u64::MAX
        } else {
            (1u64 << left) - 1
        };
    }
}

/// Digits `lo..=hi` as a mask (empty when `lo > hi`); digits outside 1..=64 are dropped.
#[inline]
pub(crate) fn range_mask(lo: i64, hi: i64) -> u64 {
    let lo = lo.max(1);
    let hi = hi.min(64);
    if lo > hi {
        return 0;
    }
    let top = if hi == 64 { u64::MAX } else { (1u64 << hi) - 1 };
    top & !((1u64 << (lo - 1)) - 1)
}

/// Every two of `cells` as a different pair.
fn all_differ(different: &mut Vec<(u16, u16)>, cells: &[usize]) {
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            different.push((a as u16, b as u16));
        }
    }
}

/// A linear sum with the whole houses folded out of it (see `leftovers::fold_houses`).
fn linear(n: usize, houses: &[Vec<u16>], cells: &[usize], coef: &[i64], target: i64) -> sums::Sum {
    let (cells, coef, target) = leftovers::fold_houses(n, houses, cells, coef, target);
    sums::Sum::linear(n, &cells, &coef, target)
}

/// Turn `rules` on a board of `shape` into houses, different pairs, initial masks and
/// propagators for the generic engine.
pub(crate) fn compile(shape: Shape, rules: &Rules) -> Compiled {
    let n = shape.side();
    let full = crate::shape::all_digits(n);
    let mut out = Compiled {
        houses: rules
            .houses(shape)
            .into_iter()
            .map(|(_, cells)| cells.into_iter().map(|c| c as u16).collect())
            .collect(),
        different: Vec::new(),
        initial: vec![full; shape.cells()],
        priority: Vec::new(),
        propagators: None,
    };
    let mut props = Propagators::default();
    let mut pair_rules = pairs::Builder::new(n, rules.first_value());
    for rule in &rules.rules {
        // Smaller all-different groups become different pairs.
        for (_, cells) in rule.groups(shape) {
            if cells.len() < n {
                all_differ(&mut out.different, &cells);
            }
        }
        pair_rules.add(shape, rule, rules);
        match rule {
            // Strictly increasing: the cells all differ (pairs, not a group: equal givens on a
            // thermometer are unsolvable, not clashing givens).
            Rule::Thermo(cells) => all_differ(&mut out.different, cells),
            Rule::AntiKnight | Rule::AntiKing => {
                for (a, b) in chess_pairs(shape, *rule == Rule::AntiKnight) {
                    out.different.push((a as u16, b as u16));
                }
            }
            Rule::Cage {
                cells,
                sum: Some(s),
            } => {
                let s = u32::try_from(rules.digit_sum(cells.len(), *s)).unwrap_or(u32::MAX);
                props.sums.push(sums::Sum::cage(n, cells, s))
            }
            Rule::LittleKiller { cells, sum } => props.sums.push(linear(
                n,
                &out.houses,
                cells,
                &vec![1; cells.len()],
                rules.digit_sum(cells.len(), *sum),
            )),
            Rule::Arrow { circle, line } => {
                let mut cells = line.clone();
                let mut coef = vec![1i64; line.len()];
                for (i, &c) in circle.iter().enumerate() {
                    cells.push(c);
                    coef.push(-(10i64.pow((circle.len() - 1 - i) as u32)));
                }
                // Σ coef · value = 0, and each value is its digit less one on a zero-based
                // board.
                let target = if rules.zero_based() {
                    coef.iter().sum()
                } else {
                    0
                };
                props
                    .sums
                    .push(linear(n, &out.houses, &cells, &coef, target));
            }
            Rule::Renban(cells) => props
                .renbans
                .push(lines::Renban::new(n, cells, &out.houses)),
            Rule::Between(cells) if cells.len() > 2 => {
                out.different
                    .push((cells[0] as u16, cells[cells.len() - 1] as u16));
                props.betweens.push(lines::Between::new(cells));
            }
            Rule::Sandwich { line, sum } => props
                .sandwiches
                .push(outside::Sandwich::new(shape, *line, *sum)),
            Rule::Quadruple { cells, digits } => props.quads.push(cells::Quad::new(*cells, digits)),
            Rule::Only { cell, digits } => out.initial[*cell] &= digits,
            _ => {}
        }
    }
    props.pairs = pair_rules.build();
    // The law of leftovers' sums are implied by the rules above: redundant.
    let derived = leftovers::in_houses(shape, rules, &out.houses)
        .into_iter()
        .chain(leftovers::innies_outies(shape, rules));
    props.sums.extend(derived.map(sums::Sum::redundant));
    // Which cells must differ: a house or a different pair holds both.
    let mut houses_of = vec![Vec::new(); shape.cells()];
    for (h, house) in out.houses.iter().enumerate() {
        for &c in house {
            houses_of[usize::from(c)].push(h);
        }
    }
    let pairs: BTreeSet<(u16, u16)> = out
        .different
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    let differ = |a: u16, b: u16| {
        a != b
            && (houses_of[usize::from(a)]
                .iter()
                .any(|h| houses_of[usize::from(b)].contains(h))
                || pairs.contains(&(a.min(b), a.max(b))))
    };
    let combined = leftovers::combined(n, rules, &differ);
    props
        .sums
        .extend(combined.into_iter().map(sums::Sum::redundant));
    for sum in &mut props.sums {
        sum.group(n, differ);
        sum.link_houses(&out.houses);
    }
    // Locked candidates between every two houses that share cells. With the rules' houses
    // (diagonals, windows, regions) they pay on their own: the hard 16×16 Sudoku X of ISS's
    // collection went from 372,000 nodes to 34,000 with them and the conflict scores.
    props.intersections = houses::Intersection::all(&out.houses);
    props.exclusions = required::Exclusions::new(shape.cells(), &out.houses, &out.different);
    if !props.is_empty() {
        out.priority = vec![0; shape.cells()];
        // Priorities as the Interactive Sudoku Solver weighs its constraints: a house or rule
        // adds its number of cells to each of them, a sum max(2N - cells, N).
        for house in &out.houses {
            for &c in house {
                out.priority[usize::from(c)] += house.len() as u32;
            }
        }
        for &(a, b) in &out.different {
            out.priority[usize::from(a)] += 2;
            out.priority[usize::from(b)] += 2;
        }
        for rule in &rules.rules {
            let cells = rule.cells();
            let weight = match rule {
                Rule::Cage { sum: Some(_), .. }
                | Rule::LittleKiller { .. }
                | Rule::Arrow { .. } => (2 * n).saturating_sub(cells.len()).max(n),
                _ => cells.len(),
            } as u32;
            for c in cells {
                out.priority[c] += weight;
            }
        }
        props.index(shape.cells());
        out.propagators = Some(props);
    }
    out
}

#[cfg(test)]
mod tests;
