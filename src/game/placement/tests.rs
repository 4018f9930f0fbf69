use super::*;

/// A ladder of `n` levels `step` Elo apart, level 1 at 0.
fn ladder(n: u8, step: f64) -> Vec<NumberedLevelInfo> {
    ladder_from(n, step, 0.0)
}

/// A ladder of `n` levels `step` Elo apart, level 1 `first` above the zero.
fn ladder_from(n: u8, step: f64, first: f64) -> Vec<NumberedLevelInfo> {
    (1..=n)
        .map(|level| NumberedLevelInfo {
            level,
            description: String::new(),
            budget: crate::game::ladder::Rung::capped(1000, &[]).budget(),
            rating: Some(first + f64::from(level - 1) * step),
            interval: None,
            mean_scores: None,
            cost: None,
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
    place("Test", &ladder(12, 160.0), 3, &request).unwrap()
}

#[test]
fn no_games_place_the_player_at_the_newcomer_level_and_one_game_moves_them() {
    let none = place_results(vec![]);
    assert_eq!(none.rating, 320.0);
    assert_eq!((none.recommended.level, none.recommended.fitted), (3, 3));
    assert_eq!(none.recommended.expected_score, 0.5);
    let won = place_results(vec![game(4, GameResult::Win)]);
    let lost = place_results(vec![game(4, GameResult::Loss)]);
    // A win puts the player above the level beaten, a loss below it, both
    // within a few steps, and the interval stays wide.
    assert!(won.rating > 480.0 && won.rating < 1000.0, "{won:?}");
    assert!(lost.rating < 480.0 && lost.rating >= 0.0, "{lost:?}");
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
        3,
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
        let error = place("Test", &ladder(12, 160.0), 3, &request).unwrap_err();
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
    let error = place("Crush", &unrated, 1, &PlacementRequest::default()).unwrap_err();
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
    let simulated = simulate(&ladder(12, 160.0), 3, 500, 10, 1);
    assert!(simulated.coverage >= 0.9, "{simulated:?}");
    assert!(simulated.converged >= 0.9, "{simulated:?}");
    assert!(
        simulated.largest_move <= MAX_LEVELS_A_RESULT,
        "{simulated:?}"
    );
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
    assert!(place_by("Test", &ladder(12, 160.0), 3, &request("2026-12-01"), today).is_ok());
    for future in ["2026-12-02", "9999-12-31"] {
        match place_by("Test", &ladder(12, 160.0), 3, &request(future), today) {
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

#[test]
fn a_clean_sweep_recommends_the_top_once_the_results_have_climbed_there() {
    // From level 3 two levels a result: 5, 7, 9, 11, 12.
    for (wins, level) in [(1, 5), (2, 7), (3, 9), (4, 11), (5, 12)] {
        let sweep = place_results((0..wins).map(|_| game(12, GameResult::Win)).collect());
        assert_eq!(sweep.recommended.level, level, "{wins}: {sweep:?}");
        assert_eq!(sweep.recommended.fitted, 12, "{wins}: {sweep:?}");
    }
}

#[test]
fn one_result_moves_the_recommendation_at_most_two_levels() {
    let one = place_results(vec![game(3, GameResult::Win)]);
    assert!(one.recommended.level <= 5, "{one:?}");
    let lost = place_results(vec![game(12, GameResult::Loss)]);
    assert!(lost.recommended.level >= 1, "{lost:?}");
    // Whatever came before, one more result moves it two levels at most.
    let mut results = Vec::new();
    let mut before = place_results(results.clone()).recommended.level;
    for i in 0..40u64 {
        let outcome = [GameResult::Win, GameResult::Loss, GameResult::Draw][(i * 7 % 3) as usize];
        results.push(game(1 + (i * 5) % 12, outcome));
        let now = place_results(results.clone()).recommended.level;
        assert!(now.abs_diff(before) <= 2, "{i}: {before} then {now}");
        before = now;
    }
}

#[test]
fn a_rating_is_never_below_the_random_mover() {
    // Level 1 is 100 above the zero: a loss to it alone would fit below 0.
    let levels = ladder_from(8, 150.0, 100.0);
    let request = PlacementRequest {
        results: vec![game(1, GameResult::Loss); 3],
        target: None,
    };
    let placed = place("Test", &levels, 2, &request).unwrap();
    assert_eq!(placed.rating, 0.0, "{placed:?}");
    assert_eq!(placed.interval[0], 0.0, "{placed:?}");
    assert!(placed.interval[1] > 0.0, "{placed:?}");
    assert_eq!(placed.recommended.level, 1);
}

#[test]
fn a_newcomer_is_never_placed_at_the_top() {
    for newcomer in [4, 5, 200] {
        let placed = place(
            "Test",
            &ladder(4, 120.0),
            newcomer,
            &PlacementRequest::default(),
        )
        .unwrap();
        assert_eq!(placed.recommended.level, 3, "{newcomer}: {placed:?}");
    }
    let one = place("Test", &ladder(1, 120.0), 3, &PlacementRequest::default()).unwrap();
    assert_eq!(one.recommended.level, 1);
    assert_eq!(newcomer_level("not a game"), 1);
}

#[test]
fn the_fit_result_by_result_ends_where_one_fit_of_them_all_does() {
    let levels = ladder(12, 160.0);
    let results: Vec<PlayedGame> = (0..9u64)
        .map(|i| PlayedGame {
            date: Some(format!("2026-0{}-1{}", 1 + i % 9, i)),
            ..game(
                1 + (i * 5) % 12,
                [GameResult::Win, GameResult::Loss][(i % 2) as usize],
            )
        })
        .collect();
    let request = PlacementRequest {
        results: results.clone(),
        target: None,
    };
    let placed = place("Test", &levels, 3, &request).unwrap();
    let newest = results
        .iter()
        .filter_map(|r| day_number(r.date.as_deref()?))
        .max()
        .unwrap();
    let observations: Vec<Observation> = results
        .iter()
        .map(|r| {
            let LevelNumber::Number(level) = r.level else {
                unreachable!()
            };
            Observation {
                opponent: (level - 1) as f64 * 160.0,
                points: r.result.points(),
                weight: age_weight(newest - day_number(r.date.as_deref().unwrap()).unwrap()),
            }
        })
        .collect();
    let (rating, _) = fit(&observations, 320.0);
    assert!(
        (placed.rating - rating.max(0.0)).abs() < 0.06,
        "{placed:?} {rating}"
    );
}

#[test]
fn the_newcomer_simulation_never_picks_the_top() {
    let (level, scores) = choose_newcomer(&ladder(6, 150.0), 200, 1);
    assert!(level < 6, "{scores:?}");
    assert_eq!(scores.len(), 5);
    assert!(scores
        .iter()
        .all(|&(_, share)| (0.0..=1.0).contains(&share)));
}
