//! Games that are not sums (Wythoff, Moore's Nim_K, circular Nim) and the pass: the engine
//! against the reference solver on every cell, on every path (accumulators and general
//! path, over every tuple and over sorted tuples), with layers forced parallel; sorted
//! tuples against the full table.

use nimtab::engine::MultiHeapPath;
use nimtab::model::position::PassState;
use nimtab::{Ending, Engine, Game, Labels, Mode, NoProgress, Space};
use proptest::prelude::*;

use crate::support::reference::{RefEnding, RefGame, Reference};
use crate::support::{all_tuples, engine_game};

/// Spaces of 1 to 4 heaps with at most about `limit` positions.
fn spaces(limit: f64) -> Vec<(usize, u32)> {
    (1..=4usize).map(|n| (n, (limit.powf(1.0 / n as f64).floor() as u32 - 1).min(40))).collect()
}

/// Labels with every layer parallel, on the accumulators or the general path.
fn label(
    game: &Game,
    n: usize,
    max: u32,
    ending: Ending,
    mode: Mode,
    path: MultiHeapPath,
) -> Labels {
    let space = Space::in_mode(n, max, mode).unwrap();
    let engine =
        Engine::builder(game, space.clone()).parallel_threshold(0).multi_heap_path(path).build();
    engine.label(ending).unwrap()
}

