//! `nimtab moves`: every winning move from a position, from the DP table (and for Nim,
//! compared with the formula).

use anyhow::Context;
use nimtab::analysis::moves::{
    ended_under, labels_of_states, legal_moves, nim_formula_moves, plan_moves, Move,
    MoveDifference, MovesPlan,
};
use nimtab::analysis::steps::{legal_steps, Step};
use nimtab::export::format::streamed;
use nimtab::model::game::MoveRule;
use nimtab::model::position::{PassState, Spaced, Tuple};
use nimtab::sequence::human_bytes;
use nimtab::{Ending, Engine, Game, Mode};

use crate::cli::args::{self, PlayedGameArgs};
use crate::cli::choices::MovesFormat;
use crate::cli::explain;
use crate::cli::output;
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: PlayedGameArgs,
    /// Output format.
    #[arg(long, value_name = "F", value_enum, default_value_t = MovesFormat::Text)]
    format: MovesFormat,
    /// Heap sizes of the position.
    #[arg(value_name = "H", required = true)]
    heaps: Vec<String>,
}

/// The validated `moves` settings.
struct Config {
    game: Game,
    ending: Ending,
    csv: bool,
    position: Vec<u32>,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let position = args::parse_position(&a.heaps)?;
        let (game, ending) = a.game.parse()?;
        Ok(Config { game, ending, csv: a.format == MovesFormat::Csv, position })
    }
}

/// Labellings of at least this many positions state their plan first: a second or so
/// for the fastest row solvers, minutes for the slowest.
const PLANNED_POSITIONS: u64 = 1 << 28;

/// Positions with at least this many moves state the plan too: each move's state is
/// listed, sorted and looked up, about a microsecond a move.
const PLANNED_MOVES: u64 = 1 << 20;

/// States on stderr, unless `--quiet`, what a long labelling for `what` (`moves from
/// (3,5)`) will do: the space labelled, its positions, the moves looked up in it, the
/// memory held; so a run of minutes says so before it starts.
pub fn note_plan(what: &str, engine: &Engine<'_>, moves: Option<u64>, bytes: u64, global: &Global) {
    let positions = engine.positions();
    let long = positions >= PLANNED_POSITIONS || moves.is_some_and(|m| m >= PLANNED_MOVES);
    let Some(tuples) = engine.space().as_tuples().filter(|_| long && !global.quiet) else {
        return;
    };
    let sorted = if tuples.mode() == Mode::Canonical { ", sorted tuples only" } else { "" };
    let unit = if engine.game().has_pass() { "positions and pass states" } else { "positions" };
    let looked_up = moves.map_or(String::new(), |m| format!(", then looks up its {m} moves"));
    output::note(&format!(
        "nimtab: {what}: labels {}, {} heaps, max {}{sorted} ({positions} {unit}){looked_up}; \
         memory {} of {} available",
        engine.game().spec(),
        tuples.heaps(),
        tuples.max(),
        human_bytes(bytes),
        human_bytes(global.memory_limit)
    ));
}

/// The plan of the labels of the position's moves (`pass`: whether the pass is one of
/// them), stated when long.
fn planned<'g>(
    config: &'g Config,
    pass: PassState,
    global: &Global,
) -> anyhow::Result<MovesPlan<'g>> {
    let position = &config.position;
    let plan = plan_moves(&config.game, position, pass, global.memory_limit)
        .map_err(explain::for_position)?;
    let what = format!("moves from {}", Tuple(position));
    note_plan(&what, &plan.engine, Some(plan.moves), plan.bytes, global);
    Ok(plan)
}

/// Whether the position (its first state) and each of `states` is P, from the labels
/// picked out of one labelling run of the smallest space holding the position, with a
/// progress bar.
fn labels(
    config: &Config,
    engine: &Engine<'_>,
    states: &[(Vec<u32>, bool)],
    global: &Global,
) -> anyhow::Result<(bool, Vec<bool>)> {
    let here = (config.position.clone(), config.game.has_pass());
    let all: Vec<(Vec<u32>, bool)> = std::iter::once(here).chain(states.iter().cloned()).collect();
    let bar = Bar::new("moves", engine.positions(), global.quiet);
    let labelled = labels_of_states(engine, config.ending, &all, &bar);
    bar.finish();
    let mut labels = labelled
        .map_err(explain::for_position)
        .with_context(|| format!("labelling the space of {}", Tuple(&config.position)))?;
    let here = labels.remove(0);
    Ok((here, labels))
}

