//! Fast CSV lines: numbers from a decimal table, fixed-size copies, chunks formatted in parallel and written in order.
//!
//! A table of millions of lines is bound by the formatter, not the disk, if every number
//! is divided by ten digit by digit and every field is a copy call. Here each value up to
//! a limit has its digits and comma precomputed in an 8-byte entry, and a line is built by
//! fixed-size copies into a slice with slack (a copy may run past its field; the cursor
//! advances by the field's length and the next field overwrites the rest). A table is cut
//! into chunks of rows formatted on rayon's threads and written in order, so the bytes do
//! not depend on the thread count.

use std::io::{self, Write};
use std::ops::Range;

use rayon::prelude::*;

/// Bytes of a number entry: at most 7 digits and a comma.
const ENTRY: usize = 8;

/// The largest value with an entry (7 digits; heap sizes are below 2^22).
const ENTRY_LIMIT: u32 = 9_999_999;

/// Bytes a buffer keeps beyond any field written, so fixed-size copies stay inside it.
pub(crate) const SLACK: usize = 32;

/// Bytes of a number written the slow way (beyond the digit table): 20 digits and a comma.
pub(crate) const SLOW_NUMBER: usize = 21;

/// The decimal digits of every value `0..=limit`, each followed by a comma.
#[derive(Clone, Debug)]
pub(crate) struct Numbers {
    entries: Vec<[u8; ENTRY]>,
    lens: Vec<u8>,
}

impl Numbers {
    /// Bytes of the entries for `0..=limit`.
    pub(crate) fn bytes(limit: u64) -> u64 {
        (limit.min(u64::from(ENTRY_LIMIT)) + 1) * (ENTRY as u64 + 1)
    }

    /// Entries for `0..=limit` (capped at 7 digits; larger values take the slow path).
    ///
    /// # Errors
    /// [`io::ErrorKind::OutOfMemory`] if the system refuses the table.
    pub(crate) fn up_to(limit: u64) -> io::Result<Numbers> {
        let limit = limit.min(u64::from(ENTRY_LIMIT)) as usize;
        let (mut entries, mut lens) = (Vec::new(), Vec::new());
        let refused = |_| refused(Numbers::bytes(limit as u64));
        entries.try_reserve_exact(limit + 1).map_err(refused)?;
        lens.try_reserve_exact(limit + 1).map_err(refused)?;
        // A decimal odometer: the digits of v + 1 from those of v, without divisions.
        let mut digits = [b'0'; 7];
        let mut len = 1usize;
        for _ in 0..=limit {
            let mut entry = [0u8; ENTRY];
            entry[..len].copy_from_slice(&digits[7 - len..]);
            entry[len] = b',';
            entries.push(entry);
            lens.push(len as u8 + 1);
            let mut i = 6;
            loop {
                if digits[i] < b'9' {
                    digits[i] += 1;
                    break;
                }
                digits[i] = b'0';
                if i == 0 {
                    break;
                }
                i -= 1;
            }
            len = len.max(7 - i);
        }
        Ok(Numbers { entries, lens })
    }

    /// Writes `value` and a comma at `buf[at..]` (which has [`SLOW_NUMBER`] bytes of room
    /// and [`SLACK`] beyond); returns the cursor after them.
    #[inline(always)]
    pub(crate) fn put(&self, buf: &mut [u8], at: usize, value: u64) -> usize {
        match self.entries.get(value as usize) {
            Some(entry) => put8(buf, at, entry, usize::from(self.lens[value as usize])),
            None => put_slow(buf, at, value),
        }
    }

    /// The bytes of `value` and its comma, for a field built once and copied per line.
    pub(crate) fn extend(&self, bytes: &mut Vec<u8>, value: u64) {
        let mut field = [0u8; SLOW_NUMBER + SLACK];
        let len = self.put(&mut field, 0, value);
        bytes.extend_from_slice(&field[..len]);
    }
}

/// Copies the 8 bytes of `bytes` to `buf[at..]` and keeps the first `n`; returns the
/// cursor after them.
#[inline(always)]
pub(crate) fn put8(buf: &mut [u8], at: usize, bytes: &[u8; 8], n: usize) -> usize {
    buf[at..at + 8].copy_from_slice(bytes);
    at + n
}

