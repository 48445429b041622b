//! The retrograde DP engine: labels every position P or N, row by row, layer by layer.
//!
//! A *row* is every position sharing the first `n - 1` heaps (the *prefix*); its bits are
//! indexed by the last heap `hN`, in buffers of whole 64-bit words while labelled, packed
//! end to end in the label tables (`layout.rs`, `label_table.rs`). Rows are
//! processed in *layers* of equal prefix sum (`schedule.rs`): a move on a prefix heap
//! lowers that sum, so all options of a row lie in earlier layers or in the row itself,
//! and the rows of one layer are independent. Within a row, moves on the last heap are
//! resolved left to right by a row solver: Nim's (`nim.rs`), subtraction sets with small
//! elements (`subtract.rs`), or explicit option lists (`general.rs`).
//!
//! Only the move rule produces the labels: a position is P iff it is not forced N by the
//! ending and no option is P. No criterion is consulted.

mod bands;
mod batch;
mod bits;
mod explicit;
mod general;
mod label_table;
mod labelling;
mod labels;
mod layer_crew;
pub(crate) mod layout;
mod lines;
mod memory;
pub(crate) mod multiset;
mod nim;
mod plan;
mod position_grundy;
mod prefix_moves;
mod reservation;
mod row_kind;
mod run;
mod schedule;
mod shared_rows;
mod sorted_lines;
mod sorted_lines_row;
mod sorted_planes;
mod sorted_slots;
mod sorted_table_planes;
mod sources;
mod subtract;
mod visitor;

pub use labels::Labels;
pub use memory::{Grant, MemoryPlan, Work};
pub use position_grundy::GrundyValues;
pub use reservation::Reservation;
pub use row_kind::MultiHeapPath;
pub use visitor::{NoProgress, PlaneView, Progress, RowView, RowVisitor, NO_P};

pub(crate) use bits::valid_columns;

use crate::error::Result;
use crate::host;
use crate::model::canonical::CanonicalRanker;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::options::PositionOptions;
use crate::model::space::{Mode, Space};
use general::FlatOptions;
use layout::Layout;
use lines::LinePlan;
use row_kind::{reach_below, row_kind, RowKind};
use sorted_lines::SortedPlan;

