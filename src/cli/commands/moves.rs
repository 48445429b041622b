//! `nimtab moves`: every winning move from a position, from the DP table (and for Nim,
//! compared with the formula).

use anyhow::Context;
use nimtab::analysis::moves::{
    ended_by_rule, nim_formula_moves, smallest_table, winning_moves, Move, MoveDifference,
};
use nimtab::{Ending, Game, MoveRule, Tuple};

use crate::cli::args::{self, PlayedGameArgs};
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

/// Runs `nimtab moves`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let labels = smallest_table(&config.game, config.ending, &config.position, global.memory_limit)
        .with_context(|| format!("labelling the space of {}", Tuple(&config.position)))?;
    // A position the rule has ended has no winning move, whatever moves are legal.
    let ended = ended_by_rule(&config.game, config.ending, &config.position);
    let moves =
        if ended { Vec::new() } else { winning_moves(&config.game, &labels, &config.position) };
    let here = Tuple(&config.position).to_string();
    output::write_to(&output::Target::Stdout, |out| {
        if config.csv {
            writeln!(out, "heap,from,to,take")?;
        }
        for m in &moves {
            if config.csv {
                writeln!(out, "{},{},{},{}", m.heap + 1, m.from, m.to, m.take())?;
            } else {
                writeln!(out, "{}", describe(m, &config.position))?;
            }
        }
        Ok(())
    })?;
    if labels.is_p(&config.position) {
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
        output::note(&format!("nimtab: only the table: {}", describe(m, &config.position)));
    }
    for m in &difference.only_in_formula {
        output::note(&format!("nimtab: only the formula: {}", describe(m, &config.position)));
    }
    Ok(Outcome::ClaimFailed)
}

/// `take 12 from heap 3 (39 -> 27): (14,21,39) -> (14,21,27)`.
fn describe(m: &Move, position: &[u32]) -> String {
    format!(
        "take {} from heap {} ({} -> {}): {} -> {}",
        m.take(),
        m.heap + 1,
        m.from,
        m.to,
        Tuple(position),
        Tuple(&m.apply(position))
    )
}
