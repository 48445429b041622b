//! Benchmark harness: one measurement per process, printed as one CSV line.
//!
//! Usage: `engine CASE METHOD [THREADS]` with METHOD `engine` (the fused `verify` labelling of
//! the library, or every Grundy value), `general` (the same on the general path of
//! multi-heap games), `label` (games that are not sums: the labelling alone, P-states
//! counted) or `naive` (the baselines in `naive.rs` and `naive_joint.rs`), or
//! `engine check` to compare them on small spaces; `engine bandwidth THREADS` (the
//! machine's streaming memory bandwidth) and `engine write-csv library|plain THREADS` (the
//! `solve` table to /dev/null), and `engine sequence CODE MAX THREADS [WORK_DIR]` (one
//! octal game's Grundy values, timed at each power of two). Each measurement runs in its own
//! process so that its peak memory (VmHWM) is its own. `scripts/bench` runs every case
//! and formats the table.

// Not `benches/naive.rs`: Cargo would discover a file there as a bench target of its own.
#[path = "engine/bandwidth.rs"]
mod bandwidth;
#[path = "engine/cases.rs"]
mod cases;
#[path = "engine/csv_write.rs"]
mod csv_write;
#[path = "engine/joint.rs"]
mod joint;
#[path = "engine/measure.rs"]
mod measure;
#[path = "engine/naive.rs"]
mod naive;
#[path = "engine/naive_joint.rs"]
mod naive_joint;
#[path = "engine/sequence.rs"]
mod sequence;

use std::process::ExitCode;

use measure::{cpu_seconds, peak_rss_mib};
use std::time::{Duration, Instant};

use cases::{random_graph, subtract_134, Job, CASES};
use nimtab::analysis::verify::{verify, Finding};
use nimtab::engine::MultiHeapPath;
use nimtab::model::space::TupleSpace;
use nimtab::{Criterion, Ending, Engine, Game, Mode, NoProgress};

/// The naive run measures for this long, then stops if the whole space would take longer
/// than a minute at the rate seen, and extrapolates.
const NAIVE_BUDGET: naive::Budget =
    naive::Budget { budget: Duration::from_secs(15), full_limit: Duration::from_secs(60) };

/// Counterexamples kept per (ending, criterion), as `nimtab verify` keeps by default.
const LIMIT: usize = 20;

/// One CSV line of results.
struct Measurement {
    positions: u64,
    wall: f64,
    cpu: f64,
    peak_mib: f64,
    threads: usize,
    estimate: bool,
    /// Positions actually labelled (fewer than `positions` for an estimate).
    measured_positions: u64,
    /// How the result was checked: `agree`, `verify-miscounts`, `prefix-theorems`, `-`.
    check: &'static str,
}

