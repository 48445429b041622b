//! One labelling pass: every row of a space under one or several endings at once.
//!
//! All endings of a run share one enumeration of the rows, one index computation and one
//! visit per row; each ending has its own terminal positions and its own tables.

use crate::engine::bits::{clear_below, or_into, set_bit};
use crate::engine::general::solve_general_row;
use crate::engine::schedule::{run_layers, Schedule};
use crate::engine::shared_rows::SharedRows;
use crate::engine::sources::{general_sources_canonical, general_sources_full};
use crate::engine::subtract::solve_subtract_row;
use crate::engine::visitor::{Progress, RowView, RowVisitor};
use crate::engine::{Engine, RowKind};
use crate::model::space::Mode;

/// One ending's part of a pass: its terminal sizes and the tables it fills.
pub(crate) struct EndingPass<'a> {
    /// `terminal[h]`: a position whose heaps all have such sizes is forced N.
    pub terminal: Vec<bool>,
    /// The same as a row mask over the last heap.
    pub terminal_mask: Vec<u64>,
    /// The label table (empty when neither kept nor needed).
    pub table: SharedRows<'a>,
    /// Nim's line accumulators (empty for other row solvers).
    pub accumulators: SharedRows<'a>,
}

/// One labelling pass over a space, for one or several endings at once.
pub(crate) struct Pass<'e, 'g, 'a> {
    pub engine: &'e Engine<'g>,
    pub endings: Vec<EndingPass<'a>>,
}

/// Per-task scratch buffers, allocated once per task, never per position.
pub(crate) struct Scratch {
    /// The enumerator's buffer; `prefix` is the copy the row is labelled from.
    enumeration: Vec<u32>,
    pub prefix: Vec<u32>,
    pub other: Vec<u32>,
    /// Rows (accumulator or table) that block this row; the same for every ending.
    pub sources: Vec<usize>,
    /// Canonical table rows: `(column, row)` pairs to preload below the prefix max.
    pub preload: Vec<(u32, usize)>,
    /// Per ending, `words_per_row` words each.
    pub blocked: Vec<u64>,
    pub rows: Vec<u64>,
}

impl Pass<'_, '_, '_> {
    /// Labels every row, streaming each finished row to `visitor`.
    pub(crate) fn run<V: RowVisitor>(&self, visitor: &V, progress: &dyn Progress) -> V::Acc {
        let e = self.engine;
        if e.kind == RowKind::Nim && e.layout.mode() == Mode::Full && e.layout.prefix_len() >= 1 {
            return self.run_planes(visitor, progress);
        }
        let layout = &e.layout;
        let schedule = Schedule {
            layers: layout.layers(),
            positions: layout.positions(),
            parallel_threshold: e.parallel_threshold,
        };
        let work = |scratch: &mut Scratch, acc: &mut V::Acc, first, sum| {
            self.rows_from(scratch, visitor, acc, first, sum)
        };
        run_layers(
            schedule,
            visitor,
            progress,
            |sum| layout.first_values(sum),
            || self.scratch(),
            work,
        )
    }

    fn scratch(&self) -> Scratch {
        let k = self.engine.layout.prefix_len();
        let words = self.engine.layout.words_per_row() * self.endings.len();
        Scratch {
            enumeration: vec![0; k],
            prefix: vec![0; k],
            other: vec![0; k + 1],
            sources: Vec::new(),
            preload: Vec::new(),
            blocked: vec![0; words],
            rows: vec![0; words],
        }
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
        self.engine.layout.for_each_prefix(&mut prefix, first, sum, &mut |p| {
            scratch.prefix.clear();
            scratch.prefix.extend_from_slice(p);
            done += self.row(scratch, visitor, acc);
        });
        scratch.enumeration = prefix;
        done
    }

    /// Labels the row of `scratch.prefix` under every ending; returns positions labelled.
    fn row<V: RowVisitor>(&self, scratch: &mut Scratch, visitor: &V, acc: &mut V::Acc) -> u64 {
        let layout = &self.engine.layout;
        let lo = layout.lo(&scratch.prefix);
        let row = layout.row_index(&scratch.prefix);
        self.block_terminal(scratch);
        match self.engine.kind {
            // Full-mode Nim with a prefix runs by planes; here: canonical, or no prefix.
            RowKind::Nim => self.nim_row(scratch, lo),
            kind => self.table_row(scratch, kind, row, lo),
        }
        self.finish_row(scratch, visitor, acc, row, lo)
    }

    /// Clears the row buffers and blocks the columns the ending forces N.
    fn block_terminal(&self, scratch: &mut Scratch) {
        let w = self.engine.layout.words_per_row();
        scratch.blocked.fill(0);
        scratch.rows.fill(0);
        for (ending, blocked) in self.endings.iter().zip(scratch.blocked.chunks_exact_mut(w)) {
            if scratch.prefix.iter().all(|&h| ending.terminal[h as usize]) {
                or_into(blocked, &ending.terminal_mask);
            }
        }
    }

    /// A row of a table-based solver: block the columns whose prefix moves reach a P, then
    /// solve along the last heap.
    fn table_row(&self, scratch: &mut Scratch, kind: RowKind, row: u64, lo: u32) {
        let e = self.engine;
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        match e.layout.mode() {
            Mode::Canonical => general_sources_canonical(e, scratch),
            Mode::Full => general_sources_full(e, scratch, row),
        }
        for (j, ending) in self.endings.iter().enumerate() {
            let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
            for &slot in &scratch.sources {
                ending.table.or_into(slot, blocked);
            }
            let out = &mut scratch.rows[j * w..(j + 1) * w];
            for &(h, slot) in &scratch.preload {
                if ending.table.bit(slot, lo as usize) {
                    set_bit(out, h as usize);
                }
            }
        }
        let lo = lo as usize;
        for (blocked, out) in scratch.blocked.chunks_exact(w).zip(scratch.rows.chunks_exact_mut(w))
        {
            match kind {
                RowKind::Subtract(mask) => solve_subtract_row(mask, lo, r, blocked, out),
                _ => solve_general_row(&e.options, lo, r, blocked, out),
            }
        }
    }

    /// Stores the finished row of every ending and hands it to the visitor.
    fn finish_row<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        row: u64,
        lo: u32,
    ) -> u64 {
        let layout = &self.engine.layout;
        let w = layout.words_per_row();
        for (ending, bits) in self.endings.iter().zip(scratch.rows.chunks_exact_mut(w)) {
            clear_below(bits, lo as usize);
            if !ending.table.is_empty() {
                ending.table.store(row as usize, bits);
            }
        }
        let first_index = layout.first_index(row, &scratch.prefix, &mut scratch.other);
        let view = RowView {
            prefix: &scratch.prefix,
            lo,
            bits: &scratch.rows,
            words_per_row: w,
            first_index,
        };
        visitor.visit(acc, &view);
        layout.space().radix() - u64::from(lo)
    }
}
