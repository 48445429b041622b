//! Sets of monoid elements as bit sets of whole words, stored end to end in arenas.

/// Words in a set of `size` elements.
pub(crate) fn words_for(size: usize) -> usize {
    size.div_ceil(64)
}

/// Adds element `x`.
#[inline]
pub(crate) fn insert(set: &mut [u64], x: u32) {
    set[x as usize / 64] |= 1 << (x % 64);
}

/// Whether `x` is in the set.
#[inline]
pub(crate) fn contains(set: &[u64], x: u32) -> bool {
    set[x as usize / 64] >> (x % 64) & 1 == 1
}

/// Whether `small` is a subset of `large`.
#[inline]
pub(crate) fn is_subset(small: &[u64], large: &[u64]) -> bool {
    small.iter().zip(large).all(|(s, l)| s & !l == 0)
}

/// Whether the sets meet.
#[inline]
pub(crate) fn meets(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// The elements of the set, ascending.
pub(crate) fn elements(set: &[u64]) -> impl Iterator<Item = u32> + '_ {
    set.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let bit = w.trailing_zeros();
            w &= w - 1;
            Some(i as u32 * 64 + bit)
        })
    })
}

/// A bit set of `size` elements holding those of `flags` that are true.
pub(crate) fn from_flags(flags: &[bool]) -> Vec<u64> {
    let mut set = vec![0; words_for(flags.len())];
    for (x, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
        insert(&mut set, x as u32);
    }
    set
}
