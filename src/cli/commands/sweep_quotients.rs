//! `nimtab sweep --quotients N`: the misère quotient of every game of a family, one CSV
//! row per game; `--shard I/N` writes one part of it for `nimtab merge`.

use anyhow::Context;
use nimtab::export::format::streamed;
use nimtab::sweep::{QuotientRow, QuotientStatus, QuotientSweep, Shard, SweepError, SweepOutput};
use nimtab::Error;

use crate::cli::commands::sweep_family::note_repeated_entries;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Counts of rows by status, and the games whose proof failed.
#[derive(Default)]
struct Totals {
    by_status: Vec<(&'static str, usize)>,
    proof_failed: Vec<String>,
}

impl Totals {
    fn add(&mut self, rows: &[QuotientRow]) {
        for r in rows {
            let name = r.status.name();
            match self.by_status.iter_mut().find(|(s, _)| *s == name) {
                Some((_, n)) => *n += 1,
                None => self.by_status.push((name, 1)),
            }
            if r.status == QuotientStatus::ProofFailed {
                self.proof_failed.push(r.game.clone());
            }
        }
    }

    /// `quotients of 64 games: ok 60, order_bound 4`, statuses in the documented order.
    fn line(&self) -> String {
        let games: usize = self.by_status.iter().map(|(_, n)| n).sum();
        let counts: Vec<String> = QuotientStatus::NAMES
            .iter()
            .filter_map(|name| {
                let (_, n) = self.by_status.iter().find(|(s, _)| s == name)?;
                Some(format!("{name} {n}"))
            })
            .collect();
        format!("quotients of {games} games: {}", counts.join(", "))
    }
}

/// Runs the quotient sweep: status 0, or 1 under `--strict` when a quotient failed its
/// proof.
pub fn run(
    sweep: &QuotientSweep,
    strict: bool,
    shard: Option<Shard>,
    target: &Target,
    global: &Global,
) -> anyhow::Result<Outcome> {
    if !global.quiet {
        note_repeated_entries(sweep.family(), sweep.repeats());
    }
    let games = sweep.games_of(shard);
    let bar = Bar::counting("quotients", games.len() as u64, "games", global.quiet);
    let mut totals = Totals::default();
    output::write_to(
        target,
        streamed(|w| {
            match sweep.write_csv(shard, w, global.memory_limit, &bar, |rows| totals.add(rows)) {
                Ok(()) => Ok(()),
                Err(SweepError::Space(Error::Io(e))) => Err(e),
                Err(e) => Err(std::io::Error::other(e.to_string())),
            }
        }),
    )
    .context("sweep --quotients")?;
    bar.finish();
    let line = totals.line();
    if *target == Target::Stdout {
        if !global.quiet {
            output::note(&line);
        }
    } else {
        output::line(format_args!("{line}"))?;
    }
    for game in &totals.proof_failed {
        output::note(&format!(
            "nimtab: internal error: the quotient of {game} failed its proof (status proof_failed)"
        ));
    }
    if strict && !totals.proof_failed.is_empty() {
        return Ok(Outcome::ClaimFailed);
    }
    Ok(Outcome::Success)
}
