//! `sweep --quotients N` within each game's limits: a row per game with the last heap it
//! completed and the quotient there, and why it stopped (`ok` at the largest heap or once
//! the whole game is certified, `order_bound`, `timeout`, `memory`); `--game-timeout` and
//! `--game-memory` refused with one line when they allow nothing; bytes independent of
//! threads and shards; parts of other limits refused by the merge.

use std::time::{Duration, Instant};

use crate::support::cli::{run, swept};

/// The rows of a sweep's CSV, without the header.
fn rows(csv: &str) -> Vec<&str> {
    assert_eq!(
        csv.lines().next(),
        Some("game,max_heap,last_heap,order,p_portion_size,tame,preperiod,period,status")
    );
    csv.lines().skip(1).collect()
}

#[test]
fn a_game_certified_before_the_largest_heap_is_ok_at_the_heap_that_certifies_it() {
    let dir = tempfile::tempdir().unwrap();
    let csv =
        swept(dir.path(), "q.csv", &[], "octal:0.75;octal:0.07", "40", &["--max-order", "700"]);
    // 0.75's whole game is certified at heap 21 (period 2 from heap 8): larger heaps add
    // nothing. Dawson's Kayles is not, and reaches heap 40.
    assert_eq!(
        rows(&csv),
        ["octal:0.75,40,21,8,2,false,8,2,ok", "octal:0.07,40,33,638,109,false,,,order_bound"]
    );
}

#[test]
fn a_quotient_past_the_order_bound_keeps_the_quotient_of_the_heaps_before() {
    let dir = tempfile::tempdir().unwrap();
    let csv = swept(dir.path(), "q.csv", &[], "octal:0.6;octal:0.75", "20", &["--max-order", "30"]);
    assert_eq!(
        rows(&csv),
        ["octal:0.6,20,11,24,5,false,,,order_bound", "octal:0.75,20,20,8,2,false,,,ok"]
    );
    // The kept quotient is the one `nimtab quotient` proves for those heaps.
    let got = run(&["quotient", "--game", "octal:0.6", "--max-heap", "11", "--format", "json"]);
    assert!(got.stdout.contains("\n\"order\":24,\n"), "{}", got.stdout);
}

#[test]
fn a_game_past_its_memory_is_a_memory_row_and_the_order_bound_follows_the_memory() {
    let dir = tempfile::tempdir().unwrap();
    let family = "octal:0.07;octal:0.75";
    let csv = swept(dir.path(), "q.csv", &[], family, "30", &["--game-memory", "64K"]);
    assert_eq!(
        rows(&csv),
        ["octal:0.07,30,24,24,5,false,,,memory", "octal:0.75,30,21,8,2,false,8,2,ok"]
    );
    // The game's memory is its limit: it does not run again with the process's budget,
    // under which Dawson's Kayles reaches heap 30.
    let unlimited = swept(dir.path(), "u.csv", &[], family, "30", &[]);
    assert_eq!(rows(&unlimited)[0], "octal:0.07,30,30,360,65,false,,,ok");
    // Without --max-order the order bound is the largest whose tables fit 64 KiB: 64.
    let part =
        swept(dir.path(), "p.csv", &[], family, "30", &["--game-memory", "64K", "--shard", "1/1"]);
    assert!(
        part.contains(
            "\n# space quotients of heaps up to 30, max order 64, game memory 65536 bytes\n"
        ),
        "{part}"
    );
}

#[test]
fn a_game_past_its_time_is_a_timeout_row_with_the_heaps_it_completed() {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    // octal:0.76 refines its candidates at heap 12 for far longer than half a second with
    // such an order bound; octal:0.75 is done long before.
    let extra = ["--game-timeout", "0.5", "--max-order", "60000"];
    let csv =
        swept(dir.path(), "q.csv", &["--threads", "1"], "octal:0.76;octal:0.75", "12", &extra);
    let took = start.elapsed();
    let rows = rows(&csv);
    assert_eq!(rows[1], "octal:0.75,12,12,8,2,false,,,ok");
    let cells: Vec<&str> = rows[0].split(',').collect();
    assert_eq!((cells[0], cells[1], cells[8]), ("octal:0.76", "12", "timeout"), "{}", rows[0]);
    // The heaps it completed in its time (the machine decides how many), with their quotient.
    let last: u32 = cells[2].parse().unwrap_or_else(|_| panic!("no last heap: {}", rows[0]));
    assert!((1..12).contains(&last) && !cells[3].is_empty(), "{}", rows[0]);
    assert!(took < Duration::from_secs(10), "the sweep took {took:?}");
}

