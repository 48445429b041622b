//! Word-level helpers over rows of bits (bit `h` of a row is column `h`).

/// `dst |= src`, word by word.
#[inline]
pub(crate) fn or_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d |= *s;
    }
}

/// The first set bit, if any.
#[inline]
pub(crate) fn first_set(words: &[u64]) -> Option<usize> {
    words.iter().position(|&w| w != 0).map(|i| i * 64 + words[i].trailing_zeros() as usize)
}

/// Bit `column` of a row.
#[inline]
pub(crate) fn bit(words: &[u64], column: usize) -> bool {
    words[column / 64] >> (column % 64) & 1 == 1
}

/// Sets bit `column` of a row.
#[inline]
pub(crate) fn set_bit(words: &mut [u64], column: usize) {
    words[column / 64] |= 1 << (column % 64);
}

/// Clears the bits below `lo`.
pub(crate) fn clear_below(row: &mut [u64], lo: usize) {
    for (i, word) in row.iter_mut().enumerate() {
        let start = i * 64;
        if start + 64 <= lo {
            *word = 0;
        } else if start < lo {
            *word &= !0u64 << (lo - start);
        }
    }
}

/// Bits of word `i` that are columns `lo..r`.
#[inline]
pub(crate) fn valid_columns(i: usize, lo: usize, r: usize) -> u64 {
    let start = i * 64;
    let mut mask = !0u64;
    if lo > start {
        mask = if lo - start >= 64 { 0 } else { mask << (lo - start) };
    }
    if r < start + 64 {
        mask &= if r <= start { 0 } else { !0u64 >> (start + 64 - r) };
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_columns_cover_exactly_the_row_columns() {
        assert_eq!(valid_columns(0, 0, 64), !0);
        assert_eq!(valid_columns(0, 3, 64), !0 << 3);
        assert_eq!(valid_columns(0, 0, 5), 0b11111);
        assert_eq!(valid_columns(1, 70, 100), (!0u64 << 6) & (!0u64 >> 28));
        assert_eq!(valid_columns(0, 64, 128), 0);
    }

    #[test]
    fn clear_below_keeps_the_columns_from_lo() {
        let mut row = [!0u64, !0u64];
        clear_below(&mut row, 70);
        assert_eq!(row, [0, !0u64 << 6]);
        assert_eq!(first_set(&row), Some(70));
    }
}
