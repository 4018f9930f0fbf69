//! How long the exact solver takes, measured rather than guessed: the
//! research command `reversi_solve_costs` solves held-out self-play
//! positions at each number of empties and writes the times it saw
//! (`solve_costs.json`, shipped in the binary). The engine's time manager
//! reads a solve's likely cost from it and starts the solve as soon as
//! that fits in the move's planned time.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Solve times at one number of empties.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveCostRow {
    /// Empty squares of the positions.
    pub empties: u32,
    /// Positions solved.
    pub positions: usize,
    /// The median solve, in milliseconds.
    pub median_ms: f64,
    /// The solve that nine in ten stayed within, in milliseconds.
    pub p90_ms: f64,
    /// The longest solve, in milliseconds.
    pub max_ms: f64,
}

/// The measured solve times and the machine's speed when they were taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveCosts {
    /// The command that measured them.
    pub command: String,
    /// One row per number of empties, ascending and without gaps.
    pub rows: Vec<SolveCostRow>,
}

impl SolveCosts {
    /// Reads and checks a file as the research command writes it.
    pub fn parse(text: &str) -> Result<SolveCosts, String> {
        let costs: SolveCosts = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if costs.rows.len() < 3 {
            return Err("at least three rows are needed to extrapolate".into());
        }
        for (i, row) in costs.rows.iter().enumerate() {
            let times = [row.median_ms, row.p90_ms, row.max_ms];
            let sane = times.iter().all(|t| t.is_finite() && *t > 0.0)
                && row.median_ms <= row.p90_ms
                && row.p90_ms <= row.max_ms
                && row.positions > 0;
            if !sane {
                return Err(format!(
                    "row {i} ({} empties) is not a cost: {row:?}",
                    row.empties
                ));
            }
            if i > 0 && row.empties != costs.rows[i - 1].empties + 1 {
                return Err(format!(
                    "row {i}: {} empties does not follow row {}",
                    row.empties,
                    i - 1
                ));
            }
        }
        Ok(costs)
    }

    /// The time a solve of a position with `empties` empties takes nine
    /// times in ten, in milliseconds, on the measuring machine. Past the
    /// rows, the last rows' growth per empty carries on.
    pub fn likely_most_ms(&self, empties: u32) -> f64 {
        let first = &self.rows[0];
        let last = &self.rows[self.rows.len() - 1];
        if empties <= first.empties {
            first.p90_ms
        } else if empties <= last.empties {
            self.rows[(empties - first.empties) as usize].p90_ms
        } else {
            last.p90_ms * self.growth().powi((empties - last.empties) as i32)
        }
    }

    /// The nine-in-ten time's growth per empty over the last two rows.
    fn growth(&self) -> f64 {
        let n = self.rows.len();
        (self.rows[n - 1].p90_ms / self.rows[n - 3].p90_ms)
            .sqrt()
            .max(1.0)
    }
}

/// The shipped measurements (`solve_costs.json`).
static SHIPPED: &str = include_str!("solve_costs.json");

/// The shipped solve costs, read once.
pub fn shipped() -> &'static SolveCosts {
    static COSTS: OnceLock<SolveCosts> = OnceLock::new();
    COSTS.get_or_init(|| SolveCosts::parse(SHIPPED).expect("the shipped solve_costs.json is valid"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costs() -> SolveCosts {
        SolveCosts {
            command: "test".into(),
            rows: (14..=18)
                .map(|e| {
                    let ms = 2.0 * 3f64.powi(e as i32 - 14);
                    SolveCostRow {
                        empties: e,
                        positions: 10,
                        median_ms: ms / 2.0,
                        p90_ms: ms,
                        max_ms: 2.0 * ms,
                    }
                })
                .collect(),
        }
    }

    #[test]
    fn the_shipped_costs_read_and_grow_with_the_empties() {
        let costs = shipped();
        let times: Vec<f64> = (10..=34).map(|e| costs.likely_most_ms(e)).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
        assert!(times[34 - 10] > 100.0 * times[16 - 10], "{times:?}");
    }

    #[test]
    fn rows_are_read_inside_and_extrapolated_past_the_table() {
        let costs = costs();
        assert_eq!(costs.likely_most_ms(10), 2.0);
        assert_eq!(costs.likely_most_ms(16), 18.0);
        let past = costs.likely_most_ms(20);
        assert!((past - 162.0 * 9.0).abs() < 1e-6, "{past}");
    }

    #[test]
    fn a_file_with_gaps_or_impossible_times_is_refused() {
        let mut gap = costs();
        gap.rows.remove(2);
        let text = serde_json::to_string(&gap).unwrap();
        assert!(SolveCosts::parse(&text)
            .unwrap_err()
            .contains("does not follow"));
        let mut upside_down = costs();
        upside_down.rows[1].median_ms = 100.0;
        let text = serde_json::to_string(&upside_down).unwrap();
        assert!(SolveCosts::parse(&text).unwrap_err().contains("not a cost"));
        let good = serde_json::to_string(&costs()).unwrap();
        assert_eq!(SolveCosts::parse(&good).unwrap(), costs());
    }
}
