//! Periods of Grundy sequences, found by a Z-function and certified forever by a theorem.
//!
//! For values `G(0..=N)` and a period `p`, the *preperiod for p* is the least `e` with
//! `G(n + p) = G(n)` for every `e <= n <= N - p`. The answer is the least `p` whose
//! theorem window (below) fits inside the data, with its preperiod. It is the true least
//! period and least preperiod: the theorem makes `(e, p)` hold forever, `G(e - 1 + p) !=
//! G(e - 1)` is in the data, and every eventual period is a multiple of the least one
//! `p*` with the same least preperiod, so `p* < p` would have had the same `e`, a shorter
//! window, and been found first.
//!
//! The theorems (`t` = the most tokens one move removes), in `certificate.rs`:
//! * **No move splits a heap** (subtraction games, octal codes with digits 0-3): for
//!   `n > t`, `G(n) = mex {G(n - k) : a heap may lose k and stay}`, so agreement on
//!   `e <= n < e + p + t` propagates by induction on `n`.
//! * **Octal games** (Guy and Smith 1956): agreement on `e <= n < 2e + p + t` is usually
//!   quoted, but the proof maps a two-heap option `(a, b)` of `n + p` to `(a - p, b)` of
//!   `n`, which needs `a - p >= 1`; with `e = 0` the window does not give it, and `0.4`
//!   (values 0, 0, 0, 1, …) satisfies it for `(e, p) = (0, 1)` although `G(3) = 1`. The
//!   proof goes through with `max(e, 1)`, so the window checked is
//!   `e <= n < 2 max(e, 1) + p + t`. `D0 = 4` is covered (`k = 0 <= t`).
//! * **Moves that leave up to three heaps** (hexadecimal codes): the same proof, mapping
//!   the largest part `a >= (n + p - t) / 3` of an option of `n + p` to `a - p`, needs
//!   `a - p >= max(e, 1)`, so the window is `e <= n < 3 max(e, 1) + 2p + t`.
//! * **None** for Nim (no finite `t`), move graphs (moves are not translation-invariant)
//!   and Grundy's game (mapping `(a, b)` to `(a - p, b)` can make an unequal split equal).
//!
//! Games with three-heap moves may be *arithmetic-periodic*, `G(n + p) = G(n) + s` for
//! `n >= e` with a saltus `s > 0`; their search reads the differences `G(n + 1) - G(n)`
//! (`arithmetic.rs`), which are periodic from `e` exactly then. Such a triple is proved by
//! nimtab's arithmetic-periodicity criterion (`arithmetic_proof.rs`) when its checks
//! hold, and is otherwise evidence to the last value, never certified.

use super::error::SequenceError;
use super::rule::HeapRule;

mod arithmetic;
mod arithmetic_proof;
mod certificate;
mod proof_gap;

pub use arithmetic::{certify, least_arithmetic_period, ArithmeticPeriod, Verdict};
pub use arithmetic_proof::{find_three_heap_period, prove_arithmetic, ArithmeticProof};
pub use certificate::{Certificate, MoveShape};
pub use proof_gap::ProofGap;

/// A period proved to hold for every heap size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The least `e` with `G(n + period) = G(n)` for all `n >= e`.
    pub preperiod: u64,
    /// The least eventual period.
    pub period: u64,
    /// `s` in `G(n + period) = G(n) + s` (0: ordinary periodicity, the only kind a
    /// theorem certifies so far).
    pub saltus: u64,
    /// The first heap size `N` at which the certificate's window fits in `G(0..=N)`:
    /// the values the proof reads, whatever was computed beyond it.
    pub checked_through: u64,
    /// The theorem used.
    pub certificate: Certificate,
}

/// Why no period was certified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uncertified {
    /// No periodicity theorem covers the game.
    NoTheorem,
    /// No period's window fits inside the values computed; what the values rule out.
    NotWithinData(Exclusion),
    /// The least arithmetic period whose window fits has a saltus `s > 0` that the
    /// arithmetic-periodicity criterion did not prove: evidence through heap `through`.
    Arithmetic {
        /// The triple the values show.
        found: ArithmeticPeriod,
        /// The last heap whose value was read.
        through: u64,
        /// Why the criterion did not prove it (`None`: it was not run, the game's moves
        /// being unknown to the search).
        gap: Option<ProofGap>,
    },
}

