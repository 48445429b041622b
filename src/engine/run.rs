//! One run: a track per ending and pass state, its tables allocated, and the pass over
//! the rows.

use std::sync::atomic::AtomicU64;

use rayon::prelude::*;

use crate::engine::bits;
use crate::engine::label_table::{self, TableWords};
use crate::engine::pass::{Pass, Track};
use crate::engine::shared_rows::SharedRows;
use crate::engine::visitor::{Progress, RowVisitor};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::model::ending::Ending;
use crate::model::space::Mode;

impl Engine<'_> {
    /// The fused pass over `endings`: allocates every track's tables (an ending has a
    /// pass-used and, with a pass, a pass-available track), runs, and hands back the
    /// tables, one per track in that order, if `keep_tables`. `excluded` holds, per track,
    /// a table of positions that are never candidates (the Grundy rounds). The caller
    /// has checked the memory against the plan; an allocation the system refuses anyway
    /// is an error, not an abort.
    pub(crate) fn run<V: RowVisitor>(
        &self,
        endings: &[Ending],
        keep_tables: bool,
        excluded: Option<&[Vec<u64>]>,
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<(Vec<Vec<u64>>, V::Acc)> {
        let states = self.pass_states();
        let tracks = endings.len() * states;
        let plan = self.memory_plan();
        let table_words = if keep_tables || plan.needs_table {
            label_table::words_for(self.layout.positions())
        } else {
            0
        };
        let acc_bytes = plan.working_bytes / states as u64;
        let mut tables = Vec::with_capacity(tracks);
        let mut accumulators = Vec::with_capacity(tracks);
        // Rows of whole words need no atomics (`label_table.rs`).
        let whole_words = self.mode() == Mode::Full && self.space().radix().is_multiple_of(64);
        for _ in 0..tracks {
            tables.push(if whole_words {
                TableWords::Plain(self.zeroed_words(table_words * 8)?)
            } else {
                TableWords::Atomic(self.zeroed_atomics(table_words)?)
            });
            accumulators.push(self.zeroed_words(acc_bytes)?);
        }
        let passes = tables
            .iter_mut()
            .zip(accumulators.iter_mut())
            .enumerate()
            .map(|(t, (table, acc))| {
                let excluded = excluded.map(|e| &e[t][..]);
                self.track(endings[t / states], t % states == 1, table, acc, excluded)
            })
            .collect();
        let result = Pass { engine: self, tracks: passes }.run(visitor, progress);
        if !keep_tables {
            return Ok((Vec::new(), result));
        }
        Ok((tables.into_iter().map(TableWords::into_words).collect(), result))
    }

    /// `bytes / 8` zeroed words, or [`Error::OutOfMemory`] if the system refuses them
    /// (`vec!` would abort the process instead).
    pub(crate) fn zeroed_words(&self, bytes: u64) -> Result<Vec<u64>> {
        let count = self.refusable(bytes / 8)?;
        // Zeroed by the allocator: fresh pages from the system are zero already, so a
        // table of hundreds of MiB costs nothing before the parallel pass touches it
        // (writing the zeros first took a third of a second on one thread).
        Ok(vec![0; count])
    }

    /// `words` zeroed atomic words for a packed label table, refused as
    /// [`Engine::zeroed_words`]; written on every thread of the pool.
    fn zeroed_atomics(&self, words: u64) -> Result<Vec<AtomicU64>> {
        let count = usize::try_from(words).map_err(|_| self.refused(words))?;
        let mut table = Vec::new();
        table.try_reserve_exact(count).map_err(|_| self.refused(words))?;
        (0..count).into_par_iter().map(|_| AtomicU64::new(0)).collect_into_vec(&mut table);
        Ok(table)
    }

    /// `words` as a length, once the allocator has shown it can give that many words
    /// (reserved and given back), or [`Error::OutOfMemory`].
    fn refusable(&self, words: u64) -> Result<usize> {
        let count = usize::try_from(words).map_err(|_| self.refused(words))?;
        Vec::<u64>::new().try_reserve_exact(count).map_err(|_| self.refused(words))?;
        Ok(count)
    }

    /// The refusal of `words` words.
    fn refused(&self, words: u64) -> Error {
        Error::OutOfMemory { what: self.describe(), bytes: words * 8 }
    }

    /// One track's terminal sizes and tables, shared for the pass.
    fn track<'a>(
        &self,
        ending: Ending,
        pass_available: bool,
        table: &'a mut TableWords,
        accumulators: &'a mut [u64],
        excluded: Option<&'a [u64]>,
    ) -> Track<'a> {
        let w = self.layout.words_per_row();
        let terminal = ending.terminal_sizes(self.game, self.space().max());
        Track {
            terminal_mask: bits::mask_of(&terminal, w),
            terminal,
            pass_available,
            table: table.share(self.space().radix() as usize),
            accumulators: SharedRows::new(accumulators, w),
            excluded,
        }
    }
}
