//! `play`: the table's strategy wins from N-positions and loses from P-positions.

use nimtab::analysis::moves::smallest_table;
use nimtab::analysis::play::{Match, Opponent, Side};
use nimtab::random::SplitMix64;
use nimtab::{Ending, Game};

use crate::support::cli::{run, run_with_stdin};

#[test]
fn play_from_7_8_9_wins_every_one_of_100_random_games() {
    let run = run_with_stdin(
        &[
            "play", "--game", "nim", "--rule", "normal", "--seed", "1", "--games", "100", "7", "8",
            "9",
        ],
        "",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("table won 100 of 100 games from (7,8,9)"), "{}", run.stdout);
    let labels = smallest_table(&Game::nim(), Ending::Misere, &[7, 8, 9], 1 << 30).unwrap();
    let nim = Game::nim();
    let play = Match::new(&nim, Ending::Misere, &labels);
    let mut rng = SplitMix64::new(99);
    for _ in 0..100 {
        assert_eq!(play.play(&[7, 8, 9], Opponent::Random, &mut rng).winner, Side::Table);
    }
}

#[test]
fn play_prints_each_move_as_the_classic_play_outs_do() {
    let run = run_with_stdin(&["play", "--rule", "normal", "--seed", "5", "7", "8", "9"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "table:    (7,8,9) -> (1,8,9)  P-position");
    assert!(lines[1].starts_with("opponent: (1,8,9) -> "), "{lines:?}");
    assert_eq!(*lines.last().unwrap(), "table wins at (0,0,0)");
}

#[test]
fn play_from_a_p_position_loses_against_optimal_play() {
    let run = run_with_stdin(&["play", "--opponent", "optimal", "--games", "3", "1", "2", "3"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("table won 0 of 3 games from (1,2,3)"), "{}", run.stdout);
}

#[test]
fn play_refuses_bad_heaps_and_zero_games() {
    let negative = run_with_stdin(&["play", "7", "-8", "9"], "");
    assert_eq!(negative.status, 2);
    assert_eq!(negative.stderr, "nimtab: error: heap 2 is '-8': heap sizes cannot be negative\n");
    let zero = run_with_stdin(&["play", "--games", "0", "7", "8", "9"], "");
    assert_eq!(zero.status, 2);
    assert!(zero.stderr.contains("'0' for '--games <K>'"), "{}", zero.stderr);
    let opponent = run_with_stdin(&["play", "--opponent", "lucky", "7"], "");
    assert_eq!(opponent.status, 2);
    assert!(opponent.stderr.contains("'lucky'"), "{}", opponent.stderr);
}

// ---- crosscheck ----

#[test]
fn a_long_labelling_of_the_start_states_its_plan_first_unless_quiet() {
    let args = ["play", "--game", "subtract:1,3,4", "1200", "1200", "1200"];
    let got = run(&args);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let plan = got.stderr.lines().next().unwrap_or_default();
    let expected = "nimtab: play from (1200,1200,1200): labels subtract:1,3,4, 3 heaps, max \
                    1200, sorted tuples only (289442201 positions); memory ";
    assert!(plan.starts_with(expected), "{plan}");
    let quiet = run(&[&["-q"], &args[..]].concat());
    assert_eq!((quiet.stdout, quiet.stderr.as_str()), (got.stdout, ""));
}
