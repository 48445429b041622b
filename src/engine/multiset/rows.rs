//! A labelled multiset table handed out row by row, as the tuple engines hand out theirs.

use rayon::prelude::*;

use super::table::MultisetTable;
use crate::engine::visitor::{RowView, RowVisitor};

/// One task's buffers: the row's prefix, its ranks and its bits.
#[derive(Default)]
struct RowBuffers {
    prefix: Vec<u32>,
    ranks: Vec<u64>,
    bits: Vec<u64>,
}

impl MultisetTable {
    /// Hands every row of the space to `visitor` (see [`RowView`]: a multiset prefix and
    /// its largest heap), one track per ending in the table's order, and returns the
    /// visitor's merged result. Each position lies in exactly one row; rows run in
    /// parallel tasks on rayon's current pool, a task per prefix of at most two heaps and
    /// the longer prefixes that start with it.
    pub(crate) fn stream<V: RowVisitor>(&self, visitor: &V) -> V::Acc {
        let total = self.space.total();
        let mut seeds: Vec<Vec<u32>> = vec![Vec::new()];
        for first in 1..=total {
            if 2 * first > total {
                break;
            }
            seeds.push(vec![first]);
            seeds.extend(
                (first..=total).take_while(|&s| first + 2 * s <= total).map(|s| vec![first, s]),
            );
        }
        seeds
            .par_iter()
            .fold(
                || (visitor.start(), RowBuffers::default()),
                |(mut acc, mut buffers), seed| {
                    buffers.prefix.clone_from(seed);
                    if seed.len() < 2 {
                        self.visit_row(visitor, &mut acc, &mut buffers);
                    } else {
                        self.visit_rows_from(visitor, &mut acc, &mut buffers);
                    }
                    (acc, buffers)
                },
            )
            .map(|(acc, _)| acc)
            .reduce(|| visitor.start(), |left, right| visitor.merge(left, right))
    }

    /// Visits the row of the buffers' prefix and of every longer prefix that starts with it.
    fn visit_rows_from<V: RowVisitor>(
        &self,
        visitor: &V,
        acc: &mut V::Acc,
        buffers: &mut RowBuffers,
    ) {
        self.visit_row(visitor, acc, buffers);
        let sum: u32 = buffers.prefix.iter().sum();
        let largest = *buffers.prefix.last().expect("a longer prefix");
        // A prefix whose row is empty (its sum and twice its largest heap above the total)
        // has no longer prefix with a row either.
        let mut next = largest;
        while sum + 2 * next <= self.space.total() {
            buffers.prefix.push(next);
            self.visit_rows_from(visitor, acc, buffers);
            buffers.prefix.pop();
            next += 1;
        }
    }

    /// Visits the row of the buffers' prefix: its largest heap from the prefix's largest
    /// (0 for the empty prefix) to the total less the prefix's tokens.
    fn visit_row<V: RowVisitor>(&self, visitor: &V, acc: &mut V::Acc, buffers: &mut RowBuffers) {
        let RowBuffers { prefix, ranks, bits } = buffers;
        let lo = prefix.last().copied().unwrap_or(0);
        let hi = self.space.total() - prefix.iter().sum::<u32>();
        self.space.row_ranks(prefix, lo, hi, ranks);
        let end = hi as usize + 1;
        let words = end.div_ceil(64);
        bits.clear();
        bits.resize(words * self.endings.len(), 0);
        for j in 0..self.endings.len() {
            for (h, &rank) in (lo as usize..).zip(ranks.iter()) {
                bits[j * words + h / 64] |= u64::from(self.is_p(j, rank)) << (h % 64);
            }
        }
        let row = RowView {
            prefix,
            lo,
            end,
            bits,
            words_per_row: words,
            first_index: ranks[0],
            ranks,
            pass: false,
        };
        visitor.visit(acc, &row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::multiset::MultisetEngine;
    use crate::engine::{MultiHeapPath, NoProgress, Settings};
    use crate::model::ending::Ending;
    use crate::model::game::Game;
    use crate::model::multiset::MultisetSpace;

    /// Every column of every row: its rank, its heaps (sorted) and its bit per ending.
    struct Columns;

    type Column = (u64, Vec<u32>, Vec<bool>);

    impl RowVisitor for Columns {
        type Acc = Vec<Column>;
        fn start(&self) -> Vec<Column> {
            Vec::new()
        }
        fn visit(&self, acc: &mut Vec<Column>, row: &RowView<'_>) {
            let endings = row.bits.len() / row.words_per_row;
            for h in row.lo as usize..row.end {
                let mut heaps = row.prefix.to_vec();
                heaps.extend((h > 0).then_some(h as u32));
                heaps.sort_unstable_by(|a, b| b.cmp(a));
                let bits = (0..endings).map(|j| row.ending_bits(j)[h / 64] >> (h % 64) & 1 == 1);
                acc.push((row.index_of(h), heaps, bits.collect()));
            }
        }
        fn merge(&self, mut left: Vec<Column>, right: Vec<Column>) -> Vec<Column> {
            left.extend(right);
            left
        }
    }

    #[test]
    fn rows_hand_out_every_rank_once_with_its_labels() {
        let game = Game::octal("0.137").unwrap();
        for total in [0, 1, 2, 7, 40] {
            let space = MultisetSpace::new(total).unwrap();
            let path = MultiHeapPath::Accumulators;
            let settings =
                Settings { parallel_threshold: 16, memory_limit: 1 << 30, multi_heap_path: path };
            let engine = MultisetEngine::new(&game, space.clone(), &settings);
            let grant = engine.reserve(3, 0).unwrap();
            let table = engine.label_all(&grant, &Ending::ALL, &NoProgress).unwrap();
            let mut columns = table.stream(&Columns);
            columns.sort();
            let ranks: Vec<u64> = columns.iter().map(|c| c.0).collect();
            assert_eq!(ranks, (0..space.positions()).collect::<Vec<_>>(), "total {total}");
            for (rank, heaps, bits) in columns {
                assert_eq!(heaps, space.unrank(rank));
                let expected: Vec<bool> = (0..3).map(|j| table.is_p(j, rank)).collect();
                assert_eq!(bits, expected, "{heaps:?}");
            }
        }
    }
}
