//! Misère quotients of sums of heaps: the finite commutative monoid that decides misère
//! play of every position with heaps of size at most `N` (Plambeck and Siegel, *Misère
//! quotients for impartial games*, J. Combin. Theory A 115 (2008); Siegel,
//! *Combinatorial Game Theory*, ch. V).
//!
//! Positions `x`, `y` with heaps of size at most `N` are *indistinguishable* when `x + z`
//! and `y + z` have the same misère outcome for every such `z`. The classes form a
//! commutative monoid `Q` (the empty position's class is the identity), the *P-portion*
//! is the set of classes of P-positions, and `Φ` sends a heap size to its class: a
//! position is P exactly when the product of `Φ` over its heaps lies in the P-portion.
//! [`compute`] builds `Q` heap by heap (`solver.rs`) and then proves it
//! (`certificate.rs`); [`Quotient::is_p`] predicts any position. Under normal play
//! ([`Ending::Normal`]) the same construction gives the group of Grundy values.
//!
//! ```
//! use nimtab::quotient::{compute, QuotientConfig};
//! use nimtab::{Game, NoProgress};
//!
//! // Misère Nim with heaps of size at most 2: <a, b | a^2 = 1, b^3 = b>, order 6.
//! let q = compute(&Game::nim(), &QuotientConfig::new(2), &NoProgress)?;
//! assert_eq!(q.order(), 6);
//! assert_eq!(q.presentation(), "<a, b | a^2 = 1, b^3 = b>");
//! assert_eq!(q.is_p(&[2, 2]), Some(true));
//! assert_eq!(q.is_p(&[1, 1]), Some(false));
//! # Ok::<(), nimtab::quotient::QuotientError>(())
//! ```

mod assemble;
mod bits;
mod certificate;
mod check;
mod error;
mod heaps;
mod mark;
mod memory;
mod monoid;
mod option;
mod period;
mod presentation;
mod run;
mod solver;
mod state;
mod steps;
mod tables;
mod tame;

pub use error::QuotientError;
pub use option::MAX_THREE_HEAP_QUOTIENT_HEAP;
pub use period::QuotientPeriod;
pub use state::{QuotientCheckpoint, QUOTIENT_CHECKPOINT_FORMAT};
pub use tables::{check_against_tables, TableCheck};

use crate::engine::NoProgress;
use crate::host::memory_limit;
use crate::model::ending::Ending;
use crate::model::game::Game;

/// The largest heap size a quotient may be asked for; below it, what the memory budget
/// holds decides (see [`QuotientConfig::plan`]).
pub const MAX_QUOTIENT_HEAP: u32 = 1 << 24;

/// The largest heap size a quotient of `game` may be asked for: [`MAX_QUOTIENT_HEAP`], or
/// [`MAX_THREE_HEAP_QUOTIENT_HEAP`] for a game with moves that leave three heaps.
pub fn max_quotient_heap(game: &Game) -> u32 {
    if game.splits_in_three() {
        MAX_THREE_HEAP_QUOTIENT_HEAP
    } else {
        MAX_QUOTIENT_HEAP
    }
}

/// The order bound of callers that fix one rather than take it from their memory budget
/// ([`order_bound_for`]).
pub const DEFAULT_MAX_ORDER: usize = 4096;

/// The order bound a memory budget allows: the largest order whose product table, held
/// four times over (the table, a candidate's tables and the proof's), fits the budget;
/// from 1 to [`MAX_ORDER`].
pub fn order_bound_for(memory: u64) -> usize {
    let k = ((memory / 16) as f64).sqrt() as usize;
    k.clamp(1, MAX_ORDER)
}

/// The largest order accepted: the product table has order² entries.
pub const MAX_ORDER: usize = 1 << 16;

/// What to compute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientConfig {
    /// The largest heap size `N`.
    pub max_heap: u32,
    /// Stop when the quotient grows past this order.
    pub max_order: usize,
    /// Misère play (the default), or normal play (the quotient is then the group of
    /// Grundy values); the SJ ending has no quotient and is refused.
    pub play: Ending,
    /// Bytes the computation may hold at once; `None` for what the process may use
    /// ([`crate::host::memory_limit`]).
    pub memory_limit: Option<u64>,
    /// Stop at the first heap at which the periodicity theorem certifies the whole game
    /// (the quotient is then the whole game's, and larger heaps add nothing); `false`
    /// goes on to `max_heap` regardless.
    pub until_certified: bool,
}

