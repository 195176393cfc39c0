//! Tests of the input formats of issue 20: alphabets (and, as they come, the other formats).

use super::*;
use crate::rules::Rule;
use crate::shape::Shape;

/// The puzzle of `puzzles/big16.txt` in the standard alphabet.
const BIG16: &str = "..7.A.......B139G...F..4.19E....A.C.1B.2...3..GE4..9CGE.F2A6D58...8...AE26.F..51.G.6.32...C5.F.85.D..41.G.B..3.A7A.256G.......B...5G.2..8B6...E.B7648....GD.5.139..EG5..CF3..8..C128.E..7.59...G..G..9.AD5.B3...6CB327.51.8..EDF8.9.E.D.37.G.6.B....3.B.6.E.8.A5";

/// `BIG16` written in another alphabet.
fn in_alphabet(a: Alphabet) -> String {
    let p = parse_one(BIG16, &ParseOptions::default()).unwrap();
    a.line(p.cells())
}

fn with_alphabet(a: Option<Alphabet>) -> ParseOptions {
    ParseOptions {
        alphabet: a,
        ..ParseOptions::default()
    }
}

/// Rows of a 16x16 grid need the shape (a line of 16 cells is a 4x4 puzzle).
fn grid16(a: Option<Alphabet>) -> ParseOptions {
    ParseOptions {
        shape: Shape::new(4, 4).ok(),
        ..with_alphabet(a)
    }
}

/// Every record of `text` as (line, puzzle in the standard alphabet, alphabet) or the error.
fn read(text: &str, options: ParseOptions) -> Vec<Result<(usize, String, Alphabet), String>> {
    Reader::new(text.as_bytes(), options)
        .map(|r| match r {
            Ok(p) => Ok((p.line, p.puzzle.to_line(), p.alphabet)),
            Err(e) => Err(e.to_string()),
        })
        .collect()
}

/// `line` cut into `n` rows of characters, one per line.
fn as_rows(line: &str, n: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    chars
        .chunks(n)
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

#[test]
fn hex_letters_and_standard_read_the_same_puzzle() {
    let hex = in_alphabet(Alphabet::Hex);
    let letters = in_alphabet(Alphabet::Letters);
    assert!(hex.contains('0') && !hex.contains('G'));
    let want = Ok((1, BIG16.to_string(), Alphabet::Hex));
    assert_eq!(read(&hex, with_alphabet(Some(Alphabet::Hex))), [want]);
    // Letters beyond G and no digit: recognised.
    let want = Ok((1, BIG16.to_string(), Alphabet::Letters));
    assert_eq!(
        read(&letters, with_alphabet(None)),
        std::slice::from_ref(&want)
    );
    assert_eq!(
        read(&letters, with_alphabet(Some(Alphabet::Letters))),
        [want]
    );
    // The same as grids of 16 rows.
    let want = Ok((1, BIG16.to_string(), Alphabet::Hex));
    let rows = as_rows(&hex, 16);
    assert_eq!(read(&rows, grid16(Some(Alphabet::Hex))), [want]);
    let want = Ok((1, BIG16.to_string(), Alphabet::Letters));
    assert_eq!(read(&as_rows(&letters, 16), grid16(None)), [want]);
    // A grid of numbers above 9x9 answers in numbers.
    let p = parse_one(BIG16, &ParseOptions::default()).unwrap();
    let numbers: String = p
        .cells()
        .chunks(16)
        .map(|row| Alphabet::Numbers.line(row) + "\n")
        .collect();
    let want = Ok((1, BIG16.to_string(), Alphabet::Numbers));
    assert_eq!(read(&numbers, with_alphabet(None)), [want]);
    // The standard alphabet stays the default, '0' empty where the top digit shows.
    let zeros = BIG16.replace('.', "0");
    let want = Ok((1, BIG16.to_string(), Alphabet::Standard));
    assert_eq!(read(&zeros, with_alphabet(None)), [want]);
}

#[test]
fn an_ambiguous_zero_asks_for_the_alphabet() {
    let hex = in_alphabet(Alphabet::Hex);
    let column = hex.find('0').unwrap() + 1;
    let message = format!(
        "line 1, column {column}: '0' on a 16x16 board that has no 'G': is '0' an empty cell \
         (--alphabet 1-9A-Z) or the hex digit for 1 (--alphabet 0-F, '.' for empty)? give \
         --alphabet"
    );
    assert_eq!(read(&hex, with_alphabet(None)), [Err(message)]);
    // In a grid: the line and column of the first '0', after the whole grid was read.
    let rows = as_rows(&hex, 16);
    let (line, col) = rows
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find('0').map(|c| (i + 1, c + 1)))
        .unwrap();
    let got = read(&format!("{rows}{BIG16}\n"), grid16(None));
    assert_eq!(got.len(), 2);
    assert!(
        got[0]
            .as_ref()
            .unwrap_err()
            .starts_with(&format!("line {line}, column {col}: '0' on a 16x16 board")),
        "{got:?}"
    );
    assert_eq!(got[1], Ok((17, BIG16.to_string(), Alphabet::Standard)));
    // Told: the standard alphabet reads the '0's as empty cells.
    assert!(read(&hex, with_alphabet(Some(Alphabet::Standard)))[0].is_ok());
}

