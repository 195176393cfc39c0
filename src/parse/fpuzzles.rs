//! f-puzzles puzzles: the JSON that f-puzzles exports (and SudokuPad reads), and the links
//! that carry it compressed (`f-puzzles.com/?load=…`, `sudokupad.app/fpuzzles…`).
//!
//! What is read: `size` (boxes as [`Shape::for_side`] gives them, or the cells' `region`s),
//! the grid's givens (`value` with `given: true`) and given pencil marks, and the constraints
//! of [`CONSTRAINTS`]. Solver notes (centre and corner marks, values not given), colours and
//! the cosmetic layers (`line`, `rectangle`, `circle`, `cage`, `text`) are ignored, as
//! f-puzzles' own solver ignores them. Any other non-empty key is an error that names it.

use super::json::{self, Value};
use super::lz::decompress_base64;
use crate::puzzle::Puzzle;
use crate::rules::{Diagonal, Line, Negative, Rule, Rules, MAX_TEXT_SIDE};
use crate::shape::Shape;

/// The f-puzzles constraints read (their JSON keys).
pub const CONSTRAINTS: &str = "diagonal+, diagonal-, antiknight, antiking, disjointgroups, \
nonconsecutive, negative (ratio, difference, xv), extraregion, odd, even, killercage, \
littlekiller, sandwichsum, arrow, thermometer, palindrome, renban, whispers, betweenline, \
difference, ratio, xv, quadruple, and irregular regions";

/// Keys that do not constrain the solution.
const IGNORED: &[&str] = &[
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
    "line",
    "rectangle",
    "circle",
    "cage",
    "text",
    "version",
    "fogofwar",
];

/// The largest decompressed link read (characters).
const MAX_JSON: usize = 16 << 20;

/// Is `word` a web address (`https://…`, `www.…`)? Only such a word, in a table's field or
/// after a name on a line, is read as a link.
pub(crate) fn is_web_address(word: &str) -> bool {
    let l = word.to_ascii_lowercase();
    l.contains("://") || l.starts_with("www.")
}

/// The compressed f-puzzles JSON of a link, if `line` is one: after `?load=` (f-puzzles) or
/// `fpuzzles` (SudokuPad, Cracking the Cryptic), up to the next `&`, `#` or blank, with `%XX`
/// escapes decoded. `Some(Err)` for a puzzle link this reader cannot follow. The link is the
/// line's first word, or a later word that is a web address (`Puzzle 3: https://…`): a grid
/// followed by a note that names f-puzzles is not a link.
pub(crate) fn link_payload(line: &str) -> Option<Result<String, String>> {
    let lower = |w: &str| w.to_ascii_lowercase();
    let is_link = |w: &str| {
        let l = lower(w);
        l.contains("?load=") || l.contains("fpuzzles") || l.starts_with("http")
    };
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let line = if is_link(first) {
        first
    } else {
        words.find(|&w| is_web_address(w) && is_link(w))?
    };
    let lower = line.to_ascii_lowercase();
    let start = if let Some(i) = lower.find("?load=") {
        i + "?load=".len()
    } else if let Some(i) = lower.find("fpuzzles") {
        i + "fpuzzles".len()
    } else if lower.starts_with("http")
        && ["sudokupad", "crackingthecryptic", "f-puzzles"]
            .iter()
            .any(|site| lower.contains(site))
    {
        return Some(Err(
            "this puzzle link holds no f-puzzles data: SudokuPad short ids and `scl` links \
             need the site; open the puzzle and export it as an f-puzzles link or file"
                .into(),
        ));
    } else {
        return None;
    };
    let rest = &line[start..];
    let end = rest
        .find(|c: char| c == '&' || c == '#' || c.is_whitespace())
        .unwrap_or(rest.len());
    Some(percent_decode(&rest[..end]))
}

fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("a bad %-escape in the link at {:?}", &s[i..]))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the link is not UTF-8 once %-escapes are decoded".into())
}

/// The puzzle of a link's payload (see [`link_payload`]).
pub(crate) fn from_link_payload(payload: &str) -> Result<Puzzle, String> {
    let text = decompress_base64(payload, MAX_JSON).map_err(|e| e.to_string())?;
    if text.is_empty() {
        return Err("the link's data is empty".into());
    }
    from_json_text(&text).map_err(|e| format!("in the link's f-puzzles data: {e}"))
}

