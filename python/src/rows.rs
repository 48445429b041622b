//! The rows of `summary.csv` and `counterexamples.csv` as typed Python values, built from
//! the library's findings and sweep rows (no CSV in between), under the library's own
//! headers: the one definition of the schema.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use nimtab::analysis::tally::{Counterexample, Tally};
use nimtab::analysis::verify::Finding;
use nimtab::export::summary::{
    multiset_space_cells, summary_header, COUNTEREXAMPLE_HEADER, NO_CRITERION,
};
use nimtab::sweep::{PlannedSweep, QuotientRow, Shard, SweepOutput, SweepRow};
use nimtab::{host, Ending, Label};

use crate::quotient_sweep::typed;
use crate::sweeps::{SweepDict, VerifyRequest};
use crate::{run_detached, value_error, CallProgress};

/// Rows as Python receives them: the header (the library's), one tuple of values per
/// row in its order, and each row's total (`None` for a tuple space).
pub(crate) type Rows<'py> = (Vec<&'static str>, Bound<'py, PyList>, Vec<Option<u32>>);

/// The `heaps` and `max` values of a space: integers for tuples, the words of the CSV
/// (`any`, `total<=T`) for the multisets of total at most `T`.
fn space_values<'py>(
    py: Python<'py>,
    heaps: usize,
    max: u32,
    total: Option<u32>,
) -> PyResult<[Bound<'py, PyAny>; 2]> {
    Ok(match total {
        None => [heaps.into_pyobject(py)?.into_any(), max.into_pyobject(py)?.into_any()],
        Some(total) => {
            let [heaps, max] = multiset_space_cells(total);
            [heaps.into_pyobject(py)?.into_any(), max.into_pyobject(py)?.into_any()]
        }
    })
}

/// What one row of the summary says, whichever result it comes from.
pub(crate) struct SummaryRow<'a> {
    pub game: &'a str,
    pub heaps: usize,
    pub max: u32,
    pub total: Option<u32>,
    pub ending: Ending,
    pub test: &'a str,
    /// Whether the test was compared (agree and disagree are then counts, else `None`).
    pub compared: bool,
    pub tally: &'a Tally,
}

impl<'a> SummaryRow<'a> {
    fn of_finding(f: &'a Finding) -> SummaryRow<'a> {
        SummaryRow {
            game: &f.game,
            heaps: f.heaps,
            max: f.max,
            total: f.total,
            ending: f.ending,
            test: f.criterion.map_or(NO_CRITERION, |c| c.name()),
            compared: f.criterion.is_some() && f.not_compared.is_none(),
            tally: &f.tally,
        }
    }

    fn of_sweep(r: &'a SweepRow) -> SummaryRow<'a> {
        SummaryRow {
            game: &r.game,
            heaps: r.heaps,
            max: r.max,
            total: r.total,
            ending: r.ending,
            test: &r.test,
            compared: r.test != NO_CRITERION,
            tally: &r.tally,
        }
    }

    /// The values in the order of [`summary_header`]: the first counterexample as a tuple
    /// of heap sizes (`()` for the empty position; in a game with a pass ending with its
    /// state, `"pass=0"` or `"pass=1"`, as the CSV writes it), `None` where there is none.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let t = self.tally;
        let count = |n: u64| self.compared.then_some(n);
        let first = match t.counterexamples.first() {
            Some(c) => Some(position(py, c)?),
            None => None,
        };
        let [heaps, max] = space_values(py, self.heaps, self.max, self.total)?;
        (
            self.game,
            heaps,
            max,
            self.ending.name(),
            self.test,
            t.positions,
            t.p_positions,
            count(t.agree),
            count(t.disagree),
            first,
        )
            .into_pyobject(py)
    }
}

/// A counterexample's position: its heap sizes, then its pass state in a game with a
/// pass.
fn position<'py>(py: Python<'py>, c: &Counterexample) -> PyResult<Bound<'py, PyTuple>> {
    let mut cells = Vec::with_capacity(c.position.len() + 1);
    for &h in &c.position {
        cells.push(h.into_pyobject(py)?.into_any());
    }
    if let Some(pass) = c.pass {
        let state = format!("pass={}", u8::from(pass.is_available()));
        cells.push(state.into_pyobject(py)?.into_any());
    }
    PyTuple::new(py, cells)
}

/// The rows of the summary.
pub(crate) fn summary<'py>(py: Python<'py>, rows: &[SummaryRow<'_>]) -> PyResult<Rows<'py>> {
    let list = PyList::empty(py);
    for row in rows {
        list.append(row.values(py)?)?;
    }
    Ok((summary_header(), list, rows.iter().map(|r| r.total).collect()))
}

/// The rows of `counterexamples.csv`: every kept counterexample of the findings that
/// compare a criterion, in finding and index order.
fn counterexamples<'py>(py: Python<'py>, findings: &[Finding]) -> PyResult<Rows<'py>> {
    let (list, mut totals) = (PyList::empty(py), Vec::new());
    for f in findings {
        let Some(criterion) = f.criterion else { continue };
        for c in &f.tally.counterexamples {
            list.append(counterexample(py, f, criterion.name(), c)?)?;
            totals.push(f.total);
        }
    }
    Ok((COUNTEREXAMPLE_HEADER.to_vec(), list, totals))
}

