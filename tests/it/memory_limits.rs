//! Runs at the edge of an address-space limit (`ulimit -v`): just above its need the run
//! finishes with the output of an unlimited run, just below it is refused with status 2
//! and one line before any work, never an abort. The need comes from the library's plan
//! of the same work, the binary's overhead from `info` under a known limit.

use std::path::Path;

use nimtab::analysis::claim::claim_work;
use nimtab::analysis::expr::Expr;
use nimtab::analysis::verify::prepare;
use nimtab::engine::Work;
use nimtab::export::labels_csv::table_bytes;
use nimtab::sequence::plan::{DiskUse, Plan};
use nimtab::sequence::Goal;
use nimtab::{Criterion, Ending, Engine, Game, Mode, Space};

use crate::support::cli::{limited, memory_overhead, output_of, Run};

/// Threads of every run, in the binary (`--threads`) and in the plans here: each thread
/// has its scratch.
const THREADS: usize = 2;

/// How far above and below its least limit a run is tried, in KiB: the overhead is read
/// in hundredths of a MiB.
const EDGE_KIB: u64 = 256;

/// The least budget a run fits in (`fits` is monotone), computed on a pool of
/// [`THREADS`] threads as the binary's plans are.
fn least_budget(fits: impl Fn(u64) -> bool + Send + Sync) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(THREADS).build().unwrap();
    pool.install(|| {
        let (mut low, mut high) = (0u64, 1u64 << 40);
        assert!(fits(high) && !fits(low), "the need is between 0 and 1 TiB");
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if fits(mid) {
                high = mid;
            } else {
                low = mid;
            }
        }
        high
    })
}

/// One command: its arguments (`OUT` stands for its output file, if it writes one) and
/// whether its work fits a budget, as the library plans it.
struct Case {
    args: &'static str,
    fits: Box<dyn Fn(u64) -> bool + Send + Sync>,
}

/// Runs `case` under a limit of `kib` KiB (without a limit for `None`); the output file
/// goes to `dir`. Returns the run and the output (the file's, or stdout).
fn run_case(case: &Case, kib: Option<u64>, dir: &Path) -> (Run, String) {
    let out = dir.join(format!("out-{}.csv", kib.unwrap_or(0)));
    let args: Vec<String> = case
        .args
        .split_whitespace()
        .map(|a| if a == "OUT" { out.display().to_string() } else { a.to_string() })
        .collect();
    let mut command = match kib {
        Some(kib) => limited(kib),
        None => crate::support::cli::command(),
    };
    let run = output_of(command.arg("--threads").arg(THREADS.to_string()).args(&args), "");
    let output = if case.args.contains("OUT") {
        std::fs::read_to_string(&out).unwrap_or_default()
    } else {
        run.stdout.clone()
    };
    (run, output)
}

/// A tuple space's solve with the Grundy values, one ending and the CSV, as `solve` plans it.
fn solve_fits(
    spec: &'static str,
    heaps: usize,
    max: u32,
    mode: Mode,
) -> Box<dyn Fn(u64) -> bool + Send + Sync> {
    Box::new(move |budget| {
        let game = Game::parse(spec).unwrap();
        let space = Space::in_mode(heaps, max, mode).unwrap();
        let engine = Engine::builder(&game, space.clone()).memory_limit(budget).build();
        let csv = table_bytes(&game, &space, 1, engine.grundy_bound());
        let work = [Work::Tables { endings: 1 }, Work::Bytes(csv), Work::Grundy];
        engine.reserve(&work).is_ok()
    })
}

