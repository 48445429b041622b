//! Bit-packed label tables: bit `i` is the label of position `i`, rows packed end to end.
//!
//! A row of positions `(prefix, lo..=M)` occupies the bits from the index of its first
//! position on, with no padding, so a table costs one bit per position whatever `M` is.
//! A row is addressed by its *start*: the index of its first position minus its first
//! column, so that column `c` of the row is bit `start + c` (full mode: `row * (M + 1)`).
//!
//! Rows that share a word can belong to one layer, and tasks of a layer write their rows
//! while others read theirs, so every word is an atomic accessed with relaxed ordering:
//! there are no data races whatever the layout, and the layer driver's joins order each
//! layer's writes before the next layer's reads. A row is written once per run, into
//! zeroed bits, by the one task that labels it: words wholly inside the row are stored,
//! and the partial words at its ends are OR-ed in, leaving the neighbours' bits alone.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A label table shared by the tasks of a pass (empty when neither kept nor needed).
#[derive(Clone, Copy)]
pub(crate) struct LabelTable<'a> {
    words: &'a [AtomicU64],
    /// Columns of a full row: `M + 1`.
    radix: usize,
}

impl<'a> LabelTable<'a> {
    pub(crate) fn new(words: &'a [AtomicU64], radix: usize) -> LabelTable<'a> {
        LabelTable { words, radix }
    }

    /// Whether the table has no positions (no table is kept or needed).
    pub(crate) fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// ORs columns `from..=M` of the row starting at `start` into `dst` (a row buffer).
    #[inline(always)]
    pub(crate) fn or_into(&self, start: usize, from: usize, dst: &mut [u64]) {
        for_each_row_word(self.words, start, from, self.radix, |i, word| dst[i] |= word);
    }

    /// Copies columns `0..=M` of the full-mode row starting at `start` into `dst`.
    #[inline]
    pub(crate) fn read(&self, start: usize, dst: &mut [u64]) {
        dst.fill(0);
        self.or_into(start, 0, dst);
    }

    /// The label of position `index`.
    #[inline]
    pub(crate) fn bit(&self, index: usize) -> bool {
        self.words[index / 64].load(Relaxed) >> (index % 64) & 1 == 1
    }

    /// Asks the processor to start loading the row starting at `start` (columns from
    /// `from`) into the cache; only a hint. The first and the last cache line are asked
    /// for: the hardware streams the lines between them.
    #[inline]
    pub(crate) fn prefetch(&self, start: usize, from: usize) {
        let (first, last) = ((start + from) / 64, (start + self.radix - 1) / 64);
        crate::engine::shared_rows::prefetch(&self.words[first]);
        if last / 8 != first / 8 {
            crate::engine::shared_rows::prefetch(&self.words[last]);
        }
    }

    /// Writes columns `lo..=M` of `src` (a row buffer) as the row starting at `start`,
    /// whose bits are still zero: the caller's own row, written once.
    #[inline]
    pub(crate) fn store(&self, start: usize, lo: usize, src: &[u64]) {
        let (begin, end) = (start + lo, start + self.radix);
        if begin >= end {
            return;
        }
        let (first, last) = (begin / 64, (end - 1) / 64);
        // Table word `q` holds the row's columns from `64 q - start`: the low bits of row
        // word `i = q - start / 64` and the high bits of row word `i - 1`.
        let (base, s) = (start / 64, start % 64);
        let row_word = |i: usize| src.get(i).copied().unwrap_or(0);
        for q in first..=last {
            let i = q - base;
            let mut word = row_word(i) << s;
            if s > 0 && i > 0 {
                word |= row_word(i - 1) >> (64 - s);
            }
            // Only the row's own bits, columns `lo..=M`: a word shared with a neighbouring
            // row is OR-ed in, one wholly the row's is stored.
            let (mut whole, mut mask) = (true, !0u64);
            if q == first && begin % 64 != 0 {
                (whole, mask) = (false, mask & !0u64 << (begin % 64));
            }
            if q == last && end % 64 != 0 {
                (whole, mask) = (false, mask & ((1u64 << (end % 64)) - 1));
            }
            if whole {
                self.words[q].store(word, Relaxed);
            } else if word & mask != 0 {
                self.words[q].fetch_or(word & mask, Relaxed);
            }
        }
    }
}

/// A word of a packed table: plain (a finished table, only read) or atomic (a table its
/// pass is writing).
pub(crate) trait TableWord {
    fn value(&self) -> u64;
}

impl TableWord for u64 {
    #[inline(always)]
    fn value(&self) -> u64 {
        *self
    }
}

impl TableWord for AtomicU64 {
    #[inline(always)]
    fn value(&self) -> u64 {
        self.load(Relaxed)
    }
}

/// Calls `put(i, word)` for every word `i` of a row buffer holding columns `from..radix`
/// of the row starting at bit `start` of `table` (columns outside the range are 0 in
/// `word`); only the table words holding the row's bits are read.
#[inline(always)]
pub(crate) fn for_each_row_word<W: TableWord>(
    table: &[W],
    start: usize,
    from: usize,
    radix: usize,
    mut put: impl FnMut(usize, u64),
) {
    if from >= radix {
        return;
    }
    let (base, s) = (start / 64, start % 64);
    let (first, words) = (from / 64, radix.div_ceil(64));
    let (low_mask, top_mask) = (!0u64 << (from % 64), !0u64 >> (words * 64 - radix));
    // The table words holding columns `64 * first..radix` of the row.
    let span = &table[base + first..=(start + radix - 1) / 64];
    let mask = |i: usize, word: u64| {
        let word = if i == first { word & low_mask } else { word };
        if i + 1 == words {
            word & top_mask
        } else {
            word
        }
    };
    if s == 0 && low_mask & top_mask == !0 {
        // Whole words, as in a table whose rows are whole words.
        for (i, word) in (first..words).zip(span) {
            put(i, word.value());
        }
        return;
    }
    if s == 0 {
        for (i, word) in (first..words).zip(span) {
            put(i, mask(i, word.value()));
        }
        return;
    }
    // Row word `i` holds table bits `start + 64 i ..`: the high bits of one table word
    // and the low bits of the next, which is loaded once for both.
    let mut low = span[0].value();
    for (i, j) in (first..words).zip(1..) {
        let high = span.get(j).map_or(0, W::value);
        put(i, mask(i, low >> s | high << (64 - s)));
        low = high;
    }
}

/// Zeroed words for a table of `positions` bits.
pub(crate) fn words_for(positions: u64) -> u64 {
    positions.div_ceil(64)
}

/// Takes the words of a finished table out of their atomics.
pub(crate) fn into_words(words: Vec<AtomicU64>) -> Vec<u64> {
    words.into_iter().map(AtomicU64::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(words: usize) -> Vec<AtomicU64> {
        (0..words).map(|_| AtomicU64::new(0)).collect()
    }

    /// A row of `radix` columns with bit `c` set when `pattern(c)`.
    fn row(radix: usize, pattern: impl Fn(usize) -> bool) -> Vec<u64> {
        let mut words = vec![0u64; radix.div_ceil(64)];
        (0..radix).filter(|&c| pattern(c)).for_each(|c| words[c / 64] |= 1 << (c % 64));
        words
    }

    #[test]
    fn packed_rows_round_trip_at_every_offset_and_first_column() {
        for radix in [1, 7, 10, 63, 64, 65, 130, 200] {
            for start in [0, 1, 5, 63, 64, 100, 191] {
                for lo in [0, 1, radix / 2, radix - 1] {
                    let words = table(8);
                    let t = LabelTable::new(&words, radix);
                    let src = row(radix, |c| c >= lo && (c * 7 + start) % 3 != 0);
                    t.store(start, lo, &src);
                    let mut back = vec![0u64; radix.div_ceil(64)];
                    t.or_into(start, lo, &mut back);
                    assert_eq!(back, src, "radix {radix} start {start} lo {lo}");
                    for c in 0..radix {
                        assert_eq!(t.bit(start + c), c >= lo && (c * 7 + start) % 3 != 0);
                    }
                    let outside = (0..512).filter(|&b| b < start + lo || b >= start + radix);
                    assert!(outside.clone().all(|b| !t.bit(b)), "bits outside the row set");
                }
            }
        }
    }

    #[test]
    fn neighbouring_rows_keep_each_others_bits() {
        let radix = 10;
        let words = table(4);
        let t = LabelTable::new(&words, radix);
        let all = row(radix, |_| true);
        for r in [3, 1, 0, 2, 5, 4] {
            t.store(r * radix, 0, &all);
        }
        assert!((0..6 * radix).all(|b| t.bit(b)));
        assert!(!t.bit(6 * radix));
        let mut back = vec![0u64; 1];
        t.read(2 * radix, &mut back);
        assert_eq!(back, all);
    }
}
