use super::*;

/// A ladder of `n` levels `step` Elo apart, level 1 at 0.
fn ladder(n: u8, step: f64) -> Vec<NumberedLevelInfo> {
    (1..=n)
        .map(|level| NumberedLevelInfo {
            level,
            description: String::new(),
            budget: crate::game::ladder::Rung::capped(1000, "").budget(),
            rating: Some(f64::from(level - 1) * step),
            interval: None,
            mean_scores: None,
        })
        .collect()
}

fn game(level: u64, result: GameResult) -> PlayedGame {
    PlayedGame {
        level: LevelNumber::Number(level),
        result,
        date: None,
    }
}

fn place_results(results: Vec<PlayedGame>) -> Placement {
    let request = PlacementRequest {
        results,
        target: None,
    };
    place("Test", &ladder(12, 160.0), &request).unwrap()
}

#[test]
fn no_games_place_the_player_at_the_default_and_one_game_moves_them() {
    let none = place_results(vec![]);
    assert_eq!(none.rating, DEFAULT_RATING);
    // Level 3 (320) and level 4 (480) are as near the default: the
    // easier one is recommended.
    assert_eq!(none.recommended.level, 3);
    let won = place_results(vec![game(4, GameResult::Win)]);
    let lost = place_results(vec![game(4, GameResult::Loss)]);
    // A win puts the player above the level beaten, a loss below it, both
    // within a few steps, and the interval stays wide.
    assert!(won.rating > 480.0 && won.rating < 1000.0, "{won:?}");
    assert!(lost.rating < 480.0 && lost.rating > -100.0, "{lost:?}");
    assert!(won.interval[1] - won.interval[0] > 1000.0, "{won:?}");
    assert!(won.recommended.level > lost.recommended.level);
}

#[test]
fn a_clean_sweep_stays_finite_and_many_games_narrow_the_interval() {
    let sweep = place_results((0..30).map(|_| game(12, GameResult::Win)).collect());
    assert!(
        sweep.rating.is_finite() && sweep.rating > 1760.0,
        "{sweep:?}"
    );
    assert_eq!(sweep.recommended.level, 12);
    let few = place_results(
        (0..4)
            .map(|i| game(6, [GameResult::Win, GameResult::Loss][i % 2]))
            .collect(),
    );
    let many = place_results(
        (0..100)
            .map(|i| game(6, [GameResult::Win, GameResult::Loss][i % 2]))
            .collect(),
    );
    let width = |p: &Placement| p.interval[1] - p.interval[0];
    assert!(width(&many) < width(&few) / 3.0, "{few:?} {many:?}");
    assert!((many.rating - 800.0).abs() < 20.0, "{many:?}");
}

#[test]
fn a_higher_target_recommends_an_easier_level() {
    let results = vec![game(6, GameResult::Win), game(7, GameResult::Loss)];
    let even = place_results(results.clone());
    let practice = place(
        "Test",
        &ladder(12, 160.0),
        &PlacementRequest {
            results,
            target: Some(0.75),
        },
    )
    .unwrap();
    assert!(practice.recommended.level < even.recommended.level);
    assert!(practice.recommended.expected_score > 0.6, "{practice:?}");
}

#[test]
fn older_results_count_less() {
    let dated = |date: &str, result| PlayedGame {
        date: Some(date.to_string()),
        ..game(6, result)
    };
    let improving = place_results(vec![
        dated("2025-01-10", GameResult::Loss),
        dated("2025-01-11", GameResult::Loss),
        dated("2026-11-20", GameResult::Win),
        dated("2026-11-21", GameResult::Win),
    ]);
    let undated = place_results(
        [
            GameResult::Loss,
            GameResult::Loss,
            GameResult::Win,
            GameResult::Win,
        ]
        .map(|r| game(6, r))
        .to_vec(),
    );
    assert!(
        improving.rating > undated.rating + 100.0,
        "{improving:?} {undated:?}"
    );
}

