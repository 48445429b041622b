//! The quotient criterion over multiset spaces: the quotient of the game for heaps up to
//! the space's total, computed with its proof, predicts every multiset's label.
//!
//! Under misère play this is the misère quotient (Plambeck and Siegel), under normal play
//! the same construction gives the group of Grundy values; both are theorems for every
//! sum of heaps, so a disagreement is a bug. The SJ ending has no quotient here, and a
//! quotient that grows past its order bound is not computed: the finding then says why
//! instead of counting agreements it did not check.

use crate::engine::NoProgress;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::quotient::{compute, Quotient, QuotientConfig, QuotientError};
use crate::{Error, Result};

/// What predicts the labels under one ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuotientPrediction {
    /// The quotient, proved for every position with heaps up to its largest heap.
    Computed(Box<Quotient>),
    /// Why no quotient predicts the labels under this ending.
    NotComputed(String),
}

impl QuotientPrediction {
    /// Whether the position (heaps as `(size, count)` runs) is predicted P; `None` when no
    /// quotient was computed.
    ///
    /// # Panics
    /// If a heap is above the quotient's largest heap.
    pub fn predicts_p(&self, runs: &[(u32, u32)]) -> Option<bool> {
        let QuotientPrediction::Computed(q) = self else { return None };
        let mut x = q.identity();
        for &(size, count) in runs {
            let class = q.phi(size).expect("every heap within the quotient's largest heap");
            for _ in 0..count {
                x = q.product(x, class);
            }
        }
        Some(q.is_p_element(x))
    }

    /// Writes the row mask of the positions `prefix ∪ {h}` for the columns `h` in
    /// `lo..end` (`h = 0` is the empty heap): bit `h` of `out` is set iff the position is
    /// predicted P, and the rest of the row's `ceil(end / 64)` words are cleared. Returns
    /// `false`, writing nothing, when no quotient was computed.
    ///
    /// # Panics
    /// If a heap is above the quotient's largest heap, or `out` is shorter than the row.
    pub fn row_mask(&self, prefix: &[u32], lo: usize, end: usize, out: &mut [u64]) -> bool {
        let QuotientPrediction::Computed(q) = self else { return false };
        let class = |h: u32| q.phi(h).expect("every heap within the quotient's largest heap");
        let base = prefix.iter().fold(q.identity(), |x, &h| q.product(x, class(h)));
        out[..end.div_ceil(64)].fill(0);
        for h in lo..end {
            let x = if h == 0 { base } else { q.product(base, class(h as u32)) };
            out[h / 64] |= u64::from(q.is_p_element(x)) << (h % 64);
        }
        true
    }

    /// The reason the quotient was not computed, if it was not.
    pub fn not_computed(&self) -> Option<&str> {
        match self {
            QuotientPrediction::Computed(_) => None,
            QuotientPrediction::NotComputed(reason) => Some(reason),
        }
    }
}

/// The ending a quotient decides; `None` for the SJ ending, which none does.
fn play_of(ending: Ending) -> Option<Ending> {
    (ending != Ending::Sj).then_some(ending)
}

/// The prediction of each ending for the multisets of total at most `total`: the quotient
/// of `game` for heaps up to `max(total, 1)` under the ending's play, with at most
/// `max_order` elements.
///
/// # Errors
/// [`QuotientError::NotASum`] and the other refusals of [`compute`] but the growth ones
/// (past `max_order`, a candidate too large, past the memory budget), which become
/// [`QuotientPrediction::NotComputed`] with the reason; a failed proof (a bug).
pub fn quotient_predictions(
    game: &Game,
    endings: &[Ending],
    total: u32,
    max_order: usize,
) -> Result<Vec<QuotientPrediction>> {
    endings
        .iter()
        .map(|&ending| {
            let Some(play) = play_of(ending) else {
                let reason = "no quotient for the sj rule (a quotient decides normal or misère \
                              play)";
                return Ok(QuotientPrediction::NotComputed(reason.to_string()));
            };
            let config = QuotientConfig { max_order, play, ..QuotientConfig::new(total.max(1)) };
            match compute(game, &config, &NoProgress) {
                Ok(q) => Ok(QuotientPrediction::Computed(Box::new(q))),
                Err(e) => match growth_reason(&e, max_order) {
                    Some(reason) => Ok(QuotientPrediction::NotComputed(reason)),
                    // The quotient layer sits above the root error: its message is kept.
                    None => Err(Error::Invalid(format!("criterion quotient: {e}"))),
                },
            }
        })
        .collect()
}

/// The reason for a quotient not computed because of its size; `None` for other errors.
pub fn growth_reason(e: &QuotientError, max_order: usize) -> Option<String> {
    match *e {
        QuotientError::GrewPastLimit { heap, order, limit } => Some(format!(
            "the quotient grows past {limit} elements at heap {heap} ({order} elements)"
        )),
        QuotientError::CandidateTooLarge { heap, size, .. } => Some(format!(
            "no quotient of at most {max_order} elements at heap {heap} (the search needs a \
             candidate monoid of {size} elements)"
        )),
        QuotientError::BeyondMemory { .. } | QuotientError::OutOfMemory { .. } => {
            Some(e.to_string())
        }
        _ => None,
    }
}
