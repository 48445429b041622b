//! Argument values every command shares: the game and space flags, heap and stone ranges,
//! positions, thread counts, ending lists.

use anyhow::{bail, Context};
use nimtab::host::MAX_THREADS;
use nimtab::model::position::{parse_size, SizeError};
use nimtab::{Ending, Game, Mode, Space};

/// `--game G`, required, and `--pass`.
#[derive(clap::Args, Debug)]
pub struct GameArg {
    /// Game: nim, subtract:S (e.g. subtract:1,3,4), graph:PATH, wythoff, moore:K,
    /// circular:K, octal:CODE (e.g. octal:0.77), hex:CODE (e.g. hex:0.3F) or grundys-game.
    #[arg(long = "game", value_name = "G")]
    pub spec: String,
    /// Add one pass, shared by both players: a player may pass instead of moving while
    /// the position has a move, once per game.
    #[arg(long)]
    pub pass: bool,
}

impl GameArg {
    /// The game, reading a graph file if named, with its pass if `--pass`.
    pub fn game(&self) -> anyhow::Result<Game> {
        with_pass(Game::parse(&self.spec)?, self.pass)
    }
}

/// `game`, with a pass if `pass`.
fn with_pass(game: Game, pass: bool) -> anyhow::Result<Game> {
    Ok(if pass { game.with_pass() } else { game })
}

/// `--game G --max M`: a game and its largest heap size.
#[derive(clap::Args, Debug)]
pub struct GameMaxArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = parse_max, allow_hyphen_values = true)]
    pub max: u32,
}

impl GameMaxArgs {
    /// The game, reading a graph file if named.
    pub fn game(&self) -> anyhow::Result<Game> {
        self.game.game()
    }
}

/// The size flags of a space: `--heaps N|A..=B --max M` (tuples) or `--total T`
/// (multisets), declared once for the table commands and sweeps.
#[derive(clap::Args, Debug)]
pub struct SizeArgs {
    /// Largest heap size (with --heaps).
    #[arg(long, value_name = "M", value_parser = parse_max, allow_hyphen_values = true)]
    pub max: Option<u32>,
    /// Heap count N (or a range A..=B where the command takes one).
    // --heaps is what a tuple space is asked for by, and it brings --max along.
    #[arg(
        long,
        value_name = "N|A..=B",
        value_parser = parse_heap_range,
        required_unless_present = "total",
        requires = "max"
    )]
    pub heaps: Option<CountRange>,
    /// Every multiset of non-empty heaps of total at most T, instead of --heaps and --max.
    #[arg(
        long,
        value_name = "T",
        value_parser = parse_total,
        allow_hyphen_values = true,
        conflicts_with_all = ["heaps", "max"]
    )]
    pub total: Option<u64>,
}

/// The game and space flags of the table commands: `--game G` and either
/// `--heaps N|A..=B --max M` (tuples) or `--total T` (multisets).
#[derive(clap::Args, Debug)]
pub struct SpaceArgs {
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    size: SizeArgs,
}

/// `--game G --pass --rules R` of the commands that play from one position (defaults:
/// Nim, normal play).
#[derive(clap::Args, Debug)]
pub struct PlayedGameArgs {
    /// Game: nim, subtract:S, graph:PATH, wythoff, moore:K or circular:K.
    #[arg(long, value_name = "G", default_value = "nim")]
    game: String,
    /// Add one pass, shared by both players; the position starts with it available.
    #[arg(long)]
    pass: bool,
    /// One ending rule: normal, misere or sj (sums of heaps only; also taken as --rule R).
    #[arg(long = "rules", alias = "rule", value_name = "R", default_value = "normal")]
    rule: String,
}

impl PlayedGameArgs {
    /// The game and the ending, validated together.
    pub fn parse(&self) -> anyhow::Result<(Game, Ending)> {
        let game = with_pass(Game::parse(&self.game)?, self.pass)?;
        let ending = one_ending(&self.rule, &game)?;
        Ok((game, ending))
    }
}

/// The one ending of a command that takes a single rule (`--rules R`, which these
/// commands also accept as `--rule R`, the same word as the commands that take a list):
/// a list is refused, and the SJ rule for a game that is not a sum of heaps.
pub fn one_ending(rule: &str, game: &Game) -> anyhow::Result<Ending> {
    if rule.contains(',') {
        bail!("--rules '{rule}': this command takes one rule: normal, misere or sj");
    }
    let ending = Ending::parse(rule)?;
    if ending == Ending::Sj {
        game.require_sum("--rules sj")?;
    }
    Ok(ending)
}

