//! The commands about one position or one heap: winning moves (`nimtab moves`), the
//! certified period of the Grundy values (`nimtab period`) and misère Nim's classes
//! (`nimtab classes`), as Python values.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use nimtab::analysis::classes::{class_report, Class, ClassReport};
use nimtab::analysis::moves::{ended_under, labels_of_states, legal_moves, plan_moves};
use nimtab::analysis::steps::{legal_steps, Step};
use nimtab::model::position::PassState;
use nimtab::model::space::TupleSpace;
use nimtab::sequence::period::{check_period_max, Certificate, PeriodOutcome};
use nimtab::sequence::plan::{DiskUse, Plan};
use nimtab::sequence::{validate_sequence_max, Goal, Observer, Settings, Start, Status, Store};
use nimtab::{host, Ending, Engine, Game};

use crate::states::game_of;
use crate::{run_detached, value_error, CallProgress};

/// One winning move or step: the cells of `nimtab moves --format csv` and the line of its
/// text format.
enum Winning {
    /// A move of a sum of heaps: heap (from 1), sizes before and after.
    Move { heap: usize, from: u32, to: u32, text: String },
    /// A step of another game: the position after it, or the pass.
    Step { option: Option<Vec<u32>>, text: String },
}

/// What `moves` finds: the winning moves, whether the position is P, and whether the
/// ending has already ended it.
struct Found {
    winning: Vec<Winning>,
    lost: bool,
    ended: bool,
}

/// The winning moves of a sum of heaps; the labelling stops when `progress` is cancelled.
fn sum_moves(
    game: &Game,
    ending: Ending,
    position: &[u32],
    progress: &CallProgress,
) -> nimtab::Result<Found> {
    let engine = plan_moves(game, position, PassState::Used, host::memory_limit())?.engine;
    // A position the ending has ended has no winning move, whatever moves are legal.
    let ended = ended_under(game, ending, position);
    let legal = if ended { Vec::new() } else { legal_moves(game, position) };
    let mut states = vec![(position.to_vec(), false)];
    states.extend(legal.iter().map(|m| (m.apply(position), false)));
    let labels = labels_of_states(&engine, ending, &states, progress)?;
    let winning = legal
        .iter()
        .zip(&labels[1..])
        .filter(|(_, &p)| p)
        .map(|(m, _)| Winning::Move {
            heap: m.heap + 1,
            from: m.from,
            to: m.to,
            text: m.describe(position),
        })
        .collect();
    Ok(Found { winning, lost: labels[0], ended })
}

/// The winning steps of a game that is not a sum (the position starts with its pass
/// available, if it has one); the labelling stops when `progress` is cancelled.
fn steps(
    game: &Game,
    ending: Ending,
    position: &[u32],
    progress: &CallProgress,
) -> nimtab::Result<Found> {
    let pass = PassState::of(game.has_pass());
    let engine = plan_moves(game, position, pass, host::memory_limit())?.engine;
    let legal = legal_steps(game, position, pass);
    let mut states = vec![(position.to_vec(), pass.is_available())];
    states.extend(legal.iter().map(|s| {
        let (heaps, pass) = s.after(position, pass);
        (heaps, pass.is_available())
    }));
    let labels = labels_of_states(&engine, ending, &states, progress)?;
    let winning: Vec<Winning> = legal
        .iter()
        .zip(&labels[1..])
        .filter(|(_, &p)| p)
        .map(|(s, _)| Winning::Step {
            option: match s {
                Step::To(next) => Some(next.clone()),
                Step::Pass => None,
            },
            text: s.describe(position),
        })
        .collect();
    let ended = winning.is_empty() && !labels[0];
    Ok(Found { winning, lost: labels[0], ended })
}

