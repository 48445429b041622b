//! A fast hash for the forms' tables: their keys are small ids, made by this process, so
//! the protection of the standard hash against chosen keys buys nothing and costs most of
//! a sum's time.

use std::hash::{BuildHasherDefault, Hasher};

/// The multiply-rotate hash of the Firefox and rustc compilers, word by word.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(u64);

/// The multiplier: an odd constant with well-spread bits.
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("a chunk of 8 bytes")));
        }
        let mut rest = [0u8; 8];
        let tail = chunks.remainder();
        rest[..tail.len()].copy_from_slice(tail);
        self.add(u64::from_le_bytes(rest));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

/// The hash tables of the forms.
pub type IdMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<IdHasher>>;
