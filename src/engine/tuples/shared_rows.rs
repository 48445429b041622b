//! The one place with `unsafe` engine code: accumulator rows that the tasks of a layer
//! share (and the cache prefetch hint).
//!
//! # Why unsynchronised sharing
//! Rows of one layer (equal prefix sum) are labelled in parallel, and each task reads
//! rows written by earlier layers and writes rows of its own. The accumulators of the
//! Nim and multi-heap line solvers are read and written word by word in the innermost
//! loops, where atomics would stop the vector code; splitting them into disjoint `&mut`
//! chunks is impossible because the rows a task writes are scattered (the accumulator
//! rows of its lines). So they are shared as a raw pointer, and the engine keeps a
//! discipline that makes every access free of data races.
//!
//! The label tables (`tuples/label_table.rs`) are packed, so neighbouring rows share words;
//! their words are atomics and need no `unsafe`. The same discipline is what makes
//! their labels right: a row is read only once it is finished.
//!
//! # The discipline (what every use in the engine upholds)
//! 1. **Between layers** the layer driver (`tuples/schedule.rs`) lets no task start layer
//!    `s + 1` before every task of layer `s` is done: its crew's threads meet at a
//!    barrier whose arrivals are acquire-release (`tuples/layer_crew.rs`), or it returns from
//!    rayon's parallel fold (a join is a synchronisation point). Either way every write of
//!    layer `s` happens before every access of layer `s + 1`.
//! 2. **Within a layer**, each row is written by at most one task, and a row written in
//!    the layer is read only by the task that writes it. The rows each solver touches:
//!    - *Table rows* (general and subtraction rows, and any kept table; in the label
//!      tables, whose words are atomics, this is what keeps reads of finished rows): a
//!      task writes the table row of the prefix it labels — its own row, unique in the
//!      layer. In
//!      full mode it reads the rows of the prefix with one heap lowered (`tuples/sources.rs`):
//!      every such prefix has a smaller sum, so it belongs to an earlier layer.
//!    - *Canonical table rows by sorted planes* (`sorted/table_planes.rs`): a task
//!      labels every row `(O, hk)` of a sorted outer prefix `O`, and layers are planes of
//!      equal outer sum. It writes its own rows, and reads the rows of `O` with one value
//!      lowered (then `hk`): plane `O - o + o'`, of smaller outer sum, an earlier layer;
//!      or of `O` and a lowered `hk` re-sorted: its own earlier row when that is at least
//!      `max(O)`, else a row of plane `O - max(O) + h`, of smaller outer sum.
//!    - *Canonical Nim accumulators* (`sorted/planes.rs`): the row of a sorted tuple `Q`
//!      (one heap fewer than a prefix) collects the P-columns of every row `Q + a`. The
//!      plane of `O` reads the row `O` once, into a local buffer, and reads and writes
//!      the rows `(O - o, hk)`. Another plane `O'` of the layer touching `(O - o, hk)` has
//!      a row `(O - o, hk) + a'` with the same outer sum: `a' = o` and so `O' = O`. The
//!      row `O` itself is written only by planes of smaller outer sum (rows `O + a` with
//!      `a < max(O)`), all earlier layers.
//!    - *Full-mode Nim planes* (`tuples/rows/nim.rs`): a plane is every row sharing the first
//!      `k - 1` prefix heaps (the outer prefix `O`), and layers are planes of equal outer
//!      sum. The plane of `O` reads and writes the accumulator rows of the lines through
//!      it: for each outer heap `i`, the line "`O` without heap `i`" at every value of the
//!      last prefix heap. Another plane `O'` of the layer touching the same line would
//!      agree with `O` on every outer heap but `i` and have the same outer sum, so
//!      `O' = O`.
//!    - *Multi-heap lines, slants and diagonals* (`tuples/rows/lines.rs`): the task labelling
//!      prefix `P` reads, shifts in place (slants) and then sets bits of the accumulator row of
//!      each line through `P`: along one prefix heap `i` (the row of `P` without `i`), or along two
//!      prefix heaps `i`, `j` lowered together (the row of `P` without `i` and `j`, and `P_i -
//!      P_j`). A prefix `P'` of the same layer on the same line is `P + t e_i` or `P + t (e_i +
//!      e_j)` with an equal sum, so `t = 0` and `P' = P`.
//!    - *Multi-heap boxes* (`tuples/rows/lines.rs`): the task labelling `P` writes the box row of
//!      `P` itself (its own, unique in the layer) and reads the box rows of `P - e_i`, whose sum is
//!      one less: earlier layers.
//!    - *Multi-heap source rows* (`tuples/rows/prefix_moves.rs`, `sorted/explicit.rs`): a task
//!      reads the table rows of the prefixes its moves reach and writes its own. A move that
//!      changes a prefix heap lowers the prefix sum: in full mode directly; on sorted tuples
//!      because the `n - 1` smallest heaps of an option never exceed those of the position, order
//!      statistic by order statistic, and are all equal only when the move changed the largest heap
//!      alone (a move in the row, which reads no table).
//!    - *Accumulators of multi-heap games on sorted tuples* (`sorted/lines.rs`): several
//!      tasks of a layer may set bits of one of them, so their whole table is used only
//!      through [`SharedRows::atomics`], never through rows: no access races.
//!    - *The pass and the Grundy rounds* add no shared access: a pass-available track
//!      reads the pass-used row from the task's own buffers, and the positions excluded
//!      from a round are a plain shared slice, only read.
//! 3. **Bounds**: every access checks its row against the table's length, in release
//!    builds too, so a wrong index is a panic, never an out-of-bounds access.
//!
//! # What the compiler proves
//! [`SharedRows`] borrows its words mutably for its lifetime `'a`, so the tables cannot be
//! read, moved into [`crate::Labels`] or freed while any pass can still reach them; and
//! it can be created only from `&'a mut [u64]`, so nothing else aliases them.