/// moves(game, position, rule, with_pass) -> (moves, lost, ended)
///
/// The winning moves of `nimtab moves`: for a sum of heaps dicts with `heap` (from 1),
/// `from`, `to`, `take`; for another game dicts with `option` (the heaps after the step,
/// or `"pass"`); each with `text`, the command's line. `lost`: the position is P;
/// `ended`: the ending rule has ended it (the player to move has won).
#[pyfunction]
#[pyo3(signature = (game, position, rule = "normal".to_string(), with_pass = false))]
pub fn moves<'py>(
    py: Python<'py>,
    game: String,
    position: Vec<u32>,
    rule: String,
    with_pass: bool,
) -> PyResult<(Bound<'py, PyList>, bool, bool)> {
    let found = run_detached(py, None, None, move |progress| -> nimtab::Result<Found> {
        let ending = Ending::parse(&rule)?;
        let game = game_of(&game, with_pass)?;
        if ending == Ending::Sj {
            game.require_sum("rules sj")?;
        }
        if game.is_sum() {
            sum_moves(&game, ending, &position, progress)
        } else {
            steps(&game, ending, &position, progress)
        }
    })?
    .map_err(value_error)?;
    let list = PyList::empty(py);
    for winning in &found.winning {
        let row = PyDict::new(py);
        match winning {
            Winning::Move { heap, from, to, text } => {
                row.set_item("heap", heap)?;
                row.set_item("from", from)?;
                row.set_item("to", to)?;
                row.set_item("take", from - to)?;
                row.set_item("text", text)?;
            }
            Winning::Step { option, text } => {
                match option {
                    Some(heaps) => row.set_item("option", PyTuple::new(py, heaps)?)?,
                    None => row.set_item("option", "pass")?,
                }
                row.set_item("text", text)?;
            }
        }
        list.append(row)?;
    }
    Ok((list, found.lost, found.ended))
}

/// A sequence run's observer: the heaps done for the progress bar, and the flag Ctrl-C
/// sets, polled between segments.
struct SequenceProgress<'a>(&'a CallProgress);

impl Observer for SequenceProgress<'_> {
    fn progress(&mut self, status: &Status) {
        self.0.set_done(status.heaps);
    }

    fn cancelled(&self) -> bool {
        nimtab::Progress::cancelled(self.0)
    }
}

/// What `period` finds, as Python receives it.
type PeriodFound = (Option<(u64, u64, u64)>, u64, Option<u64>, Option<String>);

/// period(game, max, threads, report) -> (certified (preperiod, period, saltus) or None,
/// checked_through, largest value (when not certified), why not (when not certified))
///
/// As `nimtab period --max N` with the values in memory: the least period of the Grundy
/// values, certified by a theorem at the first heap size where its window fits.
#[pyfunction]
#[pyo3(signature = (game, max, threads = None, report = None))]
pub fn period(
    py: Python<'_>,
    game: String,
    max: u64,
    threads: Option<usize>,
    report: Option<Bound<'_, PyAny>>,
) -> PyResult<PeriodFound> {
    let run = move |progress: &CallProgress| -> Result<PeriodFound, String> {
        let game = Game::parse(&game).map_err(|e| e.to_string())?;
        game.require_heap_values().map_err(|e| e.to_string())?;
        let max = validate_sequence_max(max).map_err(|e| e.to_string())?;
        if let Some(rule) = game.heap_rule() {
            check_period_max(game.spec(), &rule, max)
                .map_err(|e| e.to_string().replace("--max", "max"))?;
        }
        let what = format!("{} to heap {max}", game.spec());
        let dir = std::env::temp_dir();
        // In memory only, as far as a period search fits there: most stop long before max.
        let limit = host::memory_limit();
        let plan = Plan::new(&what, max, Goal::Period, &dir, DiskUse::Never, limit, None)
            .map_err(|e| e.to_string())?;
        let what = format!("a period search of {} to heap {max}", game.spec());
        let endless = game.heap_rule().is_some_and(|r| Certificate::for_rule(&r).is_none());
        if let Some(beyond) = plan.beyond_reach(&what).filter(|_| endless && plan.stops_short()) {
            // No theorem ends the search early: it must reach max.
            return Err(beyond.to_string());
        }
        let reach_max = plan.reach.saturating_sub(1);
        let size = if game.heap_rule().is_some() { reach_max + 1 } else { 0 };
        let settings = Settings::new(Goal::Period, reach_max);
        let start = Start::Fresh(Store::in_memory(size));
        let mut observer = SequenceProgress(progress);
        let sequence =
            game.grundy_sequence(&settings, start, &mut observer).map_err(|e| e.to_string())?;
        let outcome = sequence
            .period()
            .copied()
            .ok_or_else(|| format!("the period search of {} did not run", game.spec()))?;
        Ok(match outcome {
            PeriodOutcome::Certified(found) => {
                let found_triple = (found.preperiod, found.period, found.saltus);
                (Some(found_triple), found.checked_through, None, None)
            }
            PeriodOutcome::NotCertified { checked_through, largest_value, reason } => {
                let stopped = plan.stops_short() && checked_through < max;
                if let Some(beyond) = plan.beyond_reach(&what).filter(|_| stopped) {
                    return Err(format!(
                        "no period certified for {} from heap sizes 0..={checked_through} \
                         (largest Grundy value {largest_value}), and {beyond}; the command \
                         line keeps the values in a file (nimtab period --work-dir DIR)",
                        game.spec()
                    ));
                }
                // The statement speaks of the keyword `max`, as Python names it.
                let why = reason.explain().replace("--max", "max");
                let statement = format!(
                    "no period certified for {} from heap sizes 0..={checked_through} \
                     (largest Grundy value {largest_value}): {why}",
                    game.spec()
                );
                (None, checked_through, Some(largest_value), Some(statement))
            }
        })
    };
    run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)
}

