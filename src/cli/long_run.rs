//! Long Grundy sequences from the command line (`grundy` and `period`): `--max` up to
//! `2^40`, where the values go (the plan, stated before the run and refused when it cannot
//! fit), the progress bar, checkpoints written atomically, and resuming from one.

mod checkpoints;
mod flags;
mod three_heaps;

pub use checkpoints::{hold_checkpoint, save as save_checkpoint};
pub use flags::{heap_count, parse_duration, SequenceArgs};

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use nimtab::sequence::period::Certificate;
use nimtab::sequence::plan::{free_space, DiskUse, Placement, Plan};
use nimtab::sequence::{
    sample_heaps, validate_sequence_max, Checkpoint, DiskStore, Goal, HeapRule, Observer, Sequence,
    SequenceError, Settings, Start, Status, Store, ThreeHeapRule,
};
use nimtab::{Game, ModelError};

use crate::cli::interrupt;
use crate::cli::output::{self, Found, Held};
use crate::cli::sequence_bar::SequenceBar;
use crate::cli::Global;

/// Checkpoints are written this often unless `--checkpoint-every` says otherwise.
const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(300);
/// Runs from this many heaps on state their plan before they start.
const LONG_RUN: u64 = 1 << 22;

/// A run set up: its settings, where it starts, and what reports on it.
pub struct Prepared {
    settings: Settings,
    start: Start,
    observer: RunObserver,
    after: AfterRun,
}

/// What a run keeps for after it: its files, and what its output is checked with.
struct AfterRun {
    /// The values file a fresh run created for its checkpoint (see `RunObserver`).
    unsaved_values: Option<PathBuf>,
    /// A values file of a run without checkpoints, removed when the run is over.
    temporary: Option<TemporaryValues>,
    /// The holds on the checkpoint and its values file, for as long as the values are read.
    holds: Vec<Held>,
    /// The game's heap rule (`None`: values by formula, or moves that leave three heaps).
    rule: Option<HeapRule>,
    /// Every move of the game as a rule with up to three parts, which `--verify-values`
    /// recomputes heaps by (`None`: values by formula).
    all_moves: Option<ThreeHeapRule>,
    /// Heaps to recompute from their options once the run is done (`--verify-values`).
    verify_values: Option<u64>,
    /// Why a period search planned short of `--max` cannot go on (see `Plan::stops_short`).
    beyond_reach: Option<SequenceError>,
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
    after: AfterRun,
}

impl Prepared {
    /// Runs the sequence of `game`.
    ///
    /// # Errors
    /// The run's errors (a store's, a checkpoint's).
    pub fn run(mut self, game: &Game) -> anyhow::Result<Finished> {
        // With a checkpoint, an interrupt lets the run save a last one before it ends.
        let deferral = self.observer.checkpoint.is_some().then(interrupt::defer);
        let sequence = game.grundy_sequence(&self.settings, self.start, &mut self.observer);
        self.observer.bar.finish();
        let cancelled = matches!(sequence, Err(ModelError::Sequence(SequenceError::Cancelled)));
        if let (true, Some(path)) = (cancelled, &self.observer.checkpoint) {
            let records = match self.observer.saved_heaps {
                0 => "no heap yet".to_string(),
                saved => format!("heaps 0 to {}", saved - 1),
            };
            // A run interrupted before its first heap may have had nothing to save.
            interrupt::finish_interrupted(&match std::fs::symlink_metadata(path) {
                Ok(_) => format!(
                    "nimtab: interrupted; checkpoint {0} records {records}: continue with \
                     --resume {0}; no partial output was left",
                    path.display()
                ),
                Err(_) => "nimtab: interrupted before the first checkpoint was written; no \
                           partial output was left"
                    .to_string(),
            });
        }
        drop(deferral);
        if sequence.is_err() {
            // No checkpoint names the values file this run created: nothing can resume it.
            if let Some(path) = self.observer.unsaved_values.take() {
                interrupt::discard(&path);
            }
        }
        Ok(Finished { sequence: sequence?, after: self.after })
    }
}

