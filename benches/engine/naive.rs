//! The deliberately naive baseline: one byte per position, every option scanned, per ending.
//!
//! This is the "hand-written retrograde DP" the engine is measured against, kept out of
//! the library on purpose. Positions are visited in mixed-radix index order (`h1` most significant), so
//! every option of a position has a smaller index and is already labelled; any prefix of
//! that order is therefore a self-contained run, which is what the time-budgeted estimate
//! relies on. It does the same job as `nimtab verify`: it labels all three rules and
//! compares every position with all three criteria, counting disagreements.

use std::time::{Duration, Instant};

use nimtab::model::space::TupleSpace;
use nimtab::{Criterion, Ending, Game};

/// What a naive run counted, over the positions it labelled.
#[derive(Clone, Debug)]
pub struct NaiveRun {
    /// Positions of the whole space.
    pub total: u64,
    /// Positions labelled (a prefix in index order; `total` when complete).
    pub labelled: u64,
    /// P-positions per ending, in `Ending::ALL` order.
    pub p_positions: [u64; 3],
    /// Disagreements per ending (outer, `Ending::ALL`) and criterion (inner, `Criterion::SUMS`).
    pub disagree: [[u64; 3]; 3],
    /// Wall time of the labelling and comparison, without setup.
    pub elapsed: Duration,
    /// The labels, one byte per labelled position (1 = P), per ending.
    pub labels: [Vec<u8>; 3],
}

impl NaiveRun {
    /// Whether every position of the space was labelled.
    pub fn complete(&self) -> bool {
        self.labelled == self.total
    }
}

/// When the naive run stops early: after `budget`, if the whole space would take
/// longer than `full_limit` at the rate seen so far.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Time after which the projection is made.
    pub budget: Duration,
    /// Longest full run accepted; beyond it the run stops and is extrapolated.
    pub full_limit: Duration,
}

impl Budget {
    /// Never stop early (used by the correctness check).
    pub fn unlimited() -> Budget {
        Budget { budget: Duration::MAX, full_limit: Duration::MAX }
    }
}

/// Decides, once the budget has passed, whether a run stops early; looks at the clock
/// only every 2^16 positions, so that it costs nothing.
pub struct Stopper {
    budget: Budget,
    start: Instant,
    decided: bool,
}

impl Stopper {
    /// A stopper for a run starting now.
    pub fn new(budget: Budget) -> Stopper {
        Stopper { budget, start: Instant::now(), decided: false }
    }

    /// Whether the run stops before position `index` of `total`.
    pub fn stop(&mut self, index: u64, total: u64) -> bool {
        if self.decided || index & 0xffff != 0 || index == 0 {
            return false;
        }
        let elapsed = self.start.elapsed();
        if elapsed < self.budget.budget {
            return false;
        }
        self.decided = true;
        let projected = elapsed.as_secs_f64() * total as f64 / index as f64;
        projected > self.budget.full_limit.as_secs_f64()
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Labels the space under normal, misère and SJ play, one byte per position per ending,
/// and compares each position with the XOR, Anti-Nim and SJ criteria.
pub fn run(game: &Game, space: TupleSpace, budget: Budget) -> NaiveRun {
    let n = space.heaps();
    let max = space.max();
    let total = space.positions();
    // Precomputed once per size: fair, any hand-written DP would do the same.
    let options: Vec<Vec<u32>> = (0..=max).map(|h| game.options(h)).collect();
    let grundy = game.grundy(max);
    // Forced terminal sizes, per ending: a position is forced N iff all its heaps are such.
    let no_move: Vec<bool> = options.iter().map(Vec::is_empty).collect();
    let grundy_zero: Vec<bool> = grundy.iter().map(|&g| g == 0).collect();
    // strides[i]: index distance of one stone on heap i.
    let mut strides = vec![1u64; n];
    for i in (0..n.saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * space.radix();
    }
    // Reserve (lazily touched) room for the whole space, capped so that huge spaces that
    // are only sampled do not ask the allocator for more than the machine has.
    let reserve = total.min(1 << 31) as usize;
    let mut labels: [Vec<u8>; 3] = std::array::from_fn(|_| Vec::with_capacity(reserve));
    let mut tuple = vec![0u32; n];
    let mut p_positions = [0u64; 3];
    let mut disagree = [[0u64; 3]; 3];
    let mut stopper = Stopper::new(budget);
    let mut index = 0u64;
    while index < total && !stopper.stop(index, total) {
        let predicted = predictions(&tuple, &grundy);
        for (r, ending) in Ending::ALL.into_iter().enumerate() {
            let forced_n = match ending {
                Ending::Normal => false,
                Ending::Misere => tuple.iter().all(|&h| no_move[h as usize]),
                Ending::Sj => tuple.iter().all(|&h| grundy_zero[h as usize]),
            };
            let is_p = !forced_n && !has_p_option(&labels[r], index, &tuple, &strides, &options);
            labels[r].push(u8::from(is_p));
            p_positions[r] += u64::from(is_p);
            for (c, &p) in predicted.iter().enumerate() {
                disagree[r][c] += u64::from(p != is_p);
            }
        }
        // Next tuple in index order: an odometer with the last heap fastest.
        for h in tuple.iter_mut().rev() {
            if *h < max {
                *h += 1;
                break;
            }
            *h = 0;
        }
        index += 1;
    }
    let elapsed = stopper.elapsed();
    NaiveRun { total, labelled: index, p_positions, disagree, elapsed, labels }
}

/// Whether some option of the position at `index` is P: every heap, every allowed smaller
/// size, stopping at the first P found.
#[inline]
fn has_p_option(
    labels: &[u8],
    index: u64,
    tuple: &[u32],
    strides: &[u64],
    options: &[Vec<u32>],
) -> bool {
    for (i, &h) in tuple.iter().enumerate() {
        for &to in &options[h as usize] {
            let option = index - u64::from(h - to) * strides[i];
            if labels[option as usize] == 1 {
                return true;
            }
        }
    }
    false
}

/// Whether each criterion predicts P, in `Criterion::SUMS` order, straight from the
/// plain definitions. Written without allocation (unlike the library's reference
/// `Criterion::predicts_p`) so that the baseline is not slowed by the allocator.
#[inline]
pub fn predictions(tuple: &[u32], grundy: &[u32]) -> [bool; 3] {
    let (mut size_xor, mut size_big, mut grundy_xor, mut grundy_big) = (0u32, false, 0u32, false);
    for &h in tuple {
        let g = grundy[h as usize];
        size_xor ^= h;
        size_big |= h > 1;
        grundy_xor ^= g;
        grundy_big |= g > 1;
    }
    let misere_n = |x: u32, big: bool| (big && x != 0) || (!big && x == 0);
    debug_assert_eq!(Criterion::SUMS, [Criterion::Xor, Criterion::AntiNim, Criterion::Sj]);
    [grundy_xor == 0, !misere_n(size_xor, size_big), !misere_n(grundy_xor, grundy_big)]
}
