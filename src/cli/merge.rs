//! `merge`: add up the `count --json` results of the parts `split` wrote, refusing (exit 2)
//! when a part is missing, duplicated or incomplete, or a result belongs to no part.

use super::args::MergeArgs;
use super::input::{display_name, open_input, or_stdin};
use super::parts::{self, PartLine};
use super::progress::{note, Bar};
use super::report::plural;
use super::status::{exit, Fatal, CANCEL};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// The integer `key` of a JSON object, exactly (a `Value` keeps only 64 bits, then an `f64`):
/// read from the field's own text.
fn exact_integer(line: &str, key: &str) -> Option<u128> {
    let fields: HashMap<String, Box<RawValue>> = serde_json::from_str(line).ok()?;
    serde_json::from_str(fields.get(key)?.get()).ok()
}

/// Stopped by Ctrl-C (or SIGTERM, SIGHUP) before every input was read: nothing added up.
fn interrupted() -> u8 {
    note(format_args!(
        "sudoku-enum: merge: interrupted before the inputs were read: nothing added up"
    ));
    exit::INTERRUPTED
}

/// `sudoku-enum merge`.
pub fn run(args: MergeArgs) -> Result<u8, Fatal> {
    let read = parts::read(&args.parts);
    if CANCEL.is_cancelled() {
        return Ok(interrupted());
    }
    let (mut parts, originals) = read.map_err(|m| Fatal::Message(format!("merge: {m}")))?;
    let mut by_grid: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, p) in parts.iter().enumerate() {
        by_grid.entry(p.puzzle.as_str()).or_default().push(i);
    }
    let by_grid: HashMap<String, Vec<usize>> = by_grid
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let counter = Arc::new(AtomicU64::new(0));
    let bar = Bar::start(
        args.quiet,
        Arc::clone(&counter),
        Some(parts.len() as u64),
        "results".to_string(),
    );
    let mut problems: Vec<String> = Vec::new();
    for path in &or_stdin(&args.results) {
        let name = display_name(path);
        let input = match open_input(path) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (n, line) in input.split(b'\n').enumerate() {
            let at = format!("{name}:{}", n + 1);
            let line = match line {
                Ok(l) => parts::line_text(n, &l).into_owned(),
                Err(e) => {
                    problems.push(format!("{name}: read error: {e}"));
                    break;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            counter.fetch_add(1, Relaxed);
            if let Err(m) = take_result(&line, &at, &mut parts, &by_grid) {
                problems.push(m);
            }
        }
    }
    drop(bar);
    // Ctrl-C while the inputs were read (a pipe still open, say): they end there, unread, and
    // a total of what was read would be no total.
    if CANCEL.is_cancelled() {
        return Ok(interrupted());
    }
    if parts.is_empty() && !originals.iter().any(parts::Original::proved_empty) {
        // An empty parts file (split interrupted, or refusing an invalid puzzle) is no
        // evidence of a count of 0; a header with `parts=0` is (the split found no solution).
        problems.push(format!(
            "{}: no parts (is it the output of a split that finished?)",
            args.parts.display()
        ));
    }
    for p in &parts {
        if p.result.is_none() && !p.incomplete {
            problems.push(format!(
                "part {} of {} ({}, {}) has no result",
                p.tag, p.of, p.at, p.puzzle
            ));
        }
    }
    if !problems.is_empty() {
        const SHOWN: usize = 20;
        for m in problems.iter().take(SHOWN) {
            note(format_args!("sudoku-enum: merge: {m}"));
        }
        if problems.len() > SHOWN {
            note(format_args!(
                "sudoku-enum: merge: ... and {} more problems",
                problems.len() - SHOWN
            ));
        }
        note(format_args!(
            "sudoku-enum: merge: refusing to add up: {} problem{} (every part needs exactly one \
             complete result)",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        ));
        return Ok(exit::ERROR);
    }
    let per: Vec<(Option<u128>, usize)> = originals
        .iter()
        .map(|o| {
            let sum = o
                .parts
                .iter()
                .map(|&p| parts[p].result.as_ref().map_or(0, |r| r.0))
                .try_fold(0u128, u128::checked_add);
            (sum, o.parts.len())
        })
        .collect();
    let total = per
        .iter()
        .try_fold(0u128, |t, p| p.0.and_then(|s| t.checked_add(s)));
    let (Some(total), Some(per)) = (
        total,
        per.into_iter()
            .map(|(s, k)| s.map(|s| (s, k)))
            .collect::<Option<Vec<(u128, usize)>>>(),
    ) else {
        note(format_args!(
            "sudoku-enum: merge: refusing to add up: the total exceeds 2^128 - 1"
        ));
        return Ok(exit::ERROR);
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        let puzzles: Vec<Value> = originals
            .iter()
            .zip(&per)
            .map(|(o, (sum, k))| {
                json!({"of": o.id, "source": o.header, "solutions": sum, "parts": k})
            })
            .collect();
        writeln!(
            out,
            "{}",
            json!({"solutions": total, "parts": parts.len(), "complete": true, "puzzles": puzzles})
        )
    } else {
        let mut text = String::new();
        if originals.len() > 1 {
            for (o, (sum, k)) in originals.iter().zip(&per) {
                let label = o.header.clone().unwrap_or_else(|| o.id.clone());
                text += &format!(
                    "{label} (of={}): {} ({})\n",
                    o.id,
                    plural(*sum, "solution"),
                    plural(*k, "part")
                );
            }
        }
        text += &format!(
            "total: {} ({})\n",
            plural(total, "solution"),
            plural(parts.len(), "part")
        );
        out.write_all(text.as_bytes())
    };
    written?;
    Ok(exit::OK)
}

/// Match one JSON result line to its part.
fn take_result(
    line: &str,
    at: &str,
    parts: &mut [PartLine],
    by_grid: &HashMap<String, Vec<usize>>,
) -> Result<(), String> {
    let v: Value =
        serde_json::from_str(line).map_err(|e| format!("{at}: not a JSON result line: {e}"))?;
    let source = v.get("source").and_then(Value::as_str).unwrap_or("?");
    if v.get("verdict").and_then(Value::as_str) == Some("error") {
        let msg = v.get("error").and_then(Value::as_str).unwrap_or("error");
        return Err(format!(
            "{at}: result for {source} is an error ({msg}); it belongs to no part"
        ));
    }
    let Some(grid) = v.get("puzzle").and_then(Value::as_str) else {
        return Err(format!(
            "{at}: no \"puzzle\" field (expected count --json output)"
        ));
    };
    let Some(candidates) = by_grid.get(grid) else {
        return Err(format!(
            "{at}: result for {source} ({grid}) belongs to no part of the parts file"
        ));
    };
    let rbox = v.get("box").and_then(Value::as_str);
    let candidates: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| match (&parts[i].box_shape, rbox) {
            (Some(b), Some(r)) => b == r,
            _ => true,
        })
        .collect();
    let Some(&first) = candidates.first() else {
        return Err(format!(
            "{at}: result for {source} was counted with box {} but its part has box {} \
             (pass --box to count)",
            rbox.unwrap_or("?"),
            by_grid[grid]
                .first()
                .and_then(|&i| parts[i].box_shape.clone())
                .unwrap_or_default()
        ));
    };
    let name = |i: usize, parts: &[PartLine]| {
        format!("part {} of {} ({})", parts[i].tag, parts[i].of, parts[i].at)
    };
    if v.get("complete").and_then(Value::as_bool) != Some(true) {
        let why = v
            .get("stopped")
            .and_then(Value::as_str)
            .unwrap_or("not complete");
        parts[first].incomplete = true;
        let again = match why {
            "interrupted" => "count it again (cancelled, or stopped at a time limit?)",
            _ => "count it again without --limit/--timeout",
        };
        return Err(format!(
            "{}: result {at} is incomplete ({why}); {again}",
            name(first, parts)
        ));
    }
    let n = match v.get("solutions") {
        Some(Value::Number(x)) => match x.as_u64() {
            Some(n) => Some(n as u128),
            // Beyond 64 bits `Value` keeps only an f64: read the digits themselves.
            None => exact_integer(line, "solutions")
                .filter(|&n| x.as_f64().is_some_and(|f| (n as f64 - f).abs() <= f * 1e-9)),
        },
        _ => None,
    };
    let Some(n) = n else {
        return Err(format!("{at}: no integer \"solutions\" field"));
    };
    match candidates.iter().find(|&&i| parts[i].result.is_none()) {
        Some(&i) => {
            parts[i].result = Some((n, at.to_string()));
            Ok(())
        }
        None => {
            let earlier = parts[first]
                .result
                .as_ref()
                .map_or(String::new(), |r| r.1.clone());
            Err(format!(
                "{}: duplicated: results at {earlier} and {at}",
                name(first, parts)
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_integers_survive() {
        let line = r#"{"source":"a:1","solutions":6670903752021072936960,"complete":true}"#;
        assert_eq!(
            exact_integer(line, "solutions"),
            Some(6_670_903_752_021_072_936_960)
        );
        assert_eq!(
            exact_integer(r#"{"solutions": 12 }"#, "solutions"),
            Some(12)
        );
        assert_eq!(
            exact_integer(r#"{"x":"\"solutions\":1x"}"#, "solutions"),
            None
        );
    }
}
