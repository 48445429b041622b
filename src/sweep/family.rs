//! Families of games: literal lists, every subtraction set of a range, octal codes with
//! wildcards or of up to K digits, and files of specifications, expanded to specification
//! strings in order.
//!
//! Expansion only produces strings; whether each names a game is decided by
//! [`crate::Game::parse`] when the sweep is built, so a family may name games this
//! build does not know (`octal:` codes) and fail then with the spec named.

use super::pattern::Pattern;
use super::SweepError;

/// How many games a family may expand to: the specs are kept in memory, and a large
/// family is usually a typo (`subsets(1..=30)` is a billion games).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FamilyLimit {
    /// At most 10,000 games: a larger family is refused as a likely typo.
    Usual,
    /// At most 4,194,304 games (the command line's `--force`).
    Forced,
}

impl FamilyLimit {
    /// The most games a family may have under this limit.
    pub const fn games(self) -> u64 {
        match self {
            FamilyLimit::Usual => 10_000,
            FamilyLimit::Forced => 1 << 22,
        }
    }
}

/// Where a family's games came from, for messages and sweep descriptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A `--games` text: specs and patterns separated by `;`.
    Text(String),
    /// A file: one spec or pattern per line.
    File(String),
}

impl Source {
    /// The family in messages: `'TEXT'` or `file NAME`.
    fn named(&self) -> String {
        match self {
            Source::Text(text) => format!("'{text}'"),
            Source::File(name) => format!("file {name}"),
        }
    }
}

/// The games of a sweep, as specification strings in the family's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    source: Source,
    specs: Vec<String>,
    /// Where each spec came from: item or line number (1-based).
    origins: Vec<usize>,
}

impl Family {
    /// Expands a family text: items separated by `;`, each a game specification or a
    /// pattern (`subtract:subsets(1..=K)`, `subtract:subsets(1..=K, size<=s)`, an
    /// `octal:` code with `?` for every digit 0–7, `octal(K)` for every octal code of 1 to
    /// K digits, a `hex:` code with `?` for every digit 0–F, `hex(K)` for every
    /// hexadecimal code of 1 to K digits with a digit above 7). More games than `limit`
    /// allows are refused.
    ///
    /// # Errors
    /// [`SweepError::FamilySyntax`], [`SweepError::EmptyFamily`],
    /// [`SweepError::FamilyTooLarge`].
    pub fn parse(text: &str, limit: FamilyLimit) -> Result<Family, SweepError> {
        let items: Vec<(usize, &str)> = text.split(';').map(str::trim).enumerate().collect();
        if let Some((i, _)) = items.iter().find(|(_, item)| item.is_empty()) {
            let reason = format!("item {} of the ';' list is empty", i + 1);
            return Err(SweepError::FamilySyntax { text: text.to_string(), reason });
        }
        Family::expand(Source::Text(text.to_string()), &items, limit)
    }

    /// Reads a family from the lines of a file named `name`: one spec or pattern per
    /// line; blank lines and `#` comments (to the end of the line) are skipped.
    ///
    /// # Errors
    /// As [`Family::parse`]; a bad pattern's message names the line.
    pub fn from_lines(
        name: &str,
        contents: &str,
        limit: FamilyLimit,
    ) -> Result<Family, SweepError> {
        let items: Vec<(usize, &str)> = contents
            .lines()
            .enumerate()
            .map(|(i, line)| (i, line.split('#').next().unwrap_or("").trim()))
            .filter(|(_, item)| !item.is_empty())
            .collect();
        Family::expand(Source::File(name.to_string()), &items, limit)
    }

    /// A family given as a list of specs, each taken literally (no patterns).
    ///
    /// # Errors
    /// [`SweepError::EmptyFamily`], [`SweepError::FamilyTooLarge`].
    pub fn from_specs(specs: &[String], limit: FamilyLimit) -> Result<Family, SweepError> {
        let source = Source::Text(specs.join(";"));
        check_size(&source, specs.len() as u128, limit)?;
        let specs: Vec<String> = specs.iter().map(|s| s.trim().to_string()).collect();
        let origins = (1..=specs.len()).collect();
        Family::checked(Family { source, specs, origins })
    }

    fn expand(
        source: Source,
        items: &[(usize, &str)],
        limit: FamilyLimit,
    ) -> Result<Family, SweepError> {
        let mut total: u128 = 0;
        let mut patterns = Vec::with_capacity(items.len());
        for &(i, item) in items {
            let pattern = Pattern::parse(item).map_err(|reason| {
                let text = item.to_string();
                let reason = match &source {
                    Source::Text(_) => reason,
                    Source::File(name) => format!("{name}, line {}: {reason}", i + 1),
                };
                SweepError::FamilySyntax { text, reason }
            })?;
            total = total.saturating_add(pattern.count(u128::from(FamilyLimit::Forced.games())));
            patterns.push((i + 1, pattern));
        }
        check_size(&source, total, limit)?;
        let mut family = Family { source, specs: Vec::new(), origins: Vec::new() };
        for (origin, pattern) in patterns {
            pattern.push_specs(&mut family.specs);
            family.origins.resize(family.specs.len(), origin);
        }
        Family::checked(family)
    }

