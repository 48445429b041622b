//! Verification: the DP labels of a space compared row by row with every criterion.

pub use crate::analysis::finding::{Finding, Verification};

use crate::analysis::comparer::{comparer_bytes, Comparer};
use crate::analysis::criteria::Criterion;
use crate::analysis::quotient_criterion::{quotient_predictions, QuotientPrediction};
use crate::engine::{Engine, Labels, Progress, Reservation, Work};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::quotient::DEFAULT_MAX_ORDER;
use crate::Result;

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
/// [`crate::EngineError::TooLarge`] (over multisets [`crate::EngineError::MultisetsTooLarge`]) if
/// even one ending does not fit; the errors of [`Engine::ensure_supported`] and of
/// [`Criterion::check_applies_to`] for a criterion that says nothing about the game over
/// this space.
pub fn prepare<'e, 'g>(
    engine: &'e Engine<'g>,
    endings: &[Ending],
    criteria: &[Criterion],
    limit: usize,
) -> Result<Verifier<'e, 'g>> {
    let (kept_endings, kept_criteria) = (endings.to_vec(), criteria.to_vec());
    let work = |endings: usize| {
        let comparer = comparer_bytes(engine, endings, criteria.len(), limit);
        [Work::Stream { endings }, Work::Bytes(comparer)]
    };
    engine.ensure_supported(endings)?;
    for criterion in criteria {
        criterion.check_applies_to(engine.game(), engine.space())?;
    }
    if engine.space().as_multisets().is_some() {
        // Multisets are labelled whole, every ending in one table, then compared row by row.
        let reservation = engine.reserve(&work(endings.len()))?;
        let (endings, criteria) = (kept_endings, kept_criteria);
        return Ok(Verifier { reservation, endings, criteria, limit, labellings: 1 });
    }
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
    /// [`crate::EngineError::OutOfMemory`] if the system refuses the memory granted.
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
            let findings = compare_labels(self.engine().game(), &labels, criteria, limit)?;
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
    let (game, space) = (engine.game(), engine.space());
    let mut comparer = Comparer::new(game, space, endings.len(), criteria, Vec::new(), limit);
    comparer.by_planes = by_planes;
    let acc = reservation.stream(endings, &comparer, progress)?;
    let state = |index| engine.state(index);
    Ok(comparer.findings(game, space, endings, criteria, acc, state))
}

/// The findings of labels already computed (every ending of one labelling of a multiset
/// space, in its order; for `game`) compared with each criterion, as [`verify`] returns
/// them. The quotient criterion computes the game's quotients first
/// ([`quotient_predictions`], orders up to [`DEFAULT_MAX_ORDER`]).
///
/// # Errors
/// As [`quotient_predictions`].
///
/// # Panics
/// As [`compare_labels_with`].
pub fn compare_labels(
    game: &Game,
    labels: &[Labels],
    criteria: &[Criterion],
    limit: usize,
) -> Result<Vec<Finding>> {
    let quotients = if criteria.contains(&Criterion::Quotient) {
        let total = labels[0].space().max();
        let endings: Vec<Ending> = labels.iter().map(Labels::ending).collect();
        quotient_predictions(game, &endings, total, DEFAULT_MAX_ORDER)?
    } else {
        Vec::new()
    };
    Ok(compare_labels_with(game, labels, criteria, quotients, limit))
}

/// [`compare_labels`] with the quotient criterion's predictions given, one per ending of
/// the labels (none when the criteria do not hold it).
///
/// # Panics
/// If the labels are not every ending of one labelling of a multiset space, in its order;
/// if a criterion does not apply to `game` over multisets
/// ([`Criterion::check_applies_to`]), or the criteria hold the quotient and `quotients`
/// has not one prediction per ending, or a quotient's largest heap is below the space's
/// total.
pub fn compare_labels_with(
    game: &Game,
    labels: &[Labels],
    criteria: &[Criterion],
    quotients: Vec<QuotientPrediction>,
    limit: usize,
) -> Vec<Finding> {
    let space = labels[0].space();
    for criterion in criteria {
        let applies = criterion.check_applies_to(game, space);
        applies.unwrap_or_else(|refused| panic!("{refused}"));
    }
    let endings: Vec<Ending> = labels.iter().map(Labels::ending).collect();
    let comparer = Comparer::new(game, space, endings.len(), criteria, quotients, limit);
    let acc = Labels::stream_rows(labels, &comparer);
    let state = |rank| (space.as_multisets().expect("a multiset space").unrank(rank), None);
    comparer.findings(game, space, &endings, criteria, acc, state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::model::game::Game;
    use crate::model::space::{Mode, Space, TupleSpace};

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
    fn multiset_findings_count_what_each_criterion_says_of_every_position() {
        let mut disagreements = 0;
        for spec in ["octal:0.07", "octal:0.137", "subtract:1,3,4", "nim"] {
            let game = Game::parse(spec).unwrap();
            let space = Space::multisets(17).unwrap();
            let engine = Engine::builder(&game, space.clone()).parallel_threshold(0).build();
            let criteria = crate::analysis::criteria::MULTISET_CRITERIA;
            let run = verify(&engine, &Ending::ALL, &criteria, 4, &NoProgress).unwrap();
            let labels = engine.label_all(&Ending::ALL, &NoProgress).unwrap();
            let grundy = game.grundy(17);
            assert_eq!(run.findings.len(), 9);
            for f in run.findings {
                let j = Ending::ALL.iter().position(|&e| e == f.ending).unwrap();
                let criterion = f.criterion.unwrap();
                let says = |heaps: &Vec<u32>| criterion.predicts_p(&game, heaps, &grundy);
                let wrong: Vec<Vec<u32>> =
                    space.iter().filter(|heaps| says(heaps) != labels[j].is_p(heaps)).collect();
                let context = format!("{spec} {} {criterion}", f.ending);
                assert_eq!(f.tally.positions, space.positions(), "{context}");
                assert_eq!(f.tally.p_positions, labels[j].p_count(), "{context}");
                assert_eq!(f.tally.disagree, wrong.len() as u64, "{context}");
                let first: Vec<Vec<u32>> =
                    f.tally.counterexamples.iter().map(|c| c.position.clone()).collect();
                assert_eq!(first, wrong[..wrong.len().min(4)], "{context}");
                disagreements += wrong.len();
            }
        }
        assert!(disagreements > 0);
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
