//! `nimtab atlas --html DIR`: the site's files, the index's classes, each class page's
//! values, period and certificate, every link resolving inside the site, nothing
//! external, the same bytes on every run, and a site inside the atlas's directory.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::cli::{command, finish, run_in};
use crate::support::tree::assert_refused;

/// The small atlas of the tests: two solved codes, one with rare heaps, and two codes
/// equal only as far as computed.
const CODES: &str = "0.07;0.16;0.6;0.62;4.0";

fn atlas_args<'a>(out: &'a str, html: &'a str) -> Vec<&'a str> {
    let small = ["--budget", "2^12", "--dense-budget", "2^12", "--quiet"];
    let mut args = vec!["atlas", "--codes", CODES, "--out", out, "--html", html];
    args.extend(small);
    args
}

/// Runs the small atlas in `dir` with its site in `dir/site`, and returns every file of
/// the site by its path relative to the site, as text.
fn site_in(dir: &Path) -> BTreeMap<String, String> {
    let got = run_in(dir, &atlas_args("atlas", "site"));
    assert_eq!(got.status, 0, "{}", got.stderr);
    files(&dir.join("site"))
}

/// Every file under `root`, by its path relative to it (`/` between parts); the bytes
/// must be UTF-8.
fn files(root: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            let text = String::from_utf8(std::fs::read(&path).unwrap());
            found.insert(name.clone(), text.unwrap_or_else(|_| panic!("{name} is not UTF-8")));
        }
    }
    found
}

/// The values of every `attribute="…"` in `html`.
fn attributes(html: &str, attribute: &str) -> Vec<String> {
    let needle = format!(" {attribute}=\"");
    html.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &html[at + needle.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn the_site_has_an_index_a_script_a_style_and_a_page_per_class() {
    let dir = tempfile::tempdir().unwrap();
    let site = site_in(dir.path());
    let names: Vec<&str> = site.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "atlas.js",
            "class/0.07.html",
            "class/0.16.html",
            "class/0.6.html",
            "class/4.0.html",
            "index.html",
            "site.css"
        ]
    );
    let index = &site["index.html"];
    assert_eq!(index.matches("<tr data-status=").count(), 4, "one row per class");
    for (form, status, how) in [
        ("0.07", "solved", "single"),
        ("0.16", "unsolved", "single"),
        ("0.6", "unsolved", "equal_through 4096"),
        ("4.0", "solved", "single"),
    ] {
        let members = if form == "0.6" { "0.6 0.62" } else { form };
        let row = format!("<tr data-status=\"{status}\" data-search=\"{members} {status} {how}\">");
        assert!(index.contains(&row), "{row}: {index}");
        let link = format!("<td><a href=\"class/{form}.html\">{form}</a></td>");
        assert!(index.contains(&link), "{form}: {index}");
        assert!(index.contains(&format!("<td>{how}</td></tr>")), "{how}");
    }
    let members = "<a href=\"class/0.6.html#code-0.6\">0.6</a> \
                   <a href=\"class/0.6.html#code-0.62\">0.62</a>";
    assert!(index.contains(members), "{index}");
    assert!(index.contains("<td class=\"n\" data-v=\"30\">1e</td>"), "rare mask in hex");
    assert!(index.contains("<script src=\"atlas.js\"></script>"));
    assert!(site["atlas.js"].contains("addEventListener(\"click\""));
}

