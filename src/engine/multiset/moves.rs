//! A game's moves read backwards, for heaps of at most `T` tokens: which heaps can become
//! a given heap, or nothing, or a given pair or triple.

use crate::model::game::Game;

/// The undo side of every move of one game, cut to heaps of at most `T` tokens.
#[derive(Clone, Debug)]
pub(super) struct Predecessors {
    /// Sizes `a <= T` whose heap may be taken whole, ascending.
    pub vanish: Vec<u32>,
    /// `into_one[b]` (`b >= 1`): sizes `a` in `b + 1..=T` with a move from `a` to one heap
    /// `b`, ascending.
    pub into_one: Vec<Vec<u32>>,
    /// Removal counts `k` of splits: `a = b + c + k` may become the two heaps `b, c`.
    pub split: Vec<u32>,
    /// Whether the two heaps of a split must differ (Grundy's game).
    pub unequal: bool,
    /// Removal counts `k` of three-heap splits: `a = b + c + d + k` may become the three
    /// heaps `b, c, d` (hexadecimal codes).
    pub split_three: Vec<u32>,
}

impl Predecessors {
    /// The undo tables of `game` for heaps of at most `total` tokens.
    pub fn of(game: &Game, total: u32) -> Predecessors {
        let mut into_one = vec![Vec::new(); total as usize + 1];
        let Some(rule) = game.take_break_rule() else {
            // Nim and move graphs: explicit option lists, one heap to one heap.
            let mut vanish = Vec::new();
            for a in 1..=total {
                for to in game.options(a) {
                    match to {
                        0 => vanish.push(a),
                        b => into_one[b as usize].push(a),
                    }
                }
            }
            let (split, split_three) = (Vec::new(), Vec::new());
            return Predecessors { vanish, into_one, split, unequal: false, split_three };
        };
        let (rule, three) = (rule.pairs, rule.split_three);
        for (b, list) in into_one.iter_mut().enumerate().skip(1) {
            let b = b as u32;
            list.extend(rule.shrink.iter().map(|&k| b + k).take_while(|&a| a <= total));
        }
        let up_to_total = |set: &[u32]| set.iter().copied().take_while(|&k| k <= total).collect();
        Predecessors {
            vanish: rule.vanish.iter().copied().filter(|&k| (1..=total).contains(&k)).collect(),
            into_one,
            split: up_to_total(&rule.split),
            unequal: rule.unequal_split,
            split_three: up_to_total(&three),
        }
    }

    /// Whether some split keeps the total (removes no token): such a move adds one heap
    /// or two within the same total.
    pub fn splits_in_place(&self) -> bool {
        self.split.first() == Some(&0) || self.split_three.first() == Some(&0)
    }

    /// Bytes of the tables, for the memory plan (a bound).
    pub fn bytes_bound(total: u32) -> u64 {
        let t = u64::from(total) + 1;
        4 * t * t + 24 * t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option `[a, b, c]` of every heap `h <= T` as `(h, [a, b, c])`, read back
    /// from the undo tables.
    fn options_read_back(p: &Predecessors, total: u32) -> Vec<(u32, [u32; 3])> {
        let mut out = Vec::new();
        out.extend(p.vanish.iter().map(|&h| (h, [0, 0, 0])));
        for (b, list) in p.into_one.iter().enumerate() {
            out.extend(list.iter().map(|&h| (h, [b as u32, 0, 0])));
        }
        for b in 1..=total {
            for c in 1..=b {
                for &k in &p.split {
                    if b + c + k <= total && !(p.unequal && b == c) {
                        out.push((b + c + k, [b, c, 0]));
                    }
                }
                for d in 1..=c {
                    for &k in &p.split_three {
                        if b + c + d + k <= total {
                            out.push((b + c + d + k, [b, c, d]));
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn undo_tables_hold_exactly_the_options() {
        let games = [
            "nim",
            "subtract:1,3,4",
            "octal:0.77",
            "octal:4.07",
            "grundys-game",
            "hex:0.3F",
            "hex:C.1",
        ];
        for spec in games {
            let game = Game::parse(spec).unwrap();
            let total = 14;
            let mut forward: Vec<(u32, [u32; 3])> = (1..=total)
                .flat_map(|h| game.heap_options(h).into_iter().map(move |parts| (h, parts)))
                .collect();
            forward.sort_unstable();
            assert_eq!(
                options_read_back(&Predecessors::of(&game, total), total),
                forward,
                "{spec}"
            );
        }
    }
}
