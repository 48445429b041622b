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

use crate::model::ending::Ending;
use crate::quotient::bits;
use crate::quotient::check::{check, Checking, Failure, LowerBounds, Verdict};
use crate::quotient::heaps::HeapOptions;
use crate::quotient::mark::{forced_p_portion, representatives};
use crate::quotient::memory::{Held, Hold, Meter, Result};
use crate::quotient::monoid::{Cycle, HeapMonoid};
use crate::quotient::{QuotientConfig, QuotientError, QuotientProgress};

/// A reduced monoid with its P-portion that predicts every outcome of heaps `0..=n`.
#[derive(Clone, Debug)]
pub(crate) struct Solved {
    pub monoid: HeapMonoid,
    pub p: Vec<bool>,
}

/// The state of the computation after some heaps.
struct Solver<'g, 'm> {
    all: &'g [Vec<(u32, u32)>],
    config: &'g QuotientConfig,
    solved: Held<'m, Solved>,
    /// For each element, the least option-class sets of its positions (from the last
    /// full check; still sets of real positions after a conservative extension).
    lower_bounds: Held<'m, LowerBounds>,
    /// What everything the computation holds is counted against.
    meter: &'m Meter,
    /// Told of each heap done, and asked between steps whether to stop.
    progress: &'g dyn QuotientProgress,
}

