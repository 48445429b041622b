//! The heaps of a game as the quotient computation sees them: each heap's options as
//! up to three smaller heaps, and the ordering key of positions.

use std::cmp::{Ordering, Reverse};

use crate::model::game::Game;
use crate::quotient::memory::{Hold, Meter, Result};
use crate::quotient::option::HeapOption;
use crate::sequence::HeapRule;

/// Where the options of each heap come from: the game's take-and-break rule when it has
/// one (whose options are made without sorting, and counted without being made), else its
/// moves.
pub(crate) struct OptionSource<'g> {
    game: &'g Game,
    /// The moves that leave at most two heaps.
    rule: Option<HeapRule>,
    /// The removals of the moves that leave three non-empty heaps (a hexadecimal code's
    /// bit 8), ascending; empty for every other game.
    split_three: Vec<u32>,
}

impl<'g> OptionSource<'g> {
    /// The options of `game`'s heaps.
    pub fn new(game: &'g Game) -> OptionSource<'g> {
        let (rule, split_three) = match game.take_break_rule() {
            Some(rule) => (Some(rule.pairs), rule.split_three),
            None => (None, Vec::new()),
        };
        OptionSource { game, rule, split_three }
    }

    /// Heap `h`'s options, their heaps `a >= b >= c >= 0` with 0 standing for no heap
    /// (`[0, 0, 0]`: the heap is taken whole), without repeats, in no particular order.
    pub fn options(&self, h: u32) -> Vec<HeapOption> {
        let Some(rule) = &self.rule else {
            // Nim and move graphs: one heap to one heap.
            return self.game.options(h).into_iter().map(|to| HeapOption::pair(to, 0)).collect();
        };
        let mut options: Vec<HeapOption> = Vec::with_capacity(self.count(h) as usize);
        options.extend(rule.options_unordered(h).into_iter().map(|(a, b)| HeapOption::pair(a, b)));
        // Three heaps `a >= b >= c >= 1` of `n - k` tokens: one option per such multiset.
        for &k in self.split_three.iter().take_while(|&&k| k + 3 <= h) {
            let rest = h - k;
            for c in 1..=rest / 3 {
                for b in c..=(rest - c) / 2 {
                    options.push(HeapOption::triple(rest - b - c, b, c));
                }
            }
        }
        options
    }

    /// How many options heap `h` has.
    pub fn count(&self, h: u32) -> u64 {
        let Some(rule) = &self.rule else { return self.game.options(h).len() as u64 };
        let n = u64::from(h);
        // The multisets `{a >= b >= c >= 1}` of total `m` are the partitions of `m` into
        // exactly three parts, `round(m² / 12)` of them.
        let three: u64 = self
            .split_three
            .iter()
            .map(|&k| u64::from(k))
            .filter(|&k| k + 3 <= n)
            .map(|k| ((n - k) * (n - k) + 6) / 12)
            .sum();
        let vanish = u64::from(rule.vanish.binary_search(&h).is_ok());
        let shrink = rule.shrink.iter().filter(|&&k| u64::from(k) < n).count() as u64;
        let split: u64 = rule
            .split
            .iter()
            .map(|&k| u64::from(k))
            .filter(|&k| k + 2 <= n)
            .map(|k| (n - k) / 2 - u64::from(rule.unequal_split && (n - k) % 2 == 0))
            .sum();
        vanish + shrink + split + three
    }

    /// Bytes of heap `h`'s options as the computation holds them (heap 0 has none).
    pub fn bytes_of(&self, h: u32) -> u64 {
        let options = if h == 0 { 0 } else { self.count(h) };
        let option = std::mem::size_of::<HeapOption>() as u64;
        options * option + std::mem::size_of::<Vec<u8>>() as u64
    }
}

#[cfg(test)]
/// The options of every heap `0..=max_heap` of a game, as [`OptionSource::options`].
pub(crate) fn all_options(game: &Game, max_heap: u32) -> Vec<Vec<HeapOption>> {
    let source = OptionSource::new(game);
    let mut options = vec![Vec::new()];
    options.extend((1..=max_heap).map(|h| source.options(h)));
    options
}

/// The options of heaps `0..=max_heap()`, a prefix of [`all_options`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeapOptions<'a> {
    pub options: &'a [Vec<HeapOption>],
}

impl<'a> HeapOptions<'a> {
    /// The heaps up to `max_heap` of `all`.
    pub fn upto(all: &'a [Vec<HeapOption>], max_heap: u32) -> HeapOptions<'a> {
        HeapOptions { options: &all[..=max_heap as usize] }
    }

    /// The largest heap.
    pub fn max_heap(&self) -> u32 {
        (self.options.len() - 1) as u32
    }

    /// Whether heap `h` has a move. A heap without one is the same game as no heap at
    /// all, so it is left out of every position the computation builds.
    pub fn is_active(&self, h: u32) -> bool {
        !self.options[h as usize].is_empty()
    }

    /// The heaps that have a move, ascending.
    pub fn active(&self) -> Vec<u32> {
        (1..=self.max_heap()).filter(|&h| self.is_active(h)).collect()
    }
}

/// Where a position stands in the order every search of this module follows: by total,
/// then more heaps first. Every option of a position comes before it (a move lowers the
/// total, or keeps it and adds a heap), and adding a heap to a position moves it later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    /// The sum of the heap sizes.
    pub total: u64,
    /// The number of heaps.
    pub count: u64,
}

impl Key {
    /// The empty position's key.
    pub const EMPTY: Key = Key { total: 0, count: 0 };