/// What a computation is planned to hold before its first heap: the options of every
/// heap up to the largest, which are made as the heaps are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotientPlan {
    /// Bytes of the options of heaps up to the largest.
    pub options_bytes: u64,
    /// The budget.
    pub limit_bytes: u64,
    /// The largest heap whose options fit the budget.
    pub fits_upto: u32,
}

/// The least bound on a candidate's elements before reduction, whatever the order bound.
const MIN_CANDIDATE_LIMIT: usize = 16384;

impl QuotientConfig {
    /// Misère play of heaps up to `max_heap`, orders up to [`DEFAULT_MAX_ORDER`], within
    /// the memory the process may use.
    pub fn new(max_heap: u32) -> QuotientConfig {
        QuotientConfig {
            max_heap,
            max_order: DEFAULT_MAX_ORDER,
            play: Ending::Misere,
            memory_limit: None,
            until_certified: true,
        }
    }

    /// The plan of a computation of `game`: what its heaps' options need, against the
    /// budget.
    pub fn plan(&self, game: &Game) -> QuotientPlan {
        let limit_bytes = self.memory_limit.unwrap_or_else(memory_limit);
        let source = heaps::OptionSource::new(game);
        let (mut options_bytes, mut fits_upto) = (source.bytes_of(0), 0);
        for h in 1..=self.max_heap {
            options_bytes += source.bytes_of(h);
            if options_bytes <= limit_bytes {
                fits_upto = h;
            }
        }
        QuotientPlan { options_bytes, limit_bytes, fits_upto }
    }

    /// The refusals [`compute`] makes before any work.
    ///
    /// # Errors
    /// [`QuotientError::NotASum`], [`QuotientError::MaxHeap`], [`QuotientError::MaxOrder`].
    pub fn check(&self, game: &Game) -> Result<(), QuotientError> {
        if !game.is_sum() {
            return Err(QuotientError::NotASum { spec: game.spec().to_string() });
        }
        if self.play == Ending::Sj {
            return Err(QuotientError::SjEnding);
        }
        let limit = max_quotient_heap(game);
        if self.max_heap == 0 || self.max_heap > limit {
            return Err(QuotientError::MaxHeap { max_heap: self.max_heap, limit });
        }
        if self.max_order == 0 || self.max_order > MAX_ORDER {
            return Err(QuotientError::MaxOrder { max_order: self.max_order, limit: MAX_ORDER });
        }
        let plan = self.plan(game);
        if plan.options_bytes > plan.limit_bytes {
            return Err(QuotientError::PlanBeyondMemory { max_heap: self.max_heap, plan });
        }
        Ok(())
    }

    /// The most elements a candidate of the search may have before reduction: four times
    /// the order bound, and at least 16384.
    pub fn candidate_limit(&self) -> usize {
        self.max_order.saturating_mul(4).max(MIN_CANDIDATE_LIMIT)
    }

    /// The most elements a reduced candidate may have: four times the order bound, so
    /// that a lower order bound also stops a search that keeps growing sooner (a heap
    /// whose quotient never closes refines its candidate without end).
    pub fn reduced_limit(&self) -> usize {
        self.max_order.saturating_mul(4)
    }
}

/// Progress of a computation, heap by heap.
pub trait QuotientProgress: Sync {
    /// Heap `heap` is done; the quotient of heaps up to it has `order` elements.
    fn heap_done(&self, heap: u32, order: usize);
    /// Whether the caller asks the computation to stop, polled between heaps, between
    /// the candidates of one heap and every few thousand states of a check; a caller that also runs the engine answers with its
    /// [`crate::Progress::cancelled`] flag. Never, by default.
    fn cancelled(&self) -> bool {
        false
    }

    /// The search at heap `heap` has refined its candidate to one of `order` elements
    /// (reduced, not yet proved): a heap that needs many refinements shows movement.
    fn searching(&self, _heap: u32, _order: usize) {}

    /// The check of a candidate at heap `heap` has explored `states` states so far,
    /// reported every few thousand: a long check shows movement.
    fn exploring(&self, _heap: u32, _states: u64) {}

    /// Every heap the run was asked for is done, or the whole game is certified sooner:
    /// only the final proof is left. A caller whose [`QuotientProgress::cancelled`] is a
    /// time limit on the heaps lets the proof finish from here.
    fn heaps_complete(&self) {}

