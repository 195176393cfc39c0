//! The Interactive Sudoku Solver's (ISS) text forms: constraint strings
//! (`.Shape~6x6.AntiKnight.Cage~10~R1C1~R1C2.~R1C2_3~R4C4_1`), and its two killer layouts
//! (81 characters of cage sums and arrows pointing to them; `3x3:d:k:` followed by 81
//! numbers, sum·256 + cage). Every supported constraint type becomes a [`Rule`]; any other type
//! is named in the error, never ignored.

use crate::puzzle::Puzzle;
use crate::rules::{little_killer_diagonals, Diagonal, Line, Negative, Rule, Rules, MAX_TEXT_SIDE};
use crate::shape::Shape;
use std::collections::BTreeMap;

/// Every constraint type ISS knows that takes arguments (to tell a constraint string from a
/// one-line puzzle, and to name the ones this tool does not support); those without are in
/// [`NO_ARGUMENTS`].
const ISS_TYPES: &[&str] = &[
    "Container",
    "Or",
    "And",
    "Replicate",
    "End",
    "Jigsaw",
    "Thermo",
    "Whisper",
    "Renban",
    "Modular",
    "Entropic",
    "RegionSumLine",
    "Between",
    "Lockout",
    "Palindrome",
    "Zipper",
    "SumLine",
    "Regex",
    "NFA",
    "ChaosConstruction",
    "ChaosArrow",
    "ChaosCount",
    "RegionSize",
    "RegionSameValues",
    "Shape",
    "Diagonal",
    "WhiteDot",
    "BlackDot",
    "GreaterThan",
    "X",
    "ValueIndexing",
    "V",
    "Arrow",
    "DoubleArrow",
    "PillArrow",
    "Cage",
    "RellikCage",
    "EqualityCage",
    "Sum",
    "LittleKiller",
    "XSum",
    "Sandwich",
    "Lunchbox",
    "Skyscraper",
    "HiddenSkyscraper",
    "NumberedRoom",
    "FullRank",
    "AllDifferent",
    "ContainAtLeast",
    "ContainExact",
    "LookAndSay",
    "ConnectedValues",
    "SameValues",
    "EqualSum",
    "Quad",
    "Binary",
    "BinaryX",
    "Pair",
    "PairX",
    "Indexing",
    "CountingCircles",
    "CountDistinct",
    "Given",
    "SearchPriority",
    "Var",
];

/// This tool's own words for rules ISS has no word for (written by `rules::text`), those that
/// take arguments.
const OWN_TYPES: &[&str] = &["Difference", "Ratio", "PairSum", "CellSum"];

/// The types read here.
pub const SUPPORTED: &str = "Shape (square, values 1-N or 0-(N-1)), Given (one value or several: \
pencil marks), Diagonal, Windoku, DisjointSets, Jigsaw, NoBoxes, AllDifferent, AntiKnight, \
AntiKing, AntiConsecutive, Cage, LittleKiller, Arrow, PillArrow, Thermo, WhiteDot, BlackDot, \
StrictKropki, X, V, StrictXV, Renban, Whisper, Palindrome, Between, Sandwich, Quad";

/// Does this line (from its first non-blank byte) look like an ISS constraint string?
pub(crate) fn is_constraint_string(line: &[u8]) -> bool {
    let dots = line.iter().take_while(|&&b| b == b'.').count();
    if dots == 0 {
        return false;
    }
    // Empty items before the next (`..Cage~…`): read from the last of the leading dots (a
    // loop, not a call per dot: a line of 30,000 dots had overflowed a debug build's stack).
    let line = &line[dots - 1..];
    let word_len = line[1..]
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(line.len() - 1);
    let next = line.get(1 + word_len).copied();
    let word = &line[1..1 + word_len];
    if word.is_empty() {
        // `.~R1C1_5` (givens).
        return next == Some(b'~');
    }
    if next == Some(b'~') {
        // A word and its arguments: no grid holds a `~`, so a type misspelt or unknown is
        // named as such rather than read as a grid.
        return true;
    }
    let typed = matches!(next, None | Some(b'.' | b' ' | b'\t'))
        && ISS_TYPES
            .iter()
            .chain(OWN_TYPES)
            .chain(NO_ARGUMENTS)
            .any(|t| t.as_bytes() == word);
    // Without a `~` no type has its arguments: every type named must take none. Else the line
    // is a grid that happens to start with `.` and a type's name (`.X....` on 25×25).
    typed
        && (line.contains(&b'~')
            || line[1..]
                .split(|&b| b == b'.')
                .map(|item| item.split(u8::is_ascii_whitespace).next().unwrap_or(item))
                .all(|item| item.is_empty() || NO_ARGUMENTS.iter().any(|t| t.as_bytes() == item)))
}

/// The types, ISS's and this tool's own, that take no arguments (a constraint string without
/// `~` names only these).
const NO_ARGUMENTS: &[&str] = &[
    "NoBoxes",
    "StrictKropki",
    "StrictXV",
    "Windoku",
    "DisjointSets",
    "AntiKnight",
    "Doppelganger",
    "AntiKing",
    "AntiTaxicab",
    "AntiConsecutive",
    "GlobalEntropy",
    "GlobalMod",
    "FullRankTies",
    "DutchFlatmates",
    "NonConsecutive",
    "NegativeDifference",
    "NegativeRatio",
];

