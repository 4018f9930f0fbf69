//! Rules, fixtures, levels and property tests for Halma.

use super::board::{cell, col, goal, home, row, Bits, CampRule, Cell, CELLS};
use super::bots::{read_clock, time_for_move, Clock, ClockMode, HalmaOptions};
use super::movegen::{generate, has_any_move, HalmaMove};
use super::notation::{notation, parse_move};
use super::state::HalmaState;
use super::{Halma, HalmaTermination};
use crate::game::{
    BotParams, Bots, Budget, Codec, GameError, LevelSpec, Outcome, Referee, Rules, Side,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// A board from text rows (missing rows are empty), without the 19-piece check.
fn board(rows: &[&str], to_move: Side, rule: CampRule) -> HalmaState {
    let mut pieces = [Bits::EMPTY; 2];
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.chars().enumerate() {
            match ch {
                'B' => pieces[0].set(cell(x, y)),
                'W' => pieces[1].set(cell(x, y)),
                _ => {}
            }
        }
    }
    HalmaState::from_parts(pieces, to_move, rule)
}

/// A board with the given pieces placed on an empty board.
fn place(
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    to_move: Side,
    rule: CampRule,
) -> HalmaState {
    let mut pieces = [Bits::EMPTY; 2];
    for &(x, y) in black {
        pieces[0].set(cell(x, y));
    }
    for &(x, y) in white {
        pieces[1].set(cell(x, y));
    }
    HalmaState::from_parts(pieces, to_move, rule)
}

fn moves(state: &HalmaState) -> Vec<HalmaMove> {
    let mut out = Vec::new();
    generate(state, &mut out);
    out
}

fn ends_from(state: &HalmaState, x: usize, y: usize) -> BTreeSet<(usize, usize, bool)> {
    moves(state)
        .into_iter()
        .filter(|m| m.from == cell(x, y))
        .map(|m| (col(m.to), row(m.to), m.jump))
        .collect()
}

/// An independent, slow reference generator: depth-first chains with a
/// visited set per path, then the camp rules as the rules text states them.
fn reference_moves(state: &HalmaState) -> BTreeSet<(Cell, Cell, bool)> {
    if state.has_won(state.to_move().other()) {
        return BTreeSet::new();
    }
    let side = state.to_move();
    let mut raw = BTreeSet::new();
    for from in state.side(side).cells() {
        let mut others = state.occupied();
        others.clear(from);
        let (fx, fy) = (col(from) as i32, row(from) as i32);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let (x, y) = (fx + dx, fy + dy);
                if (dx, dy) != (0, 0)
                    && (0..16).contains(&x)
                    && (0..16).contains(&y)
                    && !others.has(cell(x as usize, y as usize))
                {
                    raw.insert((from, cell(x as usize, y as usize), false));
                }
            }
        }
        let mut reached = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(c) = stack.pop() {
            let (cx, cy) = (col(c) as i32, row(c) as i32);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let (ox, oy, lx, ly) = (cx + dx, cy + dy, cx + 2 * dx, cy + 2 * dy);
                    if (dx, dy) == (0, 0) || !(0..16).contains(&lx) || !(0..16).contains(&ly) {
                        continue;
                    }
                    let (over, land) = (
                        cell(ox as usize, oy as usize),
                        cell(lx as usize, ly as usize),
                    );
                    if others.has(over) && !others.has(land) && reached.insert(land) {
                        stack.push(land);
                    }
                }
            }
        }
        for to in reached {
            if to != from {
                raw.insert((from, to, true));
            }
        }
    }
    let (own, target) = (home(side), goal(side));
    let basic: BTreeSet<_> = raw
        .into_iter()
        .filter(|&(f, t, _)| !target.has(f) || target.has(t))
        .collect();
    if state.camp_rule() == CampRule::Basic {
        return basic;
    }
    let free: BTreeSet<_> = basic
        .into_iter()
        .filter(|&(f, t, _)| own.has(f) || !own.has(t))
        .collect();
    let out: BTreeSet<_> = free
        .iter()
        .copied()
        .filter(|&(f, t, _)| own.has(f) && !own.has(t))
        .collect();
    if !out.is_empty() {
        return out;
    }
    let (cx, cy) = if side == Side::First {
        (0, 0)
    } else {
        (15, 15)
    };
    let farther: BTreeSet<_> = free
        .iter()
        .copied()
        .filter(|&(f, t, _)| {
            let (a, b) = (col(f).abs_diff(cx), row(f).abs_diff(cy));
            let (c, d) = (col(t).abs_diff(cx), row(t).abs_diff(cy));
            own.has(f) && c >= a && d >= b && (c > a || d > b)
        })
        .collect();
    if !farther.is_empty() {
        return farther;
    }
    free
}

// ---------------------------------------------------------------- steps and chains

#[test]
fn a_lone_piece_steps_to_its_eight_neighbours() {
    let s = place(&[(7, 7)], &[(0, 15)], Side::First, CampRule::Basic);
    let ends = ends_from(&s, 7, 7);
    assert_eq!(ends.len(), 8);
    assert!(ends
        .iter()
        .all(|&(x, y, jump)| !jump && x.abs_diff(7) <= 1 && y.abs_diff(7) <= 1));
    let corner = place(&[(15, 0)], &[(0, 15)], Side::First, CampRule::Basic);
    assert_eq!(ends_from(&corner, 15, 0).len(), 3);
}

#[test]
fn jumps_go_over_either_colour_and_chain() {
    // Black on 5,5 jumps the white piece on 6,5 to 7,5, then its own piece on 8,6 to 9,7.
    let s = place(&[(5, 5), (8, 6)], &[(6, 5)], Side::First, CampRule::Basic);
    let ends = ends_from(&s, 5, 5);
    assert!(ends.contains(&(7, 5, true)));
    assert!(ends.contains(&(9, 7, true)));
    assert!(!ends.contains(&(6, 5, false)), "cannot step onto a piece");
    let mv = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 9,7")).unwrap();
    assert_eq!((mv.from, mv.to, mv.jump), (cell(5, 5), cell(9, 7), true));
}

