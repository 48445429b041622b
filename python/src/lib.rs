//! The compiled part of the `nimtab` Python package (`nimtab._nimtab`): the library's
//! tables, verifications and sweeps, run with the GIL released.

mod atlas;
mod atlas_dir;
mod atlas_request;
mod check;
mod genus;
mod quotient;
mod quotient_sweep;
mod reach;
mod rows;
mod states;
mod sweeps;
mod tables;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use nimtab::Progress;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// A library error as Python sees it: a ValueError with the library's one-line message.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The progress of one call: positions (or games) done, polled by the waiting thread,
/// and the flag that Ctrl-C sets to stop the engine between layers.
#[derive(Default)]
pub struct CallProgress {
    done: AtomicU64,
    cancel: AtomicBool,
}

impl CallProgress {
    /// Sets the work done (for work that counts steps rather than adding them).
    fn set_done(&self, done: u64) {
        self.done.store(done, Ordering::Relaxed);
    }
}

impl Progress for CallProgress {
    fn advance(&self, positions: u64) {
        self.done.fetch_add(positions, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// The most threads a call may use, as the command line's `--threads`.
const MAX_THREADS: usize = 256;

/// How often the waiting thread looks for signals (Ctrl-C) and reports progress.
const POLL: Duration = Duration::from_millis(100);

/// Runs `f` on a thread of its own, on a pool of `threads` threads (or rayon's global
/// pool), while this thread waits without the GIL and, every [`POLL`], runs Python's
/// signal handlers and hands the work done so far to `report` (a callable taking an
/// int). When a handler raises (KeyboardInterrupt on Ctrl-C) or `report` does, the
/// engine is told to stop, the thread is joined (no thread is left running), and the
/// exception propagates.
///
/// Threads the system will not start (the pool's, or the work's own) are a RuntimeError
/// naming them, as Python's own threads are.
///
/// A Rust panic, in the work's thread or a rayon thread, becomes a RuntimeError: left
/// alone it would surface as pyo3's PanicException, a BaseException that `except
/// Exception` misses and that makes a Dask future's `result()` wait forever.
fn run_detached<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    report: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&CallProgress) -> T + Send,
) -> PyResult<T> {
    let pool =
        match threads {
            None => None,
            Some(t) if !(1..=MAX_THREADS).contains(&t) => {
                return Err(PyValueError::new_err(format!(
                    "threads must be an integer from 1 to {MAX_THREADS}, got {t}"
                )))
            }
            Some(t) => Some(nimtab::host::worker_pool(t).build().map_err(|e| {
                threads_not_started(&format!("{t} worker threads (threads={t})"), &e)
            })?),
        };
    if pool.is_none() {
        start_global_pool()?;
    }
    let progress = CallProgress::default();
    let waiter = std::thread::current();
    std::thread::scope(|scope| {
        let progress = &progress;
        let work = nimtab::host::worker_thread()
            .spawn_scoped(scope, move || {
                let result =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &pool {
                        Some(pool) => pool.install(|| f(progress)),
                        None => f(progress),
                    }));
                waiter.unpark();
                result
            })
            .map_err(|e| threads_not_started("the thread of the call", &e))?;
        let mut reported = 0;
        while !work.is_finished() {
            py.detach(|| std::thread::park_timeout(POLL));
            let done = progress.done.load(Ordering::Relaxed);
            let polled = py.check_signals().and_then(|()| match report {
                Some(report) if done != reported => report.call1((done,)).map(drop),
                _ => Ok(()),
            });
            reported = done;
            if let Err(e) = polled {
                progress.cancel.store(true, Ordering::Relaxed);
                // The engine stops at its next layer; its result (an error) is dropped.
                let _ = py.detach(|| work.join());
                return Err(e);
            }
        }
        let result = py.detach(|| work.join()).unwrap_or_else(Err);
        result.map_err(|payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            PyRuntimeError::new_err(format!("internal error (Rust panic): {message}"))
        })
    })
}

/// Threads the system would not start (no memory for their stacks, or a limit on
/// threads), as Python says it of its own: a RuntimeError.
fn threads_not_started(which: &str, cause: &dyn std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(format!(
        "could not start {which}: {cause}; try threads=1 or a larger memory limit"
    ))
}