#[test]
fn bad_results_are_refused_where_they_are() {
    let fault = |request: PlacementRequest| {
        let error = place("Test", &ladder(12, 160.0), &request).unwrap_err();
        (error.pointer().map(str::to_string), error.to_string())
    };
    let one = |played: PlayedGame| PlacementRequest {
        results: vec![game(1, GameResult::Win), played],
        target: None,
    };
    let (pointer, detail) = fault(one(game(13, GameResult::Win)));
    assert_eq!(pointer.as_deref(), Some("/results/1/level"));
    assert!(detail.contains("1-12"), "{detail}");
    let (pointer, _) = fault(one(PlayedGame {
        level: LevelNumber::Text("strong".into()),
        ..game(1, GameResult::Win)
    }));
    assert_eq!(pointer.as_deref(), Some("/results/1/level"));
    for date in ["2026-02-29", "2026-13-01", "26-11-2026", "2026-11-26T10:00"] {
        let (pointer, detail) = fault(one(PlayedGame {
            date: Some(date.into()),
            ..game(1, GameResult::Win)
        }));
        assert_eq!(pointer.as_deref(), Some("/results/1/date"), "{date}");
        assert!(detail.contains("YYYY-MM-DD"), "{detail}");
    }
    let (pointer, _) = fault(PlacementRequest {
        results: vec![],
        target: Some(1.0),
    });
    assert_eq!(pointer.as_deref(), Some("/target"));
    let unrated: Vec<NumberedLevelInfo> = ladder(3, 100.0)
        .into_iter()
        .map(|level| NumberedLevelInfo {
            rating: None,
            ..level
        })
        .collect();
    let error = place("Crush", &unrated, &PlacementRequest::default()).unwrap_err();
    assert!(error.to_string().contains("no ratings"), "{error}");
}

#[test]
fn calendar_dates_count_days() {
    assert_eq!(day_number("1970-01-01"), Some(0));
    assert_eq!(day_number("2000-03-01"), Some(11_017));
    assert_eq!(day_number("2024-02-29"), Some(19_782));
    assert_eq!(day_number("2024-03-01"), Some(19_783));
    assert_eq!(day_number("1900-02-29"), None);
    assert_eq!(day_number("2026-04-31"), None);
}

#[test]
fn simulated_players_are_covered_and_placed_within_ten_games() {
    let simulated = simulate(&ladder(12, 160.0), 500, 10, 1);
    assert!(simulated.coverage >= 0.9, "{simulated:?}");
    assert!(simulated.converged >= 0.9, "{simulated:?}");
}

#[test]
fn day_numbers_turn_back_into_dates() {
    for date in [
        "1970-01-01",
        "2000-02-29",
        "2024-03-01",
        "2026-12-31",
        "9999-12-31",
    ] {
        assert_eq!(date_of_day(day_number(date).unwrap()), date);
    }
}

#[test]
fn a_result_dated_after_today_is_refused_at_its_date() {
    let dated = |date: &str| PlayedGame {
        level: LevelNumber::Number(3),
        result: GameResult::Win,
        date: Some(date.to_string()),
    };
    let request = |last: &str| PlacementRequest {
        results: vec![dated("2026-11-20"), dated(last)],
        target: None,
    };
    let today = day_number("2026-12-01").unwrap();
    assert!(place_by("Test", &ladder(12, 160.0), &request("2026-12-01"), today).is_ok());
    for future in ["2026-12-02", "9999-12-31"] {
        match place_by("Test", &ladder(12, 160.0), &request(future), today) {
            Err(GameError::InvalidOption {
                pointer: Some(pointer),
                detail,
            }) => {
                assert_eq!(pointer, "/results/1/date");
                assert!(detail.contains("after today (2026-12-01"), "{detail}");
            }
            other => panic!("{future}: {other:?}"),
        }
    }
    // Today anywhere on Earth is at least today in UTC.
    let utc_today = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        / 86_400;
    assert!((utc_today..=utc_today + 1).contains(&latest_day_now()));
}
