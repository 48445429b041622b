//! Two threads for one sequence: a *marker* marks ahead the splits of the larger parts of
//! the mark list while the calling thread (the *finisher*) marks the smaller ones, adds
//! the marker's bits and finishes each heap's mex.
//!
//! A part `a` of heap `m` pairs with heap `m - k - a`, so the marker can mark heap `m` as
//! soon as the values below `m - k_min - a_min + 1` are final, `a_min` being the smallest
//! part it marks: it runs up to `a_min + k_min` heaps ahead. The finisher publishes each
//! value by a counter (`done`, release) after writing it to the shared ring; the marker
//! publishes each heap's bits by another (`premarked`). A heap's bits are read only after
//! `premarked` passes it, and a slot is rewritten only after the finisher has passed the
//! heap that used it, so no value is read before it is final. Sampled heaps (which score
//! the witnesses) are finished alone.
//!
//! The marker thread lives for a whole call, through *stretches* of [`STRETCH`] heaps:
//! between two, the finisher rebuilds the witness list and hands the marker the new mark
//! list. The share of the list each thread marks is evened out between stretches by which
//! of them waited more; every value is the exact mex whatever the share, so the output
//! does not depend on the threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::cell::Cell;
use super::engine::{Engine, MarkList, Moves, Recorded, SAMPLE};
use super::error::SequenceError;
use super::heap::{mark_parts, pack_row, Words, ROW};
use super::ring::Ring;
use super::store::Store;

/// How many threads one sequence may use, and from what size of work a marker thread is
/// started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parallel {
    /// Threads (1: everything on the calling thread; 2 or more: a marker thread too).
    pub threads: usize,
    /// Parts the mark list must have for a second thread to pay for its hand-offs.
    pub min_marker_parts: usize,
    /// Heaps a call must have to start a marker thread for it.
    pub min_heaps: u64,
    /// Whether the marker runs where it pays or always.
    pub policy: MarkerPolicy,
}

/// When a marker thread runs, once the work is large enough for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerPolicy {
    /// When it was measured faster than one thread alone (and every eighth call the other
    /// way, to measure again).
    WhenFaster,
    /// Always (tests, so that the two-thread path runs).
    Always,
}

impl Parallel {
    /// `threads` threads, a marker thread only where it pays.
    pub fn new(threads: usize) -> Parallel {
        Parallel {
            threads,
            min_marker_parts: MIN_MARKER_PARTS,
            min_heaps: MIN_HEAPS,
            policy: MarkerPolicy::WhenFaster,
        }
    }

    /// `threads` threads, a marker thread for every call with any part to mark (tests use
    /// it, so that the two-thread path runs on small games).
    pub fn always(threads: usize) -> Parallel {
        Parallel { threads, min_marker_parts: 1, min_heaps: 1, policy: MarkerPolicy::Always }
    }
}

/// Heaps between two rebuilds of the witness list (and of the mark list).
pub(crate) const STRETCH: u64 = 4096;
/// The smallest part the marker marks: it then runs at least this many heaps ahead.
const MIN_LEAD: u32 = 64;
/// Parts the marker must have for a second thread to pay for its hand-offs.
const MIN_MARKER_PARTS: usize = 128;
/// Heaps a call must have to start a marker thread.
const MIN_HEAPS: u64 = 2 * STRETCH;
/// Heaps the marker may run ahead of the finisher at most (slots of marks in flight).
const MAX_AHEAD: u64 = 1023;
/// A waiting thread spins this many times, then yields its core for up to `YIELD_FOR`,
/// then sleeps `NAP` between looks: hand-offs come every microsecond or so while both
/// threads run, but on a machine with more runnable threads than cores the other thread
/// may be off its core for a time slice, and a waiting thread should not keep its core
/// busy (nor call the scheduler in a loop) meanwhile.
const SPINS: u32 = 1 << 10;
const YIELD_FOR: Duration = Duration::from_micros(500);
const NAP: Duration = Duration::from_micros(50);

impl Parallel {
    /// Whether a marker thread pays for the heaps up to `end`.
    pub(crate) fn worth_it<C: Cell>(self, engine: &Engine<C>, end: u64) -> bool {
        let parts = engine.parts.a.len() - engine.parts.a.partition_point(|&a| a < MIN_LEAD);
        self.threads >= 2
            && end.saturating_sub(engine.len) >= self.min_heaps
            && parts >= self.min_marker_parts
    }
}

