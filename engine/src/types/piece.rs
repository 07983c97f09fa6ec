//! Pieces: a colour and a piece type packed in a byte.

use super::Color;

/// A piece on the board: colour and type packed in a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(pub(crate) u8);

impl Piece {
    /// The code of an empty square in the mailbox.
    pub(crate) const NONE: u8 = 0xFF;

    /// A piece of `color` and `piece_type`.
    #[inline(always)]
    pub const fn new(color: Color, piece_type: usize) -> Piece {
        Piece((color as u8) << 4 | piece_type as u8)
    }
    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >> 4 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// The byte that stands for it in the mailbox.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.0
    }
    /// The piece a mailbox byte stands for (colour in bit 4, type below).
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Piece {
        Piece(code & 31)
    }
    /// Its type (index into the variant's pieces).
    #[inline(always)]
    pub const fn piece_type(self) -> usize {
        (self.0 & 15) as usize
    }
}
