//! `nimtab check`: test a claim "P exactly when EXPR" on every position of a range.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use nimtab::analysis::claim::{claim_work, test_claim_with};
use nimtab::analysis::expr::{Expr, ExprError, Feature, Program};
use nimtab::analysis::tally::Tally;
use nimtab::engine::Work;
use nimtab::export::format::{streamed, Bytes};
use nimtab::export::summary::{write_counterexample_rows, COUNTEREXAMPLE_HEADER};
use nimtab::export::text_table::{Align, TextTable};
use nimtab::model::position::SpacedState;
use nimtab::{Ending, Engine, Game, Label, Mode, Space};

use crate::cli::args::{one_ending, SpaceArgs};
use crate::cli::explain::ExpressionError;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    space: SpaceArgs,
    /// One rule: normal, misere or sj (also taken as --rule R).
    #[arg(long = "rules", alias = "rule", value_name = "R")]
    rule: String,
    /// The claim: a position is P exactly when EXPR is true (e.g. 'xor == 0').
    ///
    /// Features: h1..hN, g1..gN (Grundy values), n, sum, max, min, xor, gxor, gmax, ones,
    /// rich (heaps > 1), zeros, nonzero, pass (1 = still available), grundy (with
    /// --grundy); integers; + - * / % ^ & | << >>, comparisons, && || !, parentheses and
    /// if(cond, a, b).
    #[arg(long = "claim-p", value_name = "EXPR", allow_hyphen_values = true)]
    claim_p: String,
    /// Compute the whole position's Grundy value (normal play, by the mex rule), the
    /// feature `grundy`.
    #[arg(long)]
    grundy: bool,
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
    /// Every space of the range, in the mode asked for, or the multiset space of
    /// `--total`.
    spaces: Vec<Space>,
    grundy: bool,
    limit: usize,
    target: Option<Target>,
}

/// Refuses features the run cannot give: heap Grundy values for a game that is not a
/// sum, the whole position's Grundy value without `--grundy` or over multisets (`total`).
fn check_features(claim: &Expr, game: &Game, grundy: bool, total: bool) -> anyhow::Result<()> {
    let text = claim.text();
    if let Some(column) =
        claim.feature_column(Feature::reads_heap_grundy).filter(|_| !game.is_sum())
    {
        let message = format!(
            "g1..gN, gxor and gmax read heap Grundy values, which {} does not have (it is \
             not a sum of heaps); the whole position's value is grundy, with --grundy",
            game.spec()
        );
        return Err(expression_error(text, &ExprError { column, message }));
    }
    if let Some(column) = claim.feature_column(|f| f == Feature::Value).filter(|_| !grundy) {
        let message = if total {
            "grundy is the whole position's Grundy value, which a multiset space (--total) \
             does not compute"
        } else {
            "grundy is the whole position's Grundy value; add --grundy to compute it"
        };
        return Err(expression_error(text, &ExprError { column, message: message.to_string() }));
    }
    Ok(())
}

/// A bad expression as an error: the message, and the expression with a caret to show.
pub fn expression_error(text: &str, error: &ExprError) -> anyhow::Error {
    anyhow::Error::new(ExpressionError {
        flag: "--claim-p",
        column: error.column,
        message: error.message.clone(),
        caret: error.caret(text, 2),
    })
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        if a.limit == 0 {
            bail!("--limit must be at least 1, got 0");
        }
        let claim = Expr::parse_claim(&a.claim_p).map_err(|e| expression_error(&a.claim_p, &e))?;
        let target = a.out.as_deref().map(|p| Target::new(Some(p))).transpose()?;
        let game = a.space.game()?;
        let ending = one_ending(&a.rule, &game)?;
        let multisets = a.space.multisets(&game)?;
        check_features(&claim, &game, a.grundy, multisets.is_some())?;
        a.space.refuse_grundy_with_total(a.grundy)?;
        let spaces = match multisets {
            Some(space) => vec![space],
            None => a.space.spaces(if a.canonical { Mode::Canonical } else { Mode::Full })?,
        };
        for space in &spaces {
            if let Some(tuples) = space.as_tuples() {
                game.check_heaps(tuples.heaps())?;
            }
            claim.check_space(space).map_err(|e| expression_error(&a.claim_p, &e))?;
        }
        let (max, limit, grundy) = (a.space.max(), a.limit, a.grundy);
        Ok(Config { game, max, ending, claim, spaces, grundy, limit, target })
    }

    /// The claim compiled for every space's heap count, once every space is known to fit
    /// (the Grundy values it reads are sized by `--max`; `h4` with 3 heaps was refused
    /// before any of it).
    fn programs(&self) -> anyhow::Result<Vec<Program>> {
        let compile = |space: &Space| {
            let program = self.claim.compile(space, &self.game.grundy(space.max()));
            program.map_err(|e| expression_error(self.claim.text(), &e))
        };
        self.spaces.iter().map(compile).collect()
    }
}

