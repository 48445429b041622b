//! Quotient sweeps (`nimtab sweep --quotients N --max-order K`): their bounds, and their
//! rows as typed Python values built from the library's `QuotientRow`s.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use nimtab::quotient::DEFAULT_MAX_ORDER;
use nimtab::sweep::{QuotientRow, QuotientStatus, QUOTIENT_HEADER};

use crate::value_error;

/// Quotient rows as Python receives them: the library's header and one tuple of values
/// per row, in its order.
pub(crate) type QuotientRows<'py> = (Vec<&'static str>, Bound<'py, PyList>);

/// `(N, K)` of `quotients=N, max_order=K`; `max_order` alone is refused, as it means
/// nothing without a quotient sweep.
pub(crate) fn quotient_bounds(
    quotients: Option<u32>,
    max_order: Option<usize>,
) -> PyResult<Option<(u32, usize)>> {
    match (quotients, max_order) {
        (None, Some(_)) => {
            Err(value_error("the argument 'max_order' cannot be used without 'quotients'"))
        }
        (None, None) => Ok(None),
        (Some(n), k) => Ok(Some((n, k.unwrap_or(DEFAULT_MAX_ORDER)))),
    }
}

/// One row's values in the order of [`QUOTIENT_HEADER`]: counts as int, `tame` as bool,
/// `None` where the CSV cell is empty (every result of a row whose status is not `ok`,
/// the period when none is certified).
fn values<'py>(py: Python<'py>, row: &QuotientRow) -> PyResult<Bound<'py, PyTuple>> {
    let (mut order, mut size, mut tame, mut period) = (None, None, None, None);
    if let QuotientStatus::Ok { order: o, p_portion_size, tame: t, period: p } = &row.status {
        (order, size, tame, period) = (Some(*o), Some(*p_portion_size), Some(*t), *p);
    }
    let (preperiod, period) = (period.map(|p| p.0), period.map(|p| p.1));
    (&row.game, row.max_heap, order, size, tame, preperiod, period, row.status.name())
        .into_pyobject(py)
}

/// The rows as Python receives them.
pub(crate) fn typed<'py>(py: Python<'py>, rows: &[QuotientRow]) -> PyResult<QuotientRows<'py>> {
    let list = PyList::empty(py);
    for row in rows {
        list.append(values(py, row)?)?;
    }
    Ok((QUOTIENT_HEADER.to_vec(), list))
}

/// The row of a record as a quotient sweep writes it (its cells already checked by the
/// merge that produced them, read again here with a message for any that is not).
fn row_of_record(record: &csv::StringRecord) -> Result<QuotientRow, String> {
    let cell = |i: usize| record.get(i).unwrap_or("");
    let count = |i: usize| -> Result<usize, String> {
        cell(i).parse().map_err(|_| format!("{} '{}' is not a count", QUOTIENT_HEADER[i], cell(i)))
    };
    let max_heap = cell(1).parse().map_err(|_| format!("max_heap '{}' is not a count", cell(1)))?;
    let status = match cell(7) {
        "ok" => QuotientStatus::Ok {
            order: count(2)?,
            p_portion_size: count(3)?,
            tame: match cell(4) {
                "true" => true,
                "false" => false,
                other => return Err(format!("tame '{other}' is not true or false")),
            },
            period: match (cell(5), cell(6)) {
                ("", "") => None,
                _ => Some((count(5)? as u32, count(6)? as u32)),
            },
        },
        "grew_past_max_order" => QuotientStatus::GrewPastMaxOrder,
        "memory" => QuotientStatus::Memory,
        "not_a_sum" => QuotientStatus::NotASum,
        "proof_failed" => QuotientStatus::ProofFailed,
        other => return Err(format!("status '{other}' is not one a quotient sweep writes")),
    };
    Ok(QuotientRow { game: cell(0).to_string(), max_heap, status })
}

/// quotient_rows_of_csv(data) -> (header, rows)
///
/// The rows of the CSV a quotient sweep wrote (a Dask sweep's merged parts), typed as
/// [`quotient_sweep_rows`] gives them.
#[pyfunction]
pub fn quotient_rows_of_csv<'py>(py: Python<'py>, data: &[u8]) -> PyResult<QuotientRows<'py>> {
    let mut reader = csv::Reader::from_reader(data);
    let found: Vec<&str> = reader.headers().map_err(value_error)?.iter().collect();
    if found != QUOTIENT_HEADER {
        let message = format!("not a quotient sweep: its header is {}", found.join(","));
        return Err(value_error(message));
    }
    let mut rows = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(value_error)?;
        let row = row_of_record(&record)
            .map_err(|e| value_error(format!("row {} of the quotient sweep: {e}", line + 1)))?;
        rows.push(row);
    }
    typed(py, &rows)
}
