//! Compact cells for Grundy values: one, two or four bytes a value, the narrowest that
//! holds every value seen so far.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering};

/// Bytes a stored value takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Width {
    /// One byte: values up to 255.
    One,
    /// Two bytes: values up to 65535.
    Two,
    /// Four bytes: any value.
    Four,
}

impl Width {
    /// The narrowest width that holds `value`.
    pub fn of(value: u32) -> Width {
        if value <= u32::from(u8::MAX) {
            Width::One
        } else if value <= u32::from(u16::MAX) {
            Width::Two
        } else {
            Width::Four
        }
    }

    /// Bytes a value.
    pub fn bytes(self) -> u64 {
        match self {
            Width::One => 1,
            Width::Two => 2,
            Width::Four => 4,
        }
    }

    /// The width from its byte count (1, 2 or 4).
    pub fn from_bytes(bytes: u64) -> Option<Width> {
        match bytes {
            1 => Some(Width::One),
            2 => Some(Width::Two),
            4 => Some(Width::Four),
            _ => None,
        }
    }

    /// Writes `value` (which fits this width) in little-endian order.
    pub fn encode(self, value: u32, out: &mut Vec<u8>) {
        match self {
            Width::One => out.push(value as u8),
            Width::Two => out.extend_from_slice(&(value as u16).to_le_bytes()),
            Width::Four => out.extend_from_slice(&value.to_le_bytes()),
        }
    }

    /// Reads the `index`-th value of this width from `bytes`.
    pub fn decode(self, bytes: &[u8], index: usize) -> u32 {
        match self {
            Width::One => u32::from(bytes[index]),
            Width::Two => u32::from(u16::from_le_bytes([bytes[2 * index], bytes[2 * index + 1]])),
            Width::Four => {
                let b = &bytes[4 * index..4 * index + 4];
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            }
        }
    }

    /// Calls `visit(first + i, value)` for the `i`-th value of this width in `bytes`, for
    /// every value `bytes` holds.
    pub(crate) fn visit_all(self, first: u64, bytes: &[u8], visit: &mut dyn FnMut(u64, u32)) {
        for i in 0..bytes.len() as u64 / self.bytes() {
            visit(first + i, self.decode(bytes, i as usize));
        }
    }
}

/// A machine type holding one Grundy value inside the engine's working window.
pub(crate) trait Cell: Copy + Default + Into<u32> + Send + Sync + 'static {
    /// The largest value the cell holds.
    const MAX: u32;
    /// The same cell shared between threads (plain loads and stores on x86-64).
    type Shared: SharedCell<Self>;
    /// Converts a value that fits.
    fn from_value(value: u32) -> Self;
    /// The value: the cell widened, the same for every width.
    fn value(self) -> u32 {
        self.into()
    }
}

impl Cell for u8 {
    const MAX: u32 = u8::MAX as u32;
    type Shared = AtomicU8;
    fn from_value(value: u32) -> Self {
        value as u8
    }
}

impl Cell for u16 {
    const MAX: u32 = u16::MAX as u32;
    type Shared = AtomicU16;
    fn from_value(value: u32) -> Self {
        value as u16
    }
}

impl Cell for u32 {
    const MAX: u32 = u32::MAX;
    type Shared = AtomicU32;
    fn from_value(value: u32) -> Self {
        value
    }
}

/// A cell that one thread writes and others read: the engine's ring of recent values,
/// written by the thread that computes values and read by the one that marks ahead.
pub(crate) trait SharedCell<C>: Default + Send + Sync {
    /// The value (a relaxed load: the hand-off between the threads, under its mutex,
    /// orders it).
    fn load(&self) -> C;
    /// Sets the value (a relaxed store, published by the hand-off).
    fn store(&self, value: C);
}

impl SharedCell<u8> for AtomicU8 {
    fn load(&self) -> u8 {
        AtomicU8::load(self, Ordering::Relaxed)
    }
    fn store(&self, value: u8) {
        AtomicU8::store(self, value, Ordering::Relaxed)
    }
}

impl SharedCell<u16> for AtomicU16 {
    fn load(&self) -> u16 {
        AtomicU16::load(self, Ordering::Relaxed)
    }
    fn store(&self, value: u16) {
        AtomicU16::store(self, value, Ordering::Relaxed)
    }
}

impl SharedCell<u32> for AtomicU32 {
    fn load(&self) -> u32 {
        AtomicU32::load(self, Ordering::Relaxed)
    }
    fn store(&self, value: u32) {
        AtomicU32::store(self, value, Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_round_trip_their_largest_values() {
        for (value, width) in [(0, Width::One), (255, Width::One), (256, Width::Two)]
            .into_iter()
            .chain([(65535, Width::Two), (65536, Width::Four), (u32::MAX, Width::Four)])
        {
            assert_eq!(Width::of(value), width, "{value}");
            let mut bytes = vec![7];
            width.encode(value, &mut bytes);
            assert_eq!(bytes.len() as u64, 1 + width.bytes());
            assert_eq!(width.decode(&bytes[1..], 0), value);
            assert_eq!(Width::from_bytes(width.bytes()), Some(width));
        }
    }
}
