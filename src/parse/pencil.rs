//! The pencil-mark ("sukaku") form: a puzzle whose cells have restricted candidates, written as
//! one run of N³ characters, N for each cell in row-major order. Place k (0-based) of a cell
//! holds the digit k+1 (in the board's alphabet) when it is a candidate, and `.` or `0` (any
//! empty-cell mark) when it is not: `123456789` is an open cell, `....5....` the given 5,
//! `1.3......` a cell that holds 1 or 3.
//!
//! A cell with one candidate becomes a given, one with some candidates a
//! [`Rule::Only`](crate::rules::Rule::Only), one with all N none; so a puzzle written with
//! givens and open cells only is the classic puzzle.
//!
//! Some runs of N³ characters are also a whole board: 64 = 8², 729 = 27², 4096 = 64². Without
//! a shape the content decides: the run is pencil marks when it has a digit and every
//! character is a digit up to N or an empty mark (a 27×27 puzzle has letters; an empty one
//! has no digit), else it is the board; read as pencil marks, a digit out of its place is an
//! error that names `--box`. A shape (`--box`) decides alone: with N×N's boxes the N³
//! characters are pencil marks, with the board's they are the board.

use super::alphabet::Alphabet;
use super::bytes::{is_cell_char, isqrt};
use super::error::{decode_at, ParseErrorKind, ReadError};
use super::lines::{classify, is_board_len, run_len, LineClass};
use super::reader::{Parsed, Reader};
use crate::puzzle::Puzzle;
use crate::rules::{Rule, Rules};
use crate::shape::{Shape, MAX_SIDE};
use std::io::BufRead;

/// The side N of a pencil-mark run of `len` characters (`len` = N³, N from 4), if any.
pub(super) fn cube_side(len: usize) -> Option<usize> {
    if len < 64 {
        return None;
    }
    let n = (len as f64).cbrt().round() as usize;
    (n * n * n == len && n <= MAX_SIDE).then_some(n)
}

impl<R: BufRead> Reader<R> {
    /// A pencil-mark puzzle, if the current line's run of cells is one (see the module docs).
    pub(super) fn pencil_line(&mut self) -> Option<Result<Parsed, ReadError>> {
        if self.line.len() < 64 {
            return None;
        }
        let LineClass::Content(p) = classify(&self.line) else {
            return None;
        };
        // Cheaply first (every line of a batch that is no whole-line puzzle comes here): a run
        // of N³ cells from `p` ends there.
        let rest = &self.line[p..];
        let ends = |c: usize| rest.get(c).is_none_or(|&b| !is_cell_char(b));
        if !(4..=MAX_SIDE)
            .map(|n| n * n * n)
            .take_while(|&c| c <= rest.len())
            .any(ends)
        {
            return None;
        }
        let len = run_len(&self.line, p);
        let n = cube_side(len)?;
        let shape = match self.options.shape {
            Some(s) if s.side() == n => s,
            Some(_) => return None,
            None => Shape::for_side(n).ok()?,
        };
        let alphabet = self.options.alphabet.unwrap_or_default();
        let table = alphabet.table(n);
        let run = &self.line[p..p + len];
        // Also a whole board (no shape given): pencil marks when it has a digit and all its
        // characters are digits up to N or empty marks; the side of that board for hints.
        let board = is_board_len(len, self.options.shape).then(|| isqrt(len));
        if board.is_some()
            && (run.iter().all(|&b| table[usize::from(b)] == 0)
                || run.iter().any(|&b| usize::from(table[usize::from(b)]) > n))
        {
            return None;
        }
        let mut cells = vec![0u8; n * n];
        let mut rules = Rules::new();
        for (cell, group) in run.chunks_exact(n).enumerate() {
            let mut mask = 0u64;
            for (k, &b) in group.iter().enumerate() {
                match table[usize::from(b)] {
                    0 => {}
                    v if usize::from(v) == k + 1 => mask |= 1 << k,
                    _ => {
                        let at = p + cell * n + k;
                        let kind = ParseErrorKind::PencilMark {
                            found: decode_at(&self.line, at).0,
                            place: k + 1,
                            digit: symbol(alphabet, k + 1),
                            side: n,
                            board,
                        };
                        return Some(Err(self.error_at(at, kind)));
                    }
                }
            }
            match mask.count_ones() as usize {
                0 => {
                    let kind = ParseErrorKind::NoCandidate {
                        cell: shape.cell_name(cell),
                        board,
                    };
                    return Some(Err(self.error_at(p + cell * n, kind)));
                }
                1 => cells[cell] = mask.trailing_zeros() as u8 + 1,
                c if c == n => {}
                _ => rules.push(Rule::Only { cell, digits: mask }),
            }
        }
        let puzzle = match Puzzle::new(shape, cells) {
            Ok(puzzle) => puzzle.with_checked_rules(rules),
            Err(e) => return Some(Err(self.error_at(p, e.into()))),
        };
        Some(Ok(Parsed {
            line: self.line_no,
            puzzle,
            alphabet,
        }))
    }
}

/// The character of digit `v` in `alphabet` (`?` where it has none).
fn symbol(alphabet: Alphabet, v: usize) -> char {
    u8::try_from(v)
        .ok()
        .and_then(|v| alphabet.symbol(v))
        .unwrap_or('?')
}
