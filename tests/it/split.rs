//! `split`: the split game's labels against the engine, the parity claim, refusals.

use nimtab::analysis::split::{parity_counterexample, PartitionLabels};
use nimtab::{Ending, Game, Mode};

use crate::support::cli::run_with_stdin;
use crate::support::{all_tuples, label};

#[test]
fn split_parity_claim_holds_up_to_40_stones() {
    let labels = PartitionLabels::new(&Game::nim(), 40).unwrap();
    let outcomes: Vec<_> = (1..=40).map(|n| labels.outcome(n)).collect();
    assert_eq!(parity_counterexample(&outcomes), None);
    for outcome in &outcomes {
        if let Some(witness) = &outcome.witness {
            assert_eq!(witness.iter().sum::<u32>(), outcome.stones);
            assert_eq!(witness.iter().fold(0, |x, &h| x ^ h), 0, "{outcome:?}");
        }
    }
    let run = run_with_stdin(&["split", "--stones", "1..=40"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 41);
    assert_eq!(&lines[..3], ["stones,winner,witness", "1,B,", "2,A,1 1"]);
    assert_eq!(lines[40], "40,A,20 20");
    assert!(run.stderr.contains("holds  A wins iff the number of stones is even"));
}

#[test]
fn partition_labels_match_the_engine_on_small_spaces() {
    for game in [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap()] {
        let partitions = PartitionLabels::new(&game, 24).unwrap();
        for (n, max) in [(1, 24), (2, 12), (3, 8), (4, 6)] {
            let labels = label(&game, n, max, Ending::Normal, Mode::Full);
            for position in all_tuples(n, max) {
                let expected = labels.is_p(&position);
                assert_eq!(partitions.is_p(&position), expected, "{} {position:?}", game.spec());
            }
        }
    }
}

#[test]
fn split_games_of_take_and_break_agree_with_the_multiset_reference() {
    use crate::support::multiset_reference::{all_multisets, TbEnding, TbGame, TbReference};
    for spec in ["octal:0.77", "grundys-game"] {
        let labels = PartitionLabels::new(&Game::parse(spec).unwrap(), 14).unwrap();
        let mut reference = TbReference::new(TbGame::parse(spec), TbEnding::Normal);
        let mut splits = all_multisets(14);
        // Reverse lexicographic order of the parts: the order in which splits are tried.
        splits.sort_by(|a, b| b.cmp(a));
        for stones in 1..=14 {
            let of_n = splits.iter().filter(|s| s.iter().sum::<u32>() == stones);
            let witness = of_n.clone().find(|s| reference.is_p(s)).cloned();
            assert_eq!(labels.outcome(stones).witness, witness, "{spec} {stones}");
            for split in of_n {
                assert_eq!(labels.is_p(split), reference.is_p(split), "{spec} {split:?}");
            }
        }
    }
}

#[test]
fn split_refuses_an_empty_or_oversized_range() {
    let empty = run_with_stdin(&["split", "--stones", "9..=3"], "");
    assert_eq!(empty.status, 2);
    assert!(empty.stderr.contains("--stones 9..=3: the range is empty"), "{}", empty.stderr);
    let big = run_with_stdin(&["split", "--stones", "1..=500"], "");
    assert_eq!(big.status, 2);
    assert!(big.stderr.contains("500 stones is above the limit"), "{}", big.stderr);
}

#[test]
fn a_stone_count_above_the_limit_is_named_as_given() {
    for (stones, named) in [
        ("61", "61"),
        ("4294967296", "4294967296"),
        ("9223372036854775808", "9223372036854775808"),
        ("3..=4294967296", "4294967296"),
    ] {
        let got = run_with_stdin(&["split", "--stones", stones], "");
        assert_eq!(got.status, 2, "{stones}: {}", got.stderr);
        let expected = format!("nimtab: error: {named} stones is above the limit of 60");
        assert!(got.stderr.starts_with(&expected), "{stones}: {}", got.stderr);
        assert_eq!(got.stderr.lines().count(), 1, "{stones}: {}", got.stderr);
        assert!(got.stdout.is_empty(), "{stones}: {}", got.stdout);
    }
}

// ---- play ----
