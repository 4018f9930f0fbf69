//! Tests of the rules, forms and levels.

use super::board::square;
use super::movegen::{Kind, Move};
use super::state::State;
use super::{Advance, AdvanceTermination, Color};
use crate::game::erased::{BotRequest, StateInput, TextParams};
use crate::game::{BotParams, Bots, Budget, Codec, Outcome, Rules, Side};
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    crate::test_data::json(&format!("advance/{name}"))
}

/// A state from rows, `to_move` and unknown ply.
fn board(rows: [&str; 9], to_move: Color) -> State {
    State::from_rows(&rows, to_move, None).expect("valid test board")
}

fn legal(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    Advance::legal_moves(state, &mut moves);
    moves
}

/// The legal moves as notation, sorted.
fn notations(state: &State) -> Vec<String> {
    let mut list: Vec<String> = legal(state).iter().map(super::notation::notation).collect();
    list.sort();
    list
}

/// The legal moves of the piece on (row, col), as notation, sorted.
fn moves_from(state: &State, row: usize, col: usize) -> Vec<String> {
    let mut list: Vec<String> = legal(state)
        .iter()
        .filter(|m| m.from as usize == square(row, col))
        .map(super::notation::notation)
        .collect();
    list.sort();
    list
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn fixture_state(position: &Value) -> State {
    let rows: Vec<String> = position["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let to_move = Color::from_name(position["to_move"].as_str().unwrap()).unwrap();
    State::from_rows(&rows, to_move, None).unwrap()
}

fn perft_cases(max_nodes: u64) -> Vec<(String, State, u32, u64)> {
    let data = fixture("perft.json");
    let mut cases = Vec::new();
    for position in data["positions"].as_array().unwrap() {
        let state = fixture_state(position);
        for (depth, count) in position["counts"].as_object().unwrap() {
            let count = count.as_u64().unwrap();
            if count <= max_nodes {
                let name = position["name"].as_str().unwrap().to_string();
                cases.push((name, state.clone(), depth.parse().unwrap(), count));
            }
        }
    }
    cases
}

#[test]
fn perft_fixture_small_counts() {
    for (name, state, depth, count) in perft_cases(200_000) {
        assert_eq!(
            super::movegen::perft(&mut state.clone(), depth),
            count,
            "{name} depth {depth}"
        );
    }
}

#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::advance::tests::perft_fixture_deep_counts -- --ignored"]
fn perft_fixture_deep_counts() {
    for (name, state, depth, count) in perft_cases(u64::MAX) {
        let found = super::movegen::perft(&mut state.clone(), depth);
        assert_eq!(found, count, "{name} depth {depth}");
    }
}

/// A board with the given (row, text) lines, the rest empty.
fn sparse(lines: &[(usize, &str)], to_move: Color) -> State {
    let mut rows = ["........."; 9];
    for &(row, text) in lines {
        rows[row] = text;
    }
    board(rows, to_move)
}

#[test]
fn start_position_has_43_moves() {
    let state = Advance::new_game(Default::default()).unwrap();
    assert_eq!(legal(&state).len(), 43);
    assert_eq!(Advance::outcome(&state), Outcome::Ongoing);
    assert_eq!(state.ply(), Some(0));
}

#[test]
fn zombie_steps_captures_and_leaps_forward() {
    let state = sparse(
        &[(2, "....z.Z.."), (3, "...b....."), (4, "....Z....")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-e6", "e5-f6", "e5xd6", "e5xe7"])
    );
    let leap = legal(&state)
        .into_iter()
        .find(|m| m.kind == Kind::Leap)
        .unwrap();
    assert_eq!(super::notation::notation(&leap), "e5xe7");
    let black = sparse(
        &[(2, "....z.Z.."), (3, "...b....."), (4, "....Z....")],
        Color::Black,
    );
    assert_eq!(
        moves_from(&black, 2, 4),
        sorted(&["e7-e6", "e7-f6", "e7xe5"])
    );
}

#[test]
fn zombie_cannot_take_protected_pieces_even_by_leaping() {
    let state = sparse(
        &[(2, "...sz...."), (3, "...b....."), (4, "....Z....")],
        Color::White,
    );
    assert_eq!(moves_from(&state, 4, 4), sorted(&["e5-e6", "e5-f6"]));
}

#[test]
fn zombie_on_its_last_row_has_no_moves_and_its_side_loses() {
    let state = sparse(&[(0, "Z........"), (8, "........z")], Color::White);
    assert!(legal(&state).is_empty());
    assert_eq!(
        Advance::outcome(&state),
        Outcome::Win {
            winner: Side::Second,
            reason: "no legal move".into(),
            termination: AdvanceTermination::NoLegalMove,
            score: [1, 1],
        }
    );
    let black = sparse(&[(0, "Z........"), (8, "........z")], Color::Black);
    assert!(legal(&black).is_empty());
}

#[test]
fn builder_steps_builds_and_captures_but_not_walls() {
    let state = sparse(&[(7, ".z......."), (8, "B#.......")], Color::White);
    assert_eq!(
        moves_from(&state, 8, 0),
        sorted(&["a1-a2", "a1#a2", "a1xb2"])
    );
    let build = legal(&state)
        .into_iter()
        .find(|m| m.kind == Kind::Build)
        .unwrap();
    let after = Advance::apply(&state, &build);
    assert_eq!(after.row_text(7), "#z.......");
    assert_eq!(after.row_text(8), "B#.......");
    assert_eq!(after.to_move(), Color::Black);
}

#[test]
fn jester_moves_swaps_and_converts_but_never_captures() {
    let state = sparse(
        &[(3, "...MJds.."), (4, "...gJ#..."), (5, "...B.s...")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-e4", "e5=f4", "e5=f6", "e5~d4", "e5~d6"])
    );
    let convert = super::notation::parse_move(&state, &json!("e5=f6")).unwrap();
    assert_eq!(convert.kind, Kind::Convert);
    let after = Advance::apply(&state, &convert);
    assert_eq!(after.row_text(3), "...MJDs..");
    assert_eq!(
        after.material(Color::White),
        state.material(Color::White) + 7
    );
    assert_eq!(
        after.material(Color::Black),
        state.material(Color::Black) - 7
    );
    let swap = super::notation::parse_move(&state, &json!("e5~d6")).unwrap();
    let after = Advance::apply(&state, &swap);
    assert_eq!(after.row_text(3), "...JJds..");
    assert_eq!(after.row_text(4), "...gM#...");
}

#[test]
fn miner_slides_and_takes_enemies_and_walls() {
    let state = sparse(
        &[(2, "...sz...."), (4, "..#.M..s."), (6, "....Z....")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-d5", "e5-e4", "e5-e6", "e5-f5", "e5-g5", "e5xc5", "e5xh5"])
    );
    let wall = super::notation::parse_move(&state, &json!("e5xc5")).unwrap();
    let after = Advance::apply(&state, &wall);
    assert_eq!(after.row_text(4), "..M....s.");
}

#[test]
fn sentinel_jumps_over_anything_from_a_corner() {
    let state = sparse(
        &[(6, ".Z......."), (7, "##c......"), (8, "S#.......")],
        Color::White,
    );
    assert_eq!(moves_from(&state, 8, 0), sorted(&["a1xc2"]));
}

#[test]
fn catapult_steps_to_empty_squares_and_shoots_at_its_offsets() {
    let state = board(
        [
            ".........",
            "....j....",
            "..b.#.s..",
            ".........",
            ".g.#C..Z.",
            "....z....",
            "..ms.....",
            "....#....",
            ".........",
        ],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-e6", "e5-f5", "e5*e8", "e5*c7", "e5*g7"])
    );
    let shot = super::notation::parse_move(&state, &json!("e5*e8")).unwrap();
    let after = Advance::apply(&state, &shot);
    assert_eq!(after.row_text(1), ".........");
    assert_eq!(after.row_text(4), ".g.#C..Z.");
}

#[test]
fn dragon_slides_and_captures_only_from_two_squares_away() {
    let state = sparse(
        &[
            (2, "..m......"),
            (3, "....zj..."),
            (4, ".#..D.b.."),
            (5, ".....Z..."),
        ],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&[
            "e5-d5", "e5-c5", "e5-f5", "e5xg5", "e5-e4", "e5-e3", "e5-e2", "e5-e1", "e5-d6",
            "e5xc7", "e5-d4", "e5-c3", "e5-b2", "e5-a1",
        ])
    );
}

#[test]
fn general_steps_and_captures_but_not_into_danger() {
    let state = sparse(
        &[(2, "....g...."), (4, "....G...."), (5, ".....z...")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-d4", "e5-d5", "e5-e4", "e5xf4", "e5-f5"])
    );
}

#[test]
fn generals_are_never_captured() {
    let state = sparse(
        &[(3, "....g...."), (4, "....G...."), (5, "....S....")],
        Color::White,
    );
    assert!(!state.in_danger(Color::White));
    assert!(state.in_danger(Color::Black));
    assert!(legal(&state).iter().all(|m| m.to as usize != square(3, 4)));
}

#[test]
fn sentinel_protection_covers_captures_shots_and_leaps() {
    let rows = [
        ".........",
        ".d.......",
        "....z....",
        ".........",
        ".c..B....",
        ".c..S....",
        ".........",
        ".........",
        ".........",
    ];
    let protected = board(rows, Color::Black);
    let targets: Vec<String> = notations(&protected)
        .into_iter()
        .filter(|n| n.ends_with("e5"))
        .collect();
    assert!(targets.is_empty(), "{targets:?}");
    // The Sentinel itself is not protected: the catapult on b4 shoots it.
    assert!(notations(&protected).contains(&"b4*e4".to_string()));
    let mut open_rows = rows;
    open_rows[5] = ".c.......";
    let open = board(open_rows, Color::Black);
    let mut targets: Vec<String> = notations(&open)
        .into_iter()
        .filter(|n| n.ends_with("xe5") || n.ends_with("*e5"))
        .collect();
    targets.sort();
    assert_eq!(targets, sorted(&["b5*e5", "b8xe5", "e7xe5"]));
}

#[test]
fn sentinels_protect_each_other_but_not_themselves() {
    let pair = sparse(&[(2, "....c...."), (5, "....SS...")], Color::Black);
    assert!(!notations(&pair).iter().any(|n| n.contains('*')));
    let single = sparse(&[(2, "....c...."), (5, "....S....")], Color::Black);
    assert!(notations(&single).contains(&"e7*e4".to_string()));
}

#[test]
fn a_pinned_builder_may_only_stay_on_the_line() {
    let state = sparse(
        &[(0, "....d...."), (7, "....B...."), (8, "....G....")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 7, 4),
        sorted(&["e2-e3", "e2#d3", "e2#e3", "e2#f3", "e2#d2", "e2#f2", "e2#d1", "e2#f1"])
    );
    assert_eq!(
        moves_from(&state, 8, 4),
        sorted(&["e1-d1", "e1-f1", "e1-d2", "e1-f2"])
    );
    assert_eq!(legal(&state).len(), 12);
}

#[test]
fn stepping_in_front_of_one_dragon_may_uncover_another() {
    // The Builder on e2 shields the General from the Dragon on e9; stepping
    // to d2 blocks the Dragon on a2 instead, and uncovers the first line.
    let state = sparse(
        &[(0, "....d...."), (7, "d...B...."), (8, "....G....")],
        Color::White,
    );
    assert!(!moves_from(&state, 7, 4).contains(&"e2-d2".to_string()));
    assert!(!state.in_danger(Color::White));
}

#[test]
fn a_general_beside_its_sentinel_is_never_in_danger() {
    let state = sparse(&[(0, "....d...."), (8, "...SG....")], Color::White);
    assert!(!state.in_danger(Color::White));
    assert_eq!(moves_from(&state, 8, 3), sorted(&["d1-e3"]));
    assert!(moves_from(&state, 8, 4).contains(&"e1-f1".to_string()));
    assert!(!moves_from(&state, 8, 4).contains(&"e1-e2".to_string()));
}

#[test]
fn jester_swaps_with_the_general_only_out_of_danger() {
    let into = sparse(&[(0, ".d......."), (8, "GJ.......")], Color::White);
    assert!(!into.in_danger(Color::White));
    assert!(!moves_from(&into, 8, 1).contains(&"b1~a1".to_string()));
    let out = sparse(&[(0, "....d...."), (8, "...JG....")], Color::White);
    assert!(out.in_danger(Color::White));
    assert!(moves_from(&out, 8, 3).contains(&"d1~e1".to_string()));
    let after = Advance::apply(
        &out,
        &super::notation::parse_move(&out, &json!("d1~e1")).unwrap(),
    );
    assert_eq!(after.row_text(8), "...GJ....");
    assert!(!after.in_danger(Color::White));
}

#[test]
fn danger_from_zombie_leaps_and_catapult_shots() {
    let leap = sparse(&[(6, "....z...."), (8, "....G....")], Color::White);
    assert!(leap.in_danger(Color::White));
    let blocked = sparse(
        &[(6, "....z...."), (7, "....#...."), (8, "....G....")],
        Color::White,
    );
    assert!(!blocked.in_danger(Color::White));
    let shot = sparse(
        &[(5, "....c...."), (6, "....#...."), (8, "....G....")],
        Color::White,
    );
    assert!(shot.in_danger(Color::White));
    let diagonal = sparse(&[(6, "..c......"), (8, "....G....")], Color::White);
    assert!(diagonal.in_danger(Color::White));
    let adjacent_dragon = sparse(&[(7, "....d...."), (8, "....G....")], Color::White);
    assert!(!adjacent_dragon.in_danger(Color::White));
    let far_miner = sparse(&[(0, "....m...."), (8, "....G....")], Color::White);
    assert!(far_miner.in_danger(Color::White));
    let diagonal_miner = sparse(&[(4, "m........"), (8, "....G....")], Color::White);
    assert!(!diagonal_miner.in_danger(Color::White));
}

#[test]
fn a_side_without_a_general_has_no_constraint() {
    let state = sparse(&[(0, "....d...."), (8, "....B....")], Color::White);
    assert_eq!(moves_from(&state, 8, 4).len(), 5 * 2);
}

#[test]
fn two_generals_of_one_colour_are_rejected() {
    let value = json!({"board": ["g.......g", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "....G...."], "to_move": "white"});
    let err = Advance::state_from_json(&value).unwrap_err();
    match err {
        crate::game::GameError::InvalidState { pointer, detail } => {
            assert_eq!(pointer.as_deref(), Some("/board/0"));
            assert!(detail.contains("second black General"), "{detail}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn material_rule_after_200_plies() {
    let rows = [
        "....g....",
        "....d....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "....M....",
        "....G....",
    ];
    let white_ahead = State::from_rows(&rows, Color::White, Some(200)).unwrap();
    assert!(legal(&white_ahead).is_empty());
    assert_eq!(
        Advance::outcome(&white_ahead),
        Outcome::Win {
            winner: Side::Second,
            reason: "more material after 100 full turns".into(),
            termination: AdvanceTermination::MoveLimit,
            score: [4, 7],
        }
    );
    let earlier = State::from_rows(&rows, Color::White, Some(199)).unwrap();
    assert!(!legal(&earlier).is_empty());
    let unknown = State::from_rows(&rows, Color::White, None).unwrap();
    assert_eq!(Advance::outcome(&unknown), Outcome::Ongoing);
    let even = [
        "....g....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "....G....",
    ];
    let drawn = State::from_rows(&even, Color::Black, Some(200)).unwrap();
    assert_eq!(
        Advance::outcome(&drawn),
        Outcome::Draw {
            reason: "equal material after 100 full turns".into(),
            termination: AdvanceTermination::MoveLimit,
            score: [0, 0],
        }
    );
    let after = Advance::apply(&earlier, &legal(&earlier)[0]);
    assert_eq!(after.ply(), Some(200));
    assert!(Advance::outcome(&after).is_over());
}

/// The levels from weakest to strongest.
const LEVELS: [&str; 5] = ["legal", "win", "greedy", "predict", "strong"];

/// Plays one seed example at `level` through the type-erased view and
/// returns the move object.
fn seed_example_move(example: &Value, level: &str, seed: u64, budget: &Budget) -> Value {
    let game = crate::games::find("advance").expect("advance is registered");
    let request = BotRequest {
        state: StateInput::Json(json!({"board": example["board"], "to_move": example["to_move"]})),
        level: Some(level.to_string()),
        seed: Some(seed),
        ..Default::default()
    };
    game.bot_move(&request, budget).expect("bot move").mv
}

fn assert_expected(example: &Value, mv: &Value, level: &str) {
    let expected = &example["expected"];
    let name = example["name"].as_str().unwrap();
    for field in ["kind", "from", "to"] {
        assert_eq!(
            mv[field], expected[field],
            "{name} at level {level}: got {mv}"
        );
    }
}

#[test]
fn seed_examples_pass_at_their_level_and_every_stronger_one() {
    let game = crate::games::find("advance").unwrap();
    for example in fixture("seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        let state = json!({"board": example["board"], "to_move": example["to_move"]});
        if let Some(count) = example.get("legal_move_count") {
            assert_eq!(
                game.legal_moves(&state).unwrap().count as u64,
                count.as_u64().unwrap()
            );
        }
        let first = LEVELS.iter().position(|l| *l == example["level"]).unwrap();
        for level in &LEVELS[first..] {
            for seed in 0..4 {
                let budget = Budget::unlimited().depth(4);
                let mv = seed_example_move(example, level, seed, &budget);
                assert_expected(example, &mv, level);
            }
        }
    }
}

#[test]
fn strong_passes_the_seed_examples_under_a_time_budget() {
    for example in fixture("seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        let mv = seed_example_move(example, "strong", 1, &Budget::with_time_ms(100));
        assert_expected(example, &mv, "strong");
    }
}

#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::advance::tests::strong_passes_the_seed_examples_at_many_budgets -- --ignored"]
fn strong_passes_the_seed_examples_at_many_budgets() {
    let mut budgets: Vec<(String, Budget)> = (1..=6)
        .map(|d| (format!("depth {d}"), Budget::unlimited().depth(d)))
        .collect();
    for ms in [30, 100, 250, 1000] {
        budgets.push((format!("{ms} ms"), Budget::with_time_ms(ms)));
    }
    for example in fixture("seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        for (name, budget) in &budgets {
            let budget = match budget.time_ms {
                Some(ms) => Budget::with_time_ms(ms),
                None => budget.clone(),
            };
            let mv = seed_example_move(example, "strong", 1, &budget);
            println!("{} at {name}: {}", example["name"], mv["notation"]);
            assert_expected(example, &mv, &format!("strong ({name})"));
        }
    }
}

/// An independent, slow and plain implementation of the rules on a grid of
/// characters, to check the fast generator against.
mod slow {
    use super::super::board::Color;
    use super::super::movegen::Kind;
    use super::super::state::State;

    pub type Grid = [[char; 9]; 9];
    /// (kind, from, to) with (row, col) squares.
    pub type SlowMove = (Kind, (i32, i32), (i32, i32));

    pub fn grid(state: &State) -> Grid {
        let mut g = [['.'; 9]; 9];
        for (r, row) in g.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = state.char_at(r, c);
            }
        }
        g
    }

    fn side_of(ch: char) -> Option<Color> {
        match ch {
            'A'..='Z' => Some(Color::White),
            'a'..='z' => Some(Color::Black),
            _ => None,
        }
    }

    fn get(g: &Grid, r: i32, c: i32) -> Option<char> {
        if (0..9).contains(&r) && (0..9).contains(&c) {
            Some(g[r as usize][c as usize])
        } else {
            None
        }
    }

    fn is_protected(g: &Grid, r: i32, c: i32) -> bool {
        let Some(side) = get(g, r, c).and_then(side_of) else {
            return false;
        };
        let sentinel = if side == Color::White { 'S' } else { 's' };
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .iter()
            .any(|(dr, dc)| get(g, r + dr, c + dc) == Some(sentinel))
    }

    /// Whether `side` could capture on (r, c); `general_too` treats a General as capturable.
    fn takeable(g: &Grid, r: i32, c: i32, side: Color, general_too: bool) -> bool {
        match get(g, r, c) {
            Some(ch) if side_of(ch) == Some(side.other()) => {
                (general_too || !ch.eq_ignore_ascii_case(&'g')) && !is_protected(g, r, c)
            }
            _ => false,
        }
    }

    pub fn pseudo(g: &Grid, side: Color, general_too: bool) -> Vec<SlowMove> {
        let mut out = Vec::new();
        let king = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        let ortho = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        for r in 0..9 {
            for c in 0..9 {
                let ch = g[r as usize][c as usize];
                if side_of(ch) != Some(side) {
                    continue;
                }
                let empty = |dr: i32, dc: i32| get(g, r + dr, c + dc) == Some('.');
                let take = |dr: i32, dc: i32| takeable(g, r + dr, c + dc, side, general_too);
                let mut add = |kind, dr: i32, dc: i32| out.push((kind, (r, c), (r + dr, c + dc)));
                match ch.to_ascii_lowercase() {
                    'z' => {
                        let f = if side == Color::White { -1 } else { 1 };
                        for dc in [-1, 0, 1] {
                            if empty(f, dc) {
                                add(Kind::Move, f, dc);
                                if take(2 * f, 2 * dc) {
                                    add(Kind::Leap, 2 * f, 2 * dc);
                                }
                            } else if take(f, dc) {
                                add(Kind::Capture, f, dc);
                            }
                        }
                    }
                    'b' => {
                        for (dr, dc) in king {
                            if empty(dr, dc) {
                                add(Kind::Move, dr, dc);
                                add(Kind::Build, dr, dc);
                            } else if take(dr, dc) {
                                add(Kind::Capture, dr, dc);
                            }
                        }
                    }
                    'j' => {
                        for (dr, dc) in king {
                            let target = get(g, r + dr, c + dc);
                            match target {
                                Some('.') => add(Kind::Move, dr, dc),
                                Some(t)
                                    if side_of(t) == Some(side)
                                        && !t.eq_ignore_ascii_case(&'j') =>
                                {
                                    add(Kind::Swap, dr, dc)
                                }
                                Some(t)
                                    if side_of(t) == Some(side.other())
                                        && !t.eq_ignore_ascii_case(&'g') =>
                                {
                                    add(Kind::Convert, dr, dc)
                                }
                                _ => {}
                            }
                        }
                    }
                    'm' | 'd' => {
                        let (dirs, min, walls): (&[(i32, i32)], i32, bool) =
                            if ch.eq_ignore_ascii_case(&'m') {
                                (&ortho, 1, true)
                            } else {
                                (&king, 2, false)
                            };
                        for &(dr, dc) in dirs {
                            let mut k = 1;
                            while empty(k * dr, k * dc) {
                                add(Kind::Move, k * dr, k * dc);
                                k += 1;
                            }
                            let wall = walls && get(g, r + k * dr, c + k * dc) == Some('#');
                            if k >= min && (take(k * dr, k * dc) || wall) {
                                add(Kind::Capture, k * dr, k * dc);
                            }
                        }
                    }
                    's' => {
                        for (dr, dc) in [
                            (-2, -1),
                            (-2, 1),
                            (-1, -2),
                            (-1, 2),
                            (1, -2),
                            (1, 2),
                            (2, -1),
                            (2, 1),
                        ] {
                            if empty(dr, dc) {
                                add(Kind::Move, dr, dc);
                            } else if take(dr, dc) {
                                add(Kind::Capture, dr, dc);
                            }
                        }
                    }
                    'c' => {
                        for (dr, dc) in ortho {
                            if empty(dr, dc) {
                                add(Kind::Move, dr, dc);
                            }
                        }
                        for (dr, dc) in [
                            (-3, 0),
                            (3, 0),
                            (0, -3),
                            (0, 3),
                            (-2, -2),
                            (-2, 2),
                            (2, -2),
                            (2, 2),
                        ] {
                            if take(dr, dc) {
                                add(Kind::Shoot, dr, dc);
                            }
                        }
                    }
                    _ => {
                        for (dr, dc) in king {
                            if empty(dr, dc) {
                                add(Kind::Move, dr, dc);
                            } else if take(dr, dc) {
                                add(Kind::Capture, dr, dc);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    pub fn play(g: &Grid, (kind, (fr, fc), (tr, tc)): SlowMove) -> Grid {
        let mut n = *g;
        let (f, t) = ((fr as usize, fc as usize), (tr as usize, tc as usize));
        match kind {
            Kind::Move | Kind::Capture | Kind::Leap => {
                n[t.0][t.1] = g[f.0][f.1];
                n[f.0][f.1] = '.';
            }
            Kind::Build => n[t.0][t.1] = '#',
            Kind::Swap => {
                n[t.0][t.1] = g[f.0][f.1];
                n[f.0][f.1] = g[t.0][t.1];
            }
            Kind::Convert => {
                let ch = g[t.0][t.1];
                n[t.0][t.1] = if ch.is_ascii_uppercase() {
                    ch.to_ascii_lowercase()
                } else {
                    ch.to_ascii_uppercase()
                };
            }
            Kind::Shoot => n[t.0][t.1] = '.',
        }
        n
    }

    pub fn danger(g: &Grid, side: Color) -> bool {
        let general = if side == Color::White { 'G' } else { 'g' };
        let Some(at) = (0..9)
            .flat_map(|r| (0..9).map(move |c| (r, c)))
            .find(|&(r, c)| g[r as usize][c as usize] == general)
        else {
            return false;
        };
        if is_protected(g, at.0, at.1) {
            return false;
        }
        pseudo(g, side.other(), true)
            .iter()
            .any(|&(kind, _, to)| to == at && kind.is_capture())
    }

    pub fn legal(g: &Grid, side: Color) -> Vec<SlowMove> {
        let mut moves: Vec<SlowMove> = pseudo(g, side, false)
            .into_iter()
            .filter(|&m| !danger(&play(g, m), side))
            .collect();
        moves.sort_by_key(|&(k, f, t)| (k as u8, f, t));
        moves
    }
}

/// The fast generator's moves in the slow form, sorted.
fn fast_as_slow(state: &State) -> Vec<slow::SlowMove> {
    let mut moves: Vec<slow::SlowMove> = legal(state)
        .iter()
        .map(|m| {
            let [fr, fc] = m.from_row_col();
            let [tr, tc] = m.to_row_col();
            (m.kind, (fr as i32, fc as i32), (tr as i32, tc as i32))
        })
        .collect();
    moves.sort_by_key(|&(k, f, t)| (k as u8, f, t));
    moves
}

/// Plays `plies` random legal moves from `state` with a seeded generator,
/// calling `check` on every position reached (the first included).
fn random_playout(mut state: State, seed: u64, plies: usize, mut check: impl FnMut(&State)) {
    use rand::Rng;
    let mut rng = BotParams::<crate::game::NoOptions>::seeded(seed).rng();
    for _ in 0..plies {
        check(&state);
        let moves = legal(&state);
        if moves.is_empty() {
            break;
        }
        // Prefer captures now and then, so that playouts reach open, sparse positions.
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.kind != Kind::Move && m.kind != Kind::Build)
            .collect();
        let mv = if !captures.is_empty() && rng.random_bool(0.5) {
            captures[rng.random_range(0..captures.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        state = Advance::apply(&state, &mv);
    }
}

/// A random board: each square empty with probability ~60%, else a random
/// piece or wall; at most one General a side.
fn random_board(seed: u64) -> State {
    use rand::Rng;
    let mut rng = BotParams::<crate::game::NoOptions>::seeded(seed).rng();
    let pieces: Vec<char> = "ZBJMSCDzbjmscd#".chars().collect();
    let mut rows = vec![vec!['.'; 9]; 9];
    for row in rows.iter_mut() {
        for cell in row.iter_mut() {
            if rng.random_bool(0.4) {
                *cell = pieces[rng.random_range(0..pieces.len())];
            }
        }
    }
    for general in ['G', 'g'] {
        if rng.random_bool(0.9) {
            rows[rng.random_range(0..9)][rng.random_range(0..9)] = general;
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let side = if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    State::from_rows(&rows, side, None).expect("generated board is valid")
}

fn check_position(state: &State) {
    let side = state.to_move();
    let fast = fast_as_slow(state);
    let slow = slow::legal(&slow::grid(state), side);
    assert_eq!(fast, slow, "move lists differ in\n{state:?}");
    for mv in legal(state) {
        let after = Advance::apply(state, &mv);
        assert!(
            !after.in_danger(side),
            "{mv:?} leaves the General in danger in\n{state:?}"
        );
        assert_eq!(
            after.hash,
            after.full_hash(),
            "hash out of step after {mv:?}"
        );
        let notation = Advance::notation(state, &mv);
        assert_eq!(Advance::parse_move(state, &json!(notation)).unwrap(), mv);
        assert_eq!(
            Advance::parse_move(state, &Advance::move_to_json(state, &mv)).unwrap(),
            mv
        );
    }
    let json = Advance::state_to_json(state);
    assert_eq!(&Advance::state_from_json(&json).unwrap(), state);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn playouts_from_the_start_agree_with_the_slow_rules(seed in any::<u64>()) {
            random_playout(State::start(), seed, 60, check_position);
        }

        #[test]
        fn random_boards_agree_with_the_slow_rules(seed in any::<u64>()) {
            let state = random_board(seed);
            check_position(&state);
            random_playout(state, seed, 10, check_position);
        }

        #[test]
        fn moves_not_listed_are_refused(seed in any::<u64>(), from in 0usize..81, to in 0usize..81, kind in 0usize..7) {
            let state = random_board(seed);
            let candidate = json!({"from": [from / 9, from % 9], "to": [to / 9, to % 9], "kind": Kind::ALL[kind].name()});
            let listed = legal(&state).iter().any(|m| m.from_row_col() == [from / 9, from % 9] && m.to_row_col() == [to / 9, to % 9] && m.kind == Kind::ALL[kind]);
            prop_assert_eq!(Advance::parse_move(&state, &candidate).is_ok(), listed);
        }
    }
}

fn start_json() -> Value {
    Advance::state_to_json(&State::start())
}

fn invalid_state(value: &Value) -> (Option<String>, String) {
    match Advance::state_from_json(value) {
        Err(crate::game::GameError::InvalidState { pointer, detail }) => (pointer, detail),
        other => panic!("expected invalid_state, got {other:?}"),
    }
}

#[test]
fn json_state_errors_point_at_the_field() {
    let mut bad_char = start_json();
    bad_char["board"][3] = json!("...x.....");
    let (pointer, detail) = invalid_state(&bad_char);
    assert_eq!(pointer.as_deref(), Some("/board/3"));
    assert!(
        detail.contains("row 3, column 3") && detail.contains("'x'"),
        "{detail}"
    );

    let mut short_row = start_json();
    short_row["board"][8] = json!("MJCSGSDJ");
    let (pointer, detail) = invalid_state(&short_row);
    assert_eq!(pointer.as_deref(), Some("/board/8"));
    assert!(
        detail.contains("expected 9 characters, found 8"),
        "{detail}"
    );

    let mut rows = start_json();
    rows["board"].as_array_mut().unwrap().pop();
    assert_eq!(invalid_state(&rows).0.as_deref(), Some("/board"));

    let mut not_string = start_json();
    not_string["board"][2] = json!(7);
    assert_eq!(invalid_state(&not_string).0.as_deref(), Some("/board/2"));

    let mut side = start_json();
    side["to_move"] = json!("red");
    assert_eq!(invalid_state(&side).0.as_deref(), Some("/to_move"));

    for ply in [json!(-1), json!(201), json!("3"), json!(1.5)] {
        let mut state = start_json();
        state["ply"] = ply;
        assert_eq!(invalid_state(&state).0.as_deref(), Some("/ply"));
    }
    assert!(invalid_state(&json!([1, 2])).1.contains("object"));

    let mut unknown_ply = start_json();
    unknown_ply.as_object_mut().unwrap().remove("ply");
    let state = Advance::state_from_json(&unknown_ply).unwrap();
    assert_eq!(state.ply(), None);
    assert_eq!(Advance::state_to_json(&state), unknown_ply);
}

#[test]
fn move_notation_and_objects_are_read_leniently_but_exactly() {
    let state = sparse(&[(7, ".z......."), (8, "B#......G")], Color::White);
    let step = super::notation::parse_move(&state, &json!(" A1-A2 ")).unwrap();
    assert_eq!(step.kind, Kind::Move);
    let build = super::notation::parse_move(&state, &json!("a1#a2")).unwrap();
    assert_eq!(build.kind, Kind::Build);
    let capture = super::notation::parse_move(&state, &json!("a1b2")).unwrap();
    assert_eq!(capture.kind, Kind::Capture);
    let ambiguous = super::notation::parse_move(&state, &json!("a1a2")).unwrap_err();
    assert!(ambiguous.to_string().contains("ambiguous"), "{ambiguous}");
    let object = json!({"from": [8, 0], "to": [7, 0], "kind": "build"});
    assert_eq!(super::notation::parse_move(&state, &object).unwrap(), build);
    let without_kind = json!({"from": [8, 0], "to": [7, 1]});
    assert_eq!(
        super::notation::parse_move(&state, &without_kind).unwrap(),
        capture
    );
    let only_notation = json!({"notation": "a1-a2"});
    assert_eq!(
        super::notation::parse_move(&state, &only_notation).unwrap(),
        step
    );
    for (bad, expected) in [
        (json!("a1-b2"), "the legal move from a1 to b2 is a1xb2"),
        (
            json!("b1-b2"),
            "white is to move and it holds the wall on b1",
        ),
        (json!("z9-a1"), "cannot read"),
        (json!("a1?a2"), "cannot read"),
        (json!({"from": [9, 0], "to": [7, 0]}), "\"from\""),
        (
            json!({"from": [8, 0], "to": [7, 0], "kind": "jump"}),
            "unknown move kind",
        ),
        (json!(42), "notation string"),
    ] {
        let error = super::notation::parse_move(&state, &bad).unwrap_err();
        assert!(error.to_string().contains(expected), "{bad}: {error}");
        assert!(matches!(
            error,
            crate::game::GameError::IllegalMove {
                code: "illegal_move",
                ..
            }
        ));
    }
    let json = Advance::move_to_json(&state, &build);
    assert_eq!(
        json,
        json!({"kind": "build", "from": [8, 0], "to": [7, 0], "notation": "a1#a2"})
    );
}

#[test]
fn text_forms_through_the_erased_view() {
    let game = crate::games::find("advance").unwrap();
    let text = State::start().to_text();
    let query = TextParams::from_pairs([("to_move", "white")]);
    let listed = game
        .text_legal_moves(&text.replace('\n', "\r\n"), &query)
        .unwrap();
    assert_eq!(listed.lines().count(), 43);
    assert!(listed.lines().any(|l| l == "b1~a2"));
    let request = BotRequest {
        state: StateInput::Text {
            body: text.trim_end().to_string(),
            params: query.clone(),
        },
        level: Some("greedy".into()),
        seed: Some(5),
        ..Default::default()
    };
    let reply = game.prepare_bot(request).unwrap()(&Budget::unlimited())
        .unwrap()
        .text
        .unwrap();
    assert_eq!(reply.lines().count(), 9);
    assert!(reply.ends_with('\n'));
    let after = super::state::parse_board_text(&reply, Color::Black, None).unwrap();
    assert!(legal(&State::start())
        .iter()
        .any(|m| State::start().after(*m).to_text() == after.to_text()));

    let errors = [
        (text.replacen('Z', "Q", 1), "line 8, column 2"),
        (
            text.replacen("BZZZZZZZB", "BZZZZZZZ", 1),
            "line 8: expected 9 characters, found 8",
        ),
        (format!("{text}.........\n"), "line 10"),
        (
            text.lines().take(7).collect::<Vec<_>>().join("\n"),
            "line 8",
        ),
        (String::new(), "line 1"),
    ];
    for (body, expected) in errors {
        let error = game.text_legal_moves(&body, &query).unwrap_err();
        assert!(error.to_string().contains(expected), "{expected}: {error}");
    }
    let no_side = game
        .text_legal_moves(&text, &TextParams::default())
        .unwrap_err();
    assert!(no_side.to_string().contains("to_move"), "{no_side}");
    let with_ply = TextParams::from_pairs([("to_move", "white"), ("ply", "200")]);
    assert_eq!(game.text_legal_moves(&text, &with_ply).unwrap(), "");
}

#[test]
fn levels_are_deterministic_and_respect_tiny_budgets() {
    let examples = fixture("seed-examples.json");
    let state = fixture_state(&examples["examples"][2]);
    let legal_moves = legal(&state);
    for level in LEVELS {
        let spec = crate::game::LevelSpec::parse(level).unwrap();
        let first = Advance::choose_move(
            &state,
            &spec,
            &BotParams::seeded(3),
            &Budget::unlimited().depth(2),
        )
        .unwrap();
        let again = Advance::choose_move(
            &state,
            &spec,
            &BotParams::seeded(3),
            &Budget::unlimited().depth(2),
        )
        .unwrap();
        assert_eq!(first.mv, again.mv, "{level}");
        for budget in [Budget::unlimited().nodes(1), Budget::with_time_ms(0)] {
            let choice =
                Advance::choose_move(&state, &spec, &BotParams::seeded(3), &budget).unwrap();
            assert!(legal_moves.contains(&choice.mv), "{level}");
        }
    }
    let bad = crate::game::LevelSpec::parse("greedy:depth=3").unwrap();
    assert!(
        Advance::choose_move(&state, &bad, &BotParams::seeded(1), &Budget::unlimited()).is_err()
    );
    let pure = crate::game::LevelSpec::parse("strong:margin=0").unwrap();
    let choice = Advance::choose_move(
        &state,
        &pure,
        &BotParams::seeded(1),
        &Budget::unlimited().depth(3),
    )
    .unwrap();
    assert_eq!(super::notation::notation(&choice.mv), "a8-d5");
}

#[test]
fn legal_level_spreads_over_the_moves() {
    let state = State::start();
    let spec = crate::game::LevelSpec::parse("legal").unwrap();
    let chosen: std::collections::HashSet<String> = (0..200)
        .map(|seed| {
            let choice = Advance::choose_move(
                &state,
                &spec,
                &BotParams::seeded(seed),
                &Budget::unlimited(),
            )
            .unwrap();
            super::notation::notation(&choice.mv)
        })
        .collect();
    assert!(chosen.len() > 30, "{}", chosen.len());
}

#[test]
fn analyze_gives_scored_lines_and_proves_a_win_in_one() {
    let game = crate::games::find("advance").unwrap();
    let examples = fixture("seed-examples.json");
    let example = &examples["examples"][1];
    let request = BotRequest {
        state: StateInput::Json(json!({"board": example["board"], "to_move": example["to_move"]})),
        level: None,
        seed: Some(1),
        ..Default::default()
    };
    let reply = game
        .analyze(&request, 3, &Budget::unlimited().depth(2))
        .unwrap();
    assert_eq!(reply.moves.len(), 3);
    assert_eq!(reply.moves[0].mv["notation"], "e7-d8");
    assert_eq!(reply.moves[0].exact.as_deref(), Some("win in 1 plies"));
    assert!(reply.moves[0].score > reply.moves[1].score);
    assert!(reply.moves.iter().all(|m| !m.pv.is_empty()));
}

#[test]
fn play_through_the_erased_view_reports_the_outcome() {
    let game = crate::games::find("advance").unwrap();
    let examples = fixture("seed-examples.json");
    let example = &examples["examples"][1];
    let state = json!({"board": example["board"], "to_move": example["to_move"]});
    let reply = game.play(&state, &json!("e7-d8")).unwrap();
    assert_eq!(reply.outcome["status"], "win");
    assert_eq!(reply.outcome["winner"], "white");
    assert_eq!(reply.outcome["reason"], "no legal move");
    assert_eq!(game.legal_moves(&reply.state).unwrap().count, 0);
    let over = game.play(&reply.state, &json!("a9-a8")).unwrap_err();
    assert!(matches!(over, crate::game::GameError::GameOver { .. }));
    let finished = Advance::state_from_json(&reply.state).unwrap();
    for level in LEVELS {
        let spec = crate::game::LevelSpec::parse(level).unwrap();
        let error = Advance::choose_move(
            &finished,
            &spec,
            &BotParams::seeded(1),
            &Budget::unlimited(),
        );
        assert!(
            matches!(error, Err(crate::game::GameError::GameOver { .. })),
            "{level}"
        );
    }
    let new = game.new_game(&Value::Null).unwrap();
    assert_eq!(new.state, start_json());
    assert!(game.new_game(&json!({"size": 7})).is_err());
}

/// The position seen from the other side: rows reversed, colours swapped.
fn mirrored(state: &State) -> State {
    let rows: Vec<String> = (0..9)
        .rev()
        .map(|r| {
            state
                .row_text(r)
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    State::from_rows(&rows, state.to_move().other(), state.ply()).unwrap()
}

#[test]
fn evaluation_and_move_counts_are_colour_symmetric() {
    for seed in 0..40 {
        let state = random_board(seed);
        let mirror = mirrored(&state);
        assert_eq!(
            super::bots::eval::evaluate(&state),
            super::bots::eval::evaluate(&mirror),
            "{state:?}"
        );
        assert_eq!(legal(&state).len(), legal(&mirror).len(), "{state:?}");
    }
}

#[test]
fn generic_perft_counts_finished_games_as_leaves_unlike_the_fixture() {
    let examples = fixture("seed-examples.json");
    let state = fixture_state(&examples["examples"][1]);
    assert_eq!(super::movegen::perft(&mut state.clone(), 2), 2085);
    // The one winning move leaves black without a move: a leaf for the generic perft.
    assert_eq!(crate::game::perft::<Advance>(&state, 2), 2086);
    assert_eq!(crate::game::perft::<Advance>(&State::start(), 3), 80_482);
}

#[test]
fn near_the_material_rule_the_evaluation_follows_material() {
    for seed in 0..40 {
        let base = random_board(seed);
        let rows: Vec<String> = (0..9).map(|r| base.row_text(r)).collect();
        let at_ply = |ply| State::from_rows(&rows, base.to_move(), ply).unwrap();
        let unknown = super::bots::eval::evaluate(&at_ply(None));
        assert_eq!(super::bots::eval::evaluate(&at_ply(Some(100))), unknown);
        let me = base.to_move();
        let lead = base.material(me) - base.material(me.other());
        let last = super::bots::eval::evaluate(&at_ply(Some(199)));
        if lead != 0 {
            assert_eq!(last.signum(), lead.signum(), "seed {seed}: lead {lead}");
        } else {
            assert!(last.abs() <= unknown.abs() / 10 + 1, "seed {seed}");
        }
    }
}

/// Empty rows around the pieces a test places, `(row, col, char)`.
fn pieces_on(pieces: &[(usize, usize, char)], to_move: Color) -> State {
    let mut rows = [['.'; 9]; 9];
    for &(r, c, ch) in pieces {
        rows[r][c] = ch;
    }
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    State::from_rows(&rows, to_move, None).expect("valid test board")
}

fn illegal_reason(state: &State, mv: &str) -> String {
    match super::notation::parse_move(state, &json!(mv)) {
        Err(error) => error.to_string(),
        Ok(found) => panic!("{mv} is legal here: {found:?}"),
    }
}

#[test]
fn an_illegal_move_names_the_rule_it_breaks() {
    let white = Color::White;
    let cases: Vec<(State, &str, &str)> = vec![
        (
            pieces_on(&[(4, 4, 'J'), (3, 4, 'z')], white),
            "e5xe6",
            "a Jester cannot capture",
        ),
        (
            pieces_on(&[(8, 2, 'M'), (6, 2, 'Z')], white),
            "c1-c5",
            "the path from c1 to c5 is blocked at c3",
        ),
        (
            pieces_on(&[(8, 4, 'G'), (7, 4, 'B'), (2, 4, 'd')], white),
            "e2-d2",
            "e2-d2 would leave the white General on e1 under attack by the black Dragon on e7",
        ),
        (
            pieces_on(&[(8, 4, 'G'), (5, 2, 'd')], white),
            "e1-e2",
            "e1-e2 would put the white General on e2 under attack by the black Dragon on c4",
        ),
        (
            pieces_on(&[(8, 0, 'C'), (7, 0, 'z')], white),
            "a1xa2",
            "a Catapult never captures by moving",
        ),
        (
            pieces_on(&[(4, 4, 'D'), (3, 4, 'z')], white),
            "e5xe6",
            "a Dragon cannot capture an adjacent piece",
        ),
        (
            pieces_on(&[(4, 4, 'M'), (1, 4, 'z'), (1, 5, 's')], white),
            "e5xe8",
            "the black Zombie on e8 is protected by the black Sentinel on f8",
        ),
        (
            pieces_on(&[(4, 4, 'Z')], white),
            "e5-e4",
            "a Zombie moves only to the three squares in front of it",
        ),
        (
            pieces_on(&[(4, 4, 'Z'), (3, 4, 'Z'), (2, 4, 'z')], white),
            "e5xe7",
            "a Zombie leaps only over an empty square, and e6 is not empty",
        ),
        (
            pieces_on(&[(4, 4, 'S')], white),
            "e5-e7",
            "a Sentinel jumps like a knight",
        ),
        (
            pieces_on(&[(4, 4, 'B'), (3, 4, 'g')], white),
            "e5xe6",
            "a General is never captured",
        ),
        (
            pieces_on(&[(4, 4, 'Z'), (0, 0, 'g')], white),
            "e5#e6",
            "only a Builder builds walls; this piece is a Zombie",
        ),
        (
            pieces_on(&[(4, 4, 'B'), (3, 4, '#')], white),
            "e5xe6",
            "e6 holds a wall: only a Miner may capture a wall",
        ),
        (
            pieces_on(&[(4, 4, 'b')], white),
            "e5-e6",
            "no legal move from e5: white is to move and it holds the black Builder on e5",
        ),
    ];
    for (state, mv, expected) in cases {
        let reason = illegal_reason(&state, mv);
        assert!(reason.contains(expected), "{mv}: {reason}");
    }
}

#[test]
fn a_ply_whose_parity_disagrees_with_the_side_to_move_is_invalid() {
    let start = Advance::state_to_json(&Advance::new_game(Default::default()).unwrap());
    let mut odd = start.clone();
    odd["ply"] = json!(1);
    let error = Advance::state_from_json(&odd).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("\"ply\" is 1") && text.contains("\"to_move\" is \"white\""),
        "{text}"
    );
    assert!(matches!(
        error,
        crate::game::GameError::InvalidState { pointer: Some(ref p), .. } if p == "/ply"
    ));
    let mut black_at_odd = start;
    black_at_odd["ply"] = json!(1);
    black_at_odd["to_move"] = json!("black");
    assert!(Advance::state_from_json(&black_at_odd).is_ok());
}

mod records {
    use super::*;
    use crate::game::record::checks::{fails_at, round_trips};

    /// The first four moves of a random game from the start.
    const OPENING: &str = "b2-a3 d8-e7 i2#i3 b9~b8";

    fn start() -> State {
        Advance::new_game(Default::default()).unwrap()
    }

    #[test]
    fn a_record_is_the_moves_notations_joined_with_spaces() {
        let moves = Advance::read_record(&start(), OPENING).unwrap();
        assert_eq!(moves.len(), 4);
        assert_eq!(moves[2].kind, Kind::Build);
        assert_eq!(Advance::write_record(&start(), &moves), OPENING);
        let loose = "  B2A3\td8-e7\n i2#I3 b9~b8 ";
        assert_eq!(Advance::read_record(&start(), loose).unwrap(), moves);
    }

    #[test]
    fn random_games_read_back() {
        round_trips::<Advance>(&start(), 21, 60, 300);
    }

    #[test]
    fn a_bad_move_is_reported_with_its_index() {
        fails_at::<Advance>(
            &start(),
            "b2-a3 d8-e7 i2-i9",
            2,
            "i2-i9",
            "a Builder moves only to one of the 8 squares next to it",
        );
        fails_at::<Advance>(
            &start(),
            "b2-a3 d8-e7 i2",
            2,
            "i2",
            "cannot read move notation",
        );
    }
}

#[test]
fn an_analysis_past_its_deadline_on_a_board_full_of_captures_ends_soon() {
    // A position where every reply starts a long exchange: the first
    // iteration, which the deadline does not stop, must not follow them all.
    let board = json!({
        "board": ["#scDBcjmc", "Csd#ssgdz", "SzCjsJMzd", "s#jCbbDd#", "#scDBcjmc",
                  "#scDBcjmc", "#sBBBBBBB", "BBBBBBBBB", "BBBBBBBSB"],
        "to_move": "black"
    });
    let game = crate::games::find("advance").unwrap();
    let request = BotRequest {
        state: StateInput::Json(board),
        ..Default::default()
    };
    let mut budget = Budget::with_time_ms(0);
    budget.deadline = Some(std::time::Instant::now());
    let reply = game.prepare_analysis(request, 3, None).unwrap()(&budget).unwrap();
    assert_eq!(reply.search.depth, Some(1));
    assert_eq!(reply.moves.len(), 3);
    let nodes = reply.search.nodes.unwrap();
    assert!(nodes < 20_000, "{nodes} nodes after the deadline");
}
