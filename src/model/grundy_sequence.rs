//! A sum's Grundy sequence to heap sizes of `2^40`: the sequence engine for subtraction
//! and take-and-break games, `G(n) = n` for Nim, and a move graph's values (0 beyond its
//! largest heap, which has no move); and the period certificate that applies to a game.

use crate::model::error::{ModelError, Result};
use crate::model::game::{Game, MoveRule};
#[cfg(test)]
use crate::sequence::period::Exclusion;
use crate::sequence::period::{
    find_three_heap_period, Certificate, MoveShape, PeriodOutcome, Uncertified,
};
use crate::sequence::{self, Extension, Goal, Observer, Sequence, Settings, Start, Store};
use crate::sequence::{three_heap_values_until, ThreeHeapRule};

impl Game {
    /// Refuses a game whose heaps have no Grundy values of their own: one that is not a
    /// sum of heaps (several heaps move at once, or a pass is shared). The one rule of
    /// one heap's values, whichever front-end asks for them.
    ///
    /// # Errors
    /// [`crate::ModelError::NotASum`] naming the game.
    pub fn require_heap_values(&self) -> Result<()> {
        self.require_sum("the Grundy sequence of one heap")
    }

    /// `G(0..=max)` of one heap, in memory.
    ///
    /// # Errors
    /// [`crate::ModelError::NotASum`] for a game that is not a sum of heaps
    /// ([`Game::require_heap_values`]).
    pub fn heap_values(&self, max: u32) -> Result<Vec<u32>> {
        self.require_heap_values()?;
        if self.splits_in_three() {
            return self.three_heap_values(u64::from(max), &mut || false);
        }
        Ok(self.grundy(max))
    }

    /// What `values` (`G(0..values.len())`) prove of the game's sequence: a period
    /// certified by the game's theorem or, for a game with three-heap moves, an ordinary
    /// or arithmetic period proved by [`find_three_heap_period`].
    pub fn period_of(&self, values: &[u32]) -> PeriodOutcome {
        match self.three_heap_rule() {
            Some(rule) => find_three_heap_period(&rule, values),
            None => sequence::period::find_period(Certificate::for_game(self), values),
        }
    }

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
    /// [`crate::ModelError::NotASum`] for a game that is not a sum; the run's store and
    /// checkpoint errors.
    pub fn grundy_sequence(
        &self,
        settings: &Settings,
        start: Start,
        observer: &mut dyn Observer,
    ) -> Result<Sequence> {
        self.require_heap_values()?;
        if let Some(rule) = self.heap_rule() {
            return Ok(sequence::run(&rule, self.spec(), settings, start, observer)?);
        }
        let max = settings.max;
        if let Some(rule) = self.three_heap_rule() {
            return self.three_heap_sequence(&rule, settings, start, observer);
        }
        let (store, extension, largest) = match self.move_rule() {
            MoveRule::Graph(moves) => {
                let last = (moves.len().saturating_sub(1) as u64).min(max);
                let values = self.grundy(last as u32);
                let store = Store::from_values(&values)?;
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

    /// The sequence of a game with three-heap moves, in memory, from a fresh start or
    /// the values of its checkpoint (see [`sequence::run_three_heaps`]), refusing a max
    /// above [`MAX_THREE_HEAP_SEQUENCE`] before any work.
    fn three_heap_sequence(
        &self,
        rule: &ThreeHeapRule,
        settings: &Settings,
        start: Start,
        observer: &mut dyn Observer,
    ) -> Result<Sequence> {
        if settings.max > u64::from(MAX_THREE_HEAP_SEQUENCE) {
            return Err(ModelError::ThreeHeapSequenceTooLong {
                spec: self.spec().to_string(),
                max: settings.max,
                limit: MAX_THREE_HEAP_SEQUENCE,
            });
        }
        Ok(sequence::run_three_heaps(rule, self.spec(), settings, start, observer)?)
    }

    /// `G(0..=max)` of a game with three-heap moves (fewer when `stop` says so), refusing
    /// a `max` above [`MAX_THREE_HEAP_SEQUENCE`].
    fn three_heap_values(&self, max: u64, stop: &mut dyn FnMut() -> bool) -> Result<Vec<u32>> {
        match (self.three_heap_rule(), u32::try_from(max)) {
            (Some(rule), Ok(max)) if max <= MAX_THREE_HEAP_SEQUENCE => {
                Ok(three_heap_values_until(&rule, max, stop))
            }
            _ => Err(ModelError::ThreeHeapSequenceTooLong {
                spec: self.spec().to_string(),
                max,
                limit: MAX_THREE_HEAP_SEQUENCE,
            }),
        }
    }
}

pub use crate::sequence::MAX_THREE_HEAP_SEQUENCE;

impl Certificate {
    /// The certificate that applies to a game, if any: the theorem for its heap rule
    /// (subtraction and octal games).
    pub fn for_game(game: &Game) -> Option<Certificate> {
        if let Some(rule) = game.three_heap_rule() {
            return Some(Certificate::for_shape(MoveShape::of_three_heap_rule(&rule)));
        }
        game.heap_rule().as_ref().and_then(Certificate::for_rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::period::find_period;

    fn certified(spec: &str, max: u32) -> (u64, u64) {
        let game = Game::parse(spec).unwrap();
        match find_period(Certificate::for_game(&game), &game.grundy(max)) {
            PeriodOutcome::Certified(p) => (p.preperiod, p.period),
            other => panic!("{spec}: not certified: {other:?}"),
        }
    }

    #[test]
    fn known_periods_are_certified() {
        assert_eq!(certified("subtract:1,2", 100), (0, 3));
        assert_eq!(certified("subtract:1,3,4", 100), (0, 7));
        assert_eq!(certified("subtract:2,5,7", 200), (0, 22));
        assert_eq!(certified("octal:0.77", 1000), (71, 12));
        assert_eq!(certified("octal:0.07", 1000), (53, 34));
        assert_eq!(certified("octal:0.137", 1000), (52, 34));
    }

    #[test]
    fn the_quoted_window_at_preperiod_zero_is_not_enough_for_0_4() {
        // G = 0, 0, 0, 1: (e, p) = (0, 1) fits n < 2e + p + t = 2 but is false; the
        // window n < 2 max(e, 1) + p + t = 4 needs G(4).
        let game = Game::octal("0.4").unwrap();
        assert_eq!(game.grundy(3), vec![0, 0, 0, 1]);
        let outcome = find_period(Certificate::for_game(&game), &game.grundy(2));
        assert!(matches!(outcome, PeriodOutcome::NotCertified { .. }), "{outcome:?}");
    }

    #[test]
    fn short_data_and_games_without_a_theorem_are_not_certified() {
        let kayles = Game::octal("0.77").unwrap();
        let outcome = find_period(Certificate::for_game(&kayles), &kayles.grundy(150));
        let expected = PeriodOutcome::NotCertified {
            checked_through: 150,
            largest_value: 8,
            // Every period up to 75 needs a preperiod of at least 71; 12 holds from there.
            reason: Uncertified::NotWithinData(Exclusion {
                longest: 75,
                least_preperiod: 71,
                nearest: Some((71, 12)),
            }),
        };
        assert_eq!(outcome, expected);
        for game in [Game::nim(), Game::grundys_game()] {
            assert_eq!(Certificate::for_game(&game), None);
        }
    }
}
