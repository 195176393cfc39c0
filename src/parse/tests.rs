//! The parser's tests: every layout, the rules for ambiguous input, errors and recovery.

use super::bytes::{
    cell_value, find_first, is_cell_char, small_value, value_table, NO_VALUE, VALUE_TABLES,
};
use super::error::char_column;
use super::lines::run_len;
use super::*;
use crate::shape::Shape;
use std::io;

const TOP1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const SEED000: &str =
    "060104050008305600200000001800407006006000300700901004500000002007206900040508070";
const SEED001: &str =
    "4.1..52..6.73..85..53.7..1..8.243........9..1..48....23....69......2.5.8.7.9....6";
const SEED001_SOLUTION: &str =
    "491685273627391854853472619189243765732569481564817392348156927916724538275938146";
const SEED002: &str =
    "900703504000000670006450800015200063000506000670009450008047200047000000309108005";
const SEED003: &str =
    "530070000600195000098000060800000003400803001700020006060000280000419005000080079";
const SEED004: &str =
    "003000000400080036008000100040060073000900000000002005004070062600000000700600500";
/// The solution of [`SAMPLE`].
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const SAMPLE: &str =
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

fn boxed(r: usize, c: usize) -> ParseOptions {
    ParseOptions {
        shape: Shape::new(r, c).ok(),
        ..ParseOptions::default()
    }
}

/// The default options with lines limited to `max_line_len` bytes.
fn limited(max_line_len: usize) -> ParseOptions {
    ParseOptions {
        max_line_len,
        ..ParseOptions::default()
    }
}

/// Every record as `"line: puzzle"` or the error's display.
fn records_with(input: &[u8], options: ParseOptions) -> Vec<String> {
    Reader::new(input, options)
        .map(|r| match r {
            Ok(p) => format!("{}: {}", p.line, p.puzzle.to_line()),
            Err(e) => e.to_string(),
        })
        .collect()
}

fn records(input: &str) -> Vec<String> {
    records_with(input.as_bytes(), ParseOptions::default())
}

/// A one-puzzle expectation in the form `records` produces (`0` becomes `.`).
fn ok(line: usize, cells: &str) -> String {
    format!("{line}: {}", cells.replace('0', "."))
}

/// The only record of `input`, which must be an error: (line, column, message).
fn error_with(input: &[u8], options: ParseOptions) -> (usize, usize, String) {
    let all: Vec<_> = Reader::new(input, options).collect();
    assert_eq!(all.len(), 1, "expected one record");
    match all.into_iter().next() {
        Some(Err(ReadError::Parse(e))) => (e.line, e.column, e.kind.to_string()),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

fn error(input: &str) -> (usize, usize, String) {
    error_with(input.as_bytes(), ParseOptions::default())
}

/// A 9×9 grid of whitespace-separated numbers, one row per line.
fn number_grid(cells: &str) -> String {
    let rows: Vec<String> = cells
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let nums: Vec<String> = row.iter().map(|&b| char::from(b).to_string()).collect();
            nums.join(" ")
        })
        .collect();
    rows.join("\n") + "\n"
}

/// A 9×9 grid of characters, one row per line (the `.sdk` layout).
fn char_grid(cells: &str) -> String {
    let rows: Vec<&str> = cells
        .as_bytes()
        .chunks(9)
        .map(|row| std::str::from_utf8(row).expect("ASCII cells"))
        .collect();
    rows.join("\n") + "\n"
}

const EMPTY_HINT: &str = "'.', '0', '_', '*' for an empty cell";

// --- one line per puzzle -------------------------------------------------------------

#[test]
fn one_line_with_trailing_text() {
    let input =
        format!("{TOP1}\n{TOP1}:1:extra\n  {TOP1} {SEED003}\n\t{TOP1};x\n{TOP1},2\n{TOP1} COUNT\n");
    let want: Vec<String> = (1..=6).map(|l| ok(l, TOP1)).collect();
    assert_eq!(records(&input), want);
    // 81 cells then a space and junk is fine.
    assert_eq!(records(&format!("{SEED004} !!\u{e9}\0")), [ok(1, SEED004)]);
}

#[test]
fn a_board_sized_id_before_a_bigger_board() {
    // A 16-digit id (a 4×4 board's length) before the puzzle: the puzzle is the 9×9 after it,
    // as for any other id; a 4×4 with its solution after it stays the 4×4.
    let id = "0000000000000042";
    assert_eq!(records(&format!("{id} {TOP1}\n")), [ok(1, TOP1)]);
    let four = "1..4.4....1.2..3";
    let solved = "1234341221434321";
    assert_eq!(records(&format!("{four} {solved}\n")), [ok(1, four)]);
}

#[test]
fn a_board_of_letters_ending_in_a_field_is_not_a_label() {
    // `Puzzle:` is a label; a 4×4 of letters with a `:1:` field after it is a puzzle (it was
    // skipped as a label, without a word).
    let four = "AB....A.B.......";
    let got = records_with(
        format!("Puzzle:\n{four}:1:\n").as_bytes(),
        ParseOptions {
            alphabet: Some(Alphabet::Letters),
            ..ParseOptions::default()
        },
    );
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("2:"), "{got:?}");
}

