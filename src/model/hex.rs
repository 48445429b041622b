//! Hexadecimal codes: octal codes with a fourth bit, the moves that leave three heaps.

use std::fmt;

use crate::model::octal::{pairs_rule, removals_with_bit, without_trailing_zeros, OctalCode};
use crate::sequence::ThreeHeapRule;

/// A hexadecimal code `D0.D1D2…Dt` with some digit of bit 8, stored without trailing
/// zero digits.
///
/// Bits 1, 2 and 4 of `Dk` are the octal code's (remove `k` tokens and leave no heap,
/// one or two); bit 8 lets a move remove `k` tokens and leave three non-empty heaps.
/// `D0` is 0, 4, 8 or C: at `k = 0` only splits mean anything, so bit 4 splits a heap of
/// `n >= 2` in two and bit 8 a heap of `n >= 3` in three, keeping the total `n`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HexCode {
    /// `digits[k]` is `Dk`; `digits[0]` is 0, 4, 8 or 12; the last entry is not 0.
    digits: Vec<u8>,
}

/// A parsed hexadecimal code: the octal game when no digit has bit 8 (the same moves),
/// else a code with three-heap moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedHex {
    /// Every digit is at most 7: the octal code of the same digits.
    Octal(OctalCode),
    /// Some digit has bit 8.
    Hex(HexCode),
}

impl HexCode {
    /// Parses `D0.D1D2…` with digits 0-9 and A-F in either case (`0.3F`, `8.1`).
    ///
    /// # Errors
    /// A sentence naming the bad character and its digit, or the missing part.
    pub fn parse(code: &str) -> Result<ParsedHex, String> {
        let code = code.trim();
        if code.is_empty() {
            return Err("the code is empty: expected D0.D1D2... such as 0.3F".into());
        }
        let mut chars = code.chars();
        let lead = chars.next().unwrap_or('0');
        if chars.next() != Some('.') {
            return Err("expected D0.D1D2... with D0 = 0, 4, 8 or C and a point after it".into());
        }
        let d0 = match lead.to_digit(16) {
            Some(d @ (0 | 4 | 8 | 12)) => d as u8,
            _ => {
                return Err(format!(
                    "the digit before the point must be 0, 4, 8 or C, got '{lead}'"
                ))
            }
        };
        let mut digits = vec![d0];
        for (index, c) in chars.enumerate() {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => {
                    let k = index + 1;
                    return Err(format!("'{c}' (digit D{k}) is not a hexadecimal digit 0-F"));
                }
            }
        }
        let digits = without_trailing_zeros(digits)?;
        if digits.iter().all(|&d| d < 8) {
            return OctalCode::parse(code).map(ParsedHex::Octal);
        }
        Ok(ParsedHex::Hex(HexCode { digits }))
    }

    /// The digit `Dk` (0 beyond the last non-zero digit).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// The moves this code allows.
    pub fn rule(&self) -> ThreeHeapRule {
        let pairs = pairs_rule(&self.digits);
        ThreeHeapRule { pairs, split_three: removals_with_bit(&self.digits, 8) }
    }
}

impl fmt::Display for HexCode {
    /// Canonical text: `D0.` then `D1…Dt` in upper case, without trailing zeros.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        self.digits[1..].iter().try_for_each(|d| write!(f, "{d:X}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(code: &str) -> HexCode {
        match HexCode::parse(code).unwrap() {
            ParsedHex::Hex(code) => code,
            ParsedHex::Octal(code) => panic!("{code} parsed as octal"),
        }
    }

    #[test]
    fn codes_are_upper_case_without_trailing_zeros() {
        assert_eq!(hex("0.3f0").to_string(), "0.3F");
        assert_eq!(hex("c.1").to_string(), "C.1");
        assert_eq!(hex("8.0").to_string(), "8.0");
        assert_eq!(hex("0.3F").digit(2), 15);
    }

    #[test]
    fn codes_without_bit_8_are_octal_codes() {
        let octal = OctalCode::parse("0.77").unwrap();
        assert_eq!(HexCode::parse("0.770").unwrap(), ParsedHex::Octal(octal));
        assert!(matches!(HexCode::parse("4.07").unwrap(), ParsedHex::Octal(_)));
    }

    #[test]
    fn malformed_codes_name_the_problem() {
        let error = |code: &str| HexCode::parse(code).unwrap_err();
        assert_eq!(error("0.3G"), "'G' (digit D2) is not a hexadecimal digit 0-F");
        assert!(error("").contains("empty"));
        assert!(error("2.8").contains("0, 4, 8 or C, got '2'"));
        assert_eq!(error("0.00"), "every digit is 0, so the code allows no move at all");
        assert_eq!(error("0."), "no digits after the point");
    }

    #[test]
    fn bit_8_splits_in_three() {
        let rule = hex("0.3F").rule();
        assert_eq!(rule.split_three, vec![2]);
        assert_eq!(rule.pairs.split, vec![2]);
        assert!(hex("8.0").rule().splits_in_place() && !hex("0.8").rule().splits_in_place());
        assert_eq!(hex("0.8").rule().options(5), vec![[2, 1, 1]]);
        assert_eq!(hex("0.8").rule().options(4), vec![[1, 1, 1]]);
        assert_eq!(hex("8.0").rule().options(4), vec![[2, 1, 1]]);
    }
}
