//! Parsers for the values the seed commands share: positions, stone ranges, seeds.

use anyhow::bail;

/// Heap sizes given as positional arguments, naming the first bad one.
pub fn parse_position(heaps: &[String]) -> anyhow::Result<Vec<u32>> {
    if heaps.is_empty() {
        bail!("a position needs at least one heap size");
    }
    let mut position = Vec::with_capacity(heaps.len());
    for (i, text) in heaps.iter().enumerate() {
        match text.parse::<u32>() {
            Ok(h) if h < u32::MAX => position.push(h),
            _ if text.starts_with('-') && text[1..].parse::<u64>().is_ok() => {
                bail!("heap {} is '{text}': heap sizes cannot be negative", i + 1)
            }
            _ => bail!("heap {} is '{text}': not a non-negative integer", i + 1),
        }
    }
    Ok(position)
}

/// `--stones N` or `--stones A..=B` with `1 <= A <= B`.
pub fn parse_stone_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--stones must be N or A..=B with 1 <= A <= B, got '{text}'");
    let (lo, hi) = match text.split_once("..=") {
        Some((a, b)) => (a.trim().parse::<u32>(), b.trim().parse::<u32>()),
        None => (text.trim().parse::<u32>(), text.trim().parse::<u32>()),
    };
    let (lo, hi) = (lo.map_err(|_| bad())?, hi.map_err(|_| bad())?);
    if lo == 0 {
        return Err(format!("--stones {text}: a split needs at least 1 stone"));
    }
    if lo > hi {
        return Err(format!("--stones {text}: the range is empty ({lo} > {hi})"));
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_name_the_bad_heap() {
        let heaps = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse_position(&heaps(&["7", "8", "9"])).unwrap(), vec![7, 8, 9]);
        let negative = parse_position(&heaps(&["7", "-8"])).unwrap_err().to_string();
        assert_eq!(negative, "heap 2 is '-8': heap sizes cannot be negative");
        assert!(parse_position(&heaps(&["x"])).unwrap_err().to_string().contains("'x'"));
    }

    #[test]
    fn stone_ranges_must_be_non_empty() {
        assert_eq!(parse_stone_range("1..=40"), Ok((1, 40)));
        assert_eq!(parse_stone_range("7"), Ok((7, 7)));
        assert!(parse_stone_range("9..=3").unwrap_err().contains("empty"));
        assert!(parse_stone_range("0..=3").unwrap_err().contains("at least 1"));
    }
}
