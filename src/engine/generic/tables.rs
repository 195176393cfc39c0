//! The geometry of one shape and the compiled rules of one puzzle, shared by every state.

use super::state::{Work, CHANGED_WORDS};
use crate::puzzle::Puzzle;
use crate::rules::{self, Compiled, Propagators, Rules};
use crate::shape::Shape;
use std::sync::{Arc, Mutex, OnceLock};

/// Precomputed geometry of one shape (and of a puzzle's rules, if any), shared by every state.
#[derive(Debug)]
pub struct Tables {
    pub(super) shape: Shape,
    pub(super) n: usize,
    pub(super) cells: usize,
    pub(super) full: u64,
    /// `peers[peer_start[cell]..peer_start[cell + 1]]`: the cells that may not share a digit
    /// with `cell` (its houses' cells, and a rule's different pairs).
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// Number of houses (3N for a classic board).
    pub(super) nh: usize,
    /// `houses[h * n ..][..n]`: the cells of house `h` (rows, columns, boxes or regions, then
    /// the rules' houses of N cells).
    houses: Vec<u16>,
    /// `cell_houses[house_start[cell]..house_start[cell + 1]]`: the houses of each cell.
    cell_houses: Vec<u16>,
    house_start: Vec<u32>,
    /// The same as sets of houses: `house_words` words a cell where stale houses are kept
    /// (`State::stale`), one word where hidden singles read them from the cells marked
    /// changed (`stale_from_changed`); none on boards of killer cages and more than 64
    /// houses, whose hidden singles look at every house each round.
    pub(super) house_bits: Vec<u64>,
    /// The words of `State::stale` (0 where stale houses are not kept).
    pub(super) house_words: usize,
    /// Whether hidden singles read the stale houses from the cells the rules mark changed
    /// (see `State::singles_where_changed`): where there are rules, at most 64 houses and
    /// `64 * CHANGED_WORDS` cells. Stale houses are then not kept.
    pub(super) stale_from_changed: bool,
    /// Each cell's digits before the givens, when a rule narrows some (odd, even cells).
    pub(super) initial: Option<Vec<u64>>,
    /// The rules' propagators, run after singles (see `crate::rules`).
    pub(super) props: Option<Propagators>,
    /// Where there are propagators: each cell's branching priority, the conflict scores'
    /// start (see `Scratch`).
    pub(super) priority: Vec<u32>,
    /// Whether the search may branch on a digit's two places in a house (`State::pair`):
    /// puzzles with rules and conflict scores, but no killer cage. On ISS's collection such
    /// pairs took thermometer and renban puzzles from millions of nodes to a few hundred
    /// thousand ("A kind of magic" 5.45 M to 153 k), and took its hardest killers 1.4 times
    /// the time (cells in cages branch better: their digit sets prune the rest).
    pub(super) house_pairs: bool,
    /// Where there are propagators but no sums: a dead end is blamed on the cell that
    /// propagation placed last (and a cell left without candidates), not on the guessed cell
    /// and the failing house or rule, and naked singles are placed first in, first out, so
    /// that the last placed is one of the deepest consequences of the guess (as the
    /// Interactive Sudoku Solver blames one cell of the last wave of forced singles). The
    /// thermometers and renbans of ISS's collection: 3.60 M guesses to 1.57 M over their
    /// eight orientations. Sums need their cells blamed (the hard killers took 1.9 times the
    /// guesses without).
    pub(super) placed_blame: bool,
    /// Where there are killer cages: a dead end's last placement is blamed too, besides the
    /// guessed cell and the failing house or rule (the hard killers of ISS's collection over
    /// their eight orientations: 11% fewer guesses, 4% less time; little killers without
    /// cages lost 11% of their time with it, so they go without).
    pub(super) last_blame: bool,
}

/// The most rules whose tables [`Tables::for_puzzle`] keeps (the last asked for).
const RULES_KEPT: usize = 8;

/// The tables of the last [`RULES_KEPT`] rules asked for, the most recent last (see
/// `Tables::for_puzzle`).
struct Kept(Mutex<Vec<(Shape, Rules, Arc<Tables>)>>);

impl Kept {
    const fn new() -> Kept {
        Kept(Mutex::new(Vec::new()))
    }

