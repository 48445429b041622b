//! Errors of the model: games, spaces and endings that cannot be built as given.
//!
//! Messages name the bad value, never a command-line flag: the library does not know how
//! its caller spells its options. The binary adds the flag wording where it has it.

use std::path::PathBuf;

/// A game, space or ending the model refuses.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A game specification that is not `nim`, `subtract:S`, `graph:PATH`, `wythoff`,
    /// `moore:K`, `circular:K`, `octal:CODE`, `hex:CODE` or `grundys-game`.
    #[error(
        "unknown game '{spec}': expected nim, subtract:S (e.g. subtract:1,3,4), graph:PATH, \
         wythoff, moore:K, circular:K, octal:CODE (e.g. octal:0.77), hex:CODE (e.g. hex:0.3F) \
         or grundys-game"
    )]
    UnknownGame {
        /// The specification as given.
        spec: String,
    },
    /// A `moore:K` or `circular:K` whose `K` is not a positive integer.
    #[error("bad game '{spec}': {reason}")]
    BadGame {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A heap count the game is not defined for (`circular:K` with fewer than `K` heaps).
    #[error("{spec} is not defined for {heaps} heaps: {reason}")]
    GameHeaps {
        /// The game's specification.
        spec: String,
        /// The heap count asked for.
        heaps: usize,
        /// Why not.
        reason: String,
    },
    /// A use that needs heap Grundy values (the SJ ending, the `grundy` table) with a game
    /// that is not a sum of heaps.
    #[error(
        "{what} needs a sum of heaps (nim, subtract:S, graph:PATH, octal:CODE, hex:CODE or \
         grundys-game, without --pass); {spec} is not one"
    )]
    NotASum {
        /// The game's specification.
        spec: String,
        /// What needed a sum.
        what: String,
    },
    /// A `subtract:` set that is empty or holds a bad value.
    #[error("bad subtraction set in '{spec}': {reason}")]
    BadSubtractionSet {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An `octal:` code that is empty or holds a bad digit.
    #[error("bad octal code in '{spec}': {reason}")]
    BadOctalCode {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A `hex:` code that is empty or holds a bad digit.
    #[error("bad hexadecimal code in '{spec}': {reason}")]
    BadHexCode {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A Grundy sequence of a game with three-heap moves past the plain mex's bound.
    #[error(
        "the Grundy values of {spec}, whose moves may leave three heaps, are computed in memory \
         to heap sizes of at most {limit}; got {max}"
    )]
    ThreeHeapSequenceTooLong {
        /// The game's specification.
        spec: String,
        /// The heap size asked for.
        max: u64,
        /// The largest heap size accepted.
        limit: u32,
    },
    /// A bound on the total above the largest one multisets can be ranked for.
    #[error(
        "total {total} is above the largest total, {limit}: the multisets of a larger total \
         cannot be counted in 64 bits"
    )]
    TotalAboveLimit {
        /// The total asked for.
        total: u64,
        /// The largest total accepted.
        limit: u32,
    },
    /// A move-graph file that cannot be read at all.
    #[error("cannot read move graph {path}: {reason}")]
    GraphFile {
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        reason: String,
    },
    /// A move-graph file with a bad header or row.
    #[error("move graph {path}, line {line}: {reason}")]
    GraphLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number in the file.
        line: u64,
        /// What is wrong with the line.
        reason: String,
    },
    /// A space of no heaps.
    #[error("a space needs at least one heap, got 0")]
    NoHeaps,
    /// A space of more heaps than [`crate::model::space::MAX_HEAPS`].
    #[error("{heaps} heaps is above the limit of {limit}")]
    TooManyHeaps {
        /// The heap count asked for.
        heaps: usize,
        /// The largest heap count accepted.
        limit: usize,
    },
    /// A heap size above [`crate::model::space::MAX_HEAP_SIZE`].
    #[error("heap size {max} is above the largest heap size, {limit}")]
    HeapTooLarge {
        /// The heap size asked for.
        max: u64,
        /// The largest heap size accepted.
        limit: u32,
    },
    /// A space whose position count does not fit any index.
    #[error("{heaps} heaps of max {max} {counted}, beyond any table")]
    SpaceOverflow {
        /// Heap count.
        heaps: usize,
        /// Largest heap size.
        max: u32,
        /// How the positions were counted and their count (every tuple or sorted tuples
        /// only; the count, or "2^128 or more" beyond `u128`), as the message says it.
        counted: String,
    },
    /// An ending name that is not `normal`, `misere` or `sj`.
    #[error("unknown rule '{0}': expected normal, misere or sj")]
    UnknownEnding(String),
    /// A move given in code (a `graph` game's pairs) that does not lower its heap or lies
    /// above the largest heap size.
    #[error("{0}")]
    BadMove(String),
    /// A heap's Grundy sequence refused or failed (its size, its files, its checkpoint).
    #[error(transparent)]
    Sequence(#[from] crate::sequence::SequenceError),
}

/// The model's result type.
pub type Result<T, E = ModelError> = std::result::Result<T, E>;
