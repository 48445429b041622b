//! Where results go: stdout, or files written under temporary names and put in place
//! only when complete; and notes on stderr. Every output location is checked before any
//! work, and interrupts are handled in `interrupt.rs`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::cli::interrupt;

/// Where one output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, written atomically.
    File(PathBuf),
}

impl Target {
    /// `None` (or `-`) is stdout; a file must be creatable (checked now, before any work).
    pub fn new(path: Option<&Path>) -> anyhow::Result<Target> {
        match path {
            None => Ok(Target::Stdout),
            Some(p) if p.as_os_str() == "-" => Ok(Target::Stdout),
            Some(p) => {
                check_file_target(p)?;
                Ok(Target::File(p.to_path_buf()))
            }
        }
    }
}

/// Refuses an output file that cannot be created, before any work: its directory must
/// exist and take a new file (a read-only one is found here, not after the work), and the
/// path must not be a directory. An existing device or FIFO must open for writing.
pub fn check_file_target(path: &Path) -> anyhow::Result<()> {
    let path = &follow_links(path);
    if path.file_name().is_none() {
        bail!("output path '{}' names no file", shown(path));
    }
    if path.is_dir() {
        bail!("output path {} is a directory", shown(path));
    }
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("output path {}", shown(path)))?;
        return Ok(());
    }
    let dir = parent_of(path);
    if !dir.is_dir() {
        bail!("output path {}: directory {} does not exist", shown(path), shown(dir));
    }
    probe(&temp_name(path), false).with_context(|| {
        format!("output path {}: cannot create a file in {}", shown(path), shown(dir))
    })
}

/// Refuses an output directory that cannot be written, before any work: an existing one
/// must take a new file; a missing one is created at the end, so its parent must exist and
/// take a new directory.
pub fn check_dir_target(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            bail!("output directory {}: not a directory", shown(dir));
        }
        return probe(&staging_inside(dir), true).with_context(|| {
            format!("output directory {}: cannot create a file in it", shown(dir))
        });
    }
    let parent = parent_of(dir);
    if !parent.is_dir() {
        bail!("output directory {}: its parent {} does not exist", shown(dir), shown(parent));
    }
    probe(&staging_name(dir), true).with_context(|| {
        format!("output directory {}: cannot create it in {}", shown(dir), shown(parent))
    })
}

/// Creates and removes a temporary file or directory, to learn that it can be created.
fn probe(path: &Path, dir: bool) -> io::Result<()> {
    if dir {
        interrupt::create_staging_dir(path)?;
    } else {
        create_temporary(path)?;
    }
    interrupt::discard(path);
    Ok(())
}

/// A path in a message (`note` escapes any control characters it holds).
fn shown(path: &Path) -> String {
    path.display().to_string()
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes through `write` to the target; a file appears under its name only when complete.
pub fn write_to<T>(
    target: &Target,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> anyhow::Result<T> {
    match target {
        Target::Stdout => {
            let stdout = io::stdout();
            let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
            let value = write(&mut out).context("writing to stdout")?;
            out.flush().context("writing to stdout")?;
            Ok(value)
        }
        Target::File(path) => write_file(path, write),
    }
}

/// `text` with every control character escaped (`\n`, `\t`, `\u{1b}`): one line that
/// cannot drive the terminal, whatever a value given by the user holds.
pub fn escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> =
                if c.is_control() { c.escape_debug().collect() } else { vec![c] };
            escaped
        })
        .collect()
}

/// Writes a one-line message to stderr, control characters (newlines too) escaped. A
/// stderr that cannot be written to is ignored: there is nowhere left to report it.
///
/// It holds the interrupt lock while writing, so nothing is said after an interrupt
/// (a checked program the handler killed is not reported as failed).
pub fn note(text: &str) {
    interrupt::holding(|| note_now(text));
}

/// [`note`] without the interrupt lock: for the handler, which holds it.
pub fn note_now(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{}", escape(text));
}