impl Finished {
    /// Recomputes the heaps `--verify-values` asks for from their options, reading the
    /// run's values (`nimtab::sequence::Sequence::spot_check`), and says how it went on
    /// stderr: whether every one agrees.
    ///
    /// # Errors
    /// A values file that cannot be read.
    pub fn values_verified(&mut self, global: &Global) -> anyhow::Result<bool> {
        let (Some(count), Some(rule)) = (self.after.verify_values, &self.after.all_moves) else {
            return Ok(true);
        };
        let heaps = sample_heaps(self.sequence.computed(), count);
        match self.sequence.spot_check(rule, &heaps)? {
            None if !global.quiet => {
                let (first, last) = (heaps.first().unwrap_or(&0), heaps.last().unwrap_or(&0));
                output::note(&format!(
                    "nimtab: {} values recomputed from their options agree with the run's \
                     (heaps {first} to {last})",
                    heaps.len()
                ));
                Ok(true)
            }
            None => Ok(true),
            Some(wrong) => {
                let mex = match wrong.mex {
                    Some(mex) => mex.to_string(),
                    None => format!("above {}", wrong.recorded),
                };
                output::note(&format!(
                    "nimtab: the run's values are wrong: G({}) is {} but the mex of its \
                     options is {mex}; nothing was written",
                    wrong.heap, wrong.recorded
                ));
                Ok(false)
            }
        }
    }

    /// Why the period search stopped before `--max` without a certificate, if it was
    /// planned short of it for want of memory or disk.
    pub fn beyond_reach(&mut self) -> Option<SequenceError> {
        self.after.beyond_reach.take()
    }
}

/// Sets up the run of `game` to `args.max` for `goal`: checks the flags, holds the
/// checkpoint, resumes or plans (the values in memory or in a file; refused if they fit
/// neither), and states the plan of a long run on stderr. By default the values go beside
/// `--out`, the output file or directory.
///
/// # Errors
/// A refused size, a bad flag or checkpoint, a checkpoint another run holds, a values
/// file that cannot be created.
pub fn prepare(
    game: &Game,
    args: &SequenceArgs,
    goal: Goal,
    global: &Global,
) -> anyhow::Result<Prepared> {
    let max = validate_sequence_max(args.max)?;
    flags::check(args)?;
    let settings = Settings::new(goal, max);
    let mut after = AfterRun {
        unsaved_values: None,
        temporary: None,
        holds: Vec::new(),
        rule: game.heap_rule(),
        all_moves: game.take_break_rule(),
        verify_values: args.verify_values,
        beyond_reach: None,
    };
    if let Some(rule) = game.three_heap_rule() {
        return three_heaps::prepare(game, &rule, args, settings, after, global);
    }
    let Some(rule) = after.rule.clone() else {
        if args.work_dir.is_some() || args.checkpoint.is_some() || args.resume.is_some() {
            bail!(
                "--work-dir, --checkpoint and --resume are for subtraction and take-and-break \
                 games; {}'s values need no long run",
                game.spec()
            );
        }
        let start = Start::Fresh(Store::in_memory(0));
        let observer = RunObserver::new(game, &settings, None, 0, global);
        return Ok(Prepared { settings, start, observer, after });
    };
    let mut run = RunSetup { game, args, goal, global, settings, after: &mut after };
    if args.checkpoint.is_some() || args.resume.is_some() {
        run.settings.checkpoint_every =
            Some(args.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_EVERY));
        run.hold_checkpoints()?;
    }
    let (start, done) = match &args.resume {
        Some(path) => run.resumed(&rule, path)?,
        None => (run.fresh()?, 0),
    };
    let settings = run.settings;
    let checkpoint = args.checkpoint.clone().or_else(|| args.resume.clone());
    let mut observer = RunObserver::new(game, &settings, checkpoint, done, global);
    observer.unsaved_values = after.unsaved_values.take();
    Ok(Prepared { settings, start, observer, after })
}

