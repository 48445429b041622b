//! Take-and-break rules whose moves may leave three heaps (hexadecimal codes), and their Grundy values by a plain mex over sets of XORs.

use super::rule::HeapRule;

/// The largest heap size of a sequence of a game with three-heap moves: its values are
/// computed in memory by a plain mex whose time grows with the square of the heap size
/// (see [`three_heap_values`]), and whose sets of pairs take `max^2 / 16` bytes when the
/// values grow linearly.
pub const MAX_THREE_HEAP_SEQUENCE: u32 = 1 << 16;

/// A heap rule whose moves may also leave three non-empty heaps: the moves that leave at
/// most two heaps, and the removal counts of the moves that leave three.
///
/// Kept apart from [`HeapRule`] so that code that only understands pairs of heaps (the
/// rare/common engine, the periodicity theorems of octal games) cannot be handed
/// a three-heap move: it takes a `HeapRule`, which cannot hold one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ThreeHeapRule {
    /// The moves that take a heap whole, leave one heap or leave two.
    pub pairs: HeapRule,
    /// `k >= 0` (ascending) such that a heap of `n >= k + 3` tokens may become three
    /// non-empty heaps with `n - k` tokens in all. No game has both these and
    /// `pairs.unequal_split` (the triples are read from the sets of pairs, which then
    /// leave equal pairs out); the values refuse the two together.
    pub split_three: Vec<u32>,
}

impl ThreeHeapRule {
    /// What a heap of `n` tokens may become, as `[a, b, c]` with `a >= b >= c >= 0` where
    /// 0 is no heap: `[0, 0, 0]` the heap is taken whole, `[a, 0, 0]` one heap remains,
    /// `[a, b, 0]` two remain, `[a, b, c]` with `c >= 1` three remain. Ascending, without
    /// repeats (moves of different removals leave different totals or heap counts).
    pub fn options(&self, n: u32) -> Vec<[u32; 3]> {
        let mut options: Vec<[u32; 3]> =
            self.pairs.options_unordered(n).into_iter().map(|(a, b)| [a, b, 0]).collect();
        for &k in self.split_three.iter().take_while(|&&k| k + 3 <= n) {
            options.extend(splits_in_three(n - k));
        }
        options.sort_unstable();
        options
    }

    /// How many moves a heap of `n` tokens has (without listing them): at least its
    /// Grundy value, the mex of their values.
    pub fn move_count(&self, n: u64) -> u64 {
        let pairs = &self.pairs;
        let vanish = u64::from(pairs.vanish.iter().any(|&k| u64::from(k) == n));
        let shrink = pairs.shrink.iter().filter(|&&k| u64::from(k) < n).count() as u64;
        let rests = |removals: &[u32], least: u64| -> Vec<u64> {
            removals
                .iter()
                .filter_map(|&k| n.checked_sub(u64::from(k)))
                .filter(|&m| m >= least)
                .collect()
        };
        let unequal = pairs.unequal_split;
        let two: u64 =
            rests(&pairs.split, 2).iter().map(|&m| m / 2 - u64::from(unequal && m % 2 == 0)).sum();
        // Splits of m into three positive parts: the integer nearest m^2 / 12.
        let three: u64 = rests(&self.split_three, 3).iter().map(|&m| (m * m + 6) / 12).sum();
        vanish + shrink + two + three
    }

    /// Whether a heap of `n` tokens has a move (without listing them).
    pub fn has_moves(&self, n: u32) -> bool {
        self.pairs.has_moves(n) || self.split_three.first().is_some_and(|&k| k + 3 <= n)
    }

    /// `t`, the most tokens one move removes (three-heap splits counted).
    pub fn max_removal(&self) -> u32 {
        let three = self.split_three.last().copied().unwrap_or(0);
        self.pairs.max_removal().max(three)
    }

    /// Whether some move splits a heap without removing a token, keeping the total and
    /// adding one heap or two.
    pub fn splits_in_place(&self) -> bool {
        self.pairs.splits_in_place() || self.split_three.first() == Some(&0)
    }