/// Every way of labelling the game: full (accumulators and general path) and, for a
/// symmetric game, canonical (accumulators and general path).
fn tables(game: &Game, n: usize, max: u32, ending: Ending) -> Vec<(&'static str, Labels)> {
    let mut out = vec![
        ("full", label(game, n, max, ending, Mode::Full, MultiHeapPath::Accumulators)),
        ("general", label(game, n, max, ending, Mode::Full, MultiHeapPath::General)),
    ];
    if game.is_symmetric() {
        out.push((
            "canonical",
            label(game, n, max, ending, Mode::Canonical, MultiHeapPath::Accumulators),
        ));
        out.push((
            "canonical general",
            label(game, n, max, ending, Mode::Canonical, MultiHeapPath::General),
        ));
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
    for (ending, ref_ending) in
        [(Ending::Normal, RefEnding::Normal), (Ending::Misere, RefEnding::Misere)]
    {
        let mut reference = Reference::new(game.clone(), ref_ending);
        for (n, max) in spaces(limit) {
            if engine_game.check_heaps(n).is_err() {
                continue;
            }
            for (path, labels) in tables(&engine_game, n, max, ending) {
                for tuple in all_tuples(n, max) {
                    let states: &[bool] = if pass { &[false, true] } else { &[false] };
                    for &available in states {
                        let expected = reference.is_p_state(&tuple, available);
                        let got = labels.is_p_in(&tuple, PassState::of(available));
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
                let engine = Engine::builder(game, space.clone()).parallel_threshold(0).build();
                let labels = engine.label(Ending::Misere).unwrap();
                let states: Vec<(Vec<u32>, bool)> = labels.iter_in(PassState::Used).collect();
                let values = engine.grundy_values(&nimtab::NoProgress).unwrap();
                (states, values.values().to_vec())
            };
            let one = crate::support::with_threads(1, run);
            let two = crate::support::with_threads(2, run);
            assert!(one == two, "{} n={n} max={max}", game.spec());
        }
    }
}

/// A symmetric game that is not a sum, by number: Wythoff, then Moore's Nim_1 to Nim_4.
fn symmetric_game(which: usize, pass: bool) -> Game {
    let game = match which {
        0 => Game::wythoff(),
        k => Game::moore(k as u32).unwrap(),
    };
    if pass {
        game.with_pass()
    } else {
        game
    }
}

/// Sorted tuples labelled with every layer parallel, on `threads` threads of a pool of
/// their own (layers by fork-join) or, with `None`, from outside any pool (by the crew).
fn sorted_labels(
    game: &Game,
    n: usize,
    max: u32,
    ending: Ending,
    threads: Option<usize>,
) -> Labels {
    let run = || label(game, n, max, ending, Mode::Canonical, MultiHeapPath::Accumulators);
    match threads {
        Some(threads) => crate::support::with_threads(threads, run),
        None => run(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The accumulators of sorted tuples (lines, boxes, pairs, diagonals, first Ps) give
    /// every sorted tuple the label of the full table, in both pass states, whichever way
    /// the layers are shared.
    #[test]
    fn sorted_tuples_are_labelled_as_the_full_table(
        which in 0usize..5,
        pass in any::<bool>(),
        n in 2usize..=5,
        size in 0u32..1000,
        misere in any::<bool>(),
        threads in prop_oneof![Just(None), Just(Some(1)), Just(Some(2))],
    ) {
        let game = symmetric_game(which, pass);
        // Up to about 40 000 tuples; rows of more than one word with 2 and 3 heaps.
        let limit = [0, 0, 199, 70, 14, 8][n];
        let max = size % (limit + 1);
        let ending = if misere { Ending::Misere } else { Ending::Normal };
        let full = label(&game, n, max, ending, Mode::Full, MultiHeapPath::Accumulators);
        let sorted = sorted_labels(&game, n, max, ending, threads);
        let states: &[bool] = if pass { &[false, true] } else { &[false] };
        for &available in states {
            for (tuple, p) in full.iter_in(PassState::of(available)) {
                // Sorted tables read any order of the heaps as its sorted tuple.
                prop_assert_eq!(
                    sorted.is_p_in(&tuple, PassState::of(available)),
                    p,
                    "{} {} {:?} pass {}",
                    game.spec(),
                    ending,
                    tuple,
                    available
                );
            }
        }
    }
}

#[test]
fn grundy_values_of_sorted_tuples_are_those_of_the_full_space() {
    for (which, pass, n, max) in
        [(0, false, 2, 60), (0, true, 3, 12), (2, false, 3, 12), (3, true, 4, 6)]
    {
        let game = symmetric_game(which, pass);
        let values = |mode| {
            let space = Space::in_mode(n, max, mode).unwrap();
            let engine = Engine::builder(&game, space.clone()).parallel_threshold(0).build();
            engine.grundy_values(&NoProgress).unwrap()
        };
        let (full, sorted) = (values(Mode::Full), values(Mode::Canonical));
        for tuple in all_tuples(n, max) {
            for available in if pass { vec![false, true] } else { vec![false] } {
                let pass = PassState::of(available);
                let want = full.value_in(&tuple, pass);
                assert_eq!(sorted.value_in(&tuple, pass), want, "{} {tuple:?}", game.spec());
            }
        }
    }
}

#[test]
fn sorted_runs_of_games_that_are_not_sums_keep_no_label_table() {
    // Wythoff's and Moore's sorted rows read accumulators, not the table (which the general
    // path needs): `verify` streams them. Wythoff's take far less memory than a table;
    // Moore's boxes of the whole prefix are a table's size.
    for game in [Game::wythoff(), Game::moore(2).unwrap(), Game::moore(3).unwrap().with_pass()] {
        let space = Space::in_mode(3, 300, Mode::Canonical).unwrap();
        let plan = Engine::new(&game, space.clone()).memory_plan().unwrap();
        assert!(!plan.needs_table, "{}", game.spec());
        let need = plan.bytes(&[nimtab::engine::Work::Stream { endings: 2 }]);
        if game.kind() == nimtab::model::game::GameKind::Wythoff {
            assert!(need < plan.table_bytes / 4, "{need} of {}", plan.table_bytes);
        }
        let engine = Engine::builder(&game, space.clone()).memory_limit(need).build();
        let endings = [Ending::Normal, Ending::Misere];
        let criteria = nimtab::Criterion::applicable(&game, 3);
        let run = nimtab::analysis::verify::verify(&engine, &endings, &criteria, 5, &NoProgress);
        let findings = run.unwrap().findings;
        let positions = engine.positions();
        assert!(findings.iter().all(|f| f.tally.positions == positions), "{}", game.spec());
        let general = Engine::builder(&game, space.clone())
            .multi_heap_path(MultiHeapPath::General)
            .build()
            .memory_plan()
            .unwrap();
        assert!(general.needs_table);
    }
}
