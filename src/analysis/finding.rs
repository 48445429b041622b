//! What a verification finds: one criterion against the DP over one space under one
//! ending, and the findings of a space with the labellings that produced them.

use crate::analysis::criteria::Criterion;
use crate::analysis::tally::Tally;
use crate::model::ending::Ending;
use crate::model::space::Mode;

/// The comparison of one criterion with the DP over one space under one ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Game specification as given.
    pub game: String,
    /// Heap count.
    pub heaps: usize,
    /// Largest heap size.
    pub max: u32,
    /// Every tuple, or sorted tuples only.
    pub mode: Mode,
    /// `Some(T)` for a multiset space (every multiset of non-empty heaps of total at most
    /// `T`; `heaps` is then 0 and `max` is `T`), `None` for a tuple space.
    pub total: Option<u32>,
    /// The ending of the DP.
    pub ending: Ending,
    /// The criterion compared; `None` when no criterion applies to the game (the
    /// finding then counts positions and P-positions only).
    pub criterion: Option<Criterion>,
    /// Whether the criterion is a theorem for this game and ending.
    pub theorem: bool,
    /// Positions, P-positions, agreements, disagreements, first counterexamples.
    pub tally: Tally,
    /// Why the criterion was not compared, when it could not be (a quotient that grew
    /// past its order bound, or no quotient for the ending): the tally then counts
    /// positions and P-positions only.
    pub not_compared: Option<String>,
}

impl Finding {
    /// A theorem with a disagreement: a bug somewhere, never a finding.
    pub fn theorem_failed(&self) -> bool {
        self.theorem && self.tally.disagree > 0
    }
}

/// The findings of one space, and how many labellings produced them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// Ending by ending (in the order given), criteria in the order given.
    pub findings: Vec<Finding>,
    /// 1 when all endings were labelled in one fused labelling; the number of endings
    /// when their working state did not fit in memory together and each had its own.
    pub labellings: usize,
}
