//! The retrograde DP engine: labels every position P or N, row by row, layer by layer.
//!
//! A *row* is every position sharing the first `n - 1` heaps (the *prefix*); its bits are
//! indexed by the last heap `hN`, in buffers of whole 64-bit words while labelled, packed
//! end to end in the label tables (`tuples/layout.rs`, `tuples/label_table.rs`). Rows are
//! processed in *layers* of equal prefix sum (`tuples/schedule.rs`): a move on a prefix heap
//! lowers that sum, so all options of a row lie in earlier layers or in the row itself,
//! and the rows of one layer are independent. Within a row, moves on the last heap are
//! resolved left to right by a row solver: Nim's (`tuples/rows/nim.rs`), subtraction sets with
//! small elements (`tuples/rows/subtract.rs`), or explicit option lists (`tuples/rows/general.rs`).
//!
//! Only the move rule produces the labels: a position is P iff it is not forced N by the
//! ending and no option is P. No criterion is consulted.

mod bits;
pub(crate) mod error;
mod labels;
mod memory;
mod multiset;
mod position_grundy;
mod sorted;
pub(crate) mod tuples;
mod visitor;

pub use error::EngineError;
pub use labels::Labels;
pub use memory::reservation::Reservation;
pub use memory::{Grant, MemoryPlan, Work};
pub use position_grundy::GrundyValues;
pub use tuples::rows::row_kind::MultiHeapPath;
pub use visitor::{NoProgress, PlaneView, Progress, RowView, RowVisitor, NO_P};

pub(crate) use bits::valid_columns;
pub(crate) use tuples::tuple_labels::TupleLabels;
pub(crate) use tuples::TupleEngine;

use crate::engine::error::Result;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::position::PassState;
use crate::model::space::{Space, TupleSpace};
use multiset::MultisetEngine;

/// Labels the positions of one space of one game: every tuple, the sorted tuples, or
/// every multiset of a bounded total.
///
/// Built with [`Engine::new`] (default settings) or [`Engine::builder`]. Every run checks
/// its memory need against the engine's limit before allocating. Tuples are labelled row
/// by row, layer by layer; multisets (the positions of games that split heaps) by
/// retrograde marking over layers of equal total, a different algorithm behind the same
/// calls.
#[derive(Debug)]
pub struct Engine<'g> {
    space: Space,
    core: Core<'g>,
}

/// The algorithm behind an [`Engine`], chosen by its space.
#[derive(Debug)]
enum Core<'g> {
    // Boxed: the tuple engine's plans are many times the size of the multiset engine.
    Tuples(Box<TupleEngine<'g>>),
    Multisets(MultisetEngine<'g>),
}

/// What every run of an engine reads, whatever its space: set by [`EngineBuilder`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Positions per layer below which a layer runs on the calling thread.
    pub parallel_threshold: u64,
    /// Bytes a run may allocate.
    pub memory_limit: u64,
    /// The path of multi-heap games over tuples.
    pub multi_heap_path: MultiHeapPath,
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
    /// Bytes a run may allocate (default: [`crate::host::memory_limit`], what this
    /// process can have). A run that needs more is refused before allocating.
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = Some(bytes);
        self
    }

    /// Positions per layer (on average, for tuples) below which a layer runs on the
    /// calling thread (default 16384: smaller layers cost more to split than they save).
    /// 0 makes every layer parallel, which tests use to exercise the parallel path on
    /// small spaces.
    pub fn parallel_threshold(mut self, positions_per_layer: u64) -> Self {
        self.parallel_threshold = positions_per_layer;
        self
    }

    /// For a game whose moves change several heaps, over tuples:
    /// [`MultiHeapPath::General`] reads, in full mode, every source row of a row's prefix
    /// moves one by one, and on sorted tuples lists every option of every position and
    /// looks it up (the general path, which any multi-heap rule can use), instead of the
    /// accumulators of Wythoff, Moore and circular Nim. Slower; for cross-checks and
    /// benchmarks. Default [`MultiHeapPath::Accumulators`].
    pub fn multi_heap_path(mut self, path: MultiHeapPath) -> Self {
        self.multi_heap_path = path;
        self
    }

    /// Prepares the engine of the space (for tuples: the option lists and the row
    /// layout, if they fit in the memory limit; a run that cannot fit is refused by its
    /// memory check, before anything is allocated).
    pub fn build(self) -> Engine<'g> {
        let settings = Settings {
            parallel_threshold: self.parallel_threshold,
            memory_limit: self.memory_limit.unwrap_or_else(crate::host::memory_limit),
            multi_heap_path: self.multi_heap_path,
        };
        let core = match &self.space {
            Space::Tuples(tuples) => {
                Core::Tuples(Box::new(TupleEngine::new(self.game, *tuples, &settings)))
            }
            Space::Multisets(multisets) => {
                Core::Multisets(MultisetEngine::new(self.game, multisets.clone(), &settings))
            }
        };
        Engine { space: self.space, core }
    }
}

