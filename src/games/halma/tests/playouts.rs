//! Random playouts.

use super::*;

/// Plays `plies` random moves from the start, checking every position.
fn playout(seed: u64, plies: usize, rule: CampRule) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut s = State::start(
        if seed % 2 == 0 {
            Side::First
        } else {
            Side::Second
        },
        rule,
    );
    for _ in 0..plies {
        let legal = moves(&s);
        let listed: BTreeSet<_> = legal.iter().map(|m| (m.from, m.to, m.jump)).collect();
        assert_eq!(listed.len(), legal.len(), "duplicate moves");
        assert_eq!(has_any_move(&s), !legal.is_empty());
        assert_eq!(
            listed,
            reference_moves(&s),
            "generator disagrees with the reference"
        );
        let json = Halma::state_to_json(&s);
        assert_eq!(
            Halma::state_from_json(&json).unwrap(),
            s,
            "state round trip"
        );
        if legal.is_empty() {
            assert!(Halma::outcome(&s).is_over());
            return;
        }
        for mv in legal.iter().step_by(3) {
            assert_eq!(&parse_move(&s, &json!(notation(&s, mv))).unwrap(), mv);
            assert_eq!(&parse_move(&s, &Halma::move_to_json(&s, mv)).unwrap(), mv);
        }
        // Random cell pairs that are not listed must be refused both ways.
        for _ in 0..20 {
            let from = s
                .side(s.to_move())
                .cells()
                .nth(rng.random_range(0..19))
                .unwrap();
            let to = rng.random_range(0..256) as Cell;
            if legal.iter().any(|m| m.from == from && m.to == to) {
                continue;
            }
            let path = json!({"path": [[col(from), row(from)], [col(to), row(to)]]});
            assert!(parse_move(&s, &path).is_err(), "{path} accepted");
        }
        let mv = legal[rng.random_range(0..legal.len())];
        s = Halma::apply(&s, &mv);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_agree_with_the_rules(seed in any::<u64>(), basic in any::<bool>()) {
        playout(seed, 40, if basic { CampRule::Basic } else { CampRule::Referee });
    }
}

#[test]
fn long_playouts_reach_the_endgame_rules() {
    // Random games wander; a biased one (mostly forward moves) reaches the camps.
    for seed in 0..3u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = State::start(
            Side::First,
            if seed == 1 {
                CampRule::Basic
            } else {
                CampRule::Referee
            },
        );
        for _ in 0..400 {
            let legal = moves(&s);
            assert_eq!(has_any_move(&s), !legal.is_empty());
            assert_eq!(
                legal
                    .iter()
                    .map(|m| (m.from, m.to, m.jump))
                    .collect::<BTreeSet<_>>(),
                reference_moves(&s)
            );
            if legal.is_empty() {
                break;
            }
            let side = s.to_move();
            let best = legal
                .iter()
                .max_by_key(|m| super::super::bots::eval::progress(side, m.from, m.to))
                .unwrap();
            let mv = if rng.random_bool(0.7) {
                *best
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            s = Halma::apply(&s, &mv);
        }
    }
}

#[test]
fn perft_from_the_start_matches_the_reference_generator() {
    fn reference_perft(s: &State, depth: u32) -> u64 {
        let moves = reference_moves(s);
        if depth == 1 || moves.is_empty() {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&(from, to, _)| {
                let mut next = s.clone();
                next.apply_move(from, to);
                reference_perft(&next, depth - 1)
            })
            .sum()
    }
    let start = State::start(Side::First, CampRule::Referee);
    let counts: Vec<u64> = (1..=2)
        .map(|d| crate::game::perft::<Halma>(&start, d))
        .collect();
    assert_eq!(
        counts,
        vec![reference_perft(&start, 1), reference_perft(&start, 2)]
    );
    assert_eq!(counts, vec![PERFT_START[0], PERFT_START[1]]);
    let basic = State::start(Side::First, CampRule::Basic);
    assert_eq!(
        crate::game::perft::<Halma>(&basic, 2),
        reference_perft(&basic, 2)
    );
}

/// perft(1) and perft(2) from the start, referee rules (also asserted by the bench).
const PERFT_START: [u64; 2] = [40, 1600];
