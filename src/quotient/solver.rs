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
//!
//! Each new generator tends to split the earlier heaps as the last one did, one check
//! and refinement per heap, so a growth first replays the last growth's steps (the heaps
//! each set free) on its first candidate, without checks, and refines from there. Any
//! candidate whose check holds predicts every position, and reducing it gives the one
//! least quotient: the replay changes how many checks fail, not the result.

use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::quotient::bits;
use crate::quotient::check::{check, Checking, Failure, LowerBounds, Verdict};
use crate::quotient::heaps::{HeapOptions, OptionSource};
use crate::quotient::mark::{forced_p_portion, representatives};
use crate::quotient::memory::{Held, Hold, Meter, Result};
use crate::quotient::monoid::{Cycle, HeapMonoid};
use crate::quotient::option::HeapOption;
use crate::quotient::state::QuotientCheckpoint;
use crate::quotient::steps::{candidate_size, merged, raised, retried_without_replay, subsets};
use crate::quotient::{QuotientConfig, QuotientError, QuotientProgress};

/// A reduced monoid with its P-portion that predicts every outcome of heaps `0..=n`.
#[derive(Clone, Debug)]
pub(crate) struct Solved {
    pub monoid: HeapMonoid,
    pub p: Vec<bool>,
}

/// The options of heaps `0..=n`: `[h]` lists heap `h`'s.
pub(crate) type AllOptions = Vec<Vec<HeapOption>>;

/// The state of the computation after some heaps.
pub(crate) struct Solver<'g, 'm> {
    /// The options of heaps `0..=n`, made as the heaps are added.
    all: Held<'m, AllOptions>,
    source: OptionSource<'g>,
    config: &'g QuotientConfig,
    solved: Held<'m, Solved>,
    /// For each element, the least option-class sets of its positions (from the last
    /// full check; still sets of real positions after a conservative extension).
    lower_bounds: Held<'m, LowerBounds>,
    /// The refinements the last growth of the quotient took, in order (each the heaps it
    /// set free, with the least index their counts in its failure asked for): the next
    /// growth tries them before its first check, since a new generator tends to split the
    /// earlier heaps as the last one did.
    last_refinements: Vec<Vec<Cycle>>,
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

impl<'g, 'm> Solver<'g, 'm> {
    /// The computation before any heap, or resumed from `checkpoint`, whose monoid is
    /// proved again for its heaps first.
    ///
    /// # Errors
    /// [`QuotientError::BadCheckpoint`] when the checkpoint's monoid does not predict
    /// its heaps; the memory errors.
    pub fn start(
        game: &'g Game,
        config: &'g QuotientConfig,
        checkpoint: Option<&QuotientCheckpoint>,
        meter: &'m Meter,
        progress: &'g dyn QuotientProgress,
    ) -> Result<Solver<'g, 'm>> {
        let trivial =
            held(HeapMonoid::trivial(0), vec![config.play == Ending::Normal], meter.hold(0)?)?;
        let mut solver = Solver {
            all: Held::new(vec![Vec::new()], meter.hold(0)?),
            source: OptionSource::new(game),
            config,
            solved: trivial,
            lower_bounds: Held::new(vec![Vec::new()], meter.hold(0)?),
            last_refinements: Vec::new(),
            meter,
            progress,
        };
        if let Some(checkpoint) = checkpoint {
            solver.resume(checkpoint)?;
        }
        Ok(solver)
    }

    fn resume(&mut self, checkpoint: &QuotientCheckpoint) -> Result<()> {
        let heap = checkpoint.heap();
        for h in 1..=heap {
            self.push_options(h)?;
        }
        let mut hold = self.meter.hold(0)?;
        let (monoid, p) = checkpoint.monoid(&mut hold)?;
        let trial = held(monoid, p, hold)?;
        self.meter.at_heap(heap);
        match check(&trial.monoid, &trial.p, &self.checking(heap))? {
            Verdict::Holds(lower_bounds) => {
                self.solved = trial;
                self.lower_bounds = lower_bounds;
                Ok(())
            }
            Verdict::Fails(_) => Err(QuotientError::BadCheckpoint {
                reason: format!(
                    "its quotient does not predict the positions of heaps up to {heap}"
                ),
            }),
        }
    }