    /// The tables kept for `rules` on `shape`, else `build()`'s, kept.
    fn get(&self, shape: Shape, rules: &Rules, build: impl FnOnce() -> Tables) -> Arc<Tables> {
        let find = |kept: &mut Vec<(Shape, Rules, Arc<Tables>)>| {
            let i = kept
                .iter()
                .position(|(s, r, _)| *s == shape && r == rules)?;
            let hit = kept.remove(i);
            let t = Arc::clone(&hit.2);
            kept.push(hit);
            Some(t)
        };
        if let Some(t) = find(&mut self.0.lock().unwrap_or_else(|e| e.into_inner())) {
            return t;
        }
        // Built outside the lock: other threads' puzzles need not wait for it.
        let built = Arc::new(build());
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = find(&mut kept) {
            return t;
        }
        if kept.len() >= RULES_KEPT {
            kept.remove(0);
        }
        kept.push((shape, rules.clone(), Arc::clone(&built)));
        built
    }
}

/// Conflict scores kept between searches of one puzzle (see [`Scores`]).
#[derive(Debug, Clone)]
pub(super) struct Learned {
    pub(super) scores: Vec<u32>,
    pub(super) digits: Vec<u32>,
    pub(super) countdown: u32,
}

/// Where there are propagators: the conflict scores the last search of one puzzle ended with,
/// shared by the states made from its root (`Generic`). A search starts from them, so that the
/// pieces of a split search (and a worker's next piece) go on from what the searches before
/// them learned instead of learning it again from the priorities. Each puzzle has its own:
/// the tables are shared between puzzles with the same rules (see `Tables::for_puzzle`), and
/// scores carried from one puzzle to the next made its first solution, its order of solutions
/// and a seeded estimate depend on the puzzles before it.
#[derive(Debug, Default)]
pub(super) struct Scores(Mutex<Option<Learned>>);

impl Scores {
    /// The scores kept, if any (none where the tables have no priorities).
    pub(super) fn get(&self, t: &Tables) -> Option<Learned> {
        if t.priority.is_empty() {
            return None;
        }
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Keep `learned` for the next search.
    pub(super) fn set(&self, learned: Learned) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(learned);
    }
}

impl Tables {
    pub(super) fn build(shape: Shape, rules: Option<Compiled>) -> Tables {
        let n = shape.side();
        let cells = shape.cells();
        let full = crate::shape::all_digits(n);
        let (houses_list, different, initial, props, priority): (Vec<Vec<u16>>, _, _, _, _) =
            match rules {
                Some(c) => {
                    let initial = c.initial.iter().any(|&m| m != full).then_some(c.initial);
                    (c.houses, c.different, initial, c.propagators, c.priority)
                }
                None => (
                    shape
                        .houses()
                        .iter()
                        .map(|h| h.iter().map(|&c| c as u16).collect())
                        .collect(),
                    Vec::new(),
                    None,
                    None,
                    Vec::new(),
                ),
            };
        let mut of_cell: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for (h, house) in houses_list.iter().enumerate() {
            debug_assert_eq!(house.len(), n);
            for &c in house {
                of_cell[usize::from(c)].push(h as u16);
            }
        }
        let mut peer_sets: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for house in &houses_list {
            for &a in house {
                peer_sets[usize::from(a)].extend(house.iter().copied().filter(|&b| b != a));
            }
        }
        for &(a, b) in &different {
            if a != b {
                peer_sets[usize::from(a)].push(b);
                peer_sets[usize::from(b)].push(a);
            }
        }
        let (mut peers, mut peer_start) = (Vec::new(), vec![0u32]);
        for mut mine in peer_sets {
            mine.sort_unstable();
            mine.dedup();
            peers.extend(mine);
            peer_start.push(peers.len() as u32);
        }
        let cages = props.as_ref().is_some_and(Propagators::has_cages);
        let house_pairs = !priority.is_empty() && !cages;
        let placed_blame =
            !priority.is_empty() && !props.as_ref().is_some_and(Propagators::has_sums);
        // Stale houses are kept (thermometers gained 16% of their instructions, the plain
        // counts of 24 sparse 12×12 puzzles 5% of their time) but where killer cages are:
        // their digit sets narrow many cells per round, and marking the houses at each change
        // cost the hard killers 4% of their time. Where there are rules, at most 64 houses and
        // `64 * CHANGED_WORDS` cells, hidden singles read the stale houses from the cells
        // marked changed instead (see `stale_from_changed`): the hard killers 8.4% fewer
        // instructions than with every house looked at, the thermometers, renbans and little
        // killers of ISS's collection 1.6-3.1% fewer than with the houses marked.
        let derive = props.is_some() && houses_list.len() <= 64 && cells <= 64 * CHANGED_WORDS;
        let house_words = if !cages && !derive {
            houses_list.len().div_ceil(64)
        } else {
            0
        };
        let bit_words = if derive { 1 } else { house_words };
        let mut house_bits = vec![0u64; cells * bit_words];
        let (mut cell_houses, mut house_start) = (Vec::new(), vec![0u32]);
        for (cell, mine) in of_cell.into_iter().enumerate() {
            if bit_words > 0 {
                for &h in &mine {
                    let h = usize::from(h);
                    house_bits[cell * bit_words + h / 64] |= 1 << (h % 64);
                }
            }
            cell_houses.extend(mine);
            house_start.push(cell_houses.len() as u32);
        }
        Tables {
            stale_from_changed: derive,
            shape,
            n,
            cells,
            full,
            peers,
            peer_start,
            house_pairs,
            placed_blame,
            last_blame: cages,
            nh: houses_list.len(),
            houses: houses_list.into_iter().flatten().collect(),
            cell_houses,
            house_start,
            house_bits,
            house_words,
            initial,
            props,
            priority,
        }
    }

