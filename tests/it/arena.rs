//! The arena's behaviour, which every bot bar in the project relies on: a fixed
//! seed gives the same games, colours alternate, and time limits are enforced.

use gamebot::arena::Openings;
use gamebot::cli::arena::{play_arena, ArenaArgs, ResignArgs};

fn args(a: &str, b: &str, games: usize) -> ArenaArgs {
    ArenaArgs {
        a: a.into(),
        b: b.into(),
        games,
        time_ms: Some(2_000),
        grace_ms: 1_000,
        seed: 11,
        random_plies: 2,
        max_plies: 1_000,
        threads: Some(2),
        json: true,
        ..ArenaArgs::new("reversi")
    }
}

#[test]
fn a_fixed_seed_gives_the_same_results() {
    let run = || play_arena(&args("norvig:depth=2", "random", 6)).unwrap();
    let (first, second) = (run(), run());
    let tally = |r: &gamebot::arena::MatchSummary| (r.a.wins, r.draws, r.b.wins, r.capped);
    assert_eq!(tally(&first), tally(&second));
    assert_eq!(first.games, 6);
    let other_seed = play_arena(&ArenaArgs {
        seed: 12,
        ..args("random", "random", 6)
    })
    .unwrap();
    assert_eq!(other_seed.games, 6);
}

#[test]
fn colours_alternate_between_games() {
    // The same deterministic bot on both sides with no random opening plays
    // the same game twice; with colours swapped, each bot wins one (or both draw).
    let report = play_arena(&ArenaArgs {
        random_plies: 0,
        ..args("norvig:depth=2", "norvig:depth=2", 2)
    })
    .unwrap();
    assert!(
        (report.a.wins == 1 && report.b.wins == 1) || report.draws == 2,
        "{report:?}"
    );
}

/// Each logged game's first `plies` moves and whether A played first.
fn openings_of(log: &std::path::Path, plies: usize) -> Vec<(Vec<serde_json::Value>, bool)> {
    logged_games(log)
        .into_iter()
        .map(|(_, a_first, _, moves)| (moves.as_array().unwrap()[..plies].to_vec(), a_first))
        .collect()
}

#[test]
fn paired_openings_are_each_played_twice_with_the_seats_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let played = |openings: Openings, name: &str| {
        let log = dir.path().join(name);
        play_arena(&ArenaArgs {
            random_plies: 6,
            openings,
            games_log: Some(log.clone()),
            ..args("random", "random", 6)
        })
        .unwrap();
        openings_of(&log, 6)
    };
    let paired = played(Openings::Paired, "paired.jsonl");
    for pair in paired.chunks(2) {
        assert_eq!(pair[0].0, pair[1].0, "one opening for both games of a pair");
        assert!(
            pair[0].1 && !pair[1].1,
            "A first in the pair's first game only"
        );
    }
    assert!(paired[0].0 != paired[2].0 && paired[2].0 != paired[4].0);
    assert_eq!(paired, played(Openings::Paired, "again.jsonl"), "seeded");

    let per_game = played(Openings::PerGame, "per-game.jsonl");
    assert!(
        per_game.windows(2).all(|w| w[0].0 != w[1].0),
        "{per_game:?}"
    );
    assert_eq!(
        per_game[0], paired[0],
        "the first game's opening is the same either way"
    );
}

#[test]
fn a_side_over_its_time_loses_on_time() {
    let report = play_arena(&ArenaArgs {
        a_time_ms: Some(1),
        grace_ms: 0,
        ..args("strong", "random", 2)
    })
    .unwrap();
    assert_eq!(report.a.timeouts, 2, "{report:?}");
    assert_eq!(report.b.wins, 2);
    assert_eq!(report.b.timeouts, 0);
}

#[test]
fn a_node_capped_level_is_timed_but_never_loses_on_time() {
    // Reversi's level 9 searches 10k positions whatever time it is offered:
    // far more than a millisecond, and no forfeit for it.
    let report = play_arena(&ArenaArgs {
        a_time_ms: Some(1),
        grace_ms: 0,
        ..args("9", "random", 2)
    })
    .unwrap();
    assert_eq!(report.a.timeouts, 0, "{report:?}");
    assert!(report.a.max_ms > 1.0, "{report:?}");
    assert_eq!(report.games, 2);
}

#[test]
fn each_side_can_have_its_own_game_clock() {
    // B's clock is far too short for a real search; A's is ample.
    let report = play_arena(&ArenaArgs {
        a_clock_s: Some(60.0),
        b_clock_s: Some(0.000_001),
        ..args("random", "strong", 2)
    })
    .unwrap();
    assert_eq!(report.b.timeouts, 2, "{report:?}");
    assert_eq!((report.a.wins, report.a.timeouts), (2, 0));
    assert_eq!((report.a.overruns, report.b.overruns), (None, None));
}