/// Writes a display of several lines to stderr (an expression under its error, with a
/// caret), each line's control characters escaped.
pub fn note_lines(text: &str) {
    let lines: Vec<String> = text.lines().map(escape).collect();
    interrupt::holding(|| {
        let _ = writeln!(io::stderr().lock(), "{}", lines.join("\n"));
    });
}

/// Writes one line to stdout. A closed pipe or a full disk becomes an error (a closed pipe
/// ends the program quietly in `main`) instead of `println!`'s panic.
pub fn line(text: std::fmt::Arguments<'_>) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}").and_then(|()| out.flush()).context("writing to stdout")
}

/// Writes a file atomically: temporary name in the same directory, then rename.
///
/// A symbolic link is followed (the file it names is replaced, not the link), and an
/// existing path that is not a regular file (`/dev/null`, a FIFO) is written in place:
/// renaming over it would replace the device with a plain file.
pub fn write_file<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> anyhow::Result<T> {
    let path = &follow_links(path);
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return write_in_place(path, write);
    }
    let (staged, value) = stage_file(path, write)?;
    commit(vec![staged], Vec::new())?;
    Ok(value)
}

/// A complete file under its temporary name, waiting for [`commit`].
pub struct StagedFile {
    temp: PathBuf,
    path: PathBuf,
}

/// Writes a file's contents under its temporary name, synced; [`commit`] renames it.
pub fn stage_file<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> anyhow::Result<(StagedFile, T)> {
    let path = follow_links(path);
    let temp = temp_name(&path);
    let result = (|| -> io::Result<T> {
        let file = create_temporary(&temp)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let value = write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(value)
    })();
    match result {
        Ok(value) => Ok((StagedFile { temp, path }, value)),
        Err(e) => {
            interrupt::discard(&temp);
            Err(e).with_context(|| format!("writing {}", shown(&path)))
        }
    }
}

/// Files for one directory, written into a staging directory and moved into place by
/// [`commit`] together, so the directory never holds a mix of two runs' files.
///
/// A missing directory is staged as `.NAME.nimtab-tmp-PID` beside it and created by
/// renaming that. An existing one is staged in `.nimtab-tmp-PID` inside it (a rename
/// cannot cross file systems, and its parent is not the user's to write in), except with
/// [`StagedDir::beside`].
pub struct StagedDir {
    dir: PathBuf,
    staging: PathBuf,
    /// Paths relative to the directory, in the order written.
    files: Vec<PathBuf>,
}

impl StagedDir {
    /// Creates the staging directory for `dir` (which need not exist yet).
    pub fn new(dir: &Path) -> anyhow::Result<StagedDir> {
        let staging = if dir.exists() { staging_inside(dir) } else { staging_name(dir) };
        StagedDir::at(dir, staging)
    }

    /// Like [`StagedDir::new`], but an existing directory too is staged beside it when
    /// its parent takes a directory on the same file system: then nothing of the run
    /// appears inside it before the end, even if the process is killed.
    pub fn beside(dir: &Path) -> anyhow::Result<StagedDir> {
        let beside = staging_name(dir);
        let same_file_system = same_file_system(dir, parent_of(&beside));
        if dir.exists() && same_file_system && interrupt::create_staging_dir(&beside).is_ok() {
            return Ok(StagedDir { dir: dir.to_path_buf(), staging: beside, files: Vec::new() });
        }
        StagedDir::new(dir)
    }

    fn at(dir: &Path, staging: PathBuf) -> anyhow::Result<StagedDir> {
        interrupt::create_staging_dir(&staging)
            .with_context(|| format!("creating {}", shown(&staging)))?;
        Ok(StagedDir { dir: dir.to_path_buf(), staging, files: Vec::new() })
    }

    /// Writes `bytes` as the file `name` (a relative path, `/` between parts), synced.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let path = self.staging.join(name);
        let result = (|| -> io::Result<()> {
            let mut file = interrupt::create_in_staging(&path)?;
            file.write_all(bytes)?;
            file.sync_all()
        })();
        result.with_context(|| format!("writing {}", shown(&self.dir.join(name))))?;
        self.files.push(PathBuf::from(name));
        Ok(())
    }

    /// Moves the files into place: the whole staging directory becomes the directory if
    /// it did not exist; otherwise each file replaces its namesake.
    fn put_in_place(&self) -> io::Result<()> {
        if !self.dir.exists() {
            return std::fs::rename(&self.staging, &self.dir);
        }
        for name in &self.files {
            let target = self.dir.join(name);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(self.staging.join(name), target)?;
        }
        std::fs::remove_dir_all(&self.staging)
    }
}

