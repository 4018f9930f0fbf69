//! Multi-ProbCut (Buro's selective search): a midgame node at depth `d`
//! is first searched at a shallow depth `d'`; since the deep score is close
//! to a straight line of the shallow one (`deep ≈ slope · shallow +
//! intercept`, with a residual of standard deviation `sigma`), a shallow
//! score far enough beyond the window says how the deep search would end,
//! and the node is cut without it. How far is "far enough" is the level's
//! confidence `t`: the cut is taken when the line's prediction clears the
//! window by `t · sigma`.
//!
//! The line and its error are fitted per depth pair and game phase from
//! gamebot's own searches by the research command `reversi_probcut`
//! (`research/src/bin/reversi_probcut.rs`) and shipped beside the pattern
//! weights (`probcut.json`).
//!
//! The endgame has lines of its own ([`EndFit`]): near the end the deep
//! search is the exact solve, so what a shallow score predicts there is
//! the final disc difference. The solver's selective passes cut by them
//! before it proves a root of many empties (an estimate of the exact
//! score, far cheaper than the proof, that leaves the table its best
//! moves); the proof itself never cuts, so a proven score stays proven.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The shallowest depth at which a node is probed.
pub const MIN_DEPTH: u32 = 3;
/// The deepest midgame depth the engine looks up (its deepest iteration).
const MAX_DEPTH: usize = 60;

/// The shallow depth paired with a search `depth` (at least [`MIN_DEPTH`]):
/// about half of it, with the same parity, since the evaluation swings
/// between odd and even depths.
pub const fn shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    if half % 2 == depth % 2 {
        half
    } else if half > 1 {
        half - 1
    } else {
        1
    }
}

/// One fitted line: how a `depth`-ply score follows the `shallow`-ply
/// score of the same position, in one phase of the game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutFit {
    /// The deep search's depth.
    pub depth: u32,
    /// The shallow search's depth ([`shallow_depth`] of `depth`).
    pub shallow: u32,
    /// The fewest empty squares of the phase.
    pub min_empties: u32,
    /// The most empty squares of the phase.
    pub max_empties: u32,
    /// The line's slope.
    pub slope: f64,
    /// The line's intercept, in hundredths of a disc.
    pub intercept: f64,
    /// The residuals' standard deviation, in hundredths of a disc.
    pub sigma: f64,
    /// Positions the line was fitted on.
    pub samples: usize,
}

/// The fewest empty squares at which the endgame's lines are used: below
/// it the exact solve is cheap enough to run as it is.
pub const END_MIN_EMPTIES: u32 = 12;

/// The shallow depth that predicts an exact score with `empties` empty
/// squares: deeper as the solve it spares grows, even (the evaluation
/// swings between odd and even depths, and an even depth ends on the
/// mover's own reply).
pub const fn end_shallow_depth(empties: u32) -> u32 {
    if empties < 16 {
        2
    } else if empties < 20 {
        4
    } else {
        6
    }
}

/// One fitted line of the endgame: how the exact final disc difference
/// (in hundredths) follows the `shallow`-ply score of the same position,
/// for positions with `min_empties..=max_empties` empty squares.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndFit {
    /// The shallow search's depth ([`end_shallow_depth`] of the range).
    pub shallow: u32,
    /// The fewest empty squares of the range.
    pub min_empties: u32,
    /// The most empty squares of the range.
    pub max_empties: u32,
    /// The line's slope.
    pub slope: f64,
    /// The line's intercept, in hundredths of a disc.
    pub intercept: f64,
    /// The residuals' standard deviation, in hundredths of a disc.
    pub sigma: f64,
    /// Positions the line was fitted on.
    pub samples: usize,
}

/// The file the research command writes: the fitted lines and how they
/// were made.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutFile {
    /// The command that wrote the midgame's lines.
    pub command: String,
    /// Positions searched for the midgame's lines.
    pub positions: usize,
    /// The midgame's lines, one per depth pair and phase.
    pub fits: Vec<CutFit>,
    /// The command that wrote the endgame's lines.
    #[serde(default)]
    pub endgame_command: String,
    /// Positions solved for the endgame's lines.
    #[serde(default)]
    pub endgame_positions: usize,
    /// The endgame's lines, one per range of empties.
    #[serde(default)]
    pub endgame: Vec<EndFit>,
}

