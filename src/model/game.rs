//! Games: the move rule of one heap, the moves of games that are not sums, and the pass.
//!
//! A *sum* (`nim`, `subtract:S`, `graph:PATH`, `octal:CODE`, `grundys-game`) moves one heap
//! at a time by its move rule (take-and-break games may also split it: `take_break.rs`).
//! Wythoff's game, Moore's Nim_K and circular Nim also move several heaps at once; their
//! moves on one heap alone are Nim's. Any game may carry a *pass*: one per game, shared by
//! both players, allowed while the position has a move.

use std::path::Path;

use crate::model::error::{ModelError, Result};
use crate::model::graph_file::{check_pairs, moves_from_pairs, read_graph_file, read_graph_pairs};
use crate::model::hex::HexCode;
use crate::model::octal::OctalCode;

/// Parses the `K` of `moore:K` or `circular:K`: a positive integer.
fn parse_k(spec: &str, text: &str) -> Result<u32> {
    let bad = |reason: String| ModelError::BadGame { spec: spec.to_string(), reason };
    match text.trim().parse::<u32>() {
        Ok(0) => Err(bad("K must be at least 1".to_string())),
        Ok(k) => Ok(k),
        Err(_) => Err(bad(format!("K must be a positive integer, got '{text}'"))),
    }
}

/// How one heap may change in a move: to a strictly smaller size, or (take-and-break
/// games) to two heaps whose sizes sum to at most its own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveRule {
    /// Nim: any smaller size.
    Nim,
    /// Subtraction game: remove `s` stones for some `s` in the set (sorted, distinct, positive).
    Subtract(Vec<u32>),
    /// A move graph given as data: `moves[from]` lists the allowed smaller sizes, ascending.
    Graph(Vec<Vec<u32>>),
    /// A take-and-break game given by its octal code (`model/octal.rs`).
    Octal(OctalCode),
    /// A take-and-break game given by a hexadecimal code with three-heap moves
    /// (`model/hex.rs`); a `hex:` code without them is an [`MoveRule::Octal`].
    Hex(HexCode),
    /// Grundy's game: split a heap into two non-empty heaps of different sizes.
    GrundysGame,
}

/// How the heaps of a position move: one at a time (a sum), or several at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// A sum of heaps: every move changes one heap, by the move rule.
    Sum,
    /// Wythoff: take k > 0 from one heap, or the same k from two heaps.
    Wythoff,
    /// Moore's Nim_K: take any amounts from 1 to K heaps, at least one token in all.
    Moore(u32),
    /// Circular Nim: the heaps stand in a circle; take any amounts from K cyclically
    /// consecutive heaps, at least one token in all.
    Circular(u32),
}

/// A game with the specification it was built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    spec: String,
    move_rule: MoveRule,
    kind: GameKind,
    pass: bool,
}

impl Game {
    /// Parses `nim`, `subtract:S`, `graph:PATH` (the graph file is read here), `wythoff`,
    /// `moore:K`, `circular:K`, `octal:CODE` or `grundys-game`.
    ///
    /// A subtraction set may list a value twice; it is normalised to a sorted set.
    ///
    /// # Errors
    /// [`ModelError::UnknownGame`], [`ModelError::BadSubtractionSet`], [`ModelError::BadGame`]
    /// (a `K` that is not a positive integer), [`ModelError::BadOctalCode`], or a graph
    /// file's error.
    pub fn parse(spec: &str) -> Result<Game> {
        let spec = spec.trim();
        if spec == "nim" {
            return Ok(Game::nim());
        }
        if spec == "wythoff" {
            return Ok(Game::multi_heap(spec, GameKind::Wythoff));
        }
        if let Some(k) = spec.strip_prefix("moore:") {
            return Ok(match parse_k(spec, k)? {
                // Nim_1 moves one heap at a time: it is Nim, a sum, under its own name.
                1 => Game::sum(spec, MoveRule::Nim),
                k => Game::multi_heap(spec, GameKind::Moore(k)),
            });
        }
        if let Some(k) = spec.strip_prefix("circular:") {
            return Ok(Game::multi_heap(spec, GameKind::Circular(parse_k(spec, k)?)));
        }
        if let Some(game) = Game::parse_take_break(spec) {
            return game;
        }
        if let Some(list) = spec.strip_prefix("subtract:") {
            return Game::parse_subtract(spec, list);
        }
        if let Some(path) = spec.strip_prefix("graph:") {
            if path.is_empty() {
                return Err(ModelError::UnknownGame { spec: spec.to_string() });
            }
            let pairs = read_graph_file(Path::new(path))?;
            return Ok(Game::from_pairs(spec, &pairs));
        }
        Err(ModelError::UnknownGame { spec: spec.to_string() })
    }

