//! The library's error: every way an input or a run can be refused, by the layer that
//! refused it.
//!
//! Messages name the bad value, never a command-line flag: the library does not know how
//! its caller spells its options. The binary adds the flag wording where it has it.

use crate::engine::error::{size, EngineError};
use crate::model::error::ModelError;

/// Everything the library can refuse or fail at. A refusal of the model or the engine
/// comes as [`Error::Model`] or [`Error::Engine`] whichever layer passed it up (the
/// engine's own wrapping of a model error is undone), so one pattern finds it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The model refused a game, a space or an ending.
    #[error(transparent)]
    Model(ModelError),
    /// The engine refused or could not finish a run.
    #[error(transparent)]
    Engine(EngineError),
    /// A criterion used with a game (or heap count) it says nothing about.
    #[error("criterion {criterion} does not apply to {spec} with {heaps} heaps: {reason}")]
    CriterionNotApplicable {
        /// The criterion's name.
        criterion: String,
        /// The game's specification.
        spec: String,
        /// The heap count.
        heaps: usize,
        /// What the criterion is for.
        reason: String,
    },
    /// A criterion compared over a multiset space that it says nothing about.
    #[error(
        "criterion {criterion} does not apply to a space of multisets of heaps: only xor, \
         anti-nim, sj and quotient do"
    )]
    CriterionNotForMultisets {
        /// The criterion's name.
        criterion: String,
    },
    /// A criterion name that is not one of [`crate::Criterion::ALL`].
    #[error(
        "unknown criterion '{0}': expected xor, anti-nim, sj, moore, moore-misere, wythoff or \
         wythoff-misere"
    )]
    UnknownCriterion(String),
    /// A position whose legal moves would not fit in memory beside the labelling that
    /// finds which of them win.
    #[error(
        "the position {position} has {moves} legal moves, whose states need {} of memory \
         but only {} is available",
        size(*.need_bytes),
        size(*.limit_bytes)
    )]
    TooManyMoves {
        /// The position, as `(h1 h2 …)`.
        position: String,
        /// Its legal moves.
        moves: u64,
        /// Memory the moves' states need, in bytes.
        need_bytes: u64,
        /// Memory left beside the labelling, in bytes.
        limit_bytes: u64,
    },
    /// Any other invalid argument, with a message naming the value.
    #[error("{0}")]
    Invalid(String),
    /// An I/O error while writing output.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<ModelError> for Error {
    fn from(e: ModelError) -> Self {
        Error::Model(e)
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Model(e) => Error::Model(e),
            e => Error::Engine(e),
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::criteria::Criterion;
    use crate::engine::{Engine, NoProgress};
    use crate::model::ending::Ending;
    use crate::model::game::Game;
    use crate::model::space::Space;

    #[test]
    fn a_model_error_the_engine_passed_up_arrives_as_a_model_error() {
        let passed_up = Error::from(EngineError::from(ModelError::NoHeaps));
        assert!(matches!(passed_up, Error::Model(ModelError::NoHeaps)), "{passed_up:?}");
        assert_eq!(passed_up.to_string(), "a space needs at least one heap, got 0");
        let own = Error::from(EngineError::Cancelled);
        assert!(matches!(own, Error::Engine(EngineError::Cancelled)), "{own:?}");
    }

    #[test]
    fn a_verification_too_large_is_the_engines_refusal_with_its_message() {
        let game = Game::nim();
        let engine = Engine::builder(&game, Space::new(3, 255).unwrap()).memory_limit(1 << 10);
        let refused =
            crate::verify(&engine.build(), &[Ending::Normal], &[Criterion::Xor], 5, &NoProgress)
                .unwrap_err();
        assert!(matches!(refused, Error::Engine(EngineError::TooLarge { .. })), "{refused:?}");
        assert!(refused.to_string().starts_with("space too large: nim, 3 heaps, max 255"));
        let not_a_sum = crate::verify(
            &Engine::new(&Game::parse("wythoff").unwrap(), Space::new(2, 7).unwrap()),
            &[Ending::Sj],
            &[],
            5,
            &NoProgress,
        )
        .unwrap_err();
        assert!(matches!(not_a_sum, Error::Model(ModelError::NotASum { .. })), "{not_a_sum:?}");
    }
}