#[test]
fn a_ply_cap_ends_games_as_draws() {
    let report = play_arena(&ArenaArgs {
        max_plies: 6,
        ..args("random", "random", 2)
    })
    .unwrap();
    assert_eq!((report.capped, report.draws), (2, 2));
}

#[test]
fn the_command_prints_a_table_and_a_json_line() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args([
            "arena",
            "reversi",
            "--a",
            "random",
            "--b",
            "norvig:depth=1",
            "--games",
            "2",
            "--time-ms",
            "200",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("wins"), "{stdout}");
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    for pointer in [
        "/games",
        "/draws",
        "/capped",
        "/a_score",
        "/a/name",
        "/a/wins",
        "/a/timeouts",
        "/a/forfeits",
        "/a/avg_ms",
        "/a/median_ms",
        "/a/max_ms",
        "/a/overruns",
        "/a/nodes_per_s",
        "/b/wins",
    ] {
        assert!(last.pointer(pointer).is_some(), "{pointer} in {last}");
    }
    assert_eq!(last["games"], 2);
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for bad in [
        ["arena", "chess", "--a", "random", "--b", "random"],
        ["arena", "reversi", "--a", "nope", "--b", "random"],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(bad)
            .output()
            .unwrap();
        assert!(!output.status.success());
        assert!(!output.stderr.is_empty());
    }
}

#[test]
fn the_games_log_has_every_game_with_its_moves_and_result() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let report = play_arena(&ArenaArgs {
        games_log: Some(log.clone()),
        ..args("norvig:depth=1", "random", 4)
    })
    .unwrap();
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for (index, game) in lines.iter().enumerate() {
        assert_eq!(game["index"], index);
        assert_eq!(game["a_first"], index % 2 == 0);
        assert!(game["moves"].as_array().unwrap().len() > 10, "{game}");
        assert!(!game["reason"].as_str().unwrap().is_empty(), "{game}");
    }
    let a_wins = lines
        .iter()
        .filter(|g| g["result"] == serde_json::json!({"win": "A"}))
        .count();
    assert_eq!(a_wins, report.a.wins);
}

#[test]
fn a_stopped_match_keeps_the_games_it_finished_in_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    // A match far longer than the test: 200 games of 20 ms moves.
    let mut arena = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["arena", "reversi", "--a", "strong", "--b", "strong"])
        .args(["--games", "200", "--threads", "1", "--time-ms", "20"])
        .arg("--games-log")
        .arg(&log)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let first_game_logged = (0..600).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(100));
        std::fs::read_to_string(&log).is_ok_and(|text| text.ends_with('\n'))
    });
    arena.kill().unwrap();
    arena.wait().unwrap();
    assert!(first_game_logged, "no game logged in a minute");
    let text = std::fs::read_to_string(&log).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(
        !games.is_empty() && games.len() < 200,
        "{} games",
        games.len()
    );
    assert!(games
        .iter()
        .all(|game| !game["moves"].as_array().unwrap().is_empty()));
}

#[test]
fn halma_under_game_clocks_plays_to_the_end_without_time_losses() {
    let report = play_arena(&ArenaArgs {
        game: "halma".into(),
        clock_s: Some(20.0),
        max_plies: 60,
        ..args("random", "strong", 2)
    })
    .unwrap();
    assert_eq!((report.a.timeouts, report.b.timeouts), (0, 0), "{report:?}");
    assert_eq!(report.games, 2);
}

/// Four games of `a` against `b` adjudicated as soon as both players'
/// scores agree on a leader at all (margin 1, one move each).
fn resigning_at_once(a: &str, b: &str) -> ArenaArgs {
    ArenaArgs {
        resign: ResignArgs {
            resign_margin: Some(1),
            resign_moves: 1,
        },
        ..args(a, b, 4)
    }
}

#[test]
fn resign_adjudication_ends_games_both_players_score_as_decided() {
    let played_out = play_arena(&args("norvig:depth=2", "norvig:depth=1", 4)).unwrap();
    assert_eq!(played_out.adjudicated, 0, "no rule, no adjudication");
    let adjudicated = play_arena(&resigning_at_once("norvig:depth=2", "norvig:depth=1")).unwrap();
    assert!(adjudicated.adjudicated > 0, "{adjudicated:?}");
    assert_eq!(
        adjudicated.a.wins + adjudicated.b.wins + adjudicated.draws,
        4,
        "an adjudicated game is a win"
    );
    assert!(
        adjudicated.a.wins + adjudicated.b.wins >= adjudicated.adjudicated,
        "adjudicated games count as wins: {adjudicated:?}"
    );
    let never = play_arena(&resigning_at_once("norvig:depth=2", "random")).unwrap();
    assert_eq!(
        never.adjudicated, 0,
        "random reports no score, so it never agrees"
    );
    let slipping = play_arena(&resigning_at_once("norvig:depth=2", "1")).unwrap();
    assert_eq!(
        slipping.adjudicated, 0,
        "a sampled ladder rung plays worse moves on purpose, so its score does not count"
    );
}