/// The puzzle of f-puzzles JSON text (a syntax error names its byte).
pub(crate) fn from_json_text(text: &str) -> Result<Puzzle, String> {
    let v = json::parse(text).map_err(|e| format!("JSON at byte {}: {}", e.at, e.message))?;
    from_json_at(&v).map_err(|(_, m)| m)
}

/// [`from_json_text`], an error with the byte offset in `text` of what it is about where that
/// is known: a syntax error's place, or the member, item or grid cell that is wrong.
pub(crate) fn from_json_located(text: &str) -> Result<Puzzle, (Option<usize>, String)> {
    let v = json::parse(text).map_err(|e| (Some(e.at), format!("syntax: {}", e.message)))?;
    from_json_at(&v).map_err(|(at, m)| {
        (
            at.and_then(|(key, path)| json::locate(text, &key, &path)),
            m,
        )
    })
}

/// What an error is about: a member of the puzzle object and the indices of the items below
/// it (none: the member itself); `None`: the puzzle as a whole.
type Spot = Option<(String, Vec<usize>)>;

/// The puzzle of an f-puzzles JSON value, an error with its [`Spot`].
fn from_json_at(v: &Value) -> Result<Puzzle, (Spot, String)> {
    let at = |key: &str, path: Vec<usize>| Some((key.to_string(), path));
    let Value::Object(members) = v else {
        return Err((None, "an f-puzzles puzzle is a JSON object".into()));
    };
    let size = match v.get("size") {
        Some(Value::Number(s)) if *s >= 1.0 && *s <= MAX_TEXT_SIDE as f64 && s.fract() == 0.0 => {
            *s as usize
        }
        Some(other) => {
            return Err((
                at("size", Vec::new()),
                format!("\"size\" is {other}: expected a whole number from 1 to {MAX_TEXT_SIDE}"),
            ))
        }
        None => return Err((None, "no \"size\": not an f-puzzles puzzle".into())),
    };
    let mut b = Builder::new(size, v.get("grid")).map_err(|(path, m)| (at("grid", path), m))?;
    for (key, value) in members {
        if IGNORED.contains(&key.as_str()) || value.is_empty() {
            continue;
        }
        b.constraint(key, value)
            .map_err(|(path, e)| (at(key, path), format!("\"{key}\": {e}")))?;
    }
    b.finish().map_err(|m| (None, m))
}

struct Builder {
    n: usize,
    shape: Shape,
    cells: Vec<u8>,
    rules: Rules,
}

