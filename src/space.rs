//! Bounded heap spaces: position counts, mixed-radix and canonical (sorted) indexing.

use crate::error::{Error, Result};

/// The largest number of heaps a space may have.
pub const MAX_HEAPS: usize = 64;

/// The largest heap size nimtab handles (2^22 - 1). Any exhaustive space of more than one
/// heap is far smaller; the limit keeps per-size tables (Grundy values, rankers, move
/// graphs) bounded before any memory check.
pub const MAX_HEAP_SIZE: u32 = (1 << 22) - 1;

/// Refuses a largest heap size above [`MAX_HEAP_SIZE`].
pub fn check_max(max: u32) -> Result<()> {
    if max > MAX_HEAP_SIZE {
        return Err(Error::BadSpace {
            reason: format!("--max {max} is above the largest heap size, {MAX_HEAP_SIZE}"),
        });
    }
    Ok(())
}

/// All tuples `(h1, …, hn)` with `0 <= hi <= max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    heaps: usize,
    max: u32,
}

impl Space {
    /// A space of `heaps` heaps of at most `max` stones; refuses 0 heaps and index overflow.
    pub fn new(heaps: usize, max: u32) -> Result<Space> {
        if heaps == 0 {
            return Err(Error::BadSpace { reason: "--heaps must be at least 1, got 0".into() });
        }
        if heaps > MAX_HEAPS {
            return Err(Error::BadSpace {
                reason: format!("--heaps {heaps} is above the limit of {MAX_HEAPS}"),
            });
        }
        check_max(max)?;
        let space = Space { heaps, max };
        if space.positions_u128() > u128::from(u64::MAX / 2) {
            // positions_u128 saturates, so name the count only when it is exact.
            let count = match space.positions_u128() {
                u128::MAX => "more than 2^127".to_string(),
                n => n.to_string(),
            };
            return Err(Error::BadSpace {
                reason: format!(
                    "{heaps} heaps of max {max} is (max+1)^heaps = {count} positions, beyond any table"
                ),
            });
        }
        Ok(space)
    }

    /// Number of heaps `n`.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// Largest heap size `M`.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// The radix `M + 1`: values per heap.
    pub fn radix(&self) -> u64 {
        u64::from(self.max) + 1
    }

    fn positions_u128(&self) -> u128 {
        let r = u128::from(self.max) + 1;
        let mut total: u128 = 1;
        for _ in 0..self.heaps {
            total = total.saturating_mul(r);
        }
        total
    }

    /// `(M+1)^n`, the number of positions.
    pub fn positions(&self) -> u64 {
        self.positions_u128() as u64
    }

    /// `C(M+n, n)`, the number of sorted positions.
    pub fn canonical_positions(&self) -> u64 {
        multisets(self.max, self.heaps)
    }

    /// The mixed-radix index of a tuple (h1 is the most significant digit).
    pub fn index(&self, tuple: &[u32]) -> u64 {
        tuple.iter().fold(0u64, |acc, &h| acc * self.radix() + u64::from(h))
    }

    /// The tuple of a mixed-radix index.
    pub fn tuple(&self, mut index: u64) -> Vec<u32> {
        let mut out = vec![0; self.heaps];
        for slot in out.iter_mut().rev() {
            *slot = (index % self.radix()) as u32;
            index /= self.radix();
        }
        out
    }
}

