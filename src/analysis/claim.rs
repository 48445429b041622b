//! Testing a claim "a position is P exactly when EXPR holds" against the DP labels.
//!
//! The checker is a [`RowVisitor`]: for each finished row it evaluates the claim on the
//! whole row at once ([`Program::eval_row`]), compares the predicted P-bits with the
//! labels word by word and counts with popcounts. Counterexamples are kept as the `K`
//! smallest indices, which makes the result independent of how rows were split in tasks.
//! A multiset space's rows (a multiset and its largest heap) are evaluated position by
//! position ([`Program::eval_multiset`]): a claim reads a multiset's heaps largest first.

use crate::analysis::expr::{EvalError, Program, RowScratch, RowState};
use crate::analysis::tally::{counterexample_bytes, p_count, Disagreements, Tally};
use crate::engine::EngineError;
use crate::engine::{Engine, GrundyValues, Progress, Reservation, RowView, RowVisitor, Work};
use crate::model::ending::Ending;
use crate::model::position::PassState;
use crate::Result;

/// A row visitor that checks a compiled boolean claim against the labels of one ending
/// (in every pass state of a game with a pass).
struct ClaimCheck<'p> {
    program: &'p Program,
    limit: usize,
    /// The whole positions' Grundy values, when the claim reads `grundy`.
    values: Option<&'p GrundyValues>,
}

/// What one task has accumulated: counts, counterexamples, the first evaluation error.
struct ClaimAcc {
    positions: u64,
    p_positions: u64,
    disagreements: Disagreements,
    /// The evaluation error of the smallest index seen, with that index.
    error: Option<(u64, EvalError)>,
    scratch: RowScratch,
    predicted: Vec<u64>,
    /// The Grundy values of the row's columns, when the claim reads them.
    lanes: Vec<i64>,
    /// A multiset's heaps, largest first, and the evaluation's scratch.
    heaps: Vec<u32>,
    padded: Vec<u32>,
}

impl ClaimAcc {
    /// Keeps the evaluation error at state `index` if it is the least seen so far.
    fn keep_error(&mut self, index: u64, error: EvalError) {
        if self.error.as_ref().is_none_or(|(seen, _)| index < *seen) {
            self.error = Some((index, error));
        }
    }
}

impl RowVisitor for ClaimCheck<'_> {
    type Acc = ClaimAcc;

    fn start(&self) -> ClaimAcc {
        ClaimAcc {
            positions: 0,
            p_positions: 0,
            disagreements: Disagreements::new(self.limit),
            error: None,
            scratch: RowScratch::default(),
            predicted: Vec::new(),
            lanes: Vec::new(),
            heaps: Vec::new(),
            padded: Vec::new(),
        }
    }

    fn visit(&self, acc: &mut ClaimAcc, row: &RowView<'_>) {
        if !row.ranks.is_empty() {
            return self.visit_multisets(acc, row);
        }
        for &pass in row.pass_states() {
            self.visit_state(acc, row, pass);
        }
    }

    fn merge(&self, mut left: ClaimAcc, right: ClaimAcc) -> ClaimAcc {
        left.positions += right.positions;
        left.p_positions += right.p_positions;
        left.disagreements.merge(right.disagreements);
        left.error = match (left.error, right.error) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        };
        left
    }
}

impl ClaimCheck<'_> {
    /// Checks the row in one pass state (`None` without a pass).
    fn visit_state(&self, acc: &mut ClaimAcc, row: &RowView<'_>, pass: Option<PassState>) {
        let radix = self.program.max() as usize + 1;
        acc.predicted.clear();
        acc.predicted.resize(radix.div_ceil(64), 0);
        acc.lanes.clear();
        if let Some(values) = self.values {
            // Tuple rows only (multisets have no position values): states are consecutive.
            let (first, step) =
                (row.state_index(row.lo as usize, pass) as usize, row.pass_states().len());
            let states = values.values()[first..].iter().step_by(step);
            acc.lanes.extend(states.take(radix - row.lo as usize).map(|&v| i64::from(v)));
        }
        let available = pass == Some(PassState::Available);
        let state = RowState { pass: i64::from(available), values: &acc.lanes };
        let (prefix, lo) = (row.prefix, row.lo);
        if let Err(error) =
            self.program.eval_row_in(prefix, lo, state, &mut acc.predicted, &mut acc.scratch)
        {
            let last = *error.position.last().expect("positions have heaps");
            acc.keep_error(row.state_index(last as usize, pass), error);
            return;
        }
        // A game without a pass has one track, read as the pass used.
        let dp_bits = row.state_bits(0, pass.unwrap_or(PassState::Used));
        acc.positions += (radix - row.lo as usize) as u64;
        acc.p_positions += p_count(dp_bits);
        acc.disagreements.compare_row(row, pass, dp_bits, &acc.predicted, radix);
    }

    /// Checks a row of a multiset space, position by position.
    fn visit_multisets(&self, acc: &mut ClaimAcc, row: &RowView<'_>) {
        let (lo, end) = (row.lo as usize, row.end);
        acc.predicted.clear();
        acc.predicted.resize(end.div_ceil(64), 0);
        for h in lo..end {
            acc.heaps.clear();
            acc.heaps.extend((h > 0).then_some(h as u32));
            acc.heaps.extend(row.prefix);
            match self.program.eval_multiset(&acc.heaps, &mut acc.padded) {
                Ok(value) => acc.predicted[h / 64] |= u64::from(value != 0) << (h % 64),
                Err(error) => {
                    // Ranks grow along a row: its first error is its least.
                    acc.keep_error(row.index_of(h), error);
                    return;
                }
            }
        }
        let dp_bits = row.state_bits(0, PassState::Used);
        acc.positions += (end - lo) as u64;
        acc.p_positions += p_count(dp_bits);
        acc.disagreements.compare_row(row, None, dp_bits, &acc.predicted, end);
    }
}

