//! Verify and check over multiset spaces: labels from the multiset engine compared, chunk
//! by chunk of consecutive ranks, with the criteria or a claim.
//!
//! A chunk plays the part of a tuple space's row: its positions' bits are packed into
//! words (bit `i` for rank `first + i`), predictions are packed the same way, and the
//! shared `Disagreements` tally counts them and keeps the counterexamples of smallest rank.

use rayon::prelude::*;

use crate::analysis::criteria::Criterion;
use crate::analysis::expr::{EvalError, Program};
use crate::analysis::finding::Finding;
use crate::analysis::quotient_criterion::{quotient_predictions, QuotientPrediction};
use crate::analysis::tally::{Disagreements, Tally};
use crate::engine::{Labels, RowView};
use crate::error::{Error, Result};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::multiset::{MultisetSpace, Walk};
use crate::model::space::Mode;
use crate::quotient::DEFAULT_MAX_ORDER;

/// Positions per chunk: 64 words of bits.
const CHUNK: usize = 4096;

/// What the criteria read from a position: XORs and whether a value exceeds 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Summary {
    xor: u32,
    gxor: u32,
    rich: bool,
    grich: bool,
}

impl Summary {
    fn of(runs: &[(u32, u32)], grundy: &[u32]) -> Summary {
        let mut s = Summary { xor: 0, gxor: 0, rich: false, grich: false };
        for &(part, count) in runs {
            let g = grundy[part as usize];
            if count % 2 == 1 {
                (s.xor, s.gxor) = (s.xor ^ part, s.gxor ^ g);
            }
            (s.rich, s.grich) = (s.rich || part > 1, s.grich || g > 1);
        }
        s
    }

    /// The same prediction as [`Criterion::predicts_p`], from the summary; `None` for a
    /// criterion outside [`MULTISET_CRITERIA`] (the quotient's comes from the quotient).
    fn predicts_p(self, criterion: Criterion) -> Option<bool> {
        let misere_rule_n = |big: bool, x: u32| (big && x != 0) || (!big && x == 0);
        match criterion {
            Criterion::Xor => Some(self.gxor == 0),
            Criterion::AntiNim => Some(!misere_rule_n(self.rich, self.xor)),
            Criterion::Sj => Some(!misere_rule_n(self.grich, self.gxor)),
            _ => None,
        }
    }
}

/// The criteria a multiset space is compared with by default: those that read the heaps'
/// XORs (Moore's and Wythoff's criteria are about games with multi-heap moves). The
/// quotient criterion is compared too when asked for (it computes the game's quotient).
pub const MULTISET_CRITERIA: [Criterion; 3] = [Criterion::Xor, Criterion::AntiNim, Criterion::Sj];

/// Refuses a criterion a multiset space is not compared with.
///
/// # Errors
/// [`Error::CriterionNotForMultisets`] naming the criterion; [`Error::NotASum`] for the
/// quotient criterion of a game that is not a sum of heaps.
pub fn check_multiset_criterion(game: &Game, criterion: Criterion) -> Result<()> {
    if criterion == Criterion::Quotient {
        return game.require_sum("the quotient criterion");
    }
    if MULTISET_CRITERIA.contains(&criterion) {
        return criterion.check_applies(game, 1);
    }
    Err(Error::CriterionNotForMultisets { criterion: criterion.name().to_string() })
}

/// Runs `visit(acc, first, len, walk)` on every chunk of the labels' ranks in parallel
/// (`walk` at rank `first`) and merges the accumulators.
fn fold_chunks<A: Send>(
    space: &MultisetSpace,
    start: impl Fn() -> A + Sync + Send,
    visit: impl Fn(&mut A, u64, usize, &mut Walk) + Sync + Send,
    merge: impl Fn(A, A) -> A + Sync + Send,
) -> A {
    let positions = space.positions();
    let chunks = positions.div_ceil(CHUNK as u64);
    (0..chunks)
        .into_par_iter()
        .fold(&start, |mut acc, c| {
            let first = c * CHUNK as u64;
            let len = (positions - first).min(CHUNK as u64) as usize;
            let mut walk = Walk::at(&space.unrank(first));
            visit(&mut acc, first, len, &mut walk);
            acc
        })
        .reduce(&start, merge)
}

