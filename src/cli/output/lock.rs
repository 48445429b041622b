//! Advisory locks (`flock`) that keep one process at a time on a file or directory: the
//! wait of a commit for the directory it writes into, and the hold of a long run on its
//! checkpoint and values file, refused at once and naming the holder when another has it.
//!
//! A run's hold is an exclusive `flock` on a lock file `.NAME.nimtab-lock` beside the
//! thing held, not on the thing itself: a checkpoint is replaced by a rename at every
//! save, and a lock on its old inode would hold nothing. The kernel drops the lock when
//! the process ends, however it ends, so a lock file left behind (by `kill -9`) blocks
//! nothing: the next run takes it over. The holder writes its process id into it, for
//! the message of a run refused, and removes it when done or interrupted, if it is still
//! the same regular file.

use std::fs::{File, TryLockError};
use std::io;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use rustix::fs::{Mode, OFlags};

use crate::cli::interrupt;

use super::paths::{follow_links, parent_of, remove_temporaries_beside, shown, Found, Left};

/// Times the lock file is opened again when it was removed or replaced between its
/// opening and its locking (its holder ending just then).
const ATTEMPTS: usize = 8;

/// Waits for the lock of the directory `dir` itself (the commit of its outputs); `None`
/// when it cannot be taken (a directory that cannot be opened for reading, a file system
/// without locks): the commit then goes on without.
pub fn wait_for_dir(dir: &Path) -> Option<File> {
    let handle = File::open(dir).ok()?;
    handle.lock().ok()?;
    Some(handle)
}

/// The locks of a commit's directories of outputs, one list per directory: the
/// directory's own, and while it does not exist its parent's (and the directory's too if
/// another run created it meanwhile; the order parent then directory is the same in every
/// run), and whether the directory's own is held. A lock that cannot be taken (a
/// directory that cannot be opened for reading, a file system without locks) is done
/// without: the commit stays all or nothing, only concurrent runs are no longer ordered.
/// A directory is locked once however many of `dirs` need it (one inside another): a
/// second `flock` through another descriptor would wait for the first forever.
pub fn wait_for_dirs<'d>(dirs: impl Iterator<Item = &'d Path>) -> Vec<(Vec<File>, bool)> {
    let mut taken = Vec::new();
    let mut once = |dir: &Path| -> (bool, Option<File>) {
        let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if taken.contains(&real) {
            return (true, None);
        }
        let lock = wait_for_dir(dir);
        if lock.is_some() {
            taken.push(real);
        }
        (lock.is_some(), lock)
    };
    let mut all = Vec::new();
    for dir in dirs {
        let mut locks = Vec::new();
        if !dir.is_dir() {
            locks.extend(once(parent_of(dir)).1);
        }
        let (held, own) = if dir.is_dir() { once(dir) } else { (false, None) };
        locks.extend(own);
        all.push((locks, held));
    }
    all
}

/// The lock file of `target`: `.NAME.nimtab-lock` beside it (symbolic links followed,
/// so that every name of one file shares one lock).
pub fn lock_file(target: &Path) -> PathBuf {
    let real = follow_links(target);
    let real = match real.file_name() {
        Some(_) => real,
        None => std::fs::canonicalize(&real).unwrap_or(real),
    };
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = parent_of(&real);
    std::fs::canonicalize(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .join(format!(".{name}.nimtab-lock"))
}

/// An exclusive hold on a file or directory, for as long as this value lives (and at
/// most as long as the process).
#[derive(Debug)]
pub struct Held {
    target: PathBuf,
    path: PathBuf,
    file: File,
}

impl Held {
    /// Takes the hold of `target` (named `what` in messages: "checkpoint"), refused at
    /// once when another process has it.
    ///
    /// # Errors
    /// One line naming `target` and the process that holds it; a lock file that cannot
    /// be created, or something other than a regular file at its name.
    pub fn take(target: &Path, what: &str) -> anyhow::Result<Held> {
        let path = lock_file(target);
        let context = || format!("locking {what} {} ({})", shown(target), shown(&path));
        for _ in 0..ATTEMPTS {
            let file = open_lock_file(&path).with_context(context)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => bail!(
                    "{what} {} is in use by {}: one run at a time may use it (its lock \
                     file is {})",
                    shown(target),
                    holder(&file),
                    shown(&path)
                ),
                Err(TryLockError::Error(e)) => return Err(e).with_context(context),
            }
            if still_named(&file, &path) {
                // The process id only names the holder in another run's message: a file
                // that cannot take it (a file-size limit, a full disk) still holds.
                let pid = format!("{}\n", std::process::id());
                let _ = file.set_len(0).and_then(|()| file.write_all_at(pid.as_bytes(), 0));
                if let Ok(meta) = file.metadata() {
                    interrupt::hold_lock(&path, meta.dev(), meta.ino());
                }
                return Ok(Held { target: target.to_path_buf(), path, file });
            }
        }
        bail!("{}: its lock file keeps being replaced", context())
    }

    /// Whether this is the hold of `target` (another name of the same path included).
    pub fn holds(&self, target: &Path) -> bool {
        lock_file(target) == self.path
    }

    /// Removes the temporaries that runs holding `target` write beside it before a rename
    /// (`.NAME.nimtab-tmp-PID`) and leave when killed outright: while this hold lasts no
    /// other run writes one. Only regular files with exactly that name are removed.
    pub fn remove_dead_temporaries(&self) {
        remove_temporaries_beside(&follow_links(&self.target), Left::ByAnyProcess);
    }
}

