//! One code's result in the atlas: its period (with the certificate's windows) or how far
//! it was computed, its largest value, its rare/common split and its misère quotient.

use serde::{Deserialize, Serialize};

/// What the atlas found for one octal code. Its JSON form is also the code's state file,
/// from which a run resumes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The code as the tables write it: `0.161`, `4.12`, `4.0` (no trailing zeros).
    pub code: String,
    /// The settings the entry was computed under.
    pub settings: AtlasSettings,
    /// The certified period, when the theorem gives one within the budget.
    pub period: Option<CertifiedPeriod>,
    /// Without a certified period, the arithmetic period the values show, if any (only
    /// hexadecimal codes have one): proved when its `proved` says so, else evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arithmetic: Option<ArithmeticEvidence>,
    /// The last heap whose value was computed.
    pub computed_to: u64,
    /// Why the computation stopped where it did.
    pub stopped: Stop,
    /// The largest value over heaps `0..=computed_to`.
    pub largest_value: u32,
    /// The first heap with that value.
    pub largest_at: u64,
    /// The rare/common split over heaps `0..=computed_to`, when a mask splits the values.
    pub rare: Option<RareSplit>,
    /// Every rare heap with its value (for codes without a certified period and with a
    /// split; empty otherwise).
    pub rare_heaps: Vec<(u64, u32)>,
    /// The misère quotient.
    pub quotient: QuotientCell,
    /// `G(0..100)` (fewer when fewer were computed).
    pub first_values: Vec<u32>,
    /// With a certified period: `G(0..preperiod + period)`, which with the period gives
    /// every value (and proves two codes equal when they agree on it).
    pub block: Vec<u32>,
    /// SHA-256 (hex) of `G(0..=h)`, as little-endian 4-byte values, for each horizon `h`
    /// the classes compare at (the values beyond a certified period's block follow it).
    pub fingerprints: Vec<(u64, String)>,
}

/// The settings that decide an entry's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtlasSettings {
    /// The last heap computed for a code whose values split into common and rare.
    pub budget: u64,
    /// The last heap computed for a code whose values do not split (`min` with the
    /// budget): the plain mex costs time quadratic in the heaps.
    pub dense_budget: u64,
    /// The heap bound of the misère quotient.
    pub quotient_heap: u32,
    /// The order bound of the misère quotient.
    pub quotient_order: usize,
    /// The method's version ([`METHOD`]).
    pub method: u32,
    /// Seconds a code's sequence may take, if bounded: a code still running then stops
    /// with the values it has ([`Stop::Time`]). Where it stops depends on the machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<u64>,
}

impl AtlasSettings {
    /// The settings of these bounds, the dense budget lowered to the budget when above it
    /// (no code is computed past the budget). Checked by [`super::AtlasRequest::plan`].
    pub fn new(
        budget: u64,
        dense_budget: u64,
        quotient_heap: u32,
        quotient_order: usize,
    ) -> AtlasSettings {
        let dense_budget = dense_budget.min(budget);
        AtlasSettings {
            budget,
            dense_budget,
            quotient_heap,
            quotient_order,
            method: METHOD,
            seconds: None,
        }
    }

    /// These settings with each code's sequence given at most `seconds` (`None`: no
    /// bound in time).
    pub fn with_seconds(self, seconds: Option<u64>) -> AtlasSettings {
        AtlasSettings { seconds, ..self }
    }
}

/// The version of the way an entry is computed (the split's threshold, when a dense code
/// is continued; the arithmetic-periodicity criterion's witnesses): state files of another
/// method are computed again, so that a resumed atlas has the bytes of a fresh one.
pub const METHOD: u32 = 3;

/// A period certified by a theorem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertifiedPeriod {
    /// The least `n0` with `G(n) = G(n + period)` for every `n >= n0`.
    pub preperiod: u64,
    /// The least period.
    pub period: u64,
    /// The last heap the proof reads.
    pub checked_through: u64,
    /// The theorem: `octal periodicity theorem` or `no move splits a heap`.
    pub theorem: String,
    /// The theorem's window: `G(n) = G(n + period)` was checked for `window.0 <= n <
    /// window.1`.
    pub window: (u64, u64),
}

/// `G(n + period) = G(n) + saltus` for `preperiod <= n <= through - period`, with a
/// saltus above 0: what the values computed show, over the window the periodicity theorem
/// for moves that leave up to three heaps reads; `proved` when the arithmetic-periodicity
/// criterion proves it for every heap (then `through` is the last heap its proof reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArithmeticEvidence {
    /// The least `e` from which the relation holds in the values.
    pub preperiod: u64,
    /// The least period `p` whose relation holds over its window.
    pub period: u64,
    /// The saltus `s > 0`.
    pub saltus: u64,
    /// The last heap whose value was read.
    pub through: u64,
    /// Whether the arithmetic-periodicity criterion proves it for every heap.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proved: bool,
}

/// Why a code's computation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// A period was certified.
    Certified,
    /// The budget was reached.
    Budget,
    /// The values do not split into common and rare, and the dense budget was reached.
    Dense,
    /// The time budget ran out first.
    Time,
}

impl Stop {
    /// The word in the `stopped` column.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Certified => "certified",
            Stop::Budget => "budget",
            Stop::Dense => "dense",
            Stop::Time => "time",
        }
    }
}

/// The rare/common split of the sparse-space method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RareSplit {
    /// The mask: a value `v` is rare when `popcount(v & mask)` is even.
    pub mask: u32,
    /// Rare heaps among `0..=computed_to` (heap 0, of value 0, is always rare).
    pub count: u64,
    /// The last rare heap.
    pub last: u64,
}

/// The misère quotient of a code, at the heap bound asked for or a lower one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotientCell {
    /// The heap bound used (lower than asked when the quotient outgrew the order bound).
    pub max_heap: u32,
    /// What was found.
    pub outcome: QuotientOutcome,
}

/// The quotient, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuotientOutcome {
    /// Computed and proved.
    Proved {
        /// Its order.
        order: usize,
        /// The P-portion's elements, by name.
        p_portion: Vec<String>,
        /// The presentation: generators and relations.
        presentation: String,
        /// The whole game's (preperiod, period) when the quotient's theorem certifies them.
        period: Option<(u32, u32)>,
    },
    /// Not computed: the reason in words (the order bound was hit already at heap 1,
    /// memory ran out).
    NotComputed(String),
}

/// The sequence status of an entry: `solved` with a proved period, else `unsolved`.
impl Entry {
    /// `solved` (a certified period, or an arithmetic period the criterion proves) or
    /// `unsolved`.
    pub fn status(&self) -> &'static str {
        if self.period.is_some() || self.proved_arithmetic().is_some() {
            "solved"
        } else {
            "unsolved"
        }
    }

    /// The arithmetic period, when the arithmetic-periodicity criterion proves it.
    pub fn proved_arithmetic(&self) -> Option<&ArithmeticEvidence> {
        self.arithmetic.as_ref().filter(|a| a.proved)
    }

    /// The fingerprint of `G(0..=horizon)`, if the entry has one for that horizon.
    pub fn fingerprint_at(&self, horizon: u64) -> Option<&str> {
        self.fingerprints.iter().find(|(h, _)| *h == horizon).map(|(_, f)| f.as_str())
    }
}
