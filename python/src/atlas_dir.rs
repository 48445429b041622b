//! An atlas's directory from Python (`out=`, as `nimtab atlas --out DIR`): held against
//! other runs by the lock file the command line takes, each finished code kept in its
//! `state` folder, and the atlas's files put in place together at the end, the old ones
//! back as they were if that fails.
//!
//! The command line's writer belongs to the binary, so this is its counterpart, with the
//! same names on disk (`.nimtab-tmp-PID` staging, the commit marker, `.NAME.nimtab-lock`),
//! so that a run of either finds the other's state and lock.

use std::fs::{File, TryLockError};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use rustix::fs::{Mode, OFlags};

use nimtab::atlas::files::{atlas_files, AtlasFile};
use nimtab::atlas::{classes, Atlas, Entry};

use crate::atlas_request::{entries_of, texts_of, AtlasDict};
use crate::value_error;

/// The tables every atlas writes (the rare heaps' files besides).
const FILES: [&str; 3] = ["atlas.csv", "classes.csv", "atlas.json"];
/// The folder of the finished codes' state.
const STATE: &str = "state";
/// Written into the staging folder once every target is checked: the command line
/// finishes a commit so marked whose process died.
const MARKER: &str = ".nimtab-commit";
/// Where the files a commit replaces are set aside, inside the staging folder.
const ASIDE: &str = ".nimtab-old";

/// AtlasDir(path, request): the atlas directory of one run, created if missing and held
/// until `release()` (or the end of a `with` block).
#[pyclass(module = "nimtab._nimtab")]
pub struct AtlasDir {
    dir: PathBuf,
    atlas: Atlas,
    hold: Option<Hold>,
}

#[pymethods]
impl AtlasDir {
    #[new]
    fn new(py: Python<'_>, path: PathBuf, request: AtlasDict) -> PyResult<AtlasDir> {
        let atlas = request.plan(py)?;
        check_dir(&path)?;
        let state = path.join(STATE);
        std::fs::create_dir_all(&state).map_err(|e| os_error("creating", &state, &e))?;
        let hold = Hold::take(&path)?;
        Ok(AtlasDir { dir: path, atlas, hold: Some(hold) })
    }

    /// done() -> list of str: the entries (JSON text) that the state folder holds for
    /// codes of this atlas under its settings, in the atlas's order; others are ignored
    /// (computed again).
    fn done(&self) -> PyResult<Vec<String>> {
        self.held()?;
        let mut found = Vec::new();
        for code in self.atlas.codes() {
            let path = self.state_path(&code.to_string());
            // Only a regular file is read: opening a FIFO would wait for a writer.
            if in_the_way(&path).is_some() {
                continue;
            }
            let Ok(text) = std::fs::read(path) else { continue };
            match serde_json::from_slice::<Entry>(&text) {
                Ok(e) if self.atlas.accepts(&e) && e.code == code.to_string() => found.push(e),
                _ => {}
            }
        }
        texts_of(&found)
    }

    /// keep(entry): keeps one finished entry (JSON text) in the state folder.
    fn keep(&self, entry: String) -> PyResult<()> {
        let entry = entries_of(&[entry])?.remove(0);
        if !self.atlas.accepts(&entry) {
            let code = &entry.code;
            return Err(value_error(format!("the entry of {code} is not of this atlas")));
        }
        self.state()?.keep(&entry).map_err(PyOSError::new_err)
    }

    /// write(entries): the atlas of the entries (JSON text, one per code), its files put
    /// in place together.
    fn write(&self, py: Python<'_>, entries: Vec<String>) -> PyResult<()> {
        self.held()?;
        let entries = self.atlas.assemble(entries_of(&entries)?).map_err(value_error)?;
        let (dir, settings) = (&self.dir, self.atlas.settings());
        py.detach(move || {
            let classes = classes(&entries);
            let files = atlas_files(settings, &entries, &classes);
            commit(dir, &files)
        })
    }

    /// release(): lets other runs use the directory.
    fn release(&mut self) {
        self.hold = None;
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        _kind: Option<Bound<'_, PyAny>>,
        _value: Option<Bound<'_, PyAny>>,
        _traceback: Option<Bound<'_, PyAny>>,
    ) -> bool {
        self.release();
        false
    }
}

impl AtlasDir {
    fn held(&self) -> PyResult<()> {
        match self.hold {
            Some(_) => Ok(()),
            None => Err(value_error(format!("{} was released", self.dir.display()))),
        }
    }

    fn state_path(&self, code: &str) -> PathBuf {
        self.dir.join(STATE).join(format!("{code}.json"))
    }

