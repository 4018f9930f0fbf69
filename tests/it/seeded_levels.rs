//! Every numbered level is bounded by positions and depth, never by time,
//! so for a seed it plays the same move on any machine under any load:
//! every numbered level of every game plays the same seeded game three
//! times at once, each search slowed by the other two: without a budget,
//! with a budget whose deadline has passed (move for move and position for
//! position alike), and under a clock generous enough for it, with the same
//! moves (issue #67: a rated level keeps its budget under a clock that
//! allows it).
//!
//! The games are also compared with the record in
//! `tests/data/seeded-levels.json`, moves and positions searched: a level
//! that plays differently is no longer the level its ladder measured. A
//! change meant only to make a search faster must leave the record as it
//! is; one that changes how a level plays re-measures that game's ladder
//! (docs/LADDER.md) and then rewrites the record with
//! `GAMEBOT_BLESS=1 cargo test --test it seeded_levels::`.

use gamebot::game::clock::GameClock;
use gamebot::game::erased::{BotRequest, StateInput};
use gamebot::game::{Budget, ClockedMove, DynGame};
use gamebot::games::REGISTRY;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The checked-in record of every level's seeded game.
const RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/seeded-levels.json");

/// One seeded game: each move, and the positions searched for it.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Played {
    moves: Vec<Value>,
    nodes: Vec<Option<u64>>,
}

/// Plies of a game played at `level`, from `start`, each move seeded by
/// its ply.
fn seeded_game(
    game: &dyn DynGame,
    start: &Value,
    level: u8,
    plies: usize,
    budget: &Budget,
) -> Played {
    let mut state = start.clone();
    let mut played = Played {
        moves: Vec::new(),
        nodes: Vec::new(),
    };
    for ply in 0..plies {
        if game.legal_moves(&state).unwrap().moves.is_empty() {
            break;
        }
        let request = BotRequest {
            state: StateInput::Json(state.clone()),
            level: Some(level.to_string().into()),
            seed: Some(1000 + ply as u64),
            budget_fields: Vec::new(),
            own_fields: Map::new(),
            perspective: None,
        };
        let reply = game
            .bot_move(&request, budget)
            .unwrap_or_else(|e| panic!("{} level {level}: {e}", game.info().id));
        played.moves.push(reply.mv);
        played.nodes.push(reply.search.nodes);
        state = reply.state;
        if reply.outcome["status"] != json!("ongoing") {
            break;
        }
    }
    played
}

/// A budget under an hour's clock with a minute's increment: more than
/// any numbered level spends on a move.
fn generous_clock() -> Budget {
    let clock = GameClock {
        increment_ms: 60_000,
        ..GameClock::sudden_death(3_600_000)
    };
    Budget {
        clock: Some(ClockedMove {
            clock,
            arrived: std::time::Instant::now(),
        }),
        ..Budget::unlimited()
    }
}

/// Plies enough to pass the opening, fewer for the costly top rungs (a
/// debug build searches a few hundred thousand positions a second).
fn plies_for(max_nodes: u64) -> usize {
    match max_nodes {
        n if n >= 1_000_000 => 1,
        n if n >= 100_000 => 2,
        _ => 6,
    }
}

#[test]
fn every_numbered_level_plays_the_same_seeded_game_under_load() {
    let mut games: BTreeMap<String, BTreeMap<u8, Played>> = BTreeMap::new();
    for game in REGISTRY {
        let game: &dyn DynGame = *game;
        let start = game.new_game(&json!({})).unwrap().state;
        for level in game.listing().numbered_levels {
            let id = game.info().id;
            assert!(
                level.budget.load_independent && level.budget.time_ms.is_none(),
                "{id} level {}: {:?}",
                level.level,
                level.budget
            );
            assert!(
                level.budget.max_nodes.is_some(),
                "{id} level {}",
                level.level
            );
            let plies = plies_for(level.budget.max_nodes.unwrap_or(u64::MAX));
            // The three games play side by side, each the others' load.
            let (plain, late, clocked) = std::thread::scope(|scope| {
                let play = |budget: Budget| {
                    let start = &start;
                    scope.spawn(move || seeded_game(game, start, level.level, plies, &budget))
                };
                let plain = play(Budget::unlimited());
                // A deadline long past: a level bounded by positions does not heed it.
                let late = play(Budget::with_time_ms(1));
                let clocked = play(generous_clock());
                let joined = |handle: std::thread::ScopedJoinHandle<'_, Played>| {
                    handle.join().expect("a seeded game panicked")
                };
                (joined(plain), joined(late), joined(clocked))
            });
            assert!(!plain.moves.is_empty());
            assert_eq!(
                plain, late,
                "{id} level {}: the moves differ with the deadline passed",
                level.level
            );
            // A clock that can afford the level: it keeps its own budget, so
            // it plays its rated moves (a forced move is played at once, so
            // only the moves compare).
            assert_eq!(
                plain.moves, clocked.moves,
                "{id} level {}: a generous clock changed the moves",
                level.level
            );
            games
                .entry(id.to_string())
                .or_default()
                .insert(level.level, plain);
        }
    }
    compare_with_record(&games);
}

/// Each level's game against the checked-in record (or, with
/// `GAMEBOT_BLESS=1`, the record rewritten from them).
fn compare_with_record(games: &BTreeMap<String, BTreeMap<u8, Played>>) {
    if std::env::var_os("GAMEBOT_BLESS").is_some() {
        let text = serde_json::to_string_pretty(games).unwrap() + "\n";
        std::fs::write(RECORD, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(RECORD).unwrap();
    let record: BTreeMap<String, BTreeMap<u8, Played>> = serde_json::from_str(&text).unwrap();
    for (id, levels) in games {
        for (level, played) in levels {
            assert_eq!(
                Some(played),
                record.get(id).and_then(|r| r.get(level)),
                "{id} level {level} no longer plays its recorded seeded game, so it is not \
                 the level its ladder measured: see this file's header"
            );
        }
    }
    let levels = |map: &BTreeMap<String, BTreeMap<u8, Played>>| -> Vec<(String, u8)> {
        map.iter()
            .flat_map(|(id, levels)| levels.keys().map(move |&level| (id.clone(), level)))
            .collect()
    };
    assert_eq!(
        levels(&record),
        levels(games),
        "the record and the registry list different levels: a rung added or lost (or a \
         game added) re-measures its ladder and blesses the record, see this file's header"
    );
}
