//! Sweeps: one verification or claim over every game of a family, in parallel over games.
//!
//! A [`Sweep`] is a [`Family`] of games, a [`SweepSpace`], the endings and a [`Test`]
//! (criteria, or a claim). [`Sweep::run`] checks a range of its games and returns one
//! [`SweepRow`] per (game, heap count, ending, criterion or claim), in the family's order
//! whatever the thread count. A family entry that names a game listed before it (another
//! spelling of the same rule) is run once. A sweep splits into [`Shard`]s, contiguous
//! ranges of games of equal size; each shard's rows are written as a *part*
//! ([`SweepOutput::write_csv`]) and [`merge`] checks the parts and turns them back into the bytes of
//! the whole run ([`write_csv`]). A [`QuotientSweep`] computes the misère quotient of every
//! game of a family instead, one row per game, with the same shards, parts and merge.

mod error;
pub mod family;
mod merge;

mod part_format;
mod part_rows;
mod parts;
mod pattern;
mod quotient_bounds;
mod quotient_game;
mod quotient_rows;
mod quotients;
mod request;
mod run;
mod shard;
mod space;

pub use crate::export::sweep_part::{write_quotient_header, Params, PartHead, QUOTIENT_HEADER};
pub use error::{Result, SweepError};
pub use family::{Family, FamilyLimit};
pub use merge::{merge, merge_into, PartSource};
pub use part_format::{
    read_part_bytes, read_part_header, PartHeader, MAX_HEADER_LINE, MAX_ROW_LINE, MAX_SWEEP_TEXT,
};
pub use parts::{
    add_summary, summarize, write_csv, write_header, write_part, write_rows, SummaryLine,
};
pub use quotient_bounds::QuotientBounds;
pub use quotient_rows::{quotient_csv_bytes, HeapsReached, QuotientRow, QuotientStatus};
pub use quotients::{quotient_rows, QuotientLimits, QuotientSweep};
pub use request::{Games, PlannedSweep, SweepKind, SweepOutput, SweepRequest};
pub use run::BATCH_GAMES;
pub use shard::{Shard, MAX_SHARDS};
pub use space::SweepSpace;

use std::collections::hash_map::{Entry, HashMap};

use part_format::Fingerprint;

use crate::analysis::criteria::Criterion;
use crate::analysis::criteria::MULTISET_CRITERIA;
use crate::analysis::expr::{Expr, ExprError, Feature};
use crate::analysis::tally::Tally;
use crate::export::summary::{multiset_space_cells, summary_header};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::space::Space;
use crate::Error;

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
    /// Heap count (0 for a multiset space).
    pub heaps: usize,
    /// Largest heap size (the total for a multiset space).
    pub max: u32,
    /// `Some(T)` for the multisets of total at most `T`, `None` for a tuple space.
    pub total: Option<u32>,
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

    /// The `heaps` and `max` cells, as `summary.csv` writes them: `any` and `total<=T`
    /// for a multiset space.
    pub fn space_cells(&self) -> [String; 2] {
        match self.total {
            None => [self.heaps.to_string(), self.max.to_string()],
            Some(total) => multiset_space_cells(total),
        }
    }

    /// The space as messages name it: `3 heaps`, or `total<=12`.
    pub fn space_words(&self) -> String {
        match self.total {
            None => format!("{} heaps", self.heaps),
            Some(total) => format!("total<={total}"),
        }
    }
}

/// A family of games, the space, the endings and the test of a sweep, validated.
#[derive(Clone, Debug)]
pub struct Sweep {
    family: Family,
    /// The games to run: the family's entries, each game once.
    games: Vec<Game>,
    /// Entries (family indices) naming a game an earlier entry names, with that entry.
    repeats: Vec<(usize, usize)>,
    space: SweepSpace,
    endings: Vec<Ending>,
    test: Test,
}

