//! Misère (or normal-play) quotients of sums of heaps, as numpy tables, and the quotient
//! sweeps of `sweep_csv(..., quotients=N)`.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use nimtab::quotient::json::write_json;
use nimtab::quotient::{compute, Play, QuotientConfig, QuotientProgress, DEFAULT_MAX_ORDER};
use nimtab::sweep::{quotient_csv_bytes, write_quotient_header, PartWriter, QuotientSweep, Shard};
use nimtab::Game;

use crate::{run_detached, value_error, CallProgress};

/// Heaps done, for the progress bar (a quotient is built heap by heap).
impl QuotientProgress for CallProgress {
    fn heap_done(&self, heap: u32, _order: usize) {
        self.set_done(u64::from(heap));
    }
}

/// quotient(game, max_heap, max_order, normal, report) -> dict
///
/// The keys of `nimtab quotient --format json` (`product` and `phi` as uint32 arrays,
/// `period` as `None` or `(preperiod, period)`), plus `generator_heaps`, `relations` and
/// `json`, the bytes the command writes.
#[pyfunction]
#[pyo3(signature = (game, max_heap, max_order = nimtab::quotient::DEFAULT_MAX_ORDER,
    normal = false, report = None))]
pub fn quotient<'py>(
    py: Python<'py>,
    game: String,
    max_heap: u32,
    max_order: usize,
    normal: bool,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let play = if normal { Play::Normal } else { Play::Misere };
    let computed = run_detached(py, None, report.as_ref(), move |progress| {
        let game = Game::parse(&game).map_err(value_error)?;
        let config = QuotientConfig { max_heap, max_order, play };
        compute(&game, &config, progress).map_err(value_error)
    })??;
    let q = computed;
    let order = q.order();
    let mut json = Vec::new();
    write_json(&mut json, &q).map_err(value_error)?;
    let product: Vec<u32> = (0..order as u32)
        .flat_map(|x| (0..order as u32).map(move |y| (x, y)))
        .map(|(x, y)| q.product(x, y))
        .collect();
    let product: Bound<'py, PyArray2<u32>> =
        Array2::from_shape_vec((order, order), product).map_err(value_error)?.into_pyarray(py);
    let phi: Bound<'py, PyArray1<u32>> = q.phi_all().to_vec().into_pyarray(py);
    let out = PyDict::new(py);
    out.set_item("game", q.game())?;
    out.set_item("max_heap", q.max_heap())?;
    out.set_item("order", order)?;
    out.set_item("identity", q.identity())?;
    out.set_item("elements", q.elements().to_vec())?;
    out.set_item("product", product)?;
    out.set_item("p_portion", q.p_portion())?;
    out.set_item("phi", phi)?;
    out.set_item("presentation", q.presentation())?;
    out.set_item("tame", q.tame())?;
    out.set_item("period", q.period().map(|p| (p.preperiod, p.period)))?;
    out.set_item("generator_heaps", q.generator_heaps().to_vec())?;
    out.set_item("relations", q.relations().to_vec())?;
    out.set_item("json", PyBytes::new(py, &json))?;
    Ok(out)
}

/// `(N, K)` of `quotients=N, max_order=K`; `max_order` alone is refused, as the command
/// line's `--max-order` without `--quotients`.
pub(crate) fn quotient_bounds(
    quotients: Option<u32>,
    max_order: Option<usize>,
) -> PyResult<Option<(u32, usize)>> {
    match (quotients, max_order) {
        (None, Some(_)) => Err(value_error("max_order applies only with quotients")),
        (None, None) => Ok(None),
        (Some(n), k) => Ok(Some((n, k.unwrap_or(DEFAULT_MAX_ORDER)))),
    }
}

/// The bytes `nimtab sweep --quotients N --max-order K` writes: the whole CSV, or with
/// `shard` that shard's part.
pub(crate) fn quotient_sweep_bytes(
    sweep: &QuotientSweep,
    shard: Option<Shard>,
    progress: &CallProgress,
) -> nimtab::sweep::Result<Vec<u8>> {
    let games = match shard {
        Some(shard) => sweep.shard_games(shard),
        None => 0..sweep.games(),
    };
    let mut out = Vec::new();
    let mut part = match shard {
        Some(shard) => Some(PartWriter::start_with(&mut out, &sweep.part_head(shard))?),
        None => {
            write_quotient_header(&mut out)?;
            None
        }
    };
    sweep.run_batches(games, progress, |rows| {
        let bytes = quotient_csv_bytes(&rows)?;
        match &mut part {
            Some(part) => part.lines(&mut out, &bytes, rows.len())?,
            None => out.extend_from_slice(&bytes),
        }
        Ok(())
    })?;
    if let Some(part) = part {
        part.finish(&mut out)?;
    }
    Ok(out)
}
