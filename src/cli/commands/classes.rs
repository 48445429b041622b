//! `nimtab classes`: misère Nim's classes S0..T2 counted, their moves tallied, and the
//! classic claims about them checked against the DP labels.

use std::io::Write;
use std::path::PathBuf;

use nimtab::analysis::classes::class_report;
use nimtab::export::csv::{write_classes, write_transitions};
use nimtab::model::space::TupleSpace;
use nimtab::{Ending, Engine, Game};

use crate::cli::args;
use crate::cli::output;
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// The most moves `classes` examines (about ten seconds).
const MAX_MOVES: u128 = 2_000_000_000;

/// Arguments of `nimtab classes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of heaps.
    #[arg(long, value_name = "N", value_parser = args::parse_heap_range)]
    heaps: args::CountRange,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Directory for classes.csv and transitions.csv (default: the current directory;
    /// created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Exit with status 1 if a claim fails.
    #[arg(long)]
    strict: bool,
}

/// The files `classes` writes in its output directory.
const FILES: [&str; 2] = ["classes.csv", "transitions.csv"];

/// The validated `classes` settings.
struct Config {
    space: TupleSpace,
    dir: PathBuf,
    strict: bool,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        if a.heaps.lo != a.heaps.hi {
            anyhow::bail!(
                "classes takes one heap count, got --heaps {}..={}",
                a.heaps.lo,
                a.heaps.hi
            );
        }
        let space = TupleSpace::new(a.heaps.lo, a.max)?;
        let dir = a.out.unwrap_or_else(|| PathBuf::from("."));
        output::check_dir_target(&dir, &FILES)?;
        // Every position is visited with all its moves: about heaps * max / 2 per position.
        let moves =
            u128::from(space.positions()) * space.heaps() as u128 * (u128::from(a.max) + 1) / 2;
        if moves > MAX_MOVES {
            anyhow::bail!(
                "--heaps {} --max {} has about {moves} moves to examine; classes visits every \
                 move of every position, limit {MAX_MOVES} (lower --max or --heaps)",
                space.heaps(),
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
    let engine =
        Engine::builder(&nim, config.space.into()).memory_limit(global.memory_limit).build();
    let bar = Bar::new("classes", config.space.positions(), global.quiet);
    let tables = engine.label_all(&[Ending::Normal, Ending::Misere], &bar)?;
    bar.finish();
    let report = class_report(config.space, &tables[0], &tables[1]);
    output::write_dir(
        &config.dir,
        &[
            (FILES[0], &|w: &mut dyn Write| write_classes(w, &report)),
            (FILES[1], &|w: &mut dyn Write| write_transitions(w, &report)),
        ],
    )?;
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
