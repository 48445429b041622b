//! A sweep as a front end asks for it (the command line's flags, Python's dict), checked
//! once here, and the one way a planned sweep writes its CSV or its shard's part.

use std::io::{self, Write};
use std::ops::Range;

use crate::engine::Progress;
use crate::export::sweep_part::PartLines;
use crate::model::ending::Ending;
use crate::sweep::error::Result;
use crate::sweep::family::{Family, FamilyLimit};
use crate::sweep::quotients::{QuotientLimits, QuotientSweep};
use crate::sweep::{Shard, Sweep, SweepSpace, Test};
use crate::Error;

/// Where a sweep's games come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Games {
    /// A family text: specs separated by `;`, or a pattern.
    Text(String),
    /// Game specs (or patterns), one an entry.
    List(Vec<String>),
    /// A games file, read by the front end.
    File {
        /// The file's name, for messages.
        name: String,
        /// Its text, one spec or pattern a line (`#` starts a comment).
        contents: String,
    },
}

impl Games {
    /// The family of these games, past the usual limit when `force` says so.
    ///
    /// # Errors
    /// Those of [`Family::parse`], [`Family::from_specs`] and [`Family::from_lines`].
    pub fn family(&self, force: bool) -> Result<Family> {
        let limit = if force { FamilyLimit::Forced } else { FamilyLimit::Usual };
        match self {
            Games::Text(text) => Family::parse(text, limit),
            Games::List(list) => Family::from_specs(list, limit),
            Games::File { name, contents } => Family::from_lines(name, contents, limit),
        }
    }
}

/// What a sweep does with its games.
#[derive(Clone, Debug)]
pub enum SweepKind {
    /// The criteria (or a claim) on every game, over a space, under some endings.
    Table {
        /// The tuples or multisets every game is checked on.
        space: SweepSpace,
        /// The endings, at least one.
        endings: Vec<Ending>,
        /// The criteria or the claim (parsed by the front end, which shows its errors in
        /// its own words).
        test: Test,
    },
    /// Each game's misère quotient.
    Quotients {
        /// Heaps up to this size (`--quotients N`).
        max_heap: u32,
        /// The order bound and each game's time and memory.
        limits: QuotientLimits,
    },
}

/// A whole sweep request: the games, whether more than the usual number may run, and
/// what to do with them.
#[derive(Clone, Debug)]
pub struct SweepRequest {
    /// The family's games.
    pub games: Games,
    /// Allow a family past the usual limit (`--force`).
    pub force: bool,
    /// A table or quotients.
    pub kind: SweepKind,
}

/// A sweep checked and ready to run.
#[derive(Debug)]
pub enum PlannedSweep {
    /// Criteria or a claim over a space.
    Table(Sweep),
    /// Misère quotients.
    Quotients(QuotientSweep),
}

impl SweepRequest {
    /// The family of games, parsed.
    ///
    /// # Errors
    /// Those of [`Family::parse`], [`Family::from_specs`] and [`Family::from_lines`].
    pub fn family(&self) -> Result<Family> {
        self.games.family(self.force)
    }

    /// Every game parsed and the test checked against the space, before any work.
    ///
    /// # Errors
    /// Those of [`SweepRequest::family`], [`Sweep::new`] and [`QuotientSweep::new`].
    pub fn plan(&self) -> Result<PlannedSweep> {
        let family = self.family()?;
        Ok(match &self.kind {
            SweepKind::Table { space, endings, test } => {
                PlannedSweep::Table(Sweep::new(family, space.clone(), endings, test.clone())?)
            }
            &SweepKind::Quotients { max_heap, limits } => {
                PlannedSweep::Quotients(QuotientSweep::new(family, max_heap, limits)?)
            }
        })
    }
}

impl PlannedSweep {
    /// The games the sweep runs.
    pub fn games(&self) -> usize {
        match self {
            PlannedSweep::Table(sweep) => sweep.games(),
            PlannedSweep::Quotients(sweep) => sweep.games(),
        }
    }
}

/// The two kinds of sweep as their output sees them: rows of their own kind, run batch by
/// batch over a range of games, each batch written as CSV lines after a header, or into a
/// shard's part after its head. [`SweepOutput::write_csv`] is the one writer of both.
pub trait SweepOutput {
    /// One row of the sweep's CSV.
    type Row;

    /// The games of `shard`, or every game.
    fn games_of(&self, shard: Option<Shard>) -> Range<usize>;

    /// Writes the CSV header (no part), or the head of `shard`'s part.
    ///
    /// # Errors
    /// The writer's I/O error.
    fn start(&self, out: &mut dyn Write, shard: Option<Shard>) -> io::Result<Option<PartLines>>;

    /// Runs `games` a batch of [`BATCH_GAMES`](crate::sweep::BATCH_GAMES) games at a
    /// time, handing each batch's rows to `each` in the family's order.
    ///
    /// # Errors
    /// Those of the sweep's run, and the first error `each` returns.
    ///
    /// # Panics
    /// If `games` reaches past the family.
    fn run_batches(
        &self,
        games: Range<usize>,
        memory_limit: u64,
        progress: &dyn Progress,
        each: &mut dyn FnMut(Vec<Self::Row>) -> Result<()>,
    ) -> Result<()>;

    /// Rows as CSV lines.
    ///
    /// # Errors
    /// An I/O error of the CSV writer.
    fn csv(rows: &[Self::Row]) -> io::Result<Vec<u8>>;

