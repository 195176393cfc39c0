//! Rules on a few cells: quadruples.

use super::{Contradiction, Masks};

/// A quadruple: each listed digit appears among the four cells at least as often as listed.
#[derive(Debug)]
pub(super) struct Quad {
    cells: [u16; 4],
    /// (digit bit, how many times).
    needs: Vec<(u64, u32)>,
    /// Every listed digit's bit, when the digits fill all four cells.
    fills: Option<u64>,
}

impl Quad {
    pub(super) fn new(cells: [usize; 4], digits: &[u8]) -> Quad {
        let mut needs: Vec<(u64, u32)> = Vec::new();
        for &d in digits {
            let bit = 1u64 << (d - 1);
            match needs.iter_mut().find(|(b, _)| *b == bit) {
                Some((_, k)) => *k += 1,
                None => needs.push((bit, 1)),
            }
        }
        Quad {
            cells: cells.map(|c| c as u16),
            fills: (digits.len() == 4).then(|| needs.iter().fold(0, |m, (b, _)| m | b)),
            needs,
        }
    }

    /// The four cells.
    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub(super) fn run<M: Masks>(&self, m: &mut M) -> Result<bool, Contradiction> {
        let mut changed = false;
        if let Some(all) = self.fills {
            for &c in &self.cells {
                changed |= m.restrict(usize::from(c), all)?;
            }
        }
        for &(bit, need) in &self.needs {
            let able = self
                .cells
                .iter()
                .filter(|&&c| m.mask(usize::from(c)) & bit != 0)
                .count() as u32;
            if able < need {
                return Err(Contradiction);
            }
            if able == need {
                for &c in &self.cells {
                    if m.mask(usize::from(c)) & bit != 0 {
                        changed |= m.restrict(usize::from(c), bit)?;
                    }
                }
            }
        }
        Ok(changed)
    }
}