fn same_file_system(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev(),
        _ => false,
    }
}

/// Puts staged files and directories in place, all in one step that an interrupt cannot
/// split; on an error every staged temporary left is removed.
pub fn commit(files: Vec<StagedFile>, dirs: Vec<StagedDir>) -> anyhow::Result<()> {
    let temporaries: Vec<PathBuf> = files
        .iter()
        .map(|f| f.temp.clone())
        .chain(dirs.iter().map(|d| d.staging.clone()))
        .collect();
    let mut failed_at = None;
    let result = interrupt::commit(&temporaries, || {
        for dir in &dirs {
            failed_at = Some(dir.dir.clone());
            dir.put_in_place()?;
        }
        for file in &files {
            failed_at = Some(file.path.clone());
            std::fs::rename(&file.temp, &file.path)?;
        }
        Ok(())
    });
    if result.is_err() {
        for path in &temporaries {
            interrupt::discard(path);
        }
    }
    let failed_at = failed_at.unwrap_or_default();
    result.with_context(|| format!("writing {}", shown(&failed_at)))
}

/// The path a chain of symbolic links ends at (the path itself if it is not a link).
fn follow_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..32 {
        let Ok(target) = std::fs::read_link(&path) else { break };
        path = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    path
}

/// Writes to an existing non-regular file (a device or FIFO) directly.
fn write_in_place<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> anyhow::Result<T> {
    let result = (|| -> io::Result<T> {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let value = write(&mut out)?;
        out.flush()?;
        Ok(value)
    })();
    result.with_context(|| format!("writing {}", shown(path)))
}

/// Creates a registered temporary file; a stale one of the same name (left by a killed
/// process that had our process id) is replaced.
fn create_temporary(path: &Path) -> io::Result<File> {
    match interrupt::create_temporary_file(path) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(path)?;
            interrupt::create_temporary_file(path)
        }
        other => other,
    }
}

fn temp_name(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.nimtab-tmp-{}", std::process::id()))
}

/// `.nimtab-tmp-PID` inside the directory `dir`.
fn staging_inside(dir: &Path) -> PathBuf {
    dir.join(format!(".nimtab-tmp-{}", std::process::id()))
}

/// `.NAME.nimtab-tmp-PID` beside the directory `dir` (`dir` made absolute first, so that
/// `.` and `..` have a name and a parent).
fn staging_name(dir: &Path) -> PathBuf {
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    parent_of(&real).join(format!(".{name}.nimtab-tmp-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_neither_the_file_nor_its_temporary() {
        let dir = std::env::temp_dir().join(format!("nimtab-output-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        let result = write_file(&path, |w| {
            w.write_all(&[b'x'; 100_000])?;
            // What a full disk reports part-way through a write.
            Err::<(), _>(io::Error::from_raw_os_error(28))
        });
        let message = format!("{:#}", result.unwrap_err());
        assert!(message.contains("out.csv") && message.contains("No space left"), "{message}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "left behind: {left:?}");
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn a_symlink_is_followed_and_a_device_is_written_in_place() {
        let dir = std::env::temp_dir().join(format!("nimtab-output-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.csv");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.join("link.csv");
        std::os::unix::fs::symlink("target.csv", &link).unwrap();
        write_file(&link, |w| w.write_all(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        std::fs::remove_dir_all(&dir).unwrap();
        // /dev/null stays a device.
        write_file(Path::new("/dev/null"), |w| w.write_all(b"x")).unwrap();
        assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    }

    #[test]
    fn a_complete_write_appears_under_its_name_only() {
        let dir = std::env::temp_dir().join(format!("nimtab-output-ok-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        write_file(&path, |w| w.write_all(b"a,b\n")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a,b\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
