//! Claims checked over multiset spaces: labels from the multiset engine compared, chunk
//! by chunk of consecutive ranks, with the claim.
//!
//! A chunk plays the part of a tuple space's row: its positions' bits are packed into
//! words (bit `i` for rank `first + i`), predictions are packed the same way, and the
//! shared `Disagreements` tally counts them and keeps the counterexamples of smallest rank.

use rayon::prelude::*;

use crate::analysis::expr::{EvalError, Program};
use crate::analysis::tally::{Disagreements, Tally};
use crate::engine::{Labels, RowView};
use crate::model::multiset::{MultisetSpace, Walk};

/// Positions per chunk: 64 words of bits.
const CHUNK: usize = 4096;

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
