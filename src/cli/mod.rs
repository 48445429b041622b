//! The command line: clap structures, the validated global settings, and dispatch.
//!
//! Each subcommand lives in its own file under `commands/` and turns its raw arguments
//! into a `Config` once; exit status 0 is success, 1 a checked claim that failed, 2 a
//! usage or input error (one line on stderr naming the bad value).

mod args;
mod commands;
mod explain;
mod output;
mod progress;
mod supervise;

use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use commands::{
    check, classes, crosscheck, grundy, info, judge, moves, period, play, plot, solve, split,
    suite, verify,
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
    Period(period::Args),
    /// Show the size of a space and the memory its tables need.
    Info(info::Args),
    /// Run the default suite: verify, write data/ and REPORT.md (what `nimtab` alone does).
    Suite(suite::Args),
    /// Compare the DP labels with the XOR, Anti-Nim and SJ criteria.
    Verify(verify::Args),
    /// List every winning move from a position.
    Moves(moves::Args),
    /// Count misère Nim's classes S0..T2 and check the claims about them.
    Classes(classes::Args),
    /// Decide the split game for a range of stone counts.
    Split(split::Args),
    /// Play the table's strategy against an opponent.
    Play(play::Args),
    /// Answer a contest input (p2197 or shoi2008) read on stdin.
    Judge(judge::Args),
    /// Check a contest solution on every position of a range.
    Crosscheck(crosscheck::Args),
    /// Check a claim "P exactly when EXPR" on every position of a range.
    Check(check::Args),
    /// Draw the P-positions of the 2-heap grid or a 3-heap slice as SVG or PNG.
    Plot(plot::Args),
}

/// Settings every command shares, validated once.
pub struct Global {
    /// Suppress progress and notes.
    pub quiet: bool,
    /// Bytes of memory the tables may use.
    pub memory_limit: u64,
}

/// Parses the arguments, runs the command, maps the result to an exit status.
pub fn main() -> ExitCode {
    output::install_interrupt_handler();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version: print as clap does, succeed.
            // A stdout that cannot take the help text is an error like any other.
            return match err.print() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    output::note(&format!("nimtab: error: writing to stdout: {e}"));
                    ExitCode::from(2)
                }
            };
        }
        Err(err) => {
            // One line, naming the bad value; the rest of clap's text is usage advice.
            let text = err.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut first = lines.next().unwrap_or("error: bad arguments").to_string();
            if first.ends_with(':') {
                // "required arguments were not provided:" names them on the next line.
                first = format!("{first} {}", lines.next().unwrap_or(""));
            }
            output::note(&format!("nimtab: {first}"));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::ClaimFailed) => ExitCode::from(1),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            output::note(&format!("nimtab: error: {}", explain::render(&err)));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<Outcome> {
    if let Some(threads) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .with_context(|| format!("starting {threads} worker threads (--threads)"))?;
    }
    let global = Global { quiet: cli.quiet, memory_limit: nimtab::host::memory_limit() };
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
        None => suite::run(suite::Args::default(), &global),
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