    /// The solved monoid and P-portion so far.
    pub fn solved(&self) -> &Solved {
        &self.solved
    }

    /// The last heap added.
    pub fn heap(&self) -> u32 {
        self.solved.monoid.max_heap()
    }

    /// The element of every heap so far (0 for a heap that acts as no heap).
    pub fn phi(&self) -> Vec<u32> {
        (0..=self.heap()).map(|h| self.solved.monoid.apply(0, h)).collect()
    }

    /// The computation's state, to resume from.
    pub fn checkpoint(&self, game: &Game) -> QuotientCheckpoint {
        QuotientCheckpoint::of(game.spec(), self.config.play, &self.solved.monoid, &self.solved.p)
    }

    /// Ends the computation: the solved monoid and the options of its heaps.
    pub fn finish(mut self) -> (Held<'m, Solved>, Held<'m, AllOptions>) {
        let heap = self.heap() as usize;
        self.all.parts_mut().0.truncate(heap + 1);
        (self.solved, self.all)
    }

    /// Adds the next heap, `heap() + 1`, and says whether the monoid grew (else the heap
    /// is an element already present, or no heap at all). On an error the computation is
    /// as it was before.
    pub fn step(&mut self) -> Result<bool> {
        let h = self.heap() + 1;
        self.meter.at_heap(h);
        self.stop_if_cancelled()?;
        self.push_options(h)?;
        let before = self.solved.monoid.size;
        let added = self.add_heap(h).map(|()| self.solved.monoid.size != before);
        if added.is_err() {
            let (all, hold) = self.all.parts_mut();
            if let Some(options) = all.pop() {
                hold.shrink((options.capacity() * std::mem::size_of::<HeapOption>()) as u64);
            }
        }
        added
    }