/// Is this line ISS's short killer layout (81 characters of sums and arrows)? Every cell but
/// a cage's first is an arrow, so a layout has many (those of ISS's collection 56 or more,
/// besides the `.` that a classic puzzle's empty cells share): a classic line with a stray
/// arrow-like character or a few is not one (its error names that character).
pub(crate) fn is_short_killer(line: &[u8]) -> bool {
    line.len() == 81
        && line.iter().filter(|b| b"<v>^`',".contains(b)).count() >= 27
        && line.iter().all(|&b| {
            b.is_ascii_digit()
                || b.is_ascii_uppercase()
                || (b'a'..=b'j').contains(&b)
                || b"^<v>`',.".contains(&b)
        })
}

/// Is this line ISS's long killer layout (`3x3:d:k:...`)?
pub(crate) fn is_long_killer(line: &[u8]) -> bool {
    line.starts_with(b"3x3:")
}

/// An error: the byte offset in the text and the message.
pub(crate) type Error = (usize, String);

/// Read an ISS constraint string. `shape` is `--box`, if given.
pub(crate) fn parse_constraints(text: &str, shape: Option<Shape>) -> Result<Puzzle, Error> {
    // Items start at each '.'; the first char is '.'.
    let mut items: Vec<(usize, &str)> = Vec::new();
    let mut start = 1;
    for (i, ch) in text.char_indices().skip(1) {
        if ch == '.' {
            items.push((start, &text[start..i]));
            start = i + 1;
        }
    }
    items.push((start, &text[start..]));
    // The shape first: cells are read against it.
    let mut side = 9;
    let mut zero_based = false;
    // The first `Shape` read: a later one must say the same (ISS refuses the string too).
    let mut first: Option<(&str, usize, bool)> = None;
    for &(at, item) in &items {
        let mut parts = item.split('~');
        if parts.next() == Some("Shape") {
            zero_based = false;
            let dims = parts.next().unwrap_or("");
            let range = parts.next();
            let (r, c) = dims
                .split_once('x')
                .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
                .ok_or((
                    at,
                    format!("Shape: cannot read {dims:?}: expected RxC, e.g. 6x6"),
                ))?;
            if r != c {
                return Err((at, format!("Shape {dims}: only square grids are supported")));
            }
            if let Some(range) = range.filter(|s| !s.is_empty()) {
                if range == format!("0-{}", r.saturating_sub(1)) {
                    zero_based = true;
                } else if range != r.to_string() && range != format!("1-{r}") {
                    return Err((
                        at,
                        format!(
                            "Shape {dims}~{range}: only the values 1-{r} or 0-{} are supported",
                            r.saturating_sub(1)
                        ),
                    ));
                }
            }
            if parts.next().is_some_and(|t| t != "Sudoku") {
                return Err((
                    at,
                    format!("Shape {item}: only the Sudoku grid type is supported"),
                ));
            }
            if r > MAX_TEXT_SIDE {
                return Err((
                    at,
                    format!("Shape {dims}: at most {MAX_TEXT_SIDE}x{MAX_TEXT_SIDE}"),
                ));
            }
            side = r;
            match first {
                Some((text, s, z)) if (s, z) != (side, zero_based) => {
                    return Err((
                        at,
                        format!("{item} disagrees with the {text} before it: one grid per puzzle"),
                    ));
                }
                Some(_) => {}
                None => first = Some((item, side, zero_based)),
            }
        }
    }
    let shape = match shape {
        Some(s) if s.side() != side => {
            return Err((
                1,
                format!(
                    "the constraint string's grid is {side}x{side}, but --box {s} gives side {}",
                    s.side()
                ),
            ))
        }
        Some(s) => s,
        None => Shape::for_side(side)
            .or_else(|_| Shape::new(1, side))
            .map_err(|e| (1, e.to_string()))?,
    };
    let mut rules = Rules::new();
    if zero_based {
        rules.set_zero_based();
    }
    let mut b = Builder {
        shape,
        cells: vec![0; shape.cells()],
        rules,
        jigsaw: Vec::new(),
        diagonals: std::cell::OnceCell::new(),
    };
    for &(at, item) in &items {
        let mut parts: Vec<&str> = item.split('~').map(str::trim).collect();
        let kind = parts.remove(0);
        // The item's rules are checked here, so that an error names the item.
        let from = b.rules.rules().len();
        b.item(kind, &parts)
            .and_then(|()| b.rules.validate_from(b.shape, from))
            .map_err(|m| (at, m))?;
    }
    b.finish().map_err(|m| (1, m))
}

struct Builder {
    shape: Shape,
    cells: Vec<u8>,
    rules: Rules,
    /// The `Jigsaw` layouts, in order: extra regions beside the boxes, or (the first) replacing
    /// them with `NoBoxes` (as ISS reads them).
    jigsaw: Vec<Vec<u8>>,
    /// The little killer diagonals, made for the first little killer (58 on a 16×16 made
    /// them each anew: 6% of the check).
    diagonals: std::cell::OnceCell<Vec<Vec<usize>>>,
}

