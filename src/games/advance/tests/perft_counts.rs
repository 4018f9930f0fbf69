//! Perft counts against the fixture.

use super::*;

fn perft_cases(max_nodes: u64) -> Vec<(String, State, u32, u64)> {
    let data = fixture("perft.json");
    let mut cases = Vec::new();
    for position in data["positions"].as_array().unwrap() {
        let state = fixture_state(position);
        for (depth, count) in position["counts"].as_object().unwrap() {
            let count = count.as_u64().unwrap();
            if count <= max_nodes {
                let name = position["name"].as_str().unwrap().to_string();
                cases.push((name, state.clone(), depth.parse().unwrap(), count));
            }
        }
    }
    cases
}

#[test]
fn perft_fixture_small_counts() {
    for (name, state, depth, count) in perft_cases(200_000) {
        assert_eq!(
            super::super::movegen::perft(&mut state.clone(), depth),
            count,
            "{name} depth {depth}"
        );
    }
}

#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::advance::tests::perft_fixture_deep_counts -- --ignored"]
fn perft_fixture_deep_counts() {
    for (name, state, depth, count) in perft_cases(u64::MAX) {
        let found = super::super::movegen::perft(&mut state.clone(), depth);
        assert_eq!(found, count, "{name} depth {depth}");
    }
}

#[test]
fn generic_perft_counts_finished_games_as_leaves_unlike_the_fixture() {
    let examples = fixture("seed-examples.json");
    let state = fixture_state(&examples["examples"][1]);
    assert_eq!(super::super::movegen::perft(&mut state.clone(), 2), 2085);
    // The one winning move leaves black without a move: a leaf for the generic perft.
    assert_eq!(crate::game::perft::<Advance>(&state, 2), 2086);
    assert_eq!(crate::game::perft::<Advance>(&State::start(), 3), 80_482);
}
