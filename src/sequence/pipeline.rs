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
//! the witnesses) are finished alone. The share of the list each thread marks is evened
//! out between segments by which of them waited more; every value is the exact mex
//! whatever the share, so the output does not depend on the threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    /// Parts the marker must have for a second thread to pay for its hand-offs.
    pub min_marker_parts: usize,
    /// Heaps a segment must have to start a marker thread for it.
    pub min_segment: u64,
}

impl Parallel {
    /// `threads` threads, a marker thread only where it pays.
    pub fn new(threads: usize) -> Parallel {
        Parallel { threads, min_marker_parts: MIN_MARKER_PARTS, min_segment: MIN_SEGMENT }
    }

    /// `threads` threads, a marker thread for every segment with any part to mark (tests
    /// use it, so that the two-thread path runs on small games).
    pub fn always(threads: usize) -> Parallel {
        Parallel { threads, min_marker_parts: 1, min_segment: 1 }
    }
}

/// The smallest part the marker marks: it then runs up to this many heaps ahead.
const MIN_LEAD: u32 = 16;
/// Parts the marker must have for a second thread to pay for its hand-offs.
const MIN_MARKER_PARTS: usize = 128;
/// Heaps a segment must have to start a marker thread for it.
const MIN_SEGMENT: u64 = 512;
/// Spins before a waiting thread yields its core.
const SPINS: u32 = 64;
/// Heaps the marker may run ahead of the finisher at most (slots of marks in flight).
const MAX_AHEAD: u64 = 255;

impl Parallel {
    /// Whether a marker thread pays for the segment to `end`.
    pub(crate) fn worth_it<C: Cell>(
        self,
        engine: &Engine<C>,
        list: &MarkList<C>,
        end: u64,
    ) -> bool {
        let first = list.a.partition_point(|&a| a < MIN_LEAD);
        self.threads >= 2
            && end.saturating_sub(engine.len) >= self.min_segment
            && list.a.len() - first >= self.min_marker_parts
    }
}

/// What the two threads share for one segment.
struct Shared {
    /// Values below it are in the ring (written by the finisher).
    done: AtomicU64,
    /// Heaps below it have their marker bits in their slot (written by the marker).
    premarked: AtomicU64,
    /// The finisher ended the segment (at its end, early, or by an error).
    stop: AtomicBool,
    /// `slots * words` bit words: heap `m`'s bits in slot `m mod slots`.
    bits: Box<[AtomicU64]>,
    slots: u64,
    words: usize,
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
        spins += 1;
        if spins < SPINS {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    };
    *waited += started.elapsed();
    ready
}

/// Heaps up to `end` with a marker thread; stops early as [`super::any_engine`]'s loop
/// does.
///
/// # Errors
/// A store's error, after the marker thread has stopped.
pub(crate) fn run_heaps<C: Cell>(
    engine: &mut Engine<C>,
    list: &MarkList<C>,
    end: u64,
    store: &mut Store,
) -> Result<Recorded, SequenceError> {
    let first = list.a.partition_point(|&a| a < MIN_LEAD);
    let share = engine.finisher_share as usize;
    let split = (list.a.len() * share / 1000).clamp(first, list.a.len());
    let smallest = u64::from(list.a[split.min(list.a.len() - 1)]);
    let lead = (smallest + engine.moves.split.first().copied().unwrap_or(0)).min(MAX_AHEAD);
    let words = (2 * engine.h as usize).div_ceil(64);
    let slots = MAX_AHEAD + 1;
    let shared = Shared {
        done: AtomicU64::new(engine.len),
        premarked: AtomicU64::new(engine.len),
        stop: AtomicBool::new(false),
        bits: (0..slots as usize * words).map(|_| AtomicU64::new(0)).collect(),
        slots,
        words,
    };
    let marker = Marker {
        moves: engine.moves.clone(),
        ring: std::sync::Arc::clone(&engine.ring),
        parts: &list.a[split..],
        values: &list.g[split..],
        width: 2 * engine.h as usize,
        lead,
    };
    let start = engine.len;
    let (result, marker_idle) = std::thread::scope(|scope| {
        let handle = scope.spawn(|| marker.run(start, end, &shared));
        let result = finish(engine, list, split, end, store, &shared);
        let finished = Instant::now();
        shared.stop.store(true, Ordering::Release);
        let (waited, done) = handle.join().unwrap_or((Duration::ZERO, finished));
        // The marker is idle while it waits and from its last heap to the finisher's.
        (result, waited + finished.saturating_duration_since(done))
    });
    let (recorded, finisher_idle) = result?;
    engine.even_out(finisher_idle, marker_idle);
    Ok(recorded)
}

/// The finisher's loop.
fn finish<C: Cell>(
    engine: &mut Engine<C>,
    list: &MarkList<C>,
    split: usize,
    end: u64,
    store: &mut Store,
    shared: &Shared,
) -> Result<(Recorded, Duration), SequenceError> {
    let mut words = Words::new();
    let mut bits = vec![0u64; shared.words];
    let mut waited = Duration::ZERO;
    while engine.len < end {
        let n = engine.len;
        let premarked = if n.is_multiple_of(SAMPLE) {
            None
        } else {
            let ready = || shared.premarked.load(Ordering::Acquire) > n;
            wait_for(ready, &shared.stop, &mut waited);
            let slot = (n % shared.slots) as usize * shared.words;
            for (word, shared) in bits.iter_mut().zip(&shared.bits[slot..slot + shared.words]) {
                *word = shared.load(Ordering::Relaxed);
            }
            Some((split, bits.as_slice()))
        };
        let value = engine.heap_value(store, list, premarked, &mut words)?;
        let recorded = engine.record(value, store)?;
        shared.done.store(engine.len, Ordering::Release);
        if recorded != Recorded::Steady {
            return Ok((recorded, waited));
        }
    }
    Ok((Recorded::Steady, waited))
}

/// The marker's part of a segment.
struct Marker<'l, C: Cell> {
    moves: Moves,
    ring: std::sync::Arc<Ring<C>>,
    parts: &'l [u32],
    values: &'l [C],
    width: usize,
    lead: u64,
}

impl<C: Cell> Marker<'_, C> {
    /// Marks heaps `start..end` (not the sampled ones) until the finisher stops; returns
    /// how long it waited, and when it was done.
    fn run(&self, start: u64, end: u64, shared: &Shared) -> (Duration, Instant) {
        let mut row = vec![0u8; self.width.max(ROW)];
        let mut words = Words::new();
        let mut waited = Duration::ZERO;
        for m in start..end {
            if m.is_multiple_of(SAMPLE) {
                continue;
            }
            // The partners of heap m are below m - lead + 1; its slot was last used by
            // heap m - slots, which the finisher has passed once done > m - slots (lead
            // is below slots).
            let ready = || shared.done.load(Ordering::Acquire) + self.lead > m;
            if !wait_for(ready, &shared.stop, &mut waited) {
                break;
            }
            row[..self.width.max(64)].fill(0);
            mark_parts(&mut row, m, &self.moves, &self.ring, self.parts, self.values);
            pack_row(&row, self.width, &mut words);
            let slot = (m % shared.slots) as usize * shared.words;
            for (shared, &word) in shared.bits[slot..slot + shared.words].iter().zip(&words) {
                shared.store(word, Ordering::Relaxed);
            }
            shared.premarked.store(m + 1, Ordering::Release);
        }
        (waited, Instant::now())
    }
}