impl Builder {
    fn cell(&self, id: &str) -> Result<usize, String> {
        let b = id.as_bytes();
        let digit = |ch: u8| {
            (ch as char)
                .to_digit(17)
                .filter(|&d| d >= 1)
                .map(|d| d as usize - 1)
        };
        let n = self.shape.side();
        if b.len() == 4 && b[0].eq_ignore_ascii_case(&b'R') && b[2].eq_ignore_ascii_case(&b'C') {
            if let (Some(r), Some(c)) = (digit(b[1]), digit(b[3])) {
                if r < n && c < n {
                    return Ok(r * n + c);
                }
            }
        }
        // Rows and columns are one base-17 digit each: 10 to 16 are A to G.
        let last = char::from_digit(n as u32, 17).map_or('?', |d| d.to_ascii_uppercase());
        let letters = if n > 9 {
            format!("; rows and columns 10 to {n} are A to {last}")
        } else {
            String::new()
        };
        Err(format!(
            "cannot read cell {id:?} of a {n}x{n} grid (expected R1C1 .. R{last}C{last}{letters})"
        ))
    }

    /// The values a cell may hold: 1 to N, or 0 to N - 1 on a zero-based board.
    fn value_range(&self) -> (usize, usize) {
        let first = usize::from(self.rules.first_value());
        (first, first + self.shape.side() - 1)
    }

    /// The engine's digit (1 to N) of a value as written.
    fn digit(&self, value: &str) -> Option<usize> {
        let (lo, hi) = self.value_range();
        let v: usize = value.parse().ok()?;
        (lo..=hi).contains(&v).then(|| v - lo + 1)
    }

    fn cells(&self, ids: &[&str]) -> Result<Vec<usize>, String> {
        if ids.last() == Some(&"LOOP") {
            return Err("loops are not supported".into());
        }
        ids.iter().map(|id| self.cell(id)).collect()
    }

    fn number(s: &str, what: &str) -> Result<u32, String> {
        s.parse::<u32>()
            .map_err(|_| format!("cannot read {what} {s:?}"))
    }

