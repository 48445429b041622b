//! Verification: one DP pass per rule, compared row by row with every criterion.

use std::collections::BinaryHeap;

use crate::criteria::{Criterion, RowPredictor};
use crate::game::Game;
use crate::rules::Rule;
use crate::solve::{valid_columns, Engine, Progress, RowView, RowVisitor};
use crate::space::{CanonicalRanker, Space};

/// A position where a criterion and the DP disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Index of the position (mixed-radix, or canonical rank in canonical mode).
    pub index: u64,
    /// Its heap sizes.
    pub position: Vec<u32>,
    /// Whether the DP labels it P (the criterion then predicts N, and vice versa).
    pub dp_is_p: bool,
}

/// The comparison of one criterion with the DP over one space under one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Game specification as given.
    pub game: String,
    /// Heap count.
    pub heaps: usize,
    /// Largest heap size.
    pub max: u32,
    /// Whether only sorted tuples were counted.
    pub canonical: bool,
    /// The rule of the DP.
    pub rule: Rule,
    /// The criterion compared.
    pub criterion: Criterion,
    /// Positions compared.
    pub positions: u64,
    /// Positions the DP labels P.
    pub p_positions: u64,
    /// Positions where the criterion agrees with the DP.
    pub agree: u64,
    /// Positions where it does not.
    pub disagree: u64,
    /// The first counterexamples in index order, at most the limit asked for.
    pub counterexamples: Vec<Counterexample>,
    /// Whether the criterion is a theorem for this game and rule.
    pub theorem: bool,
}

impl Finding {
    /// A theorem with a disagreement: a bug somewhere, never a finding.
    pub fn theorem_failed(&self) -> bool {
        self.theorem && self.disagree > 0
    }
}

/// Formats a position as its heap sizes separated by single spaces (`0 0 3`).
pub fn position_text(position: &[u32]) -> String {
    position.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// The `limit` counterexamples of smallest index seen so far, as `(index, dp_is_p)`.
///
/// Keeping the smallest indices (not the first ones met) makes the result independent of
/// how rows were split among parallel tasks. Shared by `verify` and `check`.
#[derive(Clone, Debug)]
pub struct FirstCounterexamples {
    limit: usize,
    /// A max-heap, so the largest kept index is the one to drop.
    kept: BinaryHeap<(u64, bool)>,
}

impl FirstCounterexamples {
    /// An empty list that keeps at most `limit` counterexamples.
    pub fn new(limit: usize) -> FirstCounterexamples {
        FirstCounterexamples { limit, kept: BinaryHeap::new() }
    }

    /// Offers the disagreeing columns `diff` of word `word` of `row`, whose DP bits are
    /// `dp`. Returns `false` once the list is full of smaller indices: no later column of
    /// the row can enter it, so the caller may stop offering (but must go on counting).
    pub fn offer(&mut self, row: &RowView<'_>, word: usize, dp: u64, mut diff: u64) -> bool {
        while diff != 0 {
            let column = word * 64 + diff.trailing_zeros() as usize;
            diff &= diff - 1;
            let index = row.first_index + (column - row.lo as usize) as u64;
            if self.kept.len() == self.limit {
                match self.kept.peek() {
                    Some(&(top, _)) if index < top => {
                        self.kept.pop();
                    }
                    _ => return false,
                }
            }
            self.kept.push((index, dp >> (column % 64) & 1 == 1));
        }
        true
    }

    /// Adds another task's counterexamples, keeping the `limit` smallest.
    pub fn merge(&mut self, other: FirstCounterexamples) {
        for item in other.kept {
            self.kept.push(item);
            if self.kept.len() > self.limit {
                self.kept.pop();
            }
        }
    }

    /// The kept counterexamples in index order, with their positions in the engine's space.
    pub fn into_counterexamples(self, engine: &Engine<'_>) -> Vec<Counterexample> {
        let space = engine.space();
        let ranker =
            engine.is_canonical().then(|| CanonicalRanker::new(space.max(), space.heaps()));
        self.kept
            .into_sorted_vec()
            .into_iter()
            .map(|(index, dp_is_p)| Counterexample {
                index,
                position: match &ranker {
                    Some(r) => r.unrank(index),
                    None => space.tuple(index),
                },
                dp_is_p,
            })
            .collect()
    }
}

/// Accumulated counts of one criterion in one task.
#[derive(Clone, Debug)]
struct Tally {
    disagree: u64,
    first: FirstCounterexamples,
}

/// Per-task accumulator: positions, P-positions per rule, a tally per (rule, criterion).
#[derive(Clone, Debug, Default)]
pub struct VerifyAcc {
    positions: u64,
    p_positions: Vec<u64>,
    /// Index `rule * criteria + criterion`.
    tallies: Vec<Tally>,
    /// One row of words for predictions that are not stored densely.
    scratch: Vec<u64>,
}

/// The row visitor that compares DP rows with criterion predictions.
struct Comparer<'a> {
    rules: usize,
    criteria: &'a [Criterion],
    predictor: RowPredictor,
    limit: usize,
    words: usize,
    columns: usize,
}

