//! Number Crush: a one-player match-3 puzzle on a 10×10 board of digits
//! (rules: `docs/rules/crush.md`). A swap of two neighbours settles the board —
//! runs of 3+ equal digits score their length squared, vanish, the columns
//! fall and TinyMT32 refills the gaps — and a game is 100 swaps.
//!
//! - [`board`]: the board, settling, runs and refills.
//! - [`state`]: the validated state and its JSON form.
//! - [`notation`]: the swap type, `2122`, JSON objects, every swap there is.
//! - [`bots`]: `random`, `greedy` and `strong` (sampled futures; see
//!   `docs/crush-strong.md`).
//! - [`rng`]: TinyMT32 with the course's parameters; [`columns`]: the
//!   column store the bots' simulations use.
//!
//! The generator's four state words travel in the JSON state, so the service
//! stays stateless. Bots see only the board and `k` (see [`bots`]), never the
//! generator.
//!
//! Decisions where the rules leave room:
//! - A state is refused (`invalid_state`, with a pointer) when its board still
//!   has a run (every reachable board is settled), or when `rng` is TinyMT32's
//!   all-zero state (up to the unused top bit of word 0): from there the
//!   generator yields only zeros, every refill would be a 1 and settling would
//!   never end; `tinymt32_init` never produces it. As a last guard settling
//!   stops after [`board::MAX_CASCADES`] steps, which no fair generator reaches.
//! - A swap is stored with its smaller cell first: `2221` is accepted and
//!   echoed as `2122`. The object form takes `"a"`/`"b"` as two-digit strings
//!   or numbers 0..=99; a bad swap is `illegal_move` saying why (not four
//!   digits, off the board, same cell, not adjacent).
//! - `new` without a seed uses seed 0 (the course's); `preset` cannot be
//!   combined with `k` or `seed`.
//! - `describe_move` (the `effects` of `play` and `bot-move`) lists every
//!   cascade step's runs with their cells as they were at that step.

pub mod board;
pub mod bots;
pub mod columns;
pub mod notation;
pub mod rng;
pub mod state;

#[cfg(test)]
mod tests;

use crate::game::{
    Analysis, BotChoice, BotParams, Bots, Budget, Codec, GameError, GameInfo, Ladder, LevelSpec,
    NoOptions, OptionInfo, Outcome, Referee, Rules, Rung, Scope, Side,
};
use board::{Board, GameRefill, CELLS, SIDE};
use notation::{Swap, ALL_SWAPS};
use rng::TinyMt32;
use serde_json::{json, Value};
pub use state::{State, SWAPS_PER_GAME};

/// The course's hand-typed starting board (k = 4, seed 0), embedded so the
/// binary never reads files at run time.
const COURSE_BOARD: &str = include_str!("course-board.json");

/// The game type registered as `crush`.
pub struct Crush;

/// How a game of Number Crush ends.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "CrushTermination")]
pub enum CrushTermination {
    /// Every swap of the game has been played; the points scored are final.
    SwapsUsed,
}

/// One settling step as [`Crush::describe_swap`] reports it: the runs removed
/// at once and the points they scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CascadeStep {
    /// The runs removed in this step (cells as indices on the board of that moment).
    pub runs: Vec<board::Run>,
    /// Their points together.
    pub points: u32,
}

impl Crush {
    /// A new game of `k` digits: the board filled row by row from TinyMT32
    /// seeded with `seed`, then settled once without scoring.
    pub fn new_seeded(k: u8, seed: u32) -> State {
        let mut rng = TinyMt32::for_game(seed);
        let mut refill = GameRefill { rng: &mut rng, k };
        let mut board = Board::filled(&mut refill);
        board.settle_quiet(&mut refill);
        State {
            k,
            board,
            rng,
            swaps_left: SWAPS_PER_GAME,
            score: 0,
        }
    }

