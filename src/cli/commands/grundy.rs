//! `nimtab grundy`: the Grundy values of one heap as CSV, an OEIS b-file, or a
//! value-frequency table (with one table at every power of two), to heap sizes of `2^40`.

use std::path::{Path, PathBuf};

use anyhow::bail;
use nimtab::export::format::streamed;
use nimtab::export::freq::FrequencyTable;
use nimtab::export::sequence_tables::{sequence_bytes_at_least, write_sequence, SequenceFormat};
use nimtab::sequence::{human_bytes, Goal, Sequence};

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
    /// csv (`heap,grundy`), bfile (OEIS b-file: `n a(n)` lines, no header) or freq
    /// (`value count` lines for heaps 1..max, values 0 to the largest).
    #[arg(long, value_name = "F", value_enum, default_value_t = GrundyFormat::Csv)]
    format: GrundyFormat,
    /// With --format freq: also a table at every power of two N (heaps 1..N), as files
    /// freq/N in the directory --out, beside freq/max.
    #[arg(long, value_name = "WHEN", value_enum)]
    snapshots: Option<Snapshots>,
    /// Write a csv or bfile table larger than 1 GiB.
    #[arg(long)]
    force: bool,
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
    let format = match a.format {
        GrundyFormat::Csv => Some(SequenceFormat::Csv),
        GrundyFormat::Bfile => Some(SequenceFormat::Bfile),
        GrundyFormat::Freq => None,
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
    match (destination, format) {
        (Destination::Table(target), Some(format)) => {
            output::write_to(&target, streamed(|out| write_sequence(out, sequence, format)))?;
        }
        (Destination::Table(target), None) => {
            let table = sequence.frequencies_at(&[max])?.remove(0);
            output::write_to(&target, FrequencyTable(&table))?;
        }
        (Destination::Snapshots(dir), _) => write_snapshots(&dir, sequence)?,
    }
    Ok(Outcome::Success)
}

/// Checks the output location before any work.
fn destination(a: &Args) -> anyhow::Result<Destination> {
    if a.snapshots.is_none() {
        return Ok(Destination::Table(Target::new(a.sequence.out.as_deref())?));
    }
    if a.format != GrundyFormat::Freq {
        bail!("--snapshots is for --format freq, not --format {}", a.format.word());
    }
    let Some(dir) = &a.sequence.out else {
        bail!("--snapshots needs --out DIR, the directory its freq/N files go to");
    };
    // The files the run will write: every place must take a file before any work.
    let names: Vec<String> =
        snapshot_points(a.sequence.max).iter().map(|n| format!("freq/{n}")).collect();
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
