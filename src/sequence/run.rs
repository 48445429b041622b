//! The run: heaps in segments, and between segments what the values ask for (a wider
//! engine, a new mask, a period check, progress, a checkpoint).
//!
//! Segments end at every point whose work depends on the values so far: powers of two
//! (the mask is chosen again), the period checks, a value that widens the cells or raises
//! `h`. A checkpoint is written only between segments, after the store is durable.

use std::time::{Duration, Instant};

use super::any_engine::AnyEngine;
use super::checkpoint::Checkpoint;
use super::engine::mask::fewest_rare_mask;
use super::engine::{Moves, Recorded, RingLimit, Tallies};
use super::error::SequenceError;
use super::freq::Frequencies;
use super::period::{find_period, find_period_by, Certificate, PeriodOutcome, Periodicity};
use super::rule::HeapRule;
use super::sequence_values::{Extension, Sequence};
use super::three_heap_checkpoint::ThreeHeapCheckpoint;
use super::two_threads::parallel::Tuning;
use super::values::disk_store::DiskStore;
use super::values::store::Store;

/// Heaps of one segment at most: progress is reported and a checkpoint may be written
/// between segments (the witness list is rebuilt more often, by stretches).
const SEGMENT: u64 = 1 << 14;
/// The first mask choice; then at every power of two.
const FIRST_MASK_CHOICE: u64 = 64;
/// The first period check; then every eighth more heaps.
const FIRST_PERIOD_CHECK: u64 = 256;
/// A run of every value looks for a period (to extend the values by it) only this far:
/// the periods that save time are found early, and a check holds 2 bytes a value
/// (8 MiB here), which a run with its values on disk must not grow with its size.
pub const PERIOD_EXTENSION_LIMIT: u64 = 1 << 22;

/// What a run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Every value to the max; once a period is certified the rest repeat it.
    Values,
    /// A certified period: stop at the first heap where a certificate's window fits, or
    /// at the max.
    Period,
}

/// Values the window of recent values may hold: `2^22` (8 MiB of two-byte cells).
pub const RING_LIMIT: u64 = 1 << 22;

/// How a run goes.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// What the run is for.
    pub goal: Goal,
    /// The largest heap size.
    pub max: u64,
    /// Threads for the one sequence (from 2, a marker thread where it pays).
    pub threads: usize,
    /// The two-thread path's tuning.
    pub tuning: Tuning,
    /// Write a checkpoint at least this often (only with the values in a file).
    pub checkpoint_every: Option<Duration>,
    /// Values the window of recent values may hold (it holds the partners of the rare
    /// heaps; rare heaps beyond it are read from the store).
    pub ring_limit: u64,
}

impl Settings {
    /// A run for `goal` up to heap `max` on every thread of the current pool, without
    /// checkpoints, with the window of [`RING_LIMIT`] values; the methods
    /// below change one of these.
    pub fn new(goal: Goal, max: u64) -> Settings {
        Settings {
            goal,
            max,
            threads: rayon::current_num_threads(),
            tuning: Tuning::default(),
            checkpoint_every: None,
            ring_limit: RING_LIMIT,
        }
    }

    /// On `threads` threads (the two-thread path from two).
    pub fn threads(self, threads: usize) -> Settings {
        Settings { threads, ..self }
    }

    /// With the two-thread path tuned by `tuning`.
    pub fn tuning(self, tuning: Tuning) -> Settings {
        Settings { tuning, ..self }
    }

    /// With a checkpoint at least every `every` (the values in a file).
    pub fn checkpoint_every(self, every: Option<Duration>) -> Settings {
        Settings { checkpoint_every: every, ..self }
    }

    /// With a window of at most `values` recent values.
    pub fn ring_limit(self, values: u64) -> Settings {
        Settings { ring_limit: values, ..self }
    }
}

/// Where a run stands, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Values computed (heaps `0..heaps`).
    pub heaps: u64,
    /// Values the run computes at most (`max + 1`).
    pub target: u64,
    /// The largest value so far.
    pub largest: u32,
    /// Rare heaps under the current mask (`None`: a run without the rare/common split).
    pub rare_heaps: Option<u64>,
}