impl Sweep {
    /// Parses every game of the family and checks the test against the space, before
    /// any work. An entry that names the same game as an earlier one (equal normalised
    /// rules: `subtract:2,1` after `subtract:1,2`, `octal:0.70` after `octal:0.7`) is not
    /// run again; [`Sweep::repeats`] lists them.
    ///
    /// # Errors
    /// [`SweepError::BadGame`] naming the first spec that is not a game (or is longer than
    /// [`MAX_SWEEP_TEXT`] or holds a control character), or a game that is not a sum of
    /// heaps in a multiset space, and where it came from;
    /// [`SweepError::GameSplitsHeaps`] for a game that splits heaps in a tuple space;
    /// [`SweepError::Claim`] for a claim naming a heap the space lacks, or with a control
    /// character; [`Error::CriterionNotForMultisets`] for a criterion a multiset space is
    /// not compared with; [`Error::Invalid`] for no endings or no criteria.
    pub fn new(family: Family, space: SweepSpace, endings: &[Ending], test: Test) -> Result<Sweep> {
        if endings.is_empty() {
            return Err(Error::Invalid("a sweep needs at least one rule".to_string()).into());
        }
        check_test(&test, &space)?;
        let parsed = family
            .specs()
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let bad = |e: &dyn std::fmt::Display| SweepError::BadGame {
                    origin: family.origin(i),
                    message: e.to_string(),
                };
                check_text(spec).map_err(|reason| bad(&reason))?;
                let game = Game::parse(spec).map_err(|e| bad(&e))?;
                match space.multisets() {
                    // A multiset holds heaps only: no shared resource, no order.
                    Some(_) => {
                        game.require_sum("a space of multisets of heaps").map_err(|e| bad(&e))?
                    }
                    // A game that splits heaps leaves every tuple space.
                    None if game.splits() => {
                        let (origin, spec) = (family.origin(i), spec.clone());
                        let parts = game.split_parts();
                        return Err(SweepError::GameSplitsHeaps { origin, spec, parts });
                    }
                    None => {}
                }
                check_game(&game, &space, endings, &test).map_err(|e| bad(&e))?;
                Ok(game)
            })
            .collect::<Result<Vec<Game>>>()?;
        let (games, repeats) = once_each(parsed);
        Ok(Sweep { family, games, repeats, space, endings: endings.to_vec(), test })
    }

    /// Entries of the family that name a game an earlier entry names, each with that
    /// entry (indices into [`Family::specs`]), in the family's order.
    pub fn repeats(&self) -> &[(usize, usize)] {
        &self.repeats
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
        self.space.count() * self.endings.len() * self.test.names().len()
    }

    /// The games of one shard, a contiguous range ([`Shard::games`]).
    pub fn shard_games(&self, shard: Shard) -> std::ops::Range<usize> {
        shard.games(self.games())
    }

    /// The parameters that decide the rows besides the games, as a part's head names them.
    pub fn params(&self) -> Params {
        let names: Vec<&str> = self.endings.iter().map(|e| e.name()).collect();
        Params {
            space: self.space.describe(),
            endings: names.join(","),
            test: self.test.describe(),
        }
    }

    /// The head of shard `shard`'s part: the rows it announces are the shard's games times
    /// [`Sweep::rows_per_game`].
    pub fn part_head(&self, shard: Shard) -> PartHead {
        let games = self.shard_games(shard);
        PartHead {
            fingerprint: self.fingerprint(),
            shard: shard.to_string(),
            rows: games.len() as u64 * self.rows_per_game() as u64,
            games,
            total_games: self.games(),
            family: self.family().describe(),
            params: self.params(),
            header: summary_header().join(","),
        }
    }

    /// A digest of the games (each once, as their rows name them), space, endings and
    /// test: parts of one sweep share it, parts of another do not.
    pub fn fingerprint(&self) -> String {
        let mut fingerprint = Fingerprint::new(&self.params());
        for game in &self.games {
            fingerprint.add_game(game.spec());
        }
        fingerprint.finish()
    }
}

