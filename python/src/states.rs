//! Whole tables as numpy arrays with everything `nimtab solve` writes: games with a pass
//! (both pass states of every position), whole-position Grundy values, and the tables of
//! multisets of heaps (`--total`).

use numpy::ndarray::{Array2, ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayDyn};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use nimtab::engine::Work;
use nimtab::model::enumerate::Tuples;
use nimtab::model::multiset::Walk;
use nimtab::model::position::PassState;
use nimtab::{Engine, EngineError, Game, Labels, Mode, Progress, Space};

use crate::tables::endings;
use crate::{run_detached, value_error};

/// The game of `spec`, with its pass when `with_pass`.
pub fn game_of(spec: &str, with_pass: bool) -> nimtab::Result<Game> {
    let game = Game::parse(spec)?;
    Ok(if with_pass { game.with_pass() } else { game })
}

/// The space mode of the keyword `canonical`: sorted tuples only when it is true.
pub fn mode_of(canonical: bool) -> Mode {
    if canonical {
        Mode::Canonical
    } else {
        Mode::Full
    }
}

/// One label per state in state-index order: positions in index order and, with a pass,
/// each position's pass-used label then its pass-available label (the order of the CSV's
/// rows and of the values of [`nimtab::engine::GrundyValues::values`]).
fn states(labels: &Labels, progress: &dyn Progress) -> Result<Vec<bool>, EngineError> {
    let used = labels.in_index_order(PassState::Used);
    let available = labels.has_pass().then(|| labels.in_index_order(PassState::Available));
    let mut states = Vec::with_capacity(used.len() * if available.is_some() { 2 } else { 1 });
    // In pieces, looking for a cancellation (Ctrl-C) between them: a table of a billion
    // positions takes seconds to convert, longer than the labelling's layers.
    for start in (0..used.len()).step_by(CONVERTED_AT_ONCE) {
        if progress.cancelled() {
            return Err(EngineError::Cancelled);
        }
        let piece = start..(start + CONVERTED_AT_ONCE).min(used.len());
        let used = used[piece.clone()].iter().by_vals();
        match available {
            None => states.extend(used),
            Some(available) => {
                let available = available[piece].iter().by_vals();
                states.extend(used.zip(available).flat_map(|(u, a)| [u, a]));
            }
        }
    }
    Ok(states)
}

/// Positions [`states`] converts between two looks for a cancellation.
const CONVERTED_AT_ONCE: usize = 1 << 22;

/// The sorted tuples of a canonical space in index order, heap after heap.
fn sorted_positions(space: &Space) -> Vec<u32> {
    let mut positions = Vec::new();
    Tuples::sorted(space.heaps(), 0, space.max()).for_each(|t| positions.extend_from_slice(t));
    positions
}

/// What a table run hands back before it becomes numpy arrays.
struct Table {
    names: Vec<String>,
    labels: Vec<Vec<bool>>,
    grundy: Option<Vec<u32>>,
    positions: Option<Vec<u32>>,
}

/// What `solve_table` hands Python: ending names, a bool array per ending, the Grundy values
/// (with `grundy`), the sorted positions (canonical).
type TableArrays<'py> = (
    Bound<'py, PyList>,
    Vec<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyArray2<u32>>>,
);

/// solve_table(game, heaps, max, rules, canonical, with_pass, grundy, threads, report)
/// -> (rules, label arrays, grundy array or None, sorted positions or None)
///
/// The shape of every array: `(max+1,)*heaps` (canonical: `(count,)`), with a last axis
/// of 2 for a game with a pass (index 0: the pass used, 1: still available), so that the
/// arrays flattened in C order are the rows of `nimtab solve`'s CSV.
#[pyfunction]
#[pyo3(signature = (game, heaps, max, rules = None, canonical = false, with_pass = false,
    grundy = false, threads = None, report = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve_table<'py>(
    py: Python<'py>,
    game: String,
    heaps: usize,
    max: u32,
    rules: Option<String>,
    canonical: bool,
    with_pass: bool,
    grundy: bool,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<TableArrays<'py>> {
    let mode = mode_of(canonical);
    let run = move |progress: &crate::CallProgress| -> nimtab::Result<Table> {
        let game = game_of(&game, with_pass)?;
        let endings = endings(&game, rules.as_deref())?;
        let space = Space::in_mode(heaps, max, mode)?;
        let engine = Engine::builder(&game, space.clone()).build();
        engine.ensure_supported(&endings)?;
        // The arrays handed to Python (a byte a label, four bytes a value) are counted with
        // the engine's tables: one check, before any work.
        let per_state = endings.len() as u64 + if grundy { 4 } else { 0 };
        let mut work = vec![
            Work::Tables { endings: endings.len() },
            Work::Bytes(engine.positions().saturating_mul(per_state)),
        ];
        if grundy {
            work.push(Work::Grundy);
        }
        let reserved = engine.reserve(&work)?;
        let tables = reserved.label_all(&endings, progress)?;
        let values =
            if grundy { Some(reserved.grundy_values(progress)?.values().to_vec()) } else { None };
        Ok(Table {
            names: endings.iter().map(|e| e.name().to_string()).collect(),
            labels: tables.iter().map(|t| states(t, progress)).collect::<Result<_, _>>()?,
            grundy: values,
            positions: canonical.then(|| sorted_positions(&space)),
        })
    };
    let table = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    let mut shape = match &table.positions {
        Some(positions) => vec![positions.len() / heaps],
        None => vec![max as usize + 1; heaps],
    };
    if with_pass {
        shape.push(2);
    }
    let labels = table
        .labels
        .into_iter()
        .map(|cells| shaped(py, &shape, cells))
        .collect::<PyResult<Vec<_>>>()?;
    let grundy = table.grundy.map(|values| shaped(py, &shape, values)).transpose()?;
    let positions = match table.positions {
        Some(positions) => {
            let count = positions.len() / heaps;
            let array = Array2::from_shape_vec((count, heaps), positions).map_err(value_error)?;
            Some(array.into_pyarray(py))
        }
        None => None,
    };
    Ok((PyList::new(py, table.names)?, labels, grundy, positions))
}

