//! Multiset spaces: every multiset of non-empty heaps of total at most `T`, ranked by tables.
//!
//! A position is written as its heaps in non-increasing order (a partition of its
//! total). Ranks run by total ascending (the empty position is rank 0) and, within a
//! total, in reverse lexicographic order: for total 4, `(4), (3 1), (2 2), (2 1 1),
//! (1 1 1 1)`.
//!
//! With `P(n, m)` the partitions of `n` into parts at most `m`, the positions of one
//! total before `λ = (λ1 >= λ2 >= …)` are those that agree with it on `λ1 … λ(i-1)` and
//! have a larger part at `i`: `P(r_i, λ(i-1)) - P(r_i, λi)` of them, with `r_i` the sum
//! of `λi, λ(i+1), …` and `λ0 = ∞`. A repeated part adds 0, so a rank costs one table
//! difference per distinct part. The tables hold `P(n, m)` for `n, m <= T` and each
//! total's first rank: `O(T^2)` words, nothing per position.

use crate::model::error::{ModelError, Result};

/// The largest total: the multisets of total at most 373 number more than `2^64`.
pub const MAX_TOTAL: u32 = 372;

/// Every multiset of non-empty heaps whose sizes sum to at most `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultisetSpace {
    total: u32,
    /// `bounded[n * (T + 1) + m] = P(n, m)`.
    bounded: Vec<u64>,
    /// `offsets[t]`: positions of total below `t`, for `t <= T + 1`.
    offsets: Vec<u64>,
}

impl MultisetSpace {
    /// The space of every multiset of non-empty heaps of total at most `total`.
    ///
    /// # Errors
    /// [`ModelError::TotalAboveLimit`] above [`MAX_TOTAL`].
    pub fn new(total: u64) -> Result<MultisetSpace> {
        if total > u64::from(MAX_TOTAL) {
            return Err(ModelError::TotalAboveLimit { total, limit: MAX_TOTAL });
        }
        let side = total as usize + 1;
        let mut bounded = vec![0u64; side * side];
        for n in 0..side {
            for m in 0..side {
                bounded[n * side + m] = match (n, m) {
                    (0, _) => 1,
                    (_, 0) => 0,
                    // No part equal to m, or at least one.
                    _ if m <= n => bounded[n * side + m - 1] + bounded[(n - m) * side + m],
                    _ => bounded[n * side + n],
                };
            }
        }
        let mut offsets = vec![0u64; side + 1];
        for t in 0..side {
            offsets[t + 1] = offsets[t] + bounded[t * side + t];
        }
        Ok(MultisetSpace { total: total as u32, bounded, offsets })
    }

    /// The bound `T` on the total.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The number of positions, the empty one included.
    pub fn positions(&self) -> u64 {
        self.offsets[self.total as usize + 1]
    }

    /// The rank of the first position of total `t` (`t <= T + 1`; `T + 1` gives the
    /// number of positions).
    ///
    /// # Panics
    /// If `t > T + 1`.
    pub fn first_rank(&self, t: u32) -> u64 {
        self.offsets[t as usize]
    }

    /// `P(n, m)`: partitions of `n <= T` into parts at most `m`.
    pub(crate) fn table(&self, n: u32, m: u32) -> u64 {
        let side = self.total as usize + 1;
        self.bounded[n as usize * side + m.min(self.total) as usize]
    }

    /// The rank added by a part `part` after a part `previous` (`u32::MAX` for none) with
    /// `remaining` tokens still to place, this part included.
    #[inline]
    pub(crate) fn rank_step(&self, remaining: u32, previous: u32, part: u32) -> u64 {
        if part == previous {
            0
        } else {
            self.table(remaining, previous) - self.table(remaining, part)
        }
    }

    /// The rank of a position given by its heaps in any order (empty heaps are ignored);
    /// `None` if they hold more than `T` tokens.
    pub fn rank(&self, heaps: &[u32]) -> Option<u64> {
        let total: u64 = heaps.iter().map(|&h| u64::from(h)).sum();
        if total > u64::from(self.total) {
            return None;
        }
        let mut parts: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        parts.sort_unstable_by(|a, b| b.cmp(a));
        let mut rank = self.first_rank(total as u32);
        let (mut remaining, mut previous) = (total as u32, u32::MAX);
        for part in parts {
            rank += self.rank_step(remaining, previous, part);
            (remaining, previous) = (remaining - part, part);
        }
        Some(rank)
    }

