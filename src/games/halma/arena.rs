//! A small release-mode match harness for the strength and clock bars, kept
//! under `#[ignore]` (run with `cargo test --release --lib games::halma::arena
//! -- --ignored --nocapture`). Sizes come from the environment so that runs
//! stay short on a shared machine: `HALMA_GAMES`, `HALMA_CLOCK`, `HALMA_CLOCK2`,
//! `HALMA_POSITIONS`, `HALMA_PLY_CAP`, `HALMA_SEED` (offset of the game seeds), and for `duel` / `debug_trace` the two
//! levels `HALMA_A` and `HALMA_B`. Clocks are charged wall time (stricter than
//! the CPU time the rules measure).

use super::board::{CampRule, HalmaState};
use super::eval::progress;
use super::movegen::generate;
use super::Halma;
use crate::game::{BotParams, Budget, Game, LevelSpec, Player};
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::time::Instant;

/// CPU time of this thread in seconds (Linux), the measure the rules' clocks use.
fn thread_cpu_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One contestant: a level and its game clock in seconds.
#[derive(Clone)]
struct Contestant {
    level: String,
    clock_s: f64,
}

#[derive(Debug, PartialEq)]
enum Ending {
    Won(usize),
    OnTime(usize),
    Capped,
}

struct GameRecord {
    result: Ending,
    plies: usize,
    mean_depth: [f64; 2],
    max_move_s: [f64; 2],
    clock_left: [f64; 2],
}

/// Plays one game from the start; `players[0]` is black (moves first).
fn play(players: &[Contestant; 2], seed: u64, ply_cap: usize) -> GameRecord {
    let mut state = HalmaState::start(Player::First, CampRule::Referee);
    let mut clock = [players[0].clock_s, players[1].clock_s];
    let mut max_move_s = [0.0f64; 2];
    let mut depth_sum = [0u64; 2];
    let mean = |sum: [u64; 2], plies: usize| {
        let per_side = [plies.div_ceil(2), plies / 2].map(|n| n.max(1) as f64);
        [sum[0] as f64 / per_side[0], sum[1] as f64 / per_side[1]]
    };
    for ply in 0..ply_cap {
        if Halma::outcome(&state).is_over() {
            let winner = state.to_move().other().index();
            return GameRecord {
                result: Ending::Won(winner),
                plies: ply,
                mean_depth: mean(depth_sum, ply),
                max_move_s,
                clock_left: clock,
            };
        }
        let side = state.to_move().index();
        let mut params = BotParams::seeded(seed.wrapping_mul(1000).wrapping_add(ply as u64));
        params.extra.insert(
            "clock".into(),
            json!({"mode": "GAME", "time_left_s": clock[side]}),
        );
        let level = LevelSpec::parse(&players[side].level).unwrap();
        let started = Instant::now();
        let choice = Halma::choose_move(&state, &level, &params, &Budget::unlimited()).unwrap();
        let spent = started.elapsed().as_secs_f64();
        max_move_s[side] = max_move_s[side].max(spent);
        depth_sum[side] += u64::from(choice.report.depth.unwrap_or(0));
        clock[side] -= spent;
        if clock[side] <= 0.0 {
            return GameRecord {
                result: Ending::OnTime(1 - side),
                plies: ply,
                mean_depth: mean(depth_sum, ply),
                max_move_s,
                clock_left: clock,
            };
        }
        state = Halma::apply(&state, &choice.mv);
    }
    let result = if Halma::outcome(&state).is_over() {
        Ending::Won(state.to_move().other().index())
    } else {
        println!("capped at:\n{}", state.rows().join("\n"));
        Ending::Capped
    };
    GameRecord {
        result,
        plies: ply_cap,
        mean_depth: mean(depth_sum, ply_cap),
        max_move_s,
        clock_left: clock,
    }
}

/// Plays `games` games between `a` and `b`, alternating colours; returns a's points.
fn match_up(a: &Contestant, b: &Contestant, games: usize) -> f64 {
    let ply_cap = env_or("HALMA_PLY_CAP", 1000usize);
    let mut points = 0.0;
    let mut capped = 0;
    for g in 0..games {
        let a_is_black = g % 2 == 0;
        let players = if a_is_black {
            [a.clone(), b.clone()]
        } else {
            [b.clone(), a.clone()]
        };
        let record = play(&players, env_or("HALMA_SEED", 0u64) + g as u64 + 1, ply_cap);
        let a_side = if a_is_black { 0 } else { 1 };
        let verdict = match record.result {
            Ending::Won(s) | Ending::OnTime(s) if s == a_side => {
                points += 1.0;
                "A wins"
            }
            Ending::Capped => {
                points += 0.5;
                capped += 1;
                "ply cap"
            }
            _ => "B wins",
        };
        println!(
            "game {g}: A={} ({}) {verdict} {:?} after {} plies; mean depth A {:.1} B {:.1}; longest move A {:.3}s B {:.3}s; clock left A {:.2}s B {:.2}s",
            a.level,
            if a_is_black { "black" } else { "white" },
            record.result,
            record.plies,
            record.mean_depth[a_side],
            record.mean_depth[1 - a_side],
            record.max_move_s[a_side],
            record.max_move_s[1 - a_side],
            record.clock_left[a_side],
            record.clock_left[1 - a_side],
        );
    }
    println!("A scored {points}/{games}; {capped} games hit the {ply_cap}-ply cap");
    points
}

