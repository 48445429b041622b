//! Parsers for the argument values commands share: heap counts, ranges, sizes, games.

use anyhow::Context;
use nimtab::{Game, Rule, Space};

/// The most worker threads accepted: far above any machine's cores, far below what
/// makes starting the pool itself slow or fail.
pub const MAX_THREADS: usize = 256;

/// `--threads`: an integer from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(k) if (1..=MAX_THREADS).contains(&k) => Ok(k),
        _ => Err(format!("--threads must be an integer from 1 to {MAX_THREADS}, got '{text}'")),
    }
}

/// `--max`: a non-negative integer.
pub fn parse_max(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&m| m < u32::MAX)
        .ok_or_else(|| format!("--max must be a non-negative integer, got '{text}'"))
}

/// `--heaps`: a positive integer.
pub fn parse_heaps(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("--heaps must be at least 1, got '0'".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("--heaps must be a positive integer, got '{text}'")),
    }
}

/// `--heaps N` or `--heaps A..=B`: an inclusive range of heap counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapRange {
    /// Smallest heap count.
    pub lo: usize,
    /// Largest heap count.
    pub hi: usize,
}

impl HeapRange {
    /// The heap counts in order.
    pub fn counts(&self) -> std::ops::RangeInclusive<usize> {
        self.lo..=self.hi
    }
}

/// Parses `N` or `A..=B`.
pub fn parse_heap_range(text: &str) -> Result<HeapRange, String> {
    let Some((a, b)) = text.split_once("..=") else {
        let n = parse_heaps(text)?;
        return Ok(HeapRange { lo: n, hi: n });
    };
    let bad = || format!("--heaps must be N or A..=B with 1 <= A <= B, got '{text}'");
    let lo: usize = a.trim().parse().map_err(|_| bad())?;
    let hi: usize = b.trim().parse().map_err(|_| bad())?;
    if lo == 0 {
        return Err(format!("--heaps {text}: heap counts start at 1"));
    }
    if lo > hi {
        return Err(format!("--heaps {text}: the range is empty ({lo} > {hi})"));
    }
    Ok(HeapRange { lo, hi })
}

/// Parses a game specification, reading a graph file if named.
pub fn game(spec: &str) -> anyhow::Result<Game> {
    Ok(Game::parse(spec)?)
}

/// Builds a space, naming the bad value on failure.
pub fn space(heaps: usize, max: u32) -> anyhow::Result<Space> {
    Ok(Space::new(heaps, max)?)
}

/// Parses `--rules`.
pub fn rules(list: &str) -> anyhow::Result<Vec<Rule>> {
    Rule::parse_list(list).with_context(|| format!("--rules '{list}'"))
}

/// Memory the tables may use: what the system reports available, less a margin.
pub fn memory_limit() -> u64 {
    let available = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        text.lines().find(|l| l.starts_with("MemAvailable:")).and_then(|l| {
            l.split_whitespace().nth(1).and_then(|kib| kib.parse::<u64>().ok()).map(|k| k * 1024)
        })
    });
    // Without /proc/meminfo, assume 4 GiB; keep 10% for everything else.
    available.unwrap_or(4 << 30) / 10 * 9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_ranges_are_validated() {
        assert_eq!(parse_heap_range("3"), Ok(HeapRange { lo: 3, hi: 3 }));
        assert_eq!(parse_heap_range("1..=5"), Ok(HeapRange { lo: 1, hi: 5 }));
        assert!(parse_heap_range("3..=2").unwrap_err().contains("empty"));
        assert!(parse_heap_range("0..=2").unwrap_err().contains("start at 1"));
        assert!(parse_heap_range("0").unwrap_err().contains("at least 1"));
    }

    #[test]
    fn max_refuses_negative_numbers() {
        assert!(parse_max("-3").unwrap_err().contains("'-3'"));
        assert_eq!(parse_max("31"), Ok(31));
    }
}