    /// The state folder, for a run to keep its entries in.
    pub(crate) fn state(&self) -> PyResult<StateDir> {
        self.held()?;
        Ok(StateDir { dir: self.dir.join(STATE) })
    }
}

/// The state folder of a held atlas directory.
pub(crate) struct StateDir {
    dir: PathBuf,
}

impl StateDir {
    /// The folder.
    pub(crate) fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Writes `CODE.json` beside under a temporary name, synced, and renames it over the
    /// old one (a regular file, or nothing).
    pub(crate) fn keep(&self, entry: &Entry) -> Result<(), String> {
        let path = self.dir.join(format!("{}.json", entry.code));
        let text = serde_json::to_string(entry).map_err(|e| e.to_string())?;
        refuse_in_the_way(&path)?;
        let temp = self.dir.join(format!(".{}.json.nimtab-tmp-{}", entry.code, std::process::id()));
        let written = (|| {
            // A temporary of a killed process that had this id is ours to replace.
            remove_regular(&temp);
            let mut file = File::create_new(&temp)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temp, &path)?;
            File::open(&self.dir)?.sync_all()
        })();
        written.map_err(|e| {
            remove_regular(&temp);
            format!("writing {}: {e}", path.display())
        })
    }
}

/// Removes `path` if it is a regular file; anything else there is left alone.
fn remove_regular(path: &Path) {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        let _ = std::fs::remove_file(path);
    }
}

/// An `OSError` naming what was done to which path.
fn os_error(doing: &str, path: &Path, e: &io::Error) -> PyErr {
    PyOSError::new_err(format!("{doing} {}: {e}", path.display()))
}

/// What stands at `path` (not following a last symbolic link), unless it is a regular
/// file or nothing: a directory, device, FIFO, socket or link is never replaced.
fn in_the_way(path: &Path) -> Option<&'static str> {
    let kind = std::fs::symlink_metadata(path).ok()?.file_type();
    let what = if kind.is_file() {
        return None;
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    Some(what)
}

fn refuse_in_the_way(path: &Path) -> Result<(), String> {
    match in_the_way(path) {
        None => Ok(()),
        Some(what) => Err(format!(
            "{} is {what}, which nimtab never replaces with an output file",
            path.display()
        )),
    }
}

/// Refuses an atlas directory that is not one, or whose tables' places hold what is
/// never replaced, before any work (as the command line does).
fn check_dir(dir: &Path) -> PyResult<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(value_error(format!("output directory {}: not a directory", dir.display())));
    }
    if !dir.exists() {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !parent.is_dir() {
            let (d, p) = (dir.display(), parent.display());
            return Err(value_error(format!(
                "output directory {d}: its parent {p} does not exist"
            )));
        }
        return Ok(());
    }
    for folder in [STATE, "rare"].map(|name| dir.join(name)) {
        if folder.exists() && !folder.is_dir() {
            let f = folder.display();
            return Err(value_error(format!(
                "{f} is not a directory, so the atlas cannot be written"
            )));
        }
    }
    FILES.iter().try_for_each(|name| refuse_in_the_way(&dir.join(name))).map_err(value_error)
}

