//! The memory the `solve` table's writer allocates: its digit table, the heaps' Grundy
//! values and the buffers of the chunks it formats at once, planned before a run.

use crate::engine::tuples::layout::{Layout, Rankers};
use crate::export::lines::field_len;
use crate::export::lines::{chunk_buffers, Numbers, CHUNK_BYTES, SLACK, SLOW_NUMBER};
use crate::model::game::Game;
use crate::model::space::TupleSpace;

/// Bytes of a chunk's buffer, so that it never grows: the lines of a chunk's rows (a
/// chunk of [`LabelLines::rows_per_chunk`] rows, each at most a full row, of lines of at
/// most `line` bytes), and the room [`LabelLines::format`] asks for one more row (lines
/// of the prefix's padded digits and `tail` bytes), and the row's P/N patterns.
pub(crate) fn chunk_buffer_bytes(layout: &Layout, states: u64, line: u64, tail: u64) -> u64 {
    let space = layout.space();
    let (radix, k) = (space.radix(), layout.prefix_len() as u64);
    let full_row = radix * states;
    let per_row = (layout.positions() / layout.rows().max(1) * states).max(1);
    let rows = (CHUNK_BYTES / (per_row * line).max(1)).max(1);
    let room = full_row * (8 * k + 16 + tail);
    (rows * full_row * line).saturating_add(room).saturating_add(full_row + SLACK as u64)
}

/// At least the bytes [`LabelLines`] and the writing of its chunks allocate for a table
/// of `space` with `endings` endings, and a column of the positions' Grundy values if
/// `values` bounds the largest: the digit table (up to the largest heap, Grundy XOR and
/// value), the game's Grundy values, and every chunk buffer.
pub(crate) fn table_bytes(
    game: &Game,
    space: TupleSpace,
    endings: usize,
    values: Option<u64>,
) -> u64 {
    let max = u64::from(space.max());
    let states = if game.has_pass() { 2 } else { 1 };
    // A heap's Grundy value is at most its option count, so at most its size.
    let xor_limit = if game.is_sum() { (max + 1).next_power_of_two() - 1 } else { 0 };
    let value_limit = values.unwrap_or(0);
    let numbers = Numbers::bytes(max.max(xor_limit).max(value_limit));
    let extra = if game.is_sum() { field_len(xor_limit) } else { 0 } + values.map_or(0, field_len);
    let pattern_len = 2 * endings as u64;
    let line = field_len(max) * space.heaps() as u64 + states + extra + pattern_len;
    let layout = Layout::new(space, Rankers::Skip);
    let tail = 4 * SLOW_NUMBER as u64 + pattern_len;
    let buffer = chunk_buffer_bytes(&layout, states, line, tail);
    let patterns = 16u64 << endings;
    numbers + (max + 1) * 4 + patterns + chunk_buffers() * buffer
}
