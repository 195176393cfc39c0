//! The input formats of issue 20 as a user meets them: alphabets, and the files other tools
//! write (each sample under puzzles/formats/ says where it comes from).

use crate::util::{puzzle_path, run};

fn path(name: &str) -> String {
    puzzle_path(name).to_str().unwrap().to_string()
}

/// The solution of puzzles/big16.txt in the standard alphabet.
fn big16_solution() -> String {
    let (code, out, err) = run(&["solve", &path("big16.txt")], "");
    assert_eq!(code, 0, "{err}");
    out.trim().to_string()
}

/// `line` (standard alphabet, values 1..=16) in hex or letters.
fn relabel(line: &str, digits: &str) -> String {
    let standard = "123456789ABCDEFG";
    line.chars()
        .map(|c| match standard.find(c) {
            Some(i) => digits.as_bytes()[i] as char,
            None => c,
        })
        .collect()
}

#[test]
fn a_clash_is_named_in_the_boards_alphabet() {
    // puzzles/big16.txt with its first cell given as the digit at r1c13 clashes in row 1; the
    // message names that digit as the board writes it, in every alphabet and subcommand.
    let line = std::fs::read_to_string(path("big16.txt")).unwrap();
    let line = line
        .lines()
        .find(|l| !l.starts_with('#') && l.len() == 256)
        .unwrap()
        .to_string();
    let clash = |digits: &str, args: &[&str]| {
        let board = relabel(&line, digits);
        let given = board.chars().nth(12).unwrap();
        assert_ne!(given, '.', "r1c13 holds a given");
        let board = format!("{given}{}", &board[1..]);
        for job in ["check", "count", "solve", "dump", "candidates"] {
            let mut all = vec![job];
            all.extend_from_slice(args);
            let (_, out, err) = run(&all, &board);
            let want = format!("{given} appears twice in row 1: r1c1 and r1c13");
            assert!(
                out.contains(&want) || err.contains(&want),
                "{job} {args:?}: {out}{err}"
            );
        }
    };
    clash("123456789ABCDEFG", &[]);
    clash("ABCDEFGHIJKLMNOP", &[]);
    clash("0123456789ABCDEF", &["--alphabet", "0-F"]);
}

#[test]
fn letter_boards_read_back_in_every_layout_without_being_told() {
    // A board of letters as `solve` writes it reads back with no --alphabet: in a boxed grid
    // its header and row indices are numbers, and its letters were read as 1-9A-Z ('J' out of
    // range on a 16×16).
    let file = path("formats/letters16.txt");
    // (`rows` and `bands` write numbers, as the textbook programs do.)
    let (_, line, _) = run(&["solve", "-q", &file], "");
    for layout in ["line", "grid"] {
        let (code, boards, err) = run(&["solve", "-q", "--format", layout, &file], "");
        assert_eq!(code, 0, "{layout}: {err}");
        let (code, again, err) = run(&["solve", "-q"], &boards);
        assert_eq!(code, 0, "{layout}: {err}");
        let want = if layout == "grid" { 2 } else { 1 };
        let lines: Vec<&str> = again.lines().collect();
        assert_eq!(lines, vec![line.trim(); want], "{layout}: {boards}");
    }
}

#[test]
fn hex_needs_its_alphabet_and_answers_in_it() {
    let file = path("formats/hex16.txt");
    let (code, out, err) = run(&["check", &file], "");
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.starts_with(&format!(
            "sudoku-enum: {file}:4:14: '0' on a 16x16 board that has no 'G': is '0' an empty \
             cell (--alphabet 1-9A-Z) or the hex digit for 1 (--alphabet 0-F, '.' for empty)? \
             give --alphabet\n"
        )),
        "{err}"
    );
    let (code, out, err) = run(&["solve", "--alphabet", "0-F", &file], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), relabel(&big16_solution(), "0123456789ABCDEF"));
    // Told otherwise: the standard alphabet.
    let (_, out, _) = run(
        &[
            "solve",
            "--alphabet",
            "hex",
            "--output-alphabet",
            "1-9A-Z",
            &file,
        ],
        "",
    );
    assert_eq!(out.trim(), big16_solution());
}

