//! `nimtab verify`: compare the DP labels with the criteria that apply to the game.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use nimtab::analysis::verify::{prepare, Finding};
use nimtab::export::format::streamed;
use nimtab::export::summary::{summary_table, write_counterexamples, write_summary};
use nimtab::{Criterion, Ending, Engine, Game, Mode, Space};

use crate::cli::args::TableArgs;
use crate::cli::output;
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    table: TableArgs,
    // The help lists the library's criteria, so that it names every one.
    #[arg(long, value_name = "C", help = format!(
        "Criteria, a comma list of {} (default: every one that applies to the game and heap \
         count)",
        Criterion::names()
    ))]
    criteria: Option<String>,
    /// Counterexamples kept per (heaps, rule, criterion).
    #[arg(long, value_name = "K", default_value = "20", value_parser = parse_limit)]
    limit: usize,
    /// Also write DIR/summary.csv and DIR/counterexamples.csv (DIR is created if missing).
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

/// The files `--out DIR` writes in DIR.
const FILES: [&str; 2] = ["summary.csv", "counterexamples.csv"];

/// The validated `verify` settings.
struct Config {
    game: Game,
    /// Every space with the criteria compared there: the tuple spaces of the heap
    /// range, or the one multiset space of `--total`.
    spaces: Vec<(Space, Vec<Criterion>)>,
    endings: Vec<Ending>,
    limit: usize,
    out: Option<PathBuf>,
    strict: bool,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let game = a.table.space.game()?;
        let endings = a.table.rules.endings(&game)?;
        let listed = match &a.criteria {
            Some(list) => {
                Some(Criterion::parse_list(list).with_context(|| format!("--criteria '{list}'"))?)
            }
            None => None,
        };
        if let Some(dir) = &a.out {
            output::check_dir_target(dir, &FILES)?;
        }
        let all = match a.table.space.multisets(&game)? {
            Some(multisets) => vec![multisets],
            None => a.table.spaces()?,
        };
        let mut spaces = Vec::new();
        for space in all {
            if space.as_tuples().is_some() {
                game.check_heaps(space.heaps())?;
            }
            let criteria = match &listed {
                Some(listed) => {
                    for criterion in listed {
                        criterion.check_applies_to(&game, &space)?;
                    }
                    listed.clone()
                }
                None => Criterion::applicable_to(&game, &space),
            };
            spaces.push((space, criteria));
        }
        let (limit, out, strict) = (a.limit, a.out, a.strict);
        Ok(Config { game, spaces, endings, limit, out, strict })
    }
}

/// Verifies every space of the configuration; each space is refused (too large) before
/// any is labelled.
fn verify_all(config: &Config, global: &Global) -> anyhow::Result<Vec<Finding>> {
    let engines: Vec<Engine> = config
        .spaces
        .iter()
        .map(|(space, _)| {
            Engine::builder(&config.game, space.clone()).memory_limit(global.memory_limit).build()
        })
        .collect();
    // Every space's memory is checked once, before any is labelled.
    let verifiers = engines
        .iter()
        .zip(&config.spaces)
        .map(|(engine, (_, criteria))| prepare(engine, &config.endings, criteria, config.limit))
        .collect::<nimtab::Result<Vec<_>>>()?;
    let total = verifiers
        .iter()
        .map(|v| v.engine().positions().saturating_mul(v.labellings() as u64))
        .fold(0u64, u64::saturating_add);
    let bar = Bar::new("verify", total, global.quiet);
    let bar = &bar;
    let mut findings = Vec::new();
    for (verifier, engine) in verifiers.iter().zip(&engines) {
        let size = match engine.space() {
            Space::Tuples(tuples) => format!("n={}", tuples.heaps()),
            Space::Multisets(multisets) => format!("total<={}", multisets.total()),
        };
        bar.set_message(&format!("{} {size}", config.game.spec()));
        let run = verifier.run(bar)?;
        if run.labellings > 1 && !global.quiet {
            output::note(&format!(
                "nimtab: {} heaps: the rules' tables do not fit in memory together; \
                 labelled in {} runs, one per rule",
                engine.space().heaps(),
                run.labellings
            ));
        }
        findings.extend(run.findings);
    }
    bar.finish();
    Ok(findings)
}

/// Runs `nimtab verify`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let canonical = config
        .spaces
        .iter()
        .any(|(s, _)| s.as_tuples().is_some_and(|t| t.mode() == Mode::Canonical));
    let findings = verify_all(&config, global)?;
    if let Some(dir) = &config.out {
        output::write_dir(
            dir,
            &[
                (FILES[0], &|w: &mut dyn Write| write_summary(w, &findings)),
                (FILES[1], &|w: &mut dyn Write| write_counterexamples(w, &findings)),
            ],
        )?;
    }
    output::write_to(
        &output::Target::Stdout,
        streamed(|w| {
            if canonical {
                writeln!(w, "counts (canonical: sorted tuples only)")?;
            }
            w.write_all(summary_table(&findings).as_bytes())
        }),
    )?;
    for f in findings.iter().filter(|f| f.not_compared.is_some()) {
        output::note(&format!(
            "nimtab: criterion {} under {} rule for {} not compared: {}",
            f.criterion.map_or("none", |c| c.name()),
            f.ending,
            f.game,
            f.not_compared.as_deref().unwrap_or_default()
        ));
    }
    let failed: Vec<&Finding> = findings.iter().filter(|f| f.theorem_failed()).collect();
    for f in &failed {
        let space = match f.total {
            None => format!("{} heaps", f.heaps),
            Some(total) => format!("total at most {total}"),
        };
        output::note(&format!(
            "nimtab: theorem failed: {} under {} rule for {} ({space}): {} disagreements",
            f.criterion.map_or("none", |c| c.name()),
            f.ending,
            f.game,
            f.tally.disagree
        ));
    }
    if config.strict && !failed.is_empty() {
        return Ok(Outcome::ClaimFailed);
    }
    Ok(Outcome::Success)
}
