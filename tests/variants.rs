//! Variant sudoku from the command line (issue 19): ISS constraint strings in every mode, the
//! parts of a split carrying the rules, unsupported types refused by name.

use crate::util::run;

/// A 6×6 with anti-knight, a killer cage and a thermometer: 32 solutions.
const SIX: &str = ".Shape~6x6.AntiKnight.Cage~7~R1C1~R1C2.Thermo~R2C1~R2C2~R2C3.~R6C6_1";
/// ISS's "Anti-knight Anti-king" (9×9, unique).
const AKAK: &str = ".AntiKnight.AntiKing.~R1C1_1~R1C7_5~R1C8_6~R1C9_7~R2C1_2~R2C2_3~R2C3_4~R2C9_8";
const AKAK_SOLUTION: &str =
    "198234567234567198567198234982345671345671982671982345823456719456719823719823456";

#[test]
fn every_mode_reads_constraint_strings() {
    let (code, out, _) = run(&["count", "-q"], SIX);
    assert_eq!((code, out.as_str()), (0, "<stdin>:1: 32 solutions\n"));
    let (_, out, _) = run(&["count", "-q", "--limit", "5"], SIX);
    assert_eq!(out, "<stdin>:1: at least 5 solutions (limit reached)\n");
    let (code, out, _) = run(&["check", "-q"], AKAK);
    assert_eq!((code, out.as_str()), (0, "<stdin>:1: unique\n"));
    let (_, out, _) = run(&["solve", "-q"], AKAK);
    assert_eq!(out, format!("{AKAK_SOLUTION}\n"));
    let (_, out, _) = run(&["dump", "-q", "-n", "40"], SIX);
    let grids: Vec<&str> = out.lines().collect();
    assert_eq!(grids.len(), 32, "{out}");
    assert!(grids.iter().all(|g| g.len() == 36 && g.ends_with('1')));
    let (_, out, _) = run(&["solve", "-q", "--json"], AKAK);
    assert!(
        out.contains(&format!("\"solution\":\"{AKAK_SOLUTION}\"")),
        "{out}"
    );
    assert!(
        out.contains("\"puzzle\":\".AntiKnight.AntiKing.~R1C1_1~"),
        "{out}"
    );
}

/// Puzzles with the same rules share their set-up, not what one's search learned: the same
/// puzzle twice in a file is searched the same way twice (the second had gone on from the
/// first's conflict scores: another first solution, another order, other guesses).
#[test]
fn the_same_puzzle_twice_is_searched_the_same_way() {
    // The first puzzle of `puzzles/variants/candidates_bench.txt`: 186 solutions.
    let p =
        ".AntiConsecutive.X~R7C8~R7C9.X~R4C2~R4C3.X~R5C2~R6C2.X~R5C6~R6C6.X~R5C7~R4C7.X~R8C9~R9C9";
    let twice = format!("{p}\n{p}\n");
    let (_, out, _) = run(&["solve", "-q", "-j1"], &twice);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], lines[1]);
    let (_, out, _) = run(&["check", "-q", "-j1", "--json"], &twice);
    let guesses: Vec<&str> = out
        .lines()
        .map(|l| {
            l.split("\"guesses\":")
                .nth(1)
                .unwrap_or("")
                .split(',')
                .next()
                .unwrap_or("")
        })
        .collect();
    assert_eq!(guesses.len(), 2, "{out}");
    assert!(!guesses[0].is_empty() && guesses[0] == guesses[1], "{out}");
}

#[test]
fn candidates_of_a_variant() {
    let (code, out, _) = run(&["candidates", "-q", "--json"], AKAK);
    assert_eq!(code, 0);
    assert!(out.contains("\"verdict\":\"unique\""), "{out}");
    let (_, out, _) = run(&["candidates", "-q"], SIX);
    assert!(
        out.contains("32 cells with more than one candidate"),
        "{out}"
    );
}

#[test]
fn split_parts_carry_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let parts = dir.path().join("parts.txt");
    let results = dir.path().join("results.jsonl");
    let (code, out, err) = run(&["split", "-q", "--parts", "4"], SIX);
    assert_eq!(code, 0, "{err}");
    std::fs::write(&parts, &out).unwrap();
    for line in out.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            line.starts_with(".Shape~6x6.AntiKnight.Cage~7~R1C1~R1C2.Thermo~R2C1~R2C2~R2C3.~"),
            "{line}"
        );
    }
    // Exit 1: a part has no solution.
    let (code, out, err) = run(&["count", "-q", "--json", parts.to_str().unwrap()], "");
    assert!(code <= 1, "{err}");
    std::fs::write(&results, out).unwrap();
    let (code, out, err) = run(
        &[
            "merge",
            "-q",
            "--parts",
            parts.to_str().unwrap(),
            results.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("total: 32 solutions"), "{out}");
}

/// Found by an adversarial review: rules that were read wrong. Every `Jigsaw` holds (the
/// earlier ones were dropped: 6 solutions instead of ISS's none); two givens for one cell are
/// unsolvable, not unreadable; 16×16 sandwich rows are decimal (`R10`), as `split` writes them.
#[test]
fn constraint_strings_read_as_iss_reads_them() {
    let jigsaws = ".Shape~4x4.Jigsaw~1111000320332223.Jigsaw~0333022301220111.NoBoxes\
                   .Jigsaw~2222113310031003.NoBoxes.~R3C4_4~R2C2_3";
    let (code, out, _) = run(&["count", "-q"], jigsaws);
    assert_eq!(
        (code, out.as_str()),
        (1, "<stdin>:1: 0 solutions (unsolvable)\n")
    );
    let (code, out, _) = run(&["count", "-q"], ".Shape~4x4.~R1C1_1.~R1C1_2");
    assert_eq!(
        (code, out.as_str()),
        (1, "<stdin>:1: 0 solutions (unsolvable)\n")
    );
    // A renban without cells holds nothing (ISS), as a thermometer without cells.
    let (code, out, _) = run(&["count", "-q"], ".Shape~4x4.Renban.Thermo");
    assert_eq!((code, out.as_str()), (0, "<stdin>:1: 288 solutions\n"));
    let sandwich = ".Shape~16x16.Sandwich~0~R10.Sandwich~0~C16";
    let (code, out, err) = run(&["count", "-q", "--limit", "3"], sandwich);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "<stdin>:1: at least 3 solutions (limit reached)\n");
}

