//! Multi-heap games on sorted tuples: accumulators keyed by what a move leaves untouched.
//!
//! A canonical row is a sorted prefix `p` (`k` values) and the columns `h >= max(p)`; a
//! position is the multiset `x = p + {h}`. Wythoff's and Moore's moves lower a few values
//! of `x` and leave the rest, so the options that share what a move leaves are gathered
//! in one accumulator keyed by that rest (a sorted tuple, ranked), as the full mode keys
//! its lines by the prefix without a heap (`tuples/rows/lines.rs`). Every row holds at most one P
//! (a heap alone moves as in Nim), so an accumulator gains at most a bit or a value per row. The
//! families, each per track:
//! - *lowered rows*: lowering up to `s` prefix values, the last heap kept; the option is
//!   in the same column of a row of smaller sum. With `s = 1` a *line* per rest `y` of
//!   `k - 1` values, the OR of the rows `y + {v}` so far (they come in order of `v`); with
//!   `s >= 2` a *box* per rest `y` and lowered part `S`, the OR of the rows `y + S'` with
//!   `S'` dominated by `S` (`B(S) = row(y + S) | OR_j B(S - e_j)`);
//! - *pairs* (Wythoff): two prefix values `a <= b` lowered together, the last heap kept: a
//!   row per rest and difference `b - a`;
//! - *diagonals* (Wythoff): any two values of `x` lowered together; per rest `z` of `k - 1`
//!   values, the differences `d` of the P-positions `z + {m, m + d}` found so far. Read
//!   by the row of `z + {v}` shifted up by `v` (column `h = v + d`), whatever the order of
//!   `m + d` and `max(z)`, so the last heap may end up below other heaps;
//! - *first P* (Moore, `K >= 2`): per `k` values `q`, the one `f` with `q + {f}` P;
//! - *lowered with the last heap* (Moore, `K >= 2`): lowering up to `K - 1` prefix values
//!   and the last heap any amount; the least first P over the dominated prefixes `p'`,
//!   from which every column `h >= F(p')` reaches `p' + {F(p')}`. Kept as a line (`s = 1`)
//!   or a box of minima.
//!
//! Lowering the last heap alone below `max(p)` reaches `p + {h'}`, the same for every
//! column: the row has no P when the line of `p - {max p}` is set at `max(p)`, or when the
//! first P of `p` lies below `max(p)`.

use crate::engine::tuples::layout::Rankers;
use crate::model::canonical::{multisets, CanonicalRanker};
use crate::model::game::GameKind;
use crate::model::space::TupleSpace;

/// Accumulators of lowered values read by a dominance recurrence: a line (`s = 1`) or a
/// box per lowered part of `s >= 2` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dominance {
    /// Prefix values lowered at most.
    pub s: usize,
    /// First word in a track's accumulators.
    base: usize,
    /// Sorted parts of `s` values (a box's entries for one rest).
    parts: u64,
    /// Words of the family.
    words: usize,
    /// Boxes of the whole prefix (`s = k`), packed as a label table is: a row per sorted
    /// prefix, from its largest value on, addressed by its start.
    pub packed: bool,
    /// Words of one entry: a row, or one word for a minimum.
    entry: usize,
}

/// What an entry of a dominance family holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entries {
    /// A row of P bits.
    Rows,
    /// A least first P, one word.
    Minima,
}

/// The sorted-tuple accumulators of one game and space, and their place in a track's
/// accumulator words.
#[derive(Clone, Debug)]
pub(crate) struct SortedPlan {
    k: usize,
    max: u32,
    /// Words in one row.
    w: usize,
    /// Rankers of sorted tuples by length, for the lengths the families key by (`needed`)
    /// and only in a plan that runs.
    rankers: Vec<Option<CanonicalRanker>>,
    needed: Vec<bool>,
    /// Lowering prefix values, the last heap kept: rows of P bits.
    pub lowered: Option<Dominance>,
    /// Wythoff: two prefix values lowered together (first word).
    pub pairs: Option<usize>,
    /// Wythoff: two values of the position lowered together (first word).
    pub diagonals: Option<usize>,
    /// Moore: each prefix's first P, one word each (first word).
    pub first_p: Option<usize>,
    /// Moore: lowering prefix values and the last heap: least first P, a word each.
    pub with_last: Option<Dominance>,
    words: u64,
}

