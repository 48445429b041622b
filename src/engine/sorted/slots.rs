//! Where a sorted row of Wythoff's game or Moore's Nim_K finds its accumulators
//! (`sorted/lines.rs`), and how its P is added to them.
//!
//! A line, pair row, box or minimum is written by one row of a layer only (two rows of one
//! sum on the same line are the same row), so it is updated by a plain load and store;
//! packed boxes share words with their neighbours and are stored as label table rows are.
//! The diagonals and first Ps of the P a row finds are keyed by other rests, which other
//! rows of the layer may set at once: diagonals are OR-ed atomically, and a first P is
//! written once in a whole run. None of those is read in the layer that sets it (the row
//! of a P lies in an earlier layer than every row that has it as an option), so they are
//! queued and set a row later, their words asked for first, so that the row's misses
//! overlap with the next row's work.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::engine::bits::set_bit;
use crate::engine::sorted::lines::{
    for_each_pair, for_each_part, for_each_value, Dominance, SortedPlan,
};
use crate::engine::tuples::label_table::LabelTable;
use crate::engine::tuples::shared_rows::prefetch;

/// First values in a unit when each makes one row (prefixes of two heaps): enough rows for
/// reading a row ahead to pay, units small enough for the threads to share a layer evenly
/// (its rows differ in length).
pub(crate) const SORTED_UNIT_ROWS: u32 = 8;

/// A task's buffers for sorted multi-heap rows.
#[derive(Clone, Debug, Default)]
pub(crate) struct SortedRows {
    /// The prefixes of the unit, one after another.
    pub prefixes: Vec<u32>,
    /// The prefix of the row after the one being labelled.
    pub following: Vec<u32>,
    /// The slots of the row being labelled and of the next (by the row's parity).
    pub slots: [RowSlots; 2],
    pub current: usize,
    /// Updates keyed by other rests, by the parity of the row that found them.
    pub queued: [Vec<Queued>; 2],
}

/// When a row's updates keyed by other rests are applied: before the next row reads (rows
/// in index order, where the next row may be one of their readers), or after it (rows of
/// one layer, none of which reads them), which leaves their words a row's time to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Updates {
    BeforeNextRow,
    AfterNextRow,
}

/// A dominance entry of a row: its own word (or packed row start), and the words it reads
/// in `RowSlots::reads` (a box reads the boxes of its part lowered by one), or `None` for
/// a line, which reads itself.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub own: usize,
    pub reads: Option<Range<usize>>,
}

/// How a row can be without a P whatever its columns: the last heap lowered below the
/// prefix's largest value reaches the same P from every column.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Dead {
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
    pub boxes: Vec<Entry>,
    /// Lowered prefix values and the last heap: least first Ps.
    pub with_last: Vec<Entry>,
    /// The words the boxes read, each box's run named by its [`Entry::reads`].
    pub reads: Vec<usize>,
    /// Rows OR-ed into the row as they are: lines and pairs rows.
    pub rows: Vec<usize>,
    /// Wythoff: per distinct prefix value `v`, the diagonals row of the prefix without it
    /// and `v`, the shift that reads it.
    pub diagonals: Vec<(usize, usize)>,
    pub dead: Dead,
    /// The word of the prefix's first P (Moore, `K >= 2`).
    first_p: Option<usize>,
    part: Vec<u32>,
    rest: Vec<u32>,
    lowered_part: Vec<u32>,
    position: Vec<u32>,
    ranked: Vec<u32>,
}

/// An update of a word keyed by another rest, set a row later.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Queued {
    track: usize,
    word: usize,
    /// A diagonal bit to OR in, or a first P to store.
    value: u64,
    or: bool,
}

impl Queued {
    /// Applies the update to its track's accumulators, `accumulators(track)`.
    pub(crate) fn apply<'a>(self, accumulators: impl FnOnce(usize) -> &'a [AtomicU64]) {
        let word = &accumulators(self.track)[self.word];
        if self.or {
            word.fetch_or(self.value, Relaxed);
        } else {
            word.store(self.value, Relaxed);
        }
    }
}

/// One track of a row: the plan, the track's index and accumulators, the row's prefix
/// and columns.
#[derive(Clone, Copy)]
pub(crate) struct RowAt<'a> {
    pub plan: &'a SortedPlan,
    pub track: usize,
    pub acc: &'a [AtomicU64],
    pub prefix: &'a [u32],
    pub lo: usize,
    pub r: usize,
}

