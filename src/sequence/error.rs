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
        human_bytes_apart(*.need_bytes, *.limit_bytes).0,
        human_bytes_apart(*.need_bytes, *.limit_bytes).1
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
        human_bytes_apart(*.need_bytes, *.free_bytes).0,
        .dir.display(),
        human_bytes_apart(*.need_bytes, *.free_bytes).1
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
    /// A state no run of the engine reaches (a checkpoint's fields edited to agree with
    /// each other, say), found where the engine relies on it.
    #[error(
        "the run's state at heap {heap} is impossible ({reason}); if it was resumed, its \
         checkpoint was not written by nimtab"
    )]
    Inconsistent {
        /// The heap being computed.
        heap: u64,
        /// What does not hold.
        reason: String,
    },
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
    bytes_with_decimals(bytes, 2)
}

/// Two sizes compared in one message (needed and available), each as [`human_bytes`]
/// says it, with more decimals while two different sizes would read the same (up to six),
/// then in bytes: `8.00 MiB` and `8.00 MiB` become `8.0001 MiB` and `8.0000 MiB`.
pub fn human_bytes_apart(a: u64, b: u64) -> (String, String) {
    for decimals in 2..=6 {
        let shown = (bytes_with_decimals(a, decimals), bytes_with_decimals(b, decimals));
        if a == b || shown.0 != shown.1 {
            return shown;
        }
    }
    (format!("{a} B"), format!("{b} B"))
}

/// Bytes in the unit that reads best, with `decimals` decimals above bytes.
fn bytes_with_decimals(bytes: u64, decimals: usize) -> String {
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
    format!("{value:.decimals$} {}", UNITS[unit])
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

    #[test]
    fn two_sizes_that_differ_read_differently() {
        let (need, free) = human_bytes_apart((8 << 20) + 100, 8 << 20);
        assert_eq!((need.as_str(), free.as_str()), ("8.0001 MiB", "8.0000 MiB"));
        assert_eq!(human_bytes_apart(8 << 20, 8 << 20), ("8.00 MiB".into(), "8.00 MiB".into()));
        assert_eq!(
            human_bytes_apart((1 << 40) + 1, 1 << 40),
            ("1099511627777 B".into(), "1099511627776 B".into())
        );
        let message = SequenceError::DiskTooSmall {
            what: "x".into(),
            dir: "/w".into(),
            need_bytes: (8 << 20) + 2,
            free_bytes: (8 << 20) + 1,
        };
        assert_eq!(
            message.to_string(),
            "x needs 8.000002 MiB of disk in /w but only 8.000001 MiB is free"
        );
    }
}