/// What values `G(0..=N)` rule out when no period is certified: every pair of a period
/// `p <= longest` and a preperiod below `least_preperiod` (each is broken at a heap `n` at
/// or past the preperiod with `G(n) != G(n + p)` and `n + p <= N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exclusion {
    /// The longest period searched (`(N + 1) / 2`).
    pub longest: u64,
    /// The least preperiod any period up to `longest` may have.
    pub least_preperiod: u64,
    /// The `(preperiod, period)` that gives `least_preperiod` (ties to the least period),
    /// when it holds on at least one heap (`G(n) = G(n + p)` for `n` from there to `N - p`).
    pub nearest: Option<(u64, u64)>,
}

impl Uncertified {
    /// Why, in the words of `nimtab period` (ending with what the values rule out when
    /// more values could certify a period).
    pub fn explain(&self) -> String {
        let x = match self {
            Uncertified::NoTheorem => return "no periodicity theorem covers this game".into(),
            Uncertified::Arithmetic { found, through, gap } => {
                let why =
                    gap.as_ref().map_or_else(|| arithmetic::NOT_RUN.into(), ProofGap::explain);
                return found.evidence(*through, &why);
            }
            Uncertified::NotWithinData(x) => x,
        };
        // A least preperiod of 0 rules nothing out: only the period that holds is said.
        let mut seen = Vec::new();
        if x.least_preperiod > 0 {
            seen.push(format!(
                "they rule out every period up to {} from a preperiod below {}",
                x.longest, x.least_preperiod
            ));
        }
        if let Some((e, p)) = x.nearest {
            seen.push(format!("period {p} holds from heap {e} to the last value"));
        }
        let why = "no period's theorem window fits in the values computed; raise --max";
        match seen.is_empty() {
            true => why.to_string(),
            false => format!("{why} ({})", seen.join(": ")),
        }
    }
}

/// What [`find_period`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodOutcome {
    /// A period proved forever.
    Certified(Periodicity),
    /// Nothing proved from `G(0..=checked_through)`.
    NotCertified {
        /// The largest heap size whose value was computed.
        checked_through: u64,
        /// The largest value among them.
        largest_value: u64,
        /// Why not.
        reason: Uncertified,
    },
}

/// Refuses a period search of `game` (with rule `rule`) to heap `max` below the first
/// heap at which any of its periods could be certified (period 1 from heap 0: the
/// smallest window of its theorem); a game no theorem covers is not refused here.
///
/// # Errors
/// [`SequenceError::Unsupported`] naming `max`, that heap and the theorem.
pub fn check_period_max(game: &str, rule: &HeapRule, max: u64) -> Result<(), SequenceError> {
    let Some(certificate) = Certificate::for_rule(rule) else { return Ok(()) };
    let first = certificate.window_end(0, 1);
    if max < first {
        return Err(SequenceError::Unsupported(format!(
            "--max {max} is below heap {first}, the first at which any period of {game} can \
             be certified ({}): raise --max",
            certificate.name()
        )));
    }
    Ok(())
}

/// The least certified period of `values = G(0..=N)` (at least one value), with its
/// least preperiod, under `certificate` (`None`: no theorem covers the game), and the first
/// `N' <= N` at which its window fits (`checked_through`). Time `O(N)`.
///
/// # Panics
/// If `values` is empty.
pub fn find_period<T: Copy + Into<u32>>(
    certificate: Option<Certificate>,
    values: &[T],
) -> PeriodOutcome {
    assert!(!values.is_empty(), "at least G(0) is needed");
    let largest = values.iter().map(|&v| v.into()).max().unwrap_or(0);
    find_period_by(certificate, values.len() as u64, u64::from(largest), |n| {
        values[n as usize].into()
    })
}

