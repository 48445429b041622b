//! Tallies of a prediction against the DP labels: counts and the first counterexamples.
//!
//! `verify` (criteria) and `check` (claims) compare a predicted set of P-positions with
//! the labels row by row: XOR of the words, popcount of the differences, and the K
//! counterexamples of smallest index. Both keep their results in a [`Tally`].

use std::collections::BinaryHeap;

use crate::engine::{valid_columns, Engine, RowView};
use crate::model::position::PassState;

/// A position where a prediction and the DP disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Index of the position (mixed-radix, or canonical rank in canonical mode); with a
    /// pass, the state index `2 × index + pass`.
    pub index: u64,
    /// Its heap sizes.
    pub position: Vec<u32>,
    /// Whether the DP labels it P (the prediction then says N, and vice versa).
    pub dp_is_p: bool,
    /// Its pass state in a game with a pass; `None` in a game without one.
    pub pass: Option<PassState>,
}

/// A prediction compared with the DP over one space under one ending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions compared.
    pub positions: u64,
    /// Positions the DP labels P.
    pub p_positions: u64,
    /// Positions where the prediction agrees with the DP.
    pub agree: u64,
    /// Positions where it does not.
    pub disagree: u64,
    /// The first counterexamples in index order, at most the limit asked for.
    pub counterexamples: Vec<Counterexample>,
}

impl Tally {
    /// Whether the prediction agrees with the DP on every position compared.
    pub fn holds(&self) -> bool {
        self.disagree == 0
    }
}

/// Bytes the counterexamples of `lists` comparisons may take, each keeping at most `limit`
/// (and no more than the `positions` compared): in every one of `tasks` tasks, a heap of
/// `(index, label)` pairs that may grow to twice its length; then the counterexamples
/// found, each with its position of `heaps` heaps.
pub(crate) fn counterexample_bytes(
    lists: u64,
    limit: usize,
    positions: u64,
    heaps: usize,
    tasks: u64,
) -> u64 {
    let kept = lists.saturating_mul((limit as u64).min(positions));
    let found = std::mem::size_of::<Counterexample>() as u64 + 16 + 4 * heaps as u64;
    kept.saturating_mul(32 * tasks + found)
}

/// The `limit` counterexamples of smallest index seen so far, as `(index, dp_is_p)`.
///
/// Keeping the smallest indices (not the first ones met) makes the result independent of
/// how rows were split among parallel tasks.
#[derive(Clone, Debug)]
pub(crate) struct FirstCounterexamples {
    limit: usize,
    /// A max-heap, so the largest kept index is the one to drop.
    kept: BinaryHeap<(u64, bool)>,
}

impl FirstCounterexamples {
    fn new(limit: usize) -> FirstCounterexamples {
        FirstCounterexamples { limit, kept: BinaryHeap::new() }
    }

    /// Whether a counterexample of index `index` would enter the list.
    fn would_keep(&self, index: u64) -> bool {
        self.kept.len() < self.limit || self.kept.peek().is_some_and(|&(top, _)| index < top)
    }

    /// Offers the disagreeing columns `diff` of word `word` of `row` in pass state
    /// `pass`, whose DP bits are `dp`. Returns `false` once the list is full of smaller
    /// indices: no later column of the row can enter it, so the caller may stop offering
    /// (but must go on counting).
    fn offer(
        &mut self,
        row: &RowView<'_>,
        pass: Option<PassState>,
        word: usize,
        dp: u64,
        mut diff: u64,
    ) -> bool {
        while diff != 0 {
            let column = word * 64 + diff.trailing_zeros() as usize;
            diff &= diff - 1;
            let index = row.state_index(column, pass);
            if self.kept.len() == self.limit {
                match self.kept.peek() {
                    Some(&(top, _)) if index < top => {
                        self.kept.pop();
                    }
                    _ => return false,
                }
            }
            self.kept.push((index, dp >> (column % 64) & 1 == 1));
        }
        true
    }

    /// Adds another task's counterexamples, keeping the `limit` smallest.
    fn merge(&mut self, other: FirstCounterexamples) {
        for item in other.kept {
            self.kept.push(item);
            if self.kept.len() > self.limit {
                self.kept.pop();
            }
        }
    }

    /// The kept counterexamples in index order, with their positions and pass states.
    fn into_counterexamples(
        self,
        state: impl Fn(u64) -> (Vec<u32>, Option<PassState>),
    ) -> Vec<Counterexample> {
        let sorted = self.kept.into_sorted_vec();
        sorted
            .into_iter()
            .map(|(index, dp_is_p)| {
                let (position, pass) = state(index);
                Counterexample { index, position, dp_is_p, pass }
            })
            .collect()
    }
}

/// The disagreements of one prediction in one task: their count and the first ones.
#[derive(Clone, Debug)]
pub(crate) struct Disagreements {
    count: u64,
    first: FirstCounterexamples,
}

impl Disagreements {
    /// No disagreement yet; at most `limit` counterexamples will be kept.
    pub(crate) fn new(limit: usize) -> Disagreements {
        Disagreements { count: 0, first: FirstCounterexamples::new(limit) }
    }

    /// Compares one ending's row of DP bits (in pass state `pass`, `None` without a pass)
    /// with the predicted P-columns, over the row's columns `lo..r` (bits outside them are
    /// ignored in both).
    pub(crate) fn compare_row(
        &mut self,
        row: &RowView<'_>,
        pass: Option<PassState>,
        dp_bits: &[u64],
        predicted: &[u64],
        r: usize,
    ) {
        let count = count_differences(dp_bits, predicted, row.lo as usize, r);
        self.add_row(count, row, pass, dp_bits, predicted, r);
    }