impl SortedPlan {
    /// The accumulators of a multi-heap `kind` over the sorted tuples of `space`, and the
    /// rankers they are addressed by as `rankers` says.
    pub(crate) fn new(kind: GameKind, space: TupleSpace, rankers: Rankers) -> SortedPlan {
        let (k, max) = (space.heaps() - 1, space.max());
        let w = (space.radix() as usize).div_ceil(64);
        let mut plan = SortedPlan {
            k,
            max,
            w,
            rankers: (0..=k + 1).map(|_| None).collect(),
            needed: vec![false; k + 2],
            lowered: None,
            pairs: None,
            diagonals: None,
            first_p: None,
            with_last: None,
            words: 0,
        };
        if k == 0 {
            return plan;
        }
        let rows = |len: usize| multisets(max, len).saturating_mul(w as u64);
        match kind {
            GameKind::Wythoff => {
                plan.lowered = Some(plan.dominance(1, Entries::Rows));
                if k >= 2 {
                    plan.need_ranker(k - 2);
                    let pairs = multisets(max, k - 2).saturating_mul(u64::from(max) + 1);
                    plan.pairs = Some(plan.reserve(pairs.saturating_mul(w as u64)));
                }
                plan.need_ranker(k - 1);
                plan.diagonals = Some(plan.reserve(rows(k - 1)));
            }
            GameKind::Moore(big_k) => {
                let big_k = big_k as usize;
                // With K >= n one move may lower every value: the minima of the moves that
                // lower the last heap too (any amount, 0 included) cover those that keep it.
                if big_k <= k {
                    plan.lowered = Some(plan.dominance(big_k, Entries::Rows));
                }
                if big_k >= 2 {
                    plan.need_ranker(k);
                    plan.first_p = Some(plan.reserve(multisets(max, k)));
                    plan.with_last = Some(plan.dominance((big_k - 1).min(k), Entries::Minima));
                }
            }
            // Sums have their own solvers; circular Nim has no sorted tuples.
            GameKind::Sum | GameKind::Circular(_) => {}
        }
        if rankers == Rankers::Build {
            for (len, ranker) in plan.rankers.iter_mut().enumerate() {
                if plan.needed[len] {
                    *ranker = Some(CanonicalRanker::new(max, len));
                }
            }
        }
        plan
    }

    /// Reserves a dominance family over `s` lowered values.
    fn dominance(&mut self, s: usize, entries: Entries) -> Dominance {
        let entry = match entries {
            Entries::Rows => self.w,
            Entries::Minima => 1,
        };
        let k = self.k;
        self.need_ranker(k - s);
        let parts = multisets(self.max, s);
        let packed = s == k && s >= 2 && entries == Entries::Rows;
        let words = if packed {
            // The boxes of every sorted prefix, one bit per sorted tuple.
            self.need_ranker(k + 1);
            multisets(self.max, k + 1).div_ceil(64)
        } else if s == 1 {
            multisets(self.max, k - 1).saturating_mul(entry as u64)
        } else {
            self.need_ranker(s);
            multisets(self.max, k - s).saturating_mul(parts).saturating_mul(entry as u64)
        };
        Dominance { s, base: self.reserve(words), parts, words: words as usize, packed, entry }
    }

    /// Reserves `words` words; returns the first.
    fn reserve(&mut self, words: u64) -> usize {
        let base = self.words;
        self.words = self.words.saturating_add(words);
        base as usize
    }

    fn need_ranker(&mut self, len: usize) {
        // Tuples of at most one value rank without a table (`SortedPlan::rank`).
        self.needed[len] |= len >= 2;
    }

    /// Words of one track's accumulators.
    pub(crate) fn words(&self) -> u64 {
        self.words
    }

    /// Words in one row.
    pub(crate) fn words_per_row(&self) -> usize {
        self.w
    }

