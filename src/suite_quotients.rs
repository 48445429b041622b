//! The default suite's misère quotients: Dawson's Kayles, Kayles and 0.75 for heaps up to
//! a bound that keeps the suite fast, each proved, checked against the multiset tables,
//! and written as `quotient --format json` writes it, with a summary in the columns of
//! `sweep --quotients`.

use crate::engine::{NoProgress, Progress};
use crate::error::Result;
use crate::model::game::Game;
use crate::quotient::{check_against_tables, compute, Quotient, QuotientConfig, TableCheck};
use crate::sweep::{QuotientRow, QuotientStatus};

/// The largest heap of the suite's quotients.
pub const QUOTIENT_MAX_HEAP: u32 = 24;

/// The total up to which the suite checks each quotient against the tables
/// (`quotient --check`).
pub const QUOTIENT_CHECK_TOTAL: u64 = 24;

/// The suite's games, with the names the report gives them.
pub const QUOTIENT_GAMES: [(&str, &str); 3] =
    [("0.07", "Dawson's Kayles"), ("0.77", "Kayles"), ("0.75", "0.75")];

/// One quotient of the suite: the game, its name, the quotient and its check.
#[derive(Clone, Debug)]
pub struct QuotientFacts {
    /// The game, `octal:CODE`.
    pub game: Game,
    /// Its common name.
    pub name: &'static str,
    /// The quotient of heaps up to [`QUOTIENT_MAX_HEAP`], proved.
    pub quotient: Quotient,
    /// The check of every multiset of total at most [`QUOTIENT_CHECK_TOTAL`].
    pub check: TableCheck,
}

impl QuotientFacts {
    /// The summary row, as `sweep --quotients` writes it for the game.
    pub fn row(&self) -> QuotientRow {
        let q = &self.quotient;
        QuotientRow {
            game: self.game.spec().to_string(),
            max_heap: q.max_heap(),
            status: QuotientStatus::Ok {
                order: q.order(),
                p_portion_size: q.p_portion().len(),
                tame: q.tame(),
                period: q.period().map(|p| (p.preperiod, p.period)),
            },
        }
    }
}

/// Computes, proves and checks the suite's quotients (`progress` counts the checks'
/// positions).
///
/// # Errors
/// A quotient that fails or outgrows the default order bound (none of these does), or the
/// engine's refusal of a table.
pub fn suite_quotients(progress: &dyn Progress) -> Result<Vec<QuotientFacts>> {
    QUOTIENT_GAMES
        .iter()
        .map(|&(code, name)| {
            let game = Game::octal(code)?;
            let quotient = compute(&game, &QuotientConfig::new(QUOTIENT_MAX_HEAP), &NoProgress)?;
            let check =
                check_against_tables(&game, &quotient, QUOTIENT_CHECK_TOTAL, None, progress)?;
            Ok(QuotientFacts { game, name, quotient, check })
        })
        .collect()
}

/// The games of the suite as a `sweep --games` family.
pub fn quotient_family() -> String {
    let specs: Vec<String> =
        QUOTIENT_GAMES.iter().map(|(code, _)| format!("octal:{code}")).collect();
    specs.join(";")
}
