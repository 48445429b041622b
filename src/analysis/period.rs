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
//! The theorems (`t` = the most tokens one move removes):
//! * **No move splits a heap** (subtraction games, octal codes with digits 0-3): for
//!   `n > t`, `G(n) = mex {G(n - k) : a heap may lose k and stay}`, so agreement on
//!   `e <= n < e + p + t` propagates by induction on `n`.
//! * **Octal games** (Guy and Smith 1956): agreement on `e <= n < 2e + p + t` is usually
//!   quoted, but the proof maps a two-heap option `(a, b)` of `n + p` to `(a - p, b)` of
//!   `n`, which needs `a - p >= 1`; with `e = 0` the window does not give it, and `0.4`
//!   (values 0, 0, 0, 1, …) satisfies it for `(e, p) = (0, 1)` although `G(3) = 1`. The
//!   proof goes through with `max(e, 1)`, so the window checked is
//!   `e <= n < 2 max(e, 1) + p + t`. `D0 = 4` is covered (`k = 0 <= t`).
//! * **None** for Nim (no finite `t`), move graphs (moves are not translation-invariant)
//!   and Grundy's game (mapping `(a, b)` to `(a - p, b)` can make an unequal split equal).

use crate::model::game::Game;
use crate::model::octal::HeapRule;

/// The theorem that turns agreement inside the data into periodicity forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// No move splits a heap: agreement on `e <= n < e + p + t` suffices.
    NonSplitting {
        /// `t`, the most tokens one move removes.
        max_removal: u32,
    },
    /// The octal periodicity theorem: agreement on `e <= n < 2 max(e, 1) + p + t` suffices.
    OctalPeriodicity {
        /// `t`, the index of the last non-zero octal digit.
        max_removal: u32,
    },
}

impl Certificate {
    /// The certificate that applies to a game, if any.
    pub fn for_game(game: &Game) -> Option<Certificate> {
        game.heap_rule().as_ref().and_then(Certificate::for_rule)
    }

    /// The certificate that applies to a take-and-break rule, if any.
    pub fn for_rule(rule: &HeapRule) -> Option<Certificate> {
        let max_removal = rule.max_removal();
        match (rule.splits(), rule.unequal_split) {
            (false, _) => Some(Certificate::NonSplitting { max_removal }),
            (true, false) => Some(Certificate::OctalPeriodicity { max_removal }),
            (true, true) => None,
        }
    }

    /// One past the last `n` at which `G(n + p) = G(n)` must hold.
    pub fn window_end(self, preperiod: u32, period: u32) -> u64 {
        let (e, p) = (u64::from(preperiod), u64::from(period));
        match self {
            Certificate::NonSplitting { max_removal } => e + p + u64::from(max_removal),
            Certificate::OctalPeriodicity { max_removal } => {
                2 * e.max(1) + p + u64::from(max_removal)
            }
        }
    }

    /// The theorem's name, as the README cites it.
    pub fn name(self) -> &'static str {
        match self {
            Certificate::NonSplitting { .. } => "no move splits a heap",
            Certificate::OctalPeriodicity { .. } => "octal periodicity theorem",
        }
    }
}

/// A period proved to hold for every heap size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The least `e` with `G(n + period) = G(n)` for all `n >= e`.
    pub preperiod: u32,
    /// The least eventual period.
    pub period: u32,
    /// The largest heap size whose value was computed (`N`).
    pub checked_through: u32,
    /// The theorem used.
    pub certificate: Certificate,
}

/// Why no period was certified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uncertified {
    /// No periodicity theorem covers the game.
    NoTheorem,
    /// No period's window fits inside the values computed.
    NotWithinData,
}

/// What [`find_period`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodOutcome {
    /// A period proved forever.
    Certified(Periodicity),
    /// Nothing proved from `G(0..=checked_through)`.
    NotCertified {
        /// The largest heap size whose value was computed.
        checked_through: u32,
        /// The largest value among them.
        largest_value: u32,
        /// Why not.
        reason: Uncertified,
    },
}

/// The least certified period of `values = G(0..=N)` (at least one value), with its
/// least preperiod, under `certificate` (`None`: no theorem covers the game).
/// Time `O(N)`.
///
/// # Panics
/// If `values` is empty or longer than `u32::MAX` values.
pub fn find_period(certificate: Option<Certificate>, values: &[u32]) -> PeriodOutcome {
    assert!(!values.is_empty(), "at least G(0) is needed");
    let n_max = u32::try_from(values.len() - 1).expect("heap sizes fit in u32");
    let not_certified = |reason| PeriodOutcome::NotCertified {
        checked_through: n_max,
        largest_value: values.iter().copied().max().unwrap_or(0),
        reason,
    };
    let Some(certificate) = certificate else {
        return not_certified(Uncertified::NoTheorem);
    };
    let preperiods = preperiods_by_period(values);
    for period in 1..=n_max {
        let preperiod = preperiods[period as usize];
        // The window's last n needs G(n + p) in the data: n + p <= N.
        if certificate.window_end(preperiod, period) + u64::from(period) <= u64::from(n_max) + 1 {
            let found = Periodicity { preperiod, period, checked_through: n_max, certificate };
            return PeriodOutcome::Certified(found);
        }
    }
    not_certified(Uncertified::NotWithinData)
}

