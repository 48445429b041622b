//! Verifications and sweeps as the CLI writes them (CSV bytes), shards and their merge.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use nimtab::analysis::expr::Expr;
use nimtab::analysis::verify::verify;
use nimtab::export::summary::{write_counterexamples, write_summary};
use nimtab::sweep::{
    merge as merge_parts, Games, PlannedSweep, Shard, SweepError, SweepKind, SweepOutput,
    SweepRequest, SweepSpace, Test,
};
use nimtab::{host, Criterion, Ending, Engine, Game, Mode, Space};

use crate::quotient_sweep::QuotientArgs;
use crate::tables::endings;
use crate::{run_detached, value_error, CallProgress};

/// verify_csv(request, threads, report) -> (summary bytes, counterexamples bytes)
///
/// The `summary.csv` and `counterexamples.csv` that `nimtab verify --out DIR --limit
/// LIMIT` writes for the same request (a [`VerifyRequest`] dict): heap counts
/// `heaps_lo..=heaps_hi` of at most `max`, or with `total` (and those `None`) every
/// multiset of total at most `total`.
#[pyfunction]
#[pyo3(signature = (request, threads = None, report = None))]
pub fn verify_csv<'py>(
    py: Python<'py>,
    request: VerifyRequest,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (args, mode, limit) = request.args();
    let run = move |progress: &CallProgress| -> nimtab::Result<(Vec<u8>, Vec<u8>)> {
        let findings = args.findings(mode, limit, progress)?;
        let (mut summary, mut examples) = (Vec::new(), Vec::new());
        write_summary(&mut summary, &findings)?;
        write_counterexamples(&mut examples, &findings)?;
        Ok((summary, examples))
    };
    let (summary, examples) =
        run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    Ok((PyBytes::new(py, &summary), PyBytes::new(py, &examples)))
}

/// A verification as Python describes it: one dict read by key (`game` required; any
/// other key left out is `None`, false, or a limit of 20), shared by `verify_csv` and
/// `verify_rows` instead of a repeated signature.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct VerifyRequest {
    game: String,
    #[pyo3(default)]
    heaps_lo: Option<usize>,
    #[pyo3(default)]
    heaps_hi: Option<usize>,
    #[pyo3(default)]
    max: Option<u32>,
    #[pyo3(default)]
    rules: Option<String>,
    #[pyo3(default)]
    criteria: Option<String>,
    #[pyo3(default)]
    canonical: bool,
    #[pyo3(default)]
    total: Option<u64>,
    #[pyo3(default)]
    limit: Option<usize>,
    #[pyo3(default)]
    with_pass: bool,
}

impl VerifyRequest {
    /// The verification's settings, its mode and its counterexample limit.
    pub(crate) fn args(self) -> (VerifyArgs, nimtab::Mode, usize) {
        let heaps = self.heaps_lo.zip(self.heaps_hi);
        let (game, max, total, rules, criteria) =
            (self.game, self.max, self.total, self.rules, self.criteria);
        let args =
            VerifyArgs { game, with_pass: self.with_pass, heaps, max, total, rules, criteria };
        (args, crate::states::mode_of(self.canonical), self.limit.unwrap_or(20))
    }
}

/// The settings of a verification.
pub(crate) struct VerifyArgs {
    pub game: String,
    /// Whether the game has a pass (`--pass`).
    pub with_pass: bool,
    /// Heap counts `lo..=hi` of a tuple space, or `None` with `total`.
    pub heaps: Option<(usize, usize)>,
    pub max: Option<u32>,
    pub total: Option<u64>,
    pub rules: Option<String>,
    pub criteria: Option<String>,
}