/// The games with each game once (its first entry kept), and the entries dropped, each
/// with the entry it repeats.
fn once_each(parsed: Vec<Game>) -> (Vec<Game>, Vec<(usize, usize)>) {
    let mut first = HashMap::with_capacity(parsed.len());
    let mut repeats = Vec::new();
    let mut kept = vec![true; parsed.len()];
    for (i, game) in parsed.iter().enumerate() {
        match first.entry(game.identity()) {
            Entry::Occupied(entry) => {
                repeats.push((i, *entry.get()));
                kept[i] = false;
            }
            Entry::Vacant(entry) => {
                entry.insert(i);
            }
        }
    }
    drop(first);
    let games = parsed.into_iter().zip(kept).filter_map(|(g, keep)| keep.then_some(g)).collect();
    (games, repeats)
}

/// Refuses a spec or claim a part's line could not hold: longer than [`MAX_SWEEP_TEXT`],
/// or with a control character (rows are plain text, one line each).
fn check_text(text: &str) -> std::result::Result<(), String> {
    if text.len() > MAX_SWEEP_TEXT {
        return Err(format!("longer than {} KiB", MAX_SWEEP_TEXT >> 10));
    }
    match text.chars().find(|c| c.is_control()) {
        Some(c) => Err(format!("it holds a control character ({})", c.escape_unicode())),
        None => Ok(()),
    }
}

/// Refuses, before any work, what one game of the family cannot run: the SJ ending, heap
/// Grundy values (in a claim) or a criterion for a game they do not apply to.
fn check_game(
    game: &Game,
    space: &SweepSpace,
    endings: &[Ending],
    test: &Test,
) -> Result<(), Error> {
    if endings.contains(&Ending::Sj) {
        game.require_sum("the SJ rule")?;
    }
    match test {
        Test::Claim(expr) => {
            if expr.feature_column(Feature::reads_heap_grundy).is_some() && !game.is_sum() {
                game.require_sum("a claim reading g1..gN, gxor or gmax (heap Grundy values)")?;
            }
        }
        Test::Criteria(criteria) => {
            for criterion in criteria {
                for s in space.spaces().iter().filter_map(Space::as_tuples) {
                    criterion.check_applies(game, s.heaps())?;
                }
            }
        }
    }
    Ok(())
}

/// Refuses a test the space cannot run: no criteria, a criterion a multiset space is not
/// compared with, a claim naming a heap the space lacks.
fn check_test(test: &Test, space: &SweepSpace) -> Result<()> {
    match test {
        Test::Criteria(criteria) if criteria.is_empty() => {
            Err(Error::Invalid("a sweep needs at least one criterion".to_string()).into())
        }
        Test::Criteria(criteria) if criteria.contains(&Criterion::Quotient) => Err(Error::Invalid(
            "criterion quotient is compared by verify --total T; a sweep writes each \
                 game's quotient with --quotients N instead"
                .to_string(),
        )
        .into()),
        Test::Criteria(criteria) => match space.multisets() {
            Some(_) => match criteria.iter().find(|c| !MULTISET_CRITERIA.contains(c)) {
                Some(c) => {
                    Err(Error::CriterionNotForMultisets { criterion: c.name().to_string() }.into())
                }
                None => Ok(()),
            },
            None => Ok(()),
        },
        Test::Claim(expr) => {
            if let Err(message) = check_text(expr.text()) {
                let column = expr.text().chars().position(char::is_control).map_or(1, |i| i + 1);
                return Err(SweepError::Claim(ExprError { column, message }));
            }
            // A sweep computes no whole-position Grundy values (`check --grundy` does).
            if let Some(column) = expr.feature_column(|f| f == Feature::Value) {
                let message = "grundy is the whole position's Grundy value, which a sweep \
                               does not compute"
                    .to_string();
                return Err(SweepError::Claim(ExprError { column, message }));
            }
            for space in space.spaces() {
                expr.check_space(space).map_err(SweepError::Claim)?;
            }
            Ok(())
        }
    }
}
