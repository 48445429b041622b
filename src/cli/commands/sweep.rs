//! `nimtab sweep`: the criteria (or a claim) on every game of a family, one CSV row per
//! (game, heap count, ending, criterion or claim); `--shard I/N` writes one part of it.

use std::path::PathBuf;

use anyhow::Context;
use nimtab::analysis::expr::Expr;
use nimtab::export::format::{streamed, Bytes};
use nimtab::export::text_table::{Align, TextTable};
use nimtab::quotient::{QuotientError, DEFAULT_MAX_ORDER};
use nimtab::sweep::{
    add_summary, summarize, Games, PlannedSweep, Shard, SummaryLine, Sweep, SweepError, SweepKind,
    SweepOutput, SweepRequest, SweepRow, SweepSpace, Test,
};
use nimtab::{Criterion, Error, Mode};

use crate::cli::args::{RulesArg, SizeArgs};
use crate::cli::commands::check::expression_error;
use crate::cli::commands::sweep_family::note_repeated_entries;
use crate::cli::commands::sweep_quotients;
use crate::cli::input::{self, Stdin};
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab sweep`.
#[derive(clap::Args, Debug)]
// With --quotients no space is given: --heaps (which brings --max) is required only without it.
#[command(mut_arg("heaps", |a| a.required_unless_present_any(["total", "quotients"])))]
pub struct Args {
    /// The family: game specs separated by ';', or a pattern: subtract:subsets(1..=K),
    /// subtract:subsets(1..=K, size<=S), an octal: code with ? for every digit 0-7, or
    /// octal(K) for every octal game of 1 to K code digits.
    #[arg(long, value_name = "FAMILY", required_unless_present = "games_file")]
    games: Option<String>,
    /// A file of game specs or patterns, one per line ('#' starts a comment); - or
    /// /dev/stdin reads standard input. At most 64 MiB.
    #[arg(long = "games-file", value_name = "FILE", conflicts_with = "games")]
    games_file: Option<PathBuf>,
    #[command(flatten)]
    space: SweepSpaceArgs,
    #[command(flatten)]
    rules: RulesArg,
    // The help lists the library's criteria, so that it names every one.
    #[arg(
        long,
        value_name = "C",
        default_value = "xor,anti-nim,sj",
        help = format!(
            "Criteria, a comma list of {} (quotient with verify --total only; see --quotients)",
            Criterion::names()
        )
    )]
    criteria: String,
    /// A claim instead of the criteria: P exactly when EXPR (as in `check`).
    #[arg(
        long = "claim-p",
        value_name = "EXPR",
        allow_hyphen_values = true,
        conflicts_with = "criteria"
    )]
    claim_p: Option<String>,
    /// Run only part I of N (contiguous ranges of games of equal size; N at most
    /// 4194304) and write it as a part for `nimtab merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Output CSV file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Exit with status 1 if a theorem fails for any game.
    #[arg(long)]
    strict: bool,
    /// Run a family of more than 10000 games (up to 4194304).
    #[arg(long)]
    force: bool,
    /// Compute each game's misère quotient for heaps up to N (1 to 1000) instead: one row
    /// per game, game,max_heap,order,p_portion_size,tame,preperiod,period,status.
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["total", "heaps", "max", "canonical", "claim_p", "criteria", "list"]
    )]
    quotients: Option<u32>,
    /// With --quotients: a quotient that grows past K elements is a row of status
    /// grew_past_max_order (default 4096).
    // No clap default, so that a flag given without --quotients can be refused.
    #[arg(long, value_name = "K")]
    max_order: Option<usize>,
}

/// The space every game is checked on: tuples (`--heaps`, `--max`) or multisets
/// (`--total`). A new kind of space is a flag here and a variant of [`SweepSpace`];
/// nothing else in the command changes.
#[derive(clap::Args, Debug)]
pub struct SweepSpaceArgs {
    #[command(flatten)]
    size: SizeArgs,
    /// Only sorted tuples (h1 <= ... <= hN).
    #[arg(long, conflicts_with = "total")]
    canonical: bool,
}

