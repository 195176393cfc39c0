//! Which engine runs a puzzle: [`EngineChoice`] and the one selection rule, `with_engine!`.

/// Engine selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The 9×9 bitboard engine for 3×3 boxes, the big engine above 12×12, the generic engine
    /// otherwise.
    #[default]
    Auto,
    /// Always the generic engine (a cross-check).
    Generic,
}

/// The one engine-selection rule: the 9×9 engine for 3×3 boxes; the big engine
/// ([`Big`](super::big::Big), at the narrowest mask width the side fits) for sides above 12,
/// where its inference pays (hard 14×14 to 25×25 puzzles take far fewer nodes); the plain
/// generic engine for the other shapes up to 12×12 (its nodes are cheaper, and there even
/// minimal puzzles take a few dozen nodes), for puzzles with variant rules (only it runs
/// them) and when asked for (a cross-check). The README's
/// Design section has the measurements. `with_engine!(puzzle, choice, |root| expr)` builds the
/// propagated root state of the chosen engine and evaluates `expr` with it (generic over the
/// engine type), giving `Some(expr)`, or `None` when propagation alone proves there is no
/// solution.
macro_rules! with_engine {
    ($puzzle:expr, $choice:expr, |$root:ident| $body:expr) => {{
        let puzzle: &$crate::puzzle::Puzzle = $puzzle;
        let shape = puzzle.shape();
        if $crate::engine::select::runs_generic(puzzle, $choice) {
            <$crate::engine::generic::Generic as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        } else if shape == $crate::shape::Shape::NINE {
            <$crate::engine::nine::Nine as $crate::engine::Engine>::new(puzzle).map(|$root| $body)
        } else if shape.side() <= 16 {
            <$crate::engine::big::Big<u16> as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        } else if shape.side() <= 32 {
            <$crate::engine::big::Big<u32> as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        } else {
            <$crate::engine::big::Big<u64> as $crate::engine::Engine>::new(puzzle)
                .map(|$root| $body)
        }
    }};
}
pub(crate) use with_engine;

/// Whether [`with_engine!`] runs `puzzle` on the generic engine.
pub(crate) fn runs_generic(puzzle: &crate::puzzle::Puzzle, choice: EngineChoice) -> bool {
    let shape = puzzle.shape();
    choice == EngineChoice::Generic
        || !puzzle.is_classic()
        || (shape.side() <= 12 && shape != crate::shape::Shape::NINE)
}
