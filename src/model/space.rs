//! Bounded heap spaces: their limits, position counts and the mixed-radix index.

use crate::error::{Error, Result};
use crate::model::canonical::multisets;

/// The largest number of heaps a space may have.
pub const MAX_HEAPS: usize = 64;

/// The largest heap size nimtab handles (2^22 - 1). Any exhaustive space of more than one
/// heap is far smaller; the limit keeps per-size tables (Grundy values, rankers, move
/// graphs) bounded before any memory check.
pub const MAX_HEAP_SIZE: u32 = (1 << 22) - 1;

/// Refuses a heap size above [`MAX_HEAP_SIZE`].
///
/// # Errors
/// [`Error::HeapTooLarge`] naming the size.
pub fn validate_max(max: u64) -> Result<u32> {
    if max > u64::from(MAX_HEAP_SIZE) {
        return Err(Error::HeapTooLarge { max, limit: MAX_HEAP_SIZE });
    }
    Ok(max as u32)
}

/// Which positions of a space are labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every tuple `(h1, …, hn)`.
    #[default]
    Full,
    /// Sorted tuples `h1 <= … <= hn` only: labels depend only on the multiset of heaps.
    Canonical,
}

impl Mode {
    /// `Canonical` if `canonical` is set, else `Full`.
    pub fn canonical_if(canonical: bool) -> Mode {
        if canonical {
            Mode::Canonical
        } else {
            Mode::Full
        }
    }

    /// Whether only sorted tuples are labelled.
    pub fn is_canonical(self) -> bool {
        self == Mode::Canonical
    }
}

/// All tuples `(h1, …, hn)` with `0 <= hi <= max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Space {
    heaps: usize,
    max: u32,
}

impl Space {
    /// A space of `heaps` heaps of at most `max` stones.
    ///
    /// # Errors
    /// [`Error::NoHeaps`], [`Error::TooManyHeaps`], [`Error::HeapTooLarge`], or
    /// [`Error::SpaceOverflow`] when `(max+1)^heaps` overflows any index.
    pub fn new(heaps: usize, max: u32) -> Result<Space> {
        if heaps == 0 {
            return Err(Error::NoHeaps);
        }
        if heaps > MAX_HEAPS {
            return Err(Error::TooManyHeaps { heaps, limit: MAX_HEAPS });
        }
        validate_max(u64::from(max))?;
        let space = Space { heaps, max };
        if space.positions_u128() > u128::from(u64::MAX / 2) {
            // positions_u128 saturates, so name the count only when it is exact.
            let count = match space.positions_u128() {
                u128::MAX => "more than 2^127".to_string(),
                n => n.to_string(),
            };
            return Err(Error::SpaceOverflow { heaps, max, count });
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

    /// The positions labelled in `mode`.
    pub fn positions_in(&self, mode: Mode) -> u64 {
        match mode {
            Mode::Full => self.positions(),
            Mode::Canonical => self.canonical_positions(),
        }
    }

    /// The mixed-radix index of a tuple of any length (h1 is the most significant digit).
    /// A prefix of `k` heaps gets the index of its row among the `(M+1)^k` prefixes.
    pub fn index(&self, tuple: &[u32]) -> u64 {
        self.index_of(tuple.iter().copied())
    }

    /// The mixed-radix index of heaps given one by one (for a tuple with a heap left out
    /// or replaced, without building it).
    pub fn index_of(&self, heaps: impl IntoIterator<Item = u32>) -> u64 {
        heaps.into_iter().fold(0u64, |acc, h| acc * self.radix() + u64::from(h))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_heaps_and_huge_sizes_are_refused_by_value() {
        assert_eq!(
            Space::new(0, 3).unwrap_err().to_string(),
            "a space needs at least one heap, got 0"
        );
        let huge = Space::new(1, MAX_HEAP_SIZE + 1).unwrap_err().to_string();
        assert_eq!(huge, "heap size 4194304 is above the largest heap size, 4194303");
        assert!(Space::new(40, 255).unwrap_err().to_string().contains("beyond any table"));
    }

    #[test]
    fn index_and_tuple_are_inverse() {
        let space = Space::new(3, 4).unwrap();
        for index in 0..space.positions() {
            assert_eq!(space.index(&space.tuple(index)), index);
        }
        assert_eq!(space.index(&[1, 2]), 7, "a prefix is indexed among prefixes");
    }
}
