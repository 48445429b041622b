//! A deliberately simple reference solver: memoised recursion over explicit move lists,
//! written without the engine (its own moves, its own Grundy values, its own rules).

use std::collections::HashMap;

/// A component game described independently of `nimtab::Game`.
#[derive(Clone, Debug)]
pub enum RefGame {
    Nim,
    Subtract(Vec<u32>),
    Graph(Vec<(u32, u32)>),
}

/// The ending rules, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefRule {
    Normal,
    Misere,
    Sj,
}

impl RefGame {
    pub fn moves(&self, h: u32) -> Vec<u32> {
        match self {
            RefGame::Nim => (0..h).collect(),
            RefGame::Subtract(set) => set.iter().filter(|&&s| s <= h).map(|&s| h - s).collect(),
            RefGame::Graph(pairs) => {
                pairs.iter().filter(|&&(from, _)| from == h).map(|&(_, to)| to).collect()
            }
        }
    }

    pub fn grundy(&self, h: u32, memo: &mut HashMap<u32, u32>) -> u32 {
        if let Some(&g) = memo.get(&h) {
            return g;
        }
        let values: Vec<u32> = self.moves(h).into_iter().map(|o| self.grundy(o, memo)).collect();
        let mut mex = 0;
        while values.contains(&mex) {
            mex += 1;
        }
        memo.insert(h, mex);
        mex
    }
}

/// Labels positions on demand: `true` means P.
pub struct Reference {
    game: RefGame,
    rule: RefRule,
    memo: HashMap<Vec<u32>, bool>,
    grundy: HashMap<u32, u32>,
}

impl Reference {
    pub fn new(game: RefGame, rule: RefRule) -> Reference {
        Reference { game, rule, memo: HashMap::new(), grundy: HashMap::new() }
    }

    fn options(&self, position: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for i in 0..position.len() {
            for to in self.game.moves(position[i]) {
                let mut next = position.to_vec();
                next[i] = to;
                out.push(next);
            }
        }
        out
    }

    pub fn is_p(&mut self, position: &[u32]) -> bool {
        if let Some(&p) = self.memo.get(position) {
            return p;
        }
        let options = self.options(position);
        let forced_n = match self.rule {
            RefRule::Normal => false,
            RefRule::Misere => options.is_empty(),
            RefRule::Sj => {
                let mut all_zero = true;
                for &h in position {
                    if self.game.grundy(h, &mut self.grundy) != 0 {
                        all_zero = false;
                    }
                }
                all_zero
            }
        };
        let p = if forced_n {
            false
        } else {
            let mut any_p_option = false;
            for option in options {
                if self.is_p(&option) {
                    any_p_option = true;
                    break;
                }
            }
            !any_p_option
        };
        self.memo.insert(position.to_vec(), p);
        p
    }
}
