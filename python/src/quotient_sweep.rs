//! Quotient sweeps (`nimtab sweep --quotients N` with its game limits): their bounds, and
//! their rows as typed Python values built from the library's `QuotientRow`s.

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use nimtab::host::parse_memory_size;
use nimtab::sweep::{QuotientLimits, QuotientRow, QUOTIENT_HEADER};

use crate::value_error;

/// Quotient rows as Python receives them: the library's header and one tuple of values
/// per row, in its order.
pub(crate) type QuotientRows<'py> = (Vec<&'static str>, Bound<'py, PyList>);

/// The longest game time accepted, in seconds, as `--game-timeout` bounds it.
const MAX_GAME_SECONDS: f64 = 1e9;

/// A quotient sweep's arguments as the request dict holds them.
pub(crate) struct QuotientArgs {
    pub quotients: Option<u32>,
    pub max_order: Option<usize>,
    /// Seconds.
    pub game_timeout: Option<f64>,
    /// Bytes, or an amount with a unit (`"1G"`), as text.
    pub game_memory: Option<String>,
}

impl QuotientArgs {
    /// `(N, limits)` of `quotients=N` and its limits; the limits alone are refused, as
    /// they mean nothing without a quotient sweep.
    pub(crate) fn limits(self) -> PyResult<Option<(u32, QuotientLimits)>> {
        let Some(n) = self.quotients else {
            let given = [
                ("max_order", self.max_order.is_some()),
                ("game_timeout", self.game_timeout.is_some()),
                ("game_memory", self.game_memory.is_some()),
            ];
            return match given.iter().find(|(_, given)| *given) {
                Some((name, _)) => Err(value_error(format!(
                    "the argument '{name}' cannot be used without 'quotients'"
                ))),
                None => Ok(None),
            };
        };
        let game_timeout = self.game_timeout.map(seconds).transpose()?;
        let game_memory = self
            .game_memory
            .map(|text| {
                parse_memory_size(&text).map_err(|e| value_error(format!("game_memory: {e}")))
            })
            .transpose()?;
        Ok(Some((n, QuotientLimits { max_order: self.max_order, game_timeout, game_memory })))
    }
}

/// A game's time in seconds: more than 0, at most [`MAX_GAME_SECONDS`].
fn seconds(value: f64) -> PyResult<Duration> {
    match value > 0.0 && value <= MAX_GAME_SECONDS {
        true => Ok(Duration::from_secs_f64(value)),
        false => Err(value_error(format!(
            "game_timeout: expected the seconds each game may take, more than 0 and at most \
             1e9, got {value}"
        ))),
    }
}

/// One row's values in the order of [`QUOTIENT_HEADER`]: counts as int, `tame` as bool,
/// `None` where the CSV cell is empty (the quotient's cells without one, the period when
/// none is certified).
fn values<'py>(py: Python<'py>, row: &QuotientRow) -> PyResult<Bound<'py, PyTuple>> {
    let r = row.reached.as_ref();
    let period = r.and_then(|r| r.period);
    (
        &row.game,
        row.max_heap,
        r.map(|r| r.last_heap),
        r.map(|r| r.order),
        r.map(|r| r.p_portion_size),
        r.map(|r| r.tame),
        period.map(|p| p.0),
        period.map(|p| p.1),
        row.status.name(),
    )
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

/// quotient_rows_of_csv(data) -> (header, rows)
///
/// The rows of the CSV a quotient sweep wrote (a Dask sweep's merged parts), typed as
/// [`quotient_sweep_rows`] gives them; each row read back by the library's own reader.
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
        let cells: Vec<&str> = record.iter().collect();
        let row = QuotientRow::from_cells(&cells)
            .map_err(|e| value_error(format!("row {} of the quotient sweep: {e}", line + 1)))?;
        rows.push(row);
    }
    typed(py, &rows)
}
