//! Published and brute-forced facts about the games that are not sums, reproduced by the
//! engine: Wythoff's pairs and Grundy table, misère Wythoff, Moore's counts, circular
//! Nim's solved cases, Nim with a pass; Grundy values of whole positions.

use nimtab::model::position::PassState;
use nimtab::{Ending, Engine, Game, Mode, NoProgress, Space};

use crate::support::reference::{RefGame, Reference};
use crate::support::{all_tuples, engine_game, label};

/// Wythoff's pairs (a_k, a_k + k) by the classical construction: a_k is the least size
/// not yet used. Independent of the golden ratio.
fn wythoff_pairs(max: u32) -> Vec<(u32, u32)> {
    let mut used = vec![false; 2 * max as usize + 2];
    let mut pairs = Vec::new();
    for k in 0.. {
        let a = (0..).find(|&a: &u32| !used[a as usize]).unwrap();
        if a > max {
            break;
        }
        used[a as usize] = true;
        used[(a + k) as usize] = true;
        pairs.push((a, a + k));
    }
    pairs
}

fn p_positions(game: &Game, n: usize, max: u32, ending: Ending) -> Vec<Vec<u32>> {
    let labels = label(game, n, max, ending, Mode::Full);
    labels.iter().filter(|(_, p)| *p).map(|(t, _)| t).collect()
}

#[test]
fn wythoff_normal_p_positions_are_the_wythoff_pairs() {
    let max = 255;
    let mut expected: Vec<Vec<u32>> = Vec::new();
    for (a, b) in wythoff_pairs(max) {
        for (x, y) in [(a, b), (b, a)] {
            if x <= max && y <= max {
                expected.push(vec![x, y]);
            }
        }
    }
    expected.sort();
    expected.dedup();
    assert_eq!(p_positions(&Game::wythoff(), 2, max, Ending::Normal), expected);
}

#[test]
fn sorted_wythoff_p_positions_are_the_wythoff_pairs_far_out() {
    // Rows of up to 47 words, read by diagonals shifted across word boundaries.
    let max = 3000;
    let labels = label(&Game::wythoff(), 2, max, Ending::Normal, Mode::Canonical);
    let found: Vec<Vec<u32>> = labels.iter().filter(|(_, p)| *p).map(|(t, _)| t).collect();
    let pairs = wythoff_pairs(max).into_iter().filter(|&(_, b)| b <= max);
    assert_eq!(found, pairs.map(|(a, b)| vec![a, b]).collect::<Vec<_>>());
}

#[test]
fn misere_wythoff_differs_from_normal_play_at_six_small_positions() {
    let max = 255;
    let normal = p_positions(&Game::wythoff(), 2, max, Ending::Normal);
    let misere = p_positions(&Game::wythoff(), 2, max, Ending::Misere);
    let only_normal: Vec<&Vec<u32>> = normal.iter().filter(|t| !misere.contains(t)).collect();
    let only_misere: Vec<&Vec<u32>> = misere.iter().filter(|t| !normal.contains(t)).collect();
    assert_eq!(only_normal, [&vec![0, 0], &vec![1, 2], &vec![2, 1]]);
    assert_eq!(only_misere, [&vec![0, 1], &vec![1, 0], &vec![2, 2]]);
}

#[test]
fn wythoff_grundy_values_are_the_a004481_table() {
    let rows = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        [1, 2, 0, 4, 5, 3, 7, 8, 6, 10, 11, 9],
        [2, 0, 1, 5, 3, 4, 8, 6, 7, 11, 9, 10],
        [3, 4, 5, 6, 2, 0, 1, 9, 10, 12, 8, 7],
        [4, 5, 3, 2, 7, 6, 9, 0, 1, 8, 13, 12],
        [5, 3, 4, 0, 6, 8, 10, 1, 2, 7, 12, 14],
        [6, 7, 8, 1, 9, 10, 3, 4, 5, 13, 0, 2],
        [7, 8, 6, 9, 0, 1, 4, 5, 3, 14, 15, 13],
        [8, 6, 7, 10, 1, 2, 5, 3, 4, 15, 16, 17],
        [9, 10, 11, 12, 8, 7, 13, 14, 15, 16, 17, 6],
        [10, 11, 9, 8, 13, 12, 0, 15, 16, 17, 14, 18],
        [11, 9, 10, 7, 12, 14, 2, 13, 17, 6, 18, 15],
    ];
    let game = Game::wythoff();
    let engine = Engine::new(&game, Space::new(2, 11).unwrap());
    let values = engine.grundy_values(&NoProgress).unwrap();
    for (a, row) in rows.iter().enumerate() {
        for (b, &g) in row.iter().enumerate() {
            assert_eq!(values.value(&[a as u32, b as u32]), g, "G({a},{b})");
        }
    }
}

#[test]
fn moore_p_counts_match_the_brute_force_counts() {
    // (K, heaps, max, P normal, P misère), ordered tuples.
    let counts = [(2, 4, 15, 625, 625), (3, 4, 15, 16, 18), (2, 5, 7, 1331, 1330)];
    for (k, n, max, normal, misere) in counts {
        let game = Game::moore(k).unwrap();
        let count = |ending| label(&game, n, max, ending, Mode::Full).p_count();
        assert_eq!((count(Ending::Normal), count(Ending::Misere)), (normal, misere), "moore:{k}");
        let canonical = label(&game, n, max, Ending::Normal, Mode::Canonical);
        let full = label(&game, n, max, Ending::Normal, Mode::Full);
        assert!(canonical.iter().all(|(t, p)| full.is_p(&t) == p), "moore:{k} canonical");
    }
}

