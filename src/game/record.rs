//! Games as records, and replays: a game written on one line that a person
//! can paste ([`Codec::write_record`], [`Codec::read_record`]), and a whole
//! game played again from a start state, from its moves or its record, with
//! every state along the way ([`replay`], [`replay_record`]).
//!
//! A bad move is reported with its 0-based place in the list or record
//! ([`BadMove`]); where that place is in a request is the caller's business.

use super::{Codec, Game, GameError, Outcome};
use serde_json::Value;

/// The most moves one replay plays: more than any real game of the games
/// here holds, few enough that a replay is cheap.
pub const MAX_REPLAY_MOVES: usize = 10_000;

/// A move of a list or a record that could not be played: where it is, as
/// it was given, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// Its 0-based place: in a list of moves, the index in the list; in a
    /// record, among the moves written in the record (moves a record leaves
    /// out, such as Reversi's passes, are not counted).
    pub index: usize,
    /// The move as given: its text, or the JSON of a move object.
    pub text: String,
    /// Why it could not be played, in the game's terms (an illegal move
    /// keeps the game's finer code, such as Naughts' `invalid_row`).
    pub error: GameError,
}

/// Why a replay stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// A move that could not be played (the first one).
    BadMove(BadMove),
    /// More moves than the request allows.
    TooLong {
        /// How many moves were given.
        count: usize,
        /// The most the request allows.
        most: usize,
    },
}

impl From<BadMove> for ReplayError {
    fn from(bad: BadMove) -> Self {
        ReplayError::BadMove(bad)
    }
}

/// A game played again: every state from the start to the end, and the
/// moves between them.
pub struct Replay<G: Game> {
    /// The start, then the state after each move: `states[i]` is the state
    /// `moves[i]` was played in, and the last one is the final state.
    pub states: Vec<G::State>,
    /// The moves played, in order; from a record they include the moves
    /// the record leaves out (Reversi's passes).
    pub moves: Vec<G::Move>,
}

impl<G: Game> Replay<G> {
    /// The state after the last move.
    pub fn final_state(&self) -> &G::State {
        self.states
            .last()
            .expect("a replay holds at least its start")
    }

    /// How the game stands after the last move.
    pub fn outcome(&self) -> Outcome<G::Termination> {
        G::outcome(self.final_state())
    }

    /// The game's record of the moves ([`Codec::write_record`]).
    pub fn record(&self) -> String {
        G::write_record(&self.states[0], &self.moves)
    }

    fn push(&mut self, mv: G::Move) {
        let after = G::apply(self.final_state(), &mv);
        self.moves.push(mv);
        self.states.push(after);
    }
}

/// Plays `moves` (each a notation string or a move object, as
/// [`Codec::parse_move`] reads them) in order from `start`. The first move
/// that cannot be played stops the replay with its index, including a move
/// after the game has ended. More than `most` moves are refused before
/// any is played.
pub fn replay<G: Game>(
    start: G::State,
    moves: &[Value],
    most: usize,
) -> Result<Replay<G>, ReplayError> {
    if moves.len() > most {
        return Err(ReplayError::TooLong {
            count: moves.len(),
            most,
        });
    }
    let mut replay = Replay::<G> {
        states: vec![start],
        moves: Vec::with_capacity(moves.len()),
    };
    for (index, value) in moves.iter().enumerate() {
        let mv = read_move::<G>(replay.final_state(), index, value)?;
        replay.push(mv);
    }
    Ok(replay)
}

/// Plays a record ([`Codec::read_record`]) from `start`, at most `most`
/// moves of it.
pub fn replay_record<G: Game>(
    start: G::State,
    record: &str,
    most: usize,
) -> Result<Replay<G>, ReplayError> {
    let moves = G::read_record(&start, record)?;
    if moves.len() > most {
        return Err(ReplayError::TooLong {
            count: moves.len(),
            most,
        });
    }
    let mut replay = Replay::<G> {
        states: vec![start],
        moves: Vec::with_capacity(moves.len()),
    };
    for mv in moves {
        replay.push(mv);
    }
    Ok(replay)
}