    /// The position a line-protocol program is given ([`Referee::program_line`]:
    /// `K BOARD`, the 100 digits row by row), with `swaps_left` swaps to
    /// play, as the program sees it: it never sees the generator (a
    /// placeholder one stands in) or the score.
    pub fn from_program_line(line: &str, swaps_left: u8) -> Result<State, GameError> {
        let bad = |detail: String| GameError::invalid_state(detail);
        let mut words = line.split_whitespace();
        let (Some(k), Some(digits), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad(format!(
                "expected `K BOARD` (k, a space, then the 100 digits row by row), got {:?}",
                line.chars().take(40).collect::<String>()
            )));
        };
        let k = match k.parse::<u8>() {
            Ok(k) if (4..=7).contains(&k) => k,
            _ => return Err(bad(format!("k is '{k}': expected 4 to 7"))),
        };
        if digits.len() != CELLS || !digits.is_ascii() {
            return Err(bad(format!(
                "the board has {} characters: expected {CELLS} digits",
                digits.chars().count()
            )));
        }
        let rows: Vec<String> = (0..SIDE)
            .map(|row| digits[row * SIDE..(row + 1) * SIDE].to_string())
            .collect();
        let board = state::parse_board(&rows, k)?;
        state::check_settled(&board)?;
        Ok(State {
            k,
            board,
            rng: TinyMt32::for_game(0),
            swaps_left: swaps_left.clamp(1, SWAPS_PER_GAME),
            score: 0,
        })
    }

    /// The course's game: its hand-typed board, k = 4, TinyMT32 seed 0.
    pub fn new_course() -> State {
        let data: Value =
            serde_json::from_str(COURSE_BOARD).expect("embedded course board is JSON");
        let rows: Vec<String> = data["board"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| r.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let board = state::parse_board(&rows, 4).expect("embedded course board is a settled board");
        State {
            k: 4,
            board,
            rng: TinyMt32::for_game(0),
            swaps_left: SWAPS_PER_GAME,
            score: 0,
        }
    }

    /// Plays `swap` and returns the new state with the settling steps it caused.
    pub fn play_swap(state: &State, swap: Swap) -> (State, Vec<CascadeStep>) {
        let mut after = state.clone();
        let mut steps = Vec::new();
        let mut refill = GameRefill {
            rng: &mut after.rng,
            k: state.k,
        };
        let gained = after
            .board
            .swap_and_settle(swap.a(), swap.b(), &mut refill, |runs| {
                steps.push(CascadeStep {
                    runs: runs.as_slice().to_vec(),
                    points: runs.points(),
                })
            });
        after.score += i64::from(gained);
        after.swaps_left = after.swaps_left.saturating_sub(1);
        (after, steps)
    }

    /// The effects object of a swap: every cascade step's runs (cells,
    /// length, points) and points, and the total gained.
    pub fn describe_swap(state: &State, swap: Swap) -> Value {
        let (after, steps) = Self::play_swap(state, swap);
        let steps_json: Vec<Value> = steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                json!({
                    "step": i + 1,
                    "runs": step.runs.iter().map(run_json).collect::<Vec<_>>(),
                    "points": step.points,
                })
            })
            .collect();
        let eliminated: usize = steps
            .iter()
            .flat_map(|s| s.runs.iter())
            .map(|r| usize::from(r.len))
            .sum();
        json!({
            "steps": steps_json,
            "cascades": steps.len(),
            "runs_removed": steps.iter().map(|s| s.runs.len()).sum::<usize>(),
            "gained": after.score - state.score,
            "score": after.score,
            "cells_in_runs": eliminated,
        })
    }
}

fn run_json(run: &board::Run) -> Value {
    json!({
        "cells": run.cells().map(|i| format!("{:02}", i)).collect::<Vec<_>>(),
        "length": run.len,
        "direction": if run.horizontal { "row" } else { "column" },
        "points": run.points(),
    })
}

