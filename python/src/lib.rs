//! The compiled part of the `nimtab` Python package (`nimtab._nimtab`): the library's
//! tables, verifications and sweeps, run with the GIL released.

mod sweeps;
mod tables;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// A library error as Python sees it: a ValueError with the library's one-line message.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Runs `f` without the GIL, on a pool of `threads` threads (or rayon's global pool).
///
/// A Rust panic, in this thread or a rayon thread, becomes a RuntimeError: left alone it
/// would surface as pyo3's PanicException, a BaseException that `except Exception`
/// misses and that makes a Dask future's `result()` wait forever.
fn run_detached<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let pool = match threads {
        None => None,
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1, got 0")),
        Some(t) => {
            Some(rayon::ThreadPoolBuilder::new().num_threads(t).build().map_err(value_error)?)
        }
    };
    py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &pool {
            Some(pool) => pool.install(f),
            None => f(),
        }))
    })
    .map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        PyRuntimeError::new_err(format!("internal error (Rust panic): {message}"))
    })
}

/// _panic(in_rayon=False): panics on purpose, to test that a panic becomes RuntimeError.
#[pyfunction]
#[pyo3(signature = (in_rayon = false))]
fn _panic(py: Python<'_>, in_rayon: bool) -> PyResult<()> {
    run_detached(py, None, move || {
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
    m.add_function(wrap_pyfunction!(tables::solve, m)?)?;
    m.add_function(wrap_pyfunction!(tables::grundy, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::verify_csv, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::sweep_csv, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::sweep_games, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::merge, m)?)?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    m.add("FAMILY_LIMIT", nimtab::sweep::FAMILY_LIMIT)?;
    Ok(())
}