const CSV_HEADER: &str =
    "case,method,positions,seconds,cpu_seconds,peak_rss_mib,threads,estimate,measured_positions,check";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = || {
        let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
        format!(
            "usage: engine CASE engine|general|label|naive [THREADS] | engine check | engine header\n\
             | engine bandwidth THREADS | engine write-csv library|plain THREADS\n\
             | engine sequence CODE MAX THREADS [WORK_DIR]\n\
             cases: {}",
            names.join(", ")
        )
    };
    match args.first().map(String::as_str) {
        Some("header") => {
            println!("{CSV_HEADER}");
            return Ok(());
        }
        Some("check") => return check_naive_against_engine(),
        Some("bandwidth") => return print_bandwidth(args.get(1).map(String::as_str)),
        Some("write-csv") => return print_csv_write(&args[1..]),
        Some("sequence") => return print_sequence(&args[1..]),
        // Plain `cargo bench` passes no case: run the quick correctness check, point at the
        // script and succeed, rather than fail the whole `cargo bench`.
        None => {
            eprintln!("{}\nrun scripts/bench for the benchmark table", usage());
            return check_naive_against_engine();
        }
        _ => {}
    }
    let [case_name, method, rest @ ..] = args else { return Err(usage()) };
    let case = CASES.iter().find(|c| c.name == case_name).ok_or_else(usage)?;
    if let Some(threads) = rest.first() {
        set_threads(threads)?;
    }
    let game = (case.game)();
    let space = TupleSpace::new(case.heaps, case.max).map_err(|e| e.to_string())?;
    let joint = !game.is_sum() || case.job == Job::Grundy;
    // The joint cases are labelled over sorted tuples as given; the baseline has only
    // every tuple.
    let mode = if case.canonical { Mode::Canonical } else { Mode::Full };
    let labelled = TupleSpace::in_mode(case.heaps, case.max, mode).map_err(|e| e.to_string())?;
    let measurement = match (method.as_str(), joint) {
        ("engine", false) => measure_engine(&game, space, case.canonical)?,
        ("naive", false) => measure_naive(&game, space)?,
        ("engine", true) => {
            joint::measure_engine(&game, labelled, case.job, MultiHeapPath::Accumulators)?
        }
        ("label", true) => {
            joint::measure_engine(&game, labelled, Job::Label, MultiHeapPath::Accumulators)?
        }
        ("general", true) => {
            joint::measure_engine(&game, labelled, case.job, MultiHeapPath::General)?
        }
        ("naive", true) if !case.canonical => joint::measure_naive(&game, space, case.job)?,
        _ => return Err(usage()),
    };
    let m = measurement;
    println!(
        "{},{},{},{:.3},{:.3},{:.1},{},{},{},{}",
        case.name,
        method,
        m.positions,
        m.wall,
        m.cpu,
        m.peak_mib,
        m.threads,
        if m.estimate { "estimate" } else { "measured" },
        m.measured_positions,
        m.check
    );
    Ok(())
}

/// Sizes rayon's global pool.
fn set_threads(threads: &str) -> Result<usize, String> {
    let threads: usize = threads.parse().map_err(|_| format!("bad thread count '{threads}'"))?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| e.to_string())?;
    Ok(threads)
}

