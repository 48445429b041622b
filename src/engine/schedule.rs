//! The layer driver: layers in order, the units of one layer in parallel.
//!
//! A move lowers the sum of the heaps it changes, so the units of work (rows, or Nim's
//! planes) of equal sum form a *layer* whose units depend only on earlier layers. Layers
//! run one after another; the units of a layer run in parallel on rayon's pool, each task
//! with its own scratch buffers and visitor accumulator. Returning from the parallel fold
//! is the synchronisation point the shared tables rely on (`shared_rows.rs`).

use std::ops::RangeInclusive;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use crate::engine::visitor::{Progress, RowVisitor};

/// Below this many positions per layer (on average), a layer runs on one thread: rayon's
/// fork-join would cost more than it saves.
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

/// Runs every layer in order. Layer `sum` calls `work` once for every value of
/// `units(sum)`, each task with its own scratch and accumulator; `work` returns the
/// positions it labelled. The accumulators are merged and progress is reported after
/// every layer.
pub(crate) fn run_layers<V: RowVisitor, S: Send>(
    schedule: Schedule,
    visitor: &V,
    progress: &dyn Progress,
    units: impl Fn(u64) -> RangeInclusive<u32> + Sync,
    new_scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &mut V::Acc, u32, u64) -> u64 + Sync,
) -> V::Acc {
    let sequential = schedule.positions / schedule.layers < schedule.parallel_threshold
        || rayon::current_num_threads() == 1;
    let task = |(mut acc, done, mut scratch): (V::Acc, u64, S), unit: u32, sum: u64| {
        let more = work(&mut scratch, &mut acc, unit, sum);
        (acc, done + more, scratch)
    };
    // Scratch buffers outlive the layer that made them: a layer's tasks take them from
    // the pool and put them back, so their allocations are not remade at every layer.
    let pool: Mutex<Vec<S>> = Mutex::new(Vec::new());
    let lock = || pool.lock().unwrap_or_else(PoisonError::into_inner);
    let take = || lock().pop().unwrap_or_else(&new_scratch);
    let run = || {
        let mut total = visitor.start();
        for sum in 0..schedule.layers {
            let (acc, done) = if sequential {
                let state = (visitor.start(), 0, take());
                let (acc, done, scratch) = units(sum).fold(state, |state, u| task(state, u, sum));
                lock().push(scratch);
                (acc, done)
            } else {
                units(sum)
                    .into_par_iter()
                    .fold(|| (visitor.start(), 0u64, take()), |state, u| task(state, u, sum))
                    .map(|(acc, done, scratch)| {
                        lock().push(scratch);
                        (acc, done)
                    })
                    .reduce(|| (visitor.start(), 0), |a, b| (visitor.merge(a.0, b.0), a.1 + b.1))
            };
            total = visitor.merge(total, acc);
            progress.advance(done);
        }
        total
    };
    // Called from outside the pool (the command line, the benchmark), each layer would
    // hand its work to the pool and sleep until it is done: thousands of sleeps and
    // wake-ups. Run from inside, the thread running the layers works on them itself.
    if sequential || rayon::current_thread_index().is_some() {
        run()
    } else {
        rayon::scope(|_| run())
    }
}
