//! The atlas of octal games: every code of a family solved with a certified period or
//! computed to a stated bound, with its rare/common split and misère quotient, grouped
//! into classes of codes with one Grundy sequence.
//!
//! [`AtlasRequest::plan`] parses the codes (any family the sweeps take, whose games are
//! octal codes, or bare codes `0.161`); [`Atlas::solve`] computes the codes not yet
//! done, in parallel, one code per thread, handing each finished [`Entry`] to an
//! [`AtlasObserver`] (the command line keeps it as the code's state file, from which a
//! stopped run resumes); [`classes`] groups the entries, [`files`] writes them, and
//! [`site`] writes them as a static web site.

mod classes;
pub mod compare;
mod entry;
pub mod files;
pub mod site;
mod solve;
mod work;

use rayon::prelude::*;

pub use classes::{classes, code_order, Class, Equality};
pub use entry::{
    AtlasSettings, CertifiedPeriod, Entry, QuotientCell, QuotientOutcome, RareSplit, Stop, METHOD,
};
pub use solve::{solve_code, Cancel, FIRST_VALUES};
pub use work::{WorkDir, DISK_FROM};

use crate::model::octal::OctalCode;
use crate::quotient::{MAX_ORDER, MAX_QUOTIENT_HEAP};
use crate::sequence::{SequenceError, MAX_SEQUENCE_HEAP};
use crate::sweep::{Games, Shard, SweepError};

