//! The default suite's take-and-break part beside its verification: the long periods,
//! the misère quotients, and the data files they and the games' facts give (Grundy
//! values, certified periods, misère P-positions of small totals, misère quotients).

use nimtab::atlas::AtlasObserver;
use nimtab::export::csv::write_period;
use nimtab::export::format::Format;
use nimtab::export::labels_csv::{write_table, RowFilter};
use nimtab::export::quotient::QuotientOutput;
use nimtab::sequence::period::PeriodOutcome;
use nimtab::suite::atlas::{suite_atlas, suite_request, AtlasFacts};
use nimtab::suite::quotients::{
    suite_quotients, QuotientFacts, QUOTIENT_CHECK_TOTAL, QUOTIENT_GAMES,
};
use nimtab::suite::takebreak::{
    long_period_command, long_periods, misere_p_command, LongPeriod, TakeBreakFacts,
    LONG_PERIOD_MAX, MISERE_P_TOTAL, PERIOD_MAX,
};
use nimtab::suite::{grundy_file, grundy_file_name};
use nimtab::sweep::{quotient_csv_bytes, write_quotient_header};
use nimtab::{Ending, Engine, NoProgress, Space};

use crate::cli::progress::Bar;
use crate::cli::sequence_bar::SequenceBar;
use crate::cli::Global;

/// The long periods, with a progress bar of their own.
pub fn run_long_periods(global: &Global) -> anyhow::Result<Vec<LongPeriod>> {
    let mut observer = LongObserver {
        bar: SequenceBar::new("long periods", 0, LONG_PERIOD_MAX + 1, global.quiet),
    };
    let found = long_periods(rayon::current_num_threads(), &mut observer)?;
    observer.bar.finish();
    Ok(found)
}

/// Progress of the long period searches.
struct LongObserver {
    bar: SequenceBar,
}

impl nimtab::sequence::Observer for LongObserver {
    fn progress(&mut self, status: &nimtab::sequence::Status) {
        self.bar.update(status);
    }
}

/// The part's files: name under the data directory, bytes, and the command that
/// writes the same bytes.
pub fn files(
    facts: &[TakeBreakFacts],
    long: &[LongPeriod],
) -> anyhow::Result<Vec<(String, Vec<u8>, String)>> {
    let mut files = Vec::new();
    for l in long {
        if let PeriodOutcome::Certified(found) = &l.period {
            let mut bytes = Vec::new();
            write_period(&mut bytes, l.game.spec(), found)?;
            let name = format!("periods/{}", grundy_file_name(&l.game));
            files.push((name, bytes, long_period_command(&l.game)));
        }
    }
    for f in facts {
        let game = &f.job.game;
        let name = grundy_file_name(game);
        files.push(grundy_file(game, PERIOD_MAX)?);
        let mut bytes = Vec::new();
        if let PeriodOutcome::Certified(found) = &f.period {
            write_period(&mut bytes, game.spec(), found)?;
            let command = format!("nimtab period --game {} --max {PERIOD_MAX}", game.spec());
            files.push((format!("periods/{name}"), std::mem::take(&mut bytes), command));
        }
        let space = Space::multisets(MISERE_P_TOTAL.into())?;
        let labels = Engine::new(game, space).label_all(&[Ending::Misere], &NoProgress)?;
        write_table(&mut bytes, game, &labels, None, RowFilter::OnlyP)?;
        files.push((format!("misere-p/{name}"), bytes, misere_p_command(game)));
    }
    Ok(files)
}

/// The suite's misère quotients, proved and checked, with a progress bar of their own.
pub fn run_quotients(global: &Global) -> anyhow::Result<Vec<QuotientFacts>> {
    let each = Space::multisets(QUOTIENT_CHECK_TOTAL)?.positions();
    let bar = Bar::new("quotients", each * QUOTIENT_GAMES.len() as u64, global.quiet);
    let facts = suite_quotients(&bar)?;
    bar.finish();
    Ok(facts)
}

/// The quotients' files: each quotient's JSON and the summary of all of them (its rows
/// are `sweep --quotients N`'s, N the game's own bound, so the suite writes it).
pub fn quotient_files(facts: &[QuotientFacts]) -> anyhow::Result<Vec<(String, Vec<u8>, String)>> {
    let mut files = Vec::new();
    for f in facts {
        let mut bytes = Vec::new();
        QuotientOutput::Json(&f.quotient).write_to(&mut bytes)?;
        let stem = grundy_file_name(&f.game).trim_end_matches(".csv").to_string();
        let command = format!(
            "nimtab quotient --game {} --max-heap {} --format json",
            f.game.spec(),
            f.quotient.max_heap()
        );
        files.push((format!("quotients/{stem}.json"), bytes, command));
    }
    let mut bytes = Vec::new();
    write_quotient_header(&mut bytes)?;
    let rows: Vec<_> = facts.iter().map(QuotientFacts::row).collect();
    bytes.extend(quotient_csv_bytes(&rows)?);
    files.push(("quotients/summary.csv".to_string(), bytes, "nimtab".to_string()));
    Ok(files)
}

/// Counts the atlas's finished codes on the bar.
struct AtlasBar<'b>(&'b Bar);

impl AtlasObserver for AtlasBar<'_> {
    fn code_done(&self, _entry: &nimtab::atlas::Entry) -> Result<(), String> {
        nimtab::Progress::advance(self.0, 1);
        Ok(())
    }
}

/// The suite's atlas of every octal code of up to two digits, with a progress bar.
pub fn run_atlas(global: &Global) -> anyhow::Result<AtlasFacts> {
    let codes = suite_request().plan()?.codes().len() as u64;
    let bar = Bar::counting("atlas", codes, "codes", global.quiet);
    let facts = suite_atlas(&AtlasBar(&bar))?;
    bar.finish();
    Ok(facts)
}
