//! Games that are not sums (Wythoff, Moore's Nim_K, circular Nim) and the pass: the engine
//! against the reference solver on every cell, on every path (accumulators, general
//! path, sorted tuples), with layers forced parallel.

use nimtab::{Ending, Engine, Game, Labels, Mode, Space};

use crate::support::reference::{RefGame, RefRule, Reference};
use crate::support::{all_tuples, engine_game};

/// Spaces of 1 to 4 heaps with at most about `limit` positions.
fn spaces(limit: f64) -> Vec<(usize, u32)> {
    (1..=4usize).map(|n| (n, (limit.powf(1.0 / n as f64).floor() as u32 - 1).min(40))).collect()
}

/// Labels with every layer parallel; `general` forces the general path in full mode.
fn label(game: &Game, n: usize, max: u32, ending: Ending, mode: Mode, general: bool) -> Labels {
    let space = Space::in_mode(n, max, mode).unwrap();
    let engine = Engine::builder(game, space).parallel_threshold(0).general_path(general).build();
    engine.label(ending).unwrap()
}

/// Every way of labelling the game: full (accumulators and general path) and, for a
/// symmetric game, canonical.
fn tables(game: &Game, n: usize, max: u32, ending: Ending) -> Vec<(&'static str, Labels)> {
    let mut out = vec![
        ("full", label(game, n, max, ending, Mode::Full, false)),
        ("general", label(game, n, max, ending, Mode::Full, true)),
    ];
    if game.is_symmetric() {
        out.push(("canonical", label(game, n, max, ending, Mode::Canonical, false)));
    }
    out
}

/// Full-mode tables of whole-word rows (M + 1 = 64) read one source row at a time agree
/// with the line accumulators and with sorted tuples.
#[test]
fn the_general_path_over_whole_word_rows_agrees_with_the_other_paths() {
    let game = Game::wythoff();
    for ending in [Ending::Normal, Ending::Misere] {
        let all = tables(&game, 3, 63, ending);
        let (_, full) = &all[0];
        for (name, other) in &all[1..] {
            for (tuple, p) in full.iter() {
                assert_eq!(other.is_p(&tuple), p, "{name} {ending} {tuple:?}");
            }
        }
    }
}

pub fn assert_matches_reference(game: &RefGame, pass: bool, limit: f64) {
    let mut engine_game = engine_game(game);
    if pass {
        engine_game = engine_game.with_pass();
    }
    for (ending, rule) in [(Ending::Normal, RefRule::Normal), (Ending::Misere, RefRule::Misere)] {
        let mut reference = Reference::new(game.clone(), rule);
        for (n, max) in spaces(limit) {
            if engine_game.check_heaps(n).is_err() {
                continue;
            }
            for (path, labels) in tables(&engine_game, n, max, ending) {
                for tuple in all_tuples(n, max) {
                    let states: &[bool] = if pass { &[false, true] } else { &[false] };
                    for &available in states {
                        let expected = reference.is_p_state(&tuple, available);
                        let got = labels.is_p_in(&tuple, available);
                        assert_eq!(
                            got,
                            expected,
                            "{} {ending} {tuple:?} pass {available} ({path})",
                            engine_game.spec()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn wythoff_matches_the_reference_on_every_cell() {
    assert_matches_reference(&RefGame::Wythoff, false, 20_000.0);
}

#[test]
fn moore_matches_the_reference_on_every_cell() {
    for k in 1..=4 {
        assert_matches_reference(&RefGame::Moore(k), false, 6_000.0);
    }
}

#[test]
fn circular_matches_the_reference_on_every_cell() {
    for k in 1..=4 {
        assert_matches_reference(&RefGame::Circular(k), false, 6_000.0);
    }
}

#[test]
fn games_with_a_pass_match_the_reference_on_every_cell() {
    let games = [
        RefGame::Nim,
        RefGame::Subtract(vec![1, 3, 4]),
        RefGame::Graph(vec![(1, 0), (2, 0), (2, 1), (3, 2)]),
        RefGame::Wythoff,
        RefGame::Moore(2),
        RefGame::Circular(2),
        RefGame::Circular(3),
    ];
    for game in &games {
        assert_matches_reference(game, true, 4_000.0);
    }
}

#[test]
fn labels_and_grundy_values_are_identical_with_one_and_two_threads() {
    let games = [
        Game::wythoff(),
        Game::moore(2).unwrap(),
        Game::circular(2).unwrap().with_pass(),
        Game::nim().with_pass(),
    ];
    for game in &games {
        for (n, max) in [(3, 20), (4, 9)] {
            let run = || {
                let space = Space::new(n, max).unwrap();
                let engine = Engine::builder(game, space).parallel_threshold(0).build();
                let labels = engine.label(Ending::Misere).unwrap();
                let states: Vec<(Vec<u32>, bool)> = labels.iter_in(false).collect();
                let values = engine.grundy_values(&nimtab::NoProgress).unwrap();
                (states, values.values().to_vec())
            };
            let one = crate::support::with_threads(1, run);
            let two = crate::support::with_threads(2, run);
            assert!(one == two, "{} n={n} max={max}", game.spec());
        }
    }
}
