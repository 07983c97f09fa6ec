//! Openings for matches: positions reached by random legal plies from
//! the start, reproducible from a seed.

use kurier_engine::bitboard::Bitboard;
use kurier_engine::position::Position;

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// A position `plies` random legal moves from `start` in which the game
/// is not over; tries further random lines until it finds one.
pub fn random_opening<B: Bitboard>(
    start: &Position<B>,
    plies: usize,
    rng: &mut Rng,
) -> Position<B> {
    loop {
        let mut position = start.clone();
        let mut ended = false;
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() || position.outcome().is_some() {
                ended = true;
                break;
            }
            position.make_move(moves[rng.below(moves.len())]);
        }
        if !ended && position.outcome().is_none() {
            return position;
        }
    }
}
