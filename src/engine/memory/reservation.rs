//! The one memory check of a run, and the labelling it allows.
//!
//! [`Engine::reserve`] plans the bytes of every piece of [`Work`] a run holds at once,
//! refuses the run above the engine's limit before anything is allocated, and returns a
//! [`Reservation`]: its labelling, streaming and Grundy runs draw every allocation from
//! the reservation's [`Grant`] and check nothing again. [`Engine::label_all`],
//! [`Engine::stream`] and [`Engine::grundy_values`] are each one reservation and one run.

use crate::engine::error::{EngineError, Result};
use crate::engine::memory::{Grant, Keep, Work};
use crate::engine::multiset::MultisetEngine;
use crate::engine::visitor::{Progress, RowVisitor};
use crate::engine::{Engine, GrundyValues, Labels, TupleEngine};
use crate::model::ending::Ending;

/// A run whose memory the engine's check has granted (see [`Engine::reserve`]).
#[derive(Debug)]
pub struct Reservation<'e, 'g> {
    engine: &'e Engine<'g>,
    grant: Grant,
}

impl<'g> Engine<'g> {
    /// The one memory check of a run: the bytes of `work`, held at once (for tuples by
    /// [`Engine::memory_plan`], the fixed structures counted once; for multisets the
    /// packed marks of the endings' table, which a [`Work::Stream`] is read from with its
    /// row buffers), refused above the memory limit before anything is allocated.
    ///
    /// # Errors
    /// [`crate::EngineError::TooLarge`] or [`crate::EngineError::MultisetsTooLarge`] with the bytes
    /// needed and allowed; [`crate::EngineError::SplitsHeaps`] for a game whose moves split
    /// heaps over tuples (its positions leave any space of a fixed heap count);
    /// [`crate::ModelError::GameHeaps`] for a heap count the game is not defined for;
    /// [`crate::ModelError::NotASum`] over multisets for a game that is not a sum;
    /// [`crate::EngineError::NeedsTuples`] for Grundy work over multisets;
    /// [`crate::EngineError::OutOfMemory`] if the system refused the option lists or ranks the
    /// engine prepares.
    pub fn reserve(&self, work: &[Work]) -> Result<Reservation<'_, 'g>> {
        let grant = match self.tuples() {
            Some(tuples) => tuples.reserve(work)?,
            None => {
                let (endings, bytes) = multiset_work(self.multisets(), work)?;
                self.multisets().reserve(endings, bytes)?
            }
        };
        Ok(Reservation { engine: self, grant })
    }
}

impl Engine<'_> {
    /// The bytes [`Engine::reserve`] would check for `work` (held at once, the fixed
    /// structures included), without checking them.
    ///
    /// # Errors
    /// [`crate::EngineError::NeedsTuples`] for Grundy work over multisets.
    pub fn memory_need(&self, work: &[Work]) -> Result<u64> {
        match self.tuples() {
            Some(tuples) => Ok(tuples.memory_plan().bytes(work)),
            None => {
                let (endings, bytes) = multiset_work(self.multisets(), work)?;
                Ok(self.multisets().memory_bytes(endings).saturating_add(bytes))
            }
        }
    }
}

/// The endings of a multiset run's tables (the only labelling multisets have: a stream
/// is read from them) and the bytes held beside them: the caller's, and a stream's row
/// buffers.
fn multiset_work(engine: &MultisetEngine<'_>, work: &[Work]) -> Result<(usize, u64)> {
    work.iter().try_fold((0, 0u64), |(endings, bytes), piece| match *piece {
        Work::Tables { endings: more } => Ok((endings + more, bytes)),
        Work::Stream { endings: more } => {
            Ok((endings + more, bytes.saturating_add(engine.row_buffer_bytes(more))))
        }
        Work::Bytes(more) => Ok((endings, bytes.saturating_add(more))),
        Work::Grundy => Err(EngineError::NeedsTuples { what: "Grundy values of positions" }),
    })
}

impl<'g> TupleEngine<'g> {
    /// The one memory check of a run: the bytes of `work`, held at once, by
    /// [`TupleEngine::memory_plan`] (the fixed structures counted once), refused above the
    /// memory limit before anything is allocated.
    ///
    /// # Errors
    /// [`crate::EngineError::TooLarge`] with the bytes needed and allowed;
    /// [`crate::EngineError::SplitsHeaps`] for a game whose moves split heaps (its positions
    /// leave any space of a fixed heap count); [`crate::ModelError::GameHeaps`] for a heap
    /// count the game is not defined for; [`crate::EngineError::OutOfMemory`] if the system
    /// refused the option lists or ranks the engine prepares.
    pub(crate) fn reserve(&self, work: &[Work]) -> Result<Grant> {
        let plan = self.memory_plan();
        let need = plan.bytes(work);
        self.refuse_above(need)?;
        if !self.prepared {
            // The limit held them, the system did not.
            let bytes = plan.fixed_bytes;
            return Err(EngineError::OutOfMemory { what: self.describe(), bytes });
        }
        Ok(Grant::new(self.describe(), need))
    }
}

impl<'e, 'g> Reservation<'e, 'g> {
    /// The engine the runs label with.
    pub fn engine(&self) -> &'e Engine<'g> {
        self.engine
    }

    /// The memory granted, which every run of the reservation draws from.
    pub fn grant(&self) -> &Grant {
        &self.grant
    }

    /// Labels every position under each of `endings` in one fused labelling and returns their
    /// tables, in the order given (reserved as [`Work::Tables`]).
    ///
    /// # Errors
    /// [`crate::EngineError::OutOfMemory`] if the system refuses the memory; the errors of
    /// [`Engine::ensure_supported`].
    pub fn label_all(&self, endings: &[Ending], progress: &dyn Progress) -> Result<Vec<Labels>> {
        self.engine.ensure_supported(endings)?;
        let Some(tuples) = self.engine.tuples() else {
            let table = self.engine.multisets().label_all(&self.grant, endings, progress)?;
            return Ok(Labels::of_multisets(self.engine.space(), table));
        };
        let (tables, ()) = tuples.run(&self.grant, endings, Keep::Tables, &(), progress)?;
        Ok(tuples.labels_of(endings, tables).into_iter().map(Labels::of_tuples).collect())
    }

    /// Labels every position under each of `endings` in one fused labelling, streaming each
    /// finished row to `visitor` without keeping a table (reserved as [`Work::Stream`]);
    /// returns the visitor's merged result.
    ///
    /// # Errors
    /// As [`Reservation::label_all`].
    pub fn stream<V: RowVisitor>(
        &self,
        endings: &[Ending],
        visitor: &V,
        progress: &dyn Progress,
    ) -> Result<V::Acc> {
        self.engine.ensure_supported(endings)?;
        let Some(tuples) = self.engine.tuples() else {
            let table = self.engine.multisets().label_all(&self.grant, endings, progress)?;
            return Ok(table.stream(visitor));
        };
        Ok(tuples.run(&self.grant, endings, Keep::Rows, visitor, progress)?.1)
    }

    /// The normal-play Grundy value of every position (reserved as [`Work::Grundy`]); see
    /// [`Engine::grundy_values`].
    ///
    /// # Errors
    /// As [`Reservation::label_all`].
    pub fn grundy_values(&self, progress: &dyn Progress) -> Result<GrundyValues> {
        let tuples = self.engine.tuples_for("Grundy values of positions")?;
        tuples.ensure_supported(&[Ending::Normal])?;
        tuples.values(&self.grant, progress)
    }
}
