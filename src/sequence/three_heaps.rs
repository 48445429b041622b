//! Take-and-break rules whose moves may leave three heaps (hexadecimal codes), and their Grundy values by a plain mex over sets of XORs.

use super::rule::HeapRule;

/// The largest heap size of a sequence of a game with three-heap moves: its values are
/// computed in memory by a plain mex whose time grows with the square of the heap size
/// times the width of the values (see [`three_heap_values`]).
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

/// The least value not in `seen`.
fn mex(seen: &[u64]) -> u32 {
    match seen.iter().position(|&w| w != u64::MAX) {
        Some(w) => (w * 64) as u32 + seen[w].trailing_ones(),
        None => (seen.len() * 64) as u32,
    }
}

/// `G(0..=max)` of a rule with three-heap splits, by the plain mex rule.
///
/// Heap `n`'s options' values are read as sets: `pairs[m]`, every `G(a) ^ G(b)` with
/// `a + b = m` (`a, b >= 1`), and `triples[m]`, every `G(a) ^ G(b) ^ G(c)` with
/// `a + b + c = m`, the union over `c` of `G(c) ^ pairs[m - c]`. A removal `k` of a
/// split reads the set of `n - k`, so each set is made once, in `O(m)` words: the run
/// takes `O(max^2)` word operations times the width of the values, which grows with them
/// (values grow linearly in arithmetic-periodic games; no bound on them is assumed).
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
    pairs: Vec<Bits>,
    /// `triples[m]`: every `G(a) ^ G(b) ^ G(c)` with `a + b + c = m`, kept only for the
    /// heaps the next one reads (empty before them).
    triples: Vec<Bits>,
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
        ThreeHeapValues { rule, g: Vec::new(), pairs: Vec::new(), triples: Vec::new(), largest: 0 }
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
        let len = values.len() as u32;
        let first_triple = len.saturating_sub(run.window());
        run.g = values;
        let mut largest = 0;
        for n in 0..len {
            let words = words_for(largest);
            run.pairs.push(pair_set(&run.g[..n as usize], n, words, rule.pairs.unequal_split));
            let triples = if n >= first_triple {
                triple_set(&run.g, &run.pairs, n, words)
            } else {
                Vec::new()
            };
            run.triples.push(triples);
            largest = largest.max(run.g[n as usize]);
        }
        run.largest = largest;
        run
    }

    /// Heap `n` reads the triple sets of `n - k` for the removals `k` of three-heap splits
    /// only: older ones are dropped.
    fn window(&self) -> u32 {
        self.rule.split_three.last().copied().unwrap_or(0)
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
        self.pairs.push(pair_set(&self.g, n, words, pair_rule.unequal_split));
        self.triples.push(triple_set(&self.g, &self.pairs, n, words));
        let mut seen = vec![0u64; words];
        let mut see = |v: u32| seen[(v >> 6) as usize] |= 1 << (v & 63);
        if pair_rule.vanish.binary_search(&n).is_ok() {
            see(0);
        }
        for &k in pair_rule.shrink.iter().take_while(|&&k| k < n) {
            see(self.g[(n - k) as usize]);
        }
        let or_set = |seen: &mut Bits, set: &Bits| {
            seen.iter_mut().zip(set).for_each(|(s, &w)| *s |= w);
        };
        for &k in pair_rule.split.iter().take_while(|&&k| k + 2 <= n) {
            or_set(&mut seen, &self.pairs[(n - k) as usize]);
        }
        for &k in rule.split_three.iter().take_while(|&&k| k + 3 <= n) {
            or_set(&mut seen, &self.triples[(n - k) as usize]);
        }
        if let Some(old) = n.checked_sub(self.window()) {
            self.triples[old as usize] = Vec::new();
        }
        let value = mex(&seen);
        self.largest = self.largest.max(value);
        self.g.push(value);
        value
    }
}

/// `{G(a) ^ G(b) : a + b = n, a, b >= 1}` (with `a != b` when `unequal`), `words` wide.
fn pair_set(g: &[u32], n: u32, words: usize, unequal: bool) -> Bits {
    let mut set = vec![0u64; words];
    for b in 1..=n / 2 {
        if !(unequal && 2 * b == n) {
            let v = g[b as usize] ^ g[(n - b) as usize];
            set[(v >> 6) as usize] |= 1 << (v & 63);
        }
    }
    set
}

