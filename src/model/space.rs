//! Bounded heap spaces: every tuple, the sorted tuples, or every multiset of a bounded
//! total; their limits, position counts and the mixed-radix index of tuples.

use crate::model::canonical::{multisets, sorted_count};
use crate::model::error::{ModelError, Result};
use crate::model::multiset::MultisetSpace;

/// The positions one run labels: every tuple `(h1, …, hn)` of heaps of at most `M`
/// stones, only the sorted ones, or every multiset of non-empty heaps of total at most
/// `T` (the positions of games that split heaps).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Space {
    /// `n` heaps of at most `M` stones: every tuple, or the sorted tuples only.
    Tuples(TupleSpace),
    /// Every multiset of non-empty heaps whose sizes sum to at most `T`.
    Multisets(MultisetSpace),
}

impl Space {
    /// Every tuple of `heaps` heaps of at most `max` stones.
    ///
    /// # Errors
    /// As [`TupleSpace::new`].
    pub fn new(heaps: usize, max: u32) -> Result<Space> {
        TupleSpace::new(heaps, max).map(Space::Tuples)
    }

    /// The tuples of `mode` (every tuple, or sorted tuples only) of `heaps` heaps of at
    /// most `max` stones.
    ///
    /// # Errors
    /// As [`TupleSpace::in_mode`].
    pub fn in_mode(heaps: usize, max: u32, mode: Mode) -> Result<Space> {
        TupleSpace::in_mode(heaps, max, mode).map(Space::Tuples)
    }

    /// Every multiset of non-empty heaps of total at most `total`.
    ///
    /// # Errors
    /// As [`MultisetSpace::new`].
    pub fn multisets(total: u64) -> Result<Space> {
        MultisetSpace::new(total).map(Space::Multisets)
    }

    /// The most heaps a position holds: `n` for tuples, `T` for multisets (`T` heaps of
    /// one stone).
    pub fn heaps(&self) -> usize {
        match self {
            Space::Tuples(tuples) => tuples.heaps(),
            Space::Multisets(multisets) => multisets.total() as usize,
        }
    }

    /// The largest heap: `M` for tuples, `T` for multisets (one heap holding the total).
    pub fn max(&self) -> u32 {
        match self {
            Space::Tuples(tuples) => tuples.max(),
            Space::Multisets(multisets) => multisets.total(),
        }
    }

    /// The largest total of a position: `n * M` for tuples, `T` for multisets.
    pub fn total(&self) -> u64 {
        match self {
            Space::Tuples(tuples) => tuples.heaps() as u64 * u64::from(tuples.max()),
            Space::Multisets(multisets) => u64::from(multisets.total()),
        }
    }

    /// The positions labelled: `(M+1)^n` tuples, `C(M+n, n)` sorted tuples, or the
    /// multisets (the empty one included).
    pub fn positions(&self) -> u64 {
        match self {
            Space::Tuples(tuples) => tuples.positions(),
            Space::Multisets(multisets) => multisets.positions(),
        }
    }

    /// The tuple space, if this is one.
    pub fn as_tuples(&self) -> Option<TupleSpace> {
        match self {
            Space::Tuples(tuples) => Some(*tuples),
            Space::Multisets(_) => None,
        }
    }

    /// The multiset space, if this is one.
    pub fn as_multisets(&self) -> Option<&MultisetSpace> {
        match self {
            Space::Multisets(multisets) => Some(multisets),
            Space::Tuples(_) => None,
        }
    }

    /// Every position in index order: tuples lexicographically (sorted tuples only in
    /// canonical mode), multisets by rank (as non-increasing heaps).
    pub fn iter(&self) -> Box<dyn Iterator<Item = Vec<u32>> + '_> {
        match self {
            Space::Tuples(tuples) => Box::new(tuples.iter()),
            Space::Multisets(multisets) => Box::new(multisets.iter()),
        }
    }
}

impl From<TupleSpace> for Space {
    fn from(tuples: TupleSpace) -> Space {
        Space::Tuples(tuples)
    }
}

impl From<MultisetSpace> for Space {
    fn from(multisets: MultisetSpace) -> Space {
        Space::Multisets(multisets)
    }
}

/// The largest number of heaps a space may have.
pub const MAX_HEAPS: usize = 64;

/// The largest heap size nimtab handles (2^22 - 1). Any exhaustive space of more than one
/// heap is far smaller; the limit keeps per-size tables (Grundy values, rankers, move
/// graphs) bounded before any memory check.
pub const MAX_HEAP_SIZE: u32 = (1 << 22) - 1;

/// Refuses a heap size above [`MAX_HEAP_SIZE`].
///
/// # Errors
/// [`ModelError::HeapTooLarge`] naming the size.
pub fn validate_max(max: u64) -> Result<u32> {
    if max > u64::from(MAX_HEAP_SIZE) {
        return Err(ModelError::HeapTooLarge { max, limit: MAX_HEAP_SIZE });
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
    /// Whether only sorted tuples are labelled.
    pub fn is_canonical(self) -> bool {
        self == Mode::Canonical
    }
}

/// The positions of `n` heaps of at most `max` stones that one run labels: every tuple
/// `(h1, …, hn)` with `0 <= hi <= max`, or only the sorted ones.
///
/// A space is refused when the count of *its* positions does not fit an index: 40 heaps of
/// at most 3 stones are 4^40 tuples, beyond any table, but only 12 341 sorted tuples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TupleSpace {
    heaps: usize,
    max: u32,
    mode: Mode,
}

