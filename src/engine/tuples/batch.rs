//! Rows of general and subtraction rules in batches of up to 64 rows of one layer, bit-sliced.
//!
//! The rows of a layer share the move rule along the last heap and differ only in the
//! columns their prefix moves block (batches run in full mode, all rows from column 0).
//! Transposed, word `h` holds column `h` of 64 rows, so "some option is P" is an OR of a
//! few words for 64 rows at once, with no branch per position; two 64 × 64 transposes
//! per word of a row bring the rows in and take them out.

use crate::engine::bits::transpose64;
use crate::engine::error::Result;
use crate::engine::memory::Lease;
use crate::engine::tuples::labelling::{block_pass_columns, Labelling, Scratch};
use crate::engine::tuples::rows::general::FlatOptions;
use crate::engine::visitor::RowVisitor;
use crate::model::space::Mode;

/// Rows per batch: the bits of one word.
pub(crate) const BATCH_ROWS: usize = 64;

/// How many rows ahead of the one reading its sources the sources are prefetched.
const PREFETCH_AHEAD: usize = 1;

/// Below this many rows a batch is labelled row by row: the transposes would cost more.
const MIN_SLICED_ROWS: usize = 8;

/// How many consecutive first values (one row each, with a prefix of two heaps) make one
/// unit of work in a layer of `firsts` of them, on `threads` threads. Units are batches of
/// at most [`BATCH_ROWS`] rows, as few as that allows, but their count is rounded up to a
/// multiple of the threads and their sizes evened out, so that the threads finish a layer
/// together instead of one waiting for the other's last batch (a layer ends in a barrier).
/// Rounding up stops where batches would fall below [`MIN_SLICED_ROWS`] rows.
pub(crate) fn rows_per_unit(firsts: u32, threads: u32) -> u32 {
    let batches = firsts.div_ceil(BATCH_ROWS as u32).max(1);
    let even = batches.div_ceil(threads.max(1)) * threads.max(1);
    let units = if firsts / even >= MIN_SLICED_ROWS as u32 { even } else { batches };
    firsts.div_ceil(units).max(1)
}

/// Rows of one task waiting to be labelled together, and the buffers that label them.
#[derive(Default)]
pub(crate) struct Batch {
    /// Queued prefixes, `n - 1` values each.
    prefixes: Vec<u32>,
    /// Per row: its table row and whether every prefix heap is stuck. (Batches run in full
    /// mode: every row starts at column 0 and preloads nothing.)
    rows: Vec<(u64, bool)>,
    /// Per row, the starts of its source rows (`Scratch::sources`), one row's after
    /// another, and where each row's end.
    sources: Vec<usize>,
    source_ends: Vec<usize>,
    /// Per row, every track's blocked columns and P-bits, laid out as in [`Scratch`].
    blocked: Vec<u64>,
    bits: Vec<u64>,
    /// One track, column-major: word `h` holds column `h` of every row of the batch.
    column_blocked: Vec<u64>,
    column_p: Vec<u64>,
}

impl Batch {
    /// The buffers of a task's batches, for prefixes of `k` heaps, rows of at most
    /// `sources` source rows, of `w` words a track and `tracks` tracks, drawn from `lease`.
    pub(crate) fn new(
        lease: &Lease<'_>,
        k: usize,
        sources: usize,
        (w, tracks): (usize, usize),
    ) -> Result<Batch> {
        let words = w * tracks;
        Ok(Batch {
            prefixes: lease.capacity(BATCH_ROWS * k)?,
            rows: lease.capacity(BATCH_ROWS)?,
            sources: lease.capacity(BATCH_ROWS * sources)?,
            source_ends: lease.capacity(BATCH_ROWS)?,
            blocked: lease.capacity(BATCH_ROWS * words)?,
            bits: lease.capacity(BATCH_ROWS * words)?,
            column_blocked: lease.capacity(w * 64)?,
            column_p: lease.capacity(w * 64)?,
        })
    }
}

