//! Exhaustive checks of contest solutions: every position of a range as test inputs,
//! and each answer compared with the DP label.

use crate::contest::judge::Contest;
use crate::engine::{Engine, EngineError, Labels, NoProgress, Work};
use crate::model::ending::Ending;
use crate::model::enumerate::Tuples;
use crate::model::game::Game;
use crate::model::position::Tuple;
use crate::model::space::{Mode, Space};
use crate::Result;

/// The most positions one cross-check generates.
pub const MAX_POSITIONS: u128 = 10_000_000;

/// What to cross-check: a contest format and the positions to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrosscheckPlan {
    /// The contest whose input and answer format is used.
    pub contest: Contest,
    /// Fewest heaps in a position.
    pub min_heaps: usize,
    /// Most heaps in a position.
    pub max_heaps: usize,
    /// Smallest heap size generated.
    pub min_heap: u32,
    /// Largest heap size generated.
    pub max_heap: u32,
    /// Test cases per input file.
    pub batch: usize,
}

/// A position whose answer differs from its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub position: Vec<u32>,
    /// The judge's answer from the DP label.
    pub expected: &'static str,
    /// What the program printed.
    pub got: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", Tuple(&self.position), self.expected, self.got)
    }
}

/// Why a plan is refused: it leaves the contest's stated limits or is empty.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The heap counts `lo..=hi` hold none (`lo` is 0 or above `hi`).
    #[error("heap counts {lo}..={hi} are empty")]
    NoHeapCounts {
        /// Fewest heaps.
        lo: usize,
        /// Most heaps.
        hi: usize,
    },
    /// More heaps than the contest allows.
    #[error("{heaps} heaps is above {contest}'s limit of {limit} heaps")]
    TooManyHeaps {
        /// The contest.
        contest: &'static str,
        /// Heaps asked for.
        heaps: usize,
        /// The contest's limit.
        limit: usize,
    },
    /// A heap larger than the contest allows.
    #[error("heap size {max} is above {contest}'s limit of {limit} stones")]
    HeapTooLarge {
        /// The contest.
        contest: &'static str,
        /// The largest heap asked for.
        max: u32,
        /// The contest's limit.
        limit: u32,
    },
    /// The smallest heap size is above the largest.
    #[error("the smallest heap size {min} is above the largest, {max}")]
    EmptyHeapSizes {
        /// Smallest heap size.
        min: u32,
        /// Largest heap size.
        max: u32,
    },
    /// A batch of 0 cases, or more than the contest allows in one input.
    #[error("a batch of {batch} cases is outside 1..={limit}, {contest}'s limit")]
    BadBatch {
        /// The contest.
        contest: &'static str,
        /// Cases per input asked for.
        batch: usize,
        /// The contest's limit.
        limit: usize,
    },
    /// More positions than [`MAX_POSITIONS`].
    #[error("the range holds more than 10^7 positions, the limit")]
    TooManyPositions,
}

impl CrosscheckPlan {
    /// Refuses plans outside the contest's stated limits (the program may rely on them).
    ///
    /// # Errors
    /// The first [`PlanError`] that applies.
    pub fn validate(&self) -> Result<(), PlanError> {
        let limits = self.contest.limits();
        let contest = self.contest.name();
        if self.min_heaps == 0 || self.min_heaps > self.max_heaps {
            return Err(PlanError::NoHeapCounts { lo: self.min_heaps, hi: self.max_heaps });
        }
        if self.max_heaps > limits.heaps {
            let (heaps, limit) = (self.max_heaps, limits.heaps);
            return Err(PlanError::TooManyHeaps { contest, heaps, limit });
        }
        if self.max_heap > limits.max_heap {
            let (max, limit) = (self.max_heap, limits.max_heap);
            return Err(PlanError::HeapTooLarge { contest, max, limit });
        }
        if self.min_heap > self.max_heap {
            return Err(PlanError::EmptyHeapSizes { min: self.min_heap, max: self.max_heap });
        }
        if self.batch == 0 || self.batch > limits.cases {
            return Err(PlanError::BadBatch { contest, batch: self.batch, limit: limits.cases });
        }
        match self.positions_count() {
            Some(positions) if positions <= MAX_POSITIONS => Ok(()),
            _ => Err(PlanError::TooManyPositions),
        }
    }

    /// Number of positions the plan generates, or `None` beyond `u128`.
    pub fn positions_count(&self) -> Option<u128> {
        let values = u128::from(self.max_heap.checked_sub(self.min_heap)?) + 1;
        (self.min_heaps..=self.max_heaps).try_fold(0u128, |total, n| {
            total.checked_add(values.checked_pow(u32::try_from(n).ok()?)?)
        })
    }

