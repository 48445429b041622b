//! Winning moves: moves to P-positions read from a label table, and Nim's formulas for them.

use crate::engine::{Engine, Labels, Progress, RowView, RowVisitor, Work};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::options::PositionOptions;
use crate::model::position::{PassState, Tuple};
use crate::model::space::{Mode, Space};
use crate::{Error, Result};

/// One move: heap `heap` (0-based) goes from `from` stones to `to` stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// Index of the heap moved, from 0.
    pub heap: usize,
    /// Its size before the move.
    pub from: u32,
    /// Its size after the move.
    pub to: u32,
}

impl Move {
    /// Stones removed.
    pub fn take(&self) -> u32 {
        self.from - self.to
    }

    /// The position after the move.
    pub fn apply(&self, position: &[u32]) -> Vec<u32> {
        let mut next = position.to_vec();
        next[self.heap] = self.to;
        next
    }

    /// The move in words, as `nimtab moves` prints it:
    /// `take 12 from heap 3 (39 -> 27): (14,21,39) -> (14,21,27)`.
    pub fn describe(&self, position: &[u32]) -> String {
        format!(
            "take {} from heap {} ({} -> {}): {} -> {}",
            self.take(),
            self.heap + 1,
            self.from,
            self.to,
            Tuple(position),
            Tuple(&self.apply(position))
        )
    }
}

/// Every legal move, by heap ascending, then by stones taken ascending.
pub fn legal_moves(game: &Game, position: &[u32]) -> Vec<Move> {
    let mut out = Vec::new();
    for (heap, &from) in position.iter().enumerate() {
        // `options` is ascending, so reversing it orders by stones taken.
        for to in game.options(from).into_iter().rev() {
            out.push(Move { heap, from, to });
        }
    }
    out
}

/// The legal moves that lead to a P-position of `labels`, in [`legal_moves`] order.
///
/// The table must hold the position and everything below it (same heap count, max at
/// least the largest heap).
pub fn winning_moves(game: &Game, labels: &Labels, position: &[u32]) -> Vec<Move> {
    legal_moves(game, position).into_iter().filter(|m| labels.is_p(&m.apply(position))).collect()
}

/// Whether `ending` has already ended the game at `position`, won by the player to move:
/// misère play when no heap can move, the SJ ending when every heap has Grundy value 0. No
/// move is played from such a position, though it may have legal moves (under SJ).
pub fn ended_under(game: &Game, ending: Ending, position: &[u32]) -> bool {
    let max = position.iter().copied().max().unwrap_or(0);
    let terminal = ending.terminal_sizes(game, max);
    position.iter().all(|&h| terminal[h as usize])
}

/// Labels the smallest space holding `position` (heaps = its length, max = its largest
/// heap) under `ending`, in canonical mode (smaller, and [`Labels::is_p`] accepts tuples
/// in any order) for a symmetric game, else every tuple.
///
/// # Errors
/// [`Error::Invalid`] for an empty position; [`crate::EngineError::TooLarge`] if the table would
/// exceed `memory_limit` bytes; the engine's refusals (a heap count the game does not
/// have, the SJ ending for a game that is not a sum).
pub fn smallest_table(
    game: &Game,
    ending: Ending,
    position: &[u32],
    memory_limit: u64,
) -> Result<Labels> {
    Ok(smallest_engine(game, position, memory_limit)?.label(ending)?)
}

/// The engine of the smallest space holding `position` (as [`smallest_table`] labels it),
/// canonical for a symmetric game.
///
/// # Errors
/// [`Error::Invalid`] for an empty position; the model's refusal of the space.
pub fn smallest_engine<'g>(
    game: &'g Game,
    position: &[u32],
    memory_limit: u64,
) -> Result<Engine<'g>> {
    if position.is_empty() {
        return Err(Error::Invalid("a position needs at least one heap".into()));
    }
    let max = position.iter().copied().max().unwrap_or(0);
    let mode = if game.is_symmetric() { Mode::Canonical } else { Mode::Full };
    let space = Space::in_mode(position.len(), max, mode)?;
    Ok(Engine::builder(game, space).memory_limit(memory_limit).build())
}

/// At least the bytes one legal move of a position of `heaps` heaps takes while its label
/// is found: the move (twice over, for a list that grows), its state (a vector of heaps),
/// the state's place in the list of wanted indices and its label.
fn bytes_per_move(heaps: usize) -> u64 {
    128 + 4 * heaps as u64
}