/// The largest count of positions a space may have: indices are `u64`, and a count this
/// size keeps every sum of indices and counts below overflow.
const MAX_POSITIONS: u64 = u64::MAX / 2;

/// How a space's positions were counted, as the refusal of a space beyond any index says.
fn counted(mode: Mode, count: &str) -> String {
    match mode {
        Mode::Full => format!("is (max+1)^heaps = {count} positions"),
        Mode::Canonical => format!("has C(max+heaps, heaps) = {count} sorted positions"),
    }
}

impl TupleSpace {
    /// Every tuple of `heaps` heaps of at most `max` stones.
    ///
    /// # Errors
    /// [`ModelError::NoHeaps`], [`ModelError::TooManyHeaps`], [`ModelError::HeapTooLarge`],
    /// or [`ModelError::SpaceOverflow`] when `(max+1)^heaps` overflows any index.
    pub fn new(heaps: usize, max: u32) -> Result<TupleSpace> {
        TupleSpace::in_mode(heaps, max, Mode::Full)
    }

    /// The positions of `mode` (every tuple, or sorted tuples only) of `heaps` heaps of at
    /// most `max` stones.
    ///
    /// # Errors
    /// [`ModelError::NoHeaps`], [`ModelError::TooManyHeaps`], [`ModelError::HeapTooLarge`],
    /// or [`ModelError::SpaceOverflow`] when the count of those positions overflows any index.
    pub fn in_mode(heaps: usize, max: u32, mode: Mode) -> Result<TupleSpace> {
        if heaps == 0 {
            return Err(ModelError::NoHeaps);
        }
        if heaps > MAX_HEAPS {
            return Err(ModelError::TooManyHeaps { heaps, limit: MAX_HEAPS });
        }
        validate_max(u64::from(max))?;
        let count = match mode {
            Mode::Full => tuple_count(heaps, max),
            Mode::Canonical => sorted_count(heaps, max),
        };
        match count {
            Some(n) if n <= u128::from(MAX_POSITIONS) => Ok(TupleSpace { heaps, max, mode }),
            _ => Err(ModelError::SpaceOverflow {
                heaps,
                max,
                counted: counted(mode, &count_text(count)),
            }),
        }
    }

    /// Number of heaps `n`.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// Largest heap size `M`.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// Every tuple, or sorted tuples only.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The radix `M + 1`: values per heap.
    pub fn radix(&self) -> u64 {
        u64::from(self.max) + 1
    }

    /// The positions labelled: `(M+1)^n` tuples, or `C(M+n, n)` sorted tuples.
    pub fn positions(&self) -> u64 {
        match self.mode {
            Mode::Full => self.tuples().unwrap_or(u64::MAX),
            Mode::Canonical => self.canonical_positions(),
        }
    }

    /// `(M+1)^n`, every tuple, if that count fits an index (always, in full mode).
    pub fn tuples(&self) -> Option<u64> {
        tuple_count(self.heaps, self.max)
            .filter(|&n| n <= u128::from(MAX_POSITIONS))
            .map(|n| n as u64)
    }

    /// `C(M+n, n)`, the number of sorted tuples (never more than the tuples).
    pub fn canonical_positions(&self) -> u64 {
        multisets(self.max, self.heaps)
    }

    /// The mixed-radix index of a tuple of any length (h1 is the most significant digit).
    /// A prefix of `k` heaps gets the index of its row among the `(M+1)^k` prefixes. Only
    /// full mode indexes this way (its count fits; sorted tuples are ranked instead).
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

/// `(max+1)^heaps`, or `None` beyond `u128`.
pub fn tuple_count(heaps: usize, max: u32) -> Option<u128> {
    let heaps = u32::try_from(heaps).ok()?;
    (u128::from(max) + 1).checked_pow(heaps)
}

/// A position count for a message: exact, or "2^128 or more" beyond `u128`.
fn count_text(count: Option<u128>) -> String {
    count.map_or_else(|| "2^128 or more".to_string(), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_heaps_and_huge_sizes_are_refused_by_value() {
        assert_eq!(
            TupleSpace::new(0, 3).unwrap_err().to_string(),
            "a space needs at least one heap, got 0"
        );
        let huge = TupleSpace::new(1, MAX_HEAP_SIZE + 1).unwrap_err().to_string();
        assert_eq!(huge, "heap size 4194304 is above the largest heap size, 4194303");
        assert!(TupleSpace::new(40, 255).unwrap_err().to_string().contains("beyond any table"));
        let over = TupleSpace::new(64, MAX_HEAP_SIZE).unwrap_err().to_string();
        assert!(over.contains("2^128 or more"), "{over}");
    }

    #[test]
    fn a_sorted_space_is_judged_by_its_sorted_count() {
        assert!(TupleSpace::new(40, 3).is_err());
        let sorted = TupleSpace::in_mode(40, 3, Mode::Canonical).unwrap();
        assert_eq!(sorted.positions(), 12_341);
        assert_eq!(sorted.tuples(), None);
        let over = TupleSpace::in_mode(64, 255, Mode::Canonical).unwrap_err().to_string();
        assert!(over.contains("sorted positions, beyond any table"), "{over}");
    }

    #[test]
    fn index_and_tuple_are_inverse() {
        let space = TupleSpace::new(3, 4).unwrap();
        for index in 0..space.positions() {
            assert_eq!(space.index(&space.tuple(index)), index);
        }
        assert_eq!(space.index(&[1, 2]), 7, "a prefix is indexed among prefixes");
    }
}
