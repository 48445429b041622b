//! The arithmetic-period search against a direct search, the certificate's window, and hexadecimal codes.

use super::*;
use proptest::prelude::*;

const HEX: MoveShape = MoveShape { max_removal: 2, two_heaps: true, three_heaps: true };

/// `G(last) - G(last - p)` and the least `e` from which `G(n + p) - G(n)` equals it up to
/// `last`, by a scan down from the top.
fn direct_relation(values: &[u32], p: usize) -> (usize, i64) {
    let last = values.len() - 1;
    let diff = |n: usize| i64::from(values[n + p]) - i64::from(values[n]);
    let s = diff(last - p);
    let mut e = last - p;
    while e > 0 && diff(e - 1) == s {
        e -= 1;
    }
    (e, s)
}

/// Whether `(e, p)`'s window under `certificate` fits in the values.
fn fits(certificate: Certificate, values: &[u32], e: usize, p: usize) -> bool {
    certificate.window_end(e as u64, p as u64) + p as u64 - 1 < values.len() as u64
}

/// The least arithmetic period by trying every period in turn.
fn direct_least(values: &[u32], shape: MoveShape) -> Option<ArithmeticPeriod> {
    let certificate = Certificate::for_shape(shape);
    (1..values.len()).find_map(|p| {
        let (e, s) = direct_relation(values, p);
        (s >= 0 && fits(certificate, values, e, p)).then_some(ArithmeticPeriod {
            preperiod: e as u64,
            period: p as u64,
            saltus: s as u64,
        })
    })
}

/// The outcome of a search that reads the saltus, directly: the first ordinary period
/// that fits, else the first arithmetic one, else the least ordinary preperiod.
fn direct_outcome(
    values: &[u32],
    certificate: Certificate,
) -> Result<(u64, u64, u64), Uncertified> {
    let last = values.len() - 1;
    let periods = 1..=(values.len() / 2).max(1).min(last);
    let relations: Vec<(usize, usize, i64)> =
        periods.map(|p| (p, direct_relation(values, p))).map(|(p, (e, s))| (p, e, s)).collect();
    if let Some(&(p, e, _)) =
        relations.iter().find(|&&(p, e, s)| s == 0 && fits(certificate, values, e, p))
    {
        let at = certificate.window_end(e as u64, p as u64) + p as u64 - 1;
        return Ok((e as u64, p as u64, at));
    }
    if let Some(&(p, e, s)) =
        relations.iter().find(|&&(p, e, s)| s > 0 && fits(certificate, values, e, p))
    {
        let found = ArithmeticPeriod { preperiod: e as u64, period: p as u64, saltus: s as u64 };
        return Err(Uncertified::Arithmetic { found, through: last as u64, gap: None });
    }
    let ordinary =
        |&(p, e, s): &(usize, usize, i64)| if s == 0 { (e, p) } else { (last + 1 - p, p) };
    let least = relations.iter().map(ordinary).min();
    let longest = (values.len() as u64 / 2).max(1);
    let (least_preperiod, nearest) = match least {
        Some((e, p)) => (e as u64, (e + p <= last).then_some((e as u64, p as u64))),
        None => (0, None),
    };
    Err(Uncertified::NotWithinData(Exclusion { longest, least_preperiod, nearest }))
}

/// `len` values of a sequence with the given preperiod values, then `block` repeated with
/// `saltus` added at every repetition.
fn eventually_arithmetic(pre: &[u32], block: &[u32], saltus: u32, len: usize) -> Vec<u32> {
    (0..len)
        .map(|n| match n.checked_sub(pre.len()) {
            None => pre[n],
            Some(k) => block[k % block.len()] + saltus * (k / block.len()) as u32,
        })
        .collect()
}

fn outcome_of(values: &[u32], certificate: Certificate) -> Result<(u64, u64, u64), Uncertified> {
    match find_period(Some(certificate), values) {
        PeriodOutcome::Certified(f) => {
            assert_eq!((f.saltus, f.certificate), (0, certificate));
            Ok((f.preperiod, f.period, f.checked_through))
        }
        PeriodOutcome::NotCertified { reason, checked_through, .. } => {
            assert_eq!(checked_through, values.len() as u64 - 1);
            Err(reason)
        }
    }
}

fn check_against_direct(values: &[u32]) {
    assert_eq!(least_arithmetic_period(values, HEX), direct_least(values, HEX), "{values:?}");
    let certificate = Certificate::for_shape(HEX);
    assert_eq!(outcome_of(values, certificate), direct_outcome(values, certificate), "{values:?}");
}

proptest! {
    #[test]
    fn the_arithmetic_search_agrees_with_a_direct_search_on_eventually_arithmetic_sequences(
        pre in prop::collection::vec(0u32..12, 0..12),
        block in prop::collection::vec(0u32..12, 1..9),
        saltus in 0u32..5,
        len in 1usize..160,
    ) {
        check_against_direct(&eventually_arithmetic(&pre, &block, saltus, len));
    }

    #[test]
    fn the_arithmetic_search_agrees_with_a_direct_search_on_random_sequences(
        values in prop::collection::vec(0u32..4, 1..120),
    ) {
        check_against_direct(&values);
    }
}

