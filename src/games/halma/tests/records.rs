use super::*;
use crate::game::record::checks::{fails_at, round_trips};

/// The first seven moves of a random game from the standard start.
const OPENING: &str = "E 4,0 5,1 J 15,13 13,11 J 0,3 2,5 J 14,11 12,11 E 1,4 2,4 \
                       E 12,13 12,12 J 3,2 1,4;J 1,4 3,4;J 3,4 1,6";

fn start() -> State {
    State::start(Side::First, CampRule::Referee)
}

#[test]
fn a_record_joins_moves_with_spaces_and_a_jump_s_lines_with_semicolons() {
    let moves = Halma::read_record(&start(), OPENING).unwrap();
    assert_eq!(moves.len(), 7);
    assert_eq!(Halma::write_record(&start(), &moves), OPENING);
    let last = moves[6];
    assert_eq!(
        (last.from, last.to, last.jump),
        (cell(3, 2), cell(1, 6), true)
    );
    let loose = " e 4,0 5,1\tJ 15,13 13,11  j 0,3 2,5 J 14,11 12,11 E 1,4 2,4 \
                 E 12,13 12,12 J 3,2 1,4 ; J 1,4 3,4 ;J 3,4 1,6 ";
    assert_eq!(Halma::read_record(&start(), loose).unwrap(), moves);
}

#[test]
fn random_games_read_back() {
    let records = round_trips::<Halma>(&start(), 11, 40, 80);
    assert!(records.iter().any(|r| r.contains(';')), "some jump chains");
    let white_first = State::start(Side::Second, CampRule::Basic);
    round_trips::<Halma>(&white_first, 12, 20, 80);
}

#[test]
fn a_bad_move_is_reported_with_its_index() {
    let start = start();
    fails_at::<Halma>(
        &start,
        "E 4,0 5,1 E 15,13 13,11",
        1,
        "E 15,13 13,11",
        "a step goes to one of the 8 adjacent cells",
    );
    fails_at::<Halma>(
        &start,
        "E 4,0 5,1 J 15,13 13,11;E 13,11 12,10",
        1,
        "J 15,13 13,11;E 13,11 12,10",
        "steps and jumps never mix",
    );
    fails_at::<Halma>(
        &start,
        "J 0,3 2,5;J 4,4 6,6",
        0,
        "J 0,3 2,5;J 4,4 6,6",
        "starts at 4,4 but the previous jump ended at 2,5",
    );
    fails_at::<Halma>(
        &start,
        "E 4,0 5,1 4,0",
        0,
        "E 4,0 5,1 4,0",
        "expected exactly two cells after E",
    );
    fails_at::<Halma>(
        &start,
        "4,0 E 4,0 5,1",
        0,
        "4,0",
        "expected it to start with E",
    );
}
