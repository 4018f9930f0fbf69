//! Tie-breaks the rules docs promise, over the real router, and the
//! symmetric twins that searches may run on instead of the position asked.
//!
//! Most levels search a position's canonical twin (`game/symmetry.rs`) and
//! turn the answer back, so that twins get the same answer, turned, and
//! share a cache entry. A level whose docs promise a tie-break by the order
//! of the position as given cannot: Reversi's `norvig` takes the first best
//! square in row-major order (docs/rules/reversi.md), and Number Crush's
//! `greedy` the first best swap in the order `legal-moves` lists
//! (docs/rules/crush.md). Those are searched as given and cached apart from
//! their twins; these tests hold them to their promise on tied positions,
//! and check that they are the levels that say so
//! ([`gamebot::game::Bots::breaks_ties_in_given_order`]). (Only Reversi
//! has board symmetries today; Crush's `greedy` is declared so that it
//! stays searched as given if its game gains some.) The other promises of
//! the rules docs about equal moves draw them by the request's seed
//! (Halma's `minimax`, Advance's graded levels): checked on tied starts.
//! For the levels that do run on a twin ([`TURNED_LEVELS`], and `analyze`),
//! they check that every twin's answer, searched or turned from the cache,
//! is the twin's own.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::config::ServeConfig;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const BOT: &str = "/v1/games/reversi/bot-move";
const ANALYZE: &str = "/v1/games/reversi/analyze";

/// Reversi's levels whose docs promise a tie-break by square order: each
/// is searched in the position as given.
const ORDERED_LEVELS: &[&str] = &["norvig"];

/// Reversi's levels (with deterministic budgets) that search a position's
/// canonical twin and turn the answer back: every twin must get the turned
/// answer, and a cached answer turned to a twin must be the twin's own
/// (`random` searches nothing, so the cache keeps none of its answers).
const TURNED_LEVELS: &[&str] = &["random", "strong", "1", "4", "7"];

/// The cache off: every answer searched.
fn uncached() -> axum::Router {
    app_with(ServeConfig {
        cache_mb: 0,
        ..config()
    })
}

fn cached(reply: &Reply) -> bool {
    reply.json["search"]["cached"] == json!(true)
}

/// A plain Reversi board for the reference: `cells[row][col]`, row 1 and
/// column a first; 0 empty, 1 black, 2 white.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Board {
    cells: [[u8; 8]; 8],
    to_move: u8,
}

/// Norvig's square weights (docs/rules/reversi.md), row 1 first.
const WEIGHTS: [[i32; 8]; 8] = [
    [120, -20, 20, 5, 5, 20, -20, 120],
    [-20, -40, -5, -5, -5, -5, -40, -20],
    [20, -5, 15, 3, 3, 15, -5, 20],
    [5, -5, 3, 3, 3, 3, -5, 5],
    [5, -5, 3, 3, 3, 3, -5, 5],
    [20, -5, 15, 3, 3, 15, -5, 20],
    [-20, -40, -5, -5, -5, -5, -40, -20],
    [120, -20, 20, 5, 5, 20, -20, 120],
];

