//! Two threads for one sequence: a *marker* marks ahead, a group of sixteen heaps at a
//! time where it can (`group.rs`), the splits of the larger parts of the mark list while
//! the calling thread (the *finisher*) marks the smaller ones, adds the marker's bits and
//! finishes each heap's mex.
//!
//! A part `a` of heap `m` pairs with heap `m - k - a`; the marker marks only parts of at
//! least [`AHEAD`] + 1 blocks (`Tuning::block` heaps), so every partner of a heap of
//! block `b` lies below the start of block `b - AHEAD`: the marker marks block `b` once
//! the finisher has finished block `b - AHEAD - 1`, up to [`AHEAD`] blocks ahead of it. The
//! finisher tells the marker the blocks it has finished under a mutex (a waiting marker
//! sleeps on a condition variable), once a block.
//!
//! Who marks each heap is settled by two counters (`claims.rs`): the marker claims the
//! heaps one by one, before marking them (a group of them at once where it can), and
//! publishes their bits in a window of [`AHEAD`] + 1 blocks; the finisher takes a heap the
//! marker has not claimed, and then the rest of its block too, and marks the whole list
//! for them itself (for a heap the marker is marking it waits: one group's marking at
//! most). So neither thread waits for the other's whole block, and the work divides
//! itself: when the marker falls behind, the finisher takes heaps off it; when it runs
//! ahead, it waits at the lead's end. Sampled heaps (which score the witnesses) are
//! finished alone, and so is the first block of a call, while the marker starts on the
//! next ones. Every value is the exact mex whoever marks it, so the output does not depend
//! on the threads.
//!
//! The marker thread lives for a whole call, through *stretches* of [`STRETCH`] heaps:
//! when the finisher is [`AHEAD`] blocks from a stretch's end, it rebuilds the witness list
//! and hands the marker the next stretch's mark list, so that the marker goes on into the
//! next stretch meanwhile.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::sequence::engine::heap::{mark_parts, pack_row, Words};
use crate::sequence::engine::ring::Ring;
use crate::sequence::engine::{Engine, MarkList, Moves, Recorded, ROW, SAMPLE, STRETCH};
use crate::sequence::error::SequenceError;
use crate::sequence::two_threads::claims::{Claims, Taker};
use crate::sequence::two_threads::group::{groupable, mark_group, GroupRows, GROUP};
use crate::sequence::two_threads::parallel::{Tuning, AHEAD};
use crate::sequence::values::cell::Cell;
use crate::sequence::values::store::Store;

#[cfg(test)]
thread_local! {
    /// Tests only: the marker of a call made from this thread panics at the first heap it
    /// comes to at or above this one (a fault that must end the call with the marker's
    /// panic, not leave the finisher waiting for a heap that never comes).
    pub(super) static MARKER_PANICS_AT: std::cell::Cell<Option<u64>> =
        const { std::cell::Cell::new(None) };
    /// Tests only: the marker of a call made from this thread is refused its thread, as
    /// the system refuses one without memory for its stack.
    pub(super) static MARKER_REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The heaps `start..end` the marker marks with the parts `list[split..]`.
struct Stretch<C> {
    list: Arc<MarkList<C>>,
    split: usize,
    start: u64,
    end: u64,
}

/// What the threads tell each other, under the mutex.
struct Hand<C> {
    /// Values below it are final (in the ring).
    done: u64,
    /// One thread is gone: the finisher at the end, early (a value that asks the run
    /// for more), by an error or a panic; the marker by a panic (the finisher then ends
    /// the call, and `run_heaps` raises the marker's panic).
    stop: bool,
    /// Stretches handed over and not yet taken.
    stretches: VecDeque<Stretch<C>>,
}

/// What the two threads share.
struct Shared<C> {
    hand: Mutex<Hand<C>>,
    changed: Condvar,
    /// Who marks each heap, and the marker's bits in a window of [`AHEAD`] + 1 blocks.
    claims: Claims,
    /// Heaps a block.
    block: u64,
}

impl<C> Shared<C> {
    /// The shared state of a call from heap `first` whose marker starts at `marker_from`,
    /// `words` bit words a heap; the finisher's view of the claims.
    fn new(first: u64, marker_from: u64, block: u64, words: usize) -> (Self, Taker) {
        let (claims, taker) = Claims::new(marker_from, (AHEAD + 1) * block, words);
        let shared = Shared {
            hand: Mutex::new(Hand { done: first, stop: false, stretches: VecDeque::new() }),
            changed: Condvar::new(),
            claims,
            block,
        };
        (shared, taker)
    }

    fn lock(&self) -> MutexGuard<'_, Hand<C>> {
        self.hand.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sleeps until `ready` holds (the hand, locked) or the other thread stopped (`None`).
    fn wait_until(&self, ready: impl Fn(&Hand<C>) -> bool) -> Option<MutexGuard<'_, Hand<C>>> {
        let mut hand = self.lock();
        while !ready(&hand) && !hand.stop {
            hand = self.changed.wait(hand).unwrap_or_else(PoisonError::into_inner);
        }
        (!hand.stop && ready(&hand)).then_some(hand)
    }

    /// Changes the hand and wakes the other thread.
    fn update(&self, change: impl FnOnce(&mut Hand<C>)) {
        change(&mut self.lock());
        self.changed.notify_all();
    }

    /// The start of the block that holds heap `n`.
    fn block_start(&self, n: u64) -> u64 {
        n / self.block * self.block
    }
}

