//! The difficulty ladder: `gamebot ladder` (the real binary) plays its
//! matches and writes a file the service reads, and every ladder file
//! checked in under `data/ladder/` meets the ladder's bar.

use gamebot::game::ladder::LadderFile;
use gamebot::games::REGISTRY;
use std::process::Command;

const GAMEBOT: &str = env!("CARGO_BIN_EXE_gamebot");

#[test]
fn the_ladder_command_plays_every_pair_and_writes_a_fitted_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reversi.json");
    let run = Command::new(GAMEBOT)
        .args(["ladder", "reversi", "--games", "2", "--max-games", "4"])
        .args(["--levels", "2-5"])
        .args(["--threads", "2", "--seed", "3", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("level 4 vs 5"), "{stdout}");
    let file = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file.game, "reversi");
    assert!(
        file.command.starts_with(
            "gamebot ladder reversi --games 2 --max-games 4 --seed 3 --random-plies 8"
        ),
        "{}",
        file.command
    );
    assert!(file.command.contains("--levels 2-5"), "{}", file.command);
    // Levels 2 to 5: three adjacent pairs and one two apart. A pair plays
    // rounds of two games while its gap is unsure: a pair that split the
    // points of its first two plays two more, up to four.
    let mut played: Vec<(u8, u8)> = file.pairs.iter().map(|pair| (pair.a, pair.b)).collect();
    played.sort();
    assert_eq!(played, [(2, 3), (2, 4), (3, 4), (4, 5)]);
    for pair in &file.pairs {
        let swept = pair.a_points == 0.0 || pair.a_points == f64::from(pair.games);
        let expected = if swept { [2, 4] } else { [4, 4] };
        assert!(expected.contains(&pair.games), "{pair:?}");
    }
    assert_eq!(file.levels.len(), 4);
    assert_eq!(file.levels[0].level, 2);
    assert_eq!(file.levels[0].rating, 0.0);
    assert_eq!(file.levels[0].step, None);
    assert!(file.levels[1..].iter().all(|level| level.step.is_some()));
    for level in &file.levels {
        assert!(
            level.low <= level.rating && level.rating <= level.high,
            "{level:?}"
        );
        let played: u32 = file
            .pairs
            .iter()
            .filter(|pair| pair.a == level.level || pair.b == level.level)
            .map(|pair| pair.games)
            .sum();
        assert_eq!(level.games, played, "{level:?}");
    }
}

#[test]
fn a_stopped_run_resumes_from_its_journal_and_plays_only_the_missing_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reversi.json");
    let journal = dir.path().join("reversi.pairs.jsonl");
    // What an earlier run of the same command journaled before it was
    // stopped: a result no replay of these settings can give (six games,
    // where rounds of two stop at four), so a replay would show.
    let command = "gamebot ladder reversi --games 2 --max-games 4 --seed 3 --random-plies 8 \
                   --threads 2 --levels 2-4";
    let earlier = serde_json::json!({
        "command": command,
        "build": "earlier",
        "seconds": 12.5,
        "result": {"a": 2, "b": 3, "games": 6, "a_points": 1.0},
    });
    std::fs::write(&journal, format!("{earlier}\n")).unwrap();
    let ladder = |resume: bool| {
        let mut command = Command::new(GAMEBOT);
        command
            .args(["ladder", "reversi", "--games", "2", "--max-games", "4"])
            .args(["--levels", "2-4", "--threads", "2", "--seed", "3", "--out"])
            .arg(&out);
        if resume {
            command.arg("--resume");
        }
        command.output().unwrap()
    };

    let refused = ladder(false);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));
    assert!(!out.exists());

    let resumed = ladder(true);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(
        stdout.contains("level 2 vs 3: 1.0 of 6 points for 2 (journaled by earlier)"),
        "{stdout}"
    );
    let file = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file.command, command);
    let played: Vec<(u8, u8, u32)> = file.pairs.iter().map(|p| (p.a, p.b, p.games)).collect();
    assert_eq!(played[0], (2, 3, 6));
    assert_eq!(played.len(), 3, "{played:?}");
    assert!(file.build.starts_with("earlier + "), "{}", file.build);
    assert!(file.seconds >= 12.5);
    assert!(
        !journal.exists(),
        "the journal is removed once the file is written"
    );
}

