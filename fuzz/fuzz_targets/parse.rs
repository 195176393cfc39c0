//! Arbitrary bytes through the multi-puzzle reader: no panic, errors inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_enum::parse::ReadError;
use sudoku_enum::{ParseOptions, Reader};

fuzz_target!(|data: &[u8]| {
    let options = ParseOptions {
        max_line_len: 4096,
        ..ParseOptions::default()
    };
    for item in Reader::new(data, options) {
        match item {
            Ok(p) => assert_eq!(p.puzzle.cells().len(), p.puzzle.shape().cells()),
            Err(ReadError::Parse(e)) => assert!(e.line >= 1 && e.column >= 1),
            Err(ReadError::Io(_)) => unreachable!("a byte slice cannot fail to read"),
        }
    }
});
