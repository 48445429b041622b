//! The lines of the `solve` table for a range of rows, built from per-row fields and tables.
//!
//! Everything a line shares with the other lines of its row (the prefix's numbers, the
//! prefix's Grundy XOR) is built once per row; the last heap, the Grundy XOR and value
//! come from a digit table, the labels from a table of every P/N pattern of the endings.

use std::ops::Range;

use crate::engine::tuples::layout::Layout;
use crate::engine::{GrundyValues, Labels};
use crate::export::lines::{field_len, put8, put_blocks, Numbers, Out, CHUNK_BYTES, SLOW_NUMBER};
use crate::export::table_memory;
use crate::model::game::Game;
use crate::model::position::PassState;

/// Which rows of a label table to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFilter {
    /// Every position.
    All,
    /// Only positions labelled P (the table must have exactly one ending).
    OnlyP,
    /// Only positions labelled N (the table must have exactly one ending).
    OnlyN,
}

/// What every line of one `solve` table needs.
pub(crate) struct LabelLines<'a> {
    labels: &'a [Labels],
    values: Option<&'a GrundyValues>,
    /// Heap Grundy values, for a sum's `gxor` column.
    grundy: Option<Vec<u32>>,
    numbers: Numbers,
    filter: RowFilter,
    /// 2 with a pass (used, then available), else 1.
    states: usize,
    /// `patterns[bits]`: `P`/`N` per ending (bit `e` = ending `e` is P), commas, newline;
    /// padded to 16 bytes for block copies.
    patterns: Vec<u8>,
    pattern_len: usize,
    /// Bytes of the longest line but its prefix (every number allowed the slow path).
    line_tail: usize,
    /// Bytes of the largest gxor and Grundy value with their commas.
    extra_digits: u64,
}

