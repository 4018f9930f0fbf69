use super::*;

/// The classic 3×3 game after two moves: not in the book, quick to solve.
fn position() -> State {
    let state = State::new(3, 5);
    let first = Move {
        row: 1,
        col: 1,
        size: 4,
    };
    let reply = Move {
        row: 0,
        col: 0,
        size: 4,
    };
    state.apply(&first).apply(&reply)
}

/// The size of this thread's cached table under `bytes`, without making one.
fn cached_slots(bytes: usize) -> usize {
    memory::with_thread_table_sized(
        bytes,
        |_| panic!("no table is cached for this budget"),
        |table: &mut SolverTable| table.len(),
    )
}

#[test]
fn searches_on_one_thread_reuse_one_table_sized_by_the_setting() {
    std::thread::spawn(|| {
        let state = position();
        let budget = Budget::with_time_ms(60_000);
        let made = memory::tables_made_on_this_thread();
        let first = solve_within(&state, &budget, false, 18, 1 << 20);
        assert_eq!(first.stopped_by, StopReason::Proven);
        let again = solve_within(&state, &budget, false, 18, 1 << 20);
        // One table for both, of 1 MiB / 16 bytes a slot, and the second
        // search found the first one's work in it.
        assert_eq!(memory::tables_made_on_this_thread(), made + 1);
        assert_eq!(cached_slots(1 << 20), 1 << 16);
        assert_eq!(again.moves[0].score, first.moves[0].score);
        assert!(again.nodes < first.nodes, "{} {}", again.nodes, first.nodes);

        // Another setting: the table is made again, at the new size.
        let other = solve_within(&state, &budget, false, 18, 3 << 20);
        assert_eq!(other.moves[0].score, first.moves[0].score);
        assert_eq!(memory::tables_made_on_this_thread(), made + 2);
        assert_eq!(cached_slots(3 << 20), 1 << 17);

        // A node-capped search takes a table of its own and leaves the cache alone.
        let capped = Budget {
            max_nodes: Some(1_000_000_000),
            ..Budget::with_time_ms(60_000)
        };
        let solution = solve_within(&state, &capped, false, 18, 3 << 20);
        assert_eq!(solution.moves[0].score, first.moves[0].score);
        assert_eq!(memory::tables_made_on_this_thread(), made + 2);
    })
    .join()
    .unwrap();
}

#[test]
fn per_search_tables_stay_within_the_setting() {
    assert_eq!(SolverTable::log2_within(32 << 20), 21);
    assert_eq!(SolverTable::log2_within(1 << 20), 16);
    assert_eq!(SolverTable::log2_within(0), 1);
    assert_eq!(SolverTable::within(1 << 20).len(), 1 << 16);
    // The default keeps the table of 2^21 slots searches on 3×3 always had.
    let default = (memory::DEFAULT_TABLE_MB as usize) << 20;
    assert_eq!(SolverTable::log2_within(default), 21);
}
