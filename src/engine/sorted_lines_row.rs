//! A sorted row of Wythoff's game or Moore's Nim_K from the accumulators of
//! `sorted_lines.rs`: its blocked columns read from them, its P the first free column (a
//! heap alone moves as in Nim, so the row holds at most one P), and that P added to them.
//!
//! The accumulators are shared by the tasks of a layer as atomics. A line, pair row, box
//! or minimum is written by one row of a layer only (two rows of one sum on the same line
//! are the same row), so it is updated by a plain load and store; packed boxes share
//! words with their neighbours and are stored as label table rows are. The diagonals of
//! the P a row finds are keyed by other rests, which other rows of the layer may set at
//! once: those are OR-ed atomically, and none of them is an option the row reads (a
//! diagonal `z + {m, m + d}` set in the layer of the row `z + {v}` has `m > v` and
//! `d < max(z) - v`, so it lands below the row's first column). A first P is written once
//! in a whole run.
//!
//! The row's blocked words are built lazily, up to the first free column only: past it
//! nothing is read (boxes, kept for the rows above, are read whole). The first words of
//! every accumulator row are asked for before any is read, so that their misses overlap.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::engine::bits::{or_into, set_bit};
use crate::engine::label_table::LabelTable;
use crate::engine::pass::{block_pass_columns, Pass, Scratch};
use crate::engine::shared_rows::prefetch;
use crate::engine::sorted_lines::{
    for_each_pair, for_each_part, for_each_value, Dominance, SortedPlan,
};

/// A dominance entry of a row: its own word (or packed row start), and the words it reads
/// in `RowSlots::reads` (a box reads the boxes of its part lowered by one), or `None` for
/// a line, which reads itself.
#[derive(Clone, Debug)]
struct Entry {
    own: usize,
    reads: Option<Range<usize>>,
}

/// How a row can be without a P whatever its columns: the last heap lowered below the
/// prefix's largest value reaches the same P from every column.
#[derive(Clone, Copy, Debug, Default)]
enum Dead {
    /// No prefix: nothing lies below the row.
    #[default]
    Never,
    /// The line of the prefix without its largest value (first word), at that value.
    Line(usize, usize),
    /// The prefix's first P, below its largest value.
    FirstP(usize),
}

/// Where one row's accumulators are, the same on every track: found once per row.
#[derive(Clone, Debug, Default)]
pub(crate) struct RowSlots {
    /// Boxes of lowered prefix values (lines are among `rows`).
    boxes: Vec<Entry>,
    /// Lowered prefix values and the last heap: least first Ps.
    with_last: Vec<Entry>,
    reads: Vec<usize>,
    /// Rows OR-ed into the row as they are: lines and pairs rows.
    rows: Vec<usize>,
    /// Wythoff: per distinct prefix value `v`, the diagonals row of the prefix without it
    /// and `v`, the shift that reads it.
    diagonals: Vec<(usize, usize)>,
    dead: Dead,
    /// The word of the prefix's first P (Moore, `K >= 2`).
    first_p: Option<usize>,
    part: Vec<u32>,
    rest: Vec<u32>,
    lowered_part: Vec<u32>,
    position: Vec<u32>,
}

impl RowSlots {
    /// The slots of the row of `prefix`.
    fn fill(&mut self, plan: &SortedPlan, prefix: &[u32]) {
        let RowSlots { boxes, with_last, reads, rows, diagonals, part, rest, .. } = self;
        boxes.clear();
        with_last.clear();
        reads.clear();
        rows.clear();
        diagonals.clear();
        self.dead = Dead::Never;
        self.first_p = None;
        if prefix.is_empty() {
            return;
        }
        let low = &mut self.lowered_part;
        let top = *prefix.last().expect("a prefix") as usize;
        match plan.lowered {
            Some(family @ Dominance { s: 1, .. }) => {
                // Lines come in order of the value lowered: the last is the largest.
                for_each_value(prefix, rest, |_, rest| {
                    rows.push(plan.dominance_word(family, rest, &[]));
                });
                self.dead = Dead::Line(*rows.last().expect("a line per value"), top);
            }
            Some(family) => entries(plan, family, prefix, (part, rest, low), reads, boxes),
            None => {}
        }
        if let Some(family) = plan.with_last {
            entries(plan, family, prefix, (part, rest, low), reads, with_last);
            let word = plan.first_p_word(prefix);
            self.first_p = Some(word);
            if matches!(self.dead, Dead::Never) {
                self.dead = Dead::FirstP(word);
            }
        }
        if plan.pairs.is_some() {
            for_each_pair(prefix, rest, |a, b, rest| rows.push(plan.pair_word(rest, b - a)));
        }
        if plan.diagonals.is_some() {
            for_each_value(prefix, rest, |v, rest| {
                diagonals.push((plan.diagonal_word(rest), v as usize));
            });
        }
    }

    /// Asks for the first words the row reads from `acc`, columns from `lo`.
    fn prefetch(&self, plan: &SortedPlan, acc: &[AtomicU64], lo: usize) {
        for &word in &self.rows {
            prefetch(&acc[word + lo / 64]);
        }
        for &(word, shift) in &self.diagonals {
            prefetch(&acc[word + (lo - shift) / 64]);
        }
        let packed = plan.lowered.filter(|family| family.packed);
        for entry in &self.boxes {
            for &read in &self.reads[entry.reads.clone().unwrap_or_default()] {
                let word = match packed {
                    Some(family) => plan.packed_words(family).start + (read + lo) / 64,
                    None => read + lo / 64,
                };
                prefetch(&acc[word]);
            }
        }
        if let Some(word) = self.first_p {
            prefetch(&acc[word]);
        }
    }

