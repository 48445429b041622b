//! The default suite: its manifest's commands regenerate its files, and
//! `scripts/regenerate` catches any change. The suite certifies two long periods (tens of
//! seconds of work), so it runs once here: inside `scripts/regenerate`, whose clean pass
//! over every other file shows that `data/` is the suite's output, on which the manifest
//! test then re-runs each file's command.

use crate::support::cli::run;

#[test]
fn regenerate_reports_exactly_a_changed_byte_and_an_unlisted_file() {
    let copy = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("cp")
        .args(["-r", "data/.", copy.path().to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let target = copy.path().join("summary.csv");
    let mut bytes = std::fs::read(&target).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&target, bytes).unwrap();
    std::fs::write(copy.path().join("plots/old-picture.svg"), "<svg/>").unwrap();
    let out = std::process::Command::new("scripts/regenerate")
        .arg(copy.path())
        .env("NIMTAB_BIN", env!("CARGO_BIN_EXE_nimtab"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // Every other file matched: data/ is what the suite writes now.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let expected = "differs: data/summary.csv\n\
                    differs: data/summary.csv (does not match MANIFEST.csv)\n\
                    differs: data/plots/old-picture.svg (not listed in MANIFEST.csv)\n";
    assert_eq!(stdout, expected);
}

#[test]
fn manifest_commands_regenerate_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = std::fs::read_to_string("data/MANIFEST.csv").unwrap();
    let mut reader = csv::Reader::from_reader(manifest.as_bytes());
    let mut checked = 0;
    for record in reader.records() {
        let record = record.unwrap();
        let (file, command) = (&record[0], &record[3]);
        let generated = std::fs::read(file).unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        if words.len() == 1 {
            continue; // `nimtab`: the suite itself wrote summary.csv and counterexamples.csv
        }
        if command.contains("--max 2^25") {
            // The long periods: `long_periods_are_certified` runs their commands.
            assert_eq!(generated, long_period_row(&words[3][6..]).into_bytes(), "{file}");
            checked += 1;
            continue;
        }
        if words[1] == "atlas" {
            // A directory of files: the command runs once, into a directory of its own.
            let out = dir.path().join("atlas");
            if !out.exists() {
                let r =
                    run(&["atlas", "-q", "--codes", "octal(2)", "--out", out.to_str().unwrap()]);
                assert_eq!(r.status, 0, "{command}: {}", r.stderr);
            }
            assert_eq!(command, "nimtab atlas --codes 'octal(2)' --out data/atlas");
            let fresh = std::fs::read(out.join(&file["data/atlas/".len()..])).unwrap();
            assert_eq!(fresh, generated, "{command} does not regenerate {file}");
            checked += 1;
            continue;
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
    assert_eq!(
        checked, 42,
        "8 Grundy tables, 10 pictures, 5 periods, 3 misère P-lists, 3 quotients, 3 genus tables, \
         10 atlas files"
    );
}

/// The certified row of a long period: preperiod, period, and the first heap where the
/// octal theorem's window `2e + p + t` fits with `G(n + p)` inside the data.
fn long_period_row(code: &str) -> String {
    let (preperiod, period, t) = match code {
        "0.376" => (2_268_248u64, 4u64, 3u64),
        "0.354" => (10_061_916, 1_180, 3),
        other => panic!("no known long period for {other}"),
    };
    let first_fit = 2 * preperiod + period + t + period - 1;
    format!(
        "game,preperiod,period,saltus,checked_through\noctal:{code},{preperiod},{period},0,{first_fit}\n"
    )
}

#[test]
fn long_periods_are_certified() {
    for code in ["0.376", "0.354"] {
        let spec = format!("octal:{code}");
        let r = run(&["period", "--game", &spec, "--max", "2^25"]);
        assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
        assert_eq!(r.stdout, long_period_row(code), "{spec}");
    }
}

#[test]
fn the_guide_names_every_folder_the_suite_writes_and_counts_its_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("data/MANIFEST.csv")).unwrap();
    let files: Vec<&str> = manifest.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    let guide = std::fs::read_to_string(root.join("docs/guide/default-suite.md")).unwrap();
    // The manifest lists every file but itself.
    let count = format!("wrote data/ ({} files)", files.len() + 1);
    assert!(guide.contains(&count), "the guide does not say '{count}'");
    for file in files {
        let folder = match file.rsplit_once('/') {
            Some((folder, _)) if folder != "data" => format!("`{folder}/"),
            _ => format!("`{file}`"),
        };
        assert!(guide.contains(&folder), "the guide does not name {folder} ({file})");
    }
}