    /// Makes heap `h`'s options, counted first.
    fn push_options(&mut self, h: u32) -> Result<()> {
        let options = self.source.options(h);
        let (all, hold) = self.all.parts_mut();
        hold.grow((options.capacity() * std::mem::size_of::<HeapOption>()) as u64)?;
        hold.push(all, options)
    }
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
        HeapOptions::upto(&self.all, h)
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
            return self.push_heap(None);
        }
        if let Some(lower_bounds) = self.conservative_class(h)? {
            if let Some(lower_bounds) = lower_bounds {
                self.lower_bounds = lower_bounds;
            }
            return Ok(());
        }
        self.extend(h)
    }

    /// Adds heap `max_heap() + 1` to the solved monoid, acting as the class of `heaps`
    /// (the identity for `None`).
    fn push_heap(&mut self, heaps: Option<&[u32]>) -> Result<()> {
        let (solved, hold) = self.solved.parts_mut();
        solved.monoid.push_heap(heaps, hold)
    }

    /// Takes the last heap back off the solved monoid.
    fn pop_heap(&mut self) {
        let (solved, hold) = self.solved.parts_mut();
        solved.monoid.pop_heap(hold);
    }

    /// Adds heap `h` as a present element if one fits, every present element tried, and
    /// says so (with the new lower bounds when a full check found it); `None` when none
    /// fits, the monoid as it was.
    fn conservative_class(&mut self, h: u32) -> Result<Option<Option<Held<'m, LowerBounds>>>> {
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
            self.push_heap(Some(&words[x]))?;
            return Ok(Some(None));
        }
        right_outcome.retain(|&x| compatible(x));
        for x in right_outcome {
            self.stop_if_cancelled()?;
            self.push_heap(Some(&words[x]))?;
            match check(&self.solved.monoid, &self.solved.p, &self.checking(h)) {
                Ok(Verdict::Holds(lower_bounds)) => return Ok(Some(Some(lower_bounds))),
                Ok(Verdict::Fails(_)) => self.pop_heap(),
                Err(e) => {
                    self.pop_heap();
                    return Err(e);
                }
            }
        }
        Ok(None)
    }

    /// Grows the quotient for heap `h`: candidates refined until one holds, the first
    /// one refined as the last growth's was before any check. Should that replay lead to
    /// a limit or the memory running out, the heap is done again without it, so that the
    /// replay never stops a computation the plain search finishes.
    fn extend(&mut self, h: u32) -> Result<()> {
        let replay = std::mem::take(&mut self.last_refinements);
        match self.extend_with(h, &replay) {
            Err(err) if !replay.is_empty() && retried_without_replay(&err) => {
                self.extend_with(h, &[])
            }
            done => done,
        }
    }

    /// Grows the quotient for heap `h` from its first candidate refined by each step of
    /// `replay` in turn, then by the least failures of the checks until one holds; keeps
    /// the steps it took for the next growth.
    fn extend_with(&mut self, h: u32, replay: &[Vec<Cycle>]) -> Result<()> {
        let first = Cycle { heap: h, index: 2, period: 2 };
        let mut trial = {
            let mut hold = self.meter.hold(0)?;
            let candidate = self.solved.monoid.with_cycles(h, &[first], &mut hold)?;
            self.marked_and_reduced(&candidate, h)?
        };
        let mut taken: Vec<Vec<Cycle>> = Vec::new();
        for step in replay {
            self.stop_if_cancelled()?;
            if let Some(refined) = self.replayed(&trial, step, h)? {
                trial = refined;
                taken.push(step.clone());
            }
        }
        loop {
            self.stop_if_cancelled()?;
            match check(&trial.monoid, &trial.p, &self.checking(h))? {
                Verdict::Holds(lower_bounds) => {
                    let (order, limit) = (trial.monoid.size, self.config.max_order);
                    if order > limit {
                        return Err(QuotientError::GrewPastLimit { heap: h, order, limit });
                    }
                    self.solved = trial;
                    self.lower_bounds = lower_bounds;
                    self.last_refinements = merged(taken);
                    return Ok(());
                }
                Verdict::Fails(failure) => {
                    let step;
                    (trial, step) = self.refine(&trial, &failure, h)?;
                    taken.push(step);
                    let (size, limit) = (trial.monoid.size, self.config.reduced_limit());
                    if size > limit {
                        return Err(QuotientError::CandidateTooLarge { heap: h, size, limit });
                    }
                    self.progress.searching(h, size);
                }
            }
        }
    }

    /// `trial` with the heaps of a step of the last growth set free, their index and
    /// period raised to the step's and to their own in `trial` as [`Solver::refine`]
    /// raises them; `None` when that candidate is past a limit or no larger than `trial`
    /// once reduced (the step splits nothing here, and is not kept).
    fn replayed(&self, trial: &Solved, step: &[Cycle], h: u32) -> Result<Option<Held<'m, Solved>>> {
        let cycles = raised(&trial.monoid, step);
        if candidate_size(&trial.monoid, &cycles, self.meter)? > self.config.candidate_limit() {
            return Ok(None);
        }
        let mut hold = self.meter.hold(0)?;
        let candidate = trial.monoid.with_cycles(h, &cycles, &mut hold)?;
        let refined = self.marked_and_reduced(&candidate, h)?;
        Ok((refined.monoid.size <= self.config.reduced_limit()).then_some(refined))
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
    /// failure set free that put it right; with those heaps, each with the index its count
    /// in the failure asks for (the step a later growth replays).
    fn refine(
        &self,
        trial: &Solved,
        failure: &Failure,
        h: u32,
    ) -> Result<(Held<'m, Solved>, Vec<Cycle>)> {
        let counts = &failure.counts;
        let want = !trial.p[trial.monoid.element_of(counts) as usize];
        // Each heap of the failure asks for a cycle longer than its count there.
        let asked: Vec<Cycle> = (1..=h)
            .filter(|&g| counts[g as usize] > 0)
            .map(|g| Cycle { heap: g, index: counts[g as usize] + 1, period: 2 })
            .collect();
        let cycles = raised(&trial.monoid, &asked);
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
                let step = subset.iter().map(|&i| asked[i]).collect();
                return Ok((held(monoid, p, kept)?, step));
            }
        }
        Err(QuotientError::CandidateTooLarge { heap: h, size: smallest_refused, limit })
    }
}
