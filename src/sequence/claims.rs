//! Who marks each heap of the two threads' window, and the marker's bits of the heaps it
//! marked: the hand-off of `pipeline.rs`, heap by heap, without a lock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::heap::Words;

/// Heaps the finisher takes after one the marker had not marked yet: enough that the
/// marker, skipping them, gets ahead again rather than being met at every heap.
pub(super) const STEAL: u64 = 32;

/// Spins on a heap the marker is marking before the finisher yields its core instead.
const SPINS: u32 = 1000;

/// Who marks a heap's larger parts: the state in a slot's low two bits, the heap above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// Nobody yet.
    Open = 0,
    /// The marker, now.
    Marking = 1,
    /// The marker, done: its bits are in the slot's words.
    Marked = 2,
    /// The finisher.
    Taken = 3,
}

impl Claim {
    /// A slot's word: the heap and its claim.
    fn of(heap: u64, claim: Claim) -> u64 {
        heap << 2 | claim as u64
    }
}

/// One slot a heap of a window of heaps (heap `n` in slot `n mod window`), each holding
/// [`Claim::of`] the heap it stands for now, and the marker's bits of each slot's heap.
/// (Slots and bits padded to whole cache lines a heap measured no faster.)
pub(super) struct Claims {
    slots: Vec<AtomicU64>,
    bits: Vec<AtomicU64>,
    window: u64,
    /// Bit words a heap.
    words: usize,
    /// The marker is gone (a finisher must not wait for a heap it was marking).
    stopped: AtomicBool,
}

impl Claims {
    /// A window of `window` heaps from heap `first` on, every one open, `words` bit words
    /// a heap.
    pub fn new(first: u64, window: u64, words: usize) -> Claims {
        let heap_of = |slot: u64| first + (slot + window - first % window) % window;
        let open = |slot| AtomicU64::new(Claim::of(heap_of(slot), Claim::Open));
        Claims {
            slots: (0..window).map(open).collect(),
            bits: (0..window as usize * words).map(|_| AtomicU64::new(0)).collect(),
            window,
            words,
            stopped: AtomicBool::new(false),
        }
    }

    fn slot(&self, n: u64) -> &AtomicU64 {
        &self.slots[(n % self.window) as usize]
    }

    fn words_of(&self, n: u64) -> &[AtomicU64] {
        let at = (n % self.window) as usize * self.words;
        &self.bits[at..at + self.words]
    }

