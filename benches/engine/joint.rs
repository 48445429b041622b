//! Measurements and checks for games that are not sums, and for the pass: the engine's
//! fast paths and general path against the naive option scan of `naive_joint.rs`.

use std::time::Instant;

use nimtab::analysis::verify::{verify, Finding};
use nimtab::engine::{MultiHeapPath, RowView};
use nimtab::model::position::PassState;
use nimtab::model::space::TupleSpace;
use nimtab::{Criterion, Ending, Engine, Game, NoProgress, RowVisitor};

use crate::cases::Job;
use crate::measure::{cpu_seconds, peak_rss_mib};
use crate::naive::Budget;
use crate::naive_joint::{self, GrundyRun, JointRun};
use crate::{Measurement, LIMIT, NAIVE_BUDGET};

/// The job of `nimtab verify` with the game's default rules and criteria, on the fast
/// path or the general path.
pub fn engine_verify(
    game: &Game,
    space: TupleSpace,
    path: MultiHeapPath,
) -> Result<Vec<Finding>, String> {
    let engine = Engine::builder(game, space.into()).multi_heap_path(path).build();
    let (endings, criteria) = (Ending::defaults(game), Criterion::applicable(game, space.heaps()));
    let run =
        verify(&engine, &endings, &criteria, LIMIT, &NoProgress).map_err(|e| e.to_string())?;
    if let Some(f) = run.findings.iter().find(|f| f.theorem_failed()) {
        return Err(format!("engine: a theorem failed under {} for {}", f.ending, game.spec()));
    }
    Ok(run.findings)
}

/// Counts the P-states of every track of a run (endings in order, with a pass the pass used
/// then the pass available).
struct PCounts {
    tracks: usize,
}

impl RowVisitor for PCounts {
    type Acc = Vec<u64>;

    fn start(&self) -> Vec<u64> {
        vec![0; self.tracks]
    }

