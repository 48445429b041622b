//! Take-and-break games as `Game`s: octal codes, Grundy's game, and their heap rules.

use crate::model::error::{ModelError, Result};
use crate::model::game::{Game, MoveRule};
use crate::model::hex::{HexCode, ParsedHex};
use crate::model::octal::{HeapRule, OctalCode};
use crate::sequence::ThreeHeapRule;

impl Game {
    /// `octal:CODE`, `hex:CODE` or `grundys-game`, if `spec` names one.
    pub(crate) fn parse_take_break(spec: &str) -> Option<Result<Game>> {
        if spec == "grundys-game" {
            return Some(Ok(Game::grundys_game()));
        }
        // A code is written without spaces: one inside would be kept in the game's name.
        let spaced = "a code has no spaces".to_string();
        if let Some(code) = spec.strip_prefix("hex:") {
            if code.contains(char::is_whitespace) {
                return Some(Err(ModelError::BadHexCode {
                    spec: spec.to_string(),
                    reason: spaced,
                }));
            }
            return Some(Game::parse_hex(spec, code));
        }
        let code = spec.strip_prefix("octal:")?;
        let bad = |reason| ModelError::BadOctalCode { spec: spec.to_string(), reason };
        if code.contains(char::is_whitespace) {
            return Some(Err(bad(spaced)));
        }
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

    /// A `hex:` game, named `hex:` and the code as given in upper case. A code whose
    /// digits are all at most 7 is the octal game of those digits (equal
    /// [`Game::identity`]), under its `hex:` name.
    fn parse_hex(spec: &str, code: &str) -> Result<Game> {
        let bad = |reason| ModelError::BadHexCode { spec: spec.to_string(), reason };
        let named = format!("hex:{}", code.to_ascii_uppercase());
        Ok(match HexCode::parse(code).map_err(bad)? {
            ParsedHex::Octal(code) => Game::sum(&named, MoveRule::Octal(code)),
            ParsedHex::Hex(code) => Game::sum(&named, MoveRule::Hex(code)),
        })
    }

    /// The game of the hexadecimal code `code` (`0.3F`), named `hex:CODE`.
    ///
    /// # Errors
    /// [`ModelError::BadHexCode`] naming the bad digit or the missing part.
    pub fn hex(code: &str) -> Result<Game> {
        Game::parse(&format!("hex:{code}"))
    }

    /// Grundy's game, named `grundys-game`.
    pub fn grundys_game() -> Game {
        Game::sum("grundys-game", MoveRule::GrundysGame)
    }

    /// The removal sets of a take-and-break description whose moves leave at most two
    /// heaps: subtraction games (every member may be taken, leaving zero or one heap),
    /// octal games and Grundy's game. `None` for Nim (no finite set), move graphs (not
    /// translation-invariant) and hexadecimal codes with three-heap moves (see
    /// [`Game::three_heap_rule`]; code that reads a `HeapRule` understands pairs only).
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
            MoveRule::Nim | MoveRule::Graph(_) | MoveRule::Hex(_) => None,
        }
    }

    /// The rule of a hexadecimal code with three-heap moves; `None` for every other game.
    pub fn three_heap_rule(&self) -> Option<ThreeHeapRule> {
        match self.move_rule() {
            MoveRule::Hex(code) => Some(code.rule()),
            _ => None,
        }
    }

    /// Every take-and-break rule as one with up to three parts (no three-heap moves but
    /// a hexadecimal code's): `None` for Nim and move graphs.
    pub fn take_break_rule(&self) -> Option<ThreeHeapRule> {
        let pairs = |pairs| ThreeHeapRule { pairs, split_three: Vec::new() };
        self.three_heap_rule().or_else(|| self.heap_rule().map(pairs))
    }

    /// How a game that [`Game::splits`] splits a heap, for messages: `in three` when some
    /// move leaves three heaps, else `in two`.
    pub fn split_parts(&self) -> &'static str {
        if self.splits_in_three() {
            "in three"
        } else {
            "in two"
        }
    }

    /// Whether some move leaves three heaps (a hexadecimal code with a digit of bit 8).
    pub fn splits_in_three(&self) -> bool {
        self.three_heap_rule().is_some()
    }

    /// Whether some move splits a heap in two or three. Such a game is played on
    /// multisets of heaps of a bounded total; a space of a fixed number of heaps does not
    /// hold its moves.
    pub fn splits(&self) -> bool {
        self.splits_in_three() || self.heap_rule().is_some_and(|rule| rule.splits())
    }

    /// Every option of a heap of size `h` as `[a, b, c]`, `a >= b >= c >= 0`, where 0 is
    /// no heap: `[a, 0, 0]` one heap remains (`[0, 0, 0]`: none), `[a, b, 0]` with `b >= 1`
    /// two remain, `[a, b, c]` with `c >= 1` three. Ascending, without repeats.
    pub fn heap_options(&self, h: u32) -> Vec<[u32; 3]> {
        match self.take_break_rule() {
            Some(rule) => rule.options(h),
            None => self.options(h).into_iter().map(|to| [to, 0, 0]).collect(),
        }
    }
}