#[test]
fn circular_nim_solved_cases_hold() {
    // CN(n, n-1): P iff all heaps are equal.
    for (n, max) in [(3, 9), (4, 6), (5, 4)] {
        let game = Game::circular(n as u32 - 1).unwrap();
        let labels = label(&game, n, max, Ending::Normal, Mode::Full);
        for (t, p) in labels.iter() {
            assert_eq!(p, t.iter().all(|&h| h == t[0]), "CN({n},{}) {t:?}", n - 1);
        }
    }
    // CN(4,2): P iff a1 = a3 and a2 = a4.
    let labels = label(&Game::circular(2).unwrap(), 4, 9, Ending::Normal, Mode::Full);
    for (t, p) in labels.iter() {
        assert_eq!(p, t[0] == t[2] && t[1] == t[3], "CN(4,2) {t:?}");
    }
}

#[test]
fn nim_with_a_pass_has_the_published_one_and_two_heap_p_positions() {
    let game = Game::nim().with_pass();
    let one = label(&game, 1, 40, Ending::Normal, Mode::Full);
    for h in 0..=40 {
        assert_eq!(one.is_p_in(&[h], PassState::Available), h == 0, "heap {h}");
        assert_eq!(one.is_p_in(&[h], PassState::Used), h == 0, "heap {h}, pass used: Nim");
    }
    let two = label(&game, 2, 40, Ending::Normal, Mode::Full);
    for t in all_tuples(2, 40) {
        let (a, b) = (t[0].min(t[1]), t[0].max(t[1]));
        let expected = (a, b) == (0, 0) || (a % 2 == 1 && b == a + 1);
        assert_eq!(two.is_p_in(&t, PassState::Available), expected, "{t:?}");
    }
}

#[test]
fn nim_with_a_pass_has_the_brute_forced_three_heap_p_positions() {
    let listed = "0,0,0 0,1,2 0,3,4 0,5,6 0,7,8 0,9,10 0,11,12 0,13,14 1,1,1 1,3,3 1,4,4 \
        1,5,5 1,6,6 1,7,7 1,8,8 1,9,9 1,10,10 1,11,11 1,12,12 1,13,13 1,14,14 1,15,15 2,2,2 \
        2,3,5 2,4,7 2,6,8 2,9,12 2,10,11 2,14,15 3,6,7 3,8,9 3,10,12 3,11,13 4,5,8 4,6,9 \
        4,10,13 4,11,14 4,12,15 5,7,9 5,10,14 5,11,15 5,12,13 6,10,15 6,12,14 7,13,15";
    let expected: Vec<Vec<u32>> = listed
        .split_whitespace()
        .map(|t| t.split(',').map(|h| h.parse().unwrap()).collect())
        .collect();
    let labels = label(&Game::nim().with_pass(), 3, 15, Ending::Normal, Mode::Canonical);
    let found: Vec<Vec<u32>> = labels.iter().filter(|(_, p)| *p).map(|(t, _)| t).collect();
    assert_eq!(found, expected);
}

#[test]
fn grundy_values_of_sums_equal_the_xor_of_the_heap_values() {
    let games =
        [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap(), Game::subtract(&[2, 5]).unwrap()];
    for game in &games {
        let heap = game.grundy(63);
        // (2, 63): rows of whole words; (3, 40): packed rows longer than a word.
        for (n, max) in [(1, 12), (2, 12), (3, 9), (2, 63), (3, 40)] {
            for mode in [Mode::Full, Mode::Canonical] {
                let space = Space::in_mode(n, max, mode).unwrap();
                let engine = Engine::builder(game, space.clone()).parallel_threshold(0).build();
                let values = engine.grundy_values(&NoProgress).unwrap();
                for t in all_tuples(n, max) {
                    let gxor = t.iter().fold(0, |x, &h| x ^ heap[h as usize]);
                    assert_eq!(values.value(&t), gxor, "{} {t:?} {mode:?}", game.spec());
                }
            }
        }
    }
}

#[test]
fn grundy_values_match_the_reference_mex_on_every_game() {
    let games = [
        RefGame::Wythoff,
        RefGame::Moore(2),
        RefGame::Circular(2),
        RefGame::Nim,
        RefGame::Subtract(vec![1, 3, 4]),
    ];
    for game in &games {
        for pass in [false, true] {
            let mut engine_game = engine_game(game);
            if pass {
                engine_game = engine_game.with_pass();
            }
            let mut reference =
                Reference::new(game.clone(), crate::support::reference::RefEnding::Normal);
            for (n, max) in [(1, 12), (2, 9), (3, 6), (4, 4)] {
                if engine_game.check_heaps(n).is_err() {
                    continue;
                }
                let modes: &[Mode] = if engine_game.is_symmetric() {
                    &[Mode::Full, Mode::Canonical]
                } else {
                    &[Mode::Full]
                };
                for &mode in modes {
                    let space = Space::in_mode(n, max, mode).unwrap();
                    let engine =
                        Engine::builder(&engine_game, space.clone()).parallel_threshold(0).build();
                    let values = engine.grundy_values(&NoProgress).unwrap();
                    for t in all_tuples(n, max) {
                        let states: &[bool] = if pass { &[false, true] } else { &[false] };
                        for &available in states {
                            assert_eq!(
                                values.value_in(&t, PassState::of(available)),
                                reference.value(&t, available),
                                "{} {t:?} pass {available} {mode:?}",
                                engine_game.spec()
                            );
                        }
                    }
                }
            }
        }
    }
}