/// Holds the checkpoint `--resume` reads and the one `--checkpoint` writes (once when
/// they are one), adding the holds to `holds`.
fn hold_checkpoints(args: &SequenceArgs, holds: &mut Vec<Held>) -> anyhow::Result<()> {
    for path in [&args.resume, &args.checkpoint].into_iter().flatten() {
        if !holds.iter().any(|held| held.holds(path)) {
            holds.push(checkpoints::hold_checkpoint(path)?);
        }
    }
    Ok(())
}

/// A long run being set up.
struct RunSetup<'a> {
    game: &'a Game,
    args: &'a SequenceArgs,
    goal: Goal,
    global: &'a Global,
    settings: Settings,
    after: &'a mut AfterRun,
}

impl RunSetup<'_> {
    /// Holds the checkpoint read (`--resume`) and the one written (`--checkpoint`), before
    /// anything is read or written: a second run on the same files is refused here,
    /// before it can touch them.
    fn hold_checkpoints(&mut self) -> anyhow::Result<()> {
        hold_checkpoints(self.args, &mut self.after.holds)
    }

    /// The start of a run resumed from the checkpoint `path` (checked, its values file
    /// held), planned on from there, and the values it already holds.
    fn resumed(&mut self, rule: &HeapRule, path: &Path) -> anyhow::Result<(Start, u64)> {
        let spec = self.game.spec();
        let (from, store, values) = checkpoints::resume(spec, rule, path)?;
        self.after.holds.push(values);
        let done = from.layout.len();
        // The values file is where the run goes on: what it holds counts as room.
        let dir = from.values_path.parent().unwrap_or(Path::new("."));
        let held = from.layout.byte_len();
        let free = free_space(dir).map(|free| free.saturating_add(held));
        self.plan(dir, DiskUse::Always, free)?;
        let max = self.args.max;
        if !self.global.quiet && max + 1 > done {
            output::note(&format!(
                "nimtab: resuming {spec} at heap {done} of {} from checkpoint {}",
                max + 1,
                path.display()
            ));
        }
        Ok((Start::Resume(Box::new(from), store), done))
    }

    /// The start of a run from heap 0: its plan stated, its values file made (held, for a
    /// checkpoint).
    fn fresh(&mut self) -> anyhow::Result<Start> {
        let args = self.args;
        if let Some(path) = &args.checkpoint {
            if std::fs::symlink_metadata(path).is_ok() {
                bail!(
                    "checkpoint {} exists: continue its run with --resume {0}, or remove it \
                     (and its values file) to start again",
                    path.display()
                );
            }
            output::check_file_target(path)?;
        }
        let dir = work_dir(args)?;
        let disk = if args.work_dir.is_some() || args.checkpoint.is_some() {
            DiskUse::Always
        } else {
            DiskUse::WhenNeeded
        };
        let plan = self.plan(&dir, disk, free_space(&dir))?;
        let max = self.args.max;
        if !self.global.quiet && (plan.placement != Placement::Memory || max >= LONG_RUN) {
            let every = match (&args.checkpoint, self.settings.checkpoint_every) {
                (Some(path), Some(every)) => {
                    format!("; checkpoint to {} every {}", path.display(), shown_duration(every))
                }
                _ => String::new(),
            };
            output::note(&format!("nimtab: {} to heap {max}: {plan}{every}", self.game.spec()));
        }
        let store = match (&plan.placement, &args.checkpoint) {
            (Placement::Memory, _) => Store::in_memory(plan.reach),
            (Placement::Disk(dir), Some(path)) => {
                let (store, values, values_path) = checkpoints::new_values_file(dir, path)?;
                self.after.holds.push(values);
                self.after.unsaved_values = Some(values_path);
                store
            }
            (Placement::Disk(dir), None) => {
                let (store, temporary) = temporary_values_file(dir)?;
                self.after.temporary = Some(temporary);
                store
            }
        };
        Ok(Start::Fresh(store))
    }

    /// The plan of the run with its values in `dir` (`free` bytes free there): refused if
    /// it cannot fit; a period search goes only as far as it fits (the settings' max).
    fn plan(&mut self, dir: &Path, disk: DiskUse, free: Option<u64>) -> anyhow::Result<Plan> {
        let max = self.args.max;
        let what = format!("{} to heap {max}", self.game.spec());
        let limit = self.global.memory_limit;
        let plan = Plan::new(&what, max, self.goal, dir, disk, limit, free)?;
        if plan.stops_short() {
            let what = format!("a period search of {} to heap {max}", self.game.spec());
            let beyond = plan.beyond_reach(&what);
            // A search no theorem can end goes to the max: refused if it cannot get there.
            let endless =
                self.after.rule.as_ref().is_some_and(|r| Certificate::for_rule(r).is_none());
            if let Some(beyond) = beyond.as_ref().filter(|_| endless) {
                bail!("{beyond}");
            }
            self.settings.max = plan.reach - 1;
            self.after.beyond_reach = beyond;
        }
        Ok(plan)
    }
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
    let found = Found::at(&dir).with_context(|| format!("work directory {}", dir.display()));
    let what = match found? {
        Found::Directory => return Ok(std::fs::canonicalize(&dir).unwrap_or(dir)),
        Found::Missing => bail!("work directory {} does not exist", dir.display()),
        Found::Regular => "a regular file",
        Found::InPlace(what) | Found::Refused(what) => what,
    };
    bail!("work directory {} is {what}, not a directory", dir.display())
}

