//! Typed errors of the library: every way an input or a space can be refused.
//!
//! Messages name the bad value, never a command-line flag: the library does not know how
//! its caller spells its options. The binary adds the flag wording where it has it.

use std::path::PathBuf;

/// Everything the library can refuse or fail at.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A game specification that is not `nim`, `subtract:S`, `graph:PATH`, `wythoff`,
    /// `moore:K`, `circular:K`, `octal:CODE` or `grundys-game`.
    #[error(
        "unknown game '{spec}': expected nim, subtract:S (e.g. subtract:1,3,4), graph:PATH, \
         wythoff, moore:K, circular:K, octal:CODE (e.g. octal:0.77) or grundys-game"
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
        "{what} needs a sum of heaps (nim, subtract:S, graph:PATH, octal:CODE or grundys-game, \
         without --pass); {spec} is not one"
    )]
    NotASum {
        /// The game's specification.
        spec: String,
        /// What needed a sum.
        what: String,
    },
    /// Sorted tuples only, for a game whose labels depend on the order of the heaps.
    #[error(
        "{spec} is not symmetric (its heaps stand in a circle), so sorted tuples cannot stand \
         for all positions"
    )]
    NotSymmetric {
        /// The game's specification.
        spec: String,
    },
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
    /// A game whose moves split heaps, asked for over tuples of a fixed heap count.
    #[error(
        "{spec} can split a heap in two, so tuples of a fixed number of heaps do not hold \
         its moves; label multisets of heaps of a bounded total instead"
    )]
    SplitsHeaps {
        /// The game's specification.
        spec: String,
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
    /// An ending name that is not `normal`, `misere` or `sj`.
    #[error("unknown rule '{0}': expected normal, misere or sj")]
    UnknownEnding(String),
    /// A criterion name that is not one of [`crate::Criterion::ALL`].
    #[error(
        "unknown criterion '{0}': expected xor, anti-nim, sj, moore, moore-misere, wythoff or \
         wythoff-misere"
    )]
    UnknownCriterion(String),
    /// A Grundy sequence refused or failed (its size, its files, its checkpoint).
    #[error(transparent)]
    Sequence(#[from] crate::sequence::SequenceError),
    /// Any other invalid argument, with a message naming the value.
    #[error("{0}")]
    Invalid(String),
    /// An operation that only a space of tuples has, asked of a space of multisets.
    #[error("{what} needs a space of tuples, not of multisets")]
    NeedsTuples {
        /// The operation.
        what: &'static str,
    },
    /// The caller stopped the work through [`crate::Progress::cancelled`].
    #[error("cancelled before the work was done")]
    Cancelled,
    /// An I/O error while writing output.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Bytes as messages say them: in GiB from 1 GiB on, else in MiB.
fn size(bytes: u64) -> String {
    let gib = bytes as f64 / (1u64 << 30) as f64;
    if gib >= 1.0 {
        format!("{gib:.2} GiB")
    } else {
        format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
