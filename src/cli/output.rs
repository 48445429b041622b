//! Where results go: stdout, or a file written under a temporary name and renamed when
//! complete; and notes on stderr. A Ctrl-C removes any temporary file first.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context};

/// Temporary files in flight, removed by the Ctrl-C handler.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handler of Ctrl-C, SIGTERM and SIGHUP: remove temporary files, exit 130.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(paths) = IN_FLIGHT.lock() {
            for path in paths.iter() {
                let _ = std::fs::remove_file(path);
            }
        }
        note("nimtab: interrupted; no partial output was left");
        std::process::exit(130);
    });
}

/// Where one output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, written atomically.
    File(PathBuf),
}

impl Target {
    /// `None` (or `-`) is stdout; a file's directory must exist.
    pub fn new(path: Option<&Path>) -> anyhow::Result<Target> {
        match path {
            None => Ok(Target::Stdout),
            Some(p) if p.as_os_str() == "-" => Ok(Target::Stdout),
            Some(p) => {
                check_parent(p)?;
                Ok(Target::File(p.to_path_buf()))
            }
        }
    }
}

/// Refuses an output path whose directory does not exist (before any work is done).
pub fn check_parent(path: &Path) -> anyhow::Result<()> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        bail!("output path {}: directory {} does not exist", path.display(), parent.display());
    }
    if path.is_dir() {
        bail!("output path {} is a directory", path.display());
    }
    Ok(())
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

/// Writes a message to stderr, with control characters escaped (a hostile value cannot
/// drive the terminal; newlines are kept for multi-line displays). A stderr that cannot
/// be written to is ignored: there is nowhere left to report it.
pub fn note(text: &str) {
    let shown: String = text
        .chars()
        .flat_map(|c| {
            let plain = c == '\n' || !c.is_control();
            let escaped: Vec<char> = if plain { vec![c] } else { c.escape_debug().collect() };
            escaped
        })
        .collect();
    let _ = writeln!(io::stderr().lock(), "{shown}");
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
    let temp = temp_name(path);
    register(&temp);
    let result = (|| -> io::Result<T> {
        let file = File::create(&temp)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let value = write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)?;
        Ok(value)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    unregister(&temp);
    result.with_context(|| format!("writing {}", path.display()))
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
    result.with_context(|| format!("writing {}", path.display()))
}

fn temp_name(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.nimtab-tmp-{}", std::process::id()))
}

fn register(path: &Path) {
    if let Ok(mut paths) = IN_FLIGHT.lock() {
        paths.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut paths) = IN_FLIGHT.lock() {
        paths.retain(|p| p != path);
    }
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
