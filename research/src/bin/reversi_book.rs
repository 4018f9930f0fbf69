//! Builds Reversi's opening book: positions are expanded (their every move
//! searched to `--depth` by the engine, selective search on, no clock, so
//! the same command always finds the same scores) best first: the next is
//! the one whose line strays least from the best play found so far (the
//! sum of its moves' gaps to each position's best move), among the moves
//! within `--margin` of their position's best, lines straying at most
//! `--max-deviation` and up to `--plies`, until `--max-expanded` positions
//! are expanded. So the main lines go deepest and the near-equal moves
//! beside them stay for variety; the first `--wide-plies` plies are
//! expanded whole within the margin before any deeper line. An expanded
//! position's book score is then its best move's (negamax over the book),
//! a leaf's its own search's; `--own-scores` keeps every position's own.
//! Positions are stored once per symmetry class. Each search is journaled
//! (`--journal`, a line a position), so a stopped build started again with
//! the same command searches only what is missing; nothing is random, so
//! it needs no seed. Without `--out` the book is written where the engine
//! reads it; a candidate replaces the shipped book only after winning its
//! match against it (docs/reversi-engine.md, "Opening book").
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_book -- \
//!     --plies 12 --depth 20 --margin 150 --max-deviation 300 --max-expanded 300 \
//!     --threads 1 --journal research/data/reversi-book/gen3-depth20.jsonl \
//!     --out /tmp/book-d20.bin
//! ```

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::book::{canonical, Book, BookEntry};
use gamebot::games::reversi::bots::engine::{think, Evaluation, Plan};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
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
    /// Lines whose moves' gaps to the best add up to more than this many
    /// hundredths of a disc are not expanded.
    #[arg(long, default_value_t = 400)]
    max_deviation: i32,
    /// Moves of the first this many plies add nothing to their line's
    /// deviation: every move within `--margin` there is expanded first,
    /// so the book answers whatever near-best move an opponent plays early.
    #[arg(long, default_value_t = 0)]
    wide_plies: u32,
    /// The most positions expanded (their every move searched).
    #[arg(long, default_value_t = 800)]
    max_expanded: usize,
    /// Store every position with its own search's score, not the score
    /// backed up from its moves by negamax.
    #[arg(long)]
    own_scores: bool,
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

/// A position of the book with what the build knows of it.
struct Node {
    /// The fewest plies from the start it was reached in.
    ply: u32,
    /// Whether its every move was searched.
    expanded: bool,
}

impl Node {
    /// A position first reached at `ply`, not expanded yet.
    fn reached_at(ply: u32) -> Node {
        Node {
            ply,
            expanded: false,
        }
    }
}

/// The positions a move of `key` leads to, each in [`canonical`] form.
fn children(key: (u64, u64)) -> Vec<(u64, u64)> {
    let board = Board::new(key.0, key.1);
    let set: BTreeSet<(u64, u64)> = Bits(board.moves())
        .map(|sq| canonical(board.play(sq)))
        .collect();
    set.into_iter().collect()
}

/// Expands the book best first: the position whose line strays least from
/// the best play found so far (the sum of each move's gap to the best
/// move, in hundredths of a disc) is expanded next, the earlier ply first
/// among equals, so the main lines go deepest and the near-equal moves
/// beside them are kept for variety.
fn expand(
    args: &Args,
    threads: usize,
    scores: &mut BTreeMap<(u64, u64), i16>,
    started: Instant,
) -> BTreeMap<(u64, u64), Node> {
    let start = canonical(Board::start());
    search_missing(args, threads, &[start], scores);
    let mut nodes = BTreeMap::from([(start, Node::reached_at(0))]);
    let mut strayed: BTreeMap<(u64, u64), i32> = BTreeMap::from([(start, 0)]);
    let mut queue = BinaryHeap::from([Reverse((0, 0, start))]);
    let mut expanded = 0;
    while let Some(Reverse((deviation, ply, key))) = queue.pop() {
        if expanded >= args.max_expanded {
            break;
        }
        if nodes[&key].expanded || strayed[&key] < deviation {
            continue;
        }
        let next = children(key);
        search_missing(args, threads, &next, scores);
        nodes
            .get_mut(&key)
            .expect("queued positions are nodes")
            .expanded = true;
        expanded += 1;
        for &child in &next {
            let node = nodes.entry(child).or_insert(Node::reached_at(ply + 1));
            node.ply = node.ply.min(ply + 1);
        }
        if expanded % 100 == 0 {
            eprintln!(
                "{expanded} expanded, {} positions, now at ply {ply} strayed {deviation} ({:.0} s)",
                nodes.len(),
                started.elapsed().as_secs_f64()
            );
        }
        if ply + 1 >= args.plies {
            continue;
        }
        let best = next
            .iter()
            .map(|c| -i32::from(scores[c]))
            .max()
            .unwrap_or(0);
        for &child in &next {
            let gap = best + i32::from(scores[&child]);
            let charged = if ply < args.wide_plies { 0 } else { gap };
            let total = deviation + charged;
            let has_moves = Board::new(child.0, child.1).moves() != 0;
            if gap <= args.margin && total <= args.max_deviation && has_moves {
                let known = strayed.entry(child).or_insert(i32::MAX);
                if total < *known {
                    *known = total;
                    queue.push(Reverse((total, ply + 1, child)));
                }
            }
        }
    }
    nodes
}

/// A position's book score by negamax: an expanded position's is the best
/// of its moves' (minus each child's book score), a leaf's is its own
/// search's.
fn backed_up(
    key: (u64, u64),
    nodes: &BTreeMap<(u64, u64), Node>,
    scores: &BTreeMap<(u64, u64), i16>,
    memo: &mut BTreeMap<(u64, u64), i16>,
) -> i16 {
    if let Some(&score) = memo.get(&key) {
        return score;
    }
    let score = if nodes[&key].expanded {
        children(key)
            .into_iter()
            .map(|child| -backed_up(child, nodes, scores, memo))
            .max()
            .expect("an expanded position has moves")
    } else {
        scores[&key]
    };
    memo.insert(key, score);
    score
}

fn main() {
    let args = Args::parse();
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let started = Instant::now();
    let mut scores = read_journal(&args.journal, args.depth);
    let resumed = scores.len();
    let nodes = expand(&args, threads, &mut scores, started);
    let mut memo = BTreeMap::new();
    let entries = nodes
        .keys()
        .map(|&key| BookEntry {
            me: key.0,
            opp: key.1,
            score: if args.own_scores {
                scores[&key]
            } else {
                backed_up(key, &nodes, &scores, &mut memo)
            },
        })
        .collect();
    let book = Book::new(entries);
    let bytes = book.to_bytes();
    Book::from_bytes(&bytes).expect("the built book reads back");
    std::fs::write(&args.out, &bytes).unwrap_or_else(|e| panic!("{}: {e}", args.out));
    let expanded: Vec<&Node> = nodes.values().filter(|n| n.expanded).collect();
    let deepest = expanded.iter().map(|n| n.ply).max().unwrap_or(0);
    eprintln!(
        "{} positions ({} searches from the journal), {} expanded, the deepest at ply {deepest}, \
         {} bytes written to {} in {:.0} s",
        book.len(),
        resumed,
        expanded.len(),
        bytes.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
}
