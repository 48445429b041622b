//! Findings as `summary.csv`, `counterexamples.csv` and the aligned summary table.

use std::io::{self, Write};

use crate::analysis::tally::Counterexample;
use crate::analysis::verify::Finding;
use crate::export::text_table::{Align, TextTable};
use crate::model::ending::Ending;
use crate::model::position::{Label, SpacedState};
use crate::model::space::Space;

/// The summary's columns: CSV name, name in the text table, alignment in it.
const SUMMARY_COLUMNS: [(&str, &str, Align); 10] = [
    ("game", "game", Align::Left),
    ("heaps", "heaps", Align::Right),
    ("max", "max", Align::Right),
    ("rule", "rule", Align::Left),
    ("criterion", "criterion", Align::Left),
    ("positions", "positions", Align::Right),
    ("p_positions", "P", Align::Right),
    ("agree", "agree", Align::Right),
    ("disagree", "disagree", Align::Right),
    ("first_counterexample", "first counterexample", Align::Left),
];

/// Header of `summary.csv`.
pub fn summary_header() -> Vec<&'static str> {
    SUMMARY_COLUMNS.iter().map(|c| c.0).collect()
}

/// Header of `counterexamples.csv`.
pub const COUNTEREXAMPLE_HEADER: [&str; 8] =
    ["game", "heaps", "max", "rule", "criterion", "position", "dp", "predicted"];

/// The `heaps` and `max` cells naming a finding's space: the heap count and largest heap
/// of a tuple space; `any` and `total<=T` for the multisets of total at most `T`.
pub fn space_cells(f: &Finding) -> [String; 2] {
    match f.total {
        None => [f.heaps.to_string(), f.max.to_string()],
        Some(total) => multiset_space_cells(total),
    }
}

/// The `heaps` and `max` cells of the multiset space of total at most `total`.
pub fn multiset_space_cells(total: u32) -> [String; 2] {
    ["any".to_string(), format!("total<={total}")]
}

/// The criterion column of a finding that compares no criterion (none applies).
pub const NO_CRITERION: &str = "none";

/// The cells of one finding, in summary column order, ending with `first`; the agree and
/// disagree cells of a finding without a criterion, or whose criterion could not be
/// compared, are `nothing`.
fn finding_cells(f: &Finding, first: String, nothing: &str) -> Vec<String> {
    let t = &f.tally;
    let (criterion, agree, disagree) = match f.criterion {
        Some(c) if f.not_compared.is_none() => {
            (c.name(), t.agree.to_string(), t.disagree.to_string())
        }
        Some(c) => (c.name(), nothing.to_string(), nothing.to_string()),
        None => (NO_CRITERION, nothing.to_string(), nothing.to_string()),
    };
    let [heaps, max] = space_cells(f);
    vec![
        f.game.clone(),
        heaps,
        max,
        f.ending.name().to_string(),
        criterion.to_string(),
        t.positions.to_string(),
        t.p_positions.to_string(),
        agree,
        disagree,
        first,
    ]
}

/// The `first_counterexample` cell of a counterexample: its heaps separated by spaces
/// (with the pass state, if any), or `()` for the empty position of a multiset space, so
/// that an empty cell always means no counterexample.
pub fn first_counterexample_cell(c: &Counterexample) -> String {
    if c.position.is_empty() && c.pass.is_none() {
        return "()".to_string();
    }
    SpacedState(&c.position, c.pass).to_string()
}

/// Writes `summary.csv`: one row per (heaps, ending, criterion). A game no criterion
/// applies to gets one row per (heaps, ending) with criterion `none` and empty `agree`,
/// `disagree` and `first_counterexample` cells, e.g. `circular:2,3,15,normal,none,4096,64,,,`;
/// so does a criterion that could not be compared (the quotient criterion when the
/// quotient grew past its order bound, or under the SJ ending), under its own name.
///
/// # Errors
/// The writer's I/O error.
pub fn write_summary<W: Write + ?Sized>(out: &mut W, findings: &[Finding]) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(summary_header())?;
    for f in findings {
        let first = f.tally.counterexamples.first().map(first_counterexample_cell);
        csv.write_record(finding_cells(f, first.unwrap_or_default(), ""))?;
    }
    csv.flush()
}

/// Writes `counterexamples.csv`: every kept counterexample, in finding and index order.
///
/// # Errors
/// The writer's I/O error.
pub fn write_counterexamples<W: Write + ?Sized>(
    out: &mut W,
    findings: &[Finding],
) -> io::Result<()> {
    writeln!(out, "{}", COUNTEREXAMPLE_HEADER.join(","))?;
    for f in findings {
        let Some(criterion) = f.criterion.map(|c| c.name()) else { continue };
        let rows = &f.tally.counterexamples;
        write_rows(out, &f.game, space_cells(f), f.ending, criterion, rows)?;
    }
    Ok(())
}

/// Writes counterexample rows (no header) of one space, ending and criterion (a criterion
/// name, or a claim's expression), in the `counterexamples.csv` format; the space columns
/// read its heap count and largest heap, or `any` and `total<=T` for the multisets of
/// total at most `T`.
///
/// # Errors
/// The writer's I/O error.
pub fn write_counterexample_rows<W: Write + ?Sized>(
    out: &mut W,
    game: &str,
    space: &Space,
    ending: Ending,
    criterion: &str,
    counterexamples: &[Counterexample],
) -> io::Result<()> {
    let cells = match space {
        Space::Tuples(tuples) => [tuples.heaps().to_string(), tuples.max().to_string()],
        Space::Multisets(multisets) => multiset_space_cells(multisets.total()),
    };
    write_rows(out, game, cells, ending, criterion, counterexamples)
}

/// Writes counterexample rows whose `heaps` and `max` cells are `space`.
fn write_rows<W: Write + ?Sized>(
    out: &mut W,
    game: &str,
    space: [String; 2],
    ending: Ending,
    criterion: &str,
    counterexamples: &[Counterexample],
) -> io::Result<()> {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(out);
    let [heaps, max] = space;
    for c in counterexamples {
        let dp = Label::of(c.dp_is_p);
        csv.write_record([
            game,
            &heaps,
            &max,
            ending.name(),
            criterion,
            &SpacedState(&c.position, c.pass).to_string(),
            dp.as_str(),
            dp.flipped().as_str(),
        ])?;
    }
    csv.flush()
}

/// Renders findings as an aligned text table (one line per finding).
pub fn summary_table(findings: &[Finding]) -> String {
    let header: Vec<&str> = SUMMARY_COLUMNS.iter().map(|c| c.1).collect();
    let align: Vec<Align> = SUMMARY_COLUMNS.iter().map(|c| c.2).collect();
    let mut table = TextTable::new(&header, &align);
    for f in findings {
        let first = match &f.not_compared {
            Some(reason) => format!("not compared: {reason}"),
            None => f.tally.counterexamples.first().map_or("-".to_string(), |c| {
                format!("({}) dp {}", SpacedState(&c.position, c.pass), Label::of(c.dp_is_p))
            }),
        };
        let theorem_note = if f.theorem_failed() { "  THEOREM FAILED" } else { "" };
        table.push(finding_cells(f, format!("{first}{theorem_note}"), "-"));
    }
    table.render()
}