impl SweepSpaceArgs {
    fn space(&self) -> anyhow::Result<SweepSpace> {
        if let Some(total) = self.size.total {
            return Ok(SweepSpace::total(total)?);
        }
        let (Some(heaps), Some(max)) = (self.size.heaps, self.size.max) else {
            unreachable!("clap requires --heaps and --max without --total")
        };
        let mode = if self.canonical { Mode::Canonical } else { Mode::Full };
        Ok(SweepSpace::heaps(heaps.lo, heaps.hi, max, mode)?)
    }
}

/// The largest games file read: 64 MiB holds every game a family may have (4,194,304)
/// at 16 bytes a line, and bounds what an endless input (`yes nim`) makes nimtab read.
const MAX_GAMES_FILE: u64 = 64 << 20;

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| format!("--shard: {e}"))
}

/// The validated `sweep` settings.
struct Config {
    sweep: Sweep,
    shard: Option<Shard>,
    target: Target,
    strict: bool,
}

/// The library's request for these flags: the games (a games file read here), and a
/// table or quotients.
fn request(a: &Args) -> anyhow::Result<SweepRequest> {
    let kind = match a.quotients {
        Some(max_heap) => {
            SweepKind::Quotients { max_heap, max_order: a.max_order.unwrap_or(DEFAULT_MAX_ORDER) }
        }
        None => {
            let endings = a.rules.listed_or_all()?;
            let space = a.space.space()?;
            let test = match &a.claim_p {
                Some(text) => Test::Claim(claim(text, &space)?),
                None => Test::Criteria(
                    Criterion::parse_list(&a.criteria)
                        .with_context(|| format!("--criteria '{}'", a.criteria))?,
                ),
            };
            SweepKind::Table { space, endings, test }
        }
    };
    Ok(SweepRequest { games: games(a)?, force: a.force, kind })
}

/// Parses the claim and checks it against every space of the sweep, so that a bad
/// expression is shown with a caret before any work.
fn claim(text: &str, space: &SweepSpace) -> anyhow::Result<Expr> {
    let expr = Expr::parse_claim(text).map_err(|e| expression_error(text, &e))?;
    for s in space.spaces() {
        expr.check_space(s).map_err(|e| expression_error(text, &e))?;
    }
    Ok(expr)
}

/// A planning error in the flags' words: a quotient bound named by its flag.
fn flag_error(error: SweepError) -> anyhow::Error {
    match error {
        SweepError::Quotient(e @ QuotientError::MaxHeap { .. }) => {
            anyhow::Error::new(e).context("--quotients")
        }
        SweepError::Quotient(e @ QuotientError::MaxOrder { .. }) => {
            anyhow::Error::new(e).context("--max-order")
        }
        e => e.into(),
    }
}

/// What the batches of a run add up to: the summary lines, the failed theorems.
#[derive(Default)]
struct Totals {
    lines: Vec<SummaryLine>,
    failed: Vec<SweepRow>,
    failures: usize,
}

impl Totals {
    fn add(&mut self, rows: &[SweepRow]) {
        add_summary(&mut self.lines, summarize(rows));
        for r in rows.iter().filter(|r| r.theorem_failed()) {
            self.failures += 1;
            if self.failed.len() < 10 {
                self.failed.push(r.clone());
            }
        }
    }
}

/// The games of `--games` or `--games-file`.
fn games(a: &Args) -> anyhow::Result<Games> {
    Ok(match (&a.games, &a.games_file) {
        (_, Some(path)) => {
            let bytes = input::read_bounded(path, "--games-file", Stdin::Taken, MAX_GAMES_FILE)?;
            let contents = String::from_utf8(bytes).ok().with_context(|| {
                format!("--games-file {}: it is not text (not UTF-8)", path.display())
            })?;
            Games::File { name: path.display().to_string(), contents }
        }
        (Some(text), None) => Games::Text(text.clone()),
        (None, None) => unreachable!("clap requires --games or --games-file"),
    })
}

