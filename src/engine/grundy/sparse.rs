//! The rare/common ("sparse space") mex: exact for any mask, fast when rare heaps are few.
//!
//! Pick a mask `M` and call a value `v` *rare* when `popcount(v & M)` is even, *common*
//! otherwise. Rare values are a subgroup under XOR and common values its other coset, so
//! a split's value `G(a) ^ G(b)` is common exactly when one part is rare. Per heap `n`:
//! 1. mark the values of the one-heap options and of every split with a rare part,
//!    through the (short) list of rare heaps;
//! 2. `c` = the least common value not marked; if every rare value below `c` is marked,
//!    `G(n) = c`;
//! 3. otherwise scan the splits until every rare value below `c` is seen (`G(n) = c`), or
//!    to the end (`G(n)` = the least rare value still missing).
//!
//! Every branch computes the mex of the whole option set, so the mask only decides the
//! speed. It is re-chosen at powers of two and when values need a new bit, as the mask
//! with the fewest rare heaps (all masks at once, by a Walsh–Hadamard transform of the
//! value histogram). The order of step 3's scan matters most: a list of recently useful
//! smaller parts first, then blocks alternately bottom-up (the irregular small heaps,
//! where periodic games hide the pairs that break the pattern) and spread out.

use super::{Cell, Moves};

/// Consecutive smaller parts a scan probes before jumping elsewhere.
const SCAN_BLOCK: u32 = 16;
/// The most useful smaller parts probed before the block scan.
const WITNESS_PROBES: usize = 2048;
/// How often (in heaps) the probe list is rebuilt from the usefulness scores.
const WITNESS_REBUILD: u32 = 4096;

/// State after the heaps `0..values.len()`.
pub(super) struct SparseEngine<'m, V> {
    moves: &'m Moves,
    values: Vec<V>,
    mask: u32,
    /// Heaps `n >= 1` whose value is rare under `mask`, ascending.
    rare_heaps: Vec<u32>,
    /// `seen[v] == stamp`: `v` is an option value of the heap being computed.
    seen: Vec<u32>,
    /// Heaps per value (length a power of two).
    histogram: Vec<u64>,
    next_mask_choice: u32,
    witnesses: WitnessList,
}

/// What a scan looks for: rare values below `candidate` not yet seen.
struct Wanted {
    candidate: u32,
    stamp: u32,
    missing: u32,
}

/// Smaller parts of splits that recently revealed a missing rare value. Values change
/// slowly with the heap size, so the same small parts keep pairing with the top heaps
/// into the values hardest to find.
#[derive(Default)]
struct WitnessList {
    /// Usefulness of each smaller part, halved at every rebuild so old successes fade.
    score: Vec<u32>,
    /// The parts with a non-zero score.
    scored: Vec<u32>,
    /// The probe order: highest scores first.
    probes: Vec<u32>,
}

impl WitnessList {
    fn credit(&mut self, a: u32) {
        let index = a as usize;
        if index >= self.score.len() {
            self.score.resize((index + 1).next_power_of_two(), 0);
        }
        if self.score[index] == 0 {
            self.scored.push(a);
        }
        self.score[index] += 1;
    }

    fn rebuild(&mut self) {
        let score = &self.score;
        self.scored.sort_unstable_by_key(|&a| (std::cmp::Reverse(score[a as usize]), a));
        self.probes = self.scored.iter().copied().take(WITNESS_PROBES).collect();
        for &a in &self.scored {
            self.score[a as usize] /= 2;
        }
        let score = &self.score;
        self.scored.retain(|&a| score[a as usize] > 0);
    }
}

/// A step near `count / φ`, coprime to `count`: `i ↦ i·step mod count` permutes
/// `0..count` while jumping far between consecutive indices.
fn coprime_stride(count: u32) -> u32 {
    if count <= 2 {
        return 1;
    }
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut stride = ((u64::from(count) * 618) / 1000).max(1) as u32;
    while gcd(stride, count) != 1 {
        stride += 1;
    }
    stride
}

fn is_rare(value: u32, mask: u32) -> bool {
    (value & mask).count_ones().is_multiple_of(2)
}

