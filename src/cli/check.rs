//! `nimtab check`: test a claim "P exactly when EXPR" on every position of a range.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use nimtab::check::{check_claim, write_counterexamples, CheckReport, CounterexampleContext};
use nimtab::export::COUNTEREXAMPLE_HEADER;
use nimtab::expr::{Expr, ExprError, Program};
use nimtab::{Engine, Game, Rule};

use super::args::{self, HeapRange};
use super::output::{self, Bar, Target};
use super::{Global, Outcome};

/// Arguments of `nimtab check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Component game: nim, subtract:S or graph:PATH.
    #[arg(long, value_name = "G")]
    game: String,
    /// Heap count N, or a range A..=B.
    #[arg(long, value_name = "N|A..=B", value_parser = args::parse_heap_range)]
    heaps: HeapRange,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Rule: normal, misere or sj.
    #[arg(long, value_name = "R")]
    rule: String,
    /// The claim: a position is P exactly when EXPR is true (e.g. 'xor == 0').
    ///
    /// Features: h1..hN, g1..gN (Grundy values), n, sum, max, min, xor, gxor, gmax, ones,
    /// rich (heaps > 1), zeros, nonzero; integers; + - * / % ^ & | << >>, comparisons,
    /// && || !, parentheses and if(cond, a, b).
    #[arg(long = "claim-p", value_name = "EXPR", allow_hyphen_values = true)]
    claim_p: String,
    /// Only sorted tuples (h1 <= ... <= hN).
    #[arg(long)]
    canonical: bool,
    /// Counterexamples kept per heap count.
    #[arg(long, value_name = "K", default_value_t = 20)]
    limit: usize,
    /// Counterexample CSV file (default: printed after the summary).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The validated `check` settings: one compiled program per heap count.
struct Config {
    game: Game,
    max: u32,
    rule: Rule,
    claim: Expr,
    programs: Vec<Program>,
    canonical: bool,
    limit: usize,
    target: Option<Target>,
}

/// A bad expression as the error text: the message, then the expression with a caret.
fn expression_error(text: &str, error: &ExprError) -> anyhow::Error {
    anyhow!("--claim-p, column {}: {}\n{}", error.column, error.message, error.caret(text, 2))
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        if a.limit == 0 {
            bail!("--limit must be at least 1, got 0");
        }
        let rule = Rule::parse(&a.rule)?;
        let claim = Expr::parse_claim(&a.claim_p).map_err(|e| expression_error(&a.claim_p, &e))?;
        let target = a.out.as_deref().map(|p| Target::new(Some(p))).transpose()?;
        let game = args::game(&a.game)?;
        let grundy = game.grundy(a.max);
        // Every heap count is compiled before any work, so `h4` with 3 heaps fails at once.
        let programs = a
            .heaps
            .counts()
            .map(|n| {
                args::space(n, a.max)?;
                claim.compile(n, &grundy).map_err(|e| expression_error(&a.claim_p, &e))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Config {
            game,
            max: a.max,
            rule,
            claim,
            programs,
            canonical: a.canonical,
            limit: a.limit,
            target,
        })
    }
}

/// Runs `nimtab check`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let mut reports = Vec::new();
    for program in &config.programs {
        let space = args::space(program.heaps(), config.max)?;
        let engine = Engine::new(&config.game, space, config.canonical);
        engine.check_memory(0, global.memory_limit)?;
        let total = if config.canonical { space.canonical_positions() } else { space.positions() };
        let bar = Bar::new(&format!("check {} heaps", space.heaps()), total, global.quiet);
        let report = check_claim(&engine, config.rule, program, config.limit, &bar);
        bar.finish();
        let report =
            report.with_context(|| format!("evaluating the claim '{}'", config.claim.text()))?;
        reports.push((space.heaps(), report));
    }
    print_summary(&config, &reports)?;
    let context = CounterexampleContext {
        game: &config.game,
        max: config.max,
        rule: config.rule,
        criterion: config.claim.text(),
    };
    let write_csv = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}", COUNTEREXAMPLE_HEADER.join(","))?;
        for (_, report) in &reports {
            write_counterexamples(out, &context, &report.counterexamples)?;
        }
        Ok(())
    };
    let holds = reports.iter().all(|(_, r)| r.holds());
    match &config.target {
        Some(target) => output::write_to(target, write_csv)?,
        None if !holds => {
            output::line(format_args!(""))?;
            output::write_to(&Target::Stdout, write_csv)?;
        }
        None => {}
    }
    Ok(if holds { Outcome::Success } else { Outcome::ClaimFailed })
}

fn print_summary(config: &Config, reports: &[(usize, CheckReport)]) -> anyhow::Result<()> {
    // Built whole, then written through output::write_to like every other command.
    let mut out: Vec<u8> = Vec::new();
    let mode = if config.canonical { ", canonical (sorted tuples only)" } else { "" };
    writeln!(out, "claim: P exactly when {}", config.claim.text())?;
    writeln!(out, "game {}, rule {}, max {}{mode}", config.game.spec(), config.rule, config.max)?;
    let rows: Vec<[String; 6]> = reports
        .iter()
        .map(|(n, r)| {
            let first = r.counterexamples.first().map_or("-".to_string(), |c| {
                let p = if c.dp_is_p { "P" } else { "N" };
                let position: Vec<String> = c.position.iter().map(u32::to_string).collect();
                format!("({}) is {p}", position.join(" "))
            });
            [
                n.to_string(),
                r.positions.to_string(),
                r.p_positions.to_string(),
                r.agree.to_string(),
                r.disagree.to_string(),
                first,
            ]
        })
        .collect();
    let header = ["heaps", "positions", "p_positions", "agree", "disagree", "first_counterexample"];
    let widths: Vec<usize> = (0..6)
        .map(|i| rows.iter().map(|r| r[i].len()).chain([header[i].len()]).max().unwrap_or(0))
        .collect();
    let line = |cells: [&str; 6]| {
        let mut text = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i == 5 {
                text.push_str(&format!("  {cell}"));
            } else {
                text.push_str(&format!(
                    "{}{cell:>w$}",
                    if i > 0 { "  " } else { "" },
                    w = widths[i]
                ));
            }
        }
        text
    };
    writeln!(out, "{}", line(header))?;
    for r in &rows {
        writeln!(out, "{}", line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]]))?;
    }
    let positions: u64 = reports.iter().map(|(_, r)| r.positions).sum();
    let disagree: u64 = reports.iter().map(|(_, r)| r.disagree).sum();
    if disagree == 0 {
        writeln!(out, "the claim holds on all {positions} positions")?;
    } else {
        writeln!(out, "the claim fails on {disagree} of {positions} positions")?;
    }
    output::write_to(&Target::Stdout, |w| w.write_all(&out))
}
