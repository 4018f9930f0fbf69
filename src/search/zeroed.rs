//! Zero-filled slices for the engines' tables, whose memory costs only
//! what a search touches.
//!
//! A table is made for every search and most of it is never touched by a
//! short one: a depth-one search probes a handful of buckets of a table
//! sized for hundreds of thousands of positions. Filling the whole table
//! with empty slots before the search starts would cost more than the
//! search. A large [`ZeroedSlice`] therefore takes its memory straight from
//! the operating system as an anonymous mapping: the pages read as zeros
//! and are only given real memory when first written, and the whole mapping
//! goes back to the system when the slice is dropped. A small one, or one
//! the system refuses to map, is an ordinary zero-filled allocation.
//!
//! A mapping of many megabytes also asks the system for huge pages (on
//! Linux, `madvise(MADV_HUGEPAGE)`: 2 MiB pages where the kernel's
//! transparent huge pages allow it). A table's probes land at random, so
//! with small pages most of them miss the address translation cache and
//! wait for a page walk before the memory itself; a table that large is
//! made for a long search, which touches nearly all of its pages anyway
//! (figures in docs/reversi-engine.md).
//!
//! Only types whose all-zero bytes are a valid value
//! ([`bytemuck::Zeroable`]) can live in such a slice.

use bytemuck::Zeroable;
use memmap2::MmapMut;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// The size from which a slice is mapped rather than allocated: below it,
/// filling the memory costs less than the system calls of a mapping.
const MAPPED_FROM_BYTES: usize = 1 << 20;

/// The size from which a mapped slice asks for huge pages: below it, the
/// few pages a short search touches would each cost a whole huge page.
const HUGE_PAGES_FROM_BYTES: usize = 32 << 20;

/// A fixed-length slice of `T`, every element all zeros at the start.
pub struct ZeroedSlice<T> {
    memory: Memory<T>,
}

/// Where a [`ZeroedSlice`] keeps its elements.
enum Memory<T> {
    /// An ordinary allocation, filled with zeros when made.
    Heap(Box<[T]>),
    /// An anonymous mapping of at least `len` elements, which holds `T`s
    /// for as long as it lives.
    Mapped {
        map: MmapMut,
        len: usize,
        held: PhantomData<T>,
    },
}

impl<T: Zeroable + Copy> ZeroedSlice<T> {
    /// `len` elements, all zeros.
    pub fn new(len: usize) -> Self {
        let bytes = len.saturating_mul(std::mem::size_of::<T>());
        let memory = if bytes >= MAPPED_FROM_BYTES {
            Self::mapped(len, bytes).unwrap_or_else(|| Self::heap(len))
        } else {
            Self::heap(len)
        };
        ZeroedSlice { memory }
    }

    fn heap(len: usize) -> Memory<T> {
        Memory::Heap(vec![T::zeroed(); len].into_boxed_slice())
    }

    /// A mapping for `len` elements, or `None` where the system refuses one
    /// (or its pages could not hold a `T` at their start).
    fn mapped(len: usize, bytes: usize) -> Option<Memory<T>> {
        let map = MmapMut::map_anon(bytes).ok()?;
        if map.as_ptr().align_offset(std::mem::align_of::<T>()) != 0 {
            return None;
        }
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGES_FROM_BYTES {
            // Only advice: where the system keeps no huge pages, the
            // mapping works as it is.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Some(Memory::Mapped {
            map,
            len,
            held: PhantomData,
        })
    }

    /// Sets every element back to zeros: a mapped slice gives its pages
    /// back and takes new ones as they are touched again.
    pub fn clear(&mut self) {
        match &mut self.memory {
            Memory::Heap(slots) => slots.fill(T::zeroed()),
            Memory::Mapped { .. } => *self = Self::new(self.len()),
        }
    }
}

impl<T> Deref for ZeroedSlice<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.memory {
            Memory::Heap(slots) => slots,
            // SAFETY: the mapping was made for `len` elements, is aligned
            // for `T` (checked when made) and lives as long as `self`; its
            // bytes are zeros or were written as `T`s through `deref_mut`,
            // and zeros are a valid `T` (`Zeroable`, required to make one).
            Memory::Mapped { map, len, .. } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<T>(), *len)
            },
        }
    }
}

impl<T> DerefMut for ZeroedSlice<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.memory {
            Memory::Heap(slots) => slots,
            // SAFETY: as in `deref`; `&mut self` makes this the only borrow.
            Memory::Mapped { map, len, .. } => unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<T>(), *len)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Zeroable)]
    struct Slot {
        key: u64,
        depth: u8,
    }

    #[test]
    fn small_and_large_slices_start_as_zeros_and_keep_what_is_written() {
        for len in [2, 100, (MAPPED_FROM_BYTES / 16) * 3] {
            let mut slice = ZeroedSlice::<Slot>::new(len);
            assert_eq!(slice.len(), len);
            assert!(slice.iter().all(|slot| *slot == Slot::zeroed()));
            slice[len - 1] = Slot { key: 7, depth: 3 };
            slice[0].depth = 1;
            assert_eq!(slice[len - 1], Slot { key: 7, depth: 3 });
            assert_eq!(slice[0].depth, 1);
            slice.clear();
            assert!(slice.iter().all(|slot| *slot == Slot::zeroed()));
        }
    }

    #[test]
    fn a_large_slice_is_mapped_and_a_small_one_is_not() {
        let large = ZeroedSlice::<Slot>::new(MAPPED_FROM_BYTES / 16);
        assert!(matches!(large.memory, Memory::Mapped { .. }));
        let small = ZeroedSlice::<Slot>::new(4);
        assert!(matches!(small.memory, Memory::Heap(_)));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_slice_of_many_megabytes_asks_for_huge_pages_and_a_smaller_one_does_not() {
        let slots = |bytes: usize| bytes / std::mem::size_of::<Slot>();
        let huge = ZeroedSlice::<Slot>::new(slots(HUGE_PAGES_FROM_BYTES));
        let mapped = ZeroedSlice::<Slot>::new(slots(HUGE_PAGES_FROM_BYTES / 2));
        assert!(matches!(mapped.memory, Memory::Mapped { .. }));
        // A kernel built without transparent huge pages refuses the advice
        // (and has no such folder); the slice works all the same.
        let kernel_has_them = std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists();
        assert_eq!(advised_huge(huge.as_ptr() as usize), kernel_has_them);
        assert!(!advised_huge(mapped.as_ptr() as usize));
    }

    /// Whether the mapping holding `address` carries the huge page advice
    /// (`hg` among its `VmFlags` in /proc/self/smaps).
    #[cfg(target_os = "linux")]
    fn advised_huge(address: usize) -> bool {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps");
        let mut inside = false;
        for line in smaps.lines() {
            let range = line
                .split_whitespace()
                .next()
                .and_then(|r| r.split_once('-'));
            if let Some((start, end)) = range {
                if let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                ) {
                    inside = (start..end).contains(&address);
                    continue;
                }
            }
            if let Some(flags) = line.strip_prefix("VmFlags:") {
                if inside {
                    return flags.split_whitespace().any(|flag| flag == "hg");
                }
            }
        }
        panic!("no mapping holds {address:#x}");
    }
}
