//! Rules.

use super::*;

/// Plays naughts along `line` (cells as (row, col)) while crosses play small
/// markers elsewhere, and checks that the game is won exactly at the last one.
fn win_along(n: u8, line: &[(u8, u8)]) {
    let mut state = State::new(n, 9);
    let spare: Vec<(u8, u8)> = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|cell| !line.contains(cell))
        .collect();
    for (i, &(r, c)) in line.iter().enumerate() {
        assert_eq!(state.winner(), None);
        state = state.apply(&Move {
            row: r,
            col: c,
            size: 9 - (i as u8 % 9),
        });
        if i + 1 < line.len() {
            let (xr, xc) = spare[i * 2 % spare.len()];
            state = state.apply(&Move {
                row: xr,
                col: xc,
                size: 1 + i as u8 % 9,
            });
        }
    }
    assert_eq!(state.winner(), Some(O), "{n}x{n} {line:?}");
    assert!(matches!(
        Naughts::outcome(&state),
        Outcome::Win { winner: O, .. }
    ));
    assert!(moves_of(&state).is_empty());
}

#[test]
fn wins_on_rows_columns_and_both_diagonals() {
    for n in [3u8, 4, 5, 8] {
        let k = n.min(9);
        let last = n - 1;
        let _ = k;
        win_along(n, &(0..n).map(|c| (last, c)).collect::<Vec<_>>());
        win_along(n, &(0..n).map(|r| (r, 1)).collect::<Vec<_>>());
        win_along(n, &(0..n).map(|i| (i, i)).collect::<Vec<_>>());
        win_along(n, &(0..n).map(|i| (i, last - i)).collect::<Vec<_>>());
    }
}

#[test]
fn two_by_two_is_won_by_any_pair() {
    let state = play(&play(&State::new(2, 5), "1 1 1"), "2 2 1");
    let won = play(&state, "1 2 2");
    let outcome = Naughts::outcome(&won);
    assert!(
        matches!(&outcome, Outcome::Win { winner: O, reason, .. } if reason == "O completed row 1"),
        "{outcome:?}"
    );
}

#[test]
fn covering_takes_the_cell_and_breaks_lines() {
    let state = State::new(3, 5);
    let state = play(&state, "1 1 2");
    let state = play(&state, "1 1 3");
    assert_eq!(state.cell(0, 0), Cell::marker(X, 3));
    assert_eq!(code_of(typed(&state, "1 1 3")).0, "invalid_move");
    assert_eq!(code_of(typed(&state, "1 1 1")).0, "invalid_move");
    let state = play(&state, "1 1 4");
    assert_eq!(state.cell(0, 0), Cell::marker(O, 4));
    assert_eq!(state.hand(O), vec![1, 3, 5]);
    assert_eq!(state.hand(X), vec![1, 2, 4, 5]);
    // O threatens the top row (O4 O1 .); X breaks it by covering the 1 instead of taking the gap.
    let state = play(&state, "3 3 1");
    let state = play(&state, "1 2 1");
    let wins = |s: &State| {
        moves_of(s)
            .into_iter()
            .filter(|m| s.apply(m).winner().is_some())
            .count()
    };
    assert_eq!(
        wins(&play(&state, "2 2 2")),
        2,
        "O wins at 1 3 with its 3 or its 5"
    );
    let blocked = play(&state, "1 2 2");
    assert_eq!(blocked.cell(0, 1), Cell::marker(X, 2));
    assert_eq!(wins(&blocked), 0);
}

#[test]
fn the_turn_passes_when_the_opponent_is_stuck() {
    // Crosses hold only 1 and 2 and every top is 3 or bigger: only naughts can move.
    let state = position(
        &["O3 X6 O4", "O5 X7 X8", "X9 O6 O7"],
        9,
        &[8, 9],
        &[1, 2],
        O,
    );
    let value = Naughts::state_to_json(&state);
    assert_eq!(Naughts::state_from_json(&value).unwrap(), state);
    // Both sides have played 7 markers, so crosses moved last: the stuck
    // side cannot be to move (it would be right after a move of naughts).
    let mut wrong = value.clone();
    wrong["to_move"] = json!("X");
    let (pointer, detail) = invalid_pointer(wrong);
    assert_eq!(pointer.as_deref(), Some("/to_move"));
    assert!(detail.contains("must then pass"), "{detail}");

    let after = play(&state, "1 1 8");
    assert_eq!(
        after.to_move(),
        O,
        "crosses cannot move, so naughts go again"
    );
    assert_eq!(Naughts::outcome(&after), Outcome::Ongoing);
    let after = play(&after, "1 2 9");
    assert!(matches!(
        Naughts::outcome(&after),
        Outcome::Win { winner: O, .. }
    ));
}

/// Crosses (holding 1 and 2, every top 4 or bigger) are stuck and to move
/// right after naughts covered O3 with O8; naughts can still win with O9 on X6.
pub(super) fn crosses_must_pass() -> State {
    position(&["O8 X6 O4", "O5 X7 X8", "X9 O6 O7"], 9, &[9], &[1, 2], X)
}

