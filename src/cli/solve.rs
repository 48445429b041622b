//! `nimtab solve`: label every position of a space and write the CSV table.

use std::path::PathBuf;

use anyhow::bail;
use nimtab::export::{write_label_table, RowFilter};
use nimtab::{Engine, Game, Rule, Space};

use super::output::{self, Bar, Target};
use super::{args, Global, Outcome};

/// Arguments of `nimtab solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Component game: nim, subtract:S (e.g. subtract:1,3,4) or graph:PATH.
    #[arg(long, value_name = "G")]
    game: String,
    /// Number of heaps.
    #[arg(long, value_name = "N", value_parser = args::parse_heaps)]
    heaps: usize,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Rules, a comma list of normal, misere, sj.
    #[arg(long, value_name = "R", default_value = "normal,misere,sj")]
    rules: String,
    /// Only sorted tuples (h1 <= ... <= hN).
    #[arg(long)]
    canonical: bool,
    /// Keep only the rows labelled P or N (needs exactly one rule).
    #[arg(long, value_name = "p|n", value_parser = ["p", "n"])]
    only: Option<String>,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The validated `solve` settings.
struct Config {
    game: Game,
    space: Space,
    rules: Vec<Rule>,
    canonical: bool,
    filter: RowFilter,
    target: Target,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let rules = args::rules(&a.rules)?;
        let filter = match a.only.as_deref() {
            None => RowFilter::All,
            Some(p) => {
                if rules.len() != 1 {
                    bail!("--only {p} needs exactly one rule, got --rules '{}'", a.rules);
                }
                if p == "p" {
                    RowFilter::OnlyP
                } else {
                    RowFilter::OnlyN
                }
            }
        };
        let target = Target::new(a.out.as_deref())?;
        let game = args::game(&a.game)?;
        let space = args::space(a.heaps, a.max)?;
        Ok(Config { game, space, rules, canonical: a.canonical, filter, target })
    }
}

/// Runs `nimtab solve`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let engine = Engine::new(&config.game, config.space, config.canonical);
    engine.check_memory_fused(config.rules.len(), true, global.memory_limit)?;
    let total = if config.canonical {
        config.space.canonical_positions()
    } else {
        config.space.positions()
    };
    let bar = Bar::new("solve", total, global.quiet);
    let (tables, ()) = engine.run_rules(&config.rules, true, &(), &bar);
    bar.finish();
    output::write_to(&config.target, |out| {
        write_label_table(out, &config.game, &tables, config.filter).map(|_| ())
    })?;
    Ok(Outcome::Success)
}
