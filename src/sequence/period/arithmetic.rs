//! Arithmetic periods `G(n + p) = G(n) + s`: the search over the differences, and the verdict on a triple.
//!
//! `G(n + p) - G(n)` is one constant `s` for every `e <= n <= N - p` exactly when the
//! differences `d(n) = G(n + 1) - G(n)` satisfy `d(n + p) = d(n)` for `e <= n < N - p`,
//! so the least such `e` for every `p` at once comes from the Z-function of the reversed
//! differences, as the ordinary search takes it from the reversed values. For `s = 0` it
//! is the ordinary preperiod: the two searches agree on every ordinary period.
//!
//! *Least* follows the literature's convention: the least period `p` (among those whose
//! relation holds over the window the periodicity theorem would read), then its least
//! preperiod `e`; the saltus is then determined, `s = G(N) - G(N - p)`.

use super::{
    reversed_z_prefix, Certificate, Exclusion, MoveShape, Periodicity, Uncertified, ZIndex,
};

/// `G(n + period) = G(n) + saltus` for every `n >= preperiod` (as far as the data show).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArithmeticPeriod {
    /// The least `e` from which the relation holds.
    pub preperiod: u64,
    /// The period `p`.
    pub period: u64,
    /// The saltus `s` (0: ordinary periodicity).
    pub saltus: u64,
}

impl ArithmeticPeriod {
    /// The words of `nimtab period` for a triple the values show but nothing proves:
    /// `why` says why the arithmetic-periodicity criterion did not (see [`NOT_RUN`]).
    pub fn evidence(&self, through: u64, why: &str) -> String {
        let ArithmeticPeriod { preperiod: e, period: p, saltus: s } = *self;
        format!(
            "the values are arithmetic-periodic from heap {e} with period {p} and saltus {s} \
             through heap {through}: evidence to {through}, not certified ({why})"
        )
    }
}

/// Why a triple is evidence when the arithmetic-periodicity criterion was not run.
pub const NOT_RUN: &str = "the arithmetic-periodicity criterion needs the game's moves";

/// What [`certify`] concludes of a triple.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proved for every heap size by `theorem`, from agreement on `window.0 <= n < window.1`.
    Certified {
        /// The theorem's name.
        theorem: &'static str,
        /// The heaps `n` at which the relation was checked: `window.0 <= n < window.1`.
        window: (u64, u64),
    },
    /// Not proved; what the values show, in words.
    Evidence {
        /// The last heap whose value was read.
        through: u64,
        /// Why it is not certified.
        why: String,
    },
}

/// The verdict on `found` for values `G(0..=N)` of a rule of shape `shape` whose splits are
/// free: certified only when its saltus is 0, the relation holds at every `n` of the
/// periodicity theorem's window and the window's values are all known. The relation is
/// checked on the values themselves, whatever found the triple.
///
/// # Panics
/// If `values` is empty or the period is 0.
pub fn certify<T: Copy + Into<u32>>(
    values: &[T],
    found: ArithmeticPeriod,
    shape: MoveShape,
) -> Verdict {
    assert!(!values.is_empty() && found.period > 0, "a period and at least G(0) are needed");
    let through = values.len() as u64 - 1;
    let certificate = Certificate::for_shape(shape);
    let ArithmeticPeriod { preperiod: e, period: p, saltus: s } = found;
    let end = certificate.window_end(e, p);
    let g = |n: u64| i64::from(values[n as usize].into());
    let evidence = |why: String| Verdict::Evidence { through, why };
    let known_end = end.min((through + 1).saturating_sub(p));
    if let Some(n) = (e..known_end).find(|&n| g(n + p) - g(n) != s as i64) {
        return evidence(format!(
            "G({}) - G({n}) = {}, not the saltus {s}",
            n + p,
            g(n + p) - g(n)
        ));
    }
    if known_end < end {
        return evidence(format!(
            "the {} reads G(n + p) for n < {end}, up to heap {}, past heap {through}",
            certificate.name(),
            end - 1 + p
        ));
    }
    if s > 0 {
        return evidence(found.evidence(through, NOT_RUN));
    }
    Verdict::Certified { theorem: certificate.name(), window: (e, end) }
}

