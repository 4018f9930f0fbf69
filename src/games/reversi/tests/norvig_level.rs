//! Norvig.

use super::*;

#[test]
fn norvig_weights_sum_square_by_square() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..200 {
        let empties = rng.random_range(0..60);
        let Some(board) = random_position(&mut rng, empties) else {
            continue;
        };
        let slow = |bits: u64| -> i32 { Bits(bits).map(|sq| norvig::WEIGHTS[sq as usize]).sum() };
        assert_eq!(weighted_squares(board), slow(board.me) - slow(board.opp));
    }
}

/// Plain minimax over Norvig's evaluation, no pruning: (best square, value).
fn plain_minimax(board: Board, depth: u32) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        if board.opp_moves() == 0 {
            return final_value(board);
        }
        if depth == 0 {
            return weighted_squares(board);
        }
        return -plain_minimax(board.pass(), depth - 1);
    }
    if depth == 0 {
        return weighted_squares(board);
    }
    Bits(moves)
        .map(|sq| -plain_minimax(board.play(sq), depth - 1))
        .max()
        .unwrap()
}

fn plain_choice(board: Board, depth: u32) -> Option<u32> {
    let mut best: Option<(u32, i32)> = None;
    for sq in Bits(board.moves()) {
        let value = -plain_minimax(board.play(sq), depth - 1);
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((sq, value));
        }
    }
    best.map(|(sq, _)| sq)
}

#[test]
fn norvig_picks_exactly_the_minimax_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut checked = 0;
    while checked < 300 {
        let empties = rng.random_range(4..56);
        let Some(board) = random_position(&mut rng, empties) else {
            continue;
        };
        if board.moves() == 0 {
            continue;
        }
        let depth = 1 + checked % 4;
        let result = norvig::choose(board, depth, &Budget::unlimited());
        assert_eq!(
            result.square,
            plain_choice(board, depth),
            "depth {depth} board {board:?}"
        );
        assert_eq!(
            result.value,
            -plain_minimax(board.play(result.square.unwrap()), depth - 1)
        );
        checked += 1;
    }
}

#[test]
fn norvig_depth_comes_from_the_level_or_the_budget() {
    let state = State::start();
    let run = |level: &str, budget: Budget| {
        Reversi::choose_move(
            &state,
            &LevelSpec::parse(level).unwrap(),
            &crate::game::BotParams::seeded(0),
            &budget,
        )
        .unwrap()
        .report
        .depth
    };
    assert_eq!(run("norvig", Budget::unlimited()), Some(6));
    assert_eq!(run("norvig", Budget::unlimited().depth(3)), Some(3));
    assert_eq!(run("norvig:depth=2", Budget::unlimited()), Some(2));
    assert_eq!(run("norvig:depth=5", Budget::unlimited().depth(4)), Some(4));
    assert_eq!(run("norvig", Budget::unlimited().depth(40)), Some(10));
}
