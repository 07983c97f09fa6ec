//! Legal move generation for every variant.
//!
//! Pseudo-legal targets come from the compiled tables; a move is legal
//! without further work when the side to move is not in check and the
//! piece is neither the king nor a possible blocker of an attack on its
//! king (a piece alone on the path between the king and an enemy slider).
//! Every other move (king moves, possible blockers, moves out of check, en
//! passant, castling) is tested by recomputing the attacks on the king
//! with the board as it would be after the move.
//!
//! Moves go to a [`MoveSink`]: a [`MoveList`] collects them, a
//! [`MoveCounter`] only counts (perft's bulk counting at the last ply).

use crate::board::bitboard::Bitboard;
use crate::position::state::Position;
use crate::types::{Color, Move, MoveKind, Square};

/// Receives generated legal moves.
pub trait MoveSink<B> {
    /// One legal move.
    fn add(&mut self, legal: Move);
    /// Legal plain moves from `from` to every square of `targets`.
    fn add_targets(&mut self, from: Square, targets: B);
    /// Legal promotions from `from` to every square of `targets`, one per type.
    fn add_promotions(&mut self, from: Square, targets: B, types: &[u8]);
    /// Whether moves that neither capture nor promote are wanted (when
    /// not, the generator skips testing their legality).
    fn quiet_wanted(&self) -> bool {
        true
    }
}

/// A list of moves.
#[derive(Clone, Debug, Default)]
pub struct MoveList(pub Vec<Move>);

impl<B: Bitboard> MoveSink<B> for MoveList {
    #[inline(always)]
    fn add(&mut self, legal: Move) {
        self.0.push(legal);
    }
    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: B) {
        for to in targets.squares() {
            self.0.push(Move::normal(from.byte(), to.byte()));
        }
    }
    #[inline(always)]
    fn add_promotions(&mut self, from: Square, targets: B, types: &[u8]) {
        push_promotions(&mut self.0, from, targets, types);
    }
}

/// Counts moves without storing them.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveCounter(pub u64);

impl<B: Bitboard> MoveSink<B> for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _legal: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn add_targets(&mut self, _from: Square, targets: B) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn add_promotions(&mut self, _from: Square, targets: B, types: &[u8]) {
        self.0 += u64::from(targets.count()) * types.len() as u64;
    }
}

/// Collects only captures and promotions (for quiescence search).
#[derive(Clone, Debug)]
pub struct TacticalMoves<B> {
    /// Squares of the pieces that may be captured.
    pub enemy: B,
    /// The moves collected.
    pub moves: Vec<Move>,
}

impl<B: Bitboard> MoveSink<B> for TacticalMoves<B> {
    fn quiet_wanted(&self) -> bool {
        false
    }
    #[inline(always)]
    fn add(&mut self, legal: Move) {
        let capture = self.enemy.has(Square::new(legal.to()));
        let tactical = match legal.kind() {
            MoveKind::Normal => capture,
            MoveKind::Promotion | MoveKind::EnPassant => true,
            MoveKind::Castling => false,
        };
        if tactical {
            self.moves.push(legal);
        }
    }
    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: B) {
        for to in (targets & self.enemy).squares() {
            self.moves.push(Move::normal(from.byte(), to.byte()));
        }
    }
    #[inline(always)]
    fn add_promotions(&mut self, from: Square, targets: B, types: &[u8]) {
        push_promotions(&mut self.moves, from, targets, types);
    }
}

/// Collects only the moves that neither capture nor promote (the quiet
/// stage of the search's move picker; [`TacticalMoves`] has the rest).
#[derive(Clone, Debug)]
pub struct QuietMoves<B> {
    /// Squares of the enemy pieces.
    pub enemy: B,
    /// The moves collected.
    pub moves: Vec<Move>,
}

