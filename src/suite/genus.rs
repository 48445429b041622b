//! The default suite's genus tables (Kayles, Dawson's Kayles, Grundy's game), their files
//! and the report's section on them.

use std::fmt::Write;

use crate::engine::NoProgress;
use crate::export::format::Format;
use crate::export::genus::{period_sentence, GenusStyle, GenusTable};
use crate::export::report::Section;
use crate::genus::{apparent_period, heap_genera, Genus};
use crate::model::game::Game;
use crate::suite::grundy_file_name;
use crate::{Error, Result};

/// The suite's games, their names and the largest heap of their genus tables: bounds at
/// which each takes a fraction of a second.
pub const GENUS_GAMES: [(&str, &str, u32); 3] = [
    ("octal:0.77", "Kayles", 40),
    ("octal:0.07", "Dawson's Kayles", 40),
    ("grundys-game", "Grundy's game", 20),
];

/// One genus table of the suite.
#[derive(Clone, Debug)]
pub struct GenusFacts {
    /// The game.
    pub game: Game,
    /// Its common name.
    pub name: &'static str,
    /// The genus of heap `n` at index `n`.
    pub heaps: Vec<Genus>,
}

/// Computes the suite's genus tables (within `memory_limit` bytes each).
///
/// # Errors
/// A game the suite names that is refused, or forms past the budget (none are).
pub fn suite_genera(memory_limit: u64) -> Result<Vec<GenusFacts>> {
    GENUS_GAMES
        .iter()
        .map(|&(spec, name, max_heap)| {
            let game = Game::parse(spec)?;
            let heaps = heap_genera(&game, max_heap, memory_limit, &NoProgress)
                .map_err(|e| Error::Invalid(format!("the genus of {spec}: {e}")))?;
            Ok(GenusFacts { game, name, heaps })
        })
        .collect()
}

/// Each table's CSV file under `genus/`, with the command that writes it.
///
/// # Errors
/// Never in practice: the bytes are written to memory.
pub fn genus_files(facts: &[GenusFacts]) -> std::io::Result<Vec<(String, Vec<u8>, String)>> {
    let mut files = Vec::new();
    for f in facts {
        let mut bytes = Vec::new();
        let spec = f.game.spec();
        GenusTable { game: spec, heaps: &f.heaps, style: GenusStyle::Csv }.write_to(&mut bytes)?;
        let max_heap = f.heaps.len() - 1;
        let command = format!("nimtab genus --game {spec} --max-heap {max_heap} --format csv");
        files.push((format!("genus/{}", grundy_file_name(&f.game)), bytes, command));
    }
    Ok(files)
}

/// The report's section: per game, the wild heaps and the apparent period.
pub fn genus_section(facts: &[GenusFacts]) -> Section {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "The genus g^γ0γ1… of every heap (Winning Ways, chapter 13), exact, from the heaps' \
         misère canonical forms (`nimtab genus --game G --max-heap N --format csv`, in \
         `data/genus/`); a nim-heap's genus is written as its number and called tame.\n"
    );
    let _ = writeln!(body, "| game | name | N | wild heaps | first wild heaps | period |");
    let _ = writeln!(body, "|---|---|---:|---:|---|---|");
    for f in facts {
        let wild: Vec<String> = (f.heaps.iter().enumerate())
            .filter(|(_, g)| !g.is_nim_heap())
            .map(|(n, g)| format!("{n}: {g}"))
            .collect();
        let last = f.heaps.len() - 1;
        let first: Vec<&str> = wild.iter().take(4).map(String::as_str).collect();
        let _ = writeln!(
            body,
            "| `{}` | {} | {last} | {} | {} | {} |",
            f.game.spec(),
            f.name,
            wild.len(),
            first.join(", "),
            period_sentence(apparent_period(&f.heaps), last)
        );
    }
    Section { title: "Genus of heaps".to_string(), body }
}
