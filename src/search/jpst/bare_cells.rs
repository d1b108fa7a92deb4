//! What the first pass's search knows of the cells it has reached, in a
//! table sized to the search rather than to the map.
//!
//! A search reaches a few thousand jump points scattered over the map.
//! Kept in arrays of one entry per cell, each of them sat on a cache line
//! of its own, cold from whatever ran between two queries (in the
//! sequential benchmark, SIPP), and those misses were about half of the
//! search's time. An open-addressed table of a few thousand entries,
//! emptied in one sweep before each search (which brings it into the
//! cache), holds the same in a few dozen KiB.

use crate::grid::DirSet;

/// Fewest slots the table keeps.
const MIN_SLOTS: usize = 1 << 12;

/// A slot no cell holds.
const EMPTY: u32 = u32::MAX;

/// What the search knows of one reached cell.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reached {
    /// The search's key of the cell ([`EMPTY`] in a free slot, which no
    /// cell of a map the pass searches has).
    cell: u32,
    /// Steps from the start of its earliest known arrival.
    pub(super) steps: u32,
    /// The jump point it was reached from (itself at the start).
    pub(super) parent: u32,
    /// Directions to go on in, and those already gone in.
    pub(super) dirs: DirSet,
    pub(super) done: DirSet,
}

const FREE: Reached = Reached {
    cell: EMPTY,
    steps: 0,
    parent: 0,
    dirs: DirSet::EMPTY,
    done: DirSet::EMPTY,
};

/// The cells one search has reached, by key.
#[derive(Debug, Default)]
pub(super) struct ReachedCells {
    /// Open addressing with linear probing; the length is a power of two.
    slots: Vec<Reached>,
    /// Cells held.
    len: usize,
}

impl ReachedCells {
    /// Forgets every cell, and sweeps the table once, which also brings
    /// it into the cache. It keeps its size unless the last search filled
    /// less than a sixteenth of it (then it shrinks to four times what
    /// that search reached, at least [`MIN_SLOTS`] slots): a fresh
    /// allocation of this size costs page faults.
    pub(super) fn clear(&mut self) {
        let want = (self.len * 4).next_power_of_two().max(MIN_SLOTS);
        if self.slots.is_empty() || self.slots.len() > want * 4 {
            self.slots = vec![FREE; want];
        } else {
            self.slots.fill(FREE);
        }
        self.len = 0;
    }

    /// The entry of the cell of key `cell`, if reached.
    #[inline]
    pub(super) fn get(&self, cell: u32) -> Option<&Reached> {
        self.probe(cell).ok().map(|at| &self.slots[at])
    }

    /// The entry of the cell of key `cell` to change, if reached.
    #[inline]
    pub(super) fn get_mut(&mut self, cell: u32) -> Option<&mut Reached> {
        self.probe(cell).ok().map(|at| &mut self.slots[at])
    }

    /// The entry of the cell of key `cell`, added (with no directions, at
    /// `u32::MAX` steps) if it was not reached before.
    #[inline]
    pub(super) fn entry(&mut self, cell: u32) -> &mut Reached {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        match self.probe(cell) {
            Ok(at) => &mut self.slots[at],
            Err(at) => {
                self.len += 1;
                self.slots[at] = Reached {
                    cell,
                    steps: u32::MAX,
                    ..FREE
                };
                &mut self.slots[at]
            }
        }
    }

    /// The slot holding the cell of key `cell`, or else the free slot where it
    /// would go.
    #[inline]
    fn probe(&self, cell: u32) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut at = slot_of(cell, mask);
        loop {
            match self.slots[at].cell {
                held if held == cell => return Ok(at),
                EMPTY => return Err(at),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Doubles the slots, keeping every entry.
    #[cold]
    fn grow(&mut self) {
        let slots = (self.slots.len() * 2).max(MIN_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![FREE; slots]);
        for entry in old.into_iter().filter(|e| e.cell != EMPTY) {
            // Not held yet: the probe ends at the free slot it goes in.
            let at = self.probe(entry.cell).unwrap_or_else(|free| free);
            self.slots[at] = entry;
        }
    }
}

/// The home slot of `cell`: Fibonacci hashing (the middle bits of the
/// product), so that neighbouring cells land far apart.
#[inline]
fn slot_of(cell: u32, mask: usize) -> usize {
    ((u64::from(cell).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize) & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_found_again_across_growth_and_clearing() {
        let mut table = ReachedCells::default();
        for round in 0..3u32 {
            table.clear();
            let count = 1000 + round * 5000;
            for k in 0..count {
                let cell = k.wrapping_mul(7919) % 1_000_003;
                let e = table.entry(cell);
                assert_eq!(e.steps, u32::MAX, "round {round}: {cell} seen twice");
                e.steps = k;
                e.parent = cell ^ 1;
            }
            for k in 0..count {
                let cell = k.wrapping_mul(7919) % 1_000_003;
                let e = table.get(cell).expect("reached");
                assert_eq!((e.steps, e.parent), (k, cell ^ 1));
            }
            assert!(table.get(1_000_004).is_none());
        }
        // Big enough for the last search after clearing, and shrunk after
        // a small one.
        table.clear();
        assert!(table.slots.len() >= 2 * 11_000 && table.get(0).is_none());
        table.clear();
        assert_eq!(table.slots.len(), MIN_SLOTS);
    }
}
