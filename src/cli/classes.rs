//! `nimtab classes`: misère Nim's classes S0..T2 counted, their moves tallied, and the
//! seed's claims about them checked against the DP labels.

use std::path::PathBuf;

use anyhow::Context;
use nimtab::classes::{class_report, write_classes, write_transitions};
use nimtab::{Engine, Game, Rule, Space};

use super::output::{self, Bar};
use super::{args, Global, Outcome};

/// The most moves `classes` examines (about ten seconds).
const MAX_MOVES: u128 = 2_000_000_000;

/// Arguments of `nimtab classes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of heaps.
    #[arg(long, value_name = "N", value_parser = args::parse_heaps)]
    heaps: usize,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Directory for classes.csv and transitions.csv (default: the current directory).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Exit with status 1 if a claim fails.
    #[arg(long)]
    strict: bool,
}

/// The validated `classes` settings.
struct Config {
    space: Space,
    dir: PathBuf,
    strict: bool,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let space = args::space(a.heaps, a.max)?;
        let dir = a.out.unwrap_or_else(|| PathBuf::from("."));
        if !dir.is_dir() {
            anyhow::bail!("--out {}: no such directory", dir.display());
        }
        // Every position is visited with all its moves: about heaps * max / 2 per position.
        let moves = u128::from(space.positions()) * a.heaps as u128 * (u128::from(a.max) + 1) / 2;
        if moves > MAX_MOVES {
            anyhow::bail!(
                "--heaps {} --max {} has about {moves} moves to examine; classes visits every \
                 move of every position, limit {MAX_MOVES} (lower --max or --heaps)",
                a.heaps,
                a.max,
            );
        }
        Ok(Config { space, dir, strict: a.strict })
    }
}

/// Runs `nimtab classes`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let nim = Game::nim();
    let engine = Engine::new(&nim, config.space, false);
    engine.check_memory(2, global.memory_limit)?;
    let bar = Bar::new("classes", config.space.positions() * 2, global.quiet);
    let label = |rule: Rule| {
        bar.set_message(&format!("classes {rule}"));
        engine.run(rule, true, &(), &bar).0.context("engine kept no table")
    };
    let normal = label(Rule::Normal)?;
    let misere = label(Rule::Misere)?;
    bar.finish();
    let report = class_report(config.space, &normal, &misere);
    output::write_file(&config.dir.join("classes.csv"), |out| write_classes(out, &report))?;
    output::write_file(&config.dir.join("transitions.csv"), |out| write_transitions(out, &report))?;
    let mut failed = false;
    for claim in &report.claims {
        match &claim.counterexample {
            None => {
                output::line(format_args!("holds  {} (checked {})", claim.claim, claim.checked))?
            }
            Some(example) => {
                failed = true;
                output::line(format_args!("fails  {}: {example}", claim.claim))?;
            }
        }
    }
    Ok(if failed && config.strict { Outcome::ClaimFailed } else { Outcome::Success })
}