/// What a finished game is worth per disc of difference.
const FINAL_DISC_VALUE: i32 = 10_000;

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Board {
    fn start() -> Board {
        let mut cells = [[0; 8]; 8];
        cells[3][3] = 2;
        cells[3][4] = 1;
        cells[4][3] = 1;
        cells[4][4] = 2;
        Board { cells, to_move: 1 }
    }

    fn from_json(state: &Value) -> Board {
        let mut cells = [[0; 8]; 8];
        for (row, line) in state["board"].as_array().unwrap().iter().enumerate() {
            for (col, c) in line.as_str().unwrap().chars().enumerate() {
                cells[row][col] = match c {
                    'B' => 1,
                    'W' => 2,
                    _ => 0,
                };
            }
        }
        let to_move = if state["to_move"] == "black" { 1 } else { 2 };
        Board { cells, to_move }
    }

    fn to_json(self) -> Value {
        let board: Vec<String> = self
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&c| match c {
                        1 => 'B',
                        2 => 'W',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let to_move = if self.to_move == 1 { "black" } else { "white" };
        json!({"board": board, "to_move": to_move})
    }

    /// The discs that placing on (`row`, `col`) flips for the side to move.
    fn flips(&self, row: usize, col: usize) -> Vec<(usize, usize)> {
        let mut flipped = Vec::new();
        if self.cells[row][col] != 0 {
            return flipped;
        }
        let (me, opp) = (self.to_move, 3 - self.to_move);
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let cell = self.cells[r as usize][c as usize];
                if cell == opp {
                    line.push((r as usize, c as usize));
                } else {
                    if cell == me {
                        flipped.extend(&line);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flipped
    }

    /// The legal squares of the side to move, in row-major order.
    fn moves(&self) -> Vec<(usize, usize)> {
        (0..8)
            .flat_map(|row| (0..8).map(move |col| (row, col)))
            .filter(|&(row, col)| !self.flips(row, col).is_empty())
            .collect()
    }

    fn play(&self, (row, col): (usize, usize)) -> Board {
        let mut next = *self;
        for (r, c) in self.flips(row, col) {
            next.cells[r][c] = self.to_move;
        }
        next.cells[row][col] = self.to_move;
        next.to_move = 3 - self.to_move;
        next
    }

    fn pass(&self) -> Board {
        Board {
            to_move: 3 - self.to_move,
            ..*self
        }
    }

    /// Norvig's weighted sum for the side to move.
    fn weighted(&self) -> i32 {
        let squares = self.cells.iter().flatten().zip(WEIGHTS.iter().flatten());
        squares
            .map(|(&cell, &weight)| match cell {
                0 => 0,
                c if c == self.to_move => weight,
                _ => -weight,
            })
            .sum()
    }

    /// A finished game's value for the side to move.
    fn final_value(&self) -> i32 {
        let count = |side| self.cells.iter().flatten().filter(|&&c| c == side).count() as i32;
        (count(self.to_move) - count(3 - self.to_move)) * FINAL_DISC_VALUE
    }

    /// Plain minimax (negamax, no pruning) to `depth` plies for the side to
    /// move, with the pass rules of docs/rules/reversi.md: a finished game
    /// is a leaf at any depth, a pass is a node with one child that uses a
    /// ply, and the horizon scores the weights.
    fn minimax(&self, depth: u32) -> i32 {
        let moves = self.moves();
        if moves.is_empty() {
            if self.pass().moves().is_empty() {
                return self.final_value();
            }
            if depth == 0 {
                return self.weighted();
            }
            return -self.pass().minimax(depth - 1);
        }
        if depth == 0 {
            return self.weighted();
        }
        moves
            .iter()
            .map(|&mv| -self.play(mv).minimax(depth - 1))
            .max()
            .unwrap()
    }

    /// The reference's choice at `depth` (at least 1): the first square in
    /// row-major order among those of the best minimax value, or `pass`;
    /// and how many squares share that value.
    fn reference(&self, depth: u32) -> (String, usize) {
        let moves = self.moves();
        if moves.is_empty() {
            return ("pass".to_string(), 1);
        }
        let values: Vec<i32> = moves
            .iter()
            .map(|&mv| -self.play(mv).minimax(depth - 1))
            .collect();
        let best = *values.iter().max().unwrap();
        let first = values.iter().position(|&v| v == best).unwrap();
        let tied = values.iter().filter(|&&v| v == best).count();
        (square_name(moves[first]), tied)
    }

    /// Whether neither side can move.
    fn over(&self) -> bool {
        self.moves().is_empty() && self.pass().moves().is_empty()
    }
}

fn square_name((row, col): (usize, usize)) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// The eight symmetric twins of a Reversi state (rows and columns swapped,
/// then rows and columns mirrored), the state itself first.
fn twins(state: &Value) -> Vec<Value> {
    let board = Board::from_json(state);
    let mut twins = Vec::new();
    for transpose in [false, true] {
        for flip_rows in [false, true] {
            for flip_cols in [false, true] {
                let mut turned = board;
                for r in 0..8 {
                    for c in 0..8 {
                        let (r0, c0) = (
                            if flip_rows { 7 - r } else { r },
                            if flip_cols { 7 - c } else { c },
                        );
                        turned.cells[r][c] = if transpose {
                            board.cells[c0][r0]
                        } else {
                            board.cells[r0][c0]
                        };
                    }
                }
                twins.push(turned.to_json());
            }
        }
    }
    twins
}

/// A position `plies` random moves (passes where forced) from the start,
/// or the last one before the game ended.
fn random_position(rng: &mut ChaCha8Rng, plies: usize) -> Board {
    let mut board = Board::start();
    for _ in 0..plies {
        let moves = board.moves();
        let next = if moves.is_empty() {
            board.pass()
        } else {
            board.play(moves[rng.random_range(0..moves.len())])
        };
        if next.over() {
            break;
        }
        board = next;
    }
    board
}

/// `norvig` at `depth` on `state`, through the router: its move's notation.
async fn norvig(app: &axum::Router, state: &Value, depth: u32) -> String {
    let body = json!({"state": state, "level": format!("norvig:depth={depth}"), "seed": 1, "time_ms": 60_000});
    let reply = post_json(app, BOT, &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.json["search"]["stopped_by"], "depth",
        "{}",
        reply.text
    );
    reply.json["move"]["notation"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn norvig_agrees_with_a_plain_minimax_on_random_positions_tie_break_included() {
    let app = uncached();
    let mut rng = ChaCha8Rng::seed_from_u64(68);
    let mut tied = 0;
    for i in 0..200 {
        let depth = 1 + (i % 4) as u32;
        let plies = rng.random_range(0..58);
        let board = random_position(&mut rng, plies);
        let state = board.to_json();
        let (expected, ties) = board.reference(depth);
        tied += usize::from(ties > 1);
        let got = norvig(&app, &state, depth).await;
        assert_eq!(
            got, expected,
            "position {i}, depth {depth} ({ties} squares share the best value): {state}"
        );
    }
    // The sample holds positions whose best value several squares share,
    // so the tie-break is tested, not only the values.
    assert!(tied >= 10, "only {tied} tied positions");
}

#[tokio::test]
async fn norvig_takes_the_first_best_square_in_row_major_order_in_every_twin() {
    let app = uncached();
    // The start: its four moves are one move turned, and at every depth
    // d3 comes first.
    let start = Board::start().to_json();
    for depth in 1..=4 {
        assert_eq!(norvig(&app, &start, depth).await, "d3", "depth {depth}");
    }
    // Positions whose best value several squares share, and each of their
    // twins, which list those squares in other orders: in each, the
    // canonical twin's first best square is another square.
    let tied_positions = [
        json!({"board": ["........", "...W....", ".WWW....", ".B.WB...", "..BBW...", "...B.W..", "......W.", "........"], "to_move": "white"}),
        json!({"board": ["........", "........", ".W......", "..WBB...", "..BWW...", ".B......", "........", "........"], "to_move": "black"}),
        json!({"board": ["......W.", "....WW..", "....W...", "..BBBB..", "...BBB..", "........", "........", "........"], "to_move": "white"}),
        json!({"board": [".WWWWWB.", "WWWBBBBB", "WWBWBWBB", "WWWBWBWB", "BWWWWWWW", ".WWB.BBB", "WWBBB..B", "W...W..."], "to_move": "black"}),
        json!({"board": ["BBB.WBBB", "..WBWW.B", "...WWWWB", "..BBWWB.", "BBBWWWBW", ".BWWWWWW", "BWBBBBWW", "W.BBBB.W"], "to_move": "white"}),
    ];
    let mut tied = 0;
    for position in &tied_positions {
        for twin in twins(position) {
            for depth in 1..=4 {
                let (expected, ties) = Board::from_json(&twin).reference(depth);
                tied += usize::from(ties > 1);
                assert_eq!(
                    norvig(&app, &twin, depth).await,
                    expected,
                    "depth {depth}, {ties} tied: {twin}"
                );
            }
        }
    }
    assert!(tied >= 40, "only {tied} tied cases");
}

#[tokio::test]
async fn norvig_answers_are_not_shared_between_twins_in_the_cache() {
    let app = app();
    // Three squares share the best value at depth 1.
    let position = json!({"board": ["........", "...W....", ".WWW....", ".B.WB...", "..BBW...", "...B.W..", "......W.", "........"], "to_move": "white"});
    let body = |state: &Value| json!({"state": state, "level": "norvig:depth=1", "seed": 9});
    for twin in twins(&position) {
        let first = post_json(&app, BOT, &body(&twin)).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.text);
        assert!(!cached(&first), "a twin's entry answered {twin}");
        let (expected, _) = Board::from_json(&twin).reference(1);
        assert_eq!(first.json["move"]["notation"], expected.as_str(), "{twin}");
        let again = post_json(&app, BOT, &body(&twin)).await;
        assert!(cached(&again), "{}", again.text);
        assert_eq!(again.json["move"], first.json["move"], "{twin}");
    }
    // Every twin asked once more: each still gets its own answer.
    for twin in twins(&position) {
        let (expected, _) = Board::from_json(&twin).reference(1);
        let reply = post_json(&app, BOT, &body(&twin)).await;
        assert!(cached(&reply), "{}", reply.text);
        assert_eq!(reply.json["move"]["notation"], expected.as_str(), "{twin}");
    }
}

#[tokio::test]
async fn every_level_of_reversi_is_either_ordered_or_turned() {
    let reply = get(&app(), "/v1/games").await;
    let reversi = reply.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "reversi")
        .unwrap()
        .clone();
    for level in reversi["levels"].as_array().unwrap() {
        let id = level["id"].as_str().unwrap();
        assert!(
            ORDERED_LEVELS.contains(&id) ^ TURNED_LEVELS.contains(&id),
            "{id}: is it searched as given or on a twin?"
        );
    }
}

/// A Reversi midgame position with no symmetry of its own.
fn midgame() -> Value {
    json!({
        "board": ["........", "........", "..WWW...", "..WBBW..", "..BBWB..", "...B.W..", "........", "........"],
        "to_move": "black"
    })
}

/// A bot-move request at `level` with a deterministic budget.
fn turned_request(state: &Value, level: &str) -> Value {
    match level {
        "strong" => {
            json!({"state": state, "level": level, "seed": 2, "max_depth": 4, "time_ms": 60_000})
        }
        _ => json!({"state": state, "level": level, "seed": 2}),
    }
}

#[tokio::test]
async fn levels_on_a_twin_give_every_twin_the_turned_answer_searched_or_cached() {
    let app = app();
    let off = uncached();
    let asked = twins(&midgame());
    for level in TURNED_LEVELS {
        // What each twin's own search answers, the cache off.
        let mut searched = Vec::new();
        for twin in &asked {
            let reply = post_json(&off, BOT, &turned_request(twin, level)).await;
            assert_eq!(reply.status, StatusCode::OK, "{level}: {}", reply.text);
            searched.push(reply.json);
        }
        // Each is the first twin's answer turned.
        let first = &searched[0];
        for (twin, answer) in twins(&first["state"]).iter().zip(&searched) {
            assert_eq!(&answer["state"], twin, "{level}");
        }
        // The cache, filled by one twin, turns its answer to every other.
        let filled = post_json(&app, BOT, &turned_request(&asked[3], level)).await;
        assert!(!cached(&filled), "{level}: {}", filled.text);
        for (twin, own) in asked.iter().zip(&searched) {
            let hit = post_json(&app, BOT, &turned_request(twin, level)).await;
            assert_eq!(
                cached(&hit),
                *level != "random",
                "{level}, {twin}: {}",
                hit.text
            );
            for field in ["move", "state", "outcome"] {
                assert_eq!(hit.json[field], own[field], "{level}, {twin}: {field}");
            }
        }
    }
}

#[tokio::test]
async fn an_analysis_of_any_twin_is_the_twins_own_searched_or_cached() {
    let app = app();
    let off = uncached();
    let asked = twins(&midgame());
    let body = |state: &Value| json!({"state": state, "seed": 5, "max_depth": 3, "top": 4, "time_ms": 60_000});
    let first = post_json(&app, ANALYZE, &body(&asked[6])).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert!(!cached(&first), "{}", first.text);
    for twin in &asked {
        let hit = post_json(&app, ANALYZE, &body(twin)).await;
        assert!(cached(&hit), "{twin}: {}", hit.text);
        let own = post_json(&off, ANALYZE, &body(twin)).await;
        assert_eq!(hit.json["moves"], own.json["moves"], "{twin}");
    }
}

#[test]
fn the_levels_whose_docs_promise_a_tie_break_by_order_declare_it() {
    use gamebot::game::{Bots, Level};
    use gamebot::games::crush::{Crush, CrushLevel};
    use gamebot::games::reversi::{Reversi, ReversiLevel};
    for def in ReversiLevel::ALL {
        assert_eq!(
            Reversi::breaks_ties_in_given_order(def.level),
            ORDERED_LEVELS.contains(&def.id),
            "reversi {}",
            def.id
        );
    }
    for def in CrushLevel::ALL {
        assert_eq!(
            Crush::breaks_ties_in_given_order(def.level),
            def.id == "greedy",
            "crush {}",
            def.id
        );
    }
}

/// A Number Crush board for the reference: `cells[row][col]`, 0 for a
/// cell whose digit is not known yet (a refill).
type CrushBoard = [[u8; 10]; 10];

/// Removes every run of three or more equal known digits at once, lets
/// the rest fall, and leaves unknown cells at the top: the points of the
/// runs removed (each its length squared), 0 when nothing matched.
fn settle_once(board: &mut CrushBoard) -> u32 {
    let mut gone = [[false; 10]; 10];
    let mut points = 0;
    for horizontal in [true, false] {
        for line in 0..10 {
            let at = |i: usize| if horizontal { (line, i) } else { (i, line) };
            let mut start = 0;
            while start < 10 {
                let (r, c) = at(start);
                let digit = board[r][c];
                let mut end = start + 1;
                while end < 10 && board[at(end).0][at(end).1] == digit {
                    end += 1;
                }
                if digit != 0 && end - start >= 3 {
                    points += ((end - start) * (end - start)) as u32;
                    for i in start..end {
                        gone[at(i).0][at(i).1] = true;
                    }
                }
                start = end;
            }
        }
    }
    for col in 0..10 {
        let kept: Vec<u8> = (0..10)
            .filter(|&row| !gone[row][col])
            .map(|row| board[row][col])
            .collect();
        let empty = 10 - kept.len();
        for row in 0..10 {
            board[row][col] = if row < empty { 0 } else { kept[row - empty] };
        }
    }
    points
}

/// Every swap in the order `legal-moves` lists (by first cell, then
/// second), each as its two cells.
fn crush_swaps() -> Vec<((usize, usize), (usize, usize))> {
    let mut swaps = Vec::new();
    for row in 0..10 {
        for col in 0..10 {
            if col < 9 {
                swaps.push(((row, col), (row, col + 1)));
            }
            if row < 9 {
                swaps.push(((row, col), (row + 1, col)));
            }
        }
    }
    swaps
}

/// What a swap scores from the cells visible now, cascades among them
/// included (docs/rules/crush.md, `greedy`).
fn visible_gain(board: &CrushBoard, (a, b): ((usize, usize), (usize, usize))) -> u32 {
    let mut after = *board;
    after[a.0][a.1] = board[b.0][b.1];
    after[b.0][b.1] = board[a.0][a.1];
    let mut total = 0;
    loop {
        let points = settle_once(&mut after);
        if points == 0 {
            return total;
        }
        total += points;
    }
}

#[tokio::test]
async fn crush_greedy_takes_the_first_best_swap_in_the_order_legal_moves_lists() {
    let app = app();
    let mut tied = 0;
    for seed in 0..24u32 {
        let k = 4 + seed % 4;
        let new = post_json(
            &app,
            "/v1/games/crush/new",
            &json!({"options": {"k": k, "seed": seed}}),
        )
        .await;
        assert_eq!(new.status, StatusCode::OK, "{}", new.text);
        let state = &new.json["state"];
        let mut board: CrushBoard = [[0; 10]; 10];
        for (row, line) in state["board"].as_array().unwrap().iter().enumerate() {
            for (col, digit) in line.as_str().unwrap().bytes().enumerate() {
                board[row][col] = digit - b'0';
            }
        }
        let gains: Vec<u32> = crush_swaps()
            .into_iter()
            .map(|swap| visible_gain(&board, swap))
            .collect();
        let best = *gains.iter().max().unwrap();
        let first = gains.iter().position(|&g| g == best).unwrap();
        tied += usize::from(gains.iter().filter(|&&g| g == best).count() > 1);
        let ((r1, c1), (r2, c2)) = crush_swaps()[first];
        let expected = format!("{r1}{c1}{r2}{c2}");
        let reply = post_json(
            &app,
            "/v1/games/crush/bot-move",
            &json!({"state": state, "level": "greedy", "seed": 1}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(
            reply.json["move"]["notation"], expected,
            "seed {seed}, k {k}: best gain {best}"
        );
        assert_eq!(reply.json["search"]["score"], best, "seed {seed}, k {k}");
    }
    assert!(tied >= 6, "only {tied} tied boards");
}

/// The levels whose docs draw equal moves by the request's seed (Halma's
/// `minimax`, Advance's graded levels), at the start of their games, where
/// several moves are equally good: a seed always gets the same move, and
/// the seeds between them reach more than one.
#[tokio::test]
async fn levels_that_draw_equal_moves_by_the_seed_do_so_on_tied_starts() {
    let app = uncached();
    for (game, level) in [
        ("halma", "minimax:depth=1"),
        ("advance", "greedy"),
        ("advance", "predict"),
    ] {
        let new = post_json(&app, &format!("/v1/games/{game}/new"), &json!({})).await;
        assert_eq!(new.status, StatusCode::OK, "{}", new.text);
        let uri = format!("/v1/games/{game}/bot-move");
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let body = json!({"state": new.json["state"], "level": level, "seed": seed, "time_ms": 60_000});
            let first = post_json(&app, &uri, &body).await;
            assert_eq!(
                first.status,
                StatusCode::OK,
                "{game} {level}: {}",
                first.text
            );
            let again = post_json(&app, &uri, &body).await;
            assert_eq!(
                again.json["move"], first.json["move"],
                "{game} {level}, seed {seed}"
            );
            seen.insert(first.json["move"].to_string());
        }
        assert!(seen.len() > 1, "{game} {level}: one move for every seed");
    }
}
