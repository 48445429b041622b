//! `nimtab atlas` over hexadecimal codes: rows against a brute-force mex of the digits,
//! certified periods, proved arithmetic periods and arithmetic evidence, classes across
//! octal and hexadecimal codes, the quotient cell, `hex(K)`, resuming, shards,
//! `--compare`, `--html` and bad input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::Digest;

use crate::support::cli::run;

/// The codes most tests run: two hexadecimal codes with period 2, two arithmetic-periodic
/// ones, and octal codes (`0.3` has the sequence of `hex:0.B` and `hex:0.F`).
const CODES: &str = "hex:0.F;hex:0.B;hex:0.3F;hex:0.8;0.3;0.07;hex:0.77";

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Runs the atlas of `codes` into `out` at a budget of 2^10 heaps; panics unless it
/// succeeds, and returns its standard output.
fn atlas(codes: &str, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["atlas", "-q", "--codes", codes, "--budget", "2^10"];
    args.extend(["--quotient-heap", "6", "--out", out.to_str().unwrap()]);
    args.extend(extra);
    let r = run(&args);
    assert_eq!(r.status, 0, "{}", r.stderr);
    r.stdout
}

/// The rows of a CSV file as maps from column to cell, by their first cell.
fn rows(path: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let mut out = BTreeMap::new();
    for record in reader.records() {
        let row: BTreeMap<String, String> =
            header.iter().cloned().zip(record.unwrap().iter().map(String::from)).collect();
        out.insert(row[&header[0]].clone(), row);
    }
    out
}

/// Each code's object in `atlas.json`, by code.
fn json_codes(dir: &Path) -> BTreeMap<String, serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("atlas.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let codes = json["codes"].as_array().unwrap();
    codes.iter().map(|c| (c["code"].as_str().unwrap().to_string(), c.clone())).collect()
}