/// The least arithmetic period of `values = G(0..=N)` with a saltus `s >= 0` whose
/// relation holds from its least preperiod `e` over the window `window_end(e, p)` of the
/// periodicity theorem for `shape`, all inside the data; `None` when no period fits.
/// Time `O(N)`.
pub fn least_arithmetic_period<T: Copy + Into<u32>>(
    values: &[T],
    shape: MoveShape,
) -> Option<ArithmeticPeriod> {
    let certificate = Certificate::for_shape(shape);
    let len = values.len() as u64;
    let mut first = None;
    scan::<u64>(
        certificate,
        len,
        (len / 2).max(1),
        |n| values[n as usize].into(),
        |c| {
            if c.saltus >= 0 && c.fits && first.is_none() {
                first = Some(c.triple());
            }
            first.is_some()
        },
    );
    first
}

/// The outcome of a search that reads the saltus: the first ordinary period whose window
/// fits (certified by `certificate`), else the first arithmetic period with `s > 0` whose
/// window fits (evidence), else what the values rule out for ordinary periods.
pub(super) fn first_fits(
    certificate: Certificate,
    len: u64,
    longest: u64,
    value: impl FnMut(u64) -> u32,
) -> Result<Periodicity, Uncertified> {
    let mut certified = None;
    let mut arithmetic = None;
    let mut least: Option<(u64, u64, bool)> = None;
    let visit = |c: Candidate| {
        if c.fits && c.saltus == 0 {
            certified = Some(Periodicity {
                preperiod: c.preperiod,
                period: c.period,
                saltus: 0,
                checked_through: c.fits_at,
                certificate,
            });
            return true;
        }
        if c.fits && c.saltus > 0 && arithmetic.is_none() {
            arithmetic = Some(c.triple());
        }
        // For ordinary periodicity a p with s != 0 holds on no heap: its preperiod is N - p + 1.
        let e = if c.saltus == 0 { c.preperiod } else { c.last + 1 - c.period };
        if least.is_none_or(|(le, lp, _)| (e, c.period) < (le, lp)) {
            least = Some((e, c.period, c.saltus == 0));
        }
        false
    };
    if len <= u64::from(u32::MAX) {
        scan::<u32>(certificate, len, longest, value, visit);
    } else {
        scan::<u64>(certificate, len, longest, value, visit);
    }
    if let Some(found) = certified {
        return Ok(found);
    }
    if let Some(found) = arithmetic {
        return Err(Uncertified::Arithmetic { found, through: len - 1, gap: None });
    }
    let (least_preperiod, nearest) = match least {
        Some((e, p, holds)) => (e, holds.then_some((e, p))),
        None => (0, None),
    };
    Err(Uncertified::NotWithinData(Exclusion { longest, least_preperiod, nearest }))
}

/// One period's arithmetic relation in `G(0..=last)`.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    preperiod: u64,
    period: u64,
    /// `G(last) - G(last - period)`.
    saltus: i64,
    last: u64,
    /// The first `N` at which the certificate's window fits.
    fits_at: u64,
    fits: bool,
}

impl Candidate {
    fn triple(&self) -> ArithmeticPeriod {
        ArithmeticPeriod {
            preperiod: self.preperiod,
            period: self.period,
            saltus: self.saltus as u64,
        }
    }
}

/// Hands `visit` every period `p` in `1..=min(longest, N)` in increasing order, with the
/// least `e` from which `G(n + p) - G(n)` is constant up to `N`, until `visit` says stop.
/// Values are read from the top down: twice for the Z-function of the differences, once
/// more for the saltus of every period.
fn scan<Z: ZIndex>(
    certificate: Certificate,
    len: u64,
    longest: u64,
    mut value: impl FnMut(u64) -> u32,
    mut visit: impl FnMut(Candidate) -> bool,
) {
    let Some(last) = len.checked_sub(1).filter(|&n| n > 0) else { return };
    let z = reversed_z_prefix::<Z, i64>(last, longest, |k| {
        i64::from(value(k + 1)) - i64::from(value(k))
    });
    let top = i64::from(value(last));
    for period in 1..=longest.min(last) {
        let common = z.get(period as usize).map_or(0, |z| z.get());
        let preperiod = last - period - common;
        let fits_at = certificate.window_end(preperiod, period) + period - 1;
        let saltus = top - i64::from(value(last - period));
        let fits = fits_at <= last;
        if visit(Candidate { preperiod, period, saltus, last, fits_at, fits }) {
            return;
        }
    }
}