/// Why an atlas was refused or stopped.
#[derive(Debug, thiserror::Error)]
pub enum AtlasError {
    /// The family could not be read.
    #[error(transparent)]
    Family(#[from] SweepError),
    /// An entry of the family is not an octal code.
    #[error("{origin}: '{spec}' is not an octal code: {message}")]
    NotOctal {
        /// Where it came from (item or line).
        origin: String,
        /// The entry.
        spec: String,
        /// What is wrong with it.
        message: String,
    },
    /// A budget of 0 or above `2^40`.
    #[error("the budget must be from 1 to 2^40 heaps, got {0}")]
    Budget(u64),
    /// A dense budget above [`DISK_FROM`] heaps (below the budget).
    #[error(
        "the dense budget must be at most 2^22 heaps (a code whose values do not split costs \
         the square of its heaps, and its values are held in memory), got {0}"
    )]
    DenseBudget(u64),
    /// A quotient bound out of range.
    #[error("{0}")]
    QuotientBound(String),
    /// A sequence run's error.
    #[error(transparent)]
    Sequence(#[from] SequenceError),
    /// A model error (a code the game parser refuses).
    #[error(transparent)]
    Model(#[from] crate::ModelError),
    /// Entries computed elsewhere do not make up the atlas: one of another code or other
    /// settings, a code given twice, or a code without one.
    #[error("{0}")]
    Entries(String),
    /// Keeping a finished entry failed (the observer's error, in words).
    #[error("{0}")]
    Keep(String),
    /// A site was asked for classes whose members have no entry.
    #[error("{0}")]
    Site(String),
    /// The family holds no code with a move.
    #[error("the family holds no octal code with a move (the code of zeros allows none)")]
    NoCode,
    /// The caller asked the run to stop.
    #[error("cancelled")]
    Cancelled,
}

/// What an atlas is asked for.
#[derive(Clone, Debug)]
pub struct AtlasRequest {
    /// The codes.
    pub codes: Games,
    /// Allow more than the usual number of codes.
    pub force: bool,
    /// The budgets and the quotient's bounds.
    pub settings: AtlasSettings,
}

/// An atlas checked and ready to run: its codes, in the tables' order, each once.
#[derive(Clone, Debug)]
pub struct Atlas {
    codes: Vec<OctalCode>,
    settings: AtlasSettings,
    work: Option<WorkDir>,
}

/// What a run reports to.
pub trait AtlasObserver: Sync {
    /// A code is done (called from the worker threads, in any order).
    ///
    /// # Errors
    /// Keeping the entry failed: the run stops with [`AtlasError::Keep`].
    fn code_done(&self, _entry: &Entry) -> Result<(), String> {
        Ok(())
    }
    /// Whether to stop, polled often.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Reports nothing and never stops.
#[derive(Debug, Default)]
pub struct Quiet;

impl AtlasObserver for Quiet {}

struct ObserverCancel<'o>(&'o dyn AtlasObserver);

impl Cancel for ObserverCancel<'_> {
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

impl AtlasRequest {
    /// Checks the settings and parses every code, before any work.
    ///
    /// # Errors
    /// [`AtlasError::Budget`], [`AtlasError::QuotientBound`], the family's errors, and
    /// [`AtlasError::NotOctal`] naming the first entry that is not an octal code.
    pub fn plan(&self) -> Result<Atlas, AtlasError> {
        let s = self.settings;
        for budget in [s.budget, s.dense_budget] {
            if budget == 0 || budget > MAX_SEQUENCE_HEAP {
                return Err(AtlasError::Budget(budget));
            }
        }
        if s.dense_budget > DISK_FROM {
            return Err(AtlasError::DenseBudget(s.dense_budget));
        }
        if s.quotient_heap == 0 || s.quotient_heap > MAX_QUOTIENT_HEAP {
            let limit = MAX_QUOTIENT_HEAP;
            return Err(AtlasError::QuotientBound(format!(
                "the quotient's heap bound must be from 1 to {limit}, got {}",
                s.quotient_heap
            )));
        }
        if s.quotient_order == 0 || s.quotient_order > MAX_ORDER {
            return Err(AtlasError::QuotientBound(format!(
                "the quotient's order bound must be from 1 to {MAX_ORDER}, got {}",
                s.quotient_order
            )));
        }
        let family = self.codes.family(self.force)?;
        let mut codes = Vec::new();
        for (i, spec) in family.specs().iter().enumerate() {
            let text = spec.trim();
            let bare = text.strip_prefix("octal:").unwrap_or(text);
            if OctalCode::allows_no_move(bare) {
                continue;
            }
            let code = OctalCode::parse(bare).map_err(|message| AtlasError::NotOctal {
                origin: family.origin(i),
                spec: text.to_string(),
                message,
            })?;
            codes.push(code);
        }
        codes.sort_by(|a, b| code_order(&a.to_string(), &b.to_string()));
        codes.dedup();
        if codes.is_empty() {
            return Err(AtlasError::NoCode);
        }
        Ok(Atlas { codes, settings: s, work: None })
    }
}

impl Atlas {
    /// The codes, in the tables' order.
    pub fn codes(&self) -> &[OctalCode] {
        &self.codes
    }

    /// The atlas of the codes of one shard (a contiguous range of them).
    pub fn shard(&self, shard: Shard) -> Atlas {
        let range = shard.games(self.codes.len());
        Atlas {
            codes: self.codes[range].to_vec(),
            settings: self.settings,
            work: self.work.clone(),
        }
    }

    /// This atlas with the values of runs past [`DISK_FROM`] heaps (or `work`'s own bound)
    /// kept in `work`, with checkpoints from which a stopped run resumes (without a work
    /// directory they stay in memory).
    pub fn with_work_dir(self, work: WorkDir) -> Atlas {
        Atlas { work: Some(work), ..self }
    }

    /// The settings.
    pub fn settings(&self) -> &AtlasSettings {
        &self.settings
    }

    /// The heaps at which the classes compare sequences: the budget and the dense budget.
    pub fn horizons(&self) -> Vec<u64> {
        let s = &self.settings;
        let mut h = vec![s.dense_budget.min(s.budget), s.budget];
        h.dedup();
        h
    }

    /// Whether `entry` is this atlas's result for its code (computed under its settings).
    pub fn accepts(&self, entry: &Entry) -> bool {
        entry.settings == self.settings && self.codes.iter().any(|c| c.to_string() == entry.code)
    }

    /// The entries of every code of the atlas, in its order, from `entries` in any order
    /// (computed by other processes or machines, each code once).
    ///
    /// # Errors
    /// [`AtlasError::Entries`] naming an entry of another code or other settings, a code
    /// given twice, or the first code without an entry.
    pub fn assemble(&self, entries: Vec<Entry>) -> Result<Vec<Entry>, AtlasError> {
        let mut have = std::collections::BTreeMap::new();
        for entry in entries {
            let code = entry.code.clone();
            if !self.accepts(&entry) {
                return Err(AtlasError::Entries(format!(
                    "the entry of {code} is not of this atlas (another code, or other settings)"
                )));
            }
            if have.insert(code.clone(), entry).is_some() {
                return Err(AtlasError::Entries(format!("{code} has two entries")));
            }
        }
        let entry_of = |code: &OctalCode| {
            let missing = || AtlasError::Entries(format!("no entry for {code}"));
            have.remove(&code.to_string()).ok_or_else(missing)
        };
        self.codes.iter().map(entry_of).collect()
    }

    /// Computes every code of the atlas that `done` lacks, in parallel, and returns every
    /// entry in the atlas's order (the ones given and the new ones). With a work
    /// directory, a code's values file and checkpoint are removed once the observer has
    /// kept its entry (and those of the codes given done, left by a run stopped between).
    ///
    /// # Errors
    /// [`AtlasError::Cancelled`], [`AtlasError::Keep`], a sequence run's error (also
    /// when a work file cannot be removed).
    pub fn solve(
        &self,
        done: Vec<Entry>,
        observer: &dyn AtlasObserver,
    ) -> Result<Vec<Entry>, AtlasError> {
        let mut have: std::collections::BTreeMap<String, Entry> =
            done.into_iter().filter(|e| self.accepts(e)).map(|e| (e.code.clone(), e)).collect();
        let missing: Vec<&OctalCode> =
            self.codes.iter().filter(|c| !have.contains_key(&c.to_string())).collect();
        if let Some(work) = &self.work {
            for code in self.codes.iter().filter(|c| have.contains_key(&c.to_string())) {
                work.discard(code)?;
            }
        }
        let horizons = self.horizons();
        let cancel = ObserverCancel(observer);
        let work = self.work.as_ref();
        let new: Vec<Entry> = missing
            .par_iter()
            .with_max_len(1)
            .map(|code| {
                let entry = solve_code(code, &self.settings, &horizons, work, &cancel)?;
                observer.code_done(&entry).map_err(AtlasError::Keep)?;
                if let Some(work) = work {
                    work.discard(code)?;
                }
                Ok(entry)
            })
            .collect::<Result<_, AtlasError>>()?;
        have.extend(new.into_iter().map(|e| (e.code.clone(), e)));
        Ok(self.codes.iter().filter_map(|c| have.remove(&c.to_string())).collect())
    }
}

#[cfg(test)]
mod tests {
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

    /// A scratch work directory for one test.
    fn work_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("nimtab-work-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
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
        let dir = work_dir("disk");
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
            let text = std::fs::read_to_string(&self.checkpoint).unwrap_or_default();
            let heaps = text.lines().find_map(|l| l.strip_prefix("heaps "));
            heaps.and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n >= self.heaps)
        }
    }

    #[test]
    fn a_cancelled_run_resumes_from_its_checkpoints_to_the_entries_of_a_run_never_stopped() {
        let dir = work_dir("resume");
        let work = WorkDir::new(&dir, std::time::Duration::ZERO).with_disk_from(1 << 16);
        let atlas = split_atlas().with_work_dir(work.clone());
        let code = OctalCode::parse("0.64").unwrap();
        let stop = CancelAt { checkpoint: work.checkpoint_path(&code), heaps: 3 << 15 };
        let stopped = atlas.solve(Vec::new(), &stop);
        assert!(matches!(stopped, Err(AtlasError::Cancelled)), "{stopped:?}");
        assert!(names(&dir).contains(&"0.64.values".to_string()), "{:?}", names(&dir));
        // A damaged checkpoint of another code is computed again from heap 0.
        std::fs::write(dir.join("0.36.checkpoint"), "nimtab sequence checkpoint\nformat 1\n")
            .unwrap();
        let resumed = atlas.solve(Vec::new(), &Quiet).unwrap();
        assert_eq!(resumed, split_atlas().solve(Vec::new(), &Quiet).unwrap());
        assert_eq!(names(&dir), Vec::<String>::new());
    }

    #[test]
    fn a_time_budget_ends_a_run_with_the_values_it_has() {
        let settings = AtlasSettings::new(1 << 30, 1 << 16, 4, 64).with_seconds(Some(1));
        let codes = Games::Text("0.36".to_string());
        let dir = work_dir("time");
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
        let dir = work_dir("finished");
        let settings = AtlasSettings::new(1 << 20, 1 << 16, 4, 64);
        let plan = || {
            let codes = Games::Text("0.16".to_string());
            AtlasRequest { codes, force: false, settings }.plan().unwrap()
        };
        let work = WorkDir::new(&dir, std::time::Duration::from_secs(3600)).with_disk_from(1 << 16);
        let atlas = plan().with_work_dir(work.clone());
        assert!(matches!(atlas.solve(Vec::new(), &RefuseKeep), Err(AtlasError::Keep(_))));
        // The run's last checkpoint records its certified period (0.16: 149459 from 105351).
        let code = OctalCode::parse("0.16").unwrap();
        let checkpoint = std::fs::read_to_string(work.checkpoint_path(&code)).unwrap();
        assert!(checkpoint.contains("\nperiod 105351 149459 "), "{checkpoint}");
        let start = work.start(&code, "octal:0.16", &code.heap_rule(), 1 << 20).unwrap();
        assert!(matches!(start, crate::sequence::Start::Resume(..)), "{start:?}");
        drop(start);
        let resumed = atlas.solve(Vec::new(), &Quiet).unwrap();
        assert_eq!(resumed, plan().solve(Vec::new(), &Quiet).unwrap());
        assert_eq!(names(&dir), Vec::<String>::new());
    }
}
