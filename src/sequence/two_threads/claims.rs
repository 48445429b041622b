//! Who marks each heap of the two threads' window, and the marker's bits of the heaps it
//! marked: the hand-off of `pipeline.rs`, heap by heap, without a lock.
//!
//! Two counters decide it. `next` is the first heap nobody has claimed: the marker claims
//! heaps from it one at a time, in order, and the finisher takes a run of them when it
//! reaches one the marker has not claimed. `published` is one past the last heap whose bits
//! the marker has written. Each counter has a line of its own, which the finisher reads
//! only when it reaches the last heap it knows is published and writes only when it takes
//! a run, so a heap costs no cache-line transfer but its bits': a slot per heap, written by
//! one thread and read by the other, measured a transfer each way per heap. Each heap's
//! bits carry the heap's number, which the finisher checks.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::sequence::engine::heap::Words;

/// A counter on a cache line of its own, so that writing one does not take the other's
/// line from the other thread's cache.
#[repr(align(64))]
struct Line(AtomicU64);

/// The two counters and the marker's bits of a window of heaps (heap `n` in slot
/// `n mod window`, a power of two). The marker may write a slot only once the finisher has
/// finished the heap a window before (the pipeline's wait on the finisher's blocks, at
/// most `window` heaps ahead, sees to it).
pub(super) struct Claims {
    next: Line,
    published: Line,
    /// A slot a heap: the heap's number, then its bits.
    bits: Vec<AtomicU64>,
    /// The window's length less one: a mask.
    last_slot: u64,
    /// Bit words a heap.
    words: usize,
    /// The marker is gone (a finisher must not wait for a heap it was marking).
    stopped: AtomicBool,
}

/// The finisher's own view of the counters: what it last read, and the heaps it took.
pub(super) struct Taker {
    /// Heaps below it that the marker claimed are published (as last read).
    published: u64,
    /// Heaps the finisher marks itself (the run it took last, or the call's first block).
    taken: std::ops::Range<u64>,
}

impl Claims {
    /// A window of at least `window` heaps, `words` bit words a heap, where the marker
    /// claims heaps from `first` on; the finisher's view, which takes every heap below
    /// `first`.
    pub fn new(first: u64, window: u64, words: usize) -> (Claims, Taker) {
        let window = window.next_power_of_two();
        let claims = Claims {
            next: Line(AtomicU64::new(first)),
            published: Line(AtomicU64::new(first)),
            bits: (0..window as usize * (words + 1)).map(|_| AtomicU64::new(u64::MAX)).collect(),
            last_slot: window - 1,
            words,
            stopped: AtomicBool::new(false),
        };
        (claims, Taker { published: first, taken: 0..first })
    }

    /// Heap `n`'s slot: the heap it holds, then its bits.
    fn slot(&self, n: u64) -> &[AtomicU64] {
        let at = (n & self.last_slot) as usize * (self.words + 1);
        &self.bits[at..=at + self.words]
    }

    /// The marker claims heap `m` (heaps in increasing order; the ones it skips it never
    /// claims): false if the finisher took it.
    pub fn start_marking(&self, m: u64) -> bool {
        let mut next = self.next.0.load(Ordering::Acquire);
        loop {
            if next > m {
                return false;
            }
            match self.next.0.compare_exchange_weak(
                next,
                m + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return true,
                Err(now) => next = now,
            }
        }
    }

    /// The marker's bits of heap `m`, a heap it claimed (in order: each heap once).
    pub fn publish(&self, m: u64, words: &[u64]) {
        let slot = self.slot(m);
        slot[0].store(m, Ordering::Relaxed);
        for (bits, &word) in slot[1..].iter().zip(words) {
            bits.store(word, Ordering::Relaxed);
        }
        self.published.0.store(m + 1, Ordering::Release);
    }

