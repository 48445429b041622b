//! What the test modules share: the CLI runner, the markdown reader of the docs test,
//! the reference solver, games in both descriptions, spaces, thread pools and random games.

pub mod cli;
pub mod genus_reference;
pub mod markdown;
pub mod multiset_reference;
pub mod reference;
pub mod sequence_reference;
pub mod tree;

use nimtab::{Ending, Engine, Game, Labels, Mode, Space};
use proptest::prelude::*;

use reference::{RefEnding, RefGame};

/// Every ending with its reference twin.
pub const ENDINGS: [(Ending, RefEnding); 3] = [
    (Ending::Normal, RefEnding::Normal),
    (Ending::Misere, RefEnding::Misere),
    (Ending::Sj, RefEnding::Sj),
];

/// A game as the engine sees it, built from the reference description.
pub fn engine_game(game: &RefGame) -> Game {
    match game {
        RefGame::Nim => Game::nim(),
        RefGame::Subtract(set) => Game::subtract(set).unwrap(),
        RefGame::Graph(pairs) => Game::graph("graph:test", pairs).unwrap(),
        RefGame::Wythoff => Game::wythoff(),
        RefGame::Moore(k) => Game::moore(*k as u32).unwrap(),
        RefGame::Circular(k) => Game::circular(*k as u32).unwrap(),
    }
}

/// Labels a space with every layer forced through rayon (threshold 0), so that even
/// small test spaces exercise the parallel path.
pub fn label(game: &Game, n: usize, max: u32, ending: Ending, mode: Mode) -> Labels {
    let engine =
        Engine::builder(game, Space::in_mode(n, max, mode).unwrap()).parallel_threshold(0).build();
    engine.label(ending).unwrap()
}

/// Every tuple of `n` heaps over `0..=max`, in lexicographic order.
pub fn all_tuples(n: usize, max: u32) -> Vec<Vec<u32>> {
    nimtab::model::enumerate::Tuples::new(n, 0, max).collect()
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
