//! Sorted tuples: how many there are, and their ranks in lexicographic order.

/// Number of non-decreasing sequences of length `len` over `0..=max`: `C(max+len, len)`,
/// or `u64::MAX` if it does not fit.
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

/// `C(max+len, len)` exactly, or `None` beyond `u128`.
pub fn sorted_count(len: usize, max: u32) -> Option<u128> {
    let mut c: u128 = 1;
    for i in 1..=len as u128 {
        c = c.checked_mul(u128::from(max) + i)? / i;
    }
    Some(c)
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
    ///
    /// # Panics
    /// If the system refuses its `(len + 1) × (max + 2)` words ([`CanonicalRanker::try_new`]
    /// refuses instead).
    pub fn new(max: u32, len: usize) -> CanonicalRanker {
        CanonicalRanker::try_new(max, len).expect("memory for the ranks of sorted tuples")
    }

    /// A ranker for sorted tuples of length `len` over `0..=max`, or `None` if the system
    /// refuses its `(len + 1) × (max + 2)` words.
    pub fn try_new(max: u32, len: usize) -> Option<CanonicalRanker> {
        let r = max as usize + 1;
        let mut below = Vec::new();
        below.try_reserve_exact(len + 1).ok()?;
        for _ in 0..=len {
            let mut row = Vec::new();
            row.try_reserve_exact(r + 1).ok()?;
            row.resize(r + 1, 0u64);
            below.push(row);
        }
        for (j, row) in below.iter_mut().enumerate().skip(1) {
            for v in 0..r {
                // Sequences of length j starting with v: the rest is length j-1 over v..=max.
                let starting_at_v = multisets(max - v as u32, j - 1);
                row[v + 1] = row[v].saturating_add(starting_at_v);
            }
        }
        Some(CanonicalRanker { len, below })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::space::TupleSpace;

    #[test]
    fn canonical_rank_is_lexicographic_position() {
        for (max, len) in [(0u32, 3usize), (3, 1), (4, 3), (5, 2), (2, 5)] {
            let ranker = CanonicalRanker::new(max, len);
            let space = TupleSpace::new(len, max).unwrap();
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
}
