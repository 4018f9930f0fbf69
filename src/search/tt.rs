//! The one transposition table every engine uses: two-slot buckets indexed
//! by a position's hash, where the first slot keeps the entry worth most
//! (deeper and proven results) and the second takes whatever arrives, so a
//! deep result is not lost to a flood of shallow ones, and the newest result
//! is always there.
//!
//! Engines keep their own entry layouts, since what a position's entry holds
//! differs (a score with a [`Bound`] and a depth, or an exact solver's lower
//! and upper bound) and its size matters for speed; they share the table,
//! its buckets and its replacement policy through [`TableEntry`].
//!
//! An empty slot is all zeros, so a new table costs only the memory its
//! search touches ([`ZeroedSlice`]): a short search in a table sized for a
//! long one pays for a few buckets, not for filling the whole table.

use super::memory;
use super::zeroed::ZeroedSlice;
use bytemuck::Zeroable;

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    #[default]
    Upper,
}

// SAFETY: `Bound` is a `u8` (`repr(u8)`) whose value 0 is `Exact`.
unsafe impl Zeroable for Bound {}

impl Bound {
    /// The bound of a score found searching the window `(alpha, beta)`.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored `score` with this bound settles the window `(alpha, beta)`.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// What an engine keeps about one position: its own layout, with the key it
/// recognises the position by. All zeros is an empty slot.
pub trait TableEntry: Copy + Zeroable {
    /// Whether the slot holds a position (never for all zeros).
    fn is_used(&self) -> bool;
    /// How much keeping this entry is worth when another position wants its
    /// slot: the depth searched, more for proven results.
    fn worth(&self) -> u32;
}

/// The transposition table: `2^log2` slots in buckets of two.
pub struct Table<E> {
    slots: ZeroedSlice<E>,
    mask: usize,
}

impl<E: TableEntry> Table<E> {
    /// The smallest table: one bucket.
    const MIN_LOG2: u32 = 1;

    /// A table of `2^log2` slots (at least one bucket of two).
    pub fn new(log2: u32) -> Self {
        let size = 1usize << log2.max(Self::MIN_LOG2);
        debug_assert!(!E::zeroed().is_used(), "all zeros must be an empty slot");
        Table {
            slots: ZeroedSlice::new(size),
            mask: size - 2,
        }
    }

    /// The largest table that fits in `bytes`.
    pub fn within(bytes: usize) -> Self {
        Self::new(Self::log2_within(bytes))
    }

    /// log2 of the most slots that fit in `bytes` (at least one bucket).
    pub fn log2_within(bytes: usize) -> u32 {
        memory::entries_log2(bytes, std::mem::size_of::<E>()).max(Self::MIN_LOG2)
    }

    /// How many slots the table has.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slot at all (never, once made by `new`).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets every entry (a large table's pages go back to the system
    /// and are taken again as the next search touches them).
    pub fn clear(&mut self) {
        self.slots.clear();
    }

    /// The entry of the position with `hash` that `is_position` recognises.
    #[inline]
    pub fn probe(&self, hash: u64, is_position: impl Fn(&E) -> bool) -> Option<E> {
        let at = hash as usize & self.mask;
        let [first, second] = [self.slots[at], self.slots[at + 1]];
        if first.is_used() && is_position(&first) {
            Some(first)
        } else if second.is_used() && is_position(&second) {
            Some(second)
        } else {
            None
        }
    }

    /// Starts loading the slots `hash` maps to into the cache, so that a
    /// probe of them soon after does not wait for memory: a searcher that
    /// will probe several positions issues all their prefetches first. Only
    /// a hint, and nothing at all on CPUs other than x86-64.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let at = hash as usize & self.mask;
            let first = self.slots[at..].as_ptr();
            // The two slots may straddle a cache line: ask for both ends.
            let last = first.wrapping_add(2).cast::<i8>().wrapping_sub(1);
            // SAFETY: SSE, which the prefetch needs, is part of every x86-64
            // CPU; a prefetch reads nothing and cannot fault, whatever the address.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first.cast::<i8>());
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Stores `entry` for the position with `hash`: over the bucket's kept
    /// entry when it is the same position, empty, or worth no more;
    /// otherwise in the bucket's always-replaced slot.
    #[inline]
    pub fn store(&mut self, hash: u64, entry: E, is_position: impl Fn(&E) -> bool) {
        let at = hash as usize & self.mask;
        let kept = self.slots[at];
        let slot = if !kept.is_used() || is_position(&kept) || entry.worth() >= kept.worth() {
            at
        } else {
            at + 1
        };
        self.slots[slot] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default, Debug, PartialEq, Zeroable)]
    struct Probe {
        key: u64,
        depth: u8,
    }

    impl TableEntry for Probe {
        fn is_used(&self) -> bool {
            self.depth > 0
        }
        fn worth(&self) -> u32 {
            self.depth.into()
        }
    }

    fn store(table: &mut Table<Probe>, key: u64, depth: u8) {
        table.store(key, Probe { key, depth }, |e| e.key == key);
    }

    fn probe(table: &Table<Probe>, key: u64) -> Option<u8> {
        table.probe(key, |e| e.key == key).map(|e| e.depth)
    }

    #[test]
    fn a_deep_entry_survives_shallow_ones_that_share_its_bucket() {
        let mut table = Table::<Probe>::new(4);
        store(&mut table, 0, 9);
        store(&mut table, 16, 2); // same bucket, shallower: the second slot
        store(&mut table, 32, 3); // and again: replaces the second slot
        assert_eq!(probe(&table, 0), Some(9));
        assert_eq!(probe(&table, 16), None);
        assert_eq!(probe(&table, 32), Some(3));
        store(&mut table, 48, 12); // deeper: takes the kept slot
        assert_eq!(probe(&table, 48), Some(12));
        assert_eq!(probe(&table, 0), None);
        store(&mut table, 48, 1); // the same position is always updated
        assert_eq!(probe(&table, 48), Some(1));
        table.clear();
        assert_eq!(probe(&table, 48), None);
    }

    #[test]
    fn prefetching_any_bucket_leaves_the_entries_as_they_were() {
        let mut table = Table::<Probe>::new(4);
        for key in 0..16 {
            store(&mut table, key, 3);
        }
        let before: Vec<_> = (0..16).map(|key| probe(&table, key)).collect();
        for hash in [0, 1, 14, 15, u64::MAX, 0x9E37_79B9_7F4A_7C15] {
            table.prefetch(hash);
        }
        let after: Vec<_> = (0..16).map(|key| probe(&table, key)).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn bounds_say_what_a_stored_score_settles() {
        assert_eq!(Bound::of(5, 5, 10), Bound::Upper);
        assert_eq!(Bound::of(10, 5, 10), Bound::Lower);
        assert_eq!(Bound::of(7, 5, 10), Bound::Exact);
        assert!(Bound::Lower.cuts(12, 5, 10) && !Bound::Lower.cuts(7, 5, 10));
        assert!(Bound::Upper.cuts(4, 5, 10) && !Bound::Upper.cuts(7, 5, 10));
    }
}