    /// Adds `count` disagreements of one ending's row of DP bits (in pass state `pass`)
    /// with the predicted P-columns, counted by [`count_differences`], and offers the
    /// disagreeing columns `lo..r` as counterexamples.
    pub(crate) fn add_row(
        &mut self,
        count: u64,
        row: &RowView<'_>,
        pass: Option<PassState>,
        dp_bits: &[u64],
        predicted: &[u64],
        r: usize,
    ) {
        self.count += count;
        // Only while the row's first column could enter the kept list: once it cannot, no
        // later column of the row can.
        let lo = row.lo as usize;
        if count == 0 || !self.first.would_keep(row.state_index(lo, pass)) {
            return;
        }
        for i in lo / 64..dp_bits.len() {
            let diff = (dp_bits[i] ^ predicted[i]) & valid_columns(i, lo, r);
            if diff != 0 && !self.first.offer(row, pass, i, dp_bits[i], diff) {
                return;
            }
        }
    }

    /// Adds another task's disagreements.
    pub(crate) fn merge(&mut self, other: Disagreements) {
        self.count += other.count;
        self.first.merge(other.first);
    }

    /// The tally over `positions` positions of which `p_positions` are P.
    pub(crate) fn into_tally(self, engine: &Engine<'_>, positions: u64, p_positions: u64) -> Tally {
        self.into_tally_with(positions, p_positions, |index| engine.state(index))
    }

    /// The tally, with the positions and pass states of the counterexamples' indices from
    /// `state`.
    pub(crate) fn into_tally_with(
        self,
        positions: u64,
        p_positions: u64,
        state: impl Fn(u64) -> (Vec<u32>, Option<PassState>),
    ) -> Tally {
        Tally {
            positions,
            p_positions,
            agree: positions - self.count,
            disagree: self.count,
            counterexamples: self.first.into_counterexamples(state),
        }
    }
}

/// Columns `lo..r` where a row of DP bits and a prediction differ: every differing bit of
/// the words from `lo`'s on, in one tight sweep, less those outside the row in its end
/// words (none when the row's ends fall on word boundaries, as in full mode).
#[inline]
pub(crate) fn count_differences(dp_bits: &[u64], predicted: &[u64], lo: usize, r: usize) -> u64 {
    // Rows within one word (small spaces, most multiset rows) in one step, inlined: most
    // rows agree, and then no bit is counted.
    if r <= 64 {
        let differing = (dp_bits[0] ^ predicted[0]) & valid_columns(0, lo, r);
        return if differing == 0 { 0 } else { u64::from(differing.count_ones()) };
    }
    count_wide_differences(dp_bits, predicted, lo, r)
}

/// [`count_differences`] of a row wider than one word.
#[inline(never)]
fn count_wide_differences(dp_bits: &[u64], predicted: &[u64], lo: usize, r: usize) -> u64 {
    let (first, last) = (lo / 64, dp_bits.len() - 1);
    let words = dp_bits[first..].iter().zip(&predicted[first..]);
    let all: u64 = words.map(|(&d, &p)| u64::from((d ^ p).count_ones())).sum();
    if lo.is_multiple_of(64) && r.is_multiple_of(64) {
        return all;
    }
    let outside =
        |i: usize| u64::from(((dp_bits[i] ^ predicted[i]) & !valid_columns(i, lo, r)).count_ones());
    all - outside(first) - if last == first { 0 } else { outside(last) }
}

/// P-positions of one ending's row: its set bits (the engine keeps bits outside the row's
/// columns clear).
///
/// Rows of P-positions are mostly sparse (a Nim row has at most a few), and generic x86-64
/// builds count bits in software: when no word has two bits, the count is the number of
/// non-zero words, found without counting bits.
#[inline]
pub(crate) fn p_count(dp_bits: &[u64]) -> u64 {
    let (mut several, mut nonzero) = (0u64, 0u64);
    for &word in dp_bits {
        several |= word & word.wrapping_sub(1);
        nonzero += u64::from(word != 0);
    }
    if several == 0 {
        nonzero
    } else {
        dp_bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_count_counts_every_set_bit_of_sparse_and_dense_rows() {
        let rows: [&[u64]; 6] = [
            &[0, 0, 0],
            &[1 << 63, 0, 1],
            &[0, 1 << 5, 0, 1 << 9],
            &[0b11, 0, 1],
            &[!0, !0],
            &[0x8000_0000_0000_0001, 1 << 7],
        ];
        for row in rows {
            let bits: u64 = row.iter().map(|w| u64::from(w.count_ones())).sum();
            assert_eq!(p_count(row), bits, "{row:x?}");
        }
    }

    #[test]
    fn differences_are_counted_only_in_the_rows_columns() {
        let mut rng = crate::random::SplitMix64::new(3);
        for r in [1usize, 63, 64, 65, 128, 200] {
            let words = r.div_ceil(64);
            for lo in [0, 1, 63, 64, 70, r - 1].into_iter().filter(|&lo| lo < r) {
                let dp: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
                let predicted: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
                let bit = |row: &[u64], h: usize| row[h / 64] >> (h % 64) & 1;
                let naive = (lo..r).filter(|&h| bit(&dp, h) != bit(&predicted, h)).count();
                let counted = count_differences(&dp, &predicted, lo, r);
                assert_eq!(counted, naive as u64, "columns {lo}..{r}");
            }
        }
    }
}