impl RowSlots {
    /// The slots of the row of `prefix`.
    pub(crate) fn fill(&mut self, plan: &SortedPlan, prefix: &[u32]) {
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
        let (low, ranked) = (&mut self.lowered_part, &mut self.ranked);
        let top = *prefix.last().expect("a prefix") as usize;
        match plan.lowered {
            Some(family @ Dominance { s: 1, .. }) => {
                // Lines come in order of the value lowered: the last is the largest.
                for_each_value(prefix, rest, |_, rest| {
                    rows.push(plan.dominance_word(family, rest, &[]));
                });
                self.dead = Dead::Line(*rows.last().expect("a line per value"), top);
            }
            Some(family) => {
                entries(plan, family, prefix, (part, rest, (low, ranked)), reads, boxes);
            }
            None => {}
        }
        if let Some(family) = plan.with_last {
            entries(plan, family, prefix, (part, rest, (low, ranked)), reads, with_last);
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
    pub(crate) fn prefetch(&self, plan: &SortedPlan, acc: &[AtomicU64], lo: usize) {
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

    /// Adds the row's P at column `p` (if any) to the accumulators of a track (its
    /// diagonals and first Ps queued), its boxes (the OR of the boxes below, in
    /// `box_read`, for packed boxes) and its first P to the minima.
    pub(crate) fn add_row(
        &mut self,
        row: RowAt<'_>,
        p: Option<usize>,
        box_read: &mut [u64],
        queue: &mut Vec<Queued>,
    ) {
        let RowAt { plan, track, acc, prefix, lo, r } = row;
        if let Some(c) = p {
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
            let mut enqueue = |word: usize, value: u64, or: bool| {
                prefetch(&acc[word]);
                queue.push(Queued { track, word, value, or });
            };
            // The P is on the diagonal of every two of its values, and the first P of the
            // line of every value.
            if plan.diagonals.is_some() {
                for_each_pair(position, rest, |a, b, rest| {
                    let d = (b - a) as usize;
                    enqueue(plan.diagonal_word(rest) + d / 64, 1 << (d % 64), true);
                });
            }
            if plan.first_p.is_some() {
                for_each_value(position, rest, |v, rest| {
                    enqueue(plan.first_p_word(rest), stored(v as usize), false);
                });
            }
        }
        if let Some(family) = plan.lowered.filter(|family| family.packed) {
            if let Some(c) = p {
                set_bit(box_read, c);
            }
            // Its bits are still zero: a box with no P (most are, past their first column)
            // is left as it is.
            if box_read[lo / 64..].iter().any(|&word| word != 0) {
                let words = &acc[plan.packed_words(family)];
                LabelTable::Packed { words, radix: r }.store(self.boxes[0].own, lo, box_read);
            }
        }
        // The row's own first P: found now, or below its first column long before.
        let first = match (p, self.first_p) {
            (Some(c), _) => stored(c),
            (None, Some(word)) => acc[word].load(Relaxed),
            (None, None) => NONE,
        };
        if first != NONE {
            for entry in &self.with_last {
                let least = &acc[entry.own];
                least.store(least.load(Relaxed).max(first), Relaxed);
            }
        }
    }
}

/// A row's buffers for [`entries`]: the part, the rest, the lowered part and a spare.
type EntryBuffers<'a> = (&'a mut Vec<u32>, &'a mut Vec<u32>, (&'a mut Vec<u32>, &'a mut Vec<u32>));

/// The dominance entries of `family` for the row of `prefix`: lines, or boxes (for packed
/// boxes, row starts).
fn entries(
    plan: &SortedPlan,
    family: Dominance,
    prefix: &[u32],
    (part, rest, (lowered, buf)): EntryBuffers<'_>,
    reads: &mut Vec<usize>,
    out: &mut Vec<Entry>,
) {
    if family.s == 1 {
        for_each_value(prefix, rest, |_, rest| {
            out.push(Entry { own: plan.dominance_word(family, rest, &[]), reads: None });
        });
        return;
    }
    let mut one_box = |part: &[u32], rest: &[u32]| {
        let place = |part: &[u32], buf: &mut Vec<u32>| {
            if family.packed {
                plan.packed_start(part, buf)
            } else {
                plan.dominance_word(family, rest, part)
            }
        };
        let own = place(part, buf);
        let start = reads.len();
        // Lowering the first copy of a value by one keeps the part sorted.
        for j in (0..part.len()).filter(|&j| part[j] > 0 && (j == 0 || part[j - 1] < part[j])) {
            lowered.clear();
            lowered.extend_from_slice(part);
            lowered[j] -= 1;
            reads.push(place(lowered, buf));
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
pub(crate) const NONE: u64 = 0;

fn stored(column: usize) -> u64 {
    (1u64 << 32) - column as u64
}

/// The column of a stored first P (`usize::MAX` for none).
pub(crate) fn column_of(word: u64) -> usize {
    if word == NONE {
        usize::MAX
    } else {
        ((1u64 << 32) - word) as usize
    }
}
