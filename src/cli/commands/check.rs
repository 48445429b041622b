//! `nimtab check`: test a claim "P exactly when EXPR" on every position of a range.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use nimtab::analysis::claim::test_claim;
use nimtab::analysis::expr::{Expr, ExprError, Program};
use nimtab::analysis::tally::Tally;
use nimtab::export::summary::{
    write_counterexample_rows, write_multiset_counterexample_rows, COUNTEREXAMPLE_HEADER,
};
use nimtab::export::text_table::{Align, TextTable};
use nimtab::{Ending, Engine, Game, Label, Mode, MultisetSpace, Space, Spaced};

use crate::cli::args::SpaceArgs;
use crate::cli::commands::total;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    space: SpaceArgs,
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
    #[arg(long, conflicts_with = "total")]
    canonical: bool,
    /// Counterexamples kept per heap count.
    #[arg(long, value_name = "K", default_value_t = 20)]
    limit: usize,
    /// Counterexample CSV file (default: printed after the summary).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The validated `check` settings: one compiled program per space.
struct Config {
    game: Game,
    max: u32,
    ending: Ending,
    claim: Expr,
    /// Every space of the range with the claim compiled for its heap count.
    programs: Vec<(Space, Program)>,
    /// The multiset space of `--total` with the claim compiled for it, instead.
    multisets: Option<(MultisetSpace, Program)>,
    mode: Mode,
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
        let ending = Ending::parse(&a.rule)?;
        let claim = Expr::parse_claim(&a.claim_p).map_err(|e| expression_error(&a.claim_p, &e))?;
        let target = a.out.as_deref().map(|p| Target::new(Some(p))).transpose()?;
        let game = a.space.game()?;
        let multisets = match a.space.multisets()? {
            Some(space) => {
                let grundy = game.grundy(space.total());
                let program = claim.compile_multisets(space.total(), &grundy);
                Some((space, program.map_err(|e| expression_error(&a.claim_p, &e))?))
            }
            None => None,
        };
        // Every space is validated and the claim compiled for each heap count before any
        // work, so `h4` with 3 heaps fails at once.
        let spaces = if multisets.is_some() { Vec::new() } else { a.space.spaces()? };
        let grundy = game.grundy(a.space.max());
        let programs = spaces
            .into_iter()
            .map(|space| {
                let program = claim.compile(space.heaps(), &grundy);
                program.map(|p| (space, p)).map_err(|e| expression_error(&a.claim_p, &e))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mode = Mode::canonical_if(a.canonical);
        Ok(Config {
            game,
            max: a.space.max(),
            ending,
            claim,
            programs,
            multisets,
            mode,
            limit: a.limit,
            target,
        })
    }
}

/// Runs `nimtab check`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let engines: Vec<Engine> = config
        .programs
        .iter()
        .map(|&(space, _)| {
            let builder = Engine::builder(&config.game, space).mode(config.mode);
            let engine = builder.memory_limit(global.memory_limit).build();
            engine.ensure_fits(1, false).map(|()| engine)
        })
        .collect::<nimtab::Result<_>>()?;
    let mut tallies = Vec::new();
    if let Some((space, program)) = &config.multisets {
        let (game, claim) = (&config.game, &config.claim);
        let tally = total::check(game, space.clone(), config.ending, program, config.limit, global);
        let tally = tally.with_context(|| format!("evaluating the claim '{}'", claim.text()))?;
        tallies.push((0, tally));
    }
    for (engine, (space, program)) in engines.iter().zip(&config.programs) {
        let bar =
            Bar::new(&format!("check {} heaps", space.heaps()), engine.positions(), global.quiet);
        let tally = test_claim(engine, config.ending, program, config.limit, &bar);
        bar.finish();
        let tally =
            tally.with_context(|| format!("evaluating the claim '{}'", config.claim.text()))?;
        tallies.push((space.heaps(), tally));
    }
    print_summary(&config, &tallies)?;
    let write_csv = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}", COUNTEREXAMPLE_HEADER.join(","))?;
        for (_, tally) in &tallies {
            let (game, text) = (config.game.spec(), config.claim.text());
            let rows = &tally.counterexamples;
            match &config.multisets {
                None => {
                    write_counterexample_rows(out, game, config.max, config.ending, text, rows)?
                }
                Some((space, _)) => {
                    let total = space.total();
                    write_multiset_counterexample_rows(out, game, total, config.ending, text, rows)?
                }
            }
        }
        Ok(())
    };
    let holds = tallies.iter().all(|(_, t)| t.holds());
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

fn print_summary(config: &Config, tallies: &[(usize, Tally)]) -> anyhow::Result<()> {
    // Built whole, then written through output::write_to like every other command.
    let mut out: Vec<u8> = Vec::new();
    let mode = if config.mode == Mode::Canonical { ", canonical (sorted tuples only)" } else { "" };
    writeln!(out, "claim: P exactly when {}", config.claim.text())?;
    let (game, ending) = (config.game.spec(), config.ending);
    match &config.multisets {
        None => writeln!(out, "game {game}, rule {ending}, max {}{mode}", config.max)?,
        Some((space, _)) => {
            let total = space.total();
            writeln!(
                out,
                "game {game}, rule {ending}, every multiset of heaps of total <= {total}"
            )?
        }
    }
    let header = ["heaps", "positions", "p_positions", "agree", "disagree", "first_counterexample"];
    let mut align = [Align::Right; 6];
    align[5] = Align::Left;
    let mut table = TextTable::new(&header, &align);
    for (n, t) in tallies {
        let first = t.counterexamples.first().map_or("-".to_string(), |c| {
            format!("({}) is {}", Spaced(&c.position), Label::of(c.dp_is_p))
        });
        let heaps = if config.multisets.is_some() { "any".to_string() } else { n.to_string() };
        let counts = [heaps, t.positions.to_string(), t.p_positions.to_string()];
        let rest = [t.agree.to_string(), t.disagree.to_string(), first];
        table.push(counts.into_iter().chain(rest).collect());
    }
    out.extend_from_slice(table.render().as_bytes());
    let positions: u64 = tallies.iter().map(|(_, t)| t.positions).sum();
    let disagree: u64 = tallies.iter().map(|(_, t)| t.disagree).sum();
    if disagree == 0 {
        writeln!(out, "the claim holds on all {positions} positions")?;
    } else {
        writeln!(out, "the claim fails on {disagree} of {positions} positions")?;
    }
    output::write_to(&Target::Stdout, |w| w.write_all(&out))
}
