//! `nimtab info`: the size of a space and the memory its tables need.

use nimtab::engine::Work;
use nimtab::export::format::Bytes;
use nimtab::{Ending, Engine, Game, Mode, Space};

use crate::cli::args::SpaceArgs;
use crate::cli::output;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab info`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    space: SpaceArgs,
    /// Only sorted tuples (h1 <= ... <= hN): show only their figures.
    #[arg(long, conflicts_with = "total")]
    canonical: bool,
}

/// Bytes in the unit that reads best (`538.02 MiB`, `4.00 TiB`), as every message says them.
fn human(bytes: u64) -> String {
    nimtab::sequence::human_bytes(bytes)
}

/// Runs `nimtab info`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let game = a.space.game()?;
    if let Some(space) = a.space.multisets(&game)? {
        return multiset_info(&game, space, global);
    }
    if game.splits() {
        let (spec, parts) = (game.spec().to_string(), game.split_parts());
        return Err(nimtab::EngineError::SplitsHeaps { spec, parts }.into());
    }
    let heaps = a.space.single_heaps("info")?;
    // The sorted tuples are checked first: a space whose every tuple is beyond any table
    // can still have few sorted ones.
    let sorted = Space::in_mode(heaps, a.space.max(), Mode::Canonical)?;
    let full = if a.canonical { None } else { Some(Space::new(heaps, a.space.max())) };
    let mut text = format!(
        "game                 {}\nheaps                {}\nmax                  {}\n",
        game.spec(),
        heaps,
        a.space.max()
    );
    game.check_heaps(heaps)?;
    if game.has_pass() {
        text.push_str("pass                 every position twice: pass available, pass used\n");
    }
    if let Some(full) = &full {
        let positions = match (full, nimtab::model::space::tuple_count(heaps, a.space.max())) {
            (Ok(space), _) => space.positions().to_string(),
            (Err(_), Some(count)) => format!("{count} (beyond any table)"),
            (Err(_), None) => "2^128 or more (beyond any table)".to_string(),
        };
        text.push_str(&format!("positions            {positions}\n"));
    }
    text.push_str(&format!("canonical positions  {}\n", sorted.positions()));
    if let Some(full) = full {
        let line = match full {
            Ok(space) => memory_line(&game, space),
            Err(_) => "beyond any table; use --canonical".to_string(),
        };
        text.push_str(&format!("full      memory     {line}\n"));
    }
    text.push_str(&format!("canonical memory     {}\n", memory_line(&game, sorted)));
    text.push_str(&available(global));
    output::write_to(&output::Target::Stdout, Bytes(text.as_bytes()))?;
    Ok(Outcome::Success)
}

/// The line of the memory available: in the unit that reads best, and to the byte (a
/// script comparing a run's need with it needs every byte).
fn available(global: &Global) -> String {
    format!(
        "memory available     {} ({} bytes), bound by {}\n",
        human(global.memory_limit),
        global.memory_limit,
        global.memory_source
    )
}

/// `info --total T`: the multiset space's size and the memory of its runs.
fn multiset_info(game: &Game, space: Space, global: &Global) -> anyhow::Result<Outcome> {
    let total = space.total();
    let engine = Engine::new(game, space);
    let need = |endings| engine.memory_need(&[Work::Tables { endings }]);
    let text = format!(
        "game                 {}\ntotal                {total}\n\
         positions            {} (every multiset of non-empty heaps of total at most {total})\n\
         memory               {} for 1 rule, {} for 3 rules (packed bits and rank tables)\n\
         {}",
        game.spec(),
        engine.positions(),
        human(need(1)?),
        human(need(3)?),
        available(global),
    );
    output::write_to(&output::Target::Stdout, Bytes(text.as_bytes()))?;
    Ok(Outcome::Success)
}

/// What the tables of one space need: per ending, and for verify and solve of the game's
/// default endings (three for a sum, two for other games); or why the game cannot label it
/// (sorted tuples of a game that is not symmetric).
fn memory_line(game: &Game, space: Space) -> String {
    let endings = Ending::defaults(game).len();
    // A limit of 0 prepares nothing: only the plan is wanted here.
    let engine = Engine::builder(game, space).memory_limit(0).build();
    if let Err(refused) = engine.ensure_supported(&[]) {
        return format!("not available: {refused}");
    }
    let plan = engine.memory_plan().expect("a tuple space");
    let path = engine.working_state();
    // One label per position (with a pass, per position and pass state).
    let labels = engine.positions() as f64;
    format!(
        "{} per rule table ({:.2} bits a label), {} working per rule ({path}); verify of \
         {endings} rules needs {}, solve of {endings} rules {}",
        human(plan.table_bytes),
        plan.table_bytes as f64 * 8.0 / labels.max(1.0),
        human(plan.working_bytes),
        human(plan.bytes(&[Work::Stream { endings }])),
        human(plan.bytes(&[Work::Tables { endings }])),
    )
}
