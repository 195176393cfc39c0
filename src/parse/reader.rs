//! The streaming reader: a state machine over records (one-line puzzles and grids), with
//! error recovery, over any [`BufRead`]; and [`parse_one`].

use super::alphabet::{detect, Alphabet};
use super::bytes::{find_first, is_soft_end, small_value, BOM};
use super::bytes::{is_cell_char, is_ws, trim_end};
use super::columns::{
    header_sep, is_puzzle_name, split_fields, starts_json, Column, Table, TableFormat,
};
use super::error::{
    alphabet_error, ambiguous_zero, char_column, unexpected, Expected, GridEnd, LineKind,
    ParseError, ParseErrorKind, ReadError,
};
use super::grid::{
    detect_mode, infer_shape, nearest_board, tokenize, Entries, Grid, Raw, Skip, Tok, TokError,
};
use super::lines::{
    classify, is_board_len, is_complete_line, is_row_len, later_puzzle, later_run, section_name,
    start_kind, LineClass, Start,
};
use super::utf16::{fill, Input};
use crate::puzzle::Puzzle;
use crate::shape::Shape;
use std::io::{self, BufRead};

/// Default for [`ParseOptions::max_line_len`]: 1 MiB.
pub const DEFAULT_MAX_LINE_LEN: usize = 1 << 20;

/// How to read puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// The board shape (`--box`); `None` infers it from each record.
    pub shape: Option<Shape>,
    /// The longest line accepted, in bytes; longer lines are reported and skipped without being
    /// held in memory (in JSON inputs, they are read in pieces of at most this length, cut
    /// between records). Defaults to [`DEFAULT_MAX_LINE_LEN`].
    pub max_line_len: usize,
    /// The characters that stand for digits (`--alphabet`); `None` recognises them on boards
    /// above 9×9 (see [`Alphabet`]).
    pub alphabet: Option<Alphabet>,
    /// The column of a table (CSV, TSV, JSON) that holds the puzzles (`--column`); `None`
    /// picks it (see the `table` rules in the [module docs](crate::parse)).
    pub column: Option<Column>,
    /// What the input is known to be (a file's extension); `None` tells by content.
    pub table: Option<TableFormat>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            shape: None,
            max_line_len: DEFAULT_MAX_LINE_LEN,
            alphabet: None,
            column: None,
            table: None,
        }
    }
}

/// One parsed puzzle with the 1-based line number where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The puzzle's first line: its only line, its first row, or the header of a boxed grid.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The alphabet it was written in: the one given, else the one recognised (numbers for a
    /// grid of numbers above 9×9); answers are written in it.
    pub alphabet: Alphabet,
}

