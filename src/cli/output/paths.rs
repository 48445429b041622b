//! Output paths: what a path holds now, and the names of the temporaries and staging
//! directories written beside it.

use std::fs::Metadata;
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// What an output path holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Nothing: the output is created.
    Missing,
    /// A regular file: the new one is renamed over it.
    Regular,
    /// A directory.
    Directory,
    /// A character device (`/dev/null`) or a FIFO, named: written in place, never
    /// replaced.
    InPlace(&'static str),
    /// Something nimtab neither replaces nor writes into: a block device (a table written
    /// over a disk would destroy it), a socket, or a symbolic link where links are not
    /// followed.
    Refused(&'static str),
}

impl Found {
    /// What `path` holds, symbolic links followed.
    pub fn at(path: &Path) -> io::Result<Found> {
        classify(std::fs::metadata(path))
    }

    /// What `path` itself holds: a symbolic link is [`Found::Refused`].
    pub fn here(path: &Path) -> io::Result<Found> {
        classify(std::fs::symlink_metadata(path))
    }
}

fn classify(metadata: io::Result<Metadata>) -> io::Result<Found> {
    let kind = match metadata {
        Ok(metadata) => metadata.file_type(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Found::Missing),
        Err(e) => return Err(e),
    };
    Ok(if kind.is_file() {
        Found::Regular
    } else if kind.is_dir() {
        Found::Directory
    } else if kind.is_char_device() {
        Found::InPlace("a character device")
    } else if kind.is_fifo() {
        Found::InPlace("a FIFO")
    } else if kind.is_block_device() {
        Found::Refused("a block device")
    } else if kind.is_symlink() {
        Found::Refused("a symbolic link")
    } else if kind.is_socket() {
        Found::Refused("a socket")
    } else {
        Found::Refused("not a regular file")
    })
}

/// Removes a stale temporary of ours (left by a killed process that had our process id)
/// if it is a regular file; anything else at its name is left alone and is an error.
pub fn remove_stale(path: &Path) -> io::Result<()> {
    match Found::here(path)? {
        Found::Regular => std::fs::remove_file(path),
        _ => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is in the way and is not a regular file", path.display()),
        )),
    }
}

/// A path in a message (`note` escapes any control characters it holds).
pub fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// The directory a path lies in (`.` for a bare name).
pub fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// One of this process's own standard streams, named by a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnStream {
    Stdout,
    Stderr,
}

/// The standard stream `path` names, if it names one of this process's: `/dev/stdout`,
/// `/dev/fd/1`, `/proc/self/fd/1` (or `/proc/PID/fd/1` with our PID), and the same for
/// stderr. Such an output is written through the stream already open, after what the
/// run printed there, whatever it is (a terminal, a pipe, a file the shell opened):
/// opening the path again would start a file at its beginning, and renaming over it
/// would take the file from under the shell.
pub fn own_stream(path: &Path) -> Option<OwnStream> {
    let text = path.to_str()?;
    let pid = std::process::id().to_string();
    let fd = text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))
        .or_else(|| text.strip_prefix("/proc/")?.strip_prefix(pid.as_str())?.strip_prefix("/fd/"));
    match (text, fd) {
        ("/dev/stdout", _) | (_, Some("1")) => Some(OwnStream::Stdout),
        ("/dev/stderr", _) | (_, Some("2")) => Some(OwnStream::Stderr),
        _ => None,
    }
}

/// The path a chain of symbolic links ends at (the path itself if it is not a link).
///
/// A link of `/proc` that names an open pipe or socket (`/dev/stdout` is
/// `/proc/self/fd/1`, which reads `pipe:[1234]`) holds a text that is no path, yet the
/// system opens what it names through the link: the chain stops at such a link, which
/// then stands for the pipe. A link to nothing (the file it names is still to be
/// written) is followed.
pub fn follow_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..32 {
        let Ok(target) = std::fs::read_link(&path) else { break };
        let next = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
        if std::fs::symlink_metadata(&next).is_err() && std::fs::metadata(&path).is_ok() {
            break;
        }
        path = next;
    }
    path
}

/// `.NAME.nimtab-TAG-PID` beside the file `path`.
pub fn beside(path: &Path, tag: &str) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.nimtab-{tag}-{}", std::process::id()))
}

/// The temporary a file is written to before it is renamed over `path`.
pub fn temp_name(path: &Path) -> PathBuf {
    beside(path, "tmp")
}

/// `.nimtab-tmp-PID` inside the directory `dir`.
pub fn staging_inside(dir: &Path) -> PathBuf {
    dir.join(format!(".nimtab-tmp-{}", std::process::id()))
}

/// `.NAME.nimtab-tmp-PID` beside the directory `dir` (`dir` made absolute first, so that
/// `.` and `..` have a name and a parent).
pub fn staging_name(dir: &Path) -> PathBuf {
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    parent_of(&real).join(format!(".{name}.nimtab-tmp-{}", std::process::id()))
}

/// Whether the temporary named `name` was left by a process that no longer runs: its name
/// is `prefix` followed by a process id, and `/proc` (mounted) has no such process. A
/// temporary of a live process, or one whose process cannot be told, is never dead.
pub fn left_by_dead_process(name: &str, prefix: &str) -> bool {
    let Some(pid) = name.strip_prefix(prefix) else { return false };
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid).exists()
}

/// Whose temporaries [`remove_temporaries_beside`] removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// Those of processes no longer running (nothing holds the file they were for).
    ByDeadProcesses,
    /// Every one: the caller holds the file's lock, so no live run writes one.
    ByAnyProcess,
}

/// Removes the temporaries `.NAME.nimtab-tmp-PID` that killed runs left beside the file
/// `path` (`left` says whose): regular files only.
pub fn remove_temporaries_beside(path: &Path, left: Left) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.nimtab-tmp-");
    let Ok(entries) = std::fs::read_dir(parent_of(path)) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let gone = match left {
            Left::ByDeadProcesses => left_by_dead_process(&file_name, &prefix),
            Left::ByAnyProcess => file_name
                .strip_prefix(&prefix)
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())),
        };
        if gone && Found::here(&entry.path()).is_ok_and(|f| f == Found::Regular) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether two existing paths lie on one file system (a rename cannot cross them).
pub fn same_file_system(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev(),
        _ => false,
    }
}
