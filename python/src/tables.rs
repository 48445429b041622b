//! The endings of a call, Grundy values of one heap, and whether a game is a sum.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use nimtab::sequence::{Goal, NoObserver, Settings, Start, Store};
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

/// One row of `grundy --format summary`: through, largest value, its heap, mask, rare
/// count, last rare heap.
type SummaryRow = (u64, u64, u64, u32, u64, u64);

/// grundy_rare(game, max, points, mask) -> (summary rows, numpy uint64 array (k, 2))
///
/// As `nimtab grundy --format summary` at each heap of `points` (ascending, the last
/// `max`) and `--format rare`: the rows, and `heap, grundy` of every rare heap of
/// `0..=max` under the last row's mask (`mask`, or the one with the fewest rare heaps).
#[pyfunction]
#[pyo3(signature = (game, max, points, mask = None))]
pub fn grundy_rare<'py>(
    py: Python<'py>,
    game: String,
    max: u64,
    points: Vec<u64>,
    mask: Option<u32>,
) -> PyResult<(Vec<SummaryRow>, Bound<'py, PyArray2<u64>>)> {
    let found = run_detached(py, None, None, move |_| -> Result<_, nimtab::ModelError> {
        let max = nimtab::sequence::validate_sequence_max(max)?;
        let game = Game::parse(&game)?;
        let settings = Settings::new(Goal::Values, max).threads(1);
        let start = Start::Fresh(Store::in_memory(max + 1));
        let mut sequence = game.grundy_sequence(&settings, start, &mut NoObserver)?;
        let summaries = sequence.rare_summaries(&points, mask)?;
        let mut heaps = Vec::new();
        if let Some(last) = summaries.last() {
            sequence.for_each_rare(last.through, last.mask, &mut |n, v| heaps.push([n, v]))?;
        }
        Ok((summaries, heaps))
    })?
    .map_err(value_error)?;
    let (summaries, heaps) = found;
    let rows = summaries
        .iter()
        .map(|s| (s.through, s.largest_value, s.largest_at, s.mask, s.rare_count, s.last_rare))
        .collect();
    let count = heaps.len();
    let flat: Vec<u64> = heaps.into_iter().flatten().collect();
    let array = flat.into_pyarray(py).reshape([count, 2])?;
    Ok((rows, array))
}

/// is_sum(game) -> bool: whether the game is a sum of heaps (whole positions then have
/// Grundy values, the XOR of the heaps').
#[pyfunction]
pub fn is_sum(game: String) -> PyResult<bool> {
    Ok(Game::parse(&game).map_err(value_error)?.is_sum())
}