#[test]
fn characters_outside_the_alphabet_name_it() {
    let mut hex = in_alphabet(Alphabet::Hex);
    hex.replace_range(2..3, "G");
    let message = "line 1, column 3: unexpected character 'G'; expected a digit 0-F of \
                   --alphabet 0-F on a 16x16 board, or '.', '_', '*' for an empty cell";
    assert_eq!(
        read(&hex, with_alphabet(Some(Alphabet::Hex))),
        [Err(message.to_string())]
    );
    let letters = in_alphabet(Alphabet::Letters).replacen('.', "7", 1);
    let column = in_alphabet(Alphabet::Letters).find('.').unwrap() + 1;
    let message = format!(
        "line 1, column {column}: unexpected character '7'; expected a digit A-P of \
         --alphabet A-Z on a 16x16 board, or '.', '0', '_', '*' for an empty cell"
    );
    assert_eq!(
        read(&letters, with_alphabet(Some(Alphabet::Letters))),
        [Err(message)]
    );
}

#[test]
fn nine_by_nine_in_letters() {
    let options = ParseOptions {
        alphabet: Some(Alphabet::Letters),
        shape: Some(Shape::NINE),
        ..ParseOptions::default()
    };
    let line = "D...C.......F..H..........A....E..I..H....F...G.B........A.BG..E.C....D.I........";
    let p = parse_one(line, &options).unwrap();
    assert_eq!(
        p.to_line(),
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    );
}

const TOP1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const TOP2: &str =
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
const TOP1_SOLUTION: &str =
    "468931527751624839392578461134756298289413675675289314846192753513867942927345186";

/// (line, puzzle) of every record, or the error.
fn lines(text: &str, options: ParseOptions) -> Vec<Result<(usize, String), String>> {
    read(text, options)
        .into_iter()
        .map(|r| r.map(|(line, p, _)| (line, p)))
        .collect()
}

#[test]
fn sdk_sections_keep_the_puzzle_and_skip_the_rest() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/formats/sadman.sdk"
    ))
    .unwrap();
    let got = lines(&text, ParseOptions::default());
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].as_ref().unwrap().0, 5);
    // A section header without a grid, sections in another order, a puzzle after them.
    let text = format!("[Colours]\n1 2 3\n[Puzzle]\n{TOP1}\n[PencilMarks]\n\n{TOP2}\n");
    let got = lines(&text, ParseOptions::default());
    assert_eq!(got, [Ok((4, TOP1.to_string())), Ok((7, TOP2.to_string()))]);
}

#[test]
fn hodoku_lines_give_their_third_field() {
    let placed = format!("+{}", &TOP1_SOLUTION[..1]) + &TOP1[1..];
    let text = format!(
        ":0000:x:{TOP1}:::\n:0100:1:{placed}:512 913::\n:0000:x\n:0000:x:{}:::\n",
        &TOP1[..80]
    );
    let got = lines(&text, ParseOptions::default());
    assert_eq!(got[0], Ok((1, TOP1.to_string())));
    assert_eq!(got[1], Ok((2, TOP1.to_string())));
    assert_eq!(
        got[2],
        Err(
            "line 3, column 8: a HoDoKu line has its puzzle in the third field \
             (:type:digits:puzzle:...); this one has fewer fields"
                .to_string()
        )
    );
    assert!(
        got[3]
            .as_ref()
            .unwrap_err()
            .starts_with("line 4, column 89: 80 cells is not a board size"),
        "{got:?}"
    );
}