/// What a run reports to, and hands its checkpoints to.
pub trait Observer {
    /// Called between segments (every few thousand heaps).
    fn progress(&mut self, _status: &Status) {}
    /// Keeps `checkpoint` (the bytes of a checkpoint file) somewhere durable, replacing
    /// the previous one only once it is complete.
    ///
    /// # Errors
    /// The write's error: the run stops with it, and the previous checkpoint stays.
    fn save_checkpoint(&mut self, _checkpoint: &[u8]) -> Result<(), SequenceError> {
        Ok(())
    }
    /// Whether the caller asks the run to stop, polled between segments: the run then
    /// saves a checkpoint (when it writes them) and ends with
    /// [`SequenceError::Cancelled`]. Never, by default.
    fn cancelled(&self) -> bool {
        false
    }
    /// Whether a period search should end now with the values computed so far, polled
    /// between segments: it then checks those values and returns its outcome, as at the
    /// max (a time budget: the values computed depend on when it says so). A run of every
    /// value ignores it. Never, by default.
    fn stop_here(&self) -> bool {
        false
    }
}

/// An observer that ignores everything.
#[derive(Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// Where a run starts.
#[derive(Debug)]
pub enum Start {
    /// From heap 0, with the values going to an empty store.
    Fresh(Store),
    /// From a checkpoint, with its values file (checked against it) as the store.
    Resume(Box<Checkpoint>, DiskStore),
    /// From a checkpoint of a game with three-heap moves, which holds its values
    /// (`crate::sequence::ThreeHeapCheckpoint`); [`run`] refuses it.
    Continue(Box<ThreeHeapCheckpoint>),
}

/// The state a run carries between segments.
struct Run<'o> {
    game: String,
    rule: HeapRule,
    settings: Settings,
    certificate: Option<Certificate>,
    store: Store,
    engine: AnyEngine,
    next_mask_choice: u64,
    next_period_check: u64,
    last_checkpoint: Instant,
    observer: &'o mut dyn Observer,
}

/// Computes the Grundy values of `rule` (the game `game`) to `settings.max`.
///
/// # Errors
/// A store's read or write error, or the observer's checkpoint error.
pub fn run(
    rule: &HeapRule,
    game: &str,
    settings: &Settings,
    start: Start,
    observer: &mut dyn Observer,
) -> Result<Sequence, SequenceError> {
    let moves = Moves::of(rule);
    let ring_limit = RingLimit(settings.ring_limit);
    let (mut store, tallies, period) = match start {
        Start::Fresh(store) => {
            (store, Tallies { mask: u32::MAX, rare: Vec::new(), freq: Frequencies::new() }, None)
        }
        Start::Resume(checkpoint, disk) => {
            let c = *checkpoint;
            let tallies = Tallies { mask: c.mask, rare: c.rare, freq: c.frequencies };
            (Store::Disk(disk), tallies, c.period)
        }
        Start::Continue(checkpoint) => {
            return Err(SequenceError::Unsupported(format!(
                "a checkpoint of {}, a game with three-heap moves, cannot continue {game}",
                checkpoint.game
            )));
        }
    };
    let certificate = Certificate::for_rule(rule);
    if let Some(found) = period {
        return finished_with(store, settings, found, certificate);
    }
    let engine = AnyEngine::resume(moves.clone(), &mut store, tallies, ring_limit)?;
    let len = engine.len();
    let mut run = Run {
        game: game.to_string(),
        rule: rule.clone(),
        settings: *settings,
        certificate,
        store,
        engine,
        next_mask_choice: FIRST_MASK_CHOICE.max((len + 1).next_power_of_two()),
        next_period_check: next_period_check(len, settings.goal),
        last_checkpoint: Instant::now(),
        observer,
    };
    let period = run.heaps()?;
    run.checkpoint(period.as_ref())?;
    let extension = match period {
        Some(PeriodOutcome::Certified(found)) if settings.goal == Goal::Values => {
            Extension::Periodic(found)
        }
        _ => Extension::None,
    };
    Ok(Sequence::new(run.store, extension, settings.max, period))
}