/// Labels the positions of one space of one game, in full or canonical mode.
///
/// Built with [`Engine::new`] (every tuple, default settings) or [`Engine::builder`].
/// Every run checks its memory need against the engine's limit before allocating.
pub struct Engine<'g> {
    game: &'g Game,
    layout: Layout,
    kind: RowKind,
    /// Option lists of every heap size, one flat array (only for table-based sum rows).
    options: FlatOptions,
    /// Canonical Nim: ranks a prefix with one heap removed (length k - 1).
    short_ranker: Option<CanonicalRanker>,
    /// Canonical table rows: `reach_below[m]` is the least size below `m` that some heap
    /// of size `>= m` can move to (`m` if none); it bounds the columns to preload.
    reach_below: Vec<u32>,
    /// Multi-heap games in full mode: the line and box accumulators.
    lines: Option<LinePlan>,
    /// Multi-heap games on sorted tuples: their accumulators.
    sorted: Option<SortedPlan>,
    /// Multi-heap games on the general or explicit path: their options.
    position_options: Option<PositionOptions<'g>>,
    /// `no_move[h]`: a heap of size `h` has no move alone; a position of such heaps has
    /// no move at all (and may not pass).
    no_move: Vec<bool>,
    /// The same as a row mask over the last heap.
    no_move_mask: Vec<u64>,
    /// Layers with fewer positions on average run on the calling thread.
    parallel_threshold: u64,
    /// Bytes a run may allocate.
    memory_limit: u64,
    /// Whether the structures sized by the largest heap fitted the limit and were given.
    prepared: bool,
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
    multi_heap_path: MultiHeapPath,
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

    /// For a game whose moves change several heaps: [`MultiHeapPath::General`] reads, in
    /// full mode, every source row of a row's prefix moves one by one, and on sorted
    /// tuples lists every option of every position and looks it up (the general path,
    /// which any multi-heap rule can use), instead of the accumulators of Wythoff, Moore
    /// and circular Nim. Slower; for cross-checks and benchmarks. Default
    /// [`MultiHeapPath::Accumulators`].
    pub fn multi_heap_path(mut self, path: MultiHeapPath) -> Self {
        self.multi_heap_path = path;
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
        let kind = row_kind(game, space, mode, self.multi_heap_path);
        let memory_limit = self.memory_limit.unwrap_or_else(host::memory_limit);
        let fits = plan::fixed_bytes(game, space, kind) <= memory_limit;
        // Nim's and the multi-heap rows need no per-size option lists (Nim's cost O(max^2)).
        let options = if kind.needs_option_lists() && fits {
            FlatOptions::try_of_game(game, max)
        } else {
            Some(FlatOptions::default())
        };
        let canonical = mode == Mode::Canonical && fits;
        let k = space.heaps() - 1;
        let short_ranker = (canonical && kind == RowKind::Nim && k >= 1)
            .then(|| CanonicalRanker::try_new(max, k - 1));
        let reach_below = match &options {
            Some(options) if canonical && kind.needs_option_lists() => reach_below(options, max),
            _ => Some(Vec::new()),
        };
        let layout = Layout::new(space, fits);
        // Memory the system refused for a structure that fitted the limit: every run of
        // the engine is refused too.
        let prepared = fits
            && options.is_some()
            && short_ranker.as_ref().is_none_or(Option::is_some)
            && reach_below.is_some()
            && layout.is_ready();
        let (options, short_ranker) = (options.unwrap_or_default(), short_ranker.flatten());
        let reach_below = reach_below.unwrap_or_default();
        // Neither is sized by the largest heap: the plan reads them even unprepared.
        let lines = (kind == RowKind::Lines).then(|| LinePlan::new(game.kind(), space));
        // The plan of sorted rows says how much a run needs even when nothing is prepared.
        let sorted =
            (kind == RowKind::SortedLines).then(|| SortedPlan::new(game.kind(), space, prepared));
        let position_options = matches!(kind, RowKind::Sources | RowKind::Explicit)
            .then(|| PositionOptions::new(game, space.heaps()));
        let no_move: Vec<bool> = (0..=max).map(|h| !game.has_moves(h)).collect();
        let no_move_mask = bits::mask_of(&no_move, layout.words_per_row());
        Engine {
            game,
            layout,
            kind,
            options,
            short_ranker,
            reach_below,
            lines,
            sorted,
            position_options,
            no_move,
            no_move_mask,
            parallel_threshold: self.parallel_threshold,
            memory_limit,
            prepared,
        }
    }
}