/// Copies `bytes`, which holds `n` bytes rounded up to a multiple of 16 (a field built
/// with padding), to `buf[at..]` 16 bytes at a time and keeps the first `n`; returns the
/// cursor after them.
#[inline(always)]
pub(crate) fn put_blocks(buf: &mut [u8], at: usize, bytes: &[u8], n: usize) -> usize {
    let mut done = 0;
    while done < n {
        let block: &[u8; 16] = bytes[done..done + 16].try_into().expect("16 bytes");
        buf[at + done..at + done + 16].copy_from_slice(block);
        done += 16;
    }
    at + n
}

/// The decimal digits of `value`, right-aligned in `digits`; returns where they start.
fn decimal(mut value: u64, digits: &mut [u8; 20]) -> usize {
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return i;
        }
    }
}

/// Appends the decimal digits of `value` to `buf` (tables written a line at a time).
pub(crate) fn push_decimal(buf: &mut Vec<u8>, value: u64) {
    let mut digits = [0u8; 20];
    let start = decimal(value, &mut digits);
    buf.extend_from_slice(&digits[start..]);
}

/// Writes `value` in decimal and a comma the slow way (values beyond the table).
#[inline(never)]
fn put_slow(buf: &mut [u8], at: usize, value: u64) -> usize {
    let mut digits = [0u8; 20];
    let start = decimal(value, &mut digits);
    let n = digits.len() - start;
    buf[at..at + n].copy_from_slice(&digits[start..]);
    buf[at + n] = b',';
    at + n + 1
}

/// A growable byte buffer that always keeps [`SLACK`] bytes beyond the room asked for, so
/// the fixed-size copies of [`put8`] and [`put_blocks`] never need a check of their own.
#[derive(Clone, Debug, Default)]
pub(crate) struct Out {
    buf: Vec<u8>,
    len: usize,
}

impl Out {
    /// An empty buffer with room for `bytes`, or [`io::ErrorKind::OutOfMemory`] if the
    /// system refuses it.
    pub(crate) fn try_with_capacity(bytes: usize) -> io::Result<Out> {
        let mut buf = Vec::new();
        buf.try_reserve_exact(bytes + SLACK).map_err(|_| refused(bytes as u64))?;
        buf.resize(bytes + SLACK, 0);
        Ok(Out { buf, len: 0 })
    }

    /// Lets `fill` write at most `bytes` bytes (plus [`SLACK`] of overrun) at the end of
    /// the buffer; `fill` returns how many it wrote.
    #[inline]
    pub(crate) fn append(&mut self, bytes: usize, fill: impl FnOnce(&mut [u8]) -> usize) {
        if self.len + bytes + SLACK > self.buf.len() {
            self.buf.resize((self.len + bytes + SLACK).max(2 * self.buf.len()), 0);
        }
        let written = fill(&mut self.buf[self.len..]);
        debug_assert!(written <= bytes, "a field ran past the room asked for");
        self.len += written;
    }

    /// The bytes written so far.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Forgets the bytes written, keeping the memory.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

/// Bytes of output a chunk aims at: large enough that a chunk's set-up and its write call
/// are negligible, small enough that two batches of chunks per thread stay in cache-sized
/// memory.
pub(crate) const CHUNK_BYTES: u64 = 1 << 20;

/// Memory the system refused for an output table's buffers, as an I/O error (the
/// writers' error type).
fn refused(bytes: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::OutOfMemory,
        format!("the system refused {bytes} bytes of output buffers"),
    )
}

/// Buffers [`write_chunks`] keeps at once: two batches of two chunks per thread.
pub(crate) fn chunk_buffers() -> u64 {
    4 * rayon::current_num_threads() as u64
}

