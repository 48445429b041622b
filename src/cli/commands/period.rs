//! `nimtab period`: the least period of a game's Grundy sequence, certified by a theorem.

use std::path::PathBuf;

use nimtab::analysis::period::{
    find_period, preperiods_bytes, Certificate, PeriodOutcome, Uncertified,
};
use nimtab::export::csv::write_period;
use nimtab::validate_max;

use crate::cli::args::GameMaxArgs;
use crate::cli::commands::grundy::ensure_values_fit;
use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab period`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameMaxArgs,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `nimtab period`: the CSV row and status 0 when a period is certified; one line
/// on stderr and status 1 (a claim that failed) when none is.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = a.game.game()?;
    game.require_sum("the period of the Grundy values of one heap")?;
    let max = validate_max(u64::from(a.game.max))?;
    let need = game.grundy_bytes(max) + preperiods_bytes(u64::from(max) + 1);
    ensure_values_fit(&game, max, need, global)?;
    let outcome = find_period(Certificate::for_game(&game), &game.grundy(max));
    match outcome {
        PeriodOutcome::Certified(found) => {
            output::write_to(&target, |out| write_period(out, game.spec(), &found))?;
            Ok(Outcome::Success)
        }
        PeriodOutcome::NotCertified { checked_through, largest_value, reason } => {
            let why = match reason {
                Uncertified::NoTheorem => "no periodicity theorem covers this game".to_string(),
                Uncertified::NotWithinData => {
                    "no period's theorem window fits in the values computed; raise --max".into()
                }
            };
            output::note(&format!(
                "nimtab: no period certified for {} from heap sizes 0..={checked_through} \
                 (largest Grundy value {largest_value}): {why}",
                game.spec()
            ));
            Ok(Outcome::ClaimFailed)
        }
    }
}
