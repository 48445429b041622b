//! Word-level helpers over rows of bits (bit `h` of a row is column `h`).

/// `dst |= src`, word by word.
#[inline]
pub(crate) fn or_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d |= *s;
    }
}

/// `dst |= src` for every row of `srcs` (each at least as long as `dst`). Eight words
/// of `dst` at a time are gathered in registers over all the rows and stored once,
/// instead of a load, OR and store of `dst` per row.
pub(crate) fn or_many_into(dst: &mut [u64], srcs: &[&[u64]]) {
    const CHUNK: usize = 8;
    let whole = dst.len() / CHUNK * CHUNK;
    let (head, tail) = dst.split_at_mut(whole);
    for (c, chunk) in head.chunks_exact_mut(CHUNK).enumerate() {
        let mut acc = [0u64; CHUNK];
        for src in srcs {
            let part: &[u64; CHUNK] =
                src[c * CHUNK..(c + 1) * CHUNK].try_into().expect("a chunk of eight words");
            for (a, &s) in acc.iter_mut().zip(part) {
                *a |= s;
            }
        }
        for (d, a) in chunk.iter_mut().zip(acc) {
            *d |= a;
        }
    }
    for src in srcs {
        or_into(tail, &src[whole..]);
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

/// A row mask with bit `h` set where `sizes[h]`.
pub(crate) fn mask_of(sizes: &[bool], words: usize) -> Vec<u64> {
    let mut mask = vec![0u64; words];
    for (h, _) in sizes.iter().enumerate().filter(|(_, &set)| set) {
        set_bit(&mut mask, h);
    }
    mask
}

/// Sets every bit of `row` at or above the first set bit of `below` (the columns that
/// reach some set column of `below` by lowering the last heap any amount, 0 included).
pub(crate) fn block_at_or_above_first(row: &mut [u64], below: &[u64]) {
    let Some(first) = first_set(below) else { return };
    let (word, bit) = (first / 64, first % 64);
    row[word] |= !0u64 << bit;
    for w in &mut row[word + 1..] {
        *w = !0;
    }
}

/// `dst |= src` shifted up by `k` columns (bit `c` of `src` lands on column `c + k`).
pub(crate) fn or_shifted_into(dst: &mut [u64], src: &[u64], k: usize) {
    let (words, bits) = (k / 64, k % 64);
    for i in (words..dst.len()).rev() {
        let j = i - words;
        let mut value = src[j] << bits;
        if bits > 0 && j > 0 {
            value |= src[j - 1] >> (64 - bits);
        }
        dst[i] |= value;
    }
}

/// Shifts a row up by one column in place (the top column falls off).
pub(crate) fn shift_up_one(row: &mut [u64]) {
    for i in (0..row.len()).rev() {
        let carry = if i > 0 { row[i - 1] >> 63 } else { 0 };
        row[i] = row[i] << 1 | carry;
    }
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

/// Transposes a 64 × 64 bit matrix in place: bit `c` of word `b` becomes bit `b` of word
/// `c` (recursive block swaps: halves, quarters, ... single bits).
pub(crate) fn transpose64(a: &mut [u64; 64]) {
    swap_blocks::<32>(a, 0x0000_0000_FFFF_FFFF);
    swap_blocks::<16>(a, 0x0000_FFFF_0000_FFFF);
    swap_blocks::<8>(a, 0x00FF_00FF_00FF_00FF);
    swap_blocks::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
    swap_blocks::<2>(a, 0x3333_3333_3333_3333);
    swap_blocks::<1>(a, 0x5555_5555_5555_5555);
}

/// One round of [`transpose64`]: in every block of `2 J` words, swaps the upper `J`-bit
/// halves (within each `2 J`-bit group) of the first `J` words with the lower halves of
/// the next `J`. `J` is a constant so that the loops unroll with no bounds checks.
#[inline(always)]
fn swap_blocks<const J: usize>(a: &mut [u64; 64], lower: u64) {
    for block in a.chunks_exact_mut(2 * J) {
        let (low, high) = block.split_at_mut(J);
        for (x, y) in low.iter_mut().zip(high) {
            let t = ((*x >> J) ^ *y) & lower;
            *x ^= t << J;
            *y ^= t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose64_moves_every_bit_across_the_diagonal() {
        let mut rng = crate::random::SplitMix64::new(11);
        let original: [u64; 64] = std::array::from_fn(|_| rng.next_u64());
        let mut a = original;
        transpose64(&mut a);
        for (b, &word) in original.iter().enumerate() {
            for (c, column) in a.iter().enumerate() {
                assert_eq!(column >> b & 1, word >> c & 1, "bit {c} of word {b}");
            }
        }
    }

    #[test]
    fn or_many_into_is_the_or_of_every_row() {
        let mut rng = crate::random::SplitMix64::new(5);
        for words in [1, 7, 8, 16, 19] {
            let rows: Vec<Vec<u64>> = (0..11)
                .map(|_| (0..words).map(|_| rng.next_u64() & rng.next_u64()).collect())
                .collect();
            for count in [0, 1, 5, 11] {
                let srcs: Vec<&[u64]> = rows[..count].iter().map(|r| &r[..]).collect();
                let start: Vec<u64> = (0..words).map(|_| rng.next_u64() & rng.next_u64()).collect();
                let (mut many, mut one) = (start.clone(), start);
                or_many_into(&mut many, &srcs);
                for src in &srcs {
                    or_into(&mut one, src);
                }
                assert_eq!(many, one, "{words} words, {count} rows");
            }
        }
    }

    #[test]
    fn valid_columns_cover_exactly_the_row_columns() {
        assert_eq!(valid_columns(0, 0, 64), !0);
        assert_eq!(valid_columns(0, 3, 64), !0 << 3);
        assert_eq!(valid_columns(0, 0, 5), 0b11111);
        assert_eq!(valid_columns(1, 70, 100), (!0u64 << 6) & (!0u64 >> 28));
        assert_eq!(valid_columns(0, 64, 128), 0);
    }

    #[test]
    fn shifts_and_blocks_cross_word_boundaries() {
        let mut dst = [0u64; 3];
        or_shifted_into(&mut dst, &[1 << 63, 1, 0], 65);
        assert_eq!(dst, [0, 0, 1 | 1 << 1]);
        let mut row = [1u64 << 63, 0];
        shift_up_one(&mut row);
        assert_eq!(row, [0, 1]);
        let mut blocked = [0u64, 0];
        block_at_or_above_first(&mut blocked, &[0, 1 << 3]);
        assert_eq!(blocked, [0, !0u64 << 3]);
    }

    #[test]
    fn clear_below_keeps_the_columns_from_lo() {
        let mut row = [!0u64, !0u64];
        clear_below(&mut row, 70);
        assert_eq!(row, [0, !0u64 << 6]);
        assert_eq!(first_set(&row), Some(70));
    }
}
