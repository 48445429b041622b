//! Take-and-break move rules: octal codes and Grundy's game, as removal sets per heap.

use std::fmt;

pub use crate::sequence::HeapRule;

/// An octal code `D0.D1D2…Dt`, stored without trailing zero digits.
///
/// Digit `Dk` says how a move that removes `k` tokens from one heap may leave it: bit 1
/// the heap is taken whole (it had exactly `k` tokens), bit 2 one non-empty heap
/// remains, bit 4 two non-empty heaps remain. `D0` is 0 or 4 (4: a heap may be split in
/// two non-empty heaps without removing a token).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[k]` is `Dk`; `digits[0]` is 0 or 4; the last entry, if `k >= 1`, is not 0.
    digits: Vec<u8>,
}

impl OctalCode {
    /// Parses `D0.D1D2…` (`0.77`, `4.07`); the error says what is wrong, in words.
    ///
    /// # Errors
    /// A sentence naming the bad character or the missing part.
    pub fn parse(code: &str) -> Result<OctalCode, String> {
        let code = code.trim();
        if code.is_empty() {
            return Err("the code is empty: expected D0.D1D2... such as 0.77".into());
        }
        let mut chars = code.chars();
        let lead = chars.next().unwrap_or('0');
        if chars.next() != Some('.') {
            return Err("expected D0.D1D2... with D0 = 0 or 4 and a point after it".into());
        }
        let d0 = match lead {
            '0' => 0,
            '4' => 4,
            '8' | 'C' | 'c' => {
                return Err(format!(
                    "the digit before the point must be 0 or 4, got '{lead}'; a D0 of 8 or C \
                     splits a heap in three, a hexadecimal code, hex:{code}"
                ))
            }
            other => {
                return Err(format!("the digit before the point must be 0 or 4, got '{other}'"))
            }
        };
        let mut digits = vec![d0];
        for (index, c) in chars.enumerate() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => {
                    let k = index + 1;
                    let mut message = format!("'{c}' (digit D{k}) is not an octal digit 0-7");
                    if c.is_ascii_hexdigit() {
                        message += &format!("; digits up to F are a hexadecimal code, hex:{code}");
                    }
                    return Err(message);
                }
            }
        }
        Ok(OctalCode { digits: without_trailing_zeros(digits)? })
    }

    /// Whether the text of a code is `0.` followed by zeros only: the code that allows no
    /// move, which [`OctalCode::parse`] refuses.
    pub fn allows_no_move(code: &str) -> bool {
        code.trim().strip_prefix("0.").is_some_and(|rest| rest.chars().all(|c| c == '0'))
    }

    /// The digit `Dk` (0 beyond the last non-zero digit).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// The removal sets this code allows.
    pub fn heap_rule(&self) -> HeapRule {
        pairs_rule(&self.digits)
    }
}

/// The digits of a code after its checks shared by octal and hexadecimal codes: some
/// digit after the point, trailing zeros dropped, and some digit not 0.
pub(crate) fn without_trailing_zeros(mut digits: Vec<u8>) -> Result<Vec<u8>, String> {
    if digits.len() == 1 {
        return Err("no digits after the point".into());
    }
    while digits.len() > 1 && digits[digits.len() - 1] == 0 {
        digits.pop();
    }
    if digits == [0] {
        return Err("every digit is 0, so the code allows no move at all".into());
    }
    Ok(digits)
}

/// The removal counts `k` whose digit `Dk` has `bit`, ascending.
pub(crate) fn removals_with_bit(digits: &[u8], bit: u8) -> Vec<u32> {
    (0..digits.len()).filter(|&k| digits[k] & bit != 0).map(|k| k as u32).collect()
}

/// The moves of a code's bits 1, 2 and 4: take a heap whole, leave one heap, leave two.
pub(crate) fn pairs_rule(digits: &[u8]) -> HeapRule {
    HeapRule {
        // D0's bits 1 and 2 are never set, so k = 0 appears only among the splits.
        vanish: removals_with_bit(digits, 1),
        shrink: removals_with_bit(digits, 2),
        split: removals_with_bit(digits, 4),
        unequal_split: false,
    }
}

impl fmt::Display for OctalCode {
    /// Canonical text: `D0.` then `D1…Dt` without trailing zeros (`0.0` when there is none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        self.digits[1..].iter().try_for_each(|d| write!(f, "{d}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(code: &str) -> HeapRule {
        OctalCode::parse(code).unwrap().heap_rule()
    }

    #[test]
    fn codes_are_kept_without_trailing_zeros() {
        for (input, canonical) in [("0.77", "0.77"), ("0.770", "0.77"), ("4.07", "4.07")] {
            assert_eq!(OctalCode::parse(input).unwrap().to_string(), canonical);
        }
        assert_eq!(OctalCode::parse("4.0").unwrap().to_string(), "4.0");
        assert_eq!(OctalCode::parse("0.137").unwrap().digit(3), 7);
    }

    #[test]
    fn malformed_codes_name_the_problem() {
        assert!(OctalCode::parse("").unwrap_err().contains("empty"));
        assert!(OctalCode::parse("77").unwrap_err().contains("D0 = 0 or 4"));
        assert!(OctalCode::parse("2.7").unwrap_err().contains("'2'"));
        assert_eq!(
            OctalCode::parse("0.78").unwrap_err(),
            "'8' (digit D2) is not an octal digit 0-7; digits up to F are a hexadecimal code, \
             hex:0.78"
        );
        assert_eq!(
            OctalCode::parse("0.7G").unwrap_err(),
            "'G' (digit D2) is not an octal digit 0-7"
        );
        assert!(OctalCode::parse("8.1").unwrap_err().ends_with("a hexadecimal code, hex:8.1"));
        assert_eq!(OctalCode::parse("0.").unwrap_err(), "no digits after the point");
        for moveless in ["0.0", "0.00", " 0.000 "] {
            assert!(OctalCode::parse(moveless).unwrap_err().contains("allows no move"));
            assert!(OctalCode::allows_no_move(moveless));
        }
        assert!(!OctalCode::allows_no_move("4.0") && !OctalCode::allows_no_move("0.01"));
    }

    #[test]
    fn kayles_and_grundys_game_have_the_expected_options() {
        // Kayles, heap 4: remove 1 leaving 3 or 2+1; remove 2 leaving 2 or 1+1.
        assert_eq!(rule("0.77").options(4), vec![(1, 1), (2, 0), (2, 1), (3, 0)]);
        assert_eq!(rule("0.77").options(2), vec![(0, 0), (1, 0)]);
        assert_eq!(HeapRule::grundys_game().options(6), vec![(4, 2), (5, 1)]);
        assert!(HeapRule::grundys_game().options(2).is_empty());
        assert_eq!(rule("4.0").options(4), vec![(2, 2), (3, 1)]);
    }

    #[test]
    fn has_moves_agrees_with_the_options() {
        let rules =
            [rule("0.77"), rule("0.07"), rule("0.137"), rule("4.07"), HeapRule::grundys_game()];
        for r in &rules {
            for n in 0..30 {
                assert_eq!(r.has_moves(n), !r.options(n).is_empty(), "{r:?} {n}");
            }
        }
    }

    #[test]
    fn removal_bounds_and_split_kinds() {
        assert_eq!(rule("0.137").max_removal(), 3);
        assert_eq!(HeapRule::grundys_game().max_removal(), 0);
        assert!(rule("4.07").splits_in_place() && !rule("0.07").splits_in_place());
        assert!(!rule("0.33").splits() && rule("0.77").splits());
    }
}
