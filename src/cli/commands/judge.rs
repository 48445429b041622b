//! `nimtab judge`: reads a contest input on stdin and prints the judge's answers.

use std::io::Read;

use anyhow::{bail, Context};
use nimtab::contest::judge::{parse_input, Contest, Judge};
use nimtab::export::format::streamed;

use crate::cli::choices::ContestArg;

use crate::cli::{output, Global, Outcome};

/// Arguments of `nimtab judge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The contest problem: p2197 (normal play) or shoi2008 (misère).
    #[arg(value_name = "FORMAT", value_enum)]
    format: ContestArg,
}

/// Runs `nimtab judge`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let contest = Contest::from(a.format);
    let limit = contest.max_input_bytes();
    let mut bytes = Vec::new();
    // One byte past the limit tells an input that is too long from one that fits.
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .context("reading the contest input on stdin")?;
    if bytes.len() as u64 > limit {
        let l = contest.limits();
        bail!(
            "bad contest input: more than {limit} bytes, beyond what {}'s limits need \
             (T <= {}, n <= {}, heaps <= {})",
            contest.name(),
            l.cases,
            l.heaps,
            l.max_heap
        );
    }
    let text =
        String::from_utf8(bytes).ok().context("bad contest input: it is not text (not UTF-8)")?;
    // The whole input is checked before the first answer, so bad input prints no answers.
    let cases = parse_input(&text).context("bad contest input")?;
    let judge = Judge::new(contest)?;
    output::write_to(
        &output::Target::Stdout,
        streamed(|out| {
            for heaps in &cases {
                writeln!(out, "{}", judge.answer(heaps))?;
            }
            Ok(())
        }),
    )?;
    Ok(Outcome::Success)
}