/// Every board layout a hex puzzle is written in reads back, with `--alphabet 0-F`, as the
/// same puzzle: the boxed one writes hex characters apart (`0` is 1), the rows one numbers
/// (`0` is empty). The boxed board read its digits as numbers: another puzzle, no error.
#[test]
fn hex_boards_read_back_in_every_layout() {
    let file = path("formats/hex16.txt");
    let (_, line, _) = run(&["solve", "-q", "--alphabet", "0-F", &file], "");
    assert_eq!(line.trim(), relabel(&big16_solution(), "0123456789ABCDEF"));
    for layout in ["line", "grid", "rows", "bands"] {
        let (code, boards, err) = run(
            &[
                "solve",
                "-q",
                "--alphabet",
                "0-F",
                "--format",
                layout,
                &file,
            ],
            "",
        );
        assert_eq!(code, 0, "{layout}: {err}");
        // Each board written (the puzzle and its solution, or the solution) read back: each
        // solves to the same line.
        let (code, again, err) = run(&["solve", "-q", "--alphabet", "0-F"], &boards);
        assert_eq!(code, 0, "{layout}: {err}");
        let want = if matches!(layout, "grid" | "rows") {
            2
        } else {
            1
        };
        let lines: Vec<&str> = again.lines().collect();
        assert_eq!(lines, vec![line.trim(); want], "{layout}: {boards}");
    }
}

/// What `--json --output-alphabet numbers` writes reads back: a board of blank-separated
/// numbers in a JSON string (it was "unexpected character ' '", or no member found at all).
#[test]
fn json_boards_in_numbers_read_back() {
    let file = path("big16.txt");
    for args in [
        &[
            "check",
            "--json",
            "-q",
            "--output-alphabet",
            "numbers",
            &file,
        ][..],
        &[
            "dump",
            "--json",
            "-q",
            "-n",
            "1",
            "--output-alphabet",
            "numbers",
            &file,
        ][..],
    ] {
        let (code, json, err) = run(args, "");
        assert_eq!(code, 0, "{err}");
        assert!(json.contains(" 10 "), "{json}");
        let (code, out, err) = run(&["check", "-q"], &json);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(out.lines().count(), json.lines().count(), "{out}");
        assert!(out.lines().all(|l| l.ends_with(": unique")), "{out}");
    }
}

#[test]
fn letters_are_recognised_and_kept() {
    let file = path("formats/letters16.txt");
    let (code, out, err) = run(&["solve", &file], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), relabel(&big16_solution(), "ABCDEFGHIJKLMNOP"));
    let (code, out, _) = run(&["check", "--json", &file], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["puzzle"].as_str().unwrap().starts_with("..G.J......."));
    // The setter's report draws its boards in the input's letters (or the output alphabet).
    let (code, out, _) = run(&["check", "--explain", &file], "");
    assert_eq!(code, 0);
    assert!(out.contains("|  .  .  G  .|  J  .  .  .|"), "{out}");
    let (_, out, _) = run(
        &["check", "--explain", "--output-alphabet", "0-F", &file],
        "",
    );
    assert!(out.contains("|  .  .  6  .|  9  .  .  .|"), "{out}");
    let (_, out, _) = run(&["solve", "--output-alphabet", "numbers", &file], "");
    assert!(
        out.starts_with("2 14 7 15 10 8 5 6 4 12 16 13 11 1 3 9 16 8 "),
        "{out}"
    );
    // A letter a 16x16 board has no room for, with digits about: out of range, as before.
    let (code, _, err) = run(&["check"], &format!("L{}\n", &big16_solution()[1..]));
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "sudoku-enum: <stdin>:1:1: digit 'L' (= 21) is out of range for a 16x16 board"
        ),
        "{err}"
    );
}

#[test]
fn unknown_alphabet_is_a_usage_error() {
    let (code, _, err) = run(&["check", "--alphabet", "xyz"], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "error: invalid value 'xyz' for '--alphabet <ALPHABET>': unknown alphabet \"xyz\": \
             expected 1-9A-Z, 0-F (hex), A-Z (letters) or numbers"
        ),
        "{err}"
    );
}

/// `check FILE ARGS`: (exit code, stdout lines with the file name cut off, stderr).
fn check(name: &str, args: &[&str]) -> (i32, Vec<String>, String) {
    let file = path(name);
    let mut all = vec!["check", file.as_str()];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, "");
    let lines = out
        .lines()
        .map(|l| l.strip_prefix(file.as_str()).unwrap_or(l).to_string())
        .collect();
    (code, lines, err)
}

