//! `nimtab judge`: reads a contest input on stdin and prints the judge's answers.

use std::io::Read;

use anyhow::Context;
use nimtab::contest::judge::{parse_input, Contest, Judge};

use crate::cli::{output, Global, Outcome};

/// Arguments of `nimtab judge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The contest problem: p2197 (normal play) or shoi2008 (misère).
    #[arg(value_name = "FORMAT", value_parser = ["p2197", "shoi2008"])]
    format: String,
}

/// Runs `nimtab judge`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let contest = Contest::parse(&a.format)?;
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).context("reading the contest input on stdin")?;
    // The whole input is checked before the first answer, so bad input prints no answers.
    let cases = parse_input(&text).context("bad contest input")?;
    let judge = Judge::new(contest)?;
    output::write_to(&output::Target::Stdout, |out| {
        for heaps in &cases {
            writeln!(out, "{}", judge.answer(heaps))?;
        }
        Ok(())
    })?;
    Ok(Outcome::Success)
}
