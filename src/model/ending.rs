//! Endings: normal play, misère play and the SJ ending, and which positions they force.

use crate::model::error::{ModelError, Result};
use crate::model::game::Game;

/// How the game ends; only positions the ending forces as terminal differ between endings.
///
/// Called a "rule" on the command line (`--rules normal,misere,sj`) and in CSV headers;
/// the library says *ending* so that it is never confused with a game's move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    /// The player who cannot move loses: a position with no move is P.
    Normal,
    /// The player who cannot move wins: a position with no move is N.
    Misere,
    /// A position where every heap has Grundy value 0 is terminal and N.
    Sj,
}

impl Ending {
    /// All endings, in column order.
    pub const ALL: [Ending; 3] = [Ending::Normal, Ending::Misere, Ending::Sj];

    /// The name used on the command line and in CSV headers.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Normal => "normal",
            Ending::Misere => "misere",
            Ending::Sj => "sj",
        }
    }

    /// Parses one name (`misère` is accepted for `misere`).
    ///
    /// # Errors
    /// [`ModelError::UnknownEnding`] naming the text.
    pub fn parse(name: &str) -> Result<Ending> {
        match name.trim() {
            "normal" => Ok(Ending::Normal),
            "misere" | "misère" => Ok(Ending::Misere),
            "sj" => Ok(Ending::Sj),
            other => Err(ModelError::UnknownEnding(other.to_string())),
        }
    }

    /// The endings a game is labelled under by default: all three for a sum of heaps;
    /// normal and misère play otherwise (the SJ ending needs heap Grundy values).
    pub fn defaults(game: &Game) -> Vec<Ending> {
        if game.is_sum() {
            Ending::ALL.to_vec()
        } else {
            vec![Ending::Normal, Ending::Misere]
        }
    }

    /// Parses a comma list; the result is deduplicated and in column order.
    ///
    /// # Errors
    /// [`ModelError::UnknownEnding`] naming the first bad item.
    pub fn parse_list(list: &str) -> Result<Vec<Ending>> {
        crate::model::parse_list(list, Ending::parse)
    }

    /// `terminal[h]`: a position whose heaps all have such sizes is forced N by this ending.
    ///
    /// Normal play forces nothing (a position without moves is P by the definition).
    /// Misère forces the positions without moves; SJ those whose Grundy values are all 0.
    /// Grundy values are used here only to find the SJ ending's terminal positions.
    pub fn terminal_sizes(self, game: &Game, max: u32) -> Vec<bool> {
        match self {
            Ending::Normal => vec![false; max as usize + 1],
            Ending::Misere => (0..=max).map(|h| !game.has_moves(h)).collect(),
            Ending::Sj => game.grundy(max).iter().map(|&g| g == 0).collect(),
        }
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ending_list_is_deduplicated_in_column_order() {
        assert_eq!(Ending::parse_list("sj,normal,sj").unwrap(), vec![Ending::Normal, Ending::Sj]);
        assert!(Ending::parse_list("normal,foo").unwrap_err().to_string().contains("'foo'"));
    }

    #[test]
    fn sj_and_misere_force_the_same_sizes_in_nim() {
        let nim = Game::nim();
        assert_eq!(Ending::Sj.terminal_sizes(&nim, 4), Ending::Misere.terminal_sizes(&nim, 4));
    }
}
