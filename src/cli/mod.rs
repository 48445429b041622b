//! The command line: clap structures, the validated global settings, and dispatch.
//!
//! Each subcommand lives in its own file and turns its raw arguments into a `Config`
//! once; exit status 0 is success, 1 a checked claim that failed, 2 a usage or input error.

mod args;
mod check;
mod grundy;
mod info;
mod output;
mod plot;
mod solve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Show the size of a space and the memory its tables need.
    Info(info::Args),
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
            let _ = err.print();
            return ExitCode::SUCCESS;
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
            eprintln!("nimtab: {first}");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::ClaimFailed) => ExitCode::from(1),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("nimtab: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<Outcome> {
    if let Some(threads) = cli.threads {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build_global()?;
    }
    let global = Global { quiet: cli.quiet, memory_limit: args::memory_limit() };
    match cli.command {
        Some(Command::Solve(a)) => solve::run(a, &global),
        Some(Command::Grundy(a)) => grundy::run(a, &global),
        Some(Command::Info(a)) => info::run(a, &global),
        Some(Command::Check(a)) => check::run(a, &global),
        Some(Command::Plot(a)) => plot::run(a, &global),
        None => anyhow::bail!("the default suite is not built yet"),
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