#[test]
fn game_limits_that_allow_nothing_are_refused_with_one_line_naming_the_value() {
    for (extra, words) in [
        (&["--game-timeout", "0"][..], "'0' for '--game-timeout"),
        (&["--game-timeout", "-1"], "'-1' for '--game-timeout"),
        (&["--game-timeout", "x"], "'x' for '--game-timeout"),
        (&["--game-timeout", "0s"], "'0s' for '--game-timeout"),
        (&["--game-memory", "0"], "'0' for '--game-memory"),
        (&["--game-memory", "-1"], "'-1' for '--game-memory"),
        (&["--game-memory", "1Q"], "'1Q' for '--game-memory"),
        (&["--game-memory", "16T"], "--game-memory: 16.00 TiB for each of 2 games run at once"),
    ] {
        let args = [
            &["--threads", "2", "sweep", "--games", "nim;octal:0.7", "--quotients", "5"][..],
            extra,
        ]
        .concat();
        let got = run(&args);
        assert_eq!(got.status, 2, "{args:?}");
        assert_eq!(got.stderr.lines().count(), 1, "{args:?}: {}", got.stderr);
        assert!(got.stderr.contains(words), "{args:?}: {}", got.stderr);
        assert!(got.stdout.is_empty(), "{args:?}: {}", got.stdout);
    }
    for flag in ["--game-timeout", "--game-memory"] {
        let got = run(&["sweep", "--games", "nim", "--heaps", "2", "--max", "3", flag, "1"]);
        assert_eq!(got.status, 2);
        let line = format!("nimtab: error: {flag}: it applies only with --quotients\n");
        assert_eq!(got.stderr, line);
    }
}

#[test]
fn limited_rows_do_not_depend_on_threads_and_shards_merge_back_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let family = "octal:0.??";
    // A time no game reaches, and a memory some pass: every status but timeout.
    let limits = ["--game-memory", "1M", "--max-order", "300", "--game-timeout", "1000"];
    let whole = swept(dir.path(), "whole.csv", &["--threads", "1"], family, "24", &limits);
    let statuses: Vec<&str> = rows(&whole).iter().map(|r| r.rsplit(',').next().unwrap()).collect();
    for status in ["ok", "order_bound", "memory"] {
        assert!(statuses.contains(&status), "no {status} row: {whole}");
    }
    assert_eq!(swept(dir.path(), "two.csv", &["--threads", "2"], family, "24", &limits), whole);
    let mut parts = Vec::new();
    for i in 1..=3 {
        let (name, shard) = (format!("part{i}.csv"), format!("{i}/3"));
        swept(dir.path(), &name, &[], family, "24", &[&limits[..], &["--shard", &shard]].concat());
        parts.push(dir.path().join(name).display().to_string());
    }
    let merged =
        run(&[&["merge"][..], &parts.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert_eq!(merged.status, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, whole);
    // A part of the same games under other limits is another sweep's.
    for other in [
        &["--game-memory", "2M", "--max-order", "300", "--game-timeout", "1000"][..],
        &["--game-memory", "1M", "--max-order", "300"],
    ] {
        let name = "other.csv";
        swept(dir.path(), name, &[], family, "24", &[other, &["--shard", "3/3"]].concat());
        let other = dir.path().join(name).display().to_string();
        let got = run(&["merge", &parts[0], &parts[1], &other]);
        assert_eq!(got.status, 2, "{other}");
        assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
        assert!(got.stderr.contains("not of sweep"), "{}", got.stderr);
    }
}
