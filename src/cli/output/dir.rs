//! A directory of outputs (`verify --out`, `classes --out`, the suite's data directory):
//! its files are written into a staging directory, then put in place all together by
//! [`super::commit`].

use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use nimtab::export::format::Format;

use super::paths::{parent_of, same_file_system, shown, staging_inside, staging_name, Found};
use crate::cli::interrupt;

/// Refuses an output directory that cannot be written, before any work: an existing one
/// must take a new file, and where each of `names` (files the run writes in it, relative
/// paths) goes there must be nothing or a regular file; a missing one is created at the
/// end, so its parent must exist and take a new directory.
pub fn check_dir_target(dir: &Path, names: &[&str]) -> anyhow::Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            bail!("output directory {}: not a directory", shown(dir));
        }
        for name in names {
            check_target(dir, Path::new(name))?;
        }
        return probe(&staging_inside(dir)).with_context(|| {
            format!("output directory {}: cannot create a file in it", shown(dir))
        });
    }
    let parent = parent_of(dir);
    if !parent.is_dir() {
        bail!("output directory {}: its parent {} does not exist", shown(dir), shown(parent));
    }
    probe(&staging_name(dir)).with_context(|| {
        format!("output directory {}: cannot create it in {}", shown(dir), shown(parent))
    })
}

/// Creates and removes a staging directory, to learn that it can be created.
fn probe(path: &Path) -> std::io::Result<()> {
    interrupt::create_staging_dir(path)?;
    interrupt::discard(path);
    Ok(())
}

/// Refuses what stands where the file `name` (a relative path) of the directory `dir`
/// goes: each directory on the way must be a directory (or a link to one) or missing, and
/// the file itself a regular file or missing. A directory, device, FIFO or symbolic link
/// in a file's place is never replaced.
pub(super) fn check_target(dir: &Path, name: &Path) -> anyhow::Result<()> {
    let target = dir.join(name);
    let mut at = dir.to_path_buf();
    let parts: Vec<_> = name.components().collect();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let last = i + 1 == parts.len();
        let found = if last { Found::here(&at) } else { Found::at(&at) };
        match found.with_context(|| format!("output path {}", shown(&at)))? {
            Found::Missing => return Ok(()),
            Found::Directory if !last => {}
            Found::Regular if last => return Ok(()),
            Found::Directory => {
                bail!("{} is a directory, where an output file must go", shown(&at))
            }
            Found::InPlace(what) | Found::Refused(what) if last => {
                bail!("{} is {what}, which nimtab never replaces with an output file", shown(&at))
            }
            _ => {
                bail!("{} is not a directory, so {} cannot be written", shown(&at), shown(&target))
            }
        }
    }
    Ok(())
}

/// Files for one directory, written into a staging directory and put in place together
/// by [`super::commit`], so the directory never holds a mix of two runs' files. Dropped
/// uncommitted (an error on the way), the staging directory is removed with all in it.
///
/// A missing directory is staged as `.NAME.nimtab-tmp-PID` beside it and created by
/// renaming that. An existing one is staged in `.nimtab-tmp-PID` inside it (a rename
/// cannot cross file systems, and its parent is not the user's to write in), except with
/// [`StagedDir::beside`].
pub struct StagedDir {
    pub(super) dir: PathBuf,
    pub(super) staging: PathBuf,
    /// Paths relative to the directory, in the order written.
    pub(super) files: Vec<PathBuf>,
    /// Put in place by the commit: the staging directory is gone (renamed, or emptied
    /// and removed), nothing is left to remove.
    pub(super) placed: bool,
}

impl StagedDir {
    /// Creates the staging directory for `dir` (which need not exist yet).
    pub fn new(dir: &Path) -> anyhow::Result<StagedDir> {
        let staging = if dir.exists() { staging_inside(dir) } else { staging_name(dir) };
        interrupt::create_staging_dir(&staging)
            .with_context(|| format!("creating {}", shown(&staging)))?;
        Ok(StagedDir::at(dir, staging))
    }

    /// Like [`StagedDir::new`], but an existing directory too is staged beside it when
    /// its parent takes a directory on the same file system: then nothing of the run
    /// appears inside it before the end, even if the process is killed.
    pub fn beside(dir: &Path) -> anyhow::Result<StagedDir> {
        let beside = staging_name(dir);
        let same_file_system = same_file_system(dir, parent_of(&beside));
        if dir.exists() && same_file_system && interrupt::create_staging_dir(&beside).is_ok() {
            return Ok(StagedDir::at(dir, beside));
        }
        StagedDir::new(dir)
    }

    fn at(dir: &Path, staging: PathBuf) -> StagedDir {
        StagedDir { dir: dir.to_path_buf(), staging, files: Vec::new(), placed: false }
    }

    /// Writes the file `name` (a relative path, `/` between parts) in its format, synced.
    pub fn add(&mut self, name: &str, format: impl Format<Written = ()>) -> anyhow::Result<()> {
        let path = self.staging.join(name);
        let result = (|| -> std::io::Result<()> {
            let file = interrupt::create_in_staging(&path)?;
            let mut out = BufWriter::with_capacity(1 << 16, file);
            format.write_to(&mut out)?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()
        })();
        result.with_context(|| format!("writing {}", shown(&self.dir.join(name))))?;
        self.files.push(PathBuf::from(name));
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.placed {
            interrupt::discard(&self.staging);
        }
    }
}
