//! Reversi self-play for training, kept as games: each game is played from a
//! seed and its number alone (so the same setup gives the same game on any
//! machine and thread count), written to a journal as one JSON line, and
//! turned into labelled positions by replaying it. A journal is resumable
//! (a run that stops keeps its finished games; the next plays the rest) and
//! small enough to commit, so self-play longer than one sitting is played in
//! parts, and a fixed held-out set is a journal too.
//!
//! The journal's first line is its [`Setup`]; every other line is a
//! [`Game`]. A run whose setup differs from the journal's is refused.

use crate::reversi_fit::Sample;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{parse_square, square_name, Bits, Board};
use gamebot::games::reversi::bots::engine::{think, Evaluation, Plan};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// How self-play games are played: what makes game `i` of two runs the same game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Seed of the openings and the random moves.
    pub seed: u64,
    /// The evaluation both sides search with: `patterns` (the shipped
    /// weights) or `classic` (the hand-written one).
    pub eval: String,
    /// The midgame depth, no clock.
    pub depth: u32,
    /// Both sides play perfectly (the exact solver) from this many empties,
    /// so every later position's label is its exact value.
    pub solve: u32,
    /// The chance of a random move in the midgame.
    pub epsilon: f64,
    /// The fewest and most random plies that open a game.
    pub opening: (usize, usize),
}

impl Setup {
    fn evaluation(&self) -> Evaluation {
        match self.eval.as_str() {
            "classic" => Evaluation::Classic,
            _ => Evaluation::Patterns,
        }
    }
}

/// One self-play game as the journal keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// Its number in the run: with the setup, all that decides it.
    pub index: usize,
    /// How many of its first moves were the random opening (not labelled).
    pub opening: usize,
    /// Its moves from the start, each square's name (`f5d6…`), passes left out.
    pub moves: String,
}

/// A seed for game `index` from the run's seed.
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut x = seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 29)
}

/// Plays game `index` of `setup`.
pub fn play(setup: &Setup, index: usize) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(setup.seed, index));
    let opening = rng.random_range(setup.opening.0..=setup.opening.1);
    let plan = Plan {
        max_depth: setup.depth,
        solve_empties: setup.solve,
        solve_nodes: None,
        top: 1,
        include: None,
        table_log2: Some(14),
        evaluation: setup.evaluation(),
        probcut: None,
    };
    let budget = Budget::unlimited();
    let mut board = Board::start();
    let mut moves = String::new();
    while !board.is_over() {
        let legal = board.moves();
        if legal == 0 {
            board = board.pass();
            continue;
        }
        let squares: Vec<u32> = Bits(legal).collect();
        let ply = moves.len() / 2;
        let random =
            ply < opening || (board.empties() > setup.solve && rng.random_bool(setup.epsilon));
        let square = if random {
            squares[rng.random_range(0..squares.len())]
        } else {
            think(board, &budget, plan).lines[0]
                .square
                .expect("a side with a move does not pass")
        };
        moves.push_str(&square_name(square));
        board = board.play(square);
    }
    Game {
        index,
        opening,
        moves,
    }
}

impl Game {
    /// Every position after the opening where the mover has a move, with
    /// the game's final disc difference from its mover's view; an error
    /// when the moves are not a legal game played to its end.
    pub fn samples(&self) -> Result<Vec<Sample>, String> {
        let mut board = Board::start();
        // Each position, and whether its mover moved first in the game.
        let mut seen: Vec<(Board, bool)> = Vec::new();
        let mut first_to_move = true;
        let mut ply = 0;
        let mut names = self.moves.as_bytes().chunks(2);
        loop {
            if board.moves() == 0 {
                if board.is_over() {
                    break;
                }
                board = board.pass();
                first_to_move = !first_to_move;
                continue;
            }
            let name = names
                .next()
                .ok_or_else(|| format!("game {}: ends before the board is full", self.index))?;
            let square = std::str::from_utf8(name)
                .ok()
                .and_then(parse_square)
                .filter(|&s| board.moves() & (1u64 << s) != 0)
                .ok_or_else(|| {
                    let name = String::from_utf8_lossy(name);
                    format!(
                        "game {}: move {} ({name}) is not legal",
                        self.index,
                        ply + 1
                    )
                })?;
            if ply >= self.opening {
                seen.push((board, first_to_move));
            }
            board = board.play(square);
            first_to_move = !first_to_move;
            ply += 1;
        }
        if names.next().is_some() {
            return Err(format!("game {}: moves after the game ended", self.index));
        }
        let last = board.me.count_ones() as f32 - board.opp.count_ones() as f32;
        Ok(seen
            .into_iter()
            .map(|(position, first)| Sample {
                board: position,
                target: if first == first_to_move { last } else { -last },
            })
            .collect())
    }
}

/// A journal as read: its setup and its games by number.
#[derive(Debug)]
pub struct Journal {
    /// How its games were played.
    pub setup: Setup,
    /// Its games, by number.
    pub games: BTreeMap<usize, Game>,
}

