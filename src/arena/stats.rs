//! A match's totals: results by seat, the score with its Elo difference
//! and 95% interval, think times and search speed, and the games log.

use super::engine::{GameRecord, GameResult, Seat};
use serde::Serialize;

/// How far past its time per move a move may come before it counts as an
/// overrun in the summary (the strong levels' promise; losing on time is the
/// clock's separate, looser grace).
pub const OVERRUN_MS: f64 = 10.0;

/// One seat's figures over a match.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeatSummary {
    /// The player's name.
    pub name: String,
    /// Its time control, in words.
    pub time: String,
    /// Games it won.
    pub wins: usize,
    /// Games it lost on time.
    pub timeouts: usize,
    /// Games it lost by forfeit other than on time (illegal move, failure).
    pub forfeits: usize,
    /// Mean think time per move, ms.
    pub avg_ms: f64,
    /// Median think time per move, ms.
    pub median_ms: f64,
    /// Longest think, ms.
    pub max_ms: f64,
    /// Moves that came more than [`OVERRUN_MS`] after their time per move
    /// (`None` under a game clock, where there is no time per move).
    pub overruns: Option<usize>,
    /// Search speed, positions per second of thinking.
    pub nodes_per_s: f64,
}

/// An Elo difference with its 95% interval, from a score.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct EloEstimate {
    /// Seat A's rating minus seat B's.
    pub diff: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// A whole match, as printed with `--json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchSummary {
    /// The game id.
    pub game: String,
    /// Games played.
    pub games: usize,
    /// The match seed.
    pub seed: u64,
    /// Seat A.
    pub a: SeatSummary,
    /// Seat B.
    pub b: SeatSummary,
    /// Games drawn, capped ones included.
    pub draws: usize,
    /// Games stopped at the ply cap.
    pub capped: usize,
    /// A's points (a win 1, a draw ½) over the games.
    pub a_score: f64,
    /// The Elo difference the score implies, where it is finite.
    pub elo: Option<EloEstimate>,
    /// A's mean final margin (Reversi's discs, A's minus B's) over the
    /// games that ended on the board, for a game that has one.
    pub a_margin: Option<f64>,
}

/// What a summary needs to know about each seat besides its games.
pub struct SeatSetup {
    /// The player's name.
    pub name: String,
    /// Its time control, in words.
    pub time: String,
    /// Its time per move in ms, for counting overruns (`None` under a clock).
    pub per_move_ms: Option<f64>,
}

/// Sums up the records of a match.
pub fn summarise(
    game: &str,
    seed: u64,
    seats: [SeatSetup; 2],
    records: &[GameRecord],
) -> MatchSummary {
    let [a, b] = seats.map(|setup| setup);
    let a_summary = seat_summary(Seat::A, a, records);
    let b_summary = seat_summary(Seat::B, b, records);
    let draws = records
        .iter()
        .filter(|r| r.result == GameResult::Draw)
        .count();
    let points: Vec<f64> = records.iter().map(|r| points_of(Seat::A, r)).collect();
    let a_score = if points.is_empty() {
        0.0
    } else {
        points.iter().sum::<f64>() / points.len() as f64
    };
    MatchSummary {
        game: game.to_string(),
        games: records.len(),
        seed,
        a: a_summary,
        b: b_summary,
        draws,
        capped: records.iter().filter(|r| r.capped).count(),
        a_score: round(a_score, 4),
        elo: elo_estimate(&points),
        a_margin: mean_margin(records),
    }
}

/// Seat A's mean margin over the games that have one.
fn mean_margin(records: &[GameRecord]) -> Option<f64> {
    let margins: Vec<f64> = records
        .iter()
        .filter_map(|r| r.margin_a)
        .map(|m| m as f64)
        .collect();
    (!margins.is_empty()).then(|| round(mean(&margins), 2))
}

/// A seat's points in one game: 1 for a win, ½ for a draw.
pub fn points_of(seat: Seat, record: &GameRecord) -> f64 {
    match record.result {
        GameResult::Win(winner) if winner == seat => 1.0,
        GameResult::Win(_) => 0.0,
        GameResult::Draw | GameResult::Score(_) => 0.5,
    }
}

fn seat_summary(seat: Seat, setup: SeatSetup, records: &[GameRecord]) -> SeatSummary {
    let i = seat.index();
    let thinks: Vec<f64> = records
        .iter()
        .flat_map(|r| r.think_ms[i].iter().copied())
        .collect();
    let total_ms: f64 = thinks.iter().sum();
    let nodes: u64 = records.iter().map(|r| r.nodes[i]).sum();
    let lost_by_forfeit = |on_time: bool| {
        records
            .iter()
            .filter(|r| r.forfeit == Some(seat) && r.on_time == on_time)
            .count()
    };
    SeatSummary {
        name: setup.name,
        time: setup.time,
        wins: records
            .iter()
            .filter(|r| r.result == GameResult::Win(seat))
            .count(),
        timeouts: lost_by_forfeit(true),
        forfeits: lost_by_forfeit(false),
        avg_ms: round(mean(&thinks), 2),
        median_ms: round(median(&thinks), 2),
        max_ms: round(thinks.iter().copied().fold(0.0, f64::max), 2),
        overruns: setup
            .per_move_ms
            .map(|budget| thinks.iter().filter(|&&t| t > budget + OVERRUN_MS).count()),
        nodes_per_s: if total_ms > 0.0 {
            (nodes as f64 / (total_ms / 1000.0)).round()
        } else {
            0.0
        },
    }
}

/// The Elo difference implied by per-game points, with a 95% interval from
/// the points' standard error; `None` when the score is 0 or 1 (no finite
/// difference) or there are no games.
pub fn elo_estimate(points: &[f64]) -> Option<EloEstimate> {
    let n = points.len() as f64;
    if points.is_empty() {
        return None;
    }
    let score = points.iter().sum::<f64>() / n;
    let variance = points.iter().map(|p| (p - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    let elo = |p: f64| (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10());
    Some(EloEstimate {
        diff: round(elo(score)?, 1),
        low: round(elo((score - margin).max(1e-6))?, 1),
        high: round(elo((score + margin).min(1.0 - 1e-6))?, 1),
    })
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The median (0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_takes_the_middle_or_the_mean_of_the_two_middles() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[5.0, 1.0, 9.0]), 5.0);
        assert_eq!(median(&[4.0, 1.0, 9.0, 2.0]), 3.0);
    }

    #[test]
    fn an_even_score_is_zero_elo_and_three_quarters_is_about_191() {
        let even = elo_estimate(&[1.0, 0.0, 0.5, 0.5]).unwrap();
        assert_eq!(even.diff, 0.0);
        assert!(even.low < 0.0 && even.high > 0.0);
        let points: Vec<f64> = (0..100)
            .map(|i| if i % 4 == 0 { 0.0 } else { 1.0 })
            .collect();
        let three_quarters = elo_estimate(&points).unwrap();
        assert!(
            (three_quarters.diff - 190.8).abs() < 0.2,
            "{three_quarters:?}"
        );
        assert!(three_quarters.low < 190.8 && three_quarters.high > 190.8);
        assert_eq!(elo_estimate(&[1.0, 1.0]), None);
    }
}