#[test]
fn ids_before_the_puzzle() {
    let bad = TOP1.replacen('3', "x", 1);
    let text = format!(
        "0001 {TOP1}\n2\t{TOP2} 1\nhard-3;{TOP1};x\n#4 {TOP1}\npuzzle_id:{bad}\n12 {TOP2}\n"
    );
    let got = lines(&text, ParseOptions::default());
    assert_eq!(got[0], Ok((1, TOP1.to_string())));
    assert_eq!(got[1], Ok((2, TOP2.to_string())));
    assert_eq!(got[2], Ok((3, TOP1.to_string())));
    // Line 4 is a comment; the bad puzzle's error points into it.
    let column = 11 + bad.find('x').unwrap();
    assert_eq!(
        got[3],
        Err(format!(
            "line 5, column {column}: unexpected character 'x'; expected a digit 1-9, or '.', \
             '0', '_', '*' for an empty cell"
        ))
    );
    assert_eq!(got[4], Ok((6, TOP2.to_string())));
    // Grids and titles are not mistaken for ids.
    let grid = "Grid 01\n2 . . 1 . 5 . . 3\n. 5 4 . . . 7 1 .\n";
    assert!(lines(grid, ParseOptions::default())[0].is_err());
}

#[test]
fn csv_and_tsv_with_a_header() {
    let rows = format!("id,puzzle,solution\n1,{TOP1},{TOP1_SOLUTION}\n2,\"{TOP2}\",\n");
    let got = lines(&rows, ParseOptions::default());
    assert_eq!(got, [Ok((2, TOP1.to_string())), Ok((3, TOP2.to_string()))]);
    let by_name = ParseOptions {
        column: "Solution".parse().ok(),
        ..ParseOptions::default()
    };
    let got = lines(&rows, by_name);
    assert_eq!(got[0], Ok((2, TOP1_SOLUTION.to_string())));
    assert!(got[1].as_ref().unwrap_err().starts_with("line 3, column "));
    // The first column holding a puzzle when no header names one.
    let text = format!(
        "quizzes\tsolutions\n{}\t{TOP1_SOLUTION}\n",
        TOP1.replace('.', "0")
    );
    assert_eq!(
        lines(&text, ParseOptions::default()),
        [Ok((2, TOP1.to_string()))]
    );
    let text = format!("source,q,a\nx,{TOP1},{TOP1_SOLUTION}\n");
    assert_eq!(
        lines(&text, ParseOptions::default()),
        [Ok((2, TOP1.to_string()))]
    );
    // By extension, without a header; by index.
    let csv = ParseOptions {
        table: Some(TableFormat::Csv),
        column: "3".parse().ok(),
        ..ParseOptions::default()
    };
    let text = format!("1,{TOP1},{TOP1_SOLUTION}\n");
    assert_eq!(lines(&text, csv), [Ok((1, TOP1_SOLUTION.to_string()))]);
    // By extension, one column under a puzzle's name: a header, not a bad row.
    for (format, name) in [
        (TableFormat::Csv, "puzzle"),
        (TableFormat::Tsv, "\"quizzes\""),
    ] {
        let one = ParseOptions {
            table: Some(format),
            ..ParseOptions::default()
        };
        let text = format!("{name}\n{TOP1}\n");
        assert_eq!(lines(&text, one), [Ok((2, TOP1.to_string()))], "{name}");
    }
    // A name the header lacks: one error, and the input ends.
    let missing = ParseOptions {
        column: "quiz".parse().ok(),
        ..ParseOptions::default()
    };
    assert_eq!(
        lines(&rows, missing),
        [Err(
            "line 1, column 1: no column \"quiz\" in the header (its columns: id, puzzle, \
              solution); give --column NAME or a 1-based INDEX"
                .to_string()
        )]
    );
    assert_eq!(
        lines("id,puzzle\n1\n", ParseOptions::default()),
        [Err(
            "line 2, column 2: column 2 (puzzle) is missing: this row has 1 field".to_string()
        )]
    );
}

