//! The row visitor of a verification: each finished row compared with every criterion's
//! prediction, counted per ending and criterion, and the findings it adds up to.

use crate::analysis::criteria::Criterion;
use crate::analysis::finding::Finding;
use crate::analysis::predictor::{Formula, RowPredictor};
use crate::analysis::quotient_criterion::QuotientPrediction;
use crate::analysis::tally::{
    count_differences, counterexample_bytes, p_count, Disagreements, Tally,
};
use crate::engine::{Engine, PlaneView, RowView, RowVisitor, NO_P};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::position::PassState;
use crate::model::space::{Mode, Space};

/// Per-task accumulator: positions, P-positions per ending, disagreements per
/// (ending, criterion).
#[derive(Clone, Debug)]
pub(super) struct VerifyAcc {
    positions: u64,
    p_positions: Vec<u64>,
    /// Index `ending * criteria + criterion`.
    disagreements: Vec<Disagreements>,
    /// One row of words for predictions that are not stored densely.
    scratch: Vec<u64>,
    /// A row's prefix and bits, rebuilt from a plane's P columns where they disagree.
    row_prefix: Vec<u32>,
    row_bits: Vec<u64>,
}

/// The row visitor that compares DP rows with criterion predictions.
pub(super) struct Comparer {
    endings: usize,
    /// Criteria compared.
    criteria: usize,
    /// The distinct formulas of the criteria, each with the criteria (indices) it predicts
    /// for: one mask per formula and row serves them all.
    formulas: Vec<(Formula, Vec<usize>)>,
    predictor: RowPredictor,
    /// The quotient criterion's index among the criteria, if it is compared, and its
    /// prediction per ending (over multisets: it has no row formula, and it depends on
    /// the ending).
    quotient: Option<(usize, Vec<QuotientPrediction>)>,
    limit: usize,
    words: usize,
    /// Whether whole planes of single-P rows are taken, when the engine has them.
    pub(super) by_planes: bool,
}

impl RowVisitor for Comparer {
    type Acc = VerifyAcc;

    fn start(&self) -> VerifyAcc {
        VerifyAcc {
            positions: 0,
            p_positions: vec![0; self.endings],
            disagreements: (0..self.endings * self.criteria)
                .map(|_| Disagreements::new(self.limit))
                .collect(),
            scratch: vec![0; self.words],
            row_prefix: Vec::new(),
            row_bits: Vec::new(),
        }
    }

    fn visit(&self, acc: &mut VerifyAcc, row: &RowView<'_>) {
        for &pass in row.pass_states() {
            self.visit_state(acc, row, pass);
        }
    }

    fn wants_planes(&self) -> bool {
        self.by_planes
    }

    /// Counts each row from its P columns, and compares it with the predictions as
    /// columns when every formula predicts a single size; a row where some track's P column
    /// is not the predicted one (or a formula is not on sizes) is rebuilt as bits and
    /// compared as [`RowVisitor::visit`] would, so the disagreements and counterexamples
    /// are the same.
    fn visit_plane(&self, acc: &mut VerifyAcc, plane: &PlaneView<'_>) {
        let pass_states = if plane.pass { 2 } else { 1 };
        let (top, max) = (plane.top, plane.max);
        // Row `top + i` holds `n - i` positions, for `n = max - top + 1`: n(n + 1)/2 in all.
        let n = u64::from(max - top) + 1;
        acc.positions += n * (n + 1) / 2 * pass_states as u64;
        // P-positions track by track down the plane's rows, then added to their ending's.
        for track in 0..plane.tracks {
            let rows = plane.p_columns[track..].iter().step_by(plane.tracks);
            let found = rows.filter(|&&column| column != NO_P).count();
            acc.p_positions[track / pass_states] += found as u64;
        }
        if self.criteria == 0 {
            return;
        }
        let outer = self.predictor.summary(plane.outer);
        for (i, p_columns) in plane.p_columns.chunks_exact(plane.tracks).enumerate() {
            let hk = top + i as u32;
            let summary = self.predictor.summary_plus(outer, plane.outer.len(), hk);
            let agrees = summary.is_some_and(|summary| {
                self.formulas.iter().all(|&(formula, _)| {
                    let Some(size) = self.predictor.predicted_size(formula, summary) else {
                        return false;
                    };
                    let predicted = if (hk..=max).contains(&size) { size } else { NO_P };
                    p_columns.iter().all(|&column| column == predicted)
                })
            });
            if !agrees {
                let row = plane.row(i, &mut acc.row_prefix, &mut acc.row_bits);
                for pass in row.pass_states() {
                    self.compare_state(&mut acc.disagreements, &mut acc.scratch, &row, *pass);
                }
            }
        }
    }

