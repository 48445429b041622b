//! One labelling run: every row of a space under one or several endings at once.
//!
//! All endings of a run share one enumeration of the rows, one index computation and one
//! visit per row; each *track* (an ending, and with a pass also each pass state) has its
//! own terminal positions and its own tables. A game's pass adds the pass-available track
//! right after the pass-used one: its row is labelled in the same task, just after the
//! pass-used row of the same columns, which is one of its options.

use crate::engine::bits::{clear_below, first_set, or_into, set_bit};
use crate::engine::error::Result;
use crate::engine::memory::Lease;
use crate::engine::sorted::slots::{SortedRows, Updates, SORTED_UNIT_ROWS};
use crate::engine::tuples::batch::{rows_per_unit, Batch};
use crate::engine::tuples::label_table::{for_each_row_word, LabelTable};
use crate::engine::tuples::rows::general::solve_general_row;
use crate::engine::tuples::rows::row_kind::RowKind;
use crate::engine::tuples::rows::subtract::solve_subtract_row;
use crate::engine::tuples::schedule::{run_layers, Schedule};
use crate::engine::tuples::shared_rows::SharedRows;
use crate::engine::tuples::sources::general_sources_full;
use crate::engine::visitor::{Progress, RowView, RowVisitor};
use crate::engine::TupleEngine;
use crate::model::options::LastHeap;
use crate::model::space::Mode;

/// One track of a labelling run: an ending in one pass state, its terminal sizes and its
/// tables.
pub(crate) struct Track<'a> {
    /// `terminal[h]`: a position whose heaps all have such sizes is forced N.
    pub terminal: Vec<bool>,
    /// The same as a row mask over the last heap.
    pub terminal_mask: Vec<u64>,
    /// Whether the track holds the positions whose pass is still available; the track
    /// before it holds the same ending with the pass used.
    pub pass_available: bool,
    /// The label table (empty when neither kept nor needed).
    pub table: LabelTable<'a>,
    /// Accumulators of the Nim and multi-heap line solvers (empty for the others).
    pub accumulators: SharedRows<'a>,
    /// Grundy rounds: positions given a smaller value, which are never candidates (a
    /// packed table, as `table`).
    pub excluded: Option<&'a [u64]>,
}

impl Track<'_> {
    /// Blocks the excluded columns (Grundy rounds) of the row starting at `start`, first
    /// column `lo`, in a row of `r` columns.
    #[inline(always)]
    pub(crate) fn block_excluded(&self, start: usize, lo: u32, r: usize, blocked: &mut [u64]) {
        // Only Grundy rounds exclude: the common case is one test, inline.
        if let Some(excluded) = self.excluded {
            or_excluded(excluded, start, lo, r, blocked);
        }
    }
}

/// [`Track::block_excluded`] for a round that excludes.
#[inline(never)]
fn or_excluded(excluded: &[u64], start: usize, lo: u32, r: usize, blocked: &mut [u64]) {
    for_each_row_word(excluded, start, lo as usize, r, |i, word| blocked[i] |= word);
}

/// One labelling run over a space, for one or several tracks at once.
pub(crate) struct Labelling<'e, 'g, 'a> {
    pub engine: &'e TupleEngine<'g>,
    pub tracks: Vec<Track<'a>>,
}

/// Per-task scratch buffers, allocated once per task, never per position.
pub(crate) struct Scratch {
    /// The enumerator's buffer; `prefix` is the copy the row is labelled from.
    pub enumeration: Vec<u32>,
    pub prefix: Vec<u32>,
    pub other: Vec<u32>,
    /// Table rows that block this row, by their starts (`tuples/label_table.rs`); the same for
    /// every track.
    pub sources: Vec<usize>,
    /// Canonical table rows: `(column, row start)` pairs to preload below the prefix max.
    pub preload: Vec<(u32, usize)>,
    /// Canonical table rows by sorted planes: per lowering of an outer prefix value, the
    /// start of the source row of the plane's first row, and the value lowered.
    pub streams: Vec<(usize, u32)>,
    /// Multi-heap general path: the starts of the source rows of the prefix moves and
    /// their transforms.
    pub moves: Vec<(usize, LastHeap)>,
    /// Multi-heap line solver: the accumulator rows of this row, and per box one row.
    pub slots: Vec<(usize, usize)>,
    pub box_reads: Vec<u64>,
    /// Rows whose columns at or above their first P are blocked (one row).
    pub at_or_below: Vec<u64>,
    /// One source row read out of a packed table.
    pub source_row: Vec<u64>,
    /// Explicit options: a position, an option, and the option sorted.
    pub position: Vec<u32>,
    pub option: Vec<u32>,
    pub sorted: Vec<u32>,
    /// Sorted multi-heap rows: the unit's prefixes, where their accumulators are.
    pub sorted_rows: SortedRows,
    /// Whether every prefix heap has no move alone (then a column of such a heap is a
    /// position without moves, which may not pass).
    pub prefix_stuck: bool,
    /// Per track, `words_per_row` words each.
    pub blocked: Vec<u64>,
    pub rows: Vec<u64>,
    /// General rows waiting to be labelled together.
    pub batch: Batch,
}

