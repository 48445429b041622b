//! Sorted tuples of multi-heap games: each position's options listed, sorted and looked up.
//!
//! A move of a symmetric game may change several heaps at once, so its option, sorted,
//! can land anywhere below the position; the row of a sorted prefix reads each option's
//! label from the table (every option whose sorted prefix differs lies in an earlier
//! layer). Moves of the last heap alone stay in the row and are Nim's, so the row holds
//! at most one P: the first free column none of whose other options is P.

use crate::engine::bits::{bit, set_bit};
use crate::engine::tuples::labelling::{Labelling, Scratch, Track};

impl Labelling<'_, '_, '_> {
    /// A row of sorted tuples (first column `lo`) of a multi-heap game, on every track.
    pub(crate) fn explicit_row(&self, scratch: &mut Scratch, lo: u32) {
        let e = self.engine;
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as u32);
        for (j, track) in self.tracks.iter().enumerate() {
            self.block_pass(j, scratch);
            for h in lo..r {
                if bit(&scratch.blocked[j * w..(j + 1) * w], h as usize) {
                    continue;
                }
                if !self.reaches_p(track, scratch, h) {
                    set_bit(&mut scratch.rows[j * w..(j + 1) * w], h as usize);
                    break;
                }
            }
        }
    }

    /// Whether some option of `(prefix, h)` outside the row is P on `track`. Options in
    /// the row are columns below `h`, all N (the scan stops at the row's P).
    fn reaches_p(&self, track: &Track<'_>, scratch: &mut Scratch, h: u32) -> bool {
        let e = self.engine;
        let options = e.position_options.as_ref().expect("options for sorted tuples");
        let tuples = e.layout.tuple_ranker().expect("a canonical layout");
        let k = e.layout.prefix_len();
        scratch.position.clear();
        scratch.position.extend_from_slice(&scratch.prefix);
        scratch.position.push(h);
        let (prefix, sorted) = (&scratch.prefix, &mut scratch.sorted);
        let mut found = false;
        options.for_each(&scratch.position, &mut scratch.other, &mut scratch.option, &mut |o| {
            if found {
                return;
            }
            sorted.clear();
            sorted.extend_from_slice(o);
            sorted.sort_unstable();
            if sorted[..k] != prefix[..] {
                found = track.table.bit(tuples.rank(sorted) as usize);
            }
        });
        found
    }
}
