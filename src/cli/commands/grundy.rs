//! `nimtab grundy`: the Grundy values of one heap as CSV.

use std::path::PathBuf;

use nimtab::export::csv::write_grundy;
use nimtab::validate_max;

use crate::cli::args::GameMaxArgs;
use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab grundy`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameMaxArgs,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `nimtab grundy`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = a.game.game()?;
    game.require_sum("the grundy table (the Grundy values of one heap)")?;
    let max = validate_max(u64::from(a.game.max))?;
    output::write_to(&target, |out| write_grundy(out, &game, max))?;
    Ok(Outcome::Success)
}
