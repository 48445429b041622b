//! The built-in default suite: which spaces it verifies, and the files it generates.

pub mod atlas;
pub mod genus;
pub mod hexadecimal;
pub mod quotients;
pub mod quotients_report;
pub mod takebreak;
pub mod takebreak_report;

use std::path::Path;

use crate::analysis::criteria::Criterion;
use crate::export::csv::write_grundy;
use crate::export::plot::Grid;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::space::Space;
use crate::suite::takebreak::{TakeBreakJob, SUITE_TOTAL};
use crate::Result;

/// The classic counterexample to the SJ criterion under plain misère play: the move graph
/// 1→0, 2→0, 2→1, 3→2, shipped as a data file.
pub const SJ_GRAPH_CSV: &str = include_str!("../../data/graphs/sj-counterexample.csv");

/// The specification under which the suite names the shipped move graph.
pub const SJ_GRAPH_SPEC: &str = "graph:data/graphs/sj-counterexample.csv";

/// One verification of the suite: a game over a range of heap counts.
#[derive(Clone, Debug)]
pub struct SuiteJob {
    /// The game.
    pub game: Game,
    /// `(heaps, max)` pairs, in order.
    pub spaces: Vec<(usize, u32)>,
}

/// The shipped SJ counterexample graph, named by [`SJ_GRAPH_SPEC`].
///
/// # Errors
/// Only if the shipped graph text were malformed (a test parses it).
pub fn sj_graph() -> Result<Game> {
    let path = Path::new(SJ_GRAPH_SPEC.trim_start_matches("graph:"));
    Ok(Game::graph_from_csv(SJ_GRAPH_SPEC, path, SJ_GRAPH_CSV.as_bytes())?)
}

/// The default suite: nim for heaps 1..=5 (max 31, or 15 for 5 heaps); three
/// subtraction games for heaps 1..=3, max 63; the SJ counterexample graph for heaps 1..=3,
/// max 3; Wythoff's game with 2 heaps, max 255; `moore:2` with 3 and 4 heaps, max 31;
/// `circular:2` with 3 to 5 heaps, max 15; Nim with a pass with 2 and 3 heaps, max 31.
/// Every ending of each game ([`Ending::defaults`]) and every criterion that applies.
///
/// # Errors
/// As [`sj_graph`].
pub fn default_suite() -> Result<Vec<SuiteJob>> {
    let mut jobs = vec![SuiteJob {
        game: Game::nim(),
        spaces: vec![(1, 31), (2, 31), (3, 31), (4, 31), (5, 15)],
    }];
    for set in [&[1, 2][..], &[1, 3, 4], &[2, 3, 5]] {
        jobs.push(SuiteJob {
            game: Game::subtract(set)?,
            spaces: (1..=3).map(|n| (n, 63)).collect(),
        });
    }
    jobs.push(SuiteJob { game: sj_graph()?, spaces: (1..=3).map(|n| (n, 3)).collect() });
    jobs.push(SuiteJob { game: Game::wythoff(), spaces: vec![(2, 255)] });
    jobs.push(SuiteJob { game: Game::moore(2)?, spaces: vec![(3, 31), (4, 31)] });
    jobs.push(SuiteJob { game: Game::circular(2)?, spaces: (3..=5).map(|n| (n, 15)).collect() });
    jobs.push(SuiteJob { game: Game::nim().with_pass(), spaces: vec![(2, 31), (3, 31)] });
    Ok(jobs)
}

/// A picture the suite draws into `data/plots/`.
#[derive(Clone, Debug)]
pub struct SuitePlot {
    /// The game.
    pub game: Game,
    /// The ending whose P-positions are drawn.
    pub ending: Ending,
    /// Largest heap size.
    pub max: u32,
    /// The 2-heap grid or a 3-heap slice.
    pub grid: Grid,
    /// Pixels per cell.
    pub scale: u32,
    /// With a pass: draw the positions whose pass is available (`true`) or used.
    pub pass_available: bool,
    /// File name in `data/plots/`.
    pub file: String,
}

impl SuitePlot {
    /// The `nimtab plot` command that draws the same bytes.
    pub fn command(&self, dir: &str) -> String {
        let pass = u8::from(self.pass_available);
        let grid = match (self.grid, self.game.has_pass()) {
            (Grid::TwoHeaps, false) => "--heaps 2".to_string(),
            (Grid::TwoHeaps, true) => format!("--heaps 2 --slice pass={pass}"),
            (Grid::ThreeHeapSlice(k), false) => format!("--heaps 3 --slice h3={k}"),
            (Grid::ThreeHeapSlice(k), true) => format!("--heaps 3 --slice h3={k},pass={pass}"),
        };
        format!(
            "nimtab plot --game {} --max {} --rules {} {grid} --scale {} --out {dir}/{}",
            self.game.spec(),
            self.max,
            self.ending,
            self.scale,
            self.file
        )
    }
}

