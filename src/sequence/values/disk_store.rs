//! Values in a file: appended through a buffer, read back through a small cache of pages
//! (random reads) or in large chunks (sequential reads), with a running SHA-256 of every
//! byte written so that a checkpoint can name exactly the values it stands for.
//!
//! The file only grows: a new, wider segment starts when a larger value appears
//! (`layout.rs`), so a checkpoint's prefix of the file is never rewritten by the run that
//! follows it, and a process killed at any moment leaves that prefix intact.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::sequence::error::SequenceError;
use crate::sequence::values::cell::Width;
use crate::sequence::values::layout::Layout;

/// Bytes buffered before a write.
const WRITE_BUFFER: usize = 1 << 20;
/// Bytes of one cached page.
const PAGE: u64 = 1 << 16;
/// Pages cached (direct-mapped): 4 MiB.
const PAGES: usize = 64;
/// Bytes read at once by sequential reads.
const CHUNK: u64 = 1 << 20;

/// Resident bytes of a disk store besides its file: the write buffer, the page cache and
/// one chunk of a sequential read.
pub const DISK_STORE_RESIDENT: u64 = WRITE_BUFFER as u64 + PAGE * PAGES as u64 + CHUNK;

/// One cached page: which page, and how many of its bytes were in the file when read.
struct CachedPage {
    page: u64,
    valid: usize,
    bytes: Vec<u8>,
}

/// A values array in a file.
pub struct DiskStore {
    file: File,
    path: PathBuf,
    layout: Layout,
    /// Bytes written to the file; the buffer holds the bytes after them.
    written: u64,
    buffer: Vec<u8>,
    digest: Sha256,
    pages: Vec<Option<CachedPage>>,
}

impl std::fmt::Debug for DiskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiskStore").field("path", &self.path).field("len", &self.len()).finish()
    }
}

impl DiskStore {
    /// An empty store in `file` (opened for reading and writing, empty), named `path` in
    /// messages.
    pub fn new(file: File, path: &Path) -> DiskStore {
        DiskStore {
            file,
            path: path.to_path_buf(),
            layout: Layout::new(),
            written: 0,
            buffer: Vec::with_capacity(WRITE_BUFFER),
            digest: Sha256::new(),
            pages: (0..PAGES).map(|_| None).collect(),
        }
    }

    /// The store a checkpoint left: the first `layout.byte_len()` bytes of `file` must hash
    /// to `sha256`; anything after them (written after the checkpoint) is cut off by
    /// `DiskStore::cut_after_checkpoint` once the checkpoint is found good.
    ///
    /// # Errors
    /// [`SequenceError::BadCheckpoint`] naming `checkpoint` if the file is shorter or its
    /// bytes differ; [`SequenceError::File`] if it cannot be read or cut.
    pub fn resume(
        file: File,
        path: &Path,
        layout: Layout,
        sha256: &str,
        checkpoint: &Path,
    ) -> Result<DiskStore, SequenceError> {
        let mut store = DiskStore::new(file, path);
        let need = layout.byte_len();
        let bad = |reason: String| SequenceError::BadCheckpoint {
            path: checkpoint.to_path_buf(),
            reason,
        };
        let have = store.file.metadata().map_err(|e| store.failed("reading", e))?.len();
        if have < need {
            return Err(bad(format!(
                "its values file {} holds {have} bytes, fewer than the {need} it recorded",
                path.display()
            )));
        }
        let mut chunk = vec![0u8; CHUNK as usize];
        let mut at = 0;
        while at < need {
            let len = (need - at).min(CHUNK) as usize;
            store
                .file
                .read_exact_at(&mut chunk[..len], at)
                .map_err(|e| store.failed("reading", e))?;
            store.digest.update(&chunk[..len]);
            at += len as u64;
        }
        if hex(&store.digest.clone().finalize()) != sha256 {
            return Err(bad(format!(
                "its values file {} does not hold the values it recorded (digest differs)",
                path.display()
            )));
        }
        store.layout = layout;
        store.written = need;
        Ok(store)
    }

    /// Cuts off what was written after the checkpoint this store resumes, once the
    /// checkpoint has been found good: a checkpoint refused leaves its values file as it
    /// was.
    ///
    /// # Errors
    /// [`SequenceError::File`] if the file cannot be cut.
    pub(crate) fn cut_after_checkpoint(&mut self) -> Result<(), SequenceError> {
        self.file.set_len(self.written).map_err(|e| self.failed("writing", e))
    }

