//! Where rows live: row indices, position indices and layer enumeration, full or canonical.
//!
//! A *row* is every position sharing the first `n - 1` heaps (the *prefix*). In full mode
//! rows are indexed mixed-radix and a row holds columns `0..=M`; in canonical mode only
//! sorted prefixes have rows, indexed by their rank, and a row's first column is the
//! prefix's largest heap (smaller last heaps are other sorted tuples). Every difference
//! between the two modes that the engine and the label table see is answered here.

use std::ops::RangeInclusive;

use crate::model::canonical::{multisets, CanonicalRanker};
use crate::model::enumerate::for_each_with_sum;
use crate::model::space::{Mode, TupleSpace};

/// Whether a structure addressed by the ranks of sorted tuples builds its rankers. They are
/// sized by the largest heap, so an engine that cannot run, or a plan that only says how
/// much memory a run needs, must not allocate them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rankers {
    /// Build them (if the system gives their memory).
    Build,
    /// Leave them out.
    Skip,
}

/// The row layout of one space in one mode.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    space: TupleSpace,
    /// Canonical mode: ranks sorted prefixes (length `n - 1`) and sorted tuples (length `n`);
    /// `None` in full mode, or for an engine too large to prepare (which never runs).
    rankers: Option<(CanonicalRanker, CanonicalRanker)>,
}

impl Layout {
    /// The layout of `space`; in canonical mode its rankers as `rankers` says, and only if
    /// the system gives their memory ([`Layout::is_ready`] says).
    pub(crate) fn new(space: TupleSpace, rankers: Rankers) -> Layout {
        let k = space.heaps() - 1;
        let rankers = (rankers == Rankers::Build && space.mode().is_canonical()).then(|| {
            let prefixes = CanonicalRanker::try_new(space.max(), k)?;
            Some((prefixes, CanonicalRanker::try_new(space.max(), k + 1)?))
        });
        Layout { space, rankers: rankers.flatten() }
    }

    /// Whether every position can be indexed: full mode, or sorted tuples with rankers.
    pub(crate) fn is_ready(&self) -> bool {
        !self.space.mode().is_canonical() || self.rankers.is_some()
    }

    /// The rankers of canonical mode; only a prepared layout is ever asked.
    fn ranked(&self) -> &(CanonicalRanker, CanonicalRanker) {
        self.rankers.as_ref().expect("a canonical layout that runs has its rankers")
    }

    pub(crate) fn space(&self) -> TupleSpace {
        self.space
    }

    pub(crate) fn mode(&self) -> Mode {
        self.space.mode()
    }

    /// Heaps in a prefix: `n - 1`.
    pub(crate) fn prefix_len(&self) -> usize {
        self.space.heaps() - 1
    }

    /// Words in one row: `ceil((M + 1) / 64)`.
    pub(crate) fn words_per_row(&self) -> usize {
        (self.space.radix() as usize).div_ceil(64)
    }

    /// Rows in a table: `(M+1)^k`, or `C(M+k, k)` sorted prefixes.
    pub(crate) fn rows(&self) -> u64 {
        let k = self.prefix_len();
        match self.mode() {
            Mode::Full => self.space.radix().saturating_pow(k as u32),
            Mode::Canonical => multisets(self.space.max(), k),
        }
    }

    /// Positions labelled.
    pub(crate) fn positions(&self) -> u64 {
        self.space.positions()
    }

    /// The row of a prefix (sorted, in canonical mode).
    pub(crate) fn row_index(&self, prefix: &[u32]) -> u64 {
        match self.mode() {
            Mode::Canonical => self.ranked().0.rank(prefix),
            Mode::Full => self.space.index(prefix),
        }
    }

    /// The first column of a prefix's row.
    pub(crate) fn lo(&self, prefix: &[u32]) -> u32 {
        match self.mode() {
            Mode::Canonical => prefix.last().copied().unwrap_or(0),
            Mode::Full => 0,
        }
    }

    /// The index of position `(prefix, lo)`; `buf` is scratch for the canonical rank.
    pub(crate) fn first_index(&self, row: u64, prefix: &[u32], buf: &mut Vec<u32>) -> u64 {
        match self.mode() {
            Mode::Canonical => self.sorted_first_index(prefix, buf),
            Mode::Full => row * self.space.radix(),
        }
    }

