//! The retrograde DP engine: labels every position P or N, row by row, layer by layer.
//!
//! A *row* is every position sharing the first `n - 1` heaps (the *prefix*); its bits are
//! indexed by the last heap `hN`, padded to whole 64-bit words (`layout.rs`). Rows are
//! processed in *layers* of equal prefix sum (`schedule.rs`): a move on a prefix heap
//! lowers that sum, so all options of a row lie in earlier layers or in the row itself,
//! and the rows of one layer are independent. Within a row, moves on the last heap are
//! resolved left to right by a row solver: Nim's (`nim.rs`), subtraction sets with small
//! elements (`subtract.rs`), or explicit option lists (`general.rs`).
//!
//! Only the move rule produces the labels: a position is P iff it is not forced N by the
//! ending and no option is P. No criterion is consulted.

mod bits;
mod general;
pub(crate) mod grundy;
mod labels;
pub(crate) mod layout;
mod memory;
pub(crate) mod multiset;
mod nim;
mod pass;
mod schedule;
mod shared_rows;
mod sources;
mod subtract;
mod visitor;

pub use labels::Labels;
pub use memory::MemoryPlan;
pub use visitor::{NoProgress, Progress, RowView, RowVisitor};

pub(crate) use bits::valid_columns;

use crate::error::Result;
use crate::host;
use crate::model::canonical::{multisets, CanonicalRanker};
use crate::model::ending::Ending;
use crate::model::game::{Game, MoveRule};
use crate::model::space::{Mode, Space};
use general::FlatOptions;
use layout::Layout;
use pass::{EndingPass, Pass};
use shared_rows::SharedRows;

/// How a row is solved along its last heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowKind {
    /// Options are all smaller sizes: a row holds at most one P, the first free column.
    Nim,
    /// Options are `h - s` with every `s <= 64`: bit `s - 1` of the mask for each `s`.
    Subtract(u64),
    /// Options read from explicit lists.
    General,
}

/// Labels the positions of one space of one game, in full or canonical mode.
///
/// Built with [`Engine::new`] (every tuple, default settings) or [`Engine::builder`].
/// Every run checks its memory need against the engine's limit before allocating.
pub struct Engine<'g> {
    game: &'g Game,
    layout: Layout,
    kind: RowKind,
    /// Option lists of every heap size, one flat array (empty for Nim, which needs none).
    options: FlatOptions,
    /// Canonical Nim: ranks a prefix with one heap removed (length k - 1).
    short_ranker: Option<CanonicalRanker>,
    /// Canonical table rows: `reach_below[m]` is the least size below `m` that some heap
    /// of size `>= m` can move to (`m` if none); it bounds the columns to preload.
    reach_below: Vec<u32>,
    /// Layers with fewer positions on average run on the calling thread.
    parallel_threshold: u64,
    /// Bytes a run may allocate.
    memory_limit: u64,
}

impl std::fmt::Debug for Engine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("game", &self.game.spec())
            .field("space", &self.space())
            .field("mode", &self.mode())
            .field("row_solver", &self.kind)
            .field("memory_limit", &self.memory_limit)
            .finish()
    }
}

/// Settings of an [`Engine`], applied by [`EngineBuilder::build`].
#[derive(Clone, Debug)]
pub struct EngineBuilder<'g> {
    game: &'g Game,
    space: Space,
    parallel_threshold: u64,
    memory_limit: Option<u64>,
}

impl<'g> EngineBuilder<'g> {
    /// Bytes a run may allocate (default: [`host::memory_limit`], what this process can
    /// have). A run that needs more is refused before allocating.
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = Some(bytes);
        self
    }

    /// Average positions per layer below which a layer runs on the calling thread
    /// (default 16384: smaller layers cost more to split than they save). 0 makes every
    /// layer parallel, which tests use to exercise the parallel path on small spaces.
    pub fn parallel_threshold(mut self, positions_per_layer: u64) -> Self {
        self.parallel_threshold = positions_per_layer;
        self
    }

    /// Prepares the option lists and the row layout, if they fit in the memory limit.
    ///
    /// They are sized by the largest heap, so with a huge `max` they alone can exceed the
    /// limit: then nothing is prepared, and every run is refused by its memory check (the
    /// plan counts them), before anything is allocated.
    pub fn build(self) -> Engine<'g> {
        let (game, space, mode) = (self.game, self.space, self.space.mode());
        let max = space.max();
        let k = space.heaps() - 1;
        let mut kind = row_kind(game, max);
        // Full-mode Nim keeps (k - 1) accumulator rows per value of a prefix heap, which
        // outgrows a whole table when k - 1 > M + 1 (many heaps, tiny max): use the table.
        if kind == RowKind::Nim && mode == Mode::Full && k >= 2 && (k - 1) as u64 > space.radix() {
            kind = RowKind::General;
        }
        let memory_limit = self.memory_limit.unwrap_or_else(host::memory_limit);
        let prepared = fixed_bytes(game, space, kind) <= memory_limit;
        // Nim's row solver needs no option lists, and listing them costs O(max^2).
        let options = if kind == RowKind::Nim || !prepared {
            FlatOptions::default()
        } else {
            FlatOptions::of_game(game, max)
        };
        let canonical = mode == Mode::Canonical && prepared;
        let short_ranker =
            (canonical && kind == RowKind::Nim && k >= 1).then(|| CanonicalRanker::new(max, k - 1));
        let reach_below =
            if canonical && kind != RowKind::Nim { reach_below(&options, max) } else { Vec::new() };
        Engine {
            game,
            layout: Layout::new(space, prepared),
            kind,
            options,
            short_ranker,
            reach_below,
            parallel_threshold: self.parallel_threshold,
            memory_limit,
        }
    }
}

