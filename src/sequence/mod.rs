//! Grundy sequences of one heap, to heap sizes of `2^40`: the rare/common engine, compact
//! values in memory or on disk, certified periods, checkpoints, frequency tables, the
//! rare/common split.
//!
//! This layer sits below `model/`: it reads a game's move rule as plain removal counts
//! ([`HeapRule`]) and depends on nothing else in the crate. [`run`] computes `G(0..=max)`
//! of a take-and-break rule (subtraction games, octal games, Grundy's game), one heap at a
//! time, with the values in a [`Store`]; it reports progress and hands checkpoints to an
//! [`Observer`], stops at a certified period when asked ([`Goal::Period`]), and extends
//! the values by one ([`Goal::Values`]). A run resumed from a checkpoint gives the same
//! values as one never interrupted: every value is the exact mex, whatever the mask, the
//! witness list or the thread count (they only decide the speed).

mod any_engine;
pub mod checkpoint;
mod engine;
mod error;
pub mod freq;
pub mod period;
pub mod plan;
pub mod rare;
mod resume_check;
mod rule;
mod run;
mod sequence_values;
mod spot_check;
pub mod three_heap_checkpoint;
mod three_heap_run;
mod three_heaps;
mod two_threads;
pub mod values;

pub use checkpoint::Checkpoint;
pub use engine::mask::{fewest_rare_mask, is_rare};
pub use error::{human_bytes, human_bytes_apart, SequenceError};
pub use freq::Frequencies;
pub use rare::{fewest_rare_mask_of, Histogram, RareSummary};
pub use rule::HeapRule;
pub use run::{
    is_period_check_point, run, values_in_memory, Goal, NoObserver, Observer, Settings, Start,
    Status,
};
pub use sequence_values::{Extension, Sequence};
pub use spot_check::{sample_heaps, WrongValue};
pub use three_heap_checkpoint::ThreeHeapCheckpoint;
pub use three_heap_run::run_three_heaps;
pub use three_heaps::{
    three_heap_values, three_heap_values_until, ThreeHeapRule, ThreeHeapValues,
    MAX_THREE_HEAP_SEQUENCE,
};
pub use two_threads::parallel::Tuning;
pub use values::cell::Width;
pub use values::disk_store::DiskStore;
pub use values::layout::Layout;
pub use values::store::Store;

/// The largest heap size a sequence is computed to: `2^40`.
pub const MAX_SEQUENCE_HEAP: u64 = 1 << 40;

/// Refuses a heap size above [`MAX_SEQUENCE_HEAP`].
///
/// # Errors
/// [`SequenceError::HeapTooLarge`].
pub fn validate_sequence_max(max: u64) -> Result<u64, SequenceError> {
    if max > MAX_SEQUENCE_HEAP {
        return Err(SequenceError::HeapTooLarge { max, limit: MAX_SEQUENCE_HEAP });
    }
    Ok(max)
}
