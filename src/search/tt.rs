//! A fixed-size transposition table, always-replace with a depth preference.

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

/// One stored search result. `best` is the index of the best move in the
/// position's legal-move list (`u16::MAX` for none).
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    pub best: u16,
}

/// Depth marker for results proven without reaching the horizon: valid at any depth.
pub const PROVEN_DEPTH: u8 = u8::MAX;

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    best: u16::MAX,
};

/// The table: a power-of-two array indexed by the low bits of the hash.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^log2` entries.
    pub fn new(log2: u32) -> Self {
        let size = 1usize << log2;
        Table {
            entries: vec![EMPTY; size],
            mask: size - 1,
        }
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[key as usize & self.mask];
        (entry.key == key && entry.depth > 0).then_some(entry)
    }

    /// Stores a result, keeping a deeper result for the same position.
    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if slot.key != entry.key || entry.depth >= slot.depth || entry.bound == Bound::Exact {
            *slot = entry;
        }
    }
}