/// Bytes an engine keeps whatever it labels, all sized by the largest heap: option lists
/// (4 bytes an option, 8 a size, and the growth of the list while it is built), canonical
/// ranks (rows of `max + 2` words for the prefix, tuple and, in canonical Nim, shorter
/// ranker), and per-size tables (Grundy values, terminal sizes, reach).
fn fixed_bytes(game: &Game, space: Space, kind: RowKind) -> u64 {
    let sizes = u64::from(space.max()) + 2;
    let options = match kind {
        RowKind::Nim => 0,
        _ => game.option_count(space.max()).saturating_mul(8).saturating_add(sizes * 8),
    };
    let n = space.heaps() as u64;
    let ranks = if space.mode().is_canonical() { (3 * n).saturating_mul(sizes * 8) } else { 0 };
    options.saturating_add(ranks).saturating_add(sizes * 16)
}

/// `reach[m]`: the least size below `m` that a heap of size `>= m` can move to, or `m`.
fn reach_below(options: &FlatOptions, max: u32) -> Vec<u32> {
    let mut reach = vec![0u32; max as usize + 2];
    reach[max as usize + 1] = max + 1;
    let mut least = u32::MAX;
    for m in (0..=max).rev() {
        least = least.min(options.of(m as usize).first().copied().unwrap_or(u32::MAX));
        reach[m as usize] = least.min(m);
    }
    reach
}

fn row_kind(game: &Game, max: u32) -> RowKind {
    match game.move_rule() {
        MoveRule::Nim => RowKind::Nim,
        MoveRule::Subtract(set) => {
            subtract::history_mask(set, max).map_or(RowKind::General, RowKind::Subtract)
        }
        MoveRule::Octal(_) | MoveRule::GrundysGame => RowKind::General,
        MoveRule::Graph(moves) => {
            // A graph that lets every size up to max drop to every smaller one is Nim.
            let is_nim = (0..=max as usize).all(|h| {
                let list = moves.get(h).map_or(&[][..], |l| &l[..]);
                list.len() == h && list.iter().enumerate().all(|(i, &o)| o as usize == i)
            });
            if is_nim {
                RowKind::Nim
            } else {
                RowKind::General
            }
        }
    }
}