/// `cells` as a numpy array of `shape`.
fn shaped<'py, T: numpy::Element>(
    py: Python<'py>,
    shape: &[usize],
    cells: Vec<T>,
) -> PyResult<Bound<'py, PyAny>> {
    let array = ArrayD::from_shape_vec(IxDyn(shape), cells).map_err(value_error)?;
    let array: Bound<'py, PyArrayDyn<T>> = array.into_pyarray(py);
    Ok(array.into_any())
}

/// The multiset table before it becomes Python values.
struct MultisetTable {
    names: Vec<String>,
    labels: Vec<Vec<bool>>,
    heaps: Vec<Vec<u32>>,
    totals: Vec<u32>,
    gxor: Vec<u32>,
}

/// What `solve_multisets` hands Python: ending names, a bool array per ending, the
/// positions (tuples of heap sizes, non-increasing), their totals and Grundy XORs.
type MultisetArrays<'py> = (
    Bound<'py, PyList>,
    Vec<Bound<'py, PyArray1<bool>>>,
    Bound<'py, PyList>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
);

/// solve_multisets(game, total, rules, threads, report)
/// -> (rules, label arrays, positions, totals, gxor)
///
/// The rows of `nimtab solve --total T`, in its order (by total, then reverse
/// lexicographic order of the heaps): one entry per multiset of non-empty heaps.
#[pyfunction]
#[pyo3(signature = (game, total, rules = None, threads = None, report = None))]
pub fn solve_multisets<'py>(
    py: Python<'py>,
    game: String,
    total: u64,
    rules: Option<String>,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<MultisetArrays<'py>> {
    let run = move |progress: &crate::CallProgress| -> nimtab::Result<MultisetTable> {
        let game = Game::parse(&game)?;
        let endings = endings(&game, rules.as_deref())?;
        game.require_sum("a space of multisets of heaps (total)")?;
        let space = Space::multisets(total)?;
        let engine = Engine::builder(&game, space.clone()).build();
        let labels = engine.label_all(&endings, progress)?;
        // A multiset space's total is at most its documented bound, far below u32::MAX.
        let grundy = game.grundy(space.total() as u32);
        let count = space.positions() as usize;
        let mut table = MultisetTable {
            names: endings.iter().map(|e| e.name().to_string()).collect(),
            labels: vec![Vec::with_capacity(count); endings.len()],
            heaps: Vec::with_capacity(count),
            totals: Vec::with_capacity(count),
            gxor: Vec::with_capacity(count),
        };
        let mut walk = Walk::at(&[]);
        for rank in 0..space.positions() {
            let (mut heaps, mut gxor) = (Vec::new(), 0);
            for &(part, count) in walk.runs() {
                heaps.extend(std::iter::repeat_n(part, count as usize));
                gxor ^= if count % 2 == 1 { grundy[part as usize] } else { 0 };
            }
            for (j, column) in table.labels.iter_mut().enumerate() {
                column.push(labels[j].is_p_at(rank));
            }
            table.heaps.push(heaps);
            table.totals.push(walk.total());
            table.gxor.push(gxor);
            walk.advance();
        }
        Ok(table)
    };
    let table = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    let labels = table.labels.into_iter().map(|l| l.into_pyarray(py)).collect();
    let heaps = table.heaps.iter().map(|h| PyTuple::new(py, h)).collect::<PyResult<Vec<_>>>()?;
    Ok((
        PyList::new(py, table.names)?,
        labels,
        PyList::new(py, heaps)?,
        table.totals.into_pyarray(py),
        table.gxor.into_pyarray(py),
    ))
}

/// require_sum(game, what, with_pass): raises the library's ValueError when the game
/// (with its pass) is not a sum of heaps, naming `what` needs one.
#[pyfunction]
#[pyo3(signature = (game, what, with_pass = false))]
pub fn require_sum(game: String, what: String, with_pass: bool) -> PyResult<()> {
    let game = game_of(&game, with_pass).map_err(value_error)?;
    game.require_sum(&what).map_err(value_error)
}
