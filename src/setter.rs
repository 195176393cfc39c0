//! What a puzzle setter asks of a puzzle: how far the singles rules get ([`rate`]), and whether
//! every given is needed ([`minimality`]). (The command line's `check --explain` prints them
//! as seed 001 does.)
//!
//! * **Level 0** is seed 001's solver: sweep the board, and fill every empty cell whose
//!   candidates (the digits not yet in its row, column and box) are down to one; repeat until a
//!   sweep changes nothing. A fill is visible to the later cells of the same sweep, as in the
//!   seed; the fixpoint does not depend on that.
//! * **Level 1** adds hidden singles (a digit with exactly one possible cell in a row, column or
//!   box) and runs both rules to a fixpoint, starting from the level-0 fixpoint.
//! * Anything else needs **search**; its cost is the engine's node and guess count.
//!
//! The singles logic here is independent of the search engines: one `u64` candidate mask per
//! cell, any box shape up to 64×64.

use crate::parse::Alphabet;
use crate::puzzle::{Conflict, Puzzle};
use crate::shape::Shape;
use crate::solver::{count, Options, Verdict};

/// The simplest rule set that fills the whole board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Level 0: naked singles alone (seed 001's solver).
    NakedSingles,
    /// Level 1: naked and hidden singles.
    Singles,
    /// Singles stall (or reach a contradiction): the puzzle needs search.
    Search,
}

impl Level {
    /// The word used in JSON: `naked-singles`, `singles`, `search`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::NakedSingles => "naked-singles",
            Level::Singles => "singles",
            Level::Search => "search",
        }
    }
}

/// Why the singles rules proved the puzzle has no solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contradiction {
    /// Givens clash in a house; nothing was filled.
    Clash(Conflict),
    /// An empty cell with no candidate left.
    NoCandidate {
        /// The cell (row-major index).
        cell: usize,
    },
    /// A digit with no possible cell in a house.
    NoPlace {
        /// The digit, 1..=N.
        digit: u8,
        /// The house, indexed as [`Shape::houses`].
        house: usize,
    },
}

impl Contradiction {
    /// A human description, e.g. `r3c4 has no candidate left`.
    pub fn describe(&self, shape: Shape) -> String {
        self.describe_in(shape, Alphabet::Standard)
    }

    /// [`Contradiction::describe`] with the digit written in `alphabet`, as the boards beside
    /// it are (a number where the alphabet has no character for it).
    pub fn describe_in(&self, shape: Shape, alphabet: Alphabet) -> String {
        match self {
            Contradiction::Clash(c) => c.to_string(),
            Contradiction::NoCandidate { cell } => {
                format!("{} has no candidate left", shape.cell_name(*cell))
            }
            Contradiction::NoPlace { digit, house } => format!(
                "{} has no place left in {}",
                alphabet.name(*digit),
                shape.house_name(*house)
            ),
        }
    }
}

/// What the singles rules make of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// Givens in the puzzle.
    pub givens: usize,
    /// Cells on the board (N²).
    pub cells: usize,
    /// Cells filled by level 0 (naked singles).
    pub level0_filled: usize,
    /// Further cells filled by level 1 (naked + hidden singles), beyond level 0.
    pub level1_filled: usize,
    /// The simplest level that fills the board.
    pub level: Level,
    /// Set when singles proved the puzzle unsolvable (or its givens clash).
    pub contradiction: Option<Contradiction>,
    /// The board at the level-0 fixpoint (row-major, 0 = empty).
    pub after_level0: Vec<u8>,
    /// The board at the level-1 fixpoint (equal to `after_level0` when level 1 did not run).
    pub after_singles: Vec<u8>,
    /// True when level 1 ran: level 0 neither filled the board nor reached a contradiction.
    pub level1_ran: bool,
}

impl Rating {
    /// Empty cells in the puzzle.
    pub fn empty(&self) -> usize {
        self.cells - self.givens
    }
}

/// The singles solver's working state: values plus the digits used in each row, column and box.
struct Board {
    n: usize,
    full: u64,
    values: Vec<u8>,
    box_of: Vec<usize>,
    rows: Vec<u64>,
    cols: Vec<u64>,
    boxes: Vec<u64>,
}

#[inline]
fn bit(d: u8) -> u64 {
    1u64 << (d - 1)
}

