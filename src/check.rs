//! Checking a claim "a position is P exactly when EXPR holds" against the DP labels.
//!
//! [`ClaimCheck`] is a [`RowVisitor`]: for each finished row it evaluates the claim on the
//! whole row at once ([`Program::eval_row`]), compares the predicted P-bits with the
//! labels word by word, and counts with popcounts. Counterexamples are kept as the `K`
//! smallest indices ([`FirstCounterexamples`], shared with `verify`), which makes the
//! result independent of how rows were split in tasks.

use std::io::{self, Write};

use crate::export::write_counterexample_rows;
use crate::expr::{EvalError, Program, RowScratch};
use crate::game::Game;
use crate::rules::Rule;
use crate::solve::{Engine, Progress, RowView, RowVisitor};

pub use crate::verify::Counterexample;
use crate::verify::FirstCounterexamples;

/// The outcome of checking a claim over one space under one rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Positions checked.
    pub positions: u64,
    /// Positions the DP labels P.
    pub p_positions: u64,
    /// Positions where the claim agrees with the DP.
    pub agree: u64,
    /// Positions where it does not.
    pub disagree: u64,
    /// The first counterexamples by index, at most the limit asked for.
    pub counterexamples: Vec<Counterexample>,
}

impl CheckReport {
    /// Whether the claim holds on every position checked.
    pub fn holds(&self) -> bool {
        self.disagree == 0
    }
}

/// A row visitor that checks a compiled boolean claim against the labels.
pub struct ClaimCheck<'p> {
    program: &'p Program,
    limit: usize,
}

impl<'p> ClaimCheck<'p> {
    /// Checks `program` (compiled for the engine's heap count and max), keeping at most
    /// `limit` counterexamples.
    pub fn new(program: &'p Program, limit: usize) -> ClaimCheck<'p> {
        ClaimCheck { program, limit }
    }
}

/// What one task has accumulated: counts, counterexamples, the first evaluation error.
pub struct CheckAcc {
    /// Counts; its counterexamples are filled in by `finish`, from `first`.
    report: CheckReport,
    first: FirstCounterexamples,
    /// The evaluation error of the smallest index seen, with that index.
    error: Option<(u64, EvalError)>,
    scratch: RowScratch,
    predicted: Vec<u64>,
}

impl CheckAcc {
    /// The report, or the evaluation error at the smallest index if there was one.
    pub fn finish(self, engine: &Engine<'_>) -> Result<CheckReport, EvalError> {
        match self.error {
            Some((_, error)) => Err(error),
            None => {
                let counterexamples = self.first.into_counterexamples(engine);
                Ok(CheckReport { counterexamples, ..self.report })
            }
        }
    }
}

impl RowVisitor for ClaimCheck<'_> {
    type Acc = CheckAcc;

    fn start(&self) -> CheckAcc {
        CheckAcc {
            report: CheckReport::default(),
            first: FirstCounterexamples::new(self.limit),
            error: None,
            scratch: RowScratch::default(),
            predicted: Vec::new(),
        }
    }

    fn visit(&self, acc: &mut CheckAcc, row: &RowView<'_>) {
        let radix = self.program.max() as usize + 1;
        acc.predicted.clear();
        acc.predicted.resize(radix.div_ceil(64), 0);
        if let Err(error) =
            self.program.eval_row(row.prefix, row.lo, &mut acc.predicted, &mut acc.scratch)
        {
            let last = *error.position.last().expect("positions have heaps");
            let index = row.first_index + u64::from(last - row.lo);
            if acc.error.as_ref().is_none_or(|(seen, _)| index < *seen) {
                acc.error = Some((index, error));
            }
            return;
        }
        let report = &mut acc.report;
        let positions = (radix - row.lo as usize) as u64;
        let mut disagree = 0u64;
        let mut keeping = true;
        // Only the first rule's words: `predicted` is one row long.
        for (w, (&dp, &claim)) in row.bits.iter().zip(&acc.predicted).enumerate() {
            report.p_positions += u64::from(dp.count_ones());
            // Both masks are clear below `lo` and above max, so the XOR counts only real lanes.
            let diff = dp ^ claim;
            disagree += u64::from(diff.count_ones());
            if diff != 0 && keeping {
                keeping = acc.first.offer(row, w, dp, diff);
            }
        }
        report.positions += positions;
        report.disagree += disagree;
        report.agree += positions - disagree;
    }

    fn merge(&self, mut left: CheckAcc, right: CheckAcc) -> CheckAcc {
        let (a, b) = (&mut left.report, right.report);
        a.positions += b.positions;
        a.p_positions += b.p_positions;
        a.agree += b.agree;
        a.disagree += b.disagree;
        left.first.merge(right.first);
        left.error = match (left.error, right.error) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        };
        left
    }
}

/// Labels the engine's space under `rule` and checks the claim on every position.
///
/// Call [`Engine::check_memory`] with 0 tables kept first.
///
/// # Panics
/// If `program` was compiled for another heap count or max than the engine's space.
pub fn check_claim(
    engine: &Engine<'_>,
    rule: Rule,
    program: &Program,
    limit: usize,
    progress: &dyn Progress,
) -> Result<CheckReport, EvalError> {
    assert_eq!(program.heaps(), engine.space().heaps(), "program compiled for another heap count");
    assert_eq!(program.max(), engine.space().max(), "program compiled for another max");
    let (_, acc) = engine.run(rule, false, &ClaimCheck::new(program, limit), progress);
    acc.finish(engine)
}

/// The context of a block of counterexample rows: which space, rule and criterion.
pub struct CounterexampleContext<'a> {
    /// The game, written as its spec.
    pub game: &'a Game,
    /// The largest heap size of the space.
    pub max: u32,
    /// The rule labelled.
    pub rule: Rule,
    /// The criterion column: here the claim's expression text.
    pub criterion: &'a str,
}

/// Writes counterexample rows (no header) in the `counterexamples.csv` format.
pub fn write_counterexamples<W: Write + ?Sized>(
    out: &mut W,
    context: &CounterexampleContext<'_>,
    counterexamples: &[Counterexample],
) -> io::Result<()> {
    let (game, max, rule) = (context.game.spec(), context.max, context.rule);
    write_counterexample_rows(out, game, max, rule, context.criterion, counterexamples)
}
