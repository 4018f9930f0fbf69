//! Checks of the generic search against brute force on small synthetic games.

use super::*;
use crate::game::{Budget, Rules, Side, StopReason};

/// How the test games end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum TestTermination {
    /// The last stone was taken.
    LastStone,
}

/// Nim with one pile: take 1–3 stones; whoever takes the last stone wins.
/// The mover loses exactly when the pile is a multiple of 4.
struct Nim;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Pile {
    stones: u32,
    mover: Side,
}

/// An endless game whose positions get pseudo-random values: a tree for
/// comparing alpha-beta with plain minimax.
struct Tree;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    path: u64,
    mover: Side,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^ (x >> 33)
}

impl Rules for Nim {
    type State = Pile;
    type Move = u32;
    type Termination = TestTermination;
    fn to_move(state: &Pile) -> Side {
        state.mover
    }
    fn legal_moves(state: &Pile, out: &mut Vec<u32>) {
        out.extend((1..=3).filter(|&n| n <= state.stones));
    }
    fn apply(state: &Pile, mv: &u32) -> Pile {
        Pile {
            stones: state.stones - mv,
            mover: state.mover.other(),
        }
    }
    fn outcome(state: &Pile) -> Outcome<TestTermination> {
        if state.stones == 0 {
            Outcome::Win {
                winner: state.mover.other(),
                reason: "took the last stone".into(),
                termination: TestTermination::LastStone,
                score: [0; 2],
            }
        } else {
            Outcome::Ongoing
        }
    }
}

impl Evaluate for Nim {
    fn evaluate(_: &Pile) -> i32 {
        0
    }
    fn hash(state: &Pile) -> u64 {
        mix(state.stones as u64 * 2 + state.mover.index() as u64)
    }
}

impl Rules for Tree {
    type State = Node;
    type Move = u64;
    type Termination = TestTermination;
    fn to_move(state: &Node) -> Side {
        state.mover
    }
    fn legal_moves(state: &Node, out: &mut Vec<u64>) {
        out.extend(0..2 + mix(state.path) % 4);
    }
    fn apply(state: &Node, mv: &u64) -> Node {
        Node {
            path: mix(state.path ^ (mv + 1)),
            mover: state.mover.other(),
        }
    }
    fn outcome(_: &Node) -> Outcome<TestTermination> {
        Outcome::Ongoing
    }
}

impl Evaluate for Tree {
    fn evaluate(state: &Node) -> i32 {
        (mix(state.path ^ 0xabcdef) % 2001) as i32 - 1000
    }
    fn hash(state: &Node) -> u64 {
        state.path
    }
    // History reorders moves; alpha-beta must stay exact regardless.
    fn history_slot(_: &Node, mv: &u64) -> Option<usize> {
        Some(*mv as usize)
    }
}

/// [`Tree`] where the search may also pass (null-move pruning) and where
/// some positions count as "in danger": for the opt-in prunings.
struct PassingTree;

impl Rules for PassingTree {
    type State = Node;
    type Move = u64;
    type Termination = TestTermination;
    fn to_move(state: &Node) -> Side {
        state.mover
    }
    fn legal_moves(state: &Node, out: &mut Vec<u64>) {
        Tree::legal_moves(state, out)
    }
    fn apply(state: &Node, mv: &u64) -> Node {
        Tree::apply(state, mv)
    }
    fn outcome(_: &Node) -> Outcome<TestTermination> {
        Outcome::Ongoing
    }
}

impl Evaluate for PassingTree {
    fn evaluate(state: &Node) -> i32 {
        Tree::evaluate(state)
    }
    fn hash(state: &Node) -> u64 {
        state.path
    }
    fn history_slot(_: &Node, mv: &u64) -> Option<usize> {
        Some(*mv as usize)
    }
    fn in_danger(state: &Node) -> bool {
        state.path % 7 == 0
    }
    fn null_move(state: &Node) -> Option<Node> {
        Some(Node {
            path: mix(state.path ^ 0x5555),
            mover: state.mover.other(),
        })
    }
}

fn all_prunings() -> SearchOptions {
    SearchOptions {
        late_move_reductions: true,
        null_move: true,
        threat_extension: true,
        futility_margin: Some(300),
        ..SearchOptions::default()
    }
}

