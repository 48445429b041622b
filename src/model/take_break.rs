//! Take-and-break games as `Game`s: octal codes, Grundy's game, and their heap rules.

use crate::model::error::{ModelError, Result};
use crate::model::game::{Game, MoveRule};
use crate::model::octal::{HeapRule, OctalCode};

impl Game {
    /// `octal:CODE` or `grundys-game`, if `spec` names one.
    pub(crate) fn parse_take_break(spec: &str) -> Option<Result<Game>> {
        if spec == "grundys-game" {
            return Some(Ok(Game::grundys_game()));
        }
        let code = spec.strip_prefix("octal:")?;
        let bad = |reason| ModelError::BadOctalCode { spec: spec.to_string(), reason };
        let code = OctalCode::parse(code).map_err(bad);
        Some(code.map(|code| Game::sum(spec, MoveRule::Octal(code))))
    }

    /// The octal game of `code` (`0.77` is Kayles), named `octal:CODE`.
    ///
    /// # Errors
    /// [`ModelError::BadOctalCode`] naming the bad digit or the missing part.
    pub fn octal(code: &str) -> Result<Game> {
        Game::parse(&format!("octal:{code}"))
    }

    /// Grundy's game, named `grundys-game`.
    pub fn grundys_game() -> Game {
        Game::sum("grundys-game", MoveRule::GrundysGame)
    }

    /// The removal sets of a take-and-break description: subtraction games (every member
    /// may be taken, leaving zero or one heap), octal games and Grundy's game. `None` for
    /// Nim (no finite set) and move graphs (not translation-invariant).
    pub fn heap_rule(&self) -> Option<HeapRule> {
        match self.move_rule() {
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
}