#[test]
fn every_end_cell_is_listed_once_with_a_shortest_chain() {
    // A ring of pieces makes many chains reach the same cells.
    let s = place(
        &[
            (7, 7),
            (8, 7),
            (6, 7),
            (7, 8),
            (7, 6),
            (9, 9),
            (5, 5),
            (9, 5),
            (5, 9),
        ],
        &[(0, 15)],
        Side::First,
        CampRule::Basic,
    );
    let all = moves(&s);
    let unique: BTreeSet<_> = all.iter().map(|m| (m.from, m.to)).collect();
    assert_eq!(unique.len(), all.len());
    let mv = all
        .iter()
        .find(|m| m.from == cell(6, 7) && m.to == cell(8, 7))
        .copied();
    assert!(mv.is_none(), "8,7 is occupied");
    // 7,7 → 7,9 is one jump over 7,8: the listed path must be that single jump.
    let mv = all
        .iter()
        .find(|m| m.from == cell(7, 7) && m.to == cell(7, 9))
        .unwrap();
    assert_eq!(notation(&s, mv), "J 7,7 7,9");
}

#[test]
fn a_chain_may_revisit_cells_and_jump_the_same_piece_twice() {
    // 5,5 jumps 6,5 to 7,5, back over 6,5 to its start 5,5, then over 5,6 to 5,7.
    let s = place(
        &[(5, 5), (6, 5), (5, 6)],
        &[(0, 15)],
        Side::First,
        CampRule::Basic,
    );
    let long = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 5,5\nJ 5,5 5,7")).unwrap();
    let short = parse_move(&s, &json!("J 5,5 5,7")).unwrap();
    assert_eq!(long, short);
    let as_path = parse_move(&s, &json!({"path": [[5, 5], [7, 5], [5, 5], [5, 7]]})).unwrap();
    assert_eq!(as_path, short);
    assert_eq!(notation(&s, &short), "J 5,5 5,7");
    // A chain back to its start is no move at all.
    let err = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 5,5")).unwrap_err();
    assert!(err.to_string().contains("ends where it started"), "{err}");
}

#[test]
fn a_chain_can_pass_over_the_movers_start_cell_only_as_empty() {
    // The mover has left 5,5, so it cannot be jumped over in the same move.
    let s = place(&[(5, 5), (6, 5)], &[(0, 15)], Side::First, CampRule::Basic);
    let err = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 5,5\nJ 5,5 3,5")).unwrap_err();
    assert!(err.to_string().contains("no piece on 4,5"), "{err}");
}

#[test]
fn bad_chains_are_refused_with_the_reason() {
    let s = place(&[(5, 5), (6, 5)], &[(0, 15)], Side::First, CampRule::Basic);
    let cases = [
        ("J 5,5 8,5", "two cells"),
        ("J 5,5 5,7", "no piece on 5,6"),
        ("E 5,5 7,5", "adjacent"),
        ("E 5,5 6,5", "occupied"),
        ("E 6,6 7,7", "holds no piece"),
        ("E 0,15 1,14", "white piece"),
        ("J 5,5 7,5\nJ 8,5 9,5", "previous jump ended"),
        ("E 5,5 4,4\nE 4,4 3,3", "never mix"),
        ("X 5,5 4,4", "start with E"),
        ("E 5,5 16,4", "not a cell"),
        ("", "empty move"),
    ];
    for (text, expected) in cases {
        let err = parse_move(&s, &json!(text)).unwrap_err();
        assert!(err.to_string().contains(expected), "{text}: {err}");
    }
    let err = parse_move(&s, &json!({"path": [[5, 5]]})).unwrap_err();
    assert!(err.to_string().contains("at least two"), "{err}");
    let err = parse_move(&s, &json!({"path": [[5, 5], [4, "x"]]})).unwrap_err();
    assert!(err.to_string().contains("path[1]"), "{err}");
    let err = parse_move(&s, &json!({"path": [[5, 5], [4, 4]], "jump": true})).unwrap_err();
    assert!(err.to_string().contains("jump 1"), "{err}");
    let err = parse_move(&s, &json!({"path": [[5, 5], [4, 4]], "speed": 3})).unwrap_err();
    assert!(err.to_string().contains("unknown field"), "{err}");
    assert!(parse_move(&s, &json!({"notation": "E 5,5 4,4"})).is_ok());
    assert!(parse_move(&s, &json!(42)).is_err());
}

// ---------------------------------------------------------------- camp rules

#[test]
fn basic_rule_keeps_a_piece_in_the_opposing_camp() {
    // Black's goal is white's camp (bottom-right). 11,14 is in it; 10,14 is not.
    let s = place(&[(11, 14), (7, 7)], &[(0, 0)], Side::First, CampRule::Basic);
    let ends = ends_from(&s, 11, 14);
    assert!(!ends.is_empty());
    assert!(ends
        .iter()
        .all(|&(x, y, _)| goal(Side::First).has(cell(x, y))));
    let err = parse_move(&s, &json!("E 11,14 10,14")).unwrap_err();
    assert!(err.to_string().contains("may not leave"), "{err}");
    // A chain may pass outside the camp as long as it ends inside.
    let s2 = place(
        &[(14, 14), (13, 13), (12, 13)],
        &[(0, 0)],
        Side::First,
        CampRule::Basic,
    );
    // 14,14 → 12,12 (over 13,13, outside the camp) → 12,14 (over 12,13, back inside).
    assert!(!goal(Side::First).has(cell(12, 12)) && goal(Side::First).has(cell(12, 14)));
    let mv = parse_move(&s2, &json!("J 14,14 12,12\nJ 12,12 12,14")).unwrap();
    assert_eq!(mv.to, cell(12, 14));
    assert!(parse_move(&s2, &json!("J 14,14 12,12")).is_err());
}

#[test]
fn referee_rule_a_forbids_returning_to_the_own_camp() {
    // Black's piece on 2,4 is just outside its camp; 1,4 is inside.
    let s = place(
        &[(2, 4), (9, 9)],
        &[(15, 0)],
        Side::First,
        CampRule::Referee,
    );
    assert!(home(Side::First).has(cell(1, 4)) && !home(Side::First).has(cell(2, 4)));
    let err = parse_move(&s, &json!("E 2,4 1,4")).unwrap_err();
    assert!(
        err.to_string().contains("may not move back into it"),
        "{err}"
    );
    let basic = place(&[(2, 4), (9, 9)], &[(15, 0)], Side::First, CampRule::Basic);
    assert!(parse_move(&basic, &json!("E 2,4 1,4")).is_ok());
}