/// One counterexample in the order of [`COUNTEREXAMPLE_HEADER`]: a tuple space's `heaps`
/// is the position's length.
fn counterexample<'py>(
    py: Python<'py>,
    f: &Finding,
    criterion: &str,
    c: &Counterexample,
) -> PyResult<Bound<'py, PyTuple>> {
    let dp = Label::of(c.dp_is_p);
    let [heaps, max] = space_values(py, c.position.len(), f.max, f.total)?;
    let position = position(py, c)?;
    (&f.game, heaps, max, f.ending.name(), criterion, position, dp.as_str(), dp.flipped().as_str())
        .into_pyobject(py)
}

/// verify_rows(request, threads, report) -> (summary rows, counterexample rows)
///
/// The rows of `summary.csv` and `counterexamples.csv` that `nimtab verify --limit
/// LIMIT` writes for the request (a `VerifyRequest` dict), each as `(header, rows,
/// totals)`.
#[pyfunction]
#[pyo3(signature = (request, threads = None, report = None))]
pub fn verify_rows<'py>(
    py: Python<'py>,
    request: VerifyRequest,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<(Rows<'py>, Rows<'py>)> {
    let (args, mode, limit) = request.args();
    let run = move |progress: &CallProgress| args.findings(mode, limit, progress);
    let findings = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    let rows: Vec<SummaryRow> = findings.iter().map(SummaryRow::of_finding).collect();
    Ok((summary(py, &rows)?, counterexamples(py, &findings)?))
}

/// sweep_rows(request, shard, threads, report) -> (header, rows, totals) or (header, rows)
///
/// The rows `nimtab sweep` writes (of shard i of n with `shard=(i, n)`), as typed values:
/// for criteria or a claim, the rows of `summary.csv` with their totals; for a quotient
/// sweep (`quotients=N`), one row per game with the columns of `sweep --quotients`.
#[pyfunction]
#[pyo3(signature = (request, shard = None, threads = None, report = None))]
pub fn sweep_rows<'py>(
    py: Python<'py>,
    request: SweepDict,
    shard: Option<(usize, usize)>,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = request.request()?;
    let run = move |progress: &CallProgress| -> nimtab::sweep::Result<Found> {
        let shard = shard.map(|(i, n)| Shard::new(i, n)).transpose()?;
        let memory = host::memory_limit();
        Ok(match request.plan()? {
            PlannedSweep::Table(sweep) => {
                Found::Table(sweep.run(sweep.games_of(shard), memory, progress)?)
            }
            PlannedSweep::Quotients(sweep) => {
                Found::Quotients(sweep.run(sweep.games_of(shard), memory, progress)?)
            }
        })
    };
    match run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)? {
        Found::Table(rows) => {
            let rows: Vec<SummaryRow> = rows.iter().map(SummaryRow::of_sweep).collect();
            Ok(summary(py, &rows)?.into_pyobject(py)?.into_any())
        }
        Found::Quotients(rows) => Ok(typed(py, &rows)?.into_pyobject(py)?.into_any()),
    }
}

/// The rows a sweep found, of either kind.
enum Found {
    Table(Vec<SweepRow>),
    Quotients(Vec<QuotientRow>),
}

/// One cell of a summary written by `nimtab sweep`, typed as [`SummaryRow::values`] types
/// it: empty is `None`, a count an int, a position (the last column) a tuple of heap
/// sizes (`()` for the empty one), any other word a string.
fn typed_cell<'py>(py: Python<'py>, cell: &str, position: bool) -> PyResult<Bound<'py, PyAny>> {
    if cell.is_empty() {
        return Ok(py.None().into_bound(py));
    }
    if position {
        let heaps: Vec<u32> = match cell {
            "()" => Vec::new(),
            _ => cell.split(' ').map(str::parse).collect::<Result<_, _>>().map_err(value_error)?,
        };
        return Ok(PyTuple::new(py, heaps)?.into_any());
    }
    match cell.parse::<u64>() {
        Ok(n) => Ok(n.into_pyobject(py)?.into_any()),
        Err(_) => Ok(cell.into_pyobject(py)?.into_any()),
    }
}

/// summary_rows(data) -> (header, rows, totals)
///
/// The rows of a summary that `nimtab sweep` wrote (a Dask sweep's merged parts), typed
/// as [`sweep_rows`] gives them.
#[pyfunction]
pub fn summary_rows<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Rows<'py>> {
    let header = summary_header();
    let mut reader = csv::Reader::from_reader(data);
    let found: Vec<&str> = reader.headers().map_err(value_error)?.iter().collect();
    if found != header {
        return Err(value_error(format!("not a summary: its header is {}", found.join(","))));
    }
    let (list, mut totals) = (PyList::empty(py), Vec::new());
    for record in reader.records() {
        let record = record.map_err(value_error)?;
        let cells = record
            .iter()
            .enumerate()
            .map(|(i, cell)| typed_cell(py, cell, i + 1 == header.len()))
            .collect::<PyResult<Vec<_>>>()?;
        list.append(PyTuple::new(py, cells)?)?;
        // The `max` cell of a multiset space reads `total<=T`.
        totals.push(record.get(2).and_then(|m| m.strip_prefix("total<=")?.parse().ok()));
    }
    Ok((header, list, totals))
}