    fn merge(&self, mut left: VerifyAcc, right: VerifyAcc) -> VerifyAcc {
        left.positions += right.positions;
        for (l, r) in left.p_positions.iter_mut().zip(&right.p_positions) {
            *l += r;
        }
        for (l, r) in left.disagreements.iter_mut().zip(right.disagreements) {
            l.merge(r);
        }
        left
    }
}

impl Comparer {
    /// The comparer of `endings` endings' rows of `space` with `criteria` (the quotient
    /// criterion's predictions, one per ending, in `quotients`).
    pub(super) fn new(
        game: &Game,
        space: &Space,
        endings: usize,
        criteria: &[Criterion],
        quotients: Vec<QuotientPrediction>,
        limit: usize,
    ) -> Comparer {
        let predictor = RowPredictor::new(game, space.max());
        let formulas = shared_formulas(&predictor, criteria);
        let distinct: Vec<Formula> = formulas.iter().map(|(formula, _)| *formula).collect();
        let quotient = criteria.iter().position(|&c| c == Criterion::Quotient);
        assert!(quotient.is_none() || quotients.len() == endings, "one quotient per ending");
        Comparer {
            endings,
            criteria: criteria.len(),
            formulas,
            predictor: predictor.for_formulas(&distinct),
            quotient: quotient.map(|c| (c, quotients)),
            limit,
            words: (space.max() as usize + 1).div_ceil(64),
            by_planes: false,
        }
    }

    /// Why the `j`-th ending's comparison with `criterion` was not made, if it was not.
    fn not_compared(&self, j: usize, criterion: Criterion) -> Option<String> {
        let (_, quotients) = self.quotient.as_ref().filter(|_| criterion == Criterion::Quotient)?;
        quotients[j].not_computed().map(str::to_string)
    }

    /// The findings of a comparison's merged result, ending by ending and criterion by
    /// criterion (with no criteria, one finding per ending with its positions and
    /// P-positions); the counterexamples' positions and pass states from `state`.
    pub(super) fn findings(
        &self,
        game: &Game,
        space: &Space,
        endings: &[Ending],
        criteria: &[Criterion],
        acc: VerifyAcc,
        state: impl Fn(u64) -> (Vec<u32>, Option<PassState>) + Copy,
    ) -> Vec<Finding> {
        let (heaps, max, mode, total) = match space {
            Space::Tuples(tuples) => (tuples.heaps(), tuples.max(), tuples.mode(), None),
            Space::Multisets(multisets) => {
                (0, multisets.total(), Mode::Canonical, Some(multisets.total()))
            }
        };
        let mut disagreements = acc.disagreements.into_iter();
        let mut findings = Vec::new();
        for (j, &ending) in endings.iter().enumerate() {
            let (positions, p_positions) = (acc.positions, acc.p_positions[j]);
            let finding = |criterion: Option<Criterion>, tally, not_compared| Finding {
                game: game.spec().to_string(),
                heaps,
                max,
                mode,
                total,
                ending,
                criterion,
                theorem: criterion.is_some_and(|c| c.is_theorem(game, ending)),
                tally,
                not_compared,
            };
            if criteria.is_empty() {
                let tally = Tally { positions, p_positions, ..Tally::default() };
                findings.push(finding(None, tally, None));
            }
            for &criterion in criteria {
                let found = disagreements.next().expect("one tally per ending and criterion");
                let not_compared = self.not_compared(j, criterion);
                let tally = match not_compared {
                    Some(_) => Tally { positions, p_positions, ..Tally::default() },
                    None => found.into_tally_with(positions, p_positions, state),
                };
                findings.push(finding(Some(criterion), tally, not_compared));
            }
        }
        findings
    }

