//! The default suite's take-and-break games: Kayles, Dawson's Kayles and Dawson's Chess
//! over multisets of heaps, their certified periods, and what their tables show; and the
//! certified periods of two octal games with long preperiods.

use crate::analysis::verify::Finding;
use crate::engine::Labels;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::multiset::MultisetSpace;
use crate::sequence::period::{find_period, Certificate, PeriodOutcome};
use crate::sequence::{Goal, Observer, Settings, Start, Store};
use crate::Result;

/// The bound on the total of the suite's multiset spaces (1.3 million positions each).
pub const SUITE_TOTAL: u32 = 50;

/// Heap sizes whose Grundy values the suite writes and certifies the periods from.
pub const PERIOD_MAX: u32 = 300;

/// The misère P-positions listed (and written to `data/misere-p/`) up to this total.
pub const MISERE_P_TOTAL: u32 = 10;

/// The octal games with the longest solved records the suite certifies, with the upper
/// bound of their period search: `0.376` (preperiod 2,268,248, period 4; its window fits
/// at heap 4,536,506) and `0.354` (preperiod 10,061,916, period 1,180; at heap
/// 20,126,194).
pub const LONG_PERIODS: [&str; 2] = ["0.376", "0.354"];

/// The upper bound of the long period searches: `2^25`.
pub const LONG_PERIOD_MAX: u64 = 1 << 25;

/// A long period of the suite: the game and what its search found.
#[derive(Clone, Debug)]
pub struct LongPeriod {
    /// The game, `octal:CODE`.
    pub game: Game,
    /// The period certified at the first heap where its window fits (at most
    /// [`LONG_PERIOD_MAX`]).
    pub period: PeriodOutcome,
}

/// Certifies the periods of [`LONG_PERIODS`] (values in memory; `threads` for each one),
/// reporting to `observer`.
///
/// # Errors
/// A code that does not parse, or memory the run is refused.
///
/// # Panics
/// If a period search reports no outcome, which it always does.
pub fn long_periods(threads: usize, observer: &mut dyn Observer) -> Result<Vec<LongPeriod>> {
    let mut found = Vec::new();
    for code in LONG_PERIODS {
        let game = Game::octal(code)?;
        let settings = Settings::new(Goal::Period, LONG_PERIOD_MAX).threads(threads);
        let start = Start::Fresh(Store::in_memory(LONG_PERIOD_MAX + 1));
        let sequence = game.grundy_sequence(&settings, start, observer)?;
        let period = sequence.period().copied().expect("a period search reports its outcome");
        found.push(LongPeriod { game, period });
    }
    Ok(found)
}

/// The `nimtab period` command that writes a long period's row.
pub fn long_period_command(game: &Game) -> String {
    format!("nimtab period --game {} --max 2^{}", game.spec(), LONG_PERIOD_MAX.trailing_zeros())
}

/// One take-and-break game of the suite, with its common name.
#[derive(Clone, Debug)]
pub struct TakeBreakJob {
    /// The game, `octal:CODE`.
    pub game: Game,
    /// Its name in the literature.
    pub name: &'static str,
}

/// Kayles (`0.77`), Dawson's Kayles (`0.07`) and Dawson's Chess (`0.137`).
///
/// # Errors
/// Only if a built-in code were malformed (a test parses them).
pub fn takebreak_suite() -> Result<Vec<TakeBreakJob>> {
    let job = |code: &str, name| Ok(TakeBreakJob { game: Game::octal(code)?, name });
    vec![job("0.77", "Kayles"), job("0.07", "Dawson's Kayles"), job("0.137", "Dawson's Chess")]
        .into_iter()
        .collect()
}

/// What the suite learns about one take-and-break game from its tables.
#[derive(Clone, Debug)]
pub struct TakeBreakFacts {
    /// The game and its name.
    pub job: TakeBreakJob,
    /// The period of its Grundy values from heap sizes `0..=PERIOD_MAX`.
    pub period: PeriodOutcome,
    /// Verify's findings over the multisets of total at most [`SUITE_TOTAL`], every
    /// ending and criterion compared over multisets.
    pub findings: Vec<Finding>,
    /// The misère P-positions of total at most [`MISERE_P_TOTAL`], in rank order.
    pub misere_p: Vec<Vec<u32>>,
    /// Single heaps of at most [`SUITE_TOTAL`] tokens that are misère P.
    pub misere_p_heaps: Vec<u32>,
    /// Positions where misère play and the SJ ending label differently, and the first.
    pub misere_sj_differ: (u64, Option<Vec<u32>>),
    /// Heap sizes up to [`SUITE_TOTAL`] of Grundy value 0 that still have a move: the SJ
    /// ending ends the game at them where misère play goes on.
    pub zero_heaps_with_moves: Vec<u32>,
}

/// Reads the facts the report states about one game from its verification over the
/// multisets of total at most [`SUITE_TOTAL`] (as [`super::suite_spaces`] lists it): its
/// findings, and its labels under every ending.
///
/// # Panics
/// If `labels` are not of a multiset space or lack misère play or the SJ rule.
pub fn takebreak_facts(
    job: &TakeBreakJob,
    findings: Vec<Finding>,
    labels: &[Labels],
) -> TakeBreakFacts {
    let game = &job.game;
    let under = |ending| labels.iter().find(|l| l.ending() == ending).expect("every ending");
    let (misere, sj) = (under(Ending::Misere), under(Ending::Sj));
    let space = misere.space().as_multisets().expect("a multiset space");
    let grundy = game.grundy(PERIOD_MAX);
    let misere_p = (0..space.first_rank(MISERE_P_TOTAL + 1))
        .filter(|&rank| misere.is_p_at(rank))
        .map(|rank| space.unrank(rank))
        .collect();
    let misere_p_heaps = (1..=SUITE_TOTAL).filter(|&h| misere.is_p(&[h])).collect();
    let zero_heaps_with_moves =
        (1..=SUITE_TOTAL).filter(|&h| grundy[h as usize] == 0 && game.has_moves(h)).collect();
    TakeBreakFacts {
        job: job.clone(),
        period: find_period(Certificate::for_game(game), &grundy),
        findings,
        misere_p,
        misere_p_heaps,
        misere_sj_differ: differences(space, misere, sj),
        zero_heaps_with_moves,
    }
}

/// Positions where two endings' labels of one space differ, and the first of them.
fn differences(space: &MultisetSpace, left: &Labels, right: &Labels) -> (u64, Option<Vec<u32>>) {
    let positions = space.positions();
    let mut differ = (0..positions).filter(|&rank| left.is_p_at(rank) != right.is_p_at(rank));
    let first = differ.next();
    let count = u64::from(first.is_some()) + differ.count() as u64;
    (count, first.map(|rank| space.unrank(rank)))
}

/// The `nimtab solve` command that writes a game's misère P-positions of small totals.
pub fn misere_p_command(game: &Game) -> String {
    format!("nimtab solve --game {} --total {MISERE_P_TOTAL} --rules misere --only p", game.spec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suite_games_parse() {
        let jobs = takebreak_suite().unwrap();
        let specs: Vec<&str> = jobs.iter().map(|j| j.game.spec()).collect();
        assert_eq!(specs, ["octal:0.77", "octal:0.07", "octal:0.137"]);
    }
}
