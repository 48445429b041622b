//! The arithmetic-periodicity criterion: a proof that `G(n + p) = G(n) + s` holds for every heap of a game with three-heap moves, from finitely many checks.
//!
//! Let `f` be the sequence the values show: `f(n) = G(n)` below `T + p` (`T = max(e, 1)`)
//! and `f(n + p) = f(n) + s` from `T` on. A heap's options are tuples of parts; a part is
//! a *head* (size below `T`, its value known exactly) or a *tail* (size at least `T`,
//! `f` linear along its residue class). By induction on `n`, `G = f` everywhere once it
//! holds below a heap `N` from which, for every `n >= N`, (1) no option of `n` has the
//! value `f(n)` under `f` and (2) every value below `f(n)` is an option's. Each is a
//! finite check (the user guide's section "Arithmetic periods" has the proof):
//!
//! * **(1) Avoidance, by classes.** An option's class is its removal, its number of parts
//!   and each part's head size or tail residue. For any `m` with `2^m | s`, write
//!   `f = 2^m H + L` with `L < 2^m`; along a class, `C = sum H(parts) - H(n)` and the XOR
//!   of the parts' `L` against `L(n)` do not change. The option's value differs from
//!   `f(n)` when `C < 0` (XOR is at most the sum), `C` is odd (XOR has the sum's
//!   parity), the `L` differ, or the class has one tail, its heads' `H` XOR to 0 and the
//!   tail's `H` is not `H(n)` (the option's high part is then the tail's). A class none
//!   of these settles for any `m` ends the proof.
//! * **(2) Coverage, by witnesses.** A three-heap move `(c, a, a)` has the value `f(c)`
//!   (*pairs*, for every `c <= n - k - 2` of the parity of `n - k`); so has `(c, a, a + d)`
//!   when `f(a + d) = f(a)` for every tail `a` of a residue class `r` mod `p` (*twins*,
//!   for `c = n - k - d - 2a`, `a >= r`, `r` the class's least tail); options with one
//!   tail and heads have the value `f(x) XOR Y`. Below a depth `D`, the pairs (and twins)
//!   are shown to cover `[0, f(n) - D)` at `n = N..N + P` (`P = lcm(p, 2)`, or `2p` with
//!   twins, so that the witnesses of `n` stay witnesses of `n + P`) and the offsets
//!   `(D, D + sP/p]` at every `n >= N`; the top `D` values are covered by those and
//!   one-tail options. Both offset checks are periodic in `n` (with `Y < 2^B`, the period
//!   `p 2^B / gcd(s, 2^B)`), so one period of `n` decides them. Twins are tried only when
//!   pairs alone do not cover, so a proof by pairs reads the same heaps as before.

use super::arithmetic::ArithmeticPeriod;
use super::proof_gap::ProofGap;
use super::{find_period, Certificate, MoveShape, PeriodOutcome, Periodicity, Uncertified};
use crate::sequence::ThreeHeapRule;

/// The most option classes or witness heaps the criterion examines before it gives up.
const MOST_CHECKS: u64 = 1 << 26;

/// The deepest offset below `f(n)` the witness check reads.
const DEEPEST_OFFSET: u64 = 1 << 14;

/// What the criterion proved: `G(n + p) = G(n) + s` for every `n >= e`, from the values
/// through `checked_through` (which must agree with the triple) and the checks on `f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArithmeticProof {
    /// The last heap whose computed value the proof reads.
    pub checked_through: u64,
}

