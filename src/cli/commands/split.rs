//! `nimtab split`: the split game, decided by looking every split up in the normal-play
//! labels, then the parity claim checked against the result.

use std::path::PathBuf;

use anyhow::bail;
use nimtab::analysis::split::{parity_counterexample, PartitionLabels, SplitOutcome, MAX_STONES};
use nimtab::export::csv::write_split;
use nimtab::export::format::streamed;
use nimtab::Game;

use crate::cli::args::{self, CountRange};
use crate::cli::output::{self, Target};
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab split`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Stones to split: N or A..=B.
    #[arg(long, value_name = "A..=B", value_parser = args::parse_stone_range)]
    stones: CountRange,
    /// Component game of the heaps after the split.
    #[arg(long, value_name = "G", default_value = "nim")]
    game: String,
    /// Output CSV file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `nimtab split`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = Game::parse(&a.game)?;
    // The split game's heaps form a sum: each move changes one heap by its rule.
    game.require_sum("the split game")?;
    // The limit is checked on the count as given: narrowed first, a count beyond u32
    // would be named as 4294967295.
    let Some(hi) = u32::try_from(a.stones.hi).ok().filter(|&hi| hi <= MAX_STONES) else {
        bail!(
            "{} stones is above the limit of {MAX_STONES} (every partition is labelled)",
            a.stones.hi
        );
    };
    let lo = a.stones.lo as u32;
    let table = PartitionLabels::new(&game, hi)?;
    let outcomes: Vec<SplitOutcome> = (lo..=hi).map(|n| table.outcome(n)).collect();
    output::write_to(&target, streamed(|out| write_split(out, &outcomes)))?;
    // With the CSV on stdout, the verdict goes to stderr so the CSV stays clean.
    let verdict = match parity_counterexample(&outcomes) {
        None => format!("holds  A wins iff the number of stones is even ({lo}..={hi} stones)"),
        Some(o) => format!(
            "fails  A wins iff the number of stones is even: with {} stones {} wins",
            o.stones,
            if o.a_wins() { "A" } else { "B" }
        ),
    };
    if target == Target::Stdout {
        if !global.quiet || !verdict.starts_with("holds") {
            output::note(&verdict);
        }
    } else {
        output::line(format_args!("{verdict}"))?;
    }
    Ok(if parity_counterexample(&outcomes).is_some() {
        Outcome::ClaimFailed
    } else {
        Outcome::Success
    })
}