impl Labelling<'_, '_, '_> {
    /// Queues the row of `prefix`, and labels the batch once it is full; returns the
    /// positions labelled.
    pub(crate) fn queue_row<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        prefix: &[u32],
    ) -> u64 {
        scratch.batch.prefixes.extend_from_slice(prefix);
        if scratch.batch.prefixes.len() < BATCH_ROWS * prefix.len() {
            return 0;
        }
        self.flush_batch(scratch, visitor, acc)
    }

    /// Labels every queued row, on every track; returns the positions labelled.
    pub(crate) fn flush_batch<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
    ) -> u64 {
        let k = self.engine.layout.prefix_len();
        let mut prefixes = std::mem::take(&mut scratch.batch.prefixes);
        let mut done = 0;
        if prefixes.len() < MIN_SLICED_ROWS * k {
            for p in prefixes.chunks_exact(k) {
                scratch.prefix.clear();
                scratch.prefix.extend_from_slice(p);
                done += self.row(scratch, visitor, acc);
            }
        } else {
            self.gather_batch(scratch, &prefixes);
            for j in 0..self.tracks.len() {
                self.solve_batch_track(scratch, j);
            }
            done = self.finish_batch(scratch, &prefixes, visitor, acc);
        }
        prefixes.clear();
        scratch.batch.prefixes = prefixes;
        done
    }

    /// Blocks the columns of every queued row on every track, as a single row would. The
    /// source rows are found first, so that those of later rows are prefetched while
    /// earlier rows read theirs.
    fn gather_batch(&self, scratch: &mut Scratch, prefixes: &[u32]) {
        let layout = &self.engine.layout;
        let (k, words) = (layout.prefix_len(), scratch.blocked.len());
        let r = layout.space().radix() as usize;
        let n = prefixes.len() / k;
        debug_assert_eq!(layout.mode(), Mode::Full, "batches run in full mode");
        let batch = &mut scratch.batch;
        batch.rows.clear();
        batch.sources.clear();
        batch.source_ends.clear();
        for p in prefixes.chunks_exact(k) {
            scratch.prefix.clear();
            scratch.prefix.extend_from_slice(p);
            let row = layout.row_index(p);
            self.find_sources(scratch, row);
            let batch = &mut scratch.batch;
            batch.sources.extend_from_slice(&scratch.sources);
            batch.source_ends.push(batch.sources.len());
            batch.rows.push((row, false));
        }
        scratch.batch.blocked.resize(n * words, 0);
        scratch.batch.bits.resize(n * words, 0);
        for b in 0..PREFETCH_AHEAD.min(n) {
            self.prefetch_sources(&scratch.batch, b);
        }
        for (b, p) in prefixes.chunks_exact(k).enumerate() {
            if b + PREFETCH_AHEAD < n {
                self.prefetch_sources(&scratch.batch, b + PREFETCH_AHEAD);
            }
            scratch.prefix.clear();
            scratch.prefix.extend_from_slice(p);
            let batch = &scratch.batch;
            scratch.sources.clear();
            scratch.sources.extend_from_slice(&batch.sources[range(&batch.source_ends, b)]);
            // A full-mode row starts at its first position, column 0.
            self.block_forced(scratch, batch.rows[b].0 as usize * r, 0);
            self.or_sources(scratch, 0);
            let batch = &mut scratch.batch;
            batch.blocked[b * words..(b + 1) * words].copy_from_slice(&scratch.blocked);
            batch.bits[b * words..(b + 1) * words].copy_from_slice(&scratch.rows);
            batch.rows[b].1 = scratch.prefix_stuck;
        }
    }

    /// Starts loading the source rows of queued row `b`, on every track.
    fn prefetch_sources(&self, batch: &Batch, b: usize) {
        for &start in &batch.sources[range(&batch.source_ends, b)] {
            for track in &self.tracks {
                track.table.prefetch(start, 0);
            }
        }
    }

    /// Labels track `j` of every queued row (a pass-available track after blocking the
    /// columns whose pass-used position, just labelled, is P).
    fn solve_batch_track(&self, scratch: &mut Scratch, j: usize) {
        let e = self.engine;
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        let words = scratch.blocked.len();
        let batch = &mut scratch.batch;
        if self.tracks[j].pass_available {
            for (b, &(_, stuck)) in batch.rows.iter().enumerate() {
                let at = b * words + j * w;
                let used = &batch.bits[at - w..at];
                let blocked = &mut batch.blocked[at..at + w];
                block_pass_columns(blocked, used, stuck, &e.no_move_mask);
            }
        }
        solve_sliced(&e.options, r, w, batch, j * w, words);
    }

    /// Stores and visits every queued row; returns the positions labelled.
    fn finish_batch<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        prefixes: &[u32],
        visitor: &V,
        acc: &mut V::Acc,
    ) -> u64 {
        let layout = &self.engine.layout;
        let (k, words) = (layout.prefix_len(), scratch.blocked.len());
        let r = layout.space().radix();
        let mut done = 0;
        for (b, p) in prefixes.chunks_exact(k).enumerate() {
            scratch.prefix.clear();
            scratch.prefix.extend_from_slice(p);
            scratch.rows.copy_from_slice(&scratch.batch.bits[b * words..(b + 1) * words]);
            let row = scratch.batch.rows[b].0;
            done += self.finish_row(scratch, visitor, acc, 0, row * r);
        }
        done
    }
}