/// The legal moves of `position`: of each heap for a sum; otherwise every option of the
/// position, and the pass if `pass` is available.
fn move_count(game: &Game, position: &[u32], pass: PassState) -> u64 {
    if game.is_sum() {
        return position.iter().map(|&h| game.options(h).len() as u64).sum();
    }
    let mut count = 0u64;
    let (mut buf, mut option) = (Vec::new(), Vec::new());
    PositionOptions::new(game, position.len()).for_each(
        position,
        &mut buf,
        &mut option,
        &mut |_| {
            count += 1;
        },
    );
    count + u64::from(pass.is_available() && count > 0)
}

/// What finding a position's winning moves takes, planned before any of it is done.
#[derive(Debug)]
pub struct MovesPlan<'g> {
    /// The engine of the smallest space holding the position, which [`labels_of_states`]
    /// labels.
    pub engine: Engine<'g>,
    /// The position's legal moves (the pass among them, if available).
    pub moves: u64,
    /// Bytes the labelling and the moves' states hold at once.
    pub bytes: u64,
}

/// Plans the labels of `position`'s legal moves (`pass`: whether the pass is one of
/// them): the engine of the smallest space holding the position (as [`smallest_table`]
/// labels it), for [`labels_of_states`]. It refuses, before any list of moves is built, a
/// space the game cannot be labelled in, and a position whose moves and their states
/// would not fit in `memory_limit` bytes beside the labelling: a heap of millions of
/// stones has millions of moves, far more bytes than the labels of its space.
///
/// # Errors
/// The refusals of [`smallest_table`]'s space, its labelling's
/// [`crate::EngineError::TooLarge`] (and [`crate::EngineError::SplitsHeaps`], a heap
/// count the game is not defined for), and [`Error::TooManyMoves`].
pub fn plan_moves<'g>(
    game: &'g Game,
    position: &[u32],
    pass: PassState,
    memory_limit: u64,
) -> Result<MovesPlan<'g>> {
    let engine = smallest_engine(game, position, memory_limit)?;
    let labelling = engine.reserve(&[Work::Stream { endings: 1 }])?.grant().bytes();
    let moves = move_count(game, position, pass);
    let need = moves.saturating_add(1).saturating_mul(bytes_per_move(position.len()));
    if need.saturating_add(labelling) > memory_limit {
        let limit_bytes = memory_limit.saturating_sub(labelling);
        let position = Tuple(position).to_string();
        return Err(Error::TooManyMoves { position, moves, need_bytes: need, limit_bytes });
    }
    Ok(MovesPlan { engine, moves, bytes: need.saturating_add(labelling) })
}

/// Whether each of `states` (heaps, and with a pass whether it is still available; states
/// of `engine`'s space, from [`plan_moves`]) is P under `ending`, picked out of the rows
/// as they are labelled: no table is kept (row solvers that read one still hold it while
/// they run). The labelling reports its positions to `progress`, and stops when it is
/// cancelled.
///
/// # Errors
/// The engine's refusals of the labelling and the states' lists together;
/// [`crate::EngineError::Cancelled`] if `progress` was cancelled.
pub fn labels_of_states(
    engine: &Engine<'_>,
    ending: Ending,
    states: &[(Vec<u32>, bool)],
    progress: &dyn Progress,
) -> Result<Vec<bool>> {
    let game = engine.game();
    let states_per_position = if game.has_pass() { 2 } else { 1 };
    let mut wanted: Vec<(u64, usize)> = states
        .iter()
        .enumerate()
        .map(|(slot, (heaps, available))| {
            let index = engine.index(heaps) * states_per_position + u64::from(*available);
            (index, slot)
        })
        .collect();
    wanted.sort_unstable();
    let picker = Picker { wanted, pass: game.has_pass(), radix: engine.tuple_space().radix() };
    // The states' lists are held while the rows stream: one check covers both.
    let heaps = engine.tuple_space().heaps();
    let lists = (states.len() as u64).saturating_mul(bytes_per_move(heaps));
    let run = engine.reserve(&[Work::Stream { endings: 1 }, Work::Bytes(lists)])?;
    let found = run.stream(&[ending], &picker, progress)?;
    let mut labels = vec![false; states.len()];
    for (slot, p) in found {
        labels[slot] = p;
    }
    Ok(labels)
}

/// Picks the labels of wanted states out of rows: their state indices (as
/// [`RowView::state_index`] numbers them), sorted, and their slots.
struct Picker {
    wanted: Vec<(u64, usize)>,
    pass: bool,
    /// Columns of a full row, `M + 1`.
    radix: u64,
}

