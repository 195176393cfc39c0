//! CSV and TSV tables of puzzles, read by the line reader with each puzzle's own line and
//! column.
//!
//! The first content line of an input is a header when it is split by `,` or a tab into two or
//! more fields, none of them a puzzle, one with a word (`quizzes,solutions`,
//! `id,puzzle,solution,clues,difficulty`, `source,question,answer,rating`). Each later line is
//! a row; fields may be quoted (`"..."`, `""` for a quote). The puzzle is in the column given
//! ([`Column`]: a header name, or a 1-based index), else in the first column whose header is a
//! puzzle's name (`puzzle`, `quizzes`, `question`, …), else in the first column that holds a
//! puzzle in the first row. With [`TableFormat::Csv`](super::TableFormat::Csv) or
//! [`TableFormat::Tsv`](super::TableFormat::Tsv) (a file's extension) the input is a table even
//! without a header.

use super::bytes::is_ws;
use super::columns::{holds_puzzle, split_fields, Column, Csv, Table, PUZZLE_NAMES};
use super::error::{ParseErrorKind, ReadError};
use super::reader::{Parsed, Reader};
use std::io::BufRead;

impl<R: BufRead> Reader<R> {
    /// Start reading a table whose header (or, without one, first row) is the current line.
    pub(super) fn start_csv(&mut self, sep: u8, header: bool) -> Result<(), ReadError> {
        let mut csv = Csv {
            sep,
            header: Vec::new(),
            column: None,
            tentative: false,
        };
        if header {
            csv.header = split_fields(&self.line, sep)
                .iter()
                .map(|&(s, e)| self.line[s..e].to_vec())
                .collect();
            csv.column = match self.options.column {
                Some(Column::Index(i)) => Some(i - 1),
                Some(Column::Name(name)) => match csv.header.iter().position(|h| name.matches(h)) {
                    Some(i) => Some(i),
                    None => {
                        let names: Vec<String> = csv
                            .header
                            .iter()
                            .map(|h| String::from_utf8_lossy(h).into_owned())
                            .collect();
                        self.table = Some(Table::Csv(csv));
                        self.give_up();
                        let kind = ParseErrorKind::NoSuchColumn {
                            column: name.to_string(),
                            columns: names.join(", "),
                        };
                        return Err(self.error_at(0, kind));
                    }
                },
                None => PUZZLE_NAMES
                    .iter()
                    .find_map(|n| csv.header.iter().position(|h| n.eq_ignore_ascii_case(h))),
            };
        } else {
            csv.column = match self.options.column {
                Some(Column::Index(i)) => Some(i - 1),
                _ => None,
            };
            self.push_back();
        }
        self.table = Some(Table::Csv(csv));
        Ok(())
    }

    /// The next puzzle of a table: `Ok(None)` at the end of the input.
    pub(super) fn table_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        match self.table {
            Some(Table::Csv(_)) => self.csv_record(),
            Some(Table::Json(_)) => self.json_record(),
            None => Ok(None),
        }
    }

    fn csv_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        loop {
            if !self.next_line()? {
                return Ok(None);
            }
            let Some(Table::Csv(csv)) = &mut self.table else {
                return Ok(None);
            };
            let (sep, shape) = (csv.sep, self.options.shape);
            let line = &self.line;
            if line.iter().all(|&b| is_ws(b)) || line.first() == Some(&b'#') {
                continue;
            }
            let short = |line: &[u8]| line.iter().filter(|&&b| !is_ws(b)).count() < 4;
            if std::mem::take(&mut csv.tentative) && !line.contains(&sep) && !short(line) {
                // The first line only looked like a header (a title with a comma, above grids
                // or puzzles): no table, and that line is skipped as titles are. (A shorter
                // row is a table's row short of fields, reported as such.)
                self.table = None;
                self.push_back();
                return self.next_record();
            }
            let fields = split_fields(line, sep);
            let column = match csv.column {
                Some(c) => c,
                None => {
                    let found = fields
                        .iter()
                        .position(|&(s, e)| holds_puzzle(&line[s..e], shape));
                    match found {
                        Some(c) => {
                            csv.column = Some(c);
                            c
                        }
                        None => {
                            let kind = ParseErrorKind::NoPuzzleColumn {
                                fields: fields.len(),
                            };
                            return Err(self.error_at(0, kind));
                        }
                    }
                }
            };
            let Some(&(s, e)) = fields.get(column) else {
                let name = csv
                    .header
                    .get(column)
                    .map(|h| format!(" ({})", String::from_utf8_lossy(h)))
                    .unwrap_or_default();
                let kind = ParseErrorKind::MissingColumn {
                    column: format!("{}{name}", column + 1),
                    fields: fields.len(),
                };
                return Err(self.error_at(self.line.len(), kind));
            };
            return self.read_field(s, e).map(Some);
        }
    }
}
