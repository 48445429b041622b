//! `nimtab period`: the least period of a game's Grundy sequence, certified by a theorem
//! at the first heap size where its window fits (`--max` is an upper bound).

use anyhow::bail;
use nimtab::export::csv::write_period;
use nimtab::export::format::streamed;
use nimtab::sequence::period::{check_period_max, PeriodOutcome};
use nimtab::sequence::Goal;

use crate::cli::long_run::{self, SequenceArgs};
use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// Runs `nimtab period`: the CSV row and status 0 when a period is certified; one line
/// on stderr and status 1 (a claim that failed) when none is.
pub fn run(a: SequenceArgs, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = a.game.game()?;
    game.require_heap_values()?;
    if let Some(rule) = game.heap_rule() {
        check_period_max(game.spec(), &rule, a.max)?;
    }
    let prepared = long_run::prepare(&game, &a, Goal::Period, global)?;
    let mut finished = prepared.run(&game)?;
    if !finished.values_verified(global)? {
        return Ok(Outcome::ClaimFailed);
    }
    let outcome = finished
        .sequence
        .period()
        .copied()
        .ok_or_else(|| anyhow::anyhow!("the period search of {} did not run", game.spec()))?;
    match outcome {
        PeriodOutcome::Certified(found) => {
            output::write_to(&target, streamed(|out| write_period(out, game.spec(), &found)))?;
            Ok(Outcome::Success)
        }
        PeriodOutcome::NotCertified { checked_through, largest_value, reason } => {
            if let Some(beyond) = finished.beyond_reach().filter(|_| checked_through < a.max) {
                bail!(
                    "no period certified for {} from heap sizes 0..={checked_through} (largest \
                     Grundy value {largest_value}), and {beyond}",
                    game.spec()
                );
            }
            let why = reason.explain();
            output::note(&format!(
                "nimtab: no period certified for {} from heap sizes 0..={checked_through} \
                 (largest Grundy value {largest_value}): {why}",
                game.spec()
            ));
            Ok(Outcome::ClaimFailed)
        }
    }
}
