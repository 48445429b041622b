//! Putting staged outputs in place, all or nothing. Every target is checked before the
//! first rename (what stands there, and that its directory takes a new file); then the
//! renames run in order, each file they replace first moved aside, and if one fails every
//! step already taken is undone in reverse, so the old outputs are back as they were. A
//! directory of outputs (or, while it is being created, its parent) is locked with `flock`
//! meanwhile, so two runs writing into one directory put their files in place one after
//! the other, never interleaved.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use nimtab::export::format::{streamed, Format};

use super::dir::{check_target, StagedDir};
use super::file::{stage_file, StagedFile};
use super::lock::wait_for_dirs;
use super::paths::{beside, parent_of, remove_stale, shown, Found};
use super::recover::{finish_dead_commits, mark, remove_dead_stagings_beside, ASIDE, MARKER};
use crate::cli::interrupt::{self, Placing};

/// Puts staged files and directories in place, all in one step that an interrupt cannot
/// split; on an error nothing is replaced and every staged temporary is removed. After
/// it, an interrupt no longer ends the run: its output is complete.
pub fn commit(files: Vec<StagedFile>, dirs: Vec<StagedDir>) -> anyhow::Result<()> {
    commit_placing(files, dirs, Placing::Output)
}

/// Puts a file the run goes on from (a checkpoint) in place, as [`commit`] does, except
/// that an interrupt still ends the run afterwards.
pub fn save(file: StagedFile) -> anyhow::Result<()> {
    commit_placing(vec![file], Vec::new(), Placing::Progress)
}

fn commit_placing(
    mut files: Vec<StagedFile>,
    mut dirs: Vec<StagedDir>,
    placing: Placing,
) -> anyhow::Result<()> {
    // Waiting for another run's lock happens before the interrupt lock is taken, so an
    // interrupt still ends a run that waits.
    let locks = wait_for_dirs(dirs.iter().map(|d| d.dir.as_path()));
    let locked: Vec<bool> = locks.iter().map(|(_, own)| *own).collect();
    let temporaries: Vec<PathBuf> = files
        .iter()
        .filter_map(|f| f.temp.clone())
        .chain(dirs.iter().map(|d| d.staging.clone()))
        .collect();
    let mut placed = None;
    interrupt::commit(&temporaries, placing, || {
        let plan = Plan::new(&files, &dirs, &locked)?;
        plan.run()?;
        plan.clean_up();
        placed = Some(plan);
        Ok::<(), anyhow::Error>(())
    })?;
    // Renamed into place: nothing of them is left to remove.
    for file in &mut files {
        file.temp = None;
    }
    for dir in &mut dirs {
        dir.placed = !dir.staging.exists();
    }
    placed.map_or(Ok(()), |plan| plan.sync())
}

/// One rename of the commit.
struct Rename {
    /// The staged file or directory.
    from: PathBuf,
    /// Its place.
    to: PathBuf,
    /// Where a file already at `to` is moved first, so that it can be put back.
    aside: PathBuf,
}

/// How to take back one step of the commit.
enum Undo {
    /// Rename `.0` back to `.1`.
    Rename(PathBuf, PathBuf),
    /// Remove the directory the commit created.
    RemoveDir(PathBuf),
}

/// Every rename of a commit, and what was checked before the first.
struct Plan {
    renames: Vec<Rename>,
    /// The staging directories whose files go into existing directories: marked before
    /// the first rename, removed (with the old files set aside in them) after the last.
    stagings: Vec<PathBuf>,
    /// Files set aside beside their place, removed after the last rename.
    asides: Vec<PathBuf>,
    /// The directories files are renamed into, opened before the first rename (once a
    /// file is in, nothing that fails for want of a file descriptor is left to do), and
    /// synced after the last, so that the renames outlast a power cut. A directory that
    /// cannot be opened for reading is not synced.
    directories: Vec<(PathBuf, File)>,
}

