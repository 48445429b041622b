//! Misère (or normal-play) quotients of sums of heaps, as numpy tables.

use nimtab::Ending;
use std::io::{self, Write};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use nimtab::export::format::Format;
use nimtab::export::quotient::QuotientOutput;
use nimtab::host;
use nimtab::quotient::{compute, Quotient, QuotientConfig, QuotientProgress};
use nimtab::sequence::human_bytes;
use nimtab::Game;

use crate::{run_detached, value_error, CallProgress};

/// Heaps done, for the progress bar (a quotient is built heap by heap).
impl QuotientProgress for CallProgress {
    fn heap_done(&self, heap: u32, _order: usize) {
        self.set_done(u64::from(heap));
    }

    /// The flag the engine polls, set by Ctrl-C: the solver stops between its steps.
    fn cancelled(&self) -> bool {
        nimtab::Progress::cancelled(self)
    }
}

/// A writer that only counts the bytes written to it.
struct Counting(u64);

impl Write for Counting {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The JSON bytes and the product table the dict holds, checked against the memory the
/// process may use and allocated fallibly: the product table of a large quotient has
/// hundreds of millions of entries, and its JSON several bytes each.
fn python_tables(q: &Quotient) -> PyResult<(Vec<u8>, Vec<u32>)> {
    let mut counted = Counting(0);
    QuotientOutput::Json(q).write_to(&mut counted).map_err(value_error)?;
    let cells = q.order() * q.order();
    let need = counted.0.saturating_add(cells as u64 * 4);
    let budget = host::memory_budget();
    let refused = || {
        value_error(format!(
            "the quotient's JSON and product table need {} of memory but only {} is \
             available ({})",
            human_bytes(need),
            human_bytes(budget.bytes),
            budget.source
        ))
    };
    if need > budget.bytes {
        return Err(refused());
    }
    let mut json = Vec::new();
    json.try_reserve_exact(counted.0 as usize).map_err(|_| refused())?;
    QuotientOutput::Json(q).write_to(&mut json).map_err(value_error)?;
    let mut product = Vec::new();
    product.try_reserve_exact(cells).map_err(|_| refused())?;
    let order = q.order() as u32;
    product.extend((0..order).flat_map(|x| (0..order).map(move |y| q.product(x, y))));
    Ok((json, product))
}

/// quotient(game, max_heap, max_order, normal, report, every_heap) -> dict
///
/// The keys of `nimtab quotient --format json` (`product` and `phi` as uint32 arrays,
/// `period` as `None` or `(preperiod, period)`), plus `certified_at` (the heap at which
/// the run stopped because the whole game was certified, else `None`),
/// `generator_heaps`, `relations` and `json`, the bytes the command writes.
#[pyfunction]
#[pyo3(signature = (game, max_heap, max_order = nimtab::quotient::DEFAULT_MAX_ORDER,
    normal = false, report = None, every_heap = false))]
pub fn quotient<'py>(
    py: Python<'py>,
    game: String,
    max_heap: u32,
    max_order: usize,
    normal: bool,
    report: Option<Bound<'py, PyAny>>,
    every_heap: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let play = if normal { Ending::Normal } else { Ending::Misere };
    let computed = run_detached(py, None, report.as_ref(), move |progress| {
        let game = Game::parse(&game).map_err(value_error)?;
        let until_certified = !every_heap;
        let config = QuotientConfig {
            max_heap,
            max_order,
            play,
            until_certified,
            ..QuotientConfig::new(max_heap)
        };
        compute(&game, &config, progress).map_err(value_error)
    })??;
    let q = computed;
    let order = q.order();
    let (json, product) = python_tables(&q)?;
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
    out.set_item("certified_at", q.certified_at())?;
    out.set_item("generator_heaps", q.generator_heaps().to_vec())?;
    out.set_item("relations", q.relations().to_vec())?;
    out.set_item("json", PyBytes::new(py, &json))?;
    Ok(out)
}
