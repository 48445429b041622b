//! The benchmarked spaces: a name, a game, heaps and max, every tuple or sorted ones, and
//! the job measured.

use nimtab::random::SplitMix64;
use nimtab::Game;

/// What a case measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// `nimtab verify` with the game's default rules and criteria.
    Verify,
    /// The Grundy value of every position (`solve --grundy`'s computation).
    Grundy,
    /// The labelling alone: P-states counted, no criterion (method `label`).
    Label,
}

/// One benchmarked space.
pub struct Case {
    pub name: &'static str,
    pub heaps: usize,
    pub max: u32,
    pub canonical: bool,
    pub game: fn() -> Game,
    pub job: Job,
}

const fn case(name: &'static str, heaps: usize, max: u32, game: fn() -> Game) -> Case {
    Case { name, heaps, max, canonical: false, game, job: Job::Verify }
}

pub const CASES: [Case; 27] = [
    case("nim-3-255", 3, 255, Game::nim),
    case("nim-4-255", 4, 255, Game::nim),
    case("sub134-3-1023", 3, 1023, subtract_134),
    case("graph-3-1023", 3, 1023, random_graph),
    case("graph5-3-1023", 3, 1023, random_graph_5),
    case("sublong-3-1023", 3, 1023, subtract_long),
    Case { canonical: true, ..case("nim-6-63-canonical", 6, 63, Game::nim) },
    Case { canonical: true, ..case("nim-5-255-canonical", 5, 255, Game::nim) },
    Case { canonical: true, ..case("sub134-5-127-canonical", 5, 127, subtract_134) },
    case("wythoff-2-65535", 2, 65535, Game::wythoff),
    case("moore2-4-63", 4, 63, moore_2),
    Case { job: Job::Grundy, ..case("circular2-5-31-pass-grundy", 5, 31, circular_2_pass) },
    case("wythoff-3-127", 3, 127, Game::wythoff),
    case("moore2-4-31", 4, 31, moore_2),
    case("circular2-5-15-pass", 5, 15, circular_2_pass),
    // Sorted tuples of games that are not sums against the full table of the same space,
    // at sizes where the full run takes about a second.
    case("wythoff-2-100000", 2, 100_000, Game::wythoff),
    Case { canonical: true, ..case("wythoff-2-100000-canonical", 2, 100_000, Game::wythoff) },
    case("wythoff-3-1500", 3, 1500, Game::wythoff),
    Case { canonical: true, ..case("wythoff-3-1500-canonical", 3, 1500, Game::wythoff) },
    case("moore2-2-100000", 2, 100_000, moore_2),
    Case { canonical: true, ..case("moore2-2-100000-canonical", 2, 100_000, moore_2) },
    case("moore2-3-1300", 3, 1300, moore_2),
    Case { canonical: true, ..case("moore2-3-1300-canonical", 3, 1300, moore_2) },
    case("nimpass-2-50000", 2, 50_000, nim_pass),
    Case { canonical: true, ..case("nimpass-2-50000-canonical", 2, 50_000, nim_pass) },
    case("nimpass-3-1600", 3, 1600, nim_pass),
    Case { canonical: true, ..case("nimpass-3-1600-canonical", 3, 1600, nim_pass) },
];

fn nim_pass() -> Game {
    Game::nim().with_pass()
}

pub fn moore_2() -> Game {
    Game::moore(2).expect("K = 2 is positive")
}

fn circular_2_pass() -> Game {
    Game::circular(2).expect("K = 2 is positive").with_pass()
}

pub fn subtract_134() -> Game {
    Game::subtract(&[1, 3, 4]).expect("a valid subtraction set")
}

/// A subtraction set with elements above 64 (the general rows, not the 64-bit history).
fn subtract_long() -> Game {
    Game::subtract(&[1, 3, 70, 150]).expect("a valid subtraction set")
}

/// A fixed random move graph over sizes 0..=1023: three distinct smaller targets per size
/// (all of them below 3). SplitMix64 with a fixed seed, so every run benchmarks the same
/// graph without a random-number dependency.
pub fn random_graph() -> Game {
    random_graph_with(3, "graph:random-1023-3-seed5")
}

/// The same with five targets per size (all of them below 5).
fn random_graph_5() -> Game {
    random_graph_with(5, "graph:random-1023-5-seed5")
}

/// `moves` distinct smaller targets per size of 1..=1023 (all of them below `moves`).
fn random_graph_with(moves: u32, spec: &str) -> Game {
    let mut rng = SplitMix64::new(0x5eed_0005);
    let mut next = move || rng.next_u64();
    let mut pairs = Vec::new();
    for from in 1..=1023u32 {
        let mut targets: Vec<u32> = Vec::new();
        while targets.len() < from.min(moves) as usize {
            let to = (next() % u64::from(from)) as u32;
            if !targets.contains(&to) {
                targets.push(to);
            }
        }
        pairs.extend(targets.into_iter().map(|to| (from, to)));
    }
    Game::graph(spec, &pairs).expect("every move lowers the heap")
}
