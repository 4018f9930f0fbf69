//! The one score scale every engine uses: ordinary evaluations stay well
//! inside `±WIN / 2`; a decided game is `WIN` minus the plies to the end, so
//! a sooner win scores higher and a later loss less badly.
//!
//! A score stored in a transposition table is counted from the stored
//! position, not from the root ([`to_table`] and [`from_table`]), so the same
//! position reached at another depth reads the right distance to the end.

/// Scores at or beyond `WIN - MAX_PLY * 4` are decided games.
pub const WIN: i32 = 1_000_000;

/// The largest number of plies a search goes from the root.
pub const MAX_PLY: usize = 128;

/// The score of a game won `ply` plies from the root (negate for a loss).
pub fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// Whether `score` says the game is decided (a forced win or loss).
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN - MAX_PLY as i32 * 4
}

/// The score a report gives a move searched to two consecutive depths:
/// their average, which cancels the odd/even swing of an evaluation (the
/// side that moved last at the horizon looks better; docs/SCORE-STABILITY.md).
/// A decided score, or one with no shallower value, stands as it is.
pub fn settled(last: i32, shallower: Option<i32>) -> i32 {
    match shallower {
        Some(before) if !is_decisive(last) && !is_decisive(before) => (last + before).div_euclid(2),
        _ => last,
    }
}

/// A decided score in words from the mover's point of view: "win in 3 plies".
pub fn describe_decisive(score: i32) -> Option<String> {
    if !is_decisive(score) {
        return None;
    }
    let plies = WIN - score.abs();
    let word = if score > 0 { "win" } else { "loss" };
    Some(format!("{word} in {plies} plies"))
}

/// A score found `ply` plies from the root, as the table keeps it: a
/// decided score counted from the position itself.
pub fn to_table(score: i32, ply: usize) -> i32 {
    match score {
        s if is_decisive(s) && s > 0 => s + ply as i32,
        s if is_decisive(s) => s - ply as i32,
        s => s,
    }
}

/// A score read from the table at `ply` plies from the root.
pub fn from_table(score: i32, ply: usize) -> i32 {
    match score {
        s if is_decisive(s) && s > 0 => s - ply as i32,
        s if is_decisive(s) => s + ply as i32,
        s => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_score_round_trips_through_the_table_at_any_depth() {
        for ply in [0, 3, 40] {
            for score in [win_in(7 + ply), -win_in(9 + ply), 1234, -5] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        // Stored at ply 3 as "win in 7 from the root", it is a win in 4 from
        // the position; read at ply 1 it is a win in 5 from that root.
        assert_eq!(from_table(to_table(win_in(7), 3), 1), win_in(5));
        assert_eq!(
            describe_decisive(-win_in(4)).as_deref(),
            Some("loss in 4 plies")
        );
        assert_eq!(describe_decisive(250), None);
    }

    #[test]
    fn a_settled_score_averages_two_estimates_and_keeps_a_decided_one() {
        assert_eq!(settled(120, Some(-20)), 50);
        assert_eq!(settled(-7, Some(0)), -4);
        assert_eq!(settled(120, None), 120);
        assert_eq!(settled(win_in(5), Some(300)), win_in(5));
        assert_eq!(settled(300, Some(-win_in(5))), 300);
    }
}
