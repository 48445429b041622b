//! The default suite's hexadecimal games: their first values and what `period` proves of
//! them (an ordinary period certified, or an arithmetic one proved or stated as evidence),
//! for the report.

use std::fmt::Write;

use crate::export::report::Section;
use crate::model::game::Game;
use crate::sequence::period::{PeriodOutcome, Uncertified};
use crate::Result;

/// The suite's hexadecimal codes and the heaps read: two with ordinary periods, five
/// whose values grow by a saltus (`0.28` by 16 every 53 heaps).
pub const HEX_GAMES: [&str; 7] = ["0.F", "0.B", "0.3F", "0.8", "0.C", "0.0F", "0.28"];

/// The heaps each code's values are computed to (a fraction of a second each).
pub const HEX_MAX_HEAP: u32 = 300;

/// The values shown in the report's table.
const SHOWN: usize = 16;

/// One hexadecimal game of the suite: its values and the period search's outcome.
#[derive(Clone, Debug)]
pub struct HexFacts {
    /// The game, `hex:CODE`.
    pub game: Game,
    /// `G(0..=HEX_MAX_HEAP)`.
    pub values: Vec<u32>,
    /// What the values prove.
    pub outcome: PeriodOutcome,
}

/// Computes the suite's hexadecimal games and their period searches.
///
/// # Errors
/// A code the suite names that is refused (none is).
pub fn suite_hex_games() -> Result<Vec<HexFacts>> {
    HEX_GAMES
        .iter()
        .map(|code| {
            let game = Game::parse(&format!("hex:{code}"))?;
            let values = game.heap_values(HEX_MAX_HEAP)?;
            let outcome = game.period_of(&values);
            Ok(HexFacts { game, values, outcome })
        })
        .collect()
}

/// The report's section: per game, its first values and the period it has.
pub fn hex_section(facts: &[HexFacts]) -> Section {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "Hexadecimal codes add digit bit 8, a move that leaves three heaps \
         (`nimtab period --game hex:CODE --max {HEX_MAX_HEAP}`). An ordinary period is \
         certified by the periodicity theorem for moves that leave up to three heaps \
         (window `e <= n < 3 max(e, 1) + 2p + t`); an arithmetic period \
         `G(n + p) = G(n) + s` with `s > 0` is proved by nimtab's arithmetic-periodicity \
         criterion (docs/guide/grundy-and-periods.md), or stated as evidence to heap \
         {HEX_MAX_HEAP} where its checks do not hold.\n"
    );
    let _ = writeln!(body, "| game | G(0..{}) | preperiod | period | saltus | status |", SHOWN - 1);
    let _ = writeln!(body, "|---|---|---:|---:|---:|---|");
    for f in facts {
        let shown: Vec<String> = f.values.iter().take(SHOWN).map(u32::to_string).collect();
        let (e, p, s, status) = match &f.outcome {
            PeriodOutcome::Certified(c) => (
                c.preperiod.to_string(),
                c.period.to_string(),
                c.saltus.to_string(),
                format!("certified at heap {} ({})", c.checked_through, c.certificate.name()),
            ),
            PeriodOutcome::NotCertified {
                reason: Uncertified::Arithmetic { found, through, .. },
                ..
            } => (
                found.preperiod.to_string(),
                found.period.to_string(),
                found.saltus.to_string(),
                format!("evidence to heap {through}"),
            ),
            PeriodOutcome::NotCertified { .. } => {
                ("-".into(), "-".into(), "-".into(), "no period found".into())
            }
        };
        let _ = writeln!(
            body,
            "| `{}` | {} | {e} | {p} | {s} | {status} |",
            f.game.spec(),
            shown.join(" ")
        );
    }
    Section { title: "Hexadecimal games".to_string(), body }
}
