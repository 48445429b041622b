//! The label table of one space under one ending: one bit per position, P = 1.
//!
//! A game with a pass has two tables: the positions whose pass is used, and those whose
//! pass is still available.

use bitvec::prelude::*;

use crate::engine::layout::Layout;
use crate::model::ending::Ending;
use crate::model::enumerate::Tuples;
use crate::model::space::{Mode, Space};

/// The labels of every position of a space under one ending: one bit per position (P = 1).
///
/// Rows (positions sharing all heaps but the last) are padded to whole 64-bit words. A
/// canonical table holds sorted tuples only, and answers for a tuple in any order. For a
/// game with a pass, every position has two labels: with the pass used and with the pass
/// still available; the plain queries ([`Labels::is_p`], [`Labels::row`],
/// [`Labels::iter`]) answer for the position as a game starts it, pass available.
pub struct Labels {
    layout: Layout,
    ending: Ending,
    /// Without a pass, every position; with one, the positions whose pass is used.
    bits: BitVec<u64, Lsb0>,
    /// With a pass: the positions whose pass is still available.
    pass_available: Option<BitVec<u64, Lsb0>>,
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
    pub(crate) fn new(
        layout: Layout,
        ending: Ending,
        words: Vec<u64>,
        pass_available: Option<Vec<u64>>,
    ) -> Labels {
        let pass_available = pass_available.map(BitVec::from_vec);
        Labels { layout, ending, bits: BitVec::from_vec(words), pass_available }
    }

    /// Whether the game labelled has a pass (two labels per position).
    pub fn has_pass(&self) -> bool {
        self.pass_available.is_some()
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

    /// Positions in the table (sorted tuples only, in canonical mode); with a pass, each
    /// heap tuple counts twice (pass used, pass available).
    pub fn positions(&self) -> u64 {
        self.layout.positions() * if self.has_pass() { 2 } else { 1 }
    }

    /// How many positions of the table are P (with a pass: in both pass states).
    pub fn p_count(&self) -> u64 {
        // Padding bits and, in canonical rows, the bits below the row's first column are 0.
        let available = self.pass_available.as_ref().map_or(0, |b| b.count_ones() as u64);
        self.bits.count_ones() as u64 + available
    }

    /// Whether the position is P, as a game starts it (with a pass: the pass available).
    /// In canonical tables the tuple may be in any order.
    ///
    /// # Panics
    /// If the tuple has the wrong length or a heap above the space's max.
    pub fn is_p(&self, tuple: &[u32]) -> bool {
        self.is_p_in(tuple, self.has_pass())
    }

    /// Whether the position is P with the pass still available (`true`) or used
    /// (`false`); a game without a pass has only the second.
    ///
    /// # Panics
    /// As [`Labels::is_p`], and for `pass_available` in a game without a pass.
    pub fn is_p_in(&self, tuple: &[u32], pass_available: bool) -> bool {
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
        self.row_in(prefix, pass_available)[last[0] as usize]
    }

    /// The `M + 1` bits of the row with this prefix (sorted, in canonical tables), as a
    /// game starts it; in a canonical row the bits below the prefix's largest heap are 0.
    pub fn row(&self, prefix: &[u32]) -> &BitSlice<u64, Lsb0> {
        self.row_in(prefix, self.has_pass())
    }

    /// The row with this prefix with the pass available (`true`) or used (`false`).
    ///
    /// # Panics
    /// For `pass_available` in a game without a pass.
    pub fn row_in(&self, prefix: &[u32], pass_available: bool) -> &BitSlice<u64, Lsb0> {
        let bits = match (&self.pass_available, pass_available) {
            (Some(available), true) => available,
            (None, true) => panic!("a game without a pass has no pass-available positions"),
            (_, false) => &self.bits,
        };
        let start = self.layout.row_index(prefix) as usize * self.layout.words_per_row() * 64;
        &bits[start..start + self.space().radix() as usize]
    }

    /// The row layout of the table.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The words of row `row` (in row order: mixed-radix, or the rank of the sorted
    /// prefix) with the pass available (`true`) or used; bit `h` is column `h`.
    pub(crate) fn row_words(&self, row: u64, pass_available: bool) -> &[u64] {
        let bits = match (&self.pass_available, pass_available) {
            (Some(available), true) => available,
            _ => &self.bits,
        };
        let w = self.layout.words_per_row();
        &bits.as_raw_slice()[row as usize * w..(row as usize + 1) * w]
    }

    /// Every position of the table with its label as a game starts it, in index order
    /// (lexicographic; sorted tuples only in canonical mode).
    pub fn iter(&self) -> impl Iterator<Item = (Vec<u32>, bool)> + '_ {
        self.iter_in(self.has_pass())
    }

    /// Every position with its label with the pass available (`true`) or used (`false`).
    ///
    /// # Panics
    /// For `pass_available` in a game without a pass.
    pub fn iter_in(&self, pass_available: bool) -> impl Iterator<Item = (Vec<u32>, bool)> + '_ {
        let (k, max) = (self.layout.prefix_len(), self.space().max());
        let prefixes = match self.mode() {
            Mode::Full => Tuples::new(k, 0, max),
            Mode::Canonical => Tuples::sorted(k, 0, max),
        };
        prefixes.flat_map(move |prefix| {
            let lo = self.layout.lo(&prefix);
            let row = self.row_in(&prefix, pass_available);
            (lo..=max).map(move |h| {
                let mut position = prefix.clone();
                position.push(h);
                (position, row[h as usize])
            })
        })
    }
}
