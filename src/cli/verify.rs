//! `nimtab verify`: compare the DP labels with the XOR, Anti-Nim and SJ criteria.

use std::path::PathBuf;

use anyhow::{bail, Context};
use nimtab::export::{summary_table, write_counterexamples, write_summary};
use nimtab::verify::{verify_space, Finding};
use nimtab::{Criterion, Engine, Game, Rule};

use super::args::{self, HeapRange};
use super::output::{self, Bar};
use super::{Global, Outcome};

/// Arguments of `nimtab verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Component game: nim, subtract:S (e.g. subtract:1,3,4) or graph:PATH.
    #[arg(long, value_name = "G")]
    game: String,
    /// Heap count N, or a range A..=B.
    #[arg(long, value_name = "N|A..=B", value_parser = args::parse_heap_range)]
    heaps: HeapRange,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Rules, a comma list of normal, misere, sj.
    #[arg(long, value_name = "R", default_value = "normal,misere,sj")]
    rules: String,
    /// Criteria, a comma list of xor, anti-nim, sj.
    #[arg(long, value_name = "C", default_value = "xor,anti-nim,sj")]
    criteria: String,
    /// Count sorted tuples only.
    #[arg(long)]
    canonical: bool,
    /// Counterexamples kept per (heaps, rule, criterion).
    #[arg(long, value_name = "K", default_value = "20", value_parser = parse_limit)]
    limit: usize,
    /// Also write DIR/summary.csv and DIR/counterexamples.csv.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Exit with status 1 if a theorem fails.
    #[arg(long)]
    strict: bool,
}

fn parse_limit(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) | Err(_) => Err(format!("--limit must be a positive integer, got '{text}'")),
        Ok(k) => Ok(k),
    }
}

/// The validated `verify` settings.
pub struct Config {
    /// The game.
    pub game: Game,
    /// Heap counts, in order.
    pub heaps: HeapRange,
    /// Largest heap size.
    pub max: u32,
    /// Rules compared.
    pub rules: Vec<Rule>,
    /// Criteria compared.
    pub criteria: Vec<Criterion>,
    /// Sorted tuples only.
    pub canonical: bool,
    /// Counterexamples kept.
    pub limit: usize,
}

impl Config {
    fn new(a: &Args) -> anyhow::Result<Config> {
        let rules = args::rules(&a.rules)?;
        let criteria = Criterion::parse_list(&a.criteria)
            .with_context(|| format!("--criteria '{}'", a.criteria))?;
        if let Some(dir) = &a.out {
            if dir.exists() && !dir.is_dir() {
                bail!("--out {}: not a directory", dir.display());
            }
            if !dir.is_dir() {
                bail!("--out {}: directory does not exist", dir.display());
            }
        }
        let game = args::game(&a.game)?;
        Ok(Config {
            game,
            heaps: a.heaps,
            max: a.max,
            rules,
            criteria,
            canonical: a.canonical,
            limit: a.limit,
        })
    }
}

/// Runs every (heaps, rule) pass of a verification; refuses a space before labelling it.
pub fn run_config(config: &Config, global: &Global, bar: &Bar) -> anyhow::Result<Vec<Finding>> {
    let mut engines = Vec::new();
    for n in config.heaps.counts() {
        let engine = Engine::new(&config.game, args::space(n, config.max)?, config.canonical);
        engine.check_memory(0, global.memory_limit)?;
        engines.push(engine);
    }
    let mut findings = Vec::new();
    for engine in &engines {
        for &rule in &config.rules {
            bar.set_message(&format!("{} n={} {rule}", config.game.spec(), engine.space().heaps()));
            let found =
                verify_space(engine, &config.game, rule, &config.criteria, config.limit, bar);
            findings.extend(found);
        }
    }
    Ok(findings)
}

/// Positions a configuration labels, over all heap counts and rules.
pub fn total_positions(config: &Config) -> anyhow::Result<u64> {
    let mut total = 0u64;
    for n in config.heaps.counts() {
        let space = args::space(n, config.max)?;
        let each = if config.canonical { space.canonical_positions() } else { space.positions() };
        total = total.saturating_add(each.saturating_mul(config.rules.len() as u64));
    }
    Ok(total)
}

/// Runs `nimtab verify`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(&a)?;
    if config.canonical && !global.quiet {
        output::note("nimtab: canonical: counting sorted tuples (h1 <= ... <= hN) only");
    }
    let bar = Bar::new("verify", total_positions(&config)?, global.quiet);
    let findings = run_config(&config, global, &bar)?;
    bar.finish();
    if let Some(dir) = &a.out {
        output::write_file(&dir.join("summary.csv"), |w| write_summary(w, &findings))?;
        output::write_file(&dir.join("counterexamples.csv"), |w| {
            write_counterexamples(w, &findings)
        })?;
    }
    let mode = if config.canonical { " (canonical: sorted tuples only)" } else { "" };
    output::write_to(&output::Target::Stdout, |w| {
        if !mode.is_empty() {
            writeln!(w, "counts{mode}")?;
        }
        w.write_all(summary_table(&findings).as_bytes())
    })?;
    let failed: Vec<&Finding> = findings.iter().filter(|f| f.theorem_failed()).collect();
    for f in &failed {
        output::note(&format!(
            "nimtab: theorem failed: {} under {} rule for {} ({} heaps): {} disagreements",
            f.criterion, f.rule, f.game, f.heaps, f.disagree
        ));
    }
    if a.strict && !failed.is_empty() {
        return Ok(Outcome::ClaimFailed);
    }
    Ok(Outcome::Success)
}