    /// The marker's side of heap `n` for the finisher (heaps in increasing order, sampled
    /// ones skipped): true with its bits in `bits`; false if the finisher marks the whole
    /// list itself, having taken the heap (with the rest of its block, before `block_end`,
    /// so that the marker, skipping them, gets ahead again rather than being met at every
    /// heap) because the marker had not claimed it, or because the marker is gone. A heap
    /// the marker is marking it waits for, yielding its core meanwhile, and then takes the
    /// rest of the block the marker has not claimed: the marker is only just ahead (not
    /// while a run taken before still lies ahead: the finisher keeps one run at a time).
    ///
    /// # Panics
    /// If the bits it reads are another heap's (the two threads skip different heaps).
    pub fn take(&self, taker: &mut Taker, n: u64, block_end: u64, bits: &mut Words) -> bool {
        if taker.taken.contains(&n) {
            return false;
        }
        let mut waited = false;
        while n >= taker.published {
            taker.published = self.published.0.load(Ordering::Acquire);
            if n < taker.published {
                break;
            }
            let next = self.next.0.load(Ordering::Acquire);
            if next <= n {
                if self.take_run(taker, next, block_end.max(n + 1)) {
                    return false;
                }
            } else if self.stopped.load(Ordering::Acquire) {
                return false;
            } else {
                waited = true;
                std::thread::yield_now();
            }
        }
        let slot = self.slot(n);
        assert_eq!(slot[0].load(Ordering::Relaxed), n, "the bits read for heap {n}");
        bits.clear();
        bits.extend(slot[1..].iter().map(|word| word.load(Ordering::Relaxed)));
        if waited && taker.taken.end <= n {
            let next = self.next.0.load(Ordering::Acquire);
            if next < block_end {
                self.take_run(taker, next, block_end);
            }
        }
        true
    }

    /// Takes the heaps `from..until` if the marker has claimed none of them (`next` is
    /// still `from`).
    fn take_run(&self, taker: &mut Taker, from: u64, until: u64) -> bool {
        let taken = self.next.0.compare_exchange(from, until, Ordering::AcqRel, Ordering::Acquire);
        if taken.is_ok() {
            taker.taken = from..until;
        }
        taken.is_ok()
    }