#[test]
fn files_of_other_tools_are_read_where_their_puzzles_are() {
    for (name, lines) in [
        ("formats/sadman.sdk", &[5][..]),
        ("formats/hodoku.txt", &[3, 4, 5, 6]),
        ("formats/ids.txt", &[3, 4, 5]),
        ("formats/kaggle_quizzes.csv", &[2, 3, 4, 5]),
        ("formats/radcliffe.csv", &[2, 3, 4, 5, 6]),
        ("formats/radcliffe.tsv", &[2, 3, 4]),
        ("formats/sudoku_extreme.csv", &[2, 3, 4]),
        ("formats/strings.json", &[2, 3, 4]),
        ("formats/objects.json", &[4, 9, 14]),
        ("formats/results.jsonl", &[1, 2, 3]),
    ] {
        let (code, out, err) = check(name, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        let want: Vec<String> = lines.iter().map(|l| format!(":{l}: unique")).collect();
        assert_eq!(out, want, "{name}");
    }
}

#[test]
fn columns_by_name_and_index() {
    // The solutions column: solved grids are unique too, and `solve` prints them back.
    let (code, out, _) = check("formats/radcliffe.csv", &["--column", "solution"]);
    assert_eq!((code, out.len()), (0, 5));
    let (code, out, _) = check("formats/objects.json", &["--column", "solution"]);
    assert_eq!((code, out.len()), (0, 3));
    let file = path("formats/radcliffe.csv");
    let (_, by_index, _) = run(&["solve", "--column", "3", &file], "");
    let (_, by_name, _) = run(&["solve", "--column", "solution", &file], "");
    let (_, solved, _) = run(&["solve", &file], "");
    assert_eq!(by_index, by_name);
    assert_eq!(by_index, solved);
    // A name the header lacks.
    let (code, out, err) = check("formats/radcliffe.csv", &["--column", "quiz"]);
    assert_eq!((code, out.len()), (2, 0));
    assert!(
        err.starts_with(&format!(
            "sudoku-enum: {file}:1:1: no column \"quiz\" in the header (its columns: id, \
             puzzle, solution, clues, difficulty); give --column NAME or a 1-based INDEX\n"
        )),
        "{err}"
    );
    let (code, _, err) = run(&["check", "--column", "0"], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "error: invalid value '0' for '--column <NAME|INDEX>': columns are numbered from 1"
        ),
        "{err}"
    );
}

#[test]
fn table_errors_name_line_and_column() {
    let top1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let bad = top1.replacen('3', "x", 1);
    for (input, message) in [
        (
            format!("id,puzzle\n1,{top1}\n2,{bad}\n"),
            "<stdin>:3:7: unexpected character 'x'; expected a digit 1-9, or '.', '0', '_', '*' \
             for an empty cell",
        ),
        (
            "id,puzzle\n1\n".to_string(),
            "<stdin>:2:2: column 2 (puzzle) is missing: this row has 1 field",
        ),
        (
            "name,size\nx,y\n".to_string(),
            "<stdin>:2:1: no field of this row (2 fields) is a puzzle, and no header names a \
             puzzle column; give --column NAME or a 1-based INDEX",
        ),
        (
            format!("[\"{top1}\",\n \"{bad}\"]\n"),
            "<stdin>:2:7: unexpected character 'x'; expected a digit 1-9, or '.', '0', '_', '*' \
             for an empty cell",
        ),
        (
            "[\"4...3...\n".to_string(),
            "<stdin>:1:2: a JSON string that does not end on its line (puzzles are strings on \
             one line)",
        ),
        (
            format!(":0000:x\n:0000:x:{top1}:::\n"),
            "<stdin>:1:8: a HoDoKu line has its puzzle in the third field \
             (:type:digits:puzzle:...); this one has fewer fields",
        ),
    ] {
        let (code, _, err) = run(&["check"], &input);
        assert_eq!(code, 2, "{input}");
        assert!(
            err.starts_with(&format!("sudoku-enum: {message}\n")),
            "{input}\n{err}"
        );
    }
}

