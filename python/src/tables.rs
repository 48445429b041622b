//! Label tables as numpy arrays, and Grundy values.

use numpy::ndarray::{Array2, ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayDyn};
use pyo3::prelude::*;
use pyo3::types::PyList;

use nimtab::{Ending, Engine, Game, Labels, Mode, Space, Tuples, Work};

use crate::{run_detached, value_error};

/// The rules listed (`None`: the game's defaults, as the command line's), refused when
/// the SJ rule is asked of a game that is not a sum of heaps.
pub fn endings(game: &Game, rules: Option<&str>) -> nimtab::Result<Vec<Ending>> {
    let Some(list) = rules else { return Ok(Ending::defaults(game)) };
    let endings = Ending::parse_list(list)?;
    if endings.contains(&Ending::Sj) {
        game.require_sum(&format!("rules '{list}': the SJ rule"))?;
    }
    Ok(endings)
}

/// One label per position, in index order (lexicographic; sorted tuples in canonical
/// mode), and the positions themselves when `with_positions`.
fn dense(labels: &Labels, with_positions: bool) -> (Vec<bool>, Vec<u32>) {
    let space = labels.space();
    let (n, max) = (space.heaps(), space.max());
    let mut cells = Vec::with_capacity(labels.positions() as usize);
    let mut positions = Vec::new();
    let prefixes = match labels.mode() {
        Some(Mode::Canonical) => Tuples::sorted(n - 1, 0, max),
        _ => Tuples::new(n - 1, 0, max),
    };
    prefixes.for_each(|prefix| {
        let (lo, row) = labels.row(prefix);
        cells.extend(row.iter().by_vals());
        for h in lo..=max {
            if with_positions {
                positions.extend_from_slice(prefix);
                positions.push(h);
            }
        }
    });
    (cells, positions)
}

type Solved = (Vec<String>, Vec<Vec<bool>>, Vec<u32>);

/// What `solve` hands Python: rule names, one array per rule, the canonical positions.
type SolvedArrays<'py> =
    (Bound<'py, PyList>, Vec<Bound<'py, PyAny>>, Option<Bound<'py, PyArray2<u32>>>);

/// solve(game, heaps, max, rules, canonical, threads) -> (rules, arrays, positions)
///
/// Full mode: one bool array of shape (max+1,)*heaps per rule, and no positions.
/// Canonical: one flat bool array per rule, in index order, and the sorted positions as
/// an array of shape (count, heaps).
#[pyfunction]
#[pyo3(signature = (game, heaps, max, rules = None, canonical = false, threads = None, report = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    game: String,
    heaps: usize,
    max: u32,
    rules: Option<String>,
    canonical: bool,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<SolvedArrays<'py>> {
    let mode = Mode::canonical_if(canonical);
    let solved: nimtab::Result<Solved> =
        run_detached(py, threads, report.as_ref(), move |progress| {
            let game = Game::parse(&game)?;
            let endings = endings(&game, rules.as_deref())?;
            let engine = Engine::builder(&game, Space::in_mode(heaps, max, mode)?).build();
            engine.ensure_supported(&endings)?;
            // The arrays handed to Python (a byte per position and rule) are counted with the
            // engine's tables: one check, before any work.
            let arrays = engine.positions().saturating_mul(endings.len() as u64);
            let tables = Work::Tables { endings: endings.len() };
            let reserved = engine.reserve(&[tables, Work::Bytes(arrays)])?;
            let tables = reserved.label_all(&endings, progress)?;
            let mut positions = Vec::new();
            let mut arrays = Vec::new();
            for (i, table) in tables.iter().enumerate() {
                let (cells, p) = dense(table, canonical && i == 0);
                arrays.push(cells);
                if i == 0 {
                    positions = p;
                }
            }
            Ok((endings.iter().map(|e| e.name().to_string()).collect(), arrays, positions))
        })?;
    let (names, arrays, positions) = solved.map_err(value_error)?;
    let arrays = arrays
        .into_iter()
        .map(|cells| -> PyResult<Bound<'py, PyAny>> {
            if canonical {
                return Ok(cells.into_pyarray(py).into_any());
            }
            let shape = vec![max as usize + 1; heaps];
            let array = ArrayD::from_shape_vec(IxDyn(&shape), cells).map_err(value_error)?;
            let array: Bound<'py, PyArrayDyn<bool>> = array.into_pyarray(py);
            Ok(array.into_any())
        })
        .collect::<PyResult<Vec<_>>>()?;
    let positions = if canonical {
        let count = positions.len() / heaps;
        let array = Array2::from_shape_vec((count, heaps), positions).map_err(value_error)?;
        Some(array.into_pyarray(py))
    } else {
        None
    };
    Ok((PyList::new(py, names)?, arrays, positions))
}

/// grundy(game, max) -> numpy uint32 array of the Grundy values of sizes 0..=max.
#[pyfunction]
pub fn grundy<'py>(py: Python<'py>, game: String, max: u64) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let values = run_detached(py, None, None, move |_| -> nimtab::Result<Vec<u32>> {
        let max = nimtab::validate_max(max)?;
        Ok(Game::parse(&game)?.grundy(max))
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