/// Writes `items` items (rows of a table) formatted by `format` into `out`, in order.
///
/// The items are cut into chunks of `per_chunk` items; batches of chunks are formatted in
/// parallel on rayon's pool (`format(range, buffer)` appends the lines of the items in
/// `range` and returns how many lines it wrote) and written one after the other, so the
/// bytes are those of a sequential run whatever the thread count. A batch is written
/// while the next one is formatted, so a slow disk and the formatter overlap. Every
/// buffer ([`chunk_buffers`] of them) is allocated first, with room for `buffer_bytes`
/// (a chunk's lines). Returns the lines written. Stops at the first write error.
///
/// # Errors
/// The writer's error; [`io::ErrorKind::OutOfMemory`] if the system refuses the buffers.
pub(crate) fn write_chunks<W: Write + ?Sized>(
    out: &mut W,
    items: u64,
    per_chunk: u64,
    buffer_bytes: usize,
    format: impl Fn(Range<u64>, &mut Out) -> u64 + Sync,
) -> io::Result<u64> {
    let per_chunk = per_chunk.max(1);
    let chunks = items.div_ceil(per_chunk);
    // A few chunks per thread per batch, so work stealing evens out unequal chunks.
    let batch = chunk_buffers() / 2;
    let buffers = || -> io::Result<Vec<(Out, u64)>> {
        let count = batch.min(chunks) as usize;
        (0..count).map(|_| Ok((Out::try_with_capacity(buffer_bytes)?, 0))).collect()
    };
    // Formats the batch from chunk `first` on into `buffers`; returns how many it filled.
    let format_batch = |first: u64, buffers: &mut Vec<(Out, u64)>| {
        let count = batch.min(chunks.saturating_sub(first)) as usize;
        buffers[..count].par_iter_mut().enumerate().for_each(|(i, (buf, written))| {
            let chunk = first + i as u64;
            let range = chunk * per_chunk..((chunk + 1) * per_chunk).min(items);
            buf.clear();
            *written = format(range, buf);
        });
        count
    };
    let (mut ready, mut next) = (buffers()?, buffers()?);
    let mut filled = format_batch(0, &mut ready);
    let mut lines = 0u64;
    let mut first = 0u64;
    while filled > 0 {
        first += filled as u64;
        // The next batch is formatted on the pool while this thread writes (the writer
        // need not be `Send`).
        let mut next_filled = 0;
        let written = rayon::in_place_scope(|scope| {
            scope.spawn(|_| next_filled = format_batch(first, &mut next));
            let mut lines = 0;
            for (buf, written) in &ready[..filled] {
                out.write_all(buf.bytes())?;
                lines += written;
            }
            Ok::<u64, io::Error>(lines)
        });
        lines += written?;
        filled = next_filled;
        std::mem::swap(&mut ready, &mut next);
    }
    Ok(lines)
}

/// Bytes of `value` in decimal and its comma.
pub(crate) fn field_len(value: u64) -> u64 {
    u64::from(value.checked_ilog10().unwrap_or(0)) + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_the_decimal_digits_and_a_comma() {
        let numbers = Numbers::up_to(120_000).unwrap();
        let values = (0..=120_010u64).chain([9_999_999, 10_000_000, 123_456_789, u64::MAX]);
        for value in values {
            let mut out = Out::try_with_capacity(0).unwrap();
            out.append(SLOW_NUMBER, |buf| numbers.put(buf, 0, value));
            assert_eq!(out.bytes(), format!("{value},").as_bytes());
        }
        let mut bytes = Vec::new();
        numbers.extend(&mut bytes, 99);
        numbers.extend(&mut bytes, 10_000_000);
        assert_eq!(bytes, b"99,10000000,");
    }

    #[test]
    fn chunks_are_written_in_order_whatever_their_size() {
        let format = |range: Range<u64>, out: &mut Out| {
            for v in range.clone() {
                out.append(SLOW_NUMBER, |buf| put_slow(buf, 0, v));
            }
            range.end - range.start
        };
        let expected: String = (0..1000).map(|v| format!("{v},")).collect();
        for per_chunk in [1, 7, 1000, 5000] {
            let mut bytes = Vec::new();
            let written = write_chunks(&mut bytes, 1000, per_chunk, 64, format).unwrap();
            assert_eq!(written, 1000);
            assert_eq!(String::from_utf8(bytes).unwrap(), expected);
        }
    }
}
