//! The default suite: its manifest's commands regenerate its files, and
//! `scripts/regenerate` catches any change.

use crate::support::cli::run;

#[test]
fn regenerate_detects_a_one_byte_change_in_a_copy_of_data() {
    let copy = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("cp")
        .args(["-r", "data/.", copy.path().to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let regenerate = |dir: &std::path::Path| {
        std::process::Command::new("scripts/regenerate")
            .arg(dir)
            .env("NIMTAB_BIN", env!("CARGO_BIN_EXE_nimtab"))
            .output()
            .unwrap()
    };
    let clean = regenerate(copy.path());
    assert!(clean.status.success(), "{}", String::from_utf8_lossy(&clean.stdout));
    let target = copy.path().join("summary.csv");
    let mut bytes = std::fs::read(&target).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&target, bytes).unwrap();
    let changed = regenerate(copy.path());
    assert_eq!(changed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&changed.stdout).contains("differs: data/summary.csv"));
}

#[test]
fn manifest_commands_regenerate_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let report = dir.path().join("REPORT.md");
    let r = run(&[
        "--quiet",
        "suite",
        "--data-dir",
        data.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let manifest = std::fs::read_to_string(data.join("MANIFEST.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(manifest.as_bytes());
    let mut checked = 0;
    for record in reader.records() {
        let record = record.unwrap();
        let (file, command) = (&record[0], &record[3]);
        let generated = std::fs::read(data.join(file.trim_start_matches("data/"))).unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        if words.len() == 1 {
            continue; // `nimtab`: the suite itself wrote summary.csv and counterexamples.csv
        }
        let fresh = dir.path().join(format!("fresh-{}", file.rsplit('/').next().unwrap()));
        let mut args: Vec<String> = words[1..].iter().map(|w| w.to_string()).collect();
        if let Some(i) = args.iter().position(|a| a == "--out") {
            args[i + 1] = fresh.to_string_lossy().into_owned();
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(&args);
        assert_eq!(r.status, 0, "{command}: {}", r.stderr);
        let bytes =
            if fresh.exists() { std::fs::read(&fresh).unwrap() } else { r.stdout.into_bytes() };
        assert_eq!(bytes, generated, "{command} does not regenerate {file}");
        let _ = std::fs::remove_file(&fresh);
        checked += 1;
    }
    assert_eq!(checked, 24, "8 Grundy tables, 10 pictures, 3 periods, 3 misère P-lists");
}

#[test]
fn regenerate_reports_a_file_the_manifest_does_not_list() {
    let copy = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("cp")
        .args(["-r", "data/.", copy.path().to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(copy.path().join("plots/old-picture.svg"), "<svg/>").unwrap();
    let out = std::process::Command::new("scripts/regenerate")
        .arg(copy.path())
        .env("NIMTAB_BIN", env!("CARGO_BIN_EXE_nimtab"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout, "differs: data/plots/old-picture.svg (not listed in MANIFEST.csv)\n");
}
