//! Why a sweep, a shard or a merge is refused: each message names the bad value.

use crate::analysis::expr::ExprError;
use crate::sequence::human_bytes;

/// The result of a sweep, a shard or a merge.
pub type Result<T, E = SweepError> = std::result::Result<T, E>;

/// Everything a sweep can refuse, before or after its work.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// A game, a space or a run refused (its memory, an ending it lacks), or an output that
    /// failed, as the engine and the analysis say.
    #[error(transparent)]
    Space(#[from] crate::Error),
    /// A quotient sweep's bound out of range, or a quotient that failed.
    #[error(transparent)]
    Quotient(#[from] crate::quotient::QuotientError),
    /// A quotient sweep's game time or memory of nothing.
    #[error("the {what} of each game must be more than 0")]
    ZeroGameLimit {
        /// `time` or `memory`.
        what: &'static str,
    },
    /// A game memory that the games a quotient sweep runs at once cannot each have.
    #[error(
        "{} for each of {at_once} games run at once needs {}, more than the {} of memory \
         available",
        human_bytes(*.per_game),
        human_bytes(.per_game.saturating_mul(*.at_once as u64)),
        human_bytes(*.available)
    )]
    GameMemoryBeyondBudget {
        /// Bytes each game may hold.
        per_game: u64,
        /// Games run at once (the threads, or fewer games).
        at_once: usize,
        /// The sweep's memory.
        available: u64,
    },
    /// A family text or line that is not a spec, a list or a known pattern.
    #[error("bad family '{text}': {reason}")]
    FamilySyntax {
        /// The item as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A family with no games (an empty file).
    #[error("the family {family} has no games")]
    EmptyFamily {
        /// The family, as `'TEXT'` or `file NAME`.
        family: String,
    },
    /// More games than the limit (without force) or the hard limit (with it).
    #[error(
        "the family {family} has {count} games, above the limit of {limit}{}",
        if *.forced { "" } else { " (forcing allows more)" }
    )]
    FamilyTooLarge {
        /// The family, as `'TEXT'` or `file NAME`.
        family: String,
        /// Games it expands to (saturated at `u64::MAX`).
        count: u64,
        /// The limit in force.
        limit: u64,
        /// Whether the family was forced (the hard limit applies).
        forced: bool,
    },
    /// A spec that is not a game (unknown, or a bad set or graph).
    #[error("{origin}: {message}")]
    BadGame {
        /// Where the spec came from: `game 3 of the family`, `FILE, line 7`.
        origin: String,
        /// Why it is not a game.
        message: String,
    },
    /// A game that splits heaps, in a sweep over tuples of fixed heap counts (which do
    /// not hold its moves).
    #[error(
        "{origin}: {spec} can split a heap {parts}, so tuples of a fixed number of heaps do \
         not hold its moves; sweep multisets of heaps of a bounded total instead"
    )]
    GameSplitsHeaps {
        /// Where the spec came from: `game 3 of the family`, `FILE, line 7`.
        origin: String,
        /// The game's specification.
        spec: String,
        /// How it splits a heap, `in two` or `in three` ([`crate::Game::split_parts`]).
        parts: &'static str,
    },
    /// A claim that names a heap some space of the sweep lacks.
    #[error("claim, {0}")]
    Claim(ExprError),
    /// A game whose run failed (a claim that cannot be evaluated at some position).
    #[error("game {game}: {message}")]
    InGame {
        /// The game's spec.
        game: String,
        /// What failed.
        message: String,
    },
    /// A shard `I/N` without `1 <= I <= N`, or not of that form.
    #[error("shard '{text}' must be I/N with 1 <= I <= N")]
    BadShard {
        /// The shard as given.
        text: String,
    },
    /// A shard count above the most games a family can have.
    #[error(
        "shard '{text}': N is above {limit}, the most games a family can have, so most \
         shards would be empty"
    )]
    TooManyShards {
        /// The shard as given.
        text: String,
        /// The largest count.
        limit: usize,
    },
    /// A merge of no parts.
    #[error("no parts to merge")]
    NoParts,
    /// A file that is not a part written by a sharded sweep.
    #[error("{part} is not a sweep part: {reason}")]
    NotAPart {
        /// The part's name.
        part: String,
        /// What is missing or wrong.
        reason: String,
    },
    /// A part that cannot be read.
    #[error("cannot read {part}: {reason}")]
    CannotReadPart {
        /// The part's name.
        part: String,
        /// The I/O error.
        reason: String,
    },
    /// A line of a part that is not what the sweep writes there.
    #[error("{part}, line {line}: {reason}")]
    PartLine {
        /// The part's name.
        part: String,
        /// The line, from 1.
        line: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// Parts whose rows name other games than their sweep's (each part's rows match its
    /// own digest, so they were rewritten with it).
    #[error(
        "the games in the rows of the {parts} parts are not those of sweep {sweep} (they \
         give the fingerprint {found}): rows were rewritten"
    )]
    FingerprintMismatch {
        /// The fingerprint in the parts' heads.
        sweep: String,
        /// The fingerprint of the games in the rows.
        found: String,
        /// Parts merged.
        parts: usize,
    },
    /// A part of another sweep.
    #[error("{part} is part {shard} of sweep {sweep}, not of sweep {expected} like {first}")]
    ForeignPart {
        /// The foreign part's name.
        part: String,
        /// Its `I/N`.
        shard: String,
        /// Its sweep's fingerprint.
        sweep: String,
        /// The fingerprint of the first part.
        expected: String,
        /// The first part's name.
        first: String,
    },
    /// Parts of one sweep that disagree on its number of parts (parts of two splits of it)
    /// or of games (a head was edited).
    #[error("{part}, part {shard}, says the sweep has {said}; {others}")]
    PartsDisagree {
        /// The part whose figure differs from most parts'.
        part: String,
        /// Its `I/N`.
        shard: String,
        /// Its figure, with its unit (`41 games`, `4 parts`).
        said: String,
        /// The figure most parts give, and who gives it (`the other parts say 40`,
        /// `p1.csv says 40`).
        others: String,
    },
    /// Two parts of the same shard.
    #[error("part {shard} is given twice: {first} and {second}")]
    DuplicatePart {
        /// The shard, `I/N`.
        shard: String,
        /// The first file.
        first: String,
        /// The second file.
        second: String,
    },
    /// A shard with no part.
    #[error("part {shard} of sweep {sweep} is missing")]
    MissingPart {
        /// The shard, `I/N`.
        shard: String,
        /// The sweep's fingerprint.
        sweep: String,
    },
}

/// An output that failed while the sweep wrote it, as the library's other writers report it.
impl From<std::io::Error> for SweepError {
    fn from(e: std::io::Error) -> SweepError {
        SweepError::Space(crate::Error::Io(e))
    }
}

// A sweep calls the model and the engine directly: their errors come up as the library's.
impl From<crate::ModelError> for SweepError {
    fn from(e: crate::ModelError) -> Self {
        SweepError::Space(e.into())
    }
}

impl From<crate::EngineError> for SweepError {
    fn from(e: crate::EngineError) -> Self {
        SweepError::Space(e.into())
    }
}
