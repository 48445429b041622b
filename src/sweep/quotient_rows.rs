//! A quotient sweep's rows: what became of each game (`status`), the quotient of the
//! heaps it completed, and their CSV cells (`game,max_heap,last_heap,order,
//! p_portion_size,tame,preperiod,period,status`), written and read back.

use std::io;

use crate::export::sweep_part::{csv_lines, QUOTIENT_HEADER};
use crate::quotient::Quotient;

/// Why a game's computation ended: the `status` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotientStatus {
    /// `ok`: it reached the largest heap, or certified the whole game before it.
    Ok,
    /// `order_bound`: the quotient, or a candidate its search needed, grew past the order
    /// bound.
    OrderBound,
    /// `timeout`: the game's time ran out (a row that depends on the machine).
    Timeout,
    /// `memory`: the computation needed more memory than the game may use.
    Memory,
    /// `not_a_sum`: the game is not a sum of heaps, so it has no quotient.
    NotASum,
    /// `proof_failed`: the computed quotient failed its final proof (a bug, never a result).
    ProofFailed,
}

impl QuotientStatus {
    /// Every status, in the documented order.
    pub const ALL: [QuotientStatus; 6] = [
        QuotientStatus::Ok,
        QuotientStatus::OrderBound,
        QuotientStatus::Timeout,
        QuotientStatus::Memory,
        QuotientStatus::NotASum,
        QuotientStatus::ProofFailed,
    ];

    /// Every status word, in the documented order.
    pub const NAMES: [&'static str; 6] =
        ["ok", "order_bound", "timeout", "memory", "not_a_sum", "proof_failed"];

    /// The word in the `status` column.
    pub fn name(self) -> &'static str {
        match self {
            QuotientStatus::Ok => "ok",
            QuotientStatus::OrderBound => "order_bound",
            QuotientStatus::Timeout => "timeout",
            QuotientStatus::Memory => "memory",
            QuotientStatus::NotASum => "not_a_sum",
            QuotientStatus::ProofFailed => "proof_failed",
        }
    }

    /// The status a word names.
    pub fn parse(word: &str) -> Option<QuotientStatus> {
        Self::ALL.into_iter().find(|s| s.name() == word)
    }
}

/// The proved quotient of the heaps a game's computation completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapsReached {
    /// The last heap completed: the quotient is that of heaps `1..=last_heap` (the whole
    /// game's when `period` is certified).
    pub last_heap: u32,
    /// Its order.
    pub order: usize,
    /// Its number of P-portion elements.
    pub p_portion_size: usize,
    /// Whether it is a tame quotient.
    pub tame: bool,
    /// The certified period of `Φ` (preperiod, period), when a theorem gives one.
    pub period: Option<(u32, u32)>,
}

impl HeapsReached {
    /// The cells of a proved quotient.
    pub fn of(q: &Quotient) -> HeapsReached {
        HeapsReached {
            last_heap: q.max_heap(),
            order: q.order(),
            p_portion_size: q.p_portion().len(),
            tame: q.tame(),
            period: q.period().map(|p| (p.preperiod, p.period)),
        }
    }
}

/// One game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientRow {
    /// The game's specification.
    pub game: String,
    /// The largest heap asked for, `N`.
    pub max_heap: u32,
    /// The quotient of the heaps completed; `None` when not even heap 1 was (or the game
    /// is not a sum, or its proof failed).
    pub reached: Option<HeapsReached>,
    /// Why it ended.
    pub status: QuotientStatus,
}

impl QuotientRow {
    /// The row's cells, in the order of [`QUOTIENT_HEADER`]; the quotient's cells are
    /// empty without one, the period cells unless a period is certified.
    pub fn cells(&self) -> [String; 9] {
        let (mut last, mut order, mut size, mut tame, mut pre, mut period) = Default::default();
        if let Some(r) = &self.reached {
            (last, order) = (r.last_heap.to_string(), r.order.to_string());
            (size, tame) = (r.p_portion_size.to_string(), r.tame.to_string());
            if let Some((p0, p)) = r.period {
                (pre, period) = (p0.to_string(), p.to_string());
            }
        }
        let (game, max_heap, status) =
            (self.game.clone(), self.max_heap.to_string(), self.status.name().to_string());
        [game, max_heap, last, order, size, tame, pre, period, status]
    }