/// A one-player game's match plays both sides on the same boards: a level
/// against itself scores the same on every board, and two levels are
/// compared board by board.
#[test]
fn a_one_player_match_plays_both_sides_on_the_same_boards() {
    let run = |a: &str, b: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args([
                "arena", "crush", "--a", a, "--b", b, "--games", "3", "--seed", "40",
            ])
            .args(["--threads", "2", "--options", r#"{"k":6}"#, "--json"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        (stdout, json)
    };
    let (_, same) = run("2", "2");
    assert_eq!(same["a"]["mean"], same["b"]["mean"]);
    assert_eq!(same["a_over_b"]["mean"], 0.0);
    assert_eq!(same["a_over_b"]["high"], 0.0);
    let (table, levels) = run("1", "greedy");
    assert!(table.contains("seeds 40..43"), "{table}");
    assert_eq!(levels["games"], 3);
    let gain = levels["a_over_b"]["mean"].as_f64().unwrap();
    let means = levels["a"]["mean"].as_f64().unwrap() - levels["b"]["mean"].as_f64().unwrap();
    assert!((gain - means).abs() < 0.11, "{levels}");
    // Greedy plays the best-looking swap; level 1 nearly any swap.
    assert!(gain < 0.0, "{levels}");
}

#[test]
fn a_one_player_match_refuses_what_only_two_players_have() {
    for flag in [["--clock-s", "5"], ["--random-plies", "4"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(["arena", "crush", "--a", "1", "--b", "2"])
            .args(flag)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(flag[0]) && stderr.contains("one-player"),
            "{stderr}"
        );
    }
}

/// A `gamebot serve` child on a free port, stopped when dropped.
struct Service {
    child: std::process::Child,
    url: String,
}

impl Service {
    fn start() -> Self {
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            probe.local_addr().unwrap().port()
        };
        let addr = format!("127.0.0.1:{port}");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(["serve", "--bind", &addr, "--workers", "2"])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(started.elapsed().as_secs() < 10, "the server did not start");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Service {
            child,
            url: format!("http://{addr}"),
        }
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The moves of every game of a match's games log, in order.
fn logged_moves(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["moves"].clone())
        .collect()
}

#[test]
fn a_level_asked_of_a_service_plays_the_games_the_level_plays_itself() {
    let service = Service::start();
    let dir = tempfile::tempdir().unwrap();
    let play = |b: String, log: &str| {
        let log = dir.path().join(log);
        let report = play_arena(&ArenaArgs {
            games_log: Some(log.clone()),
            ..args("3", &b, 4)
        })
        .unwrap();
        (report, logged_moves(&log))
    };
    // Numbered levels are seeded and node-capped: the service's level 5
    // plays, move for move, what the arena's own level 5 plays.
    let (remote, remote_moves) = play(format!("service:{} 5", service.url), "remote.jsonl");
    let (local, local_moves) = play("5".to_string(), "local.jsonl");
    assert_eq!(remote_moves, local_moves);
    assert_eq!(remote.b.wins, local.b.wins);
    assert_eq!(remote.b.forfeits, 0);
    assert_eq!(remote.b.name, format!("service:{} 5", service.url));
}

#[test]
fn a_service_that_does_not_answer_or_refuses_forfeits_with_the_reason() {
    let service = Service::start();
    let dir = tempfile::tempdir().unwrap();
    let closed = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    for (b, reason) in [
        (
            format!("service:http://127.0.0.1:{closed} 3"),
            "no answer from",
        ),
        (
            format!("service:{} nosuchlevel", service.url),
            "answered 422",
        ),
    ] {
        let log = dir.path().join("games.jsonl");
        let _ = std::fs::remove_file(&log);
        let report = play_arena(&ArenaArgs {
            games_log: Some(log.clone()),
            ..args("3", &b, 2)
        })
        .unwrap();
        assert_eq!(report.b.forfeits, 2, "{b}");
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains(reason), "{b}: {text}");
    }
}

