//! The heap-by-heap computation (Plambeck and Siegel; Siegel, *Combinatorial Game
//! Theory*, ch. V): the quotient of heaps `1..=n` from that of heaps `1..n`.
//!
//! A new heap is first tried as a *conservative extension*: its class is an element `x`
//! already present. The mex-interpolation test accepts `x` at once when `x` has the
//! outcome the heap's options force, no element `z` has both `x·z` and `t·z` in the
//! P-portion for a class `t` of the heap's options (so a position predicted P never moves
//! to one predicted P through the new heap), and some position `y` of class `x` has all
//! its option classes among the heap's (so a position predicted N finds its move to P
//! through the heap wherever it found one through `y`). Otherwise each `x` with the right
//! outcome is checked in full (`check.rs`).
//!
//! When no `x` fits, the quotient grows: the heap gets a cyclic factor of its own, the
//! outcomes the least positions force are marked (`mark.rs`), the result is reduced by
//! indistinguishability and checked. A candidate that fails has a *least* failure `w`
//! (every earlier position is predicted rightly); the next candidate frees some heaps
//! of `w` from the others (a cyclic factor each, of index above their count in `w` and a
//! period that is a multiple of their old one). It refines the failed candidate, so every
//! position before `w` stays right, and it is chosen so that `w` is right too: the least
//! failure moves strictly later each time. Freeing every heap of `w` always puts `w`
//! first in its class, so a fitting choice exists; smaller choices are tried first.

use crate::model::game::Game;
use crate::quotient::bits;
use crate::quotient::check::{check, Failure, Verdict};
use crate::quotient::heaps::{all_options, HeapOptions};
use crate::quotient::mark::{forced_p_portion, representatives};
use crate::quotient::monoid::{Cycle, HeapMonoid};
use crate::quotient::{Play, QuotientConfig, QuotientError, QuotientProgress};

/// A reduced monoid with its P-portion that predicts every outcome of heaps `0..=n`.
#[derive(Clone, Debug)]
pub(crate) struct Solved {
    pub monoid: HeapMonoid,
    pub p: Vec<bool>,
}

/// Bytes of option-class sets one check may hold.
const CHECK_BYTES: usize = 1 << 30;

/// The least bound on a candidate's elements before reduction, whatever the order bound.
const MIN_CANDIDATE_LIMIT: usize = 16384;

/// The state of the computation after some heaps.
struct Solver<'g> {
    all: Vec<Vec<(u32, u32)>>,
    config: &'g QuotientConfig,
    solved: Solved,
    /// For each element, the least option-class sets of its positions (from the last
    /// full check; still sets of real positions after a conservative extension).
    lower_bounds: Vec<Vec<Vec<u64>>>,
    /// Told of each heap done, and asked between steps whether to stop.
    progress: &'g dyn QuotientProgress,
}

/// Computes the reduced monoid of heaps `1..=max_heap`, reporting each heap.
pub(crate) fn solve(
    game: &Game,
    config: &QuotientConfig,
    progress: &dyn QuotientProgress,
) -> Result<Solved, QuotientError> {
    let mut solver = Solver {
        all: all_options(game, config.max_heap),
        config,
        solved: Solved { monoid: HeapMonoid::trivial(0), p: vec![config.play == Play::Normal] },
        lower_bounds: vec![Vec::new()],
        progress,
    };
    for h in 1..=config.max_heap {
        solver.stop_if_cancelled()?;
        solver.add_heap(h)?;
        let order = solver.solved.monoid.size;
        if order > config.max_order {
            return Err(QuotientError::GrewPastLimit { heap: h, order, limit: config.max_order });
        }
        progress.heap_done(h, order);
    }
    Ok(solver.solved)
}

