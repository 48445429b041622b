//! One run: a track per ending and pass state, its tables drawn from the run's grant, and
//! the labelling of the rows.

use crate::engine::bits;
use crate::engine::error::{EngineError, Result};
use crate::engine::memory::{Grant, Keep, Lease};
use crate::engine::tuples::label_table::{self, TableWords};
use crate::engine::tuples::labelling::{Labelling, Track};
use crate::engine::tuples::shared_rows::SharedRows;
use crate::engine::visitor::{Progress, RowVisitor};
use crate::engine::TupleEngine;
use crate::model::ending::Ending;
use crate::model::space::Mode;

/// The tables and accumulators of a labelling's tracks, allocated once (Grundy rounds clear
/// and reuse them).
pub(crate) struct Buffers {
    pub tables: Vec<TableWords>,
    accumulators: Vec<Vec<u64>>,
}

impl Buffers {
    /// Zeroes every table and accumulator for another labelling run.
    pub(crate) fn clear(&mut self) {
        self.tables.iter_mut().for_each(TableWords::clear);
        self.accumulators.iter_mut().for_each(|acc| acc.fill(0));
    }
}

impl TupleEngine<'_> {
    /// The fused labelling of `endings`: draws every track's tables from `grant` (an ending
    /// has a pass-used and, with a pass, a pass-available track), runs, and hands back
    /// the tables, one per track in that order, if `keep` says so (they stay drawn). The
    /// run's check has granted the plan's bytes; an allocation the system refuses anyway
    /// is an error, not an abort.
    pub(crate) fn run<V: RowVisitor>(
        &self,
        grant: &Grant,
        endings: &[Ending],
        keep: Keep,
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<(Vec<Vec<u64>>, V::Acc)> {
        let (kept, working) = (grant.lease(), grant.lease());
        let tables = if keep == Keep::Tables { &kept } else { &working };
        let mut buffers = self.buffers(tables, &working, endings.len(), keep)?;
        let result = self.label_once(grant, &mut buffers, endings, None, visitor, progress)?;
        if keep == Keep::Rows {
            return Ok((Vec::new(), result));
        }
        kept.keep();
        Ok((buffers.tables.into_iter().map(TableWords::into_words).collect(), result))
    }

    /// Zeroed tables (from `tables`) and accumulators (from `working`) for every track of
    /// `endings` endings.
    pub(crate) fn buffers(
        &self,
        tables: &Lease<'_>,
        working: &Lease<'_>,
        endings: usize,
        keep: Keep,
    ) -> Result<Buffers> {
        let tracks = endings * self.pass_states();
        let plan = self.memory_plan();
        let table_words = if keep == Keep::Tables || plan.needs_table {
            label_table::words_for(self.layout.positions())
        } else {
            0
        };
        let acc_words = plan.working_bytes / 8 / self.pass_states() as u64;
        let (table_words, acc_words) = (self.length(table_words)?, self.length(acc_words)?);
        // Rows of whole words need no atomics (`tuples/label_table.rs`).
        let whole_words = self.mode() == Mode::Full && self.space().radix().is_multiple_of(64);
        let mut buffers = Buffers { tables: Vec::new(), accumulators: Vec::new() };
        for _ in 0..tracks {
            buffers.tables.push(if whole_words {
                TableWords::Plain(tables.zeroed_words(table_words)?)
            } else {
                TableWords::Atomic(tables.zeroed_atomics(table_words)?)
            });
            buffers.accumulators.push(working.zeroed_words(acc_words)?);
        }
        Ok(buffers)
    }

    /// `words` as a length, or [`crate::EngineError::OutOfMemory`] beyond the address space.
    fn length(&self, words: u64) -> Result<usize> {
        let refused = || EngineError::OutOfMemory { what: self.describe(), bytes: words * 8 };
        usize::try_from(words).map_err(|_| refused())
    }

    /// One labelling of the tracks of `endings` in `buffers`; `excluded` holds, per track, a
    /// table of positions that are never candidates (the Grundy rounds). Row masks and
    /// each task's scratch are drawn from `grant` for the labelling.
    pub(crate) fn label_once<V: RowVisitor>(
        &self,
        grant: &Grant,
        buffers: &mut Buffers,
        endings: &[Ending],
        excluded: Option<&[Vec<u64>]>,
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<V::Acc> {
        let states = self.pass_states();
        let lease = &grant.lease();
        let Buffers { tables, accumulators } = buffers;
        let mut tracks = Vec::with_capacity(tables.len());
        for (t, (table, acc)) in tables.iter_mut().zip(accumulators.iter_mut()).enumerate() {
            let excluded = excluded.map(|e| &e[t][..]);
            tracks.push(self.track(
                lease,
                endings[t / states],
                t % states == 1,
                table,
                acc,
                excluded,
            )?);
        }
        Labelling { engine: self, tracks }.run(lease, visitor, progress)
    }

    /// One track's terminal sizes and tables, shared for the labelling.
    fn track<'a>(
        &self,
        lease: &Lease<'_>,
        ending: Ending,
        pass_available: bool,
        table: &'a mut TableWords,
        accumulators: &'a mut [u64],
        excluded: Option<&'a [u64]>,
    ) -> Result<Track<'a>> {
        let w = self.layout.words_per_row();
        let terminal = ending.terminal_sizes(self.game, self.space().max());
        let mut terminal_mask = lease.vec(w, 0u64)?;
        for (h, _) in terminal.iter().enumerate().filter(|(_, &forced)| forced) {
            bits::set_bit(&mut terminal_mask, h);
        }
        Ok(Track {
            terminal_mask,
            terminal,
            pass_available,
            table: table.share(self.space().radix() as usize),
            accumulators: SharedRows::new(accumulators, w),
            excluded,
        })
    }
}
