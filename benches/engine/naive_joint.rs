//! The naive baseline for games that are not sums, and for the pass: plain option scanning.
//!
//! Like `naive.rs`, one byte per state, states in mixed-radix index order (with a pass,
//! the pass-used state of a position then its pass-available state), every option of
//! every state scanned with early exit on a P option, and each position compared with
//! the criteria that apply (Moore's and Wythoff's, from their plain definitions). The
//! options are enumerated by index arithmetic straight from the rules: one heap or two
//! equal amounts (Wythoff), any lowering of an allowed set of heaps (Moore, circular
//! Nim), the move rule per heap (sums with a pass), and the pass.

use nimtab::analysis::criteria::{
    is_misere_wythoff_p, is_wythoff_pair, moore_columns_vanish, moore_k,
};
use nimtab::model::game::GameKind;
use nimtab::model::space::TupleSpace;
use nimtab::{Criterion, Ending, Game};

use crate::naive::{Budget, Stopper};

/// What a naive run counted over the positions it labelled.
#[derive(Clone, Debug)]
pub struct JointRun {
    /// Positions (heap tuples) of the whole space.
    pub total: u64,
    /// Positions labelled (a prefix in index order; `total` when complete).
    pub labelled: u64,
    /// P-states per ending (both pass states).
    pub p_positions: Vec<u64>,
    /// Disagreements per ending (outer) and criterion (inner, in the order given).
    pub disagree: Vec<Vec<u64>>,
    /// Wall time of the labelling, without setup.
    pub elapsed: std::time::Duration,
    /// Per ending, one byte per state (1 = P): index × states + pass.
    pub labels: Vec<Vec<u8>>,
}

/// Grundy values by the mex of each state's options' values.
#[derive(Clone, Debug)]
pub struct GrundyRun {
    /// Positions of the whole space, and those valued (a prefix in index order).
    pub total: u64,
    pub labelled: u64,
    pub elapsed: std::time::Duration,
    /// One value per state: index × states + pass.
    pub values: Vec<u32>,
}

/// The options of a position, by index arithmetic.
struct Scanner {
    kind: GameKind,
    strides: Vec<u64>,
    /// The smaller sizes each size may move to alone.
    options: Vec<Vec<u32>>,
    /// Moore and circular Nim: every set of heaps one move may lower.
    sets: Vec<Vec<usize>>,
}

impl Scanner {
    fn new(game: &Game, space: TupleSpace) -> Scanner {
        let n = space.heaps();
        let mut strides = vec![1u64; n];
        for i in (0..n.saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * space.radix();
        }
        let options = (0..=space.max()).map(|h| game.options(h)).collect();
        let allowed = |mask: u32| match game.kind() {
            GameKind::Moore(k) => mask.count_ones() <= k,
            GameKind::Circular(k) => (0..n).any(|w| {
                (0..n).all(|i| mask >> i & 1 == 0 || (i + n - w) % n < (k as usize).min(n))
            }),
            _ => false,
        };
        let sets = (1u32..1 << n)
            .filter(|&mask| allowed(mask))
            .map(|mask| (0..n).filter(|&i| mask >> i & 1 == 1).collect())
            .collect();
        Scanner { kind: game.kind(), strides, options, sets }
    }

    /// Whether `is_p` holds for some option (a position index) of the position.
    fn any(&self, index: u64, tuple: &[u32], is_p: &mut dyn FnMut(u64) -> bool) -> bool {
        match self.kind {
            GameKind::Sum => tuple.iter().enumerate().any(|(i, &h)| {
                self.options[h as usize]
                    .iter()
                    .any(|&to| is_p(index - u64::from(h - to) * self.strides[i]))
            }),
            GameKind::Wythoff => (0..tuple.len()).any(|i| {
                (i..tuple.len()).any(|j| {
                    let step =
                        if i == j { self.strides[i] } else { self.strides[i] + self.strides[j] };
                    (1..=u64::from(tuple[i].min(tuple[j]))).any(|k| is_p(index - k * step))
                })
            }),
            GameKind::Moore(_) | GameKind::Circular(_) => {
                self.sets.iter().any(|set| self.lowered(set, 0, index, tuple, is_p))
            }
        }
    }

    /// Every lowering of the heaps `set[from..]` of the position at `index`.
    fn lowered(
        &self,
        set: &[usize],
        from: usize,
        index: u64,
        tuple: &[u32],
        is_p: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        let Some(&i) = set.get(from) else { return is_p(index) };
        (1..=u64::from(tuple[i]))
            .any(|d| self.lowered(set, from + 1, index - d * self.strides[i], tuple, is_p))
    }
}

