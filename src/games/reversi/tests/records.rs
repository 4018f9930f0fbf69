use super::*;
use crate::game::record::checks::{fails_at, round_trips};

fn squares(names: &[&str]) -> Vec<Move> {
    names
        .iter()
        .map(|name| Move::Place(super::super::board::parse_square(name).unwrap() as u8))
        .collect()
}

#[test]
fn a_record_is_the_squares_played_in_either_case_and_any_spacing() {
    let start = State::start();
    let opening = squares(&["f5", "d6", "c3", "d3", "c4"]);
    assert_eq!(Reversi::write_record(&start, &opening), "f5d6c3d3c4");
    for record in ["f5d6c3d3c4", "F5D6C3D3C4", " f5 d6\tC3\nd3 c4 "] {
        assert_eq!(Reversi::read_record(&start, record).unwrap(), opening);
    }
    assert_eq!(Reversi::read_record(&start, "").unwrap(), []);
}

#[test]
fn random_games_read_back_with_their_passes_put_back() {
    let start = State::start();
    let records = round_trips::<Reversi>(&start, 40, 300, 70);
    let with_passes = records
        .iter()
        .filter(|record| {
            let moves = Reversi::read_record(&start, record).unwrap();
            moves.contains(&Move::Pass)
        })
        .count();
    assert!(with_passes > 0, "some random game passes");
    assert!(records.iter().all(|r| !r.contains("pass")));
}

#[test]
fn a_bad_square_is_reported_with_its_index_among_the_squares() {
    let start = State::start();
    fails_at::<Reversi>(&start, "f5d6a1", 2, "a1", "a1 flips no white disc");
    fails_at::<Reversi>(&start, "f5 F5", 1, "F5", "f5 is already occupied");
    fails_at::<Reversi>(&start, "f5d6c", 2, "c", "'c' is not a square");
    fails_at::<Reversi>(&start, "f5z9", 1, "z9", "'z9' is not a square");
}

#[test]
fn a_square_after_the_end_says_how_the_game_ended() {
    let start = State::start();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (moves, _) = crate::game::record::checks::random_game::<Reversi>(&start, 200, &mut rng);
    let end = moves.iter().fold(start, |s, mv| s.apply(*mv));
    assert!(Reversi::outcome(&end).is_over());
    let record = Reversi::write_record(&start, &moves);
    let played = record.len() / 2;
    let error = fails_at::<Reversi>(
        &start,
        &format!("{record}a1"),
        played,
        "a1",
        "the game is already over",
    );
    assert!(
        error.to_string().contains("neither side can move"),
        "{error}"
    );
}
