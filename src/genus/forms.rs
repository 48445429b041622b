//! Misère canonical forms of impartial games, hash-consed, with memoised sums.
//!
//! Every form is kept once, by its sorted list of options (themselves forms), so two
//! forms are equal as misère games exactly when their ids are equal (Conway's theorem:
//! every game has a unique simplest form). A game built from canonical options is
//! brought to its simplest form by [`Forms::make`], using Conway's simplification
//! theorem for misère impartial games: G = {S} equals H when every option of H is in S
//! and every other option of G has H as an option (the options reverse through H); for
//! H = 0 this needs in addition that some option of G is a misère P-position.

use crate::engine::Progress;
use crate::genus::hasher::IdMap;
use crate::genus::value::Genus;
use crate::genus::GenusError;

/// The id of a form; 0 is the empty game.
pub type FormId = u32;

/// The empty game, 0.
pub const ZERO: FormId = 0;

/// Bytes counted for each form beside its options and γ values: the two copies of the
/// option list's header, the genus, the birthday and the hash table's slot.
const FORM_OVERHEAD: u64 = 2 * 16 + 48 + 4 + 32;

/// Bytes counted for each memoised sum: its key, its value and the hash table's slot.
const SUM_BYTES: u64 = 32;

/// Every canonical form made so far, and the sums of pairs of them already computed.
#[derive(Debug)]
pub struct Forms {
    options: Vec<Box<[FormId]>>,
    birthdays: Vec<u32>,
    genera: Vec<Genus>,
    index: IdMap<Box<[FormId]>, FormId>,
    sums: IdMap<(FormId, FormId), FormId>,
    held_bytes: u64,
    limit_bytes: u64,
    /// Forms made since the caller was last asked whether to stop.
    unpolled: u32,
}

/// How many forms are made between two questions to the caller whether to stop.
const POLL_EVERY: u32 = 1 << 12;

impl Forms {
    /// The forms of the empty game alone, within a budget of `limit_bytes`.
    ///
    /// # Panics
    /// Never: the empty game is counted before the budget is checked.
    pub fn new(limit_bytes: u64) -> Forms {
        let mut forms = Forms {
            options: Vec::new(),
            birthdays: Vec::new(),
            genera: Vec::new(),
            index: IdMap::default(),
            sums: IdMap::default(),
            held_bytes: 0,
            limit_bytes,
            unpolled: 0,
        };
        forms.limit_bytes = u64::MAX;
        forms.record(Vec::new()).expect("an unbounded budget holds the empty game");
        forms.limit_bytes = limit_bytes;
        forms
    }

    /// How many distinct forms are held.
    pub fn len(&self) -> usize {
        self.options.len()
    }

    /// Whether only the empty game is held (never: it is always there).
    pub fn is_empty(&self) -> bool {
        self.options.is_empty()
    }

    /// The bytes counted against the budget so far.
    pub fn held_bytes(&self) -> u64 {
        self.held_bytes
    }

    /// The genus of form `id`.
    pub fn genus(&self, id: FormId) -> &Genus {
        &self.genera[id as usize]
    }

    /// The options of form `id`, ascending.
    pub fn options(&self, id: FormId) -> &[FormId] {
        &self.options[id as usize]
    }

    /// The simplest form of the game whose options are the forms `options`.
    ///
    /// # Errors
    /// [`GenusError::BeyondMemory`] past the budget, [`GenusError::Cancelled`] when
    /// `progress` asks the work to stop.
    pub fn make(
        &mut self,
        mut options: Vec<FormId>,
        progress: &dyn Progress,
    ) -> Result<FormId, GenusError> {
        options.sort_unstable();
        options.dedup();
        if let Some(&id) = self.index.get(options.as_slice()) {
            return Ok(id);
        }
        if self.reduces_to_zero(&options) {
            return Ok(ZERO);
        }
        if let Some(id) = self.reduces_to_option_of_option(&options) {
            return Ok(id);
        }
        self.unpolled += 1;
        if self.unpolled >= POLL_EVERY {
            self.unpolled = 0;
            if progress.cancelled() {
                return Err(GenusError::Cancelled);
            }
        }
        self.record(options)
    }