    /// Counts and compares the row in one pass state (`None` without a pass).
    fn visit_state(&self, acc: &mut VerifyAcc, row: &RowView<'_>, pass: Option<PassState>) {
        // A game without a pass has one track per ending, read as the pass used.
        let track = pass.unwrap_or(PassState::Used);
        let lo = row.lo as usize;
        // Canonical rows start at `lo`: the words below it are clear in the DP rows and
        // outside the row in the predictions.
        let from = lo / 64;
        acc.positions += (row.end - lo) as u64;
        for (j, count) in acc.p_positions.iter_mut().enumerate() {
            *count += p_count(&row.state_bits(j, track)[from..]);
        }
        if self.criteria == 0 {
            return;
        }
        self.compare_state(&mut acc.disagreements, &mut acc.scratch, row, pass);
    }

    /// Compares the row in one pass state with every formula, into `disagreements` (per
    /// ending and criterion); `scratch` is one row of words.
    fn compare_state(
        &self,
        disagreements: &mut [Disagreements],
        scratch: &mut [u64],
        row: &RowView<'_>,
        pass: Option<PassState>,
    ) {
        let track = pass.unwrap_or(PassState::Used);
        let (lo, end) = (row.lo as usize, row.end);
        let summary = self.predictor.summary(row.prefix);
        for (formula, criteria) in &self.formulas {
            // The prediction depends on the row only, not on the ending: look it up once.
            let predicted = self.predictor.predicted(*formula, summary, scratch);
            for j in 0..self.endings {
                let dp_bits = row.state_bits(j, track);
                // Most rows agree with most criteria: counted once, offered only if not.
                let count = count_differences(dp_bits, predicted, lo, end);
                if count != 0 {
                    for &c in criteria {
                        let tally = &mut disagreements[j * self.criteria + c];
                        tally.add_row(count, row, pass, dp_bits, predicted, end);
                    }
                }
            }
        }
        let Some((c, quotients)) = &self.quotient else { return };
        for (j, quotient) in quotients.iter().enumerate() {
            if quotient.row_mask(row.prefix, lo, end, scratch) {
                let dp_bits = row.state_bits(j, track);
                let count = count_differences(dp_bits, scratch, lo, end);
                let tally = &mut disagreements[j * self.criteria + c];
                tally.add_row(count, row, pass, dp_bits, scratch, end);
            }
        }
    }
}

/// The distinct formulas `predictor` computes `criteria`'s masks by, each with the indices
/// of the criteria it serves, in order of first use (the quotient criterion has none).
fn shared_formulas(predictor: &RowPredictor, criteria: &[Criterion]) -> Vec<(Formula, Vec<usize>)> {
    let mut formulas: Vec<(Formula, Vec<usize>)> = Vec::new();
    let with_formulas = criteria.iter().enumerate().filter(|(_, &c)| c != Criterion::Quotient);
    for (c, &criterion) in with_formulas {
        let formula = predictor.shared_formula(criterion);
        match formulas.iter_mut().find(|(r, _)| *r == formula) {
            Some((_, served)) => served.push(c),
            None => formulas.push((formula, vec![c])),
        }
    }
    formulas
}

/// Bytes of the comparison beside the labelling: the predictor's masks, and per task a
/// row of scratch, a rebuilt row and the counterexamples kept.
pub(super) fn comparer_bytes(
    engine: &Engine<'_>,
    endings: usize,
    criteria: usize,
    limit: usize,
) -> u64 {
    let space = engine.space();
    let row = (u64::from(space.max()) + 1).div_ceil(64) * 8;
    let lists = (endings * criteria) as u64;
    let tasks = rayon::current_num_threads() as u64;
    let kept = counterexample_bytes(lists, limit, engine.positions(), space.heaps(), tasks);
    let per_task = row * (1 + 2 * endings as u64);
    RowPredictor::bytes(space.max()).saturating_add(per_task * tasks).saturating_add(kept)
}