impl VerifyArgs {
    /// The findings of `nimtab verify` for these arguments over the tuples of `mode`,
    /// keeping `limit` counterexamples per finding.
    pub fn findings(
        &self,
        mode: Mode,
        limit: usize,
        progress: &CallProgress,
    ) -> nimtab::Result<Vec<nimtab::analysis::verify::Finding>> {
        let game = crate::states::game_of(&self.game, self.with_pass)?;
        let endings = endings(&game, self.rules.as_deref())?;
        let listed = self.criteria.as_deref().map(Criterion::parse_list).transpose()?;
        match (self.heaps.zip(self.max), self.total) {
            (None, Some(total)) => {
                game.require_sum("a space of multisets of heaps (total)")?;
                let space = Space::multisets(total)?;
                let criteria = listed.unwrap_or_else(|| Criterion::applicable_to(&game, &space));
                let engine = Engine::builder(&game, space).build();
                Ok(verify(&engine, &endings, &criteria, limit, progress)?.findings)
            }
            (Some(((lo, hi), max)), None) => {
                verify_tuples(&game, lo..=hi, max, mode, &endings, listed, limit, progress)
            }
            _ => Err(nimtab::Error::Invalid(
                "give heaps and max (tuples of heaps), or total (multisets)".to_string(),
            )),
        }
    }
}

/// `verify` over tuples: every space checked (heap counts, criteria: those listed, or
/// those that apply) before any is labelled.
#[allow(clippy::too_many_arguments)]
fn verify_tuples(
    game: &Game,
    heaps: std::ops::RangeInclusive<usize>,
    max: u32,
    mode: Mode,
    endings: &[Ending],
    listed: Option<Vec<Criterion>>,
    limit: usize,
    progress: &CallProgress,
) -> nimtab::Result<Vec<nimtab::analysis::verify::Finding>> {
    let mut runs = Vec::new();
    for n in heaps {
        let space = Space::in_mode(n, max, mode)?;
        game.check_heaps(n)?;
        let criteria = match &listed {
            Some(listed) => {
                for criterion in listed {
                    criterion.check_applies_to(game, &space)?;
                }
                listed.clone()
            }
            None => Criterion::applicable_to(game, &space),
        };
        runs.push((space, criteria));
    }
    let mut findings = Vec::new();
    for (space, criteria) in runs {
        let engine = Engine::builder(game, space).build();
        findings.extend(verify(&engine, endings, &criteria, limit, progress)?.findings);
    }
    Ok(findings)
}

/// A sweep as Python describes it: one dict (built and checked by `nimtab._summaries`),
/// read once by key and turned into the library's [`SweepRequest`], so the functions that
/// run, count or shard a sweep take it whole instead of repeating its fields as arguments.
/// Every key is given: `None` (or false) where it does not apply, `rules` and `criteria`
/// the empty text for a quotient sweep.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct SweepDict {
    games: Option<String>,
    game_list: Option<Vec<String>>,
    games_file: Option<(String, String)>,
    heaps_lo: Option<usize>,
    heaps_hi: Option<usize>,
    max: Option<u32>,
    total: Option<u64>,
    rules: String,
    criteria: String,
    claim: Option<String>,
    canonical: bool,
    force: bool,
    quotients: Option<u32>,
    max_order: Option<usize>,
    game_timeout: Option<f64>,
    game_memory: Option<String>,
}

impl SweepDict {
    /// The library's request: the games, and quotients (no space, claim or canonical) or a
    /// table over a space.
    pub(crate) fn request(self) -> PyResult<SweepRequest> {
        let games = match (self.games, self.game_list, self.games_file) {
            (Some(text), _, _) => Games::Text(text),
            (None, Some(list), _) => Games::List(list),
            (None, None, Some((name, contents))) => Games::File { name, contents },
            (None, None, None) => return Err(value_error("no games given")),
        };
        let heaps = self.heaps_lo.zip(self.heaps_hi);
        let quotients = QuotientArgs {
            quotients: self.quotients,
            max_order: self.max_order,
            game_timeout: self.game_timeout,
            game_memory: self.game_memory,
        };
        let kind = match quotients.limits()? {
            Some((max_heap, limits)) => {
                let with_space = heaps.is_some() || self.max.is_some() || self.total.is_some();
                if with_space || self.claim.is_some() || self.canonical {
                    return Err(value_error(
                        "quotients cannot be used with heaps, max, total, claim or canonical",
                    ));
                }
                SweepKind::Quotients { max_heap, limits }
            }
            None => SweepKind::Table {
                space: space(heaps, self.max, self.total, self.canonical)?,
                endings: Ending::parse_list(&self.rules).map_err(value_error)?,
                test: match self.claim {
                    Some(text) => Test::Claim(
                        Expr::parse_claim(&text).map_err(|e| value_error(SweepError::Claim(e)))?,
                    ),
                    None => {
                        Test::Criteria(Criterion::parse_list(&self.criteria).map_err(value_error)?)
                    }
                },
            },
        };
        Ok(SweepRequest { games, force: self.force, kind })
    }
}

