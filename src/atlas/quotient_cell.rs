//! A code's misère quotient cell: the quotient at the heap bound, lowered to where it fits the order bound, or why there is none.

use super::entry::{AtlasSettings, QuotientCell, QuotientOutcome};
use super::AtlasError;
use crate::model::game::Game;
use crate::quotient::{compute, QuotientConfig, QuotientError, QuotientProgress};

/// Whether the caller asks the run to stop.
type Cancelled<'c> = &'c (dyn Fn() -> bool + Sync);

/// The quotient's progress: only the cancel flag.
struct QuotientStopper<'c>(Cancelled<'c>);

impl QuotientProgress for QuotientStopper<'_> {
    fn heap_done(&self, _heap: u32, _order: usize) {}
    fn cancelled(&self) -> bool {
        (self.0)()
    }
}

/// The misère quotient of `game` at the heap bound, or at the last heap below where it
/// outgrew the order bound. Whatever the quotient refuses to compute (a game it does not
/// take, memory) is the cell's reason, in the quotient's words: the cell of any code is
/// what the quotient returns for its game.
///
/// # Errors
/// [`AtlasError::Cancelled`] when `cancelled` says so.
pub(super) fn quotient_of(
    game: &Game,
    settings: &AtlasSettings,
    cancelled: Cancelled<'_>,
) -> Result<QuotientCell, AtlasError> {
    let mut max_heap = settings.quotient_heap;
    loop {
        let mut config = QuotientConfig::new(max_heap);
        config.max_order = settings.quotient_order;
        let outgrew_at = match compute(game, &config, &QuotientStopper(cancelled)) {
            Ok(q) => {
                let names = q.elements();
                let outcome = QuotientOutcome::Proved {
                    order: q.order(),
                    p_portion: q.p_portion().iter().map(|&x| names[x as usize].clone()).collect(),
                    presentation: q.presentation().to_string(),
                    period: q.period().map(|p| (p.preperiod, p.period)),
                };
                return Ok(QuotientCell { max_heap, outcome });
            }
            Err(QuotientError::Cancelled) => return Err(AtlasError::Cancelled),
            Err(QuotientError::GrewPastLimit { heap, .. })
            | Err(QuotientError::CandidateTooLarge { heap, .. }) => heap,
            Err(e) => return Ok(QuotientCell { max_heap, outcome: not_computed(&e) }),
        };
        if outgrew_at <= 1 {
            let why = format!("outgrew {} elements at heap 1", settings.quotient_order);
            return Ok(QuotientCell { max_heap: 0, outcome: QuotientOutcome::NotComputed(why) });
        }
        max_heap = outgrew_at - 1;
    }
}

fn not_computed(error: &QuotientError) -> QuotientOutcome {
    QuotientOutcome::NotComputed(error.to_string())
}