/// `bandwidth,THREADS,BUFFER_MIB,ROUNDS,BEST_GB_S,MEDIAN_GB_S`: bytes read + written.
fn print_bandwidth(threads: Option<&str>) -> Result<(), String> {
    let threads: usize = match threads {
        Some(t) => t.parse().map_err(|_| format!("bad thread count '{t}'"))?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let b = bandwidth::measure(threads.max(1));
    println!(
        "bandwidth,{},{},{},{:.2},{:.2}",
        b.threads,
        bandwidth::BUFFER_BYTES >> 20,
        bandwidth::ROUNDS,
        b.bytes_per_second / 1e9,
        b.median_bytes_per_second / 1e9
    );
    Ok(())
}

/// `write-csv,WRITER,THREADS,BYTES,ROWS,SECONDS,CPU_SECONDS`.
fn print_csv_write(args: &[String]) -> Result<(), String> {
    let [writer, threads] = args else {
        return Err("usage: engine write-csv library|plain THREADS".into());
    };
    let threads = set_threads(threads)?;
    let w = csv_write::measure(writer)?;
    println!("write-csv,{writer},{threads},{},{},{:.3},{:.3}", w.bytes, w.rows, w.seconds, w.cpu);
    Ok(())
}

/// `sequence,...` lines (see `sequence.rs`): one octal game's Grundy values to `MAX`
/// (`2^K` or an integer) on `THREADS` threads, in memory or in a file in `WORK_DIR`.
fn print_sequence(args: &[String]) -> Result<(), String> {
    let (code, max, threads, work_dir) = match args {
        [code, max, threads] => (code, max, threads, None),
        [code, max, threads, dir] => (code, max, threads, Some(dir.as_str())),
        _ => return Err("usage: engine sequence CODE MAX THREADS [WORK_DIR]".into()),
    };
    let max = match max.strip_prefix("2^") {
        Some(k) => 1u64 << k.parse::<u32>().map_err(|_| format!("bad max '{max}'"))?,
        None => max.parse().map_err(|_| format!("bad max '{max}'"))?,
    };
    let threads = set_threads(threads)?;
    for row in sequence::measure(code, max, threads, work_dir)? {
        println!("{row}");
    }
    Ok(())
}

/// The job of `nimtab verify` with default rules and criteria: the same library call the
/// command makes (one fused labelling where memory allows).
fn engine_verify(game: &Game, space: TupleSpace, canonical: bool) -> Result<Vec<Finding>, String> {
    let mode = if canonical { Mode::Canonical } else { Mode::Full };
    let space = TupleSpace::in_mode(space.heaps(), space.max(), mode).map_err(|e| e.to_string())?;
    let engine = Engine::new(game, space.into());
    let run = verify(&engine, &Ending::ALL, &Criterion::SUMS, LIMIT, &NoProgress);
    let run = run.map_err(|e| e.to_string())?;
    if run.labellings != 1 {
        return Err(format!(
            "the endings did not fit in one labelling ({} labellings)",
            run.labellings
        ));
    }
    Ok(run.findings)
}

fn measure_engine(game: &Game, space: TupleSpace, canonical: bool) -> Result<Measurement, String> {
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    let findings = engine_verify(game, space, canonical)?;
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    // A theorem with disagreements means a wrong engine: its speed would mean nothing.
    if let Some(f) = findings.iter().find(|f| f.theorem_failed()) {
        let criterion = f.criterion.map_or("none", |c| c.name());
        return Err(format!("engine: theorem {criterion} failed under {}", f.ending));
    }
    let positions = findings.first().map_or(0, |f| f.tally.positions);
    Ok(Measurement {
        positions,
        wall,
        cpu,
        peak_mib: peak_rss_mib(),
        threads: rayon::current_num_threads(),
        estimate: false,
        measured_positions: positions,
        check: "-",
    })
}

fn measure_naive(game: &Game, space: TupleSpace) -> Result<Measurement, String> {
    let cpu_start = cpu_seconds();
    let result = naive::run(game, space, NAIVE_BUDGET);
    let cpu = cpu_seconds() - cpu_start;
    let peak_mib = peak_rss_mib();
    check_theorems(game, &result)?;
    let check = if result.complete() {
        // Where both run, the naive DP must agree with the engine position for position.
        compare_labels(game, space, &result)?;
        compare_counts(game, space, &result)?
    } else {
        "prefix-theorems"
    };
    // An estimate scales the prefix's time by positions (see docs/architecture).
    let scale = result.total as f64 / result.labelled.max(1) as f64;
    Ok(Measurement {
        positions: result.total,
        wall: result.elapsed.as_secs_f64() * scale,
        cpu: cpu * scale,
        peak_mib,
        threads: 1,
        estimate: !result.complete(),
        measured_positions: result.labelled,
        check,
    })
}

/// Theorems hold on every prefix too: a cheap check of a naive run that stopped early.
fn check_theorems(game: &Game, run: &naive::NaiveRun) -> Result<(), String> {
    for (r, ending) in Ending::ALL.into_iter().enumerate() {
        for (c, criterion) in Criterion::SUMS.into_iter().enumerate() {
            if criterion.is_theorem(game, ending) && run.disagree[r][c] != 0 {
                return Err(format!(
                    "NAIVE DP IS WRONG: theorem {criterion} under {ending} has {} disagreements \
                     on {} positions of {}",
                    run.disagree[r][c],
                    run.labelled,
                    game.spec()
                ));
            }
        }
    }
    Ok(())
}

/// Compares every label of a complete naive run with the engine's kept tables, row by row.
fn compare_labels(game: &Game, space: TupleSpace, run: &naive::NaiveRun) -> Result<(), String> {
    let engine = Engine::new(game, space.into());
    let radix = space.radix() as usize;
    for (r, ending) in Ending::ALL.into_iter().enumerate() {
        let table = engine.label(ending).map_err(|e| e.to_string())?;
        let mut prefix = vec![0u32; space.heaps() - 1];
        for (row, naive_row) in run.labels[r].chunks(radix).enumerate() {
            // Full mode: the row's first column is 0.
            let (_, engine_row) = table.row(&prefix);
            if let Some(h) = (0..radix).find(|&h| (naive_row[h] == 1) != engine_row[h]) {
                return Err(format!(
                    "MISMATCH naive vs engine labels on {} under {ending} at prefix {prefix:?}, \
                     last heap {h} (row {row}): naive says {}",
                    game.spec(),
                    if naive_row[h] == 1 { "P" } else { "N" }
                ));
            }
            for h in prefix.iter_mut().rev() {
                if *h < space.max() {
                    *h += 1;
                    break;
                }
                *h = 0;
            }
        }
    }
    Ok(())
}

/// Compares the counts of a complete naive run with the engine's `verify` findings.
///
/// Positions and P-positions must be equal. The naive disagreement counts are checked
/// against the library's per-position definitions (`check`); where the engine's
/// `verify_rules` counts fewer, that is reported loudly as an engine bug, not hidden.
fn compare_counts(
    game: &Game,
    space: TupleSpace,
    run: &naive::NaiveRun,
) -> Result<&'static str, String> {
    let findings = engine_verify(game, space, false)?;
    let c_count = Criterion::SUMS.len();
    let mut verdict = "agree";
    for (r, ending) in Ending::ALL.into_iter().enumerate() {
        for (c, criterion) in Criterion::SUMS.into_iter().enumerate() {
            let f = &findings[r * c_count + c];
            assert_eq!(
                (f.ending, f.criterion),
                (ending, Some(criterion)),
                "findings in ending order"
            );
            let what = format!(
                "{} {} heaps max {} ({ending}, {criterion})",
                game.spec(),
                space.heaps(),
                space.max()
            );
            let (t, r_label) = (&f.tally, run.p_positions[r]);
            if (run.labelled, r_label) != (t.positions, t.p_positions) {
                return Err(format!(
                    "MISMATCH naive vs engine on {what}: naive (positions, P) = {:?}, \
                     engine = {:?}",
                    (run.labelled, r_label),
                    (t.positions, t.p_positions)
                ));
            }
            if run.disagree[r][c] != t.disagree {
                eprintln!(
                    "ENGINE BUG: verify counts {} disagreements on {what}, the naive DP \
                     (labels checked position by position) counts {}",
                    t.disagree, run.disagree[r][c]
                );
                verdict = "verify-miscounts";
            }
        }
    }
    Ok(verdict)
}

