//! A crew of threads that runs layers one after another, meeting at a spinning barrier.
//!
//! Rayon's fork-join per layer costs a split, steals and often a sleep and a wake-up per
//! layer: about 100 µs each on the 2-core machine, a fifth of a layer of `subtract:1,3,4`
//! 3×1023. A run of thousands of short layers is run instead by one thread per core for
//! the whole run: the threads take a layer's units from a shared counter and wait for
//! each other at a barrier that spins (then yields, then sleeps in short naps) instead
//! of sleeping on a lock at once. The crew is only used from outside rayon's pool
//! (`tuples/schedule.rs` keeps fork-join inside it, where a barrier could wait for a thread busy
//! with another job of the pool). The crew's threads begin only once all of them have
//! started, so that a thread the system will not start stops the run before any work.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// Looks at the barrier spinning, then yielding the core for a while, before sleeping
/// between looks: a crew that has the cores to itself meets within about a millisecond
/// (napping after a few hundred microseconds of yields cost 10% on `subtract:1,3,4`
/// 3×1023, whose layers take about that), but a thread waiting longer (a long layer of
/// few units, several crews at once) should not keep its core busy.
const SPINS: u32 = 1 << 12;
const YIELD_FOR: Duration = Duration::from_millis(5);
const SLEEP: Duration = Duration::from_micros(50);

/// The panic of a thread that waited for a crew member that had panicked.
pub(crate) const ANOTHER_PANICKED: &str = "another layer thread panicked";

/// The shared state of a crew of `threads` threads.
pub(crate) struct Crew {
    threads: usize,
    /// Threads arrived at the barrier of the current generation.
    arrived: AtomicUsize,
    /// Barriers passed; a waiting thread leaves when it changes.
    generation: AtomicUsize,
    /// Next unit to take, one counter per parity of the layer: the counter of layer
    /// `s + 1` is reset at the barrier that ends layer `s`, when nobody reads it.
    next_unit: [AtomicU32; 2],
    /// Set when a thread of the crew panicked: the others stop waiting for it.
    failed: AtomicBool,
    /// Set by the last thread to reach a barrier when the run was cancelled: every thread
    /// reads it after the same barrier, so all of them stop after the same layer.
    stopped: AtomicBool,
    /// Whether the threads may begin: `None` while they are being started, then whether
    /// every one of them started.
    gate: Mutex<Option<bool>>,
    /// Signalled when `gate` is set.
    gate_set: Condvar,
}

impl Crew {
    pub(crate) fn new(threads: usize) -> Crew {
        Crew {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            next_unit: [AtomicU32::new(0), AtomicU32::new(0)],
            failed: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            gate: Mutex::new(None),
            gate_set: Condvar::new(),
        }
    }

