//! The catalogue of bad inputs: each case gives the input, the arguments, the exit code and
//! (part of) the message, which must name the line and column where there is one.
//! Every case also checks that nothing panicked.

use assert_cmd::Command;

const T: &str = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

fn with(at: usize, s: &str) -> String {
    format!("{}{s}{}", &T[..at], &T[at + 1..])
}

struct Case {
    name: &'static str,
    input: Vec<u8>,
    args: Vec<&'static str>,
    code: i32,
    message: &'static str,
}

fn case(
    name: &'static str,
    input: impl Into<Vec<u8>>,
    args: &[&'static str],
    code: i32,
    message: &'static str,
) -> Case {
    Case {
        name,
        input: input.into(),
        args: args.to_vec(),
        code,
        message,
    }
}

fn catalogue() -> Vec<Case> {
    let dots = |n: usize| ".".repeat(n);
    let grid9 = "0 6 0 1 0 4 0 5 0\n0 0 8 3 0 5 6 0 0\n2 0 0 0 0 0 0 0 1\n8 0 0 4 0 7 0 0 6\n0 0 6 0 0 0 3 0 0\n7 0 0 9 0 1 0 0 4\n5 0 0 0 0 0 0 0 2\n0 0 7 2 0 6 9 0 0\n0 4 0 5 0 8 0 7 0\n";
    let mut rows8: Vec<&str> = grid9.lines().collect();
    rows8.pop();
    let short_grid = rows8.join("\n") + "\n";
    // T in pencil marks (a given alone, open cells all nine), r1c2's place 3 holding a '5'.
    let mut pencil: String = T
        .chars()
        .map(|c| match c {
            '.' => "123456789".to_string(),
            d => "123456789".replace(|x| x != d, "."),
        })
        .collect();
    pencil.replace_range(11..12, "5");
    vec![
        case(
            "misplaced pencil mark",
            format!("{pencil}\n"),
            &[],
            2,
            "<stdin>:1:12: unexpected character '5' at place 3 of 9 in a pencil-mark cell; \
             expected '3' (the candidate 3) or '.' or '0' (not a candidate); for a 27x27 board \
             give --box",
        ),
        case(
            "80 cells",
            format!("{}\n", &T[..80]),
            &[],
            2,
            "<stdin>:1:81: 80 cells is not a board size",
        ),
        case(
            "82 cells",
            format!("{T}1\n"),
            &[],
            2,
            "<stdin>:1:83: 82 cells is not a board size",
        ),
        case(
            "letter x",
            format!("{}\n", with(10, "x")),
            &[],
            2,
            "<stdin>:1:11: unexpected character 'x'",
        ),
        case(
            "bang",
            format!("{}\n", with(10, "!")),
            &[],
            2,
            "<stdin>:1:11: unexpected character '!'",
        ),
        case(
            "NUL byte",
            [with(10, "\0").as_bytes(), b"\n"].concat(),
            &[],
            2,
            "<stdin>:1:11: unexpected character '\\0'",
        ),
        case(
            "byte 0xFF",
            [&T.as_bytes()[..10], &[0xFF], &T.as_bytes()[11..], b"\n"].concat(),
            &[],
            2,
            "<stdin>:1:11: unexpected byte 0xFF (not valid UTF-8)",
        ),
        case(
            "UTF-8 letter",
            format!("{}\n", with(10, "é")),
            &[],
            2,
            "<stdin>:1:11: unexpected character 'é'",
        ),
        case(
            "digit above 4 on 4x4",
            "1..5............\n",
            &[],
            2,
            "<stdin>:1:4: digit '5' is out of range for a 4x4 board",
        ),
        case(
            "letter on 9x9",
            format!("{}\n", with(10, "G")),
            &[],
            2,
            "<stdin>:1:11: digit 'G' (= 16) is out of range for a 9x9 board",
        ),
        case(
            "number 17 on 9x9",
            "0 0 0 0 0 0 0 0 17\n",
            &[],
            2,
            "<stdin>:1:17: number 17 is out of range for a 9x9 board",
        ),
        case(
            "50 cells",
            format!("{}\n", dots(50)),
            &[],
            2,
            "<stdin>:1:51: 50 cells is not a board size",
        ),
        case(
            "prime side",
            format!("{}\n", dots(49)),
            &[],
            2,
            "side 7 has no box shape to infer (prime); give one with --box 1x7",
        ),
        case(
            "row of 3",
            "1 2 3\n",
            &[],
            2,
            "<stdin>:1:6: side 3 has no box shape to infer",
        ),
        case("empty input", "", &[], 2, "<stdin>: no puzzle found"),
        case(
            "only comments",
            "\n\n# nothing\n",
            &[],
            2,
            "<stdin>: no puzzle found",
        ),
        case(
            "box too big",
            format!("{T}\n"),
            &["--box", "9x9"],
            2,
            "box 9x9 gives side 81; sides from 1 to 64 are supported",
        ),
        case(
            "box syntax",
            format!("{T}\n"),
            &["--box", "3y3"],
            2,
            "cannot read box shape \"3y3\": expected RxC",
        ),
        case(
            "box zero",
            format!("{T}\n"),
            &["--box", "0x3"],
            2,
            "box 0x3 gives side 0",
        ),
        case(
            "box mismatch",
            format!("{T}\n"),
            &["--box", "2x3"],
            2,
            "<stdin>:1:82: got 81 cells, expected 36 for a 6x6 board with 2x3 boxes",
        ),
        case(
            "grid cut short",
            short_grid.clone(),
            &[],
            2,
            "the grid ended at the end of the input after 8 of 9 rows",
        ),
        case(
            "row too short",
            grid9.replacen("0 0 8 3 0 5 6 0 0", "0 0 8 3 0 5 6 0", 1),
            &[],
            2,
            "<stdin>:2:",
        ),
        case(
            "mixed layouts",
            format!("{}{T}\n", rows8[..3].join("\n") + "\n"),
            &[],
            2,
            "one puzzle cannot mix layouts",
        ),
        case(
            "long line",
            format!("{}\n{T}\n", "1".repeat(3 << 20)),
            &[],
            2,
            "<stdin>:1:",
        ),
        case("clash in row", format!("11{}\n", dots(79)), &[], 1, ""),
        case(
            "clash in column",
            format!("1{}1{}\n", dots(8), dots(71)),
            &[],
            1,
            "",
        ),
        case(
            "clash in box",
            format!("1{}1{}\n", dots(9), dots(70)),
            &[],
            1,
            "",
        ),
        case(
            "unknown format",
            format!("{T}\n"),
            &["--format", "fancy"],
            2,
            "unknown format \"fancy\": expected line, grid, rows or bands",
        ),
        case(
            "bad timeout",
            format!("{T}\n"),
            &["--timeout", "0"],
            2,
            "\"0\" is not a positive number of seconds",
        ),
        case(
            "bad threads",
            format!("{T}\n"),
            &["--threads", "many"],
            2,
            "invalid value 'many' for '--threads <N>'",
        ),
        case(
            "too many threads",
            format!("{T}\n"),
            &["-j", "20000"],
            2,
            "20000 worker threads is too many (at most 1024",
        ),
        case(
            "timeout beyond reach",
            format!("{T}\n"),
            &["--timeout", "1e300"],
            2,
            "\"1e300\" seconds is too long",
        ),
        case(
            "unknown flag",
            format!("{T}\n"),
            &["--frobnicate"],
            2,
            "unexpected argument '--frobnicate'",
        ),
        case(
            "missing file",
            "",
            &["/nonexistent/x.txt"],
            2,
            "/nonexistent/x.txt: No such file or directory",
        ),
        case("directory", "", &["/"], 2, "/: is a directory"),
        case(
            "strict stops",
            format!("{}\n{T}\n", with(3, "x")),
            &["--strict"],
            2,
            "--strict",
        ),
        case(
            "bad line then good",
            format!("{}\n{T}\n", with(3, "x")),
            &[],
            2,
            "<stdin>:1:4: unexpected character 'x'",
        ),
        case(
            "second bad line",
            format!("{T}\n{}\n", with(80, "?")),
            &[],
            2,
            "<stdin>:2:81: unexpected character '?'",
        ),
        case("CRLF is fine", format!("{T}\r\n{T}\r\n"), &[], 0, ""),
        case(
            "BOM is fine",
            [b"\xEF\xBB\xBF".as_slice(), T.as_bytes(), b"\n"].concat(),
            &[],
            0,
            "",
        ),
        case(
            "UTF-16 is fine",
            format!("\u{feff}{T}\r\n{T}\r\n")
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
            &[],
            0,
            "",
        ),
        case(
            "UTF-16 error names its line and column",
            format!("\u{feff}{T}\r\n{}\r\n", with(80, "é"))
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
            &[],
            2,
            "<stdin>:2:81: unexpected character 'é'",
        ),
        case("tabs are fine", format!("\t{T}\t:1:\n"), &[], 0, ""),
        case("no final newline", T, &[], 0, ""),
        case("lone CR line ends", format!("{T}\r{T}\r"), &[], 0, ""),
        case(
            "unsolvable is not an error",
            "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..\n",
            &[],
            1,
            "",
        ),
        case("only whitespace", "   \n\t\n", &[], 2, "no puzzle found"),
        // A line of words is a title (`Grid 01`), skipped; with nothing else, that is said.
        case(
            "only text",
            "\nhello world\nmore text\n",
            &[],
            2,
            "<stdin>:2:1: no puzzle found: this line (\"hello world\") was skipped as a title",
        ),
        // f-puzzles JSON over many lines: the error names the line and column of the member,
        // item or grid cell that is wrong, not the object's first line.
        case(
            "f-puzzles given out of range",
            format!("# comment\n{{\n  \"size\": 4,\n  \"grid\": [\n{}    [{{}}, {{\"value\": 7, \"given\": true}}, {{}}, {{}}]\n  ]\n}}\n",
                "    [{}, {}, {}, {}],\n".repeat(3)),
            &[],
            2,
            "<stdin>:8:10: f-puzzles JSON: the given in r4c2 is not a digit 1-4",
        ),
        case(
            "f-puzzles cage cell off the grid",
            "{\"size\": 6,\n \"killercage\": [\n  {\"cells\": [\"R1C1\"]},\n  {\"cells\": [\"R1C1\", \"R7C1\"]}\n ]}\n",
            &[],
            2,
            "<stdin>:4:3: f-puzzles JSON: \"killercage\": \"R7C1\" is not a cell of the 6x6 grid (R1C1 to R6C6)",
        ),
        case(
            "f-puzzles flag not true",
            "{\"size\": 6,\n  \"antiknight\": \"yes\"}\n",
            &[],
            2,
            "<stdin>:2:17: f-puzzles JSON: \"antiknight\": expected true, found \"yes\"",
        ),
        case(
            "f-puzzles key not read",
            "{\"size\": 6,\n  \"clone\": [{\"cells\": [\"R1C1\"]}]}\n",
            &[],
            2,
            "<stdin>:2:12: f-puzzles JSON: \"clone\": unsupported f-puzzles constraint \"clone\"",
        ),
        case(
            "f-puzzles syntax",
            "{\"size\": 6,\n \"grid\": [[{}],,\n]}\n",
            &[],
            2,
            "<stdin>:2:16: f-puzzles JSON: syntax: expected a JSON value, found ','",
        ),
    ]
}

#[test]
fn catalogue_of_bad_inputs() {
    let cases = catalogue();
    assert!(cases.len() >= 40);
    for c in cases {
        let out = Command::cargo_bin("sudoku-enum")
            .unwrap()
            .arg("check")
            .args(&c.args)
            .write_stdin(c.input.clone())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(c.code), "{}: {stderr}", c.name);
        assert!(
            stderr.contains(c.message),
            "{}: expected {:?} in {stderr}",
            c.name,
            c.message
        );
        assert!(!stderr.contains("panicked"), "{}: {stderr}", c.name);
    }
}

#[test]
fn clashing_givens_name_both_cells_and_the_house() {
    let out = Command::cargo_bin("sudoku-enum")
        .unwrap()
        .args(["check", "-q"])
        .write_stdin(format!("1{}1{}\n", ".".repeat(9), ".".repeat(70)))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "<stdin>:1: invalid: 1 appears twice in box 1: r1c1 and r2c2\n"
    );
}
