//! Quotient sweeps (`nimtab sweep --quotients N --max-order K`): the command's bytes,
//! whole or one shard's part, and its rows as typed Python values built from the
//! library's `QuotientRow`s.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use nimtab::export::sweep_part::PartLines;
use nimtab::host;
use nimtab::quotient::DEFAULT_MAX_ORDER;
use nimtab::sweep::{
    quotient_csv_bytes, write_quotient_header, QuotientRow, QuotientStatus, QuotientSweep, Shard,
    QUOTIENT_HEADER,
};

use crate::family::family_of;
use crate::{run_detached, value_error, CallProgress};

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
        Some(shard) => Some(PartLines::start(&mut out, &sweep.part_head(shard))?),
        None => {
            write_quotient_header(&mut out)?;
            None
        }
    };
    // Batch by batch: the bytes, not every game's rows, are what is kept.
    sweep.run_batches(games, host::memory_limit(), progress, |rows| {
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
fn typed<'py>(py: Python<'py>, rows: &[QuotientRow]) -> PyResult<QuotientRows<'py>> {
    let list = PyList::empty(py);
    for row in rows {
        list.append(values(py, row)?)?;
    }
    Ok((QUOTIENT_HEADER.to_vec(), list))
}

/// quotient_sweep_rows(games, game_list, games_file, force, quotients, max_order,
/// threads, report) -> (header, rows)
///
/// The rows `nimtab sweep --quotients N --max-order K` writes, as typed values, one per
/// game in the family's order.
#[pyfunction]
#[pyo3(signature = (games, game_list, games_file, force, quotients, max_order = None,
    threads = None, report = None))]
#[allow(clippy::too_many_arguments)]
pub fn quotient_sweep_rows<'py>(
    py: Python<'py>,
    games: Option<String>,
    game_list: Option<Vec<String>>,
    games_file: Option<(String, String)>,
    force: bool,
    quotients: u32,
    max_order: Option<usize>,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<QuotientRows<'py>> {
    let max_order = max_order.unwrap_or(DEFAULT_MAX_ORDER);
    let run = move |progress: &CallProgress| -> nimtab::sweep::Result<Vec<QuotientRow>> {
        let family = family_of(games.as_deref(), game_list.as_deref(), games_file.as_ref(), force)?;
        let sweep = QuotientSweep::new(family, quotients, max_order)?;
        sweep.run(0..sweep.games(), host::memory_limit(), progress)
    };
    let rows = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    typed(py, &rows)
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
