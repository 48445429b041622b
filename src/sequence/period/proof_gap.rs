//! Why the arithmetic-periodicity criterion does not prove a triple, in words for a verdict.

/// Why the criterion does not prove a triple (the triple may still be true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofGap {
    /// The proof reads computed values through this heap, past the last one computed.
    NeedsValues(u64),
    /// The values do not satisfy the triple at this heap `n` (`G(n) != G(n - p) + s`).
    Broken(u64),
    /// No test settles whether options removing `removed` tokens and leaving `parts`
    /// heaps may take the value `f(n)`, for example at heap `heap`.
    Avoidance {
        /// Tokens removed.
        removed: u32,
        /// Heaps left.
        parts: u32,
        /// A heap of the class.
        heap: u64,
    },
    /// No pair, twin or one-tail witness has the value `f(heap) - offset`.
    Coverage {
        /// The heap.
        heap: u64,
        /// How far below `f(heap)` the value without a witness is.
        offset: u64,
    },
    /// The checks would exceed the criterion's bound on its work.
    TooLarge,
    /// The rule forbids equal parts (its pairs are not moves).
    UnequalSplits,
}

impl ProofGap {
    /// Why, in words, for the text of a verdict.
    pub fn explain(&self) -> String {
        match *self {
            ProofGap::NeedsValues(n) => format!(
                "the arithmetic-periodicity criterion reads values through heap {n}: raise --max"
            ),
            ProofGap::Broken(n) => format!("the values break the relation at heap {n}"),
            ProofGap::Avoidance { removed, parts, heap } => format!(
                "the arithmetic-periodicity criterion cannot rule out that a move removing \
                 {removed} and leaving {parts} heaps reaches the value f(n) (e.g. n = {heap})"
            ),
            ProofGap::Coverage { heap, offset } => format!(
                "the arithmetic-periodicity criterion finds no witness for the value \
                 f(n) - {offset} at heap {heap}"
            ),
            ProofGap::TooLarge => {
                "the arithmetic-periodicity criterion's checks exceed its bound".into()
            }
            ProofGap::UnequalSplits => {
                "the arithmetic-periodicity criterion needs splits into equal heaps".into()
            }
        }
    }
}