/// Labels the space under each ending (every option scanned, early exit) and compares
/// each position with `criteria` (Moore's and Wythoff's).
pub fn run(
    game: &Game,
    space: TupleSpace,
    endings: &[Ending],
    criteria: &[Criterion],
    budget: Budget,
) -> JointRun {
    let scanner = Scanner::new(game, space);
    let states: u64 = if game.has_pass() { 2 } else { 1 };
    let (total, max, n) = (space.positions(), space.max(), space.heaps());
    let reserve = (total * states).min(1 << 31) as usize;
    let mut labels: Vec<Vec<u8>> = endings.iter().map(|_| Vec::with_capacity(reserve)).collect();
    let mut p_positions = vec![0u64; endings.len()];
    let mut disagree = vec![vec![0u64; criteria.len()]; endings.len()];
    let mut tuple = vec![0u32; n];
    let mut stopper = Stopper::new(budget);
    let mut index = 0u64;
    while index < total && !stopper.stop(index, total) {
        // No heap can move alone: the position has no move (and may not pass).
        let stuck = tuple.iter().all(|&h| scanner.options[h as usize].is_empty());
        let predicted: Vec<bool> = criteria.iter().map(|&c| predicts(game, c, &tuple)).collect();
        for (e, &ending) in endings.iter().enumerate() {
            for pass in 0..states {
                let table = &labels[e];
                let forced_n = ending == Ending::Misere && stuck;
                let mut is_p = |option: u64| table[(option * states + pass) as usize] == 1;
                let passes_to_p = pass == 1 && !stuck && table[(index * states) as usize] == 1;
                let p = !forced_n && !passes_to_p && !scanner.any(index, &tuple, &mut is_p);
                labels[e].push(u8::from(p));
                p_positions[e] += u64::from(p);
                for (c, &said) in predicted.iter().enumerate() {
                    disagree[e][c] += u64::from(said != p);
                }
            }
        }
        step(&mut tuple, max);
        index += 1;
    }
    JointRun { total, labelled: index, p_positions, disagree, elapsed: stopper.elapsed(), labels }
}

/// The Grundy value of every state: the mex of its options' values (and of the pass).
pub fn grundy(game: &Game, space: TupleSpace, budget: Budget) -> GrundyRun {
    let scanner = Scanner::new(game, space);
    let states: u64 = if game.has_pass() { 2 } else { 1 };
    let (total, max, n) = (space.positions(), space.max(), space.heaps());
    let mut values: Vec<u32> = Vec::with_capacity((total * states).min(1 << 31) as usize);
    let mut seen: Vec<bool> = Vec::new();
    let mut tuple = vec![0u32; n];
    let mut stopper = Stopper::new(budget);
    let mut index = 0u64;
    while index < total && !stopper.stop(index, total) {
        let has_move = tuple.iter().any(|&h| !scanner.options[h as usize].is_empty());
        for pass in 0..states {
            seen.clear();
            let mut see = |v: u32| {
                if v as usize >= seen.len() {
                    seen.resize(v as usize + 1, false);
                }
                seen[v as usize] = true;
            };
            scanner.any(index, &tuple, &mut |option| {
                see(values[(option * states + pass) as usize]);
                false
            });
            if pass == 1 && has_move {
                // The pass: to the pass-used state of the same heaps.
                see(values[(index * states) as usize]);
            }
            values.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
        }
        step(&mut tuple, max);
        index += 1;
    }
    GrundyRun { total, labelled: index, elapsed: stopper.elapsed(), values }
}

/// The next tuple in index order: an odometer with the last heap fastest.
fn step(tuple: &mut [u32], max: u32) {
    for h in tuple.iter_mut().rev() {
        if *h < max {
            *h += 1;
            return;
        }
        *h = 0;
    }
}

/// Whether `criterion` predicts P, from the plain definitions.
pub fn predicts(game: &Game, criterion: Criterion, tuple: &[u32]) -> bool {
    let k = moore_k(game).unwrap_or(1);
    match criterion {
        Criterion::Moore => moore_columns_vanish(tuple, k),
        Criterion::MooreMisere if tuple.iter().all(|&h| h <= 1) => {
            tuple.iter().filter(|&&h| h == 1).count() as u64 % (u64::from(k) + 1) == 1
        }
        Criterion::MooreMisere => moore_columns_vanish(tuple, k),
        Criterion::Wythoff => is_wythoff_pair(tuple[0], tuple[1]),
        Criterion::WythoffMisere => is_misere_wythoff_p(tuple[0], tuple[1]),
        _ => unreachable!("the sums' criteria are counted by naive.rs"),
    }
}
