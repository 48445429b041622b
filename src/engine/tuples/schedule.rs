//! The layer driver: layers in order, the units of one layer in parallel.
//!
//! A move lowers the sum of the heaps it changes, so the units of work (rows, or Nim's
//! planes) of equal sum form a *layer* whose units depend only on earlier layers. Layers
//! run one after another; the units of a layer run in parallel, each task with its own
//! scratch buffers and visitor accumulator: by a crew of threads that meet at a barrier
//! after each layer (`tuples/layer_crew.rs`), or inside rayon's pool by a fork-join per layer.
//! The barrier, or returning from the fork-join, is the synchronisation point the shared
//! tables rely on (`tuples/shared_rows.rs`).

use std::ops::RangeInclusive;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use crate::engine::error::{EngineError, Result};
use crate::engine::tuples::layer_crew::{Crew, ANOTHER_PANICKED};
use crate::engine::visitor::{Progress, RowVisitor};

/// Below this many positions per layer (on average), layers run on one thread: sharing
/// them would cost more than it saves.
pub(crate) const PARALLEL_THRESHOLD: u64 = 1 << 14;

/// How many layers a run has and when they go parallel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Schedule {
    /// Layers, `0..layers` in order.
    pub layers: u64,
    /// Positions of the whole run (to decide whether layers are worth parallelising).
    pub positions: u64,
    /// Average positions per layer below which a layer runs on the calling thread.
    pub parallel_threshold: u64,
}

/// The work of one unit: `(scratch, accumulator, unit, layer) -> positions labelled`.
type UnitWork<'a, S, A> = &'a (dyn Fn(&mut S, &mut A, u32, u64) -> u64 + Sync);

/// A layer's units, the tasks' scratch and the work of one unit, as [`run_layers`] takes
/// them.
struct Layers<'a, V: RowVisitor, S> {
    schedule: Schedule,
    visitor: &'a V,
    progress: &'a dyn Progress,
    units: &'a (dyn Fn(u64) -> RangeInclusive<u32> + Sync),
    /// One scratch per task, made before the first layer.
    scratches: Mutex<Vec<S>>,
    /// Makes another scratch, should the tasks of a fork-join ever outnumber the threads.
    new_scratch: &'a (dyn Fn() -> Result<S> + Sync),
    work: UnitWork<'a, S, V::Acc>,
}

/// Who runs the layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Runner {
    /// The calling thread alone.
    ThisThread,
    /// A crew of one thread per thread of the pool.
    Crew,
    /// A fork-join per layer on rayon's pool.
    ForkJoin,
}