/// The multiset space of labels over one.
///
/// # Panics
/// If the labels are of a tuple space.
fn multisets_of(labels: &Labels) -> &MultisetSpace {
    labels.space().as_multisets().expect("labels of a multiset space")
}

/// Compares one chunk's DP bits with predicted bits.
fn compare(tally: &mut Disagreements, first: u64, len: usize, dp: &[u64], predicted: &[u64]) {
    let row = RowView {
        prefix: &[],
        lo: 0,
        end: len,
        bits: dp,
        ranks: &[],
        words_per_row: dp.len(),
        first_index: first,
        pass: false,
    };
    tally.compare_row(&row, None, dp, predicted, len);
}

/// The findings of labels already computed (for `game`, under their endings) compared
/// with each criterion, as [`crate::analysis::verify::verify`] returns them for multisets. The quotient criterion
/// computes the game's quotients first ([`quotient_predictions`], orders up to
/// [`DEFAULT_MAX_ORDER`]).
///
/// # Errors
/// As [`quotient_predictions`].
///
/// # Panics
/// If a criterion is not one [`check_multiset_criterion`] accepts for `game`.
pub fn compare_multiset_labels(
    game: &Game,
    labels: &[Labels],
    criteria: &[Criterion],
    limit: usize,
) -> Result<Vec<Finding>> {
    let quotients = if criteria.contains(&Criterion::Quotient) {
        let total = multisets_of(&labels[0]).total();
        let endings: Vec<Ending> = labels.iter().map(Labels::ending).collect();
        quotient_predictions(game, &endings, total, DEFAULT_MAX_ORDER)?
    } else {
        Vec::new()
    };
    Ok(compare_multiset_labels_with(game, labels, criteria, &quotients, limit))
}

/// [`compare_multiset_labels`] with the quotient criterion's predictions given, one per
/// ending of the labels (none when the criteria do not hold it).
///
/// # Panics
/// If the labels are not of one multiset space; if a criterion is not one [`check_multiset_criterion`] accepts for `game`, or the
/// criteria hold the quotient and `quotients` has not one prediction per ending, or a
/// quotient's largest heap is below the space's total.
pub fn compare_multiset_labels_with(
    game: &Game,
    labels: &[Labels],
    criteria: &[Criterion],
    quotients: &[QuotientPrediction],
    limit: usize,
) -> Vec<Finding> {
    let space = multisets_of(&labels[0]);
    let endings: Vec<Ending> = labels.iter().map(Labels::ending).collect();
    let total = space.total();
    let with_quotient = criteria.contains(&Criterion::Quotient);
    assert!(!with_quotient || quotients.len() == endings.len(), "one quotient per ending");
    let grundy = game.grundy(total);
    let count = endings.len() * criteria.len();
    let start = || (0..count).map(|_| Disagreements::new(limit)).collect::<Vec<_>>();
    let visit = |acc: &mut Vec<Disagreements>, first: u64, len: usize, walk: &mut Walk| {
        let words = len.div_ceil(64);
        // Closed forms predict alike under every ending; the quotient depends on it.
        let mut predicted = vec![vec![0u64; words]; criteria.len()];
        let mut by_quotient =
            vec![vec![0u64; words]; if with_quotient { endings.len() } else { 0 }];
        for i in 0..len {
            let summary = Summary::of(walk.runs(), &grundy);
            for (c, &criterion) in criteria.iter().enumerate() {
                if criterion != Criterion::Quotient {
                    let p = summary.predicts_p(criterion).expect("criteria checked by the caller");
                    predicted[c][i / 64] |= u64::from(p) << (i % 64);
                }
            }
            for (j, quotient) in quotients.iter().enumerate().take(by_quotient.len()) {
                let p = quotient.predicts_p(walk.runs()).unwrap_or(false);
                by_quotient[j][i / 64] |= u64::from(p) << (i % 64);
            }
            walk.advance();
        }
        let mut dp = vec![0u64; words];
        for j in 0..endings.len() {
            labels[j].chunk_bits(first, len, &mut dp);
            for (c, &criterion) in criteria.iter().enumerate() {
                let prediction = match criterion {
                    Criterion::Quotient if quotients[j].not_computed().is_some() => continue,
                    Criterion::Quotient => &by_quotient[j],
                    _ => &predicted[c],
                };
                compare(&mut acc[j * criteria.len() + c], first, len, &dp, prediction);
            }
        }
    };
    let merge = |mut left: Vec<Disagreements>, right: Vec<Disagreements>| {
        left.iter_mut().zip(right).for_each(|(l, r)| l.merge(r));
        left
    };
    let tallies = fold_chunks(space, start, visit, merge);
    let positions = space.positions();
    let unrank = |rank| (space.unrank(rank), None);
    tallies
        .into_iter()
        .enumerate()
        .map(|(index, found)| {
            let (j, criterion) = (index / criteria.len(), criteria[index % criteria.len()]);
            let not_compared = match criterion {
                Criterion::Quotient => quotients[j].not_computed().map(str::to_string),
                _ => None,
            };
            let tally = match not_compared {
                Some(_) => {
                    Tally { positions, p_positions: labels[j].p_count(), ..Tally::default() }
                }
                None => found.into_tally_with(positions, labels[j].p_count(), unrank),
            };
            Finding {
                game: game.spec().to_string(),
                heaps: 0,
                max: total,
                mode: Mode::Canonical,
                total: Some(total),
                ending: endings[j],
                criterion: Some(criterion),
                theorem: criterion.is_theorem(game, endings[j]),
                tally,
                not_compared,
            }
        })
        .collect()
}

