//! `nimtab atlas`: every row against a plain mex, every certified period against
//! `nimtab period`, classes, resuming, threads, shards, `--compare` and bad input.

use std::path::{Path, PathBuf};

use crate::support::cli::run;
use crate::support::sequence_reference::octal_values;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimtab-atlas-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the atlas of `codes` into `out` with small budgets; panics unless it succeeds.
fn atlas(codes: &str, out: &Path, extra: &[&str]) -> String {
    let out_text = out.to_str().unwrap();
    let mut args =
        vec!["atlas", "-q", "--codes", codes, "--budget", "2^12", "--dense-budget", "2^11"];
    args.extend(["--quotient-heap", "8", "--out", out_text]);
    args.extend(extra);
    let r = run(&args);
    assert_eq!(r.status, 0, "{}", r.stderr);
    r.stdout
}

/// The rows of a CSV file as maps from column to cell.
fn rows(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| header.iter().cloned().zip(r.unwrap().iter().map(String::from)).collect())
        .collect()
}

fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in ["atlas.csv", "classes.csv", "atlas.json"] {
        out.push((name.to_string(), std::fs::read(dir.join(name)).unwrap()));
    }
    if let Ok(rare) = std::fs::read_dir(dir.join("rare")) {
        let mut names: Vec<_> = rare.map(|e| e.unwrap().path()).collect();
        names.sort();
        for path in names {
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    out
}

#[test]
fn every_row_agrees_with_a_plain_mex_and_every_period_holds_there() {
    let out = scratch("reference");
    atlas("octal(1);0.07;0.16;0.137;4.12;0.6;0.61;0.14", &out, &[]);
    let rows = rows(&out.join("atlas.csv"));
    assert_eq!(rows.len(), 15 + 6);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("atlas.json")).unwrap()).unwrap();
    for (row, code) in rows.iter().zip(json["codes"].as_array().unwrap()) {
        let computed_to: usize = row["computed_to"].parse().unwrap();
        let values = octal_values(&row["code"], computed_to.min(3000));
        let first: Vec<u32> = code["first_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(first, values[..first.len()], "{}", row["code"]);
        let largest = values.iter().copied().max().unwrap();
        if computed_to <= 3000 {
            assert_eq!(row["largest_value"], largest.to_string(), "{}", row["code"]);
            let at = values.iter().position(|&v| v == largest).unwrap();
            assert_eq!(row["largest_at"], at.to_string(), "{}", row["code"]);
        }
        if row["status"] == "solved" {
            let e: usize = row["preperiod"].parse().unwrap();
            let p: usize = row["period"].parse().unwrap();
            let long = octal_values(&row["code"], 3000);
            assert!((e..3000 - p).all(|n| long[n] == long[n + p]), "{}", row["code"]);
            assert!(
                e == 0 || long[e - 1] != long[e - 1 + p],
                "{}: preperiod not least",
                row["code"]
            );
            assert!(
                (1..p).all(|q| (e..3000 - q).any(|n| long[n] != long[n + q])),
                "{}",
                row["code"]
            );
        } else {
            assert_eq!(row["period"], "", "{}", row["code"]);
        }
    }
    let dawson = rows.iter().find(|r| r["code"] == "0.07").unwrap();
    assert_eq!((dawson["preperiod"].as_str(), dawson["period"].as_str()), ("53", "34"));
}

#[test]
fn every_solved_row_is_the_certificate_nimtab_period_states() {
    let out = scratch("period");
    atlas("octal(1);0.07;0.16;4.12", &out, &[]);
    let mut solved = 0;
    for row in rows(&out.join("atlas.csv")).iter().filter(|r| r["status"] == "solved") {
        let spec = format!("octal:{}", row["code"]);
        let r = run(&["period", "--game", &spec, "--max", &row["checked_through"], "-q"]);
        assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
        let expected = format!(
            "game,preperiod,period,saltus,checked_through\n{spec},{},{},0,{}\n",
            row["preperiod"], row["period"], row["checked_through"]
        );
        assert_eq!(r.stdout, expected);
        solved += 1;
    }
    assert!(solved >= 15, "{solved}");
}