/// Runs every layer in order. Layer `sum` calls `work` once for every value of
/// `units(sum)`, each task with its own scratch and accumulator; `work` returns the
/// positions it labelled. Progress is reported as layers finish, and the accumulators
/// are merged.
///
/// On one thread, or with layers too small to share or of one unit each, the calling
/// thread runs them all.
/// Called from outside rayon's pool, a [`Crew`] of one thread per thread of the pool runs
/// them; from inside (a sweep labelling games in parallel, a Python call on its own
/// pool), each layer is a fork-join on the pool.
///
/// Every task's scratch is made by `new_scratch` on the calling thread before the first
/// layer, so a refused allocation stops the run before any work.
///
/// # Errors
/// The first error of `new_scratch`; [`crate::EngineError::Cancelled`] if `progress` was
/// cancelled; [`EngineError::ThreadsNotStarted`] if the system will not start a crew's
/// threads.
pub(crate) fn run_layers<V: RowVisitor, S: Send>(
    schedule: Schedule,
    visitor: &V,
    progress: &dyn Progress,
    units: impl Fn(u64) -> RangeInclusive<u32> + Sync,
    new_scratch: impl Fn() -> Result<S> + Sync,
    work: impl Fn(&mut S, &mut V::Acc, u32, u64) -> u64 + Sync,
) -> Result<V::Acc> {
    let threads = rayon::current_num_threads();
    // Layers of a single unit (a prefix of one heap: a row a layer) leave nothing to share.
    let shareable = |sum| {
        let units = units(sum);
        u64::from(*units.end()) > u64::from(*units.start())
    };
    let runner = if schedule.positions / schedule.layers < schedule.parallel_threshold
        || threads == 1
        || !(0..schedule.layers).any(shareable)
    {
        Runner::ThisThread
    } else if rayon::current_thread_index().is_none() {
        Runner::Crew
    } else {
        Runner::ForkJoin
    };
    let tasks = if runner == Runner::ThisThread { 1 } else { threads };
    let scratches = (0..tasks).map(|_| new_scratch()).collect::<Result<Vec<S>>>()?;
    let layers = Layers {
        schedule,
        visitor,
        progress,
        units: &units,
        scratches: Mutex::new(scratches),
        new_scratch: &new_scratch,
        work: &work,
    };
    let acc = match runner {
        Runner::ThisThread => layers.on_this_thread(),
        Runner::Crew => layers.by_crew(threads)?,
        Runner::ForkJoin => layers.by_fork_join(),
    };
    // The runners stop early only once `cancelled` is true, and it stays true: a run that
    // stopped early never hands back its accumulators.
    if progress.cancelled() {
        return Err(EngineError::Cancelled);
    }
    Ok(acc)
}

impl<V: RowVisitor, S: Send> Layers<'_, V, S> {
    /// The scratch buffers of a task: one made before the first layer.
    fn take_scratch(&self) -> S {
        let made = self.scratches.lock().unwrap_or_else(PoisonError::into_inner).pop();
        made.unwrap_or_else(|| (self.new_scratch)().expect("a task's scratch buffers"))
    }

    /// Hands a task's scratch back for the next task.
    fn return_scratch(&self, scratch: S) {
        self.scratches.lock().unwrap_or_else(PoisonError::into_inner).push(scratch);
    }

    /// Every layer on the calling thread.
    fn on_this_thread(&self) -> V::Acc {
        let (mut acc, mut scratch) = (self.visitor.start(), self.take_scratch());
        for sum in 0..self.schedule.layers {
            if self.progress.cancelled() {
                break;
            }
            let done: u64 =
                (self.units)(sum).map(|unit| (self.work)(&mut scratch, &mut acc, unit, sum)).sum();
            self.progress.advance(done);
        }
        acc
    }

    /// Every layer by a crew of `threads` threads, the calling one among them.
    ///
    /// # Errors
    /// [`EngineError::ThreadsNotStarted`] if the system will not start the crew's threads.
    fn by_crew(&self, threads: usize) -> Result<V::Acc> {
        let crew = Crew::new(threads);
        let member = || {
            let _guard = crew.guard();
            let (mut acc, mut scratch) = (self.visitor.start(), self.take_scratch());
            for sum in 0..self.schedule.layers {
                let units = (self.units)(sum);
                let mut done = 0;
                loop {
                    let unit = units.start().saturating_add(crew.take_unit(sum));
                    if unit > *units.end() {
                        break;
                    }
                    done += (self.work)(&mut scratch, &mut acc, unit, sum);
                }
                self.progress.advance(done);
                if crew.finish_layer(sum, || self.progress.cancelled()) {
                    break;
                }
            }
            acc
        };
        std::thread::scope(|s| {
            let others = crew
                .start_members(s, &member)
                .map_err(|cause| EngineError::ThreadsNotStarted { threads, cause })?;
            let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(member));
            // A started crew's members all work: only one sent home has no accumulator.
            let worked = |acc: Option<V::Acc>| acc.expect("a member of a started crew");
            let joined = others.into_iter().map(|o| o.join().map(worked));
            let results = std::iter::once(mine).chain(joined);
            let (mut total, mut panics) = (self.visitor.start(), Vec::new());
            for result in results {
                match result {
                    Ok(acc) => total = self.visitor.merge(total, acc),
                    Err(panic) => panics.push(panic),
                }
            }
            // The panic that stopped the crew, not those of the members it left waiting.
            let secondary = |p: &Box<dyn std::any::Any + Send>| {
                panic_message(p.as_ref()) == Some(ANOTHER_PANICKED)
            };
            panics.sort_by_key(|p| secondary(p));
            match panics.into_iter().next() {
                Some(panic) => std::panic::resume_unwind(panic),
                None => Ok(total),
            }
        })
    }

    /// Every layer as a fork-join on rayon's pool; tasks take their scratch buffers from
    /// those made before the first layer (a thread runs one task of a layer at a time, so
    /// one per thread is enough) and hand them back when done.
    fn by_fork_join(&self) -> V::Acc {
        let take = || self.take_scratch();
        let task = |(mut acc, done, mut scratch): (V::Acc, u64, S), unit: u32, sum: u64| {
            let more = (self.work)(&mut scratch, &mut acc, unit, sum);
            (acc, done + more, scratch)
        };
        let mut total = self.visitor.start();
        for sum in 0..self.schedule.layers {
            if self.progress.cancelled() {
                break;
            }
            let (acc, done) = (self.units)(sum)
                .into_par_iter()
                .fold(|| (self.visitor.start(), 0u64, take()), |state, u| task(state, u, sum))
                .map(|(acc, done, scratch)| {
                    self.return_scratch(scratch);
                    (acc, done)
                })
                .reduce(
                    || (self.visitor.start(), 0),
                    |a, b| (self.visitor.merge(a.0, b.0), a.1 + b.1),
                );
            total = self.visitor.merge(total, acc);
            self.progress.advance(done);
        }
        total
    }
}