#[test]
fn referee_rule_b_forces_pieces_out_of_the_own_camp() {
    // Black has 0,0 and 4,0 at home; 4,0 can step out, so only moves leaving the camp count.
    let s = place(
        &[(0, 0), (4, 0), (9, 9)],
        &[(15, 0)],
        Side::First,
        CampRule::Referee,
    );
    let all = moves(&s);
    assert!(!all.is_empty());
    assert!(all
        .iter()
        .all(|m| home(Side::First).has(m.from) && !home(Side::First).has(m.to)));
    let err = parse_move(&s, &json!("E 9,9 10,10")).unwrap_err();
    assert!(
        err.to_string()
            .contains("must move a piece out of its own camp"),
        "{err}"
    );
    let basic = place(
        &[(0, 0), (4, 0), (9, 9)],
        &[(15, 0)],
        Side::First,
        CampRule::Basic,
    );
    assert!(parse_move(&basic, &json!("E 9,9 10,10")).is_ok());
}

#[test]
fn referee_rule_b_falls_back_to_moving_farther_from_the_corner() {
    // Black's only home piece is on 0,0, boxed in so that nothing leaves the camp:
    // its neighbours 1,0 / 0,1 / 1,1 are black, and every jump lands inside.
    let rows = [
        "BB..W...........",
        "BB.W............",
        "..W.............",
        ".W..............",
        "W...............",
    ];
    let mut s = board(&rows, Side::First, CampRule::Referee);
    // Pieces 1,0 / 0,1 / 1,1 are black but also at home: fill the camp edge with white
    // so none of them can leave either.
    let all = moves(&s);
    assert!(!all.is_empty());
    let own = home(Side::First);
    if all.iter().any(|m| !own.has(m.to)) {
        // Some piece can leave: then only leaving moves are listed.
        assert!(all.iter().all(|m| own.has(m.from) && !own.has(m.to)));
    }
    // Box the camp completely: fill every cell just outside it with white.
    for c in 0..CELLS as u16 {
        let c = c as Cell;
        let (x, y) = (col(c), row(c));
        if !own.has(c) && x + y <= 9 {
            s.pieces[1].set(c);
        }
    }
    s = HalmaState::from_parts(s.pieces, Side::First, CampRule::Referee);
    let all = moves(&s);
    assert!(!all.is_empty());
    assert!(all.iter().all(|m| own.has(m.to)), "no move can leave");
    for m in &all {
        assert!(col(m.to) >= col(m.from) && row(m.to) >= row(m.from));
        assert!(col(m.to) > col(m.from) || row(m.to) > row(m.from));
    }
    assert_eq!(
        reference_moves(&s),
        all.iter().map(|m| (m.from, m.to, m.jump)).collect()
    );
}

#[test]
fn referee_rule_b_allows_free_moves_when_nothing_moves_out_or_farther() {
    // Black's home piece sits on 4,0 (x = 4, the camp's far column on row 0) and
    // every cell around it is taken, so it has no move at all.
    let s = place(
        &[(4, 0), (9, 9)],
        &[
            (3, 0),
            (5, 0),
            (3, 1),
            (4, 1),
            (5, 1),
            (2, 0),
            (6, 0),
            (2, 2),
            (4, 2),
            (6, 2),
        ],
        Side::First,
        CampRule::Referee,
    );
    let all = moves(&s);
    assert!(!all.is_empty());
    assert!(all.iter().all(|m| m.from == cell(9, 9)));
}

// ---------------------------------------------------------------- winning

#[test]
fn filling_the_opposing_camp_wins() {
    let fixture = fixtures();
    let ex = &fixture["examples"][0];
    let s = state_of(ex);
    assert_eq!(Halma::outcome(&s), Outcome::Ongoing);
    let mv = parse_move(&s, &json!("E 4,3 3,2")).unwrap();
    let after = Halma::apply(&s, &mv);
    assert!(matches!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::Second,
            ..
        }
    ));
    assert!(
        moves(&after).is_empty(),
        "no legal move once the game is over"
    );
}

#[test]
fn a_piece_hemmed_in_moves_only_by_jumps_and_not_at_all_once_they_are_blocked() {
    let ring = [(1, 0), (0, 1), (1, 1)];
    let s = place(&[(0, 0)], &ring, Side::First, CampRule::Basic);
    let legal = moves(&s);
    assert_eq!(legal.len(), 3);
    assert!(legal.iter().all(|m| m.jump));
    assert!(has_any_move(&s));
    assert_eq!(Halma::outcome(&s), Outcome::Ongoing);

    let walled: Vec<_> = ring
        .iter()
        .chain(&[(2, 0), (0, 2), (2, 2)])
        .copied()
        .collect();
    let s = place(&[(0, 0)], &walled, Side::First, CampRule::Basic);
    assert!(moves(&s).is_empty());
    assert!(!has_any_move(&s));
    assert!(matches!(Halma::outcome(&s), Outcome::Draw { .. }));
}

#[test]
fn an_opponent_that_never_left_its_camp_cannot_block_the_win() {
    // Black kept 3 pieces at home (0,0 1,0 0,1); white holds the other 16 camp cells
    // but one, and fills it now.
    let mut black = vec![(0, 0), (1, 0), (0, 1)];
    let mut white = Vec::new();
    for c in home(Side::First).cells() {
        let xy = (col(c), row(c));
        if !black.contains(&xy) && xy != (4, 1) {
            white.push(xy);
        }
    }
    white.push((5, 2));
    // Pad both sides to 19 elsewhere (white in mid-board, black near its goal).
    while white.len() < 19 {
        white.push((8 + white.len() % 4, 8));
    }
    let mut extra = 0;
    while black.len() < 19 {
        black.push((10 + extra % 5, 12 + extra / 5));
        extra += 1;
    }
    let s = place(&black, &white, Side::Second, CampRule::Basic);
    assert_eq!(s.side(Side::First).count(), 19);
    assert_eq!(s.side(Side::Second).count(), 19);
    assert!(!s.has_won(Side::Second));
    let mv = parse_move(&s, &json!("E 5,2 4,1")).unwrap();
    let after = Halma::apply(&s, &mv);
    assert!(after.has_won(Side::Second));
    assert!(matches!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::Second,
            ..
        }
    ));
    // Black's camp full of black alone is no win for white.
    let start = HalmaState::start(Side::First, CampRule::Referee);
    assert!(!start.has_won(Side::Second) && !start.has_won(Side::First));
}

