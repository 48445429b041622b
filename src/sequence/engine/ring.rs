//! The engine's window of recent values: a ring of shared cells holding the last
//! `capacity` values, written by the thread that computes values and read by every thread
//! that marks options (a heap's options reach back only as far as its largest part).

use crate::sequence::values::cell::{Cell, SharedCell};

/// The last `capacity` values (a power of two), value `n` in slot `n mod capacity`.
pub(crate) struct Ring<C: Cell> {
    cells: Box<[C::Shared]>,
    mask: u64,
}

impl<C: Cell> Ring<C> {
    /// An empty ring of `capacity` slots (rounded up to a power of two).
    pub fn new(capacity: u64) -> Ring<C> {
        let capacity = capacity.max(64).next_power_of_two();
        Ring { cells: (0..capacity).map(|_| C::Shared::default()).collect(), mask: capacity - 1 }
    }

    /// Slots.
    pub fn capacity(&self) -> u64 {
        self.mask + 1
    }

    /// Value `n`, which must be one of the last `capacity` values written.
    #[inline]
    pub fn get(&self, n: u64) -> C {
        self.cells[(n & self.mask) as usize].load()
    }

    /// Sets value `n`.
    #[inline]
    pub fn set(&self, n: u64, value: C) {
        self.cells[(n & self.mask) as usize].store(value);
    }

    /// The cells and the mask of an index into them: value `n` in cell `n & mask`, and
    /// every `cells[i & mask]` in bounds. The marking loops read partners this way, with no
    /// bounds check left once this is inlined (the assert tells the optimiser the length
    /// is a power of two, never zero).
    #[inline]
    pub fn masked_cells(&self) -> (&[C::Shared], usize) {
        assert!(self.cells.len().is_power_of_two());
        (&self.cells, self.cells.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_keeps_the_last_capacity_values() {
        let ring = Ring::<u16>::new(100);
        assert_eq!(ring.capacity(), 128);
        for n in 0..300u64 {
            ring.set(n, (n * 3) as u16);
        }
        assert!((172..300).all(|n| ring.get(n) == (n * 3) as u16));
    }
}
