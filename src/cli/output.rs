//! Where results go: stdout, or files written under temporary names and put in place
//! only when complete (each written from one `export::format::Format`); and notes on
//! stderr. Every output location is checked before any work, and interrupts are handled
//! in `interrupt.rs`.

mod commit;
mod dir;
mod file;
mod lock;
mod paths;
mod recover;

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use nimtab::export::format::Format;

use crate::cli::interrupt;

pub use commit::{commit, save, write_dir, write_file};
pub use dir::{check_dir_target, StagedDir};
pub use file::{check_file_target, stage_file, stage_regular_file};
pub use lock::Held;
pub use paths::Found;

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

/// Writes `format` to the target; a file appears under its name only when complete.
pub fn write_to<F: Format>(target: &Target, format: F) -> anyhow::Result<F::Written> {
    match target {
        Target::Stdout => {
            let stdout = io::stdout();
            let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
            let value = format.write_to(&mut out).context("writing to stdout")?;
            out.flush().context("writing to stdout")?;
            Ok(value)
        }
        Target::File(path) => write_file(path, format),
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
    interrupt::holding(|| {
        let _ = writeln!(io::stderr().lock(), "{}", escape(text));
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use nimtab::export::format::Bytes;

    #[test]
    fn a_failed_write_leaves_neither_the_file_nor_its_temporary() {
        let dir = std::env::temp_dir().join(format!("nimtab-output-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        let result = write_file(
            &path,
            nimtab::export::format::streamed(|w| {
                w.write_all(&[b'x'; 100_000])?;
                // What a full disk reports part-way through a write.
                Err::<(), _>(io::Error::from_raw_os_error(28))
            }),
        );
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
        write_file(&link, Bytes(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        std::fs::remove_dir_all(&dir).unwrap();
        // /dev/null stays a device.
        write_file(Path::new("/dev/null"), Bytes(b"x")).unwrap();
        assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    }

    #[test]
    fn a_complete_write_appears_under_its_name_only() {
        let dir = std::env::temp_dir().join(format!("nimtab-output-ok-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        write_file(&path, Bytes(b"a,b\n")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a,b\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
