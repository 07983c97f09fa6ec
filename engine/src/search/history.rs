//! What the search learns about moves as it goes, to order and reduce
//! them: statistics kept by each search thread across the searches of one
//! game (cleared for a new game, UCI `ucinewgame`).
//!
//! - the main (butterfly) history of quiet moves, by side, from and to;
//! - the capture history, by moving piece, destination and captured type;
//! - countermoves: the quiet move that last refuted a move, by the
//!   refuted move's piece and destination;
//! - continuation histories: how a quiet move (piece type and
//!   destination) fares after a given earlier move of the game (piece,
//!   colour included, and destination), for the move one and two plies
//!   before.
//!
//! All statistics use "history gravity": a bonus `b` moves an entry `h`
//! by `b - h |b| / MAX`, so that entries stay within `+-MAX` and recent
//! results count more than old ones.

use crate::types::Move;

/// The bound of every statistic.
pub const HISTORY_MAX: i32 = 16_384;

/// Where a continuation history's row starts: the entries of one earlier
/// move (piece and destination) for every later move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContinuationRow(usize);

/// The continuation histories are cleared in chunks of this many
/// entries (a power of two): only the chunks written since the last
/// clear, so that a new game does not pay for the whole table (29 MB at
/// ExCoCo, where a game of the efficiency benchmark at 4,000 nodes
/// writes 22% to 46% of its 3,561 chunks).
const CHUNK_SHIFT: u32 = 12;

/// One search thread's move statistics for one game.
#[derive(Clone, Debug)]
pub struct History {
    squares: usize,
    types: usize,
    butterfly: Vec<i16>,
    capture: Vec<i16>,
    counter: Vec<Move>,
    continuation: Vec<i16>,
    /// Whether each chunk of `continuation` was written since the last
    /// clear.
    written: Vec<bool>,
}

/// Applies a bonus (or malus) to a statistic, with gravity.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

impl History {
    /// Empty statistics for a board of `squares` squares and `types`
    /// piece types.
    pub fn new(squares: usize, types: usize) -> History {
        let pieces = 2 * types;
        // One row per (piece, destination), plus the sentinel row of
        // "no earlier move", which is read but never written.
        let continuation = vec![0; (pieces * squares + 1) * types * squares];
        History {
            squares,
            types,
            butterfly: vec![0; 2 * squares * squares],
            capture: vec![0; pieces * squares * types],
            counter: vec![Move::NULL; pieces * squares],
            written: vec![false; continuation.len().div_ceil(1 << CHUNK_SHIFT)],
            continuation,
        }
    }

    /// Whether these statistics fit a board of `squares` squares and
    /// `types` piece types.
    pub fn fits(&self, squares: usize, types: usize) -> bool {
        self.squares == squares && self.types == types
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.capture.fill(0);
        self.counter.fill(Move::NULL);
        for (chunk, written) in self
            .continuation
            .chunks_mut(1 << CHUNK_SHIFT)
            .zip(&mut self.written)
        {
            if *written {
                chunk.fill(0);
                *written = false;
            }
        }
    }

    #[inline(always)]
    fn butterfly_index(&self, side: usize, played: Move) -> usize {
        (side * self.squares + usize::from(played.from())) * self.squares + usize::from(played.to())
    }

    /// The main history of a quiet move of `side` (0 White, 1 Black).
    #[inline(always)]
    pub fn quiet(&self, side: usize, played: Move) -> i32 {
        i32::from(self.butterfly[self.butterfly_index(side, played)])
    }

    /// Adds `bonus` to the main history of a quiet move.
    pub fn update_quiet(&mut self, side: usize, played: Move, bonus: i32) {
        let index = self.butterfly_index(side, played);
        gravity(&mut self.butterfly[index], bonus);
    }

    #[inline(always)]
    fn capture_index(&self, piece_code: usize, to: u8, captured: usize) -> usize {
        (piece_code * self.squares + usize::from(to)) * self.types + captured
    }

    /// The capture history of the piece `piece_code` (colour times types
    /// plus type) taking a `captured` on `to`.
    #[inline(always)]
    pub fn capture(&self, piece_code: usize, to: u8, captured: usize) -> i32 {
        i32::from(self.capture[self.capture_index(piece_code, to, captured)])
    }

    /// Adds `bonus` to a capture's history.
    pub fn update_capture(&mut self, piece_code: usize, to: u8, captured: usize, bonus: i32) {
        let index = self.capture_index(piece_code, to, captured);
        gravity(&mut self.capture[index], bonus);
    }

    /// The move that last refuted the move of `piece_code` to `to`.
    #[inline(always)]
    pub fn counter(&self, piece_code: usize, to: u8) -> Move {
        self.counter[piece_code * self.squares + usize::from(to)]
    }

    /// Remembers `refutation` as the answer to the move of `piece_code`
    /// to `to`.
    pub fn set_counter(&mut self, piece_code: usize, to: u8, refutation: Move) {
        self.counter[piece_code * self.squares + usize::from(to)] = refutation;
    }

    /// The continuation row of an earlier move of `piece_code` to `to`.
    #[inline(always)]
    pub fn row(&self, piece_code: usize, to: u8) -> ContinuationRow {
        ContinuationRow((piece_code * self.squares + usize::from(to)) * self.types * self.squares)
    }

    /// The row of "no earlier move" (a null move, or the root's past):
    /// always zero.
    #[inline(always)]
    pub fn no_row(&self) -> ContinuationRow {
        ContinuationRow(2 * self.types * self.squares * self.types * self.squares)
    }

