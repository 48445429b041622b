//! Sweep benchmark helper: the family's specs, and the engine's own time per game.
//!
//! Usage: `sweep specs FAMILY` prints the family's specs, one per line (the shell loop
//! of `scripts/bench-sweep` runs `nimtab verify` on each); `sweep engine FAMILY LO HI MAX
//! RULES CRITERIA` runs the library's `verify` on every game one after the other (each
//! with the engine's own threads) and prints `engine_s,games,cpu_s`: the sum over games
//! of the time spent in `verify`, and the process's CPU seconds.

use std::process::ExitCode;
use std::time::Instant;

use nimtab::analysis::verify::verify;
use nimtab::sweep::{Family, FamilyLimit};
use nimtab::{Criterion, Ending, Engine, Game, NoProgress, Space};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words[..] {
        ["specs", family] => {
            for spec in Family::parse(family, FamilyLimit::Forced).expect("a valid family").specs()
            {
                println!("{spec}");
            }
            ExitCode::SUCCESS
        }
        ["engine", family, lo, hi, max, rules, criteria] => {
            let number = |s: &str| s.parse::<u32>().expect("a number");
            let family = Family::parse(family, FamilyLimit::Forced).expect("a valid family");
            let endings = Ending::parse_list(rules).expect("valid rules");
            let criteria = Criterion::parse_list(criteria).expect("valid criteria");
            let (lo, hi, max) = (number(lo) as usize, number(hi) as usize, number(max));
            let mut engine_s = 0.0;
            for spec in family.specs() {
                let game = Game::parse(spec).expect("a known game");
                for n in lo..=hi {
                    let engine = Engine::new(&game, Space::new(n, max).expect("a valid space"));
                    let started = Instant::now();
                    let run = verify(&engine, &endings, &criteria, 1, &NoProgress);
                    engine_s += started.elapsed().as_secs_f64();
                    std::hint::black_box(run.expect("the space fits"));
                }
            }
            println!("{engine_s:.3},{},{:.2}", family.specs().len(), cpu_seconds());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: sweep specs FAMILY | sweep engine FAMILY LO HI MAX RULES CRITERIA");
            ExitCode::from(2)
        }
    }
}

/// User + system CPU seconds of this process so far (all threads), from /proc.
fn cpu_seconds() -> f64 {
    const USER_HZ: f64 = 100.0;
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return f64::NAN };
    let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else { return f64::NAN };
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k - 3).and_then(|v| v.parse::<f64>().ok());
    match (ticks(14), ticks(15)) {
        (Some(user), Some(system)) => (user + system) / USER_HZ,
        _ => f64::NAN,
    }
}