#[test]
fn a_pair_stopped_between_rounds_goes_on_from_its_journaled_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reversi.json");
    let journal = dir.path().join("reversi.pairs.jsonl");
    // An earlier run of the same command played two rounds of levels 2 vs
    // 3, split the points, and was stopped: its journal holds the pair's
    // games so far, still unsure.
    let command = "gamebot ladder reversi --games 2 --max-games 6 --seed 3 --random-plies 8 \
                   --threads 2 --levels 2-3";
    let round = serde_json::json!({
        "command": command,
        "build": "earlier",
        "seconds": 7.5,
        "result": {"a": 2, "b": 3, "games": 4, "a_points": 2.0},
        "unfinished": true,
    });
    std::fs::write(&journal, format!("{round}\n")).unwrap();
    let resumed = Command::new(GAMEBOT)
        .args(["ladder", "reversi", "--games", "2", "--max-games", "6"])
        .args([
            "--levels",
            "2-3",
            "--threads",
            "2",
            "--seed",
            "3",
            "--resume",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(
        stdout.contains("level 2 vs 3: 2.0 of 4 points for 2 so far (journaled by earlier)"),
        "{stdout}"
    );
    // One more round of two reaches --max-games; a run from the start
    // would have played up to three.
    assert!(!stdout.contains("not yet sure"), "{stdout}");
    let file = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file.pairs.len(), 1);
    let pair = &file.pairs[0];
    assert_eq!((pair.a, pair.b, pair.games), (2, 3, 6));
    assert!((2.0..=4.0).contains(&pair.a_points), "{pair:?}");
    assert!(file.build.starts_with("earlier + "), "{}", file.build);
    assert!(file.seconds >= 7.5, "{}", file.seconds);
    assert!(!journal.exists());
}

#[test]
fn a_run_from_level_1_rates_the_ladder_from_the_random_mover() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("naughts.json");
    let run = Command::new(GAMEBOT)
        .args(["ladder", "naughts", "--games", "4", "--max-games", "4"])
        .args(["--levels", "1-3", "--threads", "2", "--seed", "3", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(stdout.contains("level 0 vs 1: "), "{stdout}");
    let file = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file.zero.as_deref(), Some("random"));
    let mut played: Vec<(u8, u8)> = file.pairs.iter().map(|p| (p.a, p.b)).collect();
    played.sort();
    assert_eq!(played, [(0, 1), (1, 2), (1, 3), (2, 3)]);
    // Level 1 is rated above the random mover, with the step from it.
    let first = &file.levels[0];
    assert_eq!(first.level, 1);
    let [step, low, high] = first.step.expect("level 1 has a step from the zero");
    assert_eq!(step, first.rating);
    assert!(low <= step && step <= high, "{first:?}");
    let listed = REGISTRY
        .iter()
        .find(|g| g.info().id == "naughts")
        .unwrap()
        .listing()
        .numbered_levels;
    for (level, shown) in file.levels.iter().zip(&listed) {
        assert_eq!(level.plays.as_deref(), Some(shown.description.as_str()));
    }
}

