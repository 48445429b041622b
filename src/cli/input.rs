//! The files commands read, opened without waiting and read within a bound: a path
//! that names a FIFO or a socket is refused before it is opened (opening a FIFO waits for
//! a writer, for ever if none comes), standard input is read where a command takes it,
//! and never more than an input's bound plus one byte is read.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{bail, Context};
use nimtab::input::waits_at_open;

/// Whether a command takes an input on standard input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdin {
    /// `-` and `/dev/stdin` (or `/dev/fd/0`) read standard input, which may be a pipe.
    Taken,
    /// Every path is a file.
    NotTaken,
}

/// Whether `path` names standard input: `-`, `/dev/stdin`, `/dev/fd/0` or
/// `/proc/self/fd/0`. It is read as it is already open, so a pipe waits for nothing.
pub fn is_stdin(path: &Path) -> bool {
    let text = path.as_os_str();
    ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].iter().any(|name| text == *name)
}

/// Opens `path` to read (`what` names it in messages: `--games-file`, `merge part`):
/// standard input where taken, else anything but a FIFO or a socket.
///
/// # Errors
/// A FIFO or a socket, a directory, or a file that cannot be opened, with `what` and the
/// path named.
pub fn open(path: &Path, what: &str, stdin: Stdin) -> anyhow::Result<Box<dyn BufRead>> {
    if stdin == Stdin::Taken && is_stdin(path) {
        return Ok(Box::new(io::stdin().lock()));
    }
    refuse_waiting(path, what, stdin)?;
    if path.is_dir() {
        bail!("{what} {} is a directory, not a file", path.display());
    }
    let file =
        File::open(path).with_context(|| format!("{what} {}: cannot read it", path.display()))?;
    Ok(Box::new(BufReader::new(file)))
}

/// Refuses a path whose opening could wait for ever.
///
/// # Errors
/// A FIFO or a socket, named with `what` and the path.
pub fn refuse_waiting(path: &Path, what: &str, stdin: Stdin) -> anyhow::Result<()> {
    if let Some(kind) = waits_at_open(path) {
        let instead = match stdin {
            Stdin::Taken => "give a file, or the input on standard input (-)",
            Stdin::NotTaken => "give a file",
        };
        bail!(
            "{what} {} is {kind}, not a file: opening it could wait for ever; {instead}",
            path.display()
        );
    }
    Ok(())
}

/// Reads `path` whole, refusing it past `limit` bytes.
///
/// # Errors
/// As [`open`]; an input larger than `limit`, or a read error.
pub fn read_bounded(path: &Path, what: &str, stdin: Stdin, limit: u64) -> anyhow::Result<Vec<u8>> {
    let input = open(path, what, stdin)?;
    let mut bytes = Vec::new();
    // One byte past the limit tells an input that is too long from one that fits; a
    // device such as /dev/zero never ends.
    input
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{what} {}: cannot read it", path.display()))?;
    if bytes.len() as u64 > limit {
        bail!("{what} {}: larger than {}, the most it may hold", path.display(), size(limit));
    }
    Ok(bytes)
}

/// `64 MiB`, `1 MiB`, `512 KiB`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}
