//! Shards: `I/N`, and the games of shard `I`: a contiguous range of the family, computed
//! from `I`, `N` and the number of games alone, the same on every machine.

use std::ops::Range;

use super::{FamilyLimit, SweepError};

/// The most shards a sweep splits into: a family has at most
/// [`FamilyLimit::Forced`]'s games, so any more shards would only add empty ones.
pub const MAX_SHARDS: usize = FamilyLimit::Forced.games() as usize;

/// The `index`-th (1-based) of `count` parts of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Part `index` of `count`.
    ///
    /// # Errors
    /// [`SweepError::BadShard`] unless `1 <= index <= count`;
    /// [`SweepError::TooManyShards`] for `count` above [`MAX_SHARDS`].
    pub fn new(index: usize, count: usize) -> Result<Shard, SweepError> {
        if index == 0 || index > count {
            return Err(SweepError::BadShard { text: format!("{index}/{count}") });
        }
        if count > MAX_SHARDS {
            let text = format!("{index}/{count}");
            return Err(SweepError::TooManyShards { text, limit: MAX_SHARDS });
        }
        Ok(Shard { index, count })
    }

    /// Parses `I/N`.
    ///
    /// # Errors
    /// [`SweepError::BadShard`] naming the text, [`SweepError::TooManyShards`].
    pub fn parse(text: &str) -> Result<Shard, SweepError> {
        let bad = || SweepError::BadShard { text: text.to_string() };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u128 = i.trim().parse().map_err(|_| bad())?;
        let count: u128 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        if count > MAX_SHARDS as u128 {
            return Err(SweepError::TooManyShards { text: text.to_string(), limit: MAX_SHARDS });
        }
        Shard::new(index as usize, count as usize)
    }

    /// `I`, from 1.
    pub fn index(self) -> usize {
        self.index
    }

    /// `N`.
    pub fn count(self) -> usize {
        self.count
    }

    /// The games of this shard among `games`: every game of a sweep labels the same
    /// positions, so shards balance by count. Game `g` belongs to the shard its midpoint
    /// `(g + 1/2) / games` of the family falls in, so shard sizes differ by at most one
    /// game; the ranges of shards `1/N..=N/N` cover every game once, in order (some are
    /// empty when there are more shards than games). Constant time and no allocation,
    /// whatever `N`.
    pub fn games(self, games: usize) -> Range<usize> {
        self.start(self.index - 1, games)..self.start(self.index, games)
    }

    /// The first game of shard `k` (0-based; `k = N` gives `games`): the least `g` with
    /// `(2g + 1) N >= 2 games k`.
    fn start(self, k: usize, games: usize) -> usize {
        let (k, games, count) = (k as u128, games as u128, self.count as u128);
        let twice = 2 * games * k;
        if twice <= count {
            return 0;
        }
        // (2g + 1) N >= 2 G k  <=>  g >= (2 G k - N) / (2 N), rounded up.
        ((twice - count).div_ceil(2 * count)).min(games) as usize
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(games: usize, count: usize) -> Vec<Range<usize>> {
        (1..=count).map(|i| Shard::new(i, count).unwrap().games(games)).collect()
    }

    /// The rule the ranges follow, written out: game `g` in the shard of its midpoint.
    fn by_midpoints(games: usize, count: usize) -> Vec<Range<usize>> {
        let shard_of = |g: usize| (2 * g + 1) * count / (2 * games);
        let mut out = Vec::new();
        let mut start = 0;
        for k in 0..count {
            let end = start + (start..games).take_while(|&g| shard_of(g) == k).count();
            out.push(start..end);
            start = end;
        }
        out
    }

    #[test]
    fn shards_parse_and_refuse_by_value() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard::new(2, 3).unwrap());
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
        for bad in
            ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/99999999999999999999999999999999999999999"]
        {
            let err = Shard::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), format!("shard '{bad}' must be I/N with 1 <= I <= N"));
        }
        for many in ["1/4194305", "1/18446744073709551615", "4294967297/4294967297"] {
            let err = Shard::parse(many).unwrap_err().to_string();
            assert!(err.starts_with(&format!("shard '{many}': ")), "{err}");
        }
        assert_eq!(Shard::parse("4194304/4194304").unwrap().count(), MAX_SHARDS);
    }

    #[test]
    fn equal_games_split_by_count_in_order() {
        assert_eq!(ranges(10, 3), vec![0..3, 3..7, 7..10]);
        assert_eq!(ranges(63, 3), vec![0..21, 21..42, 42..63]);
        assert_eq!(ranges(2, 4), vec![0..0, 0..1, 1..1, 1..2]);
        assert_eq!(ranges(4, 1), vec![0..4]);
        assert_eq!(ranges(0, 2), vec![0..0, 0..0]);
    }

    #[test]
    fn every_game_is_in_exactly_one_shard_by_its_midpoint() {
        for games in 1..=40 {
            for count in 1..=45 {
                let got = ranges(games, count);
                assert_eq!(got, by_midpoints(games, count), "{games} games, {count} shards");
                let covered: Vec<usize> = got.iter().flat_map(Clone::clone).collect();
                assert_eq!(covered, (0..games).collect::<Vec<_>>());
                let sizes: Vec<usize> = got.iter().map(ExactSizeIterator::len).collect();
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 1, "{games} games, {count} shards: {sizes:?}");
            }
        }
    }

    #[test]
    fn the_largest_shard_counts_cost_nothing() {
        let last = Shard::new(MAX_SHARDS, MAX_SHARDS).unwrap();
        assert_eq!(last.games(MAX_SHARDS), MAX_SHARDS - 1..MAX_SHARDS);
        assert_eq!(last.games(3), 3..3);
        assert_eq!(Shard::new(1, MAX_SHARDS).unwrap().games(3), 0..0);
    }
}