impl<B: Bitboard> MoveSink<B> for QuietMoves<B> {
    #[inline(always)]
    fn add(&mut self, legal: Move) {
        let quiet = match legal.kind() {
            MoveKind::Normal => !self.enemy.has(Square::new(legal.to())),
            MoveKind::Castling => true,
            MoveKind::Promotion | MoveKind::EnPassant => false,
        };
        if quiet {
            self.moves.push(legal);
        }
    }
    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: B) {
        for to in (targets & !self.enemy).squares() {
            self.moves.push(Move::normal(from.byte(), to.byte()));
        }
    }
    #[inline(always)]
    fn add_promotions(&mut self, _from: Square, _targets: B, _types: &[u8]) {}
}

/// Looks for one move among those generated.
struct MoveFinder {
    wanted: Move,
    found: bool,
}

impl<B: Bitboard> MoveSink<B> for MoveFinder {
    #[inline(always)]
    fn add(&mut self, legal: Move) {
        self.found |= legal == self.wanted;
    }
    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: B) {
        self.found |= self.wanted.kind() == MoveKind::Normal
            && self.wanted.from() == from.byte()
            && targets.has(Square::new(self.wanted.to()));
    }
    #[inline(always)]
    fn add_promotions(&mut self, from: Square, targets: B, types: &[u8]) {
        self.found |= self.wanted.kind() == MoveKind::Promotion
            && self.wanted.from() == from.byte()
            && targets.has(Square::new(self.wanted.to()))
            && types.contains(&self.wanted.extra());
    }
}

/// Pushes one promotion per type for every square of `targets`.
#[inline(always)]
fn push_promotions<B: Bitboard>(moves: &mut Vec<Move>, from: Square, targets: B, types: &[u8]) {
    for to in targets.squares() {
        for &piece_type in types {
            moves.push(Move::promotion(from.byte(), to.byte(), piece_type));
        }
    }
}

impl<B: Bitboard> Position<B> {
    /// The legal captures, en-passant captures and promotions.
    pub fn tactical_moves(&self) -> Vec<Move> {
        let mut sink = TacticalMoves {
            enemy: self.color_pieces(self.side_to_move().flip()),
            moves: Vec::with_capacity(32),
        };
        self.generate(&mut sink);
        sink.moves
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList(Vec::with_capacity(128));
        self.generate(&mut list);
        list.0
    }

    /// The number of legal moves.
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Whether the king of the side to move would be safe with the board
    /// occupied as `occupied`, the king on `king`, and the enemy pieces on
    /// `removed` captured.
    #[inline(always)]
    fn king_safe_after(&self, king: Square, occupied: B, removed: B) -> bool {
        let them = self.side_to_move().flip();
        !self.is_attacked_by(king, them, occupied, self.color_pieces(them) & !removed)
    }

    /// Whether the plain move or capture `from`-`to` leaves the mover's king safe.
    #[inline(always)]
    fn safe_move(&self, from: Square, to: Square, king: Square) -> bool {
        let to_bit = B::square(to);
        let occupied = (self.occupied() & !B::square(from)) | to_bit;
        let king_after = if from == king { to } else { king };
        self.king_safe_after(king_after, occupied, to_bit)
    }

    /// Own pieces that may be pinned: each is alone on the path between
    /// the king and an enemy piece that slides to the king on an empty
    /// board. A superset of the pinned pieces.
    #[inline(always)]
    fn possible_blockers(&self, king: Square, us: Color) -> B {
        let game = self.game();
        let them = us.flip();
        let enemy = self.color_pieces(them);
        let occupied = self.occupied();
        let mut snipers = B::EMPTY;
        for (piece_type, moves) in game.pieces.iter().enumerate() {
            if moves.slides {
                snipers |= moves.snipe_from[them.index()][king.index()]
                    & enemy
                    & self.type_pieces(piece_type);
            }
        }
        let tables = game.tables();
        let mut blockers = B::EMPTY;
        for sniper in snipers.squares() {
            let between = tables.path(sniper, king) & occupied;
            if between.any() && !between.several() {
                blockers |= between;
            }
        }
        blockers & self.color_pieces(us)
    }

    /// Generates every legal move into `sink`.
    pub fn generate<S: MoveSink<B>>(&self, sink: &mut S) {
        self.generate_with_checkers(sink, self.checkers());
    }

