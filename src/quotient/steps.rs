//! The steps that refine a candidate for a heap's quotient: the cycles a step sets free,
//! the subsets of a failure's heaps tried, and the steps one growth keeps for the next.

use crate::quotient::memory::{Meter, Result};
use crate::quotient::monoid::{Cycle, HeapMonoid};
use crate::quotient::QuotientError;

/// The cycles a step sets free in `monoid`: each heap's cycle at least as long as the
/// step asks and as its own in `monoid` (an index no smaller, a period a multiple of both),
/// so that the candidate refines `monoid`.
pub(crate) fn raised(monoid: &HeapMonoid, step: &[Cycle]) -> Vec<Cycle> {
    step.iter()
        .map(|c| {
            let (index, period) = monoid.cycle_of(c.heap);
            Cycle { heap: c.heap, index: index.max(c.index), period: lcm(period, c.period) }
        })
        .collect()
}

/// The elements of `monoid.with_cycles(_, cycles)`, without building it.
pub(crate) fn candidate_size(
    monoid: &HeapMonoid,
    cycles: &[Cycle],
    meter: &Meter,
) -> Result<usize> {
    let kept: Vec<u32> =
        (1..=monoid.max_heap()).filter(|&g| cycles.iter().all(|c| c.heap != g)).collect();
    let base = monoid.submonoid(&kept, &mut meter.hold(0)?)?.len();
    Ok(cycles.iter().fold(base, |size, c| size.saturating_mul((c.index + c.period) as usize)))
}

/// The steps of a growth for the next one to replay: one per heap, where it was first set
/// free, with the largest index any step asked for it (a heap set free again later only
/// needed a longer cycle).
pub(crate) fn merged(steps: Vec<Vec<Cycle>>) -> Vec<Vec<Cycle>> {
    let mut kept: Vec<Vec<Cycle>> = Vec::with_capacity(steps.len());
    for step in steps {
        let fresh: Vec<Cycle> = step
            .into_iter()
            .filter(|c| {
                let earlier = kept.iter_mut().flatten().find(|k| k.heap == c.heap);
                earlier.map(|k| k.index = k.index.max(c.index)).is_none()
            })
            .collect();
        if !fresh.is_empty() {
            kept.push(fresh);
        }
    }
    kept
}

/// Whether a growth that replayed the last one's steps and stopped with `err` is done
/// again without them: a limit or the memory may have been met on the replay's account,
/// while the caller's stop and a quotient too large for the order bound stand.
pub(crate) fn retried_without_replay(err: &QuotientError) -> bool {
    !matches!(err, QuotientError::Cancelled | QuotientError::GrewPastLimit { .. })
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u32, b: u32) -> u32 {
    a / gcd(a, b) * b
}

/// Every non-empty subset of `0..n` by size, then in lexicographic order; for more than
/// twelve heaps only the whole set (the choice that always works).
pub(crate) fn subsets(n: usize) -> Vec<Vec<usize>> {
    if n > 12 {
        return vec![(0..n).collect()];
    }
    let mut all: Vec<Vec<usize>> =
        (1u32..1 << n).map(|mask| (0..n).filter(|&i| mask >> i & 1 == 1).collect()).collect();
    all.sort_by(|a: &Vec<usize>, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(heap: u32, index: u32) -> Cycle {
        Cycle { heap, index, period: 2 }
    }

    #[test]
    fn a_heap_set_free_again_is_replayed_once_where_it_was_first_with_the_larger_index() {
        let steps = vec![
            vec![cycle(3, 2)],
            vec![cycle(9, 3)],
            vec![cycle(3, 5), cycle(11, 2)],
            vec![cycle(9, 2)],
        ];
        let replay = merged(steps);
        assert_eq!(replay, vec![vec![cycle(3, 5)], vec![cycle(9, 3)], vec![cycle(11, 2)]]);
    }

    #[test]
    fn a_step_raises_each_cycle_to_the_heaps_own_in_the_monoid() {
        // Heap 1 walks 0 -> 1 -> 2 -> 3 -> 1: index 1, period 3.
        let m = HeapMonoid { size: 4, act: vec![Vec::new(), vec![1, 2, 3, 1]] };
        let raised = raised(&m, &[cycle(1, 2)]);
        assert_eq!(raised, vec![Cycle { heap: 1, index: 2, period: 6 }]);
    }

    #[test]
    fn subsets_come_smallest_first() {
        let all = subsets(3);
        assert_eq!(
            all,
            vec![vec![0], vec![1], vec![2], vec![0, 1], vec![0, 2], vec![1, 2], vec![0, 1, 2]]
        );
        assert_eq!(subsets(13), vec![(0..13).collect::<Vec<_>>()]);
    }
}