/// The options of a new game: `k` and `seed` for a random board, or
/// `preset: "course"` for the course's game.
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CrushNewOptions")]
pub struct CrushNew {
    /// Digits on the board, 4 to 7 (default 4).
    #[schemars(range(min = 4, max = 7))]
    pub k: Option<u8>,
    /// The generator's seed (default 0).
    pub seed: Option<u32>,
    /// `"course"`: the course's hand-typed board, k 4, seed 0.
    #[schemars(extend("enum" = ["course", null]))]
    pub preset: Option<String>,
}

crate::declare_levels! {
    /// The bot levels of Crush.
    pub enum CrushLevel {
        Random = "random": "any valid swap, chosen at random (seeded)",
        Greedy = "greedy": "the swap that scores most from what is visible now (ties by position)",
        Strong = "strong": "weighs each swap by the points of sampled futures (the swap on sampled refills, then two greedy swaps) plus the best visible gain they leave (option depth=1..8: the swaps a future plays, default 3)",
    }
}

impl Rules for Crush {
    type State = State;
    type Move = Swap;
    type Termination = CrushTermination;

    fn to_move(_state: &State) -> Side {
        Side::First
    }

    fn legal_moves(state: &State, out: &mut Vec<Swap>) {
        if state.swaps_left > 0 {
            out.extend_from_slice(&ALL_SWAPS);
        }
    }

    fn apply(state: &State, mv: &Swap) -> State {
        Self::play_swap(state, *mv).0
    }

    fn outcome(state: &State) -> Outcome<CrushTermination> {
        if state.swaps_left == 0 {
            Outcome::Finished {
                termination: CrushTermination::SwapsUsed,
                points: state.score,
            }
        } else {
            Outcome::Ongoing
        }
    }
}

impl Bots for Crush {
    const REVIEW_NOISE: Option<&'static str> =
        Some(include_str!("../../../data/review/crush.json"));

    type Level = CrushLevel;

    type BotOptions = NoOptions;

    const DEFAULT_LEVEL: CrushLevel = CrushLevel::Strong;

    /// `greedy` takes the first best swap in the order `legal-moves` lists.
    fn breaks_ties_in_given_order(level: CrushLevel) -> bool {
        level == CrushLevel::Greedy
    }

    fn choose_move(
        state: &State,
        level: &LevelSpec<CrushLevel>,
        params: &BotParams,
        budget: &Budget,
    ) -> Result<BotChoice<Swap>, GameError> {
        bots::choose(&bots::View::of(state), level, params, budget)
    }

    fn analyze_scope(
        state: &State,
        scope: &Scope<Swap>,
        params: &BotParams,
        budget: &Budget,
    ) -> Result<Analysis<Swap>, GameError> {
        Ok(bots::analyze(&bots::View::of(state), scope, params, budget))
    }
}

impl Ladder for Crush {
    // Scores are points. The top is `strong` under a node cap, not at the
    // default time: 5,700 and 40,000 positions a swap score the same
    // (docs/crush-strong.md), and a cap keeps every level load-independent.
    // Levels 1-3 play a one-swap lookahead, from any matching swap alike
    // to nearly always the best-looking one.
    const LADDER: &'static [Rung] = &[
        Rung::sampled(1, 400, 1_000_000.0),
        Rung::sampled(1, 400, 20.0),
        Rung::sampled(1, 400, 4.0),
        Rung::capped(5_700, &[]),
    ];
    const LADDER_VARIANTS: &'static [&'static str] =
        &[r#"{"k":4}"#, r#"{"k":5}"#, r#"{"k":6}"#, r#"{"k":7}"#];
    const LADDER_RATINGS: Option<&'static str> =
        Some(include_str!("../../../data/ladder/crush.json"));
}

impl Codec for Crush {
    type NewOptions = CrushNew;
    type StateJson = state::StateJson;
    type MoveJson = notation::MoveJson;

