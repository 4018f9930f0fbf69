//! Generic perft: counts move sequences to a depth, the standard check of move generation.

use super::Rules;

/// The number of move sequences of exactly `depth` plies from `state`; a
/// finished game reached earlier counts as one leaf. Forced passes count as
/// moves where the game lists them as moves.
pub fn perft<G: Rules>(state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    G::legal_moves(state, &mut moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft::<G>(&G::apply(state, mv), depth - 1))
        .sum()
}