#[test]
fn a_stuck_side_to_move_has_the_pass_as_its_only_move() {
    let state = crosses_must_pass();
    let value = Naughts::state_to_json(&state);
    assert_eq!(Naughts::state_from_json(&value).unwrap(), state);
    assert!(state.must_pass());
    assert_eq!(Naughts::outcome(&state), Outcome::Ongoing);
    let mut turns = Vec::new();
    Naughts::legal_moves(&state, &mut turns);
    assert_eq!(turns, [Play::Pass]);
    assert_eq!(Naughts::notation(&state, &Play::Pass), "pass");
    assert_eq!(
        Naughts::move_to_json(&state, &Play::Pass),
        json!({"row": null, "col": null, "size": null, "notation": "pass"})
    );
    let after = Naughts::apply(&state, &Play::Pass);
    assert_eq!(after.to_move(), O);
    assert_eq!(after.cells, state.cells);
    assert_eq!(after.hands, state.hands);
    let won = play(&after, "1 2 9");
    assert!(matches!(
        Naughts::outcome(&won),
        Outcome::Win { winner: O, .. }
    ));
}

#[test]
fn a_pass_is_read_in_every_form_and_only_when_due() {
    let stuck = crosses_must_pass();
    let forms = [
        json!("pass"),
        json!(" PASS "),
        json!({"row": null, "col": null, "size": null}),
        json!({"row": null, "col": null, "size": null, "notation": "pass"}),
        json!({"notation": "pass"}),
    ];
    for form in &forms {
        assert_eq!(
            Naughts::parse_move(&stuck, form).unwrap(),
            Play::Pass,
            "{form}"
        );
    }
    let (code, detail) = code_of(Naughts::parse_move(&State::new(3, 5), &json!("pass")));
    assert_eq!(code, "invalid_move");
    assert!(detail.contains("O cannot pass"), "{detail}");
    let (code, detail) = code_of(Naughts::parse_move(&stuck, &json!("1 1 2")));
    assert_eq!(code, "invalid_move");
    assert!(detail.starts_with("cell \"1 1\" holds"), "{detail}");
    assert!(
        detail.ends_with("(X has no legal move and must pass)"),
        "{detail}"
    );
    let half = json!({"row": null, "col": 0, "size": 1});
    assert_eq!(
        code_of(Naughts::parse_move(&stuck, &half)).0,
        "invalid_format"
    );
    let unknown = json!({"row": null, "col": null, "size": null, "why": "stuck"});
    let (code, detail) = code_of(Naughts::parse_move(&stuck, &unknown));
    assert_eq!(code, "invalid_format");
    assert!(detail.contains("\"why\""), "{detail}");
    let disagreeing = json!({"row": null, "col": null, "size": null, "notation": "1 1 1"});
    assert_eq!(
        code_of(Naughts::parse_move(&stuck, &disagreeing)).0,
        "invalid_format"
    );
}

#[test]
fn every_level_passes_when_it_must() {
    use crate::game::Level;
    type NaughtsLevel = super::super::NaughtsLevel;
    let state = crosses_must_pass();
    let ids: Vec<&str> = NaughtsLevel::ALL.iter().map(|def| def.id).collect();
    for level in &ids {
        let spec = LevelSpec::parse(level).unwrap();
        let choice =
            Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &Budget::unlimited())
                .unwrap();
        assert_eq!(choice.mv, Play::Pass, "{level}");
    }
    let oracle = LevelSpec::<NaughtsLevel>::parse("oracle").unwrap_err();
    assert_eq!(
        oracle.to_string(),
        format!("unknown level 'oracle'; this game has: {}", ids.join(", "))
    );
}

#[test]
fn analyze_values_the_pass_from_the_side_that_passes() {
    let state = crosses_must_pass();
    let analysis =
        Naughts::analyze(&state, 100, &BotParams::seeded(0), &Budget::unlimited()).unwrap();
    assert_eq!(analysis.moves.len(), 1);
    let pass = &analysis.moves[0];
    assert_eq!(pass.mv, Play::Pass);
    assert_eq!(pass.exact.as_deref(), Some("loss in 1"));
    assert_eq!(pass.pv[0], Play::Pass);
    let winning = state.pass().play(&pass.pv[1]);
    assert_eq!(winning.winner(), Some(O));
    assert_eq!(analysis.report.score, Some(pass.score));
}

#[test]
fn stalemate_when_nobody_can_move() {
    let state = position(&["O3 X6 O4", "O5 X7 X8", "X9 O6 O9"], 9, &[8], &[1, 2], O);
    let after = play(&state, "1 1 8");
    assert!(after.is_stalemate());
    // The tally counts the cells each side's marker tops: O five, X four.
    assert_eq!(
        Naughts::outcome(&after),
        Outcome::Draw {
            reason: "stalemate: neither side can move".into(),
            termination: NaughtsTermination::Stalemate,
            score: [5, 4],
        }
    );
    assert!(moves_of(&after).is_empty());
    let mut turns = Vec::new();
    Naughts::legal_moves(&after, &mut turns);
    assert!(turns.is_empty(), "a stalemate has no pass: {turns:?}");
    let reread = Naughts::state_from_json(&Naughts::state_to_json(&after)).unwrap();
    assert_eq!(reread, after);
}

#[test]
fn the_opponent_side_is_to_move_after_a_win() {
    let state = State::new(3, 5);
    let state = ["1 1 1", "2 1 1", "1 2 2", "2 2 2"]
        .iter()
        .fold(state, |s, m| play(&s, m));
    let won = play(&state, "1 3 3");
    assert_eq!(won.to_move(), X);
    assert_eq!(won.hands[X.index()], full_hand(5) & !(1 << 1) & !(1 << 2));
}