#[test]
fn reuse_keeps_the_pairs_of_levels_that_play_as_they_did() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = dir.path().join("earlier.json");
    let ladder = |out: &std::path::Path, reuse: Option<&std::path::Path>| {
        let mut command = Command::new(GAMEBOT);
        command
            .args(["ladder", "naughts", "--games", "4", "--max-games", "4"])
            .args(["--levels", "1-3", "--threads", "2", "--seed", "5", "--out"])
            .arg(out);
        if let Some(file) = reuse {
            command.arg("--reuse").arg(file);
        }
        let run = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout).to_string();
        assert!(run.status.success(), "{stdout}");
        stdout
    };
    ladder(&earlier, None);
    let mut file = LadderFile::parse(&std::fs::read_to_string(&earlier).unwrap()).unwrap();
    // As if level 3 had played otherwise when the earlier file was measured.
    file.levels[2].plays = Some("an older level 3".to_string());
    // Results no replay gives (five games where rounds of four stop at
    // four), so that a pair played again would show.
    for pair in &mut file.pairs {
        pair.games = 5;
        pair.a_points = 2.5;
    }
    file.build = "earlier".to_string();
    std::fs::write(&earlier, serde_json::to_string(&file).unwrap()).unwrap();

    let out = dir.path().join("naughts.json");
    let stdout = ladder(&out, Some(&earlier));
    assert!(
        stdout.contains("level 0 vs 1: 2.5 of 5 points for 0 (reused"),
        "{stdout}"
    );
    assert!(
        stdout.contains("level 1 vs 2: 2.5 of 5 points for 1 (reused"),
        "{stdout}"
    );
    let again = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    for pair in &again.pairs {
        let reused = pair.b < 3;
        assert_eq!(pair.games == 5, reused, "{pair:?}");
    }
    assert_eq!(again.pairs.len(), 4);
    assert!(again.build.starts_with("earlier + "), "{}", again.build);
    assert!(again.command.contains("--reuse"), "{}", again.command);
    assert_ne!(again.levels[2].plays.as_deref(), Some("an older level 3"));
}

/// Runs `gamebot ladder` (or `arena`) with `args`, answering its stdout,
/// or its stderr when it fails.
fn gamebot(args: &[&str]) -> Result<String, String> {
    let run = Command::new(GAMEBOT).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    if run.status.success() {
        Ok(stdout)
    } else {
        Err(format!("{stdout}{stderr}"))
    }
}

#[test]
fn pool_adds_a_logged_match_of_two_levels_to_their_pair() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_string_lossy().to_string();
    let (log, plain, pooled) = (path("rerun.jsonl"), path("plain.json"), path("pooled.json"));
    // Level 2 in seat A, as a re-run of the pair 1-2 with its own seed.
    let arena = |log: &str, plies: &str| {
        gamebot(&[
            "arena",
            "naughts",
            "--a",
            "2",
            "--b",
            "1",
            "--games",
            "6",
            "--seed",
            "77",
            "--random-plies",
            plies,
            "--time-ms",
            "1000",
            "--threads",
            "2",
            "--games-log",
            log,
        ])
        .unwrap()
    };
    arena(&log, "2");
    let ladder = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "ladder",
            "naughts",
            "--games",
            "4",
            "--max-games",
            "4",
            "--levels",
            "1-3",
            "--threads",
            "2",
            "--seed",
            "5",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        gamebot(&args)
    };
    ladder(&plain, &[]).unwrap();
    let stdout = ladder(&pooled, &["--pool", &log]).unwrap();
    assert!(stdout.contains("(pooled)"), "{stdout}");

    // Level 1 sits in seat B of the log.
    let level_1_points: f64 = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            match game["result"].get("win").and_then(|seat| seat.as_str()) {
                Some("B") => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            }
        })
        .sum();
    let read = |file: &str| LadderFile::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let (plain_file, pooled_file) = (read(&plain), read(&pooled));
    for (before, after) in plain_file.pairs.iter().zip(&pooled_file.pairs) {
        if (before.a, before.b) == (1, 2) {
            assert_eq!(after.games, before.games + 6, "{after:?}");
            assert_eq!(
                after.a_points,
                before.a_points + level_1_points,
                "{after:?}"
            );
        } else {
            assert_eq!(after, before);
        }
    }
    let command = &pooled_file.command;
    assert!(command.ends_with(&format!("--pool {log}")), "{command}");

    // Pooled into a finished file, the run plays nothing and fits the same.
    let refit = path("refit.json");
    let stdout = ladder(&refit, &["--reuse", &plain, "--pool", &log]).unwrap();
    assert!(!stdout.contains("not yet sure"), "{stdout}");
    assert_eq!(read(&refit).pairs, pooled_file.pairs);
    // A file that pooled the log already is not given its games twice.
    let again = path("again.json");
    let refused = ladder(&again, &["--reuse", &pooled, "--pool", &log]).unwrap_err();
    assert!(refused.contains("counts these games already"), "{refused}");
    // Also when the file's own command is this run's (a file pooled in place).
    let in_place = path("in-place.json");
    std::fs::copy(&plain, &in_place).unwrap();
    let same_command = ["--reuse", in_place.as_str(), "--pool", log.as_str()];
    ladder(&in_place, &same_command).unwrap();
    let refused = ladder(&in_place, &same_command).unwrap_err();
    assert!(refused.contains("counts these games already"), "{refused}");
    // A match the ladder would not play (other opening plies) is refused.
    let other = path("other.jsonl");
    arena(&other, "3");
    let refused = ladder(&again, &["--pool", &other]).unwrap_err();
    assert!(
        refused.contains("random plies: 3 in the log, 2 here"),
        "{refused}"
    );
    // Refused before any pair is played.
    assert!(!refused.contains("points for"), "{refused}");
    // An empty log is no match at all.
    let empty = path("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let refused = ladder(&again, &["--pool", &empty]).unwrap_err();
    assert!(refused.contains("no games"), "{refused}");
}