    fn visit(&self, acc: &mut Vec<u64>, row: &RowView<'_>) {
        for (count, bits) in acc.iter_mut().zip(row.bits.chunks_exact(row.words_per_row)) {
            *count += bits.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
    }

    fn merge(&self, left: Vec<u64>, right: Vec<u64>) -> Vec<u64> {
        left.iter().zip(&right).map(|(a, b)| a + b).collect()
    }
}

/// The labelling alone: every default ending's positions labelled in one fused labelling, their
/// P-states counted, no criterion compared (what `solve --only p` computes before it
/// writes). Returns the states labelled per ending and the P counts.
pub fn engine_label(
    game: &Game,
    space: TupleSpace,
    path: MultiHeapPath,
) -> Result<(u64, Vec<u64>), String> {
    let engine = Engine::builder(game, space.into()).multi_heap_path(path).build();
    let endings = Ending::defaults(game);
    let tracks = endings.len() * if game.has_pass() { 2 } else { 1 };
    let counts = engine.stream(&endings, &PCounts { tracks }, &NoProgress);
    Ok((engine.positions(), counts.map_err(|e| e.to_string())?))
}

/// Times the engine's job: verify (fast or general path) or every Grundy value.
pub fn measure_engine(
    game: &Game,
    space: TupleSpace,
    job: Job,
    path: MultiHeapPath,
) -> Result<Measurement, String> {
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    let positions = match job {
        Job::Verify => engine_verify(game, space, path)?.first().map_or(0, |f| f.tally.positions),
        Job::Label => engine_label(game, space, path)?.0,
        Job::Grundy => {
            let engine = Engine::builder(game, space.into()).multi_heap_path(path).build();
            let values = engine.grundy_values(&NoProgress).map_err(|e| e.to_string())?;
            values.values().len() as u64
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
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

/// Times the naive DP's job, checking a complete run against the engine.
pub fn measure_naive(game: &Game, space: TupleSpace, job: Job) -> Result<Measurement, String> {
    let cpu_start = cpu_seconds();
    let states = if game.has_pass() { 2 } else { 1 };
    let (total, labelled, elapsed, check) = match job {
        // The labelling alone is the verify job without its comparisons.
        Job::Verify | Job::Label => {
            let run = naive_verify(game, space, NAIVE_BUDGET);
            let complete = run.labelled == run.total;
            let check = if complete { compare_run(game, space, &run)? } else { "prefix" };
            (run.total, run.labelled, run.elapsed, check)
        }
        Job::Grundy => {
            let run = naive_joint::grundy(game, space, NAIVE_BUDGET);
            let complete = run.labelled == run.total;
            let check = if complete { compare_values(game, space, &run)? } else { "prefix" };
            (run.total, run.labelled, run.elapsed, check)
        }
    };
    let cpu = cpu_seconds() - cpu_start;
    let scale = total as f64 / labelled.max(1) as f64;
    Ok(Measurement {
        positions: total * states,
        wall: elapsed.as_secs_f64() * scale,
        cpu: cpu * scale,
        peak_mib: peak_rss_mib(),
        threads: 1,
        estimate: labelled < total,
        measured_positions: labelled * states,
        check,
    })
}

fn naive_verify(game: &Game, space: TupleSpace, budget: Budget) -> JointRun {
    let (endings, criteria) = (Ending::defaults(game), Criterion::applicable(game, space.heaps()));
    naive_joint::run(game, space, &endings, &criteria, budget)
}

/// A complete naive run against the engine: every label (both pass states), every P
/// count and every disagreement count, on the fast and the general path.
fn compare_run(game: &Game, space: TupleSpace, run: &JointRun) -> Result<&'static str, String> {
    let endings = Ending::defaults(game);
    let states = if game.has_pass() { 2 } else { 1 };
    let engine = Engine::new(game, space.into());
    for (e, &ending) in endings.iter().enumerate() {
        let table = engine.label(ending).map_err(|e| e.to_string())?;
        for index in 0..space.positions() {
            let tuple = space.tuple(index);
            for pass in 0..states {
                let naive = run.labels[e][(index * states + pass) as usize] == 1;
                if table.is_p_in(&tuple, PassState::of(pass == 1)) != naive {
                    return Err(format!(
                        "MISMATCH naive vs engine labels on {} under {ending} at {tuple:?}, pass {pass}",
                        game.spec()
                    ));
                }
            }
        }
    }
    for path in [MultiHeapPath::Accumulators, MultiHeapPath::General] {
        let findings = engine_verify(game, space, path)?;
        let criteria = Criterion::applicable(game, space.heaps()).len().max(1);
        for (e, ending_findings) in findings.chunks(criteria).enumerate() {
            for (c, f) in ending_findings.iter().enumerate() {
                let disagree = run.disagree[e].get(c).copied().unwrap_or(0);
                if f.tally.p_positions != run.p_positions[e] || f.tally.disagree != disagree {
                    return Err(format!(
                        "MISMATCH naive vs engine counts on {} ({}, {path:?} path): \
                         naive P {} disagree {disagree}, engine P {} disagree {}",
                        game.spec(),
                        f.ending,
                        run.p_positions[e],
                        f.tally.p_positions,
                        f.tally.disagree
                    ));
                }
            }
        }
    }
    Ok("agree")
}

/// A complete naive Grundy run against the engine's values (bands or rounds).
fn compare_values(game: &Game, space: TupleSpace, run: &GrundyRun) -> Result<&'static str, String> {
    let engine = Engine::new(game, space.into());
    let values = engine.grundy_values(&NoProgress).map_err(|e| e.to_string())?;
    if values.values() != &run.values[..] {
        return Err(format!("MISMATCH naive vs engine Grundy values on {}", game.spec()));
    }
    Ok("agree")
}

/// The naive option scan against the engine on small spaces of every new game.
pub fn check_against_engine() -> Result<(), String> {
    let games = [
        (Game::wythoff(), 2, 60),
        (Game::wythoff(), 3, 12),
        (Game::moore(2).expect("K = 2"), 3, 15),
        (Game::moore(3).expect("K = 3"), 4, 7),
        (Game::circular(2).expect("K = 2"), 4, 7),
        (Game::circular(2).expect("K = 2").with_pass(), 4, 6),
        (Game::nim().with_pass(), 3, 12),
        (Game::subtract(&[1, 3, 4]).expect("a set").with_pass(), 2, 30),
    ];
    for (game, heaps, max) in games {
        let space = TupleSpace::new(heaps, max).map_err(|e| e.to_string())?;
        let run = naive_verify(&game, space, Budget::unlimited());
        let verdict = compare_run(&game, space, &run)?;
        let grundy = naive_joint::grundy(&game, space, Budget::unlimited());
        compare_values(&game, space, &grundy)?;
        println!(
            "check {verdict}: {} {heaps} heaps max {max}: {} positions, P = {:?}, Grundy values agree",
            game.spec(),
            run.labelled,
            run.p_positions
        );
    }
    Ok(())
}