#[test]
fn tabs_in_a_boxed_grid_with_blank_cells_read_as_they_look() {
    // Seed 001's layout with one run of blanks written as a tab (stops every 8 columns): the
    // cells keep their places, as after `expand` (the row was read shifted, its index a cell).
    let spaced = "   0 1 2 3 4 5 6 7 8\n  +------+------+------+\n  | 4   1|     5| 2    | 0\n  | 6   7| 3    | 8 5  | 1\n  |   5 3|   7  |   1  | 2\n  +------+------+------+\n  |   8  | 2 4 3|      | 3\n  |      |     9|     1| 4\n  |     4| 8    |     2| 5\n  +------+------+------+\n  | 3    |     6| 9    | 6\n  |      |   2  | 5   8| 7\n  |   7  | 9    |     6| 8\n  +------+------+------+\n";
    let tabbed = spaced.replacen("| 6   7|", "| 6\t7|", 1);
    assert_ne!(spaced, tabbed);
    let want = records(spaced);
    assert!(want[0].starts_with("1: 4.1..52..6.73..85."), "{want:?}");
    assert_eq!(records(&tabbed), want);
}

#[test]
fn a_framed_first_row_of_0_to_n_is_cells() {
    // `0 1 2 3` above a `+---` line is the boxed layout's header; inside the frame it is a row
    // (with 0 for empty: `.123`), not a header to drop.
    let framed = "+---+---+---+---+\n| 0 | 1 | 2 | 3 |\n+---+---+---+---+\n| 2 | 0 | 0 | 0 |\n+---+---+---+---+\n| 0 | 0 | 0 | 0 |\n+---+---+---+---+\n| 0 | 0 | 0 | 4 |\n+---+---+---+---+\n";
    assert_eq!(records(framed), [ok(2, ".1232..........4")]);
}

#[test]
fn a_bad_grid_is_skipped_whole_and_the_next_is_read() {
    // A first row one cell short, then rows of 9: the whole grid is skipped, and the grid
    // after it is read (a puzzle was made of the first grid's last row and the next one's).
    let first = "4...3...\n...6..8..\n........1\n....5..9.\n.8....6..\n.7.2.....\n...1.27..\n5.3....4.\n9........\n";
    let second = "7.8...3..\n...2.1...\n5........\n.4.....26\n3...8....\n...1...9.\n.9.6....4\n....7.5..\n.........\n";
    let got = records(&format!("{first}{second}"));
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].contains("row 2 has 9 entries"), "{got:?}");
    assert_eq!(got[1], ok(10, &second.replace('\n', "")));
    // A `.ss` grid a row short ends at its closing frame; the next `.ss` grid is read.
    let ss = |rows: &[&str]| {
        let mut g = String::from("*-----------*\n");
        for (i, r) in rows.iter().enumerate() {
            if i == 3 || i == 6 {
                g.push_str("|---+---+---|\n");
            }
            g.push_str(&format!("|{}|{}|{}|\n", &r[..3], &r[3..6], &r[6..]));
        }
        g + "*-----------*\n"
    };
    let a: Vec<&str> = first.lines().skip(1).collect();
    let b: Vec<&str> = second.lines().collect();
    let got = records(&format!("{}{}", ss(&a), ss(&b)));
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].contains("closing frame"), "{got:?}");
    assert_eq!(got[1], ok(14, &second.replace('\n', "")));
}

#[test]
fn bracketed_numbers_before_puzzles_are_not_json() {
    // `[1] PUZZLE` numbers a puzzle (it read as a JSON array, every line an error); `[1, 2]`
    // is still JSON (an array of numbers where puzzle strings belong).
    let numbered = format!("[1] {TOP1}\n[2] {SEED003}\n");
    assert_eq!(records(&numbered), [ok(1, TOP1), ok(2, SEED003)]);
    let numbers = records("[1, 2]\n");
    assert!(
        numbers[0].contains("JSON array holds puzzle strings"),
        "{numbers:?}"
    );
}

#[test]
fn one_line_empty_markers() {
    let input = SEED003.replace('0', "_");
    let stars = SEED003.replace('0', "*");
    assert_eq!(
        records(&format!("{input}\n{stars}\n{SEED003}")),
        [ok(1, SEED003), ok(2, SEED003), ok(3, SEED003)]
    );
}

#[test]
fn one_line_sizes() {
    let four = parse_one("1...............", &ParseOptions::default()).unwrap();
    assert_eq!(four.shape().to_string(), "2x2");
    let eight = "1.2.3.4.5.6.7.8.".to_string() + &".".repeat(48);
    let p = parse_one(&eight, &ParseOptions::default()).unwrap();
    assert_eq!((p.shape().to_string(), p.givens()), ("2x4".into(), 8));
    // 36 cells: 2x3 boxes unless --box says 3x2.
    let six = "123456".to_string() + &".".repeat(30);
    let p = parse_one(&six, &ParseOptions::default()).unwrap();
    assert_eq!(p.shape(), Shape::new(2, 3).unwrap());
    let p = parse_one(&six, &boxed(3, 2)).unwrap();
    assert_eq!(p.shape(), Shape::new(3, 2).unwrap());
    // 12x12 with letters, 25x25 with 'P' and lowercase 'p'.
    let twelve = "9ABC".to_string() + &".".repeat(140);
    let p = parse_one(&twelve, &ParseOptions::default()).unwrap();
    assert_eq!(
        (p.shape().to_string(), &p.cells()[..4]),
        ("3x4".into(), &[9, 10, 11, 12][..])
    );
    let big = "Pp".to_string() + &".".repeat(623);
    let p = parse_one(&big, &ParseOptions::default()).unwrap();
    assert_eq!((p.shape().side(), &p.cells()[..2]), (25, &[25, 25][..]));
}

#[test]
fn big16_file() {
    let text = include_str!("../../puzzles/big16.txt");
    let p = parse_one(text, &ParseOptions::default()).unwrap();
    assert_eq!(p.shape(), Shape::new(4, 4).unwrap());
    assert_eq!(&p.cells()[..6], &[0, 0, 7, 0, 10, 0]);
    assert_eq!(p.cells().iter().filter(|&&v| v == 16).count(), 12);
    assert_eq!(p.givens(), 132);
    // Lowercase letters are the same digits on boards up to 35x35.
    let line = text.lines().last().unwrap().to_ascii_lowercase();
    assert_eq!(parse_one(&line, &ParseOptions::default()).unwrap(), p);
}

