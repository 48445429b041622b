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
//! Only full-mode rows of whole words (`M + 1` a multiple of 64) share no word: those
//! tables stay plain words, read with vector code.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::engine::bits;
use crate::engine::tuples::shared_rows::{prefetch, SharedRows};

/// A label table shared by the tasks of a labelling (empty when neither kept nor needed).
pub(crate) enum LabelTable<'a> {
    /// Full mode with `M + 1` a multiple of 64: every row is whole words, no word holds two
    /// rows, so the rows are shared as the accumulators are (`tuples/shared_rows.rs`) and read
    /// by vector code; the packing is the same.
    Words(SharedRows<'a>),
    /// Rows that may share words: atomics.
    Packed {
        words: &'a [AtomicU64],
        /// Columns of a full row: `M + 1`.
        radix: usize,
    },
}

impl LabelTable<'_> {
    /// Whether the table has no positions (no table is kept or needed).
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            LabelTable::Words(rows) => rows.is_empty(),
            LabelTable::Packed { words, .. } => words.is_empty(),
        }
    }

    /// ORs columns `from..=M` of the row starting at `start` into `dst` (a row buffer).
    #[inline(always)]
    pub(crate) fn or_into(&self, start: usize, from: usize, dst: &mut [u64]) {
        match *self {
            // Whole-word rows are full-mode rows: `from` is 0, and `start` a multiple of 64.
            LabelTable::Words(ref rows) => {
                debug_assert!(
                    from == 0 && start.is_multiple_of(64),
                    "a full-mode row from column 0"
                );
                bits::or_into(dst, rows.row_at(start / 64));
            }
            LabelTable::Packed { words, radix } => {
                for_each_row_word(words, start, from, radix, |i, word| dst[i] |= word);
            }
        }
    }

    /// ORs columns `from..=M` of every row starting at one of `starts` into `dst`.
    #[inline]
    pub(crate) fn or_rows_into(&self, starts: &[usize], from: usize, dst: &mut [u64]) {
        match *self {
            LabelTable::Words(ref rows) => {
                debug_assert!(from == 0, "full-mode rows from column 0");
                // Gathered a group of rows at a time, so that `dst` is stored once a group.
                const GROUP: usize = 16;
                let mut group: [&[u64]; GROUP] = [&[]; GROUP];
                for starts in starts.chunks(GROUP) {
                    for (row, &start) in group.iter_mut().zip(starts) {
                        *row = rows.row_at(start / 64);
                    }
                    bits::or_many_into(dst, &group[..starts.len()]);
                }
            }
            LabelTable::Packed { .. } => {
                for &start in starts {
                    self.or_into(start, from, dst);
                }
            }
        }
    }

    /// Copies columns `0..=M` of the full-mode row starting at `start` into `dst`.
    #[inline]
    pub(crate) fn read(&self, start: usize, dst: &mut [u64]) {
        match *self {
            LabelTable::Words(ref rows) => dst.copy_from_slice(rows.row_at(start / 64)),
            // Every word of the row is put, from column 0.
            LabelTable::Packed { words, radix } => {
                for_each_row_word(words, start, 0, radix, |i, word| dst[i] = word);
            }
        }
    }

    /// The label of position `index`.
    #[inline]
    pub(crate) fn bit(&self, index: usize) -> bool {
        match *self {
            LabelTable::Words(ref rows) => {
                // Rows of whole words: position `index` is bit `index` of the words.
                let (q, w) = (index / 64, rows.words_per_row());
                rows.row_at(q - q % w)[q % w] >> (index % 64) & 1 == 1
            }
            LabelTable::Packed { words, .. } => {
                words[index / 64].load(Relaxed) >> (index % 64) & 1 == 1
            }
        }
    }

    /// Asks the processor to start loading the row starting at `start` (columns from
    /// `from`) into the cache; only a hint. The first and the last cache line are asked
    /// for: the hardware streams the lines between them.
    #[inline]
    pub(crate) fn prefetch(&self, start: usize, from: usize) {
        match *self {
            LabelTable::Words(ref rows) => {
                let row = rows.row_at(start / 64);
                prefetch(&row[0]);
                if row.len() > 8 {
                    prefetch(&row[row.len() - 1]);
                }
            }
            LabelTable::Packed { words, radix } => {
                let (first, last) = ((start + from) / 64, (start + radix - 1) / 64);
                prefetch(&words[first]);
                if last / 8 != first / 8 {
                    prefetch(&words[last]);
                }
            }
        }
    }

    /// Sets the label of position `index`, whose bit is still zero (in a row the caller
    /// owns, as [`LabelTable::store`]).
    #[inline]
    pub(crate) fn set(&self, index: usize) {
        match *self {
            LabelTable::Words(ref rows) => {
                let radix = 64 * rows.words_per_row();
                rows.set_bit(index / radix, index % radix);
            }
            LabelTable::Packed { words, .. } => {
                words[index / 64].fetch_or(1 << (index % 64), Relaxed);
            }
        }
    }

    /// Writes columns `lo..=M` of `src` (a row buffer) as the row starting at `start`,
    /// whose bits are still zero: the caller's own row, written once.
    #[inline]
    pub(crate) fn store(&self, start: usize, lo: usize, src: &[u64]) {
        match *self {
            LabelTable::Words(ref rows) => {
                debug_assert!(lo == 0 && start.is_multiple_of(64), "a full-mode row from column 0");
                rows.store_at(start / 64, src);
            }
            LabelTable::Packed { words, radix } => store_packed(words, radix, start, lo, src),
        }
    }
}