    /// Refuses an empty family. A spec listed twice is kept: the sweep runs each game
    /// once ([`crate::sweep::Sweep::new`]), whatever its spelling.
    fn checked(family: Family) -> Result<Family, SweepError> {
        if family.specs.is_empty() {
            return Err(SweepError::EmptyFamily { family: family.source.named() });
        }
        Ok(family)
    }

    /// The specs, in the family's order.
    pub fn specs(&self) -> &[String] {
        &self.specs
    }

    /// Where the `i`-th game (0-based) came from: `item 3` of a text, `FILE, line 7`.
    pub fn origin(&self, i: usize) -> String {
        match &self.source {
            Source::Text(_) if self.origins.len() == 1 => "the family".to_string(),
            Source::Text(_) => format!("game {} of the family", i + 1),
            Source::File(name) => format!("{name}, line {}", self.origins[i]),
        }
    }

    /// The family as the user gave it: its text, or `file NAME`.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Text(text) => text.clone(),
            Source::File(name) => format!("file {name}"),
        }
    }
}

fn check_size(source: &Source, count: u128, limit: FamilyLimit) -> Result<(), SweepError> {
    let (games, forced) = (limit.games(), limit == FamilyLimit::Forced);
    if count > u128::from(games) {
        let family = source.named();
        let count = u64::try_from(count).unwrap_or(u64::MAX);
        return Err(SweepError::FamilyTooLarge { family, count, limit: games, forced });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(text: &str) -> Vec<String> {
        Family::parse(text, FamilyLimit::Usual).unwrap().specs().to_vec()
    }

    #[test]
    fn subsets_come_in_binary_counting_order() {
        let all = specs("subtract:subsets(1..=3)");
        let expected = ["1", "2", "1,2", "3", "1,3", "2,3", "1,2,3"];
        let expected: Vec<String> = expected.iter().map(|s| format!("subtract:{s}")).collect();
        assert_eq!(all, expected);
        assert_eq!(specs("subtract:subsets(1..=10)").len(), 1023);
        let six = specs("subtract:subsets(1..=6)");
        assert_eq!(six.len(), 63);
        assert_eq!(six[..7], all[..], "a smaller range is a prefix");
    }

    #[test]
    fn subset_sizes_can_be_bounded() {
        let pairs = specs("subtract:subsets(2..=4, size<=2)");
        assert_eq!(pairs, ["2", "3", "2,3", "4", "2,4", "3,4"].map(|s| format!("subtract:{s}")));
        assert_eq!(specs("subtract:subsets( 1..=10 ,size<=1 )").len(), 10);
        assert_eq!(
            Pattern::parse("subtract:subsets(1..=20, size<=3)").unwrap().count(u128::MAX),
            1350
        );
    }

    #[test]
    fn octal_wildcards_expand_to_every_digit_in_order() {
        let codes = specs("octal:0.??");
        assert_eq!(codes.len(), 63, "every code but 0.00, which allows no move");
        assert_eq!(codes[0], "octal:0.01");
        assert_eq!(codes[7], "octal:0.10");
        assert_eq!(codes[62], "octal:0.77");
        let leads = specs("octal:?.0");
        assert_eq!((leads.len(), &leads[0][..]), (7, "octal:1.0"), "0.0 left out");
        assert_eq!(
            specs("octal:4.?7"),
            (0..8).map(|d| format!("octal:4.{d}7")).collect::<Vec<_>>()
        );
        assert_eq!(specs("octal:0.137"), ["octal:0.137"], "no wildcard: one game");
    }

    #[test]
    fn octal_k_lists_every_game_of_up_to_k_digits_once() {
        let one = specs("octal(1)");
        let leads: Vec<String> = (1..8).map(|d| format!("octal:0.{d}")).collect();
        let fours: Vec<String> = (0..8).map(|d| format!("octal:4.{d}")).collect();
        assert_eq!(one, [leads, fours].concat());
        let three = specs("octal(3)");
        assert_eq!(three.len(), 1023);
        assert_eq!(Pattern::parse("octal(3)").unwrap().count(u128::MAX), 1023);
        assert_eq!(&three[..16], &specs("octal(2)")[..16], "shortest codes first");
        assert_eq!((&three[15][..], &three[16][..]), ("octal:0.01", "octal:0.02"));
        assert!(three.contains(&"octal:0.137".to_string()));
        // No code ends in 0 but 4.0: 0.70 is the game 0.7.
        assert!(three.iter().all(|c| !c.ends_with('0') || c == "octal:4.0"));
        let unique: std::collections::BTreeSet<&String> = three.iter().collect();
        assert_eq!(unique.len(), three.len());
        assert_eq!(Pattern::parse("octal(7)").unwrap().count(u128::MAX), (1 << 22) - 1);
        assert!(Pattern::parse("octal(0)").unwrap_err().contains("positive integer"));
    }

    #[test]
    fn hex_k_lists_every_game_with_a_digit_above_7_once() {
        let one = specs("hex(1)");
        assert_eq!(one.len(), 48);
        assert_eq!((&one[0][..], &one[7][..], &one[8][..]), ("hex:0.8", "hex:0.F", "hex:4.8"));
        assert!(one.contains(&"hex:8.0".to_string()) && one.contains(&"hex:C.0".to_string()));
        let two = specs("hex(2)");
        assert_eq!(two.len(), 896);
        assert_eq!(Pattern::parse("hex(2)").unwrap().count(u128::MAX), 896);
        assert_eq!(&two[..48], &one[..], "shortest codes first");
        assert!(two.contains(&"hex:0.3F".to_string()) && !two.contains(&"hex:0.37".to_string()));
        let octal: Vec<String> =
            specs("octal(2)").iter().map(|s| s.replace("octal", "hex")).collect();
        let every: std::collections::BTreeSet<&String> = two.iter().chain(&octal).collect();
        // 4 leading digits, 16 * 16 digit pairs, less the codes ending in 0 but x.0.
        assert_eq!(every.len(), two.len() + octal.len());
        assert_eq!(every.len(), 4 * (15 + 16 * 15) + 3);
        assert_eq!(specs("hex:0.?f").len(), 16);
        assert_eq!(specs("hex:0.?")[14], "hex:0.F");
        assert!(Pattern::parse("hex(0)").unwrap_err().contains("K in hex(K)"));
    }

    #[test]
    fn lists_files_and_patterns_combine_in_order() {
        assert_eq!(
            specs(" nim ; subtract:1,3,4;graph:x.csv"),
            ["nim", "subtract:1,3,4", "graph:x.csv"]
        );
        assert_eq!(
            specs("nim;subtract:subsets(1..=2)"),
            ["nim", "subtract:1", "subtract:2", "subtract:1,2"]
        );
        let file = "# games\nnim\n\n  subtract:1,2   # the classic\nsubtract:subsets(3..=3)\n";
        let family = Family::from_lines("games.txt", file, FamilyLimit::Usual).unwrap();
        assert_eq!(family.specs(), ["nim", "subtract:1,2", "subtract:3"]);
        assert_eq!(family.origin(1), "games.txt, line 4");
        assert_eq!(family.origin(2), "games.txt, line 5");
        let listed = Family::parse("nim;subtract:2", FamilyLimit::Usual).unwrap();
        assert_eq!(listed.origin(1), "game 2 of the family");
    }

    #[test]
    fn bad_families_are_refused_by_value() {
        let err = |text: &str| Family::parse(text, FamilyLimit::Usual).unwrap_err().to_string();
        assert!(
            err("subtract:subsets(3..=2)").contains("1 <= A <= B"),
            "{}",
            err("subtract:subsets(3..=2)")
        );
        assert!(err("subtract:subsets(1..=4, size<=0)").contains("positive integer"));
        assert!(err("subtract:subsets[1..=4]").contains("subtract:subsets(A..=B)"));
        assert!(err("nim;;nim").contains("item 2 of the ';' list is empty"));
        assert!(err("subtract:?").contains("not a family pattern"));
        assert_eq!(specs("nim;subtract:1;nim"), ["nim", "subtract:1", "nim"], "kept for the sweep");
        let empty =
            Family::from_lines("empty.txt", "# nothing\n\n", FamilyLimit::Usual).unwrap_err();
        assert_eq!(empty.to_string(), "the family file empty.txt has no games");
        let line =
            Family::from_lines("f.txt", "nim\nsubtract:subsets(0..=3)\n", FamilyLimit::Usual)
                .unwrap_err();
        assert!(line.to_string().contains("f.txt, line 2: "), "{line}");
    }

    #[test]
    fn large_families_need_force_and_stay_bounded() {
        let big = Family::parse("subtract:subsets(1..=14)", FamilyLimit::Usual).unwrap_err();
        let SweepError::FamilyTooLarge { family, count, limit, forced } = big else {
            panic!("a family too large: {big}")
        };
        assert_eq!(family, "'subtract:subsets(1..=14)'");
        assert_eq!((count, limit, forced), (16383, FamilyLimit::Usual.games(), false));
        assert_eq!(
            Family::parse("subtract:subsets(1..=14)", FamilyLimit::Forced).unwrap().specs().len(),
            16383
        );
        let huge = Family::parse("subtract:subsets(1..=64)", FamilyLimit::Forced).unwrap_err();
        assert!(matches!(huge, SweepError::FamilyTooLarge { forced: true, .. }));
        assert!(Family::parse("octal:0.????????????????????????????", FamilyLimit::Forced).is_err());
        let wide = Family::parse("subtract:subsets(1..=4000000000, size<=3)", FamilyLimit::Forced)
            .unwrap_err();
        assert!(matches!(wide, SweepError::FamilyTooLarge { forced: true, .. }), "{wide}");
    }
}