    fn info() -> GameInfo {
        GameInfo {
            id: "crush",
            name: "Number Crush",
            players: 1,
            sides: &["player"],
            score_counts: "points scored",
            new_options: &[
                OptionInfo {
                    name: "k",
                    description: "number of digits, 4..=7 (default 4)",
                },
                OptionInfo {
                    name: "seed",
                    description: "TinyMT32 seed, 0..=4294967295 (default 0)",
                },
                OptionInfo {
                    name: "preset",
                    description: "\"course\": the course's hand-typed board with k 4 and seed 0 (not with k or seed)",
                },
            ],
            score_unit: "points the swap is expected to gain",
            text_forms: &[],
            rules: include_str!("../../../docs/rules/crush.md"),
        }
    }

    fn new_game(options: CrushNew) -> Result<State, GameError> {
        if let Some(preset) = options.preset {
            if preset != "course" {
                return Err(GameError::invalid_option_at(
                    "/preset",
                    format!("option 'preset' must be \"course\", got \"{preset}\""),
                ));
            }
            if let Some(key) = [("k", options.k.is_some()), ("seed", options.seed.is_some())]
                .into_iter()
                .find_map(|(key, given)| given.then_some(key))
            {
                return Err(GameError::invalid_option_at(
                    format!("/{key}"),
                    format!("option '{key}' cannot be combined with 'preset' (the course game is k 4, seed 0)"),
                ));
            }
            return Ok(Crush::new_course());
        }
        let k = match options.k {
            None => 4,
            Some(k) if (4..=7).contains(&k) => k,
            Some(k) => {
                return Err(GameError::invalid_option_at(
                    "/k",
                    format!("option 'k' must be 4, 5, 6 or 7, got {k}"),
                ))
            }
        };
        Ok(Crush::new_seeded(k, options.seed.unwrap_or(0)))
    }

    fn decode_state(value: &Value) -> Result<State, GameError> {
        State::from_json(value)
    }

    fn encode_state(state: &State) -> Value {
        state.to_json()
    }

    fn notation(_state: &State, mv: &Swap) -> String {
        mv.notation()
    }

    fn move_to_json(_state: &State, mv: &Swap) -> Value {
        mv.to_json()
    }

    fn parse_move(state: &State, value: &Value) -> Result<Swap, GameError> {
        if state.swaps_left == 0 {
            return Err(GameError::game_over());
        }
        Swap::from_json(value)
    }

    fn describe_move(state: &State, mv: &Swap) -> Option<Value> {
        Some(Self::describe_swap(state, *mv))
    }
}

impl Referee for Crush {
    /// The course's `ai_player(K, board)` as a process: `K` and the 100
    /// digits row by row, e.g. `4 1234…`.
    fn program_line(state: &State) -> Option<String> {
        let digits: String = (0..SIDE).map(|row| state.board.row_text(row)).collect();
        Some(format!("{} {digits}", state.k))
    }

    /// A swap as the course's programs print it: `0102`, or `102` without
    /// its leading zero.
    fn read_program_line(state: &State, line: &str) -> Result<Swap, GameError> {
        if state.swaps_left == 0 {
            return Err(GameError::game_over());
        }
        notation::swap_from_word(line.trim())
    }

    fn margin(state: &State) -> Option<i64> {
        Some(state.score)
    }

    /// The board of generator seed `seed` (and the options' `k`); the
    /// options may not fix a seed or the course's preset of their own.
    fn seeded_game(options: CrushNew, seed: u64) -> Result<State, GameError> {
        if let Some((key, _)) = [
            ("seed", options.seed.is_some()),
            ("preset", options.preset.is_some()),
        ]
        .into_iter()
        .find(|(_, given)| *given)
        {
            return Err(GameError::invalid_option_at(
                format!("/{key}"),
                format!(
                    "option '{key}' is set by the match: each game draws the board of its own seed"
                ),
            ));
        }
        let seed = u32::try_from(seed).map_err(|_| {
            GameError::invalid_option(format!("game seed {seed} is above the generator's 32 bits"))
        })?;
        Crush::new_game(CrushNew {
            seed: Some(seed),
            ..options
        })
    }
}

/// The board as text, 10 lines of 10 digits (row 0 first).
pub fn board_text(board: &Board) -> String {
    (0..SIDE).map(|r| board.row_text(r) + "\n").collect()
}