/// Per-task state of a claim check: disagreements and the evaluation error of least rank.
struct ClaimAcc {
    disagreements: Disagreements,
    error: Option<(u64, EvalError)>,
}

/// Tests the claim (compiled by [`crate::analysis::expr::Expr::compile`] for the labels'
/// multiset space) on every position against the labels, keeping at most `limit`
/// counterexamples.
///
/// # Errors
/// The evaluation error of least rank if the claim cannot be evaluated somewhere.
///
/// # Panics
/// If the labels are not of a multiset space.
pub fn check_claim(labels: &Labels, program: &Program, limit: usize) -> Result<Tally, EvalError> {
    let space = multisets_of(labels);
    let start = || ClaimAcc { disagreements: Disagreements::new(limit), error: None };
    let visit = |acc: &mut ClaimAcc, first: u64, len: usize, walk: &mut Walk| {
        let (mut predicted, mut dp) = (vec![0u64; len.div_ceil(64)], vec![0u64; len.div_ceil(64)]);
        let (mut heaps, mut padded) = (Vec::new(), Vec::new());
        for i in 0..len {
            heaps.clear();
            walk.runs().iter().for_each(|&(p, c)| heaps.extend(std::iter::repeat_n(p, c as usize)));
            match program.eval_multiset(&heaps, &mut padded) {
                Ok(v) => predicted[i / 64] |= u64::from(v != 0) << (i % 64),
                Err(error) => {
                    // Chunks of one task come in rank order: the first error is the least.
                    acc.error.get_or_insert((first + i as u64, error));
                    return;
                }
            }
            walk.advance();
        }
        labels.chunk_bits(first, len, &mut dp);
        compare(&mut acc.disagreements, first, len, &dp, &predicted);
    };
    let merge = |mut left: ClaimAcc, right: ClaimAcc| {
        left.disagreements.merge(right.disagreements);
        left.error = match (left.error, right.error) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        };
        left
    };
    let acc = fold_chunks(space, start, visit, merge);
    if let Some((_, error)) = acc.error {
        return Err(error);
    }
    let positions = space.positions();
    let unrank = |rank| (space.unrank(rank), None);
    Ok(acc.disagreements.into_tally_with(positions, labels.p_count(), unrank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_predict_as_the_criteria_do() {
        let game = Game::octal("0.07").unwrap();
        let grundy = game.grundy(12);
        for heaps in MultisetSpace::new(12).unwrap().iter() {
            let summary = Summary::of(Walk::at(&heaps).runs(), &grundy);
            for criterion in MULTISET_CRITERIA {
                let expected = criterion.predicts_p(&game, &heaps, &grundy);
                assert_eq!(summary.predicts_p(criterion), Some(expected), "{criterion} {heaps:?}");
            }
        }
    }
}
