//! Whether a monoid, a P-portion and the heaps' classes predict every outcome: the
//! proof that a candidate is right, or its least failure.
//!
//! By induction over positions, the prediction "P exactly when the class is in the
//! P-portion" is right for every position once (1) it is right for the empty position,
//! (2) no position predicted P has an option predicted P, and (3) every other position
//! predicted N has an option predicted P. (2) is local: a position `z + h` moves to
//! `z + h'` by moving heap `h`, so it says that `x·Φ(h) ∈ P` implies `x·t ∉ P` for every
//! element `x` (each is some `Φ(z)`) and every class `t` of an option of `h`. (3) runs
//! over the finitely many *states* `(Φ(w), T(w))` of positions `w`, `T(w)` the set of
//! classes of `w`'s options: adding heap `h` sends `(y, T)` to
//! `(y·Φ(h), T·Φ(h) ∪ y·T_h)`, so the states reached from the empty position's
//! `(1, ∅)` are finitely many. (3) only gets easier as `T` grows, and growing `T` grows
//! every later state, so a state whose `T` contains that of a state already explored
//! with the same `y` is not explored; the empty position's state is the exception, since
//! (3) does not ask it for a move.

use crate::model::ending::Ending;
use crate::quotient::bits;
use crate::quotient::heaps::{Counts, HeapOptions, Key, KeyQueue};
use crate::quotient::mark::{representatives, Reps};
use crate::quotient::memory::{Held, Hold, Meter, Result};
use crate::quotient::monoid::HeapMonoid;
use crate::quotient::option::HeapOption;
use crate::quotient::{QuotientError, QuotientProgress};

/// States explored between two looks at whether the caller asks to stop (and two
/// reports of the count).
const POLL_STATES: usize = 1 << 12;

/// For each element, the least sets of option classes of its positions.
pub(crate) type LowerBounds = Vec<Vec<Vec<u64>>>;

/// A position whose outcome the candidate predicts wrongly, and whose options it
/// predicts rightly when it is the least failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The position's key.
    pub key: Key,
    /// The position.
    pub counts: Counts,
}

/// What a check found.
#[derive(Debug)]
pub(crate) enum Verdict<'m> {
    /// Every outcome is predicted rightly; with, for each element, the least sets of
    /// option classes of its positions (used to try the next heap).
    Holds(Held<'m, LowerBounds>),
    /// The least failure in key order.
    Fails(Failure),
}

/// The active heaps grouped by how they act: one group for each class of heap and set of
/// option classes, named by its least heap, with one option of each class. Heaps of a
/// group are interchangeable in every test of the check (which reads a heap only through
/// its class and its options' classes), and the least gives the least position.
fn heap_groups(
    monoid: &HeapMonoid,
    options: HeapOptions<'_>,
    hold: &mut Hold<'_>,
) -> Result<Vec<HeapGroup>> {
    let words = bits::words_for(monoid.size);
    let mut groups: Vec<HeapGroup> = Vec::new();
    for h in options.active() {
        let mut classes = hold.vec(words, 0u64)?;
        let mut one_of_each = Vec::new();
        for &o in &options.options[h as usize] {
            let t = monoid.apply_option(0, o);
            if !bits::contains(&classes, t) {
                bits::insert(&mut classes, t);
                one_of_each.push(o);
            }
        }
        let class = monoid.apply(0, h);
        if !groups.iter().any(|g| g.class == class && g.classes == classes) {
            groups.push(HeapGroup { heap: h, class, classes, options: one_of_each });
        }
    }
    Ok(groups)
}

/// Heaps that act alike: the least of them, their class, their option classes (as bits),
/// and one option of each class.
struct HeapGroup {
    heap: u32,
    class: u32,
    classes: Vec<u64>,
    options: Vec<HeapOption>,
}

