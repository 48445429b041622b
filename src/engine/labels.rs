//! The labels of one space under one ending, whatever the kind of space.

use std::sync::Arc;

use bitvec::prelude::*;

use crate::engine::multiset::MultisetTable;
use crate::engine::tuples::layout::Layout;
use crate::engine::visitor::RowVisitor;
use crate::engine::TupleLabels;
use crate::model::ending::Ending;
use crate::model::position::PassState;
use crate::model::space::{Mode, Space};

/// The labels of every position of a space under one ending (P = the player to move
/// loses).
///
/// Positions are indexed as the space orders them ([`Space::iter`]): tuples
/// lexicographically (sorted tuples only in canonical mode), multisets by rank. A
/// canonical or multiset table answers for heaps in any order. For a game with a pass,
/// every tuple has two labels, with the pass used and with the pass still available; the
/// plain queries ([`Labels::is_p`], [`Labels::iter`]) answer for the position as a game
/// starts it, pass available.
pub struct Labels {
    space: Space,
    ending: Ending,
    table: Table,
}

/// Where the bits of a [`Labels`] live.
enum Table {
    /// One bit per tuple, packed in index order.
    Tuples(TupleLabels),
    /// The `slot`-th ending of a multiset run's table, shared by its endings.
    Multisets { table: Arc<MultisetTable>, slot: usize },
}

impl std::fmt::Debug for Labels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Labels")
            .field("space", &self.space)
            .field("ending", &self.ending)
            .field("p_count", &self.p_count())
            .finish()
    }
}

impl Labels {
    /// The labels of a tuple run.
    pub(crate) fn of_tuples(labels: TupleLabels) -> Labels {
        let (space, ending) = (Space::Tuples(labels.space()), labels.ending());
        Labels { space, ending, table: Table::Tuples(labels) }
    }

    /// The labels of every ending of a multiset run, in the run's order.
    pub(crate) fn of_multisets(space: &Space, table: MultisetTable) -> Vec<Labels> {
        let table = Arc::new(table);
        let endings = table.endings().to_vec();
        let slots = endings.into_iter().enumerate();
        let one = |(slot, ending)| Labels {
            space: space.clone(),
            ending,
            table: Table::Multisets { table: Arc::clone(&table), slot },
        };
        slots.map(one).collect()
    }

    /// Hands the rows of a multiset space's labels to `visitor`, as [`crate::Engine::stream`]
    /// does, and returns its merged result: `labels` are every ending of one labelling, in
    /// its order (what [`crate::Engine::label_all`] returns).
    ///
    /// # Panics
    /// If the labels are not every ending of one labelling of a multiset space, in order.
    pub fn stream_rows<V: RowVisitor>(labels: &[Labels], visitor: &V) -> V::Acc {
        let Some(Table::Multisets { table, .. }) = labels.first().map(|l| &l.table) else {
            panic!("labels of a multiset space");
        };
        let whole = labels.len() == table.endings().len()
            && labels.iter().enumerate().all(|(j, l)| {
                matches!(&l.table, Table::Multisets { table: t, slot } if Arc::ptr_eq(t, table) && *slot == j)
            });
        assert!(whole, "every ending of one multiset labelling, in its order");
        table.stream(visitor)
    }

    /// The space labelled.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The ending the labels are for.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Whether the game labelled has a pass (two labels per tuple; never for multisets).
    pub fn has_pass(&self) -> bool {
        matches!(&self.table, Table::Tuples(labels) if labels.has_pass())
    }

    /// Positions in the table (sorted tuples only, in canonical mode); with a pass, each
    /// heap tuple counts twice (pass used, pass available).
    pub fn positions(&self) -> u64 {
        match &self.table {
            Table::Tuples(labels) => labels.positions(),
            Table::Multisets { .. } => self.space.positions(),
        }
    }

    /// How many positions of the table are P (with a pass: in both pass states).
    pub fn p_count(&self) -> u64 {
        match &self.table {
            Table::Tuples(labels) => labels.p_count(),
            Table::Multisets { table, slot } => table.p_count(*slot),
        }
    }

