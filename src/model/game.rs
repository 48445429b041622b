//! Component games: the move rule every heap follows, and its Grundy values.

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::graph_file::{check_pairs, moves_from_pairs, read_graph_file, read_graph_pairs};
use crate::model::octal::{HeapRule, OctalCode};

/// How one heap may change in a move: to a strictly smaller size, or (take-and-break
/// games) to two heaps whose sizes sum to at most its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRule {
    /// Nim: any smaller size.
    Nim,
    /// Subtraction game: remove `s` stones for some `s` in the set (sorted, distinct, positive).
    Subtract(Vec<u32>),
    /// A move graph given as data: `moves[from]` lists the allowed smaller sizes, ascending.
    Graph(Vec<Vec<u32>>),
    /// A take-and-break game given by its octal code (`model/octal.rs`).
    Octal(OctalCode),
    /// Grundy's game: split a heap into two non-empty heaps of different sizes.
    GrundysGame,
}

/// A component game with the specification it was built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    spec: String,
    move_rule: MoveRule,
}

impl Game {
    /// Parses `nim`, `subtract:S`, `graph:PATH` (the graph file is read here),
    /// `octal:CODE` or `grundys-game`.
    ///
    /// A subtraction set may list a value twice; it is normalised to a sorted set.
    ///
    /// # Errors
    /// [`Error::UnknownGame`], [`Error::BadSubtractionSet`], [`Error::BadOctalCode`], or a
    /// graph file's error.
    pub fn parse(spec: &str) -> Result<Game> {
        let spec = spec.trim();
        if spec == "nim" {
            return Ok(Game::nim());
        }
        if let Some(game) = Game::parse_take_break(spec) {
            return game;
        }
        if let Some(list) = spec.strip_prefix("subtract:") {
            return Game::parse_subtract(spec, list);
        }
        if let Some(path) = spec.strip_prefix("graph:") {
            if path.is_empty() {
                return Err(Error::UnknownGame { spec: spec.to_string() });
            }
            let pairs = read_graph_file(Path::new(path))?;
            return Ok(Game::from_pairs(spec, &pairs));
        }
        Err(Error::UnknownGame { spec: spec.to_string() })
    }

    /// The game of Nim.
    pub fn nim() -> Game {
        Game { spec: "nim".to_string(), move_rule: MoveRule::Nim }
    }

    /// A subtraction game; `set` is sorted and deduplicated.
    ///
    /// # Errors
    /// [`Error::BadSubtractionSet`] for an empty set or a 0.
    pub fn subtract(set: &[u32]) -> Result<Game> {
        let list: Vec<String> = set.iter().map(u32::to_string).collect();
        let spec = format!("subtract:{}", list.join(","));
        Game::parse_subtract(&spec, &list.join(","))
    }

    /// A move graph from its `(from, to)` pairs; `spec` names it (e.g. `graph:x.csv`).
    ///
    /// # Errors
    /// [`Error::Invalid`] for a move that does not lower the heap or a size above the limit.
    pub fn graph(spec: &str, pairs: &[(u32, u32)]) -> Result<Game> {
        check_pairs(spec, pairs)?;
        Ok(Game::from_pairs(spec, pairs))
    }

    /// A move graph read from CSV text (header `from,to`); `spec` names it, `path` is used
    /// in error messages.
    ///
    /// # Errors
    /// [`Error::GraphLine`] naming the bad line.
    pub fn graph_from_csv<R: std::io::Read>(spec: &str, path: &Path, input: R) -> Result<Game> {
        let pairs = read_graph_pairs(path, input)?;
        Ok(Game::from_pairs(spec, &pairs))
    }

    fn from_pairs(spec: &str, pairs: &[(u32, u32)]) -> Game {
        Game { spec: spec.to_string(), move_rule: MoveRule::Graph(moves_from_pairs(pairs)) }
    }

    fn parse_subtract(spec: &str, list: &str) -> Result<Game> {
        let bad = |reason: String| Error::BadSubtractionSet { spec: spec.to_string(), reason };
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
        Ok(Game { spec: spec.to_string(), move_rule: MoveRule::Subtract(set) })
    }

