//! The retrograde marking DP over a multiset space, layer by layer.
//!
//! One bit per position and ending, initially 0, means "has a P option, or is forced N".
//! When a position is reached its bit is final (every option lies in an earlier layer):
//! if it is clear and the ending does not force the position N, the position is P and
//! the bit of every *predecessor* (a position with a move to it) is set. Predecessors
//! undo one move: add a heap that vanished, grow a heap, or merge two or three heaps
//! (adding the tokens a split removed). The work is one rank per (N-position, winning move) pair
//! instead of one per (position, option) pair, and each predecessor's rank is computed
//! once for all endings. Bits are set by atomic OR, so no schedule or thread count
//! changes the result; a layer's marks are read only after every earlier layer is done.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::moves::Predecessors;
use super::table::Packing;
use crate::engine::visitor::Progress;
use crate::model::multiset::{MultisetSpace, Walk};

/// Runs `(part, count)`, parts strictly decreasing.
type Runs = [(u32, u32)];

/// The shared state of one run.
pub(super) struct Solver<'a> {
    pub space: &'a MultisetSpace,
    pub moves: Predecessors,
    /// Per ending: `Some(terminal)` if a position whose heaps all have terminal sizes is
    /// forced N (misère, SJ), `None` if nothing is forced (normal play).
    pub forces: Vec<Option<Vec<bool>>>,
    pub packing: Packing,
    /// Packed as [`Packing`]: set when the position has a P option or is forced N.
    pub marks: Vec<AtomicU64>,
    /// Layers with fewer positions run on the calling thread.
    pub parallel_threshold: u64,
    /// Consecutive ranks per task when a whole total is one layer.
    pub chunk: u64,
}

