//! `nimtab sweep`: the criteria (or a claim) on every game of a family, one CSV row per
//! (game, heap count, ending, criterion or claim); `--shard I/N` writes one part of it.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use nimtab::analysis::expr::Expr;
use nimtab::export::format::{streamed, Bytes};
use nimtab::export::text_table::{Align, TextTable};
use nimtab::host::parse_memory_size;
use nimtab::quotient::{QuotientError, MAX_QUOTIENT_HEAP};
use nimtab::sweep::{
    add_summary, summarize, Games, PlannedSweep, QuotientLimits, Shard, SummaryLine, Sweep,
    SweepError, SweepKind, SweepOutput, SweepRequest, SweepRow, SweepSpace, Test, QUOTIENT_HEADER,
};
use nimtab::{Criterion, Error, Mode};

use crate::cli::args::{RulesArg, SizeArgs};
use crate::cli::commands::check::expression_error;
use crate::cli::commands::sweep_family::note_repeated_entries;
use crate::cli::commands::sweep_quotients;
use crate::cli::input::{self, Stdin};
use crate::cli::long_run::parse_duration;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab sweep`.
#[derive(clap::Args, Debug)]
// With --quotients no space is given: --heaps (which brings --max) is required only without it.
#[command(mut_arg("heaps", |a| a.required_unless_present_any(["total", "quotients"])))]
pub struct Args {
    /// The family: game specs separated by ';', or a pattern: subtract:subsets(1..=K),
    /// subtract:subsets(1..=K, size<=S), an octal: code with ? for every digit 0-7,
    /// octal(K) for every octal game of 1 to K code digits, a hex: code with ? for every
    /// digit 0-F, or hex(K) for every hexadecimal game of 1 to K code digits with a digit
    /// above 7.
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
    // The help names the library's heap bound, so that it stays the one enforced.
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["total", "heaps", "max", "canonical", "claim_p", "criteria", "list"],
        help = format!(
            "Compute each game's misère quotient for heaps up to N (1 to {MAX_QUOTIENT_HEAP}) \
             instead, stopping at the first heap where the whole game is certified: one row per \
             game, {}",
            QUOTIENT_HEADER.join(",")
        )
    )]
    quotients: Option<u32>,
    /// With --quotients: a quotient (or a candidate of its search) that grows past K
    /// elements stops its game, a row of status order_bound (default 4096; with
    /// --game-memory, the largest order whose tables fit it).
    // No clap default, so that a flag given without --quotients can be refused.
    #[arg(long, value_name = "K")]
    max_order: Option<usize>,
    /// With --quotients: each game stops after S seconds (or a number with s, m or h), a
    /// row of status timeout with the heaps it completed (one that completed every heap, or
    /// was certified sooner, is still proved). Such rows depend on the machine and its
    /// load: a run with timeouts is not reproducible.
    #[arg(
        long = "game-timeout",
        value_name = "S",
        value_parser = parse_game_timeout,
        allow_negative_numbers = true
    )]
    game_timeout: Option<Duration>,
    /// With --quotients: each game may hold SIZE bytes (or a number with K, M, G or T, powers
    /// of 1024: 512M, 1G), a row of status memory past them; the games run at once must fit
    /// the memory budget together. By default games share the budget, and one that passes
    /// its share runs again alone with the whole of it.
    #[arg(
        long = "game-memory",
        value_name = "SIZE",
        value_parser = parse_game_memory,
        allow_negative_numbers = true
    )]
    game_memory: Option<u64>,
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

/// `--game-timeout`: seconds, or a number with s, m or h; more than nothing.
fn parse_game_timeout(text: &str) -> Result<Duration, String> {
    match parse_duration(text) {
        Ok(time) if !time.is_zero() => Ok(time),
        _ => Err(format!(
            "expected the seconds each game may take, more than 0 (0.5, 2, 5m), got '{text}'"
        )),
    }
}

/// `--game-memory`: bytes, or a number with K, M, G or T.
fn parse_game_memory(text: &str) -> Result<u64, String> {
    parse_memory_size(text).map_err(|e| e.to_string())
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
            let limits = QuotientLimits {
                max_order: a.max_order,
                game_timeout: a.game_timeout,
                game_memory: a.game_memory,
            };
            SweepKind::Quotients { max_heap, limits }
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
        e @ SweepError::GameMemoryBeyondBudget { .. } => {
            anyhow::anyhow!("--game-memory: {e}; lower --game-memory or --threads")
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
    if a.quotients.is_none() {
        let given = [
            ("--max-order", a.max_order.is_some()),
            ("--game-timeout", a.game_timeout.is_some()),
            ("--game-memory", a.game_memory.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, given)| *given) {
            anyhow::bail!("{flag}: it applies only with --quotients");
        }
    }
    let target = Target::new(a.out.as_deref())?;
    let planned = request(&a)?.plan().map_err(flag_error)?;
    let sweep = match planned {
        PlannedSweep::Quotients(sweep) => {
            // Each game's memory is checked against the budget before anything is written.
            let games = sweep.games_of(a.shard).len();
            sweep.check_memory(games, global.memory_limit).map_err(flag_error)?;
            return sweep_quotients::run(&sweep, a.strict, a.shard, &target, global);
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
