//! How many threads one sequence may use, and when a second thread (the marker of
//! `pipeline.rs`) pays for itself.

use super::cell::Cell;
use super::engine::Engine;

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
    /// Heaps the threads hand over at once (a power of two up to 4096); the marker marks
    /// the parts of at least two blocks.
    pub block: u64,
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
            block: BLOCK,
        }
    }

    /// `threads` threads, a marker thread for every call with any part to mark, in blocks
    /// of 8 heaps (tests use it, so that the two-thread path runs on small games).
    pub fn always(threads: usize) -> Parallel {
        Parallel {
            threads,
            min_marker_parts: 1,
            min_heaps: 1,
            policy: MarkerPolicy::Always,
            block: 8,
        }
    }

    /// The smallest part the marker marks: two blocks, so that a block's partners are
    /// final while the finisher is still on the block before it.
    pub(crate) fn min_marker_part(self) -> u32 {
        (2 * self.block).min(u64::from(u32::MAX)) as u32
    }
}

/// Heaps between two rebuilds of the witness list (and of the mark list): whole blocks.
pub(crate) const STRETCH: u64 = 4096;
/// Heaps the threads hand over at once, by default.
const BLOCK: u64 = 256;
/// Parts the marker must have for a second thread to pay for its hand-offs.
const MIN_MARKER_PARTS: usize = 128;
/// Heaps a call must have to start a marker thread.
const MIN_HEAPS: u64 = 2 * STRETCH;

impl Parallel {
    /// Whether a marker thread pays for the heaps up to `end`.
    pub(crate) fn worth_it<C: Cell>(self, engine: &Engine<C>, end: u64) -> bool {
        let smallest = self.min_marker_part();
        let parts = engine.parts.a.len() - engine.parts.a.partition_point(|&a| a < smallest);
        self.threads >= 2
            && end.saturating_sub(engine.len) >= self.min_heaps
            && parts >= self.min_marker_parts
    }
}
