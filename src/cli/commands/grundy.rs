//! `nimtab grundy`: the Grundy values of one heap as CSV, an OEIS b-file, a
//! value-frequency table, the rare heaps of the sparse-space split or its summary (each
//! also at every power of two), to heap sizes of `2^40`.

use std::path::{Path, PathBuf};

use anyhow::bail;
use nimtab::export::format::streamed;
use nimtab::export::freq::{FrequencyTable, RareSummaries};
use nimtab::export::sequence_tables::{sequence_bytes_at_least, write_sequence, SequenceFormat};
use nimtab::sequence::{human_bytes, Goal, RareSummary, Sequence};

use crate::cli::choices::{GrundyFormat, Snapshots};
use crate::cli::long_run::{self, SequenceArgs};
use crate::cli::output::{self, StagedDir, Target};
use crate::cli::{Global, Outcome};

/// The largest `csv` or `bfile` output written without `--force`: 1 GiB.
pub const OUTPUT_LIMIT: u64 = 1 << 30;

/// Arguments of `nimtab grundy`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    sequence: SequenceArgs,
    /// csv (`heap,grundy`), bfile (OEIS b-file: `n a(n)` lines, no header), freq
    /// (`value count` lines for heaps 1..max, values 0 to the largest), rare (`heap,grundy`
    /// of every rare heap of 0..max under the sparse-space mask; the mask, the count and
    /// the last on stderr) or summary (CSV: largest value, its heap, mask, rare count, last
    /// rare heap).
    #[arg(long, value_name = "F", value_enum, default_value_t = GrundyFormat::Csv)]
    format: GrundyFormat,
    /// With --format rare or summary: the mask in hex (a value v is rare when
    /// popcount(v & mask) is even); default: the one with the fewest rare heaps.
    #[arg(long = "rare-mask", value_name = "HEX", value_parser = parse_mask)]
    rare_mask: Option<u32>,
    /// With --format freq or rare: also a table at every power of two N (heaps up to N),
    /// as files freq/N or rare/N in the directory --out, beside the one of the max; with
    /// --format summary, a row for every power of two and the max.
    #[arg(long, value_name = "WHEN", value_enum)]
    snapshots: Option<Snapshots>,
    /// Write a csv, bfile or rare table larger than 1 GiB.
    #[arg(long)]
    force: bool,
}

/// `--rare-mask`: a nonzero hexadecimal mask.
fn parse_mask(text: &str) -> Result<u32, String> {
    let digits = text.strip_prefix("0x").unwrap_or(text);
    match u32::from_str_radix(digits, 16) {
        Ok(mask) if mask != 0 => Ok(mask),
        _ => Err(format!("expected a nonzero hexadecimal mask (1ee, 0x7c), got '{text}'")),
    }
}

/// Where the output goes.
enum Destination {
    /// One table, to a file or stdout.
    Table(Target),
    /// A directory of frequency tables.
    Snapshots(PathBuf),
}

/// Runs `nimtab grundy`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let destination = destination(&a)?;
    let game = a.sequence.game.game()?;
    game.require_heap_values()?;
    let max = nimtab::sequence::validate_sequence_max(a.sequence.max)?;
    if a.rare_mask.is_some() && !matches!(a.format, GrundyFormat::Rare | GrundyFormat::Summary) {
        bail!("--rare-mask is for --format rare or summary, not --format {}", a.format.word());
    }
    let format = match a.format {
        GrundyFormat::Csv => Some(SequenceFormat::Csv),
        GrundyFormat::Bfile => Some(SequenceFormat::Bfile),
        GrundyFormat::Freq | GrundyFormat::Rare | GrundyFormat::Summary => None,
    };
    if let Some(format) = format {
        let bytes = sequence_bytes_at_least(max, format);
        if bytes > OUTPUT_LIMIT && !a.force {
            bail!(
                "the {} table of heaps 0..={max} would take at least {}, above the {} limit: \
                 use --format freq, a smaller --max, or --force",
                a.format.word(),
                human_bytes(bytes),
                human_bytes(OUTPUT_LIMIT)
            );
        }
    }
    let prepared = long_run::prepare(&game, &a.sequence, Goal::Values, global)?;
    let mut finished = prepared.run(&game)?;
    if !finished.values_verified(global)? {
        return Ok(Outcome::ClaimFailed);
    }
    let sequence = &mut finished.sequence;
    let points = match a.snapshots {
        Some(Snapshots::Pow2) => snapshot_points(max),
        None => vec![max],
    };
    match (destination, a.format, format) {
        (Destination::Table(target), _, Some(format)) => {
            output::write_to(&target, streamed(|out| write_sequence(out, sequence, format)))?;
        }
        (Destination::Table(target), GrundyFormat::Summary, None) => {
            let summaries = sequence.rare_summaries(&points, a.rare_mask)?;
            output::write_to(&target, RareSummaries { game: game.spec(), rows: &summaries })?;
        }
        (Destination::Table(target), GrundyFormat::Rare, None) => {
            let summary = sequence.rare_summaries(&[max], a.rare_mask)?[0];
            refuse_large_rare(&[summary], a.force)?;
            output::write_to(&target, streamed(|out| write_rare(out, sequence, &summary)))?;
            say_rare(&summary, global);
        }
        (Destination::Table(target), _, None) => {
            let table = sequence.frequencies_at(&[max])?.remove(0);
            output::write_to(&target, FrequencyTable(&table))?;
        }
        (Destination::Snapshots(dir), GrundyFormat::Rare, _) => {
            let summaries = sequence.rare_summaries(&points, a.rare_mask)?;
            refuse_large_rare(&summaries, a.force)?;
            let mut staged = StagedDir::new(&dir)?;
            for summary in &summaries {
                let name = format!("rare/{}", summary.through);
                staged.add(&name, streamed(|out| write_rare(out, sequence, summary)))?;
            }
            output::commit(Vec::new(), vec![staged])?;
            say_rare(summaries.last().expect("the max is a point"), global);
        }
        (Destination::Snapshots(dir), _, _) => write_snapshots(&dir, sequence)?,
    }
    Ok(Outcome::Success)
}