#[test]
fn cell_values() {
    assert_eq!(cell_value(b'.', 9), Some(0));
    assert_eq!(cell_value(b'0', 9), Some(0));
    assert_eq!(cell_value(b'_', 4), Some(0));
    assert_eq!(cell_value(b'*', 4), Some(0));
    assert_eq!(cell_value(b'9', 9), Some(9));
    assert_eq!(cell_value(b'5', 4), None);
    assert_eq!(cell_value(b'A', 9), None);
    assert_eq!(cell_value(b'G', 16), Some(16));
    assert_eq!(cell_value(b'g', 16), Some(16));
    assert_eq!(cell_value(b'g', 9), None);
    assert_eq!(cell_value(b'Z', 35), Some(35));
    assert_eq!(cell_value(b'a', 36), Some(36));
    assert_eq!(cell_value(b'z', 64), Some(61));
    assert_eq!(cell_value(b'@', 64), Some(62));
    assert_eq!(cell_value(b'$', 64), Some(63));
    assert_eq!(cell_value(b'%', 64), Some(64));
    assert_eq!(cell_value(b'%', 63), None);
    assert_eq!(cell_value(b'@', 25), None);
    assert_eq!(cell_value(b' ', 9), None);
    // The mirror of digit_char.
    let shape = Shape::new(8, 8).unwrap();
    for v in 0..=64u8 {
        let c = crate::puzzle::digit_char(shape, v);
        assert_eq!(cell_value(c as u8, 64), Some(v), "{c}");
    }
}

#[test]
fn fast_paths_match_the_tables() {
    for b in 0..=255u8 {
        assert_eq!(
            is_cell_char(b),
            VALUE_TABLES[2][usize::from(b)] != NO_VALUE,
            "{b}"
        );
        assert_eq!(small_value(b), value_table(9)[usize::from(b)], "{b}");
    }
    let line = b"x\r\n".repeat(40);
    assert_eq!(find_first(&line, |b| b == b'\n'), 2);
    assert_eq!(find_first(&line[3..], |b| b == b'\r'), 1);
    assert_eq!(find_first(&[b'a'; 40], |b| b == b'\n'), 40);
    assert_eq!(run_len(&[b'1'; 100], 3), 97);
}

#[test]
fn line_endings_bom_tabs_and_comments() {
    let crlf = format!("# comment\r\n{TOP1}\r\n\r\n{SEED003}\r\n");
    assert_eq!(records(&crlf), [ok(2, TOP1), ok(4, SEED003)]);
    let cr = format!("{TOP1}\r{SEED003}\r\r{SEED004}");
    assert_eq!(records(&cr), [ok(1, TOP1), ok(2, SEED003), ok(4, SEED004)]);
    let bom = format!("\u{feff}{TOP1}\n");
    assert_eq!(records(&bom), [ok(1, TOP1)]);
    // Files joined (`cat a b`): the second one's mark starts a line.
    let joined = format!("\u{feff}{TOP1}\n\u{feff}{SEED003}\n");
    assert_eq!(records(&joined), [ok(1, TOP1), ok(2, SEED003)]);
    let tabs = format!("\t{TOP1}\t0\n\t # indented comment\n5\t3\t0 0 7 0 0 0 0\n");
    let grid = number_grid(SEED003);
    let tabbed = tabs + &grid[18..].replace(' ', "\t");
    assert_eq!(records(&tabbed), [ok(1, TOP1), ok(3, SEED003)]);
    // CRLF does not shift columns; the BOM is not a column either.
    let bad = format!("{}\r\n", &TOP1[..80]);
    assert_eq!(error(&bad).1, 81);
    let bad = format!("\u{feff}{}\n", &TOP1[..80]);
    assert_eq!(error(&bad).1, 81);
}

/// UTF-16 (Notepad's "Unicode", PowerShell 5's `>`), either byte order, with its byte-order
/// mark or without: the same records and the same errors as the text in UTF-8.
#[test]
fn utf16_reads_as_its_text() {
    let text = format!("# two\r\n{TOP1}\r\n\r\n{}", number_grid(SEED003));
    let bad = format!("{TOP1}\n{}é\n", &SEED003[..80]);
    for big in [false, true] {
        for mark in [false, true] {
            let utf16 = |text: &str| -> Vec<u8> {
                let units = mark
                    .then_some(0xFEFF)
                    .into_iter()
                    .chain(text.encode_utf16());
                units
                    .flat_map(|u| {
                        if big {
                            u.to_be_bytes()
                        } else {
                            u.to_le_bytes()
                        }
                    })
                    .collect()
            };
            let got = records_with(&utf16(&text), ParseOptions::default());
            assert_eq!(got, [ok(2, TOP1), ok(4, SEED003)]);
            let got = records_with(&utf16(&bad), ParseOptions::default());
            assert_eq!(got[0], ok(1, TOP1));
            assert!(got[1].contains("line 2, column 81"), "{}", got[1]);
            assert!(got[1].contains("'é'"), "{}", got[1]);
        }
    }
}

#[test]
fn project_euler_titles() {
    let rows = char_grid(SEED004);
    let input = format!("Grid 01\n{rows}Grid 02\n{rows}Puzzle\n{TOP1}\n");
    assert_eq!(
        records(&input),
        [ok(2, SEED004), ok(12, SEED004), ok(22, TOP1)]
    );
}