/// The directory `path` lies in (the current directory for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// What a run reports to: the bar, and the checkpoint file.
struct RunObserver {
    bar: SequenceBar,
    checkpoint: Option<PathBuf>,
    /// The values file a fresh run created, until its first checkpoint names it: removed
    /// if the run fails or is interrupted before then.
    unsaved_values: Option<PathBuf>,
    /// Values the last checkpoint saved records.
    saved_heaps: u64,
}

impl RunObserver {
    /// The observer of a run of `game` with `settings`, `done` values already computed.
    fn new(
        game: &Game,
        settings: &Settings,
        checkpoint: Option<PathBuf>,
        done: u64,
        global: &Global,
    ) -> RunObserver {
        let bar = SequenceBar::new(game.spec(), done, settings.max + 1, global.quiet);
        RunObserver { bar, checkpoint, unsaved_values: None, saved_heaps: done }
    }
}

impl Observer for RunObserver {
    fn progress(&mut self, status: &Status) {
        self.bar.update(status);
    }

    fn save_checkpoint(&mut self, bytes: &[u8]) -> Result<(), SequenceError> {
        let Some(path) = &self.checkpoint else { return Ok(()) };
        checkpoints::save(path, bytes)?;
        if let Some(values) = self.unsaved_values.take() {
            interrupt::keep(&values);
        }
        self.saved_heaps = Checkpoint::heaps_of(bytes).unwrap_or(self.saved_heaps);
        Ok(())
    }

    fn cancelled(&self) -> bool {
        interrupt::stop_asked()
    }
}

/// Creates the values file of a run without checkpoints in `dir`: a temporary removed
/// when the run ends or is interrupted.
fn temporary_values_file(dir: &Path) -> anyhow::Result<(Store, TemporaryValues)> {
    let path = dir.join(format!(".nimtab-values-{}", std::process::id()));
    interrupt::create_temporary_file(&path)
        .with_context(|| format!("creating the values file {}", path.display()))?;
    let temporary = TemporaryValues(path.clone());
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    Ok((Store::Disk(DiskStore::new(file, &path)), temporary))
}