/// The groups the exploration adds: no group whose heap acts as an earlier one's with
/// more option classes (its states only have larger option sets).
fn exploring(groups: &[HeapGroup]) -> Vec<&HeapGroup> {
    let mut kept: Vec<&HeapGroup> = Vec::new();
    for g in groups {
        if !kept.iter().any(|k| k.class == g.class && bits::is_subset(&k.classes, &g.classes)) {
            kept.push(g);
        }
    }
    kept
}

/// The least position `rep(x) + h` with `x·Φ(h) ∈ P` and an option predicted P, tried
/// once for each group of heaps.
fn least_p_failure(
    monoid: &HeapMonoid,
    p: &[bool],
    groups: &[HeapGroup],
    reps: &Reps,
    max_heap: u32,
) -> Option<Failure> {
    let mut best: Option<(Key, u32, u32)> = None;
    for group in groups {
        let h = group.heap;
        for x in 0..monoid.size as u32 {
            let Some(key) = reps.key[x as usize] else { continue };
            if !p[monoid.apply(x, h) as usize] {
                continue;
            }
            let fails = group.options.iter().any(|&o| p[monoid.apply_option(x, o) as usize]);
            let key = key.plus(h);
            if fails && best.is_none_or(|(k, _, _)| key < k) {
                best = Some((key, x, h));
            }
        }
    }
    best.map(|(key, x, h)| {
        let mut counts = reps.counts(x, max_heap);
        counts[h as usize] += 1;
        Failure { key, counts }
    })
}

/// One explored state: its class and how it was reached.
struct State {
    y: u32,
    parent: u32,
    heap: u32,
}

/// What a check reads besides the candidate: its heaps' options and play, the budget its
/// states are counted against, and whom it tells of its progress (and asks whether to
/// stop).
pub(crate) struct Checking<'a, 'm> {
    pub options: HeapOptions<'a>,
    pub play: Ending,
    pub meter: &'m Meter,
    pub progress: &'a dyn QuotientProgress,
}

/// Checks the prediction of `(monoid, p)` on every position of the heaps of
/// `how.options`, its states counted against `how.meter`.
///
/// # Errors
/// [`QuotientError::BeyondMemory`] or [`QuotientError::OutOfMemory`] when the states do
/// not fit; [`QuotientError::Cancelled`] when the caller asks to stop.
pub(crate) fn check<'m>(
    monoid: &HeapMonoid,
    p: &[bool],
    how: &Checking<'_, 'm>,
) -> Result<Verdict<'m>> {
    let options = how.options;
    let max_heap = options.max_heap();
    if p[0] != (how.play == Ending::Normal) {
        let counts = vec![0; max_heap as usize + 1];
        return Ok(Verdict::Fails(Failure { key: Key::EMPTY, counts }));
    }
    let mut hold = how.meter.hold(0)?;
    let reps = representatives(monoid, options, &mut hold)?;
    let groups = heap_groups(monoid, options, &mut hold)?;
    let p_failure = least_p_failure(monoid, p, &groups, &reps, max_heap);
    let words = bits::words_for(monoid.size);
    let p_bits = bits::from_flags(p);
    let heaps = exploring(&groups);
    let mut states: Vec<State> = Vec::new();
    let mut sets: Vec<u64> = Vec::new();
    let mut minimal: Vec<Vec<u32>> = hold.vec(monoid.size, Vec::new())?;
    let mut queue = KeyQueue::new(how.meter)?;
    hold.push(&mut states, State { y: 0, parent: u32::MAX, heap: 0 })?;
    hold.extend_from_slice(&mut sets, &vec![0; words])?;
    queue.push(Key::EMPTY, 0u32)?;
    let mut next = vec![0u64; words];
    let mut taken = 0usize;
    while let Some((key, s)) = queue.pop() {
        if p_failure.as_ref().is_some_and(|f| f.key <= key) {
            break;
        }
        taken += 1;
        if taken.is_multiple_of(POLL_STATES) {
            if how.progress.cancelled() {
                return Err(QuotientError::Cancelled);
            }
            how.progress.exploring(max_heap, states.len() as u64);
        }
        let y = states[s as usize].y;
        let set = &sets[s as usize * words..][..words];
        let dominated = minimal[y as usize]
            .iter()
            .any(|&m| m != s && bits::is_subset(&sets[m as usize * words..][..words], set));
        if dominated {
            continue;
        }
        // The empty position is exempt from the N test (it has no option), so its state
        // `(1, ∅)` must not stand for the later positions of the identity's class: its
        // empty set would hide every one of them, and they must each have a move to P.
        if s != 0 {
            minimal[y as usize]
                .retain(|&m| !bits::is_subset(set, &sets[m as usize * words..][..words]));
            hold.push(&mut minimal[y as usize], s)?;
            if !p[y as usize] && !bits::meets(set, &p_bits) {
                let counts = state_counts(&states, s, max_heap);
                return Ok(Verdict::Fails(Failure { key, counts }));
            }
        }
        for explored in &heaps {
            let h = explored.heap;
            next.fill(0);
            let set = &sets[s as usize * words..][..words];
            for t in bits::elements(set) {
                bits::insert(&mut next, monoid.apply(t, h));
            }
            for &o in &explored.options {
                bits::insert(&mut next, monoid.apply_option(y, o));
            }
            let z = monoid.apply(y, h);
            let dominated = minimal[z as usize]
                .iter()
                .any(|&m| bits::is_subset(&sets[m as usize * words..][..words], &next));
            if dominated {
                continue;
            }
            let index = states.len() as u32;
            hold.push(&mut states, State { y: z, parent: s, heap: h })?;
            hold.extend_from_slice(&mut sets, &next)?;
            queue.push(key.plus(h), index)?;
        }
    }
    if let Some(failure) = p_failure {
        return Ok(Verdict::Fails(failure));
    }
    lower_bounds(&minimal, &sets, words, how.meter).map(Verdict::Holds)
}