impl<'m, V: Cell> SparseEngine<'m, V> {
    pub(super) fn new(moves: &'m Moves, max: u32) -> Self {
        SparseEngine {
            moves,
            values: Vec::with_capacity(max as usize + 1),
            // Even popcount ("evil") values are rare for most octal games.
            mask: u32::MAX,
            rare_heaps: Vec::new(),
            seen: vec![u32::MAX; 4],
            histogram: vec![0; 2],
            next_mask_choice: 64,
            witnesses: WitnessList::default(),
        }
    }

    /// The values computed so far.
    pub(super) fn values(&self) -> Vec<u32> {
        self.values.iter().map(|&v| v.into()).collect()
    }

    fn value(&self, h: u32) -> u32 {
        self.values[h as usize].into()
    }

    /// Computes and appends `G(n)`, `n = values.len()`; `None` if it does not fit `V`.
    pub(super) fn push_next(&mut self, n: u32) -> Option<()> {
        let stamp = n;
        self.mark_one_heap_options(n, stamp);
        self.mark_splits_with_a_rare_part(n, stamp);
        let (candidate, missing) = self.common_candidate(stamp);
        let value = if missing == 0 {
            candidate
        } else {
            self.scan_splits(n, Wanted { candidate, stamp, missing })
        };
        self.record(n, value)?;
        if n.is_multiple_of(WITNESS_REBUILD) {
            self.witnesses.rebuild();
        }
        Some(())
    }

    fn mark_one_heap_options(&mut self, n: u32, stamp: u32) {
        if self.moves.vanish.binary_search(&n).is_ok() {
            self.seen[0] = stamp;
        }
        for &k in self.moves.shrink.iter().take_while(|&&k| k < n) {
            let value = self.value(n - k);
            self.seen[value as usize] = stamp;
        }
    }

    /// Marks `G(r) ^ G(rest - r)` for every split with a rare part `r`.
    fn mark_splits_with_a_rare_part(&mut self, n: u32, stamp: u32) {
        let (values, seen) = (&self.values, &mut self.seen);
        for &k in self.moves.split.iter().take_while(|&&k| k + 2 <= n) {
            let rest = n - k;
            for &r in self.rare_heaps.iter().take_while(|&&r| r < rest) {
                if !(self.moves.unequal && 2 * r == rest) {
                    let (x, y): (u32, u32) =
                        (values[r as usize].into(), values[(rest - r) as usize].into());
                    seen[(x ^ y) as usize] = stamp;
                }
            }
        }
    }

    /// The least common value not seen, and how many rare values below it are not seen.
    fn common_candidate(&self, stamp: u32) -> (u32, u32) {
        let mut missing_rare = 0;
        for v in 0..self.seen.len() as u32 {
            if self.seen[v as usize] != stamp {
                if !is_rare(v, self.mask) {
                    return (v, missing_rare);
                }
                missing_rare += 1;
            }
        }
        // Option values are below seen.len() / 2, so an unseen common value exists.
        unreachable!("the seen table is too small for the option values")
    }

    /// Scans the splits of `n` until every rare value below the candidate is seen and
    /// returns the mex. The scan is complete whatever its order: the bottom-up sweep alone
    /// covers every block; the spread-out probes and the witness list only come first.
    fn scan_splits(&mut self, n: u32, mut wanted: Wanted) -> u32 {
        let rests: Vec<u32> =
            self.moves.split.iter().take_while(|&&k| k + 2 <= n).map(|&k| n - k).collect();
        if self.probe_witnesses(&rests, &mut wanted) {
            return wanted.candidate;
        }
        let blocks = rests.iter().map(|&rest| (rest / 2).div_ceil(SCAN_BLOCK)).max().unwrap_or(0);
        let stride = u64::from(coprime_stride(blocks));
        let (mut bottom, mut probe) = (0u32, 0u64);
        while bottom < blocks {
            let block = if probe <= u64::from(bottom) {
                bottom += 1;
                bottom - 1
            } else {
                ((u64::from(blocks) - 1 + probe * stride) % u64::from(blocks)) as u32
            };
            probe += 1;
            let first = 1 + block * SCAN_BLOCK;
            for &rest in &rests {
                let last = (first + SCAN_BLOCK - 1).min(rest / 2);
                if (first..=last).any(|a| self.check_split(a, rest, &mut wanted)) {
                    return wanted.candidate;
                }
            }
        }
        let stamp = wanted.stamp;
        (0..wanted.candidate).find(|&v| self.seen[v as usize] != stamp).unwrap_or(wanted.candidate)
    }