/// Broken JSON is an error at its line and column, never read on as if it were whole: the
/// puzzles before the damage are answered, the run exits 2; an element or object that is not a
/// puzzle is reported on its own and the reading goes on.
#[test]
fn broken_json_is_reported() {
    let p = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    for (input, answered, message) in [
        (
            format!("[\"{p}\",\n \"{p}\"\n"),
            vec!["<stdin>:1: unique", "<stdin>:2: unique"],
            "<stdin>:2:85: the input ends inside a JSON document: a closing ']' is missing"
                .to_string(),
        ),
        (
            format!("[{{\"puzzle\":\"{p}\"}}\n"),
            vec!["<stdin>:1: unique"],
            "<stdin>:1:96: the input ends inside a JSON document: a closing ']' is missing"
                .to_string(),
        ),
        (
            format!("[{{\"puzzle\":\"{p}\",\"x\":}}]\n"),
            vec!["<stdin>:1: unique"],
            "<stdin>:1:100: expected a value in JSON, found \"}\"".to_string(),
        ),
        (
            format!("[\"{p}\",\n42,\n\"{p}\"]\n"),
            vec!["<stdin>:1: unique", "<stdin>:3: unique"],
            "<stdin>:2:1: 42 where the JSON array holds puzzle strings".to_string(),
        ),
        (
            format!("{{\"puzzle\":\"{p}\"\n{{\"puzzle\":\"{p}\"}}\n"),
            vec!["<stdin>:1: unique"],
            "<stdin>:2:1: expected ',' or '}' in JSON, found \"{\"".to_string(),
        ),
        (
            format!("[{{\"id\":1,\"puzzle\":\"{p}\"}},\n{{\"id\":2,\"q\":\"{p}\"}},\n{{\"puzzle\":\"{p}\"}}]\n"),
            vec!["<stdin>:1: unique", "<stdin>:3: unique"],
            "<stdin>:2:96: this JSON object has no member \"puzzle\" (the puzzles' column)"
                .to_string(),
        ),
        (
            format!("[\"{p}\",]\n"),
            vec!["<stdin>:1: unique"],
            "<stdin>:1:86: expected a value in JSON, found \"]\"".to_string(),
        ),
    ] {
        let (code, out, err) = run(&["check"], &input);
        assert_eq!(code, 2, "{input}");
        assert_eq!(out.lines().collect::<Vec<_>>(), answered, "{input}");
        assert!(err.starts_with(&format!("sudoku-enum: {message}\n")), "{input}\n{err}");
    }
    let object = format!("[{{\"id\":1,\"puzzle\":\"{p}\"}}]\n");
    let (code, out, err) = run(&["check", "--column", "quiz"], &object);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(
            "sudoku-enum: <stdin>:1:102: this JSON object has no member \"quiz\" (the puzzles' \
             column)\n"
        ),
        "{err}"
    );
}

/// A `[Puzzle]` grid cut short by the next section is an error that says so, and the
/// section after it (a game's `[State]`) is still skipped, not checked as a puzzle.
#[test]
fn a_short_sdk_grid_ends_at_the_next_section() {
    let sdk = std::fs::read_to_string(puzzle_path("formats/sadman.sdk")).unwrap();
    let mut lines: Vec<&str> = sdk.lines().collect();
    let at = lines.iter().position(|l| *l == "[Puzzle]").unwrap();
    lines.remove(at + 3);
    let (code, out, err) = run(&["check"], &(lines.join("\n") + "\n"));
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.starts_with(&format!(
            "sudoku-enum: <stdin>:{}:1: the grid ended at a section header after 8 of 9 rows\n",
            at + 10
        )),
        "{err}"
    );
}

/// A puzzle of puzzles/samples/multi_truth_small.txt with 21 solutions.
const MULTI21: &str =
    ".......5.5..7..42.1.....6879.7..6..4...24...9.3....81...85......2.1...4.6.5.....8";

