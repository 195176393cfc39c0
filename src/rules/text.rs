//! Rules as text: the ISS constraint string of a variant puzzle (what `split` writes for each
//! part, and the `puzzle` of a JSON answer), read back by `parse::iss`. A few rules ISS has
//! no word for get words of this tool's own (`Difference`, `Ratio`, `PairSum`, `CellSum`,
//! `NonConsecutive`, `NegativeDifference`, `NegativeRatio`; the README lists them).

use super::{Diagonal, Line, Negative, Rule, Rules};
use crate::shape::Shape;
use std::fmt::Write;

/// The largest side a constraint string can name cells of (`R1C1` to `RgCg`, base 17).
pub const MAX_TEXT_SIDE: usize = 16;

/// ISS's name of the cell at row `r`, column `c` (0-based): `R1C1`, base 17 above 9.
pub fn cell_id(n: usize, cell: usize) -> String {
    let digit = |v: usize| char::from_digit((v + 1) as u32, 17).unwrap_or('?');
    format!("R{}C{}", digit(cell / n), digit(cell % n))
}

/// The little killer diagonals ISS names by their first cell, in its order: from the left
/// side down-right, from the right side up-left, from the top side down-left, from the bottom
/// side up-right; a diagonal reached twice keeps its first name. Each has two cells or more.
pub fn little_killer_diagonals(n: usize) -> Vec<Vec<usize>> {
    let n = n as isize;
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let mut add = |r: isize, c: isize, dr: isize, dc: isize| {
        let (mut r2, mut c2) = (r, c);
        let mut cells = Vec::new();
        while (0..n).contains(&r2) && (0..n).contains(&c2) {
            cells.push((r2 * n + c2) as usize);
            r2 += dr;
            c2 += dc;
        }
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        if cells.len() > 1 && !seen.contains(&sorted) {
            seen.push(sorted);
            out.push(cells);
        }
    };
    for row in 0..n - 1 {
        add(row, 0, 1, 1);
    }
    for row in 1..n - 1 {
        add(row, n - 1, -1, -1);
    }
    for col in 1..n {
        add(0, col, 1, -1);
    }
    for col in 1..n - 1 {
        add(n - 1, col, -1, 1);
    }
    out
}

