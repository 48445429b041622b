//! The tuple engine: the retrograde DP over every tuple or the sorted tuples of a space.

pub(crate) mod batch;
pub(crate) mod label_table;
pub(crate) mod labelling;
pub(crate) mod layer_crew;
pub(crate) mod layout;
pub(crate) mod planes;
pub(crate) mod rows;
pub(crate) mod run;
pub(crate) mod schedule;
pub(crate) mod shared_rows;
pub(crate) mod sources;
pub(crate) mod tuple_labels;

use crate::engine::error::{EngineError, Result};
use crate::engine::memory::{self, plan};
use crate::engine::sorted::lines::SortedPlan;
use crate::engine::tuples::layout::{Layout, Rankers};
use crate::engine::tuples::rows::general::FlatOptions;
use crate::engine::tuples::rows::lines::LinePlan;
use crate::engine::tuples::rows::row_kind::{reach_below, row_kind, RowKind};
use crate::engine::tuples::tuple_labels::TupleLabels;
use crate::engine::{bits, Settings};
use crate::model::canonical::CanonicalRanker;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::options::PositionOptions;
use crate::model::position::PassState;
use crate::model::space::{Mode, TupleSpace};

/// Labels the positions of one tuple space of one game, in full or canonical mode: the
/// algorithm of an [`super::Engine`] over tuples.
pub(crate) struct TupleEngine<'g> {
    pub(super) game: &'g Game,
    pub(super) layout: Layout,
    pub(super) kind: RowKind,
    /// Option lists of every heap size, one flat array (only for table-based sum rows).
    pub(super) options: FlatOptions,
    /// Canonical Nim: ranks a prefix with one heap removed (length k - 1).
    pub(super) short_ranker: Option<CanonicalRanker>,
    /// Canonical table rows: `reach_below[m]` is the least size below `m` that some heap
    /// of size `>= m` can move to (`m` if none); it bounds the columns to preload.
    pub(super) reach_below: Vec<u32>,
    /// Multi-heap games in full mode: the line and box accumulators.
    pub(super) lines: Option<LinePlan>,
    /// Multi-heap games on sorted tuples: their accumulators.
    pub(super) sorted: Option<SortedPlan>,
    /// Multi-heap games on the general or explicit path: their options.
    pub(super) position_options: Option<PositionOptions<'g>>,
    /// `no_move[h]`: a heap of size `h` has no move alone; a position of such heaps has
    /// no move at all (and may not pass).
    pub(super) no_move: Vec<bool>,
    /// The same as a row mask over the last heap.
    pub(super) no_move_mask: Vec<u64>,
    /// Layers with fewer positions on average run on the calling thread.
    pub(super) parallel_threshold: u64,
    /// Bytes a run may allocate.
    pub(super) memory_limit: u64,
    /// Whether the structures sized by the largest heap fitted the limit and were given.
    pub(super) prepared: bool,
}

impl std::fmt::Debug for TupleEngine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TupleEngine")
            .field("game", &self.game.spec())
            .field("space", &self.space())
            .field("mode", &self.mode())
            .field("row_solver", &self.kind)
            .field("memory_limit", &self.memory_limit)
            .finish()
    }
}

