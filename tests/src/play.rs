//! Deterministic random play, to reach many positions from the start.

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::position::state::Position;

/// A small deterministic generator (xorshift64*), so every test run
/// visits the same positions.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is replaced).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `position`, calling
/// `visit` on every position reached before its move is chosen (and on
/// the last one). Stops early when there is no legal move. The moves are
/// left made: the position ends where the walk ended.
pub fn random_walk<B: Bitboard>(
    position: &mut Position<B>,
    plies: usize,
    rng: &mut Rng,
    mut visit: impl FnMut(&mut Position<B>),
) {
    for _ in 0..plies {
        visit(position);
        let moves = position.legal_moves();
        if moves.is_empty() {
            return;
        }
        position.make_move(moves[rng.below(moves.len())]);
    }
    visit(position);
}
