//! Piece-square tables: a value for every piece on every square, whose
//! sum over the board a [`Position`](crate::position::state::Position) keeps up
//! to date as moves are made and taken back, so that the evaluation reads
//! material and square terms without looking at the pieces.

use crate::types::{Piece, Square};

/// What one piece on one square adds: middlegame and endgame score
/// (White's point of view) and game-phase material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSquareValue {
    /// Middlegame centipawns, positive for White.
    pub middlegame: i32,
    /// Endgame centipawns, positive for White.
    pub endgame: i32,
    /// Material counted towards the game phase (both colours positive).
    pub phase: i32,
}

impl PieceSquareValue {
    /// The sum of two values.
    #[inline(always)]
    pub fn plus(self, other: PieceSquareValue) -> PieceSquareValue {
        PieceSquareValue {
            middlegame: self.middlegame + other.middlegame,
            endgame: self.endgame + other.endgame,
            phase: self.phase + other.phase,
        }
    }
    /// The difference of two values.
    #[inline(always)]
    pub fn minus(self, other: PieceSquareValue) -> PieceSquareValue {
        PieceSquareValue {
            middlegame: self.middlegame - other.middlegame,
            endgame: self.endgame - other.endgame,
            phase: self.phase - other.phase,
        }
    }
}

/// A value for each (piece, square) of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSquareTable {
    /// `[piece code * squares + square]`.
    values: Vec<PieceSquareValue>,
    squares: usize,
}

/// Piece codes: colour in bit 4, type in bits 0-3.
const PIECE_CODES: usize = 32;

impl PieceSquareTable {
    /// A table for a board of `squares` squares whose entries come from
    /// `value(piece, square)`.
    pub fn new(
        squares: usize,
        mut value: impl FnMut(Piece, Square) -> PieceSquareValue,
    ) -> PieceSquareTable {
        let values = (0..PIECE_CODES)
            .flat_map(|code| (0..squares).map(move |index| (code, index)))
            .map(|(code, index)| value(Piece::from_code(code as u8), Square::new(index as u8)))
            .collect();
        PieceSquareTable { values, squares }
    }

    /// The value of `piece` on `square`.
    #[inline(always)]
    pub fn get(&self, piece: Piece, square: Square) -> PieceSquareValue {
        self.values[usize::from(piece.code()) * self.squares + square.index()]
    }
}
