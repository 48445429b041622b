//! A value-frequency table, the form in which the sparse-space solvers publish long runs:
//! `value count` lines, values from 0 to the largest, zero counts included.

use std::io::{self, Write};

use super::format::Format;
use crate::sequence::Frequencies;

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
