//! Family patterns: the items of a family that stand for many games (every subtraction
//! set of a range, octal or hexadecimal codes with wildcards or of up to K digits),
//! counted before they are expanded.

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
    /// A `hex:` code whose `?` stand for every digit 0–F.
    Hex(String),
    /// `hex(K)`: every hexadecimal game of 1 to `K` code digits with a digit above 7
    /// ([`hex_games`]).
    HexDigits(u32),
}

impl Pattern {
    pub(super) fn parse(item: &str) -> Result<Pattern, String> {
        if let Some(args) = item.strip_prefix("subtract:subsets") {
            return parse_subsets(args);
        }
        for (name, pattern) in
            [("octal", Pattern::OctalDigits as fn(u32) -> Pattern), ("hex", Pattern::HexDigits)]
        {
            let Some(digits) = item.strip_prefix(name).and_then(|k| k.strip_prefix('(')) else {
                continue;
            };
            return match digits.strip_suffix(')').map(|k| k.trim().parse::<u32>()) {
                Some(Ok(k)) if k >= 1 => Ok(pattern(k)),
                _ => Err(format!("'{item}': K in {name}(K) must be a positive integer")),
            };
        }
        if item.starts_with("octal:") && item.contains('?') {
            return Ok(Pattern::Octal(item.to_string()));
        }
        if item.starts_with("hex:") && item.contains('?') {
            return Ok(Pattern::Hex(item.to_ascii_uppercase().replacen("HEX:", "hex:", 1)));
        }
        if item.contains('?') || item.contains("subsets(") {
            return Err(format!(
                "'{item}' is not a family pattern: expected subtract:subsets(A..=B), \
                 subtract:subsets(A..=B, size<=S), octal(K), hex(K), or an octal: or hex: \
                 code with ?"
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
            Pattern::Hex(code) => {
                let wild = code.matches('?').count() as u32;
                16u128.checked_pow(wild).unwrap_or(u128::MAX)
            }
            // 8.0 and C.0, and per length k the codes of four leading digits and a last
            // digit not 0, less the octal ones (two leading digits, every digit below 8).
            &Pattern::HexDigits(k) => (1..=k).fold(2u128, |sum, k| {
                let all = 16u128.checked_pow(k - 1).unwrap_or(u128::MAX).saturating_mul(60);
                let octal = 8u128.checked_pow(k - 1).unwrap_or(u128::MAX).saturating_mul(14);
                sum.saturating_add(all.saturating_sub(octal))
            }),
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
            Pattern::Octal(code) => wild_codes(code, 8, out),
            &Pattern::OctalDigits(k) => octal_games(k, out),
            Pattern::Hex(code) => wild_codes(code, 16, out),
            &Pattern::HexDigits(k) => hex_games(k, out),
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

/// Every code with each `?` replaced by a digit below `radix` (8 or 16; upper case), the
/// first `?` varying slowest; the code of zeros, which allows no move and is not a game,
/// is left out.
fn wild_codes(code: &str, radix: u32, out: &mut Vec<String>) {
    let wild = code.matches('?').count() as u32;
    let bits = radix.trailing_zeros();
    for n in 0..u64::from(radix).pow(wild) {
        let mut digit = wild;
        let spec: String = code
            .chars()
            .map(|c| {
                if c != '?' {
                    return c;
                }
                digit -= 1;
                let d = (n >> (bits * digit)) as u32 & (radix - 1);
                char::from_digit(d, radix).unwrap_or('0').to_ascii_uppercase()
            })
            .collect();
        let bare = spec.split_once(':').map_or("", |(_, code)| code);
        if !OctalCode::allows_no_move(bare) {
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
            wild_codes(&format!("octal:{lead}.{}", "?".repeat(digits as usize)), 8, out);
            // Keep the codes whose last digit is not 0, and 4.0.
            let kept: Vec<String> = out
                .drain(before..)
                .filter(|spec| !spec.ends_with('0') || spec == "octal:4.0")
                .collect();
            out.extend(kept);
        }
    }
}

/// `hex(K)`: every hexadecimal game of 1 to `K` digits after the point that is not an
/// octal game (some digit is above 7), with leading digit 0, 4, 8 or C, each once, in the
/// order of [`octal_games`]; codes ending in 0 are left out but `8.0` and `C.0`.
/// `octal(K)` and `hex(K)` together list every game of a hexadecimal code of up to `K`
/// digits once. `hex(1)` has 48 games, `hex(2)` 896.
fn hex_games(k: u32, out: &mut Vec<String>) {
    let above_7 = |spec: &str| spec.chars().skip(4).any(|c| c.to_digit(16).is_some_and(|d| d > 7));
    for digits in 1..=k {
        for lead in ['0', '4', '8', 'C'] {
            let before = out.len();
            wild_codes(&format!("hex:{lead}.{}", "?".repeat(digits as usize)), 16, out);
            let kept: Vec<String> = out
                .drain(before..)
                .filter(|spec| above_7(spec))
                .filter(|spec| !spec.ends_with('0') || ["hex:8.0", "hex:C.0"].contains(&&spec[..]))
                .collect();
            out.extend(kept);
        }
    }
}
