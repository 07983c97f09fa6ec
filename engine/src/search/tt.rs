//! The transposition table, shared by all search threads without locks.
//!
//! Each slot is two `AtomicU64`: the data word, and a check word that
//! holds the key XOR the data in its upper 48 bits and the static
//! evaluation in its lower 16 (Hyatt's lockless scheme, with 48 bits of
//! key): a torn write from two threads leaves a pair whose check fails,
//! so it reads as a miss instead of wrong data. Slots are grouped in
//! buckets of four, one cache line each; a new entry replaces the one of
//! the same key, else the least worth keeping (shallow, or from an older
//! search). The search asks for a bucket's line ahead of time
//! ([`TranspositionTable::prefetch`]): a probe is mostly the wait for
//! memory.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::types::Move;

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

/// The depth of a quiescence-search entry.
pub const DEPTH_QUIESCENCE: i32 = 0;
/// The depth of an entry that holds only a static evaluation.
pub const DEPTH_UNSEARCHED: i32 = -1;
/// Stored depths are offset by this so that they fit a byte.
const DEPTH_OFFSET: i32 = 1;

/// What the table holds for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found (may be [`Move::NULL`]).
    pub best: Move,
    /// The score, as stored (mate scores relative to the stored node);
    /// meaningful only with a bound.
    pub score: i16,
    /// The static evaluation of the position (side to move's view).
    pub eval: i16,
    /// The depth searched: [`DEPTH_QUIESCENCE`] for quiescence,
    /// [`DEPTH_UNSEARCHED`] for an evaluation alone.
    pub depth: i32,
    /// The bound of `score`; `None` when only the evaluation is known.
    pub bound: Option<Bound>,
    /// Whether the position was on a principal variation when stored.
    pub pv: bool,
}

/// Slots per bucket.
const BUCKET: usize = 4;

/// The part of the check word that verifies the key.
const KEY_MASK: u64 = !0xFFFF;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The slots one key can use, on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

/// A lockless hash table of search results.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

/// A move in 26 bits: its from, to and kind bits (0-17) and its extra
/// byte (24-31) side by side.
fn pack_move(played: Move) -> u64 {
    let bits = u64::from(played.bits());
    (bits & 0x3_FFFF) | (bits >> 24) << 18
}

fn unpack_move(packed: u64) -> Move {
    Move::from_bits(((packed & 0x3_FFFF) | ((packed >> 18) & 0xFF) << 24) as u32)
}

impl Entry {
    /// Data word: move (26 bits), score (16), depth (8), bound (2: 0 for
    /// none), PV flag (1), generation (6).
    fn pack(self, generation: u8) -> u64 {
        pack_move(self.best)
            | u64::from(self.score as u16) << 26
            | u64::from((self.depth + DEPTH_OFFSET).clamp(0, 255) as u8) << 42
            | u64::from(self.bound.map_or(0, |b| b as u8)) << 50
            | u64::from(self.pv) << 52
            | u64::from(generation & 63) << 53
    }

    fn unpack(data: u64, eval: i16) -> Entry {
        let bound = match (data >> 50) & 3 {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        };
        Entry {
            best: unpack_move(data & 0x3FF_FFFF),
            score: (data >> 26) as u16 as i16,
            eval,
            depth: i32::from((data >> 42) as u8) - DEPTH_OFFSET,
            bound,
            pv: (data >> 52) & 1 == 1,
        }
    }
}

