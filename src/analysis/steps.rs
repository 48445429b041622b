//! The options of a state of any game (its heaps, and whether the pass is still
//! available): moves that change one or several heaps, and the pass, in a fixed order.

use crate::engine::Labels;
use crate::model::game::Game;
use crate::model::position::{PassState, Tuple};

/// One option of a state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A move: the heaps after it (the pass state unchanged).
    To(Vec<u32>),
    /// The pass: the same heaps, the pass used.
    Pass,
}

impl Step {
    /// The state after the step from `heaps` in the pass state `pass`.
    pub fn after(&self, heaps: &[u32], pass: PassState) -> (Vec<u32>, PassState) {
        match self {
            Step::To(next) => (next.clone(), pass),
            Step::Pass => (heaps.to_vec(), PassState::Used),
        }
    }

    /// `take 1 from heap 1 and 1 from heap 2: (3,5) -> (2,4)`, or
    /// `take 12 from heap 3 (39 -> 27): (14,21,39) -> (14,21,27)` for one heap, or
    /// `pass: (3,5) -> (3,5), pass used`.
    pub fn describe(&self, heaps: &[u32]) -> String {
        let Step::To(next) = self else {
            return format!("pass: {} -> {}, pass used", Tuple(heaps), Tuple(heaps));
        };
        let changed: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] != next[i]).collect();
        let takes: Vec<String> = changed
            .iter()
            .map(|&i| format!("{} from heap {}", heaps[i] - next[i], i + 1))
            .collect();
        let single = match changed[..] {
            [i] => format!(" ({} -> {})", heaps[i], next[i]),
            _ => String::new(),
        };
        format!("take {}{single}: {} -> {}", takes.join(" and "), Tuple(heaps), Tuple(next))
    }

    /// The step as `moves --format csv` writes an option: the heaps after it separated
    /// by spaces, or `pass`.
    pub fn csv_cell(&self) -> String {
        match self {
            Step::To(next) => crate::model::position::Spaced(next).to_string(),
            Step::Pass => "pass".to_string(),
        }
    }
}

/// Every step from a state: the moves ordered by the heaps they change (as a list of
/// heap numbers), then by the stones they take from each, then the pass when it is
/// available and the position has a move.
pub fn legal_steps(game: &Game, heaps: &[u32], pass: PassState) -> Vec<Step> {
    let mut options = game.options_of(heaps);
    let key = |next: &Vec<u32>| {
        let changed: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] != next[i]).collect();
        let takes: Vec<u32> = changed.iter().map(|&i| heaps[i] - next[i]).collect();
        (changed, takes)
    };
    options.sort_by_cached_key(key);
    let can_pass = pass.is_available() && !options.is_empty();
    let mut steps: Vec<Step> = options.into_iter().map(Step::To).collect();
    if can_pass {
        steps.push(Step::Pass);
    }
    steps
}

/// Whether the state after `step` is P in `labels` (which must hold the state's space).
pub fn leads_to_p(labels: &Labels, heaps: &[u32], pass: PassState, step: &Step) -> bool {
    let (next, pass) = step.after(heaps, pass);
    labels.is_p_in(&next, pass)
}

/// The steps that lead to a P state of `labels`, in [`legal_steps`] order.
pub fn winning_steps(game: &Game, labels: &Labels, heaps: &[u32], pass: PassState) -> Vec<Step> {
    let steps = legal_steps(game, heaps, pass);
    steps.into_iter().filter(|s| leads_to_p(labels, heaps, pass, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_come_by_heaps_changed_then_stones_then_the_pass() {
        let steps = legal_steps(&Game::wythoff().with_pass(), &[2, 1], PassState::Available);
        let expected = [
            Step::To(vec![1, 1]),
            Step::To(vec![0, 1]),
            Step::To(vec![1, 0]),
            Step::To(vec![2, 0]),
            Step::Pass,
        ];
        assert_eq!(steps, expected);
        assert_eq!(
            steps[2].describe(&[2, 1]),
            "take 1 from heap 1 and 1 from heap 2: (2,1) -> (1,0)"
        );
        assert_eq!(steps[3].describe(&[2, 1]), "take 1 from heap 2 (1 -> 0): (2,1) -> (2,0)");
        assert!(
            legal_steps(&Game::nim().with_pass(), &[0, 0], PassState::Available).is_empty(),
            "no move, no pass"
        );
    }
}