/// Runs the naive DP and the engine on small spaces of every kind of game: labels position
/// by position, the naive criteria against `Criterion::predicts_p`, and the counts against
/// `verify_rules`. Prints one line per space.
fn check_naive_against_engine() -> Result<(), String> {
    let sj_graph = Game::graph("graph:sj", &[(1, 0), (2, 0), (2, 1), (3, 2)])
        .expect("the SJ counterexample graph");
    let spaces: Vec<(Game, usize, u32)> = vec![
        (Game::nim(), 1, 9),
        (Game::nim(), 2, 20),
        (Game::nim(), 3, 31),
        (Game::nim(), 3, 100),
        (Game::nim(), 4, 12),
        (subtract_134(), 3, 40),
        (subtract_134(), 2, 300),
        (Game::subtract(&[2, 3, 5]).expect("valid set"), 3, 30),
        (random_graph(), 3, 60),
        (random_graph(), 2, 200),
        (sj_graph, 4, 3),
    ];
    joint::check_against_engine()?;
    for (game, heaps, max) in spaces {
        let space = TupleSpace::new(heaps, max).map_err(|e| e.to_string())?;
        let run = naive::run(&game, space, naive::Budget::unlimited());
        check_theorems(&game, &run)?;
        check_predictions(&game, space)?;
        compare_labels(&game, space, &run)?;
        let verdict = compare_counts(&game, space, &run)?;
        println!(
            "check {verdict}: {} {heaps} heaps max {max}: {} positions, P = {:?}",
            game.spec(),
            run.labelled,
            run.p_positions
        );
    }
    Ok(())
}

/// The naive criteria must equal the library's per-position definitions.
fn check_predictions(game: &Game, space: TupleSpace) -> Result<(), String> {
    let grundy = game.grundy(space.max());
    for index in 0..space.positions() {
        let tuple = space.tuple(index);
        let naive = naive::predictions(&tuple, &grundy);
        for (c, criterion) in Criterion::SUMS.into_iter().enumerate() {
            if criterion.predicts_p(game, &tuple, &grundy) != naive[c] {
                return Err(format!("NAIVE CRITERION {criterion} IS WRONG at {tuple:?}"));
            }
        }
    }
    Ok(())
}