    /// Probes the splits whose smaller part is on the witness list; true once nothing is
    /// missing.
    fn probe_witnesses(&mut self, rests: &[u32], wanted: &mut Wanted) -> bool {
        for i in 0..self.witnesses.probes.len() {
            let a = self.witnesses.probes[i];
            for &rest in rests {
                if a <= rest / 2 && self.check_split(a, rest, wanted) {
                    return true;
                }
            }
        }
        false
    }

    /// Visits the split `(rest - a, a)`; true once no wanted value is missing. An unseen
    /// value below the candidate is rare (every common one below it was seen): wanted.
    fn check_split(&mut self, a: u32, rest: u32, wanted: &mut Wanted) -> bool {
        let value = self.value(a) ^ self.value(rest - a);
        if value >= wanted.candidate || self.seen[value as usize] == wanted.stamp {
            return false;
        }
        if self.moves.unequal && 2 * a == rest {
            return false;
        }
        self.seen[value as usize] = wanted.stamp;
        self.witnesses.credit(a);
        wanted.missing -= 1;
        wanted.missing == 0
    }

    fn record(&mut self, n: u32, value: u32) -> Option<()> {
        self.values.push(V::try_from(value).ok()?);
        let mut grew = false;
        while value as usize >= self.histogram.len() {
            self.histogram.resize(self.histogram.len() * 2, 0);
            grew = true;
        }
        self.histogram[value as usize] += 1;
        // Option values are XORs of values below histogram.len(), a power of two, so
        // they (and the mex, at most that bound) fit a table twice as long.
        if self.seen.len() < 2 * self.histogram.len() {
            self.seen.resize(2 * self.histogram.len(), u32::MAX);
        }
        if n >= 1 && is_rare(value, self.mask) {
            self.rare_heaps.push(n);
        }
        if grew || n + 1 == self.next_mask_choice {
            self.choose_mask();
            if n + 1 >= self.next_mask_choice {
                self.next_mask_choice = self.next_mask_choice.saturating_mul(2);
            }
        }
        Some(())
    }

    /// Picks the mask with the fewest rare heaps so far and rebuilds the rare-heap list.
    fn choose_mask(&mut self) {
        let mut transform: Vec<i64> = self.histogram.iter().map(|&c| c as i64).collect();
        walsh_hadamard(&mut transform);
        // rare(M) = (heaps + W[M]) / 2; mask 0 (every value rare, the plain mex) is never
        // better, so it is left out.
        let best = (1..transform.len()).min_by_key(|&m| (transform[m], m)).unwrap_or(1);
        self.mask = best as u32;
        let mask = self.mask;
        self.rare_heaps =
            (1..self.values.len() as u32).filter(|&h| is_rare(self.value(h), mask)).collect();
    }
}

/// In-place Walsh–Hadamard transform: `W[m] = Σ_v h[v] (-1)^popcount(v & m)`.
fn walsh_hadamard(data: &mut [i64]) {
    let mut half = 1;
    while half < data.len() {
        for block in data.chunks_mut(2 * half) {
            let (left, right) = block.split_at_mut(half);
            for (x, y) in left.iter_mut().zip(right.iter_mut()) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        half *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walsh_hadamard_counts_signed_values_per_mask() {
        let mut h = vec![3, 1, 0, 2];
        walsh_hadamard(&mut h);
        assert_eq!(h, vec![6, 0, 2, 4]);
    }

    #[test]
    fn strides_permute_the_blocks() {
        for count in [1, 2, 3, 10, 64, 1000] {
            let stride = coprime_stride(count);
            let mut hit: Vec<u32> = (0..count).map(|i| (i * stride) % count).collect();
            hit.sort_unstable();
            assert_eq!(hit, (0..count).collect::<Vec<_>>(), "{count}");
        }
    }
}
