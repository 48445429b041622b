//! Long Grundy sequences from the command line (`grundy` and `period`): `--max` up to
//! `2^40`, where the values go (the plan, stated before the run and refused when it cannot
//! fit), the progress bar, checkpoints written atomically, and resuming from one.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use nimtab::sequence::plan::{free_space, DiskUse, Placement, Plan, RING_LIMIT};
use nimtab::sequence::{
    validate_sequence_max, Checkpoint, DiskStore, Goal, Observer, Parallel, Sequence,
    SequenceError, Settings, Start, Status, Store,
};
use nimtab::Game;

use crate::cli::args::GameArg;
use crate::cli::interrupt;
use crate::cli::output;
use crate::cli::sequence_bar::SequenceBar;
use crate::cli::Global;

/// Checkpoints are written this often unless `--checkpoint-every` says otherwise.
const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(300);
/// Runs from this many heaps on state their plan before they start.
const LONG_RUN: u64 = 1 << 22;
/// A checkpoint file is read only up to this size (one holds a few kilobytes).
const CHECKPOINT_LIMIT: u64 = 64 << 20;

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
    /// directory. FILE must not exist yet (continue a run with --resume).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// How often to checkpoint: seconds, or a number with s, m or h (default 5m; 0 after
    /// every few thousand heaps).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub checkpoint_every: Option<Duration>,
    /// Continue the run recorded in the checkpoint FILE (and keep checkpointing to it,
    /// unless --checkpoint names another file).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Output file (default: stdout); with `grundy --snapshots`, the output directory.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `--max` of a sequence: an integer, `2^K` or `2^K-1` (checked against `2^40` later).
pub fn parse_sequence_max(text: &str) -> Result<u64, String> {
    let bad = || format!("--max must be a non-negative integer, 2^K or 2^K-1, got '{text}'");
    if let Some(power) = text.strip_prefix("2^") {
        let (k, less) = match power.strip_suffix("-1") {
            Some(k) => (k, 1),
            None => (power, 0),
        };
        let k: u32 = k.parse().map_err(|_| bad())?;
        return 1u64.checked_shl(k).filter(|_| k < 64).map(|n| n - less).ok_or_else(bad);
    }
    text.parse::<u64>().map_err(|_| bad())
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

/// A run set up: its settings, where it starts, and what reports on it.
pub struct Prepared {
    settings: Settings,
    start: Start,
    observer: RunObserver,
    /// A values file of a run without checkpoints, removed when the run is over.
    temporary: Option<TemporaryValues>,
}

/// Removes a run's own values file when dropped (also on an error).
struct TemporaryValues(PathBuf);

impl Drop for TemporaryValues {
    fn drop(&mut self) {
        interrupt::discard(&self.0);
    }
}

/// A finished run: its values, and the values file to remove once they are written out.
pub struct Finished {
    /// The sequence.
    pub sequence: Sequence,
    _temporary: Option<TemporaryValues>,
}

impl Prepared {
    /// Runs the sequence of `game`.
    ///
    /// # Errors
    /// The run's errors (a store's, a checkpoint's).
    pub fn run(mut self, game: &Game) -> anyhow::Result<Finished> {
        let sequence = game.grundy_sequence(&self.settings, self.start, &mut self.observer);
        self.observer.bar.finish();
        Ok(Finished { sequence: sequence?, _temporary: self.temporary })
    }
}

/// Sets up the run of `game` to `args.max` for `goal`: checks the flags, resumes or
/// plans (the values in memory or in a file; refused if they fit neither), and states
/// the plan of a long run on stderr. By default the values go beside `--out`, the output
/// file or directory.
///
/// # Errors
/// A refused size, a bad flag or checkpoint, a values file that cannot be created.
pub fn prepare(
    game: &Game,
    args: &SequenceArgs,
    goal: Goal,
    global: &Global,
) -> anyhow::Result<Prepared> {
    let max = validate_sequence_max(args.max)?;
    let threads = rayon::current_num_threads();
    let mut settings = Settings {
        goal,
        max,
        parallel: Parallel::new(threads),
        checkpoint_every: None,
        ring_limit: RING_LIMIT,
    };
    let observer = |checkpoint: Option<PathBuf>, done: u64| RunObserver {
        bar: SequenceBar::new(game.spec(), done, max + 1, global.quiet),
        checkpoint,
    };
    let Some(rule) = game.heap_rule() else {
        if args.work_dir.is_some() || args.checkpoint.is_some() || args.resume.is_some() {
            bail!(
                "--work-dir, --checkpoint and --resume are for subtraction and take-and-break \
                 games; {}'s values need no long run",
                game.spec()
            );
        }
        let start = Start::Fresh(Store::in_memory(0));
        return Ok(Prepared { settings, start, observer: observer(None, 0), temporary: None });
    };
    let checkpoint = args.checkpoint.clone().or_else(|| args.resume.clone());
    if checkpoint.is_some() {
        settings.checkpoint_every = Some(args.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_EVERY));
    }
    if let Some(path) = &args.resume {
        let (from, store) = resume(game, &rule, path)?;
        let done = from.layout.len();
        if !global.quiet && max + 1 > done {
            output::note(&format!(
                "nimtab: resuming {} at heap {done} of {} from checkpoint {}",
                game.spec(),
                max + 1,
                path.display()
            ));
        }
        let start = Start::Resume(Box::new(from), store);
        return Ok(Prepared {
            settings,
            start,
            observer: observer(checkpoint, done),
            temporary: None,
        });
    }
    if let Some(path) = &args.checkpoint {
        if std::fs::symlink_metadata(path).is_ok() {
            bail!(
                "checkpoint {} exists: continue its run with --resume {0}, or remove it (and \
                 its values file) to start again",
                path.display()
            );
        }
        output::check_file_target(path)?;
    }
    let work_dir = work_dir(args)?;
    let what = format!("{} to heap {max}", game.spec());
    let disk = if args.work_dir.is_some() || checkpoint.is_some() {
        DiskUse::Always
    } else {
        DiskUse::WhenNeeded
    };
    let plan =
        Plan::new(&what, max, goal, &work_dir, disk, global.memory_limit, free_space(&work_dir))?;
    if !global.quiet && (plan.placement != Placement::Memory || max >= LONG_RUN) {
        let every = match (&checkpoint, settings.checkpoint_every) {
            (Some(path), Some(every)) => {
                format!("; checkpoint to {} every {}", path.display(), shown_duration(every))
            }
            _ => String::new(),
        };
        output::note(&format!("nimtab: {what}: {plan}{every}"));
    }
    let (store, temporary) = match &plan.placement {
        Placement::Memory => (Store::in_memory(max + 1), None),
        Placement::Disk(dir) => values_file(dir, checkpoint.as_deref())?,
    };
    let start = Start::Fresh(store);
    Ok(Prepared { settings, start, observer: observer(checkpoint, 0), temporary })
}