#[test]
fn json_arrays_objects_and_lines() {
    let strings = format!("[\n  \"{TOP1}\", \"{TOP2}\",\n  \"{TOP1}\"\n]\n");
    let got = lines(&strings, ParseOptions::default());
    assert_eq!(
        got,
        [
            Ok((2, TOP1.to_string())),
            Ok((2, TOP2.to_string())),
            Ok((3, TOP1.to_string()))
        ]
    );
    let objects = format!(
        "[{{\"id\": 1, \"tags\": [\"a\", \"b\"], \"solution\": \"{TOP1_SOLUTION}\", \"puzzle\": \"{TOP1}\"}},\n {{\"id\": \"x\\\"y\", \"puzzle\": \"{TOP2}\"}}]\n"
    );
    let got = lines(&objects, ParseOptions::default());
    assert_eq!(got, [Ok((1, TOP1.to_string())), Ok((2, TOP2.to_string()))]);
    let by_name = ParseOptions {
        column: "solution".parse().ok(),
        ..ParseOptions::default()
    };
    // The second object has no such member: reported, not skipped in silence.
    assert_eq!(
        lines(&objects, by_name),
        [
            Ok((1, TOP1_SOLUTION.to_string())),
            Err(
                "line 2, column 110: this JSON object has no member \"solution\" (the puzzles' \
                 column)"
                    .to_string()
            )
        ]
    );
    let jsonl = format!("{{\"source\": \"a:1\", \"puzzle\": \"{TOP1}\"}}\n{{\"source\": \"a:2\", \"puzzle\": \"{TOP2}\"}}\n");
    let got = lines(&jsonl, ParseOptions::default());
    assert_eq!(got, [Ok((1, TOP1.to_string())), Ok((2, TOP2.to_string()))]);
    // A bad puzzle string: its line and column.
    let bad = format!("[\"{}\"]\n", TOP1.replacen('3', "x", 1));
    assert_eq!(
        lines(&bad, ParseOptions::default()),
        [Err(format!(
            "line 1, column {}: unexpected character 'x'; expected a digit 1-9, or '.', '0', \
             '_', '*' for an empty cell",
            3 + TOP1.find('3').unwrap()
        ))]
    );
}

/// A field of blanks (in a JSON string, or a quoted CSV field) is read as an empty one: an error
/// at its place, and the records after it still read (it had panicked: the reader looked for
/// its first character past its end).
#[test]
fn a_field_of_blanks_is_an_error_not_a_panic() {
    let size = "0 cells is not a board size";
    for (text, line, column) in [
        (format!("[\" \"]\n[\"{TOP1}\"]\n"), 1, 4),
        (
            format!("{{\"puzzle\": \"  \t \"}}\n{{\"puzzle\": \"{TOP1}\"}}\n"),
            1,
            17,
        ),
        (format!("id,puzzle\n1,\"   \"\n2,{TOP1}\n"), 2, 7),
    ] {
        let got = lines(&text, ParseOptions::default());
        assert_eq!(got.len(), 2, "{text:?}: {got:?}");
        let err = got[0].as_ref().expect_err("a field of blanks is no puzzle");
        assert!(
            err.starts_with(&format!("line {line}, column {column}: {size}")),
            "{text:?}: {err}"
        );
        assert_eq!(got[1], Ok((line + 1, TOP1.to_string())), "{text:?}");
    }
}

/// A byte that is not UTF-8 where JSON expects a token, near a line's end: named as a byte
/// at its place (the message's token had been sliced past the line's end: a panic).
#[test]
fn a_bad_byte_in_json_is_an_error_not_a_panic() {
    for (input, line, column) in [
        (&b"[{\xbb"[..], 1, 3),
        (b"{\"a\":1,\xc3\n", 1, 8),
        (b"{\"puzzle\":\"1234341221434321\"}\n{\xbb", 2, 2),
    ] {
        let got: Vec<_> = Reader::new(input, ParseOptions::default()).collect();
        let err = got
            .iter()
            .find_map(|r| r.as_ref().err())
            .expect("an error")
            .to_string();
        assert!(
            err.starts_with(&format!("line {line}, column {column}: "))
                && err.contains("(not valid UTF-8)"),
            "{input:?}: {err}"
        );
    }
}

#[test]
fn json_literals_are_checked() {
    for ok in ["0", "-1", "12.5", "1e9", "-0.5E-3", "true", "false", "null"] {
        assert!(super::columns::is_json_literal(ok.as_bytes()), "{ok}");
    }
    for bad in ["", "-", "01", "1.", ".5", "1e", "3.......6", "tru", "x"] {
        assert!(!super::columns::is_json_literal(bad.as_bytes()), "{bad}");
    }
}

