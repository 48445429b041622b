//! `nimtab check` over tuples of heaps: a claim "P exactly when EXPR" tested on every
//! position of one game, with its pass and the whole positions' Grundy values where
//! asked, as typed summary rows.

use pyo3::prelude::*;

use nimtab::analysis::claim::{claim_work, test_claim_with};
use nimtab::analysis::expr::{Expr, ExprError, Feature};
use nimtab::analysis::tally::Tally;
use nimtab::engine::Work;
use nimtab::{Ending, Engine, Game, Space};

use crate::rows::{summary, Rows, SummaryRow};
use crate::states::{game_of, mode_of};
use crate::tables::endings;
use crate::{run_detached, value_error, CallProgress};

/// A claim's error in the command line's words, the argument named as Python names it:
/// `claim, column 5: expected a value, found the end`.
fn claim_error(error: &ExprError) -> String {
    format!("claim, column {}: {}", error.column, error.message)
}

/// Refuses features the run cannot give: heap Grundy values for a game that is not a
/// sum, the whole position's Grundy value without `grundy`.
fn check_features(claim: &Expr, game: &Game, grundy: bool) -> Result<(), String> {
    if let Some(column) =
        claim.feature_column(Feature::reads_heap_grundy).filter(|_| !game.is_sum())
    {
        let message = format!(
            "g1..gN, gxor and gmax read heap Grundy values, which {} does not have (it is \
             not a sum of heaps); the whole position's value is grundy, with grundy=True",
            game.spec()
        );
        return Err(claim_error(&ExprError { column, message }));
    }
    if let Some(column) = claim.feature_column(|f| f == Feature::Value).filter(|_| !grundy) {
        let message =
            "grundy is the whole position's Grundy value; add grundy=True to compute it".into();
        return Err(claim_error(&ExprError { column, message }));
    }
    Ok(())
}

/// What one heap count gives: its count and one tally per ending.
type Tallies = Vec<(usize, Vec<(Ending, Tally)>)>;

/// A check as Python describes it: one dict read by key, every key given (`rules` may be
/// `None`), instead of a long signature.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct CheckRequest {
    game: String,
    claim: String,
    heaps_lo: usize,
    heaps_hi: usize,
    max: u32,
    rules: Option<String>,
    canonical: bool,
    with_pass: bool,
    grundy: bool,
    limit: usize,
}

impl CheckRequest {
    /// Every space checked (the claim's heaps, the memory of its run) and the claim
    /// compiled for each before any is labelled; then space after space, the claim's
    /// tally under each ending.
    fn run(&self, progress: &CallProgress) -> Result<(Game, Expr, Tallies), String> {
        let game = game_of(&self.game, self.with_pass).map_err(text)?;
        let endings = endings(&game, self.rules.as_deref()).map_err(text)?;
        let claim = Expr::parse_claim(&self.claim).map_err(|e| claim_error(&e))?;
        check_features(&claim, &game, self.grundy)?;
        let mode = mode_of(self.canonical);
        let mut spaces = Vec::new();
        for n in self.heaps_lo..=self.heaps_hi {
            let space = Space::in_mode(n, self.max, mode).map_err(text)?;
            game.check_heaps(n).map_err(text)?;
            claim.check_space(&space).map_err(|e| claim_error(&e))?;
            spaces.push(space);
        }
        let engines: Vec<Engine> =
            spaces.into_iter().map(|space| Engine::builder(&game, space).build()).collect();
        // Every space's memory is checked before any is labelled.
        let runs = engines
            .iter()
            .map(|engine| {
                engine.ensure_supported(&endings)?;
                let mut work = claim_work(engine, claim.operators(), self.limit).to_vec();
                if self.grundy {
                    work.push(Work::Grundy);
                }
                engine.reserve(&work)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(text)?;
        // The Grundy values the programs read, sized by `max`, once every space fits.
        let grundy = game.grundy(self.max);
        let programs = runs
            .iter()
            .map(|run| claim.compile(run.engine().space(), &grundy).map_err(|e| claim_error(&e)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut tallies = Vec::new();
        for (run, program) in runs.iter().zip(&programs) {
            let heaps = run.engine().space().heaps();
            let values =
                if self.grundy { Some(run.grundy_values(progress).map_err(text)?) } else { None };
            let mut per_ending = Vec::new();
            for &ending in &endings {
                let tally =
                    test_claim_with(run, ending, program, values.as_ref(), self.limit, progress)
                        .map_err(|e| format!("evaluating the claim '{}': {e}", claim.text()))?;
                per_ending.push((ending, tally));
            }
            tallies.push((heaps, per_ending));
        }
        Ok((game, claim, tallies))
    }
}

/// check_rows(request, threads, report) -> (header, rows, totals)
///
/// The claim's tally per (heap count, rule) for a [`CheckRequest`] dict, as rows of
/// `summary.csv` with the claim in `criterion`; with a pass every position is tested in
/// both pass states (the feature `pass` says which), and a counterexample's position ends
/// with `pass=0` or `pass=1`.
#[pyfunction]
#[pyo3(signature = (request, threads = None, report = None))]
pub fn check_rows<'py>(
    py: Python<'py>,
    request: CheckRequest,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<Rows<'py>> {
    let max = request.max;
    let run = move |progress: &CallProgress| request.run(progress);
    let (game, claim, tallies) =
        run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    let rows: Vec<SummaryRow> = tallies
        .iter()
        .flat_map(|(heaps, per_ending)| {
            per_ending.iter().map(|(ending, tally)| SummaryRow {
                game: game.spec(),
                heaps: *heaps,
                max,
                total: None,
                ending: *ending,
                test: claim.text(),
                compared: true,
                tally,
            })
        })
        .collect();
    summary(py, &rows)
}

/// An error of any layer as the message Python raises.
fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}