/// Tells the other thread to stop waiting when one thread leaves, however it leaves (a
/// panic included: the other must not sleep forever while the scope waits for it).
struct StopOnDrop<'a, C>(&'a Shared<C>);

impl<C> Drop for StopOnDrop<'_, C> {
    fn drop(&mut self) {
        self.0.claims.stop();
        self.0.update(|hand| hand.stop = true);
    }
}

/// Heaps up to `end` with a marker thread, stretch by stretch; stops early after a value
/// that widens the cells or raises `h`, as the loop on one thread does.
///
/// # Errors
/// A store's error, after the marker thread has stopped;
/// [`SequenceError::ThreadNotStarted`] if the system will not start the marker's thread.
pub(crate) fn run_heaps<C: Cell>(
    engine: &mut Engine<C>,
    end: u64,
    store: &mut Store,
    tuning: Tuning,
) -> Result<Recorded, SequenceError> {
    let block = tuning.block_len();
    // The finisher finishes the call's first block alone, while the marker starts on the
    // next ones.
    let alone_until = (engine.len / block * block + block).min(end);
    let (shared, taker) = Shared::new(engine.len, alone_until, block, words_of(engine.width()));
    let marker = Marker {
        moves: engine.moves.clone(),
        ring: Arc::clone(&engine.ring),
        width: engine.width(),
        #[cfg(test)]
        panics_at: MARKER_PANICS_AT.with(std::cell::Cell::get),
    };
    std::thread::scope(|scope| {
        #[cfg(test)]
        if MARKER_REFUSED.with(std::cell::Cell::get) {
            return Err(SequenceError::ThreadNotStarted(std::io::ErrorKind::WouldBlock.into()));
        }
        let marker = crate::host::worker_thread()
            .spawn_scoped(scope, || marker.run(&shared))
            .map_err(SequenceError::ThreadNotStarted)?;
        let stop = StopOnDrop(&shared);
        let finisher = Finisher {
            engine,
            end,
            shared: &shared,
            alone_until,
            min_marker_part: tuning.min_marker_part(),
            taker,
            words: Words::new(),
        };
        let finished = finisher.run(store);
        drop(stop);
        // The marker's own panic goes on up, rather than the scope's "a scoped thread
        // panicked", so that its message names what failed.
        if let Err(panic) = marker.join() {
            std::panic::resume_unwind(panic);
        }
        finished
    })
}

/// The calling thread's side: the stretches' mark lists, the heaps' mex, the records.
struct Finisher<'a, C: Cell> {
    engine: &'a mut Engine<C>,
    end: u64,
    shared: &'a Shared<C>,
    /// The end of the call's first block, which the finisher finishes alone.
    alone_until: u64,
    /// The smallest part the marker may mark.
    min_marker_part: u32,
    /// What the finisher knows of the marker's claims.
    taker: Taker,
    words: Words,
}

