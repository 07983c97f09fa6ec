//! The transposition table, shared by all search threads without locks.
//!
//! Each slot is two `AtomicU64`: the data word, and the key XOR the data
//! (Hyatt's lockless scheme): a torn write from two threads leaves a pair
//! whose check fails, so it reads as a miss instead of wrong data. Slots
//! are grouped in buckets of four; a new entry replaces the one of the
//! same key, else the shallowest or oldest.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::moves::Move;

/// How a stored score relates to the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this (a fail high).
    Lower = 1,
    /// The true score is at most this (a fail low).
    Upper = 2,
    /// The exact score.
    Exact = 3,
}

/// What the table holds for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found (may be [`Move::NULL`]).
    pub best: Move,
    /// The score, as stored (mate scores relative to the stored node).
    pub score: i16,
    /// The depth searched.
    pub depth: u8,
    /// The bound of `score`.
    pub bound: Bound,
}

/// Slots per bucket.
const BUCKET: usize = 4;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A lockless hash table of search results.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

impl Entry {
    /// Data word: move (32 bits), score (16), depth (8), bound (2),
    /// generation (6).
    fn pack(self, generation: u8) -> u64 {
        u64::from(self.best.bits())
            | u64::from(self.score as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.bound as u8) << 56
            | u64::from(generation & 63) << 58
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            best: Move::from_bits(data as u32),
            score: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound,
        })
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        slots.resize_with(buckets * BUCKET, Slot::default);
        TranspositionTable {
            slots,
            generation: AtomicU8::new(0),
        }
    }

    /// Empties the table (for a new game).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to go.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let buckets = self.slots.len() / BUCKET;
        // Multiply-shift maps the key evenly onto the buckets.
        let index = ((u128::from(key) * buckets as u128) >> 64) as usize;
        &self.slots[index * BUCKET..(index + 1) * BUCKET]
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                Entry::unpack(data)
            } else {
                None
            }
        })
    }

    /// Stores an entry for `key`; keeps the old best move when the new
    /// entry has none.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                if let Some(old) = Entry::unpack(data) {
                    if entry.best == Move::NULL {
                        entry.best = old.best;
                    }
                    // Keep a deeper exact result of this search.
                    if old.depth > entry.depth.saturating_add(2)
                        && old.bound == Bound::Exact
                        && generation_of(data) == generation
                        && entry.bound != Bound::Exact
                    {
                        return;
                    }
                }
                victim = slot;
                break;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & 63);
            let worth = i32::from((data >> 48) as u8) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = entry.pack(generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && generation_of(data) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(1);
        let entry = Entry {
            best: Move::normal(12, 34),
            score: -1234,
            depth: 7,
            bound: Bound::Lower,
        };
        table.store(0xDEAD_BEEF, entry);
        assert_eq!(table.probe(0xDEAD_BEEF), Some(entry));
        assert_eq!(table.probe(0xDEAD_BEF0), None);
        // A new entry without a move keeps the old move.
        table.store(
            0xDEAD_BEEF,
            Entry {
                best: Move::NULL,
                score: 5,
                depth: 8,
                bound: Bound::Exact,
            },
        );
        assert_eq!(
            table.probe(0xDEAD_BEEF).map(|e| e.best),
            Some(Move::normal(12, 34))
        );
        assert!(table.hashfull() <= 1000);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF), None);
    }
}