    /// `G(0..=max)` by the mex rule (see [`three_heap_values`]).
    pub fn values(&self, max: u32) -> Vec<u32> {
        three_heap_values(self, max)
    }
}

/// Every way to split `rest` tokens into three non-empty heaps, as `[a, b, c]` with
/// `a >= b >= c >= 1`, one at a time (about `rest^2 / 12` of them: at `2^16` too many to
/// hold in memory).
pub fn splits_in_three(rest: u32) -> impl Iterator<Item = [u32; 3]> {
    (1..=rest / 3).flat_map(move |c| (c..=(rest - c) / 2).map(move |b| [rest - b - c, b, c]))
}

/// A set of Grundy values as bits, `64 * words.len()` values wide.
type Bits = Vec<u64>;

/// Words wide enough for every value below `2^bits`, where `bits` is the bit length of
/// `largest`: an XOR of such values stays below it.
fn words_for(largest: u32) -> usize {
    let bits = 32 - largest.leading_zeros();
    (1usize << bits).div_ceil(64).max(1)
}

/// The word `x` with bit `i` moved to bit `i ^ j` (`j < 64`): swaps of blocks of 1, 2,
/// 4, 8, 16 and 32 bits for the bits of `j`.
fn xor_bits(mut x: u64, j: u32) -> u64 {
    const LOW: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (s, low) in LOW.iter().enumerate() {
        if j >> s & 1 == 1 {
            let width = 1 << s;
            x = ((x & low) << width) | ((x >> width) & low);
        }
    }
    x
}

/// `G(0..=max)` of a rule with three-heap splits, by the plain mex rule.
///
/// The values of the options that leave at most two heaps are read as a set: `pairs[m]`,
/// every `G(a) ^ G(b)` with `a + b = m` (`a, b >= 1`), made once per `m` in `O(m)`. A
/// three-heap option of removal `k` leaves `c` and two heaps summing to `m - c`
/// (`m = n - k`), so a value `v` is among them exactly when `pairs[m - c]` holds
/// `v ^ G(c)` for some `c`. The mex asks this, 64 values (one word) at a time from 0,
/// only of the values the other options miss, and most are answered at once: by a pair
/// `(c, a, a)` (value `G(c)`, for the least heap `c` of value `v` of the parity of `m`),
/// else by a scan over `c` that reads one word of `pairs[m - c]` for all 64 and stops
/// when every one is found. Only the word of the mex is scanned over every `c`, so a heap
/// costs `O(n)` word reads whatever the width of its values (values grow linearly in
/// arithmetic-periodic games), and the run `O(max^2)`; building every set of pairs
/// whole per heap and permuting them by `G(c)` cost `O(max^2)` times the width.
pub fn three_heap_values(rule: &ThreeHeapRule, max: u32) -> Vec<u32> {
    three_heap_values_until(rule, max, &mut || false)
}

/// [`three_heap_values`], asking `stop` before each heap: when it says stop, the values
/// of the heaps computed so far (`G(0..n)`, perhaps none). A heap's mex takes time that
/// grows with its size, so a caller bounded in time is answered within one heap.
///
/// # Panics
/// On a rule with both three-heap splits and unequal two-heap splits (no game has one).
pub fn three_heap_values_until(
    rule: &ThreeHeapRule,
    max: u32,
    stop: &mut dyn FnMut() -> bool,
) -> Vec<u32> {
    let mut run = ThreeHeapValues::new(rule);
    while run.len() <= max as usize && !stop() {
        run.push_next();
    }
    run.into_values()
}

/// The values of a rule with three-heap splits computed so far, and the sets of XORs the
/// next heaps read: one more heap at a time ([`ThreeHeapValues::push_next`]), from heap 0
/// or from values already computed ([`ThreeHeapValues::resume`]).
#[derive(Debug)]
pub struct ThreeHeapValues<'r> {
    rule: &'r ThreeHeapRule,
    /// `G(0..len)`.
    g: Vec<u32>,
    /// `pairs[m]`: every `G(a) ^ G(b)` with `a + b = m`.
    pairs: PairSets,
    /// `least[v][q]`: the least heap `c >= 1` of value `v` and parity `q` (`u32::MAX`:
    /// none yet), whose pairs `(c, a, a)` give `v` to every `m >= c + 2` of its parity.
    least: Vec<[u32; 2]>,
    /// The largest value so far.
    largest: u32,
}