/// Runs `nimtab check`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let engines: Vec<Engine> = config
        .spaces
        .iter()
        .map(|space| {
            Engine::builder(&config.game, space.clone()).memory_limit(global.memory_limit).build()
        })
        .collect();
    // Every space's run is checked (the Grundy values and the claim's pass held at once)
    // before any is labelled.
    let runs = engines
        .iter()
        .map(|engine| {
            engine.ensure_supported(&[config.ending])?;
            let mut work = claim_work(engine, config.claim.operators(), config.limit).to_vec();
            if config.grundy {
                work.push(Work::Grundy);
            }
            engine.reserve(&work)
        })
        .collect::<Result<Vec<_>, nimtab::EngineError>>()?;
    let mut tallies = Vec::new();
    let programs = config.programs()?;
    for (run, program) in runs.iter().zip(&programs) {
        let (engine, space) = (run.engine(), run.engine().space());
        let values = if config.grundy {
            let bar = Bar::new(
                &format!("grundy {} heaps", space.heaps()),
                engine.positions(),
                global.quiet,
            );
            let values = run.grundy_values(&bar)?;
            bar.finish();
            Some(values)
        } else {
            None
        };
        let name = match space {
            Space::Tuples(tuples) => format!("check {} heaps", tuples.heaps()),
            Space::Multisets(_) => "check".to_string(),
        };
        let bar = Bar::new(&name, engine.positions(), global.quiet);
        let (ending, limit) = (config.ending, config.limit);
        let tally = test_claim_with(run, ending, program, values.as_ref(), limit, &bar);
        bar.finish();
        let tally =
            tally.with_context(|| format!("evaluating the claim '{}'", config.claim.text()))?;
        tallies.push((space, tally));
    }
    print_summary(&config, &tallies)?;
    let write_csv = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}", COUNTEREXAMPLE_HEADER.join(","))?;
        for (space, tally) in &tallies {
            let (game, text) = (config.game.spec(), config.claim.text());
            let rows = &tally.counterexamples;
            write_counterexample_rows(out, game, space, config.ending, text, rows)?;
        }
        Ok(())
    };
    let holds = tallies.iter().all(|(_, t)| t.holds());
    match &config.target {
        Some(target) => output::write_to(target, streamed(&write_csv))?,
        None if !holds => {
            output::line(format_args!(""))?;
            output::write_to(&Target::Stdout, streamed(&write_csv))?;
        }
        None => {}
    }
    Ok(if holds { Outcome::Success } else { Outcome::ClaimFailed })
}

fn print_summary(config: &Config, tallies: &[(&Space, Tally)]) -> anyhow::Result<()> {
    // Built whole, then written through output::write_to like every other command.
    let mut out: Vec<u8> = Vec::new();
    let canonical = config.spaces.first().and_then(Space::as_tuples).map(|s| s.mode());
    let canonical = canonical == Some(Mode::Canonical);
    let mode = if canonical { ", canonical (sorted tuples only)" } else { "" };
    writeln!(out, "claim: P exactly when {}", config.claim.text())?;
    let (game, ending) = (config.game.spec(), config.ending);
    match config.spaces.first() {
        Some(Space::Multisets(space)) => {
            let total = space.total();
            writeln!(
                out,
                "game {game}, rule {ending}, every multiset of heaps of total <= {total}"
            )?
        }
        _ => writeln!(out, "game {game}, rule {ending}, max {}{mode}", config.max)?,
    }
    let header = ["heaps", "positions", "p_positions", "agree", "disagree", "first_counterexample"];
    let mut align = [Align::Right; 6];
    align[5] = Align::Left;
    let mut table = TextTable::new(&header, &align);
    for (space, t) in tallies {
        let first = t.counterexamples.first().map_or("-".to_string(), |c| {
            format!("({}) is {}", SpacedState(&c.position, c.pass), Label::of(c.dp_is_p))
        });
        let heaps = match space {
            Space::Multisets(_) => "any".to_string(),
            Space::Tuples(tuples) => tuples.heaps().to_string(),
        };
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
    output::write_to(&Target::Stdout, Bytes(&out))
}