    /// Every position, by heap count, then in lexicographic order; generated lazily, so a
    /// large range costs memory for one batch only.
    pub fn positions(&self) -> impl Iterator<Item = Vec<u32>> {
        let (lo, hi) = (self.min_heap, self.max_heap);
        (self.min_heaps..=self.max_heaps).flat_map(move |n| Tuples::new(n, lo, hi))
    }

    /// The DP labels of every heap count of the plan, under the contest's ending, all
    /// checked for memory before the first is labelled: the tables are all kept, so each
    /// heap count's run may use what the ones before it leave of `memory_limit`.
    ///
    /// # Errors
    /// [`crate::EngineError::TooLarge`] if the tables would exceed `memory_limit` bytes.
    pub fn labels(&self, memory_limit: u64) -> Result<ExpectedLabels> {
        let nim = Game::nim();
        let ending: Ending = self.contest.ending();
        let work = [Work::Tables { endings: 1 }];
        let mut engines = Vec::new();
        let mut left = memory_limit;
        for n in self.min_heaps..=self.max_heaps {
            let space = Space::in_mode(n, self.max_heap, Mode::Canonical)?;
            let engine = Engine::builder(&nim, space).memory_limit(left).build();
            left = left.saturating_sub(engine.memory_need(&work)?);
            engines.push(engine);
        }
        let reservations = engines
            .iter()
            .map(|engine| engine.reserve(&work))
            .collect::<Result<Vec<_>, EngineError>>()?;
        let tables = reservations
            .iter()
            .map(|run| run.label_all(&[ending], &NoProgress).map(|mut t| t.remove(0)))
            .collect::<Result<Vec<_>, EngineError>>()?;
        Ok(ExpectedLabels { contest: self.contest, min_heaps: self.min_heaps, tables })
    }
}

/// The DP's answers for every position of a plan.
#[derive(Debug)]
pub struct ExpectedLabels {
    contest: Contest,
    min_heaps: usize,
    tables: Vec<Labels>,
}

/// Why a program's output cannot be compared line by line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// Fewer answer lines than cases.
    #[error("printed {got} answer lines for {cases} cases")]
    TooFew {
        /// Non-empty lines printed.
        got: usize,
        /// Cases in the input.
        cases: usize,
    },
    /// More answer lines than cases.
    #[error("printed {got} answer lines for {cases} cases")]
    TooMany {
        /// Non-empty lines printed.
        got: usize,
        /// Cases in the input.
        cases: usize,
    },
}

impl ExpectedLabels {
    /// The judge's answer for a position, from the DP label.
    pub fn expected(&self, position: &[u32]) -> &'static str {
        let labels = &self.tables[position.len() - self.min_heaps];
        self.contest.answer(!labels.is_p(position))
    }

    /// Compares a program's output for one input file with the labels. Blank lines are
    /// skipped and each answer line is trimmed.
    ///
    /// # Errors
    /// [`AnswerError`] when the program printed fewer or more answer lines than cases.
    pub fn compare(
        &self,
        cases: &[Vec<u32>],
        output: &str,
    ) -> std::result::Result<Vec<Mismatch>, AnswerError> {
        let answers: Vec<&str> = output.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        if answers.len() < cases.len() {
            return Err(AnswerError::TooFew { got: answers.len(), cases: cases.len() });
        }
        if answers.len() > cases.len() {
            return Err(AnswerError::TooMany { got: answers.len(), cases: cases.len() });
        }
        Ok(cases
            .iter()
            .zip(answers)
            .filter_map(|(position, got)| {
                let expected = self.expected(position);
                (got != expected).then(|| Mismatch {
                    position: position.clone(),
                    expected,
                    got: got.to_string(),
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> CrosscheckPlan {
        CrosscheckPlan {
            contest: Contest::P2197,
            min_heaps: 1,
            max_heaps: 2,
            min_heap: 0,
            max_heap: 2,
            batch: 10,
        }
    }

    #[test]
    fn positions_cover_every_tuple_of_the_range() {
        let positions: Vec<Vec<u32>> = plan().positions().collect();
        assert_eq!(Some(positions.len() as u128), plan().positions_count());
        assert_eq!(positions.len(), 3 + 9);
        assert_eq!(positions[3], vec![0, 0]);
    }

    #[test]
    fn answers_are_compared_line_by_line() {
        let labels = plan().labels(1 << 30).unwrap();
        let cases = vec![vec![1, 1], vec![1, 0]];
        assert_eq!(labels.compare(&cases, "No\nYes\n").unwrap(), vec![]);
        let wrong = labels.compare(&cases, "No\n\nNo\n").unwrap();
        assert_eq!(wrong[0].to_string(), "(1,0) Yes No");
        assert_eq!(labels.compare(&cases, "No\n"), Err(AnswerError::TooFew { got: 1, cases: 2 }));
    }
}
