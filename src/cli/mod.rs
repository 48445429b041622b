//! The command line: clap structures, the validated global settings, and dispatch.
//!
//! Each subcommand lives in its own file under `commands/` and turns its raw arguments
//! into a `Config` once; exit status 0 is success, 1 a checked claim that failed, 2 a
//! usage or input error (one line on stderr naming the bad value).

mod args;
mod choices;
mod commands;
mod explain;
mod input;
mod interrupt;
mod long_run;
mod output;
mod progress;
#[cfg(test)]
mod reference;
mod sequence_bar;
mod supervise;

use clap::{Parser, Subcommand};
use nimtab::host::{threads_of_a_run, MemoryReading};
use nimtab::sequence::human_bytes;

use commands::{atlas, genus, merge, sweep};
use commands::{
    check, classes, crosscheck, grundy, info, judge, moves, period, play, plot, quotient, solve,
    split, suite, verify,
};

/// What a command reports back besides errors.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything checked held.
    Success,
    /// A checked claim (a theorem, a class claim, a program's answers) failed.
    ClaimFailed,
}

/// Exhaustive, verified P/N position tables for Nim-like impartial games.
///
/// With no command, runs the built-in default suite.
#[derive(Parser, Debug)]
#[command(name = "nimtab", version, about, long_about = None)]
// Plain styles: clap's error text then holds no colour codes of its own, so it can be
// taken with the user's values intact (control characters and all) and escaped once.
#[command(styles = clap::builder::Styles::plain())]
pub struct Cli {
    /// Worker threads (default: all cores).
    #[arg(long, global = true, value_name = "K", value_parser = args::parse_threads)]
    threads: Option<usize>,
    /// No progress bar and no notes on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Label every position and write the table as CSV.
    Solve(solve::Args),
    /// Write the Grundy values of one heap as CSV.
    Grundy(grundy::Args),
    /// Find the least period of a game's Grundy values and certify it by a theorem.
    Period(long_run::SequenceArgs),
    /// Show the size of a space and the memory its tables need.
    Info(info::Args),
    /// Run the default suite: verify, write data/ and REPORT.md (what `nimtab` alone does).
    Suite(suite::Args),
    // The description lists the library's criteria, so that it names every one.
    #[command(about = format!(
        "Compare the DP labels with the closed-form criteria ({})",
        nimtab::Criterion::names()
    ))]
    Verify(verify::Args),
    /// List every winning move from a position.
    // Options may come before or after the heaps; a negative heap is still taken as a
    // heap (and refused by name), not as an unknown option.
    #[command(allow_negative_numbers = true)]
    Moves(moves::Args),
    /// Count misère Nim's classes S0..T2 and check the claims about them.
    Classes(classes::Args),
    /// Decide the split game for a range of stone counts.
    Split(split::Args),
    /// Play the table's strategy against an opponent.
    #[command(allow_negative_numbers = true)]
    Play(play::Args),
    /// Answer a contest input (p2197 or shoi2008) read on stdin.
    Judge(judge::Args),
    /// Check a contest solution on every position of a range.
    Crosscheck(crosscheck::Args),
    /// Check a claim "P exactly when EXPR" on every position of a range.
    Check(check::Args),
    /// Draw the P-positions of the 2-heap grid or a 3-heap slice as SVG or PNG.
    Plot(plot::Args),
    /// Verify (or check a claim) on every game of a family: one CSV row per game, heap
    /// count, rule and criterion.
    Sweep(sweep::Args),
    /// Check the parts of a sharded sweep and merge them into the bytes of the whole run.
    Merge(merge::Args),
    /// Compute the misère quotient of a sum of heaps, with its proof.
    Quotient(quotient::Args),
    /// The genus of every heap of a take-and-break game, or of one sum of heaps, from
    /// their misère canonical forms.
    Genus(genus::Args),
    /// The atlas of octal games: every code of a family solved with a certified period or
    /// computed to a stated bound, grouped into classes, as CSV and JSON and, with --html, a
    /// static web site.
    Atlas(atlas::Args),
}

/// Settings every command shares, validated once.
pub struct Global {
    /// Suppress progress and notes.
    pub quiet: bool,
    /// Bytes of memory the tables may use.
    pub memory_limit: u64,
    /// What bounds `memory_limit`.
    pub memory_source: nimtab::host::MemorySource,
}

/// Threads the binary may start besides a run's: the interrupt handler's, and the two
/// that drain a checked program's output (`supervise.rs`).
const OWN_THREADS: u64 = 3;

/// Parses the arguments, runs the command, and ends the process with its exit status;
/// `reading` is the process's memory, read before any thread started.
pub fn main(reading: MemoryReading) -> ! {
    interrupt::exit(status(&reading))
}

