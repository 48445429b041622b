//! `nimtab quotient`: the misère quotient of a sum of heaps, proved, optionally checked
//! against the exhaustive tables of the multiset engine.

use nimtab::Ending;
use std::path::PathBuf;

use anyhow::{bail, Context};
use nimtab::engine::Work;
use nimtab::export::quotient::QuotientOutput;
use nimtab::model::multiset::MAX_TOTAL;
use nimtab::model::position::Spaced;
use nimtab::quotient::{
    check_against_tables, compute, QuotientConfig, QuotientError, QuotientProgress,
    DEFAULT_MAX_ORDER,
};
use nimtab::sequence::human_bytes;
use nimtab::{Engine, Progress, Space};

use crate::cli::args::GameArg;
use crate::cli::choices::QuotientFormat;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab quotient`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArg,
    /// Largest heap size N (1 to 1000).
    #[arg(long, value_name = "N")]
    max_heap: u32,
    /// Stop with status 1 when the quotient grows past K elements.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_ORDER)]
    max_order: usize,
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

/// Heap-by-heap progress through the progress bar, with the order so far. The search
/// inside one heap and the states of a long check move the bar too, so that a heap that
/// takes minutes shows it.
struct HeapProgress<'a> {
    bar: &'a Bar,
    game: String,
}

impl QuotientProgress for HeapProgress<'_> {
    fn heap_done(&self, heap: u32, order: usize) {
        self.bar.set_message(&format!("quotient of {}: heap {heap}, order {order}", self.game));
        self.bar.advance(1);
    }

    fn searching(&self, heap: u32, order: usize) {
        let game = &self.game;
        self.bar.set_message(&format!("quotient of {game}: heap {heap}, trying order {order}"));
        self.bar.advance(0);
    }

    fn exploring(&self, heap: u32, states: u64) {
        let game = &self.game;
        self.bar.set_message(&format!("quotient of {game}: heap {heap}, checking {states} states"));
        self.bar.advance(0);
    }
}

/// A refusal of the arguments, with the flag that gave a bad bound.
fn flag_error(err: QuotientError) -> anyhow::Error {
    let flag = match err {
        QuotientError::MaxHeap { .. } => "--max-heap",
        QuotientError::MaxOrder { .. } => "--max-order",
        _ => return err.into(),
    };
    anyhow::Error::new(err).context(flag)
}

/// The plan of a long computation, on one line.
fn plan(spec: &str, config: &QuotientConfig, global: &Global) -> String {
    format!(
        "nimtab: quotient of {spec} for heaps up to {}: at most {} elements (candidates of at \
         most {} before reduction); memory budget {}, bound by {}",
        config.max_heap,
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
            max_order: a.max_order,
            play: Ending::Misere,
            memory_limit: Some(global.memory_limit),
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
    if !global.quiet && a.max_heap >= STATED_FROM_HEAP {
        output::note(&plan(game.spec(), &config.quotient, global));
    }
    let bar = Bar::counting("quotient", u64::from(a.max_heap), "heaps", global.quiet);
    let progress = HeapProgress { bar: &bar, game: game.spec().to_string() };
    let computed = compute(&game, &config.quotient, &progress);
    bar.finish();
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
    let space = format!(
        "multisets of heaps of size at most {} and total at most {total}",
        quotient.max_heap()
    );
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