#[test]
fn ladder_runs_that_cannot_be_played_are_refused() {
    for (args, says) in [
        (&["crush", "--random-plies", "4"][..], "one-player game"),
        (&["crush", "--levels", "3-9"], "levels 1-4"),
        (&["chess"], "no game"),
        (&["reversi", "--levels", "5-3"], "the lower first"),
        (&["reversi", "--levels", "1-99"], "levels 1-12"),
    ] {
        let run = Command::new(GAMEBOT)
            .arg("ladder")
            .args(args)
            .output()
            .unwrap();
        let game = args.join(" ");
        assert_eq!(run.status.code(), Some(2), "{game}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(says), "{game}: {stderr}");
    }
}

/// The bar of a published ladder. A two-player game's ratings count from
/// its random mover and rise with the level in steps of 100 to 300 Elo, each step known to within half its
/// size either way (95%), and the top is at least 1,200 above level 1. A
/// one-player game's mean score rises with the level in every variant. In
/// both, the file covers every numbered level, and the service lists what
/// it holds.
#[test]
fn checked_in_ladders_meet_the_bar() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ladder");
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let file = LadderFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for pair in &file.pairs {
            assert_eq!(
                (pair.a_points * 2.0).fract(),
                0.0,
                "{}: points are counted in halves: {pair:?}",
                file.game
            );
        }
        let game = REGISTRY
            .iter()
            .find(|g| g.info().id == file.game)
            .unwrap_or_else(|| panic!("{}: no game {}", path.display(), file.game));
        assert_eq!(
            path.file_stem().unwrap().to_str(),
            Some(game.info().id),
            "{}",
            path.display()
        );
        let listing = game.listing();
        let listed = listing.numbered_levels;
        if game.info().players == 2 {
            assert_eq!(file.levels.len(), listed.len(), "{}", file.game);
            check_ratings(&file);
            // Rated from the random mover, which played level 1, and
            // published as the zero.
            let zero = listing.ladder_zero.expect("a rated ladder has a zero");
            assert_eq!(file.zero.as_deref(), Some(zero.level), "{}", file.game);
            assert!(zero.games > 0, "{}", file.game);
            assert!(file.pairs.iter().any(|p| (p.a, p.b) == (0, 1)));
            for (level, shown) in file.levels.iter().zip(&listed) {
                assert_eq!(
                    shown.rating,
                    Some(level.rating),
                    "{}: not published",
                    file.game
                );
                // The file measured the levels the service plays now.
                assert_eq!(
                    level.plays.as_deref(),
                    Some(shown.description.as_str()),
                    "{}: level {} has changed since it was measured",
                    file.game,
                    level.level
                );
            }
        } else {
            assert_eq!(file.scores.len(), listed.len(), "{}", file.game);
            check_scores(&file);
            assert!(
                listed.iter().all(|level| level.mean_scores.is_some()),
                "{}: not published",
                file.game
            );
            for (level, shown) in file.scores.iter().zip(&listed) {
                assert_eq!(
                    level.plays.as_deref(),
                    Some(shown.description.as_str()),
                    "{}: level {} has changed since it was measured",
                    file.game,
                    level.level
                );
            }
        }
    }
}