/// Refuses rare tables of more than [`OUTPUT_LIMIT`] bytes in all without `--force` (a
/// mask under which most values are rare makes a table as large as the csv one).
fn refuse_large_rare(summaries: &[RareSummary], force: bool) -> anyhow::Result<()> {
    let bytes: u64 = summaries.iter().map(|s| rare_table_bytes_at_least(s.rare_count)).sum();
    if bytes > OUTPUT_LIMIT && !force {
        let last = summaries.last().expect("the max is a point");
        bail!(
            "the rare table of heaps 0..={} under mask {:x} has {} rows, at least {}, above \
             the {} limit: use --format summary, another --rare-mask, a smaller --max, or --force",
            last.through,
            last.mask,
            last.rare_count,
            human_bytes(bytes),
            human_bytes(OUTPUT_LIMIT)
        );
    }
    Ok(())
}

/// The fewest bytes `rows` lines `heap,grundy` can take: the heaps are distinct, so their
/// digits are at least those of `0..rows`; a value, a comma and a newline take 3 more.
fn rare_table_bytes_at_least(rows: u64) -> u64 {
    let mut digits = 0u64;
    let (mut low, mut width) = (0u64, 1u64);
    while low < rows {
        let high = if width >= 19 { u64::MAX } else { 10u64.pow(width as u32) };
        digits = digits.saturating_add((rows.min(high) - low).saturating_mul(width));
        (low, width) = (high, width + 1);
    }
    digits.saturating_add(rows.saturating_mul(3))
}

/// The rare heaps of `summary`'s range under its mask, as `heap,grundy` lines.
fn write_rare(
    out: &mut dyn std::io::Write,
    sequence: &mut Sequence,
    summary: &RareSummary,
) -> std::io::Result<()> {
    writeln!(out, "heap,grundy")?;
    let mut failed = Ok(());
    let read = sequence.for_each_rare(summary.through, summary.mask, &mut |n, v| {
        if failed.is_ok() {
            failed = writeln!(out, "{n},{v}");
        }
    });
    failed?;
    read.map_err(std::io::Error::other)
}

/// The mask, the rare count and the last rare heap on stderr.
fn say_rare(summary: &RareSummary, global: &Global) {
    if !global.quiet {
        output::note(&format!(
            "nimtab: mask {:x} over heaps 0..={}: {} rare heaps, the last at heap {}",
            summary.mask, summary.through, summary.rare_count, summary.last_rare
        ));
    }
}

/// Checks the output location before any work.
fn destination(a: &Args) -> anyhow::Result<Destination> {
    if a.snapshots.is_none() {
        return Ok(Destination::Table(Target::new(a.sequence.out.as_deref())?));
    }
    let folder = match a.format {
        GrundyFormat::Freq => "freq",
        GrundyFormat::Rare => "rare",
        // One table of a row per point.
        GrundyFormat::Summary => {
            return Ok(Destination::Table(Target::new(a.sequence.out.as_deref())?));
        }
        other => bail!(
            "--snapshots is for --format freq, rare or summary, not --format {}",
            other.word()
        ),
    };
    let Some(dir) = &a.sequence.out else {
        bail!("--snapshots needs --out DIR, the directory its {folder}/N files go to");
    };
    // The files the run will write: every place must take a file before any work.
    let names: Vec<String> =
        snapshot_points(a.sequence.max).iter().map(|n| format!("{folder}/{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    output::check_dir_target(dir, &names)?;
    Ok(Destination::Snapshots(dir.clone()))
}

/// The heap counts of the snapshots of heaps up to `max`: every power of two up to it, and
/// `max` itself.
fn snapshot_points(max: u64) -> Vec<u64> {
    let mut points: Vec<u64> = (0..64).map(|k| 1u64 << k).take_while(|&n| n <= max).collect();
    if max > 0 && !max.is_power_of_two() {
        points.push(max);
    }
    points
}

/// Writes `freq/N` for every power of two `N` up to the max, and for the max, into `dir`,
/// all in place together.
fn write_snapshots(dir: &Path, sequence: &mut Sequence) -> anyhow::Result<()> {
    let points = snapshot_points(sequence.max());
    let tables = sequence.frequencies_at(&points)?;
    let mut staged = StagedDir::new(dir)?;
    for (n, table) in points.iter().zip(&tables) {
        staged.add(&format!("freq/{n}"), FrequencyTable(table))?;
    }
    output::commit(Vec::new(), vec![staged])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rare_table_takes_at_least_the_digits_of_distinct_heaps_and_three_bytes_a_line() {
        // "0,0\n" .. "9,0\n": 10 lines of 4 bytes; then two-digit heaps from the 11th.
        assert_eq!(rare_table_bytes_at_least(10), 40);
        assert_eq!(rare_table_bytes_at_least(11), 45);
        assert_eq!(rare_table_bytes_at_least(0), 0);
        assert!(rare_table_bytes_at_least(221_064_497) > OUTPUT_LIMIT);
        assert_eq!(rare_table_bytes_at_least(u64::MAX), u64::MAX);
    }
}