    /// The shared tables for a shape (built once per shape per process).
    pub fn get(shape: Shape) -> Arc<Tables> {
        static CACHE: OnceLock<Mutex<Vec<Arc<Tables>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = guard.iter().find(|t| t.shape == shape) {
            return Arc::clone(t);
        }
        let t = Arc::new(Tables::build(shape, None));
        guard.push(Arc::clone(&t));
        t
    }

    /// The tables of a puzzle: its shape's, or those of its rules.
    pub fn for_puzzle(puzzle: &Puzzle) -> Arc<Tables> {
        match puzzle.rules().filter(|_| !puzzle.is_classic()) {
            Some(r) => Tables::for_rules(puzzle.shape(), r),
            None => Tables::get(puzzle.shape()),
        }
    }

    /// The tables of `rules` on a board of `shape`: built, or those of the last
    /// [`RULES_KEPT`] rules asked for. The searches of one puzzle with a given more or fewer
    /// (`candidates`' questions, `check --minimal`, the parts of a split) share one set-up
    /// (but not their conflict scores: see [`Scores`]). A 16×16 puzzle with sandwich sums had
    /// its set-up made 155 times for its true candidates (614 of 794 ms).
    fn for_rules(shape: Shape, rules: &Rules) -> Arc<Tables> {
        static KEPT: Kept = Kept::new();
        KEPT.get(shape, rules, || {
            Tables::build(shape, Some(rules::compile(shape, rules)))
        })
    }

    /// Fresh propagation scratch for states of these tables.
    pub(super) fn work(&self) -> Work {
        Work {
            queue: Vec::with_capacity(self.cells),
            dirty: vec![0; self.props.as_ref().map_or(0, Propagators::unit_words)],
            memo: self.props.as_ref().map_or(Vec::new(), Propagators::memo),
            yields: self
                .props
                .as_ref()
                .map_or_else(rules::Yields::default, Propagators::yields),
            all: true,
            cleared: super::state::Cleared::new(),
        }
    }

    #[inline(always)]
    pub(super) fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    #[inline(always)]
    pub(super) fn houses_of(&self, cell: usize) -> &[u16] {
        &self.cell_houses[self.house_start[cell] as usize..self.house_start[cell + 1] as usize]
    }

    #[inline(always)]
    pub(super) fn house(&self, h: usize) -> &[u16] {
        &self.houses[h * self.n..(h + 1) * self.n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn the_last_rules_asked_for_keep_their_tables() {
        let shape = Shape::new(2, 2).expect("4x4");
        let rules = |cell: usize| {
            let mut r = Rules::new();
            r.push(Rule::Cage {
                cells: vec![cell, cell + 1],
                sum: Some(3),
            });
            r
        };
        let kept = Kept::new();
        let mut builds = 0;
        let mut get = |cell: usize| {
            kept.get(shape, &rules(cell), || {
                builds += 1;
                Tables::build(shape, Some(rules::compile(shape, &rules(cell))))
            })
        };
        let first = get(0);
        assert!(Arc::ptr_eq(&first, &get(0)));
        // Seven others: the first is still kept (the most recent asked for last).
        for cell in 1..RULES_KEPT {
            get(cell);
        }
        assert!(Arc::ptr_eq(&first, &get(0)));
        // One more after it: the least recent (cell 1) goes, the first stays.
        get(RULES_KEPT);
        assert!(Arc::ptr_eq(&first, &get(0)));
        assert_eq!(builds, RULES_KEPT + 1);
        let mut builds_again = 0;
        let again = kept.get(shape, &rules(1), || {
            builds_again += 1;
            Tables::build(shape, Some(rules::compile(shape, &rules(1))))
        });
        assert_eq!(builds_again, 1);
        assert!(again.props.is_some());
    }
}
