//! Helpers shared by the test modules: games in both descriptions, rule pairs, spaces.

use nimtab::{Game, Rule};
use proptest::prelude::*;

use crate::reference::{RefGame, RefRule};

/// Every rule with its reference twin.
pub const RULES: [(Rule, RefRule); 3] =
    [(Rule::Normal, RefRule::Normal), (Rule::Misere, RefRule::Misere), (Rule::Sj, RefRule::Sj)];

/// A game as both the engine and the reference see it.
pub fn both(game: &RefGame) -> Game {
    match game {
        RefGame::Nim => Game::nim(),
        RefGame::Subtract(set) => Game::subtract(set).unwrap(),
        RefGame::Graph(pairs) => Game::graph("graph:test", pairs).unwrap(),
    }
}

/// Every tuple of `n` heaps over `0..=max`, in lexicographic order.
pub fn all_tuples(n: usize, max: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|t| {
                (0..=max).map(move |h| {
                    let mut next = t.clone();
                    next.push(h);
                    next
                })
            })
            .collect();
    }
    out
}

/// The spaces of the reference comparisons: n <= 4 and (M+1)^n <= 50 000.
pub fn small_spaces() -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    for n in 1..=4usize {
        let max = (50_000f64.powf(1.0 / n as f64)).floor() as u32 - 1;
        out.push((n, max.min(200)));
    }
    out
}

/// Runs `f` in a rayon pool of `threads` threads.
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
}

/// The built binary.
pub fn nimtab() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_nimtab"))
}

/// Runs nimtab with `args`; returns (status code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = nimtab().args(args).output().expect("nimtab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A random move graph over sizes `0..=max` (2 <= max < 24) and its max.
pub fn random_graph() -> impl Strategy<Value = (Vec<(u32, u32)>, u32)> {
    (2u32..24).prop_flat_map(|max| {
        let pairs = proptest::collection::vec(
            (1..=max).prop_flat_map(|from| (Just(from), 0..from)),
            0..(3 * max as usize),
        );
        (pairs, Just(max))
    })
}