/// Everything testing a claim can fail at: the space refused (its memory, a game it does
/// not hold), or the claim not evaluable at some position.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// The space or the run refused, as the engine says.
    #[error(transparent)]
    Space(#[from] crate::Error),
    /// A claim that cannot be evaluated at some position (a division by zero).
    #[error(transparent)]
    Eval(#[from] EvalError),
}

// A claim check runs the engine directly: its refusals come up as the library's.
impl From<EngineError> for ClaimError {
    fn from(e: EngineError) -> Self {
        ClaimError::Space(e.into())
    }
}

/// Labels the engine's space under `ending` and tests the claim on every position,
/// keeping at most `limit` counterexamples: one reservation of [`claim_work`].
///
/// # Errors
/// [`crate::EngineError::TooLarge`] if the space does not fit in memory;
/// [`ClaimError::Eval`] with the evaluation error of smallest index, if the claim
/// cannot be evaluated somewhere (a division by zero).
///
/// # Panics
/// If `program` was compiled for another space than the engine's.
pub fn test_claim(
    engine: &Engine<'_>,
    ending: Ending,
    program: &Program,
    limit: usize,
    progress: &dyn Progress,
) -> Result<Tally, ClaimError> {
    engine.ensure_supported(&[ending])?;
    let reservation = engine.reserve(&claim_work(engine, program.operators(), limit))?;
    test_claim_with(&reservation, ending, program, None, limit, progress)
}

/// What testing a claim of `operators` operators ([`crate::analysis::expr::Expr::operators`])
/// holds, to reserve with whatever else the caller holds beside it (the Grundy values it
/// reads): a labelling streaming one ending's rows, the compiled claim, and per task
/// the row evaluation's lane buffers and the counterexamples kept.
///
/// Over multisets the stream is read from the ending's table, labelled whole.
pub fn claim_work(engine: &Engine<'_>, operators: usize, limit: usize) -> [Work; 2] {
    let space = engine.space();
    let columns = u64::from(space.max()) + 1;
    let lanes = columns * 8;
    let tasks = rayon::current_num_threads() as u64;
    let per_task = (2 * operators as u64 + 6) * lanes + columns.div_ceil(64) * 8;
    let kept = counterexample_bytes(1, limit, engine.positions(), space.heaps(), tasks);
    let bytes = (per_task * tasks).saturating_add(kept).saturating_add(2 * lanes);
    [Work::Stream { endings: 1 }, Work::Bytes(bytes)]
}

/// As [`test_claim`], in a reservation that holds [`claim_work`], with the whole
/// positions' Grundy values of the engine's space (from [`Engine::grundy_values`]) for a
/// claim that reads `grundy`. In a game with a pass, every position is tested in both
/// pass states (the feature `pass` tells which).
///
/// # Errors
/// As [`test_claim`], but for [`crate::EngineError::TooLarge`]: the memory is reserved already.
///
/// # Panics
/// As [`test_claim`], and if the claim reads `grundy` without `values` (which a multiset
/// space does not have).
pub fn test_claim_with(
    reservation: &Reservation<'_, '_>,
    ending: Ending,
    program: &Program,
    values: Option<&GrundyValues>,
    limit: usize,
    progress: &dyn Progress,
) -> Result<Tally, ClaimError> {
    let engine = reservation.engine();
    let space = engine.space();
    assert_eq!(program.heaps(), space.heaps(), "program compiled for another heap count");
    assert_eq!(program.max(), space.max(), "program compiled for another max");
    let acc = reservation.stream(&[ending], &ClaimCheck { program, limit, values }, progress)?;
    if let Some((_, error)) = acc.error {
        return Err(error.into());
    }
    Ok(acc.disagreements.into_tally(engine, acc.positions, acc.p_positions))
}
