//! The periodicity theorems that turn agreement inside the data into periodicity forever.

use crate::sequence::rule::HeapRule;
use crate::sequence::ThreeHeapRule;

/// What a certificate needs of a take-and-break rule, as plain numbers and flags: the
/// most tokens one move removes (`t`, the index of the code's last non-zero digit) and
/// whether a move may leave two or three heaps. A hexadecimal code's digit bit 8 is the
/// three-heap move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveShape {
    /// `t`, the most tokens one move removes.
    pub max_removal: u32,
    /// Whether some move leaves two non-empty heaps.
    pub two_heaps: bool,
    /// Whether some move leaves three non-empty heaps.
    pub three_heaps: bool,
}

impl MoveShape {
    /// The shape of a rule whose moves leave at most two heaps.
    pub fn of_rule(rule: &HeapRule) -> MoveShape {
        MoveShape { max_removal: rule.max_removal(), two_heaps: rule.splits(), three_heaps: false }
    }

    /// The shape of a rule whose moves may leave three heaps.
    pub fn of_three_heap_rule(rule: &ThreeHeapRule) -> MoveShape {
        MoveShape {
            max_removal: rule.max_removal(),
            two_heaps: rule.pairs.splits(),
            three_heaps: !rule.split_three.is_empty(),
        }
    }

    /// The most heaps one move leaves (0 or 1 when no move splits).
    fn most_heaps(self) -> u64 {
        if self.three_heaps {
            3
        } else if self.two_heaps {
            2
        } else {
            1
        }
    }
}

/// The theorem that turns agreement inside the data into periodicity forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// No move splits a heap: agreement on `e <= n < e + p + t` suffices.
    NonSplitting {
        /// `t`, the most tokens one move removes.
        max_removal: u32,
    },
    /// The octal periodicity theorem: agreement on `e <= n < 2 max(e, 1) + p + t` suffices.
    OctalPeriodicity {
        /// `t`, the index of the last non-zero octal digit.
        max_removal: u32,
    },
    /// The periodicity theorem for moves that leave up to three heaps (hexadecimal codes):
    /// agreement on `e <= n < 3 max(e, 1) + 2p + t` suffices.
    HexadecimalPeriodicity {
        /// `t`, the index of the last non-zero hexadecimal digit.
        max_removal: u32,
    },
    /// nimtab's arithmetic-periodicity criterion for moves that leave up to three heaps
    /// (`arithmetic_proof.rs`): agreement of the values with `G(n + p) = G(n) + s` through
    /// `checked_through` and the criterion's checks on the sequence that relation extends.
    ArithmeticPeriodicity {
        /// The last heap whose computed value the proof reads.
        checked_through: u64,
    },
}

impl Certificate {
    /// The certificate that applies to a take-and-break rule, if any.
    pub fn for_rule(rule: &HeapRule) -> Option<Certificate> {
        (!rule.unequal_split).then(|| Certificate::for_shape(MoveShape::of_rule(rule)))
    }

    /// The certificate for rules of this shape whose splits are free (any sizes, equal
    /// or not); a rule that forbids equal parts has none (see the module's notes).
    pub fn for_shape(shape: MoveShape) -> Certificate {
        let max_removal = shape.max_removal;
        match shape.most_heaps() {
            3 => Certificate::HexadecimalPeriodicity { max_removal },
            2 => Certificate::OctalPeriodicity { max_removal },
            _ => Certificate::NonSplitting { max_removal },
        }
    }

    /// Whether the search reads the sequence's differences, so that it can also find
    /// arithmetic periods (only games with three-heap moves are arithmetic-periodic:
    /// values of the other games are bounded once periodic).
    pub fn reads_saltus(self) -> bool {
        matches!(self, Certificate::HexadecimalPeriodicity { .. })
    }

    /// One past the last `n` at which `G(n + p) = G(n)` must hold.
    pub fn window_end(self, preperiod: u64, period: u64) -> u64 {
        let (e, p) = (preperiod, period);
        match self {
            Certificate::NonSplitting { max_removal } => e + p + u64::from(max_removal),
            Certificate::OctalPeriodicity { max_removal } => {
                2 * e.max(1) + p + u64::from(max_removal)
            }
            Certificate::HexadecimalPeriodicity { max_removal } => {
                3 * e.max(1) + 2 * p + u64::from(max_removal)
            }
            Certificate::ArithmeticPeriodicity { checked_through } => {
                (checked_through + 1).saturating_sub(p).max(e)
            }
        }
    }

    /// The theorem's name, as the user guide cites it (docs/guide/grundy-and-periods.md).
    pub fn name(self) -> &'static str {
        match self {
            Certificate::NonSplitting { .. } => "no move splits a heap",
            Certificate::OctalPeriodicity { .. } => "octal periodicity theorem",
            Certificate::HexadecimalPeriodicity { .. } => "hexadecimal periodicity theorem",
            Certificate::ArithmeticPeriodicity { .. } => "arithmetic-periodicity criterion",
        }
    }

    /// The window in words, for the text of a verdict.
    pub fn window_text(self) -> &'static str {
        match self {
            Certificate::NonSplitting { .. } => "e <= n < e + p + t",
            Certificate::OctalPeriodicity { .. } => "e <= n < 2 max(e, 1) + p + t",
            Certificate::HexadecimalPeriodicity { .. } => "e <= n < 3 max(e, 1) + 2p + t",
            Certificate::ArithmeticPeriodicity { .. } => "e <= n <= N - p, N its checked heap",
        }
    }
}
