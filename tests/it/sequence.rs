//! Long Grundy sequences: the engine against the plain mex, one thread against two, values
//! in memory against values on disk, frequency tables against the values they count.

use nimtab::random::SplitMix64;
use nimtab::sequence::{Goal, NoObserver, Settings, Start, Store, Tuning};
use nimtab::Game;

use crate::support::cli::run;
use crate::support::sequence_reference::{grundys_game_values, octal_values};

/// A random octal code: 1 to 5 digits after the point, `D0 = 4` one time in five.
fn random_code(rng: &mut SplitMix64) -> String {
    let lead = if rng.next_u64().is_multiple_of(5) { '4' } else { '0' };
    let len = 1 + rng.next_u64() % 5;
    let digits: String = (0..len).map(|_| char::from(b'0' + (rng.next_u64() % 8) as u8)).collect();
    format!("{lead}.{digits}")
}

/// `G(0..=max)` through the library's sequence API, on `threads` threads (from 2, the
/// two-thread path forced to run even on small games).
fn library_values(game: &Game, max: u64, threads: usize) -> Vec<u64> {
    let tuning = if threads >= 2 { Tuning::forced() } else { Tuning::default() };
    let settings = Settings::new(Goal::Values, max).threads(threads).tuning(tuning);
    let mut sequence = game
        .grundy_sequence(&settings, Start::Fresh(Store::in_memory(max + 1)), &mut NoObserver)
        .unwrap();
    let mut values = Vec::new();
    sequence.for_each(0..=max, &mut |_, v| values.push(v)).unwrap();
    values
}

#[test]
fn the_engine_agrees_with_the_plain_mex_on_random_codes() {
    let mut rng = SplitMix64::new(2024);
    let mut codes: Vec<String> = (0..40).map(|_| random_code(&mut rng)).collect();
    // Values above 255 (wider cells) and splits without removal, for certain.
    codes.extend(["0.7777777777777777777777777".to_string(), "4.07".into(), "0.161".into()]);
    for code in &codes {
        let game = Game::octal(code).unwrap();
        let expected: Vec<u64> = octal_values(code, 3000).into_iter().map(u64::from).collect();
        assert_eq!(library_values(&game, 3000, 1), expected, "{code}");
        assert_eq!(library_values(&game, 3000, 2), expected, "{code}, 2 threads");
    }
    let grundy: Vec<u64> = grundys_game_values(2000).into_iter().map(u64::from).collect();
    assert_eq!(library_values(&Game::grundys_game(), 2000, 2), grundy);
}

#[test]
fn two_threads_give_the_values_of_one_on_unsolved_games() {
    for code in ["0.161", "0.014", "0.172"] {
        let game = Game::octal(code).unwrap();
        let one = library_values(&game, 1 << 16, 1);
        assert_eq!(library_values(&game, 1 << 16, 2), one, "{code}");
    }
}

/// `nimtab grundy` with `args`, its stdout.
fn grundy(args: &[&str]) -> String {
    let r = run(&[&["grundy"], args].concat());
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn values_on_disk_equal_values_in_memory_and_leave_no_file() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().to_str().unwrap();
    for code in ["octal:0.161", "octal:0.014"] {
        let base = ["--game", code, "--max", "2^17", "--format", "bfile"];
        let memory = grundy(&base);
        for threads in ["1", "2"] {
            let disk = grundy(&[&base[..], &["--work-dir", dir, "--threads", threads]].concat());
            assert!(memory == disk, "{code}: disk values differ with {threads} threads");
        }
        assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 0, "the values file stays");
    }
}

