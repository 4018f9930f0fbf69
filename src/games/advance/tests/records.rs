use super::*;
use crate::game::record::checks::{fails_at, round_trips};

/// The first four moves of a random game from the start.
const OPENING: &str = "b2-a3 d8-e7 i2#i3 b9~b8";

fn start() -> State {
    Advance::new_game(Default::default()).unwrap()
}

#[test]
fn a_record_is_the_moves_notations_joined_with_spaces() {
    let moves = Advance::read_record(&start(), OPENING).unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2].kind, Kind::Build);
    assert_eq!(Advance::write_record(&start(), &moves), OPENING);
    let loose = "  B2A3\td8-e7\n i2#I3 b9~b8 ";
    assert_eq!(Advance::read_record(&start(), loose).unwrap(), moves);
}

#[test]
fn random_games_read_back() {
    round_trips::<Advance>(&start(), 21, 60, 300);
}

#[test]
fn a_bad_move_is_reported_with_its_index() {
    fails_at::<Advance>(
        &start(),
        "b2-a3 d8-e7 i2-i9",
        2,
        "i2-i9",
        "a Builder moves only to one of the 8 squares next to it",
    );
    fails_at::<Advance>(
        &start(),
        "b2-a3 d8-e7 i2",
        2,
        "i2",
        "cannot read move notation",
    );
}