#[test]
fn classes_are_proved_by_moves_or_periods_and_bounded_ones_say_so() {
    let out = scratch("classes");
    atlas("0.22;0.23;0.4;0.42;0.6;0.62;0.05;0.2", &out, &[]);
    let classes = rows(&out.join("classes.csv"));
    let find = |code: &str| classes.iter().find(|c| c["standard_form"] == code).unwrap().clone();
    assert_eq!(find("0.22")["members"], "0.22 0.23");
    assert_eq!(find("0.22")["how"], "moves");
    assert_eq!(find("0.4")["members"], "0.4 0.42");
    assert_eq!(find("0.4")["how"], "periodic");
    assert_eq!(find("0.05")["members"], "0.05 0.2");
    assert_eq!(find("0.6")["members"], "0.6 0.62");
    assert_eq!(find("0.6")["how"], "equal_through");
    assert_eq!(find("0.6")["through"], "2048");
    // Unsolved codes that differ only in a whole-heap move stay proved equal by it.
    let moves = scratch("classes-moves");
    atlas("0.6;0.61", &moves, &[]);
    let classes = rows(&moves.join("classes.csv"));
    assert_eq!((classes[0]["members"].as_str(), classes[0]["how"].as_str()), ("0.6 0.61", "moves"));
    let atlas_rows = rows(&out.join("atlas.csv"));
    let row = atlas_rows.iter().find(|r| r["code"] == "0.62").unwrap();
    assert_eq!(
        (row["standard_form"].as_str(), row["class_how"].as_str()),
        ("0.6", "equal_through")
    );
}

#[test]
fn a_run_resumes_from_its_state_and_gives_the_same_bytes_whatever_the_threads() {
    let (one, two) = (scratch("threads-1"), scratch("threads-2"));
    atlas("octal(1);0.14;0.6", &one, &["--threads", "1"]);
    atlas("octal(1);0.14;0.6", &two, &["--threads", "2"]);
    assert_eq!(files_of(&one), files_of(&two));
    // A run stopped after some codes: its state stays, the rest is computed on resuming.
    let state = two.join("state");
    for name in ["0.14.json", "0.3.json", "4.0.json"] {
        std::fs::remove_file(state.join(name)).unwrap();
    }
    std::fs::remove_file(two.join("atlas.csv")).unwrap();
    let before = std::fs::metadata(state.join("0.6.json")).unwrap().modified().unwrap();
    atlas("octal(1);0.14;0.6", &two, &[]);
    assert_eq!(files_of(&one), files_of(&two));
    assert_eq!(std::fs::metadata(state.join("0.6.json")).unwrap().modified().unwrap(), before);
}

#[test]
fn shards_keep_their_state_and_a_whole_run_over_them_computes_nothing_again() {
    let (whole, parts) = (scratch("shard-whole"), scratch("shard-parts"));
    atlas("octal(1)", &whole, &[]);
    let first = atlas("octal(1)", &parts, &["--shard", "1/2"]);
    assert!(first.starts_with("shard 1/2: 7 codes done"), "{first}");
    assert!(!parts.join("atlas.csv").exists());
    atlas("octal(1)", &parts, &["--shard", "2/2"]);
    atlas("octal(1)", &parts, &[]);
    assert_eq!(files_of(&whole), files_of(&parts));
}

#[test]
fn compare_names_every_difference_and_refutes_a_false_equivalence() {
    let out = scratch("compare");
    let table = out.join("published.csv");
    std::fs::write(
        &table,
        "code,standard_form,preperiod,period\n.07,,53,34\n0.41,0.4,,\n0.4,,,7\n",
    )
    .unwrap();
    let r = run(&[
        "atlas",
        "-q",
        "--codes",
        "0.07;0.4;0.41",
        "--budget",
        "2^12",
        "--out",
        out.join("a").to_str().unwrap(),
        "--compare",
        table.to_str().unwrap(),
    ]);
    assert_eq!(r.status, 1, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[1], "2 differences from the published table");
    assert_eq!(lines[2], "code,column,published,computed,proof");
    assert_eq!(lines[3], "0.41,standard_form,0.4,0.41,proved: G(2) is 1 for 0.41 but 0 for 0.4");
    assert!(lines[4].starts_with("0.4,period,7,"), "{}", lines[4]);
    assert!(lines[4].ends_with(",proved"), "{}", lines[4]);
}

