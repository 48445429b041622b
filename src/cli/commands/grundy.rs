//! `nimtab grundy`: the Grundy values of one heap as CSV or as an OEIS b-file.

use std::path::PathBuf;

use nimtab::export::csv::{write_grundy, write_grundy_bfile};
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
    /// csv (`heap,grundy`) or bfile (OEIS b-file: `n a(n)` lines, no header).
    #[arg(long, value_name = "F", default_value = "csv", value_parser = ["csv", "bfile"])]
    format: String,
}

/// Runs `nimtab grundy`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = a.game.game()?;
    let max = validate_max(u64::from(a.game.max))?;
    output::write_to(&target, |out| match a.format.as_str() {
        "bfile" => write_grundy_bfile(out, &game, max),
        _ => write_grundy(out, &game, max),
    })?;
    Ok(Outcome::Success)
}
