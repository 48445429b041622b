//! Ending rules: normal play, misère play and the SJ rule, and which positions they force.

use crate::error::{Error, Result};
use crate::game::Game;

/// How the game ends; only positions the rule forces as terminal differ between rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// The player who cannot move loses: a position with no move is P.
    Normal,
    /// The player who cannot move wins: a position with no move is N.
    Misere,
    /// A position where every heap has Grundy value 0 is terminal and N.
    Sj,
}

impl Rule {
    /// All rules, in column order.
    pub const ALL: [Rule; 3] = [Rule::Normal, Rule::Misere, Rule::Sj];

    /// The rule's name as used on the command line and in CSV headers.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Normal => "normal",
            Rule::Misere => "misere",
            Rule::Sj => "sj",
        }
    }

    /// Parses one rule name.
    pub fn parse(name: &str) -> Result<Rule> {
        match name.trim() {
            "normal" => Ok(Rule::Normal),
            "misere" | "misère" => Ok(Rule::Misere),
            "sj" => Ok(Rule::Sj),
            other => Err(Error::UnknownRule(other.to_string())),
        }
    }

    /// Parses a comma list; the result is deduplicated and in column order.
    pub fn parse_list(list: &str) -> Result<Vec<Rule>> {
        let mut rules = Vec::new();
        for item in list.split(',') {
            rules.push(Rule::parse(item)?);
        }
        rules.sort();
        rules.dedup();
        Ok(rules)
    }

    /// `terminal[h]`: a position whose heaps all have such sizes is forced N by this rule.
    ///
    /// Normal play forces nothing (a position without moves is P by the definition).
    /// Misère forces the positions without moves; SJ those whose Grundy values are all 0.
    /// Grundy values are used here only to find the SJ rule's terminal positions.
    pub fn terminal_sizes(self, game: &Game, max: u32) -> Vec<bool> {
        match self {
            Rule::Normal => vec![false; max as usize + 1],
            Rule::Misere => (0..=max).map(|h| !game.has_moves(h)).collect(),
            Rule::Sj => game.grundy(max).iter().map(|&g| g == 0).collect(),
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_list_is_deduplicated_in_column_order() {
        assert_eq!(Rule::parse_list("sj,normal,sj").unwrap(), vec![Rule::Normal, Rule::Sj]);
        assert!(Rule::parse_list("normal,foo").unwrap_err().to_string().contains("'foo'"));
    }

    #[test]
    fn sj_and_misere_force_the_same_sizes_in_nim() {
        let nim = Game::nim();
        assert_eq!(Rule::Sj.terminal_sizes(&nim, 4), Rule::Misere.terminal_sizes(&nim, 4));
    }
}