impl Solver<'_> {
    /// Every layer in order. Without in-place splits every move lowers the total, so a
    /// total is a layer; with them a layer is `(total, heaps)`, heap counts descending (an
    /// in-place split keeps the total and adds one heap or two).
    /// Stops before a total once `progress` is cancelled (the caller then discards the marks).
    pub fn run(&self, progress: &dyn Progress) {
        for total in 0..=self.space.total() {
            if progress.cancelled() {
                return;
            }
            if !self.moves.splits_in_place() {
                self.process_total(total);
                let first = self.space.first_rank(total);
                progress.advance(self.space.first_rank(total + 1) - first);
                continue;
            }
            for heaps in (u32::from(total > 0)..=total).rev() {
                // Partitions of `total` into exactly `heaps` parts.
                let count = self.space.table(total - heaps, heaps);
                let prefixes = layer_prefixes(total, heaps);
                let work = |prefix: &Vec<u32>| self.process_prefix(total, heaps, prefix);
                if count < self.parallel_threshold {
                    prefixes.iter().for_each(work);
                } else {
                    prefixes.par_iter().for_each(work);
                }
                progress.advance(count);
            }
        }
    }

    /// Settles one total, in chunks of consecutive ranks walked in rank order.
    fn process_total(&self, total: u32) {
        let first = self.space.first_rank(total);
        let count = self.space.first_rank(total + 1) - first;
        let chunk = |c: u64| {
            let start = first + c * self.chunk;
            self.process_chunk(start, self.chunk.min(first + count - start));
        };
        let chunks = count.div_ceil(self.chunk);
        if count < self.parallel_threshold {
            (0..chunks).for_each(chunk);
        } else {
            (0..chunks).into_par_iter().for_each(chunk);
        }
    }

    fn process_chunk(&self, start: u64, len: u64) {
        let mut walk = Walk::at(&self.space.unrank(start));
        for rank in start..start + len {
            self.settle(walk.runs(), walk.total(), rank);
            walk.advance();
        }
    }

    /// Settles the positions of layer `(total, heaps)` that start with `prefix`.
    fn process_prefix(&self, total: u32, heaps: u32, prefix: &[u32]) {
        let mut walk = Walk::at(&[]);
        let mut rank = self.space.first_rank(total);
        let mut previous = u32::MAX;
        for &part in prefix {
            rank += self.space.rank_step(total - walk.total(), previous, part);
            walk.push(part);
            previous = part;
        }
        let left = heaps - prefix.len() as u32;
        let bound = prefix.last().copied().unwrap_or(total);
        self.enumerate(&mut walk, total, left, bound, rank);
    }

    /// Settles, in rank order, every completion of `walk` by `left` parts of at most
    /// `bound` reaching `total`.
    fn enumerate(&self, walk: &mut Walk, total: u32, left: u32, bound: u32, rank: u64) {
        let remaining = total - walk.total();
        if left == 0 {
            self.settle(walk.runs(), total, rank);
            return;
        }
        let previous = walk.runs().last().map_or(u32::MAX, |&(part, _)| part);
        let largest = bound.min(remaining - (left - 1));
        for part in (remaining.div_ceil(left)..=largest).rev() {
            let step = self.space.rank_step(remaining, previous, part);
            walk.push(part);
            self.enumerate(walk, total, left - 1, part, rank + step);
            walk.pop();
        }
    }

    /// The mark bits of `rank`, bit `j` for the `j`-th ending.
    fn marks_of(&self, rank: u64) -> u32 {
        let (word, shift) = self.packing.locate(rank);
        let all = (1u64 << self.packing.endings) - 1;
        ((self.marks[word].load(Ordering::Relaxed) >> shift) & all) as u32
    }

    /// Sets the mark bits `endings` (bit `j` for the `j`-th ending) of `rank`.
    #[inline]
    fn mark(&self, endings: u32, rank: u64) {
        let (word, shift) = self.packing.locate(rank);
        let bits = u64::from(endings) << shift;
        let word = &self.marks[word];
        // Most predecessors are reached by several winning moves: a plain load that
        // finds the bits set is cheaper than a locked read-modify-write.
        if word.load(Ordering::Relaxed) & bits != bits {
            word.fetch_or(bits, Ordering::Relaxed);
        }
    }

    /// Fixes the position's label under every ending; a P-position marks its
    /// predecessors.
    fn settle(&self, runs: &Runs, total: u32, rank: u64) {
        let marked = self.marks_of(rank);
        let (mut forced, mut p_endings) = (0u32, 0u32);
        for (j, forces) in self.forces.iter().enumerate() {
            if marked >> j & 1 == 1 {
                continue;
            }
            let is_forced = forces
                .as_ref()
                .is_some_and(|terminal| runs.iter().all(|&(part, _)| terminal[part as usize]));
            if is_forced {
                forced |= 1 << j;
            } else {
                p_endings |= 1 << j;
            }
        }
        if forced != 0 {
            self.mark(forced, rank);
        }
        if p_endings != 0 {
            self.mark_predecessors(runs, total, p_endings);
        }
    }

    /// Marks, under the endings `p_endings`, every position with a move to this one.
    fn mark_predecessors(&self, runs: &Runs, total: u32, p_endings: u32) {
        let room = self.space.total() - total;
        for &a in self.moves.vanish.iter().take_while(|&&a| a <= room) {
            self.mark(p_endings, self.rank_after(runs, total + a, 0, 0, a));
        }
        for &(b, _) in runs {
            for &a in self.moves.into_one[b as usize].iter().take_while(|&&a| a - b <= room) {
                self.mark(p_endings, self.rank_after(runs, total + a - b, b, 0, a));
            }
        }
        if !self.moves.split_three.is_empty() {
            self.mark_three_merges(runs, total, p_endings);
        }
        if self.moves.split.is_empty() {
            return;
        }
        for (i, &(b, count)) in runs.iter().enumerate() {
            for &(c, _) in &runs[i + usize::from(count < 2)..] {
                if self.moves.unequal && b == c {
                    continue;
                }
                for &k in self.moves.split.iter().take_while(|&&k| k <= room) {
                    self.mark(p_endings, self.rank_after(runs, total + k, b, c, b + c + k));
                }
            }
        }
    }

    /// Marks, under the endings `p_endings`, every position that splits a heap in three
    /// to reach this one: each choice of three heaps `b >= c >= d` of `runs` merged, with
    /// the `k` tokens the split removed.
    fn mark_three_merges(&self, runs: &Runs, total: u32, p_endings: u32) {
        let room = self.space.total() - total;
        for (i, &(b, _)) in runs.iter().enumerate() {
            for (j, &(c, _)) in runs.iter().enumerate().skip(i) {
                for (l, &(d, count)) in runs.iter().enumerate().skip(j) {
                    // Heaps of one size taken more than once must be there as often.
                    let taken = 1 + u32::from(l == j) + u32::from(l == i);
                    if count < taken || (j == i && runs[i].1 < 2) {
                        continue;
                    }
                    for &k in self.moves.split_three.iter().take_while(|&&k| k <= room) {
                        let a = b + c + d + k;
                        self.mark(p_endings, self.rank_without(runs, total + k, [b, c, d], a));
                    }
                }
            }
        }
    }

    /// The rank of `runs` with one heap `b` and one heap `c` removed (0: none) and one
    /// heap `a >= b >= c` added; `new_total` is the result's total.
    #[inline(always)]
    pub(super) fn rank_after(&self, runs: &Runs, new_total: u32, b: u32, c: u32, a: u32) -> u64 {
        self.rank_without(runs, new_total, [b, c], a)
    }

    /// The rank of `runs` with the heaps `gone` removed (0: none) and one heap `a`, at
    /// least each of them, added; `new_total` is the result's total.
    /// Always inlined into the marking loop: as a call, it costs the labelling about a tenth
    /// more instructions, and a plain `#[inline]` is dropped by unrelated edits elsewhere.
    #[inline(always)]
    fn rank_without<const N: usize>(
        &self,
        runs: &Runs,
        new_total: u32,
        gone: [u32; N],
        a: u32,
    ) -> u64 {
        let mut rank = self.space.first_rank(new_total);
        let (mut remaining, mut previous) = (new_total, u32::MAX);
        let mut emit = |part: u32, count: u32| {
            rank += self.space.rank_step(remaining, previous, part);
            remaining -= part * count;
            previous = part;
        };
        let mut a_pending = true;
        for &(part, count) in runs {
            let mut count = count;
            for heap in gone {
                count -= u32::from(part == heap);
            }
            if a_pending && a >= part {
                a_pending = false;
                if a == part {
                    count += 1;
                } else {
                    emit(a, 1);
                }
            }
            if count > 0 {
                emit(part, count);
            }
        }
        if a_pending {
            emit(a, 1);
        }
        rank
    }

    /// The P bits: every unmarked slot of a position (no P option, not forced).
    pub fn into_p_words(self) -> Vec<u64> {
        let positions = self.space.positions();
        let (per_word, endings) = (self.packing.per_word(), u64::from(self.packing.endings));
        self.marks
            .into_iter()
            .enumerate()
            .map(|(index, word)| {
                let slots = (positions - index as u64 * per_word).min(per_word);
                let used = slots * endings;
                let mask = if used >= 64 { u64::MAX } else { (1u64 << used) - 1 };
                !word.into_inner() & mask
            })
            .collect()
    }
}

/// The first one or two parts of the positions of layer `(total, heaps)`, in rank order:
/// the parallel tasks of the layer.
pub(super) fn layer_prefixes(total: u32, heaps: u32) -> Vec<Vec<u32>> {
    if heaps == 0 {
        return vec![Vec::new()];
    }
    let mut prefixes = Vec::new();
    for first in (total.div_ceil(heaps)..=total - (heaps - 1)).rev() {
        let (rest, left) = (total - first, heaps - 1);
        if left == 0 {
            prefixes.push(vec![first]);
            continue;
        }
        for second in (rest.div_ceil(left)..=first.min(rest - (left - 1))).rev() {
            prefixes.push(vec![first, second]);
        }
    }
    prefixes
}
