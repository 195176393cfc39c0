//! Parse, then search every puzzle found with a node cap: no panic, and every solution
//! reported is a valid grid that keeps the givens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_enum::internals::{search_in, Shared};
use sudoku_enum::{CollectSink, Options, ParseOptions, Reader};

fuzz_target!(|data: &[u8]| {
    for puzzle in Reader::new(data, ParseOptions::default()).flatten().map(|p| p.puzzle).take(4) {
        let shared = Shared::new(Some(3));
        shared.set_node_budget(20_000);
        let mut sink = CollectSink::default();
        let outcome = search_in(&puzzle, &Options::default(), &shared, &mut sink);
        let found = sink.solutions;
        assert_eq!(found.len() as u128, outcome.solutions);
        assert!(found.len() <= 3);
        for s in &found {
            assert!(puzzle.is_solution(s));
        }
        assert_eq!(outcome.conflict.is_some(), puzzle.conflict().is_some());
    }
});