/// Runs `nimtab moves`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    if !config.game.is_sum() {
        return steps(&config, global);
    }
    let plan = planned(&config, PassState::Used, global)?;
    // A position the ending has ended has no winning move, whatever moves are legal.
    let ended = ended_under(&config.game, config.ending, &config.position);
    let legal = if ended { Vec::new() } else { legal_moves(&config.game, &config.position) };
    let options: Vec<(Vec<u32>, bool)> =
        legal.iter().map(|m| (m.apply(&config.position), false)).collect();
    let (lost, to_p) = labels(&config, &plan.engine, &options, global)?;
    let moves: Vec<Move> =
        legal.into_iter().zip(to_p).filter(|&(_, p)| p).map(|(m, _)| m).collect();
    let here = Tuple(&config.position).to_string();
    print_lines(config.csv.then_some("heap,from,to,take"), &moves, |m| match config.csv {
        true => format!("{},{},{},{}", m.heap + 1, m.from, m.to, m.take()),
        false => m.describe(&config.position),
    })?;
    if lost {
        output::note(&format!(
            "nimtab: {here} is a P-position: lost for the player to move ({})",
            config.ending
        ));
    } else if ended {
        output::note(&format!(
            "nimtab: {here} is over under the {} rule: the player to move has won",
            config.ending
        ));
    }
    let formula = match config.game.move_rule() {
        MoveRule::Nim => nim_formula_moves(config.ending, &config.position),
        _ => None,
    };
    let Some(formula) = formula else { return Ok(Outcome::Success) };
    let difference = MoveDifference::between(&moves, &formula);
    if difference.is_empty() {
        if !global.quiet {
            output::note(&format!(
                "nimtab: the {} Nim formula gives the same moves",
                config.ending
            ));
        }
        return Ok(Outcome::Success);
    }
    for m in &difference.only_in_table {
        output::note(&format!("nimtab: only the table: {}", m.describe(&config.position)));
    }
    for m in &difference.only_in_formula {
        output::note(&format!("nimtab: only the formula: {}", m.describe(&config.position)));
    }
    Ok(Outcome::ClaimFailed)
}

/// The winning steps of a game that is not a sum (several heaps at once, or a pass; the
/// position starts with its pass available): `position,option` rows in CSV.
fn steps(config: &Config, global: &Global) -> anyhow::Result<Outcome> {
    let (position, pass) = (&config.position, PassState::of(config.game.has_pass()));
    let plan = planned(config, pass, global)?;
    let legal = legal_steps(&config.game, position, pass);
    let after = |s: &Step| {
        let (heaps, pass) = s.after(position, pass);
        (heaps, pass.is_available())
    };
    let options: Vec<(Vec<u32>, bool)> = legal.iter().map(after).collect();
    let (lost, to_p) = labels(config, &plan.engine, &options, global)?;
    let steps: Vec<_> = legal.into_iter().zip(to_p).filter(|&(_, p)| p).map(|(s, _)| s).collect();
    print_lines(config.csv.then_some("position,option"), &steps, |step| match config.csv {
        true => format!("{},{}", Spaced(position), step.csv_cell()),
        false => step.describe(position),
    })?;
    let here = Tuple(position).to_string();
    let with_pass = if pass.is_available() { " with the pass available" } else { "" };
    if lost {
        output::note(&format!(
            "nimtab: {here}{with_pass} is a P-position: lost for the player to move ({})",
            config.ending
        ));
    } else if steps.is_empty() {
        output::note(&format!(
            "nimtab: {here} is over under the {} rule: the player to move has won",
            config.ending
        ));
    }
    Ok(Outcome::Success)
}

/// Prints `header` (if any) and one line per item to stdout.
fn print_lines<T>(
    header: Option<&str>,
    items: &[T],
    line: impl Fn(&T) -> String,
) -> anyhow::Result<()> {
    output::write_to(
        &output::Target::Stdout,
        streamed(|out| {
            if let Some(header) = header {
                writeln!(out, "{header}")?;
            }
            for item in items {
                writeln!(out, "{}", line(item))?;
            }
            Ok(())
        }),
    )
}
