//! The threads nimtab starts: every one with a stack size of its own, so that
//! `RUST_MIN_STACK` can neither starve nor bloat them, and pools of a bounded number of
//! threads, so that `RAYON_NUM_THREADS` cannot ask for a hundred thousand.

/// The stack of a thread that does the work (rayon's pool, a layer crew, a sequence's
/// marker, a Python call): Rust's default, which the work has always run with.
pub const WORKER_STACK: usize = 2 << 20;

/// The stack of a thread that only waits and copies bytes (the interrupt handler, the
/// pipes of a checked program): its largest frame holds a 64 KiB buffer.
pub const HELPER_STACK: usize = 256 << 10;

/// The most worker threads a pool may have (`--threads`, `threads=`,
/// `RAYON_NUM_THREADS`): far above any machine's cores, far below what makes starting
/// the pool itself slow or fail.
pub const MAX_THREADS: usize = 256;

/// A value of `RAYON_NUM_THREADS` outside 1 to [`MAX_THREADS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("RAYON_NUM_THREADS must be an integer from 1 to {MAX_THREADS}, got '{0}'")]
pub struct BadThreadCount(pub String);

/// A builder of a worker thread, with its stack size set.
pub fn worker_thread() -> std::thread::Builder {
    std::thread::Builder::new().stack_size(WORKER_STACK)
}

/// A builder of a helper thread, with its stack size set.
pub fn helper_thread() -> std::thread::Builder {
    std::thread::Builder::new().stack_size(HELPER_STACK)
}

/// A builder of a pool of `threads` worker threads, with their stack size set.
pub fn worker_pool(threads: usize) -> rayon::ThreadPoolBuilder {
    rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(WORKER_STACK)
}

/// The threads of a pool nobody sized: `RAYON_NUM_THREADS` if it is set (as rayon
/// reads it), else one per core.
///
/// # Errors
/// `RAYON_NUM_THREADS` set to anything but an integer from 1 to [`MAX_THREADS`].
pub fn default_threads() -> Result<usize, BadThreadCount> {
    threads_from(std::env::var_os("RAYON_NUM_THREADS").map(|v| v.to_string_lossy().into_owned()))
}

/// [`default_threads`] for the variable's value `set`; an empty value is no value.
fn threads_from(set: Option<String>) -> Result<usize, BadThreadCount> {
    match set.filter(|v| !v.is_empty()) {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(text) => match text.trim().parse::<usize>() {
            Ok(k) if (1..=MAX_THREADS).contains(&k) => Ok(k),
            _ => Err(BadThreadCount(text)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rayon_num_threads_is_bounded_like_threads() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(threads_from(None), Ok(cores));
        assert_eq!(threads_from(Some(String::new())), Ok(cores));
        assert_eq!(threads_from(Some("3".into())), Ok(3));
        assert_eq!(threads_from(Some("256".into())), Ok(256));
        for bad in ["0", "257", "100000", "-1", "two", "99999999999999999999999"] {
            let refused = threads_from(Some(bad.into())).unwrap_err();
            let expected =
                format!("RAYON_NUM_THREADS must be an integer from 1 to 256, got '{bad}'");
            assert_eq!(refused.to_string(), expected);
        }
    }
}
