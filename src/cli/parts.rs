//! The parts file, written by `split` and read by `merge`: for each puzzle a comment header
//! `# split of=ID box=RxC parts=K source=FILE:LINE puzzle=LINE`, then one part per line,
//! `PART part=I/K of=ID box=RxC`, where `PART` is an ordinary one-line puzzle (the puzzle
//! readers ignore the tags after it) and `ID` is 16 hex digits naming the original puzzle (a
//! hash of its box shape and line).

use super::input::{display_name, open_input};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::path::Path;
use sudoku_enum::partition::Part;
use sudoku_enum::Puzzle;

/// The 16-hex-digit id of a puzzle: FNV-1a (64 bits) of `RxC LINE`.
pub fn puzzle_id(p: &Puzzle) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{} {}", p.shape(), p.to_text()).bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Write the header and the part lines of `puzzle` (id `id`, read at `source`).
pub fn write(
    out: &mut impl Write,
    id: &str,
    source: &str,
    puzzle: &Puzzle,
    parts: &[Part],
) -> io::Result<()> {
    let shape = puzzle.shape();
    let k = parts.len();
    writeln!(
        out,
        "# split of={id} box={shape} parts={k} source={source} puzzle={}",
        puzzle.to_text()
    )?;
    for (i, part) in parts.iter().enumerate() {
        writeln!(
            out,
            "{} part={}/{k} of={id} box={shape}",
            part.puzzle.to_text(),
            i + 1
        )?;
    }
    Ok(())
}

/// One part of the parts file.
pub struct PartLine {
    /// `FILE:LINE` in the parts file.
    pub at: String,
    /// `I/K`.
    pub tag: String,
    /// The original's id.
    pub of: String,
    /// Its box shape, `RxC`.
    pub box_shape: Option<String>,
    /// Its one-line puzzle.
    pub puzzle: String,
    /// The result found for it: (solutions, where).
    pub result: Option<(u128, String)>,
    /// An incomplete result was seen for it (reported already).
    pub incomplete: bool,
}

/// One original puzzle of the parts file.
pub struct Original {
    /// Its id.
    pub id: String,
    /// Where it was read (`source=` of its header), or its puzzle line.
    pub header: Option<String>,
    /// Parts announced (`K` of `I/K`, or `parts=` of the header).
    announced: Option<usize>,
    /// Its parts (indices into the parts).
    pub parts: Vec<usize>,
}

impl Original {
    /// Its split found no solution and wrote no part (`parts=0` in its header): its count is 0.
    pub fn proved_empty(&self) -> bool {
        self.announced == Some(0)
    }
}

/// The tags `key=value` after a part's grid.
fn tags(rest: &[&str]) -> HashMap<String, String> {
    rest.iter()
        .filter_map(|t| t.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Line `n` (from 0) of a parts or results file as text, without the UTF-8 byte-order mark
/// that Windows tools write at a file's start (PowerShell 5's `Set-Content -Encoding utf8`).
pub fn line_text(n: usize, line: &[u8]) -> std::borrow::Cow<'_, str> {
    let line = match line.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) if n == 0 => rest,
        _ => line,
    };
    String::from_utf8_lossy(line)
}

/// Read the parts file: the parts (in file order) and the originals (in order of appearance).
pub fn read(path: &Path) -> Result<(Vec<PartLine>, Vec<Original>), String> {
    let name = display_name(path);
    let input = open_input(path).map_err(|e| format!("{name}: {e}"))?;
    let mut parts = Vec::new();
    let mut originals: Vec<Original> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut original = |id: &str, originals: &mut Vec<Original>| -> usize {
        *index.entry(id.to_string()).or_insert_with(|| {
            originals.push(Original {
                id: id.to_string(),
                header: None,
                announced: None,
                parts: Vec::new(),
            });
            originals.len() - 1
        })
    };
    for (n, line) in input.split(b'\n').enumerate() {
        let line = line.map_err(|e| format!("{name}: read error: {e}"))?;
        let line = line_text(n, &line);
        let at = format!("{name}:{}", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            None => continue,
            Some(&"#") if words.get(1) == Some(&"split") => {
                let t = tags(&words[2..]);
                let Some(id) = t.get("of") else { continue };
                let o = original(id, &mut originals);
                let k = t.get("parts").and_then(|k| k.parse().ok());
                originals[o].announced = originals[o].announced.or(k);
                originals[o].header = Some(match (t.get("source"), t.get("puzzle")) {
                    (Some(s), _) => s.clone(),
                    (None, Some(p)) => p.clone(),
                    _ => id.clone(),
                });
            }
            Some(w) if w.starts_with('#') => continue,
            Some(&grid) => {
                let t = tags(&words[1..]);
                let (Some(tag), Some(of)) = (t.get("part"), t.get("of")) else {
                    return Err(format!(
                        "{at}: not a part line (expected PUZZLE part=I/K of=ID from split)"
                    ));
                };
                let k = tag
                    .split_once('/')
                    .and_then(|(_, k)| k.parse::<usize>().ok())
                    .ok_or_else(|| format!("{at}: bad part tag {tag:?} (expected I/K)"))?;
                let o = original(of, &mut originals);
                if let Some(a) = originals[o].announced {
                    if a != k {
                        return Err(format!(
                            "{at}: part {tag} of {of} disagrees with the {a} parts announced"
                        ));
                    }
                }
                originals[o].announced = Some(k);
                originals[o].parts.push(parts.len());
                parts.push(PartLine {
                    at,
                    tag: tag.clone(),
                    of: of.clone(),
                    box_shape: t.get("box").cloned(),
                    puzzle: grid.to_string(),
                    result: None,
                    incomplete: false,
                });
            }
        }
    }
    // Each original must list parts 1..=K once each.
    for o in &originals {
        let k = o.announced.unwrap_or(0);
        let mut have = vec![false; k];
        for &p in &o.parts {
            let i = parts[p]
                .tag
                .split_once('/')
                .and_then(|(i, _)| i.parse::<usize>().ok())
                .filter(|&i| (1..=k).contains(&i));
            match i {
                Some(i) if !have[i - 1] => have[i - 1] = true,
                _ => {
                    return Err(format!(
                        "{}: part {} of {} is out of range or listed twice in the parts file",
                        parts[p].at, parts[p].tag, o.id
                    ))
                }
            }
        }
        if let Some(i) = have.iter().position(|h| !h) {
            return Err(format!(
                "{name}: part {}/{k} of {} is not in the parts file (truncated?)",
                i + 1,
                o.id
            ));
        }
    }
    Ok((parts, originals))
}
