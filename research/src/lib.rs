//! Research on gamebot's bots: studies that measure a bot, or try an idea
//! before it goes into the product. It is a separate workspace member, so the
//! product's `cargo build`, `cargo test` and `cargo clippy` at the root do not
//! compile it, and it uses the `gamebot` library only through its public API
//! (the research entry point for `crush`'s `strong` level is
//! `gamebot::games::crush::bots::StrongConfig`).
//!
//! The library holds what several studies share: [`crush`], and
//! [`reversi_fit`], the least-squares fit of Reversi's pattern weights
//! that `reversi_train` runs (training code the product does not ship), and
//! [`reversi_probcut`], the fit of its selective search's cut lines, and
//! [`reversi_selfplay`], the self-play games the fit learns from, kept in
//! resumable journals.
//!
//! Each study is a binary in `src/bin/`, its module doc saying what it
//! measures, its arguments and its defaults:
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_regret -- [GAMES] [SMALL_NODES] [REFERENCE_NODES]
//! ```
//!
//! | study | what it measures |
//! |---|---|
//! | `level_costs` | each numbered level's time and positions a move, for `GET /v1/games` |
//! | `crush_config` | `strong` with a `StrongConfig` setting against greedy in whole games |
//! | `crush_regret` | what `strong` loses to its own sampling noise against a much larger search |
//! | `crush_horizon` | how far ahead a choice still moves the points, with greedy playing on |
//! | `crush_advantage` | what `strong` gains over greedy, and what one step of improvement could gain |
//! | `crush_second_step` | whether a second step of policy improvement would lift `strong` |
//! | `crush_lookahead` | a one-swap look-ahead as a bot of its own, against greedy |
//! | `crush_expected` | a cheap estimate of a swap's expected points, and how it plays |
//! | `naughts_opening_book` | writes `src/games/naughts/bots/opening_book.txt` (2 minutes in release) |
//! | `naughts_first_moves` | which first moves on the empty 3×3 board lose, for 5 to 9 pieces |
//! | `naughts_bigger_grids` | `perfect` on grids above 3×3 under a time per move |
//! | `reversi_search_depths` | how deep `strong` searches in a time, by empties |
//! | `reversi_probcut` | fits Multi-ProbCut's lines (`src/games/reversi/bots/probcut.json`) |
//! | `perft_timing` | Reversi perft(11) and Advance perft(5), timed, to compare two builds |
//!
//! The figures they gave, and what was tried with them, are in
//! `docs/crush-strong.md`. Several run 9 to 15 minutes at their defaults;
//! every count is an argument, so a small run checks one still works.

pub mod crush;
pub mod positions;
pub mod reversi_fit;
pub mod reversi_probcut;
pub mod reversi_selfplay;