/// Bytes [`preperiods_by_period`] allocates for `len` values: the reversal, the
/// Z-function and the result.
pub fn preperiods_bytes(len: u64) -> u64 {
    len * 16
}

/// `result[p]` (for `1 <= p <= N`) is the least `e` with `G(n + p) = G(n)` for all
/// `e <= n <= N - p`; `result[0]` is unused.
///
/// A tail `G(e..=N)` has period `p` iff the reversed sequence agrees with itself shifted
/// by `p` over its first `N - e - p + 1` values, so `e = N + 1 - p - z[p]` with `z` the
/// Z-function of the reversal.
pub fn preperiods_by_period(values: &[u32]) -> Vec<u32> {
    let reversed: Vec<u32> = values.iter().rev().copied().collect();
    let z = z_function(&reversed);
    let len = values.len();
    (0..len).map(|p| if p == 0 { 0 } else { (len - p - z[p]) as u32 }).collect()
}

/// `z[i]`: the length of the longest common prefix of `s` and `s[i..]` (`z[0] = s.len()`).
fn z_function(s: &[u32]) -> Vec<usize> {
    let n = s.len();
    let mut z = vec![0; n];
    if n == 0 {
        return z;
    }
    z[0] = n;
    let (mut left, mut right) = (0, 0);
    for i in 1..n {
        let mut length = if i < right { z[i - left].min(right - i) } else { 0 };
        while i + length < n && s[length] == s[i + length] {
            length += 1;
        }
        if i + length > right {
            (left, right) = (i, i + length);
        }
        z[i] = length;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certified(spec: &str, max: u32) -> (u32, u32) {
        let game = Game::parse(spec).unwrap();
        match find_period(Certificate::for_game(&game), &game.grundy(max)) {
            PeriodOutcome::Certified(p) => (p.preperiod, p.period),
            other => panic!("{spec}: not certified: {other:?}"),
        }
    }

    #[test]
    fn known_periods_are_certified() {
        assert_eq!(certified("subtract:1,2", 100), (0, 3));
        assert_eq!(certified("subtract:1,3,4", 100), (0, 7));
        assert_eq!(certified("subtract:2,5,7", 200), (0, 22));
        assert_eq!(certified("octal:0.77", 1000), (71, 12));
        assert_eq!(certified("octal:0.07", 1000), (53, 34));
        assert_eq!(certified("octal:0.137", 1000), (52, 34));
    }

    #[test]
    fn the_quoted_window_at_preperiod_zero_is_not_enough_for_0_4() {
        // G = 0, 0, 0, 1: (e, p) = (0, 1) fits n < 2e + p + t = 2 but is false; the
        // window n < 2 max(e, 1) + p + t = 4 needs G(4).
        let game = Game::octal("0.4").unwrap();
        assert_eq!(game.grundy(3), vec![0, 0, 0, 1]);
        let outcome = find_period(Certificate::for_game(&game), &game.grundy(2));
        assert!(matches!(outcome, PeriodOutcome::NotCertified { .. }), "{outcome:?}");
    }

    #[test]
    fn short_data_and_games_without_a_theorem_are_not_certified() {
        let kayles = Game::octal("0.77").unwrap();
        let outcome = find_period(Certificate::for_game(&kayles), &kayles.grundy(150));
        let expected = PeriodOutcome::NotCertified {
            checked_through: 150,
            largest_value: 8,
            reason: Uncertified::NotWithinData,
        };
        assert_eq!(outcome, expected);
        for game in [Game::nim(), Game::grundys_game()] {
            assert_eq!(Certificate::for_game(&game), None);
        }
    }

    #[test]
    fn preperiods_match_a_direct_scan() {
        let values = [3, 1, 2, 0, 1, 2, 0, 1, 2, 0, 5, 2, 0, 1, 2, 0];
        let holds = |e: usize, p: usize| (e..values.len() - p).all(|n| values[n + p] == values[n]);
        for (p, &e) in preperiods_by_period(&values).iter().enumerate().skip(1) {
            let direct = (0..=values.len() - p).find(|&e| holds(e, p)).unwrap();
            assert_eq!(e as usize, direct, "period {p}");
        }
        assert_eq!(z_function(&[1, 1, 2, 1, 1, 2, 1]), vec![7, 1, 0, 4, 1, 0, 1]);
    }
}
