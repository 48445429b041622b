//! Where an atlas's long runs keep their values: a values file per code in a work
//! directory, beside a checkpoint replaced atomically, from which a killed run resumes.
//!
//! A code's run to a budget of more than [`DISK_FROM`] heaps keeps its values in
//! `CODE.values` and writes `CODE.checkpoint` every so often (the sequence layer's format:
//! the values file's digest, the mask, the rare heaps, the frequencies). A run of the code
//! started again resumes from the checkpoint, checked against its values file (a run that
//! had finished, stopped before its entry was kept, resumes at its end); one that cannot
//! resume (no checkpoint, a damaged one, one from a run that went past this budget)
//! starts from heap 0, which gives the same values. Once the code's entry is kept
//! both files are removed. Only regular files are ever written over or removed.
//!
//! A code with three-heap moves keeps its values in memory; a run of one to more than
//! [`THREE_HEAP_CHECKPOINT_FROM`] heaps writes `CODE.checkpoint` holding them all, and
//! goes on from it when started again.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::code::AtlasCode;
use crate::sequence::{
    is_period_check_point, Checkpoint, DiskStore, HeapRule, SequenceError, Start, Store,
    ThreeHeapCheckpoint, ThreeHeapRule,
};

/// A run to more than this many heaps keeps its values in a file when the atlas has a work
/// directory: below it the values (2 bytes a heap, 8 MiB here) stay in memory.
pub const DISK_FROM: u64 = 1 << 22;

/// A run of a code with three-heap moves to more than this many heaps checkpoints when the
/// atlas has a work directory (its values stay in memory; the checkpoint holds them).
pub const THREE_HEAP_CHECKPOINT_FROM: u64 = 1 << 13;

/// The largest checkpoint read (one holds its rare heaps: a few MiB at most).
const MAX_CHECKPOINT: u64 = 256 << 20;

/// A directory for the values files and checkpoints of long runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkDir {
    dir: PathBuf,
    checkpoint_every: Duration,
    disk_from: u64,
}

impl WorkDir {
    /// The work directory `dir` (which must exist), a checkpoint written at least every
    /// `checkpoint_every` of a long run.
    pub fn new(dir: impl Into<PathBuf>, checkpoint_every: Duration) -> WorkDir {
        WorkDir { dir: dir.into(), checkpoint_every, disk_from: DISK_FROM }
    }

    /// This work directory taking the values of runs past `heaps` heaps (rather than
    /// [`DISK_FROM`]): less memory, or a test of the files on small runs.
    pub fn with_disk_from(self, heaps: u64) -> WorkDir {
        WorkDir { disk_from: heaps, ..self }
    }

    /// Whether a run to heap `max` keeps its values here.
    pub fn takes(&self, max: u64) -> bool {
        max + 1 > self.disk_from
    }

    /// Whether a run to heap `max` of a code with three-heap moves writes checkpoints
    /// here (from [`THREE_HEAP_CHECKPOINT_FROM`] heaps, or the bound of values files when
    /// it is lower).
    pub fn checkpoints_three_heaps(&self, max: u64) -> bool {
        max + 1 > self.disk_from.min(THREE_HEAP_CHECKPOINT_FROM)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How often a long run writes its checkpoint.
    pub fn checkpoint_every(&self) -> Duration {
        self.checkpoint_every
    }

    /// `CODE.checkpoint`.
    pub fn checkpoint_path(&self, code: &AtlasCode) -> PathBuf {
        self.dir.join(format!("{code}.checkpoint"))
    }

    /// `CODE.values`.
    pub fn values_path(&self, code: &AtlasCode) -> PathBuf {
        self.dir.join(format!("{code}.values"))
    }

    /// The checkpoint being written, renamed over `CODE.checkpoint` once complete.
    fn partial_path(&self, code: &AtlasCode) -> PathBuf {
        self.dir.join(format!("{code}.checkpoint.part"))
    }

    /// Where the run of `code` (the game `spec`, with `rule`) to heap `max` starts: from
    /// its checkpoint when one can be resumed, else from heap 0 with an empty values file.
    ///
    /// # Errors
    /// [`SequenceError::File`] when the values file cannot be made (or something other
    /// than a regular file is in its place).
    pub(super) fn start(
        &self,
        code: &AtlasCode,
        spec: &str,
        rule: &HeapRule,
        max: u64,
    ) -> Result<Start, SequenceError> {
        if let Some(resumed) = self.resumed(code, spec, rule, max) {
            return Ok(resumed);
        }
        let path = absolute(&self.values_path(code));
        let file = refuse_unless_regular(&path)
            .and_then(|()| {
                OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&path)
            })
            .map_err(|source| file_error("creating values file", &path, source))?;
        Ok(Start::Fresh(Store::Disk(DiskStore::new(file, &path))))
    }