#[test]
fn bad_input_is_refused_with_one_line_and_nothing_written() {
    let dir = scratch("bad");
    let out = dir.join("out");
    let out_text = out.to_str().unwrap();
    let plain = dir.join("plain");
    std::fs::write(&plain, "x").unwrap();
    let columns = dir.join("columns.csv");
    std::fs::write(&columns, "code,periodd\n0.07,3\n").unwrap();
    let ragged = dir.join("ragged.csv");
    std::fs::write(&ragged, "code,period\n0.07,34,9\n").unwrap();
    let unknown = dir.join("unknown.csv");
    std::fs::write(&unknown, "code,period\n0.17,3\n").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--codes", "octal(0)"], "octal(K) must be a positive integer"),
        (vec!["--codes", "nim"], "'nim' is not an octal code"),
        (vec!["--codes", "0.0"], "the family holds no octal code with a move"),
        (
            vec!["--codes", "0.07", "--budget", "0"],
            "the budget must be from 1 to 2^40 heaps, got 0",
        ),
        (vec!["--codes", "0.07", "--budget", "2^41"], "got 2199023255552"),
        (vec!["--codes", "0.07", "--dense-budget", "0"], "the dense budget must be from 1"),
        (
            vec!["--codes", "0.07", "--budget", "lots"],
            "expected a heap count N, 2^K or 2^K-1, got 'lots'",
        ),
        (vec!["--codes", "0.07", "--quotient-order", "0"], "order bound must be from 1"),
        (vec!["--codes", "0.07", "--budget", "2^20,0s"], "got '2^20,0s'"),
        (
            vec!["--codes", "0.07", "--budget", "2^24", "--dense-budget", "2^23"],
            "the dense budget must be from 1 to 2^22 heaps",
        ),
        (vec!["--codes", "0.07", "--budget", "2^20,soon"], "TIME whole seconds"),
        (vec!["--codes", "0.07", "--checkpoint-every", "0"], "more than 0, got '0'"),
        (
            vec!["--codes", "0.07", "--compare", columns.to_str().unwrap()],
            "column 'periodd' is not an atlas column",
        ),
        (vec!["--codes", "0.07", "--compare", ragged.to_str().unwrap()], "line 2:"),
        (
            vec!["--codes", "0.07", "--compare", unknown.to_str().unwrap()],
            "line 2: code '0.17' is not in this atlas",
        ),
    ];
    for (flags, message) in cases {
        let mut args = vec!["atlas", "-q", "--out", out_text];
        args.extend(flags.iter());
        let r = run(&args);
        assert_eq!(r.status, 2, "{flags:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{flags:?}: {}", r.stderr);
        assert!(!out.exists(), "{flags:?} left {}", out.display());
    }
    let r = run(&["atlas", "-q", "--codes", "0.07", "--out", plain.to_str().unwrap()]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("not a directory"), "{}", r.stderr);
    assert_eq!(std::fs::read(&plain).unwrap(), b"x");
}

#[test]
fn a_run_killed_outright_resumes_to_the_bytes_of_a_run_never_stopped() {
    let dir = scratch("kill");
    let (killed, fresh) = (dir.join("killed"), dir.join("fresh"));
    let args = |out: &Path| -> Vec<String> {
        let flags = "atlas -q --codes octal(1);0.14;0.16;0.6;0.07 --budget 2^17 \
                     --dense-budget 2^11 --quotient-heap 8 --threads 1 --out";
        let mut args: Vec<String> = flags.split_whitespace().map(String::from).collect();
        args.push(out.to_str().unwrap().to_string());
        args
    };
    let mut child = crate::support::cli::command().args(args(&killed)).spawn().unwrap();
    // Killed once the first code is kept, before the run ends (0.14 and 0.16 to 2^17 take seconds).
    crate::support::cli::wait_for(&killed.join("state").join("0.07.json"));
    crate::support::cli::send_signal(child.id(), "KILL");
    child.wait().unwrap();
    assert!(!killed.join("atlas.csv").exists());
    let resumed = crate::support::cli::command().args(args(&killed)).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let never = crate::support::cli::command().args(args(&fresh)).output().unwrap();
    assert!(never.status.success());
    let bytes = |dir: &Path| files_of(dir).into_iter().map(|f| f.1).collect::<Vec<_>>();
    assert_eq!(bytes(&killed), bytes(&fresh));
}

