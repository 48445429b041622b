//! A deliberately simple reference solver: memoised recursion over explicit move lists,
//! written without the engine (its own moves, its own Grundy values, its own endings, its
//! own pass).

use std::collections::HashMap;

/// A game described independently of `nimtab::Game`.
#[derive(Clone, Debug)]
pub enum RefGame {
    Nim,
    Subtract(Vec<u32>),
    Graph(Vec<(u32, u32)>),
    /// Take k > 0 from one heap, or the same k from two heaps.
    Wythoff,
    /// Lower between 1 and K heaps by any amounts.
    Moore(usize),
    /// Lower any heaps within K cyclically consecutive ones.
    Circular(usize),
}

/// The endings, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefEnding {
    Normal,
    Misere,
    Sj,
}

impl RefGame {
    /// Moves of one heap alone in a sum.
    pub fn moves(&self, h: u32) -> Vec<u32> {
        match self {
            RefGame::Subtract(set) => set.iter().filter(|&&s| s <= h).map(|&s| h - s).collect(),
            RefGame::Graph(pairs) => {
                pairs.iter().filter(|&&(from, _)| from == h).map(|&(_, to)| to).collect()
            }
            _ => (0..h).collect(),
        }
    }

    pub fn grundy(&self, h: u32, memo: &mut HashMap<u32, u32>) -> u32 {
        if let Some(&g) = memo.get(&h) {
            return g;
        }
        let values: Vec<u32> = self.moves(h).into_iter().map(|o| self.grundy(o, memo)).collect();
        let mex = mex(&values);
        memo.insert(h, mex);
        mex
    }

    /// Every option of a whole position.
    pub fn options(&self, position: &[u32]) -> Vec<Vec<u32>> {
        let n = position.len();
        let mut out = Vec::new();
        match self {
            RefGame::Nim | RefGame::Subtract(_) | RefGame::Graph(_) => {
                for i in 0..n {
                    for to in self.moves(position[i]) {
                        let mut next = position.to_vec();
                        next[i] = to;
                        out.push(next);
                    }
                }
            }
            RefGame::Wythoff => {
                for i in 0..n {
                    for j in i..n {
                        let most = position[i].min(position[j]);
                        for k in 1..=most {
                            let mut next = position.to_vec();
                            next[i] -= k;
                            if j != i {
                                next[j] -= k;
                            }
                            out.push(next);
                        }
                    }
                }
            }
            RefGame::Moore(k) => {
                for mask in 1u32..1 << n {
                    if mask.count_ones() as usize <= *k {
                        lower_all(position, mask, &mut out);
                    }
                }
            }
            RefGame::Circular(k) => {
                for mask in 1u32..1 << n {
                    let in_window =
                        |w: usize| (0..n).all(|i| mask >> i & 1 == 0 || (i + n - w) % n < *k);
                    if (0..n).any(in_window) {
                        lower_all(position, mask, &mut out);
                    }
                }
            }
        }
        out
    }
}

/// Every position with each heap of `mask` strictly lowered and the others kept.
fn lower_all(position: &[u32], mask: u32, out: &mut Vec<Vec<u32>>) {
    let mut next = position.to_vec();
    fill(position, mask, 0, &mut next, out);
}

fn fill(position: &[u32], mask: u32, i: usize, next: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
    if i == position.len() {
        out.push(next.clone());
        return;
    }
    if mask >> i & 1 == 0 {
        return fill(position, mask, i + 1, next, out);
    }
    for to in 0..position[i] {
        next[i] = to;
        fill(position, mask, i + 1, next, out);
    }
    next[i] = position[i];
}

fn mex(values: &[u32]) -> u32 {
    let mut mex = 0;
    while values.contains(&mex) {
        mex += 1;
    }
    mex
}

/// Labels states on demand: a position and whether the pass is still available.
pub struct Reference {
    game: RefGame,
    ending: RefEnding,
    memo: HashMap<(Vec<u32>, bool), bool>,
    values: HashMap<(Vec<u32>, bool), u32>,
    grundy: HashMap<u32, u32>,
}

impl Reference {
    pub fn new(game: RefGame, ending: RefEnding) -> Reference {
        let (memo, values, grundy) = (HashMap::new(), HashMap::new(), HashMap::new());
        Reference { game, ending, memo, values, grundy }
    }

    /// The options of a state: every move (keeping the pass), and the pass while the
    /// position has a move.
    fn state_options(&self, position: &[u32], pass: bool) -> Vec<(Vec<u32>, bool)> {
        let moves = self.game.options(position);
        let can_pass = pass && !moves.is_empty();
        let mut out: Vec<(Vec<u32>, bool)> = moves.into_iter().map(|o| (o, pass)).collect();
        if can_pass {
            out.push((position.to_vec(), false));
        }
        out
    }

    /// Whether the position is P (no pass).
    pub fn is_p(&mut self, position: &[u32]) -> bool {
        self.is_p_state(position, false)
    }

    /// Whether the state is P: not forced N by the ending and no option is P.
    pub fn is_p_state(&mut self, position: &[u32], pass: bool) -> bool {
        let key = (position.to_vec(), pass);
        if let Some(&p) = self.memo.get(&key) {
            return p;
        }
        let options = self.state_options(position, pass);
        let forced_n = match self.ending {
            RefEnding::Normal => false,
            RefEnding::Misere => options.is_empty(),
            RefEnding::Sj => {
                let mut all_zero = true;
                for &h in position {
                    if self.game.grundy(h, &mut self.grundy) != 0 {
                        all_zero = false;
                    }
                }
                all_zero
            }
        };
        let mut p = !forced_n;
        if p {
            for (option, option_pass) in options {
                if self.is_p_state(&option, option_pass) {
                    p = false;
                    break;
                }
            }
        }
        self.memo.insert(key, p);
        p
    }

    /// The normal-play Grundy value of a state: the mex of its options' values.
    pub fn value(&mut self, position: &[u32], pass: bool) -> u32 {
        let key = (position.to_vec(), pass);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let options = self.state_options(position, pass);
        let values: Vec<u32> = options.iter().map(|(o, p)| self.value(o, *p)).collect();
        let v = mex(&values);
        self.values.insert(key, v);
        v
    }
}
