//! Periods of Grundy sequences, found by a Z-function and certified forever by a theorem
//! (the sequence layer's certificates, `crate::sequence::period`, with the game each
//! applies to).

pub use crate::sequence::period::*;

use crate::model::game::Game;

impl Certificate {
    /// The certificate that applies to a game, if any.
    pub fn for_game(game: &Game) -> Option<Certificate> {
        game.heap_rule().as_ref().and_then(Certificate::for_rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certified(spec: &str, max: u32) -> (u64, u64) {
        let game = Game::parse(spec).unwrap();
        match find_period(Certificate::for_game(&game), &game.grundy(max)) {
            PeriodOutcome::Certified(p) => (p.preperiod, p.period),
            other => panic!("{spec}: not certified: {other:?}"),
        }
    }

    #[test]
    fn known_periods_are_certified() {
        assert_eq!(certified("subtract:1,2", 100), (0, 3));
        assert_eq!(certified("subtract:1,3,4", 100), (0, 7));
        assert_eq!(certified("subtract:2,5,7", 200), (0, 22));
        assert_eq!(certified("octal:0.77", 1000), (71, 12));
        assert_eq!(certified("octal:0.07", 1000), (53, 34));
        assert_eq!(certified("octal:0.137", 1000), (52, 34));
    }

    #[test]
    fn the_quoted_window_at_preperiod_zero_is_not_enough_for_0_4() {
        // G = 0, 0, 0, 1: (e, p) = (0, 1) fits n < 2e + p + t = 2 but is false; the
        // window n < 2 max(e, 1) + p + t = 4 needs G(4).
        let game = Game::octal("0.4").unwrap();
        assert_eq!(game.grundy(3), vec![0, 0, 0, 1]);
        let outcome = find_period(Certificate::for_game(&game), &game.grundy(2));
        assert!(matches!(outcome, PeriodOutcome::NotCertified { .. }), "{outcome:?}");
    }

    #[test]
    fn short_data_and_games_without_a_theorem_are_not_certified() {
        let kayles = Game::octal("0.77").unwrap();
        let outcome = find_period(Certificate::for_game(&kayles), &kayles.grundy(150));
        let expected = PeriodOutcome::NotCertified {
            checked_through: 150,
            largest_value: 8,
            reason: Uncertified::NotWithinData,
        };
        assert_eq!(outcome, expected);
        for game in [Game::nim(), Game::grundys_game()] {
            assert_eq!(Certificate::for_game(&game), None);
        }
    }
}