/// Starts rayon's global pool (one thread per core, or `RAYON_NUM_THREADS`) before the
/// first call that runs on it, where a thread the system will not start would be a panic.
/// Rayon tries only once: a pool that did not start is refused on every later call.
fn start_global_pool() -> PyResult<()> {
    static STARTED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let started = STARTED.get_or_init(|| {
        let threads = nimtab::host::default_threads().map_err(|e| e.to_string())?;
        let Err(refused) = nimtab::host::worker_pool(threads).build_global() else {
            return Ok(());
        };
        // Only a thread that did not start has a cause; the pool is otherwise already there.
        std::error::Error::source(&refused).map_or(Ok(()), |cause| Err(cause.to_string()))
    });
    started
        .clone()
        .map_err(|cause| threads_not_started("the worker threads (default: one per core)", &cause))
}

/// _panic(in_rayon=False): panics on purpose, to test that a panic becomes RuntimeError.
#[pyfunction]
#[pyo3(signature = (in_rayon = false))]
fn _panic(py: Python<'_>, in_rayon: bool) -> PyResult<()> {
    run_detached(py, None, None, move |_| {
        if in_rayon {
            use rayon::prelude::*;
            (0..4u32).into_par_iter().for_each(|i| assert!(i != 3, "a panic in a rayon thread"));
        } else {
            panic!("a panic on purpose");
        }
    })
}

#[pymodule]
fn _nimtab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let missing = nimtab::host::missing_instructions();
    if !missing.is_empty() {
        return Err(pyo3::exceptions::PyImportError::new_err(format!(
            "this processor lacks {}, which this build of nimtab assumes; rebuild it with \
             RUSTFLAGS=\"-C target-cpu=x86-64\"",
            missing.join(", ")
        )));
    }
    m.add_function(wrap_pyfunction!(tables::grundy, m)?)?;
    m.add_function(wrap_pyfunction!(tables::grundy_rare, m)?)?;
    m.add_function(wrap_pyfunction!(tables::is_sum, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::verify_csv, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::sweep_csv, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::sweep_games, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::merge, m)?)?;
    m.add_function(wrap_pyfunction!(quotient::quotient, m)?)?;
    m.add_function(wrap_pyfunction!(genus::genus, m)?)?;
    m.add("MAX_GENUS_HEAP", nimtab::genus::MAX_GENUS_HEAP)?;
    m.add_function(wrap_pyfunction!(quotient_sweep::quotient_rows_of_csv, m)?)?;
    m.add_function(wrap_pyfunction!(states::solve_table, m)?)?;
    m.add_function(wrap_pyfunction!(states::solve_multisets, m)?)?;
    m.add_function(wrap_pyfunction!(states::require_sum, m)?)?;
    m.add_function(wrap_pyfunction!(rows::verify_rows, m)?)?;
    m.add_function(wrap_pyfunction!(check::check_rows, m)?)?;
    m.add_function(wrap_pyfunction!(rows::sweep_rows, m)?)?;
    m.add_function(wrap_pyfunction!(rows::summary_rows, m)?)?;
    m.add_function(wrap_pyfunction!(reach::moves, m)?)?;
    m.add_function(wrap_pyfunction!(reach::period, m)?)?;
    m.add_function(wrap_pyfunction!(reach::classes, m)?)?;
    m.add_function(wrap_pyfunction!(atlas::atlas_codes, m)?)?;
    m.add_function(wrap_pyfunction!(atlas::atlas_solve, m)?)?;
    m.add_function(wrap_pyfunction!(atlas::atlas_tables, m)?)?;
    m.add_class::<atlas_dir::AtlasDir>()?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    m.add("FAMILY_LIMIT", nimtab::sweep::FamilyLimit::Usual.games())?;
    m.add("MAX_HEAPS", nimtab::model::space::MAX_HEAPS)?;
    m.add("MAX_HEAP_SIZE", nimtab::model::space::MAX_HEAP_SIZE)?;
    m.add("MAX_TOTAL", nimtab::model::multiset::MAX_TOTAL)?;
    m.add("MAX_SEQUENCE_HEAP", nimtab::sequence::MAX_SEQUENCE_HEAP)?;
    m.add("MAX_QUOTIENT_HEAP", nimtab::quotient::MAX_QUOTIENT_HEAP)?;
    m.add("MAX_SHARDS", nimtab::sweep::MAX_SHARDS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The numpy API is looked up now, not at the first array: a Ctrl-C pending then would
    // make the lookup fail, and the call panic.
    numpy::PyArray1::<u8>::zeros(m.py(), 0, false);
    Ok(())
}