    /// Whether to hand out a checkpoint now that heap `heap` is done. Never, by default.
    fn checkpoint_due(&self, _heap: u32) -> bool {
        false
    }

    /// Whether the run hands out a last checkpoint of the heaps it completed when it
    /// ends, whatever ends it (so that a stopped run resumes and a finished one extends
    /// to larger heaps). No, by default.
    fn keeps_checkpoints(&self) -> bool {
        false
    }

    /// A checkpoint to keep, when [`QuotientProgress::checkpoint_due`] said so or the run
    /// was cancelled while [`QuotientProgress::keeps_checkpoints`].
    fn checkpoint(&self, _checkpoint: &QuotientCheckpoint) {}
}

impl QuotientProgress for NoProgress {
    fn heap_done(&self, _heap: u32, _order: usize) {}
}

/// A computed quotient, proved correct for every position with heaps up to `max_heap`
/// (and for the whole game when [`Quotient::period`] is certified).
///
/// Elements are numbered `0..order` by their normal forms (`presentation.rs`): 0 is the
/// identity, then the generators' words in order of degree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotient {
    game: String,
    max_heap: u32,
    play: Ending,
    order: usize,
    product: Vec<u32>,
    p: Vec<bool>,
    phi: Vec<u32>,
    elements: Vec<String>,
    generator_heaps: Vec<u32>,
    relations: Vec<(String, String)>,
    presentation: String,
    tame: bool,
    period: Option<QuotientPeriod>,
    certified_at: Option<u32>,
}

impl Quotient {
    /// The game's specification.
    pub fn game(&self) -> &str {
        &self.game
    }
    /// The largest heap size `N`.
    pub fn max_heap(&self) -> u32 {
        self.max_heap
    }
    /// Misère or normal play.
    pub fn play(&self) -> Ending {
        self.play
    }
    /// The number of elements.
    pub fn order(&self) -> usize {
        self.order
    }
    /// The identity's number (always 0).
    pub fn identity(&self) -> u32 {
        0
    }
    /// The number of the product of elements `x` and `y`.
    ///
    /// # Panics
    /// If `x` or `y` is not below the order.
    pub fn product(&self, x: u32, y: u32) -> u32 {
        assert!((x as usize) < self.order && (y as usize) < self.order, "no such element");
        self.product[x as usize * self.order + y as usize]
    }
    /// Whether element `x` is in the P-portion.
    pub fn is_p_element(&self, x: u32) -> bool {
        self.p[x as usize]
    }
    /// The P-portion, ascending.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order as u32).filter(|&x| self.p[x as usize]).collect()
    }
    /// `Φ(h)`, the class of one heap of size `h` (`Φ(0)` is the identity): for `h <= N`,
    /// and for every `h` when the whole game is certified ([`Quotient::period`]), by the
    /// period.
    pub fn phi(&self, h: u32) -> Option<u32> {
        if let (None, Some(p)) = (self.phi.get(h as usize), self.period) {
            let within = u64::from(p.preperiod)
                + (u64::from(h) - u64::from(p.preperiod)) % u64::from(p.period);
            return self.phi.get(within as usize).copied();
        }
        self.phi.get(h as usize).copied()
    }
    /// `Φ(0..=N)`.
    pub fn phi_all(&self) -> &[u32] {
        &self.phi
    }
    /// The class of a position (heaps in any order, 0 for no heap); `None` when a heap
    /// exceeds `N` and the whole game is not certified.
    pub fn element_of(&self, heaps: &[u32]) -> Option<u32> {
        heaps.iter().try_fold(0, |x, &h| Some(self.product(x, self.phi(h)?)))
    }
    /// Whether the position is a P-position; `None` when a heap exceeds `N` and the whole
    /// game is not certified.
    pub fn is_p(&self, heaps: &[u32]) -> Option<bool> {
        self.element_of(heaps).map(|x| self.is_p_element(x))
    }
    /// Each element's normal form (`1`, `a`, `ab^2`, …), by number.
    pub fn elements(&self) -> &[String] {
        &self.elements
    }
    /// The heap whose class each generator is (`a` first).
    pub fn generator_heaps(&self) -> &[u32] {
        &self.generator_heaps
    }
    /// The defining relations, as `(left, right)` words.
    pub fn relations(&self) -> &[(String, String)] {
        &self.relations
    }
    /// The presentation, `<a, b | a^2 = 1, b^3 = b>`.
    pub fn presentation(&self) -> &str {
        &self.presentation
    }
    /// Whether the quotient is a tame one (`tame.rs`).
    pub fn tame(&self) -> bool {
        self.tame
    }
    /// The certified period of `Φ`, when a theorem makes this the whole game's quotient.
    pub fn period(&self) -> Option<QuotientPeriod> {
        self.period
    }
    /// The heap at which the theorem's window first fitted, when the computation stopped
    /// there ([`QuotientConfig::until_certified`]): then [`Quotient::max_heap`].
    pub fn certified_at(&self) -> Option<u32> {
        self.certified_at
    }
}