    /// Canonical mode: the index of position `(prefix, max(prefix))`, the first of the
    /// sorted prefix's row (no row index needed).
    pub(crate) fn sorted_first_index(&self, prefix: &[u32], buf: &mut Vec<u32>) -> u64 {
        buf.clear();
        buf.extend_from_slice(prefix);
        buf.push(self.lo(prefix));
        self.ranked().1.rank(buf)
    }

    /// The ranker of whole sorted tuples (position indices) of canonical mode.
    pub(crate) fn tuple_ranker(&self) -> Option<&CanonicalRanker> {
        self.mode().is_canonical().then(|| &self.ranked().1)
    }

    /// The index of a position (sorted, in canonical mode).
    pub(crate) fn index(&self, tuple: &[u32]) -> u64 {
        match self.mode() {
            Mode::Canonical => self.ranked().1.rank(tuple),
            Mode::Full => self.space.index(tuple),
        }
    }

    /// The position of an index (mixed-radix, or canonical rank).
    pub(crate) fn position(&self, index: u64) -> Vec<u32> {
        match self.mode() {
            Mode::Canonical => self.ranked().1.unrank(index),
            Mode::Full => self.space.tuple(index),
        }
    }

    /// The prefix of row `row` (sorted, in canonical mode).
    pub(crate) fn prefix_of_row(&self, row: u64) -> Vec<u32> {
        match self.mode() {
            Mode::Canonical => self.ranked().0.unrank(row),
            Mode::Full => {
                let (k, r) = (self.prefix_len(), self.space.radix());
                let mut prefix = vec![0u32; k];
                let mut rest = row;
                for slot in prefix.iter_mut().rev() {
                    *slot = (rest % r) as u32;
                    rest /= r;
                }
                prefix
            }
        }
    }

    /// Steps `prefix` to the next row's prefix in row order (an odometer; sorted in
    /// canonical mode); `false` after the last row.
    pub(crate) fn next_prefix(&self, prefix: &mut [u32]) -> bool {
        let max = self.space.max();
        let Some(i) = (0..prefix.len()).rev().find(|&i| prefix[i] < max) else { return false };
        prefix[i] += 1;
        let reset = if self.mode().is_canonical() { prefix[i] } else { 0 };
        prefix[i + 1..].fill(reset);
        true
    }

    /// Writes every row's prefix to `out`, one a call, in row order; `false` after the last.
    pub(crate) fn prefixes_in_order(&self) -> impl FnMut(&mut Vec<u32>) -> bool + '_ {
        let mut cursor = vec![0u32; self.prefix_len()];
        let mut started = false;
        move |out| {
            if started && !self.next_prefix(&mut cursor) {
                return false;
            }
            started = true;
            out.clear();
            out.extend_from_slice(&cursor);
            true
        }
    }

    /// Layers of prefixes: every prefix sum `0..=k * M`.
    pub(crate) fn layers(&self) -> u64 {
        self.prefix_len() as u64 * u64::from(self.space.max()) + 1
    }

    /// Values of the first heap of the prefixes of layer `sum`.
    pub(crate) fn first_values(&self, sum: u64) -> RangeInclusive<u32> {
        first_values(sum, self.prefix_len(), self.space.max(), self.mode())
    }

    /// Calls `visit` on every prefix of layer `sum` whose first heap is `first`, in
    /// lexicographic order; `buf` holds `n - 1` values.
    pub(crate) fn for_each_prefix(
        &self,
        buf: &mut [u32],
        first: u32,
        sum: u64,
        visit: &mut impl FnMut(&[u32]),
    ) {
        buf[0] = first;
        let rest = sum - u64::from(first);
        for_each_with_sum(buf, 1, rest, self.space.max(), self.mode(), visit);
    }
}

/// Values of the first heap of the tuples of `len` heaps over `0..=max` (non-decreasing
/// in canonical mode) that sum to `sum`; just `0` when `len` is 0 (the empty tuple).
pub(crate) fn first_values(sum: u64, len: usize, max: u32, mode: Mode) -> RangeInclusive<u32> {
    if len == 0 {
        return 0..=0;
    }
    let max = u64::from(max);
    let lo = sum.saturating_sub((len as u64 - 1) * max);
    // Sorted: the first heap is the smallest, so at most the average.
    let hi = if mode.is_canonical() { sum / len as u64 } else { sum }.min(max);
    if lo > hi {
        #[allow(clippy::reversed_empty_ranges)]
        return 1..=0;
    }
    lo as u32..=hi as u32
}