impl Solver<'_> {
    /// [`QuotientError::Cancelled`] once the caller has asked to stop.
    fn stop_if_cancelled(&self) -> Result<(), QuotientError> {
        if self.progress.cancelled() {
            return Err(QuotientError::Cancelled);
        }
        Ok(())
    }

    fn options(&self, h: u32) -> HeapOptions<'_> {
        HeapOptions::upto(&self.all, h)
    }

    fn add_heap(&mut self, h: u32) -> Result<(), QuotientError> {
        if self.all[h as usize].is_empty() {
            self.solved.monoid = self.solved.monoid.with_heap_as(None);
            return Ok(());
        }
        if let Some(()) = self.conservative(h)? {
            return Ok(());
        }
        self.extend(h)
    }

    /// Tries every present element as the heap's class.
    fn conservative(&mut self, h: u32) -> Result<Option<()>, QuotientError> {
        let found = self.conservative_class(h)?;
        Ok(found.map(|(monoid, lower_bounds)| {
            self.solved.monoid = monoid;
            if let Some(lower_bounds) = lower_bounds {
                self.lower_bounds = lower_bounds;
            }
        }))
    }

    /// The monoid with heap `h` as a present element, if one fits (and the new lower
    /// bounds when a full check found it).
    #[allow(clippy::type_complexity)]
    fn conservative_class(
        &self,
        h: u32,
    ) -> Result<Option<(HeapMonoid, Option<Vec<Vec<Vec<u64>>>>)>, QuotientError> {
        let q = &self.solved.monoid;
        let p = &self.solved.p;
        let reps = representatives(q, self.options(h - 1));
        let words: Vec<Vec<u32>> = (0..q.size as u32).map(|x| reps.heaps(x)).collect();
        let mut classes = vec![0u64; bits::words_for(q.size)];
        for &o in &self.all[h as usize] {
            bits::insert(&mut classes, q.apply_option(0, o));
        }
        let option_classes: Vec<u32> = bits::elements(&classes).collect();
        let heap_is_p = !option_classes.iter().any(|&t| p[t as usize]);
        // `blocked[z]`: some option class `t` has `t·z` in P, so no `x` with `x·z` in P
        // may stand for the heap.
        let mut blocked = vec![false; q.size];
        for &t in &option_classes {
            let word = &words[t as usize];
            for (z, b) in blocked.iter_mut().enumerate() {
                *b = *b || p[q.times_heaps(z as u32, word) as usize];
            }
        }
        let compatible = |x: usize| {
            let word = &words[x];
            (0..q.size as u32).all(|z| !(blocked[z as usize] && p[q.times_heaps(z, word) as usize]))
        };
        let right_outcome: Vec<usize> = (0..q.size).filter(|&x| p[x] == heap_is_p).collect();
        let quick = right_outcome.iter().copied().find(|&x| {
            self.lower_bounds[x].iter().any(|lower| bits::is_subset(lower, &classes))
                && compatible(x)
        });
        if let Some(x) = quick {
            return Ok(Some((q.with_heap_as(Some(&words[x])), None)));
        }
        let candidates: Vec<usize> = right_outcome.into_iter().filter(|&x| compatible(x)).collect();
        for x in candidates {
            self.stop_if_cancelled()?;
            let trial = q.with_heap_as(Some(&words[x]));
            match check(&trial, p, self.options(h), self.config.play, state_limit(trial.size)) {
                Verdict::Holds(lower_bounds) => return Ok(Some((trial, Some(lower_bounds)))),
                Verdict::Fails(_) => {}
                Verdict::TooLarge => return Err(QuotientError::CheckTooLarge { heap: h }),
            }
        }
        Ok(None)
    }

    /// Grows the quotient for heap `h`: candidates refined until one holds.
    fn extend(&mut self, h: u32) -> Result<(), QuotientError> {
        let first = Cycle { heap: h, index: 2, period: 2 };
        let candidate = self.solved.monoid.with_cycles(h, &[first]);
        let mut trial = self.marked_and_reduced(&candidate, h);
        loop {
            self.stop_if_cancelled()?;
            let verdict = check(
                &trial.monoid,
                &trial.p,
                self.options(h),
                self.config.play,
                state_limit(trial.monoid.size),
            );
            match verdict {
                Verdict::Holds(lower_bounds) => {
                    self.solved = trial;
                    self.lower_bounds = lower_bounds;
                    return Ok(());
                }
                Verdict::TooLarge => return Err(QuotientError::CheckTooLarge { heap: h }),
                Verdict::Fails(failure) => {
                    trial = self.refine(&trial, &failure, h)?;
                    let (size, limit) = (trial.monoid.size, self.reduced_limit());
                    if size > limit {
                        return Err(QuotientError::CandidateTooLarge { heap: h, size, limit });
                    }
                    self.progress.searching(h, size);
                }
            }
        }
    }

    /// The forced P-portion of a candidate, reduced.
    fn marked_and_reduced(&self, candidate: &HeapMonoid, h: u32) -> Solved {
        let (_, p) = forced_p_portion(candidate, self.options(h), self.config.play);
        let (monoid, p, _) = candidate.reduce(&p);
        Solved { monoid, p }
    }

    /// The next candidate after `trial` failed first at `failure`: the fewest heaps of the
    /// failure set free that put it right.
    fn refine(&self, trial: &Solved, failure: &Failure, h: u32) -> Result<Solved, QuotientError> {
        let counts = &failure.counts;
        let want = !trial.p[trial.monoid.element_of(counts) as usize];
        let involved: Vec<u32> = (1..=h).filter(|&g| counts[g as usize] > 0).collect();
        let cycles: Vec<Cycle> = involved
            .iter()
            .map(|&g| {
                let (index, period) = trial.monoid.cycle_of(g);
                Cycle { heap: g, index: index.max(counts[g as usize] + 1), period: lcm(period, 2) }
            })
            .collect();
        let limit = self.candidate_limit();
        let mut smallest_refused = usize::MAX;
        for subset in subsets(cycles.len()) {
            let chosen: Vec<Cycle> = subset.iter().map(|&i| cycles[i]).collect();
            let size = candidate_size(&trial.monoid, &chosen);
            if size > limit {
                smallest_refused = smallest_refused.min(size);
                continue;
            }
            let candidate = trial.monoid.with_cycles(h, &chosen);
            let (_, p) = forced_p_portion(&candidate, self.options(h), self.config.play);
            if p[candidate.element_of(counts) as usize] == want {
                let (monoid, p, _) = candidate.reduce(&p);
                return Ok(Solved { monoid, p });
            }
        }
        Err(QuotientError::CandidateTooLarge { heap: h, size: smallest_refused, limit })
    }

    /// The most elements a candidate may have before reduction.
    fn candidate_limit(&self) -> usize {
        self.config.max_order.saturating_mul(4).max(MIN_CANDIDATE_LIMIT)
    }

    /// The most elements a reduced candidate may have: four times the order bound, so
    /// that a lower order bound also stops a search that keeps growing sooner (a heap
    /// whose quotient never closes refines its candidate without end).
    fn reduced_limit(&self) -> usize {
        self.config.max_order.saturating_mul(4)
    }
}

/// The elements of `monoid.with_cycles(_, cycles)`, without building it.
fn candidate_size(monoid: &HeapMonoid, cycles: &[Cycle]) -> usize {
    let kept: Vec<u32> =
        (1..=monoid.max_heap()).filter(|&g| cycles.iter().all(|c| c.heap != g)).collect();
    let base = monoid.submonoid(&kept).len();
    cycles.iter().fold(base, |size, c| size.saturating_mul((c.index + c.period) as usize))
}

/// The states one check may explore in a monoid of `size` elements.
fn state_limit(size: usize) -> usize {
    CHECK_BYTES / (8 * bits::words_for(size).max(1))
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
fn subsets(n: usize) -> Vec<Vec<usize>> {
    if n > 12 {
        return vec![(0..n).collect()];
    }
    let mut all: Vec<Vec<usize>> =
        (1u32..1 << n).map(|mask| (0..n).filter(|&i| mask >> i & 1 == 1).collect()).collect();
    all.sort_by(|a: &Vec<usize>, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    all
}
