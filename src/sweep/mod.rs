//! Sweeps: one verification or claim over every game of a family, in parallel over games.
//!
//! A [`Sweep`] is a [`Family`] of games, a [`SweepSpace`], the endings and a [`Test`]
//! (criteria, or a claim). [`Sweep::run`] checks a range of its games and returns one
//! [`SweepRow`] per (game, heap count, ending, criterion or claim), in the family's order
//! whatever the thread count. A sweep splits into [`Shard`]s, contiguous ranges of games
//! balanced by estimated positions; each shard's rows are written as a *part*
//! ([`write_part`]) and [`merge`] turns the parts back into the bytes of the whole run
//! ([`write_csv`]).

mod error;
pub mod family;
mod parts;
mod run;
mod shard;

pub use error::SweepError;
pub use family::{Family, FAMILY_HARD_LIMIT, FAMILY_LIMIT};
pub use parts::{
    add_summary, merge, summarize, write_csv, write_header, write_part, write_part_header,
    write_rows, SummaryLine,
};
pub use run::BATCH_GAMES;
pub use shard::{partition, Shard};

use sha2::{Digest, Sha256};

use crate::analysis::criteria::Criterion;
use crate::analysis::expr::Expr;
use crate::analysis::tally::Tally;
use crate::error::{Error, Result};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::space::{Mode, Space};

/// The positions every game of a sweep is checked on, validated when built.
///
/// The one place a new kind of space is added: a constructor, a variant of `Kind`, and
/// its words in [`SweepSpace::describe`]; runs go through [`SweepSpace::spaces`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepSpace {
    kind: Kind,
    mode: Mode,
    /// The spaces of one game, in row order.
    spaces: Vec<Space>,
}

/// How the spaces of a sweep were given.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Every tuple of `lo..=hi` heaps of at most `max` stones.
    Heaps { lo: usize, hi: usize, max: u32 },
}

impl SweepSpace {
    /// Heap counts `lo..=hi` of at most `max` stones, each space validated.
    ///
    /// # Errors
    /// The errors of [`Space::in_mode`]; [`Error::Invalid`] for an empty range.
    pub fn heaps(lo: usize, hi: usize, max: u32, mode: Mode) -> Result<SweepSpace> {
        if lo > hi {
            return Err(Error::Invalid(format!("heap counts {lo}..={hi}: the range is empty")));
        }
        let spaces = (lo..=hi).map(|n| Space::in_mode(n, max, mode)).collect::<Result<Vec<_>>>()?;
        Ok(SweepSpace { kind: Kind::Heaps { lo, hi, max }, mode, spaces })
    }

    /// The spaces of one game, in row order.
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }

    /// Every tuple, or sorted tuples only.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Positions labelled per ending for one game, over every space.
    pub fn positions(&self) -> u64 {
        self.spaces.iter().map(|s| s.positions()).fold(0, u64::saturating_add)
    }

    /// `heaps 1..=3, max 31` (and `, canonical`).
    pub fn describe(&self) -> String {
        let canonical = if self.mode.is_canonical() { ", canonical" } else { "" };
        match self.kind {
            Kind::Heaps { lo, hi, max } => format!("heaps {lo}..={hi}, max {max}{canonical}"),
        }
    }
}

/// What is compared with the DP labels of every game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// Closed-form criteria, as `verify` compares them.
    Criteria(Vec<Criterion>),
    /// A claim "P exactly when EXPR", as `check` tests it.
    Claim(Expr),
}

impl Test {
    /// The names in the rows' `criterion` column: criterion names, or the expression.
    pub fn names(&self) -> Vec<String> {
        match self {
            Test::Criteria(criteria) => criteria.iter().map(|c| c.name().to_string()).collect(),
            Test::Claim(expr) => vec![expr.text().to_string()],
        }
    }

    /// `criteria xor,sj` or `claim EXPR`.
    pub fn describe(&self) -> String {
        match self {
            Test::Criteria(_) => format!("criteria {}", self.names().join(",")),
            Test::Claim(expr) => format!("claim {}", expr.text()),
        }
    }
}

/// One comparison of a sweep: a game, a heap count, an ending, a criterion or claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepRow {
    /// The game's specification.
    pub game: String,
    /// Heap count.
    pub heaps: usize,
    /// Largest heap size.
    pub max: u32,
    /// The ending of the DP.
    pub ending: Ending,
    /// The criterion's name, or the claim's expression.
    pub test: String,
    /// Whether a disagreement would break a theorem (never for claims).
    pub theorem: bool,
    /// Counts, and the first counterexample in index order.
    pub tally: Tally,
}