    /// The row whose cells are `cells` (as many as [`QUOTIENT_HEADER`]), checked as a
    /// quotient sweep writes them: counts spelled as written, a quotient's cells all given
    /// or all empty, a period only with a quotient, an `ok` row with its quotient at the
    /// largest heap or certified, any other with at most an earlier heap's.
    ///
    /// # Errors
    /// What is wrong with the cells.
    pub fn from_cells(cells: &[impl AsRef<str>]) -> Result<QuotientRow, String> {
        let cells: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
        let cell = |i: usize| cells[i];
        if cells.len() != QUOTIENT_HEADER.len() {
            return Err(format!("{} cells, not {}", cells.len(), QUOTIENT_HEADER.len()));
        }
        if cell(0).is_empty() {
            return Err("the game cell is empty".to_string());
        }
        let status = QuotientStatus::parse(cell(8))
            .ok_or_else(|| format!("status '{}' is not one a quotient sweep writes", cell(8)))?;
        let row = QuotientRow {
            game: cell(0).to_string(),
            max_heap: count(&cells, 1)?,
            reached: reached_of(&cells)?,
            status,
        };
        row.check()?;
        Ok(row)
    }

    /// Whether the quotient's cells fit the status and the largest heap.
    fn check(&self) -> Result<(), String> {
        let status = self.status.name();
        if self.max_heap == 0 {
            return Err("max_heap 0 is no largest heap".to_string());
        }
        let Some(r) = &self.reached else {
            return match self.status {
                QuotientStatus::Ok => Err("a row of status ok without its quotient".to_string()),
                _ => Ok(()),
            };
        };
        let empty = matches!(self.status, QuotientStatus::NotASum | QuotientStatus::ProofFailed);
        if empty {
            return Err(format!("a row of status {status} with a quotient"));
        }
        if r.last_heap == 0 || r.last_heap > self.max_heap {
            let (last, max) = (r.last_heap, self.max_heap);
            return Err(format!("last_heap {last} is not a heap from 1 to max_heap {max}"));
        }
        let whole = r.last_heap == self.max_heap || r.period.is_some();
        match (self.status, whole) {
            (QuotientStatus::Ok, false) => {
                Err("a row of status ok stops before max_heap without a period".to_string())
            }
            (QuotientStatus::Ok, true) | (_, false) => Ok(()),
            (_, true) => Err(format!("a row of status {status} that reached the whole game")),
        }
    }
}

/// Cell `i` as a count, spelled as the sweep writes counts.
fn count<T: std::str::FromStr + ToString>(cells: &[&str], i: usize) -> Result<T, String> {
    match cells[i].parse::<T>() {
        Ok(n) if n.to_string() == cells[i] => Ok(n),
        _ => Err(format!("{} '{}' is not a count", QUOTIENT_HEADER[i], cells[i])),
    }
}

/// The quotient's cells (`last_heap` to `period`): all empty, or a quotient.
fn reached_of(cells: &[&str]) -> Result<Option<HeapsReached>, String> {
    let cell = |i: usize| cells[i];
    if (2..8).all(|i| cell(i).is_empty()) {
        return Ok(None);
    }
    if (2..6).any(|i| cell(i).is_empty()) {
        return Err("a quotient's cells are partly empty".to_string());
    }
    let (order, p_portion_size): (usize, usize) = (count(cells, 3)?, count(cells, 4)?);
    if order == 0 || p_portion_size == 0 || p_portion_size > order {
        return Err(format!("order {order} and P-portion size {p_portion_size} do not fit"));
    }
    let tame = match cell(5) {
        "true" => true,
        "false" => false,
        other => return Err(format!("tame '{other}' is not true or false")),
    };
    let period = match (cell(6).is_empty(), cell(7).is_empty()) {
        (true, true) => None,
        (false, false) => match (count::<u32>(cells, 6), count::<u32>(cells, 7)) {
            (Ok(pre), Ok(p)) if p > 0 => Some((pre, p)),
            _ => return Err("the preperiod and period cells do not make a period".to_string()),
        },
        _ => return Err("the preperiod and period cells do not make a period".to_string()),
    };
    let last_heap = count(cells, 2)?;
    Ok(Some(HeapsReached { last_heap, order, p_portion_size, tame, period }))
}

