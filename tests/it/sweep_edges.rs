//! `sweep` at its edges: shard counts of any size cost nothing (the largest refused with
//! one line), a closed pipe ends the run quietly, and a game listed twice, in any
//! spelling, runs once and counts once (and an atlas says which codes it was given twice).

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crate::support::cli::{command, finish, run, run_limited, Run};

#[test]
fn huge_shard_counts_are_refused_with_one_line_and_large_ones_cost_nothing() {
    let base = ["sweep", "--games", "nim;subtract:1,2", "--heaps", "1", "--max", "3"];
    for (shard, needle) in [
        ("1/18446744073709551615", "N is above 4194304, the most games a family can have"),
        ("4294967297/4294967297", "N is above 4194304"),
        ("1/100000000", "N is above 4194304"),
        ("1/18446744073709551616", "N is above 4194304"),
        ("1/999999999999999999999999999999999999999999", "must be I/N with 1 <= I <= N"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(["--shard", shard]).collect();
        let Run { status, stdout, stderr } = run(&args);
        assert_eq!((status, stdout.as_str()), (2, ""), "{shard}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{shard}: {stderr}");
        assert!(stderr.contains(&format!("shard '{shard}'")), "{shard}: {stderr}");
        assert!(stderr.contains(needle), "{shard}: {stderr}");
    }
    // The largest count, in 100 MB: the shards' ranges are computed, not listed. Game 1
    // of 2 falls in shard 1048577 (its midpoint, a quarter of the way), game 2 in 3145729.
    for (shard, games, rows) in [
        ("4194304/4194304", "2..2", 0),
        ("1048577/4194304", "0..1", 9),
        ("3145729/4194304", "1..2", 9),
        ("1/4194304", "0..0", 0),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(["--shard", shard]).collect();
        let Run { status, stdout, stderr } = run_limited(100_000, &args);
        assert_eq!(status, 0, "{shard}: {stderr}");
        let first = stdout.lines().next().unwrap();
        assert!(
            first.ends_with(&format!("part {shard}: games {games} of 2, {rows} rows")),
            "{first}"
        );
        assert_eq!(stdout.lines().count(), 6 + rows + 1, "{stdout}");
    }
}

#[test]
fn a_sweep_into_a_closed_pipe_ends_quietly() {
    // About a megabyte of rows, far more than a pipe holds.
    let args = ["sweep", "--games", "subtract:subsets(1..=10)", "--heaps", "1..=2", "--max", "20"];
    let mut child = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("game,heaps,max,"), "{first}");
    // The reader is dropped: the pipe is closed, as `| head -1` closes it.
    let (status, _, stderr) = finish(child, Duration::from_secs(120));
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

/// The game cells of a sweep's CSV rows, each once, in order.
fn games_of(csv: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in csv.lines().skip(1) {
        let game = match line.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap(),
            None => line.split(',').next().unwrap(),
        };
        if games.last().map(String::as_str) != Some(game) {
            games.push(game.to_string());
        }
    }
    games
}

#[test]
fn a_game_listed_twice_in_any_spelling_runs_once_and_counts_once() {
    let family = "subtract:1,2;nim;subtract:2,1;subtract:2,2,1;nim";
    let args = ["sweep", "--games", family, "--heaps", "1..=2", "--max", "9", "--rules", "normal"];
    let Run { status, stdout, stderr } = run(&args);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(games_of(&stdout), ["subtract:1,2", "nim"]);
    assert_eq!(stdout.lines().count(), 1 + 2 * 2 * 3);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("nimtab:")).collect();
    assert_eq!(
        notes,
        ["nimtab: the same game listed twice runs once, under its first spelling: \
          subtract:2,1 (game 3 of the family) is subtract:1,2 (game 1 of the family); \
          subtract:2,2,1 (game 4 of the family) is subtract:1,2 (game 1 of the family); \
          nim (game 5 of the family) is nim (game 2 of the family)"]
    );
    assert!(stderr.contains("normal  xor            2     2     0\n"), "{stderr}");
    // Octal codes with trailing zeros, over multisets; the table counts one game.
    let args = ["sweep", "--games", "octal:0.7;octal:0.70", "--total", "8", "--criteria", "xor"];
    let args: Vec<&str> = args.into_iter().chain(["--rules", "normal", "--quiet"]).collect();
    let Run { status, stdout, stderr } = run(&args);
    assert_eq!((status, stderr.as_str()), (0, ""), "{stderr}");
    assert_eq!(games_of(&stdout), ["octal:0.7"]);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let args: Vec<&str> = args.into_iter().chain(["--out", out.to_str().unwrap()]).collect();
    let Run { status, stdout, .. } = run(&args);
    assert_eq!(status, 0);
    assert!(stdout.contains("normal  xor            1     1     0\n"), "{stdout}");
}

#[test]
fn an_atlas_says_which_codes_it_was_given_twice_and_computes_each_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a");
    let codes = "0.07;0.7;0.07;hex:0.7;0.70";
    let args = ["atlas", "--codes", codes, "--budget", "2^8", "--quotient-heap", "4"];
    let Run { status, stdout, stderr } =
        run(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.starts_with("atlas of 2 codes:"), "{stdout}");
    assert_eq!(
        stderr.trim_end(),
        "nimtab: the same code listed twice is computed once: 0.07 (game 3 of the family) is \
         0.07 (game 1 of the family); hex:0.7 (game 4 of the family) is 0.7 (game 2 of the \
         family); 0.70 (game 5 of the family) is 0.7 (game 2 of the family)"
    );
    let quiet = run(&[&args[..], &["--out", out.to_str().unwrap(), "-q"]].concat());
    assert_eq!((quiet.status, quiet.stderr.as_str()), (0, ""));
}
