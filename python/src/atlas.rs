//! The atlas of octal games (`nimtab atlas`): a request's codes, its codes solved (the
//! whole atlas here, or one batch of it as a Dask task), and entries computed anywhere
//! assembled into the rows of `atlas.csv` and `classes.csv`.

use pyo3::prelude::*;

use nimtab::atlas::files::{atlas_row, class_of, classes_row, ATLAS_HEADER, CLASSES_HEADER};
use nimtab::atlas::{classes, AtlasObserver, Entry, WorkDir};
use nimtab::Progress;

use crate::atlas_dir::{AtlasDir, StateDir};
use crate::atlas_request::{entries_of, texts_of, AtlasDict};
use crate::{run_detached, value_error, CallProgress};

/// How often a long run writes its checkpoint in the state folder (the command's default).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// atlas_codes(request) -> list of str
///
/// The codes of the atlas, in the tables' order (`0.161`, no prefix, each once), once
/// every code is parsed and the settings checked.
#[pyfunction]
pub fn atlas_codes(py: Python<'_>, request: AtlasDict) -> PyResult<Vec<String>> {
    Ok(request.plan(py)?.codes().iter().map(|c| c.to_string()).collect())
}

/// A run's observer: counts the codes done, keeps each entry in the state folder of the
/// atlas directory when there is one, and stops when the call is cancelled.
struct Keeper<'p> {
    progress: &'p CallProgress,
    state: Option<StateDir>,
}

impl AtlasObserver for Keeper<'_> {
    fn code_done(&self, entry: &Entry) -> Result<(), String> {
        let kept = self.state.as_ref().map_or(Ok(()), |state| state.keep(entry));
        self.progress.advance(1);
        kept
    }

    fn cancelled(&self) -> bool {
        self.progress.cancelled()
    }
}

/// atlas_solve(request, done=[], out=None, threads=None, report=None) -> list of str
///
/// Every code of the atlas that the entries `done` (JSON text) lack, computed in
/// parallel, one code per thread, as `nimtab atlas` computes them; with `out` (an
/// [`AtlasDir`]) each entry is kept in its state folder as it is finished. Returns every
/// entry (those given and the new ones) as JSON text, in the atlas's order. `report` is
/// called with the codes computed so far.
#[pyfunction]
#[pyo3(signature = (request, done = Vec::new(), out = None, threads = None, report = None))]
pub fn atlas_solve(
    py: Python<'_>,
    request: AtlasDict,
    done: Vec<String>,
    out: Option<PyRef<'_, AtlasDir>>,
    threads: Option<usize>,
    report: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let atlas = request.plan(py)?;
    let done = entries_of(&done)?;
    let state = out.map(|dir| dir.state()).transpose()?;
    // With an atlas directory, long runs keep their values and checkpoints in its state
    // folder, as the command's do.
    let atlas = match &state {
        Some(state) => atlas.with_work_dir(WorkDir::new(state.dir(), CHECKPOINT_EVERY)),
        None => atlas,
    };
    let run = move |progress: &CallProgress| atlas.solve(done, &Keeper { progress, state });
    let entries = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    texts_of(&entries)
}

/// The rows of `atlas.csv` and `classes.csv` as Python receives them: each header and one
/// list of cells (the CSV's text) per row.
type Tables = (Vec<&'static str>, Vec<Vec<String>>, Vec<&'static str>, Vec<Vec<String>>);

/// atlas_tables(request, entries) -> (atlas header, atlas rows, classes header, classes
/// rows, entries)
///
/// The atlas of the entries (JSON text, in any order, computed anywhere: one for each
/// code of the request, under its settings): the cells of `atlas.csv` and `classes.csv`,
/// as the command writes them, and the entries in the atlas's order.
#[pyfunction]
pub fn atlas_tables(
    py: Python<'_>,
    request: AtlasDict,
    entries: Vec<String>,
) -> PyResult<(Tables, Vec<String>)> {
    let atlas = request.plan(py)?;
    let entries = atlas.assemble(entries_of(&entries)?).map_err(value_error)?;
    let classes = classes(&entries);
    let rows = entries.iter().map(|e| atlas_row(e, class_of(&classes, &e.code))).collect();
    let numbered = classes.iter().enumerate();
    let class_rows = numbered.map(|(i, c)| classes_row(i + 1, c).to_vec()).collect();
    let tables = (ATLAS_HEADER.to_vec(), rows, CLASSES_HEADER.to_vec(), class_rows);
    Ok((tables, texts_of(&entries)?))
}
