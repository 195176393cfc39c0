//! Variant puzzles in the line reader: ISS constraint strings and killer layouts (`iss`),
//! f-puzzles and SudokuPad `fpuzzles` links, one a line, and f-puzzles JSON objects, on one
//! line or many (`fpuzzles`).

use super::alphabet::Alphabet;
use super::error::{char_column, ParseError, ParseErrorKind, ReadError};
use super::fpuzzles;
use super::iss;
use super::reader::{Parsed, Reader};
use crate::puzzle::Puzzle;
use std::io::BufRead;

/// The most bytes an f-puzzles JSON object may span.
const MAX_OBJECT: usize = 64 << 20;

/// Does a line that starts (after blanks) with `text` open an f-puzzles JSON object? An
/// object with a `"size"` or `"grid"` member on its first line, or a `{` alone on it (a
/// table's JSON Lines never break an object).
fn opens_fpuzzles(text: &[u8]) -> bool {
    let contains = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
    text.first() == Some(&b'{') && (text == b"{" || contains(b"\"size\"") || contains(b"\"grid\""))
}

/// The depth of JSON nesting after `text`, from `depth`, strings and escapes skipped
/// (`in_string`, `escaped` carry across lines).
fn json_depth(text: &[u8], depth: &mut usize, in_string: &mut bool, escaped: &mut bool) {
    for &b in text {
        if *in_string {
            match (b, *escaped) {
                (_, true) => *escaped = false,
                (b'\\', false) => *escaped = true,
                (b'"', false) => *in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => *in_string = true,
                b'{' | b'[' => *depth += 1,
                b'}' | b']' => *depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
}

impl<R: BufRead> Reader<R> {
    fn trimmed(&self) -> Option<(usize, usize)> {
        let p = self.line.iter().position(|&b| !b.is_ascii_whitespace())?;
        let end = self.line.iter().rposition(|&b| !b.is_ascii_whitespace())? + 1;
        Some((p, end))
    }

    fn parsed(&self, line: usize, puzzle: Puzzle) -> Parsed {
        // Values from 0 are written in the alphabet whose first digit is `0`.
        let zero_based = puzzle.rules().is_some_and(crate::rules::Rules::zero_based);
        let alphabet = match self.options.alphabet {
            Some(a) => a,
            None if zero_based => Alphabet::Hex,
            None => Alphabet::default(),
        };
        Parsed {
            line,
            puzzle,
            alphabet,
        }
    }

    /// A variant puzzle on one line (an ISS constraint string, an ISS killer layout, an
    /// f-puzzles or SudokuPad link), if this line is one.
    pub(super) fn variant_line(&mut self) -> Option<Result<Parsed, ReadError>> {
        let (p, mut end) = self.trimmed()?;
        let text = &self.line[p..end];
        // Tags after a constraint string (`part=1/4 of=ID`, as `split` writes) are skipped.
        if let Some(blank) = text.iter().position(u8::is_ascii_whitespace) {
            let tags = text[blank..]
                .split(u8::is_ascii_whitespace)
                .all(|w| w.is_empty() || w.contains(&b'='));
            if tags && text[0] == b'.' {
                end = p + blank;
            }
        }
        self.variant_text(p, end)
    }

    /// A variant puzzle in `line[p..end]` (a whole line, or a field of a table: a constraint
    /// string, a killer layout or a link), if that text is one.
    pub(super) fn variant_text(
        &mut self,
        p: usize,
        end: usize,
    ) -> Option<Result<Parsed, ReadError>> {
        let text = &self.line[p..end];
        // Digits and empty cells alone are no variant (every form below needs a letter, a
        // `~` or an arrow): a table of classic puzzles checks nothing more per row.
        if text
            .iter()
            .all(|&b| b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'*'))
        {
            return None;
        }
        let result = if iss::is_constraint_string(text) {
            let text = String::from_utf8_lossy(text);
            iss::parse_constraints(&text, self.options.shape)
        } else if iss::is_short_killer(text) {
            iss::parse_short_killer(text)
        } else if iss::is_long_killer(text) {
            iss::parse_long_killer(&String::from_utf8_lossy(text))
        } else {
            let text = String::from_utf8_lossy(text);
            match fpuzzles::link_payload(&text)? {
                Ok(payload) => fpuzzles::from_link_payload(&payload).map_err(|m| (0, m)),
                Err(m) => Err((0, m)),
            }
        };
        let result = result.and_then(|puzzle| match self.options.shape {
            Some(s)
                if s != puzzle.shape() && puzzle.rules().is_some_and(|r| r.regions().is_none()) =>
            {
                Err((
                    0,
                    format!(
                        "the puzzle's grid is {}, but --box gives {s}",
                        puzzle.shape()
                    ),
                ))
            }
            _ => Ok(puzzle),
        });
        Some(match result {
            Ok(puzzle) => Ok(self.parsed(self.line_no, puzzle)),
            Err((at, message)) => Err(self.error_at(p + at, ParseErrorKind::Variant(message))),
        })
    }

    /// An f-puzzles JSON object starting on this line, if it opens one: read through the line
    /// that closes it.
    pub(super) fn fpuzzles_object(&mut self) -> Option<Result<Parsed, ReadError>> {
        let (p, end) = self.trimmed()?;
        if !opens_fpuzzles(&self.line[p..end]) {
            return None;
        }
        let first = self.line_no;
        let mut text: Vec<u8> = Vec::new();
        let (mut depth, mut in_string, mut escaped) = (0, false, false);
        loop {
            json_depth(&self.line, &mut depth, &mut in_string, &mut escaped);
            text.extend_from_slice(&self.line);
            text.push(b'\n');
            if depth == 0 {
                break;
            }
            let more = match self.next_line() {
                Ok(more) => more,
                Err(e) => return Some(Err(ReadError::Io(e))),
            };
            if !more || text.len() > MAX_OBJECT {
                let why = if more {
                    format!(
                        "an f-puzzles JSON object longer than {} MiB",
                        MAX_OBJECT >> 20
                    )
                } else {
                    "the f-puzzles JSON object is not closed before the end of the input".into()
                };
                return Some(Err(ReadError::Parse(ParseError {
                    line: first,
                    column: p + 1,
                    kind: ParseErrorKind::Variant(why),
                })));
            }
        }
        let text = String::from_utf8_lossy(&text);
        Some(match fpuzzles::from_json_located(&text) {
            Ok(puzzle) => Ok(self.parsed(first, puzzle)),
            Err((at, m)) => {
                // The line and column of what the error is about, where it is known: the
                // object's text is its lines joined by newlines.
                let (line, column) = match at {
                    Some(at) => {
                        let before = &text.as_bytes()[..at.min(text.len())];
                        let start = before
                            .iter()
                            .rposition(|&b| b == b'\n')
                            .map_or(0, |i| i + 1);
                        let lines = before[..start].iter().filter(|&&b| b == b'\n').count();
                        (
                            first + lines,
                            char_column(&before[start..], before.len() - start),
                        )
                    }
                    None => (first, p + 1),
                };
                Err(ReadError::Parse(ParseError {
                    line,
                    column,
                    kind: ParseErrorKind::Variant(format!("f-puzzles JSON: {m}")),
                }))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_told_from_json_lines() {
        assert!(opens_fpuzzles(b"{"));
        assert!(opens_fpuzzles(b"{\"size\":9,\"grid\":[]}"));
        assert!(!opens_fpuzzles(b"{\"puzzle\":\"1....\"}"));
        let (mut d, mut s, mut e) = (0, false, false);
        json_depth(b"{\"a\":\"}{\\\"\",\"b\":[", &mut d, &mut s, &mut e);
        assert_eq!((d, s), (2, false));
    }
}
