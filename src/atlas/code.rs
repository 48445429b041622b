//! A code of the atlas: an octal code, or a hexadecimal code with moves that leave three heaps.

use std::fmt;

use crate::model::game::{Game, MoveRule};
use crate::model::grundy_sequence::MAX_THREE_HEAP_SEQUENCE;
use crate::model::hex::{HexCode, ParsedHex};
use crate::model::octal::OctalCode;
use crate::sequence::{values_in_memory, ThreeHeapRule};

/// One code of the atlas. An octal code is written as the tables write it (`0.161`); a
/// hexadecimal code with a digit above 7 as `hex:0.3F`, so that no row's code can be read
/// as the other kind (`hex:0.77` is the octal code `0.77`, written so).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtlasCode {
    /// An octal code: moves that leave at most two heaps.
    Octal(OctalCode),
    /// A hexadecimal code with some digit of bit 8: moves that may leave three heaps.
    Hex(HexCode),
}

impl AtlasCode {
    /// Parses `0.161`, `octal:0.161` or `hex:0.3F` (a `hex:` code of digits up to 7 is
    /// the octal code of the same digits).
    ///
    /// # Errors
    /// The code parser's sentence naming the bad digit or the missing part.
    pub fn parse(text: &str) -> Result<AtlasCode, String> {
        let text = text.trim();
        match text.strip_prefix("hex:") {
            Some(hex) => Ok(match HexCode::parse(hex)? {
                ParsedHex::Octal(code) => AtlasCode::Octal(code),
                ParsedHex::Hex(code) => AtlasCode::Hex(code),
            }),
            None => {
                OctalCode::parse(text.strip_prefix("octal:").unwrap_or(text)).map(AtlasCode::Octal)
            }
        }
    }

    /// Whether the code has moves that leave three heaps.
    pub fn is_hex(&self) -> bool {
        matches!(self, AtlasCode::Hex(_))
    }

    /// The game: `octal:CODE` or `hex:CODE`, named as the parser names it.
    pub fn game(&self) -> Game {
        match self {
            AtlasCode::Octal(code) => {
                Game::sum(&format!("octal:{code}"), MoveRule::Octal(code.clone()))
            }
            AtlasCode::Hex(code) => Game::sum(&format!("hex:{code}"), MoveRule::Hex(code.clone())),
        }
    }

    /// Every move of the code, as a rule of up to three parts (none of three for an octal
    /// code).
    pub fn rule(&self) -> ThreeHeapRule {
        match self {
            AtlasCode::Octal(code) => {
                ThreeHeapRule { pairs: code.heap_rule(), split_three: Vec::new() }
            }
            AtlasCode::Hex(code) => code.rule(),
        }
    }

    /// `G(0..=max)`, in memory (for a hexadecimal code, at most
    /// [`MAX_THREE_HEAP_SEQUENCE`] heaps: past them, the values to there).
    pub fn values(&self, max: u64) -> Vec<u32> {
        match self {
            AtlasCode::Octal(code) => values_in_memory(&code.heap_rule(), max),
            AtlasCode::Hex(code) => {
                code.rule().values(max.min(u64::from(MAX_THREE_HEAP_SEQUENCE)) as u32)
            }
        }
    }
}

impl fmt::Display for AtlasCode {
    /// `0.161` for an octal code, `hex:0.3F` for a hexadecimal one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtlasCode::Octal(code) => write!(f, "{code}"),
            AtlasCode::Hex(code) => write!(f, "hex:{code}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_codes_say_so_and_hex_codes_of_octal_digits_are_octal_codes() {
        let text = |code: &str| AtlasCode::parse(code).unwrap().to_string();
        assert_eq!(text("hex:0.3f"), "hex:0.3F");
        assert_eq!(text("hex:0.770"), "0.77");
        assert_eq!(text("octal:0.161"), "0.161");
        assert!(AtlasCode::parse("hex:0.8").unwrap().is_hex());
        assert_eq!(
            AtlasCode::parse("hex:0.3G").unwrap_err(),
            "'G' (digit D2) is not a hexadecimal digit 0-F"
        );
        for code in ["hex:0.3F", "0.161", "4.0"] {
            let parsed = AtlasCode::parse(code).unwrap().game();
            let spec =
                if code.starts_with("hex:") { code.to_string() } else { format!("octal:{code}") };
            assert_eq!(parsed, Game::parse(&spec).unwrap());
        }
    }

    #[test]
    fn values_are_those_of_the_game() {
        for code in ["0.77", "hex:0.3F", "hex:8.0"] {
            let code = AtlasCode::parse(code).unwrap();
            assert_eq!(code.values(60), code.game().heap_values(60).unwrap(), "{code}");
        }
    }
}