impl Plan {
    /// The renames, once every target has been checked: nothing but a regular file (or
    /// nothing) where a file goes, a directory (or nothing) on the way, and every
    /// directory receiving a file able to take one. A directory whose lock is held
    /// (`locked`, in the order of `dirs`) first gets the commits of dead runs finished.
    fn new(files: &[StagedFile], dirs: &[StagedDir], locked: &[bool]) -> anyhow::Result<Plan> {
        let mut plan = Plan {
            renames: Vec::new(),
            stagings: Vec::new(),
            asides: Vec::new(),
            directories: Vec::new(),
        };
        let mut receiving = Vec::new();
        for (dir, &locked) in dirs.iter().zip(locked) {
            let writing = || format!("writing {}", shown(&dir.dir));
            match Found::at(&dir.dir).with_context(writing)? {
                Found::Missing
                    if Found::here(&dir.dir).with_context(writing)? == Found::Missing =>
                {
                    remove_dead_stagings_beside(&dir.dir);
                    plan.renames.push(Rename {
                        from: dir.staging.clone(),
                        to: dir.dir.clone(),
                        aside: PathBuf::new(),
                    });
                    continue;
                }
                Found::Directory => {}
                _ => bail!("output directory {}: not a directory", shown(&dir.dir)),
            }
            if locked {
                // Best effort: a dead run's files that cannot be moved (another user's,
                // say) must not stop this run's commit, which does not depend on them.
                let _ = finish_dead_commits(&dir.dir);
            }
            plan.stagings.push(dir.staging.clone());
            for name in &dir.files {
                check_target(&dir.dir, name).with_context(writing)?;
                let to = dir.dir.join(name);
                receiving.push(existing_ancestor(&to));
                let aside = dir.staging.join(ASIDE).join(name);
                plan.renames.push(Rename { from: dir.staging.join(name), to, aside });
            }
        }
        for file in files {
            let Some(temp) = &file.temp else { continue };
            let writing = || format!("writing {}", shown(&file.path));
            match Found::at(&file.path).with_context(writing)? {
                Found::Missing | Found::Regular => {}
                Found::Directory => bail!("output path {} is a directory", shown(&file.path)),
                Found::InPlace(what) | Found::Refused(what) => {
                    bail!(
                        "output path {} is now {what}, which nimtab never replaces",
                        shown(&file.path)
                    )
                }
            }
            let dir = parent_of(&file.path).to_path_buf();
            // Each receiving directory once, however many files go into it.
            if !plan.directories.iter().any(|(opened, _)| *opened == dir) {
                if let Ok(opened) = File::open(&dir) {
                    plan.directories.push((dir.clone(), opened));
                }
            }
            receiving.push(dir);
            let aside = beside(&file.path, "old");
            plan.asides.push(aside.clone());
            plan.renames.push(Rename { from: temp.clone(), to: file.path.clone(), aside });
        }
        receiving.sort();
        receiving.dedup();
        for dir in &receiving {
            takes_a_file(dir).with_context(|| format!("cannot create a file in {}", shown(dir)))?;
        }
        Ok(plan)
    }

    /// Marks the staging directories (a run that dies from here on has its commit
    /// finished by the next), then runs the renames; if one fails, undoes every step
    /// taken, in reverse.
    fn run(&self) -> anyhow::Result<()> {
        for staging in &self.stagings {
            mark(staging).with_context(|| format!("writing {}", shown(staging)))?;
        }
        let mut undo = Vec::new();
        for (i, rename) in self.renames.iter().enumerate() {
            let last = i + 1 == self.renames.len();
            if let Err(e) = rename.apply(last, &mut undo) {
                // Unmarked first: the run is refused, so nothing may finish its commit.
                for staging in &self.stagings {
                    let _ = std::fs::remove_file(staging.join(MARKER));
                }
                let outcome = match undo_all(undo) {
                    Ok(()) => "nothing was replaced".to_string(),
                    Err(u) => format!("putting the old outputs back failed too: {u}"),
                };
                let e = anyhow::Error::new(e);
                return Err(e.context(format!("writing {} ({outcome})", shown(&rename.to))));
            }
        }
        Ok(())
    }

