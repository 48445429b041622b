//! Long runs of a game with three-heap moves: its values stay in memory, and its
//! checkpoints hold them, so `--checkpoint` and `--resume` need no values file and
//! `--work-dir` has nothing to place.

use std::path::Path;

use anyhow::bail;
use nimtab::sequence::{
    Settings, Start, Store, ThreeHeapCheckpoint, ThreeHeapRule, MAX_THREE_HEAP_SEQUENCE,
};
use nimtab::{Game, ModelError};

use super::{
    checkpoints, hold_checkpoints, shown_duration, AfterRun, Prepared, RunObserver, SequenceArgs,
    DEFAULT_CHECKPOINT_EVERY,
};
use crate::cli::output;
use crate::cli::Global;

/// Sets up the run of `game`, whose moves are `rule`: holds its checkpoints, reads the
/// one it resumes from, and states where a new one goes.
///
/// # Errors
/// `--work-dir`, a checkpoint another run holds, a checkpoint to write that exists
/// already, one to resume that cannot be (another game or rule, corrupt, not a file).
pub(super) fn prepare(
    game: &Game,
    rule: &ThreeHeapRule,
    args: &SequenceArgs,
    mut settings: Settings,
    mut after: AfterRun,
    global: &Global,
) -> anyhow::Result<Prepared> {
    let spec = game.spec();
    // Refused before any note, as the run would refuse it.
    if args.max > u64::from(MAX_THREE_HEAP_SEQUENCE) {
        let limit = MAX_THREE_HEAP_SEQUENCE;
        return Err(ModelError::ThreeHeapSequenceTooLong {
            spec: spec.into(),
            max: args.max,
            limit,
        }
        .into());
    }
    if args.work_dir.is_some() {
        bail!(
            "--work-dir places the values file of the sequence engine; {spec} has moves that \
             leave three heaps, so its values (at most 2^16 + 1) are kept in memory and a \
             checkpoint holds them"
        );
    }
    let checkpoint = args.checkpoint.clone().or_else(|| args.resume.clone());
    let Some(written) = &checkpoint else {
        let observer = RunObserver::new(game, &settings, None, 0, global);
        return Ok(Prepared {
            settings,
            start: Start::Fresh(Store::in_memory(0)),
            observer,
            after,
        });
    };
    let every = args.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_EVERY);
    settings.checkpoint_every = Some(every);
    hold_checkpoints(args, &mut after.holds)?;
    let (start, done) = match &args.resume {
        Some(path) => resumed(game, rule, path, args.max, global)?,
        None => (fresh(written)?, 0),
    };
    if !global.quiet {
        output::note(&format!(
            "nimtab: {spec} to heap {}: values in memory; checkpoint (with the values) to {} \
             every {}",
            args.max,
            written.display(),
            shown_duration(every)
        ));
    }
    let observer = RunObserver::new(game, &settings, checkpoint.clone(), done, global);
    Ok(Prepared { settings, start, observer, after })
}

/// The start of a run resumed from the checkpoint `path`, and the values it holds.
fn resumed(
    game: &Game,
    rule: &ThreeHeapRule,
    path: &Path,
    max: u64,
    global: &Global,
) -> anyhow::Result<(Start, u64)> {
    let bytes = checkpoints::read(path)?;
    let from = ThreeHeapCheckpoint::decode(&bytes, path, game.spec(), rule)?;
    let done = from.values.len() as u64;
    if !global.quiet && max + 1 > done {
        output::note(&format!(
            "nimtab: resuming {} at heap {done} of {} from checkpoint {}",
            game.spec(),
            max + 1,
            path.display()
        ));
    }
    Ok((Start::Continue(Box::new(from)), done))
}

/// The start of a run from heap 0 that checkpoints to `path`, which must not exist yet.
fn fresh(path: &Path) -> anyhow::Result<Start> {
    if std::fs::symlink_metadata(path).is_ok() {
        bail!(
            "checkpoint {} exists: continue its run with --resume {0}, or remove it to start \
             again",
            path.display()
        );
    }
    output::check_file_target(path)?;
    Ok(Start::Fresh(Store::in_memory(0)))
}