impl Journal {
    /// Reads the journal at `path`.
    pub fn read(path: &Path) -> Result<Journal, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines
            .next()
            .ok_or_else(|| format!("{}: empty, no setup line", path.display()))?;
        let setup: Setup = serde_json::from_str(first)
            .map_err(|e| format!("{} line 1 (the setup): {e}", path.display()))?;
        let mut games = BTreeMap::new();
        for (number, line) in lines {
            let game: Game = serde_json::from_str(line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), number + 1))?;
            games.insert(game.index, game);
        }
        Ok(Journal { setup, games })
    }

    /// Every game's labelled positions, in game order.
    pub fn samples(&self) -> Result<Vec<Sample>, String> {
        let mut samples = Vec::new();
        for game in self.games.values() {
            samples.extend(game.samples()?);
        }
        Ok(samples)
    }
}

/// Opens the journal at `path` for `setup`: its games so far (none when
/// the file does not exist, which is then started with the setup line),
/// refused when the file's setup differs. A last line cut short (a run
/// stopped while writing it) is dropped from the file: that game is
/// played again.
pub fn resume(path: &Path, setup: &Setup) -> Result<BTreeMap<usize, Game>, String> {
    let fault = |e: std::io::Error| format!("{}: {e}", path.display());
    if !path.exists() {
        let line = serde_json::to_string(setup).expect("a setup serialises");
        std::fs::write(path, line + "\n").map_err(fault)?;
        return Ok(BTreeMap::new());
    }
    let text = std::fs::read_to_string(path).map_err(fault)?;
    let whole = text.rfind('\n').map_or(0, |end| end + 1);
    if whole < text.len() {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(fault)?;
        file.set_len(whole as u64).map_err(fault)?;
    }
    let journal = Journal::read(path)?;
    if &journal.setup != setup {
        return Err(format!(
            "{}: its setup {} is not this run's {}",
            path.display(),
            serde_json::to_string(&journal.setup).expect("a setup serialises"),
            serde_json::to_string(setup).expect("a setup serialises"),
        ));
    }
    Ok(journal.games)
}

/// Appends one finished game to the journal at `path`, in one write.
pub fn append(path: &Path, game: &Game) -> Result<(), String> {
    let fault = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(fault)?;
    let line = serde_json::to_string(game).expect("a game serialises") + "\n";
    file.write_all(line.as_bytes()).map_err(fault)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> Setup {
        Setup {
            seed: 5,
            eval: "patterns".into(),
            depth: 1,
            solve: 8,
            epsilon: 0.1,
            opening: (6, 14),
        }
    }

    #[test]
    fn a_game_is_decided_by_its_setup_and_number_and_replays_to_its_positions() {
        let setup = setup();
        let game = play(&setup, 3);
        assert_eq!(game, play(&setup, 3));
        assert_ne!(game, play(&setup, 4));
        assert!((6..=14).contains(&game.opening));
        let samples = game.samples().expect("a played game replays");
        assert!(samples.len() > 30, "{}", samples.len());
        assert_eq!(samples[0].board.empties() as usize, 60 - game.opening);
        let result = samples[0].target.abs();
        assert!(
            samples.iter().all(|s| s.target.abs() == result),
            "every label is the one result, from its mover's view"
        );
    }

    #[test]
    fn a_journal_resumes_and_refuses_another_setup() {
        let path = std::env::temp_dir().join(format!("selfplay-journal-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let setup = setup();
        assert!(resume(&path, &setup).expect("a new journal").is_empty());
        let game = play(&setup, 0);
        append(&path, &game).expect("appended");
        let games = resume(&path, &setup).expect("resumed");
        assert_eq!(games.get(&0), Some(&game));
        let other = Setup {
            depth: 2,
            ..setup.clone()
        };
        // A game cut short by a stopped run is dropped, and played again.
        std::fs::write(
            &path,
            std::fs::read_to_string(&path).expect("read") + "{\"index\":1,\"open",
        )
        .expect("written");
        assert_eq!(resume(&path, &setup).expect("resumed").len(), 1);
        append(&path, &play(&setup, 1)).expect("appended");
        assert_eq!(Journal::read(&path).expect("read").games.len(), 2);
        let refused = resume(&path, &other).expect_err("another setup");
        assert!(refused.contains("\"depth\":1"), "{refused}");
        let journal = Journal::read(&path).expect("read");
        let mut both = game.samples().expect("samples");
        both.extend(play(&setup, 1).samples().expect("samples"));
        assert_eq!(journal.samples().expect("samples"), both);
        std::fs::remove_file(&path).expect("removed");
    }

    #[test]
    fn a_bad_game_names_its_fault() {
        let mut game = play(&setup(), 1);
        game.moves.replace_range(0..2, "a1");
        assert!(game.samples().expect_err("illegal").contains("move 1 (a1)"));
        let mut short = play(&setup(), 1);
        short.moves.truncate(20);
        assert!(short.samples().expect_err("short").contains("ends before"));
    }
}