impl<'r> ThreeHeapValues<'r> {
    /// No value computed yet.
    ///
    /// # Panics
    /// On a rule with both three-heap splits and unequal two-heap splits (no game has one).
    pub fn new(rule: &'r ThreeHeapRule) -> ThreeHeapValues<'r> {
        assert!(
            rule.split_three.is_empty() || !rule.pairs.unequal_split,
            "three-heap splits with unequal two-heap splits are not a rule of any game"
        );
        ThreeHeapValues {
            rule,
            g: Vec::new(),
            pairs: PairSets::default(),
            least: Vec::new(),
            largest: 0,
        }
    }

    /// Goes on from `values`, `G(0..values.len())` of this rule computed before (a
    /// checkpoint's): the sets are rebuilt from them as they were when they were made, so
    /// the next values are those of a run never stopped. The values are trusted (a
    /// checkpoint's checksum stands for them).
    ///
    /// # Panics
    /// As [`ThreeHeapValues::new`].
    pub fn resume(rule: &'r ThreeHeapRule, values: Vec<u32>) -> ThreeHeapValues<'r> {
        let mut run = ThreeHeapValues::new(rule);
        for value in values {
            run.pairs.push(&pair_set(&run.g, run.g.len() as u32, words_for(run.largest), rule));
            run.record(value);
        }
        run
    }

    /// Keeps `value` as the next heap's.
    fn record(&mut self, value: u32) {
        let c = self.g.len() as u32;
        if self.least.len() <= value as usize {
            self.least.resize(value as usize + 1, [u32::MAX; 2]);
        }
        let least = &mut self.least[value as usize][(c % 2) as usize];
        if c >= 1 && *least == u32::MAX {
            *least = c;
        }
        self.largest = self.largest.max(value);
        self.g.push(value);
    }

    /// The rule the values are of.
    pub fn rule(&self) -> &'r ThreeHeapRule {
        self.rule
    }

    /// How many values are computed (heaps `0..len`).
    pub fn len(&self) -> usize {
        self.g.len()
    }

    /// Whether no value is computed yet.
    pub fn is_empty(&self) -> bool {
        self.g.is_empty()
    }

    /// `G(0..len)`.
    pub fn values(&self) -> &[u32] {
        &self.g
    }

    /// The largest value so far (0 before any).
    pub fn largest(&self) -> u32 {
        self.largest
    }

    /// The values computed.
    pub fn into_values(self) -> Vec<u32> {
        self.g
    }

    /// Computes `G(len)`, the mex of its options' values, and returns it.
    pub fn push_next(&mut self) -> u32 {
        let (rule, pair_rule) = (self.rule, &self.rule.pairs);
        let n = self.g.len() as u32;
        let words = words_for(self.largest);
        self.pairs.push(&pair_set(&self.g, n, words, rule));
        let mut seen = vec![0u64; words];
        let mut see = |v: u32| seen[(v >> 6) as usize] |= 1 << (v & 63);
        if pair_rule.vanish.binary_search(&n).is_ok() {
            see(0);
        }
        for &k in pair_rule.shrink.iter().take_while(|&&k| k < n) {
            see(self.g[(n - k) as usize]);
        }
        for &k in pair_rule.split.iter().take_while(|&&k| k + 2 <= n) {
            self.pairs.or_into(&mut seen, n - k);
        }
        let rests: Vec<u32> =
            rule.split_three.iter().take_while(|&&k| k + 3 <= n).map(|&k| n - k).collect();
        // Every option's value is below 2^bits of the largest, so the mex is at most that:
        // the first word with a value no option has holds it.
        let value = (0..words)
            .find_map(|q| {
                let missing = !seen[q] & !self.by_pairs(&rests, q, !seen[q]);
                let missing = missing & !self.by_triples(&rests, q, missing);
                (missing != 0).then(|| (q * 64) as u32 + missing.trailing_zeros())
            })
            .unwrap_or((words * 64) as u32);
        self.record(value);
        value
    }

    /// Which of the values `64 q + j` (`j` a bit of `wanted`) a pair `(c, a, a)` of a
    /// split of one of `rests` has: the least heap `c` of that value and `m`'s parity.
    fn by_pairs(&self, rests: &[u32], q: usize, wanted: u64) -> u64 {
        let mut found = 0;
        let mut bits = wanted;
        while bits != 0 {
            let j = bits.trailing_zeros();
            bits &= bits - 1;
            let Some(least) = self.least.get(q * 64 + j as usize) else { break };
            if rests.iter().any(|&m| least[(m % 2) as usize] <= m - 2) {
                found |= 1 << j;
            }
        }
        found
    }

    /// Which of the values `64 q + j` (`j` a bit of `wanted`) some split of one of `rests`
    /// into three heaps has: for each `c`, the word of `pairs[m - c]` that XOR with `G(c)`
    /// moves onto word `q`, its bits moved by `G(c)`'s low six. Stops once all are found.
    fn by_triples(&self, rests: &[u32], q: usize, wanted: u64) -> u64 {
        let mut found = 0;
        for &m in rests {
            for c in 1..=m - 2 {
                let left = wanted & !found;
                if left == 0 {
                    return found;
                }
                let x = self.g[c as usize];
                let word = self.pairs.word(m - c, q ^ (x >> 6) as usize);
                if left.is_power_of_two() {
                    // One value left (the mex, often): test its bit alone.
                    let j = left.trailing_zeros() ^ (x & 63);
                    found |= (word >> j & 1) << left.trailing_zeros();
                } else {
                    found |= xor_bits(word, x & 63) & wanted;
                }
            }
        }
        found
    }
}

/// The sets `pairs[m]` for `m = 0, 1, …`, kept word by word: row `w` holds word `w` of
/// every set from the first one that wide (the sets only widen). A scan over `c` reads
/// the words of `pairs[m - c]` for consecutive `m - c` from one row while `G(c) >> 6`
/// stays put, which is most of the time: memory in order, not one set after another.
#[derive(Debug, Default)]
struct PairSets {
    /// `rows[w][m - first[w]]`: word `w` of `pairs[m]`.
    rows: Vec<Vec<u64>>,
    /// The first `m` whose set has word `w`.
    first: Vec<u32>,
    /// How many sets are held.
    len: u32,
}

impl PairSets {
    /// Appends `pairs[len]`.
    fn push(&mut self, set: &[u64]) {
        for (w, &word) in set.iter().enumerate() {
            if w == self.rows.len() {
                self.rows.push(Vec::new());
                self.first.push(self.len);
            }
            self.rows[w].push(word);
        }
        self.len += 1;
    }

    /// Word `w` of `pairs[m]` (0 past its width: no value there).
    fn word(&self, m: u32, w: usize) -> u64 {
        match (self.rows.get(w), self.first.get(w)) {
            (Some(row), Some(&first)) if m >= first => row[(m - first) as usize],
            _ => 0,
        }
    }

    /// ORs `pairs[m]` into `seen` (as wide as the widest set).
    fn or_into(&self, seen: &mut [u64], m: u32) {
        for (w, out) in seen.iter_mut().enumerate() {
            *out |= self.word(m, w);
        }
    }
}

/// `{G(a) ^ G(b) : a + b = n, a, b >= 1}` (with `a != b` when the rule splits unequally),
/// `words` wide.
fn pair_set(g: &[u32], n: u32, words: usize, rule: &ThreeHeapRule) -> Bits {
    let unequal = rule.pairs.unequal_split;
    let mut set = vec![0u64; words];
    for b in 1..=n / 2 {
        if !(unequal && 2 * b == n) {
            let v = g[b as usize] ^ g[(n - b) as usize];
            set[(v >> 6) as usize] |= 1 << (v & 63);
        }
    }
    set
}

#[cfg(test)]
pub(super) mod tests;