    /// The game of Nim.
    pub fn nim() -> Game {
        Game::sum("nim", MoveRule::Nim)
    }

    /// Wythoff's game: take k > 0 from one heap, or the same k from two heaps.
    pub fn wythoff() -> Game {
        Game::multi_heap("wythoff", GameKind::Wythoff)
    }

    /// Moore's Nim_K: take any amounts from 1 to `k` heaps, at least one token in all.
    /// `moore:1` is Nim, and is built as the sum it is (its spec stays `moore:1`).
    ///
    /// # Errors
    /// [`ModelError::BadGame`] for `k` = 0.
    pub fn moore(k: u32) -> Result<Game> {
        Game::parse(&format!("moore:{k}"))
    }

    /// Circular Nim: take any amounts from `k` cyclically consecutive heaps.
    ///
    /// # Errors
    /// [`ModelError::BadGame`] for `k` = 0.
    pub fn circular(k: u32) -> Result<Game> {
        Game::parse(&format!("circular:{k}"))
    }

    /// The same game with one pass added, shared by both players: a player may pass
    /// instead of moving while the position has a move, once per game. The specification
    /// gains ` --pass`.
    pub fn with_pass(mut self) -> Game {
        if !self.pass {
            self.pass = true;
            self.spec.push_str(" --pass");
        }
        self
    }

    pub(crate) fn sum(spec: &str, move_rule: MoveRule) -> Game {
        Game { spec: spec.to_string(), move_rule, kind: GameKind::Sum, pass: false }
    }

    /// A game whose moves may change several heaps; alone, a heap moves as in Nim.
    fn multi_heap(spec: &str, kind: GameKind) -> Game {
        Game { spec: spec.to_string(), move_rule: MoveRule::Nim, kind, pass: false }
    }

    /// A subtraction game; `set` is sorted and deduplicated.
    ///
    /// # Errors
    /// [`ModelError::BadSubtractionSet`] for an empty set or a 0.
    pub fn subtract(set: &[u32]) -> Result<Game> {
        let list: Vec<String> = set.iter().map(u32::to_string).collect();
        let spec = format!("subtract:{}", list.join(","));
        Game::parse_subtract(&spec, &list.join(","))
    }

    /// A move graph from its `(from, to)` pairs; `spec` names it (e.g. `graph:x.csv`).
    ///
    /// # Errors
    /// [`ModelError::BadMove`] for a move that does not lower the heap or a size above the
    /// limit.
    pub fn graph(spec: &str, pairs: &[(u32, u32)]) -> Result<Game> {
        check_pairs(spec, pairs)?;
        Ok(Game::from_pairs(spec, pairs))
    }

    /// A move graph read from CSV text (header `from,to`); `spec` names it, `path` is used
    /// in error messages.
    ///
    /// # Errors
    /// [`ModelError::GraphLine`] naming the bad line.
    pub fn graph_from_csv<R: std::io::Read>(spec: &str, path: &Path, input: R) -> Result<Game> {
        let pairs = read_graph_pairs(path, input)?;
        Ok(Game::from_pairs(spec, &pairs))
    }

    fn from_pairs(spec: &str, pairs: &[(u32, u32)]) -> Game {
        Game::sum(spec, MoveRule::Graph(moves_from_pairs(pairs)))
    }

    fn parse_subtract(spec: &str, list: &str) -> Result<Game> {
        let bad = |reason: String| ModelError::BadSubtractionSet { spec: spec.to_string(), reason };
        if list.trim().is_empty() {
            return Err(bad("the set is empty".to_string()));
        }
        let mut set = Vec::new();
        for item in list.split(',') {
            let item = item.trim();
            let value: u32 =
                item.parse().map_err(|_| bad(format!("'{item}' is not a positive integer")))?;
            if value == 0 {
                return Err(bad("0 is not allowed (a move must remove at least one stone)".into()));
            }
            set.push(value);
        }
        set.sort_unstable();
        set.dedup();
        Ok(Game::sum(spec, MoveRule::Subtract(set)))
    }