/// A 9×9 puzzle line in pencil marks: a given alone, an empty cell with the candidates
/// `marks` names for it (all nine otherwise).
fn pencil(puzzle: &str, marks: &[(usize, &str)]) -> String {
    puzzle
        .chars()
        .enumerate()
        .flat_map(|(cell, c)| {
            let allowed = match c {
                '.' => marks
                    .iter()
                    .find(|&&(at, _)| at == cell)
                    .map_or("123456789".to_string(), |&(_, m)| m.to_string()),
                d => d.to_string(),
            };
            ('1'..='9')
                .map(move |d| if allowed.contains(d) { d } else { '.' })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The ISS constraint string of `puzzle` with `marks` as pencil-mark givens.
fn iss(puzzle: &str, marks: &[(usize, &str)]) -> String {
    let name = |cell: usize| format!("R{}C{}", cell / 9 + 1, cell % 9 + 1);
    let mut s = String::new();
    for &(cell, m) in marks {
        let digits: Vec<String> = m.chars().map(String::from).collect();
        s += &format!(".~{}_{}", name(cell), digits.join("_"));
    }
    let givens: Vec<String> = puzzle
        .char_indices()
        .filter(|&(_, c)| c != '.')
        .map(|(i, c)| format!("{}_{c}", name(i)))
        .collect();
    s + ".~" + &givens.join("~")
}

/// The solutions `dump` writes for `input`, sorted.
fn dumped(input: &str) -> Vec<String> {
    let (code, out, err) = run(&["dump", "-q"], input);
    assert_eq!(code, 0, "{err}");
    let mut sols: Vec<String> = out.lines().map(str::to_string).collect();
    sols.sort();
    sols
}

/// Pencil marks of givens and open cells are the classic puzzle, in every mode.
#[test]
fn pencil_marks_of_givens_are_the_classic_puzzle() {
    let open = format!("{}\n", pencil(MULTI21, &[]));
    let classic = format!("{MULTI21}\n");
    for args in [["count", "-q"], ["check", "-q"]] {
        assert_eq!(run(&args, &open), run(&args, &classic), "{args:?}");
    }
    assert_eq!(run(&["count", "-q"], &open).1, "<stdin>:1: 21 solutions\n");
    assert_eq!(dumped(&open), dumped(&classic));
    assert_eq!(dumped(&open).len(), 21);
    // The sample: a candidate export of top1465's first puzzle solves as that puzzle.
    let sample = path("formats/pencilmarks.txt");
    let (code, out, err) = run(&["solve", "-q", &sample], "");
    assert_eq!(code, 0, "{err}");
    let (_, top1, _) = run(
        &["solve", "-q"],
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n",
    );
    assert_eq!(out.lines().next(), top1.lines().next());
}

/// Restricted candidates count as the equivalent ISS string does, and as the classic puzzle's
/// solutions that respect the marks (the oracle); split parts add up to the same.
#[test]
fn pencil_marks_restrict_the_solutions() {
    let marks = [(0, "24"), (1, "78"), (54, "34")];
    let line = format!("{}\n", pencil(MULTI21, &marks));
    let keep = |s: &String| {
        marks.iter().all(|&(cell, m)| {
            s.as_bytes()
                .get(cell)
                .is_some_and(|&b| m.contains(char::from(b)))
        })
    };
    let want: Vec<String> = dumped(&format!("{MULTI21}\n"))
        .into_iter()
        .filter(keep)
        .collect();
    assert!(want.len() > 1 && want.len() < 21, "{}", want.len());
    assert_eq!(dumped(&line), want);
    let (code, out, err) = run(&["count", "-q"], &line);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("<stdin>:1: {} solutions\n", want.len()));
    let constraints = format!("{}\n", iss(MULTI21, &marks));
    for args in [
        &["count", "-q"][..],
        &["check", "-q"],
        &["count", "-q", "--limit", "3"],
    ] {
        assert_eq!(run(args, &line), run(args, &constraints), "{args:?}");
    }
    // The same in the sample file.
    let (_, out, _) = run(&["count", "-q", &path("formats/pencilmarks.txt")], "");
    assert!(
        out.ends_with(&format!(":7: {} solutions\n", want.len())),
        "{out}"
    );
    // Split into parts (written as constraint strings), counted, merged.
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("pm.txt");
    std::fs::write(&input, &line).expect("write");
    let input = input.to_str().expect("utf-8 path");
    let (code, parts, err) = run(&["split", "--parts", "4", "-q", input], "");
    assert_eq!(code, 0, "{err}");
    let parts_path = dir.path().join("parts.txt");
    std::fs::write(&parts_path, &parts).expect("write");
    let parts_path = parts_path.to_str().expect("utf-8 path");
    let (code, results, err) = run(&["count", "--json", "-q", "-j", "1", parts_path], "");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["merge", "--parts", parts_path], &results);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!("total: {} solutions (", want.len())),
        "{out}"
    );
}

/// A misplaced digit is an error at its line and column.
#[test]
fn a_misplaced_pencil_mark_is_an_error() {
    let mut bad = pencil(MULTI21, &[]);
    bad.replace_range(2..3, "5");
    let (code, out, err) = run(&["check", "--box", "3x3"], &format!("{bad}\n"));
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.starts_with(
            "sudoku-enum: <stdin>:1:3: unexpected character '5' at place 3 of 9 in a \
             pencil-mark cell; expected '3'"
        ),
        "{err}"
    );
}

/// Above 16x16 a variant has no one-line form: `split` refuses it rather than write parts that
/// lose the marks.
#[test]
fn split_refuses_pencil_marks_above_sixteen() {
    let digits = "123456789ABCDEFGHIJKLMNOP";
    let line = format!("12{}{}\n", ".".repeat(23), digits.repeat(624));
    let (code, out, err) = run(&["split", "--parts", "2", "-q"], &line);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("<stdin>:1: a 25x25 variant (pencil marks or rules) has no one-line form"),
        "{err}"
    );
}