#[inline]
fn digit_of(mask: u64) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

impl Board {
    /// The board of a puzzle whose givens do not clash.
    fn new(p: &Puzzle) -> Board {
        let shape = p.shape();
        let n = shape.side();
        let full = crate::shape::all_digits(n);
        let box_of: Vec<usize> = (0..shape.cells()).map(|c| shape.box_of(c)).collect();
        let mut b = Board {
            n,
            full,
            values: vec![0; shape.cells()],
            box_of,
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
        };
        for (cell, &v) in p.cells().iter().enumerate() {
            if v != 0 {
                b.place(cell, v);
            }
        }
        b
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u64 {
        let used =
            self.rows[cell / self.n] | self.cols[cell % self.n] | self.boxes[self.box_of[cell]];
        self.full & !used
    }

    #[inline]
    fn place(&mut self, cell: usize, d: u8) {
        self.values[cell] = d;
        self.rows[cell / self.n] |= bit(d);
        self.cols[cell % self.n] |= bit(d);
        self.boxes[self.box_of[cell]] |= bit(d);
    }

    /// Digits already placed in house `h` (rows, then columns, then boxes).
    fn placed(&self, h: usize) -> u64 {
        match h / self.n {
            0 => self.rows[h],
            1 => self.cols[h - self.n],
            _ => self.boxes[h - 2 * self.n],
        }
    }

    /// Seed 001's level 0: sweeps until one changes nothing. Returns the cells filled.
    fn naked_singles(&mut self) -> Result<usize, (usize, Contradiction)> {
        let mut filled = 0;
        loop {
            let mut changes = 0;
            for cell in 0..self.values.len() {
                if self.values[cell] != 0 {
                    continue;
                }
                let cand = self.candidates(cell);
                if cand == 0 {
                    return Err((filled + changes, Contradiction::NoCandidate { cell }));
                }
                if cand.count_ones() == 1 {
                    self.place(cell, digit_of(cand));
                    changes += 1;
                }
            }
            filled += changes;
            if changes == 0 {
                return Ok(filled);
            }
        }
    }

    /// One pass of hidden singles over every house. Returns the cells filled.
    fn hidden_singles(&mut self, houses: &[Vec<usize>]) -> Result<usize, (usize, Contradiction)> {
        let mut filled = 0;
        for (h, house) in houses.iter().enumerate() {
            loop {
                let (mut once, mut twice) = (0u64, 0u64);
                for &cell in house {
                    if self.values[cell] == 0 {
                        let cand = self.candidates(cell);
                        twice |= once & cand;
                        once |= cand;
                    }
                }
                let missing = self.full & !self.placed(h) & !once;
                if missing != 0 {
                    let digit = digit_of(missing);
                    return Err((filled, Contradiction::NoPlace { digit, house: h }));
                }
                let hidden = once & !twice;
                if hidden == 0 {
                    break;
                }
                let d = digit_of(hidden);
                let cell = house
                    .iter()
                    .copied()
                    .find(|&c| self.values[c] == 0 && self.candidates(c) & bit(d) != 0);
                match cell {
                    Some(cell) => {
                        self.place(cell, d);
                        filled += 1;
                    }
                    None => break, // unreachable: `once` says some empty cell takes d
                }
            }
        }
        Ok(filled)
    }

    /// Naked and hidden singles to a fixpoint. Returns the cells filled.
    fn singles(&mut self, houses: &[Vec<usize>]) -> Result<usize, (usize, Contradiction)> {
        let mut filled = 0;
        loop {
            filled += self.naked_singles().map_err(|(k, c)| (filled + k, c))?;
            let hidden = self
                .hidden_singles(houses)
                .map_err(|(k, c)| (filled + k, c))?;
            if hidden == 0 {
                return Ok(filled);
            }
            filled += hidden;
        }
    }

    fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
}

/// Rate a puzzle: run level 0, then level 1 from its fixpoint. `None` for a puzzle with
/// variant rules (or pencil marks, or values from 0): the singles of rows, columns and boxes
/// would rate another puzzle.
pub fn rate(p: &Puzzle) -> Option<Rating> {
    if p.rules().is_some() {
        return None;
    }
    Some(rate_classic(p))
}

/// [`rate`] by the classic rules.
fn rate_classic(p: &Puzzle) -> Rating {
    let shape = p.shape();
    let mut rating = Rating {
        givens: p.givens(),
        cells: shape.cells(),
        level0_filled: 0,
        level1_filled: 0,
        level: Level::Search,
        contradiction: None,
        after_level0: p.cells().to_vec(),
        after_singles: p.cells().to_vec(),
        level1_ran: false,
    };
    if let Some(conflict) = p.conflict() {
        rating.contradiction = Some(Contradiction::Clash(conflict));
        return rating;
    }
    let mut board = Board::new(p);
    match board.naked_singles() {
        Ok(k) => rating.level0_filled = k,
        Err((k, c)) => {
            rating.level0_filled = k;
            rating.contradiction = Some(c);
            rating.after_level0 = board.values.clone();
            rating.after_singles = board.values;
            return rating;
        }
    }
    rating.after_level0 = board.values.clone();
    if board.solved() {
        rating.level = Level::NakedSingles;
        rating.after_singles = board.values;
        return rating;
    }
    rating.level1_ran = true;
    match board.singles(&shape.houses()) {
        Ok(k) => rating.level1_filled = k,
        Err((k, c)) => {
            rating.level1_filled = k;
            rating.contradiction = Some(c);
        }
    }
    if rating.contradiction.is_none() && board.solved() {
        rating.level = Level::Singles;
    }
    rating.after_singles = board.values;
    rating
}

/// Which givens the puzzle could do without.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minimality {
    /// True when removing any one given makes the puzzle non-unique.
    pub minimal: bool,
    /// Givens (cell indices, ascending) whose removal alone leaves the puzzle unique.
    pub redundant: Vec<usize>,
}

