//! A labelled multiset table handed out row by row, as the tuple engines hand out theirs.

use rayon::prelude::*;

use super::table::MultisetTable;
use crate::engine::visitor::{RowView, RowVisitor};
use crate::model::ending::Ending;
use crate::model::multiset::FlatWalk;

/// Prefixes per parallel task.
const CHUNK: u64 = 4096;

/// One task's buffers: the row's ranks and its bits.
#[derive(Default)]
struct RowBuffers {
    ranks: Vec<u64>,
    bits: Vec<u64>,
}

impl MultisetTable {
    /// Hands every row of the space to `visitor` (see [`RowView`]: a multiset prefix and
    /// its largest heap), one track per ending in the table's order, and returns the
    /// visitor's merged result. Each position lies in exactly one row; rows run in
    /// parallel tasks on rayon's current pool.
    ///
    /// Prefixes come in rank order, in chunks of consecutive ranks (a [`FlatWalk`] each).
    /// Then for every column `h` the positions read are consecutive ranks too (those of total
    /// `s + h` and largest heap `h`, for the prefixes of total `s`), so the table is read
    /// in as many sequential streams as a row has columns, not at random.
    pub(crate) fn stream<V: RowVisitor>(&self, visitor: &V) -> V::Acc {
        self.prefix_chunks()
            .par_iter()
            .fold(
                || (visitor.start(), RowBuffers::default()),
                |(mut acc, mut buffers), &(first, len)| {
                    let mut walk = FlatWalk::at(&self.space.unrank(first));
                    for rank in first..first + len {
                        let (prefix, sum) = (walk.heaps(), walk.total());
                        self.visit_row(visitor, &mut acc, &mut buffers, prefix, rank, sum);
                        walk.advance();
                    }
                    (acc, buffers)
                },
            )
            .map(|(acc, _)| acc)
            .reduce(|| visitor.start(), |left, right| visitor.merge(left, right))
    }

    /// The ranks of the prefixes that have a row, as chunks `(first, len)`: of each total
    /// `s`, the prefixes whose largest heap is at most `T - s`, which come last in the
    /// total's rank order, from the greedy one (heaps of `min(s, T - s)`, then the
    /// remainder).
    fn prefix_chunks(&self) -> Vec<(u64, u64)> {
        let total = self.space.total();
        let mut chunks = Vec::new();
        for sum in 0..=total {
            let cap = sum.min(total - sum);
            if sum > 0 && cap == 0 {
                continue;
            }
            // The empty prefix (sum 0) has no heap at all.
            let mut greedy = vec![cap; sum.checked_div(cap).unwrap_or(0) as usize];
            greedy.extend(sum.checked_rem(cap).filter(|&rest| rest > 0));
            let start = self.space.rank(&greedy).expect("a prefix within the total");
            let end = self.space.first_rank(sum + 1);
            chunks.extend((start..end).step_by(CHUNK as usize).map(|c| (c, CHUNK.min(end - c))));
        }
        chunks
    }

    /// Visits the row of `prefix` (non-increasing, of rank `rank` and `sum` tokens): its
    /// largest heap from the prefix's largest (0 for the empty prefix) to the total less the
    /// prefix's tokens.
    fn visit_row<V: RowVisitor>(
        &self,
        visitor: &V,
        acc: &mut V::Acc,
        buffers: &mut RowBuffers,
        prefix: &[u32],
        rank: u64,
        sum: u32,
    ) {
        let RowBuffers { ranks, bits } = buffers;
        let lo = prefix.first().copied().unwrap_or(0);
        let hi = self.space.total() - sum;
        self.space.row_ranks(rank, sum, lo, hi, ranks);
        let end = hi as usize + 1;
        let words_per_row = end.div_ceil(64);
        self.gather_bits(lo as usize, ranks, words_per_row, bits);
        let row = RowView {
            prefix,
            lo,
            end,
            bits,
            words_per_row,
            first_index: ranks[0],
            ranks,
            pass: false,
        };
        visitor.visit(acc, &row);
    }

