//! Every option of a position, for any game, seen the way the engine sees a row.
//!
//! A position is a *prefix* (all heaps but the last) and a last heap. A move either
//! changes the last heap alone (it stays in the row: a move of the heap's own rule, Nim's
//! for the games that are not sums), or it changes some prefix heap, giving a *prefix
//! move*: the new prefix and what happens to the last heap (kept, lowered by exactly `k`,
//! or lowered by any amount). Each option of a position comes from exactly one prefix
//! move or one in-row move.

use crate::model::game::{Game, GameKind};

impl Game {
    /// Every option of a position (the pass aside), as heap tuples.
    pub fn options_of(&self, position: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let options = PositionOptions::new(self, position.len());
        let (mut buf, mut option) = (Vec::new(), Vec::new());
        options.for_each(position, &mut buf, &mut option, &mut |o| out.push(o.to_vec()));
        out
    }
}

/// What a prefix move does to the last heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastHeap {
    /// Unchanged: the option is in the same column of the source row.
    Kept,
    /// Lowered by exactly this much (Wythoff's diagonal through the last heap).
    LoweredBy(u32),
    /// Lowered by any amount, 0 included (a window of Moore or circular Nim that holds
    /// the last heap).
    AnyAmount,
}

/// The options of positions of one heap count in one game.
#[derive(Clone, Debug)]
pub struct PositionOptions<'g> {
    game: &'g Game,
    /// Moore and circular Nim: every non-empty set of prefix heaps one move may lower,
    /// ascending, with whether the same move may also lower the last heap.
    prefix_sets: Vec<(Vec<usize>, bool)>,
}

