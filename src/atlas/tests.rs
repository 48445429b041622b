//! The atlas's own tests: entries assembled, files named, runs on disk, resumed, cancelled
//! and timed.

use super::*;

fn atlas(codes: &str) -> Atlas {
    let settings = AtlasSettings::new(1 << 10, 1 << 12, 8, 64);
    let codes = Games::Text(codes.to_string());
    AtlasRequest { codes, force: false, settings }.plan().unwrap()
}

#[test]
fn the_dense_budget_is_lowered_to_the_budget() {
    assert_eq!(atlas("0.07").settings().dense_budget, 1 << 10);
}

#[test]
fn entries_computed_elsewhere_are_assembled_in_the_atlas_s_order_each_code_once() {
    let atlas = atlas("0.77;0.07;0.137");
    let mut entries = atlas.solve(Vec::new(), &Quiet).unwrap();
    let order: Vec<String> = entries.iter().map(|e| e.code.clone()).collect();
    assert_eq!(order, ["0.07", "0.137", "0.77"]);
    entries.reverse();
    assert_eq!(
        atlas.assemble(entries.clone()).unwrap(),
        atlas.solve(entries.clone(), &Quiet).unwrap()
    );
    let message = |entries: Vec<Entry>| atlas.assemble(entries).unwrap_err().to_string();
    assert_eq!(message(entries[1..].to_vec()), "no entry for 0.77");
    let twice = [entries.clone(), entries[..1].to_vec()].concat();
    assert_eq!(message(twice), "0.77 has two entries");
    let mut other = entries.clone();
    other[0].settings.budget = 1 << 11;
    let foreign = "the entry of 0.77 is not of this atlas (another code, or other settings)";
    assert_eq!(message(other), foreign);
}

#[test]
fn the_files_of_an_atlas_are_its_three_tables_then_each_unsolved_class_s_rare_heaps() {
    // At 2^13 heaps 0.16's rare heaps are few enough (one in 32) to split.
    let settings = AtlasSettings::new(1 << 13, 1 << 13, 8, 64);
    let codes = Games::Text("0.16;0.07;0.61".to_string());
    let atlas = AtlasRequest { codes, force: false, settings }.plan().unwrap();
    let entries = atlas.solve(Vec::new(), &Quiet).unwrap();
    let classes = classes(&entries);
    let files = files::atlas_files(atlas.settings(), &entries, &classes);
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["atlas.csv", "classes.csv", "atlas.json", "rare/0.16.csv"]);
    let mut written = Vec::new();
    files[0].write_to(&mut written).unwrap();
    let mut direct = Vec::new();
    files::write_atlas_csv(&mut direct, &entries, &classes).unwrap();
    assert_eq!(written, direct);
    let mut rare = Vec::new();
    files[3].write_to(&mut rare).unwrap();
    assert!(rare.starts_with(b"heap,grundy\n0,0\n"), "{}", String::from_utf8_lossy(&rare));
}