    /// [`Position::generate`] for a caller that knows whether the side to
    /// move is in check (search knows it from the move that led here):
    /// when not, the attacks on the king need not be computed.
    pub fn generate_knowing_check<S: MoveSink<B>>(&self, sink: &mut S, in_check: bool) {
        let checkers = if in_check { self.checkers() } else { B::EMPTY };
        debug_assert_eq!(checkers, self.checkers(), "wrong check state given");
        self.generate_with_checkers(sink, checkers);
    }

    /// The enemy pieces attacking the king of the side to move.
    fn checkers(&self) -> B {
        let us = self.side_to_move();
        self.attackers(self.king_square(us), us.flip(), self.occupied())
    }

    /// Generates every legal move into `sink`; `checkers` are the enemy
    /// pieces attacking the king of the side to move.
    fn generate_with_checkers<S: MoveSink<B>>(&self, sink: &mut S, checkers: B) {
        self.generate_from(sink, checkers, !B::EMPTY);
    }

    /// Whether `candidate` (a move from anywhere: a table, another
    /// position) is legal here; `in_check` as for
    /// [`Position::generate_knowing_check`]. Generates only the moves of
    /// the piece on its origin.
    pub fn is_legal(&self, candidate: Move, in_check: bool) -> bool {
        let from = Square::new(candidate.from());
        if candidate == Move::NULL
            || !self.color_pieces(self.side_to_move()).has(from)
            || usize::from(candidate.from()) >= self.game().geometry.squares()
        {
            return false;
        }
        let checkers = if in_check { self.checkers() } else { B::EMPTY };
        let mut finder = MoveFinder {
            wanted: candidate,
            found: false,
        };
        self.generate_from(&mut finder, checkers, B::square(from));
        finder.found
    }

    /// Generates the legal moves of the pieces on `origins` into `sink`.
    fn generate_from<S: MoveSink<B>>(&self, sink: &mut S, checkers: B, origins: B) {
        let game = &**self.game();
        let tables = game.tables();
        let us = self.side_to_move();
        let them = us.flip();
        let own = self.color_pieces(us);
        let enemy = self.color_pieces(them);
        let occupied = own | enemy;
        let king = self.king_square(us);

        let zone = game.promotion_zone[us.index()];
        let quiet_wanted = sink.quiet_wanted();
        let wanted = if quiet_wanted {
            game.geometry.board()
        } else {
            enemy | zone
        };
        // What a capture may land on (an en-passant square is empty).
        let capturable = enemy | self.en_passant_squares();
        let king_initial = self.initial_squares(game.king, us);
        if origins.has(king) {
            let (quiet, capture) =
                game.pieces[game.king].targets(&tables, us, king, occupied, king_initial);
            for to in (((quiet & !occupied) | (capture & enemy)) & wanted).squares() {
                if self.safe_move(king, to, king) {
                    sink.add(Move::normal(king.byte(), to.byte()));
                }
            }
        }
        if checkers.several() {
            return;
        }
        let in_check = checkers.any();
        let evasions = if in_check {
            let checker = checkers.lsb();
            B::square(checker) | tables.path(checker, king)
        } else {
            game.geometry.board()
        };
        let blockers = self.possible_blockers(king, us);
        for (piece_type, moves) in game.pieces.iter().enumerate() {
            if piece_type == game.king {
                continue;
            }
            let pieces = own & self.type_pieces(piece_type) & origins;
            if pieces.is_empty() {
                continue;
            }
            let pawn = game.is_pawn(piece_type);
            let initial = self.first_move_squares(moves, piece_type, us);
            for from in pieces.squares() {
                // Without quiet moves, a piece that cannot promote by a
                // quiet move needs only its captures, and none when no
                // capture reaches a piece even on an empty board.
                let (quiet, capture) =
                    if quiet_wanted || (moves.quiet_reach[us.index()][from.index()] & zone).any() {
                        moves.targets(&tables, us, from, occupied, initial)
                    } else if (moves.capture_reach[us.index()][from.index()] & capturable).any() {
                        let capture = moves.capture_targets(&tables, us, from, occupied, initial);
                        (B::EMPTY, capture)
                    } else {
                        continue;
                    };
                let targets = ((quiet & !occupied) | (capture & enemy)) & evasions & wanted;
                if in_check || blockers.has(from) {
                    for to in targets.squares() {
                        if self.safe_move(from, to, king) {
                            if pawn && zone.has(to) {
                                sink.add_promotions(from, B::square(to), &game.promotion_types);
                            } else {
                                sink.add(Move::normal(from.byte(), to.byte()));
                            }
                        }
                    }
                } else if pawn {
                    sink.add_targets(from, targets & !zone);
                    sink.add_promotions(from, targets & zone, &game.promotion_types);
                } else {
                    sink.add_targets(from, targets);
                }
                if pawn {
                    self.generate_en_passant(sink, from, capture, king);
                }
            }
        }
        if !in_check && sink.quiet_wanted() && origins.has(king) {
            self.generate_castling(sink, us, occupied);
        }
    }

