//! A value-frequency table, the form in which the sparse-space solvers publish long runs:
//! `value count` lines, values from 0 to the largest, zero counts included; and the
//! summary of the sparse-space split, a CSV row per range of heaps.

use std::io::{self, Write};

use super::format::Format;
use crate::sequence::{Frequencies, RareSummary};

/// The `value count` lines of a frequency table (nothing for a table of no heap).
#[derive(Clone, Copy, Debug)]
pub struct FrequencyTable<'a>(pub &'a Frequencies);

impl Format for FrequencyTable<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let table = self.0;
        if table.heaps() == 0 {
            return Ok(());
        }
        for v in 0..=table.largest() {
            writeln!(out, "{v} {}", table.count(v))?;
        }
        Ok(())
    }
}

/// The summary CSV: `game,through,largest_value,largest_at,rare_mask,rare_count,last_rare`,
/// a row per range `0..=through` (the mask in hex, as the tables publish it).
#[derive(Clone, Copy, Debug)]
pub struct RareSummaries<'a> {
    /// The game's specification.
    pub game: &'a str,
    /// The rows.
    pub rows: &'a [RareSummary],
}

impl Format for RareSummaries<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let mut csv = csv::Writer::from_writer(out);
        let header = ["game", "through", "largest_value", "largest_at", "rare_mask"];
        csv.write_record(header.iter().chain(&["rare_count", "last_rare"]))?;
        for r in self.rows {
            csv.write_record([
                self.game.to_string(),
                r.through.to_string(),
                r.largest_value.to_string(),
                r.largest_at.to_string(),
                format!("{:x}", r.mask),
                r.rare_count.to_string(),
                r.last_rare.to_string(),
            ])?;
        }
        csv.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_list_every_value_up_to_the_largest_with_zero_counts() {
        let mut freq = Frequencies::new();
        for v in [3, 0, 3, 1] {
            freq.add(v);
        }
        freq.add_many(5, 2);
        let mut out = Vec::new();
        FrequencyTable(&freq).write_to(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "0 1\n1 1\n2 0\n3 2\n4 0\n5 2\n");
        let mut empty = Vec::new();
        FrequencyTable(&Frequencies::new()).write_to(&mut empty).unwrap();
        assert!(empty.is_empty());
    }
}