    /// The ranks of the positions `prefix ∪ {h}` for `h` in `largest..=hi` into `out`: one
    /// row of multisets, `h` the largest heap (`h = 0` is the empty heap), the prefix of
    /// rank `prefix_rank` holding `s` tokens with largest heap `largest` (0 if empty).
    ///
    /// A rank's steps along the heaps, largest first: `P(s + h) - P(s + h, h)` for the
    /// part `h` itself, `P(s, h) - P(s, largest)` for the prefix's largest part after it
    /// (0 when they are equal), then the rest of the prefix, the same for every `h` (the
    /// prefix's rank within its total less its own first step, `P(s) - P(s, largest)`).
    /// With the first rank of total `s + h`, `first(s + h) + P(s + h) = first(s + h + 1)`;
    /// so a column costs three table reads, whatever the prefix's length.
    ///
    /// # Panics
    /// If a position of the row holds more than `T` tokens.
    pub(crate) fn row_ranks(
        &self,
        prefix_rank: u64,
        s: u32,
        largest: u32,
        hi: u32,
        out: &mut Vec<u64>,
    ) {
        assert!(s + hi <= self.total && largest <= hi, "row beyond the space's total");
        let (side, s, lo) = (self.total as usize + 1, s as usize, largest as usize);
        // Every `h`'s rank less its three reads (the sums wrap, the ranks do not).
        let shift = (prefix_rank - self.offsets[s])
            .wrapping_sub(self.bounded[s * side + self.total as usize]);
        let columns = hi as usize - lo + 1;
        let next_first = &self.offsets[s + lo + 1..][..columns];
        let after = &self.bounded[s * side + lo..][..columns];
        out.clear();
        // An indexed loop: a strided iterator's length costs a division per row.
        for (i, (&f, &a)) in next_first.iter().zip(after).enumerate() {
            let own = self.bounded[(s + lo + i) * side + lo + i];
            out.push(f.wrapping_sub(own).wrapping_add(a).wrapping_add(shift));
        }
    }

    /// The heaps (non-increasing) of the position of rank `rank`.
    ///
    /// # Panics
    /// If `rank` is not below [`MultisetSpace::positions`].
    pub fn unrank(&self, rank: u64) -> Vec<u32> {
        assert!(rank < self.positions(), "rank {rank} is beyond the space");
        let total = (self.offsets.partition_point(|&start| start <= rank) - 1) as u32;
        let mut within = rank - self.first_rank(total);
        let (mut remaining, mut largest) = (total, total);
        let mut parts = Vec::new();
        while remaining > 0 {
            // Positions whose next part is v take the ranks from P(n, m) - P(n, v) up:
            // the part is the least v with P(n, v) >= P(n, m) - within.
            let target = self.table(remaining, largest) - within;
            let (mut low, mut high) = (1, largest.min(remaining));
            while low < high {
                let middle = low + (high - low) / 2;
                if self.table(remaining, middle) >= target {
                    high = middle;
                } else {
                    low = middle + 1;
                }
            }
            within -= self.table(remaining, largest) - self.table(remaining, low);
            parts.push(low);
            (remaining, largest) = (remaining - low, low);
        }
        parts
    }

    /// Every position in rank order, as non-increasing heaps.
    pub fn iter(&self) -> impl Iterator<Item = Vec<u32>> + '_ {
        let mut walk = Walk::at(&[]);
        (0..self.positions()).map(move |_| {
            let heaps = walk.heaps();
            walk.advance();
            heaps
        })
    }
}

/// A position as runs `(part, count)` with parts strictly decreasing, stepped through
/// the rank order in amortised `O(1)` per step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    runs: Vec<(u32, u32)>,
    total: u32,
}

impl Walk {
    /// The walk at the position with these heaps (non-increasing, non-zero).
    pub fn at(heaps: &[u32]) -> Walk {
        let mut walk = Walk { runs: Vec::new(), total: 0 };
        for &h in heaps {
            walk.push(h);
        }
        walk
    }

    /// The runs, largest part first.
    pub fn runs(&self) -> &[(u32, u32)] {
        &self.runs
    }

    /// The position's total.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The heaps, non-increasing.
    pub fn heaps(&self) -> Vec<u32> {
        self.runs.iter().flat_map(|&(p, c)| std::iter::repeat_n(p, c as usize)).collect()
    }

    /// Adds a heap no larger than the last one.
    pub fn push(&mut self, part: u32) {
        self.total += part;
        match self.runs.last_mut() {
            Some((last, count)) if *last == part => *count += 1,
            _ => self.runs.push((part, 1)),
        }
    }

    /// Removes the last heap.
    pub fn pop(&mut self) {
        if let Some((part, count)) = self.runs.last_mut() {
            self.total -= *part;
            *count -= 1;
            if *count == 0 {
                self.runs.pop();
            }
        }
    }

    /// Steps to the next position in rank order: within a total, lower one copy of the
    /// last part above 1 and refill the tokens after it greedily; after the all-ones
    /// position (or the empty one), the single heap of the next total.
    pub fn advance(&mut self) {
        let ones = match self.runs.last() {
            Some(&(1, count)) => {
                self.runs.pop();
                count
            }
            _ => 0,
        };
        let Some(last) = self.runs.last_mut() else {
            self.total += 1;
            self.runs.push((self.total, 1));
            return;
        };
        let part = last.0;
        last.1 -= 1;
        if last.1 == 0 {
            self.runs.pop();
        }
        let (smaller, rest) = (part - 1, ones + part);
        if smaller == 1 {
            self.runs.push((1, rest));
        } else {
            self.runs.push((smaller, rest / smaller));
            if rest % smaller > 0 {
                self.runs.push((rest % smaller, 1));
            }
        }
    }
}

