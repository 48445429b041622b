//! Errors of the engine: runs that do not fit, work a space cannot do, a cancelled run.

use crate::model::error::ModelError;

/// A run the engine refuses or cannot finish, or the model's refusal of its input.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The model refused the game, the space or an ending.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Sorted tuples only, for a game whose labels depend on the order of the heaps.
    #[error(
        "{spec} is not symmetric (its heaps stand in a circle), so sorted tuples cannot stand \
         for all positions"
    )]
    NotSymmetric {
        /// The game's specification.
        spec: String,
    },
    /// A game whose moves split heaps, asked for over tuples of a fixed heap count.
    #[error(
        "{spec} can split a heap {parts}, so tuples of a fixed number of heaps do not hold \
         its moves; label multisets of heaps of a bounded total instead"
    )]
    SplitsHeaps {
        /// The game's specification.
        spec: String,
        /// How it splits a heap, `in two` or `in three` ([`crate::Game::split_parts`]).
        parts: &'static str,
    },
    /// A space whose tables do not fit in the memory allowed.
    #[error(
        "space too large: {what} needs {} of memory but only {} is available",
        size(*.need_bytes),
        size(*.limit_bytes)
    )]
    TooLarge {
        /// The space, as `game, N heaps, max M`.
        what: String,
        /// Memory needed, in bytes.
        need_bytes: u64,
        /// Memory allowed, in bytes.
        limit_bytes: u64,
        /// Whether labelling sorted tuples only would need less (a full space of 3 or
        /// more heaps).
        canonical_would_help: bool,
    },
    /// A multiset space whose tables do not fit in the memory allowed.
    #[error(
        "space too large: {what} needs {} of memory but only {} is available",
        size(*.need_bytes),
        size(*.limit_bytes)
    )]
    MultisetsTooLarge {
        /// The space, as `game, total at most T (N positions)`.
        what: String,
        /// Memory needed, in bytes.
        need_bytes: u64,
        /// Memory allowed, in bytes.
        limit_bytes: u64,
    },
    /// Memory for a run's tables that the system refused although the plan fitted the
    /// limit (another process took it, or a limit the process cannot see).
    #[error(
        "out of memory: {what} needs {} of tables and the system refused them",
        size(*.bytes)
    )]
    OutOfMemory {
        /// The space, as `game, N heaps, max M`.
        what: String,
        /// Bytes asked for.
        bytes: u64,
    },
    /// An operation that only a space of tuples has, asked of a space of multisets.
    #[error("{what} needs a space of tuples, not of multisets")]
    NeedsTuples {
        /// The operation.
        what: &'static str,
    },
    /// The caller stopped the work through [`crate::Progress::cancelled`].
    #[error("cancelled before the work was done")]
    Cancelled,
    /// Threads of a run that the system would not start (no memory for their stacks, or
    /// a limit on threads).
    #[error("could not start the {threads} threads of the run: {cause}")]
    ThreadsNotStarted {
        /// Threads the run asked for, the calling one among them.
        threads: usize,
        /// The system's refusal.
        cause: std::io::Error,
    },
    /// A list of endings that is empty or repeats one, where distinct endings are needed.
    #[error("expected distinct endings, got {endings}")]
    BadEndings {
        /// The endings as given (in Rust's debug form).
        endings: String,
    },
}

/// Bytes as messages say them: in GiB from 1 GiB on, else in MiB.
pub(crate) fn size(bytes: u64) -> String {
    let gib = bytes as f64 / (1u64 << 30) as f64;
    if gib >= 1.0 {
        format!("{gib:.2} GiB")
    } else {
        format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

/// The engine's result type.
pub type Result<T, E = EngineError> = std::result::Result<T, E>;
