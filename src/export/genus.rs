//! The genus table of a game's heaps, or the genus of one sum of heaps, as text, CSV or JSON.

use std::io::{self, Write};

use crate::export::format::Format;
use crate::genus::{apparent_period, Genus, Periodicity};

/// The CSV header of a genus table (a position's table has `position` first instead).
pub const GENUS_CSV_HEADER: &str = "heap,genus,grundy,misere_grundy,tame";

/// How a genus table is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenusStyle {
    /// Aligned columns and the apparent period.
    Text,
    /// One row a heap, [`GENUS_CSV_HEADER`].
    Csv,
    /// One object with every heap's γ values and the apparent period.
    Json,
}

/// The genus of every heap of a game from 0, written in a [`GenusStyle`].
#[derive(Debug)]
pub struct GenusTable<'a> {
    /// The game's specification.
    pub game: &'a str,
    /// The genus of heap `n` at index `n`.
    pub heaps: &'a [Genus],
    /// How it is written.
    pub style: GenusStyle,
}

/// The genus of one sum of heaps, written in a [`GenusStyle`].
#[derive(Debug)]
pub struct PositionGenus<'a> {
    /// The game's specification.
    pub game: &'a str,
    /// The heaps of the position.
    pub heaps: &'a [u32],
    /// Its genus.
    pub genus: &'a Genus,
    /// How it is written.
    pub style: GenusStyle,
}

fn tameness(genus: &Genus) -> &'static str {
    if genus.is_nim_heap() {
        "tame"
    } else {
        "wild"
    }
}

/// The sentence on the apparent period, which no theorem extends.
pub fn period_sentence(period: Option<Periodicity>, max_heap: usize) -> String {
    match period {
        Some(p) => format!(
            "periodic from heap {} with period {} through heap {} (bounded evidence: no \
             theorem extends a genus sequence's period)",
            p.preperiod, p.period, p.through
        ),
        None => format!("no period seen through heap {max_heap}"),
    }
}

fn json_genus(out: &mut dyn Write, genus: &Genus) -> io::Result<()> {
    let gammas: Vec<String> = genus.gammas.iter().map(u32::to_string).collect();
    write!(
        out,
        "\"genus\":\"{genus}\",\"grundy\":{},\"misere_grundy\":{},\"gammas\":[{}],\"tame\":{}",
        genus.grundy,
        genus.misere_grundy(),
        gammas.join(","),
        genus.is_nim_heap()
    )
}

impl Format for GenusTable<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let period = apparent_period(self.heaps);
        let last = self.heaps.len().saturating_sub(1);
        match self.style {
            GenusStyle::Text => {
                let width = self.heaps.iter().map(|g| g.to_string().len()).max().unwrap_or(5);
                let width = width.max(5);
                writeln!(out, "genus of {}, heaps 0 to {last}", self.game)?;
                writeln!(out, "heap  {:<width$}  grundy  misere  tame", "genus")?;
                for (n, genus) in self.heaps.iter().enumerate() {
                    writeln!(
                        out,
                        "{n:>4}  {:<width$}  {:>6}  {:>6}  {}",
                        genus.to_string(),
                        genus.grundy,
                        genus.misere_grundy(),
                        tameness(genus)
                    )?;
                }
                let wild = self.heaps.iter().filter(|g| !g.is_nim_heap()).count();
                writeln!(out, "{wild} of {} heaps wild", self.heaps.len())?;
                writeln!(out, "{}", period_sentence(period, last))
            }
            GenusStyle::Csv => {
                writeln!(out, "{GENUS_CSV_HEADER}")?;
                for (n, genus) in self.heaps.iter().enumerate() {
                    writeln!(
                        out,
                        "{n},{genus},{},{},{}",
                        genus.grundy,
                        genus.misere_grundy(),
                        genus.is_nim_heap()
                    )?;
                }
                Ok(())
            }
            GenusStyle::Json => {
                write!(out, "{{\"game\":\"{}\",\"max_heap\":{last},\"heaps\":[", self.game)?;
                for (n, genus) in self.heaps.iter().enumerate() {
                    let comma = if n == 0 { "" } else { "," };
                    write!(out, "{comma}\n{{\"heap\":{n},")?;
                    json_genus(out, genus)?;
                    write!(out, "}}")?;
                }
                write!(out, "\n],\"period\":")?;
                match period {
                    Some(p) => writeln!(
                        out,
                        "{{\"preperiod\":{},\"period\":{},\"through\":{}}}}}",
                        p.preperiod, p.period, p.through
                    ),
                    None => writeln!(out, "null}}"),
                }
            }
        }
    }
}

impl Format for PositionGenus<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let heaps: Vec<String> = self.heaps.iter().map(u32::to_string).collect();
        let genus = self.genus;
        match self.style {
            GenusStyle::Text => writeln!(
                out,
                "genus of {} in {}: {genus} (grundy {}, misere grundy {}, {})",
                heaps.join(" "),
                self.game,
                genus.grundy,
                genus.misere_grundy(),
                tameness(genus)
            ),
            GenusStyle::Csv => {
                writeln!(out, "position,genus,grundy,misere_grundy,tame")?;
                writeln!(
                    out,
                    "{},{genus},{},{},{}",
                    heaps.join(" "),
                    genus.grundy,
                    genus.misere_grundy(),
                    genus.is_nim_heap()
                )
            }
            GenusStyle::Json => {
                write!(out, "{{\"game\":\"{}\",\"position\":[{}],", self.game, heaps.join(","))?;
                json_genus(out, genus)?;
                writeln!(out, "}}")
            }
        }
    }
}