impl<'g> TupleEngine<'g> {
    /// Prepares the option lists and the row layout, if they fit in the memory limit.
    ///
    /// They are sized by the largest heap, so with a huge `max` they alone can exceed the
    /// limit: then nothing is prepared, and every run is refused by its memory check (the
    /// plan counts them), before anything is allocated.
    pub(crate) fn new(game: &'g Game, space: TupleSpace, settings: &Settings) -> TupleEngine<'g> {
        let mode = space.mode();
        let max = space.max();
        let kind = row_kind(game, space, mode, settings.multi_heap_path);
        let memory_limit = settings.memory_limit;
        // A space the game cannot be labelled in is refused by every run: nothing is
        // prepared for it (a take-and-break game's option lists alone take O(max^2)).
        let fits = refuse_unheld(game, space.heaps()).is_ok()
            && plan::fixed_bytes(game, space, kind) <= memory_limit;
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
        // An engine that cannot run allocates nothing sized by the largest heap.
        let layout = Layout::new(space, if fits { Rankers::Build } else { Rankers::Skip });
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
        let rankers = if prepared { Rankers::Build } else { Rankers::Skip };
        let sorted =
            (kind == RowKind::SortedLines).then(|| SortedPlan::new(game.kind(), space, rankers));
        let position_options = matches!(kind, RowKind::Sources | RowKind::Explicit)
            .then(|| PositionOptions::new(game, space.heaps()));
        let no_move: Vec<bool> = (0..=max).map(|h| !game.has_moves(h)).collect();
        let no_move_mask = bits::mask_of(&no_move, layout.words_per_row());
        TupleEngine {
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
            parallel_threshold: settings.parallel_threshold,
            memory_limit,
            prepared,
        }
    }

    /// The game labelled.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The space labelled.
    pub fn space(&self) -> TupleSpace {
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

    /// The index of a position (the inverse of [`TupleEngine::position`]); in canonical mode
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
    pub fn state(&self, index: u64) -> (Vec<u32>, Option<PassState>) {
        if self.game.has_pass() {
            (self.layout.position(index / 2), Some(PassState::of(index % 2 == 1)))
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
    /// for, sorted tuples only for a game that is not symmetric, the SJ ending for a game
    /// that is not a sum of heaps.
    ///
    /// # Errors
    /// [`EngineError::NotSymmetric`]; [`crate::ModelError::GameHeaps`] or
    /// [`crate::ModelError::NotASum`] (as [`EngineError::Model`]).
    pub fn ensure_supported(&self, endings: &[Ending]) -> Result<()> {
        self.game.check_heaps(self.space().heaps())?;
        if self.mode() == Mode::Canonical && !self.game.is_symmetric() {
            return Err(EngineError::NotSymmetric { spec: self.game.spec().to_string() });
        }
        if endings.contains(&Ending::Sj) {
            self.game.require_sum("the SJ rule")?;
        }
        Ok(())
    }

    /// Refuses a space the game cannot be labelled in, then a run needing `need` bytes
    /// above the memory limit.
    pub(crate) fn refuse_above(&self, need: u64) -> Result<()> {
        refuse_unheld(self.game, self.space().heaps())?;
        let canonical_would_help =
            self.mode() == Mode::Full && self.space().heaps() >= 3 && self.game.is_symmetric();
        memory::refuse_above(need, self.memory_limit, || self.describe(), canonical_would_help)
    }

    /// The space as messages name it: `game, N heaps, max M`.
    pub(crate) fn describe(&self) -> String {
        format!("{}, {} heaps, max {}", self.game.spec(), self.space().heaps(), self.space().max())
    }

    /// The kept tables of a run, one per track (ending and pass state), as [`TupleLabels`].
    pub(crate) fn labels_of(&self, endings: &[Ending], tables: Vec<Vec<u64>>) -> Vec<TupleLabels> {
        let mut tables = tables.into_iter();
        let mut labels = Vec::with_capacity(endings.len());
        for &ending in endings {
            let used = tables.next().expect("one table per track");
            let available = self.game.has_pass().then(|| tables.next().expect("a pass track"));
            labels.push(TupleLabels::new(self.layout.clone(), ending, used, available));
        }
        labels
    }
}

/// Refuses tuples of `heaps` heaps for a game whose positions leave them (its moves split
/// heaps) or that is not defined for that many heaps (`circular:K` with fewer than `K`).
fn refuse_unheld(game: &Game, heaps: usize) -> Result<()> {
    if game.splits() {
        let (spec, parts) = (game.spec().to_string(), game.split_parts());
        return Err(EngineError::SplitsHeaps { spec, parts });
    }
    Ok(game.check_heaps(heaps)?)
}