fn cases() -> Vec<Case> {
    let verify_fits = |budget| {
        let game = Game::parse("subtract:1,3,4").unwrap();
        let engine = Engine::builder(&game, Space::new(3, 511).unwrap()).memory_limit(budget);
        let engine = engine.build();
        let criteria = Criterion::applicable(&game, 3);
        prepare(&engine, &Ending::ALL, &criteria, 20).is_ok()
    };
    let check_fits = |budget| {
        let game = Game::wythoff();
        let engine = Engine::builder(&game, Space::new(2, 1000).unwrap()).memory_limit(budget);
        let engine = engine.build();
        let claim = Expr::parse_claim("grundy == 0").unwrap();
        let mut work = claim_work(&engine, claim.operators(), 5).to_vec();
        work.push(Work::Grundy);
        engine.reserve(&work).is_ok()
    };
    let multiset_fits = |budget| {
        let game = Game::parse("octal:0.77").unwrap();
        let space = Space::multisets(60).unwrap();
        let engine = Engine::builder(&game, space).memory_limit(budget).build();
        engine.reserve(&[Work::Tables { endings: 1 }]).is_ok()
    };
    // Values that do not fit in memory go to a file: only the working set must fit.
    let grundy_fits = |budget| {
        let dir = Path::new(".");
        Plan::new("", 300_000, Goal::Values, dir, DiskUse::WhenNeeded, budget, None).is_ok()
    };
    vec![
        Case {
            args: "solve --game subtract:1,3,4 --heaps 3 --max 255 --grundy --rules normal \
                   --only p --out OUT",
            fits: solve_fits("subtract:1,3,4", 3, 255, Mode::Full),
        },
        Case {
            args: "solve --game subtract:1,3,4 --heaps 4 --max 100 --canonical --grundy \
                   --rules normal --only p --out OUT",
            fits: solve_fits("subtract:1,3,4", 4, 100, Mode::Canonical),
        },
        Case {
            args: "solve --game wythoff --heaps 2 --max 1500 --grundy --rules normal --only p \
                   --out OUT",
            fits: solve_fits("wythoff", 2, 1500, Mode::Full),
        },
        Case {
            args: "solve --game octal:0.77 --total 60 --rules misere --only p --out OUT",
            fits: Box::new(multiset_fits),
        },
        Case {
            args: "grundy --game octal:0.77 --max 300000 --out OUT",
            fits: Box::new(grundy_fits),
        },
        Case {
            args: "verify --game subtract:1,3,4 --heaps 3 --max 511 --rules normal,misere,sj",
            fits: Box::new(verify_fits),
        },
        Case {
            args: "check --game wythoff --heaps 2 --max 1000 --rule normal --grundy --limit 5 \
                   --claim-p grundy==0",
            fits: Box::new(check_fits),
        },
    ]
}

#[test]
fn a_run_at_the_edge_of_its_memory_limit_finishes_or_is_refused_never_aborted() {
    let Some(overhead) = memory_overhead() else {
        println!("skipped: a bound tighter than the address-space limit applies here");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let (unlimited, expected) = run_case(&case, None, dir.path());
        assert_eq!(unlimited.status, 0, "{}: {}", case.args, unlimited.stderr);
        assert!(!expected.is_empty(), "{}", case.args);
        let need = least_budget(&case.fits);
        let limit_kib = (need + overhead).div_ceil(1024);
        let (above, output) = run_case(&case, Some(limit_kib + EDGE_KIB), dir.path());
        assert_eq!(
            above.status,
            0,
            "{} at {} KiB: {}",
            case.args,
            limit_kib + EDGE_KIB,
            above.stderr
        );
        assert!(output == expected, "{}: the output under the limit differs", case.args);
        let (below, output) = run_case(&case, Some(limit_kib - EDGE_KIB), dir.path());
        let what = format!("{} at {} KiB (need {need} bytes)", case.args, limit_kib - EDGE_KIB);
        assert_eq!(below.status, 2, "{what}: {}", below.stderr);
        assert_eq!(below.stderr.lines().count(), 1, "{what}: {}", below.stderr);
        assert!(below.stderr.contains("too large"), "{what}: {}", below.stderr);
        assert_eq!((below.stdout.as_str(), output.as_str()), ("", ""), "{what}");
    }
}

#[test]
fn worker_threads_that_cannot_start_are_refused_with_one_line_not_a_panic() {
    // 256 threads' stacks do not fit in 200 MB of address space; one thread does.
    let kib = 200_000;
    let solve = ["-q", "solve", "--game", "nim", "--heaps", "2", "--max", "3"];
    let mut many = limited(kib);
    many.args(["--threads", "256"]).args(solve);
    // The default pool, sized here by rayon's variable (as Python's workers may size it).
    let mut default = limited(kib);
    default.args(solve).env("RAYON_NUM_THREADS", "256");
    let cases = [
        (many, "could not start 256 worker threads (--threads 256): "),
        (default, "could not start 256 worker threads (RAYON_NUM_THREADS=256): "),
    ];
    for (mut command, expected) in cases {
        let refused = output_of(&mut command, "");
        assert_eq!((refused.status, refused.stdout.as_str()), (2, ""), "{}", refused.stderr);
        assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
        let line = refused.stderr.trim_end();
        assert!(line.starts_with(&format!("nimtab: error: {expected}")), "{line}");
        assert!(line.ends_with("; try --threads 1 or a larger memory limit"), "{line}");
    }
    let one = output_of(limited(kib).args(["--threads", "1"]).args(solve), "");
    assert_eq!(one.status, 0, "{}", one.stderr);
    assert_eq!(one.stdout.lines().count(), 17, "{}", one.stdout);
}