impl<'g> Engine<'g> {
    /// An engine over `space`, with the default settings.
    pub fn new(game: &'g Game, space: Space) -> Engine<'g> {
        Engine::builder(game, space).build()
    }

    /// Settings for an engine over `space` (whose mode says every tuple or sorted tuples
    /// only): memory limit, parallel threshold, the path of multi-heap games.
    pub fn builder(game: &'g Game, space: Space) -> EngineBuilder<'g> {
        EngineBuilder {
            game,
            space,
            parallel_threshold: schedule::PARALLEL_THRESHOLD,
            memory_limit: None,
            multi_heap_path: MultiHeapPath::Accumulators,
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

    /// Positions labelled per ending (sorted tuples only, in canonical mode); with a
    /// pass, every heap tuple counts twice (pass used, pass available).
    pub fn positions(&self) -> u64 {
        self.layout.positions() * self.pass_states() as u64
    }

    /// The position of an index: mixed-radix, or the rank among sorted tuples.
    pub fn position(&self, index: u64) -> Vec<u32> {
        self.layout.position(index)
    }

    /// The index of a position (the inverse of [`Engine::position`]); in canonical mode
    /// the heaps may come in any order.
    ///
    /// # Panics
    /// If the tuple has the wrong length or a heap above the space's max.
    pub fn index(&self, tuple: &[u32]) -> u64 {
        let space = self.space();
        assert_eq!(tuple.len(), space.heaps(), "tuple length must equal the heap count");
        assert!(tuple.iter().all(|&h| h <= space.max()), "heap above the space's max");
        match self.mode() {
            Mode::Canonical => {
                let mut sorted = tuple.to_vec();
                sorted.sort_unstable();
                self.layout.index(&sorted)
            }
            Mode::Full => self.layout.index(tuple),
        }
    }

    /// The position and pass state of a state index (see [`RowView::state_index`]):
    /// without a pass, the position of the index and `None`.
    pub fn state(&self, index: u64) -> (Vec<u32>, Option<bool>) {
        if self.game.has_pass() {
            (self.layout.position(index / 2), Some(index % 2 == 1))
        } else {
            (self.layout.position(index), None)
        }
    }

    /// Bytes a run may allocate.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// 2 with a pass (used, available), else 1.
    pub(crate) fn pass_states(&self) -> usize {
        if self.game.has_pass() {
            2
        } else {
            1
        }
    }

    /// What a run keeps besides the kept tables: `table` (a whole label table per
    /// ending), `nim line accumulators`, `line and box accumulators` (multi-heap games in
    /// full mode) or `sorted line and box accumulators` (on sorted tuples).
    pub fn working_state(&self) -> &'static str {
        match self.kind {
            RowKind::Nim => "nim line accumulators",
            RowKind::Lines => "line and box accumulators",
            RowKind::SortedLines => "sorted line and box accumulators",
            _ => "table",
        }
    }

    /// Refuses what the game cannot do in this space: a heap count it is not defined
    /// for, sorted tuples only for a game that is not symmetric, the SJ rule for a game
    /// that is not a sum of heaps.
    ///
    /// # Errors
    /// [`crate::Error::GameHeaps`], [`crate::Error::NotSymmetric`] or
    /// [`crate::Error::NotASum`].
    pub fn ensure_supported(&self, endings: &[Ending]) -> Result<()> {
        self.game.check_heaps(self.space().heaps())?;
        if self.mode() == Mode::Canonical && !self.game.is_symmetric() {
            return Err(crate::Error::NotSymmetric { spec: self.game.spec().to_string() });
        }
        if endings.contains(&Ending::Sj) {
            self.game.require_sum("the SJ rule")?;
        }
        Ok(())
    }

    /// Refuses a run needing `need` bytes above the memory limit.
    pub(crate) fn refuse_above(&self, need: u64) -> Result<()> {
        if self.game.splits() {
            return Err(crate::Error::SplitsHeaps { spec: self.game.spec().to_string() });
        }
        let canonical_would_help =
            self.mode() == Mode::Full && self.space().heaps() >= 3 && self.game.is_symmetric();
        memory::refuse_above(need, self.memory_limit, || self.describe(), canonical_would_help)
    }

    /// The space as messages name it: `game, N heaps, max M`.
    pub(crate) fn describe(&self) -> String {
        format!("{}, {} heaps, max {}", self.game.spec(), self.space().heaps(), self.space().max())
    }

    /// Labels every position under `ending` and returns the table.
    ///
    /// # Errors
    /// As [`Engine::label_all`].
    pub fn label(&self, ending: Ending) -> Result<Labels> {
        let mut tables = self.label_all(&[ending], &NoProgress)?;
        Ok(tables.remove(0))
    }

    /// Labels every position under each of `endings` in one fused pass (one enumeration
    /// of the rows for all) and returns their tables, in the order given.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] if the tables of all endings do not fit together;
    /// [`crate::Error::OutOfMemory`] if the system refuses them anyway; the errors of
    /// [`Engine::ensure_supported`].
    pub fn label_all(&self, endings: &[Ending], progress: &dyn Progress) -> Result<Vec<Labels>> {
        self.ensure_supported(endings)?;
        self.reserve(&[Work::Tables { endings: endings.len() }])?.label_all(endings, progress)
    }

    /// Labels every position under each of `endings` in one fused pass, streaming each
    /// finished row to `visitor` (see [`RowView`]) without keeping a table; returns the
    /// visitor's merged result.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] if the working state of all endings does not fit;
    /// [`crate::Error::OutOfMemory`] if the system refuses it anyway; the errors of
    /// [`Engine::ensure_supported`].
    pub fn stream<V: RowVisitor>(
        &self,
        endings: &[Ending],
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<V::Acc> {
        self.ensure_supported(endings)?;
        let reserved = self.reserve(&[Work::Stream { endings: endings.len() }])?;
        reserved.stream(endings, visitor, progress)
    }

    /// The kept tables of a run, one per track (ending and pass state), as [`Labels`].
    pub(crate) fn labels_of(&self, endings: &[Ending], tables: Vec<Vec<u64>>) -> Vec<Labels> {
        let mut tables = tables.into_iter();
        let mut labels = Vec::with_capacity(endings.len());
        for &ending in endings {
            let used = tables.next().expect("one table per track");
            let available = self.game.has_pass().then(|| tables.next().expect("a pass track"));
            labels.push(Labels::new(self.layout.clone(), ending, used, available));
        }
        labels
    }
}