/// Games whose top level plays perfectly and whose perfect play is a
/// draw: their whole range, from a beginner who still takes most wins to
/// perfect play, is narrower than 1,200 Elo (Naughts: about 400; perfect
/// play scores 99.8% even against uniformly random moves), so their ladder
/// has as many levels as the game supports and no span to reach.
const SOLVED_AS_DRAWS: &[&str] = &["naughts"];

fn check_ratings(file: &LadderFile) {
    let levels = &file.levels;
    for (i, level) in levels.iter().enumerate() {
        assert_eq!(usize::from(level.level), i + 1, "{}", file.game);
    }
    for level in levels.iter().skip(1) {
        let [step, low, high] = level.step.expect("every level above 1 has a step");
        assert!(
            (100.0..=300.0).contains(&step),
            "{}: the step to level {} is {step:.0} Elo",
            file.game,
            level.level
        );
        assert!(
            high - low < step,
            "{}: the step to level {} is {step:.0} ({low:.0} to {high:.0}): \
             its interval is not under half the gap on each side",
            file.game,
            level.level
        );
    }
    let span = levels.last().unwrap().rating - levels[0].rating;
    if SOLVED_AS_DRAWS.contains(&file.game.as_str()) {
        return;
    }
    assert!(
        span >= 1200.0,
        "{}: the top is {span:.0} above level 1",
        file.game
    );
}

fn check_scores(file: &LadderFile) {
    for (i, level) in file.scores.iter().enumerate() {
        assert_eq!(usize::from(level.level), i + 1, "{}", file.game);
    }
    for pair in file.scores.windows(2) {
        let (below, above) = (&pair[0], &pair[1]);
        assert_eq!(below.variants.len(), above.variants.len(), "{}", file.game);
        for (low, high) in below.variants.iter().zip(&above.variants) {
            assert_eq!(low.variant, high.variant);
            assert!(
                high.mean > low.mean,
                "{}: level {} scores {} at {}, level {} {}",
                file.game,
                above.level,
                high.mean,
                high.variant,
                below.level,
                low.mean
            );
        }
    }
}

/// A one-player ladder plays every level on the same seeds in each
/// variant, journals each level's games as they end, and a run stopped
/// half way resumes from its journal: the planted entry (points no level
/// scores) is kept, not played again.
#[test]
fn the_crush_ladder_journals_each_level_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crush.json");
    let journal = dir.path().join("crush.pairs.jsonl");
    let command = "gamebot ladder crush --games 2 --seed 5 --threads 2 --levels 1-2";
    let earlier = serde_json::json!({
        "command": command,
        "build": "earlier",
        "seconds": 1.5,
        "result": {"level": 1, "variant": "k=4", "points": [1, 3]},
    });
    std::fs::write(&journal, format!("{earlier}\n")).unwrap();
    let ladder = |resume: bool| {
        let mut command = Command::new(GAMEBOT);
        command.args(["ladder", "crush", "--games", "2", "--seed", "5"]);
        command
            .args(["--threads", "2", "--levels", "1-2", "--out"])
            .arg(&out);
        if resume {
            command.arg("--resume");
        }
        command.output().unwrap()
    };
    let refused = ladder(false);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));

    let resumed = ladder(true);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(
        stdout.contains("level 1, k=4: mean 2.0 (journaled by earlier)"),
        "{stdout}"
    );
    assert!(
        !journal.exists(),
        "the journal goes once the file is written"
    );
    let file = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file.command, command);
    assert!(file.build.starts_with("earlier + "), "{}", file.build);
    assert_eq!(file.scores.len(), 2);
    let variants: Vec<&str> = file.scores[0]
        .variants
        .iter()
        .map(|v| v.variant.as_str())
        .collect();
    assert_eq!(variants, ["k=4", "k=5", "k=6", "k=7"]);
    let planted = &file.scores[0].variants[0];
    assert_eq!((planted.games, planted.mean, planted.step), (2, 2.0, None));
    // Level 2's step at k=4 is its gain over the planted points, board by board.
    let above = &file.scores[1].variants[0];
    assert_eq!(above.step.unwrap()[0], above.mean - 2.0);
    assert!(file.scores.iter().all(|level| level.plays.is_some()));
}