#[test]
fn frequency_tables_count_the_values_they_summarise() {
    let bfile = grundy(&["--game", "octal:0.014", "--max", "5000", "--format", "bfile"]);
    let values: Vec<usize> =
        bfile.lines().map(|l| l.split_once(' ').unwrap().1.parse().unwrap()).collect();
    let table = |n: usize| {
        let mut counts = vec![0u64; values[1..=n].iter().max().unwrap() + 1];
        values[1..=n].iter().for_each(|&v| counts[v] += 1);
        counts.iter().enumerate().map(|(v, c)| format!("{v} {c}\n")).collect::<String>()
    };
    let freq = grundy(&["--game", "octal:0.014", "--max", "5000", "--format", "freq"]);
    assert_eq!(freq, table(5000));
    assert!(freq.lines().any(|l| l.ends_with(" 0")), "zero counts are listed");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("snap");
    let args =
        ["--game", "octal:0.014", "--max", "5000", "--format", "freq", "--snapshots", "pow2"];
    let r = run(&[&["grundy"], &args[..], &["--out", dir.to_str().unwrap()]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut names: Vec<usize> = std::fs::read_dir(dir.join("freq"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().parse().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 5000]);
    for n in names {
        let file = std::fs::read_to_string(dir.join(format!("freq/{n}"))).unwrap();
        assert_eq!(file, table(n), "freq/{n}");
    }
}

#[test]
fn a_periodic_tail_is_counted_by_whole_periods() {
    // 0.16's period is certified at heap 509621; the frequencies beyond it are counted by
    // periods, not computed, and must equal the counts of the values written out.
    let bfile = grundy(&["--game", "octal:0.16", "--max", "700000", "--format", "bfile"]);
    let mut counts = std::collections::BTreeMap::new();
    for line in bfile.lines().skip(1) {
        *counts.entry(line.split_once(' ').unwrap().1.parse::<u32>().unwrap()).or_insert(0u64) += 1;
    }
    let largest = *counts.keys().last().unwrap();
    let expected: String =
        (0..=largest).map(|v| format!("{v} {}\n", counts.get(&v).copied().unwrap_or(0))).collect();
    assert_eq!(grundy(&["--game", "octal:0.16", "--max", "700000", "--format", "freq"]), expected);
}

#[test]
fn nim_and_move_graphs_reach_large_heaps_without_storing_them() {
    assert_eq!(
        grundy(&["--game", "nim", "--max", "3", "--format", "freq"]),
        "0 0\n1 1\n2 1\n3 1\n"
    );
    let huge = run(&["grundy", "--game", "nim", "--max", "2^40", "--format", "bfile"]);
    assert_eq!(huge.status, 2);
    assert!(huge.stderr.contains("--force") && huge.stderr.lines().count() == 1, "{}", huge.stderr);
    // The graph 1->0, 2->0, 2->1, 3->2: values 0 1 2 0, and 0 for every larger heap.
    let graph = concat!(env!("CARGO_MANIFEST_DIR"), "/data/graphs/sj-counterexample.csv");
    let spec = format!("graph:{graph}");
    let freq = grundy(&["--game", &spec, "--max", "2^30", "--format", "freq"]);
    assert_eq!(freq, format!("0 {}\n1 1\n2 1\n", (1u64 << 30) - 2));
}

/// Asks the run to stop once it has reported `after` times; records the heaps reported.
struct CancelAfterReports {
    after: usize,
    reported: Vec<u64>,
}

impl nimtab::sequence::Observer for CancelAfterReports {
    fn progress(&mut self, status: &nimtab::sequence::Status) {
        self.reported.push(status.heaps);
    }

    fn cancelled(&self) -> bool {
        self.reported.len() >= self.after
    }
}

#[test]
fn a_cancelled_run_stops_between_segments_with_cancelled() {
    let game = Game::parse("grundys-game").unwrap();
    let max = 1 << 20;
    let settings =
        Settings::new(Goal::Period, max).threads(1).ring_limit(nimtab::sequence::plan::RING_LIMIT);
    let mut observer = CancelAfterReports { after: 2, reported: Vec::new() };
    let start = Start::Fresh(Store::in_memory(max + 1));
    let outcome = game.grundy_sequence(&settings, start, &mut observer);
    let error = outcome.expect_err("the run was asked to stop");
    assert!(error.to_string().contains("cancelled"), "{error}");
    assert_eq!(observer.reported.len(), 2);
    assert!(observer.reported[1] < max, "it stopped early: {:?}", observer.reported);
}
