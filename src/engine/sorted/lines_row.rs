//! Sorted rows of Wythoff's game and Moore's Nim_K from the accumulators of
//! `sorted/lines.rs`: a row's blocked columns read from them, its P the first free column
//! (a heap alone moves as in Nim, so the row holds at most one P), and that P added to
//! them (`sorted/slots.rs`).
//!
//! The accumulators are shared by the tasks of a layer as atomics. Rows far apart in a
//! layer read rows of accumulators far apart, so a unit of work is a run of rows whose
//! accumulators are asked for a row ahead: each row's reads then find their words
//! loaded. The blocked words are built lazily, up to the first free column only: past it
//! nothing is read (boxes, kept for the rows above, are read whole). A diagonal set in
//! the layer by another row is never one the row reads as an option: a diagonal
//! `z + {m, m + d}` set in the layer of the row `z + {v}` has `m > v` and
//! `d < max(z) - v`, so it lands below the row's first column.

use std::ops::RangeInclusive;
use std::sync::atomic::Ordering::Relaxed;

use crate::engine::bits::{or_into, set_bit};
use crate::engine::sorted::slots::{
    column_of, Dead, Queued, RowAt, RowSlots, SortedRows, Updates, NONE,
};
use crate::engine::tuples::label_table::LabelTable;
use crate::engine::tuples::labelling::{block_pass_columns, Labelling, Scratch};
use crate::engine::visitor::RowVisitor;

impl Labelling<'_, '_, '_> {
    /// Labels the rows of the layer `sum` whose first heaps are `firsts` (with no prefix,
    /// the one row); returns the positions labelled.
    pub(crate) fn sorted_unit<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        firsts: RangeInclusive<u32>,
        sum: u64,
    ) -> u64 {
        let e = self.engine;
        let k = e.layout.prefix_len();
        let mut prefixes = std::mem::take(&mut scratch.sorted_rows.prefixes);
        prefixes.clear();
        if k > 0 {
            let mut buf = std::mem::take(&mut scratch.enumeration);
            for first in firsts {
                e.layout.for_each_prefix(&mut buf, first, sum, &mut |p| prefixes.extend(p));
            }
            scratch.enumeration = buf;
        }
        let rows = prefixes.len().checked_div(k).unwrap_or(1);
        let mut i = 0;
        let mut next = |out: &mut Vec<u32>| {
            if i == rows {
                return false;
            }
            out.clear();
            out.extend_from_slice(&prefixes[i * k..(i + 1) * k]);
            i += 1;
            true
        };
        let done = self.sorted_rows(scratch, visitor, acc, &mut next, Updates::AfterNextRow);
        scratch.sorted_rows.prefixes = prefixes;
        done
    }

    /// Labels the rows whose prefixes `next` writes one after another (`false` after the
    /// last), each row's accumulators asked for while the row before is labelled; returns
    /// the positions labelled.
    pub(crate) fn sorted_rows<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        next: &mut dyn FnMut(&mut Vec<u32>) -> bool,
        updates: Updates,
    ) -> u64 {
        let e = self.engine;
        let plan = e.sorted.as_ref().expect("a sorted plan for sorted multi-heap rows");
        let ahead = |slots: &mut RowSlots, p: &[u32]| {
            slots.fill(plan, p);
            let lo = e.layout.lo(p) as usize;
            for track in &self.tracks {
                slots.prefetch(plan, track.accumulators.atomics(), lo);
            }
        };
        let mut following = std::mem::take(&mut scratch.sorted_rows.following);
        if !next(&mut following) {
            scratch.sorted_rows.following = following;
            return 0;
        }
        ahead(&mut scratch.sorted_rows.slots[0], &following);
        let (mut done, mut i) = (0, 0);
        loop {
            let (current, other) = (i % 2, (i + 1) % 2);
            std::mem::swap(&mut scratch.prefix, &mut following);
            let more = next(&mut following);
            if more {
                ahead(&mut scratch.sorted_rows.slots[other], &following);
            }
            if updates == Updates::BeforeNextRow {
                self.apply_queued(&mut scratch.sorted_rows.queued[other]);
            }
            scratch.sorted_rows.current = current;
            done += self.row(scratch, visitor, acc);
            if updates == Updates::AfterNextRow {
                self.apply_queued(&mut scratch.sorted_rows.queued[other]);
            }
            if !more {
                break;
            }
            i += 1;
        }
        for queued in &mut scratch.sorted_rows.queued {
            self.apply_queued(queued);
        }
        scratch.sorted_rows.following = following;
        done
    }

    fn apply_queued(&self, queued: &mut Vec<Queued>) {
        for update in queued.drain(..) {
            update.apply(|track| self.tracks[track].accumulators.atomics());
        }
    }

    /// The row of `scratch.prefix` (first column `lo`), whose slots the unit has found, on
    /// every track.
    pub(crate) fn sorted_lines_row(&self, scratch: &mut Scratch, lo: u32) {
        let e = self.engine;
        let plan = e.sorted.as_ref().expect("a sorted plan for sorted multi-heap rows");
        let (w, r, lo) = (plan.words_per_row(), e.layout.space().radix() as usize, lo as usize);
        let Scratch { sorted_rows, prefix, blocked, rows, at_or_below, prefix_stuck, .. } = scratch;
        let SortedRows { slots, current, queued, .. } = sorted_rows;
        let (slots, queue) = (&mut slots[*current], &mut queued[*current]);
        for (j, track) in self.tracks.iter().enumerate() {
            let (done, rest) = rows.split_at_mut(j * w);
            let blocked = &mut blocked[j * w..(j + 1) * w];
            if track.pass_available {
                let used = &done[(j - 1) * w..];
                block_pass_columns(blocked, used, *prefix_stuck, &e.no_move_mask);
            }
            let acc = track.accumulators.atomics();
            let row = RowAt { plan, track: j, acc, prefix, lo, r };
            let p = read_row(row, slots, blocked, at_or_below);
            if let Some(c) = p {
                set_bit(&mut rest[..w], c);
            }
            slots.add_row(row, p, at_or_below, queue);
        }
    }
}