    /// Whether the side to move has a legal en-passant capture.
    pub fn has_legal_en_passant(&self) -> bool {
        let game = &**self.game();
        let passed = self.en_passant_squares();
        if passed.is_empty() {
            return false;
        }
        let us = self.side_to_move();
        let king = self.king_square(us);
        let tables = game.tables();
        let mut counter = MoveCounter(0);
        for (piece_type, moves) in game.pieces.iter().enumerate() {
            if !game.is_pawn(piece_type) {
                continue;
            }
            let candidates = passed.squares().fold(B::EMPTY, |acc, square| {
                acc | moves.capture_leaps_from[us.index()][square.index()]
            }) & self.pieces(us, piece_type);
            let initial = self.initial_squares(piece_type, us);
            for from in candidates.squares() {
                let capture = moves.capture_targets(&tables, us, from, self.occupied(), initial);
                self.generate_en_passant(&mut counter, from, capture, king);
            }
        }
        counter.0 > 0
    }

    /// En-passant captures by the pawn on `from` whose capture targets
    /// are `capture`.
    #[inline(always)]
    fn generate_en_passant<S: MoveSink<B>>(
        &self,
        sink: &mut S,
        from: Square,
        capture: B,
        king: Square,
    ) {
        let targets = capture & self.en_passant_squares();
        if targets.is_empty() {
            return;
        }
        let Some(victim) = self.en_passant_victim() else {
            return;
        };
        let victim_bit = B::square(victim);
        for to in targets.squares() {
            let occupied = (self.occupied() & !B::square(from) & !victim_bit) | B::square(to);
            if self.king_safe_after(king, occupied, victim_bit) {
                sink.add(Move::en_passant(from.byte(), to.byte()));
            }
        }
    }

    /// Castling moves of `us` (who is not in check).
    fn generate_castling<S: MoveSink<B>>(&self, sink: &mut S, us: Color, occupied: B) {
        let game = &**self.game();
        let unmoved = self.unmoved();
        let them = us.flip();
        for (index, rule) in game.castlings.iter().enumerate() {
            if rule.color != us
                || !unmoved.has(rule.king_from)
                || !unmoved.has(rule.partner_from)
                || (occupied & rule.must_be_empty).any()
            {
                continue;
            }
            debug_assert_eq!(
                self.piece_at(rule.king_from).map(|p| p.piece_type()),
                Some(game.king)
            );
            debug_assert_eq!(
                self.piece_at(rule.partner_from).map(|p| p.piece_type()),
                Some(rule.partner_type)
            );
            let enemy = self.color_pieces(them);
            if rule
                .king_path
                .squares()
                .any(|square| self.is_attacked_by(square, them, occupied, enemy))
            {
                continue;
            }
            let after = (occupied & !B::square(rule.king_from) & !B::square(rule.partner_from))
                | B::square(rule.king_to)
                | B::square(rule.partner_to);
            if self.king_safe_after(rule.king_to, after, B::EMPTY) {
                sink.add(Move::castling(
                    rule.king_from.byte(),
                    rule.king_to.byte(),
                    index as u8,
                ));
            }
        }
    }
}