    /// Either thread is gone.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
    }

    /// Whether a thread is gone.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heap_the_marker_published_reaches_the_finisher_with_its_bits() {
        let (claims, mut taker) = Claims::new(100, 64, 2);
        assert!(claims.start_marking(101));
        claims.publish(101, &[7, 9]);
        let mut bits = Words::new();
        assert!(claims.take(&mut taker, 101, 128, &mut bits));
        assert_eq!(bits, [7, 9]);
        // Published without a wait: the heaps after it stay the marker's.
        assert!(claims.start_marking(102));
    }

    /// Claims from heap `first` on, after the finisher took heap `heap` of the blocks of
    /// 128 heaps, which the marker had not marked.
    fn taken_by_the_finisher(first: u64, heaps: u64, heap: u64) -> Claims {
        let (claims, mut taker) = Claims::new(first, heaps, 1);
        assert!(!claims.take(&mut taker, heap, 128, &mut Words::new()));
        claims
    }

    #[test]
    fn the_heaps_before_the_first_are_the_finishers() {
        let claims = taken_by_the_finisher(100, 64, 99);
        assert!(claims.start_marking(100));
    }

    #[test]
    fn a_heap_the_marker_has_not_claimed_is_taken_with_the_next_ones_in_its_block() {
        let claims = taken_by_the_finisher(0, 256, 10);
        assert!((10..128).all(|m| !claims.start_marking(m)));
        // Nothing beyond the block is taken.
        assert!(claims.start_marking(128));
        // A heap the finisher took is taken.
        let (claims, mut taker) = Claims::new(0, 256, 1);
        let mut bits = Words::new();
        assert!(!claims.take(&mut taker, 5, 128, &mut bits));
        assert!(!claims.take(&mut taker, 6, 128, &mut bits));
    }

    #[test]
    fn the_marker_skips_heaps_it_never_claims() {
        // Heap 16 is sampled: the marker goes from 15 to 17, and the finisher asks for 17.
        let (claims, mut taker) = Claims::new(14, 64, 1);
        let mut bits = Words::new();
        for m in [14, 15, 17] {
            assert!(claims.start_marking(m));
            claims.publish(m, &[m]);
        }
        for n in [14, 15, 17] {
            assert!(claims.take(&mut taker, n, 64, &mut bits));
            assert_eq!(bits, [n]);
        }
    }

    #[test]
    #[should_panic(expected = "the bits read for heap 2")]
    fn bits_asked_for_a_heap_the_marker_skipped_are_refused() {
        // The marker skipped heap 2 (as it skips sampled heaps), the finisher asks for it.
        let (claims, mut taker) = Claims::new(1, 8, 1);
        assert!(claims.start_marking(3));
        claims.publish(3, &[3]);
        claims.take(&mut taker, 2, 8, &mut Words::new());
    }

    #[test]
    fn the_finisher_waits_for_a_heap_being_marked_unless_the_marker_is_gone() {
        let (claims, mut taker) = Claims::new(4, 64, 1);
        let mut bits = Words::new();
        assert!(claims.start_marking(4));
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                claims.publish(4, &[42]);
            });
            assert!(claims.take(&mut taker, 4, 64, &mut bits));
        });
        assert_eq!(bits, [42]);
        // Having waited, the finisher took the rest of the block: the marker goes on after.
        assert!((5..64).all(|m| !claims.start_marking(m)));
        assert!(claims.start_marking(64));
        claims.stop();
        assert!(!claims.take(&mut taker, 64, 128, &mut bits), "a heap whose marker is gone");
    }

    #[test]
    fn a_run_taken_ahead_of_heaps_being_marked_is_kept_while_waiting_for_them() {
        // The marker claimed heaps 0 to 4 and publishes them slowly: the finisher waits for
        // heap 1, then takes the rest of the block, 5..128; waiting for 2, 3 and 4 must not take
        // another run in
        // place of that one (heap 5 would then be nobody's).
        let (claims, mut taker) = Claims::new(0, 256, 1);
        (0..5).for_each(|m| assert!(claims.start_marking(m)));
        claims.publish(0, &[0]);
        let mut bits = Words::new();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for m in 1..5 {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    claims.publish(m, &[m]);
                }
            });
            for n in 0..5 {
                assert!(claims.take(&mut taker, n, 128, &mut bits));
                assert_eq!(bits, [n]);
            }
        });
        assert!((5..128).all(|m| !claims.start_marking(m)));
        assert!(claims.start_marking(128), "the marker goes on after the run taken");
        assert!((5..128).all(|n| !claims.take(&mut taker, n, 128, &mut bits)));
    }

    /// Runs `body` on a thread of its own and fails if it has not ended within `seconds`:
    /// a heap that belongs to nobody leaves both threads waiting for each other, and the
    /// test must fail then, not hang.
    fn within(seconds: u64, body: impl FnOnce() + Send + 'static) {
        let (ended, end) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            body();
            let _ = ended.send(());
        });
        match end.recv_timeout(std::time::Duration::from_secs(seconds)) {
            Ok(()) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("the two threads still wait for each other after {seconds} s")
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                panic!("the test failed (above)")
            }
        }
    }

    #[test]
    fn every_heap_gets_its_own_bits_through_many_windows_on_two_threads() {
        within(120, every_heap_gets_its_own_bits);
    }

    /// Blocks of 64 heaps, the marker up to 1 block ahead: a window of 128 slots, reused
    /// every 128 heaps, with the marker waiting for the finisher as the pipeline's does;
    /// every fifth heap is one the marker skips and the finisher finishes alone. Both
    /// threads work a varying while on each heap, so that each waits for the other at times
    /// (and the finisher takes runs after waiting).
    fn every_heap_gets_its_own_bits() {
        let work = |n: u64| {
            (0..n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58).for_each(|_| {
                std::hint::spin_loop();
            })
        };
        let (block, window, heaps) = (64u64, 128, 200_000);
        let (claims, mut taker) = Claims::new(0, window, 2);
        let (done, started) = (AtomicU64::new(0), AtomicBool::new(false));
        let (mut marked, mut taken) = (0u64, 0u64);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                started.store(true, Ordering::Release);
                for m in (0..heaps).filter(|m| m % 5 != 0) {
                    let needed = (m / block * block).saturating_sub(block);
                    while done.load(Ordering::Acquire) < needed {
                        std::hint::spin_loop();
                    }
                    if claims.start_marking(m) {
                        work(m);
                        claims.publish(m, &[m, !m]);
                    }
                }
            });
            while !started.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
            let mut bits = Words::new();
            for start in (0..heaps).step_by(block as usize) {
                for n in (start..start + block).filter(|n| n % 5 != 0) {
                    work(n ^ 0x55);
                    if claims.take(&mut taker, n, start + block, &mut bits) {
                        assert_eq!(bits, [n, !n], "heap {n}");
                        marked += 1;
                    } else {
                        taken += 1;
                    }
                }
                done.store(start + block, Ordering::Release);
            }
        });
        assert_eq!(marked + taken, heaps - heaps.div_ceil(5));
        assert!(marked > 0, "the marker marked no heap");
    }
}