    /// The specification as given (`nim`, `subtract:1,3,4`, `graph:data/graphs/x.csv`,
    /// `moore:2`), followed by ` --pass` when the game has a pass.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// What makes the game, without its spelling: the normalised move rule (a sorted
    /// subtraction set without repeats, an octal code without trailing zeros, a move
    /// graph's moves), the kind of moves and the pass. Equal for `subtract:1,2` and
    /// `subtract:2,1`, or `octal:0.7` and `octal:0.70`: the same game.
    pub fn identity(&self) -> (&MoveRule, GameKind, bool) {
        (&self.move_rule, self.kind, self.pass)
    }

    /// How a heap may move alone (Nim's rule for Wythoff, Moore and circular Nim).
    pub fn move_rule(&self) -> &MoveRule {
        &self.move_rule
    }

    /// Whether moves change one heap at a time or several.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Whether the game has a pass.
    pub fn has_pass(&self) -> bool {
        self.pass
    }

    /// Whether the game is a sum of heaps: each move changes one heap and nothing is
    /// shared, so the heaps' Grundy values decide normal play (and the SJ ending exists).
    pub fn is_sum(&self) -> bool {
        self.kind == GameKind::Sum && !self.pass
    }

    /// Whether a position's label does not depend on the order of its heaps, so that
    /// sorted tuples stand for all (every game but circular Nim).
    pub fn is_symmetric(&self) -> bool {
        !matches!(self.kind, GameKind::Circular(_))
    }

    /// Refuses a heap count the game is not defined for: `circular:K` needs at least `K`
    /// heaps.
    ///
    /// # Errors
    /// [`ModelError::GameHeaps`] naming the game and the heap count.
    pub fn check_heaps(&self, heaps: usize) -> Result<()> {
        match self.kind {
            GameKind::Circular(k) if k as usize > heaps => Err(ModelError::GameHeaps {
                spec: self.spec.clone(),
                heaps,
                reason: format!("K = {k} consecutive heaps need at least {k} heaps"),
            }),
            _ => Ok(()),
        }
    }

    /// Refuses a use that needs heap Grundy values when the game is not a sum; `what`
    /// names the use (`the SJ rule`).
    ///
    /// # Errors
    /// [`ModelError::NotASum`] naming the game and the use.
    pub fn require_sum(&self, what: &str) -> Result<()> {
        if self.is_sum() {
            return Ok(());
        }
        Err(ModelError::NotASum { spec: self.spec.clone(), what: what.to_string() })
    }

    /// The sizes a heap of size `h` may move to alone, ascending. A game that
    /// [`Game::splits`] lists only its moves that leave at most one heap here (see
    /// [`Game::heap_options`]).
    pub fn options(&self, h: u32) -> Vec<u32> {
        match &self.move_rule {
            MoveRule::Nim => (0..h).collect(),
            MoveRule::Subtract(set) => {
                let mut out: Vec<u32> = set.iter().filter(|&&s| s <= h).map(|&s| h - s).collect();
                out.reverse();
                out
            }
            MoveRule::Graph(moves) => moves.get(h as usize).cloned().unwrap_or_default(),
            MoveRule::Octal(_) | MoveRule::Hex(_) | MoveRule::GrundysGame => {
                let options = self.heap_options(h).into_iter();
                options.filter(|parts| parts[1] == 0).map(|parts| parts[0]).collect()
            }
        }
    }

    /// The option lists of every heap size `0..=max`.
    pub fn option_table(&self, max: u32) -> Vec<Vec<u32>> {
        (0..=max).map(|h| self.options(h)).collect()
    }

    /// How many options the sizes `0..=max` have in all (the length of [`Game::option_table`]'s
    /// lists together), without listing them.
    pub fn option_count(&self, max: u32) -> u64 {
        let max = u64::from(max);
        match &self.move_rule {
            MoveRule::Nim => max * (max + 1) / 2,
            MoveRule::Subtract(set) => {
                set.iter().map(|&s| u64::from(s)).filter(|&s| s <= max).map(|s| max + 1 - s).sum()
            }
            MoveRule::Graph(moves) => {
                moves.iter().take(max as usize + 1).map(|m| m.len() as u64).sum()
            }
            // One-heap options only, as `options` lists them: a heap of exactly k taken
            // whole, and every heap above k that loses k and stays.
            MoveRule::Octal(_) | MoveRule::Hex(_) => {
                let Some(rule) = self.take_break_rule().map(|rule| rule.pairs) else { return 0 };
                let vanish = rule.vanish.iter().filter(|&&k| (1..=max).contains(&u64::from(k)));
                let shrink = rule.shrink.iter().map(|&k| u64::from(k)).filter(|&k| k < max);
                vanish.count() as u64 + shrink.map(|k| max - k).sum::<u64>()
            }
            MoveRule::GrundysGame => 0,
        }
    }

