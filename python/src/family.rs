//! The family of games a sweep runs over, from the arguments Python gives: shared by the
//! sweeps of a space and the quotient sweeps.

use nimtab::sweep::{Family, FamilyLimit};

/// The family of a sweep: a family text, a list of specs, or a games file's name and
/// contents (the first given).
pub(crate) fn family_of(
    games: Option<&str>,
    game_list: Option<&[String]>,
    games_file: Option<&(String, String)>,
    force: bool,
) -> nimtab::sweep::Result<Family> {
    let limit = if force { FamilyLimit::Forced } else { FamilyLimit::Usual };
    Ok(match (games, game_list, games_file) {
        (Some(text), _, _) => Family::parse(text, limit)?,
        (None, Some(list), _) => Family::from_specs(list, limit)?,
        (None, None, Some((name, contents))) => Family::from_lines(name, contents, limit)?,
        (None, None, None) => {
            return Err(nimtab::Error::Invalid("no games given".to_string()).into())
        }
    })
}
