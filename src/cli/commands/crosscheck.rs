//! `nimtab crosscheck`: runs a contest solution on every position of a range and compares
//! each answer with the DP label.

use std::io::Write;
use std::time::Duration;

use anyhow::Context;
use nimtab::contest::crosscheck::{CrosscheckPlan, ExpectedLabels, Mismatch, PlanError};
use nimtab::contest::judge::Contest;

use crate::cli::choices::ContestArg;

use crate::cli::args::{self, CountRange};
use crate::cli::supervise::run_program;
use crate::cli::{output, Global, Outcome};

/// Arguments of `nimtab crosscheck`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The contest format: p2197 (normal play) or shoi2008 (misère).
    #[arg(long, value_name = "F", value_enum)]
    format: ContestArg,
    /// The solution to check, run as `sh -c CMD` with each input on stdin.
    #[arg(long, value_name = "CMD")]
    program: String,
    /// Heap counts: N or A..=B.
    #[arg(long, value_name = "A..=B", value_parser = args::parse_heap_range)]
    heaps: CountRange,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
    /// Smallest heap size.
    #[arg(long, value_name = "K", default_value_t = 0, allow_hyphen_values = true)]
    min_heap: u32,
    /// Test cases per input file (default: the contest's limit, 10 or 500).
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    batch: Option<usize>,
    /// Seconds each run may take (0.001 to 86400).
    #[arg(long, value_name = "S", default_value = "10", value_parser = parse_timeout)]
    #[arg(allow_hyphen_values = true)]
    timeout: f64,
}

/// The shortest timeout: below a millisecond no program could even start.
const MIN_TIMEOUT: f64 = 0.001;
/// The longest timeout: a day.
const MAX_TIMEOUT: f64 = 86_400.0;

/// `--timeout`: seconds from [`MIN_TIMEOUT`] to [`MAX_TIMEOUT`], named as given if not.
fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (MIN_TIMEOUT..=MAX_TIMEOUT).contains(&s) => Ok(s),
        _ => Err(format!(
            "--timeout must be a number of seconds, at least {MIN_TIMEOUT} and at most \
             {MAX_TIMEOUT}, got '{text}'"
        )),
    }
}

/// The validated `crosscheck` settings.
struct Config {
    plan: CrosscheckPlan,
    program: String,
    timeout: Duration,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let contest = Contest::from(a.format);
        let counts = a.heaps.counts();
        let plan = CrosscheckPlan {
            contest,
            min_heaps: *counts.start(),
            max_heaps: *counts.end(),
            min_heap: a.min_heap,
            max_heap: a.max,
            batch: a.batch.unwrap_or(contest.limits().cases),
        };
        plan.validate().map_err(|e| anyhow::anyhow!(plan_in_flag_words(&e, &a)))?;
        if a.program.trim().is_empty() {
            anyhow::bail!("--program is empty");
        }
        Ok(Config { plan, program: a.program, timeout: Duration::from_secs_f64(a.timeout) })
    }
}

/// A refused plan in the flags' words.
fn plan_in_flag_words(e: &PlanError, a: &Args) -> String {
    match e {
        PlanError::NoHeapCounts { lo, hi } => format!("--heaps {lo}..={hi} is empty"),
        PlanError::TooManyHeaps { contest, heaps, limit } => {
            format!("--heaps {heaps} is above {contest}'s limit of {limit} heaps")
        }
        PlanError::HeapTooLarge { contest, max, limit } => {
            format!("--max {max} is above {contest}'s limit of {limit} stones")
        }
        PlanError::EmptyHeapSizes { min, max } => format!("--min-heap {min} is above --max {max}"),
        PlanError::BadBatch { contest, batch, limit } => {
            format!("--batch {batch} must be between 1 and {contest}'s limit of {limit} cases")
        }
        PlanError::TooManyPositions => {
            let (lo, hi) = (a.heaps.lo, a.heaps.hi);
            let range = if lo == hi { lo.to_string() } else { format!("{lo}..={hi}") };
            format!("--heaps {range} --min-heap {} --max {}: {e}", a.min_heap, a.max)
        }
    }
}

/// Runs `nimtab crosscheck`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let labels: ExpectedLabels = config.plan.labels(global.memory_limit)?;
    let mut positions = config.plan.positions();
    let (mut mismatches, mut checked, mut files) = (0usize, 0usize, 0usize);
    let mut out = std::io::stdout().lock();
    loop {
        let cases: Vec<Vec<u32>> = positions.by_ref().take(config.plan.batch).collect();
        if cases.is_empty() {
            break;
        }
        files += 1;
        let mut input = Vec::new();
        config.plan.contest.write_input(&mut input, &cases)?;
        // Answers are a word a line; anything far beyond that is not an answer sheet.
        let max_output = (1 << 20) + 64 * cases.len();
        let ran = run_program(&config.program, &input, config.timeout, max_output)?;
        let output = match ran {
            Ok(output) => output,
            Err(why) => return Ok(program_failed(files, &why)),
        };
        let found: Vec<Mismatch> = match labels.compare(&cases, &output) {
            Ok(found) => found,
            Err(why) => return Ok(program_failed(files, &why.to_string())),
        };
        for mismatch in &found {
            // The program's answer is quoted escaped: it cannot drive the terminal.
            writeln!(out, "{}", output::escape(&mismatch.to_string()))
                .context("writing to stdout")?;
        }
        mismatches += found.len();
        checked += cases.len();
    }
    let verdict = if mismatches == 0 { "all answers agree" } else { "answers differ" };
    writeln!(out, "{verdict}: {checked} positions in {files} inputs, {mismatches} mismatches")
        .context("writing to stdout")?;
    Ok(if mismatches == 0 { Outcome::Success } else { Outcome::ClaimFailed })
}

/// A checked program that failed is a failed check (status 1), reported on one line.
fn program_failed(file: usize, why: &str) -> Outcome {
    output::note(&format!("nimtab: the checked program failed on input {file}: {why}"));
    Outcome::ClaimFailed
}
