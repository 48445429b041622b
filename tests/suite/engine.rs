//! The engine against the reference solver, the theorems it must reproduce, and its
//! invariants (parallel = sequential, canonical = full).

use nimtab::{Engine, Game, Labels, NoProgress, Rule, Space};
use proptest::prelude::*;

use crate::helpers::{all_tuples, both, random_graph, small_spaces, with_threads, RULES};
use crate::reference::{RefGame, Reference};

fn label(game: &Game, n: usize, max: u32, rule: Rule, canonical: bool) -> Labels {
    // Threshold 0: every layer goes through rayon, even in these small spaces.
    let engine =
        Engine::new(game, Space::new(n, max).unwrap(), canonical).with_parallel_threshold(0);
    engine.run(rule, true, &(), &NoProgress).0.unwrap()
}

fn assert_matches_reference(game: &RefGame, n: usize, max: u32) {
    let engine_game = both(game);
    for (rule, ref_rule) in RULES {
        let full = label(&engine_game, n, max, rule, false);
        let canonical = label(&engine_game, n, max, rule, true);
        let mut reference = Reference::new(game.clone(), ref_rule);
        for tuple in all_tuples(n, max) {
            let expected = reference.is_p(&tuple);
            assert_eq!(full.is_p(&tuple), expected, "{game:?} {rule} {tuple:?} (full)");
            assert_eq!(canonical.is_p(&tuple), expected, "{game:?} {rule} {tuple:?} (canonical)");
        }
    }
}

#[test]
fn engine_matches_reference_on_nim() {
    // The last two spaces have many heaps and a tiny max: Nim falls back to the table.
    for (n, max) in small_spaces().into_iter().chain([(5, 1), (6, 2)]) {
        assert_matches_reference(&RefGame::Nim, n, max);
    }
}

#[test]
fn engine_matches_reference_on_subtraction_games() {
    let sets: [&[u32]; 5] = [&[1, 2], &[1, 3, 4], &[2, 3, 5], &[2, 5], &[1, 70]];
    for set in sets {
        for (n, max) in small_spaces() {
            assert_matches_reference(&RefGame::Subtract(set.to_vec()), n, max);
        }
    }
}

#[test]
fn engine_matches_reference_on_the_theory_move_graph() {
    let graph = RefGame::Graph(vec![(1, 0), (2, 0), (2, 1), (3, 2)]);
    for (n, max) in [(1, 5), (2, 5), (3, 5), (4, 5)] {
        assert_matches_reference(&graph, n, max);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn engine_matches_reference_on_random_move_graphs(
        (pairs, max) in random_graph(),
        n in 1usize..=4,
    ) {
        let max = max.min((50_000f64.powf(1.0 / n as f64)) as u32 - 1);
        assert_matches_reference(&RefGame::Graph(pairs), n, max);
    }

    #[test]
    fn engine_matches_reference_on_random_subtraction_sets(
        set in proptest::collection::btree_set(1u32..12, 1..4),
        n in 1usize..=3,
        max in 0u32..30,
    ) {
        let set: Vec<u32> = set.into_iter().collect();
        assert_matches_reference(&RefGame::Subtract(set), n, max);
    }
}

#[test]
fn nim_normal_p_positions_are_exactly_xor_zero() {
    for (n, max) in [(2, 63), (3, 31), (4, 15), (5, 7)] {
        let labels = label(&Game::nim(), n, max, Rule::Normal, false);
        for tuple in all_tuples(n, max) {
            let xor = tuple.iter().fold(0, |x, &h| x ^ h);
            assert_eq!(labels.is_p(&tuple), xor == 0, "{tuple:?}");
        }
    }
}

#[test]
fn labels_are_identical_with_one_and_two_threads() {
    let games = [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap()];
    for game in &games {
        for canonical in [false, true] {
            for rule in Rule::ALL {
                for (n, max) in [(3, 40), (4, 15)] {
                    let one = with_threads(1, || label(game, n, max, rule, canonical));
                    let two = with_threads(2, || label(game, n, max, rule, canonical));
                    for tuple in all_tuples(n, max) {
                        assert_eq!(one.is_p(&tuple), two.is_p(&tuple));
                    }
                }
            }
        }
    }
}