/// A first line that looks like a CSV header (words and a comma) but whose next line has no
/// comma is a title: the grids or puzzles under it are read as they are.
#[test]
fn a_title_with_a_comma_is_no_table_header() {
    let rows = char_grid(SEED004);
    let input = format!("Sudoku, hard\n{rows}\n{TOP1}\n");
    assert_eq!(records(&input), [ok(2, SEED004), ok(12, TOP1)]);
    let input = format!(
        "Puzzles from my book, volume 2\n\n# one\n{}",
        number_grid(SEED003)
    );
    assert_eq!(records(&input), [ok(4, SEED003)]);
    // With a comma in the first row it is a table: its puzzle column is found by content.
    let input = format!("name, puzzle\nfirst, {TOP1}\nsecond, {SEED003}\n");
    assert_eq!(records(&input), [ok(2, TOP1), ok(3, SEED003)]);
    // A header written as one (no blank after its commas) naming the puzzle column stays one:
    // a row short of fields is reported, and the rows after it read by the header.
    let input = format!("solution,puzzle\n{SOLVED}\n{SOLVED},{SAMPLE}\n");
    let got = records(&input);
    assert!(
        got[0].contains("column 2 (puzzle) is missing"),
        "{}",
        got[0]
    );
    assert_eq!(got[1], ok(3, SAMPLE));
    let input = format!("puzzle,difficulty\n\"{SAMPLE}\"\n\"{SAMPLE}\",hard\n");
    assert_eq!(records(&input), [ok(2, SAMPLE), ok(3, SAMPLE)]);
}

#[test]
fn empty_input_yields_nothing() {
    assert!(records("").is_empty());
    assert!(records("\n\n   \n# only a comment\r\n\t\n").is_empty());
    assert!(records("\u{feff}").is_empty());
}

#[test]
fn streams_ten_thousand_puzzles() {
    let mut input = String::from("# many\n");
    for i in 0..10_000 {
        input.push_str(if i % 2 == 0 { TOP1 } else { SEED004 });
        input.push('\n');
    }
    let mut count = 0;
    for (i, r) in Reader::new(input.as_bytes(), ParseOptions::default()).enumerate() {
        let p = r.unwrap();
        assert_eq!(p.line, i + 2);
        count += 1;
    }
    assert_eq!(count, 10_000);
}

#[test]
fn counts_file_layout() {
    // As in ../shared/data/multi_truth_dev.txt: `puzzle COUNT`.
    let input = "# PUZZLE COUNT\n\
        ..............1..2.38....5.......6.......73.18.5..........8......245.....6....1.. 0\n\
        ..............1..2.38....5.......6.......73.18.5..........8......245.....6....1.. 12\n";
    assert_eq!(records(input).len(), 2);
    assert!(records(input)
        .iter()
        .all(|r| r.starts_with(|c: char| c.is_ascii_digit())));
}

// --- grids -----------------------------------------------------------------------------

#[test]
fn seed_files() {
    let cases = [
        (include_str!("../../puzzles/seed000.txt"), 2, SEED000),
        (include_str!("../../puzzles/seed001.txt"), 3, SEED001),
        (include_str!("../../puzzles/seed002.txt"), 2, SEED002),
        (include_str!("../../puzzles/seed003.txt"), 3, SEED003),
        (include_str!("../../puzzles/seed004.txt"), 2, SEED004),
        (include_str!("../../puzzles/sample.sdk"), 4, SAMPLE),
        (include_str!("../../puzzles/sample.ss"), 4, SAMPLE),
    ];
    for (i, (text, line, want)) in cases.into_iter().enumerate() {
        assert_eq!(records(text), [ok(line, want)], "case {i}");
    }
    let p = parse_one(
        include_str!("../../puzzles/seed001.txt"),
        &ParseOptions::default(),
    );
    let solution: Vec<u8> = SEED001_SOLUTION.bytes().map(|b| b - b'0').collect();
    assert!(p.unwrap().is_solution(&solution));
}

#[test]
fn numbers_grid_flavours() {
    let plain = number_grid(SEED003);
    assert_eq!(records(&plain), [ok(1, SEED003)]);
    // Separators, `|` glued to numbers or standing alone, dots for empty cells.
    let fancy = "|5 3 0|0 7 0|0 0 0|\n6 0 0 | 1 9 5 | 0 0 0\n0 9 8 |0 0 0| 0 6 0\n\
        ------+-------+------\n8 . . . . . . . 3\n4 0 0 8 0 3 0 0 1\n7 0 0 0 2 0 0 0 6\n\
        ======+=======+======\n0 6 0 0 0 0 2 8 0\n0 0 0 4 1 9 0 0 5\n0 0 0 0 8 0 0 7 9\n";
    assert_eq!(records(fancy), [ok(1, SEED003)]);
    // All 81 numbers on one line, or three rows per line.
    let one_line = plain.replace('\n', " ");
    assert_eq!(records(&one_line), [ok(1, SEED003)]);
    let three: String = plain
        .lines()
        .collect::<Vec<_>>()
        .chunks(3)
        .map(|rows| rows.join("  ") + "\n")
        .collect();
    // (27 entries on a first line would be a row of a 27x27 board: that needs --box.)
    assert_eq!(
        records_with(three.as_bytes(), boxed(3, 3)),
        [ok(1, SEED003)]
    );
}

#[test]
fn numbers_grid_sixteen() {
    let text = include_str!("../../puzzles/big16.txt");
    let p = parse_one(text, &ParseOptions::default()).unwrap();
    let grid: String = p
        .cells()
        .chunks(16)
        .map(|row| {
            let nums: Vec<String> = row.iter().map(|v| format!("{v:2}")).collect();
            nums.join(" ") + "\n"
        })
        .collect();
    assert!(grid.contains("16"));
    let back = parse_one(&grid, &ParseOptions::default()).unwrap();
    assert_eq!(back, p);
}

