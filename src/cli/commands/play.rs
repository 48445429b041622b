//! `nimtab play`: the table's strategy plays against a seeded random or optimal opponent,
//! move by move (as the classic blog play-outs of (7,8,9) show), or as a count of wins
//! over many games.

use anyhow::Context;
use nimtab::analysis::moves::smallest_engine;
use nimtab::analysis::play::{Match, Opponent, PlayRecord, Side};

use crate::cli::choices::OpponentArg;
use nimtab::analysis::steps::Step;
use nimtab::engine::Work;
use nimtab::model::position::Tuple;
use nimtab::random::SplitMix64;
use nimtab::{Ending, Game, Labels};

use crate::cli::args::{self, PlayedGameArgs};
use crate::cli::commands::moves::note_plan;
use crate::cli::explain;
use crate::cli::output;
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: PlayedGameArgs,
    /// Who plays against the table.
    #[arg(long, value_name = "O", value_enum, default_value_t = OpponentArg::Random)]
    opponent: OpponentArg,
    /// Seed of the random opponent.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Play K games (1 to 1000000) and report the wins instead of printing one game.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: Option<u64>,
    /// Heap sizes of the start position.
    #[arg(value_name = "H", required = true)]
    heaps: Vec<String>,
}

/// The most games x stones `play` accepts.
const MAX_GAME_STONES: u64 = 25_000_000;

/// For a game that is not a sum, a move scans every option: the most games x moves x
/// options (at most the positions below the start) `play` accepts.
const MAX_GAME_OPTIONS: u64 = 250_000_000;

/// The validated `play` settings.
struct Config {
    game: Game,
    ending: Ending,
    opponent: Opponent,
    seed: u64,
    games: Option<u64>,
    start: Vec<u32>,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let start = args::parse_position(&a.heaps)?;
        let (game, ending) = a.game.parse()?;
        let opponent = Opponent::from(a.opponent);
        // A game lasts at most as many moves as there are stones, and each move scans the
        // position's options: bound games x stones (about ten seconds at the limit).
        let stones: u64 = start.iter().map(|&h| u64::from(h)).sum::<u64>().max(1);
        let games = a.games.unwrap_or(1);
        if games.saturating_mul(stones) > MAX_GAME_STONES {
            anyhow::bail!(
                "--games {games} from a position of {stones} stones is too much play \
                 (games x stones at most {MAX_GAME_STONES}); play fewer games"
            );
        }
        if !game.is_sum() {
            // A game lasts at most stones + 1 moves (one may be the pass).
            let below = start.iter().fold(1u64, |n, &h| n.saturating_mul(u64::from(h) + 1));
            let work = games.saturating_mul(stones + 1).saturating_mul(below);
            if work > MAX_GAME_OPTIONS {
                anyhow::bail!(
                    "--games {games} from {} of {} is too much play (games x moves x options \
                     at most {MAX_GAME_OPTIONS}); play fewer games or from a smaller position",
                    Tuple(&start),
                    game.spec()
                );
            }
        }
        Ok(Config { game, ending, opponent, seed: a.seed, games: a.games, start })
    }
}

/// The labels of the smallest space holding the start position (as
/// [`nimtab::analysis::moves::smallest_table`] labels it), its plan stated when long and
/// its progress shown.
fn label_start(config: &Config, global: &Global) -> nimtab::Result<Labels> {
    let engine = smallest_engine(&config.game, &config.start, global.memory_limit)?;
    engine.ensure_supported(&[config.ending])?;
    let run = engine.reserve(&[Work::Tables { endings: 1 }])?;
    let what = format!("play from {}", Tuple(&config.start));
    note_plan(&what, &engine, None, run.grant().bytes(), global);
    let bar = Bar::new("play", engine.positions(), global.quiet);
    let labelled = run.label_all(&[config.ending], &bar);
    bar.finish();
    Ok(labelled?.remove(0))
}

/// Runs `nimtab play`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let labels = label_start(&config, global)
        .map_err(explain::for_position)
        .with_context(|| format!("labelling the space of {}", Tuple(&config.start)))?;
    let play = Match::new(&config.game, config.ending, &labels);
    let here = Tuple(&config.start).to_string();
    if let Some(mover_wins) = play.mover_wins_at_end(&config.start) {
        // Nothing to play: the ending has decided the game before the first move.
        let result = if mover_wins { "won" } else { "lost" };
        output::line(format_args!(
            "{here} is already over under the {} rule: {result} by the side to move (the table)",
            config.ending
        ))?;
        return Ok(Outcome::Success);
    }
    let mut rng = SplitMix64::new(config.seed);
    let start_is_p = labels.is_p(&config.start);
    // The claim: from an N-position the table always wins; from a P-position it always
    // loses against an optimal opponent. Against a random one a P start proves nothing.
    let table_must_win = !start_is_p;
    let table_must_lose = start_is_p && config.opponent == Opponent::Optimal;
    let (won, games) = match config.games {
        None => {
            let record = play.play(&config.start, config.opponent, &mut rng);
            print_game(&record)?;
            (u64::from(record.winner == Side::Table), 1)
        }
        Some(k) => {
            let won = (0..k)
                .filter(|_| {
                    play.play(&config.start, config.opponent, &mut rng).winner == Side::Table
                })
                .count() as u64;
            output::line(format_args!(
                "table won {won} of {k} games from {here} (game {}, rule {}, {} opponent, seed {})",
                config.game.spec(),
                config.ending,
                if config.opponent == Opponent::Optimal { "optimal" } else { "random" },
                config.seed
            ))?;
            (won, k)
        }
    };
    let label = if start_is_p { "P" } else { "N" };
    if table_must_win && won < games {
        output::line(format_args!(
            "fails  {here} is N but the table lost {} of {games} games",
            games - won
        ))?;
        return Ok(Outcome::ClaimFailed);
    }
    if table_must_lose && won > 0 {
        output::line(format_args!(
            "fails  {here} is P but the table won {won} of {games} games against optimal play"
        ))?;
        return Ok(Outcome::ClaimFailed);
    }
    if !global.quiet {
        output::note(&format!("nimtab: {here} is {label} under {}", config.ending));
    }
    Ok(Outcome::Success)
}

/// One line per move, as the classic play-outs show them (甲 = table, 乙 = opponent; a
/// pass is written `pass`), then the winner.
fn print_game(record: &PlayRecord) -> anyhow::Result<()> {
    for turn in &record.turns {
        let who = match turn.side {
            Side::Table => "table:   ",
            Side::Opponent => "opponent:",
        };
        let after = match &turn.played {
            Step::To(next) => Tuple(next).to_string(),
            Step::Pass => "pass".to_string(),
        };
        let mark = if turn.to_p { "  P-position" } else { "" };
        output::line(format_args!("{who} {} -> {after}{mark}", Tuple(&turn.before)))?;
    }
    let winner = match record.winner {
        Side::Table => "table",
        Side::Opponent => "opponent",
    };
    output::line(format_args!("{winner} wins at {}", Tuple(&record.end)))
}
