//! Directory trees of outputs in tests: what stands under a directory, and the default
//! suite's output as an older run left it.

use std::collections::BTreeMap;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use crate::support::cli::Run;

/// What stands at a path, as far as the tests tell them apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file and its bytes.
    File(Vec<u8>),
    /// A directory.
    Dir,
    /// A FIFO.
    Fifo,
    /// A character device.
    CharDevice,
    /// Anything else (a symbolic link, a socket, a block device).
    Other,
}

/// Everything under `dir` (hidden entries too) by relative path.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Entry> {
    let mut entries = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            let found = if kind.is_dir() {
                todo.push(path.clone());
                Entry::Dir
            } else if kind.is_file() {
                Entry::File(std::fs::read(&path).unwrap())
            } else if kind.is_fifo() {
                Entry::Fifo
            } else if kind.is_char_device() {
                Entry::CharDevice
            } else {
                Entry::Other
            };
            entries.insert(name, found);
        }
    }
    entries
}

/// The default suite's data as an older run left it: the repository's files, one changed,
/// so that a mix of two runs shows; and an old report.
pub fn old_suite_output(root: &Path) -> (PathBuf, PathBuf) {
    let data = root.join("data");
    let repo_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for (name, entry) in snapshot(&repo_data) {
        match entry {
            Entry::Dir => std::fs::create_dir_all(data.join(&name)).unwrap(),
            Entry::File(bytes) => {
                std::fs::create_dir_all(data.join(&name).parent().unwrap()).unwrap();
                std::fs::write(data.join(&name), bytes).unwrap();
            }
            other => panic!("{name} is {other:?}"),
        }
    }
    let mut summary = std::fs::read(data.join("summary.csv")).unwrap();
    summary.extend_from_slice(b"an older run\n");
    std::fs::write(data.join("summary.csv"), summary).unwrap();
    let report = root.join("REPORT.md");
    std::fs::write(&report, "the old report\n").unwrap();
    (data, report)
}

pub fn suite_args<'a>(data: &'a Path, report: &'a Path) -> Vec<&'a str> {
    let (data, report) = (data.to_str().unwrap(), report.to_str().unwrap());
    vec!["--quiet", "suite", "--data-dir", data, "--report", report, "--bench", "none"]
}

/// Status 2 with one line on stderr holding `needle`; `what` names the run.
pub fn assert_refused(got: &Run, needle: &str, what: &str) {
    assert_eq!(got.status, 2, "{what}: {}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{what}: {}", got.stderr);
    assert!(got.stderr.contains(needle), "{what}: expected '{needle}' in {}", got.stderr);
}