use std::marker::PhantomData;
use std::sync::atomic::AtomicU64;

/// A row-major table of words that the tasks of one layer share (see the module
/// documentation for the access discipline that makes this sound).
pub(crate) struct SharedRows<'a> {
    ptr: *mut u64,
    len: usize,
    words_per_row: usize,
    _words: PhantomData<&'a mut [u64]>,
}

// SAFETY: sending or sharing the table between the tasks of a labelling is sound under the
// discipline of the module documentation: no two tasks access a row at once unless both
// only read it, and layers are separated by rayon's joins.
unsafe impl Send for SharedRows<'_> {}
unsafe impl Sync for SharedRows<'_> {}

impl<'a> SharedRows<'a> {
    /// Shares `words` as rows of `words_per_row` words for the lifetime of the borrow.
    pub(crate) fn new(words: &'a mut [u64], words_per_row: usize) -> SharedRows<'a> {
        SharedRows { ptr: words.as_mut_ptr(), len: words.len(), words_per_row, _words: PhantomData }
    }

    /// Whether the table has no rows (no table is kept or needed).
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Words in one row.
    pub(crate) fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// Row `row`: one written in an earlier layer, or the caller's own row.
    #[inline]
    pub(crate) fn row(&self, row: usize) -> &[u64] {
        self.row_at(row * self.words_per_row)
    }

    /// The row whose first word is `word` (a multiple of the words in a row), as
    /// [`SharedRows::row`]; checked against the table's length.
    #[inline]
    pub(crate) fn row_at(&self, word: usize) -> &[u64] {
        assert!(word + self.words_per_row <= self.len, "word {word} outside the table");
        // SAFETY: in bounds (checked); no task writes this row during the layer except,
        // possibly, the caller itself, which holds no other reference to it (discipline 2).
        unsafe { std::slice::from_raw_parts(self.ptr.add(word), self.words_per_row) }
    }

    /// ORs row `row` into `dst`.
    #[inline]
    pub(crate) fn or_into(&self, row: usize, dst: &mut [u64]) {
        crate::engine::bits::or_into(dst, self.row(row));
    }

    /// `dst = first | row(base + offset) | …` over every `base` of `bases`, word by word:
    /// each word of `dst` is stored once, where OR-ing the rows in one at a time stores it
    /// once per row, each load waiting for the store before it.
    #[inline]
    pub(crate) fn or_rows_into(
        &self,
        bases: &[usize],
        offset: usize,
        first: &[u64],
        dst: &mut [u64],
    ) {
        for (i, (d, &word)) in dst.iter_mut().zip(first).enumerate() {
            *d = bases.iter().fold(word, |word, &base| word | self.row(base + offset)[i]);
        }
    }

    /// Overwrites the caller's own row `row` with `src`.
    #[inline]
    pub(crate) fn store(&self, row: usize, src: &[u64]) {
        self.row_mut(row).copy_from_slice(src);
    }

    /// Overwrites the caller's own row whose first word is `word` with `src`.
    #[inline]
    pub(crate) fn store_at(&self, word: usize, src: &[u64]) {
        self.row_mut_at(word).copy_from_slice(src);
    }

    /// Sets bit `column` of row `row`, which the caller owns in this layer.
    #[inline]
    pub(crate) fn set_bit(&self, row: usize, column: usize) {
        crate::engine::bits::set_bit(self.row_mut(row), column);
    }

    /// Changes row `row`, which the caller owns in this layer, in place.
    #[inline]
    pub(crate) fn update(&self, row: usize, change: impl FnOnce(&mut [u64])) {
        change(self.row_mut(row));
    }

    /// Every word as an atomic, for a table that the tasks of a layer write at once; a
    /// table used this way is never read or written through rows (discipline 2).
    pub(crate) fn atomics(&self) -> &[AtomicU64] {
        let ptr = self.ptr.cast::<AtomicU64>();
        assert!(ptr.is_aligned(), "accumulator words aligned for atomics");
        // SAFETY: `AtomicU64` has the size and bit validity of `u64`, and the pointer is
        // aligned for it (checked); the words are borrowed for `'a`, which outlives `&self`,
        // and a table viewed as atomics is accessed through this view only, so every
        // access to its words is atomic.
        unsafe { std::slice::from_raw_parts(ptr, self.len) }
    }

    #[inline]
    fn row_mut(&self, row: usize) -> &mut [u64] {
        self.row_mut_at(row * self.words_per_row)
    }

    #[inline]
    #[allow(clippy::mut_from_ref)]
    fn row_mut_at(&self, word: usize) -> &mut [u64] {
        assert!(word + self.words_per_row <= self.len, "word {word} outside the table");
        // SAFETY: in bounds (checked); the caller's task is the only one that touches this
        // row during the layer (discipline 2), and the reference does not outlive the
        // single write it is made for.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(word), self.words_per_row) }
    }
}

/// Asks the processor to start loading the cache line of `word`, so that a later read of
/// it does not wait for memory. Only a hint: it reads nothing and changes nothing.
#[inline]
pub(crate) fn prefetch<T>(word: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: the pointer comes from a reference, so it is valid; a prefetch never
        // faults and has no effect on memory contents.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(word).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::or_into;

    #[test]
    fn or_rows_into_is_the_first_row_ored_with_every_listed_row() {
        let mut words: Vec<u64> =
            (0..24u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        let snapshot = words.clone();
        let table = SharedRows::new(&mut words, 3);
        let first = [1u64 << 63, 0, 5];
        for (bases, offset) in [(&[][..], 0), (&[0][..], 2), (&[0, 3, 5][..], 1), (&[6, 1][..], 1)]
        {
            let mut want = first.to_vec();
            for &base in bases {
                or_into(&mut want, &snapshot[(base + offset) * 3..(base + offset + 1) * 3]);
            }
            let mut got = [u64::MAX; 3];
            table.or_rows_into(bases, offset, &first, &mut got);
            assert_eq!(got[..], want[..], "bases {bases:?}, offset {offset}");
        }
    }
}
