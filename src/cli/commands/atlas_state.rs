//! The finished codes of `nimtab atlas` kept in `--out/state`: each one's entry written as
//! it finishes, and read back by a run started again under the same settings.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use nimtab::atlas::{Atlas, AtlasObserver, Entry};
use nimtab::export::format::Bytes;

use crate::cli::interrupt;
use crate::cli::output;
use crate::cli::progress::Bar;
use crate::cli::Global;

/// The folder of the finished codes' state, inside `--out`.
pub const STATE: &str = "state";
/// The largest state file read: a code's entry holds its rare heaps and its period's
/// block, a few MiB at most at the largest budgets that fit in memory.
const MAX_STATE: u64 = 1 << 30;

/// Keeps each finished code's state file, advances the bar, and stops on an interrupt.
pub struct Keeper<'b> {
    /// The state folder.
    pub dir: PathBuf,
    /// The bar the codes advance.
    pub bar: &'b Bar,
    /// The first failure to keep a code.
    pub failed: Mutex<Option<anyhow::Error>>,
    /// Codes whose state is kept.
    pub kept: &'b AtomicUsize,
}

impl AtlasObserver for Keeper<'_> {
    fn code_done(&self, entry: &Entry) -> Result<(), String> {
        let path = self.dir.join(format!("{}.json", entry.code));
        let text = serde_json::to_string(entry).map_err(|e| e.to_string())?;
        let saved = output::stage_regular_file(&path, Bytes(text.as_bytes()))
            .and_then(|(staged, ())| output::save(staged));
        nimtab::Progress::advance(self.bar, 1);
        if saved.is_ok() {
            self.kept.fetch_add(1, Ordering::SeqCst);
        }
        saved.map_err(|e| {
            let line = format!("{e:#}");
            if let Ok(mut failed) = self.failed.lock() {
                failed.get_or_insert(e);
            }
            line
        })
    }

    fn cancelled(&self) -> bool {
        interrupt::stop_asked()
    }
}

/// The entries of finished codes kept in `--out` under the same settings (others are
/// computed again).
pub fn read_state(out: &Path, atlas: &Atlas, global: &Global) -> anyhow::Result<Vec<Entry>> {
    let mut done = Vec::new();
    let mut stale = 0;
    for code in atlas.codes() {
        let path = out.join(STATE).join(format!("{code}.json"));
        // Only a regular file is read: a FIFO in its place would block the run.
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX_STATE) {
            continue;
        }
        let Ok(text) = std::fs::read(&path) else { continue };
        match serde_json::from_slice::<Entry>(&text) {
            Ok(entry) if atlas.accepts(&entry) && entry.code == code.to_string() => {
                done.push(entry)
            }
            _ => stale += 1,
        }
    }
    if !global.quiet && !done.is_empty() {
        output::note(&format!(
            "nimtab: resuming: {} of {} codes already done in {}",
            done.len(),
            atlas.codes().len(),
            out.join(STATE).display()
        ));
    }
    if !global.quiet && stale > 0 {
        output::note(&format!(
            "nimtab: {stale} state files in {} are of other settings and are computed again",
            out.join(STATE).display()
        ));
    }
    Ok(done)
}
