//! A long Grundy sequence as text: `heap,grundy` CSV, an OEIS b-file (`n a(n)`), and the
//! byte counts of both, so that an output too large can be refused before the run.

use std::io::{self, Write};

use crate::export::lines::push_decimal;
use crate::sequence::Sequence;

/// Heaps formatted per write.
const CHUNK: u64 = 1 << 16;

/// How a sequence's lines look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceFormat {
    /// `heap,grundy` after a header line.
    Csv,
    /// `n a(n)`, no header (an OEIS b-file).
    Bfile,
}

impl SequenceFormat {
    fn header(self) -> &'static [u8] {
        match self {
            SequenceFormat::Csv => b"heap,grundy\n",
            SequenceFormat::Bfile => b"",
        }
    }

    fn separator(self) -> u8 {
        match self {
            SequenceFormat::Csv => b',',
            SequenceFormat::Bfile => b' ',
        }
    }
}

/// Writes `G(0..=max)` of `sequence` in `format`, formatting a chunk of heaps at a time.
///
/// # Errors
/// The writer's error, or a store's read error (as an I/O error).
pub fn write_sequence<W: Write + ?Sized>(
    out: &mut W,
    sequence: &mut Sequence,
    format: SequenceFormat,
) -> io::Result<()> {
    out.write_all(format.header())?;
    let mut buf = Vec::with_capacity(1 << 20);
    let max = sequence.max();
    let mut start = 0u64;
    while start <= max {
        let end = max.min(start + CHUNK - 1);
        buf.clear();
        sequence
            .for_each(start..=end, &mut |n, v| {
                push_decimal(&mut buf, n);
                buf.push(format.separator());
                push_decimal(&mut buf, v);
                buf.push(b'\n');
            })
            .map_err(io::Error::other)?;
        out.write_all(&buf)?;
        start = end + 1;
    }
    Ok(())
}

/// The bytes of the heap numbers and line ends of `G(0..=max)` in `format`: a lower
/// bound of the output's size (each value adds at least one digit more).
pub fn sequence_bytes_at_least(max: u64, format: SequenceFormat) -> u64 {
    let mut bytes = format.header().len() as u64;
    let mut low = 0u64;
    let mut digits = 1u64;
    while low <= max {
        let high = if digits >= 20 { max } else { max.min(10u64.pow(digits as u32) - 1) };
        // The heap's digits, the separator, at least one digit of value, the line end.
        bytes += (high - low + 1) * (digits + 3);
        low = high + 1;
        digits += 1;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{Extension, Store};

    #[test]
    fn decimal_digits_and_the_size_bound() {
        let mut buf = Vec::new();
        for n in [0, 7, 10, 1 << 40] {
            push_decimal(&mut buf, n);
            buf.push(b' ');
        }
        assert_eq!(String::from_utf8(buf).unwrap(), "0 7 10 1099511627776 ");
        assert_eq!(sequence_bytes_at_least(9, SequenceFormat::Bfile), 10 * 4);
        assert_eq!(sequence_bytes_at_least(10, SequenceFormat::Csv), 12 + 10 * 4 + 5);
    }

    #[test]
    fn nim_lines_are_heap_and_value() {
        let mut nim = Sequence::new(Store::in_memory(0), Extension::Identity, 3, None);
        let mut out = Vec::new();
        write_sequence(&mut out, &mut nim, SequenceFormat::Csv).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "heap,grundy\n0,0\n1,1\n2,2\n3,3\n");
    }
}
