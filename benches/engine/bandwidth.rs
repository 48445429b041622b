//! The machine's streaming memory bandwidth: every word of a buffer far larger than the last-level cache read and written back, on every thread.
//!
//! Each thread owns a contiguous slice (its pages touched by an untimed first round) and
//! adds one to every 64-bit word of it; a round moves each byte twice (read and written).
//! The figure is the best of several rounds: other processes only ever slow a round down.
//! This is the traffic the engine's tables make, a read and a write streamed in order,
//! so the bandwidth-bound rate of the engine is this figure over 0.75 bytes a position
//! (3 endings' bits written once and read once).

use std::time::Instant;

/// Bytes of the buffer: 32 times a 32 MiB last-level cache.
pub const BUFFER_BYTES: usize = 1 << 30;

/// Timed rounds over the buffer.
pub const ROUNDS: usize = 8;

/// One measurement: the best round's bytes moved (read + written) per second.
pub struct Bandwidth {
    pub threads: usize,
    pub bytes_per_second: f64,
    pub median_bytes_per_second: f64,
}

/// Streams [`BUFFER_BYTES`] through `threads` threads [`ROUNDS`] times.
pub fn measure(threads: usize) -> Bandwidth {
    let words = BUFFER_BYTES / 8;
    // Zeroed pages are mapped when first written: the first round, which is not timed.
    let mut buffer = vec![0u64; words];
    let per_thread = words.div_ceil(threads);
    let mut rates = Vec::with_capacity(ROUNDS);
    for round in 0..=ROUNDS {
        let start = Instant::now();
        std::thread::scope(|scope| {
            for slice in buffer.chunks_mut(per_thread) {
                scope.spawn(move || add_one(slice));
            }
        });
        let seconds = start.elapsed().as_secs_f64();
        // The first round faults the pages in: not timed.
        if round > 0 {
            rates.push(2.0 * BUFFER_BYTES as f64 / seconds);
        }
    }
    // Keep the buffer's contents observable, so no round can be optimised away.
    assert!(buffer.iter().step_by(4096).all(|&w| w == ROUNDS as u64 + 1));
    rates.sort_by(f64::total_cmp);
    Bandwidth {
        threads,
        bytes_per_second: rates[rates.len() - 1],
        median_bytes_per_second: rates[rates.len() / 2],
    }
}

/// A read and a write of every word, in order.
fn add_one(slice: &mut [u64]) {
    for word in slice {
        *word = word.wrapping_add(1);
    }
}