    /// Adds the row's P at column `p` (if any) to the accumulators of a track, its boxes
    /// (the OR of the boxes below, in `box_read`, for packed boxes) and its first P to the
    /// minima.
    fn add_row(&mut self, row: RowAt<'_>, p: Option<usize>, box_read: &mut [u64]) {
        let RowAt { plan, acc, prefix, lo, r } = row;
        if let Some(c) = p {
            // Lines and pairs rows, and the row's own boxes: this row's alone in the layer.
            let unpacked = plan.lowered.is_some_and(|family| !family.packed);
            let boxes = self.boxes.iter().filter(|_| unpacked).map(|entry| &entry.own);
            for &word in self.rows.iter().chain(boxes) {
                let word = &acc[word + c / 64];
                word.store(word.load(Relaxed) | 1 << (c % 64), Relaxed);
            }
            self.position.clear();
            self.position.extend_from_slice(prefix);
            self.position.push(c as u32);
            let (position, rest) = (&self.position, &mut self.rest);
            // The P is on the diagonal of every two of its values, and the first P of the
            // line of every value.
            if plan.diagonals.is_some() {
                for_each_pair(position, rest, |a, b, rest| {
                    let d = (b - a) as usize;
                    acc[plan.diagonal_word(rest) + d / 64].fetch_or(1 << (d % 64), Relaxed);
                });
            }
            if plan.first_p.is_some() {
                for_each_value(position, rest, |v, rest| {
                    acc[plan.first_p_word(rest)].store(stored(v as usize), Relaxed);
                });
            }
        }
        if let Some(family) = plan.lowered.filter(|family| family.packed) {
            if let Some(c) = p {
                set_bit(box_read, c);
            }
            let table = LabelTable::Packed { words: &acc[plan.packed_words(family)], radix: r };
            table.store(self.boxes[0].own, lo, box_read);
        }
        if let Some(word) = self.first_p {
            let first = acc[word].load(Relaxed);
            if first != NONE {
                for entry in &self.with_last {
                    let least = &acc[entry.own];
                    least.store(least.load(Relaxed).max(first), Relaxed);
                }
            }
        }
    }
}

/// A row and the accumulators of one of its tracks.
#[derive(Clone, Copy)]
struct RowAt<'a> {
    plan: &'a SortedPlan,
    acc: &'a [AtomicU64],
    prefix: &'a [u32],
    lo: usize,
    r: usize,
}

/// The dominance entries of `family` for the row of `prefix`: lines, or boxes (for packed
/// boxes, row starts).
fn entries(
    plan: &SortedPlan,
    family: Dominance,
    prefix: &[u32],
    (part, rest, lowered): (&mut Vec<u32>, &mut Vec<u32>, &mut Vec<u32>),
    reads: &mut Vec<usize>,
    out: &mut Vec<Entry>,
) {
    if family.s == 1 {
        for_each_value(prefix, rest, |_, rest| {
            out.push(Entry { own: plan.dominance_word(family, rest, &[]), reads: None });
        });
        return;
    }
    let mut buf = Vec::new();
    let mut one_box = |part: &[u32], rest: &[u32]| {
        let place = |part: &[u32], buf: &mut Vec<u32>| {
            if family.packed {
                plan.packed_start(part, buf)
            } else {
                plan.dominance_word(family, rest, part)
            }
        };
        let own = place(part, &mut buf);
        let start = reads.len();
        // Lowering the first copy of a value by one keeps the part sorted.
        for j in (0..part.len()).filter(|&j| part[j] > 0 && (j == 0 || part[j - 1] < part[j])) {
            lowered.clear();
            lowered.extend_from_slice(part);
            lowered[j] -= 1;
            reads.push(place(lowered, &mut buf));
        }
        out.push(Entry { own, reads: Some(start..reads.len()) });
    };
    if family.s == prefix.len() {
        // Every prefix value may be lowered: one box, of the whole prefix.
        one_box(prefix, &[]);
    } else {
        for_each_part(prefix, family.s, (part, rest), &mut one_box);
    }
}

/// A first P or a least first P as stored: `2^32 - f`, so that the larger word is the
/// smaller column (a minimum is a maximum of words) and 0 is none.
const NONE: u64 = 0;

fn stored(column: usize) -> u64 {
    (1u64 << 32) - column as u64
}

fn column_of(word: u64) -> usize {
    if word == NONE {
        usize::MAX
    } else {
        ((1u64 << 32) - word) as usize
    }
}

impl Pass<'_, '_, '_> {
    /// A row of sorted tuples (first column `lo`) of Wythoff's game or Moore's Nim_K, on
    /// every track.
    pub(crate) fn sorted_lines_row(&self, scratch: &mut Scratch, lo: u32) {
        let e = self.engine;
        let plan = e.sorted.as_ref().expect("a sorted plan for sorted multi-heap rows");
        let (w, r, lo) = (plan.words_per_row(), e.layout.space().radix() as usize, lo as usize);
        let Scratch {
            sorted_slots: slots, prefix, blocked, rows, at_or_below, prefix_stuck, ..
        } = scratch;
        slots.fill(plan, prefix);
        for track in &self.tracks {
            slots.prefetch(plan, track.accumulators.atomics(), lo);
        }
        for (j, track) in self.tracks.iter().enumerate() {
            let (done, rest) = rows.split_at_mut(j * w);
            let blocked = &mut blocked[j * w..(j + 1) * w];
            if track.pass_available {
                let used = &done[(j - 1) * w..];
                block_pass_columns(blocked, used, *prefix_stuck, &e.no_move_mask);
            }
            let acc = track.accumulators.atomics();
            let row = RowAt { plan, acc, prefix, lo, r };
            let p = read_row(row, slots, blocked, at_or_below);
            if let Some(c) = p {
                set_bit(&mut rest[..w], c);
            }
            slots.add_row(row, p, at_or_below);
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
