//! The bytes of every part of an engine's runs, as [`MemoryPlan`] counts them: tables,
//! accumulators, the endings' per-size tables, each task's scratch, the Grundy values'
//! runs, and the fixed structures sized by the largest heap.

use crate::engine::memory::{Keep, MemoryPlan};
use crate::engine::sorted::lines::SortedPlan;
use crate::engine::tuples::batch::BATCH_ROWS;
use crate::engine::tuples::label_table;
use crate::engine::tuples::layout::Rankers;
use crate::engine::tuples::rows::bands::BAND_SCRATCH_LANES;
use crate::engine::tuples::rows::lines::LinePlan;
use crate::engine::tuples::rows::row_kind::RowKind;
use crate::engine::TupleEngine;
use crate::model::canonical::multisets;
use crate::model::game::{Game, GameKind, MoveRule};
use crate::model::options::windowed_sets;
use crate::model::space::{Mode, TupleSpace};

impl TupleEngine<'_> {
    /// Memory each part of a run needs, before anything is allocated (per ending, both
    /// pass states of a game with a pass; scratch for every thread of rayon's current
    /// pool).
    pub fn memory_plan(&self) -> MemoryPlan {
        let states = self.pass_states() as u64;
        let row_bytes = self.layout.words_per_row() as u64 * 8 * states;
        // Label tables are packed: one bit per position (`tuples/label_table.rs`).
        let table_bytes = label_table::words_for(self.layout.positions()) * 8 * states;
        let (working_bytes, needs_table) = match self.kind {
            RowKind::Nim => (self.accumulator_rows().saturating_mul(row_bytes), false),
            RowKind::Lines => {
                let rows = self.lines.as_ref().map_or(0, LinePlan::rows);
                (rows.saturating_mul(row_bytes), false)
            }
            RowKind::SortedLines => {
                let words = self.sorted.as_ref().map_or(0, SortedPlan::words);
                (words.saturating_mul(8 * states), false)
            }
            _ => (0, true),
        };
        // Per track: the terminal sizes, their row mask, and the SJ ending's Grundy values.
        let sizes = u64::from(self.space().max()) + 1;
        let ending_bytes = states * (sizes * 5 + self.layout.words_per_row() as u64 * 8);
        let (scratch_bytes, scratch_bytes_per_ending) = self.scratch_bytes();
        let mut plan = MemoryPlan {
            table_bytes,
            working_bytes,
            ending_bytes,
            scratch_bytes,
            scratch_bytes_per_ending,
            tasks: rayon::current_num_threads() as u64,
            fixed_bytes: fixed_bytes(self.game, self.space(), self.kind),
            grundy_bytes: 0,
            needs_table,
        };
        plan.grundy_bytes = self.grundy_plan(&plan);
        plan
    }

    /// Bytes of [`crate::engine::Work::Grundy`]: by bands (multi-heap games in full mode, with
    /// 16-bit lanes at least), or by rounds: a labelling keeping one ending's tables, the
    /// excluded positions, and four bytes per state for the values.
    fn grundy_plan(&self, plan: &MemoryPlan) -> u64 {
        let values = self.positions().saturating_mul(4);
        match self.band_width() {
            Some(64) => self.band_bytes::<u64>(),
            Some(_) => self.band_bytes::<u16>(),
            None => plan
                .labelling_bytes(1, Keep::Tables)
                .saturating_add(plan.table_bytes)
                .saturating_add(values),
        }
    }

    /// Rows of Nim's accumulators: per prefix heap, one row per prefix without that heap.
    fn accumulator_rows(&self) -> u64 {
        let k = self.layout.prefix_len();
        if k == 0 {
            return 0;
        }
        let space = self.space();
        match self.mode() {
            Mode::Canonical => multisets(space.max(), k - 1),
            // The plane scheme keeps the last prefix heap's line locally.
            Mode::Full => (k as u64 - 1).saturating_mul(space.radix().saturating_pow(k as u32 - 1)),
        }
    }

    /// Bytes of one task's scratch: a part for the run and a part per ending (its tracks'
    /// rows), for the path the rows take (`tuples/labelling.rs`, `tuples/rows/nim.rs`,
    /// `sorted/planes.rs`, `tuples/batch.rs`).
    fn scratch_bytes(&self) -> (u64, u64) {
        let (k, states) = (self.layout.prefix_len() as u64, self.pass_states() as u64);
        let (sizes, row) = (self.space().radix(), self.layout.words_per_row() as u64 * 8);
        let track_rows = row * states;
        match (self.kind, self.mode()) {
            // Planes: the outer prefix, line bases; the line, blocked and rows buffers.
            (RowKind::Nim, Mode::Full) if k >= 1 => (k * 12, 3 * track_rows),
            // Sorted planes: prefix, streams; excluded columns; line, rows, P columns.
            (RowKind::Nim, Mode::Canonical) if k >= 1 => {
                (k * 32 + row, 2 * track_rows + sizes * 4 * states)
            }
            _ => {
                let lists = self.index_list_bytes();
                let boxes = self.lines.as_ref().map_or(0, LinePlan::boxes) as u64;
                let mut base = (boxes + 2) * row + lists + k * 16;
                let mut per_ending = 2 * track_rows;
                if self.batches() {
                    let rows = BATCH_ROWS as u64;
                    base += rows * (k * 4 + 24 + self.most_sources() * 8) + 2 * rows * row;
                    per_ending += 2 * rows * track_rows;
                }
                (base, per_ending)
            }
        }
    }

    /// Whether general rows are labelled in batches (several rows to a layer).
    pub(crate) fn batches(&self) -> bool {
        matches!(self.kind, RowKind::General | RowKind::Subtract(_))
            && self.layout.prefix_len() >= 2
    }

    /// Bytes of a task's index lists: a row's source rows and preloaded columns, a
    /// plane's streams, the prefix moves of the general path.
    fn index_list_bytes(&self) -> u64 {
        let sizes = self.space().radix();
        let preload = if self.mode() == Mode::Canonical { sizes * 16 } else { 0 };
        let moves = if self.kind == RowKind::Sources { self.most_prefix_moves() * 16 } else { 0 };
        self.most_sources() * 24 + preload + moves
    }

    /// The most source rows a row of table kinds reads: an option list per prefix heap.
    pub(crate) fn most_sources(&self) -> u64 {
        if !self.kind.needs_option_lists() {
            return 0;
        }
        most_options(self.game, self.space().max()) * self.layout.prefix_len() as u64
    }

    /// At least the prefix moves of any row of a multi-heap game (the general path):
    /// Wythoff's `k` from one heap (twice) or two, a window's heaps each lowered.
    pub(crate) fn most_prefix_moves(&self) -> u64 {
        let (k, max) = (self.layout.prefix_len() as u64, u64::from(self.space().max()));
        match self.game.kind() {
            GameKind::Wythoff => (2 * k + k * k.saturating_sub(1) / 2).saturating_mul(max),
            GameKind::Sum => 0,
            GameKind::Moore(_) | GameKind::Circular(_) => {
                let sets = windowed_sets(self.game.kind(), self.space().heaps());
                let each = |(set, _): &(Vec<usize>, bool)| max.saturating_pow(set.len() as u32);
                sets.iter().map(each).fold(0u64, u64::saturating_add)
            }
        }
    }

    /// At least the largest Grundy value of a position of the space: the mex of its
    /// options' values is at most their number (one-heap moves of each heap, the moves of
    /// several heaps at once, the pass), and below the number of states.
    pub fn grundy_bound(&self) -> u64 {
        let (n, max) = (self.space().heaps() as u64, u64::from(self.space().max()));
        let one_heap = n.saturating_mul(most_options(self.game, self.space().max()));
        let several = match self.game.kind() {
            GameKind::Sum => 0,
            GameKind::Wythoff => (n * n.saturating_sub(1) / 2).saturating_mul(max),
            GameKind::Moore(_) | GameKind::Circular(_) => {
                let sets = windowed_sets(self.game.kind(), self.space().heaps());
                // Each set of the prefix's heaps, alone or with the last heap.
                let each =
                    |(set, _): &(Vec<usize>, bool)| (max + 1).saturating_pow(set.len() as u32 + 1);
                sets.iter().map(each).fold(0u64, u64::saturating_add)
            }
        };
        let pass = u64::from(self.game.has_pass());
        let options = one_heap.saturating_add(several).saturating_add(pass);
        options.min(self.positions().saturating_sub(1))
    }

    /// Bytes of one band run's row buffers with lanes of `lane` bytes (`tuples/rows/bands.rs`).
    pub(crate) fn band_scratch_bytes(&self, lane: u64) -> u64 {
        let (r, states) = (self.space().radix(), self.pass_states() as u64);
        let boxes = self.lines.as_ref().map_or(0, LinePlan::boxes) as u64;
        let lanes = (BAND_SCRATCH_LANES + boxes + states) * r;
        lanes * lane + r * states * 4
    }
}