#[test]
fn only_the_player_who_just_moved_wins() {
    // White's condition holds, but white is to move, so black moved last: no win.
    let fixture = fixtures();
    let s = state_of(&fixture["examples"][0]);
    let after = Halma::apply(&s, &parse_move(&s, &json!("E 4,3 3,2")).unwrap());
    let mut json = Halma::state_to_json(&after);
    json["to_move"] = json!("white");
    let flipped = Halma::state_from_json(&json).unwrap();
    assert!(!matches!(Halma::outcome(&flipped), Outcome::Win { .. }));
}

// ---------------------------------------------------------------- fixtures and text forms

fn fixtures() -> Value {
    crate::test_data::json("halma/seed-examples.json")
}

fn input_text(ex: &Value, time: Option<f64>) -> String {
    let mut text = format!(
        "{}\n{}\n{}\n",
        ex["mode"].as_str().unwrap(),
        ex["to_move"].as_str().unwrap(),
        time.unwrap_or(ex["time_left"].as_f64().unwrap())
    );
    for line in ex["board"].as_array().unwrap() {
        text.push_str(line.as_str().unwrap());
        text.push('\n');
    }
    text
}

fn state_of(ex: &Value) -> HalmaState {
    Halma::state_from_json(&json!({
        "board": ex["board"],
        "to_move": ex["to_move"].as_str().unwrap().to_lowercase(),
    }))
    .unwrap()
}

