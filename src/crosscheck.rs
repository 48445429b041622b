//! Exhaustive checks of contest solutions: every position of a range as test inputs,
//! and each answer compared with the DP label.

use crate::error::{Error, Result};
use crate::game::Game;
use crate::judge::Contest;
use crate::moves::format_position;
use crate::solve::{Engine, Labels, NoProgress};
use crate::space::Space;

/// What to check: a contest format and the positions to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckPlan {
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
        write!(f, "{} {} {}", format_position(&self.position), self.expected, self.got)
    }
}

impl CheckPlan {
    /// Refuses plans outside the contest's stated limits (the program may rely on them).
    pub fn validate(&self) -> Result<()> {
        let limits = self.contest.limits();
        let name = self.contest.name();
        let bad = |text: String| Err(Error::Invalid(text));
        if self.min_heaps == 0 || self.min_heaps > self.max_heaps {
            return bad(format!("--heaps {}..={} is empty", self.min_heaps, self.max_heaps));
        }
        if self.max_heaps > limits.heaps {
            return bad(format!(
                "--heaps {} is above {name}'s limit of {} heaps",
                self.max_heaps, limits.heaps
            ));
        }
        if self.max_heap > limits.max_heap {
            return bad(format!(
                "--max {} is above {name}'s limit of {} stones",
                self.max_heap, limits.max_heap
            ));
        }
        if self.min_heap > self.max_heap {
            return bad(format!("--min-heap {} is above --max {}", self.min_heap, self.max_heap));
        }
        if self.batch == 0 || self.batch > limits.cases {
            return bad(format!(
                "--batch {} must be between 1 and {name}'s limit of {} cases",
                self.batch, limits.cases
            ));
        }
        let positions = self.positions_count();
        if positions > 10_000_000 {
            return bad(format!("the range holds {positions} positions; the limit is 10^7"));
        }
        Ok(())
    }

    /// Number of positions the plan generates.
    pub fn positions_count(&self) -> u128 {
        let values = u128::from(self.max_heap - self.min_heap) + 1;
        (self.min_heaps..=self.max_heaps)
            .map(|n| values.saturating_pow(n as u32))
            .fold(0u128, u128::saturating_add)
    }

    /// Every position, by heap count, then in lexicographic order; generated lazily, so a
    /// large range costs memory for one batch only.
    pub fn positions(&self) -> Positions {
        Positions { plan: self.clone(), next: Some(vec![self.min_heap; self.min_heaps]) }
    }

    /// The DP labels of every heap count of the plan, under the contest's rule; refused if
    /// a table would exceed `memory_limit` bytes.
    pub fn labels(&self, memory_limit: u64) -> Result<ExpectedLabels> {
        let nim = Game::nim();
        let mut tables = Vec::new();
        for n in self.min_heaps..=self.max_heaps {
            let space = Space::new(n, self.max_heap)?;
            let engine = Engine::new(&nim, space, true);
            engine.check_memory(1, memory_limit)?;
            let (labels, ()) = engine.run(self.contest.rule(), true, &(), &NoProgress);
            tables.push(labels.expect("the engine keeps the table when asked"));
        }
        Ok(ExpectedLabels { contest: self.contest, min_heaps: self.min_heaps, tables })
    }
}

/// The positions of a plan, in order (see [`CheckPlan::positions`]).
pub struct Positions {
    plan: CheckPlan,
    next: Option<Vec<u32>>,
}

impl Iterator for Positions {
    type Item = Vec<u32>;

    fn next(&mut self) -> Option<Vec<u32>> {
        let current = self.next.take()?;
        let (lo, hi) = (self.plan.min_heap, self.plan.max_heap);
        let mut following = current.clone();
        // Odometer step; past the last tuple of n heaps comes the first of n + 1.
        match (0..following.len()).rev().find(|&i| following[i] < hi) {
            Some(i) => {
                following[i] += 1;
                following[i + 1..].fill(lo);
                self.next = Some(following);
            }
            None if following.len() < self.plan.max_heaps => {
                self.next = Some(vec![lo; following.len() + 1]);
            }
            None => {}
        }
        Some(current)
    }
}

/// The DP's answers for every position of a plan.
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

    fn plan() -> CheckPlan {
        CheckPlan {
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
        assert_eq!(positions.len() as u128, plan().positions_count());
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