/// At least the options of any one heap up to `max` (one-heap options, as the option
/// lists hold them).
fn most_options(game: &Game, max: u32) -> u64 {
    match game.move_rule() {
        MoveRule::Nim => u64::from(max),
        // Moves of one heap alone in a game that is not a sum are Nim's.
        _ if game.kind() != GameKind::Sum => u64::from(max),
        MoveRule::Subtract(set) => set.iter().filter(|&&s| s <= max).count() as u64,
        MoveRule::Graph(moves) => {
            moves.iter().take(max as usize + 1).map(|m| m.len() as u64).max().unwrap_or(0)
        }
        MoveRule::Octal(_) | MoveRule::Hex(_) | MoveRule::GrundysGame => game
            .take_break_rule()
            .map_or(0, |rule| (rule.pairs.vanish.len() + rule.pairs.shrink.len()) as u64),
    }
}

/// Bytes an engine keeps whatever it labels, all sized by the largest heap: option lists
/// (4 bytes an option, 8 a size, and the growth of the list while it is built), canonical
/// ranks (rows of `max + 2` words for the prefix, tuple and, in canonical Nim, shorter
/// ranker), and per-size tables (terminal sizes, reach, no-move sizes and their mask).
pub(crate) fn fixed_bytes(game: &Game, space: TupleSpace, kind: RowKind) -> u64 {
    let sizes = u64::from(space.max()) + 2;
    let options = if kind.needs_option_lists() {
        game.option_count(space.max()).saturating_mul(8).saturating_add(sizes * 8)
    } else {
        0
    };
    let n = space.heaps() as u64;
    let ranks = if space.mode().is_canonical() { (3 * n).saturating_mul(sizes * 8) } else { 0 };
    let sorted_ranks = if kind == RowKind::SortedLines {
        SortedPlan::new(game.kind(), space, Rankers::Skip).ranker_bytes()
    } else {
        0
    };
    options.saturating_add(ranks).saturating_add(sorted_ranks).saturating_add(sizes * 16)
}
