//! Contest judges (Luogu P2197, SHOI2008): their input format, limits and answers.
//!
//! A contest input may hold 10^4 heaps of up to 10^4 stones, far beyond any table, so a
//! judge answers with the closed-form criterion of its ending (Bouton's XOR rule for
//! normal play, the anti-Nim rule for misère). Before answering, [`Judge::new`] checks that
//! criterion against the DP labels of every position of [`CHECKED_HEAPS`] heaps of at most
//! [`CHECKED_MAX`] stones, and refuses to judge if they disagree anywhere.

use crate::analysis::criteria::{misere_rule_predicts_n, xor};
use crate::engine::Engine;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::position::{parse_size, Spaced};
use crate::model::space::Space;
use crate::{Error, Result};

/// Heap counts on which the criterion is checked against the DP before judging.
pub const CHECKED_HEAPS: std::ops::RangeInclusive<usize> = 1..=4;
/// The largest heap of the positions checked against the DP before judging.
pub const CHECKED_MAX: u32 = 15;

/// A contest problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contest {
    /// Luogu P2197 "Nim game": normal play, answers `Yes` / `No`.
    P2197,
    /// SHOI2008 "little John's game" (Luogu P4279, BZOJ 1022, POJ 3480): misère,
    /// answers `John` / `Brother`.
    Shoi2008,
}

/// The limits a contest states for its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most test cases in one input.
    pub cases: usize,
    /// Most heaps in one case.
    pub heaps: usize,
    /// Largest heap.
    pub max_heap: u32,
}

impl Contest {
    /// Parses `p2197` or `shoi2008`.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming an unknown format.
    pub fn parse(name: &str) -> Result<Contest> {
        match name.trim().to_ascii_lowercase().as_str() {
            "p2197" => Ok(Contest::P2197),
            "shoi2008" => Ok(Contest::Shoi2008),
            other => Err(Error::Invalid(format!(
                "unknown contest format '{other}': expected p2197 or shoi2008"
            ))),
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Contest::P2197 => "p2197",
            Contest::Shoi2008 => "shoi2008",
        }
    }

    /// The ending of the problem.
    pub fn ending(self) -> Ending {
        match self {
            Contest::P2197 => Ending::Normal,
            Contest::Shoi2008 => Ending::Misere,
        }
    }

    /// The answer line when the first player does (or does not) win.
    pub fn answer(self, first_player_wins: bool) -> &'static str {
        match (self, first_player_wins) {
            (Contest::P2197, true) => "Yes",
            (Contest::P2197, false) => "No",
            (Contest::Shoi2008, true) => "John",
            (Contest::Shoi2008, false) => "Brother",
        }
    }

    /// The problem's stated limits: P2197 T <= 10, n <= 10^4, heaps < 10^4;
    /// SHOI2008 T <= 500, N <= 50, heaps <= 5000.
    pub fn limits(self) -> Limits {
        match self {
            Contest::P2197 => Limits { cases: 10, heaps: 10_000, max_heap: 9_999 },
            Contest::Shoi2008 => Limits { cases: 500, heaps: 50, max_heap: 5_000 },
        }
    }

    /// The most bytes an input within the stated limits needs: 1 + T (1 + n) numbers of at
    /// most 5 digits, each with a 2-byte separator (CRLF), doubled for stray whitespace and
    /// leading zeros. A longer input breaks the limits; refusing it bounds the memory an
    /// endless stdin can take.
    pub fn max_input_bytes(self) -> u64 {
        let limits = self.limits();
        let numbers = 1 + limits.cases as u64 * (1 + limits.heaps as u64);
        numbers * (5 + 2) * 2
    }

    /// The closed-form criterion, the library's own (XOR, or Anti-Nim for misère):
    /// whether the first player wins.
    fn first_player_wins(self, heaps: &[u32]) -> bool {
        match self.ending() {
            Ending::Normal => xor(heaps) != 0,
            _ => misere_rule_predicts_n(heaps),
        }
    }

    /// Writes one contest input holding `cases`: T, then per case its size and its heaps.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn write_input<W: std::io::Write + ?Sized>(
        self,
        out: &mut W,
        cases: &[Vec<u32>],
    ) -> std::io::Result<()> {
        writeln!(out, "{}", cases.len())?;
        for heaps in cases {
            writeln!(out, "{}\n{}", heaps.len(), Spaced(heaps))?;
        }
        Ok(())
    }
}