#[test]
fn a_periodic_sequence_is_certified_through_the_hexadecimal_window_and_not_when_broken_inside() {
    // Period 3 from heap 2, t = 2: the window is 2 <= n < 3 * 2 + 2 * 3 + 2 = 14, whose
    // last n reads G(16).
    let good = eventually_arithmetic(&[5, 4], &[0, 1, 2], 0, 17);
    let found = ArithmeticPeriod { preperiod: 2, period: 3, saltus: 0 };
    let theorem = "hexadecimal periodicity theorem";
    assert_eq!(certify(&good, found, HEX), Verdict::Certified { theorem, window: (2, 14) });
    assert_eq!(least_arithmetic_period(&good, HEX), Some(found));
    // One value short of the window.
    let short = &good[..16];
    assert!(matches!(certify(short, found, HEX), Verdict::Evidence { through: 15, .. }));
    // Broken at G(16) = G(13 + 3), the window's last n.
    let mut broken = good.clone();
    broken[16] += 1;
    let Verdict::Evidence { why, .. } = certify(&broken, found, HEX) else { panic!() };
    assert_eq!(why, "G(16) - G(13) = 1, not the saltus 0");
    // Broken just past the window: still certified.
    let mut later = eventually_arithmetic(&[5, 4], &[0, 1, 2], 0, 18);
    later[17] = 9;
    assert!(matches!(certify(&later, found, HEX), Verdict::Certified { .. }));
}

#[test]
fn the_octal_window_is_shorter_than_the_hexadecimal_one() {
    let octal = MoveShape { three_heaps: false, ..HEX };
    let good = eventually_arithmetic(&[5, 4], &[0, 1, 2], 0, 17);
    let found = ArithmeticPeriod { preperiod: 2, period: 3, saltus: 0 };
    // 2 <= n < 2 * 2 + 3 + 2 = 9, reading G(11).
    let expected = Verdict::Certified { theorem: "octal periodicity theorem", window: (2, 9) };
    assert_eq!(certify(&good[..12], found, octal), expected);
    assert!(matches!(certify(&good[..12], found, HEX), Verdict::Evidence { .. }));
}

#[test]
fn a_positive_saltus_is_evidence_not_a_certificate() {
    let values = eventually_arithmetic(&[], &[0, 2, 1], 3, 200);
    let found = ArithmeticPeriod { preperiod: 0, period: 3, saltus: 3 };
    let Verdict::Evidence { through, why } = certify(&values, found, HEX) else { panic!() };
    assert_eq!(through, 199);
    assert!(
        why.contains("not certified (the arithmetic-periodicity criterion needs the game's moves)"),
        "{why}"
    );
    let outcome = find_period(Some(Certificate::for_shape(HEX)), &values);
    let reason = Uncertified::Arithmetic { found, through: 199, gap: None };
    assert!(matches!(outcome, PeriodOutcome::NotCertified { reason: r, .. } if r == reason));
}

/// `G(0..=max)` of the hexadecimal code `0.D1D2…`, by the mex over every option: digit bit
/// 1 takes a whole heap, 2 leaves one heap, 4 two heaps and 8 three, all non-empty.
fn hexadecimal_values(digits: &[u32], max: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let mut seen = vec![false; n + 2];
        let mut see = |v: u32| seen[(v as usize).min(n + 1)] = true;
        for (k, &d) in (1..).zip(digits).filter(|&(k, _)| k <= n) {
            let r = n - k;
            if d & 1 != 0 && r == 0 {
                see(0);
            }
            if d & 2 != 0 && r >= 1 {
                see(g[r]);
            }
            for a in (1..=r / 2).filter(|_| d & 4 != 0) {
                see(g[a] ^ g[r - a]);
            }
            for a in (1..=r / 3).filter(|_| d & 8 != 0) {
                for b in a..=(r - a) / 2 {
                    see(g[a] ^ g[b] ^ g[r - a - b]);
                }
            }
        }
        g.push(seen.iter().position(|&s| !s).unwrap() as u32);
    }
    g
}

#[test]
fn hexadecimal_codes_show_their_arithmetic_periods() {
    // (code digits, t, expected (e, p, s)): 0.3F is 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, ...
    type Expected<'a> = (&'a [u32], u32, (u64, u64, u64));
    let codes: [Expected; 4] = [
        (&[3, 15], 2, (0, 6, 3)),
        (&[8], 1, (1, 3, 1)),
        (&[12], 1, (1, 2, 1)),
        (&[0, 15], 2, (0, 2, 1)),
    ];
    for (digits, t, (e, p, s)) in codes {
        let shape = MoveShape { max_removal: t, two_heaps: true, three_heaps: true };
        let values = hexadecimal_values(digits, 300);
        let found = ArithmeticPeriod { preperiod: e, period: p, saltus: s };
        assert_eq!(least_arithmetic_period(&values, shape), Some(found), "{digits:?}");
        assert!(matches!(certify(&values, found, shape), Verdict::Evidence { .. }));
    }
    // 0.F alternates 0, 1: an ordinary period, certified.
    let shape = MoveShape { max_removal: 1, two_heaps: true, three_heaps: true };
    let values = hexadecimal_values(&[15], 300);
    let found = least_arithmetic_period(&values, shape).unwrap();
    assert_eq!(found, ArithmeticPeriod { preperiod: 0, period: 2, saltus: 0 });
    let expected =
        Verdict::Certified { theorem: "hexadecimal periodicity theorem", window: (0, 8) };
    assert_eq!(certify(&values, found, shape), expected);
}