#[test]
fn char_rows() {
    let sdk = "#A author\n#B x\n2..1.5..3\n.54...71.\n...|.6.|...\n---+---+---\n\
        *********\n.........\n.........\n.........\n.........\n.........\n";
    let want = "2..1.5..3".to_string() + ".54...71." + "....6...." + &".".repeat(54);
    assert_eq!(records(sdk), [ok(3, &want)]);
    // The unframed .ss variant, and rows of a 12x12 board with letters.
    let unframed = "2..|1.5|..3\n.54|...|71.\n...|.6.|...\n---+---+---\n".to_string()
        + &"...|...|...\n".repeat(6);
    assert_eq!(records(&unframed), [ok(1, &want)]);
    let twelve = "1.9.AB......\n".to_string() + &"............\n".repeat(11);
    let p = parse_one(&twelve, &ParseOptions::default()).unwrap();
    assert_eq!(
        (p.shape().to_string(), &p.cells()[..6]),
        ("3x4".into(), &[1, 0, 9, 0, 10, 11][..])
    );
    // With --box, a row of N characters starts a grid even when N*N would be a board.
    let four = "12..\n..34\n....\n....\n";
    assert_eq!(
        records_with(four.as_bytes(), boxed(2, 2)),
        [ok(1, "12....34........")]
    );
}

#[test]
fn boxed_output_layout() {
    // The solve command's layout, with dots for empty cells and with the header.
    let printed = "   0 1 2 3 4 5 6 7 8\n  +------+------+------+\n\
          | 4 . 1| . . 5| 2 . .| 0\n  | 6 . 7| 3 . .| 8 5 .| 1\n  | . 5 3| . 7 .| . 1 .| 2\n\
          +------+------+------+\n  | . 8 .| 2 4 3| . . .| 3\n  | . . .| . . 9| . . 1| 4\n\
          | . . 4| 8 . .| . . 2| 5\n  +------+------+------+\n  | 3 . .| . . 6| 9 . .| 6\n\
          | . . .| . 2 .| 5 . 8| 7\n  | . 7 .| 9 . .| . . 6| 8\n  +------+------+------+\n";
    assert_eq!(records(printed), [ok(1, SEED001)]);
    // Without the header, and the solution with no empty cells.
    let no_header = printed.split_once('\n').unwrap().1;
    assert_eq!(records(no_header), [ok(2, SEED001)]);
    // A 0..N-1 first row not followed by `+---` is a row like any other.
    let first_row = "0 1 2 3\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
    assert_eq!(
        records(first_row),
        [ok(1, ".1233412214343 21".replace(' ', "").as_str())]
    );
}

// --- errors ----------------------------------------------------------------------------

#[test]
fn error_message_format() {
    let mut line = TOP1.as_bytes().to_vec();
    line[16] = b'x';
    let input = format!("# c\n\n{}\n{SEED004}\n", String::from_utf8(line).unwrap());
    let all: Vec<_> = Reader::new(input.as_bytes(), ParseOptions::default()).collect();
    assert_eq!(
        all[0].as_ref().unwrap_err().to_string(),
        "line 3, column 17: unexpected character 'x'; expected a digit 1-9, or '.', '0', \
         '_', '*' for an empty cell"
    );
    assert_eq!(all[1].as_ref().unwrap().line, 4);
}

#[test]
fn wrong_cell_counts() {
    let hint = "a one-line puzzle has N*N cells with N = R*C (16, 36, 64, 81, 144, 256, 625, \
        ...)";
    let (l, c, m) = error(&TOP1[..80]);
    assert_eq!((l, c), (1, 81));
    assert_eq!(m, format!("80 cells is not a board size: {hint}; the nearest is 81 (9x9); for other shapes give --box"));
    let (l, c, m) = error(&format!("{TOP1}4."));
    assert_eq!((l, c), (1, 84));
    assert!(m.starts_with("83 cells is not a board size"), "{m}");
    let (l, c, m) = error(&format!("\n{TOP1}. solution"));
    assert_eq!((l, c), (2, 83));
    assert!(m.starts_with("82 cells is not a board size"), "{m}");
    let (_, c, m) = error(&".".repeat(50));
    assert_eq!(c, 51);
    assert!(
        m.ends_with("the nearest is 36 (6x6); for other shapes give --box"),
        "{m}"
    );
    // With a shape, the count must match it.
    let (l, c, m) = error_with(b"1...............\n", boxed(3, 3));
    assert_eq!(
        (l, c, m.as_str()),
        (
            1,
            17,
            "got 16 cells, expected 81 for a 9x9 board with 3x3 boxes"
        )
    );
    let (_, c, m) = error_with(format!("{TOP1}.").as_bytes(), boxed(3, 3));
    assert_eq!(
        (c, m.as_str()),
        (
            83,
            "got 82 cells, expected 81 for a 9x9 board with 3x3 boxes"
        )
    );
}

#[test]
fn prime_side_needs_a_box() {
    let seven = ".".repeat(49);
    let (l, c, m) = error(&seven);
    assert_eq!((l, c), (1, 50));
    assert_eq!(
        m,
        "side 7 has no box shape to infer (prime); give one with --box 1x7"
    );
    let p = parse_one(&seven, &boxed(1, 7)).unwrap();
    assert_eq!(p.shape().side(), 7);
    let (_, c, m) = error("5 3 0 0 7 0 0\n");
    assert_eq!(
        (c, m.as_str()),
        (
            14,
            "side 7 has no box shape to infer (prime); give one with --box 1x7"
        )
    );
}

