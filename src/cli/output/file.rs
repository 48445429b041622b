//! Opening one output file, the one way every writer does it: a character device or FIFO
//! is written in place (renaming over it would replace it with a plain file), anything
//! else nimtab does not write (a directory, a block device, a socket) is refused, and a
//! regular file, or a new one, is written under a temporary name beside it, which the
//! commit renames over it.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use nimtab::export::format::Format;

use super::paths::{
    follow_links, own_stream, parent_of, remove_stale, remove_temporaries_beside, shown, temp_name,
    Found, Left, OwnStream,
};
use crate::cli::interrupt;

/// Refuses an output file that cannot be created, before any work: its directory must
/// exist and take a new file (a read-only one is found here, not after the work), and the
/// path must be a regular file, a new one, a character device or a FIFO.
pub fn check_file_target(path: &Path) -> anyhow::Result<()> {
    if own_stream(path).is_some() {
        return Ok(());
    }
    let path = &follow_links(path);
    if path.file_name().is_none() {
        bail!("output path '{}' names no file", shown(path));
    }
    if let Found::InPlace(what) = found(path)? {
        // A FIFO is not opened now: opening it waits for a reader, and closing it again
        // would end that reader's input before the output is written.
        if what != "a FIFO" {
            std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("output path {}", shown(path)))?;
        }
        return Ok(());
    }
    let dir = parent_of(path);
    if !dir.is_dir() {
        bail!("output path {}: directory {} does not exist", shown(path), shown(dir));
    }
    create_temporary(&temp_name(path)).map(|_| interrupt::discard(&temp_name(path))).with_context(
        || format!("output path {}: cannot create a file in {}", shown(path), shown(dir)),
    )
}

/// What the output path (links followed) holds; a directory and what nimtab does not
/// write are refused, naming the path.
fn found(path: &Path) -> anyhow::Result<Found> {
    match Found::at(path).with_context(|| format!("output path {}", shown(path)))? {
        Found::Directory => bail!("output path {} is a directory", shown(path)),
        Found::Refused(what) => {
            bail!("output path {} is {what}, which nimtab neither replaces nor writes", shown(path))
        }
        found => Ok(found),
    }
}

/// One output file, complete: written in place already, or under its temporary name
/// waiting for [`super::commit`] to rename it. Dropped uncommitted, its temporary is
/// removed.
pub struct StagedFile {
    /// The output path, symbolic links followed.
    pub(super) path: PathBuf,
    /// The temporary to rename over `path`; `None` when written in place (or committed).
    pub(super) temp: Option<PathBuf>,
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            interrupt::discard(&temp);
        }
    }
}

/// Writes an output file's contents in its format: a character device or FIFO in place,
/// anything else under its temporary name, synced, for [`super::commit`] to rename. On an
/// error nothing is left.
pub fn stage_file<F: Format>(path: &Path, format: F) -> anyhow::Result<(StagedFile, F::Written)> {
    if let Some(stream) = own_stream(path) {
        let value =
            write_to_stream(stream, format).with_context(|| format!("writing {}", shown(path)))?;
        return Ok((StagedFile { path: path.to_path_buf(), temp: None }, value));
    }
    let path = follow_links(path);
    if let Found::InPlace(_) = found(&path)? {
        let value =
            write_in_place(&path, format).with_context(|| format!("writing {}", shown(&path)))?;
        return Ok((StagedFile { path, temp: None }, value));
    }
    stage_beside(path, format)
}

/// Writes a file that must be a regular file (a checkpoint) in its format, under its
/// temporary name, synced, for a commit to rename: anything else in its place (a
/// directory, a device, a FIFO) is refused, never written into nor replaced.
pub fn stage_regular_file<F: Format>(
    path: &Path,
    format: F,
) -> anyhow::Result<(StagedFile, F::Written)> {
    let path = follow_links(path);
    match Found::at(&path).with_context(|| format!("writing {}", shown(&path)))? {
        Found::Missing | Found::Regular => stage_beside(path, format),
        Found::Directory => bail!("{} is a directory, not a regular file", shown(&path)),
        Found::InPlace(what) | Found::Refused(what) => {
            bail!("{} is {what}, which nimtab never replaces", shown(&path))
        }
    }
}

/// Writes the file `path` (links followed) under its temporary name beside it, synced;
/// first removes the temporaries dead runs left there.
fn stage_beside<F: Format>(path: PathBuf, format: F) -> anyhow::Result<(StagedFile, F::Written)> {
    remove_temporaries_beside(&path, Left::ByDeadProcesses);
    let temp = temp_name(&path);
    let result = (|| -> io::Result<F::Written> {
        let file = create_temporary(&temp)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let value = format.write_to(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(value)
    })();
    match result {
        Ok(value) => Ok((StagedFile { path, temp: Some(temp) }, value)),
        Err(e) => {
            interrupt::discard(&temp);
            Err(e).with_context(|| format!("writing {}", shown(&path)))
        }
    }
}

/// Writes to an existing character device or FIFO directly (a FIFO's open waits for a
/// reader; an interrupt still ends the run).
fn write_in_place<F: Format>(path: &Path, format: F) -> io::Result<F::Written> {
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    let value = format.write_to(&mut out)?;
    out.flush()?;
    Ok(value)
}

/// Writes to this process's own stdout or stderr, after what was printed there.
fn write_to_stream<F: Format>(stream: OwnStream, format: F) -> io::Result<F::Written> {
    let stream: Box<dyn Write> = match stream {
        OwnStream::Stdout => Box::new(io::stdout().lock()),
        OwnStream::Stderr => Box::new(io::stderr().lock()),
    };
    let mut out = BufWriter::with_capacity(1 << 16, stream);
    let value = format.write_to(&mut out)?;
    out.flush()?;
    Ok(value)
}

/// Creates a registered temporary file; a stale one of the same name (left by a killed
/// process that had our process id) is replaced if it is a regular file.
pub(super) fn create_temporary(path: &Path) -> io::Result<File> {
    match interrupt::create_temporary_file(path) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            remove_stale(path)?;
            interrupt::create_temporary_file(path)
        }
        other => other,
    }
}