/// A judge whose criterion has been checked against the DP labels.
#[derive(Debug)]
pub struct Judge {
    contest: Contest,
}

impl Judge {
    /// Checks the contest's criterion against the DP on the checked spaces; refuses if
    /// they disagree on any position.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the first position where they disagree.
    pub fn new(contest: Contest) -> Result<Judge> {
        let nim = Game::nim();
        for heaps in CHECKED_HEAPS {
            let space = Space::new(heaps, CHECKED_MAX)?;
            let labels = Engine::new(&nim, space).label(contest.ending())?;
            let wrong =
                labels.iter().find(|(position, is_p)| contest.first_player_wins(position) == *is_p);
            if let Some((position, _)) = wrong {
                return Err(Error::Invalid(format!(
                    "the {} criterion disagrees with the DP at {position:?}",
                    contest.ending()
                )));
            }
        }
        Ok(Judge { contest })
    }

    /// The contest judged.
    pub fn contest(&self) -> Contest {
        self.contest
    }

    /// The answer line for one case.
    pub fn answer(&self, heaps: &[u32]) -> &'static str {
        self.contest.answer(self.contest.first_player_wins(heaps))
    }
}

/// Reads a contest input: `T`, then `T` cases of a count `n` and `n` heap sizes, all
/// separated by any whitespace. Refuses missing numbers, non-numeric or negative values
/// and anything after the last case, naming the bad token.
///
/// # Errors
/// [`Error::Invalid`] naming the bad or missing token and its case.
pub fn parse_input(text: &str) -> Result<Vec<Vec<u32>>> {
    let mut tokens = text.split_whitespace();
    let cases = read_count(&mut tokens, "the number of cases T")?;
    let mut out = Vec::with_capacity(cases.min(1 << 16));
    for case in 1..=cases {
        let n = read_count(&mut tokens, &format!("case {case}: the number of heaps"))?;
        let mut heaps = Vec::with_capacity(n.min(1 << 20));
        for i in 1..=n {
            let what = format!("case {case}: heap {i} of {n}");
            let token = tokens.next().ok_or_else(|| missing(&what))?;
            heaps.push(parse_number(token, &what)?);
        }
        out.push(heaps);
    }
    if let Some(extra) = tokens.next() {
        return Err(Error::Invalid(format!(
            "trailing input '{extra}' after the last of {cases} cases"
        )));
    }
    Ok(out)
}

fn missing(what: &str) -> Error {
    Error::Invalid(format!("input ends early: {what} is missing"))
}

fn read_count<'a>(tokens: &mut impl Iterator<Item = &'a str>, what: &str) -> Result<usize> {
    let token = tokens.next().ok_or_else(|| missing(what))?;
    Ok(parse_number(token, what)? as usize)
}

fn parse_number(raw: &str, what: &str) -> Result<u32> {
    // Quoted in a one-line message: at most 40 characters, control bytes escaped.
    let shown: String = raw.chars().take(40).flat_map(char::escape_debug).collect();
    parse_size(raw).map_err(|reason| Error::Invalid(format!("{what} is '{shown}', {reason}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_name_the_bad_token() {
        let short = parse_input("1\n3\n1 2\n").unwrap_err().to_string();
        assert_eq!(short, "input ends early: case 1: heap 3 of 3 is missing");
        let negative = parse_input("1\n2\n1 -4\n").unwrap_err().to_string();
        assert_eq!(negative, "case 1: heap 2 of 2 is '-4', a negative number");
        let trailing = parse_input("1\n1\n1\nxyz\n").unwrap_err().to_string();
        assert_eq!(trailing, "trailing input 'xyz' after the last of 1 cases");
    }
}
