//! Typed errors of the library: every way an input or a space can be refused.

use std::path::PathBuf;

/// Everything the library can refuse or fail at.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A game specification that is not `nim`, `subtract:S` or `graph:PATH`.
    #[error("unknown game '{spec}': expected nim, subtract:S (e.g. subtract:1,3,4) or graph:PATH")]
    UnknownGame {
        /// The specification as given.
        spec: String,
    },
    /// A `subtract:` set that is empty or holds a bad value.
    #[error("bad subtraction set in '{spec}': {reason}")]
    BadSubtractionSet {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
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
    /// A space with no heaps, or one whose size overflows the index.
    #[error("bad space: {reason}")]
    BadSpace {
        /// What is wrong with it.
        reason: String,
    },
    /// A space whose tables do not fit in the memory allowed.
    #[error(
        "space too large: {what} needs {need_gib:.2} GiB of memory but only {limit_gib:.2} GiB \
         is available; lower --max or --heaps{hint}"
    )]
    TooLarge {
        /// The space, as `game, N heaps, max M`.
        what: String,
        /// Memory needed, in GiB.
        need_gib: f64,
        /// Memory allowed, in GiB.
        limit_gib: f64,
        /// Extra advice (for example `, or use --canonical`).
        hint: String,
    },
    /// A rule name that is not `normal`, `misere` or `sj`.
    #[error("unknown rule '{0}': expected normal, misere or sj")]
    UnknownRule(String),
    /// A criterion name that is not `xor`, `anti-nim` or `sj`.
    #[error("unknown criterion '{0}': expected xor, anti-nim or sj")]
    UnknownCriterion(String),
    /// Any other invalid argument, with a message naming the value.
    #[error("{0}")]
    Invalid(String),
    /// An I/O error while writing output.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
