//! The heap-by-heap run of a quotient computation: where it starts (before heap 1, or
//! at a checkpoint), where it stops (the largest heap, the first heap at which the whole
//! game is certified, a limit, or the caller), and the checkpoints it hands out.

use crate::model::game::Game;
use crate::quotient::memory::{Held, Meter, Result};
use crate::quotient::period::PeriodWatch;
use crate::quotient::solver::{AllOptions, Solved, Solver};
use crate::quotient::state::QuotientCheckpoint;
use crate::quotient::{QuotientConfig, QuotientError, QuotientProgress};

/// Where a run ended: the monoid of the heaps it completed, their options, and why it
/// stopped before the largest heap (`None`: it reached it, or the whole game was
/// certified first).
pub(crate) struct Ended<'m> {
    pub solved: Held<'m, Solved>,
    pub options: Held<'m, AllOptions>,
    pub stop: Option<QuotientError>,
    /// The heap at which the theorem's window first fitted, when the run stopped there.
    pub certified_at: Option<u32>,
}

/// Runs the computation of `game` from `checkpoint` (or from the start) until it ends.
///
/// # Errors
/// A checkpoint that does not hold ([`QuotientError::BadCheckpoint`]), or memory refused
/// while resuming from it; a limit met or a stop asked for later is in [`Ended::stop`].
pub(crate) fn run<'m>(
    game: &Game,
    config: &QuotientConfig,
    checkpoint: Option<&QuotientCheckpoint>,
    meter: &'m Meter,
    progress: &dyn QuotientProgress,
) -> Result<Ended<'m>> {
    let mut solver = Solver::start(game, config, checkpoint, meter, progress)?;
    let mut watch = if config.until_certified { PeriodWatch::new(game) } else { None };
    if let Some(watch) = &mut watch {
        watch.rebuild(&solver.phi());
    }
    let certified =
        |watch: &Option<PeriodWatch>| watch.as_ref().is_some_and(|w| w.certified().is_some());
    let mut stop = None;
    while solver.heap() < config.max_heap && !certified(&watch) {
        match solver.step() {
            Ok(grew) => {
                if let Some(watch) = &mut watch {
                    // A quotient that grows may split the classes of earlier heaps.
                    if grew {
                        watch.rebuild(&solver.phi());
                    } else {
                        watch.push(solver.solved().monoid.apply(0, solver.heap()));
                    }
                }
            }
            Err(err) => {
                stop = Some(err);
                break;
            }
        }
        let h = solver.heap();
        progress.heap_done(h, solver.solved().monoid.size);
        if progress.checkpoint_due(h) && solver.heap() < config.max_heap {
            progress.checkpoint(&solver.checkpoint(game));
        }
    }
    // The last checkpoint, whatever ended the run: a run stopped can be resumed, and a
    // finished one extended to larger heaps.
    if progress.keeps_checkpoints() && solver.heap() > 0 {
        progress.checkpoint(&solver.checkpoint(game));
    }
    if stop.is_none() {
        progress.heaps_complete();
    }
    let certified_at = certified(&watch).then(|| solver.heap());
    let (solved, options) = solver.finish();
    Ok(Ended { solved, options, stop, certified_at })
}
