//! `nimtab grundy`: the Grundy values of one heap as CSV or as an OEIS b-file.

use std::path::PathBuf;

use nimtab::export::csv::{write_grundy, write_grundy_bfile};
use nimtab::{validate_max, Game};

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
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = a.game.game()?;
    game.require_sum("the grundy table (the Grundy values of one heap)")?;
    let max = validate_max(u64::from(a.game.max))?;
    ensure_values_fit(&game, max, game.grundy_bytes(max), global)?;
    output::write_to(&target, |out| match a.format.as_str() {
        "bfile" => write_grundy_bfile(out, &game, max),
        _ => write_grundy(out, &game, max),
    })?;
    Ok(Outcome::Success)
}

/// The one memory check of `grundy` and `period`: the Grundy values of heaps `0..=max`
/// and what the command holds beside them (`need` bytes in all), refused above the
/// memory limit before they are computed.
pub(super) fn ensure_values_fit(
    game: &Game,
    max: u32,
    need: u64,
    global: &Global,
) -> nimtab::Result<()> {
    if need <= global.memory_limit {
        return Ok(());
    }
    Err(nimtab::Error::TooLarge {
        what: format!("{}, the Grundy values of heaps 0..={max}", game.spec()),
        need_bytes: need,
        limit_bytes: global.memory_limit,
        canonical_would_help: false,
    })
}
