//! The engine against the reference solver, the theorems it must reproduce, and its
//! invariants (parallel = sequential, canonical = full, the public API's views agree).

use nimtab::{Ending, Engine, Game, Mode, NoProgress, Space};
use proptest::prelude::*;

use crate::support::reference::{RefGame, Reference};
use crate::support::{
    all_tuples, engine_game, label, random_graph, small_spaces, with_threads, ENDINGS,
};

fn assert_matches_reference(game: &RefGame, n: usize, max: u32) {
    let engine_game = engine_game(game);
    for (ending, ref_ending) in ENDINGS {
        let full = label(&engine_game, n, max, ending, Mode::Full);
        let canonical = label(&engine_game, n, max, ending, Mode::Canonical);
        let mut reference = Reference::new(game.clone(), ref_ending);
        for tuple in all_tuples(n, max) {
            let expected = reference.is_p(&tuple);
            assert_eq!(full.is_p(&tuple), expected, "{game:?} {ending} {tuple:?} (full)");
            assert_eq!(canonical.is_p(&tuple), expected, "{game:?} {ending} {tuple:?} (canonical)");
        }
    }
}

#[test]
fn engine_matches_reference_on_nim() {
    // (5, 1) and (6, 2) have many heaps and a tiny max: full-mode Nim falls back to the
    // table. The last two give canonical Nim's sorted planes outer prefixes of 3 and 4
    // heaps with repeated values.
    for (n, max) in small_spaces().into_iter().chain([(5, 1), (6, 2), (5, 6), (6, 3)]) {
        assert_matches_reference(&RefGame::Nim, n, max);
    }
}

#[test]
fn engine_matches_reference_on_subtraction_games() {
    let sets: [&[u32]; 5] = [&[1, 2], &[1, 3, 4], &[2, 3, 5], &[2, 5], &[1, 70]];
    for set in sets {
        // 5 and 6 heaps: canonical planes whose outer prefixes hold repeated values.
        for (n, max) in small_spaces().into_iter().chain([(5, 6), (6, 3)]) {
            assert_matches_reference(&RefGame::Subtract(set.to_vec()), n, max);
        }
    }
}

/// Sets with an element above 64 (labelled from option lists, not the 64-bit history) and
/// a move graph with many moves per size, on 3 heaps with a max above 64 (so a layer holds
/// more rows than a batch of general rows) and on 2 heaps with max 200.
#[test]
fn engine_matches_reference_on_long_subtractions_and_dense_graphs() {
    for (n, max) in [(2, 200), (3, 66)] {
        assert_matches_reference(&RefGame::Subtract(vec![1, 4, 65]), n, max);
    }
    assert_matches_reference(&RefGame::Subtract(vec![2, 5, 65, 130]), 2, 200);
    // Rows of whole words (M + 1 = 64, 128): tables of plain words, read by source rows.
    assert_matches_reference(&RefGame::Subtract(vec![1, 3, 4]), 3, 63);
    // Subtraction rows bit-sliced in batches, layers of up to 67 rows split in two or more.
    assert_matches_reference(&RefGame::Subtract(vec![1, 3, 4]), 3, 66);
    assert_matches_reference(&RefGame::Subtract(vec![1, 4, 65]), 2, 127);
    assert_matches_reference(&RefGame::Graph(dense_graph(66, 9, 3)), 3, 66);
}

/// Up to `moves` random moves from every size of `1..=max` (SplitMix64 from `seed`).
fn dense_graph(max: u32, moves: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut rng = nimtab::random::SplitMix64::new(seed);
    let mut pairs = Vec::new();
    for from in 1..=max {
        for _ in 0..moves {
            let to = rng.below(from as usize) as u32;
            if !pairs.contains(&(from, to)) {
                pairs.push((from, to));
            }
        }
    }
    pairs
}

#[test]
fn engine_matches_reference_on_the_sj_counterexample_graph() {
    let graph = RefGame::Graph(vec![(1, 0), (2, 0), (2, 1), (3, 2)]);
    for (n, max) in [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5), (6, 3)] {
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
        let labels = label(&Game::nim(), n, max, Ending::Normal, Mode::Full);
        for tuple in all_tuples(n, max) {
            let xor = tuple.iter().fold(0, |x, &h| x ^ h);
            assert_eq!(labels.is_p(&tuple), xor == 0, "{tuple:?}");
        }
    }
}

#[test]
fn labels_are_identical_with_one_and_two_threads() {
    // `label` forces every layer through rayon, so two threads really split layers.
    let games = [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap()];
    for game in &games {
        for mode in [Mode::Full, Mode::Canonical] {
            for ending in Ending::ALL {
                // Rows of 8 and 16 columns share table words; 41 straddle them; layers of
                // up to 130 rows make several batches of subtraction rows.
                for (n, max) in [(3, 40), (4, 15), (3, 7), (5, 7), (3, 129)] {
                    let one = with_threads(1, || label(game, n, max, ending, mode));
                    let two = with_threads(2, || label(game, n, max, ending, mode));
                    assert!(one.iter().eq(two.iter()), "{} {mode:?} {ending}", game.spec());
                }
            }
        }
    }
}

