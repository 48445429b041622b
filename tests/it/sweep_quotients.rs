//! `sweep --quotients N`: one row per game equal to what `nimtab quotient` finds, bytes
//! independent of threads and shards (parts merged back to the unsharded bytes), rows for
//! games whose quotient grows past `--max-order` or that are not sums, and refusals; the
//! game limits are in `sweep_quotient_limits`.

use crate::support::cli::{run, swept};

/// The value of `"key":` in the JSON `nimtab quotient --format json` writes (one key a line).
fn json_value<'a>(json: &'a str, key: &str) -> &'a str {
    let line = json.lines().find(|l| l.starts_with(&format!("\"{key}\":"))).unwrap();
    line[key.len() + 3..].trim_end_matches(',')
}

#[test]
fn quotient_rows_agree_with_nimtab_quotient_for_each_game() {
    let dir = tempfile::tempdir().unwrap();
    let games = ["octal:0.07", "octal:0.77", "octal:0.75", "subtract:1,2,3", "nim", "octal:0.2"];
    let csv = swept(dir.path(), "q.csv", &[], &games.join(";"), "14", &[]);
    let header = "game,max_heap,last_heap,order,p_portion_size,tame,preperiod,period,status";
    assert_eq!(csv.lines().next(), Some(header));
    let rows: Vec<Vec<String>> = csv::Reader::from_reader(csv.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), games.len());
    for (row, game) in rows.iter().zip(games) {
        assert_eq!((row[0].as_str(), row[1].as_str(), row[8].as_str()), (game, "14", "ok"));
        // Both stop at the first heap at which the whole game is certified.
        let args = ["--max-heap", "14", "--format", "json"];
        let got = run(&[&["quotient", "--game", game][..], &args].concat());
        assert_eq!(got.status, 0, "{}", got.stderr);
        let json = &got.stdout;
        assert_eq!(row[2], json_value(json, "max_heap"), "{game}");
        assert_eq!(row[3], json_value(json, "order"), "{game}");
        let p_portion = json_value(json, "p_portion");
        assert_eq!(row[4], p_portion.split(',').count().to_string(), "{game}");
        assert_eq!(row[5], json_value(json, "tame"), "{game}");
        let period = match json_value(json, "period") {
            "null" => ",".to_string(),
            p => {
                let (pre, rest) = p.split_once(",\"period\":").unwrap();
                let per = rest.split(',').next().unwrap().trim_end_matches('}');
                format!("{},{}", &pre["{\"preperiod\":".len()..], per)
            }
        };
        assert_eq!(format!("{},{}", row[6], row[7]), period, "{game}");
    }
    // A subtraction game's quotient, certified for the whole game at heap 7.
    assert_eq!(rows[3][6..8], ["0", "4"], "{:?}", rows[3]);
    assert_eq!(csv.lines().nth(4), Some("\"subtract:1,2,3\",14,7,6,2,true,0,4,ok"));
}

#[test]
fn quotient_rows_name_growth_past_max_order_and_games_that_are_not_sums() {
    let dir = tempfile::tempdir().unwrap();
    let family = "octal:0.07;wythoff;octal:0.6";
    let csv = swept(dir.path(), "q.csv", &[], family, "12", &["--max-order", "16"]);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows[1], "wythoff,12,,,,,,,not_a_sum");
    // octal:0.6's quotient outgrows 16 elements at heap 11: the row keeps heap 10's.
    assert_eq!(rows[2], "octal:0.6,12,10,12,3,false,,,order_bound");
    assert!(rows[0].starts_with("octal:0.07,12,12,") && rows[0].ends_with(",ok"), "{}", rows[0]);
    // With the default bound, Dawson's Kayles to 12 fits; with 4 it stops after heap 3.
    let small = swept(dir.path(), "s.csv", &[], "octal:0.07", "12", &["--max-order", "4"]);
    assert_eq!(small.lines().nth(1), Some("octal:0.07,12,3,2,1,true,,,order_bound"));
}

#[test]
fn quotient_sweep_bytes_do_not_depend_on_threads_and_shards_merge_back_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let family = "octal:0.??";
    let whole = swept(dir.path(), "whole.csv", &["--threads", "1"], family, "9", &[]);
    // Every code of two digits but 0.00, which is no game.
    assert_eq!(whole.lines().count(), 1 + 63);
    let two = swept(dir.path(), "two.csv", &["--threads", "2"], family, "9", &[]);
    assert_eq!(whole, two);
    let mut parts = Vec::new();
    for i in 1..=3 {
        let name = format!("part{i}.csv");
        let shard = format!("{i}/3");
        let part = swept(dir.path(), &name, &[], family, "9", &["--shard", &shard]);
        assert!(part.contains("\n# quotients\ngame,max_heap,last_heap,order,"), "{part}");
        parts.push(dir.path().join(name));
    }
    let merged = dir.path().join("merged.csv");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    // Parts in any order.
    args.extend(parts.iter().rev().map(|p| p.to_str().unwrap()));
    let got = run(&args);
    assert_eq!(got.status, 0, "{}", got.stderr);
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), whole);
    // A changed cell is refused, naming the part and the line.
    let text = std::fs::read_to_string(&parts[0]).unwrap();
    let row = text.lines().nth(6).unwrap();
    let changed = row.replacen(",ok", ",proof_failed", 1);
    assert_ne!(changed, row);
    std::fs::write(&parts[0], text.replacen(row, &changed, 1)).unwrap();
    let got = run(&args);
    assert_eq!(got.status, 2);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
    assert!(got.stderr.contains("part1.csv") && got.stderr.contains("line 7"), "{}", got.stderr);
}

#[test]
fn a_quotient_part_does_not_merge_with_a_part_of_another_sweep() {
    let dir = tempfile::tempdir().unwrap();
    swept(dir.path(), "a.csv", &[], "nim;octal:0.07", "6", &["--shard", "1/2"]);
    swept(dir.path(), "b.csv", &[], "nim;octal:0.07", "7", &["--shard", "2/2"]);
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    let got = run(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(got.status, 2);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
}

#[test]
fn bad_quotient_sweep_options_are_refused_with_one_line() {
    for (extra, words) in [
        (&["--quotients", "0"][..], "--quotients"),
        (&["--quotients", "16777217"], "--quotients"),
        (&["--quotients", "5", "--max-order", "0"], "--max-order"),
        (&["--quotients", "5", "--heaps", "2"], "--heaps"),
        (&["--quotients", "5", "--total", "6"], "--total"),
        (&["--quotients", "x"], "--quotients"),
        (&["--heaps", "2", "--max", "3", "--max-order", "9"], "--quotients"),
    ] {
        let args = [&["sweep", "--games", "nim"][..], extra].concat();
        let got = run(&args);
        assert_eq!(got.status, 2, "{args:?}");
        assert_eq!(got.stderr.lines().count(), 1, "{args:?}: {}", got.stderr);
        assert!(got.stderr.contains(words), "{args:?}: {}", got.stderr);
    }
    let got = run(&["sweep", "--games", "nim;octal:0.9", "--quotients", "5"]);
    assert_eq!(got.status, 2);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
}
