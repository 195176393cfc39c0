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