    /// Starts the crew's other `threads - 1` members in `scope`, each running `member`
    /// once all of them have started. A thread the system will not start (no memory for
    /// its stack, a limit on threads) sends those already started home without work, and
    /// its error is returned.
    ///
    /// # Errors
    /// The system's refusal to start a thread.
    pub(crate) fn start_members<'scope, T: Send + 'scope>(
        &'scope self,
        scope: &'scope Scope<'scope, '_>,
        member: &'scope (impl Fn() -> T + Sync),
    ) -> io::Result<Vec<ScopedJoinHandle<'scope, Option<T>>>> {
        let mut members = Vec::with_capacity(self.threads.saturating_sub(1));
        for _ in 1..self.threads {
            match start_thread(scope, move || self.wait_for_start().then(member)) {
                Ok(handle) => members.push(handle),
                Err(refused) => {
                    self.set_gate(false);
                    return Err(refused);
                }
            }
        }
        self.set_gate(true);
        Ok(members)
    }

    /// Opens the gate (`true`) or sends the threads home (`false`).
    fn set_gate(&self, go: bool) {
        *self.gate.lock().unwrap_or_else(PoisonError::into_inner) = Some(go);
        self.gate_set.notify_all();
    }

    /// Waits at the gate; whether to work.
    fn wait_for_start(&self) -> bool {
        let mut gate = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(go) = *gate {
                return go;
            }
            gate = self.gate_set.wait(gate).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The next unit of layer `layer` not yet taken, counted from 0.
    pub(crate) fn take_unit(&self, layer: u64) -> u32 {
        self.next_unit[(layer % 2) as usize].fetch_add(1, Ordering::Relaxed)
    }

    /// Waits until every thread of the crew has finished layer `layer`, and returns
    /// whether the crew stops there: the last thread to arrive asks `cancelled`, and every
    /// thread gets its answer. Everything a thread wrote before its call happens before
    /// everything any thread does after its return (the arrivals are acquire-release, the
    /// new generation is released).
    ///
    /// # Panics
    /// If another thread of the crew panicked (it will never arrive).
    pub(crate) fn finish_layer(&self, layer: u64, cancelled: impl FnOnce() -> bool) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            if cancelled() {
                self.stopped.store(true, Ordering::Relaxed);
            }
            self.arrived.store(0, Ordering::Relaxed);
            self.next_unit[((layer + 1) % 2) as usize].store(0, Ordering::Relaxed);
            self.generation.store(generation.wrapping_add(1), Ordering::Release);
            return self.stopped.load(Ordering::Relaxed);
        }
        let (mut spins, mut yielding_since) = (0u32, None);
        while self.generation.load(Ordering::Acquire) == generation {
            assert!(!self.failed.load(Ordering::Relaxed), "{ANOTHER_PANICKED}");
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
            } else if yielding_since.get_or_insert_with(Instant::now).elapsed() < YIELD_FOR {
                std::thread::yield_now();
            } else {
                std::thread::sleep(SLEEP);
            }
        }
        self.stopped.load(Ordering::Relaxed)
    }

    /// A guard that marks the crew failed if its thread unwinds while holding it.
    pub(crate) fn guard(&self) -> FailOnPanic<'_> {
        FailOnPanic(&self.failed)
    }
}

#[cfg(test)]
thread_local! {
    /// Threads this thread may still start before the next is refused, as the system
    /// refuses one without memory for its stack (tests only).
    pub(crate) static THREADS_ALLOWED: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Starts a thread in `scope`, or returns the system's refusal.
fn start_thread<'scope, T: Send + 'scope>(
    scope: &'scope Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> io::Result<ScopedJoinHandle<'scope, T>> {
    #[cfg(test)]
    if THREADS_ALLOWED.with(|allowed| allowed.replace(allowed.get().saturating_sub(1))) == 0 {
        return Err(io::Error::from(io::ErrorKind::WouldBlock));
    }
    crate::host::worker_thread().spawn_scoped(scope, f)
}

/// Marks a crew failed when dropped during a panic (see [`Crew::guard`]).
pub(crate) struct FailOnPanic<'a>(&'a AtomicBool);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_is_taken_once_and_layers_do_not_overlap() {
        let (threads, layers, units) = (3usize, 200u64, 7u32);
        let crew = Crew::new(threads);
        let done: Vec<AtomicU32> = (0..layers).map(|_| AtomicU32::new(0)).collect();
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let _guard = crew.guard();
                    for layer in 0..layers {
                        // The previous layer is complete before this one starts.
                        if layer > 0 {
                            assert_eq!(done[layer as usize - 1].load(Ordering::Relaxed), units);
                        }
                        while crew.take_unit(layer) < units {
                            done[layer as usize].fetch_add(1, Ordering::Relaxed);
                        }
                        crew.finish_layer(layer, || false);
                    }
                });
            }
        });
        assert!(done.iter().all(|d| d.load(Ordering::Relaxed) == units));
    }

    #[test]
    fn a_panicking_thread_releases_the_others() {
        let crew = Crew::new(2);
        let result = std::panic::catch_unwind(|| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    let _guard = crew.guard();
                    panic!("a bug in a row solver");
                });
                s.spawn(|| {
                    let _guard = crew.guard();
                    crew.finish_layer(0, || false);
                });
            });
        });
        assert!(result.is_err());
    }
}