impl CutFile {
    /// Reads a file, checking that every line can be used.
    pub fn parse(text: &str) -> Result<CutFile, String> {
        let file: CutFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for fit in &file.fits {
            let sane = fit.depth >= MIN_DEPTH
                && fit.shallow == shallow_depth(fit.depth)
                && fit.min_empties <= fit.max_empties
                && fit.slope.is_finite()
                && fit.slope > 0.0
                && fit.intercept.is_finite()
                && fit.sigma.is_finite()
                && fit.sigma > 0.0;
            if !sane {
                return Err(format!("unusable fit {fit:?}"));
            }
        }
        for fit in &file.endgame {
            let sane = fit.min_empties >= END_MIN_EMPTIES
                && fit.min_empties <= fit.max_empties
                && (fit.min_empties..=fit.max_empties).all(|e| end_shallow_depth(e) == fit.shallow)
                && fit.slope.is_finite()
                && fit.slope > 0.0
                && fit.intercept.is_finite()
                && fit.sigma.is_finite()
                && fit.sigma > 0.0;
            if !sane {
                return Err(format!("unusable endgame fit {fit:?}"));
            }
        }
        Ok(file)
    }
}

/// The cut test for one node: its shallow depth and the line's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// The depth of the probe search.
    pub shallow: u32,
    /// The line's slope.
    pub slope: f64,
    /// The line's intercept.
    pub intercept: f64,
    /// The residuals' standard deviation.
    pub sigma: f64,
}

impl Cut {
    /// The probe score at or above which the deep score is taken to reach
    /// `beta`, with confidence `t`.
    pub fn high_bound(&self, beta: i32, t: f64) -> i32 {
        ((f64::from(beta) - self.intercept + t * self.sigma) / self.slope).ceil() as i32
    }

    /// The probe score at or below which the deep score is taken to stay
    /// at or below `alpha`, with confidence `t`.
    pub fn low_bound(&self, alpha: i32, t: f64) -> i32 {
        ((f64::from(alpha) - self.intercept - t * self.sigma) / self.slope).floor() as i32
    }
}

/// Every node's cut test, by depth and empties, looked up without search.
pub struct Cuts {
    table: Vec<[Option<Cut>; 65]>,
    end: [Option<Cut>; 65],
}

impl Cuts {
    /// The tests of `file`. A depth deeper than any fitted uses the deepest
    /// fitted line of the same parity (its shallow depth still half of it).
    pub fn of(file: &CutFile) -> Cuts {
        let mut table = vec![[None; 65]; MAX_DEPTH + 1];
        for (depth, row) in table.iter_mut().enumerate().skip(MIN_DEPTH as usize) {
            let depth = depth as u32;
            let fitted = file
                .fits
                .iter()
                .filter(|f| f.depth <= depth && f.depth % 2 == depth % 2)
                .map(|f| f.depth)
                .max();
            let Some(fitted) = fitted else {
                continue;
            };
            for (empties, cell) in row.iter_mut().enumerate() {
                let empties = empties as u32;
                *cell = file
                    .fits
                    .iter()
                    .find(|f| {
                        f.depth == fitted && (f.min_empties..=f.max_empties).contains(&empties)
                    })
                    .map(|f| Cut {
                        shallow: shallow_depth(depth),
                        slope: f.slope,
                        intercept: f.intercept,
                        sigma: f.sigma,
                    });
            }
        }
        Cuts {
            table,
            end: end_cuts(&file.endgame),
        }
    }

    /// The test for a node `depth` plies deep with `empties` empty squares.
    pub fn at(&self, depth: u32, empties: u32) -> Option<Cut> {
        *self.table.get(depth as usize)?.get(empties as usize)?
    }

    /// The test for an endgame node with `empties` empty squares, whose
    /// deep score is the exact one (in hundredths of a disc).
    pub fn at_end(&self, empties: u32) -> Option<Cut> {
        *self.end.get(empties as usize)?
    }
}