/// A position as its heaps (non-increasing), stepped through the rank order as [`Walk`]
/// steps, for readers that want the heaps themselves: a step rewrites only the heaps after
/// the one it lowers, amortised `O(1)` (Zoghbi and Stojmenović's ZS1 order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FlatWalk {
    heaps: Vec<u32>,
    total: u32,
}

impl FlatWalk {
    /// The walk at the position with these heaps (non-increasing, non-zero).
    pub fn at(heaps: &[u32]) -> FlatWalk {
        FlatWalk { heaps: heaps.to_vec(), total: heaps.iter().sum() }
    }

    /// The heaps, non-increasing.
    pub fn heaps(&self) -> &[u32] {
        &self.heaps
    }

    /// The position's total.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Steps to the next position in rank order, as [`Walk::advance`].
    pub fn advance(&mut self) {
        let mut rest = 0;
        while self.heaps.last() == Some(&1) {
            self.heaps.pop();
            rest += 1;
        }
        let Some(part) = self.heaps.pop() else {
            self.total += 1;
            self.heaps.push(self.total);
            return;
        };
        let smaller = part - 1;
        rest += part;
        while rest >= smaller {
            self.heaps.push(smaller);
            rest -= smaller;
        }
        if rest > 0 {
            self.heaps.push(rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_total_are_the_partition_numbers() {
        let s = MultisetSpace::new(12).unwrap();
        let p: Vec<u64> = (0..=12).map(|t| s.first_rank(t + 1) - s.first_rank(t)).collect();
        assert_eq!(p, vec![1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42, 56, 77]);
        assert_eq!(MultisetSpace::new(80).unwrap().positions(), 123_223_639);
        assert_eq!(
            MultisetSpace::new(MAX_TOTAL.into()).unwrap().positions(),
            18_413_812_055_688_278_601
        );
        let refused = MultisetSpace::new(373).unwrap_err().to_string();
        assert!(refused.starts_with("total 373 is above the largest total, 372"), "{refused}");
    }

    #[test]
    fn total_four_is_in_reverse_lexicographic_order() {
        let s = MultisetSpace::new(4).unwrap();
        let order = [vec![4], vec![3, 1], vec![2, 2], vec![2, 1, 1], vec![1, 1, 1, 1]];
        let ranks: Vec<u64> = order.iter().map(|p| s.rank(p).unwrap()).collect();
        assert_eq!(ranks, (s.first_rank(4)..s.first_rank(5)).collect::<Vec<_>>());
        assert_eq!(
            (s.rank(&[]), s.rank(&[1, 3, 0, 2]), s.rank(&[5])),
            (Some(0), s.rank(&[3, 2, 1]), None)
        );
    }

    #[test]
    fn row_ranks_are_the_ranks_of_every_row_position() {
        let s = MultisetSpace::new(14).unwrap();
        let mut seen = vec![0u32; s.positions() as usize];
        let mut ranks = Vec::new();
        // Every prefix (non-increasing) and its row of larger heaps.
        for prefix in s.iter() {
            let (sum, largest) = (prefix.iter().sum::<u32>(), prefix.first().copied().unwrap_or(0));
            if sum + largest > 14 {
                continue;
            }
            s.row_ranks(s.rank(&prefix).unwrap(), sum, largest, 14 - sum, &mut ranks);
            for (h, &rank) in (largest..).zip(&ranks) {
                let heaps = [&[h][..], &prefix].concat();
                assert_eq!(Some(rank), s.rank(&heaps), "{heaps:?}");
                seen[rank as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "every position in exactly one row");
    }

    #[test]
    fn rank_unrank_and_the_walk_agree_over_a_whole_space() {
        let s = MultisetSpace::new(16).unwrap();
        let mut count = 0;
        for (rank, heaps) in s.iter().enumerate() {
            assert_eq!(s.rank(&heaps), Some(rank as u64), "{heaps:?}");
            assert_eq!(s.unrank(rank as u64), heaps);
            assert!(heaps.windows(2).all(|w| w[0] >= w[1]) && !heaps.contains(&0));
            count += 1;
        }
        assert_eq!(count, s.positions());
        let mut walk = Walk::at(&[3, 3, 1]);
        walk.pop();
        walk.push(2);
        assert_eq!((walk.heaps(), walk.total()), (vec![3, 3, 2], 8));
    }

    #[test]
    fn the_flat_walk_steps_as_the_walk_does() {
        let (mut walk, mut flat) = (Walk::at(&[]), FlatWalk::at(&[]));
        for _ in 0..MultisetSpace::new(18).unwrap().positions() + 1 {
            assert_eq!((flat.heaps(), flat.total()), (&walk.heaps()[..], walk.total()));
            walk.advance();
            flat.advance();
        }
        let mut flat = FlatWalk::at(&[5, 1, 1]);
        flat.advance();
        assert_eq!((flat.heaps(), flat.total()), (&[4, 3][..], 7));
    }
}