impl RowVisitor for Picker {
    type Acc = Vec<(usize, bool)>;

    fn start(&self) -> Self::Acc {
        Vec::new()
    }

    fn visit(&self, acc: &mut Self::Acc, row: &RowView<'_>) {
        // The row's states have consecutive indices, from its first column's.
        let states = if self.pass { 2 } else { 1 };
        let first = row.first_index * states;
        let end = (row.first_index + self.radix - u64::from(row.lo)) * states;
        let from = self.wanted.partition_point(|&(index, _)| index < first);
        for &(index, slot) in self.wanted[from..].iter().take_while(|&&(index, _)| index < end) {
            let h = row.lo as usize + ((index - first) / states) as usize;
            let bits = row.state_bits(0, PassState::of(self.pass && index % 2 == 1));
            acc.push((slot, bits[h / 64] >> (h % 64) & 1 == 1));
        }
    }

    fn merge(&self, mut left: Self::Acc, right: Self::Acc) -> Self::Acc {
        left.extend(right);
        left
    }
}

/// Nim's winning moves by formula, for normal play or misère play (Bouton).
///
/// Normal: with `x` the XOR of all heaps, heap `i` moves to `hi ^ x` whenever that is
/// smaller. Misère: with at least two rich heaps (> 1 stone), the same; with exactly one,
/// that heap goes to 0 or 1 so that an odd number of lonely heaps (1 stone) remains;
/// with none, any lonely heap is emptied when their number is even and non-zero.
/// Returns `None` for the SJ ending, which has no formula here. Moves come in
/// [`legal_moves`] order.
///
/// # Panics
/// Never for a position; the one-rich-heap branch finds its rich heap by construction.
pub fn nim_formula_moves(ending: Ending, position: &[u32]) -> Option<Vec<Move>> {
    let x = position.iter().fold(0, |acc, &h| acc ^ h);
    let rich = position.iter().filter(|&&h| h > 1).count();
    let lonely = position.iter().filter(|&&h| h == 1).count();
    let xor_moves = || -> Vec<Move> {
        position
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h ^ x < h)
            .map(|(heap, &h)| Move { heap, from: h, to: h ^ x })
            .collect()
    };
    let moves = match ending {
        Ending::Normal => xor_moves(),
        Ending::Misere if rich >= 2 => xor_moves(),
        Ending::Misere if rich == 1 => {
            let heap = position.iter().position(|&h| h > 1).expect("one rich heap");
            let to = if lonely % 2 == 1 { 0 } else { 1 };
            vec![Move { heap, from: position[heap], to }]
        }
        Ending::Misere if lonely > 0 && lonely % 2 == 0 => position
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h == 1)
            .map(|(heap, _)| Move { heap, from: 1, to: 0 })
            .collect(),
        Ending::Misere => Vec::new(),
        Ending::Sj => return None,
    };
    Some(moves)
}

/// Moves found by only one of two methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveDifference {
    /// Moves of the table that the formula does not give.
    pub only_in_table: Vec<Move>,
    /// Moves of the formula that the table does not confirm.
    pub only_in_formula: Vec<Move>,
}

impl MoveDifference {
    /// Compares the table's moves with the formula's.
    pub fn between(table: &[Move], formula: &[Move]) -> MoveDifference {
        MoveDifference {
            only_in_table: table.iter().filter(|m| !formula.contains(m)).copied().collect(),
            only_in_formula: formula.iter().filter(|m| !table.contains(m)).copied().collect(),
        }
    }