/// The endgame's tests by empties. Past the most empties fitted, the
/// widest fitted range's line stands in, with its own shallow depth (a
/// deeper probe than its rule would only be more accurate).
fn end_cuts(fits: &[EndFit]) -> [Option<Cut>; 65] {
    let mut end = [None; 65];
    let widest = fits.iter().max_by_key(|f| f.max_empties);
    for (empties, cell) in end.iter_mut().enumerate() {
        let empties = empties as u32;
        if empties < END_MIN_EMPTIES {
            continue;
        }
        let fit = fits
            .iter()
            .find(|f| (f.min_empties..=f.max_empties).contains(&empties))
            .or(widest.filter(|f| empties > f.max_empties));
        *cell = fit.map(|f| Cut {
            shallow: f.shallow,
            slope: f.slope,
            intercept: f.intercept,
            sigma: f.sigma,
        });
    }
    end
}

/// The shipped lines (`probcut.json`), fitted by `reversi_probcut`.
static SHIPPED: &str = include_str!("probcut.json");

/// The shipped cut tests, read once.
pub fn shipped() -> &'static Cuts {
    static CUTS: OnceLock<Cuts> = OnceLock::new();
    CUTS.get_or_init(|| {
        Cuts::of(&CutFile::parse(SHIPPED).expect("the shipped probcut.json is valid"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shallow_depth_is_about_half_with_the_same_parity() {
        for depth in MIN_DEPTH..=60 {
            let shallow = shallow_depth(depth);
            assert!(shallow >= 1 && shallow < depth, "{depth} -> {shallow}");
            assert_eq!(shallow % 2, depth % 2, "{depth} -> {shallow}");
            assert!(shallow + 2 >= depth / 2, "{depth} -> {shallow}");
        }
        assert_eq!(shallow_depth(3), 1);
        assert_eq!(shallow_depth(4), 2);
        assert_eq!(shallow_depth(8), 4);
        assert_eq!(shallow_depth(9), 3);
    }

    #[test]
    fn the_shipped_lines_cover_every_probed_depth_and_phase() {
        let file = CutFile::parse(SHIPPED).unwrap();
        assert!(file.positions > 0);
        let cuts = shipped();
        for depth in MIN_DEPTH..=20 {
            for empties in 14..=58 {
                let cut = cuts
                    .at(depth, empties)
                    .unwrap_or_else(|| panic!("no cut at depth {depth} with {empties} empties"));
                assert_eq!(cut.shallow, shallow_depth(depth));
                assert!((0.5..=1.5).contains(&cut.slope), "{cut:?}");
                assert!((10.0..=2000.0).contains(&cut.sigma), "{cut:?}");
            }
        }
        assert_eq!(cuts.at(2, 30), None);
        assert_eq!(cuts.at(61, 30), None);
    }

    #[test]
    fn the_bounds_widen_with_confidence_and_bracket_the_window() {
        let cut = Cut {
            shallow: 2,
            slope: 1.0,
            intercept: 0.0,
            sigma: 100.0,
        };
        assert_eq!(cut.high_bound(50, 1.5), 200);
        assert_eq!(cut.low_bound(49, 1.5), -101);
        assert!(cut.high_bound(50, 2.0) > cut.high_bound(50, 1.0));
        assert!(cut.low_bound(49, 2.0) < cut.low_bound(49, 1.0));
    }

    #[test]
    fn a_file_with_an_unusable_line_is_refused() {
        let fit = CutFit {
            depth: 8,
            shallow: 4,
            min_empties: 14,
            max_empties: 60,
            slope: 1.0,
            intercept: 0.0,
            sigma: 100.0,
            samples: 10,
        };
        let write = |fit: CutFit| {
            serde_json::to_string(&CutFile {
                command: "test".to_string(),
                positions: 10,
                fits: vec![fit],
                endgame_command: String::new(),
                endgame_positions: 0,
                endgame: Vec::new(),
            })
            .unwrap()
        };
        assert!(CutFile::parse(&write(fit)).is_ok());
        for bad in [
            CutFit { shallow: 3, ..fit },
            CutFit { sigma: 0.0, ..fit },
            CutFit { slope: -1.0, ..fit },
            CutFit { depth: 2, ..fit },
        ] {
            assert!(CutFile::parse(&write(bad)).is_err(), "{bad:?}");
        }
    }
}
