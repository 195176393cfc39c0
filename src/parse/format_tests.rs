//! Tests of the input formats of issue 20: alphabets (and, as they come, the other formats).

use super::*;
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