/// A board of values from 0 is written from 0 whatever `--output-alphabet` asks (it was
/// written shifted by one in `numbers`, `1-9A-Z` and `A-Z`).
#[test]
fn zero_based_boards_keep_their_values() {
    let p = ".Shape~6x6~0-5.Cage~3~R1C1~R1C2.Cage~4~R6C1~R6C2.V~R4C5~R4C6.~R1C5_3~R2C2_0~R2C4_2~R3C4_1~R4C3_2~R5C1_5~R5C3_1~R5C5_4";
    for a in ["numbers", "1-9A-Z", "A-Z", "0-F"] {
        let (code, out, err) = run(&["solve", "-q", "--output-alphabet", a], p);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "215034304251450123132405521340043512\n", "{a}");
    }
}

/// What `--json` writes reads back: the puzzle member of each line is the variant itself.
#[test]
fn json_output_reads_back() {
    let (code, out, err) = run(&["count", "-q", "--json"], &format!("{SIX}\n{AKAK}\n"));
    assert_eq!(code, 0, "{err}");
    let (code, again, err) = run(&["count", "-q"], &out);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, "<stdin>:1: 32 solutions\n<stdin>:2: 1 solution\n");
}

#[test]
fn unsupported_types_are_named() {
    let (code, out, err) = run(&["check", "-q"], ".Skyscraper~R1~3.~R1C1_1");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.starts_with("sudoku-enum: <stdin>:1:2: unsupported constraint type \"Skyscraper\""),
        "{err}"
    );
}

#[test]
fn a_misspelt_type_and_a_rule_that_does_not_fit_are_placed() {
    // A misspelt first type is named, not read as a grid with a '~' in it.
    let (code, _, err) = run(&["check", "-q"], ".Diagnal~1.Cage~3~R1C1~R1C2");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("sudoku-enum: <stdin>:1:2: unknown constraint type \"Diagnal\""),
        "{err}"
    );
    // A rule that does not fit is placed at its own item.
    let (code, _, err) = run(&["check", "-q"], ".Cage~10~R1C1~R1C2.Cage~5~R2C1~R2C1");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("sudoku-enum: <stdin>:1:20: killer cage: cell r2c1 appears twice"),
        "{err}"
    );
}

#[test]
fn explain_says_variants_are_not_rated() {
    // Exit 1: not unique.
    let (code, out, _) = run(&["check", "-q", "--explain"], SIX);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "<stdin>:1: multiple (at least 2 solutions)\n\
         # <stdin>:1: no singles rating: --explain rates classic rules only\n"
    );
}

#[test]
fn fpuzzles_files_and_links() {
    let json = crate::util::puzzle_path("variants/killer_thermo_6x6.json");
    let links = crate::util::puzzle_path("variants/killer_thermo_6x6.links.txt");
    let (code, out, err) = run(
        &[
            "count",
            "-q",
            json.to_str().unwrap(),
            links.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let counts: Vec<&str> = out
        .lines()
        .map(|l| l.rsplit(": ").next().unwrap())
        .collect();
    assert_eq!(counts, ["32 solutions"; 3], "{out}");
    // The same puzzle as SIX.
    let (_, out, _) = run(
        &["count", "-q", "--json"],
        &std::fs::read_to_string(&json).unwrap(),
    );
    assert!(out.contains(&format!("\"puzzle\":\"{SIX}\"")), "{out}");
    let (code, _, err) = run(
        &["count", "-q"],
        "{\"size\":9,\"clone\":[{\"cells\":[\"R1C1\"]}]}",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("\"clone\": unsupported f-puzzles constraint \"clone\""),
        "{err}"
    );
}

/// The puzzles of ISS's collections in `puzzles/variants/iss_collection.txt`: the same verdict
/// and the same solution as ISS (each puzzle's `# NAME: VERDICT [SOLUTION]` line).
#[test]
fn iss_collection_puzzles_agree_with_iss() {
    let path = crate::util::puzzle_path("variants/iss_collection.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let expected: Vec<(&str, &str, Option<&str>)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter_map(|l| {
            let (name, rest) = l.rsplit_once(": ")?;
            let mut words = rest.split(' ');
            let verdict = words.next()?;
            ["unique", "multiple", "unsolvable"]
                .contains(&verdict)
                .then(|| (name, verdict, words.next()))
        })
        .collect();
    assert!(expected.len() >= 20, "{}", expected.len());
    let (code, out, err) = run(
        &["solve", "--json", "-q", "-j", "1", path.to_str().unwrap()],
        "",
    );
    assert!(code <= 1, "{err}");
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), expected.len());
    for ((name, verdict, solution), a) in expected.iter().zip(&answers) {
        assert_eq!(a["verdict"], *verdict, "{name}");
        if let Some(s) = solution {
            assert_eq!(a["solution"], *s, "{name}");
        }
    }
}