/// The sequence of a run resumed after its period was certified.
fn finished_with(
    mut store: Store,
    settings: &Settings,
    found: Periodicity,
    certificate: Option<Certificate>,
) -> Result<Sequence, SequenceError> {
    let outcome = if found.checked_through <= settings.max {
        PeriodOutcome::Certified(found)
    } else {
        let len = (settings.max + 1).min(store.len());
        check_period(&mut store, certificate, len)?
    };
    let extension = match settings.goal {
        Goal::Values => Extension::Periodic(found),
        Goal::Period => Extension::None,
    };
    Ok(Sequence::new(store, extension, settings.max, Some(outcome)))
}

/// Whether a period search checks for a period once it has `len` values (whatever its
/// max): a search certified there stops there.
pub fn is_period_check_point(len: u64) -> bool {
    next_period_check(len.saturating_sub(1), Goal::Period) == len
}

/// The first period check after `len` values: 256, then every eighth more heaps for a
/// period search (it stops at most an eighth past the first fit), at powers of two for a
/// run of every value (there a check only saves time).
fn next_period_check(len: u64, goal: Goal) -> u64 {
    let mut check = FIRST_PERIOD_CHECK;
    while check <= len {
        check += match goal {
            Goal::Period => (check / 8).max(FIRST_PERIOD_CHECK),
            Goal::Values => check,
        };
    }
    check
}

/// The period search over the first `len` values of `store`. Values in memory are read
/// once into a vector of two-byte cells (when they fit: the search then reads them
/// directly); values on disk are read through the store's pages, so that the memory of a
/// check stays its Z-function's.
fn check_period(
    store: &mut Store,
    certificate: Option<Certificate>,
    len: u64,
) -> Result<PeriodOutcome, SequenceError> {
    let mut largest = 0;
    store.for_each(0, len, &mut |_, v| largest = largest.max(v))?;
    if matches!(store, Store::Memory(_)) && largest <= u32::from(u16::MAX) {
        let mut values: Vec<u16> = Vec::with_capacity(len as usize);
        store.for_each(0, len, &mut |_, v| values.push(v as u16))?;
        return Ok(find_period(certificate, &values));
    }
    let mut failure = None;
    let outcome = find_period_by(certificate, len, u64::from(largest), |n| match store.get(n) {
        Ok(v) => v,
        Err(e) => {
            failure.get_or_insert(e);
            0
        }
    });
    failure.map_or(Ok(outcome), Err)
}

