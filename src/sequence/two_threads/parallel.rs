//! The two-thread path's one tuning value, and which way a call runs: alone, or with a
//! second thread (the marker of `pipeline.rs`) when the mark list is long enough for it.

/// The two-thread path's tuning: how long a mark list must be for a marker thread, and how
/// many heaps a block holds.
///
/// [`Tuning::default`] holds the measured values: blocks of 128 heaps, and a marker for
/// every call whose mark list has at least 128 parts the marker may mark (parts of at
/// least four blocks: the marker runs at most `AHEAD`, 3, blocks ahead). These gave
/// 1.5-1.8x on two cores for the octal games of `benches/results.md`; a marker for any
/// part at all measured 1.10x slower on `octal:0.161`. The thread count is not part of
/// it: that is [`Settings::threads`](crate::sequence::Settings::threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Parts the mark list must have for a second thread to pay for its hand-offs.
    min_marker_parts: usize,
    /// Heaps a block: the finisher tells the marker how far it is once a block. A power
    /// of two, at most [`STRETCH`](crate::sequence::engine::STRETCH), so that blocks fill a stretch.
    block: u64,
}

impl Default for Tuning {
    /// The measured tuning: a marker thread only where the mark list is long enough to pay
    /// for it.
    fn default() -> Tuning {
        Tuning { min_marker_parts: MIN_MARKER_PARTS, block: BLOCK }
    }
}

impl Tuning {
    /// A marker thread for every call with any part to mark, in blocks of 8 heaps up to 3
    /// blocks ahead, whatever it costs: tests use it, so that the two-thread path runs on
    /// small games.
    pub fn forced() -> Tuning {
        Tuning { min_marker_parts: 1, block: 8 }
    }

    /// Heaps a block.
    pub(crate) fn block_len(self) -> u64 {
        self.block
    }

    /// The smallest part the marker marks: [`AHEAD`] + 1 blocks, so that a block's partners
    /// are final while the finisher is still [`AHEAD`] blocks behind it.
    pub(crate) fn min_marker_part(self) -> u32 {
        ((AHEAD + 1) * self.block) as u32
    }

    /// Whether a mark list with `parts` parts large enough for the marker is long enough
    /// for a marker thread.
    pub(crate) fn marker_pays(self, parts: usize) -> bool {
        parts >= self.min_marker_parts
    }
}

/// Heaps a block, by default.
const BLOCK: u64 = 128;
/// Blocks the marker may run ahead of the finisher: slack for the heaps whose search is
/// long. It marks only the parts of at least `AHEAD + 1` blocks.
pub(crate) const AHEAD: u64 = 3;
/// Parts the marker must have for a second thread to pay for its hand-offs.
const MIN_MARKER_PARTS: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::error::SequenceError;
    use crate::sequence::rule::HeapRule;
    use crate::sequence::run::{run, Goal, NoObserver, Settings, Start};
    use crate::sequence::two_threads::pipeline::{MARKER_PANICS_AT, MARKER_REFUSED};
    use crate::sequence::values::store::Store;

    /// The values of `rule` to `max` on `threads` threads tuned by `tuning`.
    fn values(rule: &HeapRule, max: u64, threads: usize, tuning: Tuning) -> Vec<u64> {
        let settings = Settings::new(Goal::Values, max).threads(threads).tuning(tuning);
        let start = Start::Fresh(Store::in_memory(max + 1));
        let mut sequence = run(rule, "", &settings, start, &mut NoObserver).expect("the run");
        let mut values = Vec::new();
        sequence.for_each(0..=max, &mut |_, v| values.push(v)).expect("memory stores do not fail");
        values
    }

    /// Octal games without a known period: 0.014 and 0.172.
    fn unsolved_octal_games() -> [HeapRule; 2] {
        let rule = |vanish: Vec<u32>, shrink: Vec<u32>, split: Vec<u32>| HeapRule {
            vanish,
            shrink,
            split,
            unequal_split: false,
        };
        [rule(vec![2], vec![], vec![3]), rule(vec![1, 2], vec![2, 3], vec![2])]
    }

    #[test]
    fn two_threads_in_blocks_of_the_default_size_give_the_values_of_one() {
        // The default blocks are 128 heaps and leave the marker only parts of four blocks
        // or more: the games must run long enough for such parts to be rare heaps.
        for rule in unsolved_octal_games() {
            let one = values(&rule, 1 << 17, 1, Tuning::default());
            let two = Tuning { block: BLOCK, ..Tuning::forced() };
            assert_eq!(values(&rule, 1 << 17, 2, two), one, "{rule:?}");
        }
    }

    /// Grundy's game to `max` with a marker thread from the first block.
    fn two_threads(max: u64) -> Result<(), SequenceError> {
        let settings = Settings::new(Goal::Values, max).threads(2).tuning(Tuning::forced());
        let start = Start::Fresh(Store::in_memory(max + 1));
        run(&HeapRule::grundys_game(), "", &settings, start, &mut NoObserver).map(|_| ())
    }

    #[test]
    fn a_marker_that_panics_ends_the_call_with_its_panic() {
        assert!(two_threads(100_000).is_ok(), "the run without a fault");
        MARKER_PANICS_AT.with(|at| at.set(Some(12_345)));
        let outcome = std::panic::catch_unwind(|| two_threads(100_000));
        MARKER_PANICS_AT.with(|at| at.set(None));
        let panic = outcome.expect_err("the marker's panic reaches the caller");
        let message = panic.downcast_ref::<String>().map(String::as_str).unwrap_or_default();
        // The marker may be handed its first stretch past the fault's heap, so any heap from
        // there to the end is its panic.
        let heap =
            message.strip_prefix("marker fault at heap ").and_then(|h| h.parse::<u64>().ok());
        assert!(heap.is_some_and(|h| (12_345..=100_000).contains(&h)), "{message}");
    }

    #[test]
    fn a_marker_thread_the_system_will_not_start_is_an_error_not_a_panic() {
        MARKER_REFUSED.with(|refused| refused.set(true));
        let outcome = std::panic::catch_unwind(|| two_threads(100_000));
        MARKER_REFUSED.with(|refused| refused.set(false));
        let refused = outcome.expect("an error, not a panic");
        let Err(SequenceError::ThreadNotStarted(cause)) = refused else {
            panic!("expected a refusal, got {refused:?}")
        };
        assert_eq!(cause.kind(), std::io::ErrorKind::WouldBlock);
    }
}
