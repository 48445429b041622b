//! `nimtab quotient`: the misère quotient of a sum of heaps, proved, optionally checked
//! against the exhaustive tables of the multiset engine.

use nimtab::Ending;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nimtab::engine::Work;
use nimtab::export::quotient::QuotientOutput;
use nimtab::model::multiset::MAX_TOTAL;
use nimtab::model::position::Spaced;
use nimtab::quotient::{
    check_against_tables, compute_from, order_bound_for, QuotientConfig, QuotientError,
};
use nimtab::sequence::human_bytes;
use nimtab::{Engine, Progress, Space};

use crate::cli::args::GameArg;
use crate::cli::choices::QuotientFormat;
use crate::cli::commands::quotient_checkpoint::{self, RunProgress, DEFAULT_EVERY};
use crate::cli::interrupt;
use crate::cli::long_run::parse_duration;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab quotient`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArg,
    /// Largest heap size N (as far as the memory budget holds the heaps' options). The
    /// run stops sooner at the first heap at which the periodicity theorem certifies the
    /// whole game, unless --every-heap.
    #[arg(long, value_name = "N")]
    max_heap: u32,
    /// Stop with status 1 when the quotient grows past K elements (default: the largest
    /// order whose tables fit the memory budget, stated before a long run).
    #[arg(long, value_name = "K")]
    max_order: Option<usize>,
    /// Go on to --max-heap even once the whole game is certified.
    #[arg(long)]
    every_heap: bool,
    /// Write the run's state to FILE at intervals and when it ends (also on an
    /// interrupt); FILE must not exist yet (continue a run with --resume).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// How often to checkpoint: seconds, or a number with s, m or h (default 5m; 0 after
    /// every heap).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    checkpoint_every: Option<Duration>,
    /// Continue the run recorded in the checkpoint FILE, to --max-heap (and keep
    /// checkpointing to it, unless --checkpoint names another file).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// text (a summary) or json (every element and the product table).
    #[arg(long, value_name = "F", value_enum, default_value_t = QuotientFormat::Text)]
    format: QuotientFormat,
    /// Also check the quotient against the misère labels of every multiset of heaps of
    /// size at most N and total at most T.
    #[arg(long, value_name = "T", value_parser = parse_check)]
    check: Option<u64>,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `--check T`: a non-negative integer.
fn parse_check(text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| format!("--check must be a non-negative integer, got '{text}'"))
}

/// The validated settings.
struct Config {
    quotient: QuotientConfig,
    format: QuotientFormat,
    check: Option<u64>,
    target: Target,
}

/// The largest heap from which the plan is stated before the work: a quotient of that
/// many heaps may take minutes, one of fewer states its refusals alone.
const STATED_FROM_HEAP: u32 = 100;

/// A refusal of the arguments, with the flag that gave a bad bound.
fn flag_error(err: QuotientError) -> anyhow::Error {
    let flag = match err {
        QuotientError::MaxHeap { .. } | QuotientError::PlanBeyondMemory { .. } => "--max-heap",
        QuotientError::MaxOrder { .. } => "--max-order",
        _ => return err.into(),
    };
    anyhow::Error::new(err).context(flag)
}

/// The plan of a long computation, on one line.
fn plan(game: &nimtab::Game, config: &QuotientConfig, global: &Global) -> String {
    let plan = config.plan(game);
    format!(
        "nimtab: quotient of {} for heaps up to {}: options {}, at most {} elements \
         (candidates of at most {} before reduction); memory budget {}, bound by {}",
        game.spec(),
        config.max_heap,
        human_bytes(plan.options_bytes),
        config.max_order,
        config.candidate_limit(),
        human_bytes(global.memory_limit),
        global.memory_source
    )
}

/// Runs `nimtab quotient`: status 0 when the quotient is found (and its check holds), 1
/// when it grows past `--max-order` or the check finds a disagreement.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config {
        quotient: QuotientConfig {
            max_heap: a.max_heap,
            max_order: a.max_order.unwrap_or_else(|| order_bound_for(global.memory_limit)),
            play: Ending::Misere,
            memory_limit: Some(global.memory_limit),
            until_certified: !a.every_heap,
        },
        format: a.format,
        check: a.check,
        target: Target::new(a.out.as_deref())?,
    };
    let game = a.game.game()?;
    if let Some(total) = config.check {
        // Refused before the work, not after the summary is out.
        if total > u64::from(MAX_TOTAL) {
            bail!("--check {total} is above the largest total, {MAX_TOTAL}");
        }
        let space = Space::multisets(total).context("--check")?;
        let engine = Engine::builder(&game, space).memory_limit(global.memory_limit).build();
        engine.reserve(&[Work::Tables { endings: 1 }]).context("--check")?;
    }
    // Refused before the plan is stated: a refusal is one line.
    config.quotient.check(&game).map_err(flag_error)?;
    if a.checkpoint_every.is_some() && a.checkpoint.is_none() && a.resume.is_none() {
        bail!("--checkpoint-every needs --checkpoint FILE (or --resume FILE)");
    }
    let files = quotient_checkpoint::files(
        a.checkpoint.as_deref(),
        a.resume.as_deref(),
        game.spec(),
        config.quotient.play,
    )?;
    if !global.quiet && a.max_heap >= STATED_FROM_HEAP {
        output::note(&plan(&game, &config.quotient, global));
    }
    if let (false, Some(from)) = (global.quiet, &files.resumed) {
        output::note(&format!(
            "nimtab: resuming the quotient of {} at heap {} (order {})",
            game.spec(),
            from.heap(),
            from.order()
        ));
    }
    let bar = Bar::counting("quotient", u64::from(a.max_heap), "heaps", global.quiet);
    if let Some(from) = &files.resumed {
        bar.advance(u64::from(from.heap().min(a.max_heap)));
    }
    let every = a.checkpoint_every.unwrap_or(DEFAULT_EVERY);
    let progress = RunProgress {
        bar: &bar,
        game: game.spec().to_string(),
        checkpoint: files.write_to.clone().map(|path| (path, every)),
        last: Mutex::new((Instant::now(), None)),
    };
    // With a checkpoint, the first interrupt ends the run after a last checkpoint.
    let deferral = files.write_to.is_some().then(interrupt::defer);
    let reached = compute_from(&game, &config.quotient, files.resumed.as_ref(), &progress);
    bar.finish();
    if let Some(err) = progress.take_error() {
        return Err(err);
    }
    let computed = match reached {
        Ok(reached) => match reached.stop {
            Some(QuotientError::Cancelled) => {
                let path = files.write_to.as_ref().expect("only a checkpointed run defers");
                let heap = reached.quotient.as_ref().map_or(0, |q| q.max_heap());
                interrupt::finish_interrupted(&format!(
                    "nimtab: interrupted; checkpoint {0} records heaps up to {heap}: continue \
                     with --resume {0}; no partial output was left",
                    path.display()
                ));
                unreachable!("an interrupted run exits");
            }
            Some(stop) => Err(stop),
            None => Ok(reached.quotient.expect("a run that was not stopped completes heap 1")),
        },
        Err(err) => Err(err),
    };
    drop(deferral);
    let quotient = match computed {
        Ok(q) => q,
        Err(QuotientError::GrewPastLimit { heap, order, limit }) => {
            output::note(&format!(
                "nimtab: the quotient of {} grows past {limit} elements at heap {heap} ({order} \
                 elements); raise --max-order or lower --max-heap",
                game.spec()
            ));
            return Ok(Outcome::ClaimFailed);
        }
        Err(QuotientError::CandidateTooLarge { heap, size, limit }) => {
            output::note(&format!(
                "nimtab: no quotient of {} within --max-order {} found at heap {heap}: the \
                 search needs a candidate monoid of {size} elements, more than {limit}; raise \
                 --max-order or lower --max-heap",
                game.spec(),
                config.quotient.max_order
            ));
            return Ok(Outcome::ClaimFailed);
        }
        Err(err @ QuotientError::BeyondMemory { .. }) => {
            bail!("{err}, bound by {}; lower --max-heap or --max-order", global.memory_source)
        }
        Err(err @ QuotientError::OutOfMemory { .. }) => {
            bail!("{err}; lower --max-heap or --max-order")
        }
        Err(err) => return Err(flag_error(err)),
    };
    let written = match config.format {
        QuotientFormat::Json => QuotientOutput::Json(&quotient),
        QuotientFormat::Text => QuotientOutput::Summary(&quotient),
    };
    output::write_to(&config.target, written)?;
    let Some(total) = config.check else { return Ok(Outcome::Success) };
    let bar = Bar::new("checking against the tables", 0, global.quiet);
    let found = check_against_tables(&game, &quotient, total, Some(global.memory_limit), &bar)
        .context("--check")?;
    bar.finish();
    // A quotient of the whole game predicts every multiset; another only those of its heaps.
    let space = match quotient.period() {
        Some(_) => format!("multisets of total at most {total}"),
        None => format!(
            "multisets of heaps of size at most {} and total at most {total}",
            quotient.max_heap()
        ),
    };
    let verdict = match &found.first_disagreement {
        None => format!("checked {} positions ({space}): every misère label agrees with the quotient", found.positions),
        Some((heaps, table_p)) => format!(
            "checked {} positions ({space}): {} disagree with the quotient, first ({}): table {}, quotient {}",
            found.positions,
            found.disagreements,
            Spaced(heaps),
            if *table_p { "P" } else { "N" },
            if *table_p { "N" } else { "P" },
        ),
    };
    if config.format == QuotientFormat::Json || config.target != Target::Stdout {
        output::note(&verdict);
    } else {
        output::line(format_args!("{verdict}"))?;
    }
    Ok(if found.disagreements == 0 { Outcome::Success } else { Outcome::ClaimFailed })
}
