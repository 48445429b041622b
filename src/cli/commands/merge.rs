//! `nimtab merge`: the parts of a sharded sweep back into the bytes of the whole run.

use std::path::PathBuf;

use anyhow::Context;
use nimtab::sweep::merge;

use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The parts written by `nimtab sweep --shard I/N`, in any order.
    #[arg(value_name = "PARTS", required = true)]
    parts: Vec<PathBuf>,
    /// Output CSV file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `nimtab merge`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let parts = a
        .parts
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path)
                .with_context(|| format!("{}: cannot read it", path.display()))?;
            Ok((path.display().to_string(), bytes))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let merged = merge(&parts)?;
    output::write_to(&target, |w| w.write_all(&merged))?;
    if !global.quiet {
        output::note(&format!("nimtab: merged {} parts of one sweep", parts.len()));
    }
    Ok(Outcome::Success)
}
