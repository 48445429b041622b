//! The criteria as row masks: for a whole row at once, the columns each criterion calls P.
//!
//! Within a row only the last heap varies, so a criterion's prediction is "the last heap
//! has value v" for one v computed from a summary of the prefix; the columns of each
//! value are precomputed masks. A test pins every mask to the per-position definitions.

use crate::analysis::criteria::Criterion;

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

    /// The columns whose value is `v`: a dense mask as is, or `scratch` filled in.
    fn columns<'a>(&'a self, v: u32, zero: &'a [u64], scratch: &'a mut [u64]) -> &'a [u64] {
        match self {
            ColumnsByValue::Dense(masks) => masks.get(v as usize).map_or(zero, |m| &m[..]),
            ColumnsByValue::Sparse(lists) => {
                scratch.fill(0);
                for &h in lists.get(v as usize).map_or(&[][..], |l| &l[..]) {
                    scratch[h as usize / 64] |= 1 << (h % 64);
                }
                scratch
            }
        }
    }
}

/// What the criteria need to know of a row's prefix: XORs and whether a value exceeds 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefixSummary {
    size_xor: u32,
    size_big: bool,
    grundy_xor: u32,
    grundy_big: bool,
}

/// Predicts, for a whole row, the set of P-columns under each criterion.
#[derive(Clone, Debug)]
pub struct RowPredictor {
    grundy: Vec<u32>,
    by_grundy: ColumnsByValue,
    by_size: ColumnsByValue,
    /// A row of zero words, for values no column has.
    zero: Vec<u64>,
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
            zero: vec![0; words],
        }
    }

    /// Summarises a row's prefix once for every criterion.
    pub fn summary(&self, prefix: &[u32]) -> PrefixSummary {
        let mut summary =
            PrefixSummary { size_xor: 0, size_big: false, grundy_xor: 0, grundy_big: false };
        for &h in prefix {
            let g = self.grundy[h as usize];
            summary.size_xor ^= h;
            summary.size_big |= h > 1;
            summary.grundy_xor ^= g;
            summary.grundy_big |= g > 1;
        }
        summary
    }

    /// The columns `criterion` predicts P in a row with this prefix summary. `scratch`
    /// (one row of words) is used only when the masks are not stored densely.
    pub fn predicted<'a>(
        &'a self,
        criterion: Criterion,
        summary: PrefixSummary,
        scratch: &'a mut [u64],
    ) -> &'a [u64] {
        let zero = &self.zero[..];
        match criterion {
            // X = 0 iff g(last) equals the prefix's XOR.
            Criterion::Xor => self.by_grundy.columns(summary.grundy_xor, zero, scratch),
            Criterion::AntiNim => {
                let v = misere_rule_value(summary.size_xor, summary.size_big);
                self.by_size.columns(v, zero, scratch)
            }
            Criterion::Sj => {
                let v = misere_rule_value(summary.grundy_xor, summary.grundy_big);
                self.by_grundy.columns(v, zero, scratch)
            }
        }
    }

    /// Writes into `out` the columns `criterion` predicts P in the row.
    #[cfg(test)]
    pub fn predict(&self, criterion: Criterion, prefix: &[u32], out: &mut [u64]) {
        let mut scratch = vec![0u64; out.len()];
        let mask = self.predicted(criterion, self.summary(prefix), &mut scratch);
        out.copy_from_slice(mask);
    }
}

/// The last value that makes a position P under the misère-style rule (Anti-Nim on sizes,
/// SJ on Grundy values): P iff (some value > 1 and XOR = 0) or (every value <= 1 and
/// XOR != 0). If the prefix already has a value > 1, P iff the last value equals the
/// prefix XOR. Otherwise the prefix XOR x is 0 or 1: a last value <= 1 gives P iff the
/// XOR is not 0, i.e. last = 1 - x; a last value > 1 would need last = x <= 1, impossible.
fn misere_rule_value(prefix_xor: u32, prefix_big: bool) -> u32 {
    if prefix_big {
        prefix_xor
    } else {
        1 - prefix_xor
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;

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
    fn sparse_and_dense_columns_agree() {
        let values: Vec<u32> = (0..300).map(|h| h % 7).collect();
        let dense = ColumnsByValue::new(&values, 5);
        let sparse =
            ColumnsByValue::Sparse((0..7).map(|v| (v..300).step_by(7).collect()).collect());
        for v in 0..8 {
            let zero = vec![0u64; 5];
            let (mut a, mut b) = (vec![0u64; 5], vec![0u64; 5]);
            let dense_columns = dense.columns(v, &zero, &mut a).to_vec();
            assert_eq!(dense_columns, sparse.columns(v, &zero, &mut b));
        }
    }
}