    /// The key after one more heap of size `h`.
    pub fn plus(self, h: u32) -> Key {
        Key { total: self.total + u64::from(h), count: self.count + 1 }
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> Ordering {
        self.total.cmp(&other.total).then(other.count.cmp(&self.count))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A position as the count of heaps of each size (`counts[h]`, `h = 0..=max_heap`).
pub(crate) type Counts = Vec<u32>;

/// The waiting positions of a search in [`Key`] order, ties broken by the item.
///
/// A search only ever adds a heap (of size at least 1) to a position it takes out, so
/// everything it queues has a larger total than what it is taking out. A bucket per
/// total, sorted once when its turn comes, therefore gives the order of a binary heap of
/// `(Key, item)` while touching each entry a few times instead of `log n` times. Its
/// buckets are counted against the computation's memory budget.
pub(crate) struct KeyQueue<'m, T> {
    /// `buckets[t]`: the entries of total `t` not yet taken out, as (fewer heaps, item).
    buckets: Vec<Vec<(Reverse<u64>, T)>>,
    /// The bucket being taken out, sorted, and how far.
    current: Vec<(Reverse<u64>, T)>,
    next: usize,
    /// The total of `current`, and the first bucket not yet taken.
    current_total: u64,
    taken: usize,
    /// The buckets' capacities.
    hold: Hold<'m>,
}

impl<'m, T: Ord + Copy> KeyQueue<'m, T> {
    /// An empty queue counting its memory against `meter`.
    pub fn new(meter: &'m Meter) -> Result<KeyQueue<'m, T>> {
        Ok(KeyQueue {
            buckets: Vec::new(),
            current: Vec::new(),
            next: 0,
            current_total: 0,
            taken: 0,
            hold: meter.hold(0)?,
        })
    }

    /// Queues `item` at `key`, whose total must exceed that of every entry taken out.
    pub fn push(&mut self, key: Key, item: T) -> Result<()> {
        let total = key.total as usize;
        debug_assert!(total >= self.taken, "a key queue only moves forward");
        if total >= self.buckets.len() {
            let more = total + 1 - self.buckets.len();
            self.hold.reserve(&mut self.buckets, more)?;
            self.buckets.resize_with(total + 1, Vec::new);
        }
        self.hold.push(&mut self.buckets[total], (Reverse(key.count), item))
    }

    /// Takes out the least entry.
    pub fn pop(&mut self) -> Option<(Key, T)> {
        while self.next == self.current.len() {
            if self.taken == self.buckets.len() {
                return None;
            }
            let done = self.current.capacity() * std::mem::size_of::<(Reverse<u64>, T)>();
            self.hold.shrink(done as u64);
            self.current = std::mem::take(&mut self.buckets[self.taken]);
            self.current.sort_unstable();
            self.next = 0;
            self.current_total = self.taken as u64;
            self.taken += 1;
        }
        let (Reverse(count), item) = self.current[self.next];
        self.next += 1;
        Some((Key { total: self.current_total, count }, item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_queue_takes_entries_out_in_key_order_then_item_order() {
        let meter = Meter::new(1 << 20);
        let mut queue = KeyQueue::new(&meter).unwrap();
        queue.push(Key::EMPTY, 9u32).unwrap();
        let mut out = Vec::new();
        while let Some((key, item)) = queue.pop() {
            out.push((key, item));
            if out.len() == 1 {
                queue.push(Key { total: 3, count: 1 }, 5).unwrap();
                queue.push(Key { total: 2, count: 1 }, 7).unwrap();
                queue.push(Key { total: 3, count: 2 }, 8).unwrap();
                queue.push(Key { total: 3, count: 2 }, 4).unwrap();
            }
        }
        let items: Vec<u32> = out.iter().map(|&(_, item)| item).collect();
        assert_eq!(items, [9, 7, 4, 8, 5]);
        assert_eq!(out[2].0, Key { total: 3, count: 2 });
    }

    #[test]
    fn option_counts_match_the_options_made() {
        let games = [
            "octal:0.77",
            "octal:4.07",
            "octal:0.156",
            "hex:0.3F",
            "hex:8.1",
            "hex:0.8",
            "hex:C.48",
        ]
        .iter()
        .map(|spec| Game::parse(spec).unwrap());
        for game in games.chain([Game::grundys_game(), Game::nim()]) {
            let source = OptionSource::new(&game);
            for h in 0..40 {
                let made = source.options(h);
                assert_eq!(source.count(h), made.len() as u64, "{} {h}", game.spec());
                let mut sorted: Vec<[u32; 3]> = made.iter().map(|o| o.heaps()).collect();
                sorted.sort_unstable();
                assert_eq!(sorted, game.heap_options(h), "{} {h}", game.spec());
            }
        }
    }

    #[test]
    fn options_come_before_the_position_in_key_order() {
        let kayles = Game::octal("0.77").unwrap();
        let dawson = Game::octal("4.07").unwrap();
        let hex = Game::parse("hex:8.F").unwrap();
        for game in [kayles, dawson, Game::grundys_game(), hex] {
            let all = all_options(&game, 12);
            let options = HeapOptions::upto(&all, 12);
            for h in 1..=12u32 {
                let before = Key::EMPTY.plus(h);
                for &option in &options.options[h as usize] {
                    let mut after = Key::EMPTY;
                    for part in option.heaps().into_iter().filter(|&p| p > 0) {
                        after = after.plus(part);
                    }
                    assert!(after < before, "{} {h} -> {option:?}", game.spec());
                }
            }
        }
    }
}
