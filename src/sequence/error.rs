//! Typed errors of long Grundy sequences: sizes refused before a run, files that fail
//! during it, and checkpoints that cannot be resumed.

use std::path::PathBuf;

/// Everything a sequence run can refuse or fail at.
#[derive(Debug, thiserror::Error)]
pub enum SequenceError {
    /// A heap size above [`super::MAX_SEQUENCE_HEAP`].
    #[error("heap size {max} is above the largest heap size of a sequence, {limit} (2^40)")]
    HeapTooLarge {
        /// The heap size asked for.
        max: u64,
        /// The largest heap size accepted.
        limit: u64,
    },
    /// A run whose values (or certificate check) do not fit in the memory allowed.
    #[error(
        "{what} is too large: it needs {} of memory but only {} is available",
        human_bytes(*.need_bytes),
        human_bytes(*.limit_bytes)
    )]
    MemoryTooSmall {
        /// What needs it.
        what: String,
        /// Bytes needed.
        need_bytes: u64,
        /// Bytes allowed.
        limit_bytes: u64,
    },
    /// A run whose values file does not fit in the free space of its directory.
    #[error(
        "{what} needs {} of disk in {} but only {} is free",
        human_bytes(*.need_bytes),
        .dir.display(),
        human_bytes(*.free_bytes)
    )]
    DiskTooSmall {
        /// What needs it.
        what: String,
        /// The directory of the values file.
        dir: PathBuf,
        /// Bytes needed.
        need_bytes: u64,
        /// Bytes free.
        free_bytes: u64,
    },
    /// A file of the run (the values file, a checkpoint) that failed.
    #[error("{action} {}: {source}", .path.display())]
    File {
        /// What was being done ("writing", "reading").
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A request the sequence layer does not serve, with a message naming the value.
    #[error("{0}")]
    Unsupported(String),
    /// The marker's thread of a two-thread run, which the system would not start (no
    /// memory for its stack, or a limit on threads).
    #[error("could not start the second thread of the run: {0}")]
    ThreadNotStarted(std::io::Error),
    /// The caller stopped the run through [`super::Observer::cancelled`].
    #[error("cancelled before the run was done")]
    Cancelled,
    /// A checkpoint that cannot be resumed: foreign, corrupt, truncated, of another format,
    /// or whose values file does not match it.
    #[error("cannot resume from checkpoint {}: {reason}", .path.display())]
    BadCheckpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
}

/// Bytes in the unit that reads best (B, KiB, MiB, GiB, TiB), two decimals above bytes.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_in_the_largest_whole_unit() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(1 << 30), "1.00 GiB");
        assert_eq!(human_bytes(3 << 40), "3.00 TiB");
    }
}
