//! The search's evaluation cache: the exact static evaluations of the
//! positions one search has met, by key, direct-mapped.
//!
//! Every search starts with an empty cache, so that what it finds does
//! not depend on the searches before it (a game at a fixed node budget
//! is the same game however and wherever it is played). Emptying is a
//! new generation, not a pass over the cache's megabyte: each thread
//! keeps its table from one search to the next, and an entry counts only
//! in the generation that wrote it. A tuner's game at 4,000 nodes a move
//! spent 1.2% of its time clearing a fresh table for every move.

use std::cell::RefCell;

use crate::board::prefetch::prefetch;

/// Entries of the cache (a power of two).
const ENTRIES: usize = 1 << 16;

/// One entry: the key, its evaluation, and the generation that wrote it.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    score: i32,
    generation: u32,
}

/// A table and the generation its live entries carry.
struct Table {
    slots: Vec<Slot>,
    generation: u32,
}

thread_local! {
    /// The table of this thread's last search, for its next one.
    static SPARE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// One search's evaluation cache (one per search thread).
pub(crate) struct EvalCache {
    table: Table,
}

impl EvalCache {
    /// An empty cache: this thread's table of its last search, emptied,
    /// or a new one.
    pub(crate) fn new() -> EvalCache {
        let spare = SPARE
            .try_with(|spare| spare.borrow_mut().take())
            .ok()
            .flatten();
        let mut table = spare.unwrap_or_else(|| Table {
            slots: vec![Slot::default(); ENTRIES],
            generation: 0,
        });
        table.generation = table.generation.wrapping_add(1);
        if table.generation == 0 {
            // Once in four billion searches: entries of generation 1 from
            // long ago could count again.
            table.slots.fill(Slot::default());
            table.generation = 1;
        }
        EvalCache { table }
    }

    fn index(key: u64) -> usize {
        key as usize & (ENTRIES - 1)
    }

    /// The evaluation stored for `key` by this search (key 0 is never
    /// stored).
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<i32> {
        let slot = self.table.slots[Self::index(key)];
        (slot.key == key && slot.generation == self.table.generation && key != 0)
            .then_some(slot.score)
    }

    /// Stores the exact evaluation `score` of `key`.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64, score: i32) {
        self.table.slots[Self::index(key)] = Slot {
            key,
            score,
            generation: self.table.generation,
        };
    }

    /// Asks for the cache line of `key`'s entry.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(&self.table.slots[Self::index(key)]);
    }
}

impl Drop for EvalCache {
    fn drop(&mut self) {
        let table = Table {
            slots: std::mem::take(&mut self.table.slots),
            generation: self.table.generation,
        };
        // A thread that is ending has no next search: its table goes.
        let _ = SPARE.try_with(|spare| *spare.borrow_mut() = Some(table));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_search_finds_nothing_of_the_last_one() {
        let mut first = EvalCache::new();
        first.insert(12345, 77);
        first.insert(ENTRIES as u64 + 7, -5);
        assert_eq!(first.get(12345), Some(77));
        assert_eq!(first.get(ENTRIES as u64 + 7), Some(-5));
        // Another key in the same slot, and key 0, are not found.
        assert_eq!(first.get(12345 + ENTRIES as u64), None);
        first.insert(0, 9);
        assert_eq!(first.get(0), None);
        drop(first);
        let second = EvalCache::new();
        assert_eq!(second.get(12345), None);
        assert_eq!(second.get(ENTRIES as u64 + 7), None);
    }

    #[test]
    fn the_generation_wraps_to_an_emptied_table() {
        let mut cache = EvalCache::new();
        cache.insert(42, 1);
        cache.table.generation = u32::MAX;
        cache.insert(43, 2);
        drop(cache);
        // The next generation would be 0: the table is emptied and starts
        // again at 1, so that nothing old counts.
        let mut next = EvalCache::new();
        assert_eq!(next.table.generation, 1);
        assert_eq!(next.get(42), None);
        assert_eq!(next.get(43), None);
        next.insert(42, 3);
        assert_eq!(next.get(42), Some(3));
    }
}
