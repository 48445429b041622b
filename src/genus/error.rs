//! Why a genus was not computed: bad input, the memory budget, or the caller's stop.

use crate::sequence::human_bytes;

/// Why a genus was not computed.
#[derive(Debug, thiserror::Error)]
pub enum GenusError {
    /// A game that is not a take-and-break game of heaps.
    #[error(
        "a genus needs a take-and-break game of heaps (subtract:S, octal:CODE, hex:CODE or \
         grundys-game); {spec} is not one"
    )]
    NoHeapRule {
        /// The game's specification.
        spec: String,
    },
    /// A largest heap above [`crate::genus::MAX_GENUS_HEAP`].
    #[error("the largest heap must be at most {limit}, got {max_heap}")]
    MaxHeap {
        /// What was asked for.
        max_heap: u32,
        /// The bound.
        limit: u32,
    },
    /// A position of no heaps or of more than [`crate::genus::MAX_POSITION_HEAPS`].
    #[error("a position must have from 1 to {limit} heaps, got {count}")]
    PositionHeaps {
        /// The heaps given.
        count: usize,
        /// The bound.
        limit: usize,
    },
    /// The canonical forms outgrew the memory budget.
    #[error(
        "the canonical forms need more than the {} of memory available (they hold {} and ask \
         for {} more); lower the largest heap or the heaps of the position",
        human_bytes(*.limit_bytes),
        human_bytes(*.held_bytes),
        human_bytes(.need_bytes - .held_bytes)
    )]
    BeyondMemory {
        /// Bytes held when it stopped.
        held_bytes: u64,
        /// Bytes it needed.
        need_bytes: u64,
        /// The budget.
        limit_bytes: u64,
    },
    /// The caller asked the work to stop.
    #[error("the genus computation was cancelled")]
    Cancelled,
}