/// The period search of a rule with three-heap moves over `values = G(0..=N)`: an
/// ordinary period under the hexadecimal periodicity theorem, else the least arithmetic
/// period the values show, proved by [`prove_arithmetic`] when its checks hold.
pub fn find_three_heap_period(rule: &ThreeHeapRule, values: &[u32]) -> PeriodOutcome {
    let certificate = Certificate::for_shape(MoveShape::of_three_heap_rule(rule));
    let outcome = find_period(Some(certificate), values);
    let PeriodOutcome::NotCertified {
        checked_through,
        largest_value,
        reason: Uncertified::Arithmetic { found, through, .. },
    } = outcome
    else {
        return outcome;
    };
    match prove_arithmetic(rule, values, found) {
        Ok(proof) => PeriodOutcome::Certified(Periodicity {
            preperiod: found.preperiod,
            period: found.period,
            saltus: found.saltus,
            checked_through: proof.checked_through,
            certificate: Certificate::ArithmeticPeriodicity {
                checked_through: proof.checked_through,
            },
        }),
        Err(gap) => PeriodOutcome::NotCertified {
            checked_through,
            largest_value,
            reason: Uncertified::Arithmetic { found, through, gap: Some(gap) },
        },
    }
}

/// Proves `found` (with `s > 0`) for every heap of `rule` from `values = G(0..=W)`, or
/// says why the criterion does not.
///
/// # Errors
/// The [`ProofGap`] that stopped the proof.
pub fn prove_arithmetic(
    rule: &ThreeHeapRule,
    values: &[u32],
    found: ArithmeticPeriod,
) -> Result<ArithmeticProof, ProofGap> {
    let ArithmeticPeriod { preperiod: e, period: p, saltus: s } = found;
    let tail = e.max(1);
    let Some(last) = (values.len() as u64).checked_sub(1) else {
        return Err(ProofGap::NeedsValues(tail + p - 1));
    };
    if rule.pairs.unequal_split {
        return Err(ProofGap::UnequalSplits);
    }
    if s == 0 || p == 0 || tail + p > last + 1 {
        return Err(ProofGap::NeedsValues(tail + p - 1));
    }
    // f takes G below T + p; the relation at heaps e..T (heap 0 when e = 0) is read here.
    let value = |n: u64| u64::from(values[n as usize]);
    if let Some(n) = (e..tail).find(|&n| value(n + p) != value(n) + s) {
        return Err(ProofGap::Broken(n + p));
    }
    let f = Candidate::new(&values[..(tail + p) as usize], tail, p, s);
    let moves = Moves::of(rule);
    let avoid_from = moves.most + 3 * (tail - 1) + 1;
    avoidance(&f, &moves)?;
    let start = coverage(&f, &moves, avoid_from, &Witnesses::pairs(&f)).or_else(|gap| {
        // Twins widen the witnesses at the cost of a longer step: tried only when needed.
        let twins = Witnesses::pairs_and_twins(&f, &moves);
        match gap {
            ProofGap::Coverage { .. } if !twins.twins.is_empty() => {
                coverage(&f, &moves, avoid_from, &twins)
            }
            gap => Err(gap),
        }
    })?;
    let checked_through = start.max(avoid_from).max(tail + p) - 1;
    if checked_through > last {
        return Err(ProofGap::NeedsValues(checked_through));
    }
    if let Some(n) = (tail + p..=checked_through).find(|&n| value(n) != f.at(n)) {
        return Err(ProofGap::Broken(n));
    }
    Ok(ArithmeticProof { checked_through })
}

/// The candidate sequence `f`: the values below `tail + period`, then `+ saltus` a period.
struct Candidate<'a> {
    base: &'a [u32],
    tail: u64,
    period: u64,
    saltus: u64,
}

