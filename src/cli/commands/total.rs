//! The table commands over multiset spaces (`--total T`): solve, info, verify and check.
//!
//! Each command's own file validates its flags and hands over here when `--total` is
//! given; what follows mirrors its tuple-space path.

use nimtab::analysis::expr::Program;
use nimtab::analysis::multisets::{test_claim_multisets, verify_multisets};
use nimtab::analysis::tally::Tally;
use nimtab::analysis::verify::Finding;
use nimtab::export::labels_csv::RowFilter;
use nimtab::export::multiset_csv::write_multiset_table;
use nimtab::{Criterion, Ending, Game, MultisetEngine, MultisetSpace};

use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// The engine of a multiset space; its run checks the memory once, before any work.
fn engine<'g>(game: &'g Game, space: MultisetSpace, global: &Global) -> MultisetEngine<'g> {
    MultisetEngine::builder(game, space).memory_limit(global.memory_limit).build()
}

/// `solve --total T`: labels every multiset and writes the table.
pub fn solve(
    game: &Game,
    space: MultisetSpace,
    endings: &[Ending],
    filter: RowFilter,
    target: &Target,
    global: &Global,
) -> anyhow::Result<Outcome> {
    let engine = engine(game, space, global);
    let bar = Bar::new("solve", engine.space().positions(), global.quiet);
    let labels = engine.label_all(endings, &bar)?;
    bar.finish();
    output::write_to(target, |out| write_multiset_table(out, game, &labels, filter).map(|_| ()))?;
    Ok(Outcome::Success)
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// `info --total T`: the space's size and the memory of its runs.
pub fn info(game: &Game, space: MultisetSpace, global: &Global) -> anyhow::Result<Outcome> {
    let engine = MultisetEngine::new(game, space);
    let space = engine.space();
    let text = format!(
        "game                 {}\ntotal                {}\n\
         positions            {} (every multiset of non-empty heaps of total at most {})\n\
         memory               {} for 1 rule, {} for 3 rules (packed bits and rank tables)\n\
         memory available     {}, bound by {}\n",
        game.spec(),
        space.total(),
        space.positions(),
        space.total(),
        mib(engine.memory_bytes(1)),
        mib(engine.memory_bytes(3)),
        mib(global.memory_limit),
        global.memory_source
    );
    output::write_to(&Target::Stdout, |w| w.write_all(text.as_bytes()))?;
    Ok(Outcome::Success)
}

/// `verify --total T`: the findings of one fused pass over the multiset space.
pub fn verify(
    game: &Game,
    space: MultisetSpace,
    endings: &[Ending],
    criteria: &[Criterion],
    limit: usize,
    global: &Global,
) -> anyhow::Result<Vec<Finding>> {
    let engine = engine(game, space, global);
    let bar = Bar::new("verify", engine.space().positions(), global.quiet);
    bar.set_message(&format!("{} total<={}", game.spec(), engine.space().total()));
    let run = verify_multisets(&engine, endings, criteria, limit, &bar)?;
    bar.finish();
    Ok(run.findings)
}

/// `check --total T`: the claim's tally over the multiset space under one ending.
pub fn check(
    game: &Game,
    space: MultisetSpace,
    ending: Ending,
    program: &Program,
    limit: usize,
    global: &Global,
) -> anyhow::Result<Tally> {
    let engine = engine(game, space, global);
    let bar = Bar::new("check", engine.space().positions(), global.quiet);
    let tally = test_claim_multisets(&engine, ending, program, limit, &bar);
    bar.finish();
    Ok(tally?)
}