#[test]
fn label_tables_cost_one_bit_a_label_whatever_the_max() {
    let games =
        [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap(), Game::parse("circular:2").unwrap()];
    for game in &games {
        for mode in [Mode::Full, Mode::Canonical] {
            if mode == Mode::Canonical && !game.is_symmetric() {
                continue;
            }
            for (n, max) in (7..=70).map(|m| (3, m)).chain([(4, 9), (5, 7), (2, 1000)]) {
                let engine = Engine::new(game, Space::in_mode(n, max, mode).unwrap());
                let labels = engine.positions();
                let bytes = engine.memory_plan().unwrap().table_bytes;
                // One bit a label, the table rounded up to whole 64-bit words.
                assert_eq!(bytes, labels.div_ceil(64) * 8, "{} {n}x{max} {mode:?}", game.spec());
                if labels >= 640 {
                    assert!(bytes as f64 * 8.0 <= 1.1 * labels as f64, "{n}x{max} {mode:?}");
                }
            }
        }
    }
}

#[test]
fn info_states_the_bits_a_label_of_packed_tables() {
    // 10 000 positions in 157 words; 715 sorted tuples in 12 words (768 bits).
    let r = crate::support::cli::run(&[
        "info",
        "--game",
        "subtract:1,3,4",
        "--heaps",
        "4",
        "--max",
        "9",
    ]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // 157 words are 1256 bytes, 12 words 96: sizes read in the unit that fits them.
    assert!(r.stdout.contains("full      memory     1.23 KiB per rule table (1.00 bits a label)"));
    assert!(r.stdout.contains("canonical memory     96 B per rule table (1.07 bits a label)"));
}

#[test]
fn a_rows_bits_start_at_its_first_column_and_agree_with_is_p() {
    let game = Game::subtract(&[1, 3, 4]).unwrap();
    for mode in [Mode::Full, Mode::Canonical] {
        let labels = label(&game, 3, 9, Ending::Sj, mode);
        for prefix in nimtab::model::enumerate::Tuples::new(2, 0, 9) {
            if mode == Mode::Canonical && prefix[0] > prefix[1] {
                continue;
            }
            let (lo, bits) = labels.row(&prefix);
            assert_eq!(lo, if mode == Mode::Full { 0 } else { prefix[1] });
            assert_eq!(bits.len(), (10 - lo) as usize);
            for h in lo..=9 {
                let tuple = [prefix[0], prefix[1], h];
                assert_eq!(bits[(h - lo) as usize], labels.is_p(&tuple), "{tuple:?} {mode:?}");
            }
        }
    }
}

#[test]
fn fused_tables_equal_tables_labelled_one_ending_at_a_time() {
    let game = Game::subtract(&[2, 3, 5]).unwrap();
    for mode in [Mode::Full, Mode::Canonical] {
        let engine = Engine::new(&game, Space::in_mode(3, 20, mode).unwrap());
        let fused = engine.label_all(&Ending::ALL, &NoProgress).unwrap();
        for (table, ending) in fused.iter().zip(Ending::ALL) {
            let alone = engine.label(ending).unwrap();
            assert!(table.iter().eq(alone.iter()), "{mode:?} {ending}");
            assert_eq!(table.p_count(), alone.p_count());
        }
    }
}

#[test]
fn labels_iterate_every_position_once_and_count_their_p() {
    let game = Game::subtract(&[1, 3, 4]).unwrap();
    for mode in [Mode::Full, Mode::Canonical] {
        let labels = label(&game, 3, 9, Ending::Misere, mode);
        let all: Vec<(Vec<u32>, bool)> = labels.iter().collect();
        assert_eq!(all.len() as u64, labels.positions());
        assert_eq!(all.iter().filter(|(_, p)| *p).count() as u64, labels.p_count());
        assert!(all.iter().all(|(t, p)| labels.is_p(t) == *p));
        assert!(all.windows(2).all(|w| w[0].0 < w[1].0), "index order is lexicographic");
    }
}

#[test]
fn a_run_above_the_memory_limit_is_refused_before_allocating() {
    let game = Game::subtract(&[1, 2]).unwrap();
    let engine = Engine::builder(&game, Space::new(3, 255).unwrap()).memory_limit(1 << 20).build();
    let refused = engine.label(Ending::Normal).unwrap_err();
    assert!(matches!(refused, nimtab::EngineError::TooLarge { .. }), "{refused}");
    assert!(refused.to_string().starts_with("space too large: subtract:1,2, 3 heaps, max 255"));
    assert!(!refused.to_string().contains("--"), "library errors name values, not flags");
}

#[test]
fn tables_the_system_refuses_are_an_error_not_an_abort() {
    // 2^57 bytes of table, beyond any machine's address space: the limit (set to all of
    // it) lets the run start, and the allocation itself fails.
    let nim = Game::nim();
    let engine = Engine::builder(&nim, Space::new(3, 1 << 20).unwrap()).memory_limit(u64::MAX);
    let err = engine.build().label(Ending::Normal).unwrap_err();
    assert!(matches!(err, nimtab::EngineError::OutOfMemory { .. }), "{err}");
    let text = err.to_string();
    assert!(text.starts_with("out of memory: nim, 3 heaps, max 1048576 needs "), "{text}");
}

#[test]
fn an_engine_too_large_to_prepare_allocates_nothing_and_refuses_every_run() {
    // One heap of up to 4194303 stones: tiny tables, but 4 million option lists.
    let game = Game::subtract(&[1, 2]).unwrap();
    let space = Space::new(1, nimtab::model::space::MAX_HEAP_SIZE).unwrap();
    let engine = Engine::builder(&game, space.clone()).memory_limit(1 << 20).build();
    let plan = engine.memory_plan().unwrap();
    assert!(plan.fixed_bytes > 8 * 4_194_303, "{plan:?}");
    let err = engine.label(Ending::Normal).unwrap_err();
    assert!(matches!(err, nimtab::EngineError::TooLarge { .. }), "{err}");
}
