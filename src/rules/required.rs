//! Digits a line or a cage must hold (a renban's digits every run holds, the digits every
//! fitting set of a cage holds): placed where one cell is left for them, cleared from the rest
//! of a house that holds all their places.

use super::{Contradiction, Masks};

/// A house that holds two or more of a line's or a cage's cells: a digit they must hold, whose
/// places all lie in this house, leaves the house's other cells.
#[derive(Debug)]
pub(super) struct Link {
    /// The cells in the house (bit `i`: the `i`-th cell; 64 cells at most).
    members: u64,
    /// The house's cells outside the line or cage.
    others: Vec<u16>,
}

/// The houses that hold two or more of `cells` (at most 64), as links.
pub(super) fn links(cells: &[u16], houses: &[Vec<u16>]) -> Vec<Link> {
    let mut out = Vec::new();
    for house in houses {
        let members = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| house.contains(c))
            .fold(0u64, |m, (i, _)| m | 1 << i);
        if members.count_ones() >= 2 {
            let others = house
                .iter()
                .copied()
                .filter(|c| !cells.contains(c))
                .collect();
            out.push(Link { members, others });
        }
    }
    out
}

/// Digits `cells[range]` must hold, each once: one place left is a hidden single; places all
/// in one linked house clear the digit from the rest of that house.
pub(super) fn place<M: Masks>(
    cells: &[u16],
    links: &[Link],
    range: std::ops::Range<usize>,
    mut digits: u64,
    m: &mut M,
) -> Result<bool, Contradiction> {
    let mut changed = false;
    while digits != 0 {
        let bit = digits & digits.wrapping_neg();
        digits &= digits - 1;
        let mut places = 0u64;
        for i in range.clone() {
            if m.mask(usize::from(cells[i])) & bit != 0 {
                places |= 1 << i;
            }
        }
        match places.count_ones() {
            0 => return Err(Contradiction),
            1 => {
                let cell = cells[places.trailing_zeros() as usize];
                changed |= m.restrict(usize::from(cell), bit)?;
            }
            _ => {
                for link in links {
                    if places & !link.members == 0 {
                        for &c in &link.others {
                            changed |= m.restrict(usize::from(c), !bit)?;
                        }
                    }
                }
            }
        }
    }
    Ok(changed)
}
