//! Zobrist keys: one random number per (colour, piece type, square), per
//! first-move right, per en-passant square, and for the side to move.

use crate::types::{Color, Square};
use crate::variant::definition::MAX_PIECE_TYPES;

/// The random numbers of one board size.
#[derive(Clone, Debug)]
pub struct Zobrist {
    pieces: Vec<u64>,
    rights: Vec<u64>,
    en_passant: Vec<u64>,
    side: u64,
    squares: usize,
}

/// SplitMix64: a small, well-mixed generator; fixed seed so that keys are
/// the same in every run.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for a board of `squares` squares.
    pub fn new(squares: usize) -> Zobrist {
        let mut state = 0x4B55_5249_4552u64; // "KURIER"
        let mut take = |count: usize| {
            (0..count)
                .map(|_| split_mix(&mut state))
                .collect::<Vec<u64>>()
        };
        let pieces = take(2 * MAX_PIECE_TYPES * squares);
        let rights = take(squares);
        let en_passant = take(squares);
        let side = split_mix(&mut state);
        Zobrist {
            pieces,
            rights,
            en_passant,
            side,
            squares,
        }
    }

    /// The key of a piece of `color` and `piece_type` on `square`.
    #[inline(always)]
    pub fn piece(&self, color: Color, piece_type: usize, square: Square) -> u64 {
        self.pieces[(color.index() * MAX_PIECE_TYPES + piece_type) * self.squares + square.index()]
    }
    /// The key of a first-move right on `square`.
    #[inline(always)]
    pub fn right(&self, square: Square) -> u64 {
        self.rights[square.index()]
    }
    /// The key of an en-passant square.
    #[inline(always)]
    pub fn en_passant(&self, square: Square) -> u64 {
        self.en_passant[square.index()]
    }
    /// The key toggled when Black is to move.
    #[inline(always)]
    pub fn side(&self) -> u64 {
        self.side
    }
}