    /// Moves heap `n`'s claim from `from` to `to`; false if it was not `from`.
    fn claim(&self, n: u64, from: Claim, to: Claim) -> bool {
        let (from, to) = (Claim::of(n, from), Claim::of(n, to));
        self.slot(n).compare_exchange(from, to, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    /// The marker starts on heap `n`: false if the finisher took it.
    pub fn start_marking(&self, n: u64) -> bool {
        self.claim(n, Claim::Open, Claim::Marking)
    }

    /// The marker's bits of heap `n`, which it started on.
    ///
    /// # Panics
    /// If heap `n` is not being marked (its slot was given to another heap meanwhile: the
    /// finisher released it too early).
    pub fn publish(&self, n: u64, words: &[u64]) {
        for (bits, &word) in self.words_of(n).iter().zip(words) {
            bits.store(word, Ordering::Relaxed);
        }
        let (marking, marked) = (Claim::of(n, Claim::Marking), Claim::of(n, Claim::Marked));
        let published =
            self.slot(n).compare_exchange(marking, marked, Ordering::Release, Ordering::Relaxed);
        assert!(published.is_ok(), "heap {n} was not being marked when its bits came");
    }

    /// The marker's side of heap `n` for the finisher: true with its bits in `bits`; false
    /// if the finisher marks the whole list itself, having taken the heap because the
    /// marker had not started it, or because the marker is gone. When the marker had not
    /// finished it, the finisher takes the next [`STEAL`] heaps before `block_end` too.
    pub fn take(&self, n: u64, block_end: u64, bits: &mut Words) -> bool {
        let mut spins = 0;
        loop {
            let state = self.slot(n).load(Ordering::Acquire);
            assert_eq!(state >> 2, n, "the slot of heap {n} holds another heap");
            match state & 3 {
                s if s == Claim::Marked as u64 => break,
                s if s == Claim::Taken as u64 => return false,
                s if s == Claim::Open as u64 => {
                    if self.claim(n, Claim::Open, Claim::Taken) {
                        self.take_after(n, block_end);
                        return false;
                    }
                }
                _ if self.stopped.load(Ordering::Acquire) => return false,
                _ if spins < SPINS => {
                    spins += 1;
                    std::hint::spin_loop();
                }
                _ => std::thread::yield_now(),
            }
        }
        bits.clear();
        bits.extend(self.words_of(n).iter().map(|word| word.load(Ordering::Relaxed)));
        if spins > 0 {
            // The marker is only just ahead.
            self.take_after(n, block_end);
        }
        true
    }

    /// Takes the open heaps of the [`STEAL`] after `n`, up to `block_end`.
    fn take_after(&self, n: u64, block_end: u64) {
        for m in n + 1..block_end.min(n + 1 + STEAL) {
            self.claim(m, Claim::Open, Claim::Taken);
        }
    }

    /// Heap `n` is finished: its slot opens for heap `n + window`.
    ///
    /// # Panics
    /// If the marker is marking heap `n` (the finisher did not wait for it).
    pub fn release(&self, n: u64) {
        let before = self.slot(n).swap(Claim::of(n + self.window, Claim::Open), Ordering::AcqRel);
        assert_ne!(before, Claim::of(n, Claim::Marking), "heap {n} released while being marked");
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
        let claims = Claims::new(100, 64, 2);
        assert!(claims.start_marking(101));
        claims.publish(101, &[7, 9]);
        let mut bits = Words::new();
        assert!(claims.take(101, 128, &mut bits));
        assert_eq!(bits, [7, 9]);
        // Published without a wait: the heaps after it stay the marker's.
        assert!(claims.start_marking(102));
    }

    #[test]
    fn a_heap_the_marker_has_not_started_is_taken_with_the_next_ones_in_its_block() {
        let claims = Claims::new(0, 256, 1);
        let mut bits = Words::new();
        assert!(!claims.take(10, 128, &mut bits));
        let startable: Vec<u64> = (10..128).filter(|&m| claims.start_marking(m)).collect();
        assert_eq!(startable, (11 + STEAL..128).collect::<Vec<_>>());
        // Near the block's end, nothing beyond it is taken.
        let claims = Claims::new(0, 256, 1);
        assert!(!claims.take(120, 128, &mut bits));
        assert!(claims.start_marking(128));
        // A heap the finisher took is taken.
        let claims = Claims::new(0, 256, 1);
        assert!(!claims.take(5, 128, &mut bits));
        assert!(!claims.take(6, 128, &mut bits));
    }

    #[test]
    fn a_released_slot_opens_for_the_heap_one_window_on() {
        let claims = Claims::new(3, 8, 1);
        let mut bits = Words::new();
        assert!(!claims.take(3, 8, &mut bits));
        claims.release(3);
        assert!(!claims.start_marking(3));
        assert!(claims.start_marking(11));
        claims.publish(11, &[1]);
        assert!(claims.take(11, 16, &mut bits));
    }

    #[test]
    fn the_finisher_waits_for_a_heap_being_marked_unless_the_marker_is_gone() {
        let claims = Claims::new(0, 64, 1);
        let mut bits = Words::new();
        assert!(claims.start_marking(4));
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                claims.publish(4, &[42]);
            });
            assert!(claims.take(4, 64, &mut bits));
        });
        assert_eq!(bits, [42]);
        assert!(claims.start_marking(40));
        claims.stop();
        assert!(!claims.take(40, 64, &mut bits), "a heap whose marker is gone");
    }

    #[test]
    fn every_heap_gets_its_own_bits_through_many_windows_on_two_threads() {
        // Blocks of 4 heaps, the marker up to 1 block ahead: a window of 8 slots, reused
        // every 8 heaps, with the marker waiting for the finisher as the pipeline's does.
        let (block, window, heaps) = (4u64, 8, 200_000);
        let claims = Claims::new(0, window, 2);
        let (done, started) = (AtomicU64::new(0), AtomicBool::new(false));
        let (mut marked, mut taken) = (0u64, 0u64);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                started.store(true, Ordering::Release);
                for m in 0..heaps {
                    let needed = (m / block * block).saturating_sub(block);
                    while done.load(Ordering::Acquire) < needed {
                        std::hint::spin_loop();
                    }
                    if claims.start_marking(m) {
                        claims.publish(m, &[m, !m]);
                    }
                }
            });
            while !started.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
            let mut bits = Words::new();
            for start in (0..heaps).step_by(block as usize) {
                for n in start..start + block {
                    if claims.take(n, start + block, &mut bits) {
                        assert_eq!(bits, [n, !n], "heap {n}");
                        marked += 1;
                    } else {
                        taken += 1;
                    }
                }
                (start..start + block).for_each(|n| claims.release(n));
                done.store(start + block, Ordering::Release);
            }
        });
        assert_eq!(marked + taken, heaps);
        assert!(marked > 0, "the marker marked no heap");
    }
}