impl Rules {
    /// The constraint string of a puzzle of `shape` with these rules and givens `cells`
    /// (`None` above [`MAX_TEXT_SIDE`]).
    pub fn to_constraint_string(&self, shape: Shape, cells: &[u8]) -> Option<String> {
        let n = shape.side();
        if n > MAX_TEXT_SIDE {
            return None;
        }
        let id = |c: usize| cell_id(n, c);
        let ids = |cs: &[usize]| cs.iter().map(|&c| id(c)).collect::<Vec<_>>().join("~");
        let mut s = String::new();
        if self.zero_based {
            let _ = write!(s, ".Shape~{n}x{n}~0-{}", n - 1);
        } else if n != 9 {
            let _ = write!(s, ".Shape~{n}x{n}");
        }
        // Digit d is the value d - 1 + first.
        let first = usize::from(self.first_value());
        let value = |d: usize| d - 1 + first;
        if let Some(reg) = &self.regions {
            let layout: String = reg
                .iter()
                .map(|&r| char::from_digit(u32::from(r) + 1, 36).unwrap_or('?'))
                .collect();
            // ISS keeps the boxes beside a jigsaw unless told otherwise.
            let _ = write!(s, ".Jigsaw~{layout}.NoBoxes");
        } else if self.no_boxes {
            s.push_str(".NoBoxes");
        }
        let has_little_killer = self
            .rules
            .iter()
            .any(|r| matches!(r, Rule::LittleKiller { .. }));
        let diagonals = if has_little_killer {
            little_killer_diagonals(n)
        } else {
            Vec::new()
        };
        for rule in &self.rules {
            let _ = match rule {
                Rule::Diagonal(Diagonal::Main) => write!(s, ".Diagonal~-1"),
                Rule::Diagonal(Diagonal::Anti) => write!(s, ".Diagonal~1"),
                Rule::Windoku => write!(s, ".Windoku"),
                Rule::DisjointGroups => write!(s, ".DisjointSets"),
                Rule::AllDifferent(c) => write!(s, ".AllDifferent~{}", ids(c)),
                Rule::AntiKnight => write!(s, ".AntiKnight"),
                Rule::AntiKing => write!(s, ".AntiKing"),
                Rule::AntiConsecutive => write!(s, ".AntiConsecutive"),
                Rule::Cage { cells, sum } => {
                    let sum = sum.map(|v| v.to_string()).unwrap_or_default();
                    write!(s, ".Cage~{sum}~{}", ids(cells))
                }
                Rule::LittleKiller { cells, sum } => {
                    let mut sorted = cells.clone();
                    sorted.sort_unstable();
                    let named = diagonals.iter().find(|d| {
                        let mut ds = (*d).clone();
                        ds.sort_unstable();
                        ds == sorted
                    });
                    match named {
                        Some(d) => write!(s, ".LittleKiller~{sum}~{}", id(d[0])),
                        None => write!(s, ".CellSum~{sum}~{}", ids(cells)),
                    }
                }
                Rule::Arrow { circle, line } if circle.len() == 1 => {
                    write!(s, ".Arrow~{}~{}", id(circle[0]), ids(line))
                }
                Rule::Arrow { circle, line } => {
                    write!(
                        s,
                        ".PillArrow~{}~{}~{}",
                        circle.len(),
                        ids(circle),
                        ids(line)
                    )
                }
                Rule::Thermo(c) => write!(s, ".Thermo~{}", ids(c)),
                Rule::WhiteDot { cells, diff: 1 } => write!(s, ".WhiteDot~{}", ids(cells)),
                Rule::WhiteDot { cells, diff } => write!(s, ".Difference~{diff}~{}", ids(cells)),
                Rule::BlackDot { cells, ratio: 2 } => write!(s, ".BlackDot~{}", ids(cells)),
                Rule::BlackDot { cells, ratio } => write!(s, ".Ratio~{ratio}~{}", ids(cells)),
                Rule::Xv { cells, sum: 10 } => write!(s, ".X~{}", ids(cells)),
                Rule::Xv { cells, sum: 5 } => write!(s, ".V~{}", ids(cells)),
                Rule::Xv { cells, sum } => write!(s, ".PairSum~{sum}~{}", ids(cells)),
                Rule::Renban(c) => write!(s, ".Renban~{}", ids(c)),
                Rule::Whisper { cells, diff } => write!(s, ".Whisper~{diff}~{}", ids(cells)),
                Rule::Palindrome(c) => write!(s, ".Palindrome~{}", ids(c)),
                Rule::Between(c) => write!(s, ".Between~{}", ids(c)),
                Rule::Sandwich { line, sum } => match line {
                    Line::Row(r) => write!(s, ".Sandwich~{sum}~R{}", r + 1),
                    Line::Col(c) => write!(s, ".Sandwich~{sum}~C{}", c + 1),
                },
                Rule::Quadruple { cells, digits } => {
                    let values: Vec<String> = digits
                        .iter()
                        .map(|&d| value(usize::from(d)).to_string())
                        .collect();
                    write!(s, ".Quad~{}~{}", id(cells[0]), values.join("~"))
                }
                Rule::Only { cell, digits: 0 } => {
                    // No digit: two givens that cannot both hold.
                    write!(
                        s,
                        ".~{}_{}.~{}_{}",
                        id(*cell),
                        value(1),
                        id(*cell),
                        value(2)
                    )
                }
                Rule::Only { cell, digits } => {
                    let values: Vec<String> = (0..n)
                        .filter(|d| digits >> d & 1 == 1)
                        .map(|d| value(d + 1).to_string())
                        .collect();
                    write!(s, ".~{}_{}", id(*cell), values.join("_"))
                }
                Rule::Negative(Negative::Kropki) => write!(s, ".StrictKropki"),
                Rule::Negative(Negative::Xv) => write!(s, ".StrictXV"),
                Rule::Negative(Negative::Consecutive) => write!(s, ".NonConsecutive"),
                Rule::Negative(Negative::Differences) => write!(s, ".NegativeDifference"),
                Rule::Negative(Negative::Ratios) => write!(s, ".NegativeRatio"),
            };
        }
        let givens: Vec<String> = cells
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .map(|(c, &v)| format!("{}_{}", id(c), value(usize::from(v))))
            .collect();
        if !givens.is_empty() {
            let _ = write!(s, ".~{}", givens.join("~"));
        }
        Some(s)
    }
}