/// A stretch's mark list and the parts of it the finisher marks for every heap: those
/// below the smallest part the marker may mark.
struct Marking<C> {
    list: Arc<MarkList<C>>,
    split: usize,
    /// The witness probes the list was made with.
    probes: Vec<(u32, u32)>,
}

impl<'a, C: Cell> Finisher<'a, C> {
    /// Stretch after stretch until `end` or a value that asks the run for more.
    fn run(mut self, store: &mut Store) -> Result<Recorded, SequenceError> {
        let first_end = self.stretch_end(self.engine.len);
        let mut marking = self.next_marking(store, self.alone_until.min(first_end), first_end)?;
        self.engine.probes = std::mem::take(&mut marking.probes);
        while self.engine.len < self.end {
            let stretch_end = self.stretch_end(self.engine.len);
            let mut next = None;
            let hand_next_at = stretch_end.saturating_sub(AHEAD * self.shared.block);
            while self.engine.len < stretch_end {
                let start = self.shared.block_start(self.engine.len);
                let block_end = (start + self.shared.block).min(stretch_end);
                if next.is_none() && self.engine.len >= hand_next_at && stretch_end < self.end {
                    let next_end = self.stretch_end(stretch_end);
                    next = Some(self.next_marking(store, stretch_end, next_end)?);
                }
                let Some(recorded) = self.finish_block(&marking, block_end, store)? else {
                    // The marker panicked: the call ends here and `run_heaps` raises its panic.
                    return Ok(Recorded::Steady);
                };
                if recorded != Recorded::Steady {
                    return Ok(recorded);
                }
            }
            if let Some(next) = next {
                marking = next;
                self.engine.probes = std::mem::take(&mut marking.probes);
            }
        }
        Ok(Recorded::Steady)
    }

    /// The end of the stretch that holds heap `n`.
    fn stretch_end(&self, n: u64) -> u64 {
        self.end.min((n / STRETCH + 1) * STRETCH)
    }

    /// Rebuilds the witness list, makes the mark list of a stretch and hands the marker the
    /// parts it may mark for the heaps `start..end`; the probes the heaps before `start`
    /// use stay until the caller installs the new ones.
    fn next_marking(
        &mut self,
        store: &mut Store,
        start: u64,
        end: u64,
    ) -> Result<Marking<C>, SequenceError> {
        let before = std::mem::take(&mut self.engine.probes);
        self.engine.rebuild_witnesses(store)?;
        let list = Arc::new(self.engine.mark_list());
        let probes = std::mem::replace(&mut self.engine.probes, before);
        // The marker gets every part it may mark: the heaps the finisher takes off it
        // divide the work, whatever the share.
        let split = list.a.partition_point(|&a| a < self.min_marker_part);
        let stretch = Stretch { list: Arc::clone(&list), split, start, end };
        self.shared.update(|hand| hand.stretches.push_back(stretch));
        Ok(Marking { list, split, probes })
    }

    /// The heaps up to `block_end` (within one block), with the marker's bits of the heaps
    /// it marked; `None` if the marker stopped (it panicked).
    fn finish_block(
        &mut self,
        marking: &Marking<C>,
        block_end: u64,
        store: &mut Store,
    ) -> Result<Option<Recorded>, SequenceError> {
        let (shared, split, taker) = (self.shared, marking.split, &mut self.taker);
        let premarked = |n: u64, bits: &mut Words| {
            // A sampled heap marks its rare parts itself: the marker skips it. The heaps of
            // the call's first block are the finisher's: the marker starts after them.
            let marked = !n.is_multiple_of(SAMPLE) && shared.claims.take(taker, n, block_end, bits);
            marked.then_some(split)
        };
        let recorded =
            self.engine.heaps_until(block_end, store, &marking.list, premarked, &mut self.words);
        if shared.claims.stopped() {
            return Ok(None);
        }
        // A value that asks the run for more (a wider cell, a larger `h`) ends the call:
        // the marker is stopped in the same step, before it could read that value.
        let (done, steady) = (self.engine.len, matches!(recorded, Ok(Recorded::Steady)));
        shared.update(|hand| {
            hand.done = done;
            hand.stop |= !steady;
        });
        recorded.map(Some)
    }
}

/// The marker thread.
struct Marker<C: Cell> {
    moves: Moves,
    ring: Arc<Ring<C>>,
    width: usize,
    #[cfg(test)]
    panics_at: Option<u64>,
}