    /// The continuation history of moving a `piece_type` to `to` after
    /// the earlier move of `row`.
    #[inline(always)]
    pub fn continuation(&self, row: ContinuationRow, piece_type: usize, to: u8) -> i32 {
        i32::from(self.continuation[row.0 + piece_type * self.squares + usize::from(to)])
    }

    /// Adds `bonus` to a continuation history (nothing for the sentinel row).
    pub fn update_continuation(
        &mut self,
        row: ContinuationRow,
        piece_type: usize,
        to: u8,
        bonus: i32,
    ) {
        if row != self.no_row() {
            let index = row.0 + piece_type * self.squares + usize::from(to);
            gravity(&mut self.continuation[index], bonus);
            self.written[index >> CHUNK_SHIFT] = true;
        }
    }
}

/// One [`History`] per search thread, kept between the searches of a
/// game by whoever runs them (a protocol session, a tournament seat).
#[derive(Clone, Debug, Default)]
pub struct SearchHistories {
    threads: Vec<History>,
}

impl SearchHistories {
    /// No statistics yet (they are made to fit the board when used).
    pub fn new() -> SearchHistories {
        SearchHistories::default()
    }

    /// Forgets everything (a new game), keeping the tables.
    pub fn clear(&mut self) {
        for history in &mut self.threads {
            history.clear();
        }
    }

    /// The statistics of `threads` threads for a board of `squares`
    /// squares and `types` piece types: kept when they fit, else new.
    pub fn for_threads(&mut self, threads: usize, squares: usize, types: usize) -> &mut [History] {
        if self
            .threads
            .first()
            .is_some_and(|history| !history.fits(squares, types))
        {
            self.threads.clear();
        }
        while self.threads.len() < threads {
            self.threads.push(History::new(squares, types));
        }
        &mut self.threads[..threads]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded_and_moves_them_toward_the_bonus() {
        let mut entry = 0i16;
        gravity(&mut entry, 1000);
        assert_eq!(entry, 1000);
        // 1000 + 1000 - 1000 * 1000 / 16384 = 2000 - 61.
        gravity(&mut entry, 1000);
        assert_eq!(entry, 1939);
        for _ in 0..10_000 {
            gravity(&mut entry, HISTORY_MAX);
        }
        assert_eq!(i32::from(entry), HISTORY_MAX);
        gravity(&mut entry, -2 * HISTORY_MAX);
        assert_eq!(i32::from(entry), -HISTORY_MAX);
    }

    #[test]
    fn tables_are_independent_and_the_sentinel_row_stays_zero() {
        let mut history = History::new(180, 14);
        let m = Move::normal(179, 0);
        history.update_quiet(1, m, 500);
        assert_eq!(history.quiet(1, m), 500);
        assert_eq!(history.quiet(0, m), 0);
        history.update_capture(27, 179, 13, -300);
        assert_eq!(history.capture(27, 179, 13), -300);
        assert_eq!(history.capture(27, 179, 12), 0);
        history.set_counter(27, 179, m);
        assert_eq!(history.counter(27, 179), m);
        let last = history.row(27, 179);
        history.update_continuation(last, 13, 179, 700);
        assert_eq!(history.continuation(last, 13, 179), 700);
        let none = history.no_row();
        history.update_continuation(none, 13, 179, 700);
        assert_eq!(history.continuation(none, 0, 0), 0);
        assert_eq!(history.continuation(none, 13, 179), 0);
        history.clear();
        assert_eq!(history.continuation(last, 13, 179), 0);
        assert_eq!(history.counter(27, 179), Move::NULL);
    }

    #[test]
    fn a_cleared_history_is_a_new_one() {
        let mut history = History::new(180, 14);
        let mut random = crate::board::test_random(0x5eed);
        let pieces: usize = 2 * 14;
        for _ in 0..5_000 {
            let word = random();
            let row = history.row((word % pieces as u64) as usize, ((word >> 8) % 180) as u8);
            let piece_type = ((word >> 16) % 14) as usize;
            history.update_continuation(row, piece_type, ((word >> 24) % 180) as u8, 900);
        }
        // The very last entry, at the end of the last (partial) chunk.
        history.update_continuation(history.row(pieces - 1, 179), 13, 179, -900);
        history.update_quiet(0, Move::normal(3, 4), 100);
        history.update_capture(1, 2, 3, 100);
        history.set_counter(1, 2, Move::normal(3, 4));
        assert!(
            history
                .continuation
                .iter()
                .filter(|&&entry| entry != 0)
                .count()
                > 4_000
        );
        history.clear();
        let new = History::new(180, 14);
        assert!(history.continuation == new.continuation);
        assert!(history.butterfly == new.butterfly);
        assert!(history.capture == new.capture);
        assert!(history.counter == new.counter);
        assert!(history.written == new.written);
    }

    #[test]
    fn histories_are_kept_for_the_same_board_and_renewed_for_another() {
        let mut histories = SearchHistories::new();
        histories.for_threads(2, 96, 9)[1].update_quiet(0, Move::normal(1, 2), 100);
        assert_eq!(
            histories.for_threads(2, 96, 9)[1].quiet(0, Move::normal(1, 2)),
            100
        );
        assert_eq!(
            histories.for_threads(1, 180, 14)[0].quiet(0, Move::normal(1, 2)),
            0
        );
        histories.for_threads(1, 180, 14)[0].update_quiet(0, Move::normal(1, 2), 100);
        histories.clear();
        assert_eq!(
            histories.for_threads(1, 180, 14)[0].quiet(0, Move::normal(1, 2)),
            0
        );
    }
}