    /// All orthogonally adjacent pairs among `cells` (ISS's dots and XV may list more than
    /// two cells).
    fn adjacent_pairs(&self, cells: &[usize]) -> Vec<[usize; 2]> {
        let n = self.shape.side();
        let mut out = Vec::new();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
                if ra.abs_diff(rb) + ca.abs_diff(cb) == 1 {
                    out.push([a, b]);
                }
            }
        }
        out
    }

    fn item(&mut self, kind: &str, args: &[&str]) -> Result<(), String> {
        let n = self.shape.side();
        let push = |b: &mut Builder, r: Rule| b.rules.push(r);
        match kind {
            "" | "Given" => {
                for v in args {
                    let mut p = v.split('_');
                    let cell = self.cell(p.next().unwrap_or(""))?;
                    let mut mask = 0u64;
                    for value in p {
                        let d = self.digit(value).ok_or_else(|| {
                            let (lo, hi) = self.value_range();
                            format!("value {v:?} is not a number from {lo} to {hi}")
                        })?;
                        mask |= 1 << (d - 1);
                    }
                    match mask.count_ones() {
                        0 => return Err(format!("no value in {v:?}")),
                        1 => {
                            let d = mask.trailing_zeros() as u8 + 1;
                            let before = self.cells[cell];
                            if before != 0 && before != d {
                                // Two givens for one cell: the cell holds both, which it
                                // cannot (unsolvable, not an error).
                                let digits = 1 << (before - 1);
                                push(self, Rule::Only { cell, digits });
                            }
                            self.cells[cell] = d;
                        }
                        _ => push(self, Rule::Only { cell, digits: mask }),
                    }
                }
            }
            "Shape" => {}
            "NoBoxes" => self.rules.set_no_boxes(),
            "RegionSize" => {
                if args.first().and_then(|s| s.parse::<usize>().ok()) != Some(n) {
                    return Err(format!("RegionSize other than {n} is not supported"));
                }
            }
            "Jigsaw" => {
                let layout = args.last().copied().unwrap_or("");
                if layout.chars().count() != self.shape.cells() {
                    return Err(format!(
                        "Jigsaw: the layout has {} cells, expected {}",
                        layout.chars().count(),
                        self.shape.cells()
                    ));
                }
                let mut ids: BTreeMap<char, u8> = BTreeMap::new();
                let mut regions = Vec::with_capacity(layout.len());
                for ch in layout.chars() {
                    let next = ids.len() as u8;
                    regions.push(*ids.entry(ch).or_insert(next));
                }
                if ids.len() != n {
                    return Err(format!("Jigsaw: {} regions, expected {n}", ids.len()));
                }
                self.jigsaw.push(regions);
            }
            "Diagonal" => push(
                self,
                Rule::Diagonal(match args.first().copied() {
                    Some("1") => Diagonal::Anti,
                    Some("-1") => Diagonal::Main,
                    Some(other) => {
                        return Err(format!("Diagonal: direction {other:?}, expected 1 or -1"))
                    }
                    None => return Err("Diagonal: no direction, expected 1 or -1".to_string()),
                }),
            ),
            "Windoku" => push(self, Rule::Windoku),
            "DisjointSets" => push(self, Rule::DisjointGroups),
            "AntiKnight" => push(self, Rule::AntiKnight),
            "AntiKing" => push(self, Rule::AntiKing),
            "AntiConsecutive" => push(self, Rule::AntiConsecutive),
            "StrictKropki" => push(self, Rule::Negative(Negative::Kropki)),
            "StrictXV" => push(self, Rule::Negative(Negative::Xv)),
            // This tool's own words (see `rules::text`).
            "NonConsecutive" => push(self, Rule::Negative(Negative::Consecutive)),
            "NegativeDifference" => push(self, Rule::Negative(Negative::Differences)),
            "NegativeRatio" => push(self, Rule::Negative(Negative::Ratios)),
            "Difference" | "Ratio" | "PairSum" => {
                let (value, ids) = args
                    .split_first()
                    .ok_or(format!("{kind}: expected a number and two cells"))?;
                let value = Self::number(value, kind)?;
                let small =
                    u8::try_from(value).map_err(|_| format!("{kind}: {value} is too large"))?;
                let cells = match self.cells(ids)?[..] {
                    [a, b] => [a, b],
                    _ => return Err(format!("{kind}: expected two cells")),
                };
                push(
                    self,
                    match kind {
                        "Difference" => Rule::WhiteDot { cells, diff: small },
                        "Ratio" => Rule::BlackDot {
                            cells,
                            ratio: small,
                        },
                        _ => Rule::Xv { cells, sum: small },
                    },
                );
            }
            "CellSum" => {
                let (sum, ids) = args
                    .split_first()
                    .ok_or("CellSum: expected a sum and cells")?;
                let sum = Self::number(sum, "sum")?;
                let cells = self.cells(ids)?;
                push(self, Rule::LittleKiller { cells, sum });
            }
            "AllDifferent" => {
                let cells = self.cells(args)?;
                push(self, Rule::AllDifferent(cells));
            }
            "Cage" => {
                let (sum, ids) = args.split_first().ok_or("Cage: no sum and no cells")?;
                let sum = if sum.is_empty() {
                    0
                } else {
                    Self::number(sum, "cage sum")?
                };
                let cells = self.cells(ids)?;
                push(
                    self,
                    Rule::Cage {
                        cells,
                        sum: (sum != 0).then_some(sum),
                    },
                );
            }
            "LittleKiller" => {
                let [sum, start] = args else {
                    return Err("LittleKiller: expected a sum and a starting cell".into());
                };
                let sum = Self::number(sum, "little killer sum")?;
                let cells = self.little_killer(self.cell(start)?)?;
                push(self, Rule::LittleKiller { cells, sum });
            }
            "Arrow" => {
                let cells = self.cells(args)?;
                if cells.len() < 2 {
                    return Err("Arrow: needs a circle and an arrow".into());
                }
                push(
                    self,
                    Rule::Arrow {
                        circle: vec![cells[0]],
                        line: cells[1..].to_vec(),
                    },
                );
            }
            "PillArrow" => {
                let (size, ids) = args.split_first().ok_or("PillArrow: no pill size")?;
                let size = match *size {
                    "2" => 2,
                    "3" => 3,
                    s => return Err(format!("PillArrow: pill size {s:?}, expected 2 or 3")),
                };
                let cells = self.cells(ids)?;
                if cells.len() <= size {
                    return Err("PillArrow: needs more cells than the pill".into());
                }
                let mut pill = cells[..size].to_vec();
                pill.sort_unstable();
                if n > 9 {
                    // The pill's later cells hold one decimal digit each: the values up to 9
                    // (digits 1 to 9, or 1 to 10 from value 0).
                    let digits = (1u64 << (10 - self.rules.first_value())) - 1;
                    for &c in &pill[1..] {
                        push(self, Rule::Only { cell: c, digits });
                    }
                }
                push(
                    self,
                    Rule::Arrow {
                        circle: pill,
                        line: cells[size..].to_vec(),
                    },
                );
            }
            "Thermo" => {
                let cells = self.cells(args)?;
                push(self, Rule::Thermo(cells));
            }
            "WhiteDot" | "BlackDot" | "X" | "V" => {
                let cells = self.cells(args)?;
                let pairs = self.adjacent_pairs(&cells);
                if pairs.is_empty() {
                    return Err(format!("{kind}: no orthogonally adjacent cells"));
                }
                for cells in pairs {
                    push(
                        self,
                        match kind {
                            "WhiteDot" => Rule::WhiteDot { cells, diff: 1 },
                            "BlackDot" => Rule::BlackDot { cells, ratio: 2 },
                            "X" => Rule::Xv { cells, sum: 10 },
                            _ => Rule::Xv { cells, sum: 5 },
                        },
                    );
                }
            }
            "Renban" => {
                let cells = self.cells(args)?;
                push(self, Rule::Renban(cells));
            }
            "Whisper" => {
                // The difference is optional (5).
                let (diff, ids) = match args.split_first() {
                    Some((d, rest)) if d.parse::<u8>().is_ok() => {
                        (d.parse::<u8>().unwrap_or(5), rest)
                    }
                    _ => (5, args),
                };
                let cells = self.cells(ids)?;
                push(self, Rule::Whisper { cells, diff });
            }
            "Palindrome" => {
                let cells = self.cells(args)?;
                push(self, Rule::Palindrome(cells));
            }
            "Between" => {
                let cells = self.cells(args)?;
                push(self, Rule::Between(cells));
            }
            "Sandwich" => {
                let [sum, line] = args else {
                    return Err("Sandwich: expected a sum and a row or column (R1, C1)".into());
                };
                let sum = Self::number(sum, "sandwich sum")?;
                // Rows and columns in decimal, as ISS names them (`R12` on 16×16).
                let index = |s: &str| {
                    s.get(1..)
                        .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|d| d.parse::<usize>().ok())
                        .filter(|&i| (1..=n).contains(&i))
                        .map(|i| i - 1)
                        .ok_or(format!("Sandwich: cannot read row or column {line:?}"))
                };
                let line = match line.as_bytes().first() {
                    Some(b'R' | b'r') => Line::Row(index(line)?),
                    Some(b'C' | b'c') => Line::Col(index(line)?),
                    _ => return Err(format!("Sandwich: cannot read row or column {line:?}")),
                };
                push(self, Rule::Sandwich { line, sum });
            }
            "Quad" => {
                let (top_left, values) = args.split_first().ok_or("Quad: no cell")?;
                let c = self.cell(top_left)?;
                if c % n + 1 >= n || c / n + 1 >= n {
                    return Err(format!("Quad: no 2x2 square at {top_left}"));
                }
                let digits = values
                    .iter()
                    .map(|v| {
                        self.digit(v).map(|d| d as u8).ok_or_else(|| {
                            let (lo, hi) = self.value_range();
                            format!("Quad: value {v:?} is not a number from {lo} to {hi}")
                        })
                    })
                    .collect::<Result<Vec<u8>, String>>()?;
                push(
                    self,
                    Rule::Quadruple {
                        cells: [c, c + 1, c + n, c + n + 1],
                        digits,
                    },
                );
            }
            other if ISS_TYPES.contains(&other) || NO_ARGUMENTS.contains(&other) => {
                return Err(format!(
                    "unsupported constraint type {other:?} (supported: {SUPPORTED})"
                ))
            }
            other => return Err(format!("unknown constraint type {other:?}")),
        }
        Ok(())
    }

    /// The cells of the little killer diagonal that starts at `start` (ISS's convention, see
    /// [`little_killer_diagonals`]).
    fn little_killer(&self, start: usize) -> Result<Vec<usize>, String> {
        self.diagonals
            .get_or_init(|| little_killer_diagonals(self.shape.side()))
            .iter()
            .find(|d| d[0] == start)
            .cloned()
            .ok_or(format!(
                "LittleKiller: no diagonal starts at {}",
                self.shape.cell_name(start)
            ))
    }

    fn finish(mut self) -> Result<Puzzle, String> {
        // Every layout holds (ISS makes each one's pieces houses): the first replaces the
        // boxes where they are dropped, the others' regions are extra ones.
        let mut layouts = std::mem::take(&mut self.jigsaw).into_iter();
        if self.rules.no_boxes() {
            if let Some(first) = layouts.next() {
                self.rules.set_regions(first);
            }
        }
        for layout in layouts {
            for r in 0..self.shape.side() as u8 {
                let cells = (0..layout.len()).filter(|&c| layout[c] == r).collect();
                self.rules.push(Rule::AllDifferent(cells));
            }
        }
        self.rules.validate(self.shape)?;
        Ok(Puzzle::from_checked(self.shape, self.cells).with_checked_rules(self.rules))
    }
}

