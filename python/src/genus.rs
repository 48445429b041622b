//! The genus of heaps and sums of heaps, from their misère canonical forms.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use nimtab::genus::{Genus, HeapForms};
use nimtab::{host, Game};

use crate::{run_detached, value_error};

/// One genus as the dict Python sees: the notation, G+, G−, the γ values written and
/// whether it is a nim-heap's genus.
fn genus_dict<'py>(py: Python<'py>, genus: &Genus) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("genus", genus.to_string())?;
    out.set_item("grundy", genus.grundy)?;
    out.set_item("misere_grundy", genus.misere_grundy())?;
    out.set_item("gammas", genus.gammas.clone())?;
    out.set_item("tame", genus.is_nim_heap())?;
    Ok(out)
}

/// genus(game, max_heap, position, report) -> list of dicts (one per heap 0..=max_heap),
/// or the dict of the sum `position` when it is given.
#[pyfunction]
#[pyo3(signature = (game, max_heap = None, position = None, report = None))]
pub fn genus<'py>(
    py: Python<'py>,
    game: String,
    max_heap: Option<u32>,
    position: Option<Vec<u32>>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = host::memory_budget().bytes;
    let wanted = position.clone();
    let computed = run_detached(py, None, report.as_ref(), move |progress| {
        let game = Game::parse(&game).map_err(value_error)?;
        let mut forms = HeapForms::new(&game, budget).map_err(value_error)?;
        match (wanted, max_heap) {
            (Some(heaps), _) => {
                forms.position_genus(&heaps, progress).map(|g| vec![g]).map_err(value_error)
            }
            (None, Some(max_heap)) => {
                forms.extend_to(max_heap, progress).map_err(value_error)?;
                Ok((0..=max_heap).map(|n| forms.heap_genus(n).clone()).collect())
            }
            (None, None) => Err(value_error("genus needs max_heap or position")),
        }
    })??;
    if position.is_some() {
        return Ok(genus_dict(py, &computed[0])?.into_any());
    }
    let rows = computed.iter().map(|g| genus_dict(py, g)).collect::<PyResult<Vec<_>>>()?;
    Ok(pyo3::types::PyList::new(py, rows)?.into_any())
}
