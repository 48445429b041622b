//! The label table of one space under one ending: one bit per position, P = 1.

use bitvec::prelude::*;

use crate::engine::layout::Layout;
use crate::model::ending::Ending;
use crate::model::enumerate::Tuples;
use crate::model::space::{Mode, Space};

/// The labels of every position of a space under one ending: one bit per position (P = 1).
///
/// Rows (positions sharing all heaps but the last) are padded to whole 64-bit words. A
/// canonical table holds sorted tuples only, and answers for a tuple in any order.
pub struct Labels {
    layout: Layout,
    ending: Ending,
    bits: BitVec<u64, Lsb0>,
}

impl std::fmt::Debug for Labels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Labels")
            .field("space", &self.space())
            .field("mode", &self.mode())
            .field("ending", &self.ending)
            .field("p_count", &self.p_count())
            .finish()
    }
}

impl Labels {
    pub(crate) fn new(layout: Layout, ending: Ending, words: Vec<u64>) -> Labels {
        Labels { layout, ending, bits: BitVec::from_vec(words) }
    }

    /// The space labelled.
    pub fn space(&self) -> Space {
        self.layout.space()
    }

    /// The ending the labels are for.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Whether every tuple or only sorted tuples were labelled.
    pub fn mode(&self) -> Mode {
        self.layout.mode()
    }

    /// Positions in the table (sorted tuples only, in canonical mode).
    pub fn positions(&self) -> u64 {
        self.layout.positions()
    }

    /// How many positions of the table are P.
    pub fn p_count(&self) -> u64 {
        // Padding bits and, in canonical rows, the bits below the row's first column are 0.
        self.bits.count_ones() as u64
    }

    /// Whether the position is P. In canonical tables the tuple may be in any order.
    ///
    /// # Panics
    /// If the tuple has the wrong length or a heap above the space's max.
    pub fn is_p(&self, tuple: &[u32]) -> bool {
        let space = self.space();
        assert_eq!(tuple.len(), space.heaps(), "tuple length must equal the heap count");
        assert!(tuple.iter().all(|&h| h <= space.max()), "heap above the space's max");
        let mut sorted;
        let tuple = if self.mode().is_canonical() {
            sorted = tuple.to_vec();
            sorted.sort_unstable();
            &sorted[..]
        } else {
            tuple
        };
        let (prefix, last) = tuple.split_at(tuple.len() - 1);
        self.row(prefix)[last[0] as usize]
    }

    /// The `M + 1` bits of the row with this prefix (sorted, in canonical tables); in a
    /// canonical row the bits below the prefix's largest heap are 0.
    pub fn row(&self, prefix: &[u32]) -> &BitSlice<u64, Lsb0> {
        let start = self.layout.row_index(prefix) as usize * self.layout.words_per_row() * 64;
        &self.bits[start..start + self.space().radix() as usize]
    }

    /// Every position of the table with its label, in index order (lexicographic; sorted
    /// tuples only in canonical mode).
    pub fn iter(&self) -> impl Iterator<Item = (Vec<u32>, bool)> + '_ {
        let (k, max) = (self.layout.prefix_len(), self.space().max());
        let prefixes = match self.mode() {
            Mode::Full => Tuples::new(k, 0, max),
            Mode::Canonical => Tuples::sorted(k, 0, max),
        };
        prefixes.flat_map(move |prefix| {
            let lo = self.layout.lo(&prefix);
            let row = self.row(&prefix);
            (lo..=max).map(move |h| {
                let mut position = prefix.clone();
                position.push(h);
                (position, row[h as usize])
            })
        })
    }
}
