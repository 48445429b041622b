//! The built-in default suite: which spaces it verifies, and the files it generates.

use std::path::Path;

use crate::analysis::criteria::Criterion;
use crate::error::Result;
use crate::export::plot::Grid;
use crate::model::ending::Ending;
use crate::model::game::Game;

/// The classic counterexample to the SJ criterion under plain misère play: the move graph
/// 1→0, 2→0, 2→1, 3→2, shipped as a data file.
pub const SJ_GRAPH_CSV: &str = include_str!("../data/graphs/sj-counterexample.csv");

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
    Game::graph_from_csv(SJ_GRAPH_SPEC, path, SJ_GRAPH_CSV.as_bytes())
}

/// The default suite: nim for heaps 1..=5 (max 31, or 15 for 5 heaps); three
/// subtraction games for heaps 1..=3, max 63; the SJ counterexample graph for heaps 1..=3,
/// max 3. Every rule and every criterion.
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
    /// File name in `data/plots/`.
    pub file: String,
}

impl SuitePlot {
    /// The `nimtab plot` command that draws the same bytes.
    pub fn command(&self, dir: &str) -> String {
        let grid = match self.grid {
            Grid::TwoHeaps => "--heaps 2".to_string(),
            Grid::ThreeHeapSlice(k) => format!("--heaps 3 --slice h3={k}"),
        };
        format!(
            "nimtab plot --game {} --max {} --rule {} {grid} --scale {} --out {dir}/{}",
            self.game.spec(),
            self.max,
            self.ending,
            self.scale,
            self.file
        )
    }
}

/// The suite's pictures: Nim under normal and misère play (2 heaps, and a 3-heap slice),
/// `subtract:1,3,4`, and the SJ counterexample graph under misère play.
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
        file: file.to_string(),
    };
    let (nim, sub) = (Game::nim(), Game::subtract(&[1, 3, 4])?);
    Ok(vec![
        plot(&nim, Ending::Normal, 31, Grid::TwoHeaps, 10, "nim-normal.svg"),
        plot(&nim, Ending::Misere, 31, Grid::TwoHeaps, 10, "nim-misere.svg"),
        plot(&nim, Ending::Normal, 31, Grid::ThreeHeapSlice(12), 10, "nim-normal-h3-12.svg"),
        plot(&sub, Ending::Normal, 63, Grid::TwoHeaps, 6, "subtract-1-3-4-normal.svg"),
        plot(&sub, Ending::Misere, 63, Grid::TwoHeaps, 6, "subtract-1-3-4-misere.svg"),
        plot(&graph, Ending::Misere, 3, Grid::TwoHeaps, 40, "graph-sj-counterexample-misere.svg"),
    ])
}

/// Endings the suite compares.
pub const SUITE_ENDINGS: [Ending; 3] = Ending::ALL;

/// Criteria the suite compares.
pub const SUITE_CRITERIA: [Criterion; 3] = Criterion::ALL;

/// Counterexamples kept per (heaps, rule, criterion).
pub const SUITE_LIMIT: usize = 20;

/// The file name of a game's Grundy table: `nim.csv`, `subtract-1-3-4.csv`,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grundy_file_names_are_plain() {
        let jobs = default_suite().unwrap();
        let names: Vec<String> = jobs.iter().map(|j| grundy_file_name(&j.game)).collect();
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