/// Tuples of `heaps` heaps of at most `max`, or the multisets of total at most `total`.
fn space(
    heaps: Option<(usize, usize)>,
    max: Option<u32>,
    total: Option<u64>,
    canonical: bool,
) -> PyResult<SweepSpace> {
    match (heaps, max, total) {
        (None, None, Some(_)) if canonical => {
            Err(value_error("canonical applies to tuples of heaps, not to a total"))
        }
        (None, None, Some(total)) => SweepSpace::total(total).map_err(value_error),
        (Some((lo, hi)), Some(max), None) => {
            SweepSpace::heaps(lo, hi, max, crate::states::mode_of(canonical)).map_err(value_error)
        }
        (_, _, Some(_)) => Err(value_error("give either heaps and max, or total, not both")),
        _ => Err(value_error("give heaps and max (tuples of heaps), or total (multisets)")),
    }
}

/// sweep_csv(request, shard, threads, report) -> bytes
///
/// What `nimtab sweep` writes: the whole CSV, or with `shard=(i, n)` the part of shard i.
/// The request (a [`SweepDict`]) names the games, and the space
/// `heaps_lo..=heaps_hi` heaps of at most `max` (all three given), or with `total` (and
/// those `None`) every multiset of heaps of total at most `total`; or with `quotients=N`
/// (and no space, claim or canonical) each game's misère quotient for heaps up to N, as
/// `--quotients N` with `--max-order`, `--game-timeout` and `--game-memory` (`max_order`,
/// `game_timeout` in seconds, `game_memory` as text).
#[pyfunction]
#[pyo3(signature = (request, shard = None, threads = None, report = None))]
pub fn sweep_csv<'py>(
    py: Python<'py>,
    request: SweepDict,
    shard: Option<(usize, usize)>,
    threads: Option<usize>,
    report: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let request = request.request()?;
    let run = move |progress: &CallProgress| -> nimtab::sweep::Result<Vec<u8>> {
        let shard = shard.map(|(i, n)| Shard::new(i, n)).transpose()?;
        let mut out = Vec::new();
        let memory = host::memory_limit();
        match request.plan()? {
            PlannedSweep::Table(sweep) => {
                sweep.write_csv(shard, &mut out, memory, progress, |_| {})
            }
            PlannedSweep::Quotients(sweep) => {
                sweep.write_csv(shard, &mut out, memory, progress, |_| {})
            }
        }?;
        Ok(out)
    };
    let bytes = run_detached(py, threads, report.as_ref(), run)?.map_err(value_error)?;
    Ok(PyBytes::new(py, &bytes))
}

/// sweep_games(request) -> int
///
/// Validates a sweep (every game parsed, the claim compiled, a quotient sweep's bounds)
/// and returns its game count.
#[pyfunction]
pub fn sweep_games(py: Python<'_>, request: SweepDict) -> PyResult<usize> {
    let request = request.request()?;
    let count = run_detached(py, None, None, move |_| request.plan().map(|s| s.games()))?;
    count.map_err(value_error)
}

/// merge(parts) -> bytes: the parts of a sharded sweep (bytes, in any order) merged into
/// the bytes of the whole run. Parts are named `part 1`, `part 2`… in messages.
#[pyfunction]
pub fn merge<'py>(
    py: Python<'py>,
    parts: Vec<Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let parts: Vec<(String, Vec<u8>)> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("part {} of the list", i + 1), p.as_bytes().to_vec()))
        .collect();
    let merged =
        run_detached(py, None, None, move |_| merge_parts(&parts))?.map_err(value_error)?;
    Ok(PyBytes::new(py, &merged))
}