impl SweepRow {
    /// A theorem with a disagreement.
    pub fn theorem_failed(&self) -> bool {
        self.theorem && self.tally.disagree > 0
    }
}

/// A family of games, the space, the endings and the test of a sweep, validated.
#[derive(Clone, Debug)]
pub struct Sweep {
    family: Family,
    games: Vec<Game>,
    space: SweepSpace,
    endings: Vec<Ending>,
    test: Test,
}

impl Sweep {
    /// Parses every game of the family and checks the test against the space, before
    /// any work.
    ///
    /// # Errors
    /// [`SweepError::BadGame`] naming the first spec that is not a game, or a game that
    /// splits heaps (tuple spaces do not hold its moves), and where it came from; [`SweepError::Claim`] for a claim naming a heap the space lacks;
    /// [`Error::Invalid`] for no endings or no criteria.
    pub fn new(family: Family, space: SweepSpace, endings: &[Ending], test: Test) -> Result<Sweep> {
        if endings.is_empty() {
            return Err(Error::Invalid("a sweep needs at least one rule".to_string()));
        }
        if let Test::Criteria(criteria) = &test {
            if criteria.is_empty() {
                return Err(Error::Invalid("a sweep needs at least one criterion".to_string()));
            }
        }
        if let Test::Claim(expr) = &test {
            for space in space.spaces() {
                let nim = Game::nim().grundy(space.max());
                expr.compile(space.heaps(), &nim).map_err(SweepError::Claim)?;
            }
        }
        let games = family
            .specs()
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let bad = |e: Error| SweepError::BadGame {
                    origin: family.origin(i),
                    message: e.to_string(),
                };
                let game = Game::parse(spec).map_err(bad)?;
                // A game that splits heaps leaves every tuple space: refused here, by name.
                if game.splits() {
                    return Err(bad(Error::SplitsHeaps { spec: spec.clone() }).into());
                }
                Ok(game)
            })
            .collect::<Result<Vec<Game>>>()?;
        Ok(Sweep { family, games, space, endings: endings.to_vec(), test })
    }

    /// The family.
    pub fn family(&self) -> &Family {
        &self.family
    }

    /// Games in the family.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// The space of every game.
    pub fn space(&self) -> &SweepSpace {
        &self.space
    }

    /// Rows each game contributes: spaces × endings × criteria (or 1 claim).
    pub fn rows_per_game(&self) -> usize {
        self.space.spaces().len() * self.endings.len() * self.test.names().len()
    }

    /// Positions a game's run labels, summed over its spaces and endings: the weight by
    /// which shards are balanced.
    pub fn estimated_positions(&self, _game: usize) -> u64 {
        self.space.positions().saturating_mul(self.endings.len() as u64)
    }

    /// The games of one shard, a contiguous range.
    pub fn shard_games(&self, shard: Shard) -> std::ops::Range<usize> {
        let weights: Vec<u64> = (0..self.games()).map(|i| self.estimated_positions(i)).collect();
        partition(&weights, shard.count()).swap_remove(shard.index() - 1)
    }

    /// One line naming everything that decides the rows: family, space, rules, test.
    pub fn describe(&self) -> String {
        let rules: Vec<&str> = self.endings.iter().map(|e| e.name()).collect();
        format!(
            "games {}; {}; rules {}; {}",
            self.family.describe(),
            self.space.describe(),
            rules.join(","),
            self.test.describe()
        )
    }

    /// A digest of the expanded family, space, rules and test: parts of one sweep share
    /// it, parts of another do not.
    pub fn fingerprint(&self) -> String {
        let mut hash = Sha256::new();
        hash.update(b"nimtab sweep 1\n");
        for spec in self.family.specs() {
            hash.update(spec.as_bytes());
            hash.update(b"\n");
        }
        let rules: Vec<&str> = self.endings.iter().map(|e| e.name()).collect();
        let (space, test) = (self.space.describe(), self.test.describe());
        let settings = format!("{space}\n{}\n{test}\n", rules.join(","));
        hash.update(settings.as_bytes());
        hash.finalize()[..8].iter().map(|b| format!("{b:02x}")).collect()
    }
}
