//! The criteria as row masks: for a whole row at once, the columns each criterion calls P.
//!
//! Within a row only the last heap varies, so a criterion's prediction is "the last heap
//! has value v" for one v computed from a summary of the prefix; the columns of each
//! value are precomputed masks. A test pins every mask to the per-position definitions.
//!
//! Some criteria predict the same columns for a game (for Nim, Moore's K = 1 is XOR and
//! SJ is Anti-Nim); each criterion has a [`Formula`], and the predictor maps criteria that
//! coincide on its game to one formula, so a row's mask is built and compared once.

use crate::analysis::columns::ColumnsByValue;
use crate::analysis::criteria::{moore_k, wythoff_partners, Criterion};
use crate::model::game::Game;

/// What the criteria need to know of a row's prefix: XORs, whether a value exceeds 1,
/// the count of 1-heaps, Moore's last heap, the first heap (Wythoff's 2 heaps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefixSummary {
    size_xor: u32,
    size_big: bool,
    grundy_xor: u32,
    grundy_big: bool,
    ones: u64,
    /// The one last heap that makes every binary column a multiple of K + 1, if any.
    moore_last: Option<u64>,
    /// The prefix's only heap, if it has exactly one.
    single: Option<u32>,
}

/// The values a formula reads off the heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// The heap sizes.
    Sizes,
    /// The heaps' Grundy values.
    Grundy,
}

/// How a row mask is worked out; criteria with equal formulas predict equal masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formula {
    /// P iff the values XOR to 0.
    Xor(Values),
    /// The misère formula (Anti-Nim on sizes, SJ on Grundy values).
    Misere(Values),
    /// Moore's binary columns, under normal play or in the misère form.
    Moore { misere: bool },
    /// Wythoff's pairs, under normal play or misère.
    Wythoff { misere: bool },
}

impl Formula {
    /// The formula as the criterion's definition states it, whatever the game.
    ///
    /// # Panics
    /// For [`Criterion::Quotient`], which has no row formula (see [`Criterion::predicts_p`]).
    pub fn of(criterion: Criterion) -> Formula {
        match criterion {
            Criterion::Xor => Formula::Xor(Values::Grundy),
            Criterion::AntiNim => Formula::Misere(Values::Sizes),
            Criterion::Sj => Formula::Misere(Values::Grundy),
            Criterion::Moore => Formula::Moore { misere: false },
            Criterion::MooreMisere => Formula::Moore { misere: true },
            Criterion::Wythoff => Formula::Wythoff { misere: false },
            Criterion::WythoffMisere => Formula::Wythoff { misere: true },
            Criterion::Quotient => panic!("the quotient criterion has no row formula"),
        }
    }
}

/// Predicts, for a whole row, the set of P-columns under each criterion.
#[derive(Clone, Debug)]
pub struct RowPredictor {
    grundy: Vec<u32>,
    by_grundy: ColumnsByValue,
    by_size: ColumnsByValue,
    /// A row of zero words, for values no column has.
    zero: Vec<u64>,
    /// Moore's K (1 for games it does not apply to: unused then).
    moore_k: u32,
    /// Whether every heap's Grundy value is its size (Nim): formulas on Grundy values are
    /// then formulas on sizes.
    grundy_is_size: bool,
    /// Whether a Moore formula is compared (its last heap is worked out per row only then).
    wants_moore: bool,
    /// Whether a formula on Grundy values is compared (they are summed per row only then).
    wants_grundy: bool,
    /// Wythoff's partner of each size under normal and misère play, or `u32::MAX` if none.
    wythoff: [Vec<u32>; 2],
}

impl RowPredictor {
    /// At least the bytes of a predictor for rows of `max + 1` columns: the Grundy values
    /// and sizes, their columns by value (each value at most `max`), Wythoff's partners.
    pub(crate) fn bytes(max: u32) -> u64 {
        let sizes = u64::from(max) + 1;
        let words = sizes.div_ceil(64);
        2 * ColumnsByValue::bytes(sizes, words) + sizes * 16 + words * 8
    }

