//! A brute-force reference for the genus: the misère Grundy value of every multiset of a
//! game's heaps plus nim-heaps *2 and *1, by a memoised mex over all options.

use std::collections::HashMap;

use super::multiset_reference::TbGame;

/// A position: the game's heaps (sorted), and how many nim-heaps *2 and *1 beside them.
type Position = (Vec<u32>, u32, u32);

/// Misère Grundy values of positions of one game, memoised.
pub struct GenusReference {
    game: TbGame,
    memo: HashMap<Position, u32>,
    grundy: HashMap<u32, u32>,
}

fn mex(values: &[u32]) -> u32 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

impl GenusReference {
    /// The reference of `game` (a `TbGame` spec such as `octal:0.77`).
    pub fn new(spec: &str) -> GenusReference {
        GenusReference { game: TbGame::parse(spec), memo: HashMap::new(), grundy: HashMap::new() }
    }

    /// G+ of the sum of `heaps`: the nim-sum of the heaps' Grundy values.
    pub fn normal_grundy(&mut self, heaps: &[u32]) -> u32 {
        heaps.iter().fold(0, |x, &h| x ^ self.game.grundy(h, &mut self.grundy))
    }

    /// γk of the sum of `heaps`: G− of the heaps plus `k` nim-heaps *2.
    pub fn gamma(&mut self, heaps: &[u32], k: u32) -> u32 {
        let mut sorted: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        sorted.sort_unstable();
        self.misere((sorted, k, 0))
    }

    fn options(&self, (heaps, twos, ones): &Position) -> Vec<Position> {
        let mut options = Vec::new();
        for i in 0..heaps.len() {
            for replacement in self.game.heap_moves(heaps[i]) {
                let mut next = heaps.clone();
                next.remove(i);
                next.extend(replacement.into_iter().filter(|&h| h > 0));
                next.sort_unstable();
                options.push((next, *twos, *ones));
            }
        }
        if *twos > 0 {
            options.push((heaps.clone(), twos - 1, *ones));
            options.push((heaps.clone(), twos - 1, ones + 1));
        }
        if *ones > 0 {
            options.push((heaps.clone(), *twos, ones - 1));
        }
        options
    }

    fn misere(&mut self, position: Position) -> u32 {
        if let Some(&value) = self.memo.get(&position) {
            return value;
        }
        let options = self.options(&position);
        let value = if options.is_empty() {
            1
        } else {
            let values: Vec<u32> = options.into_iter().map(|o| self.misere(o)).collect();
            mex(&values)
        };
        self.memo.insert(position, value);
        value
    }
}