#[test]
fn seed_examples_outputs_are_legal_and_winning_ones_win() {
    for ex in fixtures()["examples"].as_array().unwrap() {
        let s = state_of(ex);
        let output = ex["output"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let mv = parse_move(&s, &json!(output)).unwrap_or_else(|e| panic!("{}: {e}", ex["name"]));
        let after = Halma::apply(&s, &mv);
        assert_eq!(
            after.has_won(s.to_move()),
            ex["wins"].as_bool().unwrap(),
            "{}",
            ex["name"]
        );
    }
}

#[test]
fn seed_examples_through_the_text_bot_move() {
    let game = crate::games::find("halma").unwrap();
    for ex in fixtures()["examples"].as_array().unwrap() {
        let body = input_text(ex, None);
        let request = crate::game::erased::BotRequest {
            state: crate::game::erased::StateInput::Text {
                body: body.clone(),
                params: Default::default(),
            },
            seed: Some(7),
            ..Default::default()
        };
        let out = game.prepare_bot(request).unwrap()(&Budget::with_time_ms(300))
            .unwrap()
            .text
            .unwrap();
        assert!(out.ends_with('\n'));
        let s = state_of(ex);
        let mv =
            parse_move(&s, &json!(out)).unwrap_or_else(|e| panic!("{}: {out}: {e}", ex["name"]));
        if ex["wins"].as_bool().unwrap() {
            let expected: Vec<&str> = ex["output"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            assert_eq!(
                out.trim_end().lines().collect::<Vec<_>>(),
                expected,
                "{}",
                ex["name"]
            );
        }
        assert!(
            Halma::outcome(&Halma::apply(&s, &mv)) != Outcome::Ongoing
                || !ex["wins"].as_bool().unwrap()
        );
    }
}

#[test]
fn seed_examples_through_the_cli() {
    use crate::cli::halma::{run, HalmaArgs};
    for (i, ex) in fixtures()["examples"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let dir = std::env::temp_dir().join(format!("halma-cli-test-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A short clock keeps the test quick; the winning moves are found at depth 1.
        std::fs::write(dir.join("input.txt"), input_text(ex, Some(0.3))).unwrap();
        let code = run(HalmaArgs {
            dir: dir.clone(),
            level: "strong".into(),
            camp_rule: "referee".into(),
        });
        assert_eq!(code, std::process::ExitCode::SUCCESS);
        let out = std::fs::read_to_string(dir.join("output.txt")).unwrap();
        let s = state_of(ex);
        assert!(parse_move(&s, &json!(out)).is_ok(), "{out}");
        if ex["wins"].as_bool().unwrap() {
            let expected: Vec<&str> = ex["output"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            assert_eq!(out.lines().collect::<Vec<_>>(), expected);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn cli_reports_bad_input_and_fails() {
    use crate::cli::halma::{run, HalmaArgs};
    let dir = std::env::temp_dir().join(format!("halma-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("input.txt"), "SINGLE\nPURPLE\n1.0\n").unwrap();
    let args = HalmaArgs {
        dir: dir.clone(),
        level: "strong".into(),
        camp_rule: "referee".into(),
    };
    assert_ne!(run(args.clone()), std::process::ExitCode::SUCCESS);
    assert!(!dir.join("output.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_ne!(
        run(args),
        std::process::ExitCode::SUCCESS,
        "missing input.txt"
    );
}

#[test]
fn legacy_input_errors_name_the_line() {
    let ex = &fixtures()["examples"][0];
    let good = input_text(ex, None);
    let cases = [
        (good.replacen("SINGLE", "ONCE", 1), "line 1"),
        (good.replacen("WHITE", "RED", 1), "line 2"),
        (good.replacen("100", "-3", 1), "line 3"),
        (good.replacen("WWW.W", "WWW.X", 1), "line 7"),
        (
            good.lines().take(10).collect::<Vec<_>>().join("\n"),
            "10 lines",
        ),
        (
            good.replacen("WW..............", "WW...............", 1),
            "17 characters",
        ),
        (good.replacen("WWW.W", "WWW..", 1), "18 white"),
    ];
    for (text, expected) in cases {
        let err = super::text::parse_input(&text, CampRule::Referee).unwrap_err();
        assert!(err.to_string().contains(expected), "{expected}: {err}");
    }
    let crlf = good.replace('\n', "\r\n") + "\r\n";
    let parsed = super::text::parse_input(&crlf, CampRule::Referee).unwrap();
    assert_eq!(
        parsed.clock,
        Clock {
            mode: ClockMode::Single,
            time_left_s: 100.0
        }
    );
    assert_eq!(parsed.state.to_move(), Side::Second);
}

#[test]
fn the_referee_writes_input_txt_that_the_harness_reads_back() {
    let state = Halma::apply(&HalmaState::start(Side::First, CampRule::Basic), &{
        let mut moves = Vec::new();
        Halma::legal_moves(&HalmaState::start(Side::First, CampRule::Basic), &mut moves);
        moves[0]
    });
    let in_game = Halma::agent_input(
        &state,
        Duration::from_secs(1),
        Some(Duration::from_millis(12_345)),
    )
    .unwrap();
    assert!(in_game.starts_with("GAME\nWHITE\n12.345\n"), "{in_game}");
    let parsed = super::text::parse_input(&in_game, CampRule::Basic).unwrap();
    assert_eq!(parsed.state, state);
    assert_eq!(parsed.clock.mode, ClockMode::Game);
    let single = Halma::agent_input(&state, Duration::from_millis(250), None).unwrap();
    let parsed = super::text::parse_input(&single, CampRule::Basic).unwrap();
    assert_eq!(
        parsed.clock,
        Clock {
            mode: ClockMode::Single,
            time_left_s: 0.25
        }
    );
}

// ---------------------------------------------------------------- JSON state and the erased view

#[test]
fn invalid_states_point_at_the_problem() {
    let start = Halma::state_to_json(&HalmaState::start(Side::First, CampRule::Referee));
    let pointer_of = |value: Value| match Halma::state_from_json(&value) {
        Err(GameError::InvalidState { pointer, detail }) => (pointer.unwrap_or_default(), detail),
        other => panic!("expected invalid state, got {other:?}"),
    };
    let mut v = start.clone();
    v["board"][3] = json!("BBB.............x");
    assert_eq!(pointer_of(v).0, "/board/3");
    let mut v = start.clone();
    v["board"][2] = json!("BBBB......Z.....");
    let (p, d) = pointer_of(v);
    assert_eq!(p, "/board/2");
    assert!(d.contains("column 10"), "{d}");
    let mut v = start.clone();
    v["board"][5] = json!(5);
    assert_eq!(pointer_of(v).0, "/board/5");
    let mut v = start.clone();
    v["to_move"] = json!("red");
    assert_eq!(pointer_of(v).0, "/to_move");
    let mut v = start.clone();
    v["camp_rule"] = json!("strict");
    assert_eq!(pointer_of(v).0, "/camp_rule");
    let mut v = start.clone();
    v["clock"] = json!({"mode": "GAME", "time_left_s": 3});
    assert_eq!(pointer_of(v).0, "/clock");
    let mut v = start.clone();
    v["board"][7] = json!(".......B........");
    let (p, d) = pointer_of(v);
    assert_eq!(p, "/board");
    assert!(d.contains("20 black"), "{d}");
    let mut v = start.clone();
    v.as_object_mut().unwrap().remove("camp_rule");
    assert_eq!(
        Halma::state_from_json(&v).unwrap().camp_rule(),
        CampRule::Referee
    );
    assert!(Halma::state_from_json(&json!([1, 2])).is_err());
}

#[test]
fn the_erased_view_lists_plays_and_refuses() {
    let game = crate::games::find("halma").unwrap();
    let info = game.info();
    assert_eq!(info.sides, vec!["black", "white"]);
    let state = game.new_game(&Value::Null).unwrap().state;
    assert_eq!(state["to_move"], "black");
    let listed = game.legal_moves(&state).unwrap();
    assert_eq!(listed.count, listed.moves.len());
    assert!(listed.count > 0);
    let first = &listed.moves[0];
    assert!(first["notation"].is_string());
    let played = game.play(&state, first).unwrap();
    assert_eq!(played.state["to_move"], "white");
    let by_text = game.play(&state, &first["notation"]).unwrap();
    assert_eq!(by_text.state, played.state);
    assert!(game.play(&state, &json!("E 0,0 1,1")).is_err());
    let basic = game
        .new_game(&json!({"camp_rule": "basic", "to_move": "white"}))
        .unwrap()
        .state;
    assert_eq!(basic["camp_rule"], "basic");
    assert_eq!(basic["to_move"], "white");
    assert!(matches!(
        game.new_game(&json!({"speed": 1})),
        Err(GameError::InvalidOption { .. })
    ));
}

#[test]
fn clocks_are_validated() {
    let with = |clock: Value| {
        serde_json::from_value::<HalmaOptions>(json!({ "clock": clock })).map(|o| o.clock)
    };
    assert_eq!(
        with(json!({"mode": "GAME", "time_left_s": 0.01})).unwrap(),
        Some(Clock {
            mode: ClockMode::Game,
            time_left_s: 0.01
        })
    );
    assert_eq!(
        with(json!({"mode": "single", "time_left_s": 3})).unwrap(),
        Some(Clock {
            mode: ClockMode::Single,
            time_left_s: 3.0
        })
    );
    for (bad, says) in [
        (
            json!({"mode": "BLITZ", "time_left_s": 1}),
            "clock.mode is \"BLITZ\"",
        ),
        (
            json!({"mode": "GAME", "time_left_s": 0}),
            "clock.time_left_s is 0",
        ),
        (json!({"mode": "GAME"}), "missing field `time_left_s`"),
        (
            json!({"mode": "GAME", "time_left_s": 1, "inc": 2}),
            "unknown field `inc`",
        ),
        (json!("GAME"), "invalid type: string \"GAME\""),
    ] {
        let error = with(bad.clone()).unwrap_err().to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
    let unknown = serde_json::from_value::<HalmaOptions>(json!({"clok": {}})).unwrap_err();
    assert!(
        unknown.to_string().contains("unknown field `clok`"),
        "{unknown}"
    );
    let none = BotParams::<HalmaOptions>::seeded(1);
    assert_eq!(read_clock(&none, &Budget::unlimited()), None);
    let mut under_a_game_clock = Budget::unlimited();
    under_a_game_clock.game_time_left_ms = Some(2_500);
    let clock = read_clock(&none, &under_a_game_clock).unwrap();
    assert_eq!((clock.mode, clock.time_left_s), (ClockMode::Game, 2.5));
}

// ---------------------------------------------------------------- levels

fn bot(
    state: &HalmaState,
    level: &str,
    params: &BotParams<HalmaOptions>,
    budget: &Budget,
) -> HalmaMove {
    let spec = LevelSpec::parse(level).unwrap();
    let choice = Halma::choose_move(state, &spec, params, budget).unwrap();
    assert!(
        moves(state).contains(&choice.mv),
        "{level} chose an illegal move"
    );
    choice.mv
}

#[test]
fn levels_are_deterministic_given_seed_and_depth() {
    let s = HalmaState::start(Side::First, CampRule::Referee);
    let p = BotParams::seeded(42);
    assert_eq!(
        bot(&s, "random", &p, &Budget::unlimited()),
        bot(&s, "random", &p, &Budget::unlimited())
    );
    let budget = Budget::unlimited().depth(2);
    assert_eq!(
        bot(&s, "minimax", &p, &budget),
        bot(&s, "minimax", &p, &budget)
    );
    assert_eq!(
        bot(&s, "strong", &p, &budget),
        bot(&s, "strong", &p, &budget)
    );
    let spec = LevelSpec::parse("minimax:depth=9").unwrap();
    assert!(Halma::choose_move(&s, &spec, &p, &budget).is_err());
    let spec = LevelSpec::parse("strong:colour=red").unwrap();
    assert!(Halma::choose_move(&s, &spec, &p, &budget).is_err());
}

#[test]
fn minimax_prefers_progress() {
    let s = place(&[(7, 7)], &[(0, 15)], Side::First, CampRule::Basic);
    let mv = bot(
        &s,
        "minimax:depth=1",
        &BotParams::seeded(3),
        &Budget::unlimited(),
    );
    assert_eq!(mv.to, cell(8, 8));
}

#[test]
fn strong_takes_an_immediate_win() {
    let ex = &fixtures()["examples"][1];
    let s = state_of(ex);
    let mv = bot(
        &s,
        "strong",
        &BotParams::seeded(5),
        &Budget::with_time_ms(200),
    );
    assert!(Halma::apply(&s, &mv).has_won(Side::Second));
}

#[test]
fn strong_answers_in_time_with_a_nearly_flagged_clock() {
    let s = HalmaState::start(Side::First, CampRule::Referee);
    let p = BotParams {
        seed: 9,
        options: HalmaOptions {
            clock: Some(Clock {
                mode: ClockMode::Game,
                time_left_s: 0.01,
            }),
        },
    };
    let started = Instant::now();
    bot(&s, "strong", &p, &Budget::unlimited());
    // Debug builds are slow; the release figure is far lower (see the report).
    assert!(
        started.elapsed().as_secs_f64() < 0.1,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_clock_manager_spends_most_of_a_single_move_and_a_share_of_a_game() {
    let s = HalmaState::start(Side::First, CampRule::Referee);
    let single = time_for_move(
        &s,
        Clock {
            mode: ClockMode::Single,
            time_left_s: 1.0,
        },
    );
    assert!(single.as_secs_f64() > 0.7 && single.as_secs_f64() < 0.95);
    let game = time_for_move(
        &s,
        Clock {
            mode: ClockMode::Game,
            time_left_s: 300.0,
        },
    );
    assert!(
        game.as_secs_f64() > 0.5 && game.as_secs_f64() < 10.0,
        "{game:?}"
    );
    let tiny = time_for_move(
        &s,
        Clock {
            mode: ClockMode::Game,
            time_left_s: 0.01,
        },
    );
    assert!(tiny.as_secs_f64() < 0.002);
}

#[test]
fn analyze_returns_scored_lines() {
    let game = crate::games::find("halma").unwrap();
    let state = game.new_game(&Value::Null).unwrap().state;
    let request = crate::game::erased::BotRequest {
        state: crate::game::erased::StateInput::Json(state),
        seed: Some(1),
        ..Default::default()
    };
    let reply = game
        .analyze(&request, 3, &Budget::unlimited().depth(2))
        .unwrap();
    assert_eq!(reply.moves.len(), 3);
    assert!(reply.moves[0].score >= reply.moves[1].score);
    assert!(!reply.moves[0].pv.is_empty());
}

// ---------------------------------------------------------------- random playouts

/// Plays `plies` random moves from the start, checking every position.
fn playout(seed: u64, plies: usize, rule: CampRule) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut s = HalmaState::start(
        if seed % 2 == 0 {
            Side::First
        } else {
            Side::Second
        },
        rule,
    );
    for _ in 0..plies {
        let legal = moves(&s);
        let listed: BTreeSet<_> = legal.iter().map(|m| (m.from, m.to, m.jump)).collect();
        assert_eq!(listed.len(), legal.len(), "duplicate moves");
        assert_eq!(has_any_move(&s), !legal.is_empty());
        assert_eq!(
            listed,
            reference_moves(&s),
            "generator disagrees with the reference"
        );
        let json = Halma::state_to_json(&s);
        assert_eq!(
            Halma::state_from_json(&json).unwrap(),
            s,
            "state round trip"
        );
        if legal.is_empty() {
            assert!(Halma::outcome(&s).is_over());
            return;
        }
        for mv in legal.iter().step_by(3) {
            assert_eq!(&parse_move(&s, &json!(notation(&s, mv))).unwrap(), mv);
            assert_eq!(&parse_move(&s, &Halma::move_to_json(&s, mv)).unwrap(), mv);
        }
        // Random cell pairs that are not listed must be refused both ways.
        for _ in 0..20 {
            let from = s
                .side(s.to_move())
                .cells()
                .nth(rng.random_range(0..19))
                .unwrap();
            let to = rng.random_range(0..256) as Cell;
            if legal.iter().any(|m| m.from == from && m.to == to) {
                continue;
            }
            let path = json!({"path": [[col(from), row(from)], [col(to), row(to)]]});
            assert!(parse_move(&s, &path).is_err(), "{path} accepted");
        }
        let mv = legal[rng.random_range(0..legal.len())];
        s = Halma::apply(&s, &mv);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_agree_with_the_rules(seed in any::<u64>(), basic in any::<bool>()) {
        playout(seed, 40, if basic { CampRule::Basic } else { CampRule::Referee });
    }
}

#[test]
fn long_playouts_reach_the_endgame_rules() {
    // Random games wander; a biased one (mostly forward moves) reaches the camps.
    for seed in 0..3u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = HalmaState::start(
            Side::First,
            if seed == 1 {
                CampRule::Basic
            } else {
                CampRule::Referee
            },
        );
        for _ in 0..400 {
            let legal = moves(&s);
            assert_eq!(has_any_move(&s), !legal.is_empty());
            assert_eq!(
                legal
                    .iter()
                    .map(|m| (m.from, m.to, m.jump))
                    .collect::<BTreeSet<_>>(),
                reference_moves(&s)
            );
            if legal.is_empty() {
                break;
            }
            let side = s.to_move();
            let best = legal
                .iter()
                .max_by_key(|m| super::bots::eval::progress(side, m.from, m.to))
                .unwrap();
            let mv = if rng.random_bool(0.7) {
                *best
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            s = Halma::apply(&s, &mv);
        }
    }
}

#[test]
fn perft_from_the_start_matches_the_reference_generator() {
    fn reference_perft(s: &HalmaState, depth: u32) -> u64 {
        let moves = reference_moves(s);
        if depth == 1 || moves.is_empty() {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&(from, to, _)| {
                let mut next = s.clone();
                next.apply_move(from, to);
                reference_perft(&next, depth - 1)
            })
            .sum()
    }
    let start = HalmaState::start(Side::First, CampRule::Referee);
    let counts: Vec<u64> = (1..=2)
        .map(|d| crate::game::perft::<Halma>(&start, d))
        .collect();
    assert_eq!(
        counts,
        vec![reference_perft(&start, 1), reference_perft(&start, 2)]
    );
    assert_eq!(counts, vec![PERFT_START[0], PERFT_START[1]]);
    let basic = HalmaState::start(Side::First, CampRule::Basic);
    assert_eq!(
        crate::game::perft::<Halma>(&basic, 2),
        reference_perft(&basic, 2)
    );
}

/// perft(1) and perft(2) from the start, referee rules (also asserted by the bench).
const PERFT_START: [u64; 2] = [40, 1600];

mod records {
    use super::*;
    use crate::game::record::checks::{fails_at, round_trips};

    /// The first seven moves of a random game from the standard start.
    const OPENING: &str = "E 4,0 5,1 J 15,13 13,11 J 0,3 2,5 J 14,11 12,11 E 1,4 2,4 \
                           E 12,13 12,12 J 3,2 1,4;J 1,4 3,4;J 3,4 1,6";

    fn start() -> HalmaState {
        HalmaState::start(Side::First, CampRule::Referee)
    }

    #[test]
    fn a_record_joins_moves_with_spaces_and_a_jump_s_lines_with_semicolons() {
        let moves = Halma::read_record(&start(), OPENING).unwrap();
        assert_eq!(moves.len(), 7);
        assert_eq!(Halma::write_record(&start(), &moves), OPENING);
        let last = moves[6];
        assert_eq!(
            (last.from, last.to, last.jump),
            (cell(3, 2), cell(1, 6), true)
        );
        let loose = " e 4,0 5,1\tJ 15,13 13,11  j 0,3 2,5 J 14,11 12,11 E 1,4 2,4 \
                     E 12,13 12,12 J 3,2 1,4 ; J 1,4 3,4 ;J 3,4 1,6 ";
        assert_eq!(Halma::read_record(&start(), loose).unwrap(), moves);
    }

    #[test]
    fn random_games_read_back() {
        let records = round_trips::<Halma>(&start(), 11, 40, 80);
        assert!(records.iter().any(|r| r.contains(';')), "some jump chains");
        let white_first = HalmaState::start(Side::Second, CampRule::Basic);
        round_trips::<Halma>(&white_first, 12, 20, 80);
    }

    #[test]
    fn a_bad_move_is_reported_with_its_index() {
        let start = start();
        fails_at::<Halma>(
            &start,
            "E 4,0 5,1 E 15,13 13,11",
            1,
            "E 15,13 13,11",
            "a step goes to one of the 8 adjacent cells",
        );
        fails_at::<Halma>(
            &start,
            "E 4,0 5,1 J 15,13 13,11;E 13,11 12,10",
            1,
            "J 15,13 13,11;E 13,11 12,10",
            "steps and jumps never mix",
        );
        fails_at::<Halma>(
            &start,
            "J 0,3 2,5;J 4,4 6,6",
            0,
            "J 0,3 2,5;J 4,4 6,6",
            "starts at 4,4 but the previous jump ended at 2,5",
        );
        fails_at::<Halma>(
            &start,
            "E 4,0 5,1 4,0",
            0,
            "E 4,0 5,1 4,0",
            "expected exactly two cells after E",
        );
        fails_at::<Halma>(
            &start,
            "4,0 E 4,0 5,1",
            0,
            "4,0",
            "expected it to start with E",
        );
    }
}

// ---------------------------------------------------------------- the ply limit

/// Black's pieces and white's on an otherwise empty board, black to move,
/// under the basic camp rule, `ply` plies played of `ply_limit`.
fn near_the_limit(
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    ply: Option<u32>,
    ply_limit: Option<u32>,
) -> HalmaState {
    place(black, white, Side::First, CampRule::Basic).with_plies(ply, ply_limit)
}

#[test]
fn at_the_ply_limit_more_pieces_inside_the_opposing_camp_win() {
    // Black has two pieces in white's camp, white one in black's.
    let s = near_the_limit(
        &[(15, 15), (14, 15), (8, 8)],
        &[(0, 0), (8, 3)],
        Some(9),
        Some(10),
    );
    assert_eq!(Halma::outcome(&s), Outcome::Ongoing);
    let after = Halma::apply(&s, &moves(&s)[0]);
    assert_eq!(after.ply(), Some(10));
    assert_eq!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::First,
            reason: "more pieces inside the opposing camp at the ply limit".into(),
            termination: HalmaTermination::PlyLimit,
            score: [2, 1],
        }
    );
    assert!(
        moves(&after).is_empty(),
        "no move once the limit is reached"
    );
    assert!(!Halma::has_legal_move(&after));
}

#[test]
fn at_the_ply_limit_equal_counts_draw() {
    let s = near_the_limit(&[(15, 15), (8, 8)], &[(0, 0), (8, 3)], Some(9), Some(10));
    let after = Halma::apply(&s, &moves(&s)[0]);
    assert_eq!(
        Halma::outcome(&after),
        Outcome::Draw {
            reason: "as many pieces inside the opposing camp at the ply limit".into(),
            termination: HalmaTermination::PlyLimit,
            score: [1, 1],
        }
    );
}

#[test]
fn without_a_limit_or_a_ply_count_the_game_goes_on() {
    for (ply, limit) in [(None, None), (Some(9), None)] {
        let s = near_the_limit(&[(15, 15), (8, 8)], &[(0, 0), (8, 3)], ply, limit);
        let after = Halma::apply(&s, &moves(&s)[0]);
        assert_eq!(after.ply(), ply.map(|p| p + 1));
        assert_eq!(Halma::outcome(&after), Outcome::Ongoing);
    }
}

#[test]
fn filling_the_camp_on_the_last_ply_wins_by_the_camp_not_the_limit() {
    let s = state_of(&fixtures()["examples"][0]).with_plies(Some(4), Some(5));
    let after = Halma::apply(&s, &parse_move(&s, &json!("E 4,3 3,2")).unwrap());
    assert!(matches!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::Second,
            termination: HalmaTermination::CampFilled,
            ..
        }
    ));
}

#[test]
fn a_new_game_with_a_ply_limit_counts_its_plies_and_ends_there() {
    let game = crate::games::find("halma").unwrap();
    let mut state = game.new_game(&json!({"ply_limit": 6})).unwrap().state;
    assert_eq!(
        (state["ply"].clone(), state["ply_limit"].clone()),
        (json!(0), json!(6))
    );
    let mut outcome = Value::Null;
    for ply in 1..=6 {
        let listed = game.legal_moves(&state).unwrap();
        let played = game.play(&state, &listed.moves[0]).unwrap();
        assert_eq!(played.state["ply"], json!(ply));
        (state, outcome) = (played.state, played.outcome);
    }
    assert_eq!(
        outcome,
        json!({
            "status": "draw",
            "reason": "as many pieces inside the opposing camp at the ply limit",
            "termination": "ply_limit",
            "score": {"black": 0, "white": 0},
        })
    );
    assert_eq!(game.legal_moves(&state).unwrap().count, 0);
    assert_eq!(game.canonical_state(&state).unwrap(), state);
    let plain = game.new_game(&Value::Null).unwrap().state;
    assert_eq!(plain["ply"], json!(0));
    assert!(plain.get("ply_limit").is_none(), "no limit unless asked");
    assert!(matches!(
        game.new_game(&json!({"ply_limit": 0})),
        Err(GameError::InvalidOption { detail: message, .. }) if message.contains("ply_limit")
    ));
}

#[test]
fn ply_counts_that_cannot_be_are_refused_with_a_pointer() {
    let start = Halma::state_to_json(&HalmaState::start(Side::First, CampRule::Referee));
    let pointer_of = |fields: Value| {
        let mut state = start.clone();
        for (key, value) in fields.as_object().unwrap() {
            state[key] = value.clone();
        }
        match Halma::state_from_json(&state) {
            Err(GameError::InvalidState { pointer, detail }) => (pointer.unwrap(), detail),
            other => panic!("{fields}: expected invalid state, got {other:?}"),
        }
    };
    assert_eq!(
        pointer_of(json!({"ply": 0, "ply_limit": 0})).0,
        "/ply_limit"
    );
    assert_eq!(pointer_of(json!({"ply": -1})).0, "/ply");
    assert_eq!(pointer_of(json!({"ply": "3"})).0, "/ply");
    assert_eq!(pointer_of(json!({"ply": 5_000_000_000u64})).0, "/ply");
    let (pointer, detail) = pointer_of(json!({"ply_limit": 10}));
    assert_eq!(pointer, "/ply_limit");
    assert!(detail.contains("no ply"), "{detail}");
    let (pointer, detail) = pointer_of(json!({"ply": 11, "ply_limit": 10}));
    assert_eq!(pointer, "/ply");
    assert!(detail.contains("from 0 to 10"), "{detail}");
    let mut ended = start.clone();
    ended["ply"] = json!(10);
    ended["ply_limit"] = json!(10);
    let state = Halma::state_from_json(&ended).unwrap();
    assert!(Halma::outcome(&state).is_over());
    assert_eq!(Halma::state_to_json(&state), ended);
}

#[test]
fn the_bots_see_the_ply_limit() {
    // One ply left, one piece each in the opposing camp: black wins by
    // stepping a second piece in (to 11,14 or 11,15), and only the limit
    // makes that a win.
    let s = near_the_limit(&[(15, 15), (10, 14)], &[(0, 0), (8, 3)], Some(9), Some(10));
    let wins = |mv: &HalmaMove| {
        matches!(
            Halma::outcome(&Halma::apply(&s, mv)),
            Outcome::Win {
                winner: Side::First,
                termination: HalmaTermination::PlyLimit,
                ..
            }
        )
    };
    assert_eq!(moves(&s).iter().filter(|m| wins(m)).count(), 2);
    let params = BotParams {
        seed: 1,
        options: HalmaOptions::default(),
    };
    let budget = Budget::unlimited().depth(3);
    for level in ["strong", "minimax"] {
        let level = LevelSpec::parse(level).unwrap();
        let choice = Halma::choose_move(&s, &level, &params, &budget).unwrap();
        assert!(wins(&choice.mv), "{level:?}: {:?}", choice.mv);
        assert!(
            choice.report.score.unwrap() >= i64::from(crate::search::WIN - 1),
            "{level:?}: {:?}",
            choice.report
        );
    }
    let analysis = Halma::analyze(&s, 2, &params, &budget).unwrap();
    for scored in &analysis.moves {
        assert!(wins(&scored.mv), "{scored:?}");
        assert!(scored.exact.is_some(), "{scored:?}");
    }
}

#[test]
fn positions_nearer_the_limit_hash_apart_and_the_clock_plans_for_the_plies_left() {
    let s = near_the_limit(&[(15, 15), (8, 8)], &[(0, 0), (8, 3)], None, None);
    assert_eq!(s.hash(), s.compute_hash());
    let early = s.clone().with_plies(Some(2), Some(10));
    let late = s.clone().with_plies(Some(4), Some(10));
    assert_ne!(early.hash(), late.hash());
    assert_ne!(early.hash(), s.hash());
    let start = HalmaState::start(Side::First, CampRule::Referee);
    let unlimited = super::bots::expected_moves_left(&start);
    assert!(unlimited >= 10.0);
    let limited = start.with_plies(Some(94), Some(100));
    assert_eq!(super::bots::expected_moves_left(&limited), 3.0);
}
