//! Closed-form criteria (XOR, Anti-Nim, SJ): predictions of P/N computed without the DP.
//!
//! Each criterion is given twice: here per position ([`Criterion::predicts_p`]), the plain
//! definition; and per row in `predictor.rs`, the same rule as word-wide masks over the
//! last heap. Tests pin the two to each other.

use crate::error::{Error, Result};
use crate::model::ending::Ending;
use crate::model::game::{Game, MoveRule};

/// A closed-form prediction of which positions are P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Criterion {
    /// Bouton / Sprague–Grundy: N iff the XOR of the Grundy values is not 0.
    Xor,
    /// Bouton's misère rule on heap sizes: N iff (some heap > 1 and XOR of sizes != 0)
    /// or (every heap <= 1 and XOR of sizes = 0).
    AntiNim,
    /// The SJ theorem on Grundy values: N iff (some g > 1 and XOR != 0) or (every g <= 1
    /// and XOR = 0).
    Sj,
}

impl Criterion {
    /// All criteria, in column order.
    pub const ALL: [Criterion; 3] = [Criterion::Xor, Criterion::AntiNim, Criterion::Sj];

    /// The criterion's name on the command line and in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Xor => "xor",
            Criterion::AntiNim => "anti-nim",
            Criterion::Sj => "sj",
        }
    }

    /// Parses one criterion name.
    ///
    /// # Errors
    /// [`Error::UnknownCriterion`] naming the text.
    pub fn parse(name: &str) -> Result<Criterion> {
        match name.trim() {
            "xor" => Ok(Criterion::Xor),
            "anti-nim" => Ok(Criterion::AntiNim),
            "sj" => Ok(Criterion::Sj),
            other => Err(Error::UnknownCriterion(other.to_string())),
        }
    }

    /// Parses a comma list; the result is deduplicated and in column order.
    ///
    /// # Errors
    /// [`Error::UnknownCriterion`] naming the first bad item.
    pub fn parse_list(list: &str) -> Result<Vec<Criterion>> {
        crate::model::parse_list(list, Criterion::parse)
    }

    /// Whether the criterion predicts P for the position, straight from its definition.
    /// `grundy[h]` is the Grundy value of a heap of size `h`.
    pub fn predicts_p(self, tuple: &[u32], grundy: &[u32]) -> bool {
        let g: Vec<u32> = tuple.iter().map(|&h| grundy[h as usize]).collect();
        let predicts_n = match self {
            Criterion::Xor => xor(&g) != 0,
            Criterion::AntiNim => misere_rule_predicts_n(tuple),
            Criterion::Sj => misere_rule_predicts_n(&g),
        };
        !predicts_n
    }

    /// Whether a zero-disagreement result is a theorem for this game and ending, so that a
    /// disagreement means a bug (`verify --strict`). The SJ theorem needs heaps that never
    /// split: splitting a heap of Grundy value 1 into two heaps of one value above 1 leads
    /// from a position the criterion calls P (values at most 1, XOR 1) to another it calls
    /// P (XOR 0, a value above 1), which its case analysis does not allow.
    pub fn is_theorem(self, game: &Game, ending: Ending) -> bool {
        match (self, ending) {
            (Criterion::Xor, Ending::Normal) => true,
            (Criterion::Sj, Ending::Sj) => !game.splits(),
            (Criterion::AntiNim, Ending::Misere) => matches!(game.move_rule(), MoveRule::Nim),
            _ => false,
        }
    }
}

impl std::fmt::Display for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The XOR of some values (heap sizes or Grundy values).
pub fn xor(values: &[u32]) -> u32 {
    values.iter().fold(0, |x, &v| x ^ v)
}

/// The shared form of Anti-Nim (on sizes) and SJ (on Grundy values): N iff (some value
/// > 1 and XOR != 0) or (every value <= 1 and XOR = 0).
pub fn misere_rule_predicts_n(values: &[u32]) -> bool {
    let big = values.iter().any(|&v| v > 1);
    let x = xor(values);
    (big && x != 0) || (!big && x == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anti_nim_predicts_single_heap_of_one_is_p() {
        let grundy = Game::nim().grundy(3);
        assert!(Criterion::AntiNim.predicts_p(&[1], &grundy));
        assert!(!Criterion::AntiNim.predicts_p(&[0], &grundy));
        assert!(Criterion::AntiNim.predicts_p(&[1, 1, 1], &grundy));
        assert!(Criterion::AntiNim.predicts_p(&[2, 2], &grundy));
    }
}