    /// A predictor for rows of `max + 1` columns of `game`.
    pub fn new(game: &Game, max: u32) -> RowPredictor {
        let grundy = game.grundy(max);
        let words = grundy.len().div_ceil(64);
        let sizes: Vec<u32> = (0..grundy.len() as u32).collect();
        RowPredictor {
            by_grundy: ColumnsByValue::new(&grundy, words),
            by_size: ColumnsByValue::new(&sizes, words),
            grundy_is_size: grundy == sizes,
            grundy,
            zero: vec![0; words],
            moore_k: moore_k(game).unwrap_or(1),
            wants_moore: false,
            wants_grundy: true,
            wythoff: wythoff_partners(max),
        }
    }

    /// The formula this predictor computes `criterion`'s masks by: its own formula, or a
    /// simpler one that predicts the same columns for this game. Moore's columns for
    /// K = 1 are binary digits summing to even counts, i.e. a XOR of 0 (and its misère
    /// form, "every heap at most 1: an odd count of 1-heaps", is Anti-Nim's); when every
    /// Grundy value is the heap's size, a formula on Grundy values is the formula on sizes.
    pub fn shared_formula(&self, criterion: Criterion) -> Formula {
        let values = |v| if self.grundy_is_size { Values::Sizes } else { v };
        match Formula::of(criterion) {
            Formula::Xor(v) => Formula::Xor(values(v)),
            Formula::Misere(v) => Formula::Misere(values(v)),
            Formula::Moore { misere: false } if self.moore_k == 1 => Formula::Xor(Values::Sizes),
            Formula::Moore { misere: true } if self.moore_k == 1 => Formula::Misere(Values::Sizes),
            formula => formula,
        }
    }

    /// The predictor for rows compared by `formulas`: prefix summaries hold what those formulas
    /// read and nothing else.
    pub fn for_formulas(mut self, formulas: &[Formula]) -> RowPredictor {
        self.wants_moore = formulas.iter().any(|f| matches!(f, Formula::Moore { .. }));
        self.wants_grundy = formulas
            .iter()
            .any(|f| matches!(f, Formula::Xor(v) | Formula::Misere(v) if *v == Values::Grundy));
        self
    }

    /// Summarises a row's prefix once for every formula.
    #[inline]
    pub fn summary(&self, prefix: &[u32]) -> PrefixSummary {
        let mut summary = PrefixSummary {
            size_xor: 0,
            size_big: false,
            grundy_xor: 0,
            grundy_big: false,
            ones: 0,
            moore_last: if self.wants_moore { moore_last(prefix, self.moore_k) } else { None },
            single: (prefix.len() == 1).then(|| prefix[0]),
        };
        for &h in prefix {
            summary.size_xor ^= h;
            summary.size_big |= h > 1;
            summary.ones += u64::from(h == 1);
        }
        if self.wants_grundy {
            for &h in prefix {
                let g = self.grundy[h as usize];
                summary.grundy_xor ^= g;
                summary.grundy_big |= g > 1;
            }
        }
        summary
    }

    /// The summary of a prefix `outer` followed by heap `h`, from the summary of `outer`
    /// (`outer_len` heaps): what [`RowPredictor::summary`] of the longer prefix gives,
    /// without going over `outer` again. `None` when a Moore formula is compared: its last
    /// heap needs the whole prefix.
    #[inline]
    pub fn summary_plus(
        &self,
        outer: PrefixSummary,
        outer_len: usize,
        h: u32,
    ) -> Option<PrefixSummary> {
        if self.wants_moore {
            return None;
        }
        let mut summary = outer;
        summary.size_xor ^= h;
        summary.size_big |= h > 1;
        summary.ones += u64::from(h == 1);
        if self.wants_grundy {
            let g = self.grundy[h as usize];
            summary.grundy_xor ^= g;
            summary.grundy_big |= g > 1;
        }
        summary.single = (outer_len == 0).then_some(h);
        Some(summary)
    }

