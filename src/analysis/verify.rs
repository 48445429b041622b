//! Verification: the DP labels of a space compared row by row with every criterion.

pub use crate::analysis::finding::{Finding, Verification};

use crate::analysis::criteria::Criterion;
use crate::analysis::multisets::{check_multiset_criterion, compare_multiset_labels};
use crate::analysis::predictor::{Formula, RowPredictor};
use crate::analysis::tally::{
    count_differences, counterexample_bytes, p_count, Disagreements, Tally,
};
use crate::engine::{
    Engine, Labels, PlaneView, Progress, Reservation, RowView, RowVisitor, Work, NO_P,
};
use crate::error::Result;
use crate::model::ending::Ending;
use crate::model::position::PassState;

/// Per-task accumulator: positions, P-positions per ending, disagreements per
/// (ending, criterion).
#[derive(Clone, Debug)]
struct VerifyAcc {
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
struct Comparer {
    endings: usize,
    /// Criteria compared.
    criteria: usize,
    /// The distinct formulas of the criteria, each with the criteria (indices) it predicts
    /// for: one mask per formula and row serves them all.
    formulas: Vec<(Formula, Vec<usize>)>,
    predictor: RowPredictor,
    limit: usize,
    words: usize,
    columns: usize,
    /// Whether whole planes of single-P rows are taken, when the engine has them.
    by_planes: bool,
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
        if row.pass {
            for pass in [PassState::Used, PassState::Available] {
                self.visit_state(acc, row, Some(pass));
            }
        } else {
            self.visit_state(acc, row, None);
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
    /// Counts and compares the row in one pass state (`None` without a pass).
    fn visit_state(&self, acc: &mut VerifyAcc, row: &RowView<'_>, pass: Option<PassState>) {
        // A game without a pass has one track per ending, read as the pass used.
        let track = pass.unwrap_or(PassState::Used);
        let lo = row.lo as usize;
        // Canonical rows start at `lo`: the words below it are clear in the DP rows and
        // outside the row in the predictions.
        let from = lo / 64;
        acc.positions += (self.columns - lo) as u64;
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
        let lo = row.lo as usize;
        let summary = self.predictor.summary(row.prefix);
        for (formula, criteria) in &self.formulas {
            // The prediction depends on the row only, not on the ending: look it up once.
            let predicted = self.predictor.predicted(*formula, summary, scratch);
            for j in 0..self.endings {
                let dp_bits = row.state_bits(j, track);
                // Most rows agree with most criteria: counted once, offered only if not.
                let count = count_differences(dp_bits, predicted, lo, self.columns);
                if count != 0 {
                    for &c in criteria {
                        let tally = &mut disagreements[j * self.criteria + c];
                        tally.add_row(count, row, pass, dp_bits, predicted, self.columns);
                    }
                }
            }
        }
    }
}

/// The distinct formulas `predictor` computes `criteria`'s masks by, each with the indices
/// of the criteria it serves, in order of first use.
fn shared_formulas(predictor: &RowPredictor, criteria: &[Criterion]) -> Vec<(Formula, Vec<usize>)> {
    let mut formulas: Vec<(Formula, Vec<usize>)> = Vec::new();
    for (c, &criterion) in criteria.iter().enumerate() {
        let formula = predictor.shared_formula(criterion);
        match formulas.iter_mut().find(|(r, _)| *r == formula) {
            Some((_, served)) => served.push(c),
            None => formulas.push((formula, vec![c])),
        }
    }
    formulas
}

/// Labels the engine's space under every ending and compares every position with each
/// criterion, keeping at most `limit` counterexamples per (ending, criterion): [`prepare`]
/// and [`Verifier::run`]. With no criteria, each ending still gets one finding with its
/// positions and P-positions.
///
/// # Errors
/// As [`prepare`] and [`Verifier::run`].
pub fn verify(
    engine: &Engine<'_>,
    endings: &[Ending],
    criteria: &[Criterion],
    limit: usize,
    progress: &dyn Progress,
) -> Result<Verification> {
    prepare(engine, endings, criteria, limit)?.run(progress)
}

/// A verification of one space whose memory is granted.
#[derive(Debug)]
pub struct Verifier<'e, 'g> {
    reservation: Reservation<'e, 'g>,
    endings: Vec<Ending>,
    criteria: Vec<Criterion>,
    limit: usize,
    labellings: usize,
}

/// Prepares the verification of the engine's space: refuses what the game cannot do
/// there, and checks the memory once, before any work. All endings run in one fused
/// labelling when their working state fits in the engine's memory limit together, else
/// one labelling per ending ([`Verifier::labellings`] says which).
///
/// # Errors
/// [`crate::Error::TooLarge`] if even one ending does not fit; the errors of
/// [`Engine::ensure_supported`]; [`crate::Error::CriterionNotApplicable`] for a criterion
/// that says nothing about the game with this heap count.
pub fn prepare<'e, 'g>(
    engine: &'e Engine<'g>,
    endings: &[Ending],
    criteria: &[Criterion],
    limit: usize,
) -> Result<Verifier<'e, 'g>> {
    let (kept_endings, kept_criteria) = (endings.to_vec(), criteria.to_vec());
    if engine.space().as_multisets().is_some() {
        // Multisets are labelled whole, every ending in one table, and compared chunk by
        // chunk of ranks afterwards.
        for &criterion in criteria {
            check_multiset_criterion(engine.game(), criterion)?;
        }
        engine.ensure_supported(endings)?;
        let reservation = engine.reserve(&[Work::Tables { endings: endings.len() }])?;
        let (endings, criteria) = (kept_endings, kept_criteria);
        return Ok(Verifier { reservation, endings, criteria, limit, labellings: 1 });
    }
    engine.ensure_supported(endings)?;
    for criterion in criteria {
        criterion.check_applies(engine.game(), engine.space().heaps())?;
    }
    let work = |endings: usize| {
        let comparer = comparer_bytes(engine, endings, criteria.len(), limit);
        [Work::Stream { endings }, Work::Bytes(comparer)]
    };
    let fused = engine.memory_need(&work(endings.len()))? <= engine.memory_limit();
    let labellings = if fused { 1 } else { endings.len() };
    let reservation = engine.reserve(&work(endings.len() / labellings))?;
    let (endings, criteria) = (kept_endings, kept_criteria);
    Ok(Verifier { reservation, endings, criteria, limit, labellings })
}

impl<'e, 'g> Verifier<'e, 'g> {
    /// The labellings the verification makes: 1 when the endings' working state fits in
    /// memory together, else one per ending. Progress reports the space's positions once
    /// per labelling.
    pub fn labellings(&self) -> usize {
        self.labellings
    }