/// `--rules R`: the endings a table command labels.
#[derive(clap::Args, Debug)]
pub struct RulesArg {
    /// Rules, a comma list of normal, misere, sj (default: all three for sums of heaps —
    /// nim, subtract:S, graph:PATH, octal:CODE, hex:CODE, grundys-game —, normal,misere for other
    /// games and with --pass; for a sweep, all three).
    #[arg(long = "rules", value_name = "R")]
    pub list: Option<String>,
}

impl RulesArg {
    /// The endings for `game`, deduplicated, in column order: the list given, or the
    /// game's defaults. The SJ rule is refused for a game that is not a sum of heaps.
    pub fn endings(&self, game: &Game) -> anyhow::Result<Vec<Ending>> {
        let Some(list) = &self.list else { return Ok(Ending::defaults(game)) };
        let endings = Ending::parse_list(list).with_context(|| format!("--rules '{list}'"))?;
        if endings.contains(&Ending::Sj) {
            game.require_sum(&format!("--rules '{list}': the SJ rule"))?;
        }
        Ok(endings)
    }

    /// The endings of a command over many games (a sweep): the list given, or every
    /// ending; a game that cannot have one is refused before any runs.
    pub fn listed_or_all(&self) -> anyhow::Result<Vec<Ending>> {
        let list = self.list.as_deref().unwrap_or("normal,misere,sj");
        Ending::parse_list(list).with_context(|| format!("--rules '{list}'"))
    }
}

/// The flags of the commands that label whole spaces under several endings: the space,
/// `--rules R` and `--canonical`.
#[derive(clap::Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    pub space: SpaceArgs,
    #[command(flatten)]
    pub rules: RulesArg,
    /// Only sorted tuples (h1 <= ... <= hN).
    #[arg(long, conflicts_with = "total")]
    pub canonical: bool,
}

impl TableArgs {
    /// Every tuple, or sorted tuples only.
    pub fn mode(&self) -> Mode {
        if self.canonical {
            Mode::Canonical
        } else {
            Mode::Full
        }
    }

    /// Every space of the heap range, in the mode asked for.
    pub fn spaces(&self) -> anyhow::Result<Vec<Space>> {
        self.space.spaces(self.mode())
    }
}

impl SpaceArgs {
    /// The game, reading a graph file if named.
    pub fn game(&self) -> anyhow::Result<Game> {
        self.game.game()
    }

    /// The multiset space of `--total T`, if given (validated, and refused for a `game`
    /// that is not a sum of heaps); `None` for `--heaps`.
    pub fn multisets(&self, game: &Game) -> anyhow::Result<Option<Space>> {
        let Some(total) = self.size.total else { return Ok(None) };
        game.require_sum("a space of multisets of heaps (--total)")?;
        Ok(Some(Space::multisets(total)?))
    }

    /// Refuses `--grundy` (whole-position Grundy values) with a multiset space.
    pub fn refuse_grundy_with_total(&self, grundy: bool) -> anyhow::Result<()> {
        if grundy && self.size.total.is_some() {
            bail!("--grundy is not available with --total (the multiset tables have no Grundy values)");
        }
        Ok(())
    }

    /// Largest heap size of a tuple space (clap requires it without `--total`).
    pub fn max(&self) -> u32 {
        self.size.max.unwrap_or(0)
    }

    /// The heap counts of a tuple space (clap requires them without `--total`).
    fn heaps(&self) -> CountRange {
        self.size.heaps.unwrap_or(CountRange { lo: 1, hi: 1 })
    }

    /// The one heap count of a command that labels a single space.
    pub fn single_heaps(&self, command: &str) -> anyhow::Result<usize> {
        match self.heaps() {
            CountRange { lo, hi } if lo == hi => Ok(lo),
            CountRange { lo, hi } => {
                bail!("{command} takes one heap count, got --heaps {lo}..={hi}")
            }
        }
    }

    /// Every space of the heap range in `mode`, each validated (by the count of the
    /// positions it labels) before any work.
    pub fn spaces(&self, mode: Mode) -> anyhow::Result<Vec<Space>> {
        self.heaps().counts().map(|n| Ok(Space::in_mode(n, self.max(), mode)?)).collect()
    }
}

/// `--total`: a non-negative integer (its limit is checked with the space).
pub fn parse_total(text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| format!("--total must be a non-negative integer, got '{text}'"))
}

/// `--threads`: an integer from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(k) if (1..=MAX_THREADS).contains(&k) => Ok(k),
        _ => Err(format!("--threads must be an integer from 1 to {MAX_THREADS}, got '{text}'")),
    }
}