/// `G(0..=max)` of the hexadecimal code `code` (`0.3F`) by the plain mex over every
/// option, listed from the digits themselves: bit 1 of `Dk` takes a heap of `k` whole, bit
/// 2 leaves one heap, bit 4 two, bit 8 three (all non-empty), `k` tokens fewer.
fn brute_force(code: &str, max: usize) -> Vec<u32> {
    let digits: Vec<u32> =
        code.chars().filter(|&c| c != '.').map(|c| c.to_digit(16).unwrap()).collect();
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let mut seen = Vec::new();
        for (k, &d) in digits.iter().enumerate().filter(|&(k, _)| k <= n) {
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                seen.push(0);
            }
            if d & 2 != 0 && rest >= 1 {
                seen.push(g[rest]);
            }
            for a in (1..rest).filter(|_| d & 4 != 0) {
                seen.push(g[a] ^ g[rest - a]);
            }
            for a in (1..rest).filter(|_| d & 8 != 0) {
                for b in 1..rest - a {
                    seen.push(g[a] ^ g[b] ^ g[rest - a - b]);
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

#[test]
fn hex_rows_agree_with_a_brute_force_mex_and_state_their_proved_periods() {
    let dir = scratch();
    let out = dir.path().join("a");
    let summary = atlas(CODES, &out, &[]);
    assert_eq!(
        summary.lines().next().unwrap(),
        format!(
            "atlas of 7 codes: 7 solved, 0 unsolved; 5 classes (1 of several codes proved equal, \
             0 equal only as far as computed); written to {}",
            out.display()
        )
    );
    let rows = rows(&out.join("atlas.csv"));
    let order: Vec<&str> = rows.keys().map(String::as_str).collect();
    assert_eq!(order, ["0.07", "0.3", "0.77", "hex:0.3F", "hex:0.8", "hex:0.B", "hex:0.F"]);
    let cells = |code: &str, columns: &[&str]| -> Vec<String> {
        columns.iter().map(|c| rows[code][*c].clone()).collect()
    };
    let period = ["status", "preperiod", "period", "checked_through", "theorem", "stopped"];
    for code in ["hex:0.B", "hex:0.F"] {
        let expected = ["solved", "0", "2", "9", "hexadecimal periodicity theorem", "certified"];
        assert_eq!(cells(code, &period), expected, "{code}");
        let r = run(&["period", "--game", code, "--max", "9"]);
        assert_eq!(
            r.stdout,
            format!("game,preperiod,period,saltus,checked_through\n{code},0,2,0,9\n")
        );
    }
    // Arithmetic periods proved by the criterion, as `nimtab period` proves them.
    for (code, e, p, s, through) in [("hex:0.3F", 0, 6, 3, 38), ("hex:0.8", 1, 3, 1, 52)] {
        let theorem = format!("arithmetic-periodicity criterion (saltus {s})");
        let expected = ["solved", &e.to_string(), &p.to_string(), &through.to_string(), &theorem];
        assert_eq!(cells(code, &period)[..5], expected, "{code}");
        assert_eq!(rows[code]["stopped"], "certified");
        let r = run(&["period", "--game", code, "--max", "100"]);
        let row = format!("{code},{e},{p},{s},{through}\n");
        assert_eq!(r.stdout, format!("game,preperiod,period,saltus,checked_through\n{row}"));
    }
    let json = json_codes(&out);
    let evidence = |code: &str| json[code]["arithmetic"].to_string();
    assert_eq!(
        evidence("hex:0.3F"),
        r#"{"period":6,"preperiod":0,"proved":true,"saltus":3,"through":38}"#
    );
    assert_eq!(
        evidence("hex:0.8"),
        r#"{"period":3,"preperiod":1,"proved":true,"saltus":1,"through":52}"#
    );
    for code in ["0.07", "0.3", "hex:0.F"] {
        assert!(json[code].get("arithmetic").is_none(), "{code}: {}", json[code]);
    }
    // Past the heaps computed, a proved code's values follow G(n + p) = G(n) + s: its
    // fingerprint at heap 1024 is the brute force's.
    let state = std::fs::read_to_string(out.join("state/hex:0.3F.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let bytes: Vec<u8> = brute_force("0.3F", 1024).iter().flat_map(|v| v.to_le_bytes()).collect();
    let digest: String = sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(state["fingerprints"][1], serde_json::json!([1024, digest]));
    // A certified or proved code keeps the values computed, to heap 64 here.
    for (code, len) in [("hex:0.F", 65), ("hex:0.B", 65), ("hex:0.3F", 65), ("hex:0.8", 65)] {
        let first: Vec<u32> = serde_json::from_value(json[code]["first_values"].clone()).unwrap();
        assert_eq!(first, brute_force(&code["hex:".len()..], len - 1), "{code}");
    }
}

#[test]
fn a_hex_code_equal_to_an_octal_code_joins_its_class_and_has_its_misere_quotient() {
    let dir = scratch();
    let out = dir.path().join("a");
    atlas(CODES, &out, &[]);
    let classes = rows(&out.join("classes.csv"));
    let joined: Vec<(&str, &str, &str)> = classes
        .values()
        .map(|c| (c["standard_form"].as_str(), c["members"].as_str(), c["how"].as_str()))
        .collect();
    assert_eq!(
        joined,
        [
            ("0.07", "0.07", "single"),
            ("0.3", "0.3 hex:0.B hex:0.F", "periodic"),
            ("0.77", "0.77", "single"),
            ("hex:0.3F", "hex:0.3F", "single"),
            ("hex:0.8", "hex:0.8", "single"),
        ]
    );
    let rows = rows(&out.join("atlas.csv"));
    let quotient = ["quotient_max_heap", "quotient_order", "quotient_p_portion"];
    let cells =
        |code: &str| -> Vec<&str> { quotient.iter().map(|c| &rows[code][*c][..]).collect() };
    // hex:0.F and 0.3 have one sequence, and one misère quotient to heap 6; hex:0.3F's
    // quotient is the one `nimtab quotient` computes for it.
    assert_eq!(cells("hex:0.F"), ["6", "2", "a"]);
    assert_eq!(cells("0.3"), ["6", "2", "a"]);
    assert_eq!(cells("hex:0.3F"), ["6", "12", "a b^2 ac"]);
    let json = json_codes(&out);
    assert_eq!(json["hex:0.3F"]["quotient"]["proved"]["order"], 12);
}

#[test]
fn hex_families_are_planned_in_full_and_run_like_octal_ones() {
    let dir = scratch();
    let out = dir.path().join("hex1");
    let r = run(&[
        "atlas",
        "-q",
        "--codes",
        "hex(1)",
        "--budget",
        "2^7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("atlas of 48 codes: "), "{}", r.stdout);
    let rows = rows(&out.join("atlas.csv"));
    assert_eq!(rows.len(), 48);
    assert!(rows.keys().all(|code| code.starts_with("hex:")), "{:?}", rows.keys());
    assert!(rows["hex:C.F"]["computed_to"].parse::<u64>().unwrap() <= 128);
}

#[test]
fn a_hex_atlas_resumes_shards_and_threads_to_the_same_bytes() {
    let dir = scratch();
    let files = |out: &PathBuf| -> Vec<(String, Vec<u8>)> {
        ["atlas.csv", "classes.csv", "atlas.json"]
            .iter()
            .map(|name| (name.to_string(), std::fs::read(out.join(name)).unwrap()))
            .collect()
    };
    let (one, two, parts) =
        (dir.path().join("one"), dir.path().join("two"), dir.path().join("parts"));
    atlas(CODES, &one, &["--threads", "1"]);
    atlas(CODES, &two, &["--threads", "2"]);
    assert_eq!(files(&one), files(&two));
    std::fs::remove_file(two.join("state/hex:0.3F.json")).unwrap();
    std::fs::remove_file(two.join("atlas.csv")).unwrap();
    let before = std::fs::metadata(two.join("state/hex:0.8.json")).unwrap().modified().unwrap();
    atlas(CODES, &two, &[]);
    assert_eq!(files(&one), files(&two));
    let after = std::fs::metadata(two.join("state/hex:0.8.json")).unwrap().modified().unwrap();
    assert_eq!(after, before);
    let first = atlas(CODES, &parts, &["--shard", "2/2"]);
    assert!(first.starts_with("shard 2/2: 4 codes done"), "{first}");
    assert!(parts.join("state/hex:0.F.json").exists());
    atlas(CODES, &parts, &["--shard", "1/2"]);
    atlas(CODES, &parts, &[]);
    assert_eq!(files(&one), files(&parts));
}

#[test]
fn compare_and_the_site_state_a_hex_code_s_evidence_as_bounded() {
    let dir = scratch();
    let (out, site) = (dir.path().join("a"), dir.path().join("site"));
    let table = dir.path().join("published.csv");
    std::fs::write(&table, "code,standard_form,period\nhex:.f,.3,2\nhex:8.31c,,6\n").unwrap();
    let codes = format!("{CODES};hex:8.31C");
    let mut args = vec!["atlas", "-q", "--codes", &codes, "--budget", "2^10"];
    args.extend(["--quotient-heap", "6", "--out", out.to_str().unwrap()]);
    args.extend(["--compare", table.to_str().unwrap(), "--html", site.to_str().unwrap()]);
    let r = run(&args);
    assert_eq!(r.status, 1, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[2..],
        [
            "1 differences from the published table",
            "code,column,published,computed,proof",
            "hex:8.31C,period,6,,bounded: computed to heap 1024",
        ]
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<h1>Atlas of octal and hexadecimal games: 8 codes in 6 classes</h1>"));
    let page = std::fs::read_to_string(site.join("class/hex~3a~8.31C.html")).unwrap();
    assert!(
        page.contains(
            "its values are arithmetic-periodic, G(n + 11) = G(n) + 6 from heap 1 through heap \
             1024: evidence, not certified (the arithmetic-periodicity criterion does not prove \
             it)"
        ),
        "{page}"
    );
    let page = std::fs::read_to_string(site.join("class/hex~3a~0.3F.html")).unwrap();
    assert!(
        page.contains(
            "its values are arithmetic-periodic, G(n + 6) = G(n) + 3 for every heap from 0, \
             proved by the arithmetic-periodicity criterion from the values through heap 38"
        ),
        "{page}"
    );
    let page = std::fs::read_to_string(site.join("class/0.3.html")).unwrap();
    assert!(page.contains("certified by the hexadecimal periodicity theorem"), "{page}");
}

#[test]
fn bad_hex_input_is_refused_with_one_line_and_nothing_written() {
    let dir = scratch();
    let out = dir.path().join("out");
    let refused = |args: &[&str], expected: &str| {
        let mut all = vec!["atlas", "--out", out.to_str().unwrap()];
        all.extend(args);
        let r = run(&all);
        assert_eq!((r.status, r.stderr.as_str()), (2, &format!("nimtab: error: {expected}\n")[..]));
        assert!(!out.exists());
    };
    // Its state files are named after each code: a code too long for a file name is
    // refused before any work (it failed once the code was computed).
    let long = format!("0.07;hex:0.{}", "8".repeat(200));
    refused(
        &["--codes", &long],
        "game 2 of the family: a code in the atlas has at most 160 characters (its state files \
         are named after it), this one has 206",
    );
    refused(
        &["--codes", "0.07;hex:0.3G"],
        "game 2 of the family: 'hex:0.3G' is not a hexadecimal code: 'G' (digit D2) is not a hexadecimal \
         digit 0-F",
    );
    refused(
        &["--codes", "0.07;hex:0.8", "--dense-budget", "2^17"],
        "the dense budget must be at most 2^16 = 65536 heaps for an atlas with hexadecimal \
         codes (hex:0.8 has moves that leave three heaps: its values are computed in memory by \
         a plain mex, to at most 65536 heaps), got 131072 (the smaller of the budget and the \
         dense budget given)",
    );
}

#[test]
fn codes_with_one_proved_arithmetic_period_and_block_are_proved_equal() {
    // Each is G(n + 2) = G(n) + 1 from heap 1 with the values 0 0 0: proved, one class.
    let dir = scratch();
    let out = dir.path().join("a");
    atlas("hex:0.4C;hex:0.C4;hex:0.CC;hex:0.C8", &out, &[]);
    let classes = rows(&out.join("classes.csv"));
    let class = &classes["1"];
    assert_eq!(classes.len(), 1);
    assert_eq!(
        (class["members"].as_str(), class["how"].as_str()),
        ("hex:0.4C hex:0.C4 hex:0.C8 hex:0.CC", "periodic")
    );
    for (code, row) in rows(&out.join("atlas.csv")) {
        let cells = [&row["status"], &row["preperiod"], &row["period"], &row["theorem"]];
        assert_eq!(
            cells,
            ["solved", "1", "2", "arithmetic-periodicity criterion (saltus 1)"],
            "{code}"
        );
    }
}
