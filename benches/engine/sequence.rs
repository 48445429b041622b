//! One long Grundy sequence, timed as it passes each power of two: the library's
//! `Game::grundy_sequence` with values in memory (or in a file in a work directory), an
//! observer recording the wall time, CPU time and peak memory whenever the run reaches
//! `2^k` heaps (runs report at segment ends, and powers of two are segment ends).

use std::time::Instant;

use nimtab::sequence::{DiskStore, Goal, Observer, Settings, Start, Status, Store};
use nimtab::Game;

use crate::measure::{cpu_seconds, peak_rss_mib};

/// Records the times at powers of two.
struct Clock {
    started: Instant,
    cpu_before: f64,
    next: u64,
    rows: Vec<String>,
    label: String,
    /// The last status reported.
    last: Option<Status>,
}

impl Observer for Clock {
    fn progress(&mut self, status: &Status) {
        self.last = Some(*status);
        while status.heaps >= self.next {
            self.rows.push(format!(
                "{},{},{:.3},{:.3},{:.1},{},{}",
                self.label,
                self.next,
                self.started.elapsed().as_secs_f64(),
                cpu_seconds() - self.cpu_before,
                peak_rss_mib(),
                status.largest,
                status.rare_heaps.unwrap_or(0)
            ));
            self.next *= 2;
        }
    }
}

/// `sequence,CODE,THREADS,PLACE,HEAPS,SECONDS,CPU_SECONDS,PEAK_RSS_MIB,LARGEST,RARE` at every
/// power of two from `2^20` to `max` (the times from the start of the run).
pub fn measure(
    code: &str,
    max: u64,
    threads: usize,
    work_dir: Option<&str>,
) -> Result<Vec<String>, String> {
    let game = Game::octal(code).map_err(|e| e.to_string())?;
    let start = match work_dir {
        None => Start::Fresh(Store::in_memory(max + 1)),
        Some(dir) => {
            let path =
                std::path::Path::new(dir).join(format!(".bench-values-{}", std::process::id()));
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            // The file stays open while the run reads it; its name goes at once.
            std::fs::remove_file(&path).map_err(|e| e.to_string())?;
            Start::Fresh(Store::Disk(DiskStore::new(file, &path)))
        }
    };
    let settings = Settings::new(Goal::Values, max).threads(threads);
    let place = if work_dir.is_some() { "disk" } else { "memory" };
    let mut clock = Clock {
        started: Instant::now(),
        cpu_before: cpu_seconds(),
        next: 1 << 20,
        rows: Vec::new(),
        label: format!("sequence,{code},{threads},{place}"),
        last: None,
    };
    game.grundy_sequence(&settings, start, &mut clock).map_err(|e| e.to_string())?;
    // A run whose period is certified early extends its values by the period without
    // computing them: the powers it never reached take the whole run's time.
    if let Some(status) = clock.last {
        let done = Status { heaps: max + 1, ..status };
        clock.progress(&done);
    }
    Ok(clock.rows)
}