impl RowVisitor for Comparer<'_> {
    type Acc = VerifyAcc;

    fn start(&self) -> VerifyAcc {
        VerifyAcc {
            positions: 0,
            p_positions: vec![0; self.rules],
            tallies: (0..self.rules * self.criteria.len())
                .map(|_| Tally { disagree: 0, first: FirstCounterexamples::new(self.limit) })
                .collect(),
            scratch: vec![0; self.words],
        }
    }

    fn visit(&self, acc: &mut VerifyAcc, row: &RowView<'_>) {
        let r = self.columns;
        let lo = row.lo as usize;
        acc.positions += (r - lo) as u64;
        for (j, count) in acc.p_positions.iter_mut().enumerate() {
            *count += row.rule_bits(j).iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        let summary = self.predictor.summary(row.prefix);
        let c_count = self.criteria.len();
        for (c, &criterion) in self.criteria.iter().enumerate() {
            // The prediction depends on the row only, not on the rule: look it up once.
            let predicted = self.predictor.predicted(criterion, summary, &mut acc.scratch);
            for j in 0..self.rules {
                let tally = &mut acc.tallies[j * c_count + c];
                self.compare(tally, row, row.rule_bits(j), predicted, lo, r);
            }
        }
    }

    fn merge(&self, mut left: VerifyAcc, right: VerifyAcc) -> VerifyAcc {
        left.positions += right.positions;
        for (l, r) in left.p_positions.iter_mut().zip(&right.p_positions) {
            *l += r;
        }
        for (l, r) in left.tallies.iter_mut().zip(right.tallies) {
            l.disagree += r.disagree;
            l.first.merge(r.first);
        }
        left
    }
}

impl Comparer<'_> {
    /// Counts the disagreements of one rule's row with one prediction, keeping the first
    /// `limit` by index.
    fn compare(
        &self,
        tally: &mut Tally,
        row: &RowView<'_>,
        dp_bits: &[u64],
        predicted: &[u64],
        lo: usize,
        r: usize,
    ) {
        let (first_word, last_word) = (lo / 64, dp_bits.len() - 1);
        // Once the kept list is full and a column's index is not below its largest, no
        // later column of this row can enter it; counting goes on to the row's end.
        let mut keeping = true;
        for (i, (&dp, &pred)) in dp_bits.iter().zip(predicted).enumerate() {
            let mut diff = dp ^ pred;
            if diff == 0 {
                continue;
            }
            if i <= first_word || i == last_word {
                diff &= valid_columns(i, lo, r);
                if diff == 0 {
                    continue;
                }
            }
            tally.disagree += u64::from(diff.count_ones());
            if keeping {
                keeping = tally.first.offer(row, i, dp, diff);
            }
        }
    }
}

/// Labels the space under `rule` and compares every position with each criterion.
///
/// Call [`Engine::check_memory`] with 0 kept tables first. `limit` bounds the
/// counterexamples kept per criterion (the first ones in index order).
pub fn verify_space(
    engine: &Engine<'_>,
    game: &Game,
    rule: Rule,
    criteria: &[Criterion],
    limit: usize,
    progress: &dyn Progress,
) -> Vec<Finding> {
    verify_rules(engine, game, &[rule], criteria, limit, progress)
}

/// Labels the space under every rule in one fused pass and compares every position with
/// each criterion; findings come rule by rule, criteria in the order given.
///
/// Call [`Engine::check_memory_fused`] with `rules.len()` rules and no kept table first.
pub fn verify_rules(
    engine: &Engine<'_>,
    game: &Game,
    rules: &[Rule],
    criteria: &[Criterion],
    limit: usize,
    progress: &dyn Progress,
) -> Vec<Finding> {
    let space: Space = engine.space();
    let grundy = game.grundy(space.max());
    let comparer = Comparer {
        rules: rules.len(),
        criteria,
        predictor: RowPredictor::new(&grundy),
        limit,
        words: (space.radix() as usize).div_ceil(64),
        columns: space.radix() as usize,
    };
    let (_, acc) = engine.run_rules(rules, false, &comparer, progress);
    let mut tallies = acc.tallies.into_iter();
    let mut findings = Vec::new();
    for (j, &rule) in rules.iter().enumerate() {
        for &criterion in criteria {
            let tally = tallies.next().expect("one tally per rule and criterion");
            let counterexamples = tally.first.into_counterexamples(engine);
            findings.push(Finding {
                game: game.spec().to_string(),
                heaps: space.heaps(),
                max: space.max(),
                canonical: engine.is_canonical(),
                rule,
                criterion,
                positions: acc.positions,
                p_positions: acc.p_positions[j],
                agree: acc.positions - tally.disagree,
                disagree: tally.disagree,
                counterexamples,
                theorem: criterion.is_theorem(game, rule),
            });
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_columns_cover_exactly_the_row_columns() {
        assert_eq!(valid_columns(0, 0, 64), !0);
        assert_eq!(valid_columns(0, 3, 64), !0 << 3);
        assert_eq!(valid_columns(0, 0, 5), 0b11111);
        assert_eq!(valid_columns(1, 70, 100), (!0u64 << 6) & (!0u64 >> 28));
        assert_eq!(valid_columns(0, 64, 128), 0);
    }
}