fn shown_duration(every: Duration) -> String {
    let seconds = every.as_secs_f64();
    if seconds >= 60.0 && seconds % 60.0 == 0.0 {
        format!("{}m", seconds / 60.0)
    } else {
        format!("{seconds}s")
    }
}

/// The work directory: `--work-dir`, else the checkpoint's directory, else the output's
/// (the current directory for stdout).
fn work_dir(args: &SequenceArgs) -> anyhow::Result<PathBuf> {
    let dir = match (&args.work_dir, &args.checkpoint, &args.out) {
        (Some(dir), _, _) => dir.clone(),
        (None, Some(checkpoint), _) => parent_dir(checkpoint),
        (None, None, Some(out)) => parent_dir(out),
        (None, None, None) => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!("work directory {} does not exist", dir.display());
    }
    Ok(std::fs::canonicalize(&dir).unwrap_or(dir))
}

/// The directory `path` lies in (the current directory for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates the values file in `dir`: `NAME.values` for a checkpoint `NAME` (kept: the
/// checkpoint refers to it), else a temporary removed when the run ends or is interrupted.
fn values_file(
    dir: &Path,
    checkpoint: Option<&Path>,
) -> anyhow::Result<(Store, Option<TemporaryValues>)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true);
    match checkpoint.and_then(Path::file_name) {
        Some(name) => {
            let path = dir.join(format!("{}.values", name.to_string_lossy()));
            let file = options
                .create(true)
                .truncate(true)
                .open(&path)
                .with_context(|| format!("creating the values file {}", path.display()))?;
            Ok((Store::Disk(DiskStore::new(file, &path)), None))
        }
        None => {
            let path = dir.join(format!(".nimtab-values-{}", std::process::id()));
            interrupt::create_temporary_file(&path)
                .with_context(|| format!("creating the values file {}", path.display()))?;
            let temporary = TemporaryValues(path.clone());
            let file =
                options.open(&path).with_context(|| format!("opening {}", path.display()))?;
            Ok((Store::Disk(DiskStore::new(file, &path)), Some(temporary)))
        }
    }
}

/// Reads the checkpoint `path` of `game` and opens its values file, checked against it.
fn resume(
    game: &Game,
    rule: &nimtab::sequence::HeapRule,
    path: &Path,
) -> anyhow::Result<(Checkpoint, DiskStore)> {
    let bad = |reason: String| SequenceError::BadCheckpoint { path: path.to_path_buf(), reason };
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if !meta.is_file() {
        return Err(bad("it is not a regular file".into()).into());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(CHECKPOINT_LIMIT).read_to_end(&mut bytes))
        .map_err(|e| bad(e.to_string()))?;
    let checkpoint = Checkpoint::decode(&bytes, path, game.spec(), rule)?;
    let values = &checkpoint.values_path;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(values)
        .map_err(|e| bad(format!("its values file {}: {e}", values.display())))?;
    let store = DiskStore::resume(
        file,
        values,
        checkpoint.layout.clone(),
        &checkpoint.values_sha256,
        path,
    )?;
    Ok((checkpoint, store))
}

/// What a run reports to: the bar, and the checkpoint file.
struct RunObserver {
    bar: SequenceBar,
    checkpoint: Option<PathBuf>,
}

impl Observer for RunObserver {
    fn progress(&mut self, status: &Status) {
        self.bar.update(status);
    }

    fn save_checkpoint(&mut self, bytes: &[u8]) -> Result<(), SequenceError> {
        match &self.checkpoint {
            Some(path) => save_atomically(path, bytes),
            None => Ok(()),
        }
    }
}

/// Writes `bytes` to `path` under a temporary name beside it (removed if interrupted),
/// synced, renamed over `path` and the directory synced: a checkpoint is the old one or
/// the new one whatever happens, a full disk included.
fn save_atomically(path: &Path, bytes: &[u8]) -> Result<(), SequenceError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.nimtab-tmp-{}", std::process::id()));
    let result = (|| -> io::Result<()> {
        let mut file = match interrupt::create_temporary_file(&temp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&temp)?;
                interrupt::create_temporary_file(&temp)?
            }
            other => other?,
        };
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)?;
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        std::fs::File::open(dir)?.sync_all()
    })();
    interrupt::discard(&temp);
    result.map_err(|source| SequenceError::File {
        action: "writing checkpoint",
        path: path.to_path_buf(),
        source,
    })
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