/// Labels one track of a batch: the rows' words start at `offset + b * stride`. Batches
/// run in full mode, where every row starts at column 0: a column is P iff not blocked
/// and none of its options is P. Rows past the batch are all blocked.
fn solve_sliced(
    options: &FlatOptions,
    r: usize,
    w: usize,
    batch: &mut Batch,
    offset: usize,
    stride: usize,
) {
    let n = batch.rows.len();
    batch.column_blocked.resize(w * 64, 0);
    batch.column_p.resize(w * 64, 0);
    let mut block = [0u64; 64];
    for i in 0..w {
        transposed(&batch.blocked, offset + i, stride, n, !0, &mut block);
        batch.column_blocked[i * 64..(i + 1) * 64].copy_from_slice(&block);
    }
    let (column_p, column_blocked) = (&mut batch.column_p, &batch.column_blocked);
    for (h, list) in options.lists().take(r).enumerate() {
        let reach = list.iter().fold(0u64, |acc, &o| acc | column_p[o as usize]);
        column_p[h] = !column_blocked[h] & !reach;
    }
    column_p[r..].fill(0);
    for i in 0..w {
        block.copy_from_slice(&column_p[i * 64..(i + 1) * 64]);
        transpose64(&mut block);
        for (b, &word) in block.iter().enumerate().take(n) {
            batch.bits[offset + b * stride + i] = word;
        }
    }
}

/// Entry `b`'s range in a list of entries laid end to end, given where each entry ends.
fn range(ends: &[usize], b: usize) -> std::ops::Range<usize> {
    (if b == 0 { 0 } else { ends[b - 1] })..ends[b]
}

/// Word `at + b * stride` of `rows` for each row `b < n` (`fill` past them), transposed.
fn transposed(rows: &[u64], at: usize, stride: usize, n: usize, fill: u64, block: &mut [u64; 64]) {
    for (b, word) in block.iter_mut().enumerate() {
        *word = if b < n { rows[at + b * stride] } else { fill };
    }
    transpose64(block);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_batches_evened_out_over_the_threads() {
        // 16 full batches split evenly already; 17 become 18 of 57 or 56 rows.
        assert_eq!(rows_per_unit(1024, 2), 64);
        assert_eq!(rows_per_unit(1025, 2), 57);
        assert_eq!(rows_per_unit(65, 2), 33);
        assert_eq!(rows_per_unit(129, 2), 33);
        // Too few rows to split without batches below the sliced minimum.
        assert_eq!(rows_per_unit(12, 2), 12);
        assert_eq!(rows_per_unit(0, 2), 1);
        assert_eq!(rows_per_unit(100, 1), 50);
        for firsts in 1..400 {
            for threads in 1..5 {
                let per = rows_per_unit(firsts, threads);
                assert!((1..=BATCH_ROWS as u32).contains(&per), "{firsts} on {threads}");
            }
        }
    }
}
