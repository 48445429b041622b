//! The one type every output is written through: a [`Format`] turns what it holds into bytes.

use std::io::{self, Write};

/// An output's bytes, written to any `io::Write`. The binary's staging writer takes a
/// `Format` and decides where the bytes go (stdout, a file under a temporary name, a file
/// of a directory of outputs); the format decides only what they are.
pub trait Format {
    /// What writing gives back besides the bytes: `()` for most formats; a table
    /// labelled while it is written returns what it found.
    type Written;

    /// Writes the bytes to `out`.
    ///
    /// # Errors
    /// The writer's I/O error (its own kind: a closed pipe stays a closed pipe), or a
    /// computation's error carried as an I/O error by a [`Streamed`] format.
    fn write_to(self, out: &mut dyn Write) -> io::Result<Self::Written>;
}

/// Bytes already formatted (a checkpoint, a table built whole).
#[derive(Clone, Copy, Debug)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Format for Bytes<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.0)
    }
}

/// A format produced while it is written: a function that writes the bytes as the work
/// makes them (a table labelled row by row, a sweep's rows batch by batch), so that no
/// output is held whole in memory. Made by [`streamed`].
pub struct Streamed<F>(F);

impl<F> std::fmt::Debug for Streamed<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Streamed")
    }
}

/// The format `write` writes as it goes.
pub fn streamed<T, F: FnOnce(&mut dyn Write) -> io::Result<T>>(write: F) -> Streamed<F> {
    Streamed(write)
}

impl<T, F: FnOnce(&mut dyn Write) -> io::Result<T>> Format for Streamed<F> {
    type Written = T;

    fn write_to(self, out: &mut dyn Write) -> io::Result<T> {
        (self.0)(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_streamed_formats_write_what_they_hold_and_give_back_their_value() {
        let mut out = Vec::new();
        Bytes(b"a,b\n").write_to(&mut out).unwrap();
        let rows = streamed(|w| w.write_all(b"1,2\n").map(|()| 1)).write_to(&mut out).unwrap();
        assert_eq!((out.as_slice(), rows), (&b"a,b\n1,2\n"[..], 1));
    }
}