#[test]
fn each_class_page_shows_its_values_period_and_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let site = site_in(dir.path());
    let dawson = &site["class/0.07.html"];
    assert!(dawson.contains("<title>Class 0.07 — nimtab atlas</title>"));
    assert!(dawson.contains("<h1>Class 0.07</h1>"));
    let values = "0.0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4 0 1 1 2 0 \
                  3 1 1 0 3 3 2 2 4 4 5 5 2 (3 3 0 1 1 3 0 2 1 1 0 4 5 3 7 4 8 1 1 2 0 3 1 1 0 3 \
                  3 2 2 4 4 5 5 9)";
    assert!(dawson.contains(values), "{dawson}");
    assert!(dawson.contains("Preperiod e = 53, period p = 34; the block G(0..e+p) has 87 values"));
    assert!(dawson.contains(
        "certified by the octal periodicity theorem: G(n) = G(n + 34) was checked for 53 ≤ n \
         &lt; 142, which reads the values through heap 175"
    ));
    assert!(dawson.contains("<h3>G(n) for heaps 0 to 120 (the first period shaded)</h3>"));
    assert!(dawson.contains("over heaps 0 to 86: the preperiod and one period"));
    assert!(dawson.contains("&lt;a, b, c, d | a^2 = 1, c^2 = 1, d^2 = 1,"), "escaped");
    assert!(site["class/4.0.html"].contains("<p class=\"sequence\">0.(0 1)</p>"));
    let sixes = &site["class/0.6.html"];
    assert!(sixes.contains("0.0 1 2 0 1 2 3 1 2 3 4 0 3 4 2 1 3 2 1 0 2 1 4 5"));
    assert!(sixes.contains("first 100 values, G(0) to G(99), of those computed to heap 4096"));
    assert!(sixes.contains(
        "<a href=\"#code-0.62\">0.62</a>: computed to heap 4096: the budget 4096 (2^12) was \
         reached without a period the theorem certifies"
    ));
    assert!(sixes.contains("the members' values agree on heaps 0 to 4096, and nothing more"));
    assert!(sixes.contains("<h3><a href=\"#code-0.62\">0.62</a></h3>\n<p>The same as 0.6's."));
    assert!(sixes.contains("Heaps up to 15 (lowered from 20"), "{sixes}");
    let rare = &site["class/0.16.html"];
    assert!(rare.contains(
        "Mask 0x1e (binary 11110): a value v is rare when popcount(v &amp; \
                           0x1e) is even. Of heaps 0 to 4096, 51 are rare"
    ));
    assert!(rare.contains("G(1244) = 7, G(3604) = 7</p>"));
}

#[test]
fn every_link_of_every_page_resolves_to_a_file_and_anchor_of_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let site = site_in(dir.path());
    let mut links = 0;
    for (name, text) in site.iter().filter(|(name, _)| name.ends_with(".html")) {
        let targets = [attributes(text, "href"), attributes(text, "src")].concat();
        for target in targets {
            if target == "data:," {
                continue;
            }
            assert!(!target.contains(':') && !target.starts_with('/'), "{name}: {target}");
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let page = if file.is_empty() { name.clone() } else { resolve(name, file) };
            let Some(linked) = site.get(&page) else { panic!("{name}: {target}: no {page}") };
            if !anchor.is_empty() {
                let ids = attributes(linked, "id");
                assert!(ids.iter().any(|id| id == anchor), "{name}: {target}: no anchor");
            }
            links += 1;
        }
    }
    assert!(links >= 30, "only {links} links found: is the reader broken?");
}

/// `file` (relative, `..` allowed) from the page `from`, as a path of the site.
fn resolve(from: &str, file: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in file.split('/') {
        match part {
            ".." => assert!(parts.pop().is_some(), "{file} leaves the site from {from}"),
            "." => {}
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

#[test]
fn a_second_run_writes_the_same_bytes() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = site_in(one.path());
    assert_eq!(first, site_in(two.path()), "a fresh run");
    assert_eq!(first, site_in(one.path()), "a run that resumes from the state files");
}

#[test]
fn a_site_inside_the_atlas_directory_or_in_it_is_written_with_the_atlas() {
    let dir = tempfile::tempdir().unwrap();
    for (out, html, index) in [("a", "a/site", "a/site/index.html"), ("b", "b", "b/index.html")] {
        let child = command()
            .args(atlas_args(out, html))
            .current_dir(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (status, _, stderr) = finish(child, Duration::from_secs(120));
        assert_eq!(status, Some(0), "{out} {html}: {stderr}");
        let written: PathBuf = dir.path().join(index);
        assert!(std::fs::read_to_string(written).unwrap().contains("<h1>Atlas of octal games"));
        assert!(dir.path().join(out).join("atlas.csv").is_file());
    }
}

#[test]
fn a_site_directory_that_is_a_file_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("site"), "a file").unwrap();
    let got = run_in(dir.path(), &atlas_args("atlas", "site"));
    assert_refused(&got, "output directory site: not a directory", "--html site");
    assert!(!dir.path().join("atlas").exists(), "nothing computed, nothing written");
    std::fs::remove_file(dir.path().join("site")).unwrap();
    std::fs::create_dir_all(dir.path().join("site/index.html")).unwrap();
    let got = run_in(dir.path(), &atlas_args("atlas", "site"));
    assert_refused(&got, "site/index.html is a directory, where an output file must go", "dir");
    assert!(!dir.path().join("atlas").exists());
}
