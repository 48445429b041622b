//! Inputs named by a path: the kinds of file that must not be opened for reading (a
//! FIFO waits at open until a writer comes, for ever if none does; a socket cannot be
//! opened at all), found from the path's metadata before it is opened.

use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// `Some("a FIFO")` or `Some("a socket")` when opening `path` to read could wait for
/// ever or fail; `None` for a regular file, a directory, a device, or a path that does not
/// exist (opening it reports those).
pub fn waits_at_open(path: &Path) -> Option<&'static str> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_fifo() {
        Some("a FIFO")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        None
    }
}