    /// The rank of a sorted tuple among those of its length.
    #[inline]
    fn rank(&self, sorted: &[u32]) -> u64 {
        match *sorted {
            // The common rests of three and four heaps, without the tables.
            [] => 0,
            [v] => u64::from(v),
            _ => self.rankers[sorted.len()].as_ref().expect("a ranker per length").rank(sorted),
        }
    }

    /// The first word of the row of a line (`rest` of `k - 1` values) or of a box (`rest`
    /// and a lowered part) of `family`; for a family of minima, its word.
    pub(crate) fn dominance_word(&self, family: Dominance, rest: &[u32], part: &[u32]) -> usize {
        let entry = if family.s == 1 {
            self.rank(rest)
        } else {
            self.rank(rest) * family.parts + self.rank(part)
        };
        family.base + entry as usize * family.entry
    }

    /// The start of the packed box row of the sorted prefix `part` (`tuples/label_table.rs`: the
    /// index of its first sorted tuple minus its first column).
    pub(crate) fn packed_start(&self, part: &[u32], buf: &mut Vec<u32>) -> usize {
        let top = part.last().copied().unwrap_or(0);
        buf.clear();
        buf.extend_from_slice(part);
        buf.push(top);
        (self.rank(buf) - u64::from(top)) as usize
    }

    /// The words of a packed box family, from the first.
    pub(crate) fn packed_words(&self, family: Dominance) -> std::ops::Range<usize> {
        family.base..family.base + family.words
    }

    /// The first word of the pairs row of `rest` (`k - 2` values) and difference `d`.
    pub(crate) fn pair_word(&self, rest: &[u32], d: u32) -> usize {
        let base = self.pairs.expect("pairs are planned");
        let entry = self.rank(rest) * (u64::from(self.max) + 1) + u64::from(d);
        base + entry as usize * self.w
    }

    /// The first word of the diagonals row of `rest` (`k - 1` values).
    pub(crate) fn diagonal_word(&self, rest: &[u32]) -> usize {
        self.diagonals.expect("diagonals are planned") + self.rank(rest) as usize * self.w
    }

    /// The word of the first P of `k` values.
    pub(crate) fn first_p_word(&self, values: &[u32]) -> usize {
        self.first_p.expect("first Ps are planned") + self.rank(values) as usize
    }

    /// Bytes of the rankers of a plan that runs (kept once, whatever is labelled): a
    /// ranker of length `len` holds `len + 1` rows of `max + 2` words.
    pub(crate) fn ranker_bytes(&self) -> u64 {
        let rows: u64 =
            (0..self.needed.len()).filter(|&len| self.needed[len]).map(|len| len as u64 + 1).sum();
        rows.saturating_mul(u64::from(self.max) + 2).saturating_mul(8)
    }
}

/// Calls `visit(v, rest)` once for every distinct value `v` of the sorted `tuple`, `rest`
/// holding the other values (one copy of `v` removed).
#[inline]
pub(crate) fn for_each_value(
    tuple: &[u32],
    rest: &mut Vec<u32>,
    mut visit: impl FnMut(u32, &[u32]),
) {
    for (i, &v) in tuple.iter().enumerate() {
        if i > 0 && tuple[i - 1] == v {
            continue;
        }
        rest.clear();
        rest.extend(tuple.iter().enumerate().filter(|&(x, _)| x != i).map(|(_, &v)| v));
        visit(v, rest);
    }
}

/// Calls `visit(a, b, rest)` once for every distinct pair `a <= b` of values of the sorted
/// `tuple` (`a = b` when the value has two copies), `rest` holding the other values.
#[inline]
pub(crate) fn for_each_pair(
    tuple: &[u32],
    rest: &mut Vec<u32>,
    mut visit: impl FnMut(u32, u32, &[u32]),
) {
    for i in 0..tuple.len() {
        if i > 0 && tuple[i - 1] == tuple[i] {
            continue;
        }
        for j in i + 1..tuple.len() {
            // The second value's first copy after `a`.
            if j > i + 1 && tuple[j - 1] == tuple[j] {
                continue;
            }
            rest.clear();
            rest.extend(
                tuple.iter().enumerate().filter(|&(x, _)| x != i && x != j).map(|(_, &v)| v),
            );
            visit(tuple[i], tuple[j], rest);
        }
    }
}

