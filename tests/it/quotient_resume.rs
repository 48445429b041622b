//! Quotients of whole games with long periods, and quotient runs that checkpoint, stop
//! and resume: the resumed output is the bytes of a run never stopped, and a checkpoint
//! of another game, a corrupt one or one in the way is refused with one line; and a
//! quotient of over a thousand elements against the engine's tables.

use std::process::Stdio;
use std::time::Duration;

use nimtab::quotient::{check_against_tables, compute, QuotientConfig};
use nimtab::{Game, NoProgress};

use crate::support::cli::{command, finish, run, send_signal, wait_for};

#[test]
fn a_whole_game_with_a_long_period_is_certified_at_the_first_heap_its_window_fits() {
    let got = run(&["quotient", "--game", "octal:0.156", "--max-heap", "20000", "-q"]);
    assert_eq!(got.status, 0, "{}", got.stderr);
    assert!(got.stdout.contains("play          misère, heaps of size at most 7658\n"));
    assert!(got.stdout.contains("order         34\n"), "{}", got.stdout);
    let whole = "whole game    phi(n + 349) = phi(n) for every n >= 3479, certified by the \
                 periodicity theorem from heaps 0..=7658, the first heap at which its window \
                 fits: this is the quotient of the whole game\n";
    assert!(got.stdout.ends_with(whole), "{}", got.stdout);
}

#[test]
fn a_resumed_run_gives_the_bytes_of_a_run_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("q.ck");
    let ck = ck.to_str().unwrap();
    let game = ["quotient", "--game", "octal:0.07"];
    for format in ["text", "json"] {
        let whole = run(&[&game[..], &["--max-heap", "24", "--format", format]].concat());
        assert_eq!(whole.status, 0, "{}", whole.stderr);
        let _ = std::fs::remove_file(ck);
        let part = run(&[&game[..], &["--max-heap", "16", "--checkpoint", ck, "-q"]].concat());
        assert_eq!(part.status, 0, "{}", part.stderr);
        let resumed =
            run(&[&game[..], &["--max-heap", "24", "--resume", ck, "--format", format]].concat());
        assert_eq!(resumed.status, 0, "{}", resumed.stderr);
        assert_eq!(resumed.stdout, whole.stdout, "{format}");
        let said = "nimtab: resuming the quotient of octal:0.07 at heap 16 (order 24)";
        assert!(resumed.stderr.starts_with(said), "{}", resumed.stderr);
        // The checkpoint now records heap 24: resuming it again does no work.
        let again =
            run(&[&game[..], &["--max-heap", "24", "--resume", ck, "--format", format]].concat());
        assert!(again.stderr.starts_with("nimtab: resuming the quotient of octal:0.07 at heap 24"));
        assert_eq!(again.stdout, whole.stdout, "{format}");
    }
}

#[test]
fn a_checkpoint_of_another_game_a_corrupt_one_or_one_in_the_way_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("q.ck");
    let ck = ck.to_str().unwrap();
    let made = run(&["quotient", "--game", "octal:0.07", "--max-heap", "8", "--checkpoint", ck]);
    assert_eq!(made.status, 0, "{}", made.stderr);
    let refused = |args: &[&str], says: &str| {
        let got = run(args);
        assert_eq!(got.status, 2, "{args:?}: {}", got.stderr);
        assert_eq!(got.stderr.lines().count(), 1, "{args:?}: {}", got.stderr);
        assert!(got.stderr.contains(says), "{args:?}: {}", got.stderr);
        assert!(got.stdout.is_empty());
    };
    let other = ["quotient", "--game", "octal:0.77", "--max-heap", "9", "--resume", ck];
    refused(&other, "it is a checkpoint of octal:0.07, not of octal:0.77");
    let again = ["quotient", "--game", "octal:0.07", "--max-heap", "9", "--checkpoint", ck];
    refused(&again, "exists: continue its run with --resume");
    let every = ["quotient", "--game", "octal:0.07", "--max-heap", "9", "--checkpoint-every", "1m"];
    refused(&every, "--checkpoint-every needs --checkpoint FILE");
    let mut bytes = std::fs::read(ck).unwrap();
    let at = bytes.windows(6).position(|w| w == b"table ").unwrap() + 6;
    bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    std::fs::write(ck, &bytes).unwrap();
    let resume = ["quotient", "--game", "octal:0.07", "--max-heap", "9", "--resume", ck];
    refused(&resume, "its checksum does not match (the file is corrupt or truncated)");
    let place = dir.path().to_str().unwrap();
    refused(
        &["quotient", "--game", "nim", "--max-heap", "3", "--checkpoint", place],
        "is a directory",
    );
}

#[test]
fn an_interrupt_saves_a_checkpoint_that_resumes_to_the_bytes_of_a_run_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("q.ck");
    let args = ["quotient", "--game", "octal:0.35", "--max-heap", "22", "-q"];
    let child = command()
        .args(args)
        .args(["--checkpoint", ck.to_str().unwrap(), "--checkpoint-every", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&ck);
    send_signal(child.id(), "INT");
    let (status, stdout, stderr) = finish(child, Duration::from_secs(120));
    assert_eq!(status, Some(130), "{stderr}");
    assert!(stdout.is_empty());
    let line = stderr.lines().last().unwrap_or_default();
    assert!(line.contains(" records heaps up to "), "{stderr}");
    let resumed = run(&[&args[..], &["--resume", ck.to_str().unwrap()]].concat());
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    let whole = run(&args);
    assert_eq!(resumed.stdout, whole.stdout);
}

#[test]
fn a_quotient_of_over_a_thousand_elements_predicts_every_table_label_and_reaches_every_element() {
    // octal:0.35 with heaps up to 16: order 1714; every element's normal form is a
    // position of total at most 60, so the multisets of total 60 reach all of them.
    let game = Game::octal("0.35").unwrap();
    let q = compute(&game, &QuotientConfig::new(16), &NoProgress).unwrap();
    assert_eq!((q.order(), q.p_portion().len()), (1714, 358));
    let found = check_against_tables(&game, &q, 60, None, &NoProgress).unwrap();
    assert_eq!((found.positions, found.disagreements), (4_609_596, 0));
    assert_eq!(found.elements_reached, q.order());
}