    /// The run resumed from `CODE.checkpoint`, when it is a checkpoint of this game of at
    /// most `max + 1` values whose values file agrees with it, and, if it records a period
    /// (a run that finished, stopped before its entry was kept), one a run to `max` finds
    /// at the same heap: within `max`, at a heap where every period search checks, or at
    /// `max` itself. The checkpoint names its values file by the path it had when written:
    /// the file beside it is used, so that the directory may move.
    fn resumed(&self, code: &AtlasCode, spec: &str, rule: &HeapRule, max: u64) -> Option<Start> {
        let path = self.checkpoint_path(code);
        let meta = fs::symlink_metadata(&path).ok()?;
        if !meta.is_file() || meta.len() > MAX_CHECKPOINT {
            return None;
        }
        let bytes = fs::read(&path).ok()?;
        let mut checkpoint = Checkpoint::decode(&bytes, &path, spec, rule).ok()?;
        let len = checkpoint.layout.len();
        if len > max + 1 {
            return None;
        }
        if let Some(found) = checkpoint.period {
            let where_a_run_stops = len == max + 1 || is_period_check_point(len);
            if found.checked_through > max || !where_a_run_stops {
                return None;
            }
        }
        let values = absolute(&self.values_path(code));
        if !fs::symlink_metadata(&values).is_ok_and(|m| m.is_file()) {
            return None;
        }
        checkpoint.values_path = values.clone();
        let file = OpenOptions::new().read(true).write(true).open(&values).ok()?;
        let store = checkpoint.open_values(file, &path).ok()?;
        Some(Start::Resume(Box::new(checkpoint), store))
    }

    /// Where the run of `code` (the game `spec`, with three-heap moves `rule`) starts: from
    /// the values of its checkpoint when it is one of this game (of any length: a run goes
    /// on from them, or reads as many as it needs, and gives the values of a run never
    /// stopped), else from heap 0.
    ///
    /// # Errors
    /// [`SequenceError::File`] when something other than a regular file is where the
    /// checkpoint goes (before any work: it could never be written).
    pub(super) fn start_three_heaps(
        &self,
        code: &AtlasCode,
        spec: &str,
        rule: &ThreeHeapRule,
    ) -> Result<Start, SequenceError> {
        let path = self.checkpoint_path(code);
        refuse_unless_regular(&path).map_err(|e| file_error("writing checkpoint", &path, e))?;
        let checkpoint = fs::symlink_metadata(&path)
            .ok()
            .filter(|meta| meta.is_file() && meta.len() <= MAX_CHECKPOINT)
            .and_then(|_| fs::read(&path).ok())
            .and_then(|bytes| ThreeHeapCheckpoint::decode(&bytes, &path, spec, rule).ok());
        Ok(match checkpoint {
            Some(checkpoint) => Start::Continue(Box::new(checkpoint)),
            None => Start::Fresh(Store::in_memory(0)),
        })
    }

    /// Replaces `CODE.checkpoint` by `bytes`: written to a temporary name, synced,
    /// renamed over it and the directory synced, so that the checkpoint is the old one or
    /// the new one whenever the process dies.
    ///
    /// # Errors
    /// [`SequenceError::File`] naming the checkpoint.
    pub(super) fn save_checkpoint(
        &self,
        code: &AtlasCode,
        bytes: &[u8],
    ) -> Result<(), SequenceError> {
        let path = self.checkpoint_path(code);
        let partial = self.partial_path(code);
        let write = || -> io::Result<()> {
            refuse_unless_regular(&path)?;
            refuse_unless_regular(&partial)?;
            let mut file = File::create(&partial)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            fs::rename(&partial, &path)?;
            File::open(&self.dir)?.sync_all()
        };
        write().map_err(|source| file_error("writing checkpoint", &path, source))
    }

    /// Removes the checkpoint, its temporary and the values file of `code`, each only if
    /// it is a regular file: its entry is kept, or it is computed without them.
    ///
    /// # Errors
    /// [`SequenceError::File`] naming a file that could not be removed.
    pub(super) fn discard(&self, code: &AtlasCode) -> Result<(), SequenceError> {
        for path in [self.checkpoint_path(code), self.partial_path(code), self.values_path(code)] {
            if fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                fs::remove_file(&path).map_err(|e| file_error("removing", &path, e))?;
            }
        }
        Ok(())
    }
}

/// Refuses `path` when something other than a regular file is there (a directory, a
/// device, a FIFO, a link).
fn refuse_unless_regular(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => Err(io::Error::other("it is not a regular file")),
        _ => Ok(()),
    }
}

/// `path` made absolute against the current directory (a checkpoint names its values
/// file by an absolute path).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn file_error(action: &'static str, path: &Path, source: io::Error) -> SequenceError {
    SequenceError::File { action, path: path.to_path_buf(), source }
}