#[test]
fn bad_characters() {
    let cases: [(&[u8], usize, &str); 6] = [
        (b"4...3..!....", 8, "unexpected character '!'"),
        (b"4...3..\0....", 8, "unexpected character '\\0'"),
        (
            b"4...3..\xFF....",
            8,
            "unexpected byte 0xFF (not valid UTF-8)",
        ),
        (
            "4...3..\u{e9}....".as_bytes(),
            8,
            "unexpected character '\u{e9}'",
        ),
        (
            "4...3..\u{fffd}....".as_bytes(),
            8,
            "unexpected character '\\u{fffd}'",
        ),
        (
            "4...3..\u{a0}....".as_bytes(),
            8,
            "unexpected character '\\u{a0}'",
        ),
    ];
    for (input, column, start) in cases {
        let (line, col, m) = error_with(input, ParseOptions::default());
        assert_eq!((line, col), (1, column), "{m}");
        let expected = format!(
            "{start}; expected a digit 1-9 (and letters A-Z on boards over 9x9), or {EMPTY_HINT}"
        );
        assert_eq!(m, expected);
    }
    // Inside a 9x9 line, a lowercase letter is no digit at all.
    let bad = format!("{}g{}", &TOP1[..40], &TOP1[41..]);
    let (_, c, m) = error(&bad);
    assert_eq!(
        (c, m),
        (
            41,
            format!("unexpected character 'g'; expected a digit 1-9, or {EMPTY_HINT}")
        )
    );
}

#[test]
fn digits_out_of_range() {
    let (l, c, m) = error("1..5............");
    assert_eq!((l, c), (1, 4));
    assert_eq!(
        m,
        format!("digit '5' is out of range for a 4x4 board; expected a digit 1-4, or {EMPTY_HINT}")
    );
    let bad = format!("{}G{}", &TOP1[..10], &TOP1[11..]);
    let (_, c, m) = error(&bad);
    assert_eq!((c, m), (11, format!("digit 'G' (= 16) is out of range for a 9x9 board; expected a digit 1-9, or {EMPTY_HINT}")));
    let big = include_str!("../../puzzles/big16.txt")
        .lines()
        .last()
        .unwrap()
        .replacen('G', "H", 1);
    let (_, c, m) = error(&big);
    assert_eq!(c, 17);
    assert_eq!(m, format!("digit 'H' (= 17) is out of range for a 16x16 board; expected a digit 1-9 or a letter A-G, or {EMPTY_HINT}"));
}

#[test]
fn number_out_of_range_then_recovers() {
    let mut grid = number_grid(SEED003);
    grid = grid.replacen("6 0 0 1 9", "6 0 17 1 9", 1);
    let input = format!("{grid}{TOP1}\n");
    let got = records(&input);
    assert_eq!(got, [
        "line 2, column 5: number 17 is out of range for a 9x9 board; expected a number 0-9 (0 or '.' for an empty cell)".to_string(),
        ok(10, TOP1),
    ]);
    let bad = number_grid(SEED003).replacen("0 9 8", "0 x 8", 1) + "\n" + &number_grid(SEED004);
    assert_eq!(records(&bad), [
        "line 3, column 3: unexpected character 'x'; expected a number 0-9 (0 or '.' for an empty cell)".to_string(),
        ok(11, SEED004),
    ]);
}

/// A negative number (seed 000 reads any integer with `cin >>`) is one out-of-range error in
/// its grid, in the first row as in another; the grid is read whole and the next one follows.
#[test]
fn negative_numbers_are_out_of_range_once() {
    for (row, line) in [("5 3 0 0 7 0 0 0 0", 1), ("6 0 0 1 9 5 0 0 0", 2)] {
        let bad = row.replacen('0', "-1", 1);
        let grid = number_grid(SEED003).replacen(row, &bad, 1);
        let at = bad.find('-').unwrap() + 1;
        assert_eq!(
            records(&format!("{grid}\n{}", number_grid(SEED004))),
            [
                format!(
                    "line {line}, column {at}: number -1 is out of range for a 9x9 board; \
                     expected a number 0-9 (0 or '.' for an empty cell)"
                ),
                ok(11, SEED004),
            ]
        );
    }
}

#[test]
fn row_with_wrong_entry_count() {
    let grid = number_grid(SEED003).replacen("6 0 0 1 9 5 0 0 0", "6 0 0 1 9 5 0 0", 1);
    let input = format!("{grid}\n{}", number_grid(SEED004));
    assert_eq!(
        records(&input),
        [
            "line 2, column 16: row 2 has 8 entries, expected 9 (one row of a 9x9 board)"
                .to_string(),
            ok(11, SEED004),
        ]
    );
    // Too many: the column of the first entry that does not fit.
    let grid = number_grid(SEED003).replacen("6 0 0 1 9 5 0 0 0", "6 0 0 1 9 5 0 0 0 4", 1);
    let (l, c, m) = error(&grid);
    assert_eq!(
        (l, c, m.as_str()),
        (
            2,
            19,
            "row 2 has 10 entries, expected 9 (one row of a 9x9 board)"
        )
    );
    // A shape from --box applies to the first row too.
    let (l, c, m) = error_with(b"1 2 3\n", boxed(2, 2));
    assert_eq!(
        (l, c, m.as_str()),
        (
            1,
            6,
            "row 1 has 3 entries, expected 4 (one row of a 4x4 board)"
        )
    );
    let (_, c, m) = error(&"0 ".repeat(70));
    assert_eq!(c, 140);
    assert!(
        m.starts_with("cannot infer the board size from a first row of 70 entries"),
        "{m}"
    );
}

