//! The atlas of octal and hexadecimal games: every code of a family solved with a
//! certified period or computed to a stated bound, with its rare/common split and misère
//! quotient, grouped into classes of codes with one Grundy sequence.
//!
//! [`AtlasRequest::plan`] parses the codes (any family the sweeps take, whose games are
//! octal or hexadecimal codes, or bare codes `0.161`); [`Atlas::solve`] computes the codes not yet
//! done, in parallel, one code per thread, handing each finished [`Entry`] to an
//! [`AtlasObserver`] (the command line keeps it as the code's state file, from which a
//! stopped run resumes); [`classes`] groups the entries, [`files`] writes them, and
//! [`site`] writes them as a static web site.

mod classes;
mod code;
pub mod compare;
mod entry;
pub mod files;
mod quotient_cell;
pub mod site;
mod solve;
mod work;

use rayon::prelude::*;

pub use classes::{classes, code_order, Class, Equality};
pub use code::AtlasCode;
pub use entry::{
    ArithmeticEvidence, AtlasSettings, CertifiedPeriod, Entry, QuotientCell, QuotientOutcome,
    RareSplit, Stop, METHOD,
};
pub use solve::{solve_code, Cancel, FIRST_VALUES};
pub use work::{WorkDir, DISK_FROM};

use crate::model::grundy_sequence::MAX_THREE_HEAP_SEQUENCE;
use crate::model::octal::OctalCode;
use crate::quotient::{MAX_ORDER, MAX_QUOTIENT_HEAP};
use crate::sequence::{SequenceError, MAX_SEQUENCE_HEAP};
use crate::sweep::{Games, Shard, SweepError};

/// The longest code an atlas takes: its state files are named after it, and a file name
/// (with a temporary's suffix) has at most 255 bytes.
pub const MAX_CODE_CHARS: usize = 160;

/// Why an atlas was refused or stopped.
#[derive(Debug, thiserror::Error)]
pub enum AtlasError {
    /// The family could not be read.
    #[error(transparent)]
    Family(#[from] SweepError),
    /// An entry of the family is not an octal code (nor a `hex:` code).
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
    /// A code too long for the names of its state files.
    #[error(
        "{origin}: a code in the atlas has at most {max} characters (its state files are named \
         after it), this one has {len}",
        max = MAX_CODE_CHARS
    )]
    CodeTooLong {
        /// Where it came from (item or line).
        origin: String,
        /// Its length.
        len: usize,
    },
    /// A `hex:` entry of the family is not a hexadecimal code.
    #[error("{origin}: '{spec}' is not a hexadecimal code: {message}")]
    NotHex {
        /// Where it came from (item or line).
        origin: String,
        /// The entry.
        spec: String,
        /// What is wrong with it.
        message: String,
    },
    /// A dense budget above [`MAX_THREE_HEAP_SEQUENCE`] heaps for an atlas with a
    /// hexadecimal code, whose values are computed in memory to at most that many.
    #[error(
        "the dense budget must be at most 2^16 = {limit} heaps for an atlas with hexadecimal \
         codes ({code} has moves that leave three heaps: its values are computed in memory by \
         a plain mex, to at most {limit} heaps), got {budget} (the smaller of the budget and the \
         dense budget given)",
        limit = MAX_THREE_HEAP_SEQUENCE
    )]
    HexDenseBudget {
        /// The dense budget (lowered to the budget).
        budget: u64,
        /// The first hexadecimal code of the atlas.
        code: String,
    },
    /// A dense budget of 0 or above [`DISK_FROM`] heaps (once lowered to the budget).
    #[error(
        "the dense budget must be from 1 to 2^22 heaps (a code whose values do not split costs \
         the square of its heaps, and its values are held in memory), got {0} (the smaller of \
         the budget and the dense budget given)"
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
    codes: Vec<AtlasCode>,
    settings: AtlasSettings,
    work: Option<WorkDir>,
    /// Each code listed again after its first listing, as `SPEC (ORIGIN)` of the repeat
    /// and of the first: computed once.
    repeats: Vec<(String, String)>,
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
    /// [`AtlasError::Budget`], [`AtlasError::QuotientBound`], the family's errors,
    /// [`AtlasError::NotOctal`] or [`AtlasError::NotHex`] naming the first entry that is
    /// not a code, and [`AtlasError::HexDenseBudget`] for a dense budget past the heaps a
    /// hexadecimal code's values are computed to.
    pub fn plan(&self) -> Result<Atlas, AtlasError> {
        let s = self.settings;
        if s.budget == 0 || s.budget > MAX_SEQUENCE_HEAP {
            return Err(AtlasError::Budget(s.budget));
        }
        if s.dense_budget == 0 || s.dense_budget > DISK_FROM {
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
        let (mut first_listed, mut repeats) = (std::collections::HashMap::new(), Vec::new());
        let entry = |i: usize| format!("{} ({})", family.specs()[i].trim(), family.origin(i));
        for (i, spec) in family.specs().iter().enumerate() {
            let text = spec.trim();
            let bare = text.strip_prefix("octal:").unwrap_or(text);
            if OctalCode::allows_no_move(bare) {
                continue;
            }
            let (origin, spec) = (family.origin(i), text.to_string());
            let code = AtlasCode::parse(bare).map_err(|message| {
                if bare.starts_with("hex:") {
                    AtlasError::NotHex { origin: origin.clone(), spec: spec.clone(), message }
                } else {
                    AtlasError::NotOctal { origin: origin.clone(), spec: spec.clone(), message }
                }
            })?;
            // Each code has state files named after it (plus a temporary's suffix).
            let len = code.to_string().len();
            if len > MAX_CODE_CHARS {
                return Err(AtlasError::CodeTooLong { origin, len });
            }
            match first_listed.get(&code.to_string()) {
                Some(&first) => repeats.push((entry(i), entry(first))),
                None => {
                    first_listed.insert(code.to_string(), i);
                }
            }
            codes.push(code);
        }
        codes.sort_by(|a, b| code_order(&a.to_string(), &b.to_string()));
        codes.dedup();
        if codes.is_empty() {
            return Err(AtlasError::NoCode);
        }
        let hex_budget = s.dense_budget.min(s.budget);
        if let Some(hex) = codes.iter().find(|c| c.is_hex()) {
            if hex_budget > u64::from(MAX_THREE_HEAP_SEQUENCE) {
                let code = hex.to_string();
                return Err(AtlasError::HexDenseBudget { budget: hex_budget, code });
            }
        }
        Ok(Atlas { codes, settings: s, work: None, repeats })
    }
}

impl Atlas {
    /// The codes, in the tables' order.
    pub fn codes(&self) -> &[AtlasCode] {
        &self.codes
    }

    /// The atlas of the codes of one shard (a contiguous range of them).
    pub fn shard(&self, shard: Shard) -> Atlas {
        let range = shard.games(self.codes.len());
        Atlas {
            codes: self.codes[range].to_vec(),
            settings: self.settings,
            work: self.work.clone(),
            repeats: self.repeats.clone(),
        }
    }

    /// The codes listed more than once (each computed once): `SPEC (ORIGIN)` of each
    /// repeat and of the code's first listing, in the order listed.
    pub fn repeats(&self) -> &[(String, String)] {
        &self.repeats
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
        let entry_of = |code: &AtlasCode| {
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
        let missing: Vec<&AtlasCode> =
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
mod tests;