/// [`LabelTable::store`] into packed rows.
#[inline]
fn store_packed(words: &[AtomicU64], radix: usize, start: usize, lo: usize, src: &[u64]) {
    let (begin, end) = (start + lo, start + radix);
    if begin >= end {
        return;
    }
    let (first, last) = (begin / 64, (end - 1) / 64);
    assert!(last < words.len(), "row starting at {start} outside the table");
    // Table word `q` holds the row's columns from `64 q - start`: the low bits of row
    // word `i = q - start / 64` and the high bits of row word `i - 1`.
    let (base, s) = (start / 64, start % 64);
    let row_word = |i: usize| src.get(i).copied().unwrap_or(0);
    for (q, table_word) in words.iter().enumerate().take(last + 1).skip(first) {
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
        // The row's bits are still zero: a word of zeros changes nothing (sparse rows, such
        // as the boxes of sorted multi-heap rows, are mostly zeros).
        if whole && word != 0 {
            table_word.store(word, Relaxed);
        } else if !whole && word & mask != 0 {
            table_word.fetch_or(word & mask, Relaxed);
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

/// Words for a table of `positions` bits.
pub(crate) fn words_for(positions: u64) -> u64 {
    positions.div_ceil(64)
}

/// The words of one label table, as allocated for a labelling.
pub(crate) enum TableWords {
    /// Rows of whole words (see [`LabelTable::Words`]).
    Plain(Vec<u64>),
    Atomic(Vec<AtomicU64>),
}

impl TableWords {
    /// The table shared for a labelling, in rows of `radix` columns.
    pub(crate) fn share(&mut self, radix: usize) -> LabelTable<'_> {
        match self {
            TableWords::Plain(words) => LabelTable::Words(SharedRows::new(words, radix / 64)),
            TableWords::Atomic(words) => LabelTable::Packed { words, radix },
        }
    }

    /// Zeroes every word, for another labelling run.
    pub(crate) fn clear(&mut self) {
        match self {
            TableWords::Plain(words) => words.fill(0),
            TableWords::Atomic(words) => words.iter_mut().for_each(|w| *w.get_mut() = 0),
        }
    }

    /// Calls `f(i, word)` on every word of the finished table in order (the labelling is over:
    /// atomic words are read as the plain words they are).
    #[inline]
    pub(crate) fn for_each_word(&mut self, mut f: impl FnMut(usize, u64)) {
        match self {
            TableWords::Plain(words) => words.iter().enumerate().for_each(|(i, &w)| f(i, w)),
            TableWords::Atomic(words) => {
                words.iter_mut().enumerate().for_each(|(i, w)| f(i, *w.get_mut()))
            }
        }
    }

    /// The words of the finished table (in place: an atomic word is a plain one).
    pub(crate) fn into_words(self) -> Vec<u64> {
        match self {
            TableWords::Plain(words) => words,
            TableWords::Atomic(words) => words.into_iter().map(AtomicU64::into_inner).collect(),
        }
    }
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
                    let t = LabelTable::Packed { words: &words, radix };
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
    fn rows_stored_in_parallel_equal_rows_stored_one_by_one() {
        use rayon::prelude::*;
        for radix in [1usize, 3, 7, 10, 65] {
            let rows = 4000;
            let pattern = |r: usize, c: usize| (r * 31 + c * 17) % 5 < 2;
            let build = |parallel: bool| {
                let words = table((rows * radix).div_ceil(64));
                let t = LabelTable::Packed { words: &words, radix };
                let store = |r: usize| t.store(r * radix, 0, &row(radix, |c| pattern(r, c)));
                if parallel {
                    // Odd rows while even rows are read: every shared word is written by
                    // two tasks and read by others at once.
                    (0..rows).into_par_iter().filter(|r| r % 2 == 0).for_each(store);
                    (0..rows).into_par_iter().for_each(|r| {
                        if r % 2 == 1 {
                            store(r);
                        } else {
                            let mut back = vec![0u64; radix.div_ceil(64)];
                            t.or_into(r * radix, 0, &mut back);
                            assert_eq!(back, row(radix, |c| pattern(r, c)));
                        }
                    });
                } else {
                    (0..rows).for_each(store);
                }
                into_words(words)
            };
            assert_eq!(build(true), build(false), "radix {radix}");
        }
    }

    fn into_words(words: Vec<AtomicU64>) -> Vec<u64> {
        TableWords::Atomic(words).into_words()
    }

    #[test]
    fn a_whole_word_table_reads_its_rows_and_bits() {
        let mut words = TableWords::Plain(vec![0u64; 6]);
        let t = words.share(128);
        let src = row(128, |c| c % 3 == 0);
        t.store(128, 0, &src);
        let mut back = vec![0u64; 2];
        t.read(128, &mut back);
        assert_eq!(back, src);
        assert!((0..128).all(|c| t.bit(128 + c) == (c % 3 == 0)));
        assert!((0..128).all(|c| !t.bit(c) && !t.bit(256 + c)));
    }

    #[test]
    fn neighbouring_rows_keep_each_others_bits() {
        let radix = 10;
        let words = table(4);
        let t = LabelTable::Packed { words: &words, radix };
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