impl<'a> LabelLines<'a> {
    /// The lines of `labels` (one table per ending, of one space), with `values`.
    ///
    /// # Errors
    /// [`std::io::ErrorKind::OutOfMemory`] if the system refuses the digit table.
    pub(crate) fn new(
        game: &Game,
        labels: &'a [Labels],
        values: Option<&'a GrundyValues>,
        filter: RowFilter,
    ) -> std::io::Result<LabelLines<'a>> {
        let max = labels[0].space().max();
        let grundy = game.is_sum().then(|| game.grundy(max));
        // A XOR of Grundy values stays below the next power of two above the largest.
        let xor_limit = grundy.as_ref().map_or(0, |g| {
            let top = u64::from(g.iter().copied().max().unwrap_or(0));
            (top + 1).next_power_of_two() - 1
        });
        let value_limit = values.map_or(0, |v| u64::from(v.largest()));
        let numbers = Numbers::up_to(u64::from(max).max(xor_limit).max(value_limit))?;
        let extra_digits = grundy.as_ref().map_or(0, |_| field_len(xor_limit))
            + values.map_or(0, |_| field_len(value_limit));
        let (patterns, pattern_len) = patterns(labels.len());
        // The last heap, the pass, gxor and the value, any of them possibly beyond the table.
        let line_tail = 4 * SLOW_NUMBER + pattern_len;
        let states = if game.has_pass() { 2 } else { 1 };
        Ok(LabelLines {
            labels,
            values,
            grundy,
            numbers,
            filter,
            states,
            patterns,
            pattern_len,
            line_tail,
            extra_digits,
        })
    }

    fn layout(&self) -> &Layout {
        self.labels[0].layout()
    }

    /// Rows of the table.
    pub(crate) fn rows(&self) -> u64 {
        self.layout().rows()
    }

    /// A line of the largest numbers: the heaps, the pass, gxor, the value, the labels.
    fn line(&self) -> u64 {
        let space = self.layout().space();
        let heaps = field_len(u64::from(space.max())) * space.heaps() as u64;
        heaps + self.states as u64 + self.extra_digits + self.pattern_len as u64
    }

    /// Rows per chunk, so that a chunk writes about [`CHUNK_BYTES`].
    pub(crate) fn rows_per_chunk(&self) -> u64 {
        let layout = self.layout();
        let per_row = layout.positions() / layout.rows().max(1) * self.states as u64;
        CHUNK_BYTES / (per_row * self.line()).max(1)
    }

    /// Bytes of one chunk's buffer (see [`chunk_buffer_bytes`]).
    pub(crate) fn buffer_bytes(&self) -> usize {
        let layout = self.layout();
        let tail = self.line_tail as u64;
        table_memory::chunk_buffer_bytes(layout, self.states as u64, self.line(), tail) as usize
    }

    /// Appends the lines of the rows `rows` to `out`; returns how many.
    pub(crate) fn format(&self, rows: Range<u64>, out: &mut Out) -> u64 {
        let layout = self.layout();
        let (k, max) = (layout.prefix_len(), layout.space().max());
        let mut prefix = layout.prefix_of_row(rows.start);
        let mut index = layout.first_index(rows.start, &prefix, &mut Vec::with_capacity(k + 1));
        let mut prefix_bytes = Vec::with_capacity(8 * k + 16);
        let mut patterns = Vec::new();
        let mut lines = 0;
        for _ in rows {
            let lo = layout.lo(&prefix);
            prefix_bytes.clear();
            for &h in &prefix {
                self.numbers.extend(&mut prefix_bytes, u64::from(h));
            }
            let prefix_len = prefix_bytes.len();
            prefix_bytes.resize(prefix_len.next_multiple_of(16), 0);
            let prefix_xor = self
                .grundy
                .as_ref()
                .map_or(0, |g| prefix.iter().fold(0, |x, &h| x ^ u64::from(g[h as usize])));
            let columns = (max - lo + 1) as usize;
            self.row_patterns(index, columns, &mut patterns);
            let row = Row {
                lo,
                index,
                prefix: &prefix_bytes,
                prefix_len,
                prefix_xor,
                patterns: &patterns,
            };
            let room = columns * self.states * (prefix_len + self.line_tail);
            out.append(room, |buf| {
                let (bytes, written) = self.row_lines(&row, max, buf);
                lines += written;
                bytes
            });
            index += columns as u64;
            layout.next_prefix(&mut prefix);
        }
        lines
    }

    /// Fills `patterns` with the P/N pattern of each of the `columns` positions from index
    /// `index` (one row) in each state (column-major): the set bits of the endings' tables,
    /// visited once per row rather than once per line. Not inlined: compiled into the line
    /// loop of `format`, its bit scan cost the loop 3% more instructions (callgrind).
    #[inline(never)]
    fn row_patterns(&self, index: u64, columns: usize, patterns: &mut Vec<u8>) {
        patterns.clear();
        patterns.resize(columns * self.states, 0);
        let positions = index as usize..index as usize + columns;
        for s in 0..self.states {
            for (e, labels) in self.labels.iter().enumerate() {
                for c in labels.in_index_order(PassState::of(s == 1))[positions.clone()].iter_ones()
                {
                    patterns[c * self.states + s] |= 1 << e;
                }
            }
        }
    }

    /// Writes the lines of one row at the start of `buf`; returns the bytes and the lines.
    fn row_lines(&self, row: &Row<'_>, max: u32, buf: &mut [u8]) -> (usize, u64) {
        let stride = self.pattern_len.next_multiple_of(16);
        let (mut at, mut lines) = (0, 0);
        for (h, patterns) in (row.lo..=max).zip(row.patterns.chunks_exact(self.states)) {
            for (s, &pattern) in patterns.iter().enumerate() {
                let pattern = usize::from(pattern);
                let keep = match self.filter {
                    RowFilter::All => true,
                    RowFilter::OnlyP => pattern & 1 == 1,
                    RowFilter::OnlyN => pattern & 1 == 0,
                };
                if !keep {
                    continue;
                }
                at = put_blocks(buf, at, row.prefix, row.prefix_len);
                at = self.numbers.put(buf, at, u64::from(h));
                if self.states == 2 {
                    at = put8(
                        buf,
                        at,
                        if s == 1 { b"1,\0\0\0\0\0\0" } else { b"0,\0\0\0\0\0\0" },
                        2,
                    );
                }
                if let Some(g) = &self.grundy {
                    at = self.numbers.put(buf, at, row.prefix_xor ^ u64::from(g[h as usize]));
                }
                if let Some(values) = self.values {
                    let state = (row.index + u64::from(h - row.lo)) * self.states as u64;
                    at = self.numbers.put(buf, at, u64::from(values.values()[state as usize + s]));
                }
                at = put_blocks(buf, at, &self.patterns[pattern * stride..], self.pattern_len);
                lines += 1;
            }
        }
        (at, lines)
    }
}

/// One row being written: its first column and index, its prefix's bytes and XOR, and the
/// P/N pattern of each column and state (bit `e`: ending `e` is P).
struct Row<'r> {
    lo: u32,
    index: u64,
    prefix: &'r [u8],
    prefix_len: usize,
    prefix_xor: u64,
    patterns: &'r [u8],
}