/// Computes and proves the quotient of `game` for heaps up to `config.max_heap` (or up
/// to the first heap at which the whole game is certified, when
/// [`QuotientConfig::until_certified`]).
///
/// # Errors
/// [`QuotientError::NotASum`], [`QuotientError::MaxHeap`], [`QuotientError::MaxOrder`],
/// [`QuotientError::PlanBeyondMemory`] for bad input; [`QuotientError::GrewPastLimit`]
/// when the quotient outgrows `config.max_order`; [`QuotientError::BeyondMemory`] when
/// it needs more memory than `config.memory_limit`, [`QuotientError::OutOfMemory`] when
/// the system refuses memory within it; [`QuotientError::Cancelled`] when `progress`
/// asks it to stop.
pub fn compute(
    game: &Game,
    config: &QuotientConfig,
    progress: &dyn QuotientProgress,
) -> Result<Quotient, QuotientError> {
    let reached = compute_from(game, config, None, progress)?;
    match (reached.stop, reached.quotient) {
        (Some(stop), _) => Err(stop),
        (None, Some(quotient)) => Ok(quotient),
        (None, None) => unreachable!("a run with no stop completes heap 1"),
    }
}

/// How far a computation got: the proved quotient of the heaps it completed, and why it
/// stopped before the largest heap.
#[derive(Debug)]
pub struct Reached {
    /// The quotient of heaps `1..=n` for the last heap `n` completed (the whole game's
    /// when certified), proved like any other; `None` when not even heap 1 was.
    pub quotient: Option<Quotient>,
    /// Why the computation stopped before the largest heap: a limit
    /// ([`QuotientError::GrewPastLimit`], [`QuotientError::CandidateTooLarge`], the
    /// memory errors) or the caller ([`QuotientError::Cancelled`]); `None` when it
    /// reached the largest heap or certified the whole game.
    pub stop: Option<QuotientError>,
}

/// Computes the quotient of `game` as [`compute`] does, from `checkpoint` when one is
/// given (its monoid is proved again for its heaps first), and keeps what it completed
/// when a limit or the caller stops it.
///
/// # Errors
/// The refusals of [`QuotientConfig::check`]; [`QuotientError::BadCheckpoint`] for a
/// checkpoint of another game or play, or one that does not hold;
/// [`QuotientError::NotCertified`] (a bug); memory errors met while resuming or proving.
pub fn compute_from(
    game: &Game,
    config: &QuotientConfig,
    checkpoint: Option<&QuotientCheckpoint>,
    progress: &dyn QuotientProgress,
) -> Result<Reached, QuotientError> {
    config.check(game)?;
    if let Some(checkpoint) = checkpoint {
        checkpoint.belongs_to(game.spec(), config.play)?;
    }
    let meter = memory::Meter::new(config.memory_limit.unwrap_or_else(memory_limit));
    let ended = run::run(game, config, checkpoint, &meter, progress)?;
    let heap = ended.solved.monoid.max_heap();
    if heap == 0 {
        return Ok(Reached { quotient: None, stop: ended.stop });
    }
    meter.at_heap(heap);
    let reached = QuotientConfig { max_heap: heap, ..config.clone() };
    let mut hold = meter.hold(0)?;
    let mut quotient = assemble::assemble(game, &reached, &ended.solved, &mut hold)?;
    quotient.certified_at = ended.certified_at;
    drop(ended.solved);
    let claim = certificate::Claim {
        order: quotient.order,
        product: &quotient.product,
        p: &quotient.p,
        phi: &quotient.phi,
        options: &ended.options,
        play: config.play,
    };
    // A run the caller stopped is proved without asking again whether to stop.
    let proving: &dyn QuotientProgress = if ended.stop.is_some() { &NoProgress } else { progress };
    certificate::certify(&claim, &meter, proving)?;
    Ok(Reached { quotient: Some(quotient), stop: ended.stop })
}