impl<'g> PositionOptions<'g> {
    /// The options of `game`'s positions of `heaps` heaps.
    pub fn new(game: &'g Game, heaps: usize) -> PositionOptions<'g> {
        let prefix_sets = match game.kind() {
            GameKind::Moore(_) | GameKind::Circular(_) => windowed_sets(game.kind(), heaps),
            GameKind::Sum | GameKind::Wythoff => Vec::new(),
        };
        PositionOptions { game, prefix_sets }
    }

    /// Calls `visit` on every prefix move of `prefix`: the new prefix and what the move
    /// does to the last heap. Each option of a position `(prefix, h)` that changes a
    /// prefix heap comes from exactly one call. `buf` is scratch.
    pub fn for_each_prefix_move(
        &self,
        prefix: &[u32],
        buf: &mut Vec<u32>,
        visit: &mut dyn FnMut(&[u32], LastHeap),
    ) {
        buf.clear();
        buf.extend_from_slice(prefix);
        match self.game.kind() {
            GameKind::Sum => {
                for i in 0..prefix.len() {
                    for o in self.game.options(prefix[i]) {
                        buf[i] = o;
                        visit(buf, LastHeap::Kept);
                    }
                    buf[i] = prefix[i];
                }
            }
            GameKind::Wythoff => wythoff_prefix_moves(prefix, buf, visit),
            GameKind::Moore(_) | GameKind::Circular(_) => {
                for (set, with_last) in &self.prefix_sets {
                    let last = if *with_last { LastHeap::AnyAmount } else { LastHeap::Kept };
                    lower_each(set, 0, prefix, buf, &mut |p| visit(p, last));
                }
            }
        }
    }

    /// Calls `visit` on every option of `position` (the pass aside): prefix moves with
    /// their last heaps, then the moves of the last heap alone, larger sizes first.
    /// `buf` and `option` are scratch.
    pub fn for_each(
        &self,
        position: &[u32],
        buf: &mut Vec<u32>,
        option: &mut Vec<u32>,
        visit: &mut dyn FnMut(&[u32]),
    ) {
        let Some((&h, prefix)) = position.split_last() else { return };
        self.for_each_prefix_move(prefix, buf, &mut |p, last| {
            option.clear();
            option.extend_from_slice(p);
            option.push(h);
            match last {
                LastHeap::Kept => visit(option),
                LastHeap::LoweredBy(k) if k <= h => {
                    option[p.len()] = h - k;
                    visit(option);
                }
                LastHeap::LoweredBy(_) => {}
                LastHeap::AnyAmount => {
                    for to in (0..=h).rev() {
                        option[p.len()] = to;
                        visit(option);
                    }
                }
            }
        });
        option.clear();
        option.extend_from_slice(position);
        for to in self.game.options(h).into_iter().rev() {
            option[prefix.len()] = to;
            visit(option);
        }
    }
}

/// Wythoff's prefix moves: k from prefix heap i alone (the last heap kept) or with the
/// last heap (both lowered by k), and k from two prefix heaps.
fn wythoff_prefix_moves(prefix: &[u32], buf: &mut [u32], visit: &mut dyn FnMut(&[u32], LastHeap)) {
    for i in 0..prefix.len() {
        for k in 1..=prefix[i] {
            buf[i] = prefix[i] - k;
            visit(buf, LastHeap::Kept);
            visit(buf, LastHeap::LoweredBy(k));
        }
        buf[i] = prefix[i];
        for j in i + 1..prefix.len() {
            for k in 1..=prefix[i].min(prefix[j]) {
                buf[i] = prefix[i] - k;
                buf[j] = prefix[j] - k;
                visit(buf, LastHeap::Kept);
            }
            buf[i] = prefix[i];
            buf[j] = prefix[j];
        }
    }
}

/// Every prefix whose heaps in `set[from..]` are each lowered by at least one (the
/// others as in `buf`), visited in place.
fn lower_each(
    set: &[usize],
    from: usize,
    prefix: &[u32],
    buf: &mut [u32],
    visit: &mut dyn FnMut(&[u32]),
) {
    let Some(&i) = set.get(from) else {
        visit(buf);
        return;
    };
    for to in (0..prefix[i]).rev() {
        buf[i] = to;
        lower_each(set, from + 1, prefix, buf, visit);
    }
    buf[i] = prefix[i];
}

/// Moore and circular Nim: the non-empty sets of prefix heaps (of `heaps` heaps, the last
/// one excluded) that a move may lower together, and whether it may lower the last heap
/// too. Built by growing sets in increasing order, dropping any that no longer fits: a
/// set that does not fit has no superset that fits.
pub(crate) fn windowed_sets(kind: GameKind, heaps: usize) -> Vec<(Vec<usize>, bool)> {
    let fits = |set: &[usize]| match kind {
        GameKind::Moore(k) => set.len() <= k as usize,
        GameKind::Circular(k) => {
            let k = (k as usize).min(heaps);
            // Some window of k consecutive heaps starting at w holds every member.
            (0..heaps).any(|w| set.iter().all(|&i| (i + heaps - w) % heaps < k))
        }
        // Sums and Wythoff lower prefix heaps otherwise (see `for_each_prefix_move`).
        GameKind::Sum | GameKind::Wythoff => false,
    };
    let mut out = Vec::new();
    let mut set = Vec::new();
    grow(&mut set, 0, heaps.saturating_sub(1), &fits, &mut |set| {
        let mut with_last = set.to_vec();
        with_last.push(heaps - 1);
        out.push((set.to_vec(), fits(&with_last)));
    });
    out
}

fn grow(
    set: &mut Vec<usize>,
    next: usize,
    end: usize,
    fits: &dyn Fn(&[usize]) -> bool,
    found: &mut dyn FnMut(&[usize]),
) {
    for i in next..end {
        set.push(i);
        if fits(set) {
            found(set);
            grow(set, i + 1, end, fits, found);
        }
        set.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(game: &Game, position: &[u32]) -> Vec<Vec<u32>> {
        let mut all = game.options_of(position);
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count, "every option comes once");
        all
    }

    #[test]
    fn wythoff_takes_from_one_heap_or_the_same_from_two() {
        let all = options(&Game::wythoff(), &[1, 2]);
        assert_eq!(all, vec![vec![0, 1], vec![0, 2], vec![1, 0], vec![1, 1]]);
        assert_eq!(options(&Game::wythoff(), &[1, 1, 1]).len(), 3 + 3);
    }

    #[test]
    fn moore_lowers_at_most_k_heaps() {
        let moore = Game::moore(2).unwrap();
        // (1,1,1): lower any one or two of the three heaps.
        assert_eq!(options(&moore, &[1, 1, 1]).len(), 3 + 3);
        assert_eq!(options(&moore, &[2, 2]).len(), 8);
    }

    #[test]
    fn circular_lowers_a_window_of_consecutive_heaps() {
        let circular = Game::circular(2).unwrap();
        // Four heaps of 1 in a circle: four single heaps and four adjacent pairs.
        let all = options(&circular, &[1, 1, 1, 1]);
        assert_eq!(all.len(), 8);
        assert!(!all.contains(&vec![0, 1, 0, 1]), "heaps 1 and 3 are not adjacent");
        assert!(all.contains(&vec![0, 1, 1, 0]), "heaps 4 and 1 are adjacent in the circle");
    }
}
