//! Winning moves: moves to P-positions read from a label table, and Nim's formulas for them.

use crate::engine::{Engine, Labels};
use crate::error::{Error, Result};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::space::{Mode, Space};

/// One move: heap `heap` (0-based) goes from `from` stones to `to` stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// Index of the heap moved, from 0.
    pub heap: usize,
    /// Its size before the move.
    pub from: u32,
    /// Its size after the move.
    pub to: u32,
}

impl Move {
    /// Stones removed.
    pub fn take(&self) -> u32 {
        self.from - self.to
    }

    /// The position after the move.
    pub fn apply(&self, position: &[u32]) -> Vec<u32> {
        let mut next = position.to_vec();
        next[self.heap] = self.to;
        next
    }
}

/// Every legal move, by heap ascending, then by stones taken ascending.
pub fn legal_moves(game: &Game, position: &[u32]) -> Vec<Move> {
    let mut out = Vec::new();
    for (heap, &from) in position.iter().enumerate() {
        // `options` is ascending, so reversing it orders by stones taken.
        for to in game.options(from).into_iter().rev() {
            out.push(Move { heap, from, to });
        }
    }
    out
}

/// The legal moves that lead to a P-position of `labels`, in [`legal_moves`] order.
///
/// The table must hold the position and everything below it (same heap count, max at
/// least the largest heap).
pub fn winning_moves(game: &Game, labels: &Labels, position: &[u32]) -> Vec<Move> {
    legal_moves(game, position).into_iter().filter(|m| labels.is_p(&m.apply(position))).collect()
}

/// Whether `ending` has already ended the game at `position`, won by the player to move:
/// misère play when no heap can move, the SJ rule when every heap has Grundy value 0. No
/// move is played from such a position, though it may have legal moves (under SJ).
pub fn ended_by_rule(game: &Game, ending: Ending, position: &[u32]) -> bool {
    let max = position.iter().copied().max().unwrap_or(0);
    let terminal = ending.terminal_sizes(game, max);
    position.iter().all(|&h| terminal[h as usize])
}

/// Labels the smallest space holding `position` (heaps = its length, max = its largest
/// heap) under `ending`, in canonical mode (smaller, and [`Labels::is_p`] accepts tuples
/// in any order).
///
/// # Errors
/// [`Error::Invalid`] for an empty position; [`Error::TooLarge`] if the table would
/// exceed `memory_limit` bytes.
pub fn smallest_table(
    game: &Game,
    ending: Ending,
    position: &[u32],
    memory_limit: u64,
) -> Result<Labels> {
    if position.is_empty() {
        return Err(Error::Invalid("a position needs at least one heap".into()));
    }
    let max = position.iter().copied().max().unwrap_or(0);
    let space = Space::in_mode(position.len(), max, Mode::Canonical)?;
    let engine = Engine::builder(game, space).memory_limit(memory_limit).build();
    engine.label(ending)
}

/// Nim's winning moves by formula, for normal play or misère play (Bouton).
///
/// Normal: with `x` the XOR of all heaps, heap `i` moves to `hi ^ x` whenever that is
/// smaller. Misère: with at least two rich heaps (> 1 stone), the same; with exactly one,
/// that heap goes to 0 or 1 so that an odd number of lonely heaps (1 stone) remains;
/// with none, any lonely heap is emptied when their number is even and non-zero.
/// Returns `None` for the SJ rule, which has no formula here. Moves come in
/// [`legal_moves`] order.
///
/// # Panics
/// Never for a position; the one-rich-heap branch finds its rich heap by construction.
pub fn nim_formula_moves(ending: Ending, position: &[u32]) -> Option<Vec<Move>> {
    let x = position.iter().fold(0, |acc, &h| acc ^ h);
    let rich = position.iter().filter(|&&h| h > 1).count();
    let lonely = position.iter().filter(|&&h| h == 1).count();
    let xor_moves = || -> Vec<Move> {
        position
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h ^ x < h)
            .map(|(heap, &h)| Move { heap, from: h, to: h ^ x })
            .collect()
    };
    let moves = match ending {
        Ending::Normal => xor_moves(),
        Ending::Misere if rich >= 2 => xor_moves(),
        Ending::Misere if rich == 1 => {
            let heap = position.iter().position(|&h| h > 1).expect("one rich heap");
            let to = if lonely % 2 == 1 { 0 } else { 1 };
            vec![Move { heap, from: position[heap], to }]
        }
        Ending::Misere if lonely > 0 && lonely % 2 == 0 => position
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h == 1)
            .map(|(heap, _)| Move { heap, from: 1, to: 0 })
            .collect(),
        Ending::Misere => Vec::new(),
        Ending::Sj => return None,
    };
    Some(moves)
}

/// Moves found by only one of two methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveDifference {
    /// Moves of the table that the formula does not give.
    pub only_in_table: Vec<Move>,
    /// Moves of the formula that the table does not confirm.
    pub only_in_formula: Vec<Move>,
}

impl MoveDifference {
    /// Compares the table's moves with the formula's.
    pub fn between(table: &[Move], formula: &[Move]) -> MoveDifference {
        MoveDifference {
            only_in_table: table.iter().filter(|m| !formula.contains(m)).copied().collect(),
            only_in_formula: formula.iter().filter(|m| !table.contains(m)).copied().collect(),
        }
    }

    /// Whether both methods gave the same moves.
    pub fn is_empty(&self) -> bool {
        self.only_in_table.is_empty() && self.only_in_formula.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misere_formula_with_one_rich_heap_leaves_odd_lonely_heaps() {
        let moves = nim_formula_moves(Ending::Misere, &[1, 1, 5]).unwrap();
        assert_eq!(moves, vec![Move { heap: 2, from: 5, to: 1 }]);
        let moves = nim_formula_moves(Ending::Misere, &[1, 5]).unwrap();
        assert_eq!(moves, vec![Move { heap: 1, from: 5, to: 0 }]);
    }

    #[test]
    fn formula_agrees_with_the_table_on_small_nim_spaces() {
        let nim = Game::nim();
        for ending in [Ending::Normal, Ending::Misere] {
            let labels = Engine::new(&nim, Space::new(3, 6).unwrap()).label(ending).unwrap();
            for (position, _) in labels.iter() {
                let table = winning_moves(&nim, &labels, &position);
                let formula = nim_formula_moves(ending, &position).unwrap();
                assert_eq!(table, formula, "{ending} {position:?}");
            }
        }
    }
}
