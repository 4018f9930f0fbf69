//! Memory for the engines' reusable tables: one budget per compute worker,
//! set once at startup, and a per-thread cache that hands each engine "its"
//! table.
//!
//! The service is stateless between requests, and its memory must follow its
//! configuration, not its traffic. A search runs on one thread from start to
//! end (see the compute model in `docs/`), so a table kept per thread and
//! reused by every search on it costs at most `workers × budget`, however
//! many requests arrive at once. An engine that keeps a table between
//! searches takes it from [`with_thread_table`]; one that allocates a table
//! per search sizes it with [`entries_log2`] so it stays within the same
//! budget.
//!
//! Nothing here names a game: the budget is a number of bytes, and a table is
//! any `'static` type, cached once per type and thread.

use std::any::{Any, TypeId};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default table memory per compute worker, in MiB.
pub const DEFAULT_TABLE_MB: u64 = 32;

/// The per-worker table budget in bytes.
static TABLE_BYTES: AtomicUsize = AtomicUsize::new((DEFAULT_TABLE_MB as usize) << 20);

/// Sets the table memory each compute thread may keep, in bytes (the server
/// calls this once at startup). A thread's cached table made under another
/// budget is replaced on its next use.
pub fn set_table_bytes(bytes: usize) {
    TABLE_BYTES.store(bytes, Ordering::Relaxed);
}

/// The table memory each compute thread may keep, in bytes.
pub fn table_bytes() -> usize {
    TABLE_BYTES.load(Ordering::Relaxed)
}

/// log2 of the largest power-of-two number of `entry_bytes`-byte entries that
/// fits in `bytes` (0 when not even one does).
pub fn entries_log2(bytes: usize, entry_bytes: usize) -> u32 {
    let entries = bytes / entry_bytes.max(1);
    entries.checked_ilog2().unwrap_or(0)
}

/// A cached table and the budget it was made for.
struct Cached {
    bytes: usize,
    table: Box<dyn Any>,
}

thread_local! {
    /// This thread's tables, one per type.
    static TABLES: RefCell<HashMap<TypeId, Cached>> = RefCell::new(HashMap::new());
    /// Tables [`with_thread_table_sized`] has made on this thread.
    static MADE: Cell<u64> = const { Cell::new(0) };
}

/// Runs `use_table` with this thread's table of type `T`, sized by the
/// configured budget ([`table_bytes`]). See [`with_thread_table_sized`].
pub fn with_thread_table<T: 'static, R>(
    make: impl FnOnce(usize) -> T,
    use_table: impl FnOnce(&mut T) -> R,
) -> R {
    with_thread_table_sized(table_bytes(), make, use_table)
}

/// Runs `use_table` with this thread's table of type `T`. The first use on a
/// thread, or the first after the budget changed, makes it with
/// `make(bytes)`; later uses get the same table back, with whatever the
/// previous searches left in it (an engine that cannot use stale entries
/// clears them itself). The table is taken out of the cache while
/// `use_table` runs, so a nested use of the same type gets a table of its own
/// (dropped afterwards) instead of a borrow conflict; if `use_table` panics,
/// the table is dropped and the next use makes a new one.
pub fn with_thread_table_sized<T: 'static, R>(
    bytes: usize,
    make: impl FnOnce(usize) -> T,
    use_table: impl FnOnce(&mut T) -> R,
) -> R {
    let key = TypeId::of::<T>();
    let cached = TABLES
        .with(|tables| tables.borrow_mut().remove(&key))
        .filter(|cached| cached.bytes == bytes)
        .and_then(|cached| cached.table.downcast::<T>().ok());
    let mut table = match cached {
        Some(table) => table,
        None => {
            MADE.with(|made| made.set(made.get() + 1));
            Box::new(make(bytes))
        }
    };
    let result = use_table(&mut table);
    // The outermost use puts its table back last, so it is the one kept.
    TABLES.with(|tables| tables.borrow_mut().insert(key, Cached { bytes, table }));
    result
}

/// How many tables [`with_thread_table`] and [`with_thread_table_sized`] have made on the calling thread.
pub fn tables_made_on_this_thread() -> u64 {
    MADE.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_fit_the_budget() {
        assert_eq!(entries_log2(32 << 20, 16), 21);
        assert_eq!(entries_log2((32 << 20) - 1, 16), 20);
        assert_eq!(entries_log2(1 << 20, 24), 15);
        assert_eq!(entries_log2(8, 16), 0);
    }

    #[test]
    fn a_thread_makes_its_table_once_per_budget() {
        std::thread::spawn(|| {
            let make = |bytes: usize| vec![0u8; bytes];
            for _ in 0..3 {
                let len = with_thread_table_sized(1024, make, |t: &mut Vec<u8>| {
                    t[0] += 1;
                    t.len()
                });
                assert_eq!(len, 1024);
            }
            assert_eq!(tables_made_on_this_thread(), 1);
            // The same table came back each time, with what was left in it.
            let seen = with_thread_table_sized(1024, make, |t: &mut Vec<u8>| t[0]);
            assert_eq!(seen, 3);
            // A new budget makes a new table of the new size.
            let len = with_thread_table_sized(2048, make, |t: &mut Vec<u8>| t.len());
            assert_eq!((len, tables_made_on_this_thread()), (2048, 2));
            // A nested use gets a table of its own; the outer one stays cached.
            with_thread_table_sized(2048, make, |outer: &mut Vec<u8>| {
                outer[0] = 7;
                with_thread_table_sized(2048, make, |inner: &mut Vec<u8>| inner[0] = 9);
            });
            assert_eq!(tables_made_on_this_thread(), 3);
            let kept = with_thread_table_sized(2048, make, |t: &mut Vec<u8>| t[0]);
            assert_eq!(kept, 7);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn other_threads_have_their_own_tables() {
        let make = |bytes: usize| vec![0u8; bytes];
        let on = || {
            std::thread::spawn(move || {
                with_thread_table_sized(64, make, |_: &mut Vec<u8>| ());
                with_thread_table_sized(64, make, |_: &mut Vec<u8>| ());
                tables_made_on_this_thread()
            })
        };
        let (a, b) = (on(), on());
        assert_eq!((a.join().unwrap(), b.join().unwrap()), (1, 1));
    }
}
