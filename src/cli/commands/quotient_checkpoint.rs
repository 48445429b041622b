//! The checkpoints of `nimtab quotient`: the file read with `--resume`, the one written
//! with `--checkpoint` at intervals and when the run ends, and the progress that hands
//! them out and stops the run on the first interrupt.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nimtab::quotient::{QuotientCheckpoint, QuotientProgress};
use nimtab::{Ending, Progress};

use crate::cli::interrupt;
use crate::cli::long_run::{hold_checkpoint, save_checkpoint};
use crate::cli::output::Held;
use crate::cli::progress::Bar;

/// A quotient checkpoint is read only up to this size: its tables hold at most one row
/// of the product table per element some heap is.
const CHECKPOINT_LIMIT: u64 = 4 << 30;

/// Checkpoints are written this often unless `--checkpoint-every` says otherwise.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(300);

/// The checkpoint files of one run, held for it.
pub struct Files {
    /// Where checkpoints are written.
    pub write_to: Option<PathBuf>,
    /// The checkpoint resumed from.
    pub resumed: Option<QuotientCheckpoint>,
    _holds: Vec<Held>,
}

/// Holds and checks the files of `--checkpoint` and `--resume` before any work, and
/// reads the checkpoint to resume.
///
/// # Errors
/// A checkpoint that exists without `--resume`, one of another game or play, a corrupt
/// one, or a file another run holds: one line each.
pub fn files(
    checkpoint: Option<&Path>,
    resume: Option<&Path>,
    game: &str,
    play: Ending,
) -> anyhow::Result<Files> {
    // One hold a file: `--resume F --checkpoint F` names the same one twice.
    let mut paths: Vec<&Path> = [resume, checkpoint].into_iter().flatten().collect();
    paths.dedup();
    let holds = paths.into_iter().map(hold_checkpoint).collect::<anyhow::Result<Vec<Held>>>()?;
    if let Some(path) = checkpoint {
        if resume != Some(path) && path.exists() {
            bail!(
                "checkpoint {} exists: continue its run with --resume {0}, or remove it",
                path.display()
            );
        }
    }
    let resumed = resume.map(|path| read(path, game, play)).transpose()?;
    let write_to = checkpoint.or(resume).map(Path::to_path_buf);
    Ok(Files { write_to, resumed, _holds: holds })
}

/// Reads the checkpoint `path` of `game` under `play`.
fn read(path: &Path, game: &str, play: Ending) -> anyhow::Result<QuotientCheckpoint> {
    let shown = path.display();
    let meta = std::fs::metadata(path).with_context(|| format!("checkpoint {shown}"))?;
    if !meta.is_file() {
        bail!("checkpoint {shown} is not a regular file");
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(CHECKPOINT_LIMIT).read_to_end(&mut bytes))
        .with_context(|| format!("checkpoint {shown}"))?;
    QuotientCheckpoint::decode(&bytes, game, play).with_context(|| format!("checkpoint {shown}"))
}

/// The progress of a quotient run: the bar, heap by heap, and the checkpoints.
pub struct RunProgress<'a> {
    pub bar: &'a Bar,
    pub game: String,
    /// Where checkpoints go, and how often.
    pub checkpoint: Option<(PathBuf, Duration)>,
    /// When the last checkpoint was written, and the first error writing one.
    pub last: Mutex<(Instant, Option<anyhow::Error>)>,
}

impl RunProgress<'_> {
    /// The first error met writing a checkpoint, if any.
    pub fn take_error(&self) -> Option<anyhow::Error> {
        self.last.lock().expect("checkpoint state").1.take()
    }
}

impl QuotientProgress for RunProgress<'_> {
    fn heap_done(&self, heap: u32, order: usize) {
        self.bar.set_message(&format!("quotient of {}: heap {heap}, order {order}", self.game));
        self.bar.advance(1);
    }

    fn cancelled(&self) -> bool {
        interrupt::stop_asked() || self.last.lock().expect("checkpoint state").1.is_some()
    }

    fn searching(&self, heap: u32, order: usize) {
        let game = &self.game;
        self.bar.set_message(&format!("quotient of {game}: heap {heap}, trying order {order}"));
        self.bar.advance(0);
    }

    fn exploring(&self, heap: u32, states: u64) {
        let game = &self.game;
        self.bar.set_message(&format!("quotient of {game}: heap {heap}, checking {states} states"));
        self.bar.advance(0);
    }

    fn checkpoint_due(&self, _heap: u32) -> bool {
        let Some((_, every)) = &self.checkpoint else { return false };
        self.last.lock().expect("checkpoint state").0.elapsed() >= *every
    }

    fn keeps_checkpoints(&self) -> bool {
        self.checkpoint.is_some()
    }

    fn checkpoint(&self, checkpoint: &QuotientCheckpoint) {
        let Some((path, _)) = &self.checkpoint else { return };
        let saved = save_checkpoint(path, &checkpoint.encode());
        let mut last = self.last.lock().expect("checkpoint state");
        match saved {
            Ok(()) => last.0 = Instant::now(),
            Err(e) => {
                last.1.get_or_insert(e.into());
            }
        }
    }
}
