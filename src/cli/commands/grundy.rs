//! `nimtab grundy`: the Grundy values of one heap as CSV.

use std::path::PathBuf;

use nimtab::export::csv::write_grundy;
use nimtab::{validate_max, Game};

use crate::cli::args;
use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab grundy`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game: nim, subtract:S or graph:PATH.
    #[arg(long, value_name = "G")]
    game: String,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `nimtab grundy`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = Game::parse(&a.game)?;
    validate_max(u64::from(a.max))?;
    output::write_to(&target, |out| write_grundy(out, &game, a.max))?;
    Ok(Outcome::Success)
}
