//! The Grundy sequence of a game with three-heap moves as a run: in memory, one heap at a
//! time, with progress, checkpoints holding its values, cancelling, and a period search
//! that doubles the heaps it checks.

use std::time::{Duration, Instant};

use super::error::SequenceError;
use super::period::{find_three_heap_period, PeriodOutcome};
use super::run::{Goal, Observer, Settings, Start, Status};
use super::sequence_values::{Extension, Sequence};
use super::three_heap_checkpoint::ThreeHeapCheckpoint;
use super::three_heaps::{ThreeHeapRule, ThreeHeapValues};
use super::values::store::Store;

/// Progress is reported at most this often (a heap of `2^16` takes a while, one of 100
/// hardly any time).
const PROGRESS_EVERY: Duration = Duration::from_millis(200);
/// A period search first checks this many heaps, then twice as many each time.
const FIRST_PERIOD_CHECK: u64 = 64;

/// `G(0..=settings.max)` of `rule` (the game `game`), from `start`: a fresh start, or
/// [`Start::Continue`] with the values of a checkpoint, which the run goes on from as if
/// never stopped. Checkpoints go to `observer` at least every `settings.checkpoint_every`
/// (after a heap; after every heap at 0) and once more at the end.
///
/// A period search ([`Goal::Period`]) checks `G(0..=64)`, `G(0..=128)`, … up to
/// `settings.max` and stops at the first certified: the same heaps whether or not the run
/// was resumed, so its outcome is that of a run never stopped. It also ends, with the
/// values computed so far, when the observer says [`Observer::stop_here`].
///
/// # Errors
/// [`SequenceError::Cancelled`] when the observer cancels (after a last checkpoint),
/// the observer's checkpoint error, and [`SequenceError::Unsupported`] for a checkpoint
/// of the sequence engine.
pub fn run_three_heaps(
    rule: &ThreeHeapRule,
    game: &str,
    settings: &Settings,
    start: Start,
    observer: &mut dyn Observer,
) -> Result<Sequence, SequenceError> {
    let values = match start {
        Start::Fresh(_) => Vec::new(),
        Start::Continue(checkpoint) => checkpoint.values,
        Start::Resume(..) => {
            return Err(SequenceError::Unsupported(format!(
                "a checkpoint of the sequence engine cannot continue {game}, a game with \
                 three-heap moves"
            )));
        }
    };
    let max = settings.max;
    let period_search = settings.goal == Goal::Period;
    let mut run = ThreeHeapRun {
        game,
        settings,
        observer,
        values: ThreeHeapValues::resume(rule, values),
        last_checkpoint: Instant::now(),
        last_progress: Instant::now(),
    };
    let mut reach = if period_search { max.min(FIRST_PERIOD_CHECK) } else { max };
    loop {
        let stopped = run.compute_through(reach, period_search)?;
        // A stop before heap 0 still leaves G(0): a sequence holds at least one value.
        if run.values.is_empty() {
            run.values.push_next();
        }
        let computed = run.values.values();
        let values = &computed[..computed.len().min(reach as usize + 1)];
        let period = period_search.then(|| find_three_heap_period(rule, values));
        let certified = matches!(period, Some(PeriodOutcome::Certified(_)));
        if certified || stopped || reach >= max {
            let store = Store::from_values(values)?;
            run.checkpoint()?;
            return Ok(Sequence::new(store, Extension::None, reach, period));
        }
        reach = reach.saturating_mul(2).min(max);
    }
}

/// A run under way.
struct ThreeHeapRun<'a, 'r> {
    game: &'a str,
    settings: &'a Settings,
    observer: &'a mut dyn Observer,
    values: ThreeHeapValues<'r>,
    last_checkpoint: Instant,
    last_progress: Instant,
}

impl ThreeHeapRun<'_, '_> {
    /// Computes the values up to heap `reach` (none if they are), asking the observer
    /// before each heap whether to cancel and, in a period search, whether to stop here
    /// (then `true`).
    fn compute_through(&mut self, reach: u64, period_search: bool) -> Result<bool, SequenceError> {
        while (self.values.len() as u64) <= reach {
            if self.observer.cancelled() {
                // Nothing computed is lost: a run with checkpoints saves one first.
                self.checkpoint()?;
                return Err(SequenceError::Cancelled);
            }
            if period_search && self.observer.stop_here() {
                return Ok(true);
            }
            self.values.push_next();
            if self.last_progress.elapsed() >= PROGRESS_EVERY || self.values.len() as u64 > reach {
                self.progress();
            }
            if self.settings.checkpoint_every.is_some_and(|e| self.last_checkpoint.elapsed() >= e) {
                self.checkpoint()?;
            }
        }
        Ok(false)
    }

    fn progress(&mut self) {
        let status = Status {
            heaps: self.values.len() as u64,
            target: self.settings.max + 1,
            largest: self.values.largest(),
            rare_heaps: None,
        };
        self.observer.progress(&status);
        self.last_progress = Instant::now();
    }

    /// Hands the observer a checkpoint of every value computed, if the run writes them
    /// and has one.
    fn checkpoint(&mut self) -> Result<(), SequenceError> {
        if self.settings.checkpoint_every.is_none() || self.values.is_empty() {
            return Ok(());
        }
        let checkpoint = ThreeHeapCheckpoint {
            game: self.game.to_string(),
            rule: self.values.rule().clone(),
            values: self.values.values().to_vec(),
        };
        self.observer.save_checkpoint(&checkpoint.encode())?;
        self.last_checkpoint = Instant::now();
        Ok(())
    }
}