    /// Writes into `bits` the row of the positions of `ranks` (columns from `lo` on), one
    /// row of `words` words per ending, ending after ending.
    fn gather_bits(&self, lo: usize, ranks: &[u64], words: usize, bits: &mut Vec<u64>) {
        let endings = self.endings.len();
        // Every word is written below.
        bits.resize(words * endings, 0);
        // Word by word of the row, each ending's word built in a register: most multiset
        // rows are a handful of columns in one word.
        for word in 0..words {
            let mut word_bits = [0u64; Ending::ALL.len()];
            let columns = (word * 64).max(lo)..(word * 64 + 64).min(lo + ranks.len());
            for h in columns {
                // Every ending's bit of a position lies in one word.
                let (at, shift) = self.packing.locate(ranks[h - lo]);
                let labels = self.words[at] >> shift;
                for (j, word_bits) in word_bits[..endings].iter_mut().enumerate() {
                    *word_bits |= (labels >> j & 1) << (h % 64);
                }
            }
            for (j, &word_bits) in word_bits[..endings].iter().enumerate() {
                bits[j * words + word] = word_bits;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::multiset::MultisetEngine;
    use crate::engine::visitor::Collect;
    use crate::engine::{MultiHeapPath, NoProgress, Settings};
    use crate::model::ending::Ending;
    use crate::model::game::Game;
    use crate::model::multiset::MultisetSpace;

    type Column = (u64, Vec<u32>, Vec<bool>);

    /// Every column of a row: its rank, its heaps (largest first) and its bit per ending.
    fn columns(acc: &mut Vec<Column>, row: &RowView<'_>) {
        let endings = row.bits.len() / row.words_per_row;
        for h in row.lo as usize..row.end {
            let mut heaps: Vec<u32> = (h > 0).then_some(h as u32).into_iter().collect();
            heaps.extend(row.prefix);
            let bits = (0..endings).map(|j| row.ending_bits(j)[h / 64] >> (h % 64) & 1 == 1);
            acc.push((row.index_of(h), heaps, bits.collect()));
        }
    }

    /// The table of `endings` over the multisets of total at most `total` of octal:0.137,
    /// labelled in parallel.
    fn table(total: u64, endings: &[Ending]) -> MultisetTable {
        let game = Game::octal("0.137").unwrap();
        let space = MultisetSpace::new(total).unwrap();
        let path = MultiHeapPath::Accumulators;
        let settings =
            Settings { parallel_threshold: 16, memory_limit: 1 << 30, multi_heap_path: path };
        let engine = MultisetEngine::new(&game, space, &settings);
        let grant = engine.reserve(endings.len(), 0).unwrap();
        engine.label_all(&grant, endings, &NoProgress).unwrap()
    }

    /// Checks each column (rank, heaps, bits) against the table.
    fn check_columns(table: &MultisetTable, columns: Vec<Column>) {
        let space = table.space();
        for (rank, heaps, bits) in columns {
            assert_eq!(heaps, space.unrank(rank));
            let expected: Vec<bool> = (0..bits.len()).map(|j| table.is_p(j, rank)).collect();
            assert_eq!(bits, expected, "{heaps:?}");
        }
    }

    #[test]
    fn rows_hand_out_every_rank_once_with_its_labels() {
        let subsets: [&[Ending]; 3] =
            [&[Ending::Misere], &[Ending::Sj, Ending::Normal], &Ending::ALL];
        for endings in subsets {
            for total in [0, 1, 2, 7, 40] {
                let table = table(total, endings);
                let mut seen = table.stream(&Collect::new(columns));
                seen.sort();
                let ranks: Vec<u64> = seen.iter().map(|c| c.0).collect();
                let positions = table.space().positions();
                assert_eq!(ranks, (0..positions).collect::<Vec<_>>(), "total {total}");
                assert!(seen.iter().all(|c| c.2.len() == endings.len()));
                check_columns(&table, seen);
            }
        }
    }

    #[test]
    fn rows_wider_than_a_word_hold_their_columns_across_words() {
        // Total 66: the rows of the prefixes of at most 2 tokens end beyond column 64: the
        // empty prefix's has 67 columns (0 to 66), (1)'s 65, (2)'s 63, (1 1)'s 64.
        let table = table(66, &[Ending::Misere, Ending::Sj]);
        // The columns of the rows wider than one word.
        let wide = Collect::new(|acc: &mut Vec<Column>, row: &RowView<'_>| {
            if row.end > 64 {
                columns(acc, row);
            }
        });
        let seen = table.stream(&wide);
        assert_eq!(seen.len(), 67 + 65 + 63 + 64);
        check_columns(&table, seen);
    }
}
