//! A sum's Grundy sequence to heap sizes of `2^40`: the sequence engine for subtraction
//! and take-and-break games, `G(n) = n` for Nim, and a move graph's values (0 beyond its
//! largest heap, which has no move).

use crate::error::Result;
use crate::model::game::{Game, MoveRule};
use crate::sequence::period::{PeriodOutcome, Uncertified};
use crate::sequence::{self, Extension, Goal, Observer, Sequence, Settings, Start, Store};

impl Game {
    /// Whether the game's values come from the sequence engine (subtraction games, octal
    /// games, Grundy's game), so that they can be kept on disk and checkpointed.
    pub fn has_sequence_engine(&self) -> bool {
        self.heap_rule().is_some()
    }

    /// `G(0..=settings.max)` of one heap, from `start` (a store for a new run, or a
    /// checkpoint), reporting to `observer`. Nim and move graphs ignore `start` (their
    /// values need no store).
    ///
    /// # Errors
    /// [`crate::Error::NotASum`] for a game that is not a sum; the run's store and
    /// checkpoint errors.
    pub fn grundy_sequence(
        &self,
        settings: &Settings,
        start: Start,
        observer: &mut dyn Observer,
    ) -> Result<Sequence> {
        self.require_sum("the Grundy values of one heap")?;
        if let Some(rule) = self.heap_rule() {
            return Ok(sequence::run(&rule, self.spec(), settings, start, observer)?);
        }
        let max = settings.max;
        let (store, extension, largest) = match self.move_rule() {
            MoveRule::Graph(moves) => {
                let last = (moves.len().saturating_sub(1) as u64).min(max);
                let values = self.grundy(last as u32);
                let mut store = Store::in_memory(values.len() as u64);
                for &v in &values {
                    store.push(v)?;
                }
                let largest = values.iter().copied().max().unwrap_or(0);
                (store, Extension::Zero, u64::from(largest))
            }
            _ => (Store::in_memory(0), Extension::Identity, max),
        };
        let period = (settings.goal == Goal::Period).then_some(PeriodOutcome::NotCertified {
            checked_through: max,
            largest_value: largest,
            reason: Uncertified::NoTheorem,
        });
        Ok(Sequence::new(store, extension, max, period))
    }
}
