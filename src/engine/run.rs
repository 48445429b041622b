//! One run: a track per ending and pass state, its tables allocated, and the pass over
//! the rows.

use crate::engine::bits;
use crate::engine::pass::{Pass, Track};
use crate::engine::shared_rows::SharedRows;
use crate::engine::visitor::{Progress, RowVisitor};
use crate::engine::Engine;
use crate::model::ending::Ending;

impl Engine<'_> {
    /// The fused pass over `endings`: allocates every track's tables (an ending has a
    /// pass-used and, with a pass, a pass-available track), runs, and hands back the
    /// tables, one per track in that order, if `keep_tables`. `excluded` holds, per track,
    /// a table of positions that are never candidates (the Grundy rounds). The caller
    /// has checked the memory.
    pub(crate) fn run<V: RowVisitor>(
        &self,
        endings: &[Ending],
        keep_tables: bool,
        excluded: Option<&[Vec<u64>]>,
        visitor: &V,
        progress: &dyn Progress,
    ) -> (Vec<Vec<u64>>, V::Acc) {
        let states = self.pass_states();
        let tracks = endings.len() * states;
        let w = self.layout.words_per_row();
        let plan = self.memory_plan();
        let table_words =
            if keep_tables || plan.needs_table { self.layout.rows() as usize * w } else { 0 };
        let acc_words = (plan.working_bytes / 8) as usize / states;
        let mut tables: Vec<Vec<u64>> = (0..tracks).map(|_| vec![0u64; table_words]).collect();
        let mut accumulators: Vec<Vec<u64>> = (0..tracks).map(|_| vec![0u64; acc_words]).collect();
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
            return (Vec::new(), result);
        }
        (tables, result)
    }

    /// One track's terminal sizes and tables, shared for the pass.
    fn track<'a>(
        &self,
        ending: Ending,
        pass_available: bool,
        table: &'a mut [u64],
        accumulators: &'a mut [u64],
        excluded: Option<&'a [u64]>,
    ) -> Track<'a> {
        let w = self.layout.words_per_row();
        let terminal = ending.terminal_sizes(self.game, self.space().max());
        Track {
            terminal_mask: bits::mask_of(&terminal, w),
            terminal,
            pass_available,
            table: SharedRows::new(table, w),
            accumulators: SharedRows::new(accumulators, w),
            excluded,
        }
    }
}