/// [`find_period`] over `len` values read by `value(n)` (sequentially, from the top down,
/// in two streams: a store on disk reads them through its pages); `largest` is the
/// largest of them, for the answer when nothing is certified. Memory: `len / 2` indices, 4
/// bytes each below `2^32` values.
///
/// The first fit is `window_end(e, p) + p - 1`: at every `N'` from there on the data give
/// the same `(e, p)` (the disagreement at `e - 1` is inside them), and nothing is certified
/// before it, since a certified pair holds forever and so would be certified at `N` too.
pub fn find_period_by(
    certificate: Option<Certificate>,
    len: u64,
    largest: u64,
    value: impl FnMut(u64) -> u32,
) -> PeriodOutcome {
    let n_max = len.saturating_sub(1);
    let not_certified = |reason| PeriodOutcome::NotCertified {
        checked_through: n_max,
        largest_value: largest,
        reason,
    };
    let Some(certificate) = certificate else {
        return not_certified(Uncertified::NoTheorem);
    };
    // Every window ends at or after e + p, and its last n needs G(n + p): p <= (N + 1) / 2.
    let longest = (len / 2).max(1);
    if certificate.reads_saltus() {
        let found = arithmetic::first_fits(certificate, len, longest, value);
        return match found {
            Ok(found) => PeriodOutcome::Certified(found),
            Err(reason) => not_certified(reason),
        };
    }
    let fits = |period: u64, z: u64| {
        let preperiod = n_max + 1 - period - z;
        let end = certificate.window_end(preperiod, period) + period;
        (end <= n_max + 1).then_some(Periodicity {
            preperiod,
            period,
            saltus: 0,
            checked_through: end - 1,
            certificate,
        })
    };
    let found = if len <= u64::from(u32::MAX) {
        first_fit::<u32>(len, longest, value, fits)
    } else {
        first_fit::<u64>(len, longest, value, fits)
    };
    match found {
        Ok(found) => PeriodOutcome::Certified(found),
        Err((least_preperiod, nearest)) => {
            let exclusion = Exclusion { longest, least_preperiod, nearest };
            not_certified(Uncertified::NotWithinData(exclusion))
        }
    }
}

/// Bytes [`find_period_by`] holds for `len` values.
pub fn period_check_bytes(len: u64) -> u64 {
    let index = if len <= u64::from(u32::MAX) { 4 } else { 8 };
    (len / 2 + 1) * index
}

/// The first period `p` in `1..=longest` (by the Z-function of the reversed values, kept in
/// indices of type `Z`) for which `fits(p, z[p])` gives a certificate; without one, the
/// least preperiod of any period and the pair giving it (see [`Exclusion`]).
fn first_fit<Z: ZIndex>(
    len: u64,
    longest: u64,
    value: impl FnMut(u64) -> u32,
    fits: impl Fn(u64, u64) -> Option<Periodicity>,
) -> Result<Periodicity, (u64, Option<(u64, u64)>)> {
    let z = reversed_z_prefix::<Z, u32>(len, longest, value);
    if let Some(found) = (1..z.len()).find_map(|p| fits(p as u64, z[p].get())) {
        return Ok(found);
    }
    // No fit: the least preperiod (`len - p - z[p]`) of any period, ties to the least
    // period, named when it holds on at least one heap (`z[p] > 0`).
    let least = (1..z.len()).map(|p| (len - p as u64 - z[p].get(), p)).min();
    let Some((e, p)) = least else { return Err((0, None)) };
    Err((e, (z[p].get() > 0).then_some((e, p as u64))))
}

/// An index type for Z-function values: `u32` below `2^32` values, else `u64`.
trait ZIndex: Copy + Default {
    fn of(value: u64) -> Self;
    fn get(self) -> u64;
}

impl ZIndex for u32 {
    fn of(value: u64) -> Self {
        value as u32
    }
    fn get(self) -> u64 {
        u64::from(self)
    }
}

impl ZIndex for u64 {
    fn of(value: u64) -> Self {
        value
    }
    fn get(self) -> u64 {
        self
    }
}

