//! The endings of a call, Grundy values of one heap, and whether a game is a sum.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use nimtab::{Ending, Game};

use crate::{run_detached, value_error};

/// The endings `rules` lists (`None`: the game's defaults, as the command line's), refused
/// when the SJ ending is asked of a game that is not a sum of heaps.
pub fn endings(game: &Game, rules: Option<&str>) -> nimtab::Result<Vec<Ending>> {
    let Some(list) = rules else { return Ok(Ending::defaults(game)) };
    let endings = Ending::parse_list(list)?;
    if endings.contains(&Ending::Sj) {
        game.require_sum(&format!("rules '{list}': the SJ rule"))?;
    }
    Ok(endings)
}

/// grundy(game, max) -> numpy uint32 array of the Grundy values of sizes 0..=max, for a
/// sum of heaps (as `nimtab grundy`, the library's rule).
#[pyfunction]
pub fn grundy<'py>(py: Python<'py>, game: String, max: u64) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let values = run_detached(py, None, None, move |_| -> nimtab::Result<Vec<u32>> {
        let max = nimtab::model::space::validate_max(max)?;
        Ok(Game::parse(&game)?.heap_values(max)?)
    })?
    .map_err(value_error)?;
    Ok(values.into_pyarray(py))
}

/// is_sum(game) -> bool: whether the game is a sum of heaps (whole positions then have
/// Grundy values, the XOR of the heaps').
#[pyfunction]
pub fn is_sum(game: String) -> PyResult<bool> {
    Ok(Game::parse(&game).map_err(value_error)?.is_sum())
}