impl Drop for Held {
    /// Removes the lock file while still holding it (a run that opened it meanwhile finds
    /// it unlinked once it gets the lock, and opens the new one); the lock goes with the
    /// file handle.
    fn drop(&mut self) {
        interrupt::release_lock(&self.path);
        if still_named(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens (or creates) the lock file without following a link and without waiting (a
/// FIFO put there must not block the run); anything but a regular file is refused.
fn open_lock_file(path: &Path) -> anyhow::Result<File> {
    let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::NONBLOCK;
    let fd = rustix::fs::open(path, flags | OFlags::CLOEXEC, Mode::from_raw_mode(0o644))
        .map_err(io::Error::from);
    let file = match fd {
        Ok(fd) => File::from(fd),
        Err(e) => match Found::here(path) {
            Ok(Found::Regular | Found::Missing) | Err(_) => return Err(e.into()),
            Ok(_) => bail!("{} is in the way and is not a regular file", shown(path)),
        },
    };
    if !file.metadata()?.is_file() {
        bail!("{} is in the way and is not a regular file", shown(path));
    }
    Ok(file)
}

/// Whether `path` still names the file `file` is open on (a regular file).
fn still_named(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => {
            named.is_file() && open.dev() == named.dev() && open.ino() == named.ino()
        }
        _ => false,
    }
}

/// Who holds the lock, as its holder wrote it.
fn holder(file: &File) -> String {
    let mut bytes = [0u8; 24];
    let len = file.read_at(&mut bytes, 0).unwrap_or(0);
    let text = String::from_utf8_lossy(&bytes[..len]);
    match text.trim().parse::<u32>() {
        Ok(pid) => format!("process {pid}"),
        Err(_) => "another process".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_hold_is_refused_naming_the_first_and_the_lock_file_goes_with_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ck");
        let first = Held::take(&target, "checkpoint").unwrap();
        let lock = dir.path().join(".ck.nimtab-lock");
        assert_eq!(std::fs::read_to_string(&lock).unwrap(), format!("{}\n", std::process::id()));
        // flock locks belong to the open file description, so a second open in this
        // process contends like another process would.
        let second = Held::take(&target, "checkpoint").unwrap_err().to_string();
        let pid = std::process::id();
        assert!(
            second.contains(&format!("checkpoint {} is in use by process {pid}", shown(&target))),
            "{second}"
        );
        drop(first);
        assert!(!lock.exists(), "the lock file outlived its hold");
        let again = Held::take(&target, "checkpoint").unwrap();
        drop(again);
    }

    #[test]
    fn a_left_lock_file_is_taken_over_and_a_fifo_in_its_place_is_refused_not_removed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ck");
        let lock = dir.path().join(".ck.nimtab-lock");
        std::fs::write(&lock, "999999999\n").unwrap();
        drop(Held::take(&target, "checkpoint").unwrap());
        assert!(!lock.exists());
        let status = std::process::Command::new("mkfifo").arg(&lock).status().unwrap();
        assert!(status.success());
        let refused = format!("{:#}", Held::take(&target, "checkpoint").unwrap_err());
        assert!(refused.contains("is not a regular file"), "{refused}");
        assert!(Found::here(&lock).unwrap() == Found::InPlace("a FIFO"), "the FIFO was removed");
    }

    #[test]
    fn only_the_targets_own_dead_temporaries_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ck");
        let names =
            [".ck.nimtab-tmp-123", ".ck.nimtab-tmp-", ".ck.nimtab-tmp-12x", ".ckx.nimtab-tmp-1"];
        for name in names {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        std::fs::create_dir(dir.path().join(".ck.nimtab-tmp-77")).unwrap();
        let held = Held::take(&target, "checkpoint").unwrap();
        held.remove_dead_temporaries();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let expected = [
            ".ck.nimtab-lock",
            ".ck.nimtab-tmp-",
            ".ck.nimtab-tmp-12x",
            ".ck.nimtab-tmp-77",
            ".ckx.nimtab-tmp-1",
        ];
        assert_eq!(left, expected);
    }
}