/// Runs `nimtab sweep`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    if a.quotients.is_none() && a.max_order.is_some() {
        anyhow::bail!("--max-order: it applies only with --quotients");
    }
    let target = Target::new(a.out.as_deref())?;
    let planned = request(&a)?.plan().map_err(flag_error)?;
    let sweep = match planned {
        PlannedSweep::Quotients(sweep) => {
            return sweep_quotients::run(&sweep, a.strict, a.shard, &target, global)
        }
        PlannedSweep::Table(sweep) => sweep,
    };
    let config = Config { sweep, shard: a.shard, target, strict: a.strict };
    if !global.quiet {
        note_repeated_entries(config.sweep.family(), config.sweep.repeats());
    }
    let totals = write_rows_in_batches(&config, global)?;
    let summary = summary_text(&totals.lines);
    // The CSV has stdout: the summary is a note then.
    if config.target == Target::Stdout {
        if !global.quiet {
            output::note_lines(summary.trim_end());
        }
    } else {
        output::write_to(&Target::Stdout, Bytes(summary.as_bytes()))?;
    }
    note_theorem_failures(&totals);
    if config.strict && totals.failures > 0 {
        return Ok(Outcome::ClaimFailed);
    }
    Ok(Outcome::Success)
}

/// Runs the games batch by batch, writing each batch's rows as it is done, so that only
/// one batch is held in memory. Every game is checked to fit before any is run; a later
/// error (a claim that cannot be evaluated) leaves no file under the name asked for.
fn write_rows_in_batches(config: &Config, global: &Global) -> anyhow::Result<Totals> {
    let sweep = &config.sweep;
    let games = sweep.games_of(config.shard);
    let bar = Bar::counting("sweep", games.len() as u64, "games", global.quiet);
    let mut totals = Totals::default();
    // The library's error, kept typed while the writer only carries an I/O error.
    let mut failure: Option<SweepError> = None;
    let written = output::write_to(
        &config.target,
        streamed(|w| {
            let run = sweep
                .write_csv(config.shard, w, global.memory_limit, &bar, |rows| totals.add(rows));
            match run {
                Ok(()) => Ok(()),
                Err(SweepError::Space(Error::Io(e))) => Err(e),
                Err(e) => {
                    failure = Some(e);
                    Err(std::io::Error::other("the sweep stopped"))
                }
            }
        }),
    );
    bar.finish();
    match (written, failure) {
        (_, Some(e)) => Err(e.into()),
        (Err(e), None) => Err(e),
        (Ok(()), None) => Ok(totals),
    }
}

/// Games that hold and fail per (ending, criterion or claim), as an aligned table.
fn summary_text(lines: &[SummaryLine]) -> String {
    let header = ["rule", "criterion", "games", "hold", "fail"];
    let align = [Align::Left, Align::Left, Align::Right, Align::Right, Align::Right];
    let mut table = TextTable::new(&header, &align);
    for line in lines {
        table.push(vec![
            line.ending.name().to_string(),
            line.test.clone(),
            line.games.to_string(),
            line.hold.to_string(),
            line.fail.to_string(),
        ]);
    }
    table.render()
}

/// Notes the failed theorems (the first ten, and how many more).
fn note_theorem_failures(totals: &Totals) {
    for r in &totals.failed {
        output::note(&format!(
            "nimtab: theorem failed: {} under {} rule for {} ({}): {} disagreements",
            r.test,
            r.ending,
            r.game,
            r.space_words(),
            r.tally.disagree
        ));
    }
    if totals.failures > totals.failed.len() {
        let more = totals.failures - totals.failed.len();
        output::note(&format!("nimtab: ... and {more} more theorem failures"));
    }
}