/// `--max`: a non-negative integer.
pub fn parse_max(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&m| m < u32::MAX)
        .ok_or_else(|| format!("--max must be a non-negative integer, got '{text}'"))
}

/// An inclusive range of counts (heaps, stones), given as `N` or `A..=B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRange {
    /// Smallest count.
    pub lo: usize,
    /// Largest count.
    pub hi: usize,
}

impl CountRange {
    /// The counts in order.
    pub fn counts(&self) -> std::ops::RangeInclusive<usize> {
        self.lo..=self.hi
    }
}

/// Parses `N` or `A..=B` with `1 <= A <= B` for the flag `--NAME`; `what` names a count
/// in the messages ("heap counts start at 1").
fn parse_count_range(name: &str, what: &str, text: &str) -> Result<CountRange, String> {
    let Some((a, b)) = text.split_once("..=") else {
        return match text.trim().parse::<usize>() {
            Ok(0) => Err(format!("--{name} must be at least 1, got '0'")),
            Ok(n) => Ok(CountRange { lo: n, hi: n }),
            Err(_) => Err(format!("--{name} must be a positive integer, got '{text}'")),
        };
    };
    let bad = || format!("--{name} must be N or A..=B with 1 <= A <= B, got '{text}'");
    let lo: usize = a.trim().parse().map_err(|_| bad())?;
    let hi: usize = b.trim().parse().map_err(|_| bad())?;
    if lo == 0 {
        return Err(format!("--{name} {text}: {what} start at 1"));
    }
    if lo > hi {
        return Err(format!("--{name} {text}: the range is empty ({lo} > {hi})"));
    }
    Ok(CountRange { lo, hi })
}

/// `--heaps N` or `--heaps A..=B`.
pub fn parse_heap_range(text: &str) -> Result<CountRange, String> {
    parse_count_range("heaps", "heap counts", text)
}

/// `--stones N` or `--stones A..=B`.
pub fn parse_stone_range(text: &str) -> Result<CountRange, String> {
    parse_count_range("stones", "stone counts", text)
}

/// Heap sizes given as positional arguments, naming the first bad one.
pub fn parse_position(heaps: &[String]) -> anyhow::Result<Vec<u32>> {
    if heaps.is_empty() {
        bail!("a position needs at least one heap size");
    }
    let mut position = Vec::with_capacity(heaps.len());
    for (i, text) in heaps.iter().enumerate() {
        match parse_size(text) {
            Ok(h) if h < u32::MAX => position.push(h),
            Err(SizeError::Negative) => {
                bail!("heap {} is '{text}': heap sizes cannot be negative", i + 1)
            }
            _ => bail!("heap {} is '{text}': not a non-negative integer", i + 1),
        }
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_ranges_are_validated() {
        assert_eq!(parse_heap_range("3"), Ok(CountRange { lo: 3, hi: 3 }));
        assert_eq!(parse_heap_range("1..=5"), Ok(CountRange { lo: 1, hi: 5 }));
        assert!(parse_heap_range("3..=2").unwrap_err().contains("empty"));
        assert!(parse_heap_range("0..=2").unwrap_err().contains("start at 1"));
        assert!(parse_heap_range("0").unwrap_err().contains("at least 1"));
    }

    #[test]
    fn stone_ranges_must_be_non_empty() {
        assert_eq!(parse_stone_range("1..=40"), Ok(CountRange { lo: 1, hi: 40 }));
        assert_eq!(parse_stone_range("7"), Ok(CountRange { lo: 7, hi: 7 }));
        assert!(parse_stone_range("9..=3")
            .unwrap_err()
            .contains("--stones 9..=3: the range is empty"));
        assert!(parse_stone_range("0..=3").unwrap_err().contains("start at 1"));
    }

    #[test]
    fn max_refuses_negative_numbers() {
        assert!(parse_max("-3").unwrap_err().contains("'-3'"));
        assert_eq!(parse_max("31"), Ok(31));
    }

    #[test]
    fn positions_name_the_bad_heap() {
        let heaps = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse_position(&heaps(&["7", "8", "9"])).unwrap(), vec![7, 8, 9]);
        let negative = parse_position(&heaps(&["7", "-8"])).unwrap_err().to_string();
        assert_eq!(negative, "heap 2 is '-8': heap sizes cannot be negative");
        assert!(parse_position(&heaps(&["x"])).unwrap_err().to_string().contains("'x'"));
    }
}