fn minimax(state: &Node, depth: u32) -> i32 {
    if depth == 0 {
        return Tree::evaluate(state);
    }
    let mut moves = Vec::new();
    Tree::legal_moves(state, &mut moves);
    moves
        .iter()
        .map(|m| -minimax(&Tree::apply(state, m), depth - 1))
        .max()
        .unwrap()
}

#[test]
fn alpha_beta_scores_equal_plain_minimax() {
    for seed in 0..60u64 {
        let root = Node {
            path: mix(seed),
            mover: Side::First,
        };
        for depth in 1..=5 {
            let result = search::<Tree>(
                &root,
                &Budget::unlimited().depth(depth),
                &SearchOptions::default(),
            );
            assert_eq!(
                result.score,
                minimax(&root, depth),
                "seed {seed} depth {depth}"
            );
            assert_eq!(result.depth, depth);
            let best_child = Tree::apply(&root, &result.best);
            assert_eq!(
                -minimax(&best_child, depth - 1),
                result.score,
                "best move is a best move"
            );
        }
    }
}

#[test]
fn analysis_ranks_every_root_move_exactly() {
    let root = Node {
        path: mix(7),
        mover: Side::First,
    };
    let roots = rank::<Tree>(
        &root,
        &crate::game::Scope::top(10),
        &Budget::unlimited().depth(4),
        &SearchOptions::default(),
    );
    let mut expected: Vec<i32> = {
        let mut moves = Vec::new();
        Tree::legal_moves(&root, &mut moves);
        moves
            .iter()
            .map(|m| -minimax(&Tree::apply(&root, m), 3))
            .collect()
    };
    expected.sort_unstable_by(|a, b| b.cmp(a));
    let got: Vec<i32> = roots.roots.iter().map(|r| r.score).collect();
    assert_eq!(got, expected);
}

#[test]
fn solves_nim_and_says_it_is_proven() {
    for stones in 1..=14 {
        let pile = Pile {
            stones,
            mover: Side::First,
        };
        let result = search::<Nim>(&pile, &Budget::unlimited(), &SearchOptions::default());
        assert!(result.proven, "{stones} stones");
        assert_eq!(result.stopped_by, StopReason::Proven);
        if stones % 4 == 0 {
            assert!(
                result.score < 0 && is_decisive(result.score),
                "{stones}: lost"
            );
        } else {
            assert_eq!(result.best, stones % 4, "{stones}: take to a multiple of 4");
            assert_eq!(
                WIN - result.score,
                (stones as i32 + 3) / 4 * 2 - 1,
                "{stones}: fastest win"
            );
        }
    }
}

#[test]
fn a_raised_stop_flag_still_returns_a_legal_move() {
    let root = Node {
        path: 1,
        mover: Side::First,
    };
    let budget = Budget::unlimited();
    budget.stop.raise();
    let result = search::<Tree>(&root, &budget, &SearchOptions::default());
    let mut moves = Vec::new();
    Tree::legal_moves(&root, &mut moves);
    assert!(moves.contains(&result.best));
    assert_eq!(result.stopped_by, StopReason::Cancelled);
}

#[test]
fn a_node_cap_stops_the_search_deterministically() {
    let root = Node {
        path: 99,
        mover: Side::First,
    };
    let budget = Budget::unlimited().nodes(5_000);
    let a = search::<Tree>(&root, &budget, &SearchOptions::default());
    let b = search::<Tree>(&root, &budget, &SearchOptions::default());
    assert_eq!(a.stopped_by, StopReason::Nodes);
    assert_eq!((a.best, a.score, a.depth), (b.best, b.score, b.depth));
    assert!(a.nodes <= 5_000 + 64);
}

#[test]
fn a_search_started_after_its_deadline_finishes_depth_one_and_stops() {
    let root = Node {
        path: 5,
        mover: Side::First,
    };
    let mut budget = Budget::with_time_ms(0);
    budget.deadline = Some(std::time::Instant::now());
    let result = search::<Tree>(&root, &budget, &SearchOptions::default());
    assert_eq!(result.stopped_by, StopReason::Time);
    // Every reply is looked at once (an immediate win is never missed), and
    // the second iteration stops at its first check.
    assert_eq!(result.depth, 1);
    assert!(
        result.nodes < 64,
        "{} nodes after the deadline",
        result.nodes
    );
    let mut moves = Vec::new();
    Tree::legal_moves(&root, &mut moves);
    assert!(moves.contains(&result.best));
}

