//! Quotients that run long or large: the memory budget they stop at (one line from
//! `quotient`, a `memory` row from a sweep whatever the threads, no temporary left), the
//! plan a long computation states first, the progress bar while one heap takes long, and
//! a sweep cancelled inside a game's search.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nimtab::sweep::{Family, FamilyLimit, QuotientLimits, QuotientSweep, SweepError};
use nimtab::Progress;

use crate::support::cli::{limited, output_of, run, run_limited, Run};

/// An address-space limit that leaves a budget of some tens of MiB: far below what
/// `octal:0.76` needs at heap 12 (about 190 MiB, when its search refines) and `octal:0.74`
/// at heap 15 (about 140 MiB), far above what small quotients need.
const TIGHT_KIB: u64 = 100_000;

/// The budget of `needs more than the X MiB of memory available`, in MiB.
fn budget_mib(line: &str) -> f64 {
    let after = "needs more than the ";
    let rest = &line[line.find(after).unwrap_or_else(|| panic!("{line}")) + after.len()..];
    assert!(rest.split_whitespace().nth(1) == Some("MiB"), "{line}");
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// The names of the files in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_quotient_past_its_memory_budget_is_refused_with_one_line_naming_the_need() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q.txt");
    let args =
        ["quotient", "--game", "octal:0.76", "--max-heap", "12", "--max-order", "4096", "--out"];
    let got = run_limited(TIGHT_KIB, &[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(got.status, 2, "{}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
    let line = got.stderr.trim_end();
    assert!(line.starts_with("nimtab: error: the quotient at heap 12 needs more than the "));
    assert!(line.contains(" of memory available: it holds "), "{line}");
    assert!(
        line.ends_with(
            " more, bound by the address-space limit (ulimit -v); lower --max-heap or \
             --max-order"
        ),
        "{line}"
    );
    let budget = budget_mib(line);
    assert!(budget > 10.0 && budget < 100.0, "{line}");
    assert!(got.stdout.is_empty(), "{}", got.stdout);
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_quotient_sweep_past_its_memory_budget_writes_memory_rows_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let family = "octal:0.75;octal:0.76;nim;octal:0.74";
    let sweep = |threads: &str, name: &str, extra: &[&str]| -> String {
        let out = dir.path().join(name);
        let args = ["--threads", threads, "sweep", "--games", family, "--quotients", "20"];
        let mut command = limited(TIGHT_KIB);
        command.args(args).arg("--out").arg(&out).args(extra);
        let Run { status, stderr, .. } = output_of(&mut command, "");
        assert_eq!(status, 0, "{threads} threads {extra:?}: {stderr}");
        std::fs::read_to_string(&out).unwrap()
    };
    let one = sweep("1", "one.csv", &[]);
    let statuses: Vec<&str> = one.lines().skip(1).map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(statuses, ["ok", "memory", "ok", "memory"], "{one}");
    // Each keeps the quotient of the heaps it completed within the whole budget.
    assert!(one.contains("\noctal:0.76,20,11,34,9,false,,,memory\n"), "{one}");
    // Two threads share the budget, and a game past its share runs again alone.
    assert_eq!(sweep("2", "two.csv", &[]), one);
    let mut merge = vec!["merge".to_string()];
    for shard in ["1/2", "2/2"] {
        let name = format!("part{}.csv", &shard[..1]);
        sweep("2", &name, &["--shard", shard]);
        merge.push(dir.path().join(name).display().to_string());
    }
    let merged = run(&merge.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(merged.status, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, one);
    let names = ["one.csv", "part1.csv", "part2.csv", "two.csv"];
    assert_eq!(files_in(dir.path()), names, "a temporary was left");
}

#[test]
fn a_long_quotient_states_its_plan_first_unless_quiet() {
    let args = ["quotient", "--game", "octal:0.77", "--max-heap", "120", "--max-order", "4096"];
    let got = run(&args);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let plan = got.stderr.lines().next().unwrap_or_default();
    // Kayles's heaps up to 120 have 7260 options of 8 bytes, and a list header each.
    let start = "nimtab: quotient of octal:0.77 for heaps up to 120: options 59.55 KiB, at most \
                 4096 elements (candidates of at most 16384 before reduction); memory budget ";
    assert!(plan.starts_with(start) && plan.contains(", bound by "), "{}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
    let quiet = run(&[&["-q"][..], &args].concat());
    assert_eq!((quiet.status, quiet.stderr.as_str(), quiet.stdout), (0, "", got.stdout));
    let short = run(&["quotient", "--game", "octal:0.77", "--max-heap", "99"]);
    assert_eq!((short.status, short.stderr.as_str()), (0, ""));
    // A refusal stays one line: the plan is not stated for it.
    let refused = run(&["quotient", "--game", "wythoff", "--max-heap", "500"]);
    assert_eq!(refused.status, 2);
    assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
}

#[test]
fn a_heap_that_takes_long_moves_the_progress_bar_on_a_terminal() {
    // `script` runs the command on a pseudo-terminal, as a user's shell would.
    if Command::new("script").arg("--version").output().is_err() {
        println!("skipped: no script(1) to give the run a terminal");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_nimtab");
    // Heap 12 refines its candidates for seconds; the heaps before it take a fraction of one.
    let command = format!("{bin} quotient --game octal:0.76 --max-heap 13 --max-order 2000");
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (mut seen, mut buf) = (Vec::new(), [0u8; 4096]);
    let marker = "quotient of octal:0.76: heap 12, trying order ";
    let found = loop {
        match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break false,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
        let text = String::from_utf8_lossy(&seen);
        if text.contains(marker) && text.contains("11/13 heaps") {
            break true;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        found,
        "no progress bar at heap 12 on the terminal: {}",
        String::from_utf8_lossy(&seen)
    );
}

/// A caller that asks to stop once `after` has passed.
struct StopAfter {
    start: Instant,
    after: Duration,
}

impl Progress for StopAfter {
    fn advance(&self, _games: u64) {}

    fn cancelled(&self) -> bool {
        self.start.elapsed() > self.after
    }
}

#[test]
fn a_cancelled_quotient_sweep_stops_inside_a_games_search() {
    // Dawson's Kayles searches at heap 34 for seconds before its candidates outgrow the
    // order bound: a sweep polling only between games would finish that search first.
    let family = Family::parse("octal:0.07", FamilyLimit::Usual).unwrap();
    let limits = QuotientLimits { max_order: Some(4096), ..QuotientLimits::default() };
    let sweep = QuotientSweep::new(family, 300, limits).unwrap();
    let stop = StopAfter { start: Instant::now(), after: Duration::from_millis(300) };
    let result = sweep.run(0..1, 1 << 32, &stop);
    let took = stop.start.elapsed();
    match result {
        Err(SweepError::Space(nimtab::Error::Engine(nimtab::EngineError::Cancelled))) => {}
        other => panic!("not cancelled: {other:?}"),
    }
    assert!(took < Duration::from_millis(2000), "stopped {took:?} after the start");
}