/// Read ISS's short killer layout: each cell holds its cage's sum (the cage's first cell:
/// `0-9`, `A-Z` for 10-35, `a-j` for 36-45) or an arrow to a cell of the same cage.
pub(crate) fn parse_short_killer(line: &[u8]) -> Result<Puzzle, Error> {
    let n = 9;
    let mut next = vec![0usize; 81];
    for (i, &b) in line.iter().enumerate() {
        let (r, c) = ((i / n) as isize, (i % n) as isize);
        let (dr, dc) = match b {
            b'v' => (1, 0),
            b'^' => (-1, 0),
            b'<' => (0, -1),
            b'>' => (0, 1),
            b'`' => (-1, -1),
            b'\'' => (-1, 1),
            b',' => (1, -1),
            b'.' => (1, 1),
            _ => (0, 0),
        };
        let (r2, c2) = (r + dr, c + dc);
        if !(0..9).contains(&r2) || !(0..9).contains(&c2) {
            return Err((i, "an arrow points off the grid".into()));
        }
        next[i] = (r2 * 9 + c2) as usize;
    }
    let mut cages: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..81 {
        let mut root = i;
        let mut steps = 0;
        while next[root] != root {
            root = next[root];
            steps += 1;
            if steps > 81 {
                return Err((i, "arrows go round in a loop".into()));
            }
        }
        cages.entry(root).or_default().push(i);
    }
    let mut rules = Rules::new();
    for (root, cells) in cages {
        let sum = match line[root] {
            d @ b'0'..=b'9' => u32::from(d - b'0'),
            u @ b'A'..=b'Z' => u32::from(u - b'A') + 10,
            l @ b'a'..=b'j' => u32::from(l - b'a') + 36,
            _ => continue,
        };
        // A sum of 0 is a cage without a sum (as ISS reads it).
        rules.push(Rule::Cage {
            cells,
            sum: (sum != 0).then_some(sum),
        });
    }
    rules.validate(Shape::NINE).map_err(|m| (0, m))?;
    Ok(Puzzle::empty(Shape::NINE).with_checked_rules(rules))
}