/// The message of a panic's payload, when it is text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<&str> {
    let text = payload.downcast_ref::<String>().map(String::as_str);
    text.or_else(|| payload.downcast_ref::<&str>().copied())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    use super::*;
    use crate::engine::visitor::NoProgress;

    /// Counts positions into a plain sum.
    struct Sum;

    impl RowVisitor for Sum {
        type Acc = u64;
        fn start(&self) -> u64 {
            0
        }
        fn visit(&self, _: &mut u64, _: &crate::engine::RowView<'_>) {}
        fn merge(&self, left: u64, right: u64) -> u64 {
            left + right
        }
    }

    #[test]
    fn a_crew_runs_every_unit_once_after_every_unit_of_the_layers_before() {
        let layers = 300u64;
        // Layer `sum` has the `sum % 9` units `1..=sum % 9` (some layers none); unit `u`
        // labels `u` positions.
        let finished: Vec<AtomicU64> = (0..layers).map(|_| AtomicU64::new(0)).collect();
        let work = |_: &mut (), acc: &mut u64, unit: u32, sum: u64| {
            if sum > 0 {
                assert_eq!(finished[sum as usize - 1].load(Relaxed), (sum - 1) % 9);
            }
            finished[sum as usize].fetch_add(1, Relaxed);
            *acc += u64::from(unit);
            u64::from(unit)
        };
        let units = |sum: u64| 1..=(sum % 9) as u32;
        let schedule = Schedule { layers, positions: 1 << 40, parallel_threshold: 0 };
        let all = Layers {
            schedule,
            visitor: &Sum,
            progress: &NoProgress,
            units: &units,
            scratches: Mutex::new(vec![(); 3]),
            new_scratch: &|| Ok(()),
            work: &work,
        };
        let expected: u64 = (0..layers).map(|s| (1..=s % 9).sum::<u64>()).sum();
        assert_eq!(all.by_crew(3).unwrap(), expected);
        assert!(finished.iter().enumerate().all(|(s, f)| f.load(Relaxed) == s as u64 % 9));
    }

    /// 100 layers of four units each, on three tasks' scratch, each unit worked by `work`.
    fn four_units_a_layer<'a>(work: UnitWork<'a, (), u64>) -> Layers<'a, Sum, ()> {
        Layers {
            schedule: Schedule { layers: 100, positions: 1 << 40, parallel_threshold: 0 },
            visitor: &Sum,
            progress: &NoProgress,
            units: &|_| 0..=3,
            scratches: Mutex::new(vec![(); 3]),
            new_scratch: &|| Ok(()),
            work,
        }
    }

    #[test]
    fn a_crew_whose_threads_the_system_will_not_start_is_an_error_before_any_work() {
        use crate::engine::tuples::layer_crew::THREADS_ALLOWED;
        let units_done = AtomicU64::new(0);
        let work = |_: &mut (), _: &mut u64, _: u32, _: u64| {
            units_done.fetch_add(1, Relaxed);
            1
        };
        let all = four_units_a_layer(&work);
        // The first of the two threads starts, the second is refused.
        THREADS_ALLOWED.with(|allowed| allowed.set(1));
        let refused = all.by_crew(3);
        THREADS_ALLOWED.with(|allowed| allowed.set(usize::MAX));
        let Err(EngineError::ThreadsNotStarted { threads, cause }) = refused else {
            panic!("expected a refusal, got {refused:?}")
        };
        assert_eq!((threads, cause.kind()), (3, std::io::ErrorKind::WouldBlock));
        assert_eq!(units_done.load(Relaxed), 0, "no unit is worked by a crew that did not start");
        all.by_crew(3).unwrap();
        assert_eq!(units_done.load(Relaxed), 400, "the same work runs once the threads start");
    }

    #[test]
    fn a_crew_reports_the_panic_that_stopped_it() {
        let work = |_: &mut (), _: &mut u64, unit: u32, sum: u64| {
            assert!(!(sum == 40 && unit == 2), "a bug in a row solver");
            1
        };
        let all = four_units_a_layer(&work);
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| all.by_crew(3)))
            .expect_err("the crew panics");
        assert_eq!(panic_message(panic.as_ref()), Some("a bug in a row solver"));
    }

    /// Cancels once `after` positions are reported done.
    struct CancelAfter {
        done: AtomicU64,
        after: u64,
    }

    impl Progress for CancelAfter {
        fn advance(&self, positions: u64) {
            self.done.fetch_add(positions, Relaxed);
        }
        fn cancelled(&self) -> bool {
            self.done.load(Relaxed) >= self.after
        }
    }

    #[test]
    fn every_runner_stops_at_a_layer_boundary_once_cancelled_and_returns_the_error() {
        // Layer `sum` has 4 units of one position each; cancelled once layer 9 is done.
        for threads in [1, 2, 3] {
            let started: Vec<AtomicU64> = (0..1000).map(|_| AtomicU64::new(0)).collect();
            let work = |_: &mut (), _: &mut u64, _: u32, sum: u64| {
                started[sum as usize].fetch_add(1, Relaxed);
                1
            };
            let progress = CancelAfter { done: AtomicU64::new(0), after: 40 };
            let schedule = Schedule { layers: 1000, positions: 1 << 40, parallel_threshold: 0 };
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            // Outside the pool a crew runs the layers (the calling thread alone when the
            // global pool has one thread); inside it, fork-joins.
            for inside in [false, true] {
                started.iter().for_each(|s| s.store(0, Relaxed));
                progress.done.store(0, Relaxed);
                let run = || run_layers(schedule, &Sum, &progress, |_| 0..=3, || Ok(()), work);
                let result = if inside { pool.install(run) } else { run() };
                assert!(matches!(result, Err(EngineError::Cancelled)), "{threads} threads");
                let ran = started.iter().filter(|s| s.load(Relaxed) > 0).count();
                assert_eq!(ran, 10, "{threads} threads, inside the pool: {inside}");
                assert!(started[..10].iter().all(|s| s.load(Relaxed) == 4));
            }
        }
    }
}