/// The suite's pictures: Nim under normal and misère play (2 heaps, and a 3-heap slice),
/// `subtract:1,3,4`, the SJ counterexample graph under misère play, Wythoff's P-set under
/// both endings, a 3-heap slice of circular Nim and one of Nim with a pass (pass
/// available), under normal play.
///
/// # Errors
/// As [`sj_graph`].
pub fn default_plots() -> Result<Vec<SuitePlot>> {
    let graph = sj_graph()?;
    let plot = |game: &Game, ending, max, grid, scale, file: &str| SuitePlot {
        game: game.clone(),
        ending,
        max,
        grid,
        scale,
        pass_available: game.has_pass(),
        file: file.to_string(),
    };
    let (nim, sub) = (Game::nim(), Game::subtract(&[1, 3, 4])?);
    let (wythoff, circular, passing) =
        (Game::wythoff(), Game::circular(2)?, nim.clone().with_pass());
    Ok(vec![
        plot(&nim, Ending::Normal, 31, Grid::TwoHeaps, 10, "nim-normal.svg"),
        plot(&nim, Ending::Misere, 31, Grid::TwoHeaps, 10, "nim-misere.svg"),
        plot(&nim, Ending::Normal, 31, Grid::ThreeHeapSlice(12), 10, "nim-normal-h3-12.svg"),
        plot(&sub, Ending::Normal, 63, Grid::TwoHeaps, 6, "subtract-1-3-4-normal.svg"),
        plot(&sub, Ending::Misere, 63, Grid::TwoHeaps, 6, "subtract-1-3-4-misere.svg"),
        plot(&graph, Ending::Misere, 3, Grid::TwoHeaps, 40, "graph-sj-counterexample-misere.svg"),
        plot(&wythoff, Ending::Normal, 255, Grid::TwoHeaps, 3, "wythoff-normal.svg"),
        plot(&wythoff, Ending::Misere, 31, Grid::TwoHeaps, 10, "wythoff-misere-31.svg"),
        plot(&circular, Ending::Normal, 15, Grid::ThreeHeapSlice(5), 16, "circular-2-h3-5.svg"),
        plot(&passing, Ending::Normal, 31, Grid::ThreeHeapSlice(12), 10, "nim-pass-h3-12.svg"),
    ])
}

/// Endings the suite labels a game under: every ending of the game ([`Ending::defaults`]).
pub fn suite_endings(game: &Game) -> Vec<Ending> {
    Ending::defaults(game)
}

/// Criteria the suite compares for a space: every one that applies to the game there.
pub fn suite_criteria(game: &Game, space: &Space) -> Vec<Criterion> {
    Criterion::applicable_to(game, space)
}

/// One space the suite verifies, and what its labels are compared with.
#[derive(Clone, Debug)]
pub struct SuiteSpace<'g> {
    /// The game.
    pub game: &'g Game,
    /// Tuples of one heap count of a job, or a take-and-break game's multisets.
    pub space: Space,
    /// The endings it is labelled under.
    pub endings: Vec<Ending>,
    /// The criteria its labels are compared with.
    pub criteria: Vec<Criterion>,
}

/// Every space the suite verifies, in the order of its findings: the spaces of `jobs`
/// (under [`suite_endings`]), then the multisets of total at most [`SUITE_TOTAL`] of each
/// game of `takebreak` (under every ending); each compared with [`suite_criteria`].
///
/// # Errors
/// A space the engine cannot hold (none of the suite's).
pub fn suite_spaces<'g>(
    jobs: &'g [SuiteJob],
    takebreak: &'g [TakeBreakJob],
) -> Result<Vec<SuiteSpace<'g>>> {
    let mut spaces = Vec::new();
    let mut push = |game: &'g Game, space: Space, endings: Vec<Ending>| {
        let criteria = suite_criteria(game, &space);
        spaces.push(SuiteSpace { game, space, endings, criteria });
    };
    for job in jobs {
        for &(heaps, max) in &job.spaces {
            push(&job.game, Space::new(heaps, max)?, suite_endings(&job.game));
        }
    }
    for job in takebreak {
        push(&job.game, Space::multisets(SUITE_TOTAL.into())?, Ending::ALL.to_vec());
    }
    Ok(spaces)
}

/// Counterexamples kept per (heaps, ending, criterion).
pub const SUITE_LIMIT: usize = 20;

/// The file name of a game's Grundy table (sums only): `nim.csv`, `subtract-1-3-4.csv`,
/// `graph-sj-counterexample.csv`.
pub fn grundy_file_name(game: &Game) -> String {
    let spec = game.spec();
    let stem = match spec.strip_prefix("graph:") {
        Some(path) => {
            let name = Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned());
            format!("graph-{}", name.unwrap_or_default())
        }
        None => spec.replace([':', ','], "-"),
    };
    format!("{stem}.csv")
}

/// A game's Grundy table of heaps `0..=max` as the suite writes it: its name under the
/// data directory, its bytes, and the `nimtab grundy` command that writes the same bytes.
///
/// # Errors
/// None in practice: the table is written to memory.
pub fn grundy_file(game: &Game, max: u32) -> Result<(String, Vec<u8>, String)> {
    let mut bytes = Vec::new();
    write_grundy(&mut bytes, game, max)?;
    let command = format!("nimtab grundy --game {} --max {max}", game.spec());
    Ok((format!("grundy/{}", grundy_file_name(game)), bytes, command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grundy_file_names_are_plain() {
        let jobs = default_suite().unwrap();
        let sums = jobs.iter().filter(|j| j.game.is_sum());
        let names: Vec<String> = sums.map(|j| grundy_file_name(&j.game)).collect();
        assert_eq!(
            names,
            [
                "nim.csv",
                "subtract-1-2.csv",
                "subtract-1-3-4.csv",
                "subtract-2-3-5.csv",
                "graph-sj-counterexample.csv"
            ]
        );
    }
}
