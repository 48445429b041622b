//! Finishing a commit whose run died in the middle of it (SIGKILL, a power cut): such a
//! run leaves its staging directory with a commit marker, written once every target was
//! checked and before the first rename. The marker says the staged files are complete
//! and may all go in place, so the next run that commits into the directory, holding its
//! lock (which the dead run held until its staging directory was gone), moves in the
//! files still staged and removes the rest: the directory holds that run's whole output,
//! never a mix. A staging directory without the marker belongs to a run still working,
//! left alone, or to one that died before its commit (its process id no longer runs),
//! removed.

use std::io;
use std::path::{Path, PathBuf};

use super::dir::check_target;
use super::paths::{left_by_dead_process, parent_of, staging_name};

/// The marker's name inside a staging directory.
pub const MARKER: &str = ".nimtab-commit";

/// Where the files a commit replaces are set aside, inside its staging directory.
pub const ASIDE: &str = ".nimtab-old";

/// Writes the marker into a staging directory, synced.
pub fn mark(staging: &Path) -> io::Result<()> {
    std::fs::File::create(staging.join(MARKER))?.sync_all()
}

/// Completes every marked commit left for the existing directory `dir`: its staging
/// directories inside it (`.nimtab-tmp-PID`) and beside it (`.NAME.nimtab-tmp-PID`).
/// The caller holds the directory's lock.
pub fn finish_dead_commits(dir: &Path) -> io::Result<()> {
    let beside = staging_name(dir);
    let prefix = beside.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = prefix.rsplit_once('-').map_or(String::new(), |(p, _)| format!("{p}-"));
    let mut left = stagings(dir, ".nimtab-tmp-");
    left.extend(stagings(parent_of(&beside), &prefix));
    for staging in left {
        if staging.join(MARKER).is_file() {
            move_in(&staging, &staging, dir)?;
            std::fs::remove_dir_all(&staging)?;
        } else if died_before_its_commit(&staging) {
            std::fs::remove_dir_all(&staging)?;
        }
    }
    Ok(())
}

/// Removes the staging directories that dead runs left beside the directory `dir`, which
/// does not exist yet: this run creates it whole, so nothing of theirs is wanted.
pub fn remove_dead_stagings_beside(dir: &Path) {
    let beside = staging_name(dir);
    let prefix = beside.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some((prefix, _)) = prefix.rsplit_once('-') else { return };
    for staging in stagings(parent_of(&beside), &format!("{prefix}-")) {
        // Marked or not: the directory is created by this run's commit.
        if std::fs::symlink_metadata(&staging).is_ok_and(|m| m.is_dir()) && dead(&staging) {
            let _ = std::fs::remove_dir_all(&staging);
        }
    }
}

/// Whether the staging directory `staging` was made by a process that no longer runs.
fn dead(staging: &Path) -> bool {
    let name = staging.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.rsplit_once('-')
        .is_some_and(|(prefix, _)| left_by_dead_process(&name, &format!("{prefix}-")))
}

/// Whether the unmarked staging directory `staging` belongs to a process that no longer
/// runs: it died before its commit, so nothing of it will go in place.
fn died_before_its_commit(staging: &Path) -> bool {
    let is_directory = std::fs::symlink_metadata(staging).is_ok_and(|m| m.is_dir());
    is_directory && !staging.join(MARKER).is_file() && dead(staging)
}

/// The directories in `dir` whose names start with `prefix`.
fn stagings(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect()
}

/// Moves every staged file under `at` (below `staging`) to its place in `dir`, except the
/// marker and the files set aside; a place that holds what a commit never replaces is
/// skipped.
fn move_in(staging: &Path, at: &Path, dir: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(at)? {
        let path = entry?.path();
        let name = path.strip_prefix(staging).unwrap_or(&path).to_path_buf();
        if name == Path::new(MARKER) || name == Path::new(ASIDE) {
            continue;
        }
        if path.is_dir() {
            move_in(staging, &path, dir)?;
        } else if check_target(dir, &name).is_ok() {
            let target = dir.join(&name);
            std::fs::create_dir_all(parent_of(&target))?;
            std::fs::rename(&path, &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_commit_of_a_dead_run_is_finished_an_unmarked_one_removed_a_live_one_kept() {
        let root = std::env::temp_dir().join(format!("nimtab-recover-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("out");
        // The dead run had put a.csv in place (the old one set aside), not yet b.csv or
        // plots/c.svg.
        let dead = dir.join(".nimtab-tmp-4000000");
        std::fs::create_dir_all(dead.join(ASIDE)).unwrap();
        std::fs::create_dir_all(dead.join("plots")).unwrap();
        std::fs::write(dir.join("a.csv"), "new a").unwrap();
        std::fs::write(dir.join("b.csv"), "old b").unwrap();
        std::fs::write(dead.join(ASIDE).join("a.csv"), "old a").unwrap();
        std::fs::write(dead.join("b.csv"), "new b").unwrap();
        std::fs::write(dead.join("plots/c.svg"), "new c").unwrap();
        mark(&dead).unwrap();
        // A run still working (this process) has no marker, nor has one that died before
        // its commit (a process id above the kernel's largest).
        let working = dir.join(format!(".nimtab-tmp-{}", std::process::id()));
        std::fs::create_dir_all(&working).unwrap();
        std::fs::write(working.join("b.csv"), "other b").unwrap();
        let died = dir.join(".nimtab-tmp-4194399");
        std::fs::create_dir_all(&died).unwrap();
        std::fs::write(died.join("b.csv"), "unfinished b").unwrap();
        finish_dead_commits(&dir).unwrap();
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(
            (read("a.csv"), read("b.csv"), read("plots/c.svg")),
            ("new a".into(), "new b".into(), "new c".into())
        );
        assert!(!dead.exists(), "the dead run's staging directory is gone");
        assert!(!died.exists(), "the unmarked staging directory of a dead run is gone");
        assert_eq!(std::fs::read_to_string(working.join("b.csv")).unwrap(), "other b");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