    /// Whether a heap of size `h` has at least one move (without listing them).
    pub fn has_moves(&self, h: u32) -> bool {
        match &self.move_rule {
            MoveRule::Nim => h > 0,
            MoveRule::Subtract(set) => set.first().is_some_and(|&s| s <= h),
            MoveRule::Graph(moves) => moves.get(h as usize).is_some_and(|m| !m.is_empty()),
            MoveRule::Octal(_) | MoveRule::Hex(_) | MoveRule::GrundysGame => {
                self.take_break_rule().is_some_and(|rule| rule.has_moves(h))
            }
        }
    }

    /// At least the bytes [`Game::grundy`] holds at once for `g(0..=max)`: the values, and
    /// an option list and its seen flags, or the take-and-break engine's tables.
    pub fn grundy_bytes(&self, max: u32) -> u64 {
        match self.move_rule {
            MoveRule::Octal(_) | MoveRule::GrundysGame => {
                crate::sequence::plan::values_in_memory_bytes(u64::from(max))
            }
            // The values and, per heap, two sets of values of at least one word each.
            MoveRule::Hex(_) => (u64::from(max) + 1) * 20,
            _ => (u64::from(max) + 1) * 12,
        }
    }

    /// Grundy values `g(0..=max)` by the mex rule.
    ///
    /// For Nim the mex of `{0, …, h-1}` is `h`; it is returned directly, because listing
    /// Nim's options would cost `O(max^2)`. Take-and-break games (whose option values are
    /// XORs of two heaps' values) go through the rare/common engine of `sequence/`.
    pub fn grundy(&self, max: u32) -> Vec<u32> {
        if self.move_rule == MoveRule::Nim {
            return (0..=max).collect();
        }
        if let (MoveRule::Octal(_) | MoveRule::GrundysGame, Some(rule)) =
            (&self.move_rule, self.heap_rule())
        {
            return crate::sequence::values_in_memory(&rule, u64::from(max));
        }
        if let Some(rule) = self.three_heap_rule() {
            return rule.values(max);
        }
        let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
        let mut seen: Vec<bool> = Vec::new();
        for h in 0..=max {
            let options = self.options(h);
            seen.clear();
            seen.resize(options.len() + 1, false);
            for o in options {
                let v = g[o as usize] as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            let mex = seen.iter().position(|&s| !s).unwrap_or(seen.len());
            g.push(mex as u32);
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtraction_set_is_sorted_and_deduplicated() {
        let game = Game::parse("subtract:4,1,3,1").unwrap();
        assert_eq!(game.move_rule(), &MoveRule::Subtract(vec![1, 3, 4]));
        assert_eq!(game.options(4), vec![0, 1, 3]);
    }

    #[test]
    fn grundy_of_nim_is_identity() {
        assert_eq!(Game::nim().grundy(5), vec![0, 1, 2, 3, 4, 5]);
        // The same through the mex rule, on a move graph that is Nim.
        let pairs: Vec<(u32, u32)> = (1..6).flat_map(|f| (0..f).map(move |t| (f, t))).collect();
        assert_eq!(Game::graph("graph:nim", &pairs).unwrap().grundy(5), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn option_count_is_the_length_of_the_option_lists() {
        let games = [
            Game::nim(),
            Game::subtract(&[1, 3, 40]).unwrap(),
            Game::graph("graph:t", &[(1, 0), (3, 2), (3, 0), (9, 4)]).unwrap(),
            Game::octal("0.137").unwrap(),
            Game::octal("0.31").unwrap(),
            Game::grundys_game(),
        ];
        for game in games {
            for max in [0, 1, 5, 50] {
                let lists: usize = game.option_table(max).iter().map(Vec::len).sum();
                assert_eq!(game.option_count(max), lists as u64, "{} {max}", game.spec());
            }
        }
    }

    #[test]
    fn has_moves_agrees_with_the_option_lists() {
        let games =
            [Game::nim(), Game::subtract(&[2, 5]).unwrap(), Game::graph("g", &[(3, 1)]).unwrap()];
        for game in &games {
            for h in 0..8 {
                assert_eq!(game.has_moves(h), !game.options(h).is_empty(), "{} {h}", game.spec());
            }
        }
    }
}