    /// Writes the sweep's CSV to `out` (with `shard`, that shard's part for `merge`), batch
    /// by batch, so that only one batch of rows is held; `each` sees every batch's rows.
    ///
    /// # Errors
    /// Those of the sweep's run; a write error as [`Error::Io`].
    fn write_csv(
        &self,
        shard: Option<Shard>,
        out: &mut dyn Write,
        memory_limit: u64,
        progress: &dyn Progress,
        each: impl FnMut(&[Self::Row]),
    ) -> Result<()>
    where
        Self: Sized,
    {
        let games = self.games_of(shard);
        let part = self.start(out, shard).map_err(Error::Io)?;
        let run = |batch: &mut dyn FnMut(Vec<Self::Row>) -> Result<()>| {
            self.run_batches(games, memory_limit, progress, batch)
        };
        write_batches::<Self>(out, part, run, each)
    }
}

/// The one way rows reach a sweep's output, after its header or its part's head: `run`
/// hands over the rows batch by batch, each written as CSV lines (through the part, which
/// counts and hashes them) and shown to `each`; a part ends with its count and hash.
fn write_batches<S: SweepOutput>(
    out: &mut dyn Write,
    mut part: Option<PartLines>,
    run: impl FnOnce(&mut dyn FnMut(Vec<S::Row>) -> Result<()>) -> Result<()>,
    mut each: impl FnMut(&[S::Row]),
) -> Result<()> {
    run(&mut |rows: Vec<S::Row>| {
        let bytes = S::csv(&rows).map_err(Error::Io)?;
        match &mut part {
            Some(part) => part.lines(out, &bytes, rows.len()),
            None => out.write_all(&bytes),
        }
        .map_err(Error::Io)?;
        each(&rows);
        Ok(())
    })?;
    if let Some(part) = part {
        part.finish(out).map_err(Error::Io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::criteria::Criterion;
    use crate::analysis::expr::Expr;
    use crate::engine::NoProgress;
    use crate::model::space::Mode;
    use crate::quotient::QuotientError;
    use crate::sweep::SweepError;
    use crate::sweep::{merge, write_csv as write_whole};

    const MEMORY: u64 = 1 << 30;

    fn table(games: Games, test: Test) -> SweepRequest {
        let space = SweepSpace::heaps(2, 3, 7, Mode::Full).unwrap();
        let endings = vec![Ending::Normal, Ending::Misere];
        SweepRequest { games, force: false, kind: SweepKind::Table { space, endings, test } }
    }

    fn criteria() -> Test {
        Test::Criteria(vec![Criterion::Xor, Criterion::AntiNim])
    }

    #[test]
    fn a_family_text_a_list_and_a_file_plan_the_same_games() {
        let text = table(Games::Text("nim;subtract:1,2".into()), criteria());
        let list = table(Games::List(vec!["nim".into(), "subtract:1,2".into()]), criteria());
        let contents = "# two games\nnim\nsubtract:1,2\n".to_string();
        let file = table(Games::File { name: "g.txt".into(), contents }, criteria());
        let specs = |r: &SweepRequest| r.family().unwrap().specs().to_vec();
        assert_eq!(specs(&text), ["nim", "subtract:1,2"]);
        assert_eq!(specs(&list), specs(&text));
        assert_eq!(specs(&file), specs(&text));
    }

    #[test]
    fn the_written_csv_is_the_rows_of_the_run_and_its_parts_merge_into_it() {
        let request = table(Games::Text("subtract:subsets(1..=3)".into()), criteria());
        let PlannedSweep::Table(sweep) = request.plan().unwrap() else { panic!("a table") };
        let mut written = Vec::new();
        let mut seen = 0;
        sweep
            .write_csv(None, &mut written, MEMORY, &NoProgress, |rows| seen += rows.len())
            .unwrap();
        let rows = sweep.run(0..sweep.games(), MEMORY, &NoProgress).unwrap();
        let mut whole = Vec::new();
        write_whole(&mut whole, &rows).unwrap();
        assert_eq!(String::from_utf8(written.clone()).unwrap(), String::from_utf8(whole).unwrap());
        assert_eq!(seen, rows.len());
        let parts: Vec<(String, Vec<u8>)> = (1..=3)
            .map(|i| {
                let mut part = Vec::new();
                let shard = Some(Shard::new(i, 3).unwrap());
                sweep.write_csv(shard, &mut part, MEMORY, &NoProgress, |_| {}).unwrap();
                (format!("part {i}"), part)
            })
            .collect();
        assert_eq!(merge(&parts).unwrap(), written);
    }

    #[test]
    fn a_claim_a_sweep_cannot_evaluate_is_refused_at_planning() {
        let claim = Test::Claim(Expr::parse_claim("grundy == 0").unwrap());
        let request = table(Games::Text("nim".into()), claim);
        assert!(matches!(request.plan(), Err(SweepError::Claim(_))), "{:?}", request.plan());
    }

    #[test]
    fn a_quotient_request_checks_its_bounds_and_writes_one_row_a_game() {
        let games = Games::Text("octal:0.?7".into());
        let limits = QuotientLimits { max_order: Some(64), ..QuotientLimits::default() };
        let kind = SweepKind::Quotients { max_heap: 0, limits };
        let request = SweepRequest { games: games.clone(), force: false, kind };
        let refused = request.plan();
        assert!(matches!(refused, Err(SweepError::Quotient(QuotientError::MaxHeap { .. }))));
        let kind = SweepKind::Quotients { max_heap: 12, limits };
        let PlannedSweep::Quotients(sweep) =
            SweepRequest { games, force: false, kind }.plan().unwrap()
        else {
            panic!("quotients")
        };
        let mut out = Vec::new();
        sweep.write_csv(None, &mut out, MEMORY, &NoProgress, |_| {}).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1 + sweep.games(), "{text}");
        assert!(text.starts_with("game,max_heap,last_heap,order,"), "{text}");
    }
}