    /// `octal:CODE` or `grundys-game`, if `spec` names one.
    fn parse_take_break(spec: &str) -> Option<Result<Game>> {
        if spec == "grundys-game" {
            return Some(Ok(Game::grundys_game()));
        }
        let code = spec.strip_prefix("octal:")?;
        let bad = |reason| Error::BadOctalCode { spec: spec.to_string(), reason };
        let code = OctalCode::parse(code).map_err(bad);
        Some(code.map(|code| Game { spec: spec.to_string(), move_rule: MoveRule::Octal(code) }))
    }

    /// The octal game of `code` (`0.77` is Kayles), named `octal:CODE`.
    ///
    /// # Errors
    /// [`Error::BadOctalCode`] naming the bad digit or the missing part.
    pub fn octal(code: &str) -> Result<Game> {
        Game::parse(&format!("octal:{code}"))
    }

    /// Grundy's game, named `grundys-game`.
    pub fn grundys_game() -> Game {
        Game { spec: "grundys-game".to_string(), move_rule: MoveRule::GrundysGame }
    }

    /// The removal sets of a take-and-break description: subtraction games (every member
    /// may be taken, leaving zero or one heap), octal games and Grundy's game. `None` for
    /// Nim (no finite set) and move graphs (not translation-invariant).
    pub fn heap_rule(&self) -> Option<HeapRule> {
        match &self.move_rule {
            MoveRule::Subtract(set) => Some(HeapRule {
                vanish: set.clone(),
                shrink: set.clone(),
                split: Vec::new(),
                unequal_split: false,
            }),
            MoveRule::Octal(code) => Some(code.heap_rule()),
            MoveRule::GrundysGame => Some(HeapRule::grundys_game()),
            MoveRule::Nim | MoveRule::Graph(_) => None,
        }
    }

    /// Whether some move splits a heap in two. Such a game is played on multisets of heaps
    /// of a bounded total; a space of a fixed number of heaps does not hold its moves.
    pub fn splits(&self) -> bool {
        self.heap_rule().is_some_and(|rule| rule.splits())
    }

    /// Every option of a heap of size `h` as a pair `(a, b)`, `a >= b >= 0`, where 0 is no
    /// heap: `(a, 0)` one heap remains (`(0, 0)`: none), `(a, b)` with `b >= 1` two remain.
    /// Ascending, without repeats.
    pub fn heap_options(&self, h: u32) -> Vec<(u32, u32)> {
        match self.heap_rule() {
            Some(rule) => rule.options(h),
            None => self.options(h).into_iter().map(|to| (to, 0)).collect(),
        }
    }

    /// The specification as given (`nim`, `subtract:1,3,4`, `graph:data/graphs/x.csv`).
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// How a heap may move.
    pub fn move_rule(&self) -> &MoveRule {
        &self.move_rule
    }

    /// The sizes a heap of size `h` may move to, ascending. A game that [`Game::splits`]
    /// lists only its moves that leave at most one heap here (see [`Game::heap_options`]).
    pub fn options(&self, h: u32) -> Vec<u32> {
        match &self.move_rule {
            MoveRule::Nim => (0..h).collect(),
            MoveRule::Subtract(set) => {
                let mut out: Vec<u32> = set.iter().filter(|&&s| s <= h).map(|&s| h - s).collect();
                out.reverse();
                out
            }
            MoveRule::Graph(moves) => moves.get(h as usize).cloned().unwrap_or_default(),
            MoveRule::Octal(_) | MoveRule::GrundysGame => {
                let options = self.heap_options(h).into_iter();
                options.filter(|&(_, b)| b == 0).map(|(a, _)| a).collect()
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
            MoveRule::Octal(code) => {
                let rule = code.heap_rule();
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
            MoveRule::Octal(_) | MoveRule::GrundysGame => {
                self.heap_rule().is_some_and(|rule| rule.has_moves(h))
            }
        }
    }

    /// Grundy values `g(0..=max)` by the mex rule.
    ///
    /// For Nim the mex of `{0, …, h-1}` is `h`; it is returned directly, because listing
    /// Nim's options would cost `O(max^2)`. Take-and-break games (whose option values are
    /// XORs of two heaps' values) go through the rare/common engine of `engine/grundy`.
    pub fn grundy(&self, max: u32) -> Vec<u32> {
        if self.move_rule == MoveRule::Nim {
            return (0..=max).collect();
        }
        if let (MoveRule::Octal(_) | MoveRule::GrundysGame, Some(rule)) =
            (&self.move_rule, self.heap_rule())
        {
            return crate::engine::grundy::sequence(&rule, max);
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
