//! The packed table of a multiset space: the bits of all endings of one position in one word.

use crate::model::ending::Ending;
use crate::model::multiset::MultisetSpace;

/// Where a position's bits live: the `R` endings' bits of rank `r` sit side by side in
/// word `r / (64 / R)` from bit `(r mod (64 / R)) * R`, so marking a position under
/// every ending is one memory access (21 positions per word for three endings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packing {
    pub endings: u32,
}

impl Packing {
    pub fn per_word(self) -> u64 {
        64 / u64::from(self.endings)
    }

    /// The word of `rank` and the bit of its first ending.
    #[inline]
    pub fn locate(self, rank: u64) -> (usize, u32) {
        // Constant divisors become multiplications.
        let (word, slot) = match self.endings {
            1 => (rank >> 6, rank & 63),
            2 => (rank >> 5, rank & 31),
            _ => (rank / 21, rank % 21),
        };
        (word as usize, slot as u32 * self.endings)
    }

    pub fn words(self, positions: u64) -> u64 {
        positions.div_ceil(self.per_word())
    }
}

/// The labels of every position of a multiset space under one or more endings.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct MultisetTable {
    pub(super) space: MultisetSpace,
    pub(super) endings: Vec<Ending>,
    pub(super) packing: Packing,
    /// Packed P bits ([`Packing`]); bits of no position are clear.
    pub(super) words: Vec<u64>,
}

impl std::fmt::Debug for MultisetTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultisetTable")
            .field("total", &self.space.total())
            .field("endings", &self.endings)
            .field("positions", &self.space.positions())
            .finish()
    }
}

impl MultisetTable {
    /// The space labelled.
    pub fn space(&self) -> &MultisetSpace {
        &self.space
    }

    /// The endings labelled, in the order given.
    pub fn endings(&self) -> &[Ending] {
        &self.endings
    }

    /// Whether the position of rank `rank` is P under the `j`-th ending.
    ///
    /// # Panics
    /// If `j` or `rank` is out of range.
    pub fn is_p(&self, j: usize, rank: u64) -> bool {
        assert!(j < self.endings.len() && rank < self.space.positions(), "out of range");
        let (word, shift) = self.packing.locate(rank);
        self.words[word] >> (shift + j as u32) & 1 == 1
    }

    /// P-positions under the `j`-th ending.
    pub fn p_count(&self, j: usize) -> u64 {
        let mut mask = 0u64;
        for slot in 0..self.packing.per_word() {
            mask |= 1 << (slot * u64::from(self.packing.endings) + j as u64);
        }
        self.words.iter().map(|&w| u64::from((w & mask).count_ones())).sum()
    }
}