impl<'a> Candidate<'a> {
    fn new(base: &'a [u32], tail: u64, period: u64, saltus: u64) -> Candidate<'a> {
        Candidate { base, tail, period, saltus }
    }

    fn at(&self, n: u64) -> u64 {
        if n < self.tail + self.period {
            return u64::from(self.base[n as usize]);
        }
        let (q, r) = ((n - self.tail) / self.period, (n - self.tail) % self.period);
        u64::from(self.base[(self.tail + r) as usize]) + self.saltus * q
    }

    /// `p f(n) - s n`, which is periodic on the tail.
    fn drift(&self, n: u64) -> i128 {
        i128::from(self.period) * i128::from(self.at(n)) - i128::from(self.saltus) * i128::from(n)
    }
}

/// The rule's moves by the number of heaps they leave (a heap taken whole matters only
/// below the heaps the proof covers).
struct Moves {
    one: Vec<u32>,
    two: Vec<u32>,
    three: Vec<u32>,
    most: u64,
}

impl Moves {
    fn of(rule: &ThreeHeapRule) -> Moves {
        Moves {
            one: rule.pairs.shrink.clone(),
            two: rule.pairs.split.clone(),
            three: rule.split_three.clone(),
            most: u64::from(rule.max_removal()),
        }
    }
}

/// Check (1) over every class of every move that leaves one, two or three heaps.
fn avoidance(f: &Candidate, moves: &Moves) -> Result<(), ProofGap> {
    // Kinds: head sizes 1..tail, then one tail size per residue.
    let kinds: Vec<u64> = (1..f.tail).chain(f.tail..f.tail + f.period).collect();
    let heads = (f.tail - 1) as usize;
    let k3 = kinds.len() as u64;
    let squares = k3.saturating_mul(k3);
    let classes = (squares.saturating_mul(k3) / 6)
        .saturating_mul(moves.three.len() as u64)
        .saturating_add(squares.saturating_mul(moves.two.len() as u64));
    if classes > MOST_CHECKS {
        return Err(ProofGap::TooLarge);
    }
    let check = |removed: u32, parts: &[usize]| {
        let sizes: Vec<u64> = parts.iter().map(|&i| kinds[i]).collect();
        let tails = parts.iter().filter(|&&i| i >= heads).count();
        let n = u64::from(removed) + sizes.iter().sum::<u64>();
        if tails == 0 || avoided(f, &sizes, n, tails) {
            return Ok(());
        }
        Err(ProofGap::Avoidance { removed, parts: parts.len() as u32, heap: n })
    };
    for &k in &moves.one {
        (heads..kinds.len()).try_for_each(|i| check(k, &[i]))?;
    }
    for &k in &moves.two {
        for i in 0..kinds.len() {
            (i..kinds.len()).try_for_each(|j| check(k, &[i, j]))?;
        }
    }
    for &k in &moves.three {
        for i in 0..kinds.len() {
            for j in i..kinds.len() {
                (j..kinds.len()).try_for_each(|l| check(k, &[i, j, l]))?;
            }
        }
    }
    Ok(())
}

/// Whether one of the tests of (1) settles the class of parts `sizes` of heap `n`.
fn avoided(f: &Candidate, sizes: &[u64], n: u64, tails: usize) -> bool {
    let target = f.at(n);
    let parts: Vec<(bool, u64)> = sizes.iter().map(|&x| (x >= f.tail, f.at(x))).collect();
    (0..=f.saltus.trailing_zeros().min(62)).any(|m| {
        let high = |v: u64| i128::from(v >> m);
        let low = |v: u64| v & ((1u64 << m) - 1);
        let c = parts.iter().map(|&(_, v)| high(v)).sum::<i128>() - high(target);
        let low_xor = parts.iter().fold(0, |x, &(_, v)| x ^ low(v));
        // One tail whose heads' high parts cancel: the option's high part is the tail's.
        let heads_high = parts.iter().filter(|p| !p.0).fold(0, |x, &(_, v)| x ^ (v >> m));
        let tail_high = parts.iter().find(|p| p.0).map_or(0, |&(_, v)| high(v));
        c < 0
            || c % 2 != 0
            || low_xor != low(target)
            || (tails == 1 && heads_high == 0 && tail_high != high(target))
    })
}

/// The three-heap witnesses of values far below `f(n)`, whose value is that of their
/// first part `c`: pairs `(c, a, a)` and, when asked, twins `(c, a, a + d)`.
struct Witnesses {
    /// The heaps `n` after which the witnesses of `n` are again witnesses (with `c` the
    /// same): `lcm(p, 2)` for pairs, `2p` with twins (`a` moves by a whole period).
    step: u64,
    /// For each twin progression, the least `k + d + 2r` over the moves `k` and twin
    /// classes `(r, d)` of one residue mod `2p`: its `c` are `n - drop - 2p j`.
    twins: Vec<u64>,
}

impl Witnesses {
    fn pairs(f: &Candidate) -> Witnesses {
        let p = f.period;
        Witnesses { step: if p.is_multiple_of(2) { p } else { 2 * p }, twins: Vec::new() }
    }