/// A solved monoid with its P-portion, counted in `hold` with the P-portion's bytes.
fn held(monoid: HeapMonoid, p: Vec<bool>, mut hold: Hold<'_>) -> Result<Held<'_, Solved>> {
    hold.grow(p.capacity() as u64)?;
    Ok(Held::new(Solved { monoid, p }, hold))
}

/// Computes the reduced monoid of heaps `1..=max_heap` (whose options are `all`),
/// reporting each heap, everything it holds counted against `meter`.
pub(crate) fn solve<'m>(
    all: &[Vec<(u32, u32)>],
    config: &QuotientConfig,
    meter: &'m Meter,
    progress: &dyn QuotientProgress,
) -> Result<Held<'m, Solved>> {
    let trivial =
        held(HeapMonoid::trivial(0), vec![config.play == Ending::Normal], meter.hold(0)?)?;
    let mut solver = Solver {
        all,
        config,
        solved: trivial,
        lower_bounds: Held::new(vec![Vec::new()], meter.hold(0)?),
        meter,
        progress,
    };
    for h in 1..=config.max_heap {
        meter.at_heap(h);
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

impl<'m> Solver<'_, 'm> {
    /// [`QuotientError::Cancelled`] once the caller has asked to stop.
    fn stop_if_cancelled(&self) -> Result<()> {
        if self.progress.cancelled() {
            return Err(QuotientError::Cancelled);
        }
        Ok(())
    }

    fn options(&self, h: u32) -> HeapOptions<'_> {
        HeapOptions::upto(self.all, h)
    }

    /// How a candidate for heap `h` is checked.
    fn checking(&self, h: u32) -> Checking<'_, 'm> {
        Checking {
            options: self.options(h),
            play: self.config.play,
            meter: self.meter,
            progress: self.progress,
        }
    }

    fn add_heap(&mut self, h: u32) -> Result<()> {
        if self.all[h as usize].is_empty() {
            let mut hold = self.meter.hold(0)?;
            let monoid = self.solved.monoid.with_heap_as(None, &mut hold)?;
            let mut p = hold.with_capacity(self.solved.p.len())?;
            p.extend_from_slice(&self.solved.p);
            self.solved = held(monoid, p, hold)?;
            return Ok(());
        }
        if let Some((solved, lower_bounds)) = self.conservative_class(h)? {
            self.solved = solved;
            if let Some(lower_bounds) = lower_bounds {
                self.lower_bounds = lower_bounds;
            }
            return Ok(());
        }
        self.extend(h)
    }

    /// The monoid with heap `h` as a present element, if one fits (and the new lower
    /// bounds when a full check found it): every present element is tried.
    #[allow(clippy::type_complexity)]
    fn conservative_class(
        &self,
        h: u32,
    ) -> Result<Option<(Held<'m, Solved>, Option<Held<'m, LowerBounds>>)>> {
        let q = &self.solved.monoid;
        let p = &self.solved.p;
        let mut scratch = self.meter.hold(0)?;
        let reps = representatives(q, self.options(h - 1), &mut scratch)?;
        // Each element's representative as its heaps (a vector each, of the heaps counted
        // by its key, pushed so at most twice that).
        let heaps: u64 = reps.key.iter().flatten().map(|k| k.count).sum();
        scratch.grow(heaps.saturating_mul(8))?;
        let mut words: Vec<Vec<u32>> = scratch.with_capacity(q.size)?;
        words.extend((0..q.size as u32).map(|x| reps.heaps(x)));
        let mut classes = vec![0u64; bits::words_for(q.size)];
        for &o in &self.all[h as usize] {
            bits::insert(&mut classes, q.apply_option(0, o));
        }
        let option_classes: Vec<u32> = bits::elements(&classes).collect();
        let heap_is_p = !option_classes.iter().any(|&t| p[t as usize]);
        // `blocked[z]`: some option class `t` has `t·z` in P, so no `x` with `x·z` in P
        // may stand for the heap.
        let mut blocked = scratch.vec(q.size, false)?;
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
        let mut right_outcome: Vec<usize> = scratch.with_capacity(q.size)?;
        right_outcome.extend((0..q.size).filter(|&x| p[x] == heap_is_p));
        let quick = right_outcome.iter().copied().find(|&x| {
            self.lower_bounds[x].iter().any(|lower| bits::is_subset(lower, &classes))
                && compatible(x)
        });
        if let Some(x) = quick {
            return Ok(Some((self.with_heap_as(&words[x])?, None)));
        }
        right_outcome.retain(|&x| compatible(x));
        for x in right_outcome {
            self.stop_if_cancelled()?;
            let trial = self.with_heap_as(&words[x])?;
            match check(&trial.monoid, &trial.p, &self.checking(h))? {
                Verdict::Holds(lower_bounds) => return Ok(Some((trial, Some(lower_bounds)))),
                Verdict::Fails(_) => {}
            }
        }
        Ok(None)
    }

    /// The solved monoid with the new heap acting as the class of `heaps`.
    fn with_heap_as(&self, heaps: &[u32]) -> Result<Held<'m, Solved>> {
        let mut hold = self.meter.hold(0)?;
        let monoid = self.solved.monoid.with_heap_as(Some(heaps), &mut hold)?;
        let mut p = hold.with_capacity(self.solved.p.len())?;
        p.extend_from_slice(&self.solved.p);
        held(monoid, p, hold)
    }

    /// Grows the quotient for heap `h`: candidates refined until one holds.
    fn extend(&mut self, h: u32) -> Result<()> {
        let first = Cycle { heap: h, index: 2, period: 2 };
        let mut trial = {
            let mut hold = self.meter.hold(0)?;
            let candidate = self.solved.monoid.with_cycles(h, &[first], &mut hold)?;
            self.marked_and_reduced(&candidate, h)?
        };
        loop {
            self.stop_if_cancelled()?;
            match check(&trial.monoid, &trial.p, &self.checking(h))? {
                Verdict::Holds(lower_bounds) => {
                    self.solved = trial;
                    self.lower_bounds = lower_bounds;
                    return Ok(());
                }
                Verdict::Fails(failure) => {
                    trial = self.refine(&trial, &failure, h)?;
                    let (size, limit) = (trial.monoid.size, self.config.reduced_limit());
                    if size > limit {
                        return Err(QuotientError::CandidateTooLarge { heap: h, size, limit });
                    }
                    self.progress.searching(h, size);
                }
            }
        }
    }

    /// The forced P-portion of a candidate, reduced.
    fn marked_and_reduced(&self, candidate: &HeapMonoid, h: u32) -> Result<Held<'m, Solved>> {
        let mut scratch = self.meter.hold(0)?;
        let (_, p) = forced_p_portion(candidate, self.options(h), self.config.play, &mut scratch)?;
        let mut hold = self.meter.hold(0)?;
        let (monoid, p, _) = candidate.reduce(&p, &mut hold)?;
        held(monoid, p, hold)
    }

    /// The next candidate after `trial` failed first at `failure`: the fewest heaps of the
    /// failure set free that put it right.
    fn refine(&self, trial: &Solved, failure: &Failure, h: u32) -> Result<Held<'m, Solved>> {
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
        let limit = self.config.candidate_limit();
        let mut smallest_refused = usize::MAX;
        for subset in subsets(cycles.len()) {
            self.stop_if_cancelled()?;
            let chosen: Vec<Cycle> = subset.iter().map(|&i| cycles[i]).collect();
            let size = candidate_size(&trial.monoid, &chosen, self.meter)?;
            if size > limit {
                smallest_refused = smallest_refused.min(size);
                continue;
            }
            let mut hold = self.meter.hold(0)?;
            let candidate = trial.monoid.with_cycles(h, &chosen, &mut hold)?;
            let (_, p) =
                forced_p_portion(&candidate, self.options(h), self.config.play, &mut hold)?;
            if p[candidate.element_of(counts) as usize] == want {
                let mut kept = self.meter.hold(0)?;
                let (monoid, p, _) = candidate.reduce(&p, &mut kept)?;
                return held(monoid, p, kept);
            }
        }
        Err(QuotientError::CandidateTooLarge { heap: h, size: smallest_refused, limit })
    }
}

/// The elements of `monoid.with_cycles(_, cycles)`, without building it.
fn candidate_size(monoid: &HeapMonoid, cycles: &[Cycle], meter: &Meter) -> Result<usize> {
    let kept: Vec<u32> =
        (1..=monoid.max_heap()).filter(|&g| cycles.iter().all(|c| c.heap != g)).collect();
    let base = monoid.submonoid(&kept, &mut meter.hold(0)?)?.len();
    Ok(cycles.iter().fold(base, |size, c| size.saturating_mul((c.index + c.period) as usize)))
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