impl<'g> Engine<'g> {
    /// An engine over `space`, with the default settings.
    pub fn new(game: &'g Game, space: Space) -> Engine<'g> {
        Engine::builder(game, space).build()
    }

    /// Settings for an engine over `space` (every tuple or sorted tuples only, as the
    /// space says): memory limit, parallel threshold.
    pub fn builder(game: &'g Game, space: Space) -> EngineBuilder<'g> {
        EngineBuilder {
            game,
            space,
            parallel_threshold: schedule::PARALLEL_THRESHOLD,
            memory_limit: None,
        }
    }

    /// The game labelled.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The space labelled.
    pub fn space(&self) -> Space {
        self.layout.space()
    }

    /// Every tuple, or sorted tuples only.
    pub fn mode(&self) -> Mode {
        self.layout.mode()
    }

    /// Positions labelled per ending (sorted tuples only, in canonical mode).
    pub fn positions(&self) -> u64 {
        self.layout.positions()
    }

    /// The position of an index: mixed-radix, or the rank among sorted tuples.
    pub fn position(&self, index: u64) -> Vec<u32> {
        self.layout.position(index)
    }

    /// Bytes a run may allocate.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// Memory the tables need, before anything is allocated.
    pub fn memory_plan(&self) -> MemoryPlan {
        let row_bytes = self.layout.words_per_row() as u64 * 8;
        let table_bytes = self.layout.rows().saturating_mul(row_bytes);
        let (working_bytes, needs_table) = match self.kind {
            RowKind::Nim => (self.accumulator_rows().saturating_mul(row_bytes), false),
            _ => (0, true),
        };
        let fixed_bytes = fixed_bytes(self.game, self.space(), self.kind);
        MemoryPlan { table_bytes, working_bytes, fixed_bytes, needs_table }
    }

    /// Refuses a run over `endings` endings at once (keeping their tables or not) that
    /// would need more than the memory limit, before any work.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] with the bytes needed and allowed;
    /// [`crate::Error::SplitsHeaps`] for a game whose moves split heaps (its positions
    /// leave any space of a fixed heap count).
    pub fn ensure_fits(&self, endings: usize, keep_tables: bool) -> Result<()> {
        if self.game.splits() {
            return Err(crate::Error::SplitsHeaps { spec: self.game.spec().to_string() });
        }
        let need = self.memory_plan().run(endings, keep_tables);
        let canonical_would_help = self.mode() == Mode::Full && self.space().heaps() >= 3;
        memory::refuse_above(need, self.memory_limit, || self.describe(), canonical_would_help)
    }

    /// The space as messages name it: `game, N heaps, max M`.
    fn describe(&self) -> String {
        format!("{}, {} heaps, max {}", self.game.spec(), self.space().heaps(), self.space().max())
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

    /// Labels every position under `ending` and returns the table.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] if the table and working state exceed the memory limit.
    pub fn label(&self, ending: Ending) -> Result<Labels> {
        let mut tables = self.label_all(&[ending], &NoProgress)?;
        Ok(tables.remove(0))
    }

    /// Labels every position under each of `endings` in one fused pass (one enumeration
    /// of the rows for all) and returns their tables, in the order given.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] if the tables of all endings do not fit together;
    /// [`crate::Error::OutOfMemory`] if the system refuses them anyway.
    pub fn label_all(&self, endings: &[Ending], progress: &dyn Progress) -> Result<Vec<Labels>> {
        self.ensure_fits(endings.len(), true)?;
        let (tables, ()) = self.run(endings, true, &(), progress)?;
        Ok(tables)
    }

    /// Labels every position under each of `endings` in one fused pass, streaming each
    /// finished row to `visitor` (see [`RowView`]) without keeping a table; returns the
    /// visitor's merged result.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] if the working state of all endings does not fit;
    /// [`crate::Error::OutOfMemory`] if the system refuses it anyway.
    pub fn stream<V: RowVisitor>(
        &self,
        endings: &[Ending],
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<V::Acc> {
        self.ensure_fits(endings.len(), false)?;
        Ok(self.run(endings, false, visitor, progress)?.1)
    }

    /// The fused pass: allocates each ending's tables, runs, and hands back the tables if
    /// `keep_tables`. The caller has checked the memory against the plan; an allocation
    /// the system refuses anyway is an error, not an abort.
    fn run<V: RowVisitor>(
        &self,
        endings: &[Ending],
        keep_tables: bool,
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<(Vec<Labels>, V::Acc)> {
        let plan = self.memory_plan();
        let table_bytes = if keep_tables || plan.needs_table { plan.table_bytes } else { 0 };
        let mut tables = Vec::with_capacity(endings.len());
        let mut accumulators = Vec::with_capacity(endings.len());
        for _ in endings {
            tables.push(self.zeroed_words(table_bytes)?);
            accumulators.push(self.zeroed_words(plan.working_bytes)?);
        }
        let passes = endings
            .iter()
            .zip(tables.iter_mut().zip(accumulators.iter_mut()))
            .map(|(&ending, (table, acc))| self.ending_pass(ending, table, acc))
            .collect();
        let result = Pass { engine: self, endings: passes }.run(visitor, progress);
        if !keep_tables {
            return Ok((Vec::new(), result));
        }
        let labels = endings
            .iter()
            .zip(tables)
            .map(|(&ending, words)| Labels::new(self.layout.clone(), ending, words))
            .collect();
        Ok((labels, result))
    }

    /// `bytes / 8` zeroed words, or [`crate::Error::OutOfMemory`] if the system refuses
    /// them (`vec!` would abort the process instead).
    fn zeroed_words(&self, bytes: u64) -> Result<Vec<u64>> {
        let refused = || crate::Error::OutOfMemory { what: self.describe(), bytes };
        let words = usize::try_from(bytes / 8).map_err(|_| refused())?;
        let mut table = Vec::new();
        table.try_reserve_exact(words).map_err(|_| refused())?;
        table.resize(words, 0);
        Ok(table)
    }

    /// One ending's terminal sizes and tables, shared for the pass.
    fn ending_pass<'a>(
        &self,
        ending: Ending,
        table: &'a mut [u64],
        accumulators: &'a mut [u64],
    ) -> EndingPass<'a> {
        let w = self.layout.words_per_row();
        let terminal = ending.terminal_sizes(self.game, self.space().max());
        let mut terminal_mask = vec![0u64; w];
        for (h, _) in terminal.iter().enumerate().filter(|(_, &t)| t) {
            bits::set_bit(&mut terminal_mask, h);
        }
        EndingPass {
            terminal,
            terminal_mask,
            table: SharedRows::new(table, w),
            accumulators: SharedRows::new(accumulators, w),
        }
    }
}
