//! `moves`: winning moves from the table, the Nim formulas, and refusals.

use nimtab::analysis::moves::{smallest_table, winning_moves, Move};
use nimtab::{Ending, Game};

use crate::support::cli::run_with_stdin;

#[test]
fn the_classic_winning_moves_come_out_as_stated() {
    let examples = [
        ([14, 21, 39], "3,39,27,12"),
        ([55, 81, 121], "3,121,102,19"),
        ([29, 45, 58], "3,58,48,10"),
    ];
    for (position, row) in examples {
        let heaps: Vec<String> = position.iter().map(u32::to_string).collect();
        let mut args = vec!["moves", "--game", "nim", "--format", "csv"];
        args.extend(heaps.iter().map(String::as_str));
        let run = run_with_stdin(&args, "");
        assert_eq!(run.status, 0, "{}", run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines[0], "heap,from,to,take");
        assert!(lines.contains(&row), "{position:?}: {lines:?}");
        assert!(run.stderr.contains("formula gives the same moves"), "{}", run.stderr);
    }
    let labels = smallest_table(&Game::nim(), Ending::Normal, &[14, 21, 39], 1 << 30).unwrap();
    let moves = winning_moves(&Game::nim(), &labels, &[14, 21, 39]);
    assert_eq!(moves, vec![Move { heap: 2, from: 39, to: 27 }]);
}

#[test]
fn moves_from_a_p_position_prints_no_rows_and_says_it_is_lost() {
    let run = run_with_stdin(&["moves", "--format", "csv", "1", "2", "3"], "");
    assert_eq!((run.status, run.stdout.as_str()), (0, "heap,from,to,take\n"));
    assert!(run.stderr.contains("(1,2,3) is a P-position: lost for the player to move"));
    let misere =
        run_with_stdin(&["moves", "--rule", "misere", "--format", "csv", "1", "1", "1"], "");
    assert_eq!(misere.stdout, "heap,from,to,take\n");
    assert!(misere.stderr.contains("(1,1,1) is a P-position"), "{}", misere.stderr);
}

#[test]
fn moves_refuses_a_missing_or_negative_heap() {
    let none = run_with_stdin(&["moves", "--game", "nim"], "");
    assert_eq!(none.status, 2);
    assert!(none.stderr.starts_with("nimtab: error: the following required arguments"));
    assert!(none.stderr.contains("<H>"), "{}", none.stderr);
    let negative = run_with_stdin(&["moves", "4", "-2"], "");
    assert_eq!(negative.status, 2);
    assert_eq!(negative.stderr, "nimtab: error: heap 2 is '-2': heap sizes cannot be negative\n");
    let rule = run_with_stdin(&["moves", "--rule", "losing", "4"], "");
    assert_eq!(rule.status, 2);
    assert!(rule.stderr.contains("'losing'"), "{}", rule.stderr);
}

// ---- classes ----

#[test]
fn options_may_follow_the_heaps() {
    let moves = run_with_stdin(&["moves", "14", "21", "39", "--format", "csv"], "");
    assert_eq!((moves.status, moves.stdout.as_str()), (0, "heap,from,to,take\n3,39,27,12\n"));
    let play = run_with_stdin(&["play", "7", "8", "9", "--seed", "1", "--games", "100"], "");
    assert_eq!(play.status, 0, "{}", play.stderr);
    assert!(play.stdout.starts_with("table won 100 of 100 games from (7,8,9)"), "{}", play.stdout);
    let negative = run_with_stdin(&["moves", "4", "-2", "--format", "csv"], "");
    assert_eq!(negative.stderr, "nimtab: error: heap 2 is '-2': heap sizes cannot be negative\n");
}

#[test]
fn a_position_the_sj_ending_has_ended_has_no_winning_move() {
    // subtract:1,3,4 has Grundy values g(2) = g(7) = 0: under SJ (2,7) is over.
    let game = ["--game", "subtract:1,3,4", "--rule", "sj"];
    let moves =
        run_with_stdin(&[&["moves"][..], &game, &["--format", "csv", "2", "7"]].concat(), "");
    assert_eq!((moves.status, moves.stdout.as_str()), (0, "heap,from,to,take\n"));
    assert_eq!(
        moves.stderr,
        "nimtab: (2,7) is over under the sj rule: the player to move has won\n"
    );
    let play = run_with_stdin(&[&["play"][..], &game, &["2", "7"]].concat(), "");
    assert_eq!(play.status, 0, "{}", play.stderr);
    assert_eq!(
        play.stdout,
        "(2,7) is already over under the sj rule: won by the side to move (the table)\n"
    );
    // A position that is not over is played as usual.
    let earlier = run_with_stdin(&[&["moves"][..], &game, &["4", "7"]].concat(), "");
    assert!(earlier.stdout.starts_with("take 1 from heap 1 (4 -> 3): (4,7) -> (3,7)\n"));
}

/// The lines of stderr that are notes (`nimtab: ...`).
fn notes(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("nimtab: ")).collect()
}

#[test]
fn a_long_labelling_states_its_plan_first_unless_quiet() {
    let args = ["moves", "--game", "subtract:1,3,4", "1200", "1200", "1200"];
    let got = run_with_stdin(&args, "");
    assert_eq!(got.status, 0, "{}", got.stderr);
    let plan = notes(&got.stderr)[0];
    let expected = "nimtab: moves from (1200,1200,1200): labels subtract:1,3,4, 3 heaps, max \
                    1200, sorted tuples only (289442201 positions), then looks up its 9 moves; \
                    memory ";
    assert!(plan.starts_with(expected), "{plan}");
    assert!(plan.ends_with(" available"), "{plan}");
    let quiet = run_with_stdin(&[&["-q"], &args[..]].concat(), "");
    assert_eq!((quiet.stdout, quiet.stderr.as_str()), (got.stdout, ""));
    // Circular Nim's three heaps of 120 have 1771560 moves, each looked up.
    let many = run_with_stdin(&["moves", "--game", "circular:3", "120", "120", "120"], "");
    let plan = notes(&many.stderr)[0];
    let expected = "nimtab: moves from (120,120,120): labels circular:3, 3 heaps, max 120 \
                    (1771561 positions), then looks up its 1771560 moves; memory ";
    assert!(plan.starts_with(expected), "{plan}");
    // A small labelling says nothing of it.
    let small = run_with_stdin(&["moves", "--game", "nim", "14", "21", "39"], "");
    assert_eq!(small.stderr, "nimtab: the normal Nim formula gives the same moves\n");
}

#[test]
fn a_long_labelling_shows_a_progress_bar_on_a_terminal() {
    // `script` gives the run a terminal; without it there is no bar to see.
    let Ok(probe) = std::process::Command::new("script").arg("--version").output() else {
        println!("skipped: no `script` to give the run a terminal");
        return;
    };
    assert!(probe.status.success());
    // Seconds of labelling on one thread: the bar shows after the first.
    let line = format!(
        "{} --threads 1 moves --game subtract:1,3,4 3000 3000 3000",
        env!("CARGO_BIN_EXE_nimtab")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    let start: String = shown.chars().take(2000).collect();
    assert!(out.status.success(), "{start}");
    assert!(shown.contains("\nmoves ["), "no bar in: {start}");
    assert!(shown.contains("/4,509,005,501 positions, eta "), "no bar in: {start}");
    assert!(shown.contains("take 4 from heap 3 (3000 -> 2996)"), "{start}");
}