/// Number of non-decreasing sequences of length `len` over `0..=max`: `C(max+len, len)`.
pub fn multisets(max: u32, len: usize) -> u64 {
    let mut c: u128 = 1;
    for i in 1..=len as u128 {
        c = c * (u128::from(max) + i) / i;
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// Ranks non-decreasing tuples of a fixed length in lexicographic order.
#[derive(Clone, Debug)]
pub struct CanonicalRanker {
    len: usize,
    /// `below[j][v]`: sequences of length `j` that start with a value `< v` (all values >= 0),
    /// i.e. the sum over `u < v` of `C(max - u + j - 1, j - 1)`.
    below: Vec<Vec<u64>>,
}

impl CanonicalRanker {
    /// A ranker for sorted tuples of length `len` over `0..=max`.
    pub fn new(max: u32, len: usize) -> CanonicalRanker {
        let r = max as usize + 1;
        let mut below = vec![vec![0u64; r + 1]; len + 1];
        for (j, row) in below.iter_mut().enumerate().skip(1) {
            for v in 0..r {
                // Sequences of length j starting with v: the rest is length j-1 over v..=max.
                let starting_at_v = multisets(max - v as u32, j - 1);
                row[v + 1] = row[v].saturating_add(starting_at_v);
            }
        }
        CanonicalRanker { len, below }
    }

    /// The sorted tuple of a rank (the inverse of [`CanonicalRanker::rank`]).
    pub fn unrank(&self, mut rank: u64) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.len);
        let mut floor = 0usize;
        for i in 0..self.len {
            let row = &self.below[self.len - i];
            let mut v = floor;
            // Largest v whose predecessors (values floor..v) do not exceed the rank.
            while v + 2 < row.len() && row[v + 1] - row[floor] <= rank {
                v += 1;
            }
            rank -= row[v] - row[floor];
            out.push(v as u32);
            floor = v;
        }
        out
    }

    /// The rank of a sorted tuple among all sorted tuples of this length, lexicographically.
    pub fn rank(&self, sorted: &[u32]) -> u64 {
        debug_assert_eq!(sorted.len(), self.len);
        let mut rank = 0u64;
        let mut floor = 0usize;
        for (i, &h) in sorted.iter().enumerate() {
            let row = &self.below[self.len - i];
            rank += row[h as usize] - row[floor];
            floor = h as usize;
        }
        rank
    }
}

/// Calls `visit` on every tuple of `buf.len() - start` values in `0..=max` at `buf[start..]`
/// summing to `sum`, in lexicographic order.
pub fn for_each_composition(
    buf: &mut [u32],
    start: usize,
    sum: u64,
    max: u32,
    visit: &mut impl FnMut(&[u32]),
) {
    let len = buf.len();
    if start == len {
        if sum == 0 {
            visit(buf);
        }
        return;
    }
    let rest = (len - start - 1) as u64;
    let lo = sum.saturating_sub(rest * u64::from(max));
    let hi = sum.min(u64::from(max));
    for v in lo..=hi {
        buf[start] = v as u32;
        for_each_composition(buf, start + 1, sum - v, max, visit);
    }
}

/// Calls `visit` on every non-decreasing tuple at `buf[start..]` with values in
/// `floor..=max` summing to `sum`, in lexicographic order.
pub fn for_each_sorted(
    buf: &mut [u32],
    start: usize,
    sum: u64,
    floor: u32,
    max: u32,
    visit: &mut impl FnMut(&[u32]),
) {
    let len = buf.len();
    if start == len {
        if sum == 0 {
            visit(buf);
        }
        return;
    }
    let count = (len - start) as u64;
    let rest = count - 1;
    // v >= floor; the rest (each >= v, <= max) must absorb sum - v.
    let lo = u64::from(floor).max(sum.saturating_sub(rest * u64::from(max)));
    let hi = (sum / count).min(u64::from(max));
    for v in lo..=hi {
        buf[start] = v as u32;
        for_each_sorted(buf, start + 1, sum - v, v as u32, max, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_rank_is_lexicographic_position() {
        for (max, len) in [(0u32, 3usize), (3, 1), (4, 3), (5, 2), (2, 5)] {
            let ranker = CanonicalRanker::new(max, len);
            let space = Space::new(len, max).unwrap();
            let mut expected = 0u64;
            for index in 0..space.positions() {
                let t = space.tuple(index);
                if t.windows(2).all(|w| w[0] <= w[1]) {
                    assert_eq!(ranker.rank(&t), expected, "{t:?}");
                    assert_eq!(ranker.unrank(expected), t);
                    expected += 1;
                }
            }
            assert_eq!(expected, space.canonical_positions());
        }
    }

    #[test]
    fn compositions_and_sorted_tuples_cover_the_space() {
        let (max, len) = (3u32, 3usize);
        let mut all = Vec::new();
        let mut sorted = Vec::new();
        for sum in 0..=u64::from(max) * len as u64 {
            let mut buf = vec![0; len];
            for_each_composition(&mut buf, 0, sum, max, &mut |t| all.push(t.to_vec()));
            for_each_sorted(&mut buf, 0, sum, 0, max, &mut |t| sorted.push(t.to_vec()));
        }
        assert_eq!(all.len(), 64);
        assert_eq!(sorted.len() as u64, multisets(max, len));
        assert!(sorted.iter().all(|t| t.windows(2).all(|w| w[0] <= w[1])));
    }

    #[test]
    fn zero_heaps_is_refused() {
        assert!(Space::new(0, 3).unwrap_err().to_string().contains("--heaps"));
    }
}