impl Labelling<'_, '_, '_> {
    /// Labels every row, streaming each finished row to `visitor`; every task's scratch
    /// is drawn from `lease` before the first layer.
    pub(crate) fn run<V: RowVisitor>(
        &self,
        lease: &Lease<'_>,
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<V::Acc> {
        if let Some(planes) = self.run_planes(lease, visitor, progress) {
            return planes;
        }
        let e = self.engine;
        if e.kind == RowKind::SortedLines && !self.layers_in_parallel() {
            // Every row in index order on the calling thread: the prefix of every option of
            // a sorted tuple is, value by value, at most the tuple's own, so it is an earlier
            // row (or the same, for moves of the last heap alone); consecutive rows then
            // read neighbouring accumulators.
            let (mut scratch, mut acc) = (self.scratch(lease)?, visitor.start());
            let (mut next, order) = (e.layout.prefixes_in_order(), Updates::BeforeNextRow);
            progress.advance(self.sorted_rows(&mut scratch, visitor, &mut acc, &mut next, order));
            return Ok(acc);
        }
        let layout = &e.layout;
        let schedule = Schedule {
            layers: layout.layers(),
            positions: layout.positions(),
            parallel_threshold: e.parallel_threshold,
        };
        // A unit of work is a group of consecutive first values: one, or with batched rows
        // or sorted rows of multi-heap games and a prefix of two heaps (one row per first
        // value) about a batch of them.
        let sorted = e.kind == RowKind::SortedLines;
        let pairs = (self.batches() || sorted) && layout.prefix_len() == 2;
        let threads = rayon::current_num_threads() as u32;
        // The first values of layer `sum`, how many, and how many make a unit.
        let group = |sum| {
            let firsts = layout.first_values(sum);
            let count = (firsts.end() + 1).saturating_sub(*firsts.start());
            let group = match (pairs, sorted) {
                (true, true) => SORTED_UNIT_ROWS,
                (true, false) => rows_per_unit(count, threads),
                (false, _) => 1,
            };
            (firsts, count, group)
        };
        let units = |sum| {
            let (_, count, group) = group(sum);
            #[allow(clippy::reversed_empty_ranges)]
            if count == 0 {
                1..=0
            } else {
                0..=count.div_ceil(group) - 1
            }
        };
        let work = |scratch: &mut Scratch, acc: &mut V::Acc, unit: u32, sum| {
            let (firsts, _, group) = group(sum);
            let start = firsts.start() + unit * group;
            let end = (start + group - 1).min(*firsts.end());
            if sorted {
                return self.sorted_unit(scratch, visitor, acc, start..=end, sum);
            }
            let mut done = 0;
            for first in start..=end {
                done += self.rows_from(scratch, visitor, acc, first, sum);
            }
            if self.batches() {
                done += self.flush_batch(scratch, visitor, acc);
            }
            done
        };
        run_layers(schedule, visitor, progress, units, || self.scratch(lease), work)
    }

    /// Whether the layers would be shared by several threads (`tuples/schedule.rs`): not on one
    /// thread, with small layers, or with a prefix of at most one heap (a row a layer).
    fn layers_in_parallel(&self) -> bool {
        let layout = &self.engine.layout;
        rayon::current_num_threads() > 1
            && layout.prefix_len() >= 2
            && layout.positions() / layout.layers() >= self.engine.parallel_threshold
    }

    /// Whether general rows are labelled in batches (several rows to a layer).
    fn batches(&self) -> bool {
        self.engine.batches()
    }

    /// A task's scratch, its rows and index lists drawn from `lease` (`memory/plan.rs` counts
    /// them).
    pub(crate) fn scratch(&self, lease: &Lease<'_>) -> Result<Scratch> {
        let e = self.engine;
        let k = e.layout.prefix_len();
        let w = e.layout.words_per_row();
        let words = w * self.tracks.len();
        let boxes = e.lines.as_ref().map_or(0, |plan| plan.boxes());
        let sources = e.most_sources() as usize;
        let canonical = e.layout.mode() == Mode::Canonical;
        let preload = if canonical { e.layout.space().radix() as usize } else { 0 };
        Ok(Scratch {
            enumeration: vec![0; k],
            prefix: vec![0; k],
            other: vec![0; k + 1],
            sources: lease.capacity(sources)?,
            preload: lease.capacity(preload)?,
            streams: lease.capacity(sources)?,
            moves: lease.capacity(if e.kind == RowKind::Sources {
                e.most_prefix_moves()
            } else {
                0
            } as usize)?,
            slots: Vec::new(),
            box_reads: lease.vec(boxes * w, 0)?,
            at_or_below: lease.vec(w, 0)?,
            source_row: lease.vec(w, 0)?,
            position: Vec::new(),
            option: Vec::new(),
            sorted: Vec::new(),
            sorted_rows: SortedRows::default(),
            prefix_stuck: false,
            blocked: lease.vec(words, 0)?,
            rows: lease.vec(words, 0)?,
            batch: if self.batches() {
                Batch::new(lease, k, sources, (w, self.tracks.len()))?
            } else {
                Batch::default()
            },
        })
    }

    /// Labels every row of the layer `sum` whose first heap is `first` (with no prefix,
    /// the one row); returns the positions labelled.
    fn rows_from<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        first: u32,
        sum: u64,
    ) -> u64 {
        if self.engine.layout.prefix_len() == 0 {
            return self.row(scratch, visitor, acc);
        }
        let mut done = 0;
        let mut prefix = std::mem::take(&mut scratch.enumeration);
        let batches = self.batches();
        self.engine.layout.for_each_prefix(&mut prefix, first, sum, &mut |p| {
            if batches {
                done += self.queue_row(scratch, visitor, acc, p);
            } else {
                scratch.prefix.clear();
                scratch.prefix.extend_from_slice(p);
                done += self.row(scratch, visitor, acc);
            }
        });
        scratch.enumeration = prefix;
        done
    }

    /// Labels the row of `scratch.prefix` on every track; returns positions labelled.
    pub(crate) fn row<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
    ) -> u64 {
        let layout = &self.engine.layout;
        let lo = layout.lo(&scratch.prefix);
        // Sorted rows are addressed by their first index alone.
        let row = match layout.mode() {
            Mode::Full => layout.row_index(&scratch.prefix),
            Mode::Canonical => 0,
        };
        let first_index = layout.first_index(row, &scratch.prefix, &mut scratch.other);
        self.block_forced(scratch, (first_index - u64::from(lo)) as usize, lo);
        match self.engine.kind {
            // Nim with a prefix runs by planes; here: the one row of a single heap.
            RowKind::Nim => self.nim_row(scratch),
            RowKind::Lines => self.lines_row(scratch, row as usize),
            RowKind::Sources => self.sources_row(scratch),
            RowKind::SortedLines => self.sorted_lines_row(scratch, lo),
            RowKind::Explicit => self.explicit_row(scratch, lo),
            kind => self.table_row(scratch, kind, row, lo),
        }
        self.finish_row(scratch, visitor, acc, lo, first_index)
    }

    /// Clears the row buffers and blocks, on every track, the columns the ending forces N
    /// and the excluded columns of the row starting at `start` (first column `lo`).
    pub(crate) fn block_forced(&self, scratch: &mut Scratch, start: usize, lo: u32) {
        let (w, r) = (self.engine.layout.words_per_row(), self.engine.layout.space().radix());
        scratch.blocked.fill(0);
        scratch.rows.fill(0);
        scratch.prefix_stuck = scratch.prefix.iter().all(|&h| self.engine.no_move[h as usize]);
        for (track, blocked) in self.tracks.iter().zip(scratch.blocked.chunks_exact_mut(w)) {
            if scratch.prefix.iter().all(|&h| track.terminal[h as usize]) {
                or_into(blocked, &track.terminal_mask);
            }
            track.block_excluded(start, lo, r as usize, blocked);
        }
    }

    /// Track `j` with the pass available may pass, into the pass-used position of the
    /// same heaps (track `j - 1`, whose row is already labelled), while the position has
    /// a move: its columns whose pass-used position is P are blocked.
    pub(crate) fn block_pass(&self, j: usize, scratch: &mut Scratch) {
        if !self.tracks[j].pass_available {
            return;
        }
        let w = self.engine.layout.words_per_row();
        let used = &scratch.rows[(j - 1) * w..j * w];
        let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
        block_pass_columns(blocked, used, scratch.prefix_stuck, &self.engine.no_move_mask);
    }

    /// A row of a table-based solver in full mode, or of a single heap (canonical rows
    /// with a prefix run by sorted planes).
    fn table_row(&self, scratch: &mut Scratch, kind: RowKind, row: u64, lo: u32) {
        self.find_sources(scratch, row);
        self.solve_table_row(scratch, kind, lo);
    }

    /// Blocks the columns whose prefix moves reach a P (the rows `scratch.sources`, and
    /// the preloaded columns), then solves along the last heap, track by track.
    pub(crate) fn solve_table_row(&self, scratch: &mut Scratch, kind: RowKind, lo: u32) {
        let e = self.engine;
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        // The source rows lie far apart in a table larger than the cache: start loading
        // all of them first, so that their misses overlap instead of following each other.
        for track in &self.tracks {
            for &start in &scratch.sources {
                track.table.prefetch(start, lo as usize);
            }
        }
        self.or_sources(scratch, lo);
        for j in 0..self.tracks.len() {
            self.block_pass(j, scratch);
            let blocked = &scratch.blocked[j * w..(j + 1) * w];
            let out = &mut scratch.rows[j * w..(j + 1) * w];
            match kind {
                RowKind::Subtract(mask) => solve_subtract_row(mask, lo as usize, r, blocked, out),
                _ => solve_general_row(&e.options, lo as usize, r, blocked, out),
            }
        }
    }

    /// The source rows (and preloads) of table row `row` in full mode, whose prefix is
    /// `scratch.prefix` (sorted tuples with a prefix run by sorted planes, which find
    /// their own).
    pub(crate) fn find_sources(&self, scratch: &mut Scratch, row: u64) {
        general_sources_full(self.engine, scratch, row);
    }

    /// Blocks, on every track, the columns of `scratch.sources`' P-bits, and preloads
    /// `scratch.preload`.
    pub(crate) fn or_sources(&self, scratch: &mut Scratch, lo: u32) {
        let w = self.engine.layout.words_per_row();
        for (j, track) in self.tracks.iter().enumerate() {
            let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
            track.table.or_rows_into(&scratch.sources, lo as usize, blocked);
            let out = &mut scratch.rows[j * w..(j + 1) * w];
            for &(h, start) in &scratch.preload {
                if track.table.bit(start + lo as usize) {
                    set_bit(out, h as usize);
                }
            }
        }
    }

    /// Stores the finished row (first column `lo`, first position `first_index`) of every
    /// track and hands it to the visitor.
    pub(crate) fn finish_row<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        lo: u32,
        first_index: u64,
    ) -> u64 {
        let layout = &self.engine.layout;
        let w = layout.words_per_row();
        let start = (first_index - u64::from(lo)) as usize;
        let sorted = self.engine.kind == RowKind::SortedLines;
        for (track, bits) in self.tracks.iter().zip(scratch.rows.chunks_exact_mut(w)) {
            // Sorted multi-heap rows set no bit below their first column.
            if !sorted {
                clear_below(bits, lo as usize);
            }
            if track.table.is_empty() {
                continue;
            }
            if sorted {
                // Such a row holds at most one P, and its table bits are still zero.
                if let Some(column) = first_set(bits) {
                    track.table.set(start + column);
                }
            } else {
                track.table.store(start, lo as usize, bits);
            }
        }
        let view = RowView {
            prefix: &scratch.prefix,
            lo,
            end: layout.space().radix() as usize,
            bits: &scratch.rows,
            words_per_row: w,
            first_index,
            ranks: &[],
            pass: self.engine.game.has_pass(),
        };
        visitor.visit(acc, &view);
        (layout.space().radix() - u64::from(lo)) * self.engine.pass_states() as u64
    }
}

/// Blocks the columns whose pass-used position `used` is P, except (when every prefix
/// heap is stuck) the columns of positions without moves, which may not pass.
pub(crate) fn block_pass_columns(blocked: &mut [u64], used: &[u64], stuck: bool, no_move: &[u64]) {
    for ((b, &u), &n) in blocked.iter_mut().zip(used).zip(no_move) {
        *b |= if stuck { u & !n } else { u };
    }
}
