//! `nimtab moves`: every winning move from a position, from the DP table (and for Nim,
//! compared with the formula).

use anyhow::Context;
use nimtab::analysis::moves::{
    ended_under, engine_for_moves, labels_of_states, legal_moves, nim_formula_moves, Move,
    MoveDifference,
};
use nimtab::analysis::steps::{legal_steps, Step};
use nimtab::model::game::MoveRule;
use nimtab::model::position::{PassState, Spaced, Tuple};
use nimtab::{Ending, Engine, Game};

use crate::cli::args::{self, PlayedGameArgs};
use crate::cli::explain;
use crate::cli::output;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: PlayedGameArgs,
    /// Output format.
    #[arg(long, value_name = "F", default_value = "text", value_parser = ["text", "csv"])]
    format: String,
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
        Ok(Config { game, ending, csv: a.format == "csv", position })
    }
}

/// Whether the position (its first state) and each of `states` is P, from the labels
/// picked out of one labelling run of the smallest space holding the position.
fn labels(
    config: &Config,
    engine: &Engine<'_>,
    states: &[(Vec<u32>, bool)],
) -> anyhow::Result<(bool, Vec<bool>)> {
    let here = (config.position.clone(), config.game.has_pass());
    let all: Vec<(Vec<u32>, bool)> = std::iter::once(here).chain(states.iter().cloned()).collect();
    let mut labels =
        labels_of_states(engine, config.ending, &all)
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
    // A position the ending has ended has no winning move, whatever moves are legal.
    let ended = ended_under(&config.game, config.ending, &config.position);
    let engine =
        engine_for_moves(&config.game, &config.position, PassState::Used, global.memory_limit)
            .map_err(explain::for_position)?;
    let legal = if ended { Vec::new() } else { legal_moves(&config.game, &config.position) };
    let options: Vec<(Vec<u32>, bool)> =
        legal.iter().map(|m| (m.apply(&config.position), false)).collect();
    let (lost, to_p) = labels(&config, &engine, &options)?;
    let moves: Vec<Move> =
        legal.into_iter().zip(to_p).filter(|&(_, p)| p).map(|(m, _)| m).collect();
    let here = Tuple(&config.position).to_string();
    output::write_to(&output::Target::Stdout, |out| {
        if config.csv {
            writeln!(out, "heap,from,to,take")?;
        }
        for m in &moves {
            if config.csv {
                writeln!(out, "{},{},{},{}", m.heap + 1, m.from, m.to, m.take())?;
            } else {
                writeln!(out, "{}", m.describe(&config.position))?;
            }
        }
        Ok(())
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
    let engine = engine_for_moves(&config.game, position, pass, global.memory_limit)
        .map_err(explain::for_position)?;
    let legal = legal_steps(&config.game, position, pass);
    let after = |s: &Step| {
        let (heaps, pass) = s.after(position, pass);
        (heaps, pass.is_available())
    };
    let options: Vec<(Vec<u32>, bool)> = legal.iter().map(after).collect();
    let (lost, to_p) = labels(config, &engine, &options)?;
    let steps: Vec<_> = legal.into_iter().zip(to_p).filter(|&(_, p)| p).map(|(s, _)| s).collect();
    output::write_to(&output::Target::Stdout, |out| {
        if config.csv {
            writeln!(out, "position,option")?;
        }
        for step in &steps {
            if config.csv {
                writeln!(out, "{},{}", Spaced(position), step.csv_cell())?;
            } else {
                writeln!(out, "{}", step.describe(position))?;
            }
        }
        Ok(())
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