    /// Pairs and every twin class: a least tail `r` of its residue and a distance
    /// `0 < d < 2p` with `f(r + d) = f(r)` (so `f(a + d) = f(a)` for every tail `a` of
    /// `r`'s class, both growing by `s` a period).
    fn pairs_and_twins(f: &Candidate, moves: &Moves) -> Witnesses {
        let p = f.period;
        let mut least: Vec<Option<u64>> = vec![None; 2 * p as usize];
        for r in f.tail..f.tail + p {
            for d in (1..2 * p).filter(|&d| f.at(r + d) == f.at(r)) {
                for &k in &moves.three {
                    let drop = u64::from(k) + d + 2 * r;
                    let slot = &mut least[(drop % (2 * p)) as usize];
                    *slot = Some(slot.map_or(drop, |old| old.min(drop)));
                }
            }
        }
        Witnesses { step: 2 * p, twins: least.into_iter().flatten().collect() }
    }

    /// The heaps `c` in `low < c <= n` (and `c >= 1`) whose value `f(c)` a pair or twin
    /// of `n` has, each marked once per witness progression.
    fn each_c(&self, moves: &Moves, n: u64, low: u64, mut mark: impl FnMut(u64)) {
        let mut run = |top: Option<u64>, stride: u64| {
            let Some(mut c) = top else { return };
            while c > low && c >= 1 {
                mark(c);
                let Some(next) = c.checked_sub(stride) else { break };
                c = next;
            }
        };
        for &k in &moves.three {
            run(n.checked_sub(u64::from(k) + 2), 2);
        }
        for &drop in &self.twins {
            run(n.checked_sub(drop), self.step);
        }
    }
}

/// Check (2): the first heap `N` from which every value below `f(n)` has a witness.
fn coverage(
    f: &Candidate,
    moves: &Moves,
    avoid_from: u64,
    witnesses: &Witnesses,
) -> Result<u64, ProofGap> {
    if moves.three.is_empty() {
        // Without pairs no witness reaches far below f(n).
        return Err(ProofGap::Coverage { heap: avoid_from, offset: f.saltus + 1 });
    }
    let (p, s, tail) = (f.period, f.saltus, f.tail);
    let step = witnesses.step;
    let growth = s * step / p;
    // One-tail witnesses pair the tail with small parts (sizes below `small`).
    let small = tail + p;
    let largest_small = (1..small).map(|h| f.at(h)).max().unwrap_or(0);
    let bits = 64 - largest_small.leading_zeros();
    let Some(spread) = p.checked_mul(1 << bits).map(|w| w >> bits.min(s.trailing_zeros())) else {
        return Err(ProofGap::TooLarge);
    };
    let Some(cycle) = lcm(step, spread) else { return Err(ProofGap::TooLarge) };
    let min_tail = (tail..tail + p).map(|x| f.drift(x)).min().unwrap_or(0);
    let max_all = (0..tail + p).map(|x| f.drift(x)).max().unwrap_or(0);
    let mut depth = (2 * growth).max(16);
    let mut widest = None;
    loop {
        if depth > DEEPEST_OFFSET {
            let (heap, offset) = widest.unwrap_or((avoid_from, depth));
            return Err(ProofGap::Coverage { heap, offset });
        }
        // c <= n - reach has f(n) - f(c) > depth; n >= positive has f(n) > depth.
        let reach =
            ((i128::from(p) * i128::from(depth) + max_all - min_tail) / i128::from(s) + 1) as u64;
        let positive =
            ((i128::from(p) * i128::from(depth) - min_tail).max(0) / i128::from(s) + 1) as u64;
        let start = avoid_from.max(2 * small + tail + moves.most).max(tail + reach).max(positive);
        let per_heap =
            (reach.saturating_mul(2)).saturating_add(small.saturating_mul(small).saturating_mul(4));
        if cycle.saturating_mul(per_heap) > MOST_CHECKS {
            return Err(ProofGap::TooLarge);
        }
        let window = Window { f, moves, witnesses, depth, reach, small };
        let (deepest_gap, at) =
            (start..start + cycle).map(|n| (window.pair_gap(n), n)).max().unwrap_or((0, start));
        if deepest_gap + growth > depth {
            widest = Some((at, deepest_gap));
            depth *= 2;
            continue;
        }
        for n in start..start + cycle {
            window.near(n, deepest_gap)?;
        }
        for n in start..start + step {
            far(f, moves, witnesses, n, deepest_gap)?;
        }
        return Ok(start);
    }
}

/// The offsets `1..=depth` below `f(n)` at heaps `n` from the check's start.
struct Window<'a> {
    f: &'a Candidate<'a>,
    moves: &'a Moves,
    witnesses: &'a Witnesses,
    depth: u64,
    reach: u64,
    small: u64,
}