/// Reads the move at `index` of a list or record, given as `value`, in
/// `state`: the move if it is legal there, else why not. A move after the
/// game has ended is refused with how it ended.
pub fn read_move<G: Codec>(
    state: &G::State,
    index: usize,
    value: &Value,
) -> Result<G::Move, BadMove> {
    let bad = |error| BadMove {
        index,
        text: value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string),
        error,
    };
    let outcome = G::outcome(state);
    if outcome.is_over() {
        return Err(bad(GameError::illegal_move(format!(
            "the game is already over ({}): no move can follow",
            how_it_ended(&outcome, G::info().sides)
        ))));
    }
    super::fields::read_move::<G>(state, value).map_err(bad)
}

/// Reads and plays in turn moves written as text from `start`: what a
/// record reader does once it has cut the record into moves.
pub fn read_texts<G: Codec>(
    start: &G::State,
    texts: impl IntoIterator<Item = String>,
) -> Result<Vec<G::Move>, BadMove> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    for (index, text) in texts.into_iter().enumerate() {
        let mv = read_move::<G>(&state, index, &Value::String(text))?;
        state = G::apply(&state, &mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// Each move's notation, written in the state it is played in.
pub fn notations<G: Codec>(start: &G::State, moves: &[G::Move]) -> Vec<String> {
    let mut state = start.clone();
    moves
        .iter()
        .map(|mv| {
            let text = G::notation(&state, mv);
            state = G::apply(&state, mv);
            text
        })
        .collect()
}

/// How a finished game ended, in words (`black won: neither side can move;
/// black 40, white 24`).
pub fn how_it_ended<T>(outcome: &Outcome<T>, sides: &[&str]) -> String {
    match outcome {
        Outcome::Win { winner, reason, .. } => format!(
            "{} won: {reason}",
            sides.get(winner.index()).copied().unwrap_or("?")
        ),
        Outcome::Draw { reason, .. } => format!("a draw: {reason}"),
        Outcome::Finished { points, .. } => format!("finished with a score of {points}"),
        Outcome::Ongoing => "it goes on".to_string(),
    }
}

/// What the games' tests check of their records.
#[cfg(test)]
pub(crate) mod checks {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Plays `games` random games from `start`, each cut after a random
    /// number of plies up to `max_plies` (or at its end), and checks that
    /// each one's record is one line that reads back as the same moves, to
    /// the same final state: a record may only leave out forced moves (the
    /// only legal move) at its end. Returns the records.
    pub(crate) fn round_trips<G: Game>(
        start: &G::State,
        seed: u64,
        games: usize,
        max_plies: usize,
    ) -> Vec<String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..games)
            .map(|_| {
                let plies = rng.random_range(0..=max_plies);
                let (moves, states) = random_game::<G>(start, plies, &mut rng);
                let record = G::write_record(start, &moves);
                assert!(!record.contains('\n'), "one line: {record:?}");
                let read = G::read_record(start, &record)
                    .unwrap_or_else(|bad| panic!("{record:?} does not read back: {bad:?}"));
                assert!(read.len() <= moves.len() && moves[..read.len()] == read[..]);
                for (state, left_out) in states[read.len()..].iter().zip(&moves[read.len()..]) {
                    let mut legal = Vec::new();
                    G::legal_moves(state, &mut legal);
                    assert_eq!(
                        legal,
                        std::slice::from_ref(left_out),
                        "{record:?} left out a choice"
                    );
                }
                let replayed =
                    replay_record::<G>(start.clone(), &record, MAX_REPLAY_MOVES).unwrap();
                assert_eq!(replayed.record(), record);
                record
            })
            .collect()
    }

    /// A random game of at most `plies` plies, with the state each move was
    /// played in.
    pub(crate) fn random_game<G: Game>(
        start: &G::State,
        plies: usize,
        rng: &mut ChaCha8Rng,
    ) -> (Vec<G::Move>, Vec<G::State>) {
        let mut state = start.clone();
        let (mut moves, mut states) = (Vec::new(), Vec::new());
        let mut legal = Vec::new();
        for _ in 0..plies {
            legal.clear();
            G::legal_moves(&state, &mut legal);
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            let after = G::apply(&state, &mv);
            states.push(std::mem::replace(&mut state, after));
            moves.push(mv);
        }
        (moves, states)
    }

    /// The record `record` fails at move `index` (0-based), written `text`,
    /// with a detail that holds `reason`; returns the error.
    pub(crate) fn fails_at<G: Game>(
        start: &G::State,
        record: &str,
        index: usize,
        text: &str,
        reason: &str,
    ) -> GameError {
        let bad = G::read_record(start, record).expect_err(record);
        assert_eq!((bad.index, bad.text.as_str()), (index, text), "{record:?}");
        assert!(
            bad.error.to_string().contains(reason),
            "{record:?}: {} lacks {reason:?}",
            bad.error
        );
        bad.error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::{Move, Reversi, State};
    use serde_json::json;

    #[test]
    fn a_replay_keeps_every_state_and_writes_the_record() {
        let moves = [json!("f5"), json!({"square": "D6"}), json!("c3")];
        let replay = replay::<Reversi>(State::start(), &moves, MAX_REPLAY_MOVES).unwrap();
        assert_eq!(replay.states.len(), 4);
        assert_eq!(replay.states[0], State::start());
        assert_eq!(replay.record(), "f5d6c3");
        assert_eq!(replay.outcome(), Outcome::Ongoing);
        let again = replay_record::<Reversi>(State::start(), "f5d6c3", MAX_REPLAY_MOVES).unwrap();
        assert_eq!(again.final_state(), replay.final_state());
    }

    #[test]
    fn the_first_bad_move_stops_a_replay_with_its_index_and_text() {
        let moves = [
            json!("f5"),
            json!("d6"),
            json!({"square": "a1"}),
            json!("zz"),
        ];
        let Err(ReplayError::BadMove(bad)) =
            replay::<Reversi>(State::start(), &moves, MAX_REPLAY_MOVES)
        else {
            panic!("a1 is not legal");
        };
        assert_eq!((bad.index, bad.text.as_str()), (2, r#"{"square":"a1"}"#));
        assert!(bad.error.to_string().contains("a1 flips no white disc"));
    }

    #[test]
    fn a_move_after_the_end_is_refused_with_how_the_game_ended() {
        let full =
            Reversi::state_from_json(&json!({"board": vec!["BBBBBBBB"; 8], "to_move": "white"}))
                .unwrap();
        let Err(ReplayError::BadMove(bad)) =
            replay::<Reversi>(full, &[json!("pass")], MAX_REPLAY_MOVES)
        else {
            panic!("the game is over");
        };
        assert_eq!(bad.index, 0);
        assert_eq!(
            bad.error.to_string(),
            "the game is already over (black won: neither side can move; black 64, white 0): \
             no move can follow"
        );
    }

    #[test]
    fn a_replay_past_the_cap_is_refused_before_any_move() {
        let moves = vec![json!("a1"); MAX_REPLAY_MOVES + 1];
        assert_eq!(
            replay::<Reversi>(State::start(), &moves, MAX_REPLAY_MOVES).err(),
            Some(ReplayError::TooLong {
                count: MAX_REPLAY_MOVES + 1,
                most: MAX_REPLAY_MOVES
            })
        );
        let replay = replay_record::<Reversi>(State::start(), "", MAX_REPLAY_MOVES).unwrap();
        assert_eq!(replay.moves, Vec::<Move>::new());
        assert_eq!(replay.record(), "");
    }
}
