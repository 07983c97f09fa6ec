//! Moves: a small `Copy` value of 32 bits.

/// What kind of move: it decides how make/unmake treats it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal = 0,
    /// A pawn move that promotes.
    Promotion = 1,
    /// A pawn capture en passant.
    EnPassant = 2,
    /// Castling; encoded as the king's move.
    Castling = 3,
}

/// A move: from and to squares (8 bits each), kind (2 bits), and the
/// promotion type or castling index (8 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// No move: a pass in null-move search, or "none" in tables. Never
    /// legal (from and to are the same square).
    pub const NULL: Move = Move(0);

    #[inline(always)]
    const fn pack(from: u8, to: u8, kind: MoveKind, extra: u8) -> Move {
        Move(from as u32 | (to as u32) << 8 | (kind as u32) << 16 | (extra as u32) << 24)
    }
    /// A plain move or capture.
    #[inline(always)]
    pub const fn normal(from: u8, to: u8) -> Move {
        Move::pack(from, to, MoveKind::Normal, 0)
    }
    /// A promotion to `piece_type`.
    #[inline(always)]
    pub const fn promotion(from: u8, to: u8, piece_type: u8) -> Move {
        Move::pack(from, to, MoveKind::Promotion, piece_type)
    }
    /// An en-passant capture (the pawn moves to `to`).
    #[inline(always)]
    pub const fn en_passant(from: u8, to: u8) -> Move {
        Move::pack(from, to, MoveKind::EnPassant, 0)
    }
    /// Castling number `index` of the variant, as the king's move.
    #[inline(always)]
    pub const fn castling(from: u8, to: u8, index: u8) -> Move {
        Move::pack(from, to, MoveKind::Castling, index)
    }
    /// The origin square's index.
    #[inline(always)]
    pub const fn from(self) -> u8 {
        self.0 as u8
    }
    /// The destination square's index.
    #[inline(always)]
    pub const fn to(self) -> u8 {
        (self.0 >> 8) as u8
    }
    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match (self.0 >> 16) & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }
    /// The promotion type or castling index.
    #[inline(always)]
    pub const fn extra(self) -> u8 {
        (self.0 >> 24) as u8
    }
    /// The move whose [`Move::bits`] are `bits`.
    #[inline(always)]
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
    /// The raw 32 bits, for hashing and storage.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::promotion(179, 3, 12);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.extra()),
            (179, 3, MoveKind::Promotion, 12)
        );
        let m = Move::castling(8, 3, 7);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.extra()),
            (8, 3, MoveKind::Castling, 7)
        );
        let m = Move::en_passant(255, 0);
        assert_eq!((m.from(), m.to(), m.kind()), (255, 0, MoveKind::EnPassant));
        assert_eq!(Move::normal(1, 2).kind(), MoveKind::Normal);
    }
}
