//! A position: colour and piece-type bitboards plus a mailbox, side to
//! move, first-move rights, en-passant squares, clocks, and an
//! incrementally kept Zobrist key; make/unmake with an undo stack.

use std::sync::Arc;

use crate::board::attacks::{LineCache, PieceMoves};
use crate::board::bitboard::Bitboard;
use crate::position::game::Game;
use crate::position::psq::{PieceSquareTable, PieceSquareValue};
use crate::types::{Color, Move, MoveKind, Piece, Square, MAX_SQUARES};
use crate::variant::definition::MAX_PIECE_TYPES;

/// What make needs to remember for unmake.
#[derive(Clone, Copy, Debug)]
struct Undo<B> {
    played: Move,
    moved: u8,
    captured: u8,
    unmoved: B,
    en_passant: B,
    en_passant_victim: u8,
    en_passant_keyed: bool,
    halfmove: u32,
    key: u64,
}

/// A plain move or capture, as the check tests see it.
struct PlainMove<B> {
    /// The side that moves.
    mover: Color,
    /// The moved piece's type.
    moved: usize,
    from: Square,
    to: Square,
    /// The occupied squares after the move.
    occupied: B,
    /// The squares where the moved piece's first-move parts apply.
    initial: B,
}

/// Whether a plain move attacks the enemy king.
enum KingSeen {
    /// The moved piece attacks it from its new square.
    Directly,
    /// A slider's path to it ran through the origin: test the attacks.
    MaybeUncovered,
    /// Neither: no check.
    Never,
}

/// A position of a variant compiled for bitboard type `B`.
#[derive(Clone, Debug)]
pub struct Position<B: Bitboard> {
    game: Arc<Game<B>>,
    colors: [B; 2],
    types: [B; MAX_PIECE_TYPES],
    board: [u8; MAX_SQUARES],
    side: Color,
    unmoved: B,
    en_passant: B,
    en_passant_victim: u8,
    /// Whether the en-passant squares are in the key: only when an
    /// en-passant capture is legal, so that positions that differ only in
    /// an unusable en-passant field count as the same for repetitions.
    en_passant_keyed: bool,
    halfmove: u32,
    fullmove: u32,
    key: u64,
    history: Vec<Undo<B>>,
    /// The evaluation's piece-square table, when one is installed, and the
    /// sum of its values over the pieces on the board.
    piece_squares: Option<Arc<PieceSquareTable>>,
    piece_square_sum: PieceSquareValue,
}

/// The fields of a position, before the checks that make it a [`Position`].
pub(crate) struct PositionParts<B> {
    pub board: [u8; MAX_SQUARES],
    pub side: Color,
    pub unmoved: B,
    pub en_passant: B,
    pub en_passant_victim: Option<Square>,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl<B: Bitboard> PartialEq for Position<B> {
    /// Two positions are equal when everything FEN and the key describe is
    /// equal (the history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.colors == other.colors
            && self.types == other.types
            && self.board[..] == other.board[..]
            && self.side == other.side
            && self.unmoved == other.unmoved
            && self.en_passant == other.en_passant
            && self.en_passant_victim == other.en_passant_victim
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.key == other.key
    }
}

impl<B: Bitboard> Position<B> {
    /// Builds a position from checked parts (the FEN reader's job).
    pub(crate) fn from_parts(game: Arc<Game<B>>, parts: PositionParts<B>) -> Position<B> {
        let mut position = Position {
            game,
            colors: [B::EMPTY; 2],
            types: [B::EMPTY; MAX_PIECE_TYPES],
            board: [Piece::NONE; MAX_SQUARES],
            side: parts.side,
            unmoved: parts.unmoved,
            en_passant: parts.en_passant,
            en_passant_victim: parts.en_passant_victim.map_or(Piece::NONE, Square::byte),
            en_passant_keyed: false,
            halfmove: parts.halfmove,
            fullmove: parts.fullmove,
            key: 0,
            history: Vec::with_capacity(256),
            piece_squares: None,
            piece_square_sum: PieceSquareValue::default(),
        };
        for (index, &code) in parts.board.iter().enumerate() {
            if code != Piece::NONE {
                position.put(Square::new(index as u8), Piece(code));
            }
        }
        position.en_passant_keyed = position.en_passant.any() && position.has_legal_en_passant();
        position.key = position.compute_key();
        position
    }

