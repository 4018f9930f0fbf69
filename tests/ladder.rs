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
        "pair": {"a": 2, "b": 3, "games": 6, "a_points": 1.0},
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
fn skip_timed_plays_the_load_independent_pairs_and_resume_plays_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reversi.json");
    let journal = dir.path().join("reversi.pairs.jsonl");
    // Reversi's levels 9 and 10 are node-capped, 11 thinks a fixed time
    // (here cut to 20 ms): only 9 vs 10 is load-independent.
    let ladder = |extra: &[&str]| {
        Command::new(GAMEBOT)
            .args(["ladder", "reversi", "--games", "2", "--max-games", "2"])
            .args(["--levels", "9-11", "--threads", "2", "--seed", "3"])
            .args(["--time-ms", "20"])
            .args(extra)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };

    let first = ladder(&["--skip-timed"]);
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(first.status.success(), "{stdout}");
    assert!(stdout.contains("level 9 vs 10: "), "{stdout}");
    assert!(!stdout.contains("vs 11"), "{stdout}");
    assert!(
        stdout.contains("2 pairs with a timed level are left"),
        "{stdout}"
    );
    assert!(!out.exists(), "no file until every pair is played");
    let journaled = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(journaled.lines().count(), 1, "{journaled}");

    let rest = ladder(&["--resume"]);
    let stdout = String::from_utf8_lossy(&rest.stdout);
    assert!(rest.status.success(), "{stdout}");
    assert!(stdout.contains("level 9 vs 10: "), "{stdout}");
    assert!(stdout.contains("journaled by"), "{stdout}");
    let file = LadderFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let mut played: Vec<(u8, u8)> = file.pairs.iter().map(|p| (p.a, p.b)).collect();
    played.sort();
    assert_eq!(played, [(9, 10), (9, 11), (10, 11)]);
    assert!(!file.command.contains("skip"), "{}", file.command);

    // The timed pairs alone first, as on a quiet machine while the others
    // wait; the run that journals the last pair writes the file.
    std::fs::remove_file(&out).unwrap();
    let timed = ladder(&["--only-timed"]);
    let stdout = String::from_utf8_lossy(&timed.stdout);
    assert!(timed.status.success(), "{stdout}");
    assert!(!stdout.contains("level 9 vs 10"), "{stdout}");
    assert!(stdout.contains("level 9 vs 11: "), "{stdout}");
    assert!(stdout.contains("level 10 vs 11: "), "{stdout}");
    assert!(
        stdout.contains("1 pairs whose levels keep their own budgets are left"),
        "{stdout}"
    );
    assert!(!out.exists(), "no file until every pair is played");
    let journaled = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(journaled.lines().count(), 2, "{journaled}");
    let untimed = ladder(&["--skip-timed", "--resume"]);
    let stdout = String::from_utf8_lossy(&untimed.stdout);
    assert!(untimed.status.success(), "{stdout}");
    assert!(stdout.contains("level 9 vs 10: "), "{stdout}");
    assert_eq!(
        LadderFile::parse(&std::fs::read_to_string(&out).unwrap())
            .unwrap()
            .pairs
            .len(),
        3
    );
    assert!(!journal.exists());
}

#[test]
fn ladder_runs_that_cannot_be_played_are_refused() {
    for (args, says) in [
        (&["crush"][..], "`gamebot crush --benchmark --ladder`"),
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

/// The bar of a published ladder. A two-player game's ratings rise with
/// the level in steps of 100 to 300 Elo, each step known to within half its
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
        let listed = game.listing().numbered_levels;
        if game.info().players == 2 {
            assert_eq!(file.levels.len(), listed.len(), "{}", file.game);
            check_ratings(&file);
            for (level, shown) in file.levels.iter().zip(&listed) {
                assert_eq!(
                    shown.rating,
                    Some(level.rating),
                    "{}: not published",
                    file.game
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
