//! Amounts of memory as people write them (`1073741824`, `512M`, `1.5G`, `2GiB`), read into bytes.

/// A text that is not an amount of memory, or one of no bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeTextError {
    /// Not a number of bytes, nor a number with a unit.
    #[error(
        "expected bytes or a number with K, M, G or T (powers of 1024: 512M, 1.5G), got '{0}'"
    )]
    NotASize(String),
    /// No bytes at all.
    #[error("the amount of memory must be more than 0, got '{0}'")]
    Zero(String),
    /// More bytes than a `u64` holds.
    #[error("'{0}' is more bytes than can be counted (2^64 - 1 at most)")]
    TooLarge(String),
}

/// The units, each a power of 1024, by their letter.
const UNITS: [(char, u32); 4] = [('K', 10), ('M', 20), ('G', 30), ('T', 40)];

/// Bytes of `text`: a whole number of bytes, or a number (a decimal point allowed) with a
/// unit K, M, G or T, each a power of 1024, optionally followed by `B` or `iB`, in either
/// case (`1G`, `1GB`, `1gb` and `1GiB` are all 2^30 bytes); a fraction of a byte is dropped.
///
/// # Errors
/// [`SizeTextError`] naming the text: not an amount, no bytes, or past `u64`.
pub fn parse_memory_size(text: &str) -> Result<u64, SizeTextError> {
    let bad = || SizeTextError::NotASize(text.to_string());
    let unit_at = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(unit_at);
    let shift = match unit {
        "" => 0,
        _ => {
            let letter = unit.chars().next().map(|c| c.to_ascii_uppercase());
            let (_, shift) = UNITS.iter().find(|(u, _)| Some(*u) == letter).ok_or_else(bad)?;
            if !["", "b", "ib"].contains(&unit[1..].to_ascii_lowercase().as_str()) {
                return Err(bad());
            }
            *shift
        }
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || (shift == 0 && number != whole) {
        return Err(bad());
    }
    let too_large = || SizeTextError::TooLarge(text.to_string());
    let whole: u128 = whole.parse().map_err(|_| too_large())?;
    // The fraction's digits past the 19th are below a byte even of terabytes.
    let kept = &fraction[..fraction.len().min(19)];
    let part = kept.parse::<u128>().unwrap_or(0) << shift;
    let bytes = whole.checked_mul(1 << shift).map(|b| b + part / 10u128.pow(kept.len() as u32));
    match bytes.map(u64::try_from) {
        Some(Ok(0)) => Err(SizeTextError::Zero(text.to_string())),
        Some(Ok(bytes)) => Ok(bytes),
        _ => Err(too_large()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_in_bytes_and_units_of_1024() {
        assert_eq!(parse_memory_size("1073741824"), Ok(1 << 30));
        assert_eq!(parse_memory_size("1G"), Ok(1 << 30));
        assert_eq!(parse_memory_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_memory_size("1gb"), Ok(1 << 30));
        assert_eq!(parse_memory_size("512M"), Ok(512 << 20));
        assert_eq!(parse_memory_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_memory_size("4K"), Ok(4096));
        assert_eq!(parse_memory_size("2T"), Ok(2 << 40));
        assert_eq!(parse_memory_size("0.5K"), Ok(512));
    }

    #[test]
    fn what_is_no_amount_is_refused_naming_the_text() {
        for bad in
            ["", "x", "-1", "1.5", "G", "1X", "1Gi", "1GiBs", "1Gbit", "1 G", "+4", "1e9", ".5G"]
        {
            assert_eq!(parse_memory_size(bad), Err(SizeTextError::NotASize(bad.into())), "{bad}");
        }
        assert_eq!(parse_memory_size("0"), Err(SizeTextError::Zero("0".into())));
        assert_eq!(parse_memory_size("0G"), Err(SizeTextError::Zero("0G".into())));
        assert_eq!(parse_memory_size("0.0001K"), Err(SizeTextError::Zero("0.0001K".into())));
        let huge = "99999999999999999999999";
        assert_eq!(parse_memory_size(huge), Err(SizeTextError::TooLarge(huge.into())));
        assert_eq!(
            parse_memory_size("16777216T"),
            Err(SizeTextError::TooLarge("16777216T".into()))
        );
        let message = parse_memory_size("x").unwrap_err().to_string();
        assert!(message.contains("'x'") && message.contains("512M"), "{message}");
    }
}
