//! One run: a track per ending and pass state, its tables allocated, and the pass over
//! the rows.

use std::sync::atomic::AtomicU64;

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
        self.zeroed(bytes / 8, || 0)
    }

    /// `words` zeroed atomic words for a packed label table, refused as
    /// [`Engine::zeroed_words`].
    fn zeroed_atomics(&self, words: u64) -> Result<Vec<AtomicU64>> {
        self.zeroed(words, || AtomicU64::new(0))
    }

    /// `words` words made by `zero`, or [`Error::OutOfMemory`].
    fn zeroed<T>(&self, words: u64, zero: impl FnMut() -> T) -> Result<Vec<T>> {
        let refused = || Error::OutOfMemory { what: self.describe(), bytes: words * 8 };
        let count = usize::try_from(words).map_err(|_| refused())?;
        let mut table = Vec::new();
        table.try_reserve_exact(count).map_err(|_| refused())?;
        table.resize_with(count, zero);
        Ok(table)
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