    /// Whether {options} = 0: every option has 0 as an option (reverses through 0), and
    /// some option is a misère P-position, so that the game, like 0, is a misère N-position.
    fn reduces_to_zero(&self, options: &[FormId]) -> bool {
        !options.is_empty()
            && options.iter().all(|&x| self.options(x).first() == Some(&ZERO))
            && options.iter().any(|&x| self.genus(x).misere_grundy() == 0)
    }

    /// The form H ≠ 0 that {options} equals, if any: every option of H is among
    /// `options` and every other option has H as an option. Such an H is an option of the
    /// option born last: that option is not an option of H (H is born before the options
    /// that have it as an option, and after its own), so it has H as an option.
    fn reduces_to_option_of_option(&self, options: &[FormId]) -> Option<FormId> {
        let last_born = *options.iter().max_by_key(|&&x| self.birthdays[x as usize])?;
        self.options(last_born).iter().copied().filter(|&h| h != ZERO).find(|&h| {
            let own = self.options(h);
            own.iter().all(|x| options.binary_search(x).is_ok())
                && options
                    .iter()
                    .filter(|x| own.binary_search(x).is_err())
                    .all(|&x| self.options(x).binary_search(&h).is_ok())
        })
    }

    /// Keeps a new form whose options are canonical and irreducible.
    fn record(&mut self, options: Vec<FormId>) -> Result<FormId, GenusError> {
        let genus = {
            let genera: Vec<&Genus> = options.iter().map(|&x| self.genus(x)).collect();
            Genus::from_options(&genera)
        };
        let bytes = FORM_OVERHEAD + 8 * options.len() as u64 + 4 * genus.gammas.len() as u64;
        self.hold(bytes)?;
        let birthday = options.iter().map(|&x| self.birthdays[x as usize] + 1).max().unwrap_or(0);
        let id = FormId::try_from(self.options.len()).map_err(|_| self.beyond(bytes))?;
        let options: Box<[FormId]> = options.into_boxed_slice();
        self.index.insert(options.clone(), id);
        self.options.push(options);
        self.birthdays.push(birthday);
        self.genera.push(genus);
        Ok(id)
    }

    /// The simplest form of the sum of forms `a` and `b`: its options are the sums of an
    /// option of one with the other.
    ///
    /// # Errors
    /// As [`Forms::make`].
    pub fn add(
        &mut self,
        a: FormId,
        b: FormId,
        progress: &dyn Progress,
    ) -> Result<FormId, GenusError> {
        if a == ZERO {
            return Ok(b);
        }
        if b == ZERO {
            return Ok(a);
        }
        let key = (a.min(b), a.max(b));
        if let Some(&sum) = self.sums.get(&key) {
            return Ok(sum);
        }
        let mut options = Vec::with_capacity(self.options(a).len() + self.options(b).len());
        for i in 0..self.options(a).len() {
            let x = self.options(a)[i];
            options.push(self.add(x, b, progress)?);
        }
        for i in 0..self.options(b).len() {
            let y = self.options(b)[i];
            options.push(self.add(a, y, progress)?);
        }
        let sum = self.make(options, progress)?;
        self.hold(SUM_BYTES)?;
        self.sums.insert(key, sum);
        Ok(sum)
    }

    /// Counts `bytes` more against the budget.
    fn hold(&mut self, bytes: u64) -> Result<(), GenusError> {
        let need = self.held_bytes.saturating_add(bytes);
        if need > self.limit_bytes {
            return Err(self.beyond(bytes));
        }
        self.held_bytes = need;
        Ok(())
    }

    fn beyond(&self, bytes: u64) -> GenusError {
        GenusError::BeyondMemory {
            held_bytes: self.held_bytes,
            need_bytes: self.held_bytes.saturating_add(bytes),
            limit_bytes: self.limit_bytes,
        }
    }
}