/// Read ISS's long killer layout: `3x3:` then `d` for diagonals (or nothing), `:k:`, and 81
/// numbers `sum * 256 + cage`, `:`-separated.
pub(crate) fn parse_long_killer(text: &str) -> Result<Puzzle, Error> {
    // ISS ends the layout with a ':'; without one is read too.
    let text = text.trim();
    let parts: Vec<&str> = text.strip_suffix(':').unwrap_or(text).split(':').collect();
    if parts.len() != 81 + 3 || parts[2] != "k" {
        return Err((
            0,
            "a 3x3::k: killer layout needs 81 numbers after '3x3:d:k:' or '3x3::k:'".into(),
        ));
    }
    let mut cages: BTreeMap<u32, (u32, Vec<usize>)> = BTreeMap::new();
    for (i, p) in parts[3..].iter().enumerate() {
        let v: u32 = p
            .trim()
            .parse()
            .map_err(|_| (0, format!("cannot read {p:?} in the killer layout")))?;
        let (sum, id) = (v / 256, v % 256);
        if sum == 0 {
            continue;
        }
        cages.entry(id).or_insert((sum, Vec::new())).1.push(i);
    }
    let mut rules = Rules::new();
    if parts[1] == "d" {
        rules.push(Rule::Diagonal(Diagonal::Main));
        rules.push(Rule::Diagonal(Diagonal::Anti));
    }
    for (_, (sum, cells)) in cages {
        // A sum of 0 is a cage without a sum (as ISS reads it).
        rules.push(Rule::Cage {
            cells,
            sum: (sum != 0).then_some(sum),
        });
    }
    rules.validate(Shape::NINE).map_err(|m| (0, m))?;
    Ok(Puzzle::empty(Shape::NINE).with_checked_rules(rules))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_killers_are_told_from_puzzles_with_a_stray_arrow() {
        let killer =
            b"R<<<M<<<U^M<<<^J>^R<<^S<^R^^P>>^>^^^^^<R5^>^MP^>^V<<^^^^^>^L>>^^<^K>^<<R^>>^<>>>^";
        assert!(is_short_killer(killer));
        // A classic puzzle with a typo: read as a puzzle (and its error names the `v`).
        let typo =
            b"4000300000006008000000000v1000050090080000600070200000000102700503000040900000000";
        assert!(!is_short_killer(typo));
        let dots =
            b"4...3.......6..8..,.......1....5..9..8....6...7.2........1.27..5.3....4.9........";
        assert!(!is_short_killer(dots));
    }

    #[test]
    fn constraint_strings_are_told_from_puzzles() {
        assert!(is_constraint_string(b".~R1C1_5"));
        assert!(is_constraint_string(b".AntiKnight.~R1C2_3"));
        assert!(is_constraint_string(b"..Cage~14~R5C3~R5C4"));
        assert!(is_constraint_string(b".Shape~6x6.Cage~10~R1C1~R1C2"));
        assert!(!is_constraint_string(
            b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ));
        assert!(!is_constraint_string(b".AB.C"));
        // A type this tool does not know, with its arguments, is still a constraint string
        // (and the type is named in the error).
        assert!(is_constraint_string(b".Diagnal~1.Cage~3~R1C1~R1C2"));
        // Types without arguments need no `~`; a type that takes some does.
        assert!(is_constraint_string(b".AntiKnight.AntiKing"));
        assert!(is_constraint_string(b".Windoku."));
        assert!(is_constraint_string(b".AntiKing.Windoku ."));
        // A grid of a 25×25 board that starts with `.X`, `.V.`: not constraint strings.
        let grid = format!(".X{}", ".".repeat(623));
        assert!(!is_constraint_string(grid.as_bytes()));
        let grid = format!(".V.A{}", ".".repeat(621));
        assert!(!is_constraint_string(grid.as_bytes()));
        // Long runs of dots, read without a call per dot (on a test thread's 2 MiB stack, a
        // debug build overflowed at a few thousand).
        for tail in ["~", "Cage~3~R1C1", "A", "|", "é"] {
            let line = format!("{}{tail}", ".".repeat(200_000));
            assert_eq!(
                is_constraint_string(line.as_bytes()),
                tail.contains('~'),
                "{tail}"
            );
        }
    }

    #[test]
    fn reads_the_common_types() {
        let p = parse_constraints(
            ".Shape~6x6.AntiKnight.Cage~7~R1C1~R1C2.Thermo~R2C1~R2C2~R2C3.~R6C6_1.Diagonal~-1.Whisper~3~R4C1~R4C2.Sandwich~5~C2.LittleKiller~12~R1C2",
            None,
        )
        .unwrap();
        assert_eq!(p.shape(), Shape::new(2, 3).unwrap());
        assert_eq!(p.cells()[35], 1);
        let rules = p.rules().unwrap().rules();
        assert_eq!(rules[0], Rule::AntiKnight);
        assert_eq!(
            rules[1],
            Rule::Cage {
                cells: vec![0, 1],
                sum: Some(7)
            }
        );
        assert_eq!(rules[2], Rule::Thermo(vec![6, 7, 8]));
        assert_eq!(rules[3], Rule::Diagonal(Diagonal::Main));
        assert_eq!(
            rules[4],
            Rule::Whisper {
                cells: vec![18, 19],
                diff: 3
            }
        );
        assert_eq!(
            rules[5],
            Rule::Sandwich {
                line: Line::Col(1),
                sum: 5
            }
        );
        // From the top side, down-left: r1c2, r2c1.
        assert_eq!(
            rules[6],
            Rule::LittleKiller {
                cells: vec![1, 6],
                sum: 12
            }
        );
    }

    #[test]
    fn a_jigsaw_keeps_the_boxes_unless_told() {
        let layout = "1122112234443334";
        let p = parse_constraints(&format!(".Shape~4x4.Jigsaw~{layout}"), None).unwrap();
        let rules = p.rules().unwrap();
        assert!(rules.regions().is_none());
        assert_eq!(rules.rules()[0], Rule::AllDifferent(vec![0, 1, 4, 5]));
        assert_eq!(rules.rules()[3], Rule::AllDifferent(vec![9, 10, 11, 15]));
        let p = parse_constraints(&format!(".Shape~4x4.NoBoxes.Jigsaw~{layout}"), None).unwrap();
        assert_eq!(p.rules().unwrap().regions().unwrap()[..4], [0, 0, 1, 1]);
    }

    /// Every `Jigsaw` holds, not only the last: the first replaces the boxes under `NoBoxes`,
    /// the others' regions are extra houses (ISS: each layout's pieces are houses).
    #[test]
    fn every_jigsaw_holds() {
        let (a, b) = ("1111000320332223", "0333022301220111");
        let text = format!(".Shape~4x4.Jigsaw~{a}.NoBoxes.Jigsaw~{b}");
        let p = parse_constraints(&text, None).unwrap();
        let rules = p.rules().unwrap();
        assert_eq!(rules.regions().unwrap()[..4], [0, 0, 0, 0]);
        assert!(rules
            .rules()
            .contains(&Rule::AllDifferent(vec![0, 4, 8, 12])));
        let p = parse_constraints(&format!(".Shape~4x4.Jigsaw~{a}.Jigsaw~{b}"), None).unwrap();
        let rules = p.rules().unwrap();
        assert!(rules.regions().is_none());
        assert_eq!(rules.rules().len(), 8);
    }

    /// Two different givens for one cell: unsolvable (no solution has both), not an error.
    #[test]
    fn two_givens_for_one_cell_are_unsolvable() {
        let p = parse_constraints(".Shape~4x4.~R1C1_1.~R1C1_2", None).unwrap();
        assert!(p
            .rules()
            .unwrap()
            .rules()
            .contains(&Rule::Only { cell: 0, digits: 1 }));
        assert_eq!(p.cells()[0], 2);
        // The same given twice is one given.
        let p = parse_constraints(".Shape~4x4.~R1C1_1.~R1C1_1", None).unwrap();
        assert!(p.rules().is_none_or(|r| r.rules().is_empty()));
    }

    /// Sandwich rows and columns are decimal, as ISS and `split` write them (`R12` on 16×16).
    #[test]
    fn sandwich_lines_are_decimal() {
        let p = parse_constraints(".Shape~16x16.Sandwich~0~R12.Sandwich~5~C16", None).unwrap();
        let rules = p.rules().unwrap().rules();
        assert_eq!(
            rules[0],
            Rule::Sandwich {
                line: Line::Row(11),
                sum: 0
            }
        );
        assert_eq!(
            rules[1],
            Rule::Sandwich {
                line: Line::Col(15),
                sum: 5
            }
        );
        for bad in ["Ra", "R17", "R0", "R+1", "R"] {
            let text = format!(".Shape~16x16.Sandwich~0~{bad}");
            assert!(parse_constraints(&text, None).is_err(), "{bad}");
        }
    }

    #[test]
    fn unsupported_types_are_named() {
        let e = parse_constraints(".Skyscraper~R1~3", None).unwrap_err();
        assert!(
            e.1.contains("unsupported constraint type \"Skyscraper\""),
            "{}",
            e.1
        );
        let e = parse_constraints(".Nonsense~3", None).unwrap_err();
        assert!(
            e.1.contains("unknown constraint type \"Nonsense\""),
            "{}",
            e.1
        );
        // A rule that does not fit the board is placed at its item, not at the string's start.
        for (text, at) in [
            (".Cage~10~R1C1~R1C2.Cage~5~R2C1~R2C1", 19),
            (".Shape~6x6.Thermo~R1C1~R1C2~R1C3~R1C4~R1C5~R1C6~R2C6", 11),
        ] {
            let e = parse_constraints(text, None).unwrap_err();
            assert_eq!(e.0, at, "{text}: {}", e.1);
        }
        // Two shapes that disagree: refused (the last one was taken), as ISS refuses them.
        for (text, at) in [
            (".Shape~8x8.Shape~9x9", 11),
            (".Shape~6x6.Shape~6x6~0-5", 11),
            (".Shape~6x6~0-5.~R1C1_0.Shape~6x6", 23),
        ] {
            let e = parse_constraints(text, None).unwrap_err();
            assert_eq!(e.0, at, "{text}");
            assert!(e.1.contains("disagrees with the Shape~"), "{text}: {}", e.1);
        }
        assert!(parse_constraints(".Shape~6x6.Shape~6x6.~R1C1_1", None).is_ok());
        // Rows and columns above 9 are letters, and the message says so.
        let e = parse_constraints(".Shape~16x16.~R16C16_1", None).unwrap_err();
        assert!(
            e.1.ends_with("(expected R1C1 .. RGCG; rows and columns 10 to 16 are A to G)"),
            "{}",
            e.1
        );
        assert!(parse_constraints(".Shape~16x16.~RGCG_1", None).is_ok());
        // A cell twice is named (it read "2 cells, or a cell twice (at most 8 ...)").
        let e = parse_constraints(".Shape~8x8.Cage~10~R1C1~R1C1", None).unwrap_err();
        assert_eq!(e.1, "killer cage: cell r1c1 appears twice");
        let e = parse_constraints(".Shape~4x4.Renban~R1C1~R1C2~R1C3~R1C4~R2C1", None).unwrap_err();
        assert_eq!(
            e.1,
            "renban line: 5 cells, more than the 4 different digits of the board"
        );
        let e = parse_constraints(".Shape~6x8", None).unwrap_err();
        assert!(e.1.contains("only square grids"), "{}", e.1);
        // An argument is named as the string has it, never as a Rust `Some(..)`.
        let e = parse_constraints(".Diagonal~2", None).unwrap_err();
        assert!(e.1.contains("direction \"2\", expected 1 or -1"), "{}", e.1);
        let e = parse_constraints(".Diagonal", None).unwrap_err();
        assert!(e.1.contains("no direction"), "{}", e.1);
    }

    #[test]
    fn zero_based_shapes() {
        // Values 0 to 8: a given 0 is digit 1, a cage's sum is of the values.
        let p = parse_constraints(
            ".Shape~9x9~0-8.Cage~1~R1C1~R1C2.Quad~R2C2~0~8.~R9C9_0~R9C8_8~R5C5_1_3",
            None,
        )
        .unwrap();
        let rules = p.rules().unwrap();
        assert!(rules.zero_based());
        assert_eq!((p.cells()[80], p.cells()[79]), (1, 9));
        assert!(rules.rules().contains(&Rule::Cage {
            cells: vec![0, 1],
            sum: Some(1)
        }));
        assert!(rules.rules().contains(&Rule::Quadruple {
            cells: [10, 11, 19, 20],
            digits: vec![1, 9]
        }));
        assert!(rules.rules().contains(&Rule::Only {
            cell: 40,
            digits: 0b1010
        }));
        // Written back in the same values.
        let text = rules.to_constraint_string(p.shape(), p.cells()).unwrap();
        assert!(text.starts_with(".Shape~9x9~0-8."), "{text}");
        assert!(text.contains(".Quad~R2C2~0~8"), "{text}");
        assert!(text.contains(".~R5C5_1_3"), "{text}");
        assert!(text.contains("R9C8_8~R9C9_0"), "{text}");
        assert_eq!(parse_constraints(&text, None).unwrap(), p);
        // A classic zero-based puzzle keeps its values too.
        let classic = parse_constraints(".Shape~4x4~0-3.~R1C1_0", None).unwrap();
        assert!(classic.rules().is_some_and(Rules::zero_based));
        // Values out of the range, other ranges, sandwiches.
        let e = parse_constraints(".Shape~9x9~0-8.~R1C1_9", None).unwrap_err();
        assert!(e.1.contains("not a number from 0 to 8"), "{}", e.1);
        let e = parse_constraints(".~R1C1_0", None).unwrap_err();
        assert!(e.1.contains("not a number from 1 to 9"), "{}", e.1);
        let e = parse_constraints(".Shape~9x9~2-10", None).unwrap_err();
        assert!(e.1.contains("only the values 1-9 or 0-8"), "{}", e.1);
        let e = parse_constraints(".Shape~9x9~0-8.Sandwich~5~R1", None).unwrap_err();
        assert!(
            e.1.contains("sandwich sums on a board of values from 0"),
            "{}",
            e.1
        );
    }

    #[test]
    fn killer_layouts() {
        // Every row one cage: the first cell holds the sum, the others point left.
        let row = "j<<<<<<<<";
        let p = parse_short_killer(row.repeat(9).as_bytes()).unwrap();
        let rules = p.rules().unwrap().rules();
        assert_eq!(rules.len(), 9);
        assert_eq!(
            rules[0],
            Rule::Cage {
                cells: (0..9).collect(),
                sum: Some(45)
            }
        );
        let rows: Vec<String> = (0..81).map(|i| (45 * 256 + i / 9).to_string()).collect();
        let trailing = format!("3x3::k:{}:", rows.join(":"));
        assert_eq!(
            parse_long_killer(&trailing)
                .unwrap()
                .rules()
                .unwrap()
                .rules()
                .len(),
            9
        );
        let long = format!(
            "3x3:d:k:{}",
            (0..81)
                .map(|i| ((45 * 256) + i / 9).to_string())
                .collect::<Vec<_>>()
                .join(":")
        );
        let p = parse_long_killer(&long).unwrap();
        assert_eq!(p.rules().unwrap().rules().len(), 11);
    }
}
