//! Sweep output: rows as CSV in the summary's columns (the whole run's, or a shard's
//! part, `export::sweep_part`), and the count of games that hold and fail.

use std::collections::HashMap;
use std::io::{self, Write};

use super::{Shard, Sweep, SweepRow};
use crate::export::format::Format;
use crate::export::summary::{first_counterexample_cell, summary_header, NO_CRITERION};
use crate::export::sweep_part::{csv_lines, SweepPart};
use crate::model::ending::Ending;

/// Writes the rows as CSV: the header of `summary.csv`, then one row per comparison with
/// the first counterexample (empty if none).
///
/// # Errors
/// The writer's I/O error.
pub fn write_csv<W: Write + ?Sized>(out: &mut W, rows: &[SweepRow]) -> io::Result<()> {
    write_header(out)?;
    write_rows(out, rows)
}

/// Writes the CSV header line (the header of `summary.csv`).
///
/// # Errors
/// The writer's I/O error.
pub fn write_header<W: Write + ?Sized>(out: &mut W) -> io::Result<()> {
    writeln!(out, "{}", summary_header().join(","))
}

/// Writes rows without a header, after [`write_header`], batch after batch.
///
/// # Errors
/// The writer's I/O error (its own kind: a closed pipe stays a closed pipe).
pub fn write_rows<W: Write + ?Sized>(out: &mut W, rows: &[SweepRow]) -> io::Result<()> {
    out.write_all(&csv_bytes(rows)?)
}

/// The rows as CSV bytes, formatted in memory so that the writer's errors reach the
/// caller as they are.
pub(super) fn csv_bytes(rows: &[SweepRow]) -> io::Result<Vec<u8>> {
    csv_lines(rows.iter().map(row_cells))
}

/// A row's cells in the order of [`summary_header`], as `summary.csv` writes a finding.
fn row_cells(r: &SweepRow) -> [String; 10] {
    let t = &r.tally;
    let first = t.counterexamples.first().map(first_counterexample_cell);
    // A game no criterion applies to has only its counts, as in `summary.csv`.
    let compared = r.test != NO_CRITERION;
    let count = |n: u64| if compared { n.to_string() } else { String::new() };
    let [heaps, max] = r.space_cells();
    [
        r.game.clone(),
        heaps,
        max,
        r.ending.name().to_string(),
        r.test.clone(),
        t.positions.to_string(),
        t.p_positions.to_string(),
        count(t.agree),
        count(t.disagree),
        first.unwrap_or_default(),
    ]
}

/// Writes the part of one shard whole ([`SweepPart`]: its head, the rows, its last line;
/// [`super::SweepOutput::write_csv`] writes one batch of rows at a time).
///
/// # Errors
/// The writer's I/O error.
pub fn write_part(
    out: &mut dyn Write,
    sweep: &Sweep,
    shard: Shard,
    rows: &[SweepRow],
) -> io::Result<()> {
    let (head, bytes) = (sweep.part_head(shard), csv_bytes(rows)?);
    SweepPart { head: &head, rows: &bytes, count: rows.len() }.write_to(out)
}

/// How many games hold and fail for one (ending, criterion or claim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryLine {
    /// The ending.
    pub ending: Ending,
    /// The criterion's name or the claim's expression.
    pub test: String,
    /// Games compared.
    pub games: usize,
    /// Games with no disagreement on any heap count.
    pub hold: usize,
    /// Games with a disagreement somewhere.
    pub fail: usize,
    /// Games where a theorem failed.
    pub theorem_failed: usize,
}

/// Adds the lines of later rows (a later batch of games) to `lines`, line by line.
pub fn add_summary(lines: &mut Vec<SummaryLine>, more: Vec<SummaryLine>) {
    for line in more {
        match lines.iter_mut().find(|l| l.ending == line.ending && l.test == line.test) {
            Some(l) => {
                l.games += line.games;
                l.hold += line.hold;
                l.fail += line.fail;
                l.theorem_failed += line.theorem_failed;
            }
            None => lines.push(line),
        }
    }
}

/// One line per (ending, criterion or claim), in the order they first appear in the rows.
pub fn summarize(rows: &[SweepRow]) -> Vec<SummaryLine> {
    let mut lines: Vec<SummaryLine> = Vec::new();
    let mut line_of: HashMap<(Ending, &str), usize> = HashMap::new();
    let mut games: HashMap<(usize, &str), (bool, bool)> = HashMap::new();
    for r in rows {
        let line = *line_of.entry((r.ending, r.test.as_str())).or_insert_with(|| {
            let (ending, test) = (r.ending, r.test.clone());
            lines.push(SummaryLine { ending, test, games: 0, hold: 0, fail: 0, theorem_failed: 0 });
            lines.len() - 1
        });
        let (failed, theorem_failed) = games.entry((line, r.game.as_str())).or_default();
        *failed |= r.tally.disagree > 0;
        *theorem_failed |= r.theorem_failed();
    }
    for ((line, _), (failed, theorem_failed)) in games {
        let l = &mut lines[line];
        l.games += 1;
        if failed {
            l.fail += 1;
        } else {
            l.hold += 1;
        }
        l.theorem_failed += usize::from(theorem_failed);
    }
    lines
}