    /// The columns `formula` predicts P in a row with this prefix summary; never a column
    /// beyond the row's last. `scratch` (one row of words) is used for the formulas of a few
    /// columns and when the masks are not stored densely.
    #[inline]
    pub fn predicted<'a>(
        &'a self,
        formula: Formula,
        summary: PrefixSummary,
        scratch: &'a mut [u64],
    ) -> &'a [u64] {
        let zero = &self.zero[..];
        let columns = self.grundy.len() as u64;
        match formula {
            // X = 0 iff the last value equals the prefix's XOR.
            Formula::Xor(Values::Grundy) => {
                self.by_grundy.columns(summary.grundy_xor, zero, scratch)
            }
            Formula::Xor(Values::Sizes) => self.by_size.columns(summary.size_xor, zero, scratch),
            Formula::Misere(Values::Sizes) => {
                let v = misere_formula_value(summary.size_xor, summary.size_big);
                self.by_size.columns(v, zero, scratch)
            }
            Formula::Misere(Values::Grundy) => {
                let v = misere_formula_value(summary.grundy_xor, summary.grundy_big);
                self.by_grundy.columns(v, zero, scratch)
            }
            Formula::Moore { misere } => {
                scratch.fill(0);
                let misere_small = misere && !summary.size_big;
                if let Some(last) = summary.moore_last.filter(|&c| !misere_small || c > 1) {
                    set_column(scratch, last, columns);
                }
                if misere_small {
                    // Every heap at most 1: P iff the 1-heaps number 1 mod K + 1.
                    let modulus = u64::from(self.moore_k) + 1;
                    for last in 0..2 {
                        if (summary.ones + last) % modulus == 1 {
                            set_column(scratch, last, columns);
                        }
                    }
                }
                scratch
            }
            Formula::Wythoff { misere } => {
                scratch.fill(0);
                let partners = &self.wythoff[usize::from(misere)];
                if let Some(a) = summary.single {
                    set_column(scratch, u64::from(partners[a as usize]), columns);
                }
                scratch
            }
        }
    }

    /// The one heap size `formula` predicts P for the last heap of a row with this prefix
    /// summary, when its mask is the columns of a single size (the formulas on sizes; the
    /// row has that column only if the size is within it); `None` for other formulas.
    #[inline]
    pub fn predicted_size(&self, formula: Formula, summary: PrefixSummary) -> Option<u32> {
        match formula {
            Formula::Xor(Values::Sizes) => Some(summary.size_xor),
            Formula::Misere(Values::Sizes) => {
                Some(misere_formula_value(summary.size_xor, summary.size_big))
            }
            _ => None,
        }
    }

    /// Writes into `out` the columns `formula` predicts P in the row.
    #[cfg(test)]
    pub fn predict(&self, formula: Formula, prefix: &[u32], out: &mut [u64]) {
        let mut scratch = vec![0u64; out.len()];
        let predictor = self.clone().for_formulas(&[formula]);
        let mask = predictor.predicted(formula, predictor.summary(prefix), &mut scratch);
        out.copy_from_slice(mask);
    }
}

/// Sets bit `column` of a row, if the row has that column (of `columns`).
fn set_column(row: &mut [u64], column: u64, columns: u64) {
    if column < columns {
        row[(column / 64) as usize] |= 1 << (column % 64);
    }
}

