//! Sweep output: rows as CSV in the summary's columns, the parts of a sharded sweep (a
//! header naming the sweep and the shard, then the same CSV), their merge back into the
//! bytes of the whole run, and the count of games that hold and fail.

use std::collections::HashMap;
use std::io::{self, Write};
use std::ops::Range;

use super::{Shard, Sweep, SweepError, SweepRow};
use crate::export::summary::{first_counterexample_cell, summary_header, NO_CRITERION};
use crate::model::ending::Ending;

/// The first words of a part's first line.
const PART_MARK: &str = "# nimtab sweep ";

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

/// Writes rows without a header: after [`write_header`] or [`write_part_header`], batch
/// after batch.
///
/// # Errors
/// The writer's I/O error.
pub fn write_rows<W: Write + ?Sized>(out: &mut W, rows: &[SweepRow]) -> io::Result<()> {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(out);
    for r in rows {
        csv.write_record(row_cells(r))?;
    }
    csv.flush()
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

/// Writes the part of one shard: two comment lines (the sweep's fingerprint, the shard,
/// its games and rows; the sweep's description), then the rows as [`write_csv`] does.
///
/// # Errors
/// The writer's I/O error.
pub fn write_part<W: Write + ?Sized>(
    out: &mut W,
    sweep: &Sweep,
    shard: Shard,
    rows: &[SweepRow],
) -> io::Result<()> {
    write_part_header(out, sweep, shard)?;
    write_rows(out, rows)
}

/// Writes the head of a shard's part: the two comment lines and the CSV header. The rows
/// it announces are the shard's games times [`Sweep::rows_per_game`].
///
/// # Errors
/// The writer's I/O error.
pub fn write_part_header<W: Write + ?Sized>(
    out: &mut W,
    sweep: &Sweep,
    shard: Shard,
) -> io::Result<()> {
    let games = sweep.shard_games(shard);
    let rows = games.len() * sweep.rows_per_game();
    let description: String =
        sweep.describe().chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    writeln!(
        out,
        "{PART_MARK}{} part {shard}: games {}..{} of {}, {} rows",
        sweep.fingerprint(),
        games.start,
        games.end,
        sweep.games(),
        rows
    )?;
    writeln!(out, "# {description}")?;
    write_header(out)
}

/// What a part's header says.
#[derive(Debug)]
struct Part<'a> {
    name: &'a str,
    sweep: String,
    shard: Shard,
    games: Range<usize>,
    total: usize,
    /// The CSV rows, without the header.
    rows: &'a [u8],
}

/// Splits off one line (without its `\n`).
fn split_line(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    Some((&bytes[..end], &bytes[end + 1..]))
}

/// Reads a part's header lines and checks its CSV rows against the count they announce.
fn read_part<'a>(name: &'a str, bytes: &'a [u8]) -> Result<Part<'a>, SweepError> {
    let bad = |reason: &str| SweepError::NotAPart { part: name.to_string(), reason: reason.into() };
    let no_header = || bad("its first line is not '# nimtab sweep ... part I/N: ...'");
    let (first, rest) = split_line(bytes).ok_or_else(no_header)?;
    let first = std::str::from_utf8(first).map_err(|_| no_header())?;
    let words: Vec<&str> =
        first.strip_prefix(PART_MARK).ok_or_else(no_header)?.split(' ').collect();
    let [sweep, "part", shard, "games", games, "of", total, rows, "rows"] = words[..] else {
        return Err(no_header());
    };
    let shard = shard.strip_suffix(':').and_then(|s| Shard::parse(s).ok()).ok_or_else(no_header)?;
    let (start, end) = games.split_once("..").ok_or_else(no_header)?;
    let number = |text: &str| text.parse::<usize>().map_err(|_| no_header());
    let games = number(start)?..number(end)?;
    let total = number(total.strip_suffix(',').ok_or_else(no_header)?)?;
    let rows_announced = number(rows)?;
    let (_, rest) = split_line(rest).filter(|(l, _)| l.starts_with(b"# ")).ok_or_else(no_header)?;
    let header = summary_header().join(",");
    let (csv_header, rows) = split_line(rest).ok_or_else(|| bad("it has no CSV header"))?;
    if csv_header != header.as_bytes() {
        return Err(bad(&format!("its CSV header is not '{header}'")));
    }
    let found = count_rows(rows).ok_or_else(|| bad("its rows are not complete CSV records"))?;
    if found != rows_announced {
        return Err(bad(&format!("it announces {rows_announced} rows but holds {found}")));
    }
    Ok(Part { name, sweep: sweep.to_string(), shard, games, total, rows })
}

/// CSV records of the summary's width, if every one is complete and ends in a newline.
fn count_rows(rows: &[u8]) -> Option<usize> {
    if !rows.is_empty() && !rows.ends_with(b"\n") {
        return None;
    }
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(rows);
    let width = summary_header().len();
    let mut count = 0;
    for record in reader.byte_records() {
        (record.ok()?.len() == width).then_some(())?;
        count += 1;
    }
    Some(count)
}

/// Merges the parts of a sharded sweep, given as `(name, bytes)` in any order, into the
/// bytes the unsharded sweep writes.
///
/// # Errors
/// [`SweepError::NoParts`]; [`SweepError::NotAPart`] for a file without a part's header
/// or with rows missing; [`SweepError::ForeignPart`] for a part of another sweep (or of
/// another split into shards); [`SweepError::DuplicatePart`]; [`SweepError::MissingPart`].
pub fn merge(parts: &[(String, Vec<u8>)]) -> Result<Vec<u8>, SweepError> {
    let parts = parts
        .iter()
        .map(|(name, bytes)| read_part(name, bytes))
        .collect::<Result<Vec<Part>, SweepError>>()?;
    let first = parts.first().ok_or(SweepError::NoParts)?;
    let count = first.shard.count();
    let mut slots: Vec<Option<&Part>> = vec![None; count];
    for part in &parts {
        if part.sweep != first.sweep || part.shard.count() != count || part.total != first.total {
            return Err(SweepError::ForeignPart {
                part: part.name.to_string(),
                shard: part.shard.to_string(),
                sweep: part.sweep.clone(),
                expected: format!("{} in {count} parts", first.sweep),
                first: first.name.to_string(),
            });
        }
        let slot = &mut slots[part.shard.index() - 1];
        if let Some(seen) = slot {
            return Err(SweepError::DuplicatePart {
                shard: part.shard.to_string(),
                first: seen.name.to_string(),
                second: part.name.to_string(),
            });
        }
        *slot = Some(part);
    }
    let mut out = format!("{}\n", summary_header().join(",")).into_bytes();
    let mut next_game = 0;
    for (i, slot) in slots.into_iter().enumerate() {
        let part = slot.ok_or_else(|| SweepError::MissingPart {
            shard: format!("{}/{count}", i + 1),
            sweep: first.sweep.clone(),
        })?;
        if part.games.start != next_game || part.games.end < part.games.start {
            let reason = format!("its games {:?} do not follow game {next_game}", part.games);
            return Err(SweepError::NotAPart { part: part.name.to_string(), reason });
        }
        next_game = part.games.end;
        out.extend_from_slice(part.rows);
    }
    if next_game != first.total {
        let reason = format!("the parts end at game {next_game} of {}", first.total);
        return Err(SweepError::NotAPart { part: first.name.to_string(), reason });
    }
    Ok(out)
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
