//! The one memory check of a run, and the labelling it allows.
//!
//! [`Engine::reserve`] plans the bytes of every piece of [`Work`] a run holds at once,
//! refuses the run above the engine's limit before anything is allocated, and returns a
//! [`Reservation`]: its labelling, streaming and Grundy runs draw every allocation from
//! the reservation's [`Grant`] and check nothing again. [`Engine::label_all`],
//! [`Engine::stream`] and [`Engine::grundy_values`] are each one reservation and one run.

use crate::engine::memory::{Grant, Keep, Work};
use crate::engine::visitor::{Progress, RowVisitor};
use crate::engine::{Engine, GrundyValues, Labels};
use crate::error::Result;
use crate::model::ending::Ending;

/// A run whose memory the engine's check has granted (see [`Engine::reserve`]).
#[derive(Debug)]
pub struct Reservation<'e, 'g> {
    engine: &'e Engine<'g>,
    grant: Grant,
}

impl<'g> Engine<'g> {
    /// The one memory check of a run: the bytes of `work`, held at once, by
    /// [`Engine::memory_plan`] (the fixed structures counted once), refused above the
    /// memory limit before anything is allocated.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] with the bytes needed and allowed;
    /// [`crate::Error::SplitsHeaps`] for a game whose moves split heaps (its positions
    /// leave any space of a fixed heap count); [`crate::Error::OutOfMemory`] if the system
    /// refused the option lists or ranks the engine prepares.
    pub fn reserve(&self, work: &[Work]) -> Result<Reservation<'_, 'g>> {
        let plan = self.memory_plan();
        let need = plan.bytes(work);
        self.refuse_above(need)?;
        if !self.prepared {
            // The limit held them, the system did not.
            let bytes = plan.fixed_bytes;
            return Err(crate::Error::OutOfMemory { what: self.describe(), bytes });
        }
        Ok(Reservation { engine: self, grant: Grant::new(self.describe(), need) })
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

    /// Labels every position under each of `endings` in one fused pass and returns their
    /// tables, in the order given (reserved as [`Work::Tables`]).
    ///
    /// # Errors
    /// [`crate::Error::OutOfMemory`] if the system refuses the memory; the errors of
    /// [`Engine::ensure_supported`].
    pub fn label_all(&self, endings: &[Ending], progress: &dyn Progress) -> Result<Vec<Labels>> {
        self.engine.ensure_supported(endings)?;
        let (tables, ()) = self.engine.run(&self.grant, endings, Keep::Tables, &(), progress)?;
        Ok(self.engine.labels_of(endings, tables))
    }

    /// Labels every position under each of `endings` in one fused pass, streaming each
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
        Ok(self.engine.run(&self.grant, endings, Keep::Rows, visitor, progress)?.1)
    }

    /// The normal-play Grundy value of every position (reserved as [`Work::Grundy`]); see
    /// [`Engine::grundy_values`].
    ///
    /// # Errors
    /// As [`Reservation::label_all`].
    pub fn grundy_values(&self, progress: &dyn Progress) -> Result<GrundyValues> {
        self.engine.ensure_supported(&[Ending::Normal])?;
        self.engine.values(&self.grant, progress)
    }
}
