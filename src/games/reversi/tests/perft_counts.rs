//! Perft.

use super::*;

#[test]
fn perft_matches_the_fixture_to_depth_9() {
    let fixture = fixture("perft.json");
    for depth in 1..=9u32 {
        let expected = fixture["counts"][depth.to_string()].as_u64().unwrap();
        assert_eq!(
            super::super::perft::perft(Board::start(), depth),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn portable_and_x86_perft_both_match_the_fixture() {
    let fixture = fixture("perft.json");
    for depth in 0..=8u32 {
        let expected = fixture["counts"]
            .get(depth.to_string())
            .map_or(1, |v| v.as_u64().unwrap());
        assert_eq!(
            super::super::perft::perft_portable(Board::start(), depth),
            expected,
            "portable, depth {depth}"
        );
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            super::super::perft::perft_x86(Board::start(), depth),
            expected,
            "x86, depth {depth}"
        );
    }
}

/// perft from the start at `depth` against the fixture (release builds only:
/// the depths below take from seconds to minutes there and far longer in debug).
fn check_perft_fixture_depth(depth: u32) {
    let expected = fixture("perft.json")["counts"][depth.to_string()]
        .as_u64()
        .unwrap();
    let started = std::time::Instant::now();
    let nodes = super::super::perft::perft(Board::start(), depth);
    eprintln!(
        "perft({depth}) = {nodes} in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(nodes, expected, "depth {depth}");
}

#[test]
#[ignore = "release only, about 30 s: cargo test --release --lib games::reversi::tests::perft_13 -- --ignored --nocapture"]
fn perft_13_matches_the_fixture() {
    check_perft_fixture_depth(13);
}

#[test]
#[ignore = "release only, about 5 minutes: cargo test --release --lib games::reversi::tests::perft_14 -- --ignored --nocapture"]
fn perft_14_matches_the_fixture() {
    check_perft_fixture_depth(14);
}

#[test]
fn generic_perft_agrees_at_small_depths() {
    let fixture = fixture("perft.json");
    for depth in 1..=5u32 {
        let expected = fixture["counts"][depth.to_string()].as_u64().unwrap();
        assert_eq!(
            perft::<Reversi>(&State::start(), depth),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn fast_and_generic_perft_agree_through_passes_and_game_ends() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for empties in [2, 3, 5, 7] {
        for _ in 0..15 {
            if let Some(board) = random_position(&mut rng, empties) {
                let state = State::from_board(board, Side::First);
                for depth in 0..=empties + 1 {
                    let expected = perft::<Reversi>(&state, depth);
                    assert_eq!(super::super::perft::perft_portable(board, depth), expected);
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(super::super::perft::perft_x86(board, depth), expected);
                }
            }
        }
    }
}