/// `z[i]` for `i < min(longest + 1, len)`: the longest common prefix of the reversed values
/// `s` and `s[i..]` (`z[0] = len`). The Z-algorithm reads only `z[j]` for `j < i`, so the
/// prefix is computed alone, reading `s[j] = value(len - 1 - j)` in place.
fn reversed_z_prefix<Z: ZIndex, V: PartialEq>(
    len: u64,
    longest: u64,
    mut value: impl FnMut(u64) -> V,
) -> Vec<Z> {
    let count = (longest + 1).min(len);
    let mut z = vec![Z::default(); count as usize];
    if count == 0 {
        return z;
    }
    z[0] = Z::of(len);
    let (mut left, mut right) = (0u64, 0u64);
    for i in 1..count {
        let mut length = if i < right { z[(i - left) as usize].get().min(right - i) } else { 0 };
        while i + length < len && value(len - 1 - length) == value(len - 1 - i - length) {
            length += 1;
        }
        if i + length > right {
            (left, right) = (i, i + length);
        }
        z[i as usize] = Z::of(length);
    }
    z
}

/// `result[p]` (for `1 <= p <= N`) is the least `e` with `G(n + p) = G(n)` for all
/// `e <= n <= N - p`; `result[0]` is unused.
///
/// A tail `G(e..=N)` has period `p` iff the reversed sequence agrees with itself shifted
/// by `p` over its first `N - e - p + 1` values, so `e = N + 1 - p - z[p]` with `z` the
/// Z-function of the reversal.
pub fn preperiods_by_period(values: &[u32]) -> Vec<u32> {
    let len = values.len() as u64;
    let z = reversed_z_prefix::<u64, u32>(len, len, |n| values[n as usize]);
    (0..z.len()).map(|p| if p == 0 { 0 } else { (len - p as u64 - z[p].get()) as u32 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preperiods_match_a_direct_scan() {
        let values = [3, 1, 2, 0, 1, 2, 0, 1, 2, 0, 5, 2, 0, 1, 2, 0];
        let holds = |e: usize, p: usize| (e..values.len() - p).all(|n| values[n + p] == values[n]);
        for (p, &e) in preperiods_by_period(&values).iter().enumerate().skip(1) {
            let direct = (0..=values.len() - p).find(|&e| holds(e, p)).unwrap();
            assert_eq!(e as usize, direct, "period {p}");
        }
        let s = [1, 2, 1, 1, 2, 1, 1];
        let z = reversed_z_prefix::<u32, u32>(7, 7, |n| s[n as usize]);
        assert_eq!(z.iter().map(|z| z.get()).collect::<Vec<_>>(), vec![7, 1, 0, 4, 1, 0, 1]);
    }

    #[test]
    fn the_first_fit_is_the_same_whatever_data_follow_it() {
        // Period 3 from 5 on, no splits, t = 2: the window is 5 <= n < 5 + 3 + 2, whose
        // last n needs G(12): certified first at N = 12.
        let certificate = Certificate::NonSplitting { max_removal: 2 };
        let g = |n: usize| if n < 5 { [7, 8, 9, 6, 5][n] } else { [1, 2, 3][(n - 5) % 3] };
        for len in [13, 14, 40, 1000] {
            let values: Vec<u32> = (0..len).map(g).collect();
            match find_period(Some(certificate), &values) {
                PeriodOutcome::Certified(found) => {
                    assert_eq!((found.preperiod, found.period, found.checked_through), (5, 3, 12));
                }
                other => panic!("{len}: {other:?}"),
            }
        }
        let short: Vec<u32> = (0..12).map(g).collect();
        assert!(matches!(
            find_period(Some(certificate), &short),
            PeriodOutcome::NotCertified { .. }
        ));
    }

    #[test]
    fn what_values_rule_out_is_said_only_when_they_rule_something_out() {
        let said = |least_preperiod, nearest| {
            let x = Exclusion { longest: 3, least_preperiod, nearest };
            Uncertified::NotWithinData(x).explain()
        };
        let head = "no period's theorem window fits in the values computed; raise --max";
        assert_eq!(
            said(0, Some((0, 3))),
            format!("{head} (period 3 holds from heap 0 to the last value)")
        );
        assert_eq!(
            said(2, None),
            format!("{head} (they rule out every period up to 3 from a preperiod below 2)")
        );
        assert_eq!(
            said(4, Some((4, 2))),
            format!(
                "{head} (they rule out every period up to 3 from a preperiod below 4: period 2 \
                 holds from heap 4 to the last value)"
            )
        );
        assert_eq!(said(0, None), head);
    }
}

#[cfg(test)]
mod brute_force;

#[cfg(test)]
mod arithmetic_tests;

#[cfg(test)]
mod arithmetic_proof_tests;
