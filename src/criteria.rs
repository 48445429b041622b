//! Closed-form criteria (XOR, Anti-Nim, SJ): predictions of P/N computed without the DP.
//!
//! Each criterion is given twice: per position ([`Criterion::predicts_p`]), the plain
//! definition; and per row ([`RowPredictor`]), the same rule as word-wide masks over the
//! last heap. Tests pin the two to each other.

use crate::error::{Error, Result};
use crate::game::Game;

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
    pub fn parse(name: &str) -> Result<Criterion> {
        match name.trim() {
            "xor" => Ok(Criterion::Xor),
            "anti-nim" => Ok(Criterion::AntiNim),
            "sj" => Ok(Criterion::Sj),
            other => Err(Error::UnknownCriterion(other.to_string())),
        }
    }

    /// Parses a comma list; the result is deduplicated and in column order.
    pub fn parse_list(list: &str) -> Result<Vec<Criterion>> {
        let mut out = list.split(',').map(Criterion::parse).collect::<Result<Vec<_>>>()?;
        out.sort();
        out.dedup();
        Ok(out)
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

    /// Whether a zero-disagreement result is a theorem for this game and rule, so that a
    /// disagreement means a bug (`verify --strict`).
    pub fn is_theorem(self, game: &Game, rule: crate::rules::Rule) -> bool {
        use crate::rules::Rule;
        match (self, rule) {
            (Criterion::Xor, Rule::Normal) | (Criterion::Sj, Rule::Sj) => true,
            (Criterion::AntiNim, Rule::Misere) => matches!(game.rule(), crate::MoveRule::Nim),
            _ => false,
        }
    }
}

impl std::fmt::Display for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn xor(values: &[u32]) -> u32 {
    values.iter().fold(0, |x, &v| x ^ v)
}

/// The shared form of Anti-Nim (on sizes) and SJ (on Grundy values).
fn misere_rule_predicts_n(values: &[u32]) -> bool {
    let big = values.iter().any(|&v| v > 1);
    let x = xor(values);
    (big && x != 0) || (!big && x == 0)
}

/// For each value, the columns (last-heap sizes) having it, as masks or lists.
#[derive(Clone, Debug)]
enum ColumnsByValue {
    /// `masks[v]` is a row mask (whole words) of the columns with value `v`.
    Dense(Vec<Vec<u64>>),
    /// `lists[v]` lists the columns with value `v`; used when dense masks would be large.
    Sparse(Vec<Vec<u32>>),
}

/// Word budget for dense masks (8 MiB); beyond it, columns are listed instead.
const DENSE_WORDS: usize = 1 << 20;

impl ColumnsByValue {
    fn new(values: &[u32], words: usize) -> ColumnsByValue {
        let distinct = values.iter().copied().max().map_or(0, |m| m as usize + 1);
        if distinct.saturating_mul(words) <= DENSE_WORDS {
            let mut masks = vec![vec![0u64; words]; distinct];
            for (h, &v) in values.iter().enumerate() {
                masks[v as usize][h / 64] |= 1 << (h % 64);
            }
            ColumnsByValue::Dense(masks)
        } else {
            let mut lists = vec![Vec::new(); distinct];
            for (h, &v) in values.iter().enumerate() {
                lists[v as usize].push(h as u32);
            }
            ColumnsByValue::Sparse(lists)
        }
    }

    /// ORs into `out` the columns whose value is `v`.
    fn or_columns(&self, v: u32, out: &mut [u64]) {
        match self {
            ColumnsByValue::Dense(masks) => {
                if let Some(mask) = masks.get(v as usize) {
                    for (o, m) in out.iter_mut().zip(mask) {
                        *o |= m;
                    }
                }
            }
            ColumnsByValue::Sparse(lists) => {
                for &h in lists.get(v as usize).map_or(&[][..], |l| &l[..]) {
                    out[h as usize / 64] |= 1 << (h % 64);
                }
            }
        }
    }
}