/// The heaps `start..end` the marker marks with the parts `list[split..]`.
struct Stretch<C> {
    list: Arc<MarkList<C>>,
    split: usize,
    /// How far ahead of `done` the marker may mark: its smallest part plus `k_min`.
    lead: u64,
    start: u64,
    end: u64,
}

/// What the two threads share.
struct Shared<C> {
    /// Values below it are in the ring (written by the finisher).
    done: AtomicU64,
    /// Heaps below it have their marker bits in their slot (written by the marker).
    premarked: AtomicU64,
    /// The finisher is done (at the end, early, or by an error).
    stop: AtomicBool,
    /// `slots * words` bit words: heap `m`'s bits in slot `m mod slots`.
    bits: Box<[AtomicU64]>,
    slots: u64,
    words: usize,
    /// The stretch being handed over, and how many have been.
    next: Mutex<Option<Stretch<C>>>,
    handed: AtomicU64,
    /// Nanoseconds the marker has waited.
    marker_waited: AtomicU64,
}

/// Spin-waits until `ready()`; false if `stop` was set first. Adds the time waited to
/// `waited`.
fn wait_for(ready: impl Fn() -> bool, stop: &AtomicBool, waited: &mut Duration) -> bool {
    if ready() {
        return true;
    }
    let started = Instant::now();
    let mut spins = 0u32;
    let ready = loop {
        if ready() {
            break true;
        }
        if stop.load(Ordering::Acquire) {
            break false;
        }
        if spins < SPINS {
            spins += 1;
            std::hint::spin_loop();
        } else if started.elapsed() < YIELD_FOR {
            std::thread::yield_now();
        } else {
            std::thread::sleep(NAP);
        }
    };
    *waited += started.elapsed();
    ready
}

/// Heaps up to `end` with a marker thread, stretch by stretch; stops early after a value
/// that widens the cells or raises `h`, as the loop on one thread does.
///
/// # Errors
/// A store's error, after the marker thread has stopped.
pub(crate) fn run_heaps<C: Cell>(
    engine: &mut Engine<C>,
    end: u64,
    store: &mut Store,
) -> Result<Recorded, SequenceError> {
    let words = engine.width().div_ceil(64);
    let slots = MAX_AHEAD + 1;
    let shared = Shared {
        done: AtomicU64::new(engine.len),
        premarked: AtomicU64::new(engine.len),
        stop: AtomicBool::new(false),
        bits: (0..slots as usize * words).map(|_| AtomicU64::new(0)).collect(),
        slots,
        words,
        next: Mutex::new(None),
        handed: AtomicU64::new(0),
        marker_waited: AtomicU64::new(0),
    };
    let marker = Marker {
        moves: engine.moves.clone(),
        ring: Arc::clone(&engine.ring),
        width: engine.width(),
    };
    std::thread::scope(|scope| {
        scope.spawn(|| marker.run(&shared));
        let result = finish_stretches(engine, end, store, &shared);
        shared.stop.store(true, Ordering::Release);
        result
    })
}

/// The finisher: stretch after stretch, a new mark list handed to the marker, then the
/// stretch's heaps.
fn finish_stretches<C: Cell>(
    engine: &mut Engine<C>,
    end: u64,
    store: &mut Store,
    shared: &Shared<C>,
) -> Result<Recorded, SequenceError> {
    let mut scratch =
        Scratch { bits: vec![0u64; shared.words], words: Words::new(), waited: Duration::ZERO };
    while engine.len < end {
        engine.rebuild_witnesses(store)?;
        let list = Arc::new(engine.mark_list());
        let first = list.a.partition_point(|&a| a < MIN_LEAD).min(list.a.len());
        let share = engine.finisher_share as usize;
        let split = (list.a.len() * share / 1000).clamp(first, list.a.len());
        let smallest = list.a.get(split).map_or(MAX_AHEAD, |&a| u64::from(a));
        let k_min = engine.moves.split.first().copied().unwrap_or(0);
        let stretch_end = end.min((engine.len / STRETCH + 1) * STRETCH);
        let stretch = Stretch {
            list: Arc::clone(&list),
            split,
            lead: (smallest + k_min).min(MAX_AHEAD),
            start: engine.len,
            end: stretch_end,
        };
        *shared.next.lock().unwrap_or_else(PoisonError::into_inner) = Some(stretch);
        shared.handed.fetch_add(1, Ordering::Release);
        let marker_before = shared.marker_waited.load(Ordering::Relaxed);
        scratch.waited = Duration::ZERO;
        let recorded = finish(engine, (&list, split), stretch_end, store, shared, &mut scratch)?;
        let marker_waited = shared.marker_waited.load(Ordering::Relaxed) - marker_before;
        engine.even_out(scratch.waited, Duration::from_nanos(marker_waited));
        if recorded != Recorded::Steady {
            return Ok(recorded);
        }
    }
    Ok(Recorded::Steady)
}

