//! The default suite's misère quotients: Dawson's Kayles, Kayles and 0.75 for heaps up to
//! bounds that keep the suite fast (Kayles' far enough for its period to be certified),
//! each proved, checked against the multiset tables, and written as `quotient --format
//! json` writes it, with a summary in the columns of `sweep --quotients`.

use crate::engine::{NoProgress, Progress};
use crate::model::game::Game;
use crate::quotient::{check_against_tables, compute, Quotient, QuotientConfig, TableCheck};
use crate::sweep::{HeapsReached, QuotientRow, QuotientStatus};
use crate::{Error, Result};

/// The total up to which the suite checks each quotient against the tables
/// (`quotient --check`).
pub const QUOTIENT_CHECK_TOTAL: u64 = 24;

/// The suite's games (octal codes), the names the report gives them, and the largest
/// heap of their quotients: Kayles' `Φ` is periodic from 71 with period 12, certified
/// at heap 167 (where the run stops); Dawson's Kayles' quotient keeps growing (order 360
/// at heap 30).
pub const QUOTIENT_GAMES: [(&str, &str, u32); 3] =
    [("0.07", "Dawson's Kayles", 24), ("0.77", "Kayles", 200), ("0.75", "0.75", 24)];

/// One quotient of the suite: the game, its name, the quotient and its check.
#[derive(Clone, Debug)]
pub struct QuotientFacts {
    /// The game, `octal:CODE`.
    pub game: Game,
    /// Its common name.
    pub name: &'static str,
    /// The largest heap asked for (the quotient stops before it once the whole game is
    /// certified).
    pub max_heap: u32,
    /// The quotient of heaps up to the game's bound, proved.
    pub quotient: Quotient,
    /// The check of every multiset of total at most [`QUOTIENT_CHECK_TOTAL`].
    pub check: TableCheck,
}

impl QuotientFacts {
    /// The summary row, as `sweep --quotients` writes it for the game.
    pub fn row(&self) -> QuotientRow {
        QuotientRow {
            game: self.game.spec().to_string(),
            max_heap: self.max_heap,
            reached: Some(HeapsReached::of(&self.quotient)),
            status: QuotientStatus::Ok,
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
        .map(|&(code, name, max_heap)| {
            let game = Game::octal(code)?;
            // The quotient layer sits above the root error: its message is kept.
            let quotient = compute(&game, &QuotientConfig::new(max_heap), &NoProgress)
                .map_err(|e| Error::Invalid(format!("the quotient of {code}: {e}")))?;
            let check =
                check_against_tables(&game, &quotient, QUOTIENT_CHECK_TOTAL, None, progress)?;
            Ok(QuotientFacts { game, name, max_heap, quotient, check })
        })
        .collect()
}
