//! The heaps of a game as the quotient computation sees them: each heap's options as
//! pairs of smaller heaps, and the ordering key of positions.

use std::cmp::Ordering;

use crate::model::game::Game;

/// The options of every heap `0..=max_heap` of a game: `[h]` lists pairs `(a, b)` with
/// `a >= b >= 0`, 0 standing for no heap (`(0, 0)`: the heap is taken whole).
pub(crate) fn all_options(game: &Game, max_heap: u32) -> Vec<Vec<(u32, u32)>> {
    let mut options = vec![Vec::new()];
    options.extend((1..=max_heap).map(|h| game.heap_options(h)));
    options
}

/// The options of heaps `0..=max_heap()`, a prefix of [`all_options`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeapOptions<'a> {
    pub options: &'a [Vec<(u32, u32)>],
}

impl<'a> HeapOptions<'a> {
    /// The heaps up to `max_heap` of `all`.
    pub fn upto(all: &'a [Vec<(u32, u32)>], max_heap: u32) -> HeapOptions<'a> {
        HeapOptions { options: &all[..=max_heap as usize] }
    }

    /// The largest heap.
    pub fn max_heap(&self) -> u32 {
        (self.options.len() - 1) as u32
    }

    /// Whether heap `h` has a move. A heap without one is the same game as no heap at
    /// all, so it is left out of every position the computation builds.
    pub fn is_active(&self, h: u32) -> bool {
        !self.options[h as usize].is_empty()
    }

    /// The heaps that have a move, ascending.
    pub fn active(&self) -> Vec<u32> {
        (1..=self.max_heap()).filter(|&h| self.is_active(h)).collect()
    }
}

/// Where a position stands in the order every search of this module follows: by total,
/// then more heaps first. Every option of a position comes before it (a move lowers the
/// total, or keeps it and adds a heap), and adding a heap to a position moves it later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    /// The sum of the heap sizes.
    pub total: u64,
    /// The number of heaps.
    pub count: u64,
}

impl Key {
    /// The empty position's key.
    pub const EMPTY: Key = Key { total: 0, count: 0 };

    /// The key after one more heap of size `h`.
    pub fn plus(self, h: u32) -> Key {
        Key { total: self.total + u64::from(h), count: self.count + 1 }
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> Ordering {
        self.total.cmp(&other.total).then(other.count.cmp(&self.count))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A position as the count of heaps of each size (`counts[h]`, `h = 0..=max_heap`).
pub(crate) type Counts = Vec<u32>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_come_before_the_position_in_key_order() {
        let kayles = Game::octal("0.77").unwrap();
        let dawson = Game::octal("4.07").unwrap();
        for game in [kayles, dawson, Game::grundys_game()] {
            let all = all_options(&game, 12);
            let options = HeapOptions::upto(&all, 12);
            for h in 1..=12u32 {
                let before = Key::EMPTY.plus(h);
                for &(a, b) in &options.options[h as usize] {
                    let mut after = Key::EMPTY;
                    for part in [a, b].into_iter().filter(|&p| p > 0) {
                        after = after.plus(part);
                    }
                    assert!(after < before, "{} {h} -> ({a}, {b})", game.spec());
                }
            }
        }
    }
}
