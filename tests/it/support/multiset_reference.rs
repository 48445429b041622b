//! A deliberately plain reference for games played on multisets of heaps: its own reading
//! of the game text, its own moves and Grundy values, and memoised recursion over
//! explicit sorted positions. It shares no code with the library.

use std::collections::HashMap;

/// A heap game as the reference reads it from the text of `--game`.
#[derive(Clone, Debug)]
pub enum TbGame {
    /// `digits[k]` is the digit D_k of an octal code, or of a hexadecimal one (bit 8:
    /// remove k and leave three non-empty heaps).
    Octal(Vec<u32>),
    Nim,
    Subtract(Vec<u32>),
    GrundysGame,
    /// Explicit `(from, to)` moves of one heap.
    Graph(Vec<(u32, u32)>),
}

/// The endings, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TbEnding {
    Normal,
    Misere,
    Sj,
}

impl TbGame {
    /// Reads `nim`, `grundys-game`, `subtract:S`, `octal:D0.D1…` or `hex:D0.D1…`.
    pub fn parse(text: &str) -> TbGame {
        if text == "nim" {
            return TbGame::Nim;
        }
        if text == "grundys-game" {
            return TbGame::GrundysGame;
        }
        if let Some(set) = text.strip_prefix("subtract:") {
            return TbGame::Subtract(set.split(',').map(|s| s.parse().unwrap()).collect());
        }
        let (code, radix) = match text.strip_prefix("hex:") {
            Some(code) => (code, 16),
            None => (text.strip_prefix("octal:").unwrap(), 8),
        };
        let digits = code.chars().filter(|&c| c != '.').map(|c| c.to_digit(radix).unwrap());
        TbGame::Octal(digits.collect())
    }

    /// Every way a heap of `n` may be replaced: by no heap, one heap, two or three
    /// (repeats allowed).
    pub fn heap_moves(&self, n: u32) -> Vec<Vec<u32>> {
        let mut moves = Vec::new();
        match self {
            TbGame::Nim => moves.extend((0..n).map(|m| if m == 0 { vec![] } else { vec![m] })),
            TbGame::Subtract(set) => {
                for &s in set.iter().filter(|&&s| s <= n) {
                    moves.push(if s == n { vec![] } else { vec![n - s] });
                }
            }
            TbGame::GrundysGame => {
                moves.extend((1..n).filter(|&x| 2 * x < n).map(|x| vec![x, n - x]))
            }
            TbGame::Graph(pairs) => {
                for &(_, to) in pairs.iter().filter(|&&(from, _)| from == n) {
                    moves.push(if to == 0 { vec![] } else { vec![to] });
                }
            }
            TbGame::Octal(digits) => {
                for (k, &d) in digits.iter().enumerate() {
                    let k = k as u32;
                    if d & 1 != 0 && k == n && k > 0 {
                        moves.push(vec![]);
                    }
                    if d & 2 != 0 && k < n && k > 0 {
                        moves.push(vec![n - k]);
                    }
                    if d & 4 != 0 && n >= k + 2 {
                        moves.extend((1..n - k).map(|x| vec![x, n - k - x]));
                    }
                    if d & 8 != 0 && n >= k + 3 {
                        for x in 1..n - k {
                            moves.extend((1..n - k - x).map(|y| vec![x, y, n - k - x - y]));
                        }
                    }
                }
            }
        }
        moves
    }

    /// The Grundy value of one heap, by the mex over its moves (a move's value is the XOR
    /// of the heaps it leaves).
    pub fn grundy(&self, n: u32, memo: &mut HashMap<u32, u32>) -> u32 {
        if let Some(&g) = memo.get(&n) {
            return g;
        }
        let values: Vec<u32> = self
            .heap_moves(n)
            .iter()
            .map(|heaps| heaps.iter().fold(0, |x, &h| x ^ self.grundy(h, memo)))
            .collect();
        let mut seen = vec![false; values.len() + 1];
        for &v in &values {
            if let Some(slot) = seen.get_mut(v as usize) {
                *slot = true;
            }
        }
        let g = seen.iter().position(|&s| !s).unwrap() as u32;
        memo.insert(n, g);
        g
    }
}

/// Labels explicit multisets on demand: `true` means P.
pub struct TbReference {
    game: TbGame,
    ending: TbEnding,
    grundy: HashMap<u32, u32>,
    memo: HashMap<Vec<u32>, bool>,
}

impl TbReference {
    pub fn new(game: TbGame, ending: TbEnding) -> TbReference {
        TbReference { game, ending, grundy: HashMap::new(), memo: HashMap::new() }
    }

    pub fn grundy(&mut self, n: u32) -> u32 {
        self.game.grundy(n, &mut self.grundy)
    }

    fn options(&self, position: &[u32]) -> Vec<Vec<u32>> {
        let mut options = Vec::new();
        for i in 0..position.len() {
            for replacement in self.game.heap_moves(position[i]) {
                let mut next = position.to_vec();
                next.remove(i);
                next.extend(replacement);
                next.sort_unstable();
                options.push(next);
            }
        }
        options
    }

    /// Whether the position (heaps in any order, no empty heap) is P.
    pub fn is_p(&mut self, position: &[u32]) -> bool {
        let mut key = position.to_vec();
        key.sort_unstable();
        if let Some(&p) = self.memo.get(&key) {
            return p;
        }
        let options = self.options(&key);
        let forced_n = match self.ending {
            TbEnding::Normal => false,
            TbEnding::Misere => options.is_empty(),
            TbEnding::Sj => key.iter().all(|&h| self.game.grundy(h, &mut self.grundy) == 0),
        };
        let p = !forced_n && options.iter().all(|option| !self.is_p(option));
        self.memo.insert(key, p);
        p
    }
}

/// Every multiset of non-empty heaps of total at most `total`, as non-increasing lists,
/// in no particular order.
pub fn all_multisets(total: u32) -> Vec<Vec<u32>> {
    fn extend(left: u32, largest: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        out.push(prefix.clone());
        for part in 1..=largest.min(left) {
            prefix.push(part);
            extend(left - part, part, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    extend(total, total, &mut Vec::new(), &mut out);
    out
}