/// Predicts, for a whole row, the set of P-columns under each criterion.
#[derive(Clone, Debug)]
pub struct RowPredictor {
    grundy: Vec<u32>,
    by_grundy: ColumnsByValue,
    by_size: ColumnsByValue,
}

impl RowPredictor {
    /// A predictor for rows of `max + 1` columns of the game with these Grundy values.
    pub fn new(grundy: &[u32]) -> RowPredictor {
        let words = grundy.len().div_ceil(64);
        let sizes: Vec<u32> = (0..grundy.len() as u32).collect();
        RowPredictor {
            grundy: grundy.to_vec(),
            by_grundy: ColumnsByValue::new(grundy, words),
            by_size: ColumnsByValue::new(&sizes, words),
        }
    }

    /// Writes into `out` (zeroed here) the columns `criterion` predicts P in the row.
    pub fn predict(&self, criterion: Criterion, prefix: &[u32], out: &mut [u64]) {
        out.fill(0);
        match criterion {
            Criterion::Xor => {
                let x = prefix.iter().fold(0, |x, &h| x ^ self.grundy[h as usize]);
                // X = 0 iff g(last) equals the prefix's XOR.
                self.by_grundy.or_columns(x, out);
            }
            Criterion::AntiNim => {
                self.predict_misere_rule(prefix.iter().copied(), &self.by_size, out);
            }
            Criterion::Sj => {
                let values = prefix.iter().map(|&h| self.grundy[h as usize]);
                self.predict_misere_rule(values, &self.by_grundy, out);
            }
        }
    }

    /// P iff (some value > 1 and XOR = 0) or (every value <= 1 and XOR != 0).
    fn predict_misere_rule(
        &self,
        prefix_values: impl Iterator<Item = u32>,
        columns: &ColumnsByValue,
        out: &mut [u64],
    ) {
        let (mut x, mut big) = (0u32, false);
        for v in prefix_values {
            x ^= v;
            big |= v > 1;
        }
        if big {
            // Some value is already > 1: P iff the last value makes the XOR 0.
            columns.or_columns(x, out);
        } else {
            // Prefix values are 0 or 1 (so x <= 1). A last value <= 1 gives P iff the
            // XOR is not 0, i.e. last = 1 - x; a last value > 1 would need last = x <= 1.
            columns.or_columns(1 - x, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_predictions_equal_per_position_definitions() {
        let games =
            [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap(), Game::subtract(&[2, 3, 5]).unwrap()];
        for game in &games {
            let max = 70;
            let grundy = game.grundy(max);
            let predictor = RowPredictor::new(&grundy);
            let mut out = vec![0u64; 2];
            for a in 0..=max {
                for b in [0, 1, 2, 3, 7, 40] {
                    for criterion in Criterion::ALL {
                        predictor.predict(criterion, &[a, b], &mut out);
                        for h in 0..=max {
                            let row_says = out[h as usize / 64] >> (h % 64) & 1 == 1;
                            let plain = criterion.predicts_p(&[a, b, h], &grundy);
                            assert_eq!(row_says, plain, "{} {criterion} {a} {b} {h}", game.spec());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn anti_nim_predicts_single_heap_of_one_is_p() {
        let grundy = Game::nim().grundy(3);
        assert!(Criterion::AntiNim.predicts_p(&[1], &grundy));
        assert!(!Criterion::AntiNim.predicts_p(&[0], &grundy));
        assert!(Criterion::AntiNim.predicts_p(&[1, 1, 1], &grundy));
        assert!(Criterion::AntiNim.predicts_p(&[2, 2], &grundy));
    }

    #[test]
    fn sparse_and_dense_columns_agree() {
        let values: Vec<u32> = (0..300).map(|h| h % 7).collect();
        let dense = ColumnsByValue::new(&values, 5);
        let sparse =
            ColumnsByValue::Sparse((0..7).map(|v| (v..300).step_by(7).collect()).collect());
        for v in 0..8 {
            let (mut a, mut b) = (vec![0u64; 5], vec![0u64; 5]);
            dense.or_columns(v, &mut a);
            sparse.or_columns(v, &mut b);
            assert_eq!(a, b);
        }
    }
}