/// A whole number in a JSON number or string (f-puzzles writes both: `"value": "15"`).
fn number(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(x) if x.fract() == 0.0 && x.abs() < 1e9 => Some(*x as i64),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

impl Builder {
    /// The grid's givens, pencil marks and regions; an error carries the indices of the row
    /// and cell it is about.
    fn new(n: usize, grid: Option<&Value>) -> Result<Builder, (Vec<usize>, String)> {
        let boxes = Shape::for_side(n).ok();
        let shape = boxes
            .map_or_else(|| Shape::new(1, n), Ok)
            .map_err(|e| (Vec::new(), e.to_string()))?;
        let mut b = Builder {
            n,
            shape,
            cells: vec![0; n * n],
            rules: Rules::new(),
        };
        let rows = grid.map(Value::items).unwrap_or_default();
        if grid.is_some() && rows.len() != n {
            return Err((
                Vec::new(),
                format!("\"grid\" has {} rows, expected {n}", rows.len()),
            ));
        }
        let mut regions: Vec<Option<u8>> = vec![None; n * n];
        for (r, row) in rows.iter().enumerate() {
            let row = row.items();
            if row.len() != n {
                return Err((
                    vec![r],
                    format!(
                        "\"grid\" row {} has {} cells, expected {n}",
                        r + 1,
                        row.len()
                    ),
                ));
            }
            for (c, cell) in row.iter().enumerate() {
                let at = r * n + c;
                let name = || format!("r{}c{}", r + 1, c + 1);
                if cell.get("given") == Some(&Value::Bool(true)) {
                    match number(cell.get("value")) {
                        Some(d) if d >= 1 && d <= n as i64 => b.cells[at] = d as u8,
                        _ => {
                            return Err((
                                vec![r, c],
                                format!("the given in {} is not a digit 1-{n}", name()),
                            ))
                        }
                    }
                }
                let marks = cell
                    .get("givenPencilMarks")
                    .map(Value::items)
                    .unwrap_or_default();
                if !marks.is_empty() {
                    let mut digits = 0u64;
                    for m in marks {
                        match number(Some(m)) {
                            Some(d) if d >= 1 && d <= n as i64 => digits |= 1 << (d - 1),
                            _ => {
                                return Err((
                                    vec![r, c],
                                    format!("a pencil mark in {} is not a digit 1-{n}", name()),
                                ))
                            }
                        }
                    }
                    b.rules.push(Rule::Only { cell: at, digits });
                }
                if let Some(reg) = cell.get("region") {
                    match number(Some(reg)) {
                        Some(g) if g >= 0 && g < n as i64 => regions[at] = Some(g as u8),
                        _ => {
                            return Err((
                                vec![r, c],
                                format!("the region of {} is not 0-{}", name(), n - 1),
                            ))
                        }
                    }
                }
            }
        }
        if regions.iter().any(Option::is_some) || boxes.is_none() {
            let layout: Option<Vec<u8>> = regions
                .iter()
                .enumerate()
                .map(|(cell, r)| r.or_else(|| boxes.map(|s| s.box_of(cell) as u8)))
                .collect();
            let Some(layout) = layout else {
                return Err((
                    Vec::new(),
                    format!("a {n}x{n} grid has no standard boxes: every cell needs a \"region\""),
                ));
            };
            let standard =
                boxes.is_some_and(|s| (0..n * n).all(|c| layout[c] == s.box_of(c) as u8));
            if !standard {
                b.rules.set_regions(layout);
            }
        }
        Ok(b)
    }

    /// A cell name `R3C10` (1-based, decimal), inside the grid.
    fn cell(&self, v: &Value) -> Result<usize, String> {
        let n = self.n;
        match cell_name(v)? {
            (r, c) if (1..=n).contains(&r) && (1..=n).contains(&c) => Ok((r - 1) * n + c - 1),
            _ => Err(format!(
                "{v} is not a cell of the {n}x{n} grid (R1C1 to R{n}C{n})"
            )),
        }
    }

    /// A clue's cell name, inside the grid or on its border (row or column 0 or N+1):
    /// (row, column).
    fn any_cell(&self, v: &Value) -> Result<(usize, usize), String> {
        let n = self.n;
        match cell_name(v)? {
            (r, c) if r <= n + 1 && c <= n + 1 => Ok((r, c)),
            _ => Err(format!(
                "{v} is outside the {n}x{n} grid and its border (R0C0 to R{m}C{m})",
                m = n + 1
            )),
        }
    }

    fn cells(&self, v: Option<&Value>) -> Result<Vec<usize>, String> {
        let items = v.map(Value::items).unwrap_or_default();
        if items.is_empty() {
            return Err("no cells".into());
        }
        items.iter().map(|c| self.cell(c)).collect()
    }

    fn pair(&self, item: &Value) -> Result<[usize; 2], String> {
        match self.cells(item.get("cells"))?[..] {
            [a, b] => Ok([a, b]),
            _ => Err("expected two cells".into()),
        }
    }

    /// Each line of `item["lines"]`.
    fn lines(&self, item: &Value) -> Result<Vec<Vec<usize>>, String> {
        let lines = item.get("lines").map(Value::items).unwrap_or_default();
        if lines.is_empty() {
            return Err("no lines".into());
        }
        lines.iter().map(|l| self.cells(Some(l))).collect()
    }

    /// The constraint `key`; an error carries the indices of the item it is about (none: the
    /// whole member).
    fn constraint(&mut self, key: &str, value: &Value) -> Result<(), (Vec<usize>, String)> {
        let flag = |r: Rule, b: &mut Builder| {
            if value == &Value::Bool(true) {
                b.rules.push(r);
                Ok(())
            } else {
                Err((Vec::new(), format!("expected true, found {value}")))
            }
        };
        match key {
            "diagonal+" => return flag(Rule::Diagonal(Diagonal::Anti), self),
            "diagonal-" => return flag(Rule::Diagonal(Diagonal::Main), self),
            "antiknight" => return flag(Rule::AntiKnight, self),
            "antiking" => return flag(Rule::AntiKing, self),
            "disjointgroups" => return flag(Rule::DisjointGroups, self),
            "nonconsecutive" => return flag(Rule::Negative(Negative::Consecutive), self),
            "negative" => {
                // A list of kinds, or one kind alone.
                let kinds = match value {
                    Value::String(_) => std::slice::from_ref(value),
                    Value::Array(items) => items.as_slice(),
                    _ => return Err((Vec::new(), not_read(key))),
                };
                for (i, kind) in kinds.iter().enumerate() {
                    self.rules.push(Rule::Negative(match kind.as_str() {
                        Some("ratio") => Negative::Ratios,
                        Some("difference") => Negative::Differences,
                        Some("xv") => Negative::Xv,
                        _ => {
                            return Err((
                                vec![i],
                                format!(
                                    "unsupported negative constraint {kind} (supported: {})",
                                    r#""ratio", "difference", "xv""#
                                ),
                            ))
                        }
                    }));
                }
                return Ok(());
            }
            _ => {}
        }
        let items = match value {
            Value::Array(items) => items,
            _ => return Err((Vec::new(), not_read(key))),
        };
        for (i, item) in items.iter().enumerate() {
            // The item's rules are checked here, so that an error names the item.
            let from = self.rules.rules().len();
            let read = self
                .item(key, item)
                .and_then(|read| self.rules.validate_from(self.shape, from).map(|()| read))
                .map_err(|e| (vec![i], e))?;
            if !read {
                return Err((Vec::new(), not_read(key)));
            }
        }
        Ok(())
    }

    /// One item of the constraint `key`'s list; `false` where this tool does not read `key`.
    fn item(&mut self, key: &str, item: &Value) -> Result<bool, String> {
        let n = self.n;
        let value_of = |item: &Value| number(item.get("value"));
        match key {
            "killercage" => {
                let cells = self.cells(item.get("cells"))?;
                let sum = match item.get("value") {
                    None => None,
                    Some(v) if v.is_empty() => None,
                    Some(_) => Some(
                        value_of(item)
                            .and_then(|s| u32::try_from(s).ok())
                            .ok_or("a cage sum that is not a number")?,
                    ),
                };
                self.rules.push(Rule::Cage { cells, sum });
            }
            "extraregion" => {
                let cells = self.cells(item.get("cells"))?;
                self.rules.push(Rule::AllDifferent(cells));
            }
            "odd" | "even" => {
                let cell = self.cell(item.get("cell").unwrap_or(&Value::Null))?;
                let mask = if key == "odd" {
                    0x5555_5555_5555_5555
                } else {
                    0xAAAA_AAAA_AAAA_AAAA
                };
                self.rules.push(Rule::Only {
                    cell,
                    digits: mask & ((1u64 << n) - 1),
                });
            }
            "littlekiller" => {
                let sum = value_of(item)
                    .and_then(|s| u32::try_from(s).ok())
                    .ok_or("a little killer without a sum")?;
                let (r, c) = self.any_cell(item.get("cell").unwrap_or(&Value::Null))?;
                let (dr, dc): (isize, isize) = match item.get("direction").and_then(Value::as_str) {
                    Some("UL") => (-1, -1),
                    Some("UR") => (-1, 1),
                    Some("DL") => (1, -1),
                    Some("DR") => (1, 1),
                    Some(other) => {
                        let expected = r#""UL", "UR", "DL" or "DR""#;
                        return Err(format!(
                            "a little killer direction {other:?}, expected {expected}"
                        ));
                    }
                    None => return Err("a little killer without a direction".to_string()),
                };
                let (mut r, mut c) = (r as isize + dr, c as isize + dc);
                let mut cells = Vec::new();
                while (1..=n as isize).contains(&r) && (1..=n as isize).contains(&c) {
                    cells.push((r as usize - 1) * n + c as usize - 1);
                    r += dr;
                    c += dc;
                }
                if cells.is_empty() {
                    return Err("a little killer that points at no cell".into());
                }
                self.rules.push(Rule::LittleKiller { cells, sum });
            }
            "sandwichsum" => {
                let sum = value_of(item)
                    .and_then(|s| u32::try_from(s).ok())
                    .ok_or("a sandwich clue without a sum")?;
                let (r, c) = self.any_cell(item.get("cell").unwrap_or(&Value::Null))?;
                let line = if (r == 0 || r == n + 1) && (1..=n).contains(&c) {
                    Line::Col(c - 1)
                } else if (c == 0 || c == n + 1) && (1..=n).contains(&r) {
                    Line::Row(r - 1)
                } else {
                    return Err("a sandwich clue not outside a row or column".into());
                };
                self.rules.push(Rule::Sandwich { line, sum });
            }
            "arrow" => {
                let circle = {
                    let mut c = self.cells(item.get("cells"))?;
                    c.sort_unstable();
                    c
                };
                if circle.len() > 3 {
                    return Err("an arrow's circle or pill of more than 3 cells".into());
                }
                for line in self.lines(item)? {
                    let shaft: Vec<usize> =
                        line.into_iter().filter(|c| !circle.contains(c)).collect();
                    if shaft.is_empty() {
                        return Err("an arrow without cells outside its circle".into());
                    }
                    self.rules.push(Rule::Arrow {
                        circle: circle.clone(),
                        line: shaft,
                    });
                }
            }
            "thermometer" | "palindrome" | "renban" | "betweenline" | "whispers" => {
                // A whisper's gap: its value, else half the side rounded up (5 on 9×9).
                let gap = match item.get("value") {
                    Some(v) if key == "whispers" && !v.is_empty() => value_of(item)
                        .and_then(|d| u8::try_from(d).ok())
                        .filter(|&d| d >= 1 && usize::from(d) < n)
                        .ok_or(format!(
                            "a whispers gap that is not a number from 1 to {}",
                            n - 1
                        ))?,
                    _ => n.div_ceil(2) as u8,
                };
                for line in self.lines(item)? {
                    self.rules.push(match key {
                        "thermometer" => Rule::Thermo(line),
                        "palindrome" => Rule::Palindrome(line),
                        "renban" => Rule::Renban(line),
                        "betweenline" => Rule::Between(line),
                        _ => Rule::Whisper {
                            cells: line,
                            diff: gap,
                        },
                    });
                }
            }
            "difference" => {
                let cells = self.pair(item)?;
                let diff = value_of(item).unwrap_or(1);
                let diff = u8::try_from(diff).map_err(|_| "a difference out of range")?;
                self.rules.push(Rule::WhiteDot { cells, diff });
            }
            "ratio" => {
                let cells = self.pair(item)?;
                let ratio = value_of(item).unwrap_or(2);
                let ratio = u8::try_from(ratio).map_err(|_| "a ratio out of range")?;
                self.rules.push(Rule::BlackDot { cells, ratio });
            }
            "xv" => {
                let cells = self.pair(item)?;
                let sum = match item.get("value").and_then(Value::as_str) {
                    Some("X" | "x") => 10,
                    Some("V" | "v") => 5,
                    Some(other) => {
                        return Err(format!("an XV clue {other:?}, expected \"X\" or \"V\""))
                    }
                    None => return Err("an XV clue without a value".into()),
                };
                self.rules.push(Rule::Xv { cells, sum });
            }
            "quadruple" => {
                let mut cells = self.cells(item.get("cells"))?;
                cells.sort_unstable();
                let square = match cells[..] {
                    [a, b, c, d] if b == a + 1 && c == a + n && d == a + n + 1 => [a, b, c, d],
                    _ => return Err("a quadruple not on a 2x2 square".into()),
                };
                let digits = item
                    .get("values")
                    .map(Value::items)
                    .unwrap_or_default()
                    .iter()
                    .map(|d| {
                        number(Some(d))
                            .filter(|&d| d >= 1 && d <= n as i64)
                            .map(|d| d as u8)
                            .ok_or(format!("a quadruple digit {d}, expected 1 to {n}"))
                    })
                    .collect::<Result<Vec<u8>, String>>()?;
                self.rules.push(Rule::Quadruple {
                    cells: square,
                    digits,
                });
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish(self) -> Result<Puzzle, String> {
        self.rules.validate(self.shape)?;
        Puzzle::new(self.shape, self.cells)
            .map(|p| p.with_checked_rules(self.rules))
            .map_err(|e| e.to_string())
    }
}

/// Why the key `key` is refused: a constraint this tool does not read, or no key at all.
fn not_read(key: &str) -> String {
    if is_known_unsupported(key) {
        unsupported(key)
    } else {
        format!("unknown f-puzzles key (supported: {CONSTRAINTS})")
    }
}

/// f-puzzles constraints this tool does not read.
fn is_known_unsupported(key: &str) -> bool {
    [
        "clone",
        "minimum",
        "maximum",
        "rowindexer",
        "columnindexer",
        "boxindexer",
        "xsum",
        "skyscraper",
        "entropicline",
        "regionsumline",
        "modularline",
        "doublearrow",
        "zipperline",
        "sumdot",
        "lockoutline",
        "nabner",
        "chaosconstruction",
    ]
    .contains(&key)
}

fn unsupported(key: &str) -> String {
    format!("unsupported f-puzzles constraint {key:?} (supported: {CONSTRAINTS})")
}

/// The row and column of a cell name such as `R3C10` (any case, decimal), wherever it is.
fn cell_name(v: &Value) -> Result<(usize, usize), String> {
    v.as_str()
        .and_then(|s| {
            let up = s.to_ascii_uppercase();
            let (r, c) = up.strip_prefix('R')?.split_once('C')?;
            Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?))
        })
        .ok_or(format!("{v} is not a cell name like \"R1C1\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::iss::parse_constraints;

    fn rules_of(json: &str) -> Vec<Rule> {
        from_json_text(json)
            .unwrap()
            .rules()
            .unwrap()
            .rules()
            .to_vec()
    }

    fn empty_grid(n: usize) -> String {
        let row = format!("[{}]", vec!["{}"; n].join(","));
        format!("[{}]", vec![row; n].join(","))
    }

    #[test]
    fn every_constraint_is_read() {
        let json = format!(
            r#"{{"size":6,"grid":{},"diagonal+":true,"antiknight":true,"negative":["xv"],
            "killercage":[{{"cells":["R1C1","R1C2"],"value":"7"}},{{"cells":["R2C1"]}}],
            "littlekiller":[{{"cell":"R0C2","direction":"DL","value":"5"}}],
            "sandwichsum":[{{"cell":"R0C3","value":4}},{{"cell":"R2C0","value":"0"}}],
            "arrow":[{{"cells":["R3C3"],"lines":[["R3C3","R3C4","R3C5"]]}}],
            "thermometer":[{{"lines":[["R4C1","R4C2"],["R4C1","R5C1"]]}}],
            "difference":[{{"cells":["R6C1","R6C2"]}}],"ratio":[{{"cells":["R6C3","R6C4"],"value":"3"}}],
            "xv":[{{"cells":["R5C5","R5C6"],"value":"V"}}],
            "quadruple":[{{"cells":["R2C6","R1C5","R1C6","R2C5"],"values":[1,2]}}],
            "odd":[{{"cell":"R3C1"}}],"extraregion":[{{"cells":["R1C3","R2C3"]}}],
            "whispers":[{{"lines":[["R5C2","R5C3"]]}}],"clone":[],"title":"t"}}"#,
            empty_grid(6)
        );
        let rules = rules_of(&json);
        assert_eq!(
            rules,
            vec![
                Rule::Diagonal(Diagonal::Anti),
                Rule::AntiKnight,
                Rule::Negative(Negative::Xv),
                Rule::Cage {
                    cells: vec![0, 1],
                    sum: Some(7)
                },
                Rule::Cage {
                    cells: vec![6],
                    sum: None
                },
                Rule::LittleKiller {
                    cells: vec![0],
                    sum: 5
                },
                Rule::Sandwich {
                    line: Line::Col(2),
                    sum: 4
                },
                Rule::Sandwich {
                    line: Line::Row(1),
                    sum: 0
                },
                Rule::Arrow {
                    circle: vec![14],
                    line: vec![15, 16]
                },
                Rule::Thermo(vec![18, 19]),
                Rule::Thermo(vec![18, 24]),
                Rule::WhiteDot {
                    cells: [30, 31],
                    diff: 1
                },
                Rule::BlackDot {
                    cells: [32, 33],
                    ratio: 3
                },
                Rule::Xv {
                    cells: [28, 29],
                    sum: 5
                },
                Rule::Quadruple {
                    cells: [4, 5, 10, 11],
                    digits: vec![1, 2]
                },
                Rule::Only {
                    cell: 12,
                    digits: 0b010101
                },
                Rule::AllDifferent(vec![2, 8]),
                Rule::Whisper {
                    cells: vec![25, 26],
                    diff: 3
                },
            ]
        );
    }

    #[test]
    fn givens_marks_and_regions() {
        let mut grid: Vec<Vec<String>> = vec![vec!["{}".to_string(); 4]; 4];
        grid[0][0] = r#"{"value":3,"given":true}"#.into();
        grid[0][1] = r#"{"value":4}"#.into();
        grid[1][1] = r#"{"givenPencilMarks":[1,2]}"#.into();
        let regions = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 3, 3, 3], [2, 2, 2, 3]];
        for (r, row) in regions.iter().enumerate() {
            for (c, &g) in row.iter().enumerate() {
                if r >= 2 {
                    grid[r][c] = format!(r#"{{"region":{g}}}"#);
                }
            }
        }
        let rows: Vec<String> = grid.iter().map(|r| format!("[{}]", r.join(","))).collect();
        let json = format!(r#"{{"size":4,"grid":[{}]}}"#, rows.join(","));
        let p = from_json_text(&json).unwrap();
        assert_eq!(
            &p.cells()[..4],
            &[3, 0, 0, 0],
            "only given values are givens"
        );
        let rules = p.rules().unwrap();
        assert_eq!(
            rules.rules(),
            &[Rule::Only {
                cell: 5,
                digits: 0b11
            }]
        );
        assert_eq!(
            rules.regions().unwrap(),
            &[0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]
        );
    }

    /// `negative` may name one kind alone; a whisper's gap is its value, else 5 on 9×9.
    #[test]
    fn a_lone_negative_and_whisper_gaps() {
        let grid = empty_grid(9);
        let p = from_json_text(&format!(
            r#"{{"size":9,"grid":{grid},"negative":"ratio","whispers":[{{"lines":[["R1C1","R1C2"]]}},{{"lines":[["R2C1","R2C2"]],"value":"3"}}]}}"#
        ))
        .unwrap();
        let rules = p.rules().unwrap().rules();
        assert!(rules.contains(&Rule::Negative(Negative::Ratios)));
        assert!(rules.contains(&Rule::Whisper {
            cells: vec![0, 1],
            diff: 5
        }));
        assert!(rules.contains(&Rule::Whisper {
            cells: vec![9, 10],
            diff: 3
        }));
    }

    #[test]
    fn a_rule_that_does_not_fit_is_placed_at_its_item() {
        let grid = empty_grid(9);
        let text = format!(
            "{{\"size\":9,\"grid\":{grid},\n\"killercage\":[{{\"cells\":[\"R1C1\",\"R1C2\"]}},\n {{\"cells\":[\"R2C1\",\"R2C1\"]}}]}}"
        );
        let (at, e) = from_json_located(&text).unwrap_err();
        assert!(e.contains("cell r2c1 appears twice"), "{e}");
        let second = text.rfind("{\"cells\"").unwrap();
        assert_eq!(at, Some(second), "{e}");
    }

    #[test]
    fn errors_name_the_key() {
        let grid = empty_grid(9);
        let e = from_json_text(&format!(
            r#"{{"size":9,"grid":{grid},"clone":[{{"cells":["R1C1"]}}]}}"#
        ))
        .unwrap_err();
        assert!(
            e.starts_with("\"clone\": unsupported f-puzzles constraint \"clone\""),
            "{e}"
        );
        let e = from_json_text(&format!(r#"{{"size":9,"grid":{grid},"wibble":[1]}}"#)).unwrap_err();
        assert!(e.starts_with("\"wibble\": unknown f-puzzles key"), "{e}");
        let e = from_json_text(r#"{"size":99}"#).unwrap_err();
        assert!(e.contains("from 1 to 16"), "{e}");
        let e = from_json_text(r#"{"grid":[]}"#).unwrap_err();
        assert!(e.contains("no \"size\""), "{e}");
        let e = from_json_text(&format!(
            r#"{{"size":9,"grid":{grid},"xv":[{{"cells":["R1C1","R1C2"],"value":"Z"}}]}}"#
        ))
        .unwrap_err();
        assert!(e.contains("\"X\" or \"V\""), "{e}");
        // Values are named as the file has them (JSON), never as Rust's `Number(1.0)`.
        for (json, wanted) in [
            (r#""size":"six""#, r#""size" is "six": expected"#),
            (r#""size":-1"#, r#""size" is -1: expected"#),
            (
                r#""size":9,"grid":GRID,"antiknight":1"#,
                r#""antiknight": expected true, found 1"#,
            ),
            (
                r#""size":9,"grid":GRID,"negative":["odd"]"#,
                r#"unsupported negative constraint "odd" (supported: "ratio""#,
            ),
            (
                r#""size":9,"grid":GRID,"negative":"odd""#,
                r#"unsupported negative constraint "odd" (supported: "ratio""#,
            ),
            (
                r#""size":9,"grid":GRID,"whispers":[{"lines":[["R1C1","R1C2"]],"value":300}]"#,
                r#"a whispers gap that is not a number from 1 to 8"#,
            ),
            (
                r#""size":9,"grid":GRID,"killercage":[{"cells":["R1C1","R10C2"]}]"#,
                r#""R10C2" is not a cell of the 9x9 grid (R1C1 to R9C9)"#,
            ),
            (
                r#""size":9,"grid":GRID,"killercage":[{"cells":["R1C1",7]}]"#,
                r#"7 is not a cell name like "R1C1""#,
            ),
            (
                r#""size":9,"grid":GRID,"littlekiller":[{"cell":"R12C1","value":"3","direction":"UR"}]"#,
                r#""R12C1" is outside the 9x9 grid and its border (R0C0 to R10C10)"#,
            ),
            (
                r#""size":9,"grid":GRID,"quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[12]}]"#,
                "a quadruple digit 12, expected 1 to 9",
            ),
        ] {
            let e = from_json_text(&format!("{{{}}}", json.replace("GRID", &grid))).unwrap_err();
            assert!(
                e.contains(wanted) && !e.contains("Number(") && !e.contains("String("),
                "{e}"
            );
        }
        // An option's value is named as the file has it, never as a Rust `Some(..)`.
        for (direction, wanted) in [
            (r#","direction":"UP""#, "direction \"UP\", expected \"UL\""),
            ("", "without a direction"),
        ] {
            let e = from_json_text(&format!(
                r#"{{"size":9,"grid":{grid},"littlekiller":[{{"cell":"R1C1","value":"10"{direction}}}]}}"#
            ))
            .unwrap_err();
            assert!(e.contains(wanted) && !e.contains("Some("), "{e}");
        }
    }

    #[test]
    fn links() {
        // ISS's collections give this link beside their constraint string (Sandwich snipe 18).
        let link = include_str!("../../puzzles/variants/sandwich_snipe_18.fpuzzles-link.txt");
        let payload = link_payload(link.trim()).unwrap().unwrap();
        let from_link = from_link_payload(&payload).unwrap();
        let iss = parse_constraints(
            ".Sandwich~18~C1.Sandwich~18~C2.Sandwich~18~C3.Sandwich~18~C4.Sandwich~18~C5\
             .Sandwich~18~C7.Sandwich~18~R1.Sandwich~18~R2.Sandwich~18~R3.Sandwich~18~R4\
             .Sandwich~18~R5.Sandwich~18~R6.Sandwich~18~C9",
            None,
        )
        .unwrap();
        assert_eq!(from_link, iss);
        let sudokupad = format!("https://sudokupad.app/fpuzzles{payload}");
        assert_eq!(link_payload(&sudokupad).unwrap().unwrap(), payload);
        assert!(link_payload("https://sudokupad.app/abc123")
            .unwrap()
            .is_err());
        assert!(link_payload(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        )
        .is_none());
        // A note after a grid that names f-puzzles is not a link; a web address after a name is.
        let grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        assert!(link_payload(&format!("{grid} exported-from-fpuzzles")).is_none());
        assert!(link_payload(&format!("{grid} see ?load=abc")).is_none());
        let named = format!("Puzzle 3: {sudokupad}");
        assert_eq!(link_payload(&named).unwrap().unwrap(), payload);
        assert_eq!(percent_decode("N4Ig%2Bx%3D").unwrap(), "N4Ig+x=");
    }
}