    /// Whether the position is P, as a game starts it (with a pass: the pass available).
    /// A position is a tuple of the space's heap count, or for multisets heaps in any
    /// order (empty heaps ignored); in canonical tables the tuple may be in any order.
    ///
    /// # Panics
    /// If the position is not in the space: a tuple of the wrong length or with a heap
    /// above the max, or heaps above the total.
    pub fn is_p(&self, position: &[u32]) -> bool {
        self.is_p_in(position, PassState::of(self.has_pass()))
    }

    /// Whether the position is P in the pass state `pass`; a game without a pass (and
    /// every multiset space) has only [`PassState::Used`].
    ///
    /// # Panics
    /// As [`Labels::is_p`], and for [`PassState::Available`] in a game without a pass.
    pub fn is_p_in(&self, position: &[u32], pass: PassState) -> bool {
        match &self.table {
            Table::Tuples(labels) => labels.is_p_in(position, pass),
            Table::Multisets { table, slot } => {
                assert!(pass == PassState::Used, "a multiset space has no pass");
                let rank = table.space().rank(position).expect("heaps above the space's total");
                table.is_p(*slot, rank)
            }
        }
    }

    /// Whether the position of index `index` is P, as a game starts it.
    ///
    /// # Panics
    /// If `index` is not below the space's positions.
    pub fn is_p_at(&self, index: u64) -> bool {
        match &self.table {
            Table::Tuples(labels) => {
                labels.in_index_order(PassState::of(labels.has_pass()))[index as usize]
            }
            Table::Multisets { table, slot } => table.is_p(*slot, index),
        }
    }

    /// Every position with its label as a game starts it, in index order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = (Vec<u32>, bool)> + '_> {
        self.iter_in(PassState::of(self.has_pass()))
    }

    /// Every position with its label in the pass state `pass`, in index order.
    ///
    /// # Panics
    /// For [`PassState::Available`] in a game without a pass.
    pub fn iter_in(&self, pass: PassState) -> Box<dyn Iterator<Item = (Vec<u32>, bool)> + '_> {
        match &self.table {
            Table::Tuples(labels) => Box::new(labels.iter_in(pass)),
            Table::Multisets { table, slot } => {
                assert!(pass == PassState::Used, "a multiset space has no pass");
                let positions = self.space.iter().enumerate();
                Box::new(positions.map(|(rank, heaps)| (heaps, table.is_p(*slot, rank as u64))))
            }
        }
    }

    /// The tuple labels, over a space of tuples.
    fn tuples(&self) -> &TupleLabels {
        match &self.table {
            Table::Tuples(labels) => labels,
            Table::Multisets { .. } => panic!("a multiset space has no rows"),
        }
    }

    /// Whether every tuple or only sorted tuples were labelled; `None` for multisets.
    pub fn mode(&self) -> Option<Mode> {
        self.space.as_tuples().map(|tuples| tuples.mode())
    }

    /// The row of a tuple space with this prefix (sorted, in canonical tables), as a game
    /// starts it: its first column `lo` (0; in canonical tables the prefix's largest heap)
    /// and the labels of columns `lo..=M`, bit `i` for column `lo + i`.
    ///
    /// # Panics
    /// Over multisets (whose positions have no rows); if the prefix has the wrong length,
    /// a heap above the space's max, or (canonical) is not sorted.
    pub fn row(&self, prefix: &[u32]) -> (u32, &BitSlice<u64, Lsb0>) {
        self.tuples().row(prefix)
    }

    /// The row with this prefix in the pass state `pass`.
    ///
    /// # Panics
    /// As [`Labels::row`], and for [`PassState::Available`] in a game without a pass.
    pub fn row_in(&self, prefix: &[u32], pass: PassState) -> (u32, &BitSlice<u64, Lsb0>) {
        self.tuples().row_in(prefix, pass)
    }

    /// Every label of a tuple space in index order (lexicographic; sorted tuples only in
    /// canonical mode): bit `i` is position `i`'s, P = 1; in the pass state `pass`.
    ///
    /// # Panics
    /// Over multisets (whose bits are packed with other endings'); for
    /// [`PassState::Available`] in a game without a pass.
    pub fn in_index_order(&self, pass: PassState) -> &BitSlice<u64, Lsb0> {
        self.tuples().in_index_order(pass)
    }

    /// The row layout of a tuple table.
    pub(crate) fn layout(&self) -> &Layout {
        self.tuples().layout()
    }
}