impl<'g> Engine<'g> {
    /// An engine over `space`, with the default settings.
    pub fn new(game: &'g Game, space: Space) -> Engine<'g> {
        Engine::builder(game, space).build()
    }

    /// Settings for an engine over `space`: memory limit, parallel threshold, the path
    /// of multi-heap games.
    pub fn builder(game: &'g Game, space: Space) -> EngineBuilder<'g> {
        EngineBuilder {
            game,
            space,
            parallel_threshold: tuples::schedule::PARALLEL_THRESHOLD,
            memory_limit: None,
            multi_heap_path: MultiHeapPath::Accumulators,
        }
    }

    /// The game labelled.
    pub fn game(&self) -> &'g Game {
        match &self.core {
            Core::Tuples(tuples) => tuples.game(),
            Core::Multisets(multisets) => multisets.game(),
        }
    }

    /// The space labelled.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The tuple engine, over a space of tuples.
    pub(crate) fn tuples(&self) -> Option<&TupleEngine<'g>> {
        match &self.core {
            Core::Tuples(tuples) => Some(tuples),
            Core::Multisets(_) => None,
        }
    }

    /// The multiset engine; only asked of an engine over multisets.
    pub(crate) fn multisets(&self) -> &MultisetEngine<'g> {
        match &self.core {
            Core::Multisets(multisets) => multisets,
            Core::Tuples(_) => unreachable!("an engine over tuples asked for its multisets"),
        }
    }

    /// The tuple space; only asked of an engine over tuples.
    pub(crate) fn tuple_space(&self) -> TupleSpace {
        self.space.as_tuples().expect("an engine over tuples")
    }

    /// The tuple engine, or the refusal of `what` over multisets.
    pub(crate) fn tuples_for(&self, what: &'static str) -> Result<&TupleEngine<'g>> {
        self.tuples().ok_or(EngineError::NeedsTuples { what })
    }

    /// Positions labelled per ending (sorted tuples only, in canonical mode); with a
    /// pass, every heap tuple counts twice (pass used, pass available).
    pub fn positions(&self) -> u64 {
        match &self.core {
            Core::Tuples(tuples) => tuples.positions(),
            Core::Multisets(_) => self.space.positions(),
        }
    }

    /// The position of an index: mixed-radix, the rank among sorted tuples, or the rank
    /// of a multiset (as non-increasing heaps).
    ///
    /// # Panics
    /// If the index is beyond the space.
    pub fn position(&self, index: u64) -> Vec<u32> {
        match &self.core {
            Core::Tuples(tuples) => tuples.position(index),
            Core::Multisets(multisets) => multisets.space().unrank(index),
        }
    }

    /// The index of a position (the inverse of [`Engine::position`]); in canonical mode
    /// and for multisets the heaps may come in any order.
    ///
    /// # Panics
    /// If the position is not in the space: a tuple of the wrong length or with a heap
    /// above the max, or heaps above the total.
    pub fn index(&self, position: &[u32]) -> u64 {
        match &self.core {
            Core::Tuples(tuples) => tuples.index(position),
            Core::Multisets(multisets) => {
                multisets.space().rank(position).expect("heaps above the space's total")
            }
        }
    }

    /// The position and pass state of a state index (see [`RowView::state_index`]):
    /// without a pass, the position of the index and `None`.
    pub fn state(&self, index: u64) -> (Vec<u32>, Option<PassState>) {
        match &self.core {
            Core::Tuples(tuples) => tuples.state(index),
            Core::Multisets(_) => (self.position(index), None),
        }
    }

    /// Bytes a run may allocate.
    pub fn memory_limit(&self) -> u64 {
        match &self.core {
            Core::Tuples(tuples) => tuples.memory_limit(),
            Core::Multisets(multisets) => multisets.memory_limit(),
        }
    }

    /// What a run keeps besides the kept tables: `table` (a whole label table per
    /// ending), `nim line accumulators`, `line and box accumulators` (multi-heap games in
    /// full mode), `sorted line and box accumulators` (on sorted tuples), or `multiset
    /// marks` (the packed bits of every ending, for multisets).
    pub fn working_state(&self) -> &'static str {
        match &self.core {
            Core::Tuples(tuples) => tuples.working_state(),
            Core::Multisets(_) => "multiset marks",
        }
    }

    /// The bytes of every part of a run over tuples; `None` for multisets, whose runs
    /// are one packed table ([`Engine::reserve`] checks either).
    pub fn memory_plan(&self) -> Option<MemoryPlan> {
        self.tuples().map(TupleEngine::memory_plan)
    }

    /// The largest Grundy value a position of a tuple space can have; `None` for
    /// multisets.
    pub fn grundy_bound(&self) -> Option<u64> {
        self.tuples().map(TupleEngine::grundy_bound)
    }

    /// Refuses what the game cannot do in this space: a heap count it is not defined
    /// for, sorted tuples only for a game that is not symmetric, the SJ ending for a game
    /// that is not a sum of heaps; multisets for a game that is not a sum.
    ///
    /// # Errors
    /// [`EngineError::NotSymmetric`]; [`crate::ModelError::GameHeaps`] or
    /// [`crate::ModelError::NotASum`] (as [`EngineError::Model`]).
    pub fn ensure_supported(&self, endings: &[Ending]) -> Result<()> {
        match &self.core {
            Core::Tuples(tuples) => tuples.ensure_supported(endings),
            Core::Multisets(multisets) => multisets.ensure_supported(endings),
        }
    }

    /// Labels every position under `ending` and returns the table.
    ///
    /// # Errors
    /// As [`Engine::label_all`].
    pub fn label(&self, ending: Ending) -> Result<Labels> {
        let mut tables = self.label_all(&[ending], &NoProgress)?;
        Ok(tables.remove(0))
    }

    /// Labels every position under each of `endings` in one fused labelling and returns their
    /// tables, in the order given.
    ///
    /// # Errors
    /// [`EngineError::TooLarge`] or [`EngineError::MultisetsTooLarge`] if the tables of all
    /// endings do not fit together; [`EngineError::OutOfMemory`] if the system refuses them
    /// anyway; the errors of [`Engine::ensure_supported`]; [`EngineError::BadEndings`] for a
    /// repeated ending over multisets.
    pub fn label_all(&self, endings: &[Ending], progress: &dyn Progress) -> Result<Vec<Labels>> {
        self.ensure_supported(endings)?;
        self.reserve(&[Work::Tables { endings: endings.len() }])?.label_all(endings, progress)
    }

    /// Labels every position under each of `endings` in one fused labelling, streaming
    /// each finished row to `visitor` (see [`RowView`]); returns the visitor's merged
    /// result. A tuple space keeps no table; a multiset space is labelled whole and its
    /// table then handed out row by row, each column's index in [`RowView::ranks`] (a
    /// visitor that works out indices as `first_index + (h - lo)` holds for tuples only).
    ///
    /// # Errors
    /// [`EngineError::TooLarge`] or [`EngineError::MultisetsTooLarge`] if the working state
    /// of all endings does not fit; [`EngineError::OutOfMemory`] if the system refuses it
    /// anyway; the errors of [`Engine::ensure_supported`].
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
}