/// The sets of the minimal states of each element, copied out of the arena and counted
/// on their own. The empty position is not among the minimal states: the
/// mex-interpolation test needs a position with options to stand for the new heap.
fn lower_bounds<'m>(
    minimal: &[Vec<u32>],
    sets: &[u64],
    words: usize,
    meter: &'m Meter,
) -> Result<Held<'m, LowerBounds>> {
    let mut hold = meter.hold(0)?;
    let mut bounds: LowerBounds = hold.with_capacity(minimal.len())?;
    for list in minimal {
        let mut copies = hold.with_capacity(list.len())?;
        for &m in list {
            let mut set = hold.with_capacity(words)?;
            set.extend_from_slice(&sets[m as usize * words..][..words]);
            copies.push(set);
        }
        bounds.push(copies);
    }
    Ok(Held::new(bounds, hold))
}

/// The position of state `s`.
fn state_counts(states: &[State], s: u32, max_heap: u32) -> Counts {
    let mut counts = vec![0; max_heap as usize + 1];
    let mut at = s;
    while states[at as usize].parent != u32::MAX {
        counts[states[at as usize].heap as usize] += 1;
        at = states[at as usize].parent;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::quotient::heaps::all_options;

    #[test]
    fn a_non_empty_position_of_the_identitys_class_needs_a_move_to_p() {
        // Misère Nim with one heap of size 1, claimed to be the one-element monoid with
        // an empty P-portion: the heap (1) is predicted N like the empty position, but its
        // only option, the empty position, is predicted N too.
        let all = all_options(&Game::nim(), 1);
        let trivial = HeapMonoid { size: 1, act: vec![Vec::new(), vec![0]] };
        let meter = Meter::new(1 << 20);
        let how = Checking {
            options: HeapOptions::upto(&all, 1),
            play: Ending::Misere,
            meter: &meter,
            progress: &crate::engine::NoProgress,
        };
        let verdict = check(&trivial, &[false], &how).unwrap();
        match verdict {
            Verdict::Fails(failure) => assert_eq!(failure.counts, vec![0, 1]),
            other => panic!("the wrong claim was accepted: {other:?}"),
        };
    }
}