/// Index, seats, result and moves of every game of a games log.
fn logged_games(log: &std::path::Path) -> Vec<(u64, bool, serde_json::Value, serde_json::Value)> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|line| {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            let index = game["index"].as_u64().unwrap();
            let a_first = game["a_first"].as_bool().unwrap();
            (
                index,
                a_first,
                game["result"].clone(),
                game["moves"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_resumed_match_keeps_its_logged_games_and_plays_the_rest_as_they_would_have_been() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    let match_of = |log: &std::path::Path, resume: bool| ArenaArgs {
        games_log: Some(log.to_path_buf()),
        resume,
        ..args("norvig:depth=1", "random", 5)
    };
    let at_once = play_arena(&match_of(&whole, false)).unwrap();

    // A run stopped after games 0 and 3, halfway through writing game 1;
    // game 0 marked, to tell a kept game from one played again.
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut game_0: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    game_0["reason"] = "kept from the stopped run".into();
    let stopped = dir.path().join("stopped.jsonl");
    let cut = &lines[1][..lines[1].len() / 2];
    std::fs::write(&stopped, format!("{game_0}\n{}\n{cut}", lines[3])).unwrap();
    let resumed = play_arena(&match_of(&stopped, true)).unwrap();

    assert_eq!(logged_games(&stopped), logged_games(&whole));
    let first_line = std::fs::read_to_string(&stopped).unwrap();
    assert!(first_line
        .lines()
        .next()
        .unwrap()
        .contains("kept from the stopped run"));
    let tally = |r: &gamebot::arena::MatchSummary| (r.games, r.a.wins, r.draws, r.b.wins);
    assert_eq!(tally(&resumed), tally(&at_once));
    // A finished match resumed plays nothing and says the same.
    let again = play_arena(&match_of(&stopped, true)).unwrap();
    assert_eq!(tally(&again), tally(&at_once));
    // No log yet: the match is played from its first game.
    let fresh = dir.path().join("fresh.jsonl");
    play_arena(&match_of(&fresh, true)).unwrap();
    assert_eq!(logged_games(&fresh), logged_games(&whole));
}

#[test]
fn a_log_of_another_match_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let first = ArenaArgs {
        games_log: Some(log.clone()),
        ..args("norvig:depth=1", "random", 3)
    };
    play_arena(&first).unwrap();
    let before = std::fs::read_to_string(&log).unwrap();
    let refused = |changed: ArenaArgs| {
        play_arena(&ArenaArgs {
            resume: true,
            ..changed
        })
        .unwrap_err()
        .to_string()
    };
    let other_seed = refused(ArenaArgs {
        seed: 12,
        ..first.clone()
    });
    assert!(
        other_seed.contains("line 1: a game of another match (seed: 11 in the log, 12 here)"),
        "{other_seed}"
    );
    let other_player = refused(ArenaArgs {
        b: "norvig:depth=2".into(),
        ..first.clone()
    });
    assert!(
        other_player.contains("b: random in the log, norvig:depth=2 here"),
        "{other_player}"
    );
    let fewer_games = refused(ArenaArgs {
        games: 2,
        ..first.clone()
    });
    assert!(
        fewer_games.contains("line 3: game 2, but the match has 2 games"),
        "{fewer_games}"
    );
    let other_openings = refused(ArenaArgs {
        openings: Openings::PerGame,
        ..first.clone()
    });
    assert!(
        other_openings.contains("openings: paired in the log, per-game here"),
        "{other_openings}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), before);

    std::fs::write(&log, "{\"index\": 0}\n").unwrap();
    let not_a_game = refused(first.clone());
    assert!(
        not_a_game.contains("line 1: not a game of an arena's log"),
        "{not_a_game}"
    );
}

#[test]
fn a_log_from_before_paired_openings_resumes_as_one_opening_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let older = ArenaArgs {
        openings: Openings::PerGame,
        games_log: Some(log.clone()),
        ..args("norvig:depth=1", "random", 3)
    };
    play_arena(&older).unwrap();
    let whole = logged_games(&log);
    // An older build wrote no `openings`; it stopped after two games.
    let text = std::fs::read_to_string(&log).unwrap();
    let without: Vec<String> = text
        .lines()
        .take(2)
        .map(|line| {
            let mut game: serde_json::Value = serde_json::from_str(line).unwrap();
            game["setup"].as_object_mut().unwrap().remove("openings");
            game.to_string()
        })
        .collect();
    std::fs::write(&log, without.join("\n") + "\n").unwrap();

    let by_default = play_arena(&ArenaArgs {
        openings: Openings::Paired,
        resume: true,
        ..older.clone()
    })
    .unwrap_err()
    .to_string();
    assert!(
        by_default.contains("openings: per-game in the log, paired here"),
        "{by_default}"
    );
    play_arena(&ArenaArgs {
        resume: true,
        ..older
    })
    .unwrap();
    assert_eq!(logged_games(&log), whole);
}

#[test]
fn resume_without_a_games_log_is_a_usage_error() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args([
            "arena", "reversi", "--a", "random", "--b", "random", "--resume",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--games-log"));
}
