//! Builds Reversi's opening book: from the start, every move of a book
//! position is searched to `--depth` by the engine (selective search on, no
//! clock, so the same command always finds the same scores), and the moves
//! within `--margin` of the best are expanded in turn, ply after ply up to
//! `--plies`, the nearest-best first while fewer than `--max-expanded`
//! positions have been expanded. Positions are stored once per symmetry
//! class. Each search is journaled (`--journal`, a line a position), so a
//! stopped build started again with the same command searches only what is
//! missing; nothing is random, so it needs no seed. The book is written
//! where the engine reads it.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_book -- \
//!     --plies 10 --depth 12 --margin 200 --max-expanded 800
//! ```

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::book::{canonical, Book, BookEntry};
use gamebot::games::reversi::bots::engine::{think, Evaluation, Plan};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// Plies from the start whose positions may be expanded.
    #[arg(long, default_value_t = 10)]
    plies: u32,
    /// The depth of every search.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Moves within this many hundredths of a disc of the best are expanded.
    #[arg(long, default_value_t = 200)]
    margin: i32,
    /// The most positions expanded (their every move searched).
    #[arg(long, default_value_t = 800)]
    max_expanded: usize,
    /// Threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The journal of searched positions, kept between runs of the same command.
    #[arg(long, default_value = "target/reversi-book.jsonl")]
    journal: String,
    /// Where the book goes.
    #[arg(long, default_value = "src/games/reversi/bots/book.bin")]
    out: String,
}

/// One searched position, a line of the journal.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Searched {
    /// The build settings that searched it (`--depth`).
    depth: u32,
    me: u64,
    opp: u64,
    score: i16,
}

/// The engine's score of `board` for its mover, `depth` plies deep.
fn search(board: Board, depth: u32) -> i16 {
    let plan = Plan {
        max_depth: depth,
        solve_empties: 0,
        solve_nodes: None,
        top: 1,
        include: None,
        table_log2: Some(18),
        evaluation: Evaluation::Patterns,
        probcut: Some(1.0),
    };
    let score = think(board, &Budget::unlimited(), plan).lines[0].score;
    score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// The journaled scores of an earlier run at `depth`.
fn read_journal(path: &str, depth: u32) -> BTreeMap<(u64, u64), i16> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeMap::new();
    };
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str::<Searched>(line).expect("a journal line"))
        .filter(|s| s.depth == depth)
        .map(|s| ((s.me, s.opp), s.score))
        .collect()
}

/// Searches the positions of `keys` that `scores` lacks, in batches, each
/// journaled as it ends.
fn search_missing(
    args: &Args,
    threads: usize,
    keys: &[(u64, u64)],
    scores: &mut BTreeMap<(u64, u64), i16>,
) {
    let missing: Vec<(u64, u64)> = keys
        .iter()
        .filter(|k| !scores.contains_key(k))
        .copied()
        .collect();
    for batch in missing.chunks(64) {
        let found = run_parallel(batch.len(), threads, |i| {
            let (me, opp) = batch[i];
            Ok(search(Board::new(me, opp), args.depth))
        })
        .expect("searches cannot fail");
        let mut journal = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args.journal)
            .unwrap_or_else(|e| panic!("{}: {e}", args.journal));
        for (&(me, opp), score) in batch.iter().zip(found) {
            let line = Searched {
                depth: args.depth,
                me,
                opp,
                score,
            };
            writeln!(
                journal,
                "{}",
                serde_json::to_string(&line).expect("serialises")
            )
            .unwrap_or_else(|e| panic!("{}: {e}", args.journal));
            scores.insert((me, opp), score);
        }
    }
}

fn main() {
    let args = Args::parse();
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let started = Instant::now();
    let mut scores = read_journal(&args.journal, args.depth);
    let resumed = scores.len();
    let start = canonical(Board::start());
    search_missing(&args, threads, &[start], &mut scores);

    // The positions this run reaches (the journal may hold others).
    let mut reached: BTreeSet<(u64, u64)> = BTreeSet::from([start]);
    let mut frontier: Vec<(u64, u64)> = vec![start];
    let mut expanded = 0;
    for ply in 0..args.plies {
        let children: BTreeSet<(u64, u64)> = frontier
            .iter()
            .flat_map(|&(me, opp)| {
                let board = Board::new(me, opp);
                Bits(board.moves()).map(move |sq| canonical(board.play(sq)))
            })
            .collect();
        let children: Vec<(u64, u64)> = children.into_iter().collect();
        search_missing(&args, threads, &children, &mut scores);
        reached.extend(&children);
        expanded += frontier.len();
        // The moves worth expanding next, nearest the best first.
        let mut next: BTreeMap<(u64, u64), i32> = BTreeMap::new();
        for &(me, opp) in &frontier {
            let board = Board::new(me, opp);
            let values: Vec<((u64, u64), i32)> = Bits(board.moves())
                .map(|sq| {
                    let child = canonical(board.play(sq));
                    (child, -i32::from(scores[&child]))
                })
                .collect();
            let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
            for (child, value) in values {
                let gap = best - value;
                if gap <= args.margin && Board::new(child.0, child.1).moves() != 0 {
                    let kept = next.entry(child).or_insert(gap);
                    *kept = (*kept).min(gap);
                }
            }
        }
        let mut ranked: Vec<((u64, u64), i32)> = next.into_iter().collect();
        ranked.sort_by_key(|&(key, gap)| (gap, key));
        let room = args.max_expanded.saturating_sub(expanded);
        frontier = ranked.into_iter().take(room).map(|(key, _)| key).collect();
        eprintln!(
            "ply {}: {} positions searched, {} expanded so far, {} to expand next ({:.0} s)",
            ply + 1,
            scores.len(),
            expanded,
            frontier.len(),
            started.elapsed().as_secs_f64()
        );
        if frontier.is_empty() || ply + 1 >= args.plies {
            break;
        }
    }
    let book = Book::new(
        reached
            .iter()
            .map(|&(me, opp)| BookEntry {
                me,
                opp,
                score: scores[&(me, opp)],
            })
            .collect(),
    );
    let bytes = book.to_bytes();
    Book::from_bytes(&bytes).expect("the built book reads back");
    std::fs::write(&args.out, &bytes).unwrap_or_else(|e| panic!("{}: {e}", args.out));
    eprintln!(
        "{} positions ({} from the journal), {} expanded, {} bytes written to {} in {:.0} s",
        book.len(),
        resumed,
        expanded,
        bytes.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
}