    /// Syncs the directories files were renamed into. A file system that cannot sync a
    /// directory (it says so with `EINVAL`) is left as it is: the renames are done.
    fn sync(&self) -> anyhow::Result<()> {
        for (dir, opened) in &self.directories {
            match opened.sync_all() {
                Err(e) if e.kind() != io::ErrorKind::InvalidInput => {
                    return Err(e).with_context(|| format!("syncing directory {}", shown(dir)));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Removes the staging directories and the files set aside.
    fn clean_up(&self) {
        for staging in &self.stagings {
            let _ = std::fs::remove_dir_all(staging);
        }
        for aside in &self.asides {
            let _ = remove_stale(aside);
        }
    }
}

impl Rename {
    /// Creates the missing directories on the way, sets aside what stands at `to` (not
    /// for the last rename: if that one fails there is nothing of its own to undo), and
    /// renames; every step done is recorded in `undo`.
    fn apply(&self, last: bool, undo: &mut Vec<Undo>) -> io::Result<()> {
        create_parents(&self.to, undo)?;
        if !last && Found::here(&self.to)? == Found::Regular {
            if let Some(parent) = self.aside.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(&self.to, &self.aside)?;
            undo.push(Undo::Rename(self.aside.clone(), self.to.clone()));
        }
        std::fs::rename(&self.from, &self.to)?;
        undo.push(Undo::Rename(self.to.clone(), self.from.clone()));
        Ok(())
    }
}

/// Creates the directories missing on the way to `path`, outermost first.
fn create_parents(path: &Path, undo: &mut Vec<Undo>) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut at = path.parent();
    while let Some(dir) = at {
        if dir.as_os_str().is_empty() || dir.exists() {
            break;
        }
        missing.push(dir.to_path_buf());
        at = dir.parent();
    }
    for dir in missing.into_iter().rev() {
        std::fs::create_dir(&dir)?;
        undo.push(Undo::RemoveDir(dir));
    }
    Ok(())
}

/// Takes back the steps in reverse; the first error, if any, after trying them all.
fn undo_all(undo: Vec<Undo>) -> io::Result<()> {
    let mut first_error = Ok(());
    for step in undo.into_iter().rev() {
        let result = match &step {
            Undo::Rename(from, to) => std::fs::rename(from, to),
            Undo::RemoveDir(dir) => std::fs::remove_dir(dir),
        };
        if first_error.is_ok() {
            first_error = result;
        }
    }
    first_error
}

/// The nearest directory on the way to `path` that exists (where the first directory
/// missing on the way is created).
fn existing_ancestor(path: &Path) -> PathBuf {
    let mut at = parent_of(path);
    while !at.is_dir() {
        at = parent_of(at);
        if at == Path::new(".") || at == Path::new("/") {
            break;
        }
    }
    at.to_path_buf()
}

/// Creates and removes a file in `dir`: a directory whose permissions (or file system)
/// refuse new files is found before the first rename.
fn takes_a_file(dir: &Path) -> io::Result<()> {
    let probe = dir.join(format!(".nimtab-probe-{}", std::process::id()));
    if let Err(e) = File::create_new(&probe) {
        if e.kind() != io::ErrorKind::AlreadyExists {
            return Err(e);
        }
        remove_stale(&probe)?;
        File::create_new(&probe)?;
    }
    std::fs::remove_file(&probe)
}

/// Writes a file: [`stage_file`], then [`commit`].
///
/// A symbolic link is followed (the file it names is replaced, not the link), and a
/// character device or FIFO (`/dev/null`) is written in place.
pub fn write_file<F: Format>(path: &Path, format: F) -> anyhow::Result<F::Written> {
    let (staged, value) = stage_file(path, format)?;
    commit(vec![staged], Vec::new())?;
    Ok(value)
}

/// A file of a directory written by [`write_dir`]: its name and what writes its bytes.
pub type DirFile<'a> = (&'a str, &'a dyn Fn(&mut dyn Write) -> io::Result<()>);

/// Writes `files` into `dir`, each from its writer in order, and puts them in place
/// together (as [`StagedDir`] and [`commit`] do).
pub fn write_dir(dir: &Path, files: &[DirFile<'_>]) -> anyhow::Result<()> {
    let mut staged = StagedDir::new(dir)?;
    for (name, write) in files {
        staged.add(name, streamed(|out| write(out)))?;
    }
    commit(Vec::new(), vec![staged])
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimtab::export::format::Bytes;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nimtab-commit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_rename_that_fails_after_the_checks_puts_every_old_file_back() {
        let root = scratch("undo");
        let out = root.join("out");
        std::fs::create_dir(&out).unwrap();
        for name in ["a.csv", "b.csv", "c.csv"] {
            std::fs::write(out.join(name), format!("old {name}")).unwrap();
        }
        let mut staged = StagedDir::new(&out).unwrap();
        for name in ["a.csv", "new/d.csv", "b.csv", "c.csv"] {
            staged.add(name, Bytes(b"new")).unwrap();
        }
        // The last rename fails (its staged file is gone), after three have been done.
        std::fs::remove_file(staged.staging.join("c.csv")).unwrap();
        let message = format!("{:#}", commit(Vec::new(), vec![staged]).unwrap_err());
        assert!(message.contains("c.csv") && message.contains("nothing was replaced"), "{message}");
        assert_eq!(listing(&out), ["a.csv", "b.csv", "c.csv"], "no new directory, no staging");
        for name in ["a.csv", "b.csv", "c.csv"] {
            assert_eq!(std::fs::read_to_string(out.join(name)).unwrap(), format!("old {name}"));
        }
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_and_a_directory_commit_together_or_not_at_all() {
        let root = scratch("together");
        let (out, report) = (root.join("out"), root.join("report.md"));
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("a.csv"), "old").unwrap();
        std::fs::write(&report, "old").unwrap();
        let stage = || {
            let mut staged = StagedDir::new(&out).unwrap();
            staged.add("a.csv", Bytes(b"new")).unwrap();
            let (file, ()) = super::super::stage_file(&report, Bytes(b"new")).unwrap();
            (file, staged)
        };
        // The report's place is taken by a directory after it was staged: found before any
        // rename, so the directory's file stays old too.
        let (file, staged) = stage();
        std::fs::remove_file(&report).unwrap();
        std::fs::create_dir(&report).unwrap();
        assert!(commit(vec![file], vec![staged]).is_err());
        assert_eq!(std::fs::read_to_string(out.join("a.csv")).unwrap(), "old");
        assert_eq!(listing(&root), ["out", "report.md"]);
        assert_eq!(listing(&out), ["a.csv"]);
        std::fs::remove_dir(&report).unwrap();
        let (file, staged) = stage();
        commit(vec![file], vec![staged]).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("a.csv")).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(&report).unwrap(), "new");
        assert_eq!(listing(&root), ["out", "report.md"]);
        assert_eq!(listing(&out), ["a.csv"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_directory_staged_inside_another_commits_without_waiting_for_itself() {
        let root = scratch("nested");
        let out = root.join("out");
        std::fs::create_dir(&out).unwrap();
        let (done, finished) = std::sync::mpsc::channel();
        let (outer, inner) = (out.clone(), out.join("site"));
        std::thread::spawn(move || {
            let mut staged = StagedDir::new(&outer).unwrap();
            staged.add("a.csv", Bytes(b"a")).unwrap();
            let mut site = StagedDir::new(&inner).unwrap();
            site.add("index.html", Bytes(b"b")).unwrap();
            let _ = done.send(commit(Vec::new(), vec![staged, site]).is_ok());
        });
        // The lock of `out`, taken for the first directory, is the one the second waits
        // for while it does not exist: a second lock of it would wait forever.
        let result = finished.recv_timeout(std::time::Duration::from_secs(20));
        assert_eq!(result, Ok(true), "the commit did not finish");
        assert_eq!(listing(&out), ["a.csv", "site"]);
        assert_eq!(std::fs::read_to_string(out.join("site/index.html")).unwrap(), "b");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_missing_directory_is_created_whole() {
        let root = scratch("whole");
        let out = root.join("out");
        let mut staged = StagedDir::new(&out).unwrap();
        staged.add("sub/a.csv", Bytes(b"new")).unwrap();
        commit(Vec::new(), vec![staged]).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("sub/a.csv")).unwrap(), "new");
        assert_eq!(listing(&root), ["out"]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
