//! The files of a checkpointed run: the hold on the checkpoint and its values file (one
//! run at a time), the values file created or reopened and checked, and each checkpoint
//! written through the staging writer.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use nimtab::export::format::Bytes;
use nimtab::sequence::{Checkpoint, DiskStore, HeapRule, SequenceError, Store};

use crate::cli::interrupt;
use crate::cli::output::{self, Found, Held};

/// A checkpoint file is read only up to this size (one of the sequence engine holds a few
/// kilobytes; one of a game with three-heap moves, which holds its values, under a megabyte).
const CHECKPOINT_LIMIT: u64 = 64 << 20;

/// Holds the checkpoint `path` for this run, and removes the temporaries that killed runs
/// left beside it.
///
/// # Errors
/// Another run holds it (the message names its process), or its lock file cannot be made.
pub fn hold_checkpoint(path: &Path) -> anyhow::Result<Held> {
    check_place(path)?;
    let held = Held::take(path, "checkpoint")?;
    held.remove_dead_temporaries();
    Ok(held)
}

/// Refuses a checkpoint name no checkpoint can be written at, before any work: a
/// directory (or a name ending in `/`), a device, FIFO or socket, a directory that does
/// not exist.
///
/// # Errors
/// One line naming the path and what is there.
fn check_place(path: &Path) -> anyhow::Result<()> {
    let shown = path.display();
    if path.as_os_str().to_string_lossy().ends_with('/') {
        bail!("checkpoint {shown} names a directory: give a file name (for example {shown}run.ck)");
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    match Found::at(dir) {
        Ok(Found::Directory) => {}
        Ok(Found::Missing) => {
            bail!("checkpoint {shown}: directory {} does not exist", dir.display())
        }
        Ok(_) => bail!("checkpoint {shown}: {} is not a directory", dir.display()),
        Err(e) => bail!("checkpoint {shown}: directory {}: {e}", dir.display()),
    }
    match Found::at(path).with_context(|| format!("checkpoint {shown}"))? {
        Found::Missing | Found::Regular => Ok(()),
        Found::Directory => bail!("checkpoint {shown} is a directory, not a file"),
        Found::InPlace(what) | Found::Refused(what) => {
            bail!("checkpoint {shown} is {what}, not a regular file")
        }
    }
}

/// Creates the values file `NAME.values` of the checkpoint `NAME` in `dir`, held for this
/// run; only then emptied, so a run that holds it is never cut short by another. It is
/// removed on an interrupt until the run's first checkpoint names it
/// ([`interrupt::keep`]).
///
/// # Errors
/// Another run holds it, or it cannot be created.
pub fn new_values_file(dir: &Path, checkpoint: &Path) -> anyhow::Result<(Store, Held, PathBuf)> {
    let name = checkpoint.file_name().map(|n| n.to_string_lossy().into_owned());
    let path = dir.join(format!("{}.values", name.unwrap_or_default()));
    let held = Held::take(&path, "values file")?;
    match Found::here(&path).with_context(|| format!("values file {}", path.display()))? {
        Found::Missing | Found::Regular => {}
        Found::Directory => bail!("values file {} is a directory", path.display()),
        Found::InPlace(what) | Found::Refused(what) => {
            bail!("values file {} is {what}, not a regular file", path.display())
        }
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .and_then(|file| file.set_len(0).map(|()| file))
        .with_context(|| format!("creating the values file {}", path.display()))?;
    interrupt::adopt(&path);
    Ok((Store::Disk(DiskStore::new(file, &path)), held, path))
}

/// Reads the checkpoint `path` of `game` (held by this run), holds its values file and
/// opens it, checked against the checkpoint (`DiskStore` and `Checkpoint::check_values`).
///
/// # Errors
/// A checkpoint that cannot be resumed, or whose values file another run holds.
pub fn resume(
    game: &str,
    rule: &HeapRule,
    path: &Path,
) -> anyhow::Result<(Checkpoint, DiskStore, Held)> {
    let bad = |reason: String| SequenceError::BadCheckpoint { path: path.to_path_buf(), reason };
    let checkpoint = Checkpoint::decode(&read(path)?, path, game, rule)?;
    let values = &checkpoint.values_path;
    let held = Held::take(values, "values file")?;
    match std::fs::metadata(values) {
        Ok(meta) if !meta.is_file() => {
            let what = match Found::at(values) {
                Ok(Found::InPlace(what) | Found::Refused(what)) => what,
                _ => "not a regular file",
            };
            return Err(bad(format!("its values file {} is {what}", values.display())).into());
        }
        _ => {}
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(values)
        .map_err(|e| bad(format!("its values file {}: {e}", values.display())))?;
    let store = checkpoint.open_values(file, path)?;
    Ok((checkpoint, store, held))
}

/// The bytes of the checkpoint `path` (a regular file, read up to a limit far above any
/// checkpoint's size).
///
/// # Errors
/// [`SequenceError::BadCheckpoint`]: not a regular file, or unreadable.
pub fn read(path: &Path) -> Result<Vec<u8>, SequenceError> {
    let bad = |reason: String| SequenceError::BadCheckpoint { path: path.to_path_buf(), reason };
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if !meta.is_file() {
        return Err(bad("it is not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(CHECKPOINT_LIMIT).read_to_end(&mut bytes))
        .map_err(|e| bad(e.to_string()))?;
    Ok(bytes)
}

/// Writes the checkpoint `path` through the staging writer: under its temporary name
/// beside it (removed if interrupted), synced, renamed over it by the commit, and the
/// directory synced: a checkpoint is the old one or the new one whatever happens, a full
/// disk included. Anything but a regular file in its place is refused, never replaced.
/// An interrupt still ends the run after a save.
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), SequenceError> {
    let saved = output::stage_regular_file(path, Bytes(bytes))
        .and_then(|(staged, ())| output::save(staged));
    saved.map_err(|e| SequenceError::File {
        action: "writing checkpoint",
        path: path.to_path_buf(),
        source: e
            .downcast::<io::Error>()
            .unwrap_or_else(|e| io::Error::other(e.root_cause().to_string())),
    })
}
