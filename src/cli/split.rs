//! `split`: cut each puzzle into disjoint parts (one-line sub-puzzles) to count anywhere with
//! `count --json`; `merge` adds the results up. The parts file is [`parts`](super::parts)'s.

use super::args::SplitArgs;
use super::input::for_each_puzzle;
use super::parts::{self, puzzle_id};
use super::progress::{note, Bar, TermOut};
use super::status::{exit_for, Fatal, CANCEL};
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use sudoku_enum::partition;
use sudoku_enum::rules::MAX_TEXT_SIDE;
use sudoku_enum::EngineChoice;

/// `sudoku-enum split`.
pub fn run(args: SplitArgs) -> Result<u8, Fatal> {
    if args.parts == Some(0) {
        return Err(Fatal::Message("--parts must be at least 1".to_string()));
    }
    let engine = EngineChoice::from(args.engine);
    let counter = Arc::new(AtomicU64::new(0));
    let bar = Bar::start(
        args.quiet,
        Arc::clone(&counter),
        None,
        "nodes expanded".to_string(),
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(TermOut::new(stdout.lock()));
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut failed = false;
    let errors = for_each_puzzle(
        &args.files,
        args.input.parse_options(args.box_shape),
        |source, puzzle| {
            let id = puzzle_id(&puzzle);
            if let Some(first) = seen.get(&id) {
                note(format_args!(
                    "sudoku-enum: {source}: the same puzzle as {first}; its parts are there"
                ));
                return Ok(());
            }
            seen.insert(id.clone(), source.clone());
            let shape = puzzle.shape();
            if let Some(rules) = puzzle.rules() {
                if rules.to_constraint_string(shape, puzzle.cells()).is_none() {
                    // Parts are lines; a variant's rules would be lost from them.
                    note(format_args!(
                        "sudoku-enum: {source}: a {n}x{n} variant (pencil marks or rules) has \
                         no one-line form above {max}x{max} (constraint strings name cells up \
                         to there); no parts",
                        n = shape.side(),
                        max = MAX_TEXT_SIDE
                    ));
                    failed = true;
                    return Ok(());
                }
            }
            let follow = partition::Follow {
                progress: Some(&counter),
                cancel: Some(&CANCEL),
            };
            let cut = match (args.parts, args.depth) {
                (_, Some(d)) => partition::split_depth(&puzzle, d, engine, follow),
                (k, None) => partition::split(&puzzle, k.unwrap_or(1), engine, follow),
            };
            // Interrupted: nothing more is written (a part file cut short would count less).
            if CANCEL.is_cancelled() {
                return Ok(());
            }
            match cut {
                Ok(cut) => {
                    // A cut stopped by the bound has more than `MAX_PARTS - N` parts (a node
                    // has at most N children).
                    let near = partition::MAX_PARTS - puzzle.shape().side();
                    if let (Some(d), true) = (args.depth, cut.len() > near) {
                        note(format_args!(
                            "sudoku-enum: {source}: {} parts, near the most split makes ({}): \
                             the cut may stop short of depth {d} (the parts still make up the \
                             puzzle)",
                            cut.len(),
                            partition::MAX_PARTS
                        ));
                    }
                    parts::write(&mut out, &id, &source, &puzzle, &cut)?
                }
                Err(c) => {
                    note(format_args!(
                        "sudoku-enum: {source}: invalid: {c}; no parts"
                    ));
                    failed = true;
                }
            }
            Ok(out.flush()?)
        },
    )?;
    drop(bar);
    Ok(exit_for(errors > 0, failed))
}