/// Blocks the columns `lo..r` of a row that its accumulators say reach a P, as far as
/// its first free column; stores its unpacked boxes and its minima, and leaves the OR of
/// the boxes below in `box_read` (packed boxes); returns its P.
fn read_row(
    row: RowAt<'_>,
    slots: &RowSlots,
    blocked: &mut [u64],
    box_read: &mut [u64],
) -> Option<usize> {
    let RowAt { plan, acc, lo, r, .. } = row;
    let from = lo / 64;
    // Every column at or above a dominated prefix's first P reaches it.
    let mut end = r;
    for entry in &slots.with_last {
        let word = match &entry.reads {
            None => acc[entry.own].load(Relaxed),
            Some(reads) => {
                let reads = &slots.reads[reads.clone()];
                let least = reads.iter().map(|&w| acc[w].load(Relaxed)).max().unwrap_or(NONE);
                acc[entry.own].store(least, Relaxed);
                least
            }
        };
        end = end.min(column_of(word));
    }
    let dead = match slots.dead {
        Dead::Never => false,
        Dead::Line(word, top) => acc[word + top / 64].load(Relaxed) >> (top % 64) & 1 == 1,
        Dead::FirstP(word) => column_of(acc[word].load(Relaxed)) < lo,
    };
    // Boxes are kept for the rows above whether or not this row has a P.
    if let Some(family) = plan.lowered.filter(|family| family.s >= 2) {
        for entry in &slots.boxes {
            box_read[from..].fill(0);
            let reads = &slots.reads[entry.reads.clone().unwrap_or_default()];
            if family.packed {
                let table = LabelTable::Packed { words: &acc[plan.packed_words(family)], radix: r };
                for &start in reads {
                    table.or_into(start, lo, box_read);
                }
            } else {
                for &word in reads {
                    let src = &acc[word + from..word + box_read.len()];
                    for (d, s) in box_read[from..].iter_mut().zip(src) {
                        *d |= s.load(Relaxed);
                    }
                }
                for (value, word) in box_read[from..].iter().zip(&acc[entry.own + from..]) {
                    word.store(*value, Relaxed);
                }
            }
            or_into(&mut blocked[from..], &box_read[from..]);
        }
    }
    if dead || lo >= end {
        return None;
    }
    // Word `i` of the row's blocked columns, from `from` on.
    let word_at = |i: usize| {
        let mut word = blocked[i];
        for &row in &slots.rows {
            word |= acc[row + i].load(Relaxed);
        }
        for &(row, shift) in &slots.diagonals {
            // Column `h` reads bit `h - shift`; the row's columns are at least `shift`.
            let (j, bits) = (i - shift / 64, shift % 64);
            word |= acc[row + j].load(Relaxed) << bits;
            if bits > 0 && j > 0 {
                word |= acc[row + j - 1].load(Relaxed) >> (64 - bits);
            }
        }
        word
    };
    for i in from..end.div_ceil(64) {
        let mut free = !word_at(i);
        if i == from {
            free &= !0u64 << (lo % 64);
        }
        if free != 0 {
            let column = i * 64 + free.trailing_zeros() as usize;
            return (column < end).then_some(column);
        }
    }
    None
}
