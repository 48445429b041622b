//! The flags of `grundy` and `period`: the game and `--max` (up to `2^40`), where a long
//! run keeps its values, its checkpoints, `--out` and `--verify-values`; and the
//! combinations of them refused.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::bail;

use crate::cli::args::GameArg;

/// The flags of the sequence commands: `--game G --max N` (`N` up to `2^40`), where the
/// values of a long run go, its checkpoints, and `--out`.
#[derive(clap::Args, Debug)]
pub struct SequenceArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Largest heap size, up to 2^40: an integer, 2^K or 2^K-1.
    #[arg(long, value_name = "N", value_parser = parse_sequence_max, allow_hyphen_values = true)]
    pub max: u64,
    /// Keep the values in a file in DIR, whatever their size (default: in memory while
    /// they fit, else in a file in the checkpoint's directory or the output's).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Write the run's state to FILE at intervals; its values go to FILE.values in the work
    /// directory (a game with three-heap moves keeps them in FILE itself). FILE must not
    /// exist yet (continue a run with --resume).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// How often to checkpoint: seconds, or a number with s, m or h (default 5m; 0 after
    /// every few thousand heaps, or every heap for a game with three-heap moves).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub checkpoint_every: Option<Duration>,
    /// Continue the run recorded in the checkpoint FILE (and keep checkpointing to it,
    /// unless --checkpoint names another file, which must not exist yet).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Output file (default: stdout); with `grundy --snapshots`, the output directory.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// After the run, recompute K heaps (spread evenly up to the last computed) as the mex
    /// of their options, reading the run's values; nothing is written and the status is 1
    /// if one disagrees. Heap n reads about n/2 values for each move that splits a heap in
    /// two, and lists about n^2/12 options for each move that splits it in three.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub verify_values: Option<u64>,
}

/// Refuses flags that would be ignored, and a `--checkpoint` beside `--resume` that would
/// replace a file already there.
pub fn check(args: &SequenceArgs) -> anyhow::Result<()> {
    if let (Some(resume), Some(checkpoint)) = (&args.resume, &args.checkpoint) {
        let same = |a: &Path, b: &Path| {
            a == b
                || std::fs::canonicalize(a)
                    .ok()
                    .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
        };
        if !same(resume, checkpoint) && std::fs::symlink_metadata(checkpoint).is_ok() {
            bail!(
                "checkpoint {} exists: a run resumed from {} writes its checkpoints to a new \
                 file, or to {1} itself without --checkpoint",
                checkpoint.display(),
                resume.display()
            );
        }
    }
    if args.checkpoint_every.is_some() && args.checkpoint.is_none() && args.resume.is_none() {
        bail!(
            "--checkpoint-every needs --checkpoint FILE (or --resume FILE): without one no \
             checkpoint is written"
        );
    }
    Ok(())
}

/// `--max` of a sequence: an integer, `2^K` or `2^K-1` (checked against `2^40` later).
pub fn parse_sequence_max(text: &str) -> Result<u64, String> {
    heap_count(text)
        .ok_or_else(|| format!("--max must be a non-negative integer, 2^K or 2^K-1, got '{text}'"))
}

/// A heap count written as an integer, `2^K` or `2^K-1` (`K` below 64).
pub fn heap_count(text: &str) -> Option<u64> {
    if let Some(power) = text.strip_prefix("2^") {
        let (k, less) = power.strip_suffix("-1").map_or((power, 0), |k| (k, 1));
        let k: u32 = k.parse().ok()?;
        return 1u64.checked_shl(k).filter(|_| k < 64).map(|n| n - less);
    }
    text.parse::<u64>().ok()
}

/// `--checkpoint-every`: seconds, or a number followed by s, m or h.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad =
        || format!("--checkpoint-every must be seconds or a number with s, m or h, got '{text}'");
    let (number, unit) = match text.char_indices().last() {
        Some((at, 's')) => (&text[..at], 1.0),
        Some((at, 'm')) => (&text[..at], 60.0),
        Some((at, 'h')) => (&text[..at], 3600.0),
        _ => (text, 1.0),
    };
    let seconds: f64 = number.parse().map_err(|_| bad())?;
    if !seconds.is_finite() || seconds < 0.0 || seconds * unit > 1e9 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds * unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_parse_in_their_forms() {
        assert_eq!(parse_sequence_max("2^30"), Ok(1 << 30));
        assert_eq!(parse_sequence_max("2^22-1"), Ok((1 << 22) - 1));
        assert_eq!(parse_sequence_max("1000"), Ok(1000));
        assert!(parse_sequence_max("-5").unwrap_err().contains("'-5'"));
        assert!(parse_sequence_max("2^64").is_err());
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("0.5s"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("soon").is_err() && parse_duration("-1").is_err());
    }
}