/// A scratch work directory for one test, removed with it.
fn work_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The atlas of codes whose values split at 2^16 (0.16, 0.36, 0.64) and others, run
/// to 2^17.
fn split_atlas() -> Atlas {
    let settings = AtlasSettings::new(1 << 17, 1 << 16, 6, 64);
    let codes = Games::Text("0.16;0.36;0.64;0.07;0.137".to_string());
    AtlasRequest { codes, force: false, settings }.plan().unwrap()
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn runs_with_their_values_on_disk_give_the_entries_of_runs_in_memory_and_leave_no_files() {
    let scratch = work_dir();
    let dir = scratch.path().to_path_buf();
    let work = WorkDir::new(&dir, std::time::Duration::ZERO).with_disk_from(1 << 16);
    let in_memory = split_atlas().solve(Vec::new(), &Quiet).unwrap();
    let on_disk = split_atlas().with_work_dir(work).solve(Vec::new(), &Quiet).unwrap();
    assert_eq!(on_disk, in_memory);
    assert_eq!(in_memory.iter().filter(|e| e.stopped == Stop::Budget).count(), 3);
    assert_eq!(names(&dir), Vec::<String>::new());
}

/// Cancels the run once a checkpoint of `code` records at least `heaps` heaps.
struct CancelAt {
    checkpoint: std::path::PathBuf,
    heaps: u64,
}

impl AtlasObserver for CancelAt {
    fn cancelled(&self) -> bool {
        let bytes = std::fs::read(&self.checkpoint).unwrap_or_default();
        crate::sequence::Checkpoint::heaps_of(&bytes).is_some_and(|n| n >= self.heaps)
    }
}

#[test]
fn a_cancelled_run_resumes_from_its_checkpoints_to_the_entries_of_a_run_never_stopped() {
    let scratch = work_dir();
    let dir = scratch.path().to_path_buf();
    let work = WorkDir::new(&dir, std::time::Duration::ZERO).with_disk_from(1 << 16);
    let atlas = split_atlas().with_work_dir(work.clone());
    let code = AtlasCode::parse("0.64").unwrap();
    let stop = CancelAt { checkpoint: work.checkpoint_path(&code), heaps: 3 << 15 };
    let stopped = atlas.solve(Vec::new(), &stop);
    assert!(matches!(stopped, Err(AtlasError::Cancelled)), "{stopped:?}");
    assert!(names(&dir).contains(&"0.64.values".to_string()), "{:?}", names(&dir));
    // A damaged checkpoint of another code is computed again from heap 0.
    std::fs::write(dir.join("0.36.checkpoint"), "nimtab sequence checkpoint\nformat 1\n").unwrap();
    let resumed = atlas.solve(Vec::new(), &Quiet).unwrap();
    assert_eq!(resumed, split_atlas().solve(Vec::new(), &Quiet).unwrap());
    assert_eq!(names(&dir), Vec::<String>::new());
}

#[test]
fn a_time_budget_ends_a_run_with_the_values_it_has() {
    let settings = AtlasSettings::new(1 << 30, 1 << 16, 4, 64).with_seconds(Some(1));
    let codes = Games::Text("0.36".to_string());
    let scratch = work_dir();
    let dir = scratch.path().to_path_buf();
    let atlas = AtlasRequest { codes, force: false, settings }.plan().unwrap();
    let work = WorkDir::new(&dir, std::time::Duration::from_secs(60));
    let entry = &atlas.with_work_dir(work).solve(Vec::new(), &Quiet).unwrap()[0];
    assert_eq!(entry.stopped, Stop::Time);
    assert!(entry.computed_to < 1 << 30 && entry.computed_to >= 1 << 16);
    assert_eq!(
        entry.first_values,
        crate::sequence::values_in_memory(
            &OctalCode::parse("0.36").unwrap().heap_rule(),
            FIRST_VALUES as u64 - 1
        )
    );
}

/// Refuses to keep any entry, as a full disk would.
struct RefuseKeep;

impl AtlasObserver for RefuseKeep {
    fn code_done(&self, _entry: &Entry) -> Result<(), String> {
        Err("no space left on device".to_string())
    }
}

#[test]
fn a_run_that_finished_but_whose_entry_was_not_kept_resumes_at_its_end() {
    let scratch = work_dir();
    let dir = scratch.path().to_path_buf();
    let settings = AtlasSettings::new(1 << 20, 1 << 16, 4, 64);
    let plan = || {
        let codes = Games::Text("0.16".to_string());
        AtlasRequest { codes, force: false, settings }.plan().unwrap()
    };
    let work = WorkDir::new(&dir, std::time::Duration::from_secs(3600)).with_disk_from(1 << 16);
    let atlas = plan().with_work_dir(work.clone());
    assert!(matches!(atlas.solve(Vec::new(), &RefuseKeep), Err(AtlasError::Keep(_))));
    // The run's last checkpoint records its certified period (0.16: 149459 from 105351).
    let code = AtlasCode::parse("0.16").unwrap();
    let checkpoint = std::fs::read_to_string(work.checkpoint_path(&code)).unwrap();
    assert!(checkpoint.contains("\nperiod 105351 149459 "), "{checkpoint}");
    let rule = OctalCode::parse("0.16").unwrap().heap_rule();
    let start = work.start(&code, "octal:0.16", &rule, 1 << 20).unwrap();
    assert!(matches!(start, crate::sequence::Start::Resume(..)), "{start:?}");
    drop(start);
    let resumed = atlas.solve(Vec::new(), &Quiet).unwrap();
    assert_eq!(resumed, plan().solve(Vec::new(), &Quiet).unwrap());
    assert_eq!(names(&dir), Vec::<String>::new());
}

#[test]
fn hex_families_are_planned_whole_after_the_octal_codes() {
    assert_eq!(atlas("hex(2)").codes().len(), 896);
    let mixed = atlas("hex(1);octal(1);hex:0.77");
    assert_eq!(mixed.codes().len(), 48 + 15 + 1);
    let texts: Vec<String> = mixed.codes().iter().map(ToString::to_string).collect();
    assert_eq!((&texts[0][..], &texts[15][..], &texts[16][..]), ("0.1", "4.7", "hex:0.8"));
}

/// Asks to stop once `after` has passed since it was made.
struct CancelAfter(std::time::Instant, std::time::Duration);

impl AtlasObserver for CancelAfter {
    fn cancelled(&self) -> bool {
        self.0.elapsed() >= self.1
    }
}

#[test]
fn a_hex_code_stops_within_its_time_budget_and_when_cancelled() {
    // hex:8.31C is arithmetic-periodic (period 11, saltus 6) where the criterion proves
    // nothing: no period ends its run, which would take minutes to 2^16 heaps.
    let settings = AtlasSettings::new(1 << 16, 1 << 16, 4, 64).with_seconds(Some(1));
    let codes = Games::Text("hex:8.31C".to_string());
    let atlas = AtlasRequest { codes, force: false, settings }.plan().unwrap();
    let started = std::time::Instant::now();
    let entry = &atlas.solve(Vec::new(), &Quiet).unwrap()[0];
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!((entry.stopped, entry.period.is_none()), (Stop::Time, true));
    assert!(entry.computed_to >= 1 << 10 && entry.computed_to < 1 << 16, "{}", entry.computed_to);
    let code = AtlasCode::parse("hex:8.31C").unwrap();
    assert_eq!(entry.first_values, code.values(FIRST_VALUES as u64 - 1));
    let arithmetic = entry.arithmetic.expect("the values show their saltus");
    assert_eq!(
        (arithmetic.period, arithmetic.saltus, arithmetic.through, arithmetic.proved),
        (11, 6, entry.computed_to, false)
    );
    assert_eq!(entry.status(), "unsolved");
    let untimed = AtlasSettings::new(1 << 16, 1 << 16, 4, 64);
    let codes = Games::Text("hex:8.31C".to_string());
    let atlas = AtlasRequest { codes, force: false, settings: untimed }.plan().unwrap();
    let stop = CancelAfter(std::time::Instant::now(), std::time::Duration::from_millis(500));
    assert!(matches!(atlas.solve(Vec::new(), &stop), Err(AtlasError::Cancelled)));
}