/// The one last heap that makes every binary column of `prefix` and it a multiple of
/// `k + 1`: in each column the prefix's count must be 0 (the last heap adds 0) or k (it
/// adds 1) mod k + 1; any other count leaves no last heap. For K = 1 it is the XOR.
fn moore_last(prefix: &[u32], k: u32) -> Option<u64> {
    if k == 1 {
        return Some(u64::from(prefix.iter().fold(0, |x, &h| x ^ h)));
    }
    let mut ones = [0u64; 32];
    for &h in prefix {
        let mut rest = h;
        while rest != 0 {
            ones[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
    }
    let modulus = u64::from(k) + 1;
    let mut last = 0u64;
    for (bit, &count) in ones.iter().enumerate() {
        match count % modulus {
            0 => {}
            c if c == modulus - 1 => last |= 1 << bit,
            _ => return None,
        }
    }
    Some(last)
}

/// The last value that makes a position P under the misère-style formula (Anti-Nim on sizes,
/// SJ on Grundy values): P iff (some value > 1 and XOR = 0) or (every value <= 1 and
/// XOR != 0). If the prefix already has a value > 1, P iff the last value equals the
/// prefix XOR. Otherwise the prefix XOR x is 0 or 1: a last value <= 1 gives P iff the
/// XOR is not 0, i.e. last = 1 - x; a last value > 1 would need last = x <= 1, impossible.
fn misere_formula_value(prefix_xor: u32, prefix_big: bool) -> u32 {
    if prefix_big {
        prefix_xor
    } else {
        1 - prefix_xor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_predictions_equal_per_position_definitions() {
        let games = [
            (Game::nim(), 3),
            (Game::subtract(&[1, 3, 4]).unwrap(), 3),
            (Game::subtract(&[2, 3, 5]).unwrap(), 3),
            (Game::moore(2).unwrap(), 3),
            (Game::moore(3).unwrap(), 4),
            (Game::wythoff(), 2),
        ];
        for (game, heaps) in &games {
            let max = 70;
            let grundy = game.grundy(max);
            let predictor = RowPredictor::new(game, max);
            let mut out = vec![0u64; 2];
            let prefixes: Vec<Vec<u32>> = match heaps {
                2 => (0..=max).map(|a| vec![a]).collect(),
                3 => (0..=max).flat_map(|a| [0, 1, 2, 3, 7, 40].map(|b| vec![a, b])).collect(),
                _ => (0..=max).flat_map(|a| [0, 1, 5].map(|b| vec![a, b, 1])).collect(),
            };
            for prefix in &prefixes {
                for criterion in Criterion::applicable(game, *heaps) {
                    let formula = predictor.shared_formula(criterion);
                    predictor.predict(formula, prefix, &mut out);
                    let summary = predictor.summary(prefix);
                    let size = predictor.predicted_size(formula, summary);
                    let (outer, last) = prefix.split_at(prefix.len() - 1);
                    let plus =
                        predictor.summary_plus(predictor.summary(outer), outer.len(), last[0]);
                    assert_eq!(plus, Some(summary));
                    for h in 0..=max {
                        let row_says = out[h as usize / 64] >> (h % 64) & 1 == 1;
                        let mut tuple = prefix.clone();
                        tuple.push(h);
                        let plain = criterion.predicts_p(game, &tuple, &grundy);
                        assert_eq!(row_says, plain, "{} {criterion} {tuple:?}", game.spec());
                        if let Some(size) = size {
                            assert_eq!(plain, h == size, "{} {criterion} {tuple:?}", game.spec());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shared_formulas_predict_the_masks_of_the_criteria_own_formulas() {
        // Up to 70, subtract:1..=80 is Nim: every Grundy value is the heap's size.
        let nim_below_80 = Game::subtract(&(1..=80).collect::<Vec<u32>>()).unwrap();
        let games = [
            Game::nim(),
            nim_below_80,
            Game::subtract(&[1, 3, 4]).unwrap(),
            Game::moore(1).unwrap(),
            Game::moore(2).unwrap(),
            Game::wythoff(),
        ];
        let max = 70;
        for game in &games {
            let heaps = if Criterion::applicable(game, 3).is_empty() { 2 } else { 3 };
            let predictor = RowPredictor::new(game, max);
            let (mut shared, mut own) = (vec![0u64; 2], vec![0u64; 2]);
            for criterion in Criterion::applicable(game, heaps) {
                let formula = predictor.shared_formula(criterion);
                for a in 0..=max {
                    for prefix in [vec![a], vec![a, 0], vec![a, 1], vec![a, 2], vec![a, 9]] {
                        if prefix.len() + 1 != heaps {
                            continue;
                        }
                        predictor.predict(formula, &prefix, &mut shared);
                        predictor.predict(Formula::of(criterion), &prefix, &mut own);
                        assert_eq!(shared, own, "{} {criterion} {prefix:?}", game.spec());
                    }
                }
            }
        }
        let formulas = |game: &Game| -> Vec<Formula> {
            let predictor = RowPredictor::new(game, max);
            Criterion::applicable(game, 3)
                .into_iter()
                .map(|c| predictor.shared_formula(c))
                .collect()
        };
        let (xor, misere) = (Formula::Xor(Values::Sizes), Formula::Misere(Values::Sizes));
        assert_eq!(formulas(&Game::nim()), [xor, misere, misere, xor, misere]);
        let subtract = Game::subtract(&[1, 3, 4]).unwrap();
        let grundy = [Formula::Xor(Values::Grundy), misere, Formula::Misere(Values::Grundy)];
        assert_eq!(formulas(&subtract), grundy);
    }
}