/// The label fields of every P/N pattern of `endings` endings (`P,N,P\n`), each padded to
/// a multiple of 16 bytes, and their length.
fn patterns(endings: usize) -> (Vec<u8>, usize) {
    let len = 2 * endings;
    let stride = len.next_multiple_of(16);
    let mut patterns = vec![0u8; stride << endings];
    for bits in 0..1usize << endings {
        let pattern = &mut patterns[bits * stride..];
        for e in 0..endings {
            pattern[2 * e] = if bits >> e & 1 == 1 { b'P' } else { b'N' };
            pattern[2 * e + 1] = if e + 1 == endings { b'\n' } else { b',' };
        }
    }
    (patterns, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::export::lines::write_chunks;
    use crate::model::ending::Ending;
    use crate::model::space::{Mode, TupleSpace};
    use crate::NoProgress;
    use rayon::{ThreadPool, ThreadPoolBuilder};

    /// The table's lines the plain way: every position in index order, one `format!` per
    /// field, nothing shared between lines.
    fn plain_lines(
        game: &Game,
        labels: &[Labels],
        values: Option<&GrundyValues>,
        filter: RowFilter,
    ) -> String {
        let max = labels[0].space().max();
        let grundy = game.grundy(max);
        let states: &[bool] = if game.has_pass() { &[false, true] } else { &[false] };
        let mut text = String::new();
        for (index, (tuple, _)) in labels[0].iter_in(PassState::Used).enumerate() {
            for (s, &pass) in states.iter().enumerate() {
                let p: Vec<bool> =
                    labels.iter().map(|l| l.is_p_in(&tuple, PassState::of(pass))).collect();
                if (filter == RowFilter::OnlyP && !p[0]) || (filter == RowFilter::OnlyN && p[0]) {
                    continue;
                }
                let mut fields: Vec<String> = tuple.iter().map(u32::to_string).collect();
                if game.has_pass() {
                    fields.push(u8::from(pass).to_string());
                }
                if game.is_sum() {
                    fields.push(tuple.iter().fold(0, |x, &h| x ^ grundy[h as usize]).to_string());
                }
                if let Some(values) = values {
                    fields.push(values.values()[index * states.len() + s].to_string());
                }
                fields.extend(p.iter().map(|&p| if p { "P" } else { "N" }.to_string()));
                text += &format!("{}\n", fields.join(","));
            }
        }
        text
    }

    /// The table's lines by `LabelLines`, `per_chunk` rows at a time on a 2-thread pool.
    fn fast_lines(pool: &ThreadPool, lines: &LabelLines<'_>, per_chunk: u64) -> (String, u64) {
        let mut bytes = Vec::new();
        let count = pool
            .install(|| {
                write_chunks(
                    &mut bytes,
                    lines.rows(),
                    per_chunk,
                    lines.buffer_bytes(),
                    |rows, buf| lines.format(rows, buf),
                )
            })
            .expect("writing to memory");
        (String::from_utf8(bytes).expect("ASCII"), count)
    }

    fn games() -> Vec<Game> {
        let graph = Game::graph("graph:test", &[(1, 0), (2, 0), (2, 1), (3, 2), (70, 3), (65, 64)])
            .expect("every move lowers the heap");
        let subtract = Game::subtract(&[1, 3, 4]).expect("a subtraction set");
        let nonsums =
            [Game::wythoff(), Game::moore(2).expect("K = 2"), Game::circular(2).expect("K = 2")];
        let mut games = vec![Game::nim(), subtract, graph];
        games.extend(nonsums);
        let passes: Vec<Game> = games.iter().map(|g| g.clone().with_pass()).collect();
        games.extend(passes);
        games
    }

    #[test]
    fn lines_equal_a_plain_formatter_for_every_kind_of_table() {
        let pool = ThreadPoolBuilder::new().num_threads(2).build().expect("a pool");
        let mut tables = 0;
        for game in games() {
            let endings: &[Ending] = if game.is_sum() && !game.has_pass() {
                &Ending::ALL
            } else {
                &[Ending::Normal, Ending::Misere]
            };
            for (heaps, max) in [(1, 70), (2, 64), (3, 9)] {
                for mode in [Mode::Full, Mode::Canonical] {
                    if heaps < 2 && !game.is_sum()
                        || mode == Mode::Canonical && !game.is_symmetric()
                    {
                        continue;
                    }
                    let space = TupleSpace::in_mode(heaps, max, mode).expect("a small space");
                    let engine = Engine::new(&game, space.into());
                    let labels = engine.label_all(endings, &NoProgress).expect("labels");
                    let values = engine.grundy_values(&NoProgress).expect("Grundy values");
                    let one = std::slice::from_ref(&labels[1]);
                    let cases = [
                        (&labels[..], None, RowFilter::All),
                        (&labels[..], Some(&values), RowFilter::All),
                        (one, Some(&values), RowFilter::OnlyP),
                        (one, None, RowFilter::OnlyN),
                    ];
                    for (labels, values, filter) in cases {
                        let expected = plain_lines(&game, labels, values, filter);
                        let lines = LabelLines::new(&game, labels, values, filter).unwrap();
                        for per_chunk in [1, 3, lines.rows_per_chunk()] {
                            let (text, count) = fast_lines(&pool, &lines, per_chunk);
                            let what = format!("{} {heaps}x{max} {mode:?} {filter:?}", game.spec());
                            assert_eq!(text, expected, "{what}, {per_chunk} rows per chunk");
                            assert_eq!(count, expected.lines().count() as u64, "{what}");
                        }
                        tables += 1;
                    }
                }
            }
        }
        assert!(tables > 100, "{tables} tables compared");
    }
}