/// The finisher's buffers: a heap's marker bits, its own bits, and the time it waited.
struct Scratch {
    bits: Vec<u64>,
    words: Words,
    waited: Duration,
}

/// The finisher's heaps of one stretch, whose mark list's parts from `split` on the
/// marker marks.
fn finish<C: Cell>(
    engine: &mut Engine<C>,
    (list, split): (&MarkList<C>, usize),
    end: u64,
    store: &mut Store,
    shared: &Shared<C>,
    scratch: &mut Scratch,
) -> Result<Recorded, SequenceError> {
    while engine.len < end {
        let n = engine.len;
        let premarked = if n.is_multiple_of(SAMPLE) {
            None
        } else {
            let ready = || shared.premarked.load(Ordering::Acquire) > n;
            wait_for(ready, &shared.stop, &mut scratch.waited);
            let slot = (n % shared.slots) as usize * shared.words;
            let from = &shared.bits[slot..slot + shared.words];
            for (word, shared) in scratch.bits.iter_mut().zip(from) {
                *word = shared.load(Ordering::Relaxed);
            }
            Some((split, scratch.bits.as_slice()))
        };
        let value = engine.heap_value(store, list, premarked, &mut scratch.words)?;
        let recorded = engine.record(value, store)?;
        shared.done.store(engine.len, Ordering::Release);
        if recorded != Recorded::Steady {
            return Ok(recorded);
        }
    }
    Ok(Recorded::Steady)
}

/// The marker thread.
struct Marker<C: Cell> {
    moves: Moves,
    ring: Arc<Ring<C>>,
    width: usize,
}

impl<C: Cell> Marker<C> {
    /// Marks stretch after stretch until the finisher stops.
    fn run(&self, shared: &Shared<C>) {
        let mut row = vec![0u8; self.width.max(ROW)];
        let mut words = Words::new();
        let mut taken = 0u64;
        loop {
            let mut waited = Duration::ZERO;
            let handed = || shared.handed.load(Ordering::Acquire) > taken;
            let more = wait_for(handed, &shared.stop, &mut waited);
            shared.marker_waited.fetch_add(waited.as_nanos() as u64, Ordering::Relaxed);
            if !more {
                return;
            }
            taken += 1;
            let stretch = shared.next.lock().unwrap_or_else(PoisonError::into_inner).take();
            let Some(stretch) = stretch else { return };
            if !self.mark_stretch(&stretch, shared, &mut row, &mut words) {
                return;
            }
        }
    }

    /// Marks the heaps of one stretch (not the sampled ones); false if the finisher
    /// stopped first.
    fn mark_stretch(
        &self,
        stretch: &Stretch<C>,
        shared: &Shared<C>,
        row: &mut [u8],
        words: &mut Words,
    ) -> bool {
        let list = &stretch.list;
        let parts = (&list.a[stretch.split..], &list.off[stretch.split..]);
        let values = &list.g[stretch.split..];
        let mut waited = Duration::ZERO;
        for m in stretch.start..stretch.end {
            if m.is_multiple_of(SAMPLE) {
                continue;
            }
            // The partners of heap m are below m - lead + 1; its slot was last used by
            // heap m - slots, which the finisher has passed once done > m - slots (lead
            // is below slots).
            let ready = || shared.done.load(Ordering::Acquire) + stretch.lead > m;
            let go = wait_for(ready, &shared.stop, &mut waited);
            if !go {
                return false;
            }
            row[..self.width.max(64)].fill(0);
            mark_parts(row, m, &self.moves, &self.ring, parts, values);
            pack_row(row, self.width, words);
            let slot = (m % shared.slots) as usize * shared.words;
            for (shared, &word) in shared.bits[slot..slot + shared.words].iter().zip(words.iter()) {
                shared.store(word, Ordering::Relaxed);
            }
            shared.premarked.store(m + 1, Ordering::Release);
        }
        shared.marker_waited.fetch_add(waited.as_nanos() as u64, Ordering::Relaxed);
        true
    }
}
