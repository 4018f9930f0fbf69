//! Counts of a thread's state reads and writes ([`Codec::state_from_json`]
//! and [`Codec::state_to_json`](super::Codec::state_to_json)), kept only in
//! the unit tests, so that a test can check how often one request reads and
//! writes its state. Elsewhere counting compiles to nothing.
//!
//! [`Codec::state_from_json`]: super::Codec::state_from_json

#[cfg(test)]
thread_local! {
    static READS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static WRITES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Counts one state read on this thread.
#[inline]
pub(super) fn count_read() {
    #[cfg(test)]
    READS.with(|reads| reads.set(reads.get() + 1));
}

/// Counts one state write on this thread.
#[inline]
pub(super) fn count_write() {
    #[cfg(test)]
    WRITES.with(|writes| writes.set(writes.get() + 1));
}

/// The state reads and writes this thread made while `work` ran, and its value.
#[cfg(test)]
pub fn counted<R>(work: impl FnOnce() -> R) -> (u32, u32, R) {
    let before = (READS.with(|r| r.get()), WRITES.with(|w| w.get()));
    let value = work();
    let after = (READS.with(|r| r.get()), WRITES.with(|w| w.get()));
    (after.0 - before.0, after.1 - before.1, value)
}

#[cfg(test)]
mod tests {
    use super::counted;
    use crate::game::erased::{BotRequest, StateInput};
    use crate::game::Budget;
    use serde_json::Value;

    /// A seeded bot move at each game's first numbered level, from its
    /// start: the state read once (on the runtime, before the job is
    /// queued) and written at most twice (the cache key's twin and the
    /// answer's new state); without a cache key, once.
    #[test]
    fn a_seeded_bot_move_reads_its_state_once_and_writes_it_at_most_twice() {
        for game in crate::games::REGISTRY {
            let start = game.new_game(&Value::Null).unwrap().state;
            let request = BotRequest {
                state: StateInput::Json(start),
                level: Some("1".into()),
                seed: Some(7),
                ..BotRequest::default()
            };
            for keyed in [true, false] {
                let (reads, writes, prepared) =
                    counted(|| game.prepare_bot_keyed(request.clone(), keyed).unwrap());
                assert_eq!(prepared.cache_state.is_some(), keyed);
                let (more_reads, more_writes, answer) =
                    counted(|| (prepared.job)(&Budget::unlimited()).unwrap());
                let id = game.info().id;
                assert!(answer.reply.state.is_object(), "{id}");
                assert_eq!(reads + more_reads, 1, "{id}: reads (keyed: {keyed})");
                let most = if keyed { 2 } else { 1 };
                assert!(
                    writes + more_writes <= most,
                    "{id}: {} writes (keyed: {keyed})",
                    writes + more_writes
                );
            }
        }
    }
}
