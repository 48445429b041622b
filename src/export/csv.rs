//! Small tables: Grundy values (CSV, or an OEIS b-file), misère classes and their moves,
//! the split game.

use std::io::{self, Write};

use crate::analysis::classes::{Class, ClassReport};
use crate::analysis::split::SplitOutcome;
use crate::model::game::Game;
use crate::model::position::Spaced;
use crate::sequence::period::Periodicity;

/// Writes the Grundy values of sizes `0..=max` as an OEIS b-file: `n a(n)` with one
/// space, `n` consecutive from 0, a LF after every line, no header or comment.
///
/// # Errors
/// The writer's I/O error.
pub fn write_grundy_bfile<W: Write + ?Sized>(out: &mut W, game: &Game, max: u32) -> io::Result<()> {
    for (h, g) in game.grundy(max).iter().enumerate() {
        writeln!(out, "{h} {g}")?;
    }
    Ok(())
}

/// Writes `heap,grundy` for heap sizes `0..=max`.
///
/// # Errors
/// The writer's I/O error.
pub fn write_grundy<W: Write + ?Sized>(out: &mut W, game: &Game, max: u32) -> io::Result<()> {
    writeln!(out, "heap,grundy")?;
    for (h, g) in game.grundy(max).iter().enumerate() {
        writeln!(out, "{h},{g}")?;
    }
    Ok(())
}

/// Writes `game,preperiod,period,saltus,checked_through` and the one row of a certified
/// period (saltus 0 for ordinary periodicity, `s` for `G(n + p) = G(n) + s`).
///
/// # Errors
/// The writer's I/O error.
pub fn write_period<W: Write + ?Sized>(
    out: &mut W,
    game: &str,
    found: &Periodicity,
) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["game", "preperiod", "period", "saltus", "checked_through"])?;
    let numbers =
        [found.preperiod, found.period, found.saltus, found.checked_through].map(|n| n.to_string());
    csv.write_record([game, &numbers[0], &numbers[1], &numbers[2], &numbers[3]])?;
    csv.flush()
}

/// Writes `class,positions,p_normal,p_misere`, one row per class.
///
/// # Errors
/// The writer's I/O error.
pub fn write_classes<W: Write + ?Sized>(out: &mut W, report: &ClassReport) -> io::Result<()> {
    writeln!(out, "class,positions,p_normal,p_misere")?;
    for (class, c) in Class::ALL.iter().zip(&report.counts) {
        writeln!(out, "{},{},{},{}", class.name(), c.positions, c.p_normal, c.p_misere)?;
    }
    Ok(())
}

/// Writes `from,to,moves`, one row per pair of classes (all 25, zeros included).
///
/// # Errors
/// The writer's I/O error.
pub fn write_transitions<W: Write + ?Sized>(out: &mut W, report: &ClassReport) -> io::Result<()> {
    writeln!(out, "from,to,moves")?;
    for from in Class::ALL {
        for to in Class::ALL {
            let moves = report.moves[from.index()][to.index()];
            writeln!(out, "{},{},{moves}", from.name(), to.name())?;
        }
    }
    Ok(())
}

/// Writes `stones,winner,witness`; the witness's heaps are separated by spaces.
///
/// # Errors
/// The writer's I/O error.
pub fn write_split<W: Write + ?Sized>(out: &mut W, outcomes: &[SplitOutcome]) -> io::Result<()> {
    writeln!(out, "stones,winner,witness")?;
    for o in outcomes {
        let witness = o.witness.as_ref().map(|w| Spaced(w).to_string()).unwrap_or_default();
        writeln!(out, "{},{},{}", o.stones, if o.a_wins() { "A" } else { "B" }, witness)?;
    }
    Ok(())
}