#[test]
fn grid_cut_short() {
    let eight: String = number_grid(SEED003)
        .lines()
        .take(8)
        .map(|l| format!("{l}\n"))
        .collect();
    let (l, c, m) = error(&eight);
    assert_eq!(
        (l, c, m.as_str()),
        (
            8,
            18,
            "the grid ended at the end of the input after 8 of 9 rows"
        )
    );
    // A blank line ends a single-spaced grid, and the next grid is read normally.
    let input = format!("{eight}\n{}", number_grid(SEED004));
    assert_eq!(
        records(&input),
        [
            "line 9, column 1: the grid ended at a blank line after 8 of 9 rows".to_string(),
            ok(10, SEED004),
        ]
    );
    // The same in a double-spaced grid reaches the end of the input.
    let double = eight.replace('\n', "\n\n");
    assert_eq!(
        error(&double).2,
        "the grid ended at the end of the input after 8 of 9 rows"
    );
    let sdk = "2..1.5..3\n.54...71.\n";
    assert_eq!(
        error(sdk),
        (
            2,
            10,
            "the grid ended at the end of the input after 2 of 9 rows".into()
        )
    );
}

#[test]
fn mixed_layouts() {
    let rows: Vec<&str> = include_str!("../../puzzles/seed003.txt")
        .lines()
        .skip(2)
        .collect();
    let input = format!("{}\n{}\n{}\n{TOP1}\n", rows[0], rows[1], rows[2]);
    assert_eq!(
        records(&input),
        [
            "line 4, column 1: found a one-line puzzle where row 4 of the 9x9 grid that starts on \
         line 1 was expected; one puzzle cannot mix layouts"
                .to_string(),
            ok(4, TOP1),
        ]
    );
    let input = format!("{}\n{}\n 2..1.5..3\n{TOP1}\n", rows[0], rows[1]);
    assert_eq!(
        records(&input),
        [
            "line 3, column 2: found a row of characters (in a grid of whitespace-separated \
         numbers) where row 3 of the 9x9 grid that starts on line 1 was expected; one puzzle \
         cannot mix layouts"
                .to_string(),
            ok(4, TOP1),
        ]
    );
}

#[test]
fn bad_row_skips_rest_of_grid() {
    let sdk = include_str!("../../puzzles/sample.sdk").replacen("6..195...", "6..1!5...", 1);
    let input = format!("{sdk}{SEED004}\n");
    assert_eq!(
        records(&input),
        [
            format!(
                "line 5, column 5: unexpected character '!'; expected a digit 1-9, or {EMPTY_HINT}"
            ),
            ok(13, SEED004),
        ]
    );
}

#[test]
fn long_line_is_bounded_and_skipped() {
    let mut input = vec![b'.'; 5_000_000];
    input.push(b'\n');
    input.extend_from_slice(TOP1.as_bytes());
    let options = limited(4096);
    let mut reader = Reader::new(&input[..], options);
    let first = reader.next().unwrap().unwrap_err().to_string();
    assert_eq!(first, "line 1, column 4097: line is longer than 4096 bytes; skipped (the limit keeps memory bounded)");
    assert!(
        reader.line.capacity() <= 2 * 4096,
        "{}",
        reader.line.capacity()
    );
    assert_eq!(reader.next().unwrap().unwrap().line, 2);
    assert!(reader.next().is_none());
    // Through a small BufReader, with multi-byte characters: the column counts characters.
    let text = "\u{e9}".repeat(3000) + "\n" + TOP1;
    let buffered = io::BufReader::with_capacity(64, text.as_bytes());
    let got: Vec<String> = Reader::new(buffered, options)
        .map(|r| r.map_or_else(|e| e.to_string(), |p| p.line.to_string()))
        .collect();
    assert_eq!(got[0].split(':').next(), Some("line 1, column 2049"));
    assert_eq!(got[1], "2");
    // Inside a grid: the grid is abandoned and the next puzzle read.
    let grid = format!(
        "5 3 0 0 7 0 0 0 0\n{}\n6 0 0 1 9 5 0 0 0\n\n{TOP1}\n",
        "0 ".repeat(3000)
    );
    let got = records_with(grid.as_bytes(), options);
    assert_eq!(got.len(), 2);
    assert!(
        got[0].starts_with("line 2, column 4097: line is longer"),
        "{}",
        got[0]
    );
    assert_eq!(got[1], ok(5, TOP1));
}

/// A JSON input on one line longer than the limit (`json.dump` of a list) is read in pieces cut
/// between records, in bounded memory, with columns counted from the line's start; through
/// reads of any size. A record (here one string) over the limit ends the input.
#[test]
fn json_on_one_long_line_is_read_in_pieces() {
    let options = limited(200);
    // Strings with commas, blanks and escaped quotes that a cut must not fall into.
    let title = format!("\"{}\\\"{}\"", "a, b ".repeat(8), ", ".repeat(5));
    let mut line = format!("[{{\"title\": {title}, \"puzzle\": \"{TOP1}\"}}");
    let mut want = vec![ok(1, TOP1)];
    for p in [SEED003, SEED004, TOP1, SEED003, SEED004] {
        line += &format!(", \"{p}\"");
        want.push(ok(1, p));
    }
    let bad = format!("{}x{}", &TOP1[..40], &TOP1[41..]);
    let column = line.len() + 4 + 40;
    line += &format!(", \"{bad}\", {{\"puzzle\": \"{TOP1}\", \"note\": {title}}}]\n");
    want.push(format!("line 1, column {column}: unexpected character 'x'"));
    want.push(ok(1, TOP1));
    for capacity in [7, 64, 1 << 16] {
        let input = io::BufReader::with_capacity(capacity, line.as_bytes());
        let mut reader = Reader::new(input, options);
        let got: Vec<String> = reader
            .by_ref()
            .map(|r| match r {
                Ok(p) => format!("{}: {}", p.line, p.puzzle.to_line()),
                Err(e) => e.to_string(),
            })
            .collect();
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(&want) {
            assert!(g.starts_with(w.as_str()), "{g} / {w}");
        }
        assert!(reader.line.capacity() <= 2 * 200 + 64);
    }
    // A string longer than the limit: the input ends there, as at a syntax error (at the
    // string's start: after `["`, 81 characters, `", `).
    let long = format!("[\"{TOP1}\", \"{}\", \"{TOP1}\"]\n", "a".repeat(300));
    let got = records_with(long.as_bytes(), options);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0], ok(1, TOP1));
    assert!(
        got[1].starts_with("line 1, column 87: a JSON record longer than 200 bytes"),
        "{}",
        got[1]
    );
}

