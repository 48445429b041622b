//! Play-outs: the table's strategy against a seeded random or an optimal opponent, in any
//! game (a move may change several heaps; a pass is a step like any other).

use crate::analysis::steps::{leads_to_p, legal_steps, Step};
use crate::engine::Labels;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::position::PassState;
use crate::random::SplitMix64;

/// Who plays the opponent's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Any legal move, uniformly at random.
    Random,
    /// The table's own strategy.
    Optimal,
}

/// The two sides; the table moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The side playing the table's strategy.
    Table,
    /// The other side.
    Opponent,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Table => Side::Opponent,
            Side::Opponent => Side::Table,
        }
    }
}

/// One move of a play-out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Who moved.
    pub side: Side,
    /// The position before the move.
    pub before: Vec<u32>,
    /// Whether the pass was still available before the move (always `false` without a
    /// pass).
    pub pass_available: bool,
    /// The move, or the pass.
    pub played: Step,
    /// Whether the position after the move is P (lost for the side to move next).
    pub to_p: bool,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayRecord {
    /// Every move in order.
    pub turns: Vec<Turn>,
    /// The final position.
    pub end: Vec<u32>,
    /// The side that won.
    pub winner: Side,
}

/// What one play-out follows: the game, its ending, and the label table used by the
/// strategy (it must hold the start position and everything below it).
#[derive(Debug)]
pub struct Match<'a> {
    /// The component game.
    pub game: &'a Game,
    /// The ending.
    pub ending: Ending,
    /// The labels the strategy reads.
    pub labels: &'a Labels,
    /// `terminal[h]`: a position whose heaps all have such sizes is over, won by the side
    /// to move (the ending's forced-N positions, exactly as the engine labels them).
    terminal: Vec<bool>,
}

impl<'a> Match<'a> {
    /// A match of `game` under `ending`, the strategy reading `labels`.
    pub fn new(game: &'a Game, ending: Ending, labels: &'a Labels) -> Match<'a> {
        let terminal = ending.terminal_sizes(game, labels.space().max());
        Match { game, ending, labels, terminal }
    }
}

impl Match<'_> {
    /// Whether the side to move wins because the game is over, or `None` if it goes on.
    ///
    /// Normal play: no move means a loss. Misère: no move means a win. SJ: the game ends,
    /// with a win for the side to move, once every heap has Grundy value 0.
    pub fn mover_wins_at_end(&self, position: &[u32]) -> Option<bool> {
        // Misère's positions without moves and SJ's all-Grundy-0 positions are forced N.
        if position.iter().all(|&h| self.terminal[h as usize]) {
            return Some(true);
        }
        // Only normal play gets here without a move: the side to move loses.
        if !position.iter().any(|&h| self.game.has_moves(h)) {
            return Some(false);
        }
        None
    }

    /// The table's choice: the first winning step, or (from a P-position, where every
    /// step loses against best play) the first legal one.
    pub fn table_step(&self, position: &[u32], pass: PassState) -> Option<Step> {
        let steps = legal_steps(self.game, position, pass);
        let winning = steps.iter().position(|s| leads_to_p(self.labels, position, pass, s));
        let choice = winning.unwrap_or(0);
        steps.into_iter().nth(choice)
    }

    /// Plays one game from `start` (with the pass available, in a game with a pass), the
    /// table moving first.
    ///
    /// # Panics
    /// If the table does not hold the start position (the match was built for another space).
    pub fn play(&self, start: &[u32], opponent: Opponent, rng: &mut SplitMix64) -> PlayRecord {
        let mut position = start.to_vec();
        let mut pass = PassState::of(self.game.has_pass());
        let mut side = Side::Table;
        let mut turns = Vec::new();
        loop {
            if let Some(mover_wins) = self.mover_wins_at_end(&position) {
                let winner = if mover_wins { side } else { side.other() };
                return PlayRecord { turns, end: position, winner };
            }
            let played = match (side, opponent) {
                (Side::Table, _) | (Side::Opponent, Opponent::Optimal) => {
                    self.table_step(&position, pass)
                }
                (Side::Opponent, Opponent::Random) => {
                    let mut steps = legal_steps(self.game, &position, pass);
                    let pick = rng.below(steps.len());
                    Some(steps.swap_remove(pick))
                }
            }
            .expect("a game that is not over has a move");
            let (after, pass_after) = played.after(&position, pass);
            let to_p = self.labels.is_p_in(&after, pass_after);
            let pass_available = pass.is_available();
            turns.push(Turn { side, before: position, pass_available, played, to_p });
            position = after;
            pass = pass_after;
            side = side.other();
        }
    }
}