    /// Whether both methods gave the same moves.
    pub fn is_empty(&self) -> bool {
        self.only_in_table.is_empty() && self.only_in_formula.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;

    #[test]
    fn misere_formula_with_one_rich_heap_leaves_odd_lonely_heaps() {
        let moves = nim_formula_moves(Ending::Misere, &[1, 1, 5]).unwrap();
        assert_eq!(moves, vec![Move { heap: 2, from: 5, to: 1 }]);
        let moves = nim_formula_moves(Ending::Misere, &[1, 5]).unwrap();
        assert_eq!(moves, vec![Move { heap: 1, from: 5, to: 0 }]);
    }

    #[test]
    fn labels_of_states_are_those_of_the_smallest_table() {
        let games = [Game::nim(), Game::wythoff().with_pass(), Game::circular(2).unwrap()];
        for game in &games {
            for position in [&[3u32, 5, 4][..], &[6, 0, 2], &[2, 2, 2]] {
                let labels = smallest_table(game, Ending::Misere, position, 1 << 30).unwrap();
                let passes: &[bool] = if game.has_pass() { &[false, true] } else { &[false] };
                let states: Vec<(Vec<u32>, bool)> = labels
                    .iter_in(PassState::Used)
                    .flat_map(|(t, _)| passes.iter().map(move |&a| (t.clone(), a)))
                    .collect();
                let pass = PassState::of(game.has_pass());
                let engine = plan_moves(game, position, pass, 1 << 30).unwrap().engine;
                let picked =
                    labels_of_states(&engine, Ending::Misere, &states, &NoProgress).unwrap();
                for ((tuple, available), p) in states.iter().zip(picked) {
                    assert_eq!(
                        labels.is_p_in(tuple, PassState::of(*available)),
                        p,
                        "{} {tuple:?}",
                        game.spec()
                    );
                }
            }
        }
    }

    /// Counts the positions reported; cancels once `cancel_after` are.
    struct Counted {
        done: std::sync::atomic::AtomicU64,
        cancel_after: u64,
    }

    impl Progress for Counted {
        fn advance(&self, positions: u64) {
            self.done.fetch_add(positions, std::sync::atomic::Ordering::Relaxed);
        }

        fn cancelled(&self) -> bool {
            self.done.load(std::sync::atomic::Ordering::Relaxed) >= self.cancel_after
        }
    }

    #[test]
    fn the_labelling_of_a_positions_moves_reports_its_positions_and_can_be_cancelled() {
        let game = Game::subtract(&[1, 3, 4]).unwrap();
        let position = [40u32, 40, 40];
        let plan = plan_moves(&game, &position, PassState::Used, 1 << 30).unwrap();
        let states = [(position.to_vec(), false)];
        let counted = Counted { done: 0.into(), cancel_after: u64::MAX };
        labels_of_states(&plan.engine, Ending::Normal, &states, &counted).unwrap();
        assert_eq!(counted.done.into_inner(), plan.engine.positions());
        let stopped = Counted { done: 0.into(), cancel_after: 1 };
        let cancelled = labels_of_states(&plan.engine, Ending::Normal, &states, &stopped);
        assert!(matches!(cancelled, Err(Error::Engine(crate::EngineError::Cancelled))));
    }

    #[test]
    fn moves_are_counted_as_many_as_are_listed() {
        use crate::analysis::steps::legal_steps;
        let sums = [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap()];
        let others = [Game::wythoff(), Game::wythoff().with_pass(), Game::moore(2).unwrap()];
        for position in [&[3u32, 5, 4][..], &[6, 0, 2], &[0, 0, 0], &[9, 1, 7]] {
            for game in &sums {
                let listed = legal_moves(game, position).len() as u64;
                assert_eq!(move_count(game, position, PassState::Used), listed, "{position:?}");
            }
            for game in others.iter().chain([&Game::circular(2).unwrap()]) {
                let pass = PassState::of(game.has_pass());
                let listed = legal_steps(game, position, pass).len() as u64;
                let counted = move_count(game, position, pass);
                assert_eq!(counted, listed, "{} {position:?}", game.spec());
            }
        }
    }

    #[test]
    fn moves_beyond_the_memory_beside_their_labelling_are_refused() {
        let nim = Game::nim();
        let (position, pass) = (&[100_000u32][..], PassState::Used);
        let plan = plan_moves(&nim, position, pass, 1 << 30).unwrap();
        assert_eq!(plan.moves, 100_000);
        let refused = plan_moves(&nim, position, pass, 8 << 20).unwrap_err();
        let Error::TooManyMoves { moves, need_bytes, .. } = refused else { panic!("{refused}") };
        assert_eq!((moves, need_bytes), (100_000, 100_001 * bytes_per_move(1)));
    }

    #[test]
    fn formula_agrees_with_the_table_on_small_nim_spaces() {
        let nim = Game::nim();
        for ending in [Ending::Normal, Ending::Misere] {
            let labels = Engine::new(&nim, Space::new(3, 6).unwrap()).label(ending).unwrap();
            for (position, _) in labels.iter() {
                let table = winning_moves(&nim, &labels, &position);
                let formula = nim_formula_moves(ending, &position).unwrap();
                assert_eq!(table, formula, "{ending} {position:?}");
            }
        }
    }
}
