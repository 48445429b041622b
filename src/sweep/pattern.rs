//! Family patterns: the items of a family that stand for many games (every subtraction
//! set of a range, octal codes with wildcards or of up to K digits), counted before they
//! are expanded.

use crate::model::octal::OctalCode;

/// One item of a family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Pattern {
    /// A game specification, taken as it is.
    Literal(String),
    /// Every non-empty subset of `lo..=hi` with at most `size` elements, as `subtract:`.
    Subsets { lo: u32, hi: u32, size: u32 },
    /// An `octal:` code whose `?` stand for every digit 0–7.
    Octal(String),
    /// `octal(K)`: every octal game of 1 to `K` code digits ([`octal_games`]).
    OctalDigits(u32),
}

impl Pattern {
    pub(super) fn parse(item: &str) -> Result<Pattern, String> {
        if let Some(args) = item.strip_prefix("subtract:subsets") {
            return parse_subsets(args);
        }
        if let Some(digits) = item.strip_prefix("octal(").and_then(|k| k.strip_suffix(')')) {
            return match digits.trim().parse::<u32>() {
                Ok(k) if k >= 1 => Ok(Pattern::OctalDigits(k)),
                _ => Err(format!("'{item}': K in octal(K) must be a positive integer")),
            };
        }
        if item.starts_with("octal:") && item.contains('?') {
            return Ok(Pattern::Octal(item.to_string()));
        }
        if item.contains('?') || item.contains("subsets(") {
            return Err(format!(
                "'{item}' is not a family pattern: expected subtract:subsets(A..=B), \
                 subtract:subsets(A..=B, size<=S), octal(K) or an octal: code with ?"
            ));
        }
        Ok(Pattern::Literal(item.to_string()))
    }

    /// Games the pattern expands to (saturating; counting stops once past `cap`).
    pub(super) fn count(&self, cap: u128) -> u128 {
        match self {
            Pattern::Literal(_) => 1,
            Pattern::Subsets { lo, hi, size } => {
                let n = u64::from(hi - lo + 1);
                let mut sum: u128 = 0;
                // Stop once past any limit: a huge range would otherwise take ages to count.
                for k in 1..=u64::from(*size).min(n) {
                    sum = sum.saturating_add(choose(n, k));
                    if sum > cap {
                        break;
                    }
                }
                sum
            }
            Pattern::Octal(code) => {
                let wild = code.matches('?').count() as u32;
                8u128.checked_pow(wild).unwrap_or(u128::MAX)
            }
            // 4.0, and per length k the two leading digits, k - 1 digits of 8 and a last
            // digit of 7.
            &Pattern::OctalDigits(k) => (1..=k).fold(1u128, |sum, k| {
                let middle = 8u128.checked_pow(k - 1).unwrap_or(u128::MAX);
                sum.saturating_add(middle.saturating_mul(14))
            }),
        }
    }

    /// Appends the specs in order; the caller has bounded [`Pattern::count`].
    pub(super) fn push_specs(&self, out: &mut Vec<String>) {
        match self {
            Pattern::Literal(spec) => out.push(spec.clone()),
            Pattern::Subsets { lo, hi, size } => {
                for set in subsets(*lo, *hi, *size) {
                    let list: Vec<String> = set.iter().map(u32::to_string).collect();
                    out.push(format!("subtract:{}", list.join(",")));
                }
            }
            Pattern::Octal(code) => octal_codes(code, out),
            &Pattern::OctalDigits(k) => octal_games(k, out),
        }
    }
}

/// `(A..=B)` or `(A..=B, size<=S)` after `subtract:subsets`.
fn parse_subsets(args: &str) -> Result<Pattern, String> {
    let usage = || {
        format!(
            "'subtract:subsets{args}' is not subtract:subsets(A..=B) or \
             subtract:subsets(A..=B, size<=S) with 1 <= A <= B"
        )
    };
    let inner =
        args.trim().strip_prefix('(').and_then(|a| a.strip_suffix(')')).ok_or_else(usage)?;
    let (range, size) = match inner.split_once(',') {
        Some((range, size)) => (range, Some(size.trim())),
        None => (inner, None),
    };
    let (lo, hi) = range.split_once("..=").ok_or_else(usage)?;
    let lo: u32 = lo.trim().parse().map_err(|_| usage())?;
    let hi: u32 = hi.trim().parse().map_err(|_| usage())?;
    if lo == 0 || lo > hi {
        return Err(usage());
    }
    let size = match size {
        None => hi - lo + 1,
        Some(text) => {
            let bound = text.strip_prefix("size<=").map(str::trim).ok_or_else(usage)?;
            match bound.parse::<u32>() {
                Ok(s) if s >= 1 => s,
                _ => return Err(format!("'{text}': the size bound must be a positive integer")),
            }
        }
    };
    Ok(Pattern::Subsets { lo, hi, size })
}

/// `C(n, k)`, saturating.
fn choose(n: u64, k: u64) -> u128 {
    let mut c: u128 = 1;
    for i in 0..k {
        c = c.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    c
}

/// The non-empty subsets of `lo..=hi` with at most `size` elements in binary counting
/// order (element `lo + j` is bit `j`): each subset of a smaller range comes first, so
/// `subsets(1..=K)` is a prefix of `subsets(1..=K+1)`.
fn subsets(lo: u32, hi: u32, size: u32) -> Vec<Vec<u32>> {
    // Adding element v doubles the list: the old sets, then each with v added.
    let mut all: Vec<Vec<u32>> = vec![Vec::new()];
    for v in lo..=hi {
        let grown: Vec<Vec<u32>> = all
            .iter()
            .filter(|set| (set.len() as u32) < size)
            .map(|set| set.iter().copied().chain([v]).collect())
            .collect();
        all.extend(grown);
    }
    all.remove(0);
    all
}

/// Every code with each `?` replaced by a digit 0–7, the first `?` varying slowest; the
/// code of zeros, which allows no move and is not a game, is left out.
fn octal_codes(code: &str, out: &mut Vec<String>) {
    let wild = code.matches('?').count() as u32;
    for n in 0..8u64.pow(wild) {
        let mut digit = wild;
        let spec: String = code
            .chars()
            .map(|c| {
                if c != '?' {
                    return c;
                }
                digit -= 1;
                char::from(b'0' + (n >> (3 * digit) & 7) as u8)
            })
            .collect();
        if !spec.strip_prefix("octal:").is_some_and(OctalCode::allows_no_move) {
            out.push(spec);
        }
    }
}

/// `octal(K)`: every octal game of 1 to `K` digits after the point, with leading digit 0
/// or 4, each once: shortest first, then by leading digit, then digit by digit. A code
/// ending in 0 is the game of the code without that digit, so none is listed, except
/// `4.0` (splitting a heap in two, the one game whose code has no other digit); `0.0`
/// allows no move. `octal(3)` has 1023 games.
fn octal_games(k: u32, out: &mut Vec<String>) {
    for digits in 1..=k {
        for lead in ['0', '4'] {
            let before = out.len();
            octal_codes(&format!("octal:{lead}.{}", "?".repeat(digits as usize)), out);
            // Keep the codes whose last digit is not 0, and 4.0.
            let kept: Vec<String> = out
                .drain(before..)
                .filter(|spec| !spec.ends_with('0') || spec == "octal:4.0")
                .collect();
            out.extend(kept);
        }
    }
}