/// The rows as CSV lines (no header).
///
/// # Errors
/// The CSV writer's error.
pub fn quotient_csv_bytes(rows: &[QuotientRow]) -> io::Result<Vec<u8>> {
    csv_lines(rows.iter().map(QuotientRow::cells))
}

/// Checks one row's cells as a quotient sweep writes them for largest heap `max_heap`.
pub(super) fn check_quotient_cells(cells: &[String], max_heap: u32) -> Result<(), String> {
    let row = QuotientRow::from_cells(cells)?;
    if row.max_heap != max_heap {
        return Err(format!("max_heap '{}' where the sweep's is {max_heap}", cells[1]));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &str) -> Result<QuotientRow, String> {
        QuotientRow::from_cells(&cells.split(',').collect::<Vec<_>>())
    }

    #[test]
    fn statuses_are_listed_with_their_words_in_order() {
        assert_eq!(QuotientStatus::ALL.map(QuotientStatus::name), QuotientStatus::NAMES);
        for status in QuotientStatus::ALL {
            assert_eq!(QuotientStatus::parse(status.name()), Some(status));
        }
    }

    #[test]
    fn rows_read_back_from_their_cells() {
        for text in [
            "octal:0.75,40,21,8,2,false,8,2,ok",
            "octal:0.07,12,12,24,5,false,,,ok",
            "octal:0.6,20,16,304,38,false,,,order_bound",
            "octal:0.76,12,11,34,9,false,,,timeout",
            "octal:0.76,12,,,,,,,timeout",
            "octal:0.6,20,,,,,,,memory",
            "wythoff,20,,,,,,,not_a_sum",
        ] {
            let found = row(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(found.cells().join(","), text);
        }
        assert_eq!(
            row("octal:0.76,12,11,34,9,false,,,timeout").unwrap().status,
            QuotientStatus::Timeout
        );
    }

    #[test]
    fn cells_that_do_not_make_a_row_are_refused_saying_why() {
        for (text, why) in [
            ("octal:0.75,40,21,8,2,false,,,ok", "without a period"),
            ("octal:0.75,40,,,,,,,ok", "without its quotient"),
            ("octal:0.75,40,41,8,2,false,,,order_bound", "last_heap 41"),
            ("octal:0.75,40,40,8,2,false,,,timeout", "reached the whole game"),
            ("octal:0.75,40,0,8,2,false,,,timeout", "last_heap 0"),
            ("wythoff,20,3,1,1,true,,,not_a_sum", "with a quotient"),
            ("octal:0.75,40,21,8,,false,8,2,ok", "partly empty"),
            ("octal:0.75,40,21,8,9,false,8,2,ok", "do not fit"),
            ("octal:0.75,40,21,8,2,no,8,2,ok", "tame 'no'"),
            ("octal:0.75,40,21,8,2,false,8,,ok", "do not make a period"),
            ("octal:0.75,40,021,8,2,false,8,2,ok", "last_heap '021'"),
            ("octal:0.75,40,21,8,2,false,8,2,grew_past_max_order", "status 'grew_past"),
            (",40,,,,,,,memory", "game cell"),
            ("octal:0.75,0,,,,,,,memory", "max_heap 0"),
        ] {
            let error = row(text).expect_err(text);
            assert!(error.contains(why), "{text}: {error}");
        }
        assert!(QuotientRow::from_cells(&["nim"; 8]).unwrap_err().contains("8 cells"));
    }
}