/// Calls `visit(part, rest)` once for every distinct sub-multiset `part` of `s` values of
/// the sorted `tuple`, `rest` holding the other values (both sorted). Of a value's copies
/// the first ones are taken, so each sub-multiset comes once.
pub(crate) fn for_each_part(
    tuple: &[u32],
    s: usize,
    bufs: (&mut Vec<u32>, &mut Vec<u32>),
    visit: &mut dyn FnMut(&[u32], &[u32]),
) {
    let (part, rest) = bufs;
    part.clear();
    rest.clear();
    if s <= tuple.len() {
        parts_from(tuple, 0, s, None, part, rest, visit);
    }
}

fn parts_from(
    tuple: &[u32],
    i: usize,
    s: usize,
    skipped: Option<u32>,
    part: &mut Vec<u32>,
    rest: &mut Vec<u32>,
    visit: &mut dyn FnMut(&[u32], &[u32]),
) {
    if part.len() == s {
        let kept = rest.len();
        rest.extend_from_slice(&tuple[i..]);
        visit(part, rest);
        rest.truncate(kept);
        return;
    }
    if tuple.len() - i < s - part.len() {
        return;
    }
    let v = tuple[i];
    // A copy of a value is taken only while the copies before it are.
    if skipped != Some(v) {
        part.push(v);
        parts_from(tuple, i + 1, s, skipped, part, rest, visit);
        part.pop();
    }
    rest.push(v);
    parts_from(tuple, i + 1, s, Some(v), part, rest, visit);
    rest.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(tuple: &[u32], s: usize) -> Vec<(Vec<u32>, Vec<u32>)> {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut out = Vec::new();
        for_each_part(tuple, s, (&mut a, &mut b), &mut |p, r| out.push((p.to_vec(), r.to_vec())));
        out
    }

    #[test]
    fn values_and_pairs_are_the_parts_of_one_and_two() {
        let mut rest = Vec::new();
        for tuple in [&[0u32, 2, 2, 2, 5, 5, 7][..], &[3], &[1, 1], &[0, 4, 9]] {
            let mut values = Vec::new();
            for_each_value(tuple, &mut rest, |v, r| values.push((vec![v], r.to_vec())));
            assert_eq!(values, parts(tuple, 1), "{tuple:?}");
            let mut pairs = Vec::new();
            for_each_pair(tuple, &mut rest, |a, b, r| pairs.push((vec![a, b], r.to_vec())));
            assert_eq!(pairs, parts(tuple, 2), "{tuple:?}");
        }
    }

    #[test]
    fn every_distinct_sub_multiset_comes_once_with_its_rest() {
        assert_eq!(
            parts(&[1, 1, 2], 1),
            vec![(vec![1], vec![1, 2]), (vec![2], vec![1, 1])],
            "one copy of 1 stands for both"
        );
        assert_eq!(parts(&[1, 1, 2], 2), vec![(vec![1, 1], vec![2]), (vec![1, 2], vec![1])]);
        assert_eq!(parts(&[3, 3, 3], 2), vec![(vec![3, 3], vec![3])]);
        assert_eq!(parts(&[0, 4], 2), vec![(vec![0, 4], vec![])]);
        assert_eq!(parts(&[5], 0), vec![(vec![], vec![5])]);
        assert!(parts(&[5], 2).is_empty());
        // Against a brute force over index subsets, deduplicated.
        let tuple = [0, 2, 2, 2, 5, 5, 7];
        for s in 0..=tuple.len() {
            let mut expected = std::collections::BTreeSet::new();
            for mask in 0u32..1 << tuple.len() {
                if mask.count_ones() as usize == s {
                    let pick = |keep: bool| -> Vec<u32> {
                        (0..tuple.len())
                            .filter(|&i| (mask >> i & 1 == 1) == keep)
                            .map(|i| tuple[i])
                            .collect()
                    };
                    expected.insert((pick(true), pick(false)));
                }
            }
            let got = parts(&tuple, s);
            assert_eq!(got.len(), expected.len(), "s = {s}");
            assert_eq!(got.into_iter().collect::<std::collections::BTreeSet<_>>(), expected);
        }
    }
}