#[test]
fn the_opt_in_prunings_search_fewer_nodes_and_never_claim_a_proof() {
    // The threat extension searches more, not less: leave it out of the count.
    let prunings = SearchOptions {
        threat_extension: false,
        ..all_prunings()
    };
    let mut plain_nodes = 0;
    let mut pruned_nodes = 0;
    for seed in 0..20u64 {
        let root = Node {
            path: mix(seed + 1000),
            mover: Side::First,
        };
        let budget = Budget::unlimited().depth(7);
        let plain = search::<PassingTree>(&root, &budget, &SearchOptions::default());
        let pruned = search::<PassingTree>(&root, &budget, &prunings);
        let extended = search::<PassingTree>(&root, &budget, &all_prunings());
        let mut moves = Vec::new();
        PassingTree::legal_moves(&root, &mut moves);
        assert!(moves.contains(&pruned.best), "seed {seed}");
        assert!(moves.contains(&extended.best), "seed {seed}");
        assert!(
            !pruned.proven,
            "seed {seed}: a pruned search proves nothing"
        );
        assert!(!extended.proven, "seed {seed}");
        assert_eq!(pruned.depth, 7);
        plain_nodes += plain.nodes;
        pruned_nodes += pruned.nodes;
    }
    assert!(
        pruned_nodes * 3 < plain_nodes * 2,
        "pruned {pruned_nodes} nodes against {plain_nodes}"
    );
}

#[test]
fn the_opt_in_prunings_keep_nim_solved() {
    for stones in 1..=14 {
        let pile = Pile {
            stones,
            mover: Side::First,
        };
        let result = search::<Nim>(&pile, &Budget::unlimited(), &all_prunings());
        if stones % 4 == 0 {
            assert!(result.score < 0 && is_decisive(result.score), "{stones}");
        } else {
            assert_eq!(result.best, stones % 4, "{stones}: take to a multiple of 4");
            assert!(is_decisive(result.score) && result.score > 0, "{stones}");
        }
    }
}

#[test]
fn the_opt_in_prunings_respect_a_node_cap_deterministically() {
    let root = Node {
        path: 77,
        mover: Side::First,
    };
    let budget = Budget::unlimited().nodes(20_000);
    let a = search::<PassingTree>(&root, &budget, &all_prunings());
    let b = search::<PassingTree>(&root, &budget, &all_prunings());
    assert_eq!(a.stopped_by, StopReason::Nodes);
    assert_eq!(
        (a.best, a.score, a.depth, a.nodes),
        (b.best, b.score, b.depth, b.nodes)
    );
}

#[test]
fn every_depth_handed_to_an_observer_scores_the_included_move_too() {
    use crate::game::{Analysis, Observer, Scope};
    use std::sync::{Arc, Mutex};
    let root = Node {
        path: mix(11),
        mover: Side::First,
    };
    let mut moves = Vec::new();
    Tree::legal_moves(&root, &mut moves);
    let depths = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&depths);
    let mut budget = Budget::unlimited().depth(5);
    budget.observer = Some(Observer(Arc::new(move |any: &dyn std::any::Any| {
        let analysis = any.downcast_ref::<Analysis<u64>>().unwrap();
        kept.lock().unwrap().push(analysis.clone());
    })));
    // The last move the generator gives: whatever it ranks, it is scored.
    let included = *moves.last().unwrap();
    let scope = Scope::including(1, included);
    let last = analyze::<Tree>(&root, &scope, &budget, &SearchOptions::default());
    let depths = depths.lock().unwrap();
    assert_eq!(depths.len(), 5);
    for depth in depths.iter() {
        assert!(
            depth.moves.iter().any(|m| m.mv == included),
            "{:?}",
            depth.report.depth
        );
    }
    let scores = |a: &Analysis<u64>| a.moves.iter().map(|m| (m.mv, m.score)).collect::<Vec<_>>();
    assert_eq!(scores(depths.last().unwrap()), scores(&last));
}
