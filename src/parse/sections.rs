//! What other tools write around their grids, read by the line reader:
//!
//! - **`.sdk` sections** (SadMan Sudoku, SudoCue): a line `[Puzzle]` announces the grid that
//!   follows (read as any grid); other sections (`[State]`, `[PencilMarks]`, `[Colours]`, …)
//!   are skipped: their lines up to the next section, or up to N content lines (N the side of
//!   the last puzzle read, 9 before any).
//! - **HoDoKu library lines** `:type:digits:puzzle:deleted candidates:eliminations:…`: the
//!   third field is the puzzle (N² cells, a `+` before a digit marks a placed cell, read as a
//!   given); the other fields are ignored.
//! - **Ids before the puzzle**: a line whose first field is short (a run of fewer than 16 cell
//!   characters, or other text) and one of whose later fields, separated by blanks, `,`, `;`
//!   or `:`, starts with a run of 16 or more cell characters: that field is the puzzle
//!   (`0001 4...3...`, `puzzle-7;4...3...;1`), read as a one-line puzzle with its errors.

use super::bytes::is_cell_char;
use super::error::{ParseErrorKind, ReadError};
use super::lines::{classify, is_complete_line, section_name, LineClass};
use super::reader::{Parsed, Reader};
use std::io::{self, BufRead};

impl<R: BufRead> Reader<R> {
    /// After a section header other than `[Puzzle]`: skip the section's lines, up to the next
    /// section or a whole one-line puzzle (both kept for the next record), a blank line after
    /// some of them, or `rows` content lines.
    pub(super) fn skip_section(&mut self, rows: usize) -> io::Result<()> {
        let mut left = rows;
        while left > 0 {
            if !self.next_line()? {
                return Ok(());
            }
            match classify(&self.line) {
                LineClass::Content(q) => {
                    let shape = self.options.shape;
                    if section_name(&self.line, q).is_some()
                        || is_complete_line(&self.line, q, shape)
                    {
                        self.push_back();
                        return Ok(());
                    }
                    left -= 1;
                }
                LineClass::Blank if left < rows => return Ok(()),
                _ => {}
            }
        }
        Ok(())
    }

    /// A HoDoKu library line (first non-blank `:` at `p`): the puzzle of its third field.
    pub(super) fn read_hodoku(&mut self, p: usize) -> Result<Parsed, ReadError> {
        // The start of the third field (type, digits, puzzle).
        let mut start = p + 1;
        for _ in 0..2 {
            match self.line[start..].iter().position(|&b| b == b':') {
                Some(i) => start += i + 1,
                None => {
                    let kind = ParseErrorKind::HodokuFields;
                    return Err(self.error_at(self.line.len(), kind));
                }
            }
        }
        let end = self.line[start..]
            .iter()
            .position(|&b| b == b':')
            .map_or(self.line.len(), |i| start + i);
        // `+` marks a placed cell: drop the marks, keeping each cell's own column.
        let mut cells = Vec::with_capacity(end - start);
        let mut at = Vec::with_capacity(end - start);
        for (i, &b) in self.line[start..end].iter().enumerate() {
            if b != b'+'
                || !self
                    .line
                    .get(start + i + 1)
                    .copied()
                    .is_some_and(is_cell_char)
            {
                cells.push(b);
                at.push(start + i);
            }
        }
        self.read_cells(&cells, &at, end)
    }
}