impl<C: Cell> Marker<C> {
    /// Marks stretch after stretch until the finisher stops.
    fn run(&self, shared: &Shared<C>) {
        let _stop = StopOnDrop(shared);
        let mut row = vec![0u8; self.width.max(ROW)];
        let mut group_rows = GroupRows::new();
        let mut words = Words::new();
        loop {
            let handed = |hand: &Hand<C>| !hand.stretches.is_empty();
            let Some(mut hand) = shared.wait_until(handed) else { return };
            let stretch = hand.stretches.pop_front().expect("a stretch was handed");
            drop(hand);
            if !self.mark_stretch(&stretch, shared, (&mut row, &mut group_rows), &mut words) {
                return;
            }
        }
    }

    /// Marks the heaps of one stretch (not the sampled ones, nor those the finisher
    /// took), block by block, a group of [`GROUP`] heaps at once where it can
    /// (`group.rs`), one by one elsewhere; false if the finisher stopped first.
    fn mark_stretch(
        &self,
        stretch: &Stretch<C>,
        shared: &Shared<C>,
        (row, group_rows): (&mut [u8], &mut GroupRows),
        words: &mut Words,
    ) -> bool {
        let list = &stretch.list;
        let parts = (&list.a[stretch.split..], &list.off[stretch.split..]);
        let values = &list.g[stretch.split..];
        let mut m = stretch.start;
        while m < stretch.end {
            let block_end = (shared.block_start(m) + shared.block).min(stretch.end);
            // Every partner lies below the start of the block [`AHEAD`] blocks back, where the
            // finisher has passed; so does heap `m - window`, the last to hold `m`'s slot.
            let needed = shared.block_start(m).saturating_sub(AHEAD * shared.block);
            if shared.wait_until(|hand| hand.done >= needed).is_none() {
                return false;
            }
            // A group reads the partners of every heap of it, the heaps it publishes and
            // the others (their rows are dropped); within the block (blocks are powers of
            // two) all of them are final, so no row reads a value being written. Every
            // group of the block starts at or after the block's start, so the parts fit
            // each one where they fit that.
            let in_groups = shared.block >= GROUP as u64
                && groupable::<C>(shared.block_start(m), self.width, &self.moves, parts.0);
            let mut n = m;
            while n < block_end {
                let first = n / GROUP as u64 * GROUP as u64;
                let group_end = (first + GROUP as u64).min(block_end);
                let claimed = self.claim(shared, n, group_end);
                // A group costs about as much as eleven heaps marked one by one: it is
                // marked whole only when the marker claimed every heap of it left (the
                // finisher takes heaps to a block's end, and the marker skips only the
                // sampled heap, its first).
                let rows = (in_groups && n + claimed == group_end).then(|| {
                    let rows = group_rows.cleared(self.width);
                    mark_group(rows, first, &self.moves, &self.ring, parts.1, values);
                    rows
                });
                for heap in n..n + claimed {
                    let marks: &[u8] = match &rows {
                        Some(rows) => &rows[(heap - first) as usize].slots,
                        None => {
                            row[..self.width.max(64)].fill(0);
                            mark_parts(row, heap, &self.moves, &self.ring, parts, values);
                            row
                        }
                    };
                    pack_row(marks, self.width, words);
                    shared.claims.publish(heap, words);
                }
                // A heap not claimed (sampled, or taken by the finisher) is skipped.
                n += claimed.max(1);
            }
            m = block_end;
        }
        true
    }

    /// Claims heaps from `n` on, before `end` (the end of `n`'s group): as many as it
    /// could claim in a row (none if `n` is sampled or the finisher took it).
    fn claim(&self, shared: &Shared<C>, n: u64, end: u64) -> u64 {
        let mut claimed = 0;
        for m in n..end {
            #[cfg(test)]
            if self.panics_at.is_some_and(|at| m >= at) {
                panic!("marker fault at heap {m}");
            }
            if m.is_multiple_of(SAMPLE) || !shared.claims.start_marking(m) {
                break;
            }
            claimed += 1;
        }
        claimed
    }
}

/// Bit words of a row of `width` values.
fn words_of(width: usize) -> usize {
    width.div_ceil(64)
}