    /// The compiled variant.
    #[inline(always)]
    pub fn game(&self) -> &Arc<Game<B>> {
        &self.game
    }
    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// All pieces of `color`.
    #[inline(always)]
    pub fn color_pieces(&self, color: Color) -> B {
        self.colors[color.index()]
    }
    /// All pieces of `piece_type`, both colours.
    #[inline(always)]
    pub fn type_pieces(&self, piece_type: usize) -> B {
        self.types[piece_type]
    }
    /// The pieces of `color` and `piece_type`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, piece_type: usize) -> B {
        self.colors[color.index()] & self.types[piece_type]
    }
    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.colors[0] | self.colors[1]
    }
    /// The piece on `square`, if any.
    #[inline(always)]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let code = self.board[square.index()];
        (code != Piece::NONE).then_some(Piece(code))
    }
    /// The type of the piece `played` captures, if it captures (en
    /// passant: the pawn that passed; castling never captures).
    pub fn captured_type(&self, played: Move) -> Option<usize> {
        match played.kind() {
            MoveKind::EnPassant => self
                .en_passant_victim()
                .and_then(|square| self.piece_at(square))
                .map(|p| p.piece_type()),
            MoveKind::Castling => None,
            _ => self
                .piece_at(Square::new(played.to()))
                .map(|p| p.piece_type()),
        }
    }
    /// The pieces that still hold their first-move right.
    #[inline(always)]
    pub fn unmoved(&self) -> B {
        self.unmoved
    }
    /// The squares a pawn just passed over (empty if the last move was not
    /// a multi-step).
    #[inline(always)]
    pub fn en_passant_squares(&self) -> B {
        self.en_passant
    }
    /// The square of the pawn that may be captured en passant.
    #[inline(always)]
    pub fn en_passant_victim(&self) -> Option<Square> {
        (self.en_passant_victim != Piece::NONE).then_some(Square::new(self.en_passant_victim))
    }
    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// The move number, starting at 1 and increased after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// The Zobrist key, kept incrementally.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// The key [`Position::make_move`] would give after `played`, from the
    /// moving and captured men alone: exact for every move that changes
    /// no first-move right and no en-passant square, and only a guess for
    /// the others. For prefetching the table's entry before the move is
    /// made, never for looking it up.
    #[inline]
    pub fn key_after(&self, played: Move) -> u64 {
        let z = &self.game.zobrist;
        let (from, to) = (Square::new(played.from()), Square::new(played.to()));
        let us = self.side;
        let key = self.key ^ z.side();
        let Some(piece) = self.piece_at(from) else {
            return key;
        };
        let moved_type = if played.kind() == MoveKind::Promotion {
            usize::from(played.extra())
        } else {
            piece.piece_type()
        };
        let key = key ^ z.piece(us, piece.piece_type(), from) ^ z.piece(us, moved_type, to);
        match self.piece_at(to) {
            Some(captured) if played.kind() != MoveKind::Castling => {
                key ^ z.piece(captured.color(), captured.piece_type(), to)
            }
            _ => key,
        }
    }
    /// How many moves have been made since the position was set up.
    #[inline(always)]
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }
    /// The keys of the positions before each move made, oldest first.
    pub fn history_keys(&self) -> impl DoubleEndedIterator<Item = u64> + ExactSizeIterator + '_ {
        self.history.iter().map(|undo| undo.key)
    }

    /// The king square of `color` (positions always have one king a side).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, self.game.king).lsb()
    }

    /// The key computed from scratch; equals [`Position::key`] unless a bug.
    pub fn compute_key(&self) -> u64 {
        let z = &self.game.zobrist;
        let mut key = 0;
        for square in self.occupied().squares() {
            let piece = Piece(self.board[square.index()]);
            key ^= z.piece(piece.color(), piece.piece_type(), square);
        }
        for square in self.unmoved.squares() {
            key ^= z.right(square);
        }
        if self.en_passant.any() && self.has_legal_en_passant() {
            for square in self.en_passant.squares() {
                key ^= z.en_passant(square);
            }
        }
        if self.side == Color::Black {
            key ^= z.side();
        }
        key
    }

    /// The squares where the `i` moves of `piece_type` apply for `color`.
    #[inline(always)]
    pub fn initial_squares(&self, piece_type: usize, color: Color) -> B {
        match &self.game.initial_ranks[piece_type] {
            Some(ranks) => ranks[color.index()],
            None => self.unmoved,
        }
    }

    /// [`Position::initial_squares`] where the piece type has first-move
    /// parts, else none (its move tables never ask): saves the lookup in
    /// the loops over every piece type.
    #[inline(always)]
    pub fn first_move_squares(&self, moves: &PieceMoves<B>, piece_type: usize, color: Color) -> B {
        if moves.first_moves {
            self.initial_squares(piece_type, color)
        } else {
            B::EMPTY
        }
    }

    /// The pieces of `by` that attack `square`, with the board occupied
    /// as in `occupied` (pieces of `by` outside `occupied` still count:
    /// mask the result when some were captured).
    #[inline]
    pub fn attackers(&self, square: Square, by: Color, occupied: B) -> B {
        self.attackers_among::<false>(square, by, occupied, self.colors[by.index()])
    }

    /// Whether any of the pieces `among` (all of colour `by`) attacks
    /// `square` with the board occupied as in `occupied`; stops at the
    /// first attacker found.
    #[inline]
    pub fn is_attacked_by(&self, square: Square, by: Color, occupied: B, among: B) -> bool {
        self.attackers_among::<true>(square, by, occupied, among)
            .any()
    }

    /// The attackers of `square` among `among`; with `FIRST`, only until
    /// one is found.
    #[inline(always)]
    fn attackers_among<const FIRST: bool>(
        &self,
        square: Square,
        by: Color,
        occupied: B,
        among: B,
    ) -> B {
        let game = &*self.game;
        let mut lines = LineCache::new(game.tables(), square, occupied);
        // One lookup tells whether any leap of any piece could reach the square.
        let leaps = (game.leaps_from_any[by.index()][square.index()] & among).any();
        let mut found = B::EMPTY;
        for (piece_type, moves) in game.pieces.iter().enumerate() {
            // Only pieces that could capture on the square on an empty board.
            let pieces = among
                & self.types[piece_type]
                & moves.capture_reach_from[by.index()][square.index()];
            if pieces.any() {
                let initial = self.first_move_squares(moves, piece_type, by);
                found |= moves.attackers(&mut lines, by, pieces, initial, leaps);
                if FIRST && found.any() {
                    return found;
                }
            }
        }
        found
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let king = self.king_square(self.side);
        let them = self.side.flip();
        self.is_attacked_by(king, them, self.occupied(), self.colors[them.index()])
    }

    /// The same as [`Position::in_check`], found faster from the last move
    /// made when it was a plain move or capture: then only the moved piece
    /// from its new square, or a sliding piece uncovered by its leaving,
    /// can give check (the side to move was not in check before, as the
    /// mover's move was legal, and a capture leaves its square occupied).
    pub fn in_check_after_move(&self) -> bool {
        let Some(undo) = self.history.last() else {
            return self.in_check();
        };
        let played = undo.played;
        if played == Move::NULL || played.kind() != MoveKind::Normal {
            return self.in_check();
        }
        let mover = self.side.flip();
        let king = self.king_square(self.side);
        let to = Square::new(played.to());
        let moved = Piece(self.board[to.index()]).piece_type();
        let initial = self.initial_squares(moved, mover);
        let shape = PlainMove {
            mover,
            moved,
            from: Square::new(played.from()),
            to,
            occupied: self.occupied(),
            initial,
        };
        match self.check_by_plain_move(&shape, king) {
            KingSeen::Directly => true,
            KingSeen::Never => false,
            KingSeen::MaybeUncovered => self.in_check(),
        }
    }

    /// Whether `played` (legal here) would give check, found without
    /// making it when it is a plain move or capture: the moved piece from
    /// its new square, or any other piece of ours once the origin is
    /// empty (a discovered check), attacks the enemy king. Other kinds
    /// are made and taken back.
    pub fn gives_check(&mut self, played: Move) -> bool {
        if played.kind() != MoveKind::Normal {
            self.make_move(played);
            let check = self.in_check();
            self.unmake_move();
            return check;
        }
        let us = self.side;
        let king = self.king_square(us.flip());
        let from = Square::new(played.from());
        let to = Square::new(played.to());
        let occupied = (self.occupied() & !B::square(from)) | B::square(to);
        // The moved piece has moved: its first-move parts no longer apply.
        let shape = PlainMove {
            mover: us,
            moved: Piece(self.board[from.index()]).piece_type(),
            from,
            to,
            occupied,
            initial: B::EMPTY,
        };
        match self.check_by_plain_move(&shape, king) {
            KingSeen::Directly => true,
            KingSeen::Never => false,
            KingSeen::MaybeUncovered => {
                let own = self.colors[us.index()] & !B::square(from);
                self.is_attacked_by(king, us, occupied, own)
            }
        }
    }

    /// Whether the plain move `shape` attacks the enemy king on `king`:
    /// the moved piece from its new square (tested exactly), or a slider
    /// of the mover's whose path to the king ran through the origin (then
    /// the caller tests the attacks). It may be asked before or after
    /// the move: the slider test reads the mover's men of `self`, and the
    /// moved piece on its target can only add a false alarm, which the
    /// caller's full test settles.
    fn check_by_plain_move(&self, shape: &PlainMove<B>, king: Square) -> KingSeen {
        let game = &*self.game;
        let tables = game.tables();
        let mover = shape.mover.index();
        let moves = &game.pieces[shape.moved];
        if moves.capture_reach[mover][shape.to.index()].has(king)
            && moves
                .capture_targets(
                    &tables,
                    shape.mover,
                    shape.to,
                    shape.occupied,
                    shape.initial,
                )
                .has(king)
        {
            return KingSeen::Directly;
        }
        if !game.uncovering[mover][king.index()].has(shape.from) {
            return KingSeen::Never;
        }
        let own = self.colors[mover];
        let uncovers = game.pieces.iter().enumerate().any(|(piece_type, moves)| {
            moves.slides
                && (moves.snipe_from[mover][king.index()] & own & self.types[piece_type])
                    .squares()
                    .any(|sniper| tables.path(sniper, king).has(shape.from))
        });
        if uncovers {
            KingSeen::MaybeUncovered
        } else {
            KingSeen::Never
        }
    }

    #[inline(always)]
    fn put(&mut self, square: Square, piece: Piece) {
        let bit = B::square(square);
        self.colors[piece.color().index()] |= bit;
        self.types[piece.piece_type()] |= bit;
        self.board[square.index()] = piece.0;
        if let Some(table) = &self.piece_squares {
            self.piece_square_sum = self.piece_square_sum.plus(table.get(piece, square));
        }
    }

    #[inline(always)]
    fn remove(&mut self, square: Square) -> Piece {
        let piece = Piece(self.board[square.index()]);
        let bit = B::square(square);
        self.colors[piece.color().index()] ^= bit;
        self.types[piece.piece_type()] ^= bit;
        self.board[square.index()] = Piece::NONE;
        if let Some(table) = &self.piece_squares {
            self.piece_square_sum = self.piece_square_sum.minus(table.get(piece, square));
        }
        piece
    }

    /// Installs a piece-square table whose sum over the board this
    /// position keeps up to date from now on (see [`crate::position::psq`]).
    pub fn set_piece_square_table(&mut self, table: Arc<PieceSquareTable>) {
        self.piece_square_sum = self.sum_over_pieces(&table);
        self.piece_squares = Some(table);
    }

    /// The sum of `table` over the pieces on the board: kept up to date
    /// when `table` is the installed table, computed otherwise.
    pub fn piece_square_sum(&self, table: &Arc<PieceSquareTable>) -> PieceSquareValue {
        match &self.piece_squares {
            Some(installed) if Arc::ptr_eq(installed, table) => self.piece_square_sum,
            _ => self.sum_over_pieces(table),
        }
    }

    fn sum_over_pieces(&self, table: &PieceSquareTable) -> PieceSquareValue {
        self.occupied()
            .squares()
            .map(|square| table.get(Piece(self.board[square.index()]), square))
            .fold(PieceSquareValue::default(), PieceSquareValue::plus)
    }

    /// Plays a legal move (from [`Position::legal_moves`]); an illegal one
    /// leaves the position in an unspecified but memory-safe state.
    pub fn make_move(&mut self, played: Move) {
        let from = Square::new(played.from());
        let to = Square::new(played.to());
        let us = self.side;
        self.push_undo(played);
        let previous_victim = self.en_passant_victim;
        let mut key = self.key ^ self.clear_en_passant();
        let mut unmoved = self.unmoved;
        self.halfmove += 1;

        match played.kind() {
            MoveKind::Castling => {
                let rule = self.game.castlings[usize::from(played.extra())].clone();
                let king = self.remove(rule.king_from);
                let partner = self.remove(rule.partner_from);
                self.put(rule.king_to, king);
                self.put(rule.partner_to, partner);
                let z = &self.game.zobrist;
                key ^= z.piece(us, king.piece_type(), rule.king_from)
                    ^ z.piece(us, king.piece_type(), rule.king_to)
                    ^ z.piece(us, partner.piece_type(), rule.partner_from)
                    ^ z.piece(us, partner.piece_type(), rule.partner_to);
                unmoved &= !(B::square(rule.king_from) | B::square(rule.partner_from));
                if rule.keeps_right {
                    unmoved |= B::square(rule.king_to);
                }
            }
            kind => {
                let captured_square = if kind == MoveKind::EnPassant {
                    Square::new(previous_victim)
                } else {
                    to
                };
                if self.board[captured_square.index()] != Piece::NONE {
                    let captured = self.remove(captured_square);
                    key ^= self.game.zobrist.piece(
                        captured.color(),
                        captured.piece_type(),
                        captured_square,
                    );
                    self.halfmove = 0;
                    if let Some(undo) = self.history.last_mut() {
                        undo.captured = captured.0;
                    }
                }
                let piece = self.remove(from);
                if let Some(undo) = self.history.last_mut() {
                    undo.moved = piece.0;
                }
                let moved = if kind == MoveKind::Promotion {
                    Piece::new(us, usize::from(played.extra()))
                } else {
                    piece
                };
                self.put(to, moved);
                key ^= self.game.zobrist.piece(us, piece.piece_type(), from)
                    ^ self.game.zobrist.piece(us, moved.piece_type(), to);
                unmoved &= !(B::square(from) | B::square(to));
                if self.game.is_pawn(piece.piece_type()) {
                    self.halfmove = 0;
                    let passed = self.game.sliders.between(from, to);
                    let forward = self.game.geometry.relative_rank(to, us)
                        > self.game.geometry.relative_rank(from, us);
                    if kind == MoveKind::Normal
                        && passed.any()
                        && forward
                        && self.game.geometry.file_of(from) == self.game.geometry.file_of(to)
                    {
                        self.en_passant = passed;
                        self.en_passant_victim = to.byte();
                    }
                }
            }
        }
        let unmoved = self.game.canonical_rights(unmoved);
        for square in (unmoved ^ self.unmoved).squares() {
            key ^= self.game.zobrist.right(square);
        }
        self.unmoved = unmoved;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = us.flip();
        self.en_passant_keyed = self.en_passant.any() && self.has_legal_en_passant();
        if self.en_passant_keyed {
            for square in self.en_passant.squares() {
                key ^= self.game.zobrist.en_passant(square);
            }
        }
        self.key = key;
    }

    /// Saves what unmake needs to restore before `played` is made.
    #[inline(always)]
    fn push_undo(&mut self, played: Move) {
        self.history.push(Undo {
            played,
            moved: Piece::NONE,
            captured: Piece::NONE,
            unmoved: self.unmoved,
            en_passant: self.en_passant,
            en_passant_victim: self.en_passant_victim,
            en_passant_keyed: self.en_passant_keyed,
            halfmove: self.halfmove,
            key: self.key,
        });
    }

    /// Removes the en-passant squares; returns what to XOR into the key
    /// for that and for the change of side to move.
    #[inline(always)]
    fn clear_en_passant(&mut self) -> u64 {
        let z = &self.game.zobrist;
        let mut change = z.side();
        if self.en_passant_keyed {
            for square in self.en_passant.squares() {
                change ^= z.en_passant(square);
            }
        }
        self.en_passant = B::EMPTY;
        self.en_passant_victim = Piece::NONE;
        self.en_passant_keyed = false;
        change
    }

    /// Passes the move (for null-move pruning): the side to move changes,
    /// en passant is gone, and the halfmove clock restarts so that no
    /// repetition is seen across the pass. Undo with [`Position::unmake_move`].
    pub fn make_null_move(&mut self) {
        self.push_undo(Move::NULL);
        let key = self.key ^ self.clear_en_passant();
        self.halfmove = 0;
        self.side = self.side.flip();
        self.key = key;
    }

    /// Takes back the last move made; does nothing if there is none.
    pub fn unmake_move(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let played = undo.played;
        let from = Square::new(played.from());
        let to = Square::new(played.to());
        self.side = self.side.flip();
        let us = self.side;
        if us == Color::Black && played != Move::NULL {
            self.fullmove -= 1;
        }
        match played.kind() {
            _ if played == Move::NULL => {}
            MoveKind::Castling => {
                let rule = self.game.castlings[usize::from(played.extra())].clone();
                let king = self.remove(rule.king_to);
                let partner = self.remove(rule.partner_to);
                self.put(rule.king_from, king);
                self.put(rule.partner_from, partner);
            }
            kind => {
                self.remove(to);
                self.put(from, Piece(undo.moved));
                if undo.captured != Piece::NONE {
                    let captured_square = if kind == MoveKind::EnPassant {
                        Square::new(undo.en_passant_victim)
                    } else {
                        to
                    };
                    self.put(captured_square, Piece(undo.captured));
                }
            }
        }
        self.unmoved = undo.unmoved;
        self.en_passant = undo.en_passant;
        self.en_passant_victim = undo.en_passant_victim;
        self.en_passant_keyed = undo.en_passant_keyed;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }
}