/// Writes every file into `.nimtab-tmp-PID` inside `dir`, synced; then, holding the
/// directory's `flock`, checks every target, marks the staging folder and renames the
/// files in, each old file set aside first; if a rename fails, every step is undone in
/// reverse. The staging folder goes in every case.
fn commit(dir: &Path, files: &[AtlasFile<'_>]) -> PyResult<()> {
    let staging = dir.join(format!(".nimtab-tmp-{}", std::process::id()));
    // A staging folder of a killed process that had this id is ours to replace; anything
    // else at its name is left alone, and creating the folder then fails naming it.
    if std::fs::symlink_metadata(&staging).is_ok_and(|m| m.is_dir()) {
        let _ = std::fs::remove_dir_all(&staging);
    }
    std::fs::create_dir(&staging).map_err(|e| os_error("creating", &staging, &e))?;
    let done = stage_and_place(dir, &staging, files);
    let _ = std::fs::remove_dir_all(&staging);
    done
}

fn stage_and_place(dir: &Path, staging: &Path, files: &[AtlasFile<'_>]) -> PyResult<()> {
    for file in files {
        let path = staging.join(&file.name);
        let written = (|| {
            std::fs::create_dir_all(path.parent().unwrap_or(staging))?;
            let mut out = BufWriter::with_capacity(1 << 16, File::create_new(&path)?);
            file.write_to(&mut out)?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()
        })();
        written.map_err(|e| os_error("writing", &dir.join(&file.name), &e))?;
    }
    // Best effort, as the command line's: without a lock the commit is still all or
    // nothing, only concurrent runs are no longer ordered.
    let lock = File::open(dir).ok().filter(|f| f.lock().is_ok());
    check_dir(dir)?;
    for file in files {
        refuse_in_the_way(&dir.join(&file.name)).map_err(value_error)?;
    }
    File::create(staging.join(MARKER))
        .and_then(|f| f.sync_all())
        .map_err(|e| os_error("writing", staging, &e))?;
    let mut undo = Vec::new();
    for (i, name) in files.iter().map(|f| f.name.as_str()).enumerate() {
        let last = i + 1 == files.len();
        if let Err(e) = place(dir, staging, name, last, &mut undo) {
            let _ = std::fs::remove_file(staging.join(MARKER));
            let outcome = match undo_all(undo) {
                Ok(()) => "nothing was replaced".to_string(),
                Err(u) => format!("putting the old outputs back failed too: {u}"),
            };
            let target = dir.join(name);
            return Err(PyOSError::new_err(format!(
                "writing {} ({outcome}): {e}",
                target.display()
            )));
        }
    }
    for synced in [dir.to_path_buf(), dir.join("rare")] {
        if let Ok(opened) = File::open(&synced) {
            let _ = opened.sync_all();
        }
    }
    drop(lock);
    Ok(())
}

/// One step a failed commit takes back: a rename (from, to), or a directory it created.
enum Undo {
    Rename(PathBuf, PathBuf),
    RemoveDir(PathBuf),
}

/// Renames the staged `name` into `dir`: its folder created if missing, the old file set
/// aside first (but for the last file: nothing follows it to fail).
fn place(
    dir: &Path,
    staging: &Path,
    name: &str,
    last: bool,
    undo: &mut Vec<Undo>,
) -> io::Result<()> {
    let target = dir.join(name);
    if let Some(parent) = target.parent().filter(|p| !p.exists()) {
        std::fs::create_dir(parent)?;
        undo.push(Undo::RemoveDir(parent.to_path_buf()));
    }
    if !last && target.is_file() {
        let aside = staging.join(ASIDE).join(name);
        std::fs::create_dir_all(aside.parent().unwrap_or(staging))?;
        std::fs::rename(&target, &aside)?;
        undo.push(Undo::Rename(aside, target.clone()));
    }
    let staged = staging.join(name);
    std::fs::rename(&staged, &target)?;
    undo.push(Undo::Rename(target, staged));
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

/// The command line's hold on an atlas directory: an exclusive `flock` on the lock file
/// `.NAME.nimtab-lock` beside it, holding this process's id, removed when released.
struct Hold {
    path: PathBuf,
    file: File,
}

impl Hold {
    fn take(target: &Path) -> PyResult<Hold> {
        let real = std::fs::canonicalize(target).map_err(|e| os_error("opening", target, &e))?;
        let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let path = real.with_file_name(format!(".{name}.nimtab-lock"));
        for _ in 0..8 {
            let file = open_lock_file(&path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let (t, p) = (target.display(), path.display());
                    return Err(value_error(format!(
                        "atlas directory {t} is in use by {}: one run at a time may use it \
                         (its lock file is {p})",
                        holder(&file)
                    )));
                }
                Err(TryLockError::Error(e)) => return Err(os_error("locking", &path, &e)),
            }
            if still_named(&file, &path) {
                let pid = format!("{}\n", std::process::id());
                let _ = file.set_len(0).and_then(|()| file.write_all_at(pid.as_bytes(), 0));
                return Ok(Hold { path, file });
            }
        }
        Err(value_error(format!("{}: its lock file keeps being replaced", path.display())))
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        if still_named(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens (or creates) the lock file without following a link and without waiting (a FIFO
/// there must not block); anything but a regular file is refused.
fn open_lock_file(path: &Path) -> PyResult<File> {
    let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::NONBLOCK;
    let opened = rustix::fs::open(path, flags | OFlags::CLOEXEC, Mode::from_raw_mode(0o644));
    let refused =
        || value_error(format!("{} is in the way and is not a regular file", path.display()));
    let file = match opened {
        Ok(fd) => File::from(fd),
        Err(_) if in_the_way(path).is_some() => return Err(refused()),
        Err(e) => return Err(os_error("opening", path, &e.into())),
    };
    match file.metadata() {
        Ok(m) if m.is_file() => Ok(file),
        _ => Err(refused()),
    }
}

/// Whether `path` still names the file `file` is open on.
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
    match String::from_utf8_lossy(&bytes[..len]).trim().parse::<u32>() {
        Ok(pid) => format!("process {pid}"),
        Err(_) => "another process".to_string(),
    }
}