#[test]
#[ignore = "strength bar: release mode, minutes"]
fn strong_beats_minimax() {
    let games = env_or("HALMA_GAMES", 4usize);
    let clock = env_or("HALMA_CLOCK", 30.0f64);
    let strong = Contestant {
        level: "strong".into(),
        clock_s: clock,
    };
    let minimax = Contestant {
        level: "minimax".into(),
        clock_s: clock,
    };
    let points = match_up(&strong, &minimax, games);
    assert_eq!(points, games as f64);
}

#[test]
#[ignore = "strength bar: release mode, minutes"]
fn more_time_plays_better() {
    let games = env_or("HALMA_GAMES", 4usize);
    let long = Contestant {
        level: "strong".into(),
        clock_s: env_or("HALMA_CLOCK", 30.0),
    };
    let short = Contestant {
        level: "strong".into(),
        clock_s: env_or("HALMA_CLOCK2", 5.0),
    };
    let points = match_up(&long, &short, games);
    println!("long clock scored {:.0}%", 100.0 * points / games as f64);
}

/// Midgame positions: forward-biased random playouts of 30 to 90 plies.
fn midgame_positions(count: usize) -> Vec<HalmaState> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = HalmaState::start(Player::First, CampRule::Referee);
        let plies = rng.random_range(30..90);
        for _ in 0..plies {
            let mut legal = Vec::new();
            generate(&s, &mut legal);
            if legal.is_empty() {
                break;
            }
            let side = s.to_move();
            legal.sort_by_key(|m| -progress(side, m.from, m.to));
            let pick = legal[rng.random_range(0..legal.len().min(6))];
            s = Halma::apply(&s, &pick);
        }
        if !Halma::outcome(&s).is_over() {
            out.push(s);
        }
    }
    out
}

#[test]
#[ignore = "clock bar: release mode, about 85 s per 100 positions"]
fn single_move_clock_is_kept() {
    let count = env_or("HALMA_POSITIONS", 100usize);
    let level = LevelSpec::parse("strong").unwrap();
    let mut worst = 0.0f64;
    let mut depths = Vec::new();
    for (i, s) in midgame_positions(count).iter().enumerate() {
        let mut params = BotParams::seeded(i as u64);
        params.extra.insert(
            "clock".into(),
            json!({"mode": "SINGLE", "time_left_s": 1.0}),
        );
        let started = Instant::now();
        let choice = Halma::choose_move(s, &level, &params, &Budget::unlimited()).unwrap();
        let spent = started.elapsed().as_secs_f64();
        worst = worst.max(spent);
        depths.push(choice.report.depth.unwrap_or(0));
        assert!(spent < 1.0, "position {i}: {spent:.3}s");
    }
    depths.sort_unstable();
    println!(
        "{count} positions: longest answer {worst:.3}s; median depth {}",
        depths[depths.len() / 2]
    );
}

#[test]
#[ignore = "tuning aid: release mode"]
fn duel() {
    let games = env_or("HALMA_GAMES", 4usize);
    let a = Contestant {
        level: env_or("HALMA_A", "strong".to_string()),
        clock_s: env_or("HALMA_CLOCK", 5.0),
    };
    let b = Contestant {
        level: env_or("HALMA_B", "strong".to_string()),
        clock_s: env_or("HALMA_CLOCK2", 5.0),
    };
    match_up(&a, &b, games);
}

#[test]
#[ignore = "clock bar: release mode"]
fn nearly_flagged_game_clock_is_kept() {
    let level = LevelSpec::parse("strong").unwrap();
    let (mut worst, mut worst_cpu, mut total) = (0.0f64, 0.0f64, 0.0);
    let positions = midgame_positions(env_or("HALMA_POSITIONS", 100usize));
    for (i, s) in positions.iter().enumerate() {
        let mut params = BotParams::seeded(i as u64);
        params
            .extra
            .insert("clock".into(), json!({"mode": "GAME", "time_left_s": 0.01}));
        let (started, cpu) = (Instant::now(), thread_cpu_s());
        Halma::choose_move(s, &level, &params, &Budget::unlimited()).unwrap();
        let spent = started.elapsed().as_secs_f64();
        worst = worst.max(spent);
        worst_cpu = worst_cpu.max(thread_cpu_s() - cpu);
        total += spent;
    }
    println!(
        "GAME clock 0.01 s: longest answer {worst:.4}s wall, {worst_cpu:.4}s CPU; mean {:.4}s wall",
        total / positions.len() as f64
    );
    assert!(worst_cpu < 0.01);
}

#[test]
#[ignore = "debug aid: prints a game's retreats and progress"]
fn debug_trace() {
    let levels = [
        env_or("HALMA_A", "strong:depth=5".to_string()),
        env_or("HALMA_B", "strong:depth=3".to_string()),
    ];
    let mut state = HalmaState::start(Player::First, CampRule::Referee);
    for ply in 0..env_or("HALMA_PLY_CAP", 400usize) {
        if Halma::outcome(&state).is_over() {
            println!("over at ply {ply}");
            return;
        }
        let side = state.to_move();
        let params = BotParams::seeded(1000 + ply as u64);
        let level = LevelSpec::parse(&levels[side.index()]).unwrap();
        let choice = Halma::choose_move(&state, &level, &params, &Budget::unlimited()).unwrap();
        let p = progress(side, choice.mv.from, choice.mv.to);
        if p < 0 || ply % 20 == 0 {
            println!(
                "ply {ply} {:?}: {} progress {p} score {:?}; distances B {} W {}",
                side,
                Halma::notation(&state, &choice.mv).replace('\n', "; "),
                choice.report.score,
                super::eval::distance_sum(&state, Player::First),
                super::eval::distance_sum(&state, Player::Second),
            );
        }
        state = Halma::apply(&state, &choice.mv);
    }
    println!("{}", state.rows().join("\n"));
}