/// `{G(a) ^ G(b) ^ G(c) : a + b + c = n, a, b, c >= 1}`, `words` wide: every such
/// triple has some part `c` with the other two summing to `n - c`, so the set is the
/// union over `c` of `pairs[n - c]` with every value XORed with `G(c)`.
///
/// The XOR with `G(c)` moves whole words by its high bits (`w ^ (G(c) >> 6)`, a plain OR
/// into the right word) and bits within a word by its low six: the sets are gathered by
/// those six bits first, so the bits within words move 64 times a heap, not once per `c`.
fn triple_set(g: &[u32], pairs: &[Bits], n: u32, words: usize) -> Bits {
    let mut by_low_bits = vec![0u64; 64 * words];
    let mut used = [false; 64];
    for c in 1..n.saturating_sub(1) {
        let value = g[c as usize];
        let (high, low) = ((value >> 6) as usize, (value & 63) as usize);
        let gathered = &mut by_low_bits[low * words..(low + 1) * words];
        for (w, &word) in pairs[(n - c) as usize].iter().enumerate() {
            gathered[w ^ high] |= word;
        }
        used[low] = true;
    }
    let mut set = vec![0u64; words];
    for low in (0..64).filter(|&low| used[low]) {
        let gathered = &by_low_bits[low * words..(low + 1) * words];
        for (out, &word) in set.iter_mut().zip(gathered) {
            *out |= xor_bits(word, low as u32);
        }
    }
    set
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// 0.3F: remove 1 or 2 (taking the heap whole or not), or 1 leaving two or three heaps.
    pub(in crate::sequence) fn rule_0_3f() -> ThreeHeapRule {
        let pairs = HeapRule {
            vanish: vec![1, 2],
            shrink: vec![1, 2],
            split: vec![2],
            unequal_split: false,
        };
        ThreeHeapRule { pairs, split_three: vec![2] }
    }

    /// The mex over every option, listed.
    fn by_options(rule: &ThreeHeapRule, max: u32) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for n in 0..=max {
            let values: Vec<u32> = rule
                .options(n)
                .iter()
                .map(|parts| parts.iter().fold(0, |x, &p| x ^ g[p as usize]))
                .collect();
            g.push((0..).find(|v| !values.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn xor_bits_moves_each_bit_to_its_xor() {
        for j in 0..64 {
            for i in 0..64 {
                assert_eq!(xor_bits(1 << i, j), 1 << (i ^ j), "{i} {j}");
            }
        }
    }

    #[test]
    fn values_are_the_mex_of_the_listed_options() {
        let rule = rule_0_3f();
        assert_eq!(rule.values(300), by_options(&rule, 300));
        let in_place = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: vec![0, 3] };
        assert_eq!(in_place.values(200), by_options(&in_place, 200));
    }

    #[test]
    fn values_asked_to_stop_are_the_heaps_computed_before() {
        let rule = rule_0_3f();
        let mut asked = 0;
        let values = three_heap_values_until(&rule, 100, &mut || {
            asked += 1;
            asked > 40
        });
        assert_eq!(values, rule.values(39));
    }

    #[test]
    fn values_resumed_from_any_prefix_go_on_as_a_run_never_stopped() {
        let rule = rule_0_3f();
        let in_place = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: vec![0, 3] };
        for rule in [rule, in_place] {
            let whole = rule.values(260);
            for cut in [0, 1, 2, 3, 5, 64, 65, 130, 259] {
                let mut run = ThreeHeapValues::resume(&rule, whole[..cut].to_vec());
                while run.len() < whole.len() {
                    run.push_next();
                }
                assert_eq!(run.largest(), *whole.iter().max().unwrap());
                assert_eq!(run.into_values(), whole, "{rule:?} cut at {cut}");
            }
        }
    }

    #[test]
    fn move_counts_are_the_options_listed() {
        let rule = rule_0_3f();
        let in_place = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: vec![0, 3] };
        let mut unequal = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: Vec::new() };
        unequal.pairs.unequal_split = true;
        for rule in [rule, in_place, unequal] {
            for n in 0..60 {
                assert_eq!(rule.move_count(u64::from(n)), rule.options(n).len() as u64, "{n}");
            }
        }
    }

    #[test]
    fn options_list_three_heaps_and_count_the_removal() {
        let rule = rule_0_3f();
        assert!(rule.options(5).contains(&[2, 1, 0]) && rule.options(5).contains(&[1, 1, 1]));
        assert!(!rule.options(4).contains(&[1, 1, 1]));
        assert_eq!(rule.max_removal(), 2);
        assert!(!rule.splits_in_place() && !rule.has_moves(0) && rule.has_moves(1));
    }
}