    fn failed(&self, action: &'static str, source: io::Error) -> SequenceError {
        SequenceError::File { action, path: self.path.clone(), source }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Values held.
    pub fn len(&self) -> u64 {
        self.layout.len()
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The segments of the file.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Appends a value.
    ///
    /// # Errors
    /// The file's write error (a full disk).
    pub fn push(&mut self, value: u32) -> Result<(), SequenceError> {
        let width = self.layout.push(value);
        width.encode(value, &mut self.buffer);
        if self.buffer.len() >= WRITE_BUFFER {
            self.write_buffer()?;
        }
        Ok(())
    }

    fn write_buffer(&mut self) -> Result<(), SequenceError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.file
            .write_all_at(&self.buffer, self.written)
            .map_err(|e| self.failed("writing", e))?;
        self.digest.update(&self.buffer);
        self.written += self.buffer.len() as u64;
        self.buffer.clear();
        Ok(())
    }

    /// Writes every value to the file and waits until the disk has them; returns the
    /// SHA-256 of the file's bytes.
    ///
    /// # Errors
    /// The file's write or sync error.
    pub fn make_durable(&mut self) -> Result<String, SequenceError> {
        self.write_buffer()?;
        self.file.sync_data().map_err(|e| self.failed("writing", e))?;
        Ok(hex(&self.digest.clone().finalize()))
    }

    /// Value `index` (`index < len`).
    ///
    /// # Errors
    /// The file's read error.
    pub fn get(&mut self, index: u64) -> Result<u32, SequenceError> {
        let (offset, width) = self.layout.locate(index);
        let mut bytes = [0u8; 4];
        for (i, byte) in bytes.iter_mut().take(width.bytes() as usize).enumerate() {
            *byte = self.byte(offset + i as u64)?;
        }
        Ok(width.decode(&bytes, 0))
    }

    fn byte(&mut self, offset: u64) -> Result<u8, SequenceError> {
        if offset >= self.written {
            return Ok(self.buffer[(offset - self.written) as usize]);
        }
        let page = offset / PAGE;
        let within = (offset % PAGE) as usize;
        let slot = (page % PAGES as u64) as usize;
        let fresh = match &self.pages[slot] {
            Some(cached) => cached.page != page || cached.valid <= within,
            None => true,
        };
        if fresh {
            let valid = (self.written - page * PAGE).min(PAGE) as usize;
            let mut bytes = self.pages[slot].take().map(|c| c.bytes).unwrap_or_default();
            bytes.resize(PAGE as usize, 0);
            self.file
                .read_exact_at(&mut bytes[..valid], page * PAGE)
                .map_err(|e| self.failed("reading", e))?;
            self.pages[slot] = Some(CachedPage { page, valid, bytes });
        }
        Ok(self.pages[slot].as_ref().map_or(0, |cached| cached.bytes[within]))
    }

    /// Calls `visit(index, value)` for every value of `start..end` (within the values
    /// held), in order.
    ///
    /// # Errors
    /// The file's read error.
    pub(crate) fn for_each(
        &mut self,
        start: u64,
        end: u64,
        visit: &mut dyn FnMut(u64, u32),
    ) -> Result<(), SequenceError> {
        for (first, stop, offset, width) in self.layout.pieces(start, end) {
            self.visit_piece(first..stop, offset, width, visit)?;
        }
        Ok(())
    }

    /// Calls `visit(index, value)` for every value of `piece`, values of one `width` from
    /// byte `offset` of the file on (a piece of one segment, [`Layout::pieces`]), read a
    /// chunk of whole values at a time.
    ///
    /// # Errors
    /// The file's read error.
    pub(crate) fn visit_piece(
        &mut self,
        piece: Range<u64>,
        offset: u64,
        width: Width,
        visit: &mut dyn FnMut(u64, u32),
    ) -> Result<(), SequenceError> {
        self.write_buffer()?;
        let mut chunk = Vec::new();
        let mut index = piece.start;
        while index < piece.end {
            let count = (piece.end - index).min(CHUNK / width.bytes());
            chunk.resize((count * width.bytes()) as usize, 0);
            let at = offset + (index - piece.start) * width.bytes();
            self.file.read_exact_at(&mut chunk, at).map_err(|e| self.failed("reading", e))?;
            width.visit_all(index, &chunk, visit);
            index += count;
        }
        Ok(())
    }
}

/// Lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The width recorded for a segment, for messages and tests.
pub fn width_name(width: Width) -> &'static str {
    match width {
        Width::One => "1",
        Width::Two => "2",
        Width::Four => "4",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::values::store::Store;

    fn temp_file(name: &str) -> (File, PathBuf) {
        let path =
            std::env::temp_dir().join(format!("nimtab-disk-store-{name}-{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        (file, path)
    }

    #[test]
    fn values_read_back_through_pages_chunks_and_the_buffer() {
        let (file, path) = temp_file("read");
        let mut store = DiskStore::new(file, &path);
        let values: Vec<u32> =
            (0..300_000u32).map(|i| (i * 7919) % 300 + (i / 200_000) * 70_000).collect();
        for &v in &values {
            store.push(v).unwrap();
        }
        for i in [0, 1, 255, 100_000, 199_999, 200_000, 299_999] {
            assert_eq!(store.get(i).unwrap(), values[i as usize], "{i}");
        }
        let digest = store.make_durable().unwrap();
        let mut store = Store::Disk(store);
        let mut seen = Vec::new();
        store.for_each(0, values.len() as u64, &mut |_, v| seen.push(v)).unwrap();
        assert_eq!(seen, values);
        let layout = store.layout().clone();
        drop(store);
        let file = std::fs::OpenOptions::new().read(true).write(true).open(&path).unwrap();
        let mut resumed = DiskStore::resume(file, &path, layout.clone(), &digest, &path).unwrap();
        assert_eq!(resumed.get(123_456).unwrap(), values[123_456]);
        let file = std::fs::OpenOptions::new().read(true).write(true).open(&path).unwrap();
        let wrong = DiskStore::resume(file, &path, layout, &hex(&[0; 32]), &path).unwrap_err();
        assert!(wrong.to_string().contains("digest differs"), "{wrong}");
        std::fs::remove_file(&path).unwrap();
    }
}
