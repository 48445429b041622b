//! The label table of one space under one ending: one bit per position, P = 1.
//!
//! A game with a pass has two tables: the positions whose pass is used, and those whose
//! pass is still available.

use bitvec::prelude::*;

use crate::engine::tuples::layout::Layout;
use crate::model::ending::Ending;
use crate::model::enumerate::Tuples;
use crate::model::position::PassState;
use crate::model::space::{Mode, TupleSpace};

/// The labels of every position of a space under one ending: one bit per position (P = 1).
///
/// Bits are packed in index order, one per position, with no padding between rows. A
/// canonical table holds sorted tuples only, and answers for a tuple in any order. For a
/// game with a pass, every position has two labels: with the pass used and with the pass
/// still available; [`TupleLabels::row`] answers for the position as a game starts it,
/// pass available.
pub(crate) struct TupleLabels {
    layout: Layout,
    ending: Ending,
    /// Without a pass, every position; with one, the positions whose pass is used.
    bits: BitVec<u64, Lsb0>,
    /// With a pass: the positions whose pass is still available.
    pass_available: Option<BitVec<u64, Lsb0>>,
}

impl std::fmt::Debug for TupleLabels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TupleLabels")
            .field("space", &self.space())
            .field("mode", &self.mode())
            .field("ending", &self.ending)
            .field("p_count", &self.p_count())
            .finish()
    }
}

impl TupleLabels {
    pub(crate) fn new(
        layout: Layout,
        ending: Ending,
        words: Vec<u64>,
        pass_available: Option<Vec<u64>>,
    ) -> TupleLabels {
        let pass_available = pass_available.map(BitVec::from_vec);
        TupleLabels { layout, ending, bits: BitVec::from_vec(words), pass_available }
    }

    /// Whether the game labelled has a pass (two labels per position).
    pub fn has_pass(&self) -> bool {
        self.pass_available.is_some()
    }

    /// The space labelled.
    pub fn space(&self) -> TupleSpace {
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
        // The bits past the last position, in the table's last word, are 0.
        let available = self.pass_available.as_ref().map_or(0, |b| b.count_ones() as u64);
        self.bits.count_ones() as u64 + available
    }

    /// Whether the position is P in the pass state `pass`; a game without a pass has
    /// only [`PassState::Used`].
    ///
    /// # Panics
    /// If the tuple has the wrong length or a heap above the space's max, and for [`PassState::Available`] in a game without a pass.
    pub fn is_p_in(&self, tuple: &[u32], pass: PassState) -> bool {
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
        self.in_index_order(pass)[self.layout.index(tuple) as usize]
    }

    /// The row with this prefix (sorted, in canonical tables), as a game starts it: its
    /// first column `lo` (0; in canonical tables the prefix's largest heap) and the labels
    /// of columns `lo..=M`, bit `i` for column `lo + i`.
    ///
    /// # Panics
    /// If the prefix has the wrong length, a heap above the space's max, or (canonical)
    /// is not sorted.
    pub fn row(&self, prefix: &[u32]) -> (u32, &BitSlice<u64, Lsb0>) {
        self.row_in(prefix, PassState::of(self.has_pass()))
    }

    /// The row with this prefix in the pass state `pass`.
    ///
    /// # Panics
    /// As [`TupleLabels::row`], and for [`PassState::Available`] in a game without a pass.
    pub fn row_in(&self, prefix: &[u32], pass: PassState) -> (u32, &BitSlice<u64, Lsb0>) {
        let space = self.space();
        assert_eq!(prefix.len(), space.heaps() - 1, "prefix length must be the heaps less one");
        assert!(prefix.iter().all(|&h| h <= space.max()), "heap above the space's max");
        let canonical = self.mode().is_canonical();
        assert!(!canonical || prefix.is_sorted(), "a canonical row's prefix must be sorted");
        let lo = self.layout.lo(prefix);
        let mut first = prefix.to_vec();
        first.push(lo);
        let start = self.layout.index(&first) as usize;
        let end = start + (space.max() - lo) as usize + 1;
        (lo, &self.in_index_order(pass)[start..end])
    }

    /// Every label in index order (lexicographic; sorted tuples only in canonical mode):
    /// bit `i` is position `i`'s, P = 1; in the pass state `pass`.
    ///
    /// # Panics
    /// For [`PassState::Available`] in a game without a pass.
    pub fn in_index_order(&self, pass: PassState) -> &BitSlice<u64, Lsb0> {
        let bits = match (&self.pass_available, pass) {
            (Some(available), PassState::Available) => available,
            (None, PassState::Available) => {
                panic!("a game without a pass has no pass-available positions")
            }
            (_, PassState::Used) => &self.bits,
        };
        &bits[..self.layout.positions() as usize]
    }

    /// The row layout of the table.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Every position with its label in the pass state `pass`.
    ///
    /// # Panics
    /// For [`PassState::Available`] in a game without a pass.
    pub fn iter_in(&self, pass: PassState) -> impl Iterator<Item = (Vec<u32>, bool)> + '_ {
        let (n, max) = (self.space().heaps(), self.space().max());
        let tuples = match self.mode() {
            Mode::Full => Tuples::new(n, 0, max),
            Mode::Canonical => Tuples::sorted(n, 0, max),
        };
        tuples.zip(self.in_index_order(pass).iter().by_vals())
    }
}