    /// The engine that labels.
    pub fn engine(&self) -> &'e Engine<'g> {
        self.reservation.engine()
    }

    /// Bytes granted to the verification.
    pub fn bytes(&self) -> u64 {
        self.reservation.grant().bytes()
    }

    /// Labels and compares, labelling by labelling.
    ///
    /// # Errors
    /// [`crate::Error::OutOfMemory`] if the system refuses the memory granted.
    pub fn run(&self, progress: &dyn Progress) -> Result<Verification> {
        Ok(self.run_with_labels(progress)?.0)
    }

    /// Labels and compares as [`Verifier::run`], and hands back the labels where the
    /// space is labelled whole: over multisets, one table per ending in the order given;
    /// over tuples, whose rows are streamed and never kept, none.
    ///
    /// # Errors
    /// As [`Verifier::run`].
    pub fn run_with_labels(&self, progress: &dyn Progress) -> Result<(Verification, Vec<Labels>)> {
        let (criteria, limit) = (&self.criteria[..], self.limit);
        if self.engine().space().as_multisets().is_some() {
            let labels = self.reservation.label_all(&self.endings, progress)?;
            let findings = compare_multiset_labels(self.engine().game(), &labels, criteria, limit)?;
            return Ok((Verification { findings, labellings: 1 }, labels));
        }
        let mut findings = Vec::new();
        for endings in self.endings.chunks(self.endings.len().div_ceil(self.labellings).max(1)) {
            findings.extend(verify_fused(
                &self.reservation,
                endings,
                criteria,
                limit,
                progress,
                true,
            )?);
        }
        Ok((Verification { findings, labellings: self.labellings }, Vec::new()))
    }
}

/// Bytes of the comparison beside the labelling: the predictor's masks, and per task a
/// row of scratch, a rebuilt row and the counterexamples kept.
fn comparer_bytes(engine: &Engine<'_>, endings: usize, criteria: usize, limit: usize) -> u64 {
    let space = engine.tuple_space();
    let row = space.radix().div_ceil(64) * 8;
    let lists = (endings * criteria) as u64;
    let tasks = rayon::current_num_threads() as u64;
    let kept = counterexample_bytes(lists, limit, engine.positions(), space.heaps(), tasks);
    let per_task = row * (1 + 2 * endings as u64);
    RowPredictor::bytes(space.max()).saturating_add(per_task * tasks).saturating_add(kept)
}

/// One fused labelling of `endings`; findings ending by ending, criteria in the order given.
/// With `by_planes`, an engine that labels planes of single-P rows hands them over whole.
fn verify_fused(
    reservation: &Reservation<'_, '_>,
    endings: &[Ending],
    criteria: &[Criterion],
    limit: usize,
    progress: &dyn Progress,
    by_planes: bool,
) -> Result<Vec<Finding>> {
    let engine = reservation.engine();
    let (game, space) = (engine.game(), engine.tuple_space());
    let predictor = RowPredictor::new(game, space.max());
    let formulas = shared_formulas(&predictor, criteria);
    let distinct: Vec<Formula> = formulas.iter().map(|(formula, _)| *formula).collect();
    let comparer = Comparer {
        endings: endings.len(),
        criteria: criteria.len(),
        formulas,
        predictor: predictor.for_formulas(&distinct),
        limit,
        words: (space.radix() as usize).div_ceil(64),
        columns: space.radix() as usize,
        by_planes,
    };
    let acc = reservation.stream(endings, &comparer, progress)?;
    let mut disagreements = acc.disagreements.into_iter();
    let mut findings = Vec::new();
    for (j, &ending) in endings.iter().enumerate() {
        let finding = |criterion: Option<Criterion>, tally| Finding {
            game: game.spec().to_string(),
            heaps: space.heaps(),
            max: space.max(),
            mode: space.mode(),
            total: None,
            ending,
            criterion,
            theorem: criterion.is_some_and(|c| c.is_theorem(game, ending)),
            tally,
            not_compared: None,
        };
        if criteria.is_empty() {
            let tally = Tally {
                positions: acc.positions,
                p_positions: acc.p_positions[j],
                ..Tally::default()
            };
            findings.push(finding(None, tally));
        }
        for &criterion in criteria {
            let found = disagreements.next().expect("one tally per ending and criterion");
            let tally = found.into_tally(engine, acc.positions, acc.p_positions[j]);
            findings.push(finding(Some(criterion), tally));
        }
    }
    Ok(findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::model::game::Game;
    use crate::model::space::{Mode, TupleSpace};

    /// Findings of `game` over sorted tuples, its planes taken whole or row by row.
    fn both_ways(game: &Game, heaps: usize, max: u32, limit: usize) -> [Vec<Finding>; 2] {
        let space = TupleSpace::in_mode(heaps, max, Mode::Canonical).unwrap();
        let engine = Engine::builder(game, space.into()).parallel_threshold(0).build();
        let criteria = Criterion::applicable(game, heaps);
        let endings = if game.has_pass() { &Ending::ALL[..2] } else { &Ending::ALL[..] };
        let verifier = prepare(&engine, endings, &criteria, limit).unwrap();
        assert_eq!(verifier.labellings(), 1);
        [true, false].map(|by_planes| {
            let reservation = &verifier.reservation;
            verify_fused(reservation, endings, &criteria, limit, &NoProgress, by_planes).unwrap()
        })
    }

    #[test]
    fn planes_compare_as_rows_do_with_their_first_counterexamples() {
        let mut counterexamples = 0;
        for (heaps, max) in [(2, 70), (3, 21), (4, 12), (5, 7)] {
            for limit in [1, 3, 20] {
                let [planes, rows] = both_ways(&Game::nim(), heaps, max, limit);
                assert_eq!(planes, rows, "{heaps} heaps, max {max}, limit {limit}");
                counterexamples +=
                    rows.iter().map(|f| f.tally.counterexamples.len()).sum::<usize>();
            }
        }
        // XOR fails under misère play, Anti-Nim under normal play: rows are rebuilt.
        assert!(counterexamples > 0);
        let findings = &both_ways(&Game::nim(), 4, 9, 20)[0];
        let is_xor_misere =
            |f: &&Finding| (f.ending, f.criterion) == (Ending::Misere, Some(Criterion::Xor));
        let xor_misere = findings.iter().find(is_xor_misere).unwrap();
        assert!(xor_misere.tally.disagree > 0);
        assert_eq!(xor_misere.tally.counterexamples[0].position, [0, 0, 0, 0]);
    }

    #[test]
    fn planes_count_as_rows_do_with_a_pass() {
        for (heaps, max) in [(2, 40), (3, 15), (4, 9)] {
            let [planes, rows] = both_ways(&Game::nim().with_pass(), heaps, max, 20);
            assert!(planes.iter().all(|f| f.criterion.is_none()));
            assert_eq!(planes, rows, "{heaps} heaps, max {max}");
        }
    }
}