/// Asks Linux to back the (not yet touched) allocation of `buckets` with
/// 2 MiB pages where it can: a probe lands on a random line of the
/// table, and with 4 KiB pages nearly every probe of a 64 MiB table also
/// misses the TLB. A hint only, as in Stockfish's large-page allocation;
/// elsewhere, or when the system says no, the table works as before.
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 * 1024 * 1024;
        let start = buckets.as_ptr() as usize;
        let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last > first {
            // SAFETY: the range lies inside the vector's own allocation;
            // MADV_HUGEPAGE changes only how the kernel backs the pages,
            // never their contents, and its failure is harmless.
            // Measured with the prefetch: courier search 22% faster
            // (bench/README, "What the nodes cost now").
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

fn generation_of(data: u64) -> u8 {
    ((data >> 53) & 63) as u8
}

fn stored_depth(data: u64) -> i32 {
    i32::from((data >> 42) as u8) - DEPTH_OFFSET
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(&buckets);
        buckets.resize_with(count, Bucket::default);
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Every slot of the table.
    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|bucket| &bucket.0)
    }

    /// Empties the table (for a new game): afterwards it is a new table
    /// of its size, generation included.
    pub fn clear(&self) {
        for slot in self.slots() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to go.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        // Multiply-shift maps the key evenly onto the buckets.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index].0
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that
    /// a probe soon after need not wait for memory. A hint only: it
    /// changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::board::prefetch::prefetch(self.bucket(key));
    }

    /// Whether a slot's words hold an entry for `key`.
    fn holds(check: u64, data: u64, key: u64) -> bool {
        data != 0 && (check ^ data) & KEY_MASK == key & KEY_MASK
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            TranspositionTable::holds(check, data, key)
                .then(|| Entry::unpack(data, check as u16 as i16))
        })
    }

    /// Stores an entry for `key`; keeps the old best move when the new
    /// entry has none. An entry of the same key is replaced unless it
    /// holds a deeper search of the same generation and the new one is
    /// not exact; otherwise the bucket's least valuable slot goes (depth
    /// minus 8 per search of age).
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if TranspositionTable::holds(check, data, key) {
                let old = Entry::unpack(data, check as u16 as i16);
                if entry.best == Move::NULL {
                    entry.best = old.best;
                }
                let exact = entry.bound == Some(Bound::Exact);
                if !exact
                    && generation_of(data) == generation
                    && old.depth > entry.depth + 3 + 2 * i32::from(entry.pv)
                {
                    return;
                }
                victim = slot;
                break;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & 63);
            let worth = if data == 0 {
                i32::MIN
            } else {
                stored_depth(data) - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = entry.pack(generation);
        victim.data.store(data, Ordering::Relaxed);
        let check = ((key ^ data) & KEY_MASK) | u64::from(entry.eval as u16);
        victim.check.store(check, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .slots()
            .take(sample)
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
    fn a_cleared_table_is_a_new_one() {
        let table = TranspositionTable::new(1);
        let entry = Entry {
            best: Move::normal(1, 2),
            score: 5,
            eval: 6,
            depth: 3,
            bound: Some(Bound::Exact),
            pv: false,
        };
        for key in 1..5_000u64 {
            if key % 1_000 == 0 {
                table.new_search();
            }
            table.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry);
        }
        table.clear();
        let new = TranspositionTable::new(1);
        let words = |table: &TranspositionTable| -> Vec<(u64, u64)> {
            table
                .slots()
                .map(|slot| {
                    (
                        slot.check.load(Ordering::Relaxed),
                        slot.data.load(Ordering::Relaxed),
                    )
                })
                .collect()
        };
        assert!(words(&table) == words(&new));
        assert_eq!(
            table.generation.load(Ordering::Relaxed),
            new.generation.load(Ordering::Relaxed)
        );
    }

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(1);
        let entry = Entry {
            best: Move::promotion(179, 3, 12),
            score: -1234,
            eval: -321,
            depth: 7,
            bound: Some(Bound::Lower),
            pv: true,
        };
        table.store(0xDEAD_BEEF_0000_1234, entry);
        assert_eq!(table.probe(0xDEAD_BEEF_0000_1234), Some(entry));
        assert_eq!(table.probe(0xDEAD_BEF0_0000_1234), None);
        // A new entry without a move keeps the old move.
        table.store(
            0xDEAD_BEEF_0000_1234,
            Entry {
                best: Move::NULL,
                score: 5,
                eval: 17,
                depth: 8,
                bound: Some(Bound::Exact),
                pv: false,
            },
        );
        let found = table.probe(0xDEAD_BEEF_0000_1234).unwrap();
        assert_eq!(found.best, Move::promotion(179, 3, 12));
        assert_eq!((found.score, found.eval, found.depth), (5, 17, 8));
        assert!(table.hashfull() <= 1000);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF_0000_1234), None);
    }

    #[test]
    fn keeps_quiescence_and_evaluation_only_entries_apart() {
        let table = TranspositionTable::new(1);
        for (key, depth, bound) in [
            (1u64 << 40, DEPTH_UNSEARCHED, None),
            (2u64 << 40, DEPTH_QUIESCENCE, Some(Bound::Upper)),
        ] {
            let entry = Entry {
                best: Move::castling(8, 3, 7),
                score: -32000,
                eval: i16::MIN,
                depth,
                bound,
                pv: false,
            };
            table.store(key, entry);
            assert_eq!(table.probe(key), Some(entry));
        }
    }

    #[test]
    fn a_deeper_entry_survives_a_shallow_bound_of_the_same_search() {
        let table = TranspositionTable::new(1);
        let deep = Entry {
            best: Move::normal(1, 2),
            score: 50,
            eval: 0,
            depth: 12,
            bound: Some(Bound::Lower),
            pv: false,
        };
        table.store(77 << 32, deep);
        table.store(
            77 << 32,
            Entry {
                depth: 2,
                bound: Some(Bound::Upper),
                ..deep
            },
        );
        assert_eq!(table.probe(77 << 32), Some(deep));
        // The next search replaces it.
        table.new_search();
        let shallow = Entry { depth: 2, ..deep };
        table.store(77 << 32, shallow);
        assert_eq!(table.probe(77 << 32), Some(shallow));
    }
}
