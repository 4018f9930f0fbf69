use super::rules::crosses_must_pass;
use super::*;
use crate::game::record::checks::{fails_at, round_trips};
const FORMAT_MESSAGE: &str = "a move is \"row col size\"";
const MOVE_MESSAGE: &str = "which is not smaller than 4";
const ROW_MESSAGE: &str = "row must be 1-3";

#[test]
fn a_record_is_the_typed_moves_joined_with_spaces() {
    let start = State::new(3, 5);
    let moves = Naughts::read_record(&start, "2 2 5 1 1 4  3 3\t3").unwrap();
    assert_eq!(Naughts::write_record(&start, &moves), "2 2 5 1 1 4 3 3 3");
    assert_eq!(
        moves[0],
        Play::Place(Move {
            row: 1,
            col: 1,
            size: 5
        })
    );
}

#[test]
fn random_games_read_back() {
    for (seed, (grid, pieces)) in [(3, 5), (3, 9), (2, 9), (4, 7), (2, 5)]
        .into_iter()
        .enumerate()
    {
        let start = State::new(grid, pieces);
        round_trips::<Naughts>(&start, seed as u64, 150, 40);
    }
    round_trips::<Naughts>(&crosses_must_pass(), 9, 20, 10);
}

#[test]
fn a_pass_is_written_and_read_as_pass() {
    let stuck = crosses_must_pass();
    let moves = Naughts::read_record(&stuck, "PASS 1 2 9").unwrap();
    assert_eq!(moves[0], Play::Pass);
    assert_eq!(Naughts::write_record(&stuck, &moves), "pass 1 2 9");
}

#[test]
fn a_bad_move_is_reported_with_its_index_and_the_course_message() {
    let start = State::new(3, 5);
    let covered = fails_at::<Naughts>(&start, "2 2 5 2 2 4", 1, "2 2 4", MOVE_MESSAGE);
    assert!(matches!(
        covered,
        GameError::IllegalMove {
            code: crate::game::ErrorCode::InvalidMove,
            ..
        }
    ));
    let row = fails_at::<Naughts>(&start, "2 2 5 9 1 1", 1, "9 1 1", ROW_MESSAGE);
    assert!(matches!(
        row,
        GameError::IllegalMove {
            code: crate::game::ErrorCode::InvalidRow,
            ..
        }
    ));
    fails_at::<Naughts>(&start, "2 2 5 1 1", 1, "1 1", FORMAT_MESSAGE);
    fails_at::<Naughts>(&start, "2 2 5 1 pass", 1, "1", FORMAT_MESSAGE);
    fails_at::<Naughts>(&start, "pass", 0, "pass", "O cannot pass");
}

#[test]
fn a_move_after_a_win_says_who_won() {
    let start = State::new(3, 5);
    fails_at::<Naughts>(
        &start,
        "1 1 5 2 1 5 1 2 4 2 2 4 1 3 3 2 3 3",
        5,
        "2 3 3",
        "O won: O completed row 1",
    );
}