/// Streaming multi-puzzle reader over any [`BufRead`], in constant memory: it never holds more
/// than one record and one line, and reads through lines longer than
/// [`ParseOptions::max_line_len`] without buffering them.
///
/// Yields each puzzle in input order, or a [`ReadError`] for a bad record, after which it goes
/// on with the next record (see the [module docs](crate::parse) for the layouts and recovery rules).
#[derive(Debug)]
pub struct Reader<R: BufRead> {
    input: Input<R>,
    pub(super) options: ParseOptions,
    /// The current line, without its line end (at most `max_line_len` bytes).
    pub(super) line: Vec<u8>,
    /// 1-based number of the current line.
    pub(super) line_no: usize,
    /// The current line was longer than the limit (and was cut).
    pub(super) too_long: bool,
    /// The rest of the current line, beyond the limit, is still in the input (the next read
    /// drops it, unless a JSON input reads on in pieces: see [`Reader::split_long_line`]).
    unread: bool,
    /// The next read goes on with the current line: `rest`, then what is left in the input.
    goes_on: bool,
    /// The bytes of the current line after the piece in `line`, where it was split.
    rest: Vec<u8>,
    /// The characters of the current line before the piece in `line` (columns count from
    /// the start of the line).
    column_base: usize,
    /// The current line is to be read again by the next record.
    pushed_back: bool,
    /// The last line ended with CR: a following LF belongs to it.
    skip_lf: bool,
    done: bool,
    skip: Option<Skip>,
    toks: Vec<Tok>,
    /// Cache of the last inferred one-line shape.
    last_inferred: Option<(usize, Shape)>,
    /// The side of the last grid read: the rows of a `.sdk` section after it.
    last_side: usize,
    /// A table being read (CSV, TSV, JSON), once the first content line said so.
    pub(super) table: Option<Table>,
    /// The first content line was looked at for a table.
    table_checked: bool,
    /// A record or an error was handed out.
    yielded: bool,
    /// The first title line skipped: its number, column and text (for
    /// [`ParseErrorKind::OnlyTitles`]).
    first_title: Option<(usize, usize, String)>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` with these options.
    pub fn new(input: R, options: ParseOptions) -> Self {
        Reader {
            input: Input::new(input),
            options,
            line: Vec::new(),
            line_no: 0,
            too_long: false,
            unread: false,
            goes_on: false,
            rest: Vec::new(),
            column_base: 0,
            pushed_back: false,
            skip_lf: false,
            done: false,
            skip: None,
            toks: Vec::new(),
            last_inferred: None,
            last_side: 9,
            table: None,
            table_checked: false,
            yielded: false,
            first_title: None,
        }
    }

    /// Read the next line into `self.line` (or the next piece of a line split, see
    /// [`Reader::split_long_line`]); false at the end of the input.
    fn read_line(&mut self) -> io::Result<bool> {
        if self.pushed_back {
            self.pushed_back = false;
            return Ok(true);
        }
        let goes_on = std::mem::take(&mut self.goes_on);
        if goes_on {
            self.column_base += char_column(&self.line, self.line.len()) - 1;
            self.line.clear();
            self.line.append(&mut self.rest);
        } else {
            if self.unread {
                self.read_through()?;
            }
            self.line.clear();
            self.column_base = 0;
        }
        self.unread = false;
        self.too_long = false;
        let limit = self.options.max_line_len;
        let mut got_any = goes_on;
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if buf[0] == b'\n' {
                    self.input.consume(1);
                    continue;
                }
            }
            got_any = true;
            let chunk = find_first(buf, |b| (b == b'\n') | (b == b'\r'));
            let room = limit.saturating_sub(self.line.len());
            if chunk > room {
                // Too long: what fits is kept, the rest left in the input.
                self.line.extend_from_slice(&buf[..room]);
                self.input.consume(room);
                self.too_long = true;
                self.unread = true;
                break;
            }
            self.line.extend_from_slice(&buf[..chunk]);
            if chunk < buf.len() {
                self.skip_lf = buf[chunk] == b'\r';
                self.input.consume(chunk + 1);
                break;
            }
            self.input.consume(chunk);
        }
        if !got_any {
            return Ok(false);
        }
        if !goes_on {
            self.line_no += 1;
            // A byte-order mark starts a file, or a line where files were joined (`cat a b`).
            if self.line.starts_with(BOM) {
                self.line.drain(..BOM.len());
            }
        }
        // In a JSON input, a line over the limit is read on in pieces.
        self.split_long_line();
        Ok(true)
    }

    /// Drop the rest of a line too long, still in the input.
    fn read_through(&mut self) -> io::Result<()> {
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(());
            }
            let chunk = find_first(buf, |b| (b == b'\n') | (b == b'\r'));
            if chunk < buf.len() {
                self.skip_lf = buf[chunk] == b'\r';
                self.input.consume(chunk + 1);
                return Ok(());
            }
            self.input.consume(chunk);
        }
    }

    /// A JSON input's line longer than the limit (a whole array written on one line) is read
    /// in pieces, in constant memory as every other line: it is cut after its last blank or
    /// structural character outside every string and object, so that no record is cut (the
    /// choice of a record's puzzle member may look at all its members), and the next read
    /// goes on from there (same line, columns counted on). A line with no such place (one
    /// record over the limit) stays too long.
    pub(super) fn split_long_line(&mut self) {
        if !self.too_long {
            return;
        }
        // A piece starts outside a string, and outside every object: the line's start, or a
        // cut. The containers opened within the piece (`true` for an object).
        let Some(Table::Json(json)) = &self.table else {
            return;
        };
        if json.stack.contains(&true) {
            return;
        }
        let (mut in_string, mut escaped, mut cut) = (false, false, 0);
        let (mut open, mut objects) = (Vec::new(), 0usize);
        for (i, &b) in self.line.iter().enumerate() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    open.push(b == b'{');
                    objects += usize::from(b == b'{');
                }
                // (Closing a container opened before the piece: an array.)
                b'}' | b']' if open.pop() == Some(true) => objects -= 1,
                _ => {}
            }
            if objects == 0 && (matches!(b, b',' | b'[' | b']' | b'}') || is_ws(b)) {
                cut = i + 1;
            }
        }
        if cut == 0 {
            return;
        }
        self.rest.clear();
        self.rest.extend_from_slice(&self.line[cut..]);
        self.line.truncate(cut);
        self.too_long = false;
        self.goes_on = true;
    }

    /// The next line (see [`Reader::read_line`]); a line over the limit is cut there and
    /// reported by whoever reads it whole (`sections` only skips lines).
    pub(super) fn next_line(&mut self) -> io::Result<bool> {
        self.read_line()
    }

    /// Read the current line again as the next record's.
    pub(super) fn push_back(&mut self) {
        self.pushed_back = true;
    }

    /// The next [`Reader::next_line`] gives the current line again.
    pub(super) fn resumes(&self) -> bool {
        self.pushed_back
    }

    /// Read nothing more of this input (a table that cannot be read further).
    pub(super) fn give_up(&mut self) {
        self.done = true;
    }

    /// The first content line (first non-blank at `p`): does a table start here? Then its
    /// first record (or the end).
    fn table_start(&mut self, p: usize) -> Result<Option<Option<Parsed>>, ReadError> {
        self.table_checked = true;
        let shape = self.options.shape;
        let sep_in_line = if self.line.contains(&b'\t') {
            b'\t'
        } else {
            b','
        };
        match self.options.table {
            Some(TableFormat::Json) => self.start_json(),
            Some(format) => {
                let sep = if format == TableFormat::Tsv {
                    b'\t'
                } else {
                    b','
                };
                // A header of one column is the name of a puzzle column (`puzzle`, `quizzes`).
                let one_name = match split_fields(&self.line, sep)[..] {
                    [(s, e)] => is_puzzle_name(&self.line[s..e]),
                    _ => false,
                };
                let header = header_sep(&self.line, shape).is_some()
                    || one_name
                    || matches!(self.options.column, Some(Column::Name(_)));
                self.start_csv(sep, header)?;
            }
            None => {
                let first = self.line[p];
                let json =
                    first == b'{' || (first == b'[' && section_name(&self.line, p).is_none());
                if json && starts_json(&self.line, p) {
                    self.start_json();
                } else if let Some(sep) = header_sep(&self.line, shape) {
                    // A header by its look alone, written as prose (`Sudoku, hard`) or naming no
                    // puzzle column: a first row without the separator may make it a title
                    // instead (see `csv_record`). (`solution,puzzle` stays a header.)
                    let prose = self.line.windows(2).any(|w| w == b", ");
                    self.start_csv(sep, true)?;
                    if let Some(Table::Csv(csv)) = &mut self.table {
                        csv.tentative = prose || csv.column.is_none();
                    }
                } else if self.options.column.is_some() && self.line.contains(&sep_in_line) {
                    self.start_csv(sep_in_line, false)?;
                } else {
                    return Ok(None);
                }
            }
        }
        self.table_record().map(Some)
    }

    /// [`Reader::error`] for the other record readers (`sections`).
    pub(super) fn error_at(&self, pos: usize, kind: ParseErrorKind) -> ReadError {
        self.error(pos, kind)
    }

    /// The puzzle in a table's field `line[s..e]` (CSV, TSV, JSON): a variant's constraint
    /// string or link, else a grid of that field's cells.
    pub(super) fn read_field(&mut self, s: usize, e: usize) -> Result<Parsed, ReadError> {
        if let Some(variant) = self.variant_text(s, e) {
            return variant;
        }
        if self.line[s..e].contains(&b' ') {
            return self.read_numbers_field(s, e);
        }
        let run: Vec<u8> = self.line[s..e].to_vec();
        let at: Vec<usize> = (s..e).collect();
        self.read_cells(&run, &at, e)
    }

    /// A table's field of blank-separated numbers, one a cell (`0` or `.` empty), as
    /// `--output-alphabet numbers` writes a board on one line.
    fn read_numbers_field(&mut self, s: usize, e: usize) -> Result<Parsed, ReadError> {
        let given = self.options.shape;
        let mut toks = Vec::new();
        let first = s + self.line[s..e].iter().take_while(|&&b| is_ws(b)).count();
        if first == e {
            // Only blanks: read as the empty field is (no cells, no board size).
            return self.read_cells(&[], &[], e);
        }
        tokenize(
            &self.line[..e],
            first,
            Entries::Numbers,
            given.map(Shape::side),
            false,
            &mut toks,
        )
        .map_err(|err| match err {
            TokError::Bad(pos, kind) => self.error(pos, kind),
            TokError::CharRun(pos) => {
                self.error(pos, unexpected(&self.line, pos, Expected::Number(None)))
            }
        })?;
        let shape = self.board_of(toks.len(), e)?;
        let n = shape.side();
        let mut cells = Vec::with_capacity(toks.len());
        for t in &toks {
            let value = match t.raw {
                Raw::Num(v) if usize::from(v) <= n => Some(v as u8),
                Raw::Sym(b'.') => Some(0),
                Raw::Num(v) => {
                    let kind = ParseErrorKind::NumberOutOfRange {
                        value: i32::from(v),
                        side: n,
                    };
                    return Err(self.error(t.pos, kind));
                }
                _ => None,
            };
            let value = value.ok_or_else(|| {
                self.error(
                    t.pos,
                    unexpected(&self.line, t.pos, Expected::Number(Some(n))),
                )
            })?;
            cells.push(value);
        }
        let puzzle = Puzzle::new(shape, cells).map_err(|err| self.error(s, err.into()))?;
        Ok(Parsed {
            line: self.line_no,
            puzzle,
            alphabet: Alphabet::Numbers,
        })
    }

    /// A one-line puzzle whose cells are not one run of the line (`+` marks dropped, as in
    /// HoDoKu's lines): `run[i]` is the byte at `at[i]`; `end` is where the field ends.
    pub(super) fn read_cells(
        &mut self,
        run: &[u8],
        at: &[usize],
        end: usize,
    ) -> Result<Parsed, ReadError> {
        let given = self.options.shape;
        if let Some(i) = run.iter().position(|&b| !is_cell_char(b)) {
            let expected = Expected::Cell(given.map(Shape::side));
            return Err(self.error(at[i], unexpected(&self.line, at[i], expected)));
        }
        let shape = self.board_of(run.len(), end)?;
        let n = shape.side();
        let alphabet = match self.options.alphabet {
            Some(a) => a,
            None => detect(run, n).map_err(|i| self.error(at[i], ambiguous_zero(n)))?,
        };
        let table = alphabet.table(n);
        let cells: Vec<u8> = run.iter().map(|&b| table[usize::from(b)]).collect();
        if let Some(i) = cells.iter().position(|&v| usize::from(v) > n) {
            let kind = alphabet_error(
                &self.line,
                at[i],
                run[i],
                n,
                alphabet,
                Expected::Cell(Some(n)),
            );
            return Err(self.error(at[i], kind));
        }
        let puzzle = Puzzle::new(shape, cells).map_err(|e| self.error(at[0], e.into()))?;
        Ok(Parsed {
            line: self.line_no,
            puzzle,
            alphabet,
        })
    }

    /// The shape of a one-line board of `len` cells (the one given, or inferred), or the error
    /// at byte `end` of a length that is no board.
    fn board_of(&mut self, len: usize, end: usize) -> Result<Shape, ReadError> {
        let given = self.options.shape;
        if !is_board_len(len, given) {
            let kind = match given {
                Some(shape) => ParseErrorKind::WrongCellCount { got: len, shape },
                None => ParseErrorKind::NotABoardSize {
                    got: len,
                    nearest: nearest_board(len),
                },
            };
            return Err(self.error(end, kind));
        }
        self.line_shape(len).map_err(|k| self.error(end, k))
    }

    /// An error at byte `pos` of the current line.
    fn error(&self, pos: usize, kind: ParseErrorKind) -> ReadError {
        ReadError::Parse(ParseError {
            line: self.line_no,
            column: self.column(pos),
            kind,
        })
    }

    /// The column of byte `pos` of the current line (or piece of one).
    pub(super) fn column(&self, pos: usize) -> usize {
        self.column_base + char_column(&self.line, pos)
    }

    pub(super) fn too_long_error(&self) -> ReadError {
        let limit = self.options.max_line_len;
        self.error(self.line.len(), ParseErrorKind::LineTooLong { limit })
    }

    pub(super) fn next_record(&mut self) -> Result<Option<Parsed>, ReadError> {
        if let Some(skip) = self.skip.take() {
            self.skip_rows(skip)?;
        }
        if self.table.is_some() {
            return self.table_record();
        }
        loop {
            if !self.read_line()? {
                return Ok(None);
            }
            if self.too_long {
                // The first line may be a JSON array written on one line, read in pieces; any
                // other line over the limit is skipped.
                let json = self.options.table.is_none_or(|t| t == TableFormat::Json);
                if let (false, true, LineClass::Content(p)) =
                    (self.table_checked, json, classify(&self.line))
                {
                    if self.line[p] == b'[' && starts_json(&self.line, p) {
                        self.table_checked = true;
                        self.start_json();
                        return self.table_record();
                    }
                }
                return Err(self.too_long_error());
            }
            if let Some(result) = self.fpuzzles_object() {
                return result.map(Some);
            }
            if !self.table_checked {
                if let LineClass::Content(p) = classify(&self.line) {
                    if let Some(record) = self.table_start(p)? {
                        return Ok(record);
                    }
                }
            }
            if let Some(parsed) = self.whole_line_puzzle() {
                return Ok(Some(parsed));
            }
            if let Some(result) = self.pencil_line() {
                return result.map(Some);
            }
            if let Some(result) = self.variant_line() {
                return result.map(Some);
            }
            if let LineClass::Content(p) = classify(&self.line) {
                // What other tools write around grids (`sections`): `.sdk` sections, HoDoKu
                // lines, ids before a one-line puzzle.
                match self.line[p] {
                    b'[' => match section_name(&self.line, p) {
                        Some(name) if name.eq_ignore_ascii_case(b"puzzle") => continue,
                        Some(_) => {
                            self.skip_section(self.last_side)?;
                            continue;
                        }
                        None => {}
                    },
                    b':' => return self.read_hodoku(p).map(Some),
                    _ => {}
                }
                let start = start_kind(&self.line, p, self.options.shape);
                if !matches!(start, Start::OneLine(_)) {
                    if let Some((q, len)) = later_puzzle(&self.line, p) {
                        return match start_kind(&self.line, q, self.options.shape) {
                            Start::OneLine(len) => self.read_one_line(q, len).map(Some),
                            _ => Err(self.bad_one_line(q, len)),
                        };
                    }
                }
                if let Start::OneLine(len) = start {
                    // A board-sized id (16 digits) before a bigger board: the bigger one is
                    // the puzzle (a solution or count after a puzzle is never bigger).
                    if let Some((q, _)) = later_run(&self.line, p, len + 1) {
                        if let Start::OneLine(later) = start_kind(&self.line, q, self.options.shape)
                        {
                            return self.read_one_line(q, later).map(Some);
                        }
                    }
                }
                match start {
                    Start::OneLine(len) => return self.read_one_line(p, len).map(Some),
                    Start::Grid => return self.read_grid_record(p).map(Some),
                    Start::Title => {
                        if self.first_title.is_none() {
                            let text = String::from_utf8_lossy(&self.line[p..trim_end(&self.line)]);
                            let text: String = text.chars().take(40).collect();
                            self.first_title = Some((self.line_no, self.column(p), text));
                        }
                    }
                    Start::Bad(len) => return Err(self.bad_one_line(p, len)),
                }
            }
        }
    }

    fn read_grid_record(&mut self, p: usize) -> Result<Parsed, ReadError> {
        let mut toks = std::mem::take(&mut self.toks);
        let result = self.read_grid(p, &mut toks);
        self.toks = toks;
        if let Ok(parsed) = &result {
            self.last_side = parsed.puzzle.shape().side();
        }
        result
    }

    /// The shape of a one-line puzzle of `len` cells.
    fn line_shape(&mut self, len: usize) -> Result<Shape, ParseErrorKind> {
        if let Some(s) = self.options.shape {
            return Ok(s);
        }
        match self.last_inferred {
            Some((l, s)) if l == len => Ok(s),
            _ => {
                let s = Shape::for_cell_count(len)?;
                self.last_inferred = Some((len, s));
                Ok(s)
            }
        }
    }

    /// The usual line of a batch in one pass: the whole line is one puzzle of side at most 9
    /// (N² characters, each a digit up to N or an empty-cell mark, nothing before or after).
    /// The general path reads such a line the same way, after classifying it and measuring its
    /// run; any other line gives `None` and takes that path, so every message stays as it is.
    fn whole_line_puzzle(&mut self) -> Option<Parsed> {
        let len = self.line.len();
        let shape = match self.options.shape {
            Some(s) if s.cells() == len => s,
            // 64 cells may be 4×4 pencil marks (`pencil`).
            None if len >= 16 && len != 64 => self.line_shape(len).ok()?,
            _ => return None,
        };
        let n = shape.side();
        if n > 9
            || matches!(
                self.options.alphabet,
                Some(Alphabet::Hex | Alphabet::Letters)
            )
        {
            return None;
        }
        let cells: Vec<u8> = self.line.iter().map(|&b| small_value(b)).collect();
        // NO_VALUE and letters are above 9, so the largest value also flags other characters.
        if usize::from(cells.iter().fold(0, |m, &v| m.max(v))) > n {
            return None;
        }
        Some(Parsed {
            line: self.line_no,
            puzzle: Puzzle::from_checked(shape, cells),
            alphabet: self.options.alphabet.unwrap_or_default(),
        })
    }

    /// A one-line puzzle: the `len` cells from `p` (the hot path: one allocation per puzzle).
    fn read_one_line(&mut self, p: usize, len: usize) -> Result<Parsed, ReadError> {
        let shape = self.line_shape(len).map_err(|k| self.error(p + len, k))?;
        let n = shape.side();
        let run = &self.line[p..p + len];
        let alphabet = match self.options.alphabet {
            Some(a) => a,
            None => detect(run, n).map_err(|i| self.error(p + i, ambiguous_zero(n)))?,
        };
        let cells: Vec<u8> = if n <= 9 && matches!(alphabet, Alphabet::Standard | Alphabet::Numbers)
        {
            run.iter().map(|&b| small_value(b)).collect()
        } else {
            let table = alphabet.table(n);
            run.iter().map(|&b| table[usize::from(b)]).collect()
        };
        // NO_VALUE is above every side, so the largest value also flags bad characters.
        if usize::from(cells.iter().fold(0, |m, &v| m.max(v))) > n {
            let i = cells.iter().position(|&v| usize::from(v) > n).unwrap_or(0);
            let kind = alphabet_error(
                &self.line,
                p + i,
                run[i],
                n,
                alphabet,
                Expected::Cell(Some(n)),
            );
            return Err(self.error(p + i, kind));
        }
        let puzzle = Puzzle::new(shape, cells).map_err(|e| self.error(p, e.into()))?;
        Ok(Parsed {
            line: self.line_no,
            puzzle,
            alphabet,
        })
    }

    /// The error for a line that is neither a board nor a grid row: a bad character where the
    /// run stopped, else a wrong cell count.
    fn bad_one_line(&self, p: usize, len: usize) -> ReadError {
        let after = p + len;
        let shape = self.options.shape;
        let kind = match self.line.get(after) {
            Some(&b) if len == 0 || !is_soft_end(b) => {
                unexpected(&self.line, after, Expected::Cell(shape.map(Shape::side)))
            }
            _ => match shape {
                Some(shape) => ParseErrorKind::WrongCellCount { got: len, shape },
                None => ParseErrorKind::NotABoardSize {
                    got: len,
                    nearest: nearest_board(len),
                },
            },
        };
        self.error(after, kind)
    }

    /// A multi-line grid whose first line (first non-blank at `p`) is the current line.
    fn read_grid(&mut self, p: usize, toks: &mut Vec<Tok>) -> Result<Parsed, ReadError> {
        let given = self.options.shape;
        let mode = detect_mode(&self.line, p);
        let hex = self.options.alphabet == Some(Alphabet::Hex);
        let end = tokenize(&self.line, p, mode, given.map(Shape::side), hex, toks)
            .map_err(|e| self.first_row_error(e))?;
        let shape = infer_shape(toks.len(), given).map_err(|k| self.error(end, k))?;
        let mut grid = Grid {
            mode,
            shape,
            rows: 0,
            cells: Vec::with_capacity(shape.cells()),
            start_line: self.line_no,
            double_spaced: false,
            last_row: (0, 0),
            alphabet: self.options.alphabet,
            pending: Vec::new(),
            header_like: false,
            hex_signs: false,
            numbers: false,
            two_digits: false,
        };
        self.add_row(&mut grid, toks, end)?;
        while grid.rows < grid.side() {
            if !self.read_line()? {
                let (line, column) = grid.last_row;
                let kind = ParseErrorKind::GridEndedEarly {
                    rows: grid.rows,
                    side: grid.side(),
                    end: GridEnd::EndOfInput,
                };
                return Err(ParseError { line, column, kind }.into());
            }
            if self.too_long {
                self.skip_rest(&grid);
                return Err(self.too_long_error());
            }
            match classify(&self.line) {
                // A blank line right after the first row makes the grid double-spaced.
                LineClass::Blank if grid.double_spaced || grid.rows <= 1 => {
                    grid.double_spaced = true;
                }
                LineClass::Blank => {
                    let kind = ParseErrorKind::GridEndedEarly {
                        rows: grid.rows,
                        side: grid.side(),
                        end: GridEnd::BlankLine,
                    };
                    return Err(self.error(0, kind));
                }
                LineClass::Comment => {}
                LineClass::Frame(q) => {
                    if grid.is_header(self.line[q]) {
                        grid.drop_header();
                    } else if self.line[q] == b'*' && grid.rows > 0 && grid.rows < grid.side() {
                        // A `.ss` grid's bottom frame before its last row: the grid is short
                        // (the next grid's first row is not its last).
                        let kind = ParseErrorKind::GridEndedEarly {
                            rows: grid.rows,
                            side: grid.side(),
                            end: GridEnd::ClosingFrame,
                        };
                        return Err(self.error(q, kind));
                    }
                }
                // A section header (`[State]` after a short `[Puzzle]` grid) ends the grid
                // and is read again as the next record (which skips the section).
                LineClass::Content(q) if section_name(&self.line, q).is_some() => {
                    self.pushed_back = true;
                    let kind = ParseErrorKind::GridEndedEarly {
                        rows: grid.rows,
                        side: grid.side(),
                        end: GridEnd::Section,
                    };
                    return Err(self.error(q, kind));
                }
                LineClass::Content(q) => self.grid_line(&mut grid, q, toks)?,
            }
        }
        let start_line = grid.start_line;
        let alphabet = grid.resolve()?;
        let puzzle = Puzzle::new(shape, grid.cells).map_err(|e| ParseError {
            line: start_line,
            column: 1,
            kind: e.into(),
        })?;
        Ok(Parsed {
            line: start_line,
            puzzle,
            alphabet,
        })
    }

    /// One more content line of a grid.
    fn grid_line(
        &mut self,
        grid: &mut Grid,
        q: usize,
        toks: &mut Vec<Tok>,
    ) -> Result<(), ReadError> {
        if is_complete_line(&self.line, q, self.options.shape) {
            // Not a row: report the grid, and read this line again as the next record.
            self.pushed_back = true;
            return Err(self.error(q, self.mixed(grid, LineKind::OneLine)));
        }
        let hex = grid.alphabet == Some(Alphabet::Hex);
        match tokenize(&self.line, q, grid.mode, Some(grid.side()), hex, toks) {
            Ok(end) => self.add_row(grid, toks, end),
            Err(e) => {
                let err = match e {
                    TokError::Bad(pos, kind) => self.error(pos, kind),
                    TokError::CharRun(pos) => self.error(pos, self.mixed(grid, LineKind::CharRow)),
                };
                self.skip_rest(grid);
                Err(err)
            }
        }
    }

    fn mixed(&self, grid: &Grid, found: LineKind) -> ParseErrorKind {
        ParseErrorKind::MixedFormats {
            found,
            row: grid.rows + 1,
            side: grid.side(),
            start_line: grid.start_line,
        }
    }

    /// Add the current line's entries to the grid; on error, arrange to skip the rest of it.
    fn add_row(&mut self, grid: &mut Grid, toks: &[Tok], end: usize) -> Result<(), ReadError> {
        match grid.add_row(&self.line, self.line_no, toks, end) {
            Ok(()) => {
                grid.last_row = (self.line_no, char_column(&self.line, end));
                Ok(())
            }
            Err((pos, kind)) => {
                // A first row shorter than the rest (`4...3...` then rows of 9) gave the grid
                // its side: skip as many rows as the second row's length says, or the first
                // row's grid's rows left would be read as a puzzle of their own.
                let side = match kind {
                    ParseErrorKind::RowLength { row: 2, got, side }
                        if self.options.shape.is_none() && got > side && is_row_len(got, None) =>
                    {
                        got
                    }
                    _ => grid.side(),
                };
                self.skip_rest_of(grid, side);
                Err(self.error(pos, kind))
            }
        }
    }

    /// A bad first line of a grid: nothing to skip, as its size is unknown.
    fn first_row_error(&self, e: TokError) -> ReadError {
        match e {
            TokError::Bad(pos, kind) => self.error(pos, kind),
            // Not produced on a first line (its layout comes from its own tokens).
            TokError::CharRun(pos) => {
                self.error(pos, unexpected(&self.line, pos, Expected::Number(None)))
            }
        }
    }

    /// After a bad line in `grid`, skip the rest of the grid on the next call.
    fn skip_rest(&mut self, grid: &Grid) {
        self.skip_rest_of(grid, grid.side());
    }

    /// [`Reader::skip_rest`] of a grid of `side` rows.
    fn skip_rest_of(&mut self, grid: &Grid, side: usize) {
        self.skip = Some(Skip {
            rows_left: side.saturating_sub(grid.rows + 1),
            rows_seen: grid.rows + 1,
            double_spaced: grid.double_spaced,
        });
    }

    /// Skip the rest of a bad grid: up to `rows_left` row lines, stopping at a blank line
    /// (unless double-spaced), at a whole one-line puzzle (kept) or at the end of the input.
    fn skip_rows(&mut self, mut skip: Skip) -> io::Result<()> {
        while skip.rows_left > 0 {
            if !self.read_line()? {
                return Ok(());
            }
            if self.too_long {
                skip.rows_left -= 1;
                continue;
            }
            match classify(&self.line) {
                LineClass::Blank if skip.double_spaced || skip.rows_seen <= 1 => {
                    skip.double_spaced = true;
                }
                LineClass::Blank => return Ok(()),
                LineClass::Comment | LineClass::Frame(_) => {}
                LineClass::Content(q) => {
                    if is_complete_line(&self.line, q, self.options.shape) {
                        self.pushed_back = true;
                        return Ok(());
                    }
                    skip.rows_left -= 1;
                    skip.rows_seen += 1;
                }
            }
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Parsed, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = match self.next_record() {
            Ok(Some(parsed)) => Some(Ok(parsed)),
            Ok(None) => {
                self.done = true;
                // Only titles: say so, rather than nothing (a line of words is a title).
                let (line, column, text) = self.first_title.take().filter(|_| !self.yielded)?;
                let kind = ParseErrorKind::OnlyTitles { text };
                Some(Err(ReadError::Parse(ParseError { line, column, kind })))
            }
            Err(ReadError::Io(e)) => {
                self.done = true;
                Some(Err(ReadError::Io(e)))
            }
            Err(e) => Some(Err(e)),
        };
        self.yielded = true;
        item
    }
}

/// Exactly one puzzle from a string, in any layout the [`Reader`] accepts.
///
/// Errors (all [`ReadError::Parse`]; an in-memory string cannot fail to read):
/// [`ParseErrorKind::NoPuzzle`] when there is none, [`ParseErrorKind::ExtraPuzzle`] when a
/// second puzzle follows, the first record's error when it is bad, or the error of whatever
/// bad text follows the puzzle.
pub fn parse_one(text: &str, options: &ParseOptions) -> Result<Puzzle, ReadError> {
    parse_one_record(text, options).map(|parsed| parsed.puzzle)
}

/// [`parse_one`] with the alphabet the puzzle was written in (to write its answers in), and its
/// line.
pub fn parse_one_record(text: &str, options: &ParseOptions) -> Result<Parsed, ReadError> {
    let mut reader = Reader::new(text.as_bytes(), *options);
    let first = match reader.next() {
        Some(result) => result?,
        None => {
            let kind = ParseErrorKind::NoPuzzle;
            return Err(ParseError {
                line: 1,
                column: 1,
                kind,
            }
            .into());
        }
    };
    match reader.next() {
        None => Ok(first),
        Some(Ok(extra)) => {
            let kind = ParseErrorKind::ExtraPuzzle {
                first_line: first.line,
            };
            Err(ParseError {
                line: extra.line,
                column: 1,
                kind,
            }
            .into())
        }
        Some(Err(e)) => Err(e),
    }
}