/// The exit status of the command line given: 0, 1 or 2 (one line on stderr for 2).
fn status(reading: &MemoryReading) -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version: print as clap does, succeed.
            // A stdout that cannot take the help text is an error like any other.
            return match err.print() {
                Ok(()) => 0,
                Err(e) => {
                    output::note(&format!("nimtab: error: writing to stdout: {e}"));
                    2
                }
            };
        }
        Err(err) => {
            // clap quotes values as given, so a newline in one would split the line. The
            // arguments are parsed again with their control characters escaped, which fails
            // the same way, and that error is the one worded.
            let escaped = std::env::args_os().map(|a| output::escape(&a.to_string_lossy()));
            let err = Cli::try_parse_from(escaped).err().unwrap_or(err);
            output::note(&format!("nimtab: {}", explain::usage_error(&err)));
            return 2;
        }
    };
    match run(cli, reading) {
        Ok(Outcome::Success) => 0,
        Ok(Outcome::ClaimFailed) => 1,
        Err(err) if is_broken_pipe(&err) => 0,
        Err(err) => {
            output::note(&format!("nimtab: error: {}", explain::render(&err)));
            if let Some(display) = explain::display(&err) {
                output::note_lines(&display);
            }
            2
        }
    }
}

fn run(cli: Cli, reading: &MemoryReading) -> anyhow::Result<Outcome> {
    start_threads(reading, cli.threads)?;
    // Every thread counted from the reading, which was taken before any started: the same
    // command under the same limit gets the same budget on every run.
    let threads = threads_of_a_run(rayon::current_num_threads()) + OWN_THREADS;
    let budget = reading.budget(threads);
    explain::set_budget(budget);
    let global =
        Global { quiet: cli.quiet, memory_limit: budget.bytes, memory_source: budget.source };
    match cli.command {
        Some(Command::Solve(a)) => solve::run(a, &global),
        Some(Command::Grundy(a)) => grundy::run(a, &global),
        Some(Command::Period(a)) => period::run(a, &global),
        Some(Command::Info(a)) => info::run(a, &global),
        Some(Command::Verify(a)) => verify::run(a, &global),
        Some(Command::Suite(a)) => suite::run(a, &global),
        Some(Command::Moves(a)) => moves::run(a, &global),
        Some(Command::Classes(a)) => classes::run(a, &global),
        Some(Command::Split(a)) => split::run(a, &global),
        Some(Command::Play(a)) => play::run(a, &global),
        Some(Command::Judge(a)) => judge::run(a, &global),
        Some(Command::Crosscheck(a)) => crosscheck::run(a, &global),
        Some(Command::Check(a)) => check::run(a, &global),
        Some(Command::Plot(a)) => plot::run(a, &global),
        Some(Command::Sweep(a)) => sweep::run(a, &global),
        Some(Command::Merge(a)) => merge::run(a, &global),
        Some(Command::Quotient(a)) => quotient::run(a, &global),
        Some(Command::Genus(a)) => genus::run(a, &global),
        Some(Command::Atlas(a)) => atlas::run(a, &global),
        None => suite::run(suite::Args::default(), &global),
    }
}

/// Starts the interrupt handler's thread and rayon's pool of worker threads: `--threads`
/// of them, else `RAYON_NUM_THREADS` (bounded as `--threads` is), else one per core.
/// Started here rather than at their first use, where a thread the system will not start
/// (no memory for its stack under `ulimit -v`, a limit on threads) would be a panic; and
/// only when the limits leave room for all of them, as a thread with room for its stack
/// but not for the signal stack Rust's runtime gives it aborts the process.
fn start_threads(reading: &MemoryReading, threads: Option<usize>) -> anyhow::Result<()> {
    let pool = match threads {
        Some(k) => k,
        None => nimtab::host::default_threads()?,
    };
    let variable = std::env::var("RAYON_NUM_THREADS").ok().filter(|v| !v.is_empty());
    let which = match (threads, variable) {
        (Some(1), _) => "1 worker thread (--threads 1)".to_string(),
        (Some(n), _) => format!("{n} worker threads (--threads {n})"),
        (None, Some(set)) => format!("{pool} worker threads (RAYON_NUM_THREADS={set})"),
        (None, None) => format!("{pool} worker threads (default: one per core)"),
    };
    let advice = match pool {
        1 => "try a larger memory limit",
        _ => explain::THREADS_ADVICE,
    };
    if let Err(short) = reading.room_for_threads(pool as u64, 1) {
        anyhow::bail!(
            "could not start {which}: with nimtab's interrupt handler they need {} for their \
             stacks and start, but {} leaves {}; {advice}",
            human_bytes(short.need),
            short.source,
            human_bytes(short.room)
        );
    }
    interrupt::install().map_err(|e| {
        anyhow::anyhow!("could not start nimtab's interrupt handler: {e}; {advice}")
    })?;
    let Err(refused) = nimtab::host::worker_pool(pool).build_global() else { return Ok(()) };
    // Only a thread that did not start has a cause; the pool is otherwise already there.
    match std::error::Error::source(&refused) {
        Some(cause) => anyhow::bail!("could not start {which}: {cause}; {advice}"),
        None => Ok(()),
    }
}

/// A closed pipe (as in `nimtab solve ... | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