impl Window<'_> {
    /// Offsets `f(n) - f(c)` in `1..=depth` of the pairs `(c, a, a)` (and twins) of `n`.
    fn pair_offsets(&self, n: u64) -> Vec<bool> {
        let target = self.f.at(n);
        let mut covered = vec![false; self.depth as usize + 1];
        self.witnesses.each_c(self.moves, n, n.saturating_sub(self.reach), |c| {
            let offset = target.wrapping_sub(self.f.at(c));
            if (1..=self.depth).contains(&offset) {
                covered[offset as usize] = true;
            }
        });
        covered
    }

    /// The largest offset in `1..=depth` no pair (or twin) of `n` covers (0: none).
    fn pair_gap(&self, n: u64) -> u64 {
        let covered = self.pair_offsets(n);
        (1..=self.depth).rev().find(|&d| !covered[d as usize]).unwrap_or(0)
    }

    /// Every offset `1..=gap` at `n` is a pair's or a one-tail option's.
    fn near(&self, n: u64, gap: u64) -> Result<(), ProofGap> {
        let mut covered = self.pair_offsets(n);
        let target = self.f.at(n);
        let mut mark = |v: u64| {
            if v < target && target - v <= self.depth {
                covered[(target - v) as usize] = true;
            }
        };
        let f = self.f;
        for &k in &self.moves.one {
            mark(f.at(n - u64::from(k)));
        }
        for &k in &self.moves.two {
            for h in 1..self.small {
                mark(f.at(h) ^ f.at(n - u64::from(k) - h));
            }
        }
        for &k in &self.moves.three {
            for h in 1..self.small {
                for g in h..self.small {
                    mark(f.at(h) ^ f.at(g) ^ f.at(n - u64::from(k) - h - g));
                }
            }
        }
        match (1..=gap).find(|&d| !covered[d as usize]) {
            Some(offset) => Err(ProofGap::Coverage { heap: n, offset }),
            None => Ok(()),
        }
    }
}

/// Every value below `f(n) - gap` is a pair's or twin's of `n` (or 0 from two equal heaps).
fn far(
    f: &Candidate,
    moves: &Moves,
    witnesses: &Witnesses,
    n: u64,
    gap: u64,
) -> Result<(), ProofGap> {
    let target = f.at(n);
    let Some(below) = target.checked_sub(gap) else { return Ok(()) };
    let mut covered = vec![false; below as usize];
    let mut mark = |v: u64| {
        if v < below {
            covered[v as usize] = true;
        }
    };
    witnesses.each_c(moves, n, 0, |c| mark(f.at(c)));
    if moves.two.iter().any(|&k| n >= u64::from(k) + 2 && (n - u64::from(k)).is_multiple_of(2)) {
        mark(0);
    }
    match covered.iter().position(|&c| !c) {
        Some(v) => Err(ProofGap::Coverage { heap: n, offset: target - v as u64 }),
        None => Ok(()),
    }
}

/// The least common multiple (Euclid's algorithm for the divisor), if it fits.
fn lcm(a: u64, b: u64) -> Option<u64> {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}