/// Cuts fall between records, never inside one: a record's puzzle member is chosen with all
/// its members in view (a solution before the puzzle is not taken for it). A record over the
/// limit ends the input inside an array; in JSON Lines it is skipped alone.
#[test]
fn json_pieces_never_cut_a_record() {
    let record = format!("{{\"solution\": \"{SOLVED}\", \"puzzle\": \"{SAMPLE}\"}}");
    let line = format!("[{record}, {record},{record}]\n");
    let got = records_with(line.as_bytes(), limited(250));
    assert_eq!(got, [ok(1, SAMPLE), ok(1, SAMPLE), ok(1, SAMPLE)]);
    let got = records_with(line.as_bytes(), limited(100));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got[0],
        "line 1, column 2: a JSON record longer than 100 bytes on one line; the input ends \
         here (the limit keeps memory bounded)"
    );
    let long = format!(
        "{{\"puzzle\": \"{TOP1}\", \"note\": \"{}\"}}",
        "x".repeat(150)
    );
    let lines = format!("{{\"puzzle\": \"{TOP1}\"}}\n{long}\n{{\"puzzle\": \"{SEED003}\"}}\n");
    let got = records_with(lines.as_bytes(), limited(120));
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], ok(1, TOP1));
    assert!(got[1].starts_with("line 2, column 121: line is longer than 120 bytes; skipped"));
    assert_eq!(got[2], ok(3, SEED003));
}

/// A first line over the limit that is not a JSON array (an f-puzzles object, a CSV header)
/// is skipped alone, as every other line over the limit.
#[test]
fn a_long_first_line_that_is_no_json_array_is_skipped() {
    let options = limited(200);
    let fpuzzles = format!(
        "{{\"size\": 9, \"grid\": [], \"title\": \"{}\"}}",
        "x".repeat(300)
    );
    let header = format!("id,{},puzzle", "note,".repeat(60));
    let array = format!("[\"{}\"]", "x".repeat(300));
    for first in [fpuzzles, header] {
        let input = format!("{first}\n{TOP1}\n{SEED003}\n");
        let got = records_with(input.as_bytes(), options);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            got[0].starts_with("line 1, column 201: line is longer"),
            "{}",
            got[0]
        );
        assert_eq!(got[1..], [ok(2, TOP1), ok(3, SEED003)]);
    }
    // An array on a first line over the limit in a file known to be CSV (`.csv`): no JSON.
    let csv = ParseOptions {
        table: Some(TableFormat::Csv),
        ..options
    };
    let got = records_with(format!("{array}\n").as_bytes(), csv);
    assert!(
        got[0].starts_with("line 1, column 201: line is longer"),
        "{got:?}"
    );
}

#[test]
fn parse_one_counts_puzzles() {
    let options = ParseOptions::default();
    assert_eq!(
        parse_one(&format!("# x\n{TOP1}\n"), &options)
            .unwrap()
            .to_line(),
        TOP1
    );
    let none = parse_one("# nothing\n\n", &options)
        .unwrap_err()
        .to_string();
    assert_eq!(
        none,
        "line 1, column 1: no puzzle found: the input is empty or has only blank and comment lines"
    );
    // Words are a title, skipped: an input of nothing else says so, at the first one.
    let words = parse_one("# x\n  hello world  \nmore\n", &options).unwrap_err();
    assert_eq!(
        words.to_string(),
        "line 2, column 3: no puzzle found: this line (\"hello world\") was skipped as a title, \
         as a line that starts with a word is (`Grid 01` above a grid), and no puzzle follows"
    );
    // A title with puzzles after it, or one after a puzzle, is no error.
    let titled: Vec<_> =
        Reader::new(format!("Grid 01\n{TOP1}\nthe end\n").as_bytes(), options).collect();
    assert_eq!(titled.len(), 1);
    assert!(titled[0].is_ok());
    let two = parse_one(&format!("{TOP1}\n\n{SEED004}"), &options)
        .unwrap_err()
        .to_string();
    assert_eq!(two, "line 3, column 1: a second puzzle starts here (the first starts on line 1); expected exactly one puzzle");
    let bad = parse_one(&TOP1[..5], &options).unwrap_err();
    assert!(matches!(
        bad,
        ReadError::Parse(ParseError {
            line: 1,
            column: 6,
            ..
        })
    ));
}

#[test]
fn columns_count_characters() {
    let line = "a\u{e9}\u{20ac}\u{1f600}!".as_bytes();
    assert_eq!(char_column(line, 0), 1);
    assert_eq!(char_column(line, 1 + 2 + 3 + 4), 5);
    assert_eq!(char_column(b"a\xFF\xFEb", 3), 4);
}

#[test]
fn io_error_is_fatal() {
    struct Failing;
    impl io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let text = format!("{TOP1}\n");
    let input = io::BufReader::new(io::Read::chain(text.as_bytes(), Failing));
    let got: Vec<_> = Reader::new(input, ParseOptions::default()).collect();
    assert_eq!(got.len(), 2);
    assert!(matches!(&got[1], Err(ReadError::Io(e)) if e.to_string() == "disk on fire"));
}