/// The most moves `classes` examines, as the command line's limit.
const MAX_CLASS_MOVES: u128 = 2_000_000_000;

/// classes(heaps, max, threads, report) -> dict
///
/// `nimtab classes`: `names` (S0, S1, S2, T0, T2), `counts` (rows of `classes.csv` as
/// tuples), `moves` (a 5 × 5 array, `transitions.csv`), and `claims`, tuples of the claim,
/// the positions checked and the counterexample (`None` where it holds).
#[pyfunction]
#[pyo3(signature = (heaps, max, threads = None, report = None))]
pub fn classes<'py>(
    py: Python<'py>,
    heaps: usize,
    max: u32,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let run = move |progress: &crate::CallProgress| -> nimtab::Result<ClassReport> {
        let space = TupleSpace::new(heaps, max)?;
        // Every position is visited with all its moves: about heaps * max / 2 per position.
        let moves = u128::from(space.positions()) * heaps as u128 * (u128::from(max) + 1) / 2;
        if moves > MAX_CLASS_MOVES {
            return Err(nimtab::Error::Invalid(format!(
                "heaps {heaps} max {max} has about {moves} moves to examine; classes visits \
                 every move of every position, limit {MAX_CLASS_MOVES} (lower max or heaps)"
            )));
        }
        let nim = Game::nim();
        let engine = Engine::builder(&nim, space.into()).build();
        let tables = engine.label_all(&[Ending::Normal, Ending::Misere], progress)?;
        Ok(class_report(space, &tables[0], &tables[1]))
    };
    let report = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    let out = PyDict::new(py);
    let names: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
    out.set_item("names", names.clone())?;
    let counts: Vec<(&str, u64, u64, u64)> = names
        .iter()
        .zip(&report.counts)
        .map(|(name, c)| (*name, c.positions, c.p_normal, c.p_misere))
        .collect();
    out.set_item("counts", counts)?;
    let moves: Vec<u64> = report.moves.iter().flatten().copied().collect();
    let moves: Bound<'py, PyArray2<u64>> =
        Array2::from_shape_vec((5, 5), moves).map_err(value_error)?.into_pyarray(py);
    out.set_item("moves", moves)?;
    let claims: Vec<(&str, u64, Option<String>)> =
        report.claims.iter().map(|c| (c.claim, c.checked, c.counterexample.clone())).collect();
    out.set_item("claims", claims)?;
    Ok(out)
}
