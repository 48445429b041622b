//! Where the values of a run live: in memory (one or two bytes a value, in segments as in
//! a file) or in a file on disk.

use crate::sequence::error::SequenceError;
use crate::sequence::values::disk_store::DiskStore;
use crate::sequence::values::layout::Layout;

/// Values held in memory, laid out as a values file would be.
#[derive(Debug, Default)]
pub struct MemoryStore {
    layout: Layout,
    bytes: Vec<u8>,
}

/// A run's values array.
#[derive(Debug)]
pub enum Store {
    /// In memory.
    Memory(MemoryStore),
    /// In a file.
    Disk(DiskStore),
}

impl Store {
    /// An empty store in memory, with room for `capacity` values of one byte (at most a
    /// mebibyte reserved now; it grows as values come, refusing memory the system
    /// refuses).
    pub fn in_memory(capacity: u64) -> Store {
        let bytes = Vec::with_capacity(capacity.min(1 << 20) as usize);
        Store::Memory(MemoryStore { layout: Layout::new(), bytes })
    }

    /// A store in memory holding `values`.
    ///
    /// # Errors
    /// Memory the system refuses.
    pub fn from_values(values: &[u32]) -> Result<Store, SequenceError> {
        let mut store = Store::in_memory(values.len() as u64);
        values.iter().try_for_each(|&v| store.push(v))?;
        Ok(store)
    }

    /// Values held.
    pub fn len(&self) -> u64 {
        match self {
            Store::Memory(m) => m.layout.len(),
            Store::Disk(d) => d.len(),
        }
    }

    /// Whether no value is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The segments.
    pub fn layout(&self) -> &Layout {
        match self {
            Store::Memory(m) => &m.layout,
            Store::Disk(d) => d.layout(),
        }
    }

    /// Appends a value.
    ///
    /// # Errors
    /// A disk store's write error.
    pub fn push(&mut self, value: u32) -> Result<(), SequenceError> {
        match self {
            Store::Memory(m) => {
                if m.bytes.len() + 4 > m.bytes.capacity() {
                    let more = m.bytes.capacity().max(1 << 16);
                    m.bytes.try_reserve(more).map_err(|_| SequenceError::MemoryTooSmall {
                        what: format!("{} values in memory", m.layout.len() + 1),
                        need_bytes: (m.bytes.capacity() + more) as u64,
                        limit_bytes: m.bytes.capacity() as u64,
                    })?;
                }
                let width = m.layout.push(value);
                width.encode(value, &mut m.bytes);
                Ok(())
            }
            Store::Disk(d) => d.push(value),
        }
    }

    /// Value `index` (`index < len`).
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn get(&mut self, index: u64) -> Result<u32, SequenceError> {
        match self {
            Store::Memory(m) => {
                let (offset, width) = m.layout.locate(index);
                Ok(width.decode(&m.bytes[offset as usize..], 0))
            }
            Store::Disk(d) => d.get(index),
        }
    }

    /// Calls `visit(index, value)` for every value of `start..end`, in order.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn for_each(
        &mut self,
        start: u64,
        end: u64,
        visit: &mut dyn FnMut(u64, u32),
    ) -> Result<(), SequenceError> {
        for (first, stop, offset, width) in self.layout().pieces(start, end) {
            match self {
                Store::Memory(m) => {
                    let len = ((stop - first) * width.bytes()) as usize;
                    width.visit_all(first, &m.bytes[offset as usize..offset as usize + len], visit);
                }
                Store::Disk(d) => d.visit_piece(first..stop, offset, width, visit)?,
            }
        }
        Ok(())
    }

    /// The values of `start..end`.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn read(&mut self, start: u64, end: u64) -> Result<Vec<u32>, SequenceError> {
        let mut values = Vec::with_capacity((end - start) as usize);
        self.for_each(start, end, &mut |_, v| values.push(v))?;
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_values_keep_their_widths_by_segment() {
        let mut store = Store::in_memory(4);
        for v in [3, 400, 5, 80_000, 6] {
            store.push(v).unwrap();
        }
        assert_eq!(store.read(0, 5).unwrap(), vec![3, 400, 5, 80_000, 6]);
        assert_eq!(store.get(2).unwrap(), 5);
        assert_eq!(store.layout().byte_len(), 1 + 2 * 2 + 4 * 2);
    }
}
