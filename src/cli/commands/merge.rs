//! `nimtab merge`: the parts of a sharded sweep back into the bytes of the whole run,
//! every part checked first.

use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

use anyhow::bail;
use nimtab::export::format::streamed;
use nimtab::input::waits_at_open;
use nimtab::sweep::{merge_into, read_part_bytes, PartSource, SweepError};
use nimtab::Error;

use crate::cli::input::{self, Stdin};
use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// The most bytes of a part read from standard input, which is held in memory (a part
/// in a file is read from the file, whatever its size).
const MAX_PART_IN_MEMORY: usize = 256 << 20;

/// Arguments of `nimtab merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The parts written by `nimtab sweep --shard I/N`, in any order (- or /dev/stdin for
    /// one read from standard input).
    #[arg(value_name = "PARTS", required = true)]
    parts: Vec<PathBuf>,
    /// Output CSV file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// A part in a file, opened again for each reading of the merge.
struct FilePart {
    name: String,
    path: PathBuf,
}

impl PartSource for FilePart {
    fn name(&self) -> &str {
        &self.name
    }

    fn open(&self) -> io::Result<Box<dyn BufRead + '_>> {
        // Checked again: the path could have been replaced since the first reading.
        if let Some(kind) = waits_at_open(&self.path) {
            return Err(io::Error::other(format!("it is now {kind}")));
        }
        Ok(Box::new(BufReader::new(std::fs::File::open(&self.path)?)))
    }
}

/// Checks every part before standard input is read (up to 256 MiB of it): standard
/// input given twice, a path whose opening could wait for ever, a file that cannot be
/// opened.
fn check_parts(parts: &[PathBuf]) -> anyhow::Result<()> {
    let mut stdin_taken = false;
    for path in parts {
        let name = path.display().to_string();
        if input::is_stdin(path) {
            if stdin_taken {
                bail!("merge part {name}: standard input is given twice");
            }
            stdin_taken = true;
        } else {
            input::refuse_waiting(path, "merge part", Stdin::Taken)?;
            let part = FilePart { name: name.clone(), path: path.clone() };
            let cannot_read = |e: io::Error| SweepError::CannotReadPart {
                part: name.clone(),
                reason: e.to_string(),
            };
            part.open().map_err(cannot_read)?;
        }
    }
    Ok(())
}

/// The parts as sources: files opened at each reading, standard input read now.
fn read_sources(parts: &[PathBuf]) -> anyhow::Result<Vec<Box<dyn PartSource>>> {
    let mut sources: Vec<Box<dyn PartSource>> = Vec::with_capacity(parts.len());
    for path in parts {
        let name = path.display().to_string();
        if input::is_stdin(path) {
            let mut stdin = input::open(path, "merge part", Stdin::Taken)?;
            let bytes = read_part_bytes(&name, &mut stdin, MAX_PART_IN_MEMORY)?;
            sources.push(Box::new((name, bytes)));
        } else {
            sources.push(Box::new(FilePart { name, path: path.clone() }));
        }
    }
    Ok(sources)
}

/// Runs `nimtab merge`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    check_parts(&a.parts)?;
    let sources = read_sources(&a.parts)?;
    let sources: Vec<&dyn PartSource> = sources.iter().map(AsRef::as_ref).collect();
    // The library's error, kept typed while the writer only carries an I/O error.
    let mut failure: Option<SweepError> = None;
    let written = output::write_to(
        &target,
        streamed(|w| match merge_into(&sources, w) {
            Ok(()) => Ok(()),
            Err(SweepError::Space(Error::Io(e))) => Err(e),
            Err(e) => {
                failure = Some(e);
                Err(io::Error::other("the merge stopped"))
            }
        }),
    );
    match (written, failure) {
        (_, Some(e)) => return Err(e.into()),
        (Err(e), None) => return Err(e),
        (Ok(()), None) => {}
    }
    if !global.quiet {
        output::note(&format!("nimtab: merged {} parts of one sweep", sources.len()));
    }
    Ok(Outcome::Success)
}