impl Run<'_> {
    /// Computes segment after segment; the period outcome for [`Goal::Period`], or a
    /// certified period that ends a [`Goal::Values`] run early.
    fn heaps(&mut self) -> Result<Option<PeriodOutcome>, SequenceError> {
        let target = self.settings.max + 1;
        let mut last_check = None;
        while self.engine.len() < target {
            let end = self.segment_end(target);
            let recorded = self.engine.run_to(
                end,
                &mut self.store,
                self.settings.threads,
                self.settings.tuning,
            )?;
            self.after_segment(recorded)?;
            if self.engine.len() == self.next_period_check {
                self.next_period_check = next_period_check(self.engine.len(), self.settings.goal);
                let outcome = check_period(&mut self.store, self.certificate, self.engine.len())?;
                if matches!(outcome, PeriodOutcome::Certified(_)) {
                    return Ok(Some(outcome));
                }
                last_check = Some((self.engine.len(), outcome));
            }
            self.report();
            if self.observer.cancelled() {
                // Nothing computed is lost: a run with checkpoints saves one first.
                self.checkpoint(None)?;
                return Err(SequenceError::Cancelled);
            }
            if self.checkpoint_due() {
                self.checkpoint(None)?;
            }
            if self.settings.goal == Goal::Period && self.observer.stop_here() {
                break;
            }
        }
        let len = self.engine.len();
        match (self.settings.goal, last_check) {
            (Goal::Values, _) => Ok(None),
            (Goal::Period, Some((checked, outcome))) if checked == len => Ok(Some(outcome)),
            (Goal::Period, _) => Ok(Some(check_period(&mut self.store, self.certificate, len)?)),
        }
    }

    /// The end of the next segment: at most `SEGMENT` heaps, stopping at the next mask
    /// choice, the next period check (if one is due) and the target.
    fn segment_end(&self, target: u64) -> u64 {
        let len = self.engine.len();
        let mut end = (len + SEGMENT).min(target).min(self.next_mask_choice);
        if self.period_checks_due() {
            end = end.min(self.next_period_check);
        }
        end
    }

    /// Whether the next period check is worth making.
    fn period_checks_due(&self) -> bool {
        self.certificate.is_some()
            && match self.settings.goal {
                Goal::Period => true,
                Goal::Values => {
                    self.next_period_check <= PERIOD_EXTENSION_LIMIT
                        && self.next_period_check <= self.settings.max
                }
            }
    }

    /// A wider engine, a new mask or a larger ring, as the segment's last value asks.
    fn after_segment(&mut self, recorded: Recorded) -> Result<(), SequenceError> {
        let limit = RingLimit(self.settings.ring_limit);
        if recorded == Recorded::Widen || self.engine.ring_too_small(limit) {
            self.engine = self.engine.rebuilt(&mut self.store, limit)?;
        }
        let len = self.engine.len();
        let choose = recorded != Recorded::Steady || len == self.next_mask_choice;
        if len == self.next_mask_choice {
            self.next_mask_choice *= 2;
        }
        if choose {
            let (_, _, freq) = self.engine.tallies();
            let mask = fewest_rare_mask(freq.counts());
            self.engine.set_mask(mask, &mut self.store)?;
            if self.engine.ring_too_small(limit) {
                self.engine = self.engine.rebuilt(&mut self.store, limit)?;
            }
        }
        if !self.period_checks_due() && self.next_period_check <= len {
            self.next_period_check = next_period_check(len, self.settings.goal);
        }
        Ok(())
    }

    fn report(&mut self) {
        let (_, rare, freq) = self.engine.tallies();
        let status = Status {
            heaps: self.engine.len(),
            target: self.settings.max + 1,
            largest: freq.largest(),
            rare_heaps: Some(rare.len() as u64),
        };
        self.observer.progress(&status);
    }

    fn checkpoint_due(&self) -> bool {
        self.settings.checkpoint_every.is_some_and(|every| self.last_checkpoint.elapsed() >= every)
    }

    /// Makes the store durable and hands the observer a checkpoint of the state now.
    fn checkpoint(&mut self, period: Option<&PeriodOutcome>) -> Result<(), SequenceError> {
        let Store::Disk(disk) = &mut self.store else { return Ok(()) };
        if self.settings.checkpoint_every.is_none() {
            return Ok(());
        }
        let values_sha256 = disk.make_durable()?;
        let (mask, rare, freq) = self.engine.tallies();
        let checkpoint = Checkpoint {
            game: self.game.clone(),
            rule: self.rule.clone(),
            values_path: disk.path().to_path_buf(),
            layout: disk.layout().clone(),
            values_sha256,
            mask,
            rare: rare.to_vec(),
            frequencies: freq.clone(),
            period: match period {
                Some(PeriodOutcome::Certified(found)) => Some(*found),
                _ => None,
            },
        };
        self.observer.save_checkpoint(&checkpoint.encode())?;
        self.last_checkpoint = Instant::now();
        Ok(())
    }
}

/// `G(0..=max)` of `rule` in memory, on the calling thread.
///
/// # Panics
/// Never in practice: a store in memory does not fail.
pub fn values_in_memory(rule: &HeapRule, max: u64) -> Vec<u32> {
    let settings = Settings::new(Goal::Values, max).threads(1);
    let start = Start::Fresh(Store::in_memory(max + 1));
    let mut sequence =
        run(rule, "", &settings, start, &mut NoObserver).expect("memory stores do not fail");
    let mut values = Vec::with_capacity(max as usize + 1);
    sequence
        .for_each(0..=max, &mut |_, v| values.push(v as u32))
        .expect("memory stores do not fail");
    values
}
