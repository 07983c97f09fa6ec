//! The board as data: bitboards, the board's shape, slider rays, attack
//! tables compiled from the pieces' moves, and Zobrist keys.

pub mod attacks;
pub mod bitboard;
pub mod geometry;
pub mod prefetch;
pub mod sliders;
pub mod zobrist;

/// A fixed pseudo-random sequence (xorshift64) for the engine's tests
/// (bitboards, sliders, histories).
#[cfg(test)]
pub(crate) fn test_random(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