/// A puzzle line that happens to start with a brace is a bad puzzle line, not a JSON document
/// that swallows the lines after it; JSON with a bare word in it is an error at that word.
#[test]
fn braces_start_json_only_when_json_follows() {
    let good = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let damaged = format!("{{{}\n{good}\n", &good[1..]);
    let got = read(&damaged, ParseOptions::default());
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got[0]
            .as_ref()
            .is_err_and(|e| e.starts_with("line 1, column 1: unexpected character")),
        "{got:?}"
    );
    assert_eq!(got[1], Ok((2, good.to_string(), Alphabet::Standard)));
    let bare = format!("[\"{good}\", oops]\n");
    let got = read(&bare, ParseOptions::default());
    assert_eq!(got[0], Ok((1, good.to_string(), Alphabet::Standard)));
    assert!(
        got[1]
            .as_ref()
            .is_err_and(|e| e.starts_with("line 1, column 87:") && e.contains("\"oops\"")),
        "{got:?}"
    );
}

/// A 9×9 puzzle line in pencil marks: a given alone, an empty cell with the candidates
/// `marks(cell)` gives (all nine where it gives `None`).
fn pencil(puzzle: &str, marks: impl Fn(usize) -> Option<&'static str>) -> String {
    puzzle
        .chars()
        .enumerate()
        .flat_map(|(cell, c)| {
            let allowed = match c {
                '.' => marks(cell).unwrap_or("123456789").to_string(),
                d => d.to_string(),
            };
            ('1'..='9')
                .map(move |d| if allowed.contains(d) { d } else { '.' })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn pencil_marks_are_givens_and_candidates() {
    // Givens and open cells only: the classic puzzle, without rules; '0' as '.'.
    let open = pencil(TOP1, |_| None);
    assert_eq!(open.len(), 729);
    let text = format!(
        "# sukaku\n  {}  # trailing text\n",
        open.replace("..", "00")
    );
    assert_eq!(
        read(&text, ParseOptions::default()),
        [Ok((2, TOP1.to_string(), Alphabet::Standard))]
    );
    let p = parse_one(&open, &ParseOptions::default()).unwrap();
    assert!(p.rules().is_none());
    // One candidate is a given, some are a rule.
    let marked = pencil(TOP1, |cell| match cell {
        1 => Some("26"),
        2 => Some("5"),
        _ => None,
    });
    let p = parse_one(&marked, &ParseOptions::default()).unwrap();
    assert_eq!(p.cells()[2], 5);
    assert_eq!(p.givens(), TOP1.matches(|c| c != '.').count() + 1);
    let rules = p.rules().expect("candidates are rules").rules();
    assert_eq!(
        rules,
        [Rule::Only {
            cell: 1,
            digits: 0b10_0010
        }]
    );
    // The same with the shape given.
    let three = ParseOptions {
        shape: Some(Shape::NINE),
        ..ParseOptions::default()
    };
    assert_eq!(parse_one(&marked, &three).unwrap(), p);
    // 4×4 in 64 characters: pencil marks, although 64 cells are also an 8×8 board.
    let four = "1....2....3....4".repeat(4);
    let p = parse_one(&four, &ParseOptions::default()).unwrap();
    assert_eq!(p.shape().side(), 4);
    assert_eq!(p.to_line(), "1234".repeat(4));
}

#[test]
fn a_digit_out_of_its_place_is_an_error_at_its_column() {
    let mut bad = pencil(TOP1, |_| None);
    // Cell r1c2 is open: its 5th character is '5'; a '7' there is misplaced.
    bad.replace_range(13..14, "7");
    let text = format!("{TOP1}\n{bad}\n{TOP1}\n");
    let three = ParseOptions {
        shape: Some(Shape::NINE),
        ..ParseOptions::default()
    };
    let message = "line 2, column 14: unexpected character '7' at place 5 of 9 in a pencil-mark \
                   cell; expected '5' (the candidate 5) or '.' or '0' (not a candidate)";
    let want = [
        Ok((1, TOP1.to_string(), Alphabet::Standard)),
        Err(message.to_string()),
        Ok((3, TOP1.to_string(), Alphabet::Standard)),
    ];
    assert_eq!(read(&text, three), want);
    // Without a shape the line might be a 27×27 board: the message says how to read one.
    let got = read(&text, ParseOptions::default());
    assert_eq!(
        got[1],
        Err(format!("{message}; for a 27x27 board give --box"))
    );
    // A cell with no candidate.
    let mut empty = pencil(TOP1, |_| None);
    empty.replace_range(9..18, ".........");
    assert_eq!(
        read(&empty, three),
        [Err(
            "line 1, column 10: pencil-mark cell r1c2 has no candidate (all its \
              characters are '.' or '0')"
                .to_string()
        )]
    );
    // A bad character in a 216-character (6×6) line, which is no board.
    let mut six = "123456".repeat(36);
    six.replace_range(100..101, "x");
    let got = read(&six, ParseOptions::default());
    assert!(
        got[0]
            .as_ref()
            .is_err_and(|e| e.starts_with("line 1, column 101: unexpected character 'x'")),
        "{got:?}"
    );
}

#[test]
fn seven_hundred_twenty_nine_cells_are_a_27x27_board_by_content_or_shape() {
    let n27 = Shape::new(3, 9).unwrap();
    // A 27×27 puzzle has digits above 9: the board.
    let mut board = ".".repeat(729);
    board.replace_range(0..3, "1AR");
    let p = parse_one(&board, &ParseOptions::default()).unwrap();
    assert_eq!(p.shape().side(), 27);
    assert!(p.rules().is_none());
    // An empty one has no digit: the board too.
    let empty = ".".repeat(729);
    assert_eq!(
        parse_one(&empty, &ParseOptions::default())
            .unwrap()
            .shape()
            .side(),
        27
    );
    // Pencil marks by content; the 27×27 shape forces the board.
    let open = pencil(TOP1, |_| None);
    assert_eq!(
        parse_one(&open, &ParseOptions::default())
            .unwrap()
            .shape()
            .side(),
        9
    );
    let forced = ParseOptions {
        shape: Some(n27),
        ..ParseOptions::default()
    };
    let p = parse_one(&open, &forced).unwrap();
    assert_eq!((p.shape(), p.rules().is_none()), (n27, true));
    assert_eq!(p.to_line(), open);
}

/// Variant puzzles in tables: JSON as `--json` writes them (the `puzzle` member), arrays of
/// strings, CSV columns, links in a column; each read as the same line alone is.
#[test]
fn tables_hold_variant_puzzles() {
    let six = ".Shape~6x6.AntiKnight.Cage~7~R1C1~R1C2.Thermo~R2C1~R2C2~R2C3.~R6C6_1";
    let alone = read(six, ParseOptions::default());
    let want = alone[0].as_ref().unwrap().1.clone();
    let rules = |text: &str| -> Vec<String> {
        Reader::new(text.as_bytes(), ParseOptions::default())
            .map(|r| {
                let p = r.unwrap().puzzle;
                format!(
                    "{} {:?}",
                    p.to_line(),
                    p.rules().map(|r| r.rules().to_vec())
                )
            })
            .collect()
    };
    let expected = rules(six);
    for text in [
        format!("{{\"puzzle\":\"{six}\",\"solutions\":32}}\n"),
        format!("[\"{six}\", \"{six}\"]\n"),
        format!("id,puzzle\n1,{six}\n2,{six}\n"),
        format!("puzzle\tcount\n{six}\t32\n"),
    ] {
        let got = read(&text, ParseOptions::default());
        assert!(!got.is_empty(), "{text}");
        for r in &got {
            assert_eq!(r.as_ref().map(|r| &r.1), Ok(&want), "{text}");
        }
        assert!(rules(&text).iter().all(|r| *r == expected[0]), "{text}");
    }
    // A header that names f-puzzles is a header; the links under it are puzzles.
    let link = "https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaCR3PgIm9hk0UM6zR4rssX1wAQwB22AO4QAxgAswAVwC2+UPpgAbGwhAAlAAwBhAIwhUAN3U2TcPAg7gAcIBQg1nYOLq4ATF4gvv6BwWERUfZBsQDMickBDqHhpJG2WU5uACz5foVBxRnlMW4ArLUpRemlmS2uAOwd9WklVs3Z7q7OQ6mNPeNOcVMzXaNl0dk5yz51s91jG";
    let got = read(
        &format!("id,fpuzzles_link\n1,{link}\n"),
        ParseOptions::default(),
    );
    assert_eq!(got.len(), 1, "{got:?}");
    // A grid and a variant in one CSV column.
    let grid = "1...............";
    let got = read(&format!("puzzle\n{grid}\n{six}\n"), ParseOptions::default());
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].as_ref().unwrap().1, grid);
}
