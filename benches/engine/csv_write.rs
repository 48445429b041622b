//! The `solve` table written to /dev/null: the library's writer, and the plain writer it replaced, on labels computed before timing.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use nimtab::export::labels_csv::{write_label_table, RowFilter};
use nimtab::model::enumerate::Tuples;
use nimtab::model::position::PassState;
use nimtab::model::space::TupleSpace;
use nimtab::{Ending, Engine, Game, Labels, NoProgress};

use crate::measure::cpu_seconds;

/// The space written: nim, 3 heaps of at most 511, the three endings (134 million rows).
pub const HEAPS: usize = 3;
pub const MAX: u32 = 511;

/// One timed write: bytes and rows over wall and CPU seconds.
pub struct TableWrite {
    pub bytes: u64,
    pub rows: u64,
    pub seconds: f64,
    pub cpu: f64,
}

/// Labels the space, then times `writer` (`library` or `plain`) writing its table.
pub fn measure(writer: &str) -> Result<TableWrite, String> {
    let game = Game::nim();
    let space = TupleSpace::new(HEAPS, MAX).map_err(|e| e.to_string())?;
    let engine = Engine::new(&game, space.into());
    let labels = engine.label_all(&Ending::ALL, &NoProgress).map_err(|e| e.to_string())?;
    let null = File::create("/dev/null").map_err(|e| e.to_string())?;
    let mut out = Counting { inner: null, bytes: 0 };
    let (cpu_start, start) = (cpu_seconds(), Instant::now());
    let rows = match writer {
        "library" => write_label_table(&mut out, &game, &labels, RowFilter::All),
        "plain" => {
            let mut buffered = BufWriter::with_capacity(1 << 16, &mut out);
            plain_table(&mut buffered, &game, &labels).and_then(|rows| {
                buffered.flush()?;
                Ok(rows)
            })
        }
        _ => return Err(format!("unknown writer '{writer}' (library or plain)")),
    }
    .map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(TableWrite { bytes: out.bytes, rows, seconds, cpu: cpu_seconds() - cpu_start })
}

/// A writer that counts the bytes it passes on.
struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The writer the library had before its chunked one, kept as the baseline: one row at a
/// time, digits by division, one `write_all` per row (into the command's 64 KiB buffer), one thread. Sums without a pass only.
fn plain_table<W: Write>(out: &mut W, game: &Game, labels: &[Labels]) -> io::Result<u64> {
    let space = labels[0].space();
    let (n, max) = (space.heaps(), space.max());
    let grundy = game.grundy(max);
    let names: Vec<&str> = labels.iter().map(|l| l.ending().name()).collect();
    let heaps: Vec<String> = (1..=n).map(|i| format!("h{i}")).collect();
    writeln!(out, "{},gxor,{}", heaps.join(","), names.join(","))?;
    let mut rows = 0;
    let mut line = Vec::with_capacity(16 * (n + 4));
    let mut result = Ok(());
    Tuples::new(n - 1, 0, max).for_each(|prefix| {
        if result.is_err() {
            return;
        }
        let prefix_gxor = prefix.iter().fold(0, |x, &h| x ^ grundy[h as usize]);
        let bits: Vec<_> = labels.iter().map(|l| l.row_in(prefix, PassState::Used).1).collect();
        for h in 0..=max {
            line.clear();
            for &p in prefix {
                push_number(&mut line, u64::from(p));
                line.push(b',');
            }
            push_number(&mut line, u64::from(h));
            line.push(b',');
            push_number(&mut line, u64::from(prefix_gxor ^ grundy[h as usize]));
            for row in &bits {
                line.extend_from_slice(if row[h as usize] { b",P" } else { b",N" });
            }
            line.push(b'\n');
            rows += 1;
            if let Err(e) = out.write_all(&line) {
                result = Err(e);
                return;
            }
        }
    });
    result.map(|()| rows)
}

/// Appends the decimal digits of `value`, a byte at a time.
fn push_number(buf: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    for &digit in &digits[i..] {
        buf.push(digit);
    }
}
