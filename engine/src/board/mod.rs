//! The board as data: bitboards, the board's shape, slider rays, attack
//! tables compiled from the pieces' moves, and Zobrist keys.

pub mod attacks;
pub mod bitboard;
pub mod geometry;
pub mod prefetch;
pub mod sliders;
pub mod zobrist;
