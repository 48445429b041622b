//! One game of a quotient sweep: its quotient computed within the game's memory and time,
//! kept as far as it got, and the status that says why it stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::quotient_rows::{HeapsReached, QuotientRow, QuotientStatus};
use crate::engine::Progress;
use crate::model::game::Game;
use crate::quotient::{compute_from, QuotientConfig, QuotientError, QuotientProgress};

/// What one attempt at a game gave.
pub(super) enum Attempt {
    /// Its row.
    Row(QuotientRow),
    /// It needed more memory than it was given, after `spent` of its time: it may run
    /// again with more.
    NeedsMore {
        /// The time the attempt took.
        spent: Duration,
    },
}

/// How one attempt runs: the quotient's bounds, the memory it may hold, the time it has
/// (`None`: no limit), and whether a memory stop is final or asks for more.
pub(super) struct Limits {
    /// The largest heap and the order bound (its memory is set per attempt).
    pub config: QuotientConfig,
    /// Bytes the attempt may hold.
    pub memory: u64,
    /// The time it may take.
    pub time: Option<Duration>,
    /// Whether a memory stop is [`Attempt::NeedsMore`] rather than a `memory` row.
    pub may_ask_more: bool,
}

/// Runs one attempt at `game` within `limits`; `None` once the sweep is cancelled.
pub(super) fn attempt(game: &Game, limits: &Limits, sweep: &dyn Progress) -> Option<Attempt> {
    if sweep.cancelled() {
        return None;
    }
    let start = Instant::now();
    let deadline = limits.time.and_then(|time| start.checked_add(time));
    let config = QuotientConfig { memory_limit: Some(limits.memory), ..limits.config.clone() };
    let progress = GameProgress::new(sweep, deadline);
    let (quotient, stop) = match compute_from(game, &config, None, &progress) {
        Ok(reached) => (reached.quotient, reached.stop),
        Err(error) => (None, Some(error)),
    };
    let status = match stop {
        None => QuotientStatus::Ok,
        Some(QuotientError::Cancelled) if sweep.cancelled() => return None,
        Some(stop) => status_of(&stop),
    };
    if status == QuotientStatus::Memory && limits.may_ask_more {
        return Some(Attempt::NeedsMore { spent: start.elapsed() });
    }
    let game = game.spec().to_string();
    let reached = quotient.as_ref().map(HeapsReached::of);
    Some(Attempt::Row(QuotientRow { game, max_heap: config.max_heap, reached, status }))
}

/// The status of a computation that `error` stopped (the caller's cancel, when the sweep
/// was not cancelled, is the game's time running out).
fn status_of(error: &QuotientError) -> QuotientStatus {
    match error {
        QuotientError::GrewPastLimit { .. } | QuotientError::CandidateTooLarge { .. } => {
            QuotientStatus::OrderBound
        }
        QuotientError::BeyondMemory { .. }
        | QuotientError::OutOfMemory { .. }
        | QuotientError::PlanBeyondMemory { .. } => QuotientStatus::Memory,
        QuotientError::Cancelled => QuotientStatus::Timeout,
        QuotientError::NotASum { .. } => QuotientStatus::NotASum,
        // The bounds were checked when the sweep was built and no checkpoint is given:
        // only a failed proof is left.
        _ => QuotientStatus::ProofFailed,
    }
}

/// A game's computation, stopped when the sweep is cancelled or the game's time is up,
/// unless every heap is done (or the whole game certified sooner): the proof that follows
/// is then let finish, so that a game whose heaps all fit its time does not lose them to
/// the last step.
struct GameProgress<'p> {
    sweep: &'p dyn Progress,
    deadline: Option<Instant>,
    every_heap_done: AtomicBool,
}

impl<'p> GameProgress<'p> {
    fn new(sweep: &'p dyn Progress, deadline: Option<Instant>) -> Self {
        GameProgress { sweep, deadline, every_heap_done: AtomicBool::new(false) }
    }
}

impl QuotientProgress for GameProgress<'_> {
    fn heap_done(&self, _heap: u32, _order: usize) {}

    fn heaps_complete(&self) {
        self.every_heap_done.store(true, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        let timed_out = !self.every_heap_done.load(Ordering::Relaxed)
            && self.deadline.is_some_and(|d| Instant::now() >= d);
        self.sweep.cancelled() || timed_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;

    #[test]
    fn a_game_stops_at_its_deadline_until_its_last_heap_is_done() {
        let past = Instant::now().checked_sub(Duration::from_millis(1));
        let progress = GameProgress::new(&NoProgress, past);
        assert!(progress.cancelled());
        progress.heap_done(11, 30);
        assert!(progress.cancelled());
        progress.heap_done(12, 34);
        progress.heaps_complete();
        assert!(!progress.cancelled(), "the proof of every heap is let finish");
        assert!(!GameProgress::new(&NoProgress, None).cancelled());
    }
}
