//! Why a quotient was not computed: bad input, a limit met, the caller's stop, a
//! checkpoint that cannot be resumed, or a proof that failed (a bug).

use crate::engine::error::size;
use crate::quotient::QuotientPlan;
use crate::sequence::human_bytes;

/// Why a quotient was not computed.
#[derive(Debug, thiserror::Error)]
pub enum QuotientError {
    /// A game that is not a sum of heaps (Wythoff, Moore, circular Nim, a pass).
    #[error(
        "a misère quotient needs a sum of heaps (nim, subtract:S, graph:PATH, octal:CODE, \
         hex:CODE or grundys-game, without --pass); {spec} is not one"
    )]
    NotASum {
        /// The game's specification.
        spec: String,
    },
    /// The SJ ending, which no quotient decides.
    #[error("a quotient decides normal or misère play; the SJ ending has none")]
    SjEnding,
    /// A largest heap of 0 or above [`MAX_QUOTIENT_HEAP`] (above
    /// [`crate::quotient::MAX_THREE_HEAP_QUOTIENT_HEAP`] for moves that leave three heaps).
    #[error("the largest heap must be from 1 to {limit}, got {max_heap}")]
    MaxHeap {
        /// What was asked for.
        max_heap: u32,
        /// The bound.
        limit: u32,
    },
    /// An order bound of 0 or above [`MAX_ORDER`].
    #[error("the order bound must be from 1 to {limit}, got {max_order}")]
    MaxOrder {
        /// What was asked for.
        max_order: usize,
        /// The bound.
        limit: usize,
    },
    /// The quotient (or a candidate for it) grew past the order bound.
    #[error(
        "the quotient grows past {limit} elements at heap {heap} ({order} elements); raise the \
         order bound or lower the largest heap"
    )]
    GrewPastLimit {
        /// The heap being added.
        heap: u32,
        /// The order reached (of a candidate before reduction, when one was too large).
        order: usize,
        /// The bound.
        limit: usize,
    },
    /// A candidate monoid (before reduction) outgrew its bound: no quotient was found
    /// within the order bound, though its own order is not known.
    #[error(
        "the search for the quotient at heap {heap} needs a candidate monoid of {size} elements, \
         more than {limit}; raise the order bound or lower the largest heap"
    )]
    CandidateTooLarge {
        /// The heap being added.
        heap: u32,
        /// The smallest candidate that would have been needed.
        size: usize,
        /// The bound on candidates, from the order bound.
        limit: usize,
    },
    /// The computation needs more memory than its budget
    /// ([`QuotientConfig::memory_limit`]): its tables, candidates and the states of a
    /// proof together, at the point where it stopped.
    #[error(
        "the quotient at heap {heap} needs more than the {} of memory available: it holds {} \
         and asks for {} more",
        human_bytes(*.limit_bytes),
        human_bytes(*.held_bytes),
        human_bytes(.need_bytes - .held_bytes)
    )]
    BeyondMemory {
        /// The heap being added (the largest heap once every heap is added).
        heap: u32,
        /// Bytes held when it stopped.
        held_bytes: u64,
        /// Bytes needed at that point: what was held and what was asked for.
        need_bytes: u64,
        /// The budget.
        limit_bytes: u64,
    },
    /// Memory within the budget that the system refused (another process took it, or a
    /// limit the process cannot see).
    #[error(
        "out of memory: the quotient at heap {heap} needs {} more and the system refused them",
        size(*.bytes)
    )]
    OutOfMemory {
        /// The heap being added.
        heap: u32,
        /// Bytes asked for.
        bytes: u64,
    },
    /// The options of the heaps up to the largest need more than the memory budget.
    #[error(
        "the options of heaps up to {max_heap} need {}, more than the {} of memory available; \
         heaps up to {} fit",
        human_bytes(.plan.options_bytes),
        human_bytes(.plan.limit_bytes),
        .plan.fits_upto
    )]
    PlanBeyondMemory {
        /// What was asked for.
        max_heap: u32,
        /// The plan that does not fit.
        plan: QuotientPlan,
    },
    /// A checkpoint that cannot be resumed.
    #[error("the checkpoint cannot be resumed: {reason}")]
    BadCheckpoint {
        /// Why.
        reason: String,
    },
    /// The caller stopped the computation through [`QuotientProgress::cancelled`].
    #[error("cancelled before the quotient was computed")]
    Cancelled,
    /// The final proof failed: a bug, never a result.
    #[error("internal error: the computed quotient failed its proof: {0}")]
    NotCertified(String),
}