#[test]
fn a_dense_code_whose_certificate_needs_a_little_more_than_the_dense_budget_is_solved() {
    let out = scratch("dense-continued");
    let codes_flags = ["atlas", "-q", "--codes", "0.127;0.04", "--budget", "2^18"];
    let r = run(
        &[&codes_flags[..], &["--quotient-heap", "4", "--out", out.to_str().unwrap()]].concat()
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    let rows = rows(&out.join("atlas.csv"));
    // 0.127's values repeat with period 4 from heap 46578 at the dense budget 2^16; its
    // certificate needs heap 93166. 0.04 does not repeat there and stops at 2^16.
    let find = |code: &str| rows.iter().find(|r| r["code"] == code).unwrap().clone();
    let solved = find("0.127");
    let cells =
        [&solved["status"], &solved["preperiod"], &solved["period"], &solved["checked_through"]];
    assert_eq!(cells, ["solved", "46578", "4", "93166"]);
    let dense = find("0.04");
    assert_eq!(
        (dense["status"].as_str(), dense["computed_to"].as_str(), dense["stopped"].as_str()),
        ("unsolved", "65536", "dense")
    );
}

/// The heaps a sequence checkpoint records (0 while it is being written).
fn checkpoint_heaps(path: &Path) -> u64 {
    let bytes = std::fs::read(path).unwrap_or_default();
    nimtab::sequence::Checkpoint::heaps_of(&bytes).unwrap_or(0)
}

#[test]
fn a_run_past_2_22_heaps_keeps_its_values_on_disk_and_resumes_after_kill_9_to_the_same_bytes() {
    let dir = scratch("disk");
    let (killed, fresh) = (dir.join("killed"), dir.join("fresh"));
    let args = |out: &Path| -> Vec<String> {
        let flags = "atlas -q --codes 0.36 --budget 2^23 --quotient-heap 8 --threads 1 \
                     --checkpoint-every 0.2s --out";
        let mut args: Vec<String> = flags.split_whitespace().map(String::from).collect();
        args.push(out.to_str().unwrap().to_string());
        args
    };
    let mut child = crate::support::cli::command().args(args(&killed)).spawn().unwrap();
    let (checkpoint, values) =
        (killed.join("state/0.36.checkpoint"), killed.join("state/0.36.values"));
    let started = std::time::Instant::now();
    // Killed once a checkpoint records 2^21 heaps of the 2^23 (the whole run takes seconds).
    while checkpoint_heaps(&checkpoint) < 1 << 21 {
        assert!(started.elapsed().as_secs() < 120, "no checkpoint past 2^21 heaps");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    crate::support::cli::send_signal(child.id(), "KILL");
    child.wait().unwrap();
    assert!(!killed.join("atlas.csv").exists());
    assert!(std::fs::metadata(&values).unwrap().len() >= 1 << 21);
    let resumed = crate::support::cli::command().args(args(&killed)).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    // Once the code's entry is kept its values file and checkpoint are gone.
    assert!(!checkpoint.exists() && !values.exists());
    let never = crate::support::cli::command().args(args(&fresh)).output().unwrap();
    assert!(never.status.success());
    assert_eq!(files_of(&killed).into_iter().map(|f| f.1).collect::<Vec<_>>(), {
        files_of(&fresh).into_iter().map(|f| f.1).collect::<Vec<_>>()
    });
    let row = &rows(&killed.join("atlas.csv"))[0];
    assert_eq!(
        [&row["status"], &row["computed_to"], &row["stopped"]],
        ["unsolved", "8388608", "budget"]
    );
}

#[test]
fn a_time_budget_stops_a_code_short_of_its_heap_budget_and_says_so() {
    let out = scratch("time");
    let flags = ["atlas", "-q", "--codes", "0.36;0.07", "--budget", "2^24,1s"];
    let r = run(&[&flags[..], &["--quotient-heap", "8", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    let rows = rows(&out.join("atlas.csv"));
    // 0.07 is certified within a second; 0.36 is not, and stops where its second ends.
    assert_eq!(
        [&rows[0]["code"], &rows[0]["status"], &rows[0]["stopped"]],
        ["0.07", "solved", "certified"]
    );
    assert_eq!(
        [&rows[1]["code"], &rows[1]["status"], &rows[1]["stopped"]],
        ["0.36", "unsolved", "time"]
    );
    let computed: u64 = rows[1]["computed_to"].parse().unwrap();
    assert!(computed < 1 << 24, "{computed}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("atlas.json")).unwrap()).unwrap();
    assert_eq!(json["settings"]["seconds"], 1, "the settings name the time budget");
    let first: Vec<u64> = json["codes"][1]["first_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let reference: Vec<u64> = octal_values("0.36", 99).iter().map(|&v| v as u64).collect();
    assert_eq!(first, reference);
    let states: Vec<String> = std::fs::read_dir(out.join("state"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(states.iter().all(|name| name.ends_with(".json")), "{states:?}");
}

#[test]
fn an_interrupt_keeps_the_finished_codes_and_saves_the_running_ones_checkpoints() {
    let out = scratch("interrupt");
    let flags = "atlas --codes 0.36;0.07 --budget 2^23 --quotient-heap 8 --checkpoint-every 1h \
                 --threads 1 --out";
    let mut args: Vec<String> = flags.split_whitespace().map(String::from).collect();
    args.push(out.to_str().unwrap().to_string());
    let child = crate::support::cli::command()
        .args(&args)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let values = out.join("state/0.36.values");
    let started = std::time::Instant::now();
    while std::fs::metadata(&values).map_or(0, |m| m.len()) < 1 << 20 {
        assert!(started.elapsed().as_secs() < 120, "0.36's values file never grew");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    crate::support::cli::send_signal(child.id(), "INT");
    let (status, _, stderr) =
        crate::support::cli::finish(child, std::time::Duration::from_secs(60));
    assert_eq!(status, Some(130), "{stderr}");
    let last = stderr.lines().last().unwrap();
    assert!(last.starts_with("nimtab: interrupted; 1 of 2 codes are kept in"), "{stderr}");
    assert!(out.join("state/0.07.json").exists() && !out.join("atlas.csv").exists());
    assert!(checkpoint_heaps(&out.join("state/0.36.checkpoint")) >= 1 << 20);
}