/// Check every given of a unique puzzle: remove it and count solutions up to 2. `None` when the
/// puzzle is not unique (multiple solutions, none, clashing givens).
pub fn minimality(p: &Puzzle) -> Option<Minimality> {
    minimality_with(p, &Options::default())
}

/// [`minimality`] with the searches' settings (threads, timeout or deadline, cancel; the
/// limit is 2): also `None` when a stop cut one of its counts short before the answer was
/// known. A timeout is for the whole check (one deadline for all its counts), not for each.
pub fn minimality_with(p: &Puzzle, options: &Options) -> Option<Minimality> {
    let from_now = options.timeout.map(|t| std::time::Instant::now() + t);
    let options = Options {
        limit: Some(2),
        progress: None,
        timeout: None,
        deadline: match (options.deadline, from_now) {
            (Some(d), Some(t)) => Some(d.min(t)),
            (d, t) => d.or(t),
        },
        ..options.clone()
    };
    // Unique or not, unless a stop other than the limit cut the count short (a verdict other
    // than `Unknown` is decisive: two solutions seen, or the whole tree searched).
    let unique = |p: &Puzzle| match count(p, &options).verdict() {
        Verdict::Unknown => None,
        v => Some(v == Verdict::Unique),
    };
    if unique(p) != Some(true) {
        return None;
    }
    let mut without = p.clone();
    let mut redundant = Vec::new();
    for (cell, &v) in p.cells().iter().enumerate() {
        if v == 0 {
            continue;
        }
        without.set(cell, 0);
        if unique(&without)? {
            redundant.push(cell);
        }
        without.set(cell, v);
    }
    Some(Minimality {
        minimal: redundant.is_empty(),
        redundant,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::solve;

    /// Singles of rows, columns and boxes would rate another puzzle than one with rules: no
    /// rating (an anti-king 4×4 with no solution was "naked singles", solved).
    #[test]
    fn puzzles_with_rules_are_not_rated() {
        use crate::rules::{Rule, Rules};
        let mut rules = Rules::new();
        rules.push(Rule::AntiKing);
        let shape = Shape::new(2, 2).unwrap();
        let p = puzzle(shape, ".234341221434321").with_rules(rules).unwrap();
        assert_eq!(count(&p, &Options::default()).solutions, 0);
        assert!(rate(&p).is_none());
        assert!(rate(&puzzle(shape, ".234341221434321")).is_some());
    }

    fn filled(values: &[u8]) -> usize {
        values.iter().filter(|&&v| v != 0).count()
    }

    fn puzzle(shape: Shape, s: &str) -> Puzzle {
        let cells = s
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => b - b'0',
                b'A'..=b'Z' => b - b'A' + 10,
                _ => 0,
            })
            .collect();
        Puzzle::new(shape, cells).unwrap()
    }

    fn nine(s: &str) -> Puzzle {
        puzzle(Shape::NINE, s)
    }

    /// A valid full grid for any box shape: value(r, c) = (C·(r mod R) + r div R + c) mod N.
    fn pattern(shape: Shape) -> Vec<u8> {
        let (n, rr, cc) = (shape.side(), shape.box_rows(), shape.box_cols());
        (0..shape.cells())
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((cc * (r % rr) + r / rr + c) % n + 1) as u8
            })
            .collect()
    }

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Level 0 fills what is forced by row, column and box; the seed's sweep finishes the job.
    #[test]
    fn naked_singles_fill_a_row() {
        let shape = Shape::new(2, 2).unwrap();
        let r = rate(&puzzle(shape, "123.............")).unwrap();
        assert_eq!(r.after_level0[3], 4);
        assert_eq!(r.level0_filled, 1);
        assert_eq!(r.contradiction, None);
        // One cell missing in each row: all filled at level 0.
        let mut grid = pattern(Shape::NINE);
        for i in 0..9 {
            grid[i * 9 + (i * 4) % 9] = 0;
        }
        let p = Puzzle::new(Shape::NINE, grid).unwrap();
        let r = rate(&p).unwrap();
        assert_eq!(
            (r.level, r.level0_filled, r.level1_filled),
            (Level::NakedSingles, 9, 0)
        );
        assert_eq!(r.after_level0, pattern(Shape::NINE));
        assert!(!r.level1_ran);
    }

    /// Digit 1 is barred from rows 2–3 and columns 2–3 of box 1, so r1c1 must be 1 though it
    /// keeps all nine candidates: level 0 fills nothing, hidden singles fill exactly that cell.
    #[test]
    fn hidden_single_that_level0_misses() {
        let mut s = vec![b'.'; 81];
        for (r, c) in [(1, 3), (2, 6), (3, 1), (6, 2)] {
            s[r * 9 + c] = b'1';
        }
        let p = nine(std::str::from_utf8(&s).unwrap());
        let r = rate(&p).unwrap();
        assert_eq!((r.level0_filled, r.level1_filled), (0, 1));
        assert_eq!(r.after_singles[0], 1);
        assert_eq!(r.level, Level::Search);
        assert_eq!(r.contradiction, None);
        assert!(r.level1_ran);
    }

    #[test]
    fn contradictions() {
        // r1c1 sees 2 and 3 in its row, 4 in its column, 1 in its box.
        let shape = Shape::new(2, 2).unwrap();
        let r = rate(&puzzle(shape, ".23..1..4.......")).unwrap();
        assert_eq!(
            r.contradiction,
            Some(Contradiction::NoCandidate { cell: 0 })
        );
        assert!(!r.level1_ran);
        assert_eq!(r.level, Level::Search);
        assert_eq!(
            r.contradiction.unwrap().describe(shape),
            "r1c1 has no candidate left"
        );
        // Row 1 has no place for 1: boxes 1 and 2 already hold a 1, r1c7..9 are taken.
        let mut s = vec![b'.'; 81];
        s[6..9].copy_from_slice(b"234");
        s[9] = b'1'; // r2c1
        s[21] = b'1'; // r3c4
        let p = nine(std::str::from_utf8(&s).unwrap());
        let r = rate(&p).unwrap();
        assert_eq!(r.level0_filled, 0);
        assert_eq!(
            r.contradiction,
            Some(Contradiction::NoPlace { digit: 1, house: 0 })
        );
        assert_eq!(
            r.contradiction.as_ref().unwrap().describe(Shape::NINE),
            "1 has no place left in row 1"
        );
        // Clashing givens are reported, not rated.
        let r = rate(&nine(&format!("11{}", ".".repeat(79)))).unwrap();
        assert!(matches!(r.contradiction, Some(Contradiction::Clash(_))));
        assert_eq!((r.level0_filled, r.level1_ran), (0, false));
    }

    /// Every box shape: blank cells of a valid grid at random; whatever singles fill must agree
    /// with the grid, and a board singles fill is unique by the engine.
    #[test]
    fn every_box_shape_agrees_with_the_grid() {
        let shapes = [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (3, 3),
            (3, 4),
            (4, 3),
            (4, 4),
            (1, 5),
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut levels = [0usize; 3];
        for (br, bc) in shapes {
            let shape = Shape::new(br, bc).unwrap();
            let grid = pattern(shape);
            for round in 0..40 {
                let mut cells = grid.clone();
                let blanks = shape.cells() * (30 + round) / 100;
                for _ in 0..blanks {
                    cells[rng.below(shape.cells())] = 0;
                }
                let p = Puzzle::new(shape, cells).unwrap();
                let r = rate(&p).unwrap();
                assert_eq!(r.contradiction, None, "{shape} {p}");
                for board in [&r.after_level0, &r.after_singles] {
                    assert!(board.iter().zip(&grid).all(|(&v, &g)| v == 0 || v == g));
                }
                assert_eq!(filled(&r.after_level0), r.givens + r.level0_filled);
                assert_eq!(
                    filled(&r.after_singles),
                    r.givens + r.level0_filled + r.level1_filled
                );
                match r.level {
                    Level::NakedSingles => levels[0] += 1,
                    Level::Singles => levels[1] += 1,
                    Level::Search => levels[2] += 1,
                }
                if r.level != Level::Search && shape.side() <= 12 {
                    assert_eq!(
                        count(
                            &p,
                            &Options {
                                limit: Some(2),
                                ..Options::default()
                            }
                        )
                        .solutions,
                        1
                    );
                }
            }
        }
        // Both ends occur (the regular pattern grid rarely needs hidden singles: see the 6×6 test).
        assert!(levels[0] > 0 && levels[2] > 0, "{levels:?}");
    }

    /// A 6×6 (2×3 boxes) puzzle that needs hidden singles: pinned fills, and the text report.
    #[test]
    fn six_by_six_needs_hidden_singles() {
        let shape = Shape::new(2, 3).unwrap();
        let grid = solve(&Puzzle::empty(shape)).expect("a solution");
        // Search for the first blanking (deterministic) that level 0 stalls on and singles solve.
        let mut rng = Rng(7);
        let p = loop {
            let mut cells = grid.clone();
            for _ in 0..30 {
                cells[rng.below(36)] = 0;
            }
            let p = Puzzle::new(shape, cells).unwrap();
            let r = rate(&p).unwrap();
            if r.level == Level::Singles && r.level0_filled > 0 {
                break p;
            }
        };
        let r = rate(&p).unwrap();
        assert_eq!(r.after_singles, grid);
        assert_eq!(r.level0_filled + r.level1_filled, r.empty());
        // Unique (singles alone fill it), so its minimality is known.
        assert!(minimality(&p).is_some());
    }

    /// A 25×25 board rates in milliseconds (asserted with a margin for slow machines and
    /// debug builds: well under a second).
    #[test]
    fn big_board_is_quick() {
        let shape = Shape::new(5, 5).unwrap();
        let mut cells = pattern(shape);
        let mut rng = Rng(25);
        for _ in 0..500 {
            cells[rng.below(625)] = 0;
        }
        let p = Puzzle::new(shape, cells).unwrap();
        let t = std::time::Instant::now();
        let r = rate(&p).unwrap();
        let took = t.elapsed();
        assert!(took < std::time::Duration::from_secs(1), "{took:?}");
        assert_eq!(r.contradiction, None);
        assert!(r.level0_filled + r.level1_filled > 0);
        let mut one = pattern(Shape::new(8, 8).unwrap());
        one[100] = 0;
        let r = rate(&Puzzle::new(Shape::new(8, 8).unwrap(), one).unwrap()).unwrap();
        assert_eq!((r.level, r.level0_filled), (Level::NakedSingles, 1));
    }

    #[test]
    fn minimality_finds_redundant_givens() {
        // A full grid less one cell: every given but the ones in the blank's houses... in fact,
        // removing any one more given still leaves each blank forced, so all are redundant.
        let mut grid = pattern(Shape::NINE);
        grid[0] = 0;
        let p = Puzzle::new(Shape::NINE, grid).unwrap();
        let m = minimality(&p).unwrap();
        assert!(!m.minimal);
        assert_eq!(m.redundant.len(), 80);
        assert_eq!(minimality(&Puzzle::empty(Shape::NINE)), None);
        assert_eq!(m.redundant[0], 1, "r1c2: the first given");
    }
}
