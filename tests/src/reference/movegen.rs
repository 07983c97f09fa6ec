//! Piece movement, attacks, making moves and legality.

use super::variant::Variant;
use super::{Color, RefPosition};

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KING8: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// Two squares diagonally (alfil).
const ALFIL: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
/// Two squares orthogonally (dabbaba).
const DABBABA: [(i32, i32); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];

/// What a move does besides carrying a piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveKind {
    /// Any move or capture without side effects (including promotions).
    Normal,
    /// A pawn double or triple step; the squares passed become the ep field.
    PawnMultiStep,
    /// A pawn capturing en passant the pawn standing on `captured`.
    EnPassant { captured: usize },
    /// Castling or re-castling (the king's move); the partner goes too.
    Castle {
        partner_from: usize,
        partner_to: usize,
        recastle: bool,
    },
}

/// A move (pseudo-legal until checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Move {
    pub from: usize,
    pub to: usize,
    /// The upper-case letter of the promoted piece.
    pub promo: Option<char>,
    pub kind: MoveKind,
}

/// How a (non-pawn) piece moves.
enum Pattern {
    /// Jumps to each offset.
    Leap(&'static [(i32, i32)]),
    /// Slides along each direction, at most `range` squares.
    Slide(&'static [(i32, i32)], usize),
    /// Enhanced-courier gryphon: F, then optionally outward as a rook.
    Gryphon,
    /// Courier-moderno elephant: silver general, plus first-move leaps.
    ModernoElephant,
}

const INF: usize = 100;

/// The movement of a non-pawn piece in a variant, and its farthest reach
/// (Chebyshev distance, `INF` for unlimited) used to skip far pieces fast.
fn patterns(v: Variant, kind: char) -> (&'static [Pattern], usize) {
    use Pattern::*;
    use Variant::*;
    match (v, kind) {
        (_, 'K') => (&[Leap(&KING8)], 1),
        (Chess | Excoco, 'Q') => (&[Slide(&KING8, INF)], INF),
        (_, 'R') => (&[Slide(&ORTH, INF)], INF),
        (Chess | Courier | CourierModerno | Excoco, 'B') => (&[Slide(&DIAG, INF)], INF),
        (_, 'N') => (&[Leap(&KNIGHT)], 2),
        // Courier family.
        (Courier | CourierModerno, 'F') => (&[Leap(&DIAG)], 1),
        (Courier | CourierModerno | EnhancedCourier, 'M') => (&[Leap(&KING8)], 1),
        (Courier | CourierModerno, 'W') => (&[Leap(&ORTH)], 1),
        (Courier, 'E') => (&[Leap(&ALFIL)], 2),
        (CourierModerno, 'E') => (&[ModernoElephant], 2),
        (EnhancedCourier, 'C') => (&[Slide(&DIAG, INF)], INF),
        (EnhancedCourier, 'G') => (&[Gryphon], INF),
        (EnhancedCourier, 'E') => (&[Leap(&DIAG), Leap(&ALFIL)], 2),
        (EnhancedCourier, 'W') => (&[Leap(&ORTH), Leap(&DABBABA)], 2),
        // ExCoCo.
        (Excoco, 'V') => (&[Slide(&DIAG, 3)], 3),
        (Excoco, 'T') => (&[Slide(&ORTH, 3)], 3),
        (Excoco, 'D') => (&[Slide(&KING8, 3)], 3),
        (Excoco, 'G') => (&[Leap(&KING8)], 1),
        (Excoco, 'H') => (&[Leap(&KING8), Leap(&KNIGHT)], 2),
        (Excoco, 'E') => (&[Leap(&ALFIL), Leap(&DABBABA)], 2),
        (Excoco, 'M') => (&[Leap(&DIAG), Leap(&ALFIL)], 2),
        (Excoco, 'S') => (&[Leap(&ORTH), Leap(&DABBABA)], 2),
        (Excoco, 'C') => (&[Leap(&DIAG), Leap(&ALFIL), Leap(&ORTH), Leap(&DABBABA)], 2),
        // Pawns are handled apart; parsing admits no other letters.
        _ => (&[], 0),
    }
}

impl RefPosition {
    /// Whether `s` holds a piece of colour `c`.
    fn is_color(&self, s: usize, c: Color) -> bool {
        matches!(self.board[s], Some((pc, _)) if pc == c)
    }

    /// Squares the non-pawn piece on `from` moves or captures to (not
    /// castling), appended to `out`. Squares of its own side are left out.
    fn piece_targets(&self, from: usize, out: &mut Vec<usize>) {
        let Some((color, kind)) = self.board[from] else {
            return;
        };
        let add = |s: usize, out: &mut Vec<usize>| {
            if !self.is_color(s, color) {
                out.push(s);
            }
        };
        for pattern in patterns(self.variant, kind).0 {
            match pattern {
                Pattern::Leap(offsets) => {
                    for &(df, dr) in offsets.iter() {
                        if let Some(t) = self.offset(from, df, dr) {
                            add(t, out);
                        }
                    }
                }
                Pattern::Slide(dirs, range) => {
                    for &(df, dr) in dirs.iter() {
                        self.slide(from, df, dr, *range, color, out);
                    }
                }
                Pattern::Gryphon => {
                    for &(df, dr) in DIAG.iter() {
                        let Some(t) = self.offset(from, df, dr) else {
                            continue;
                        };
                        match self.board[t] {
                            Some((c, _)) if c == color => {}
                            Some(_) => out.push(t),
                            None => {
                                out.push(t);
                                // Outward: away from the start square.
                                self.slide(t, df, 0, INF, color, out);
                                self.slide(t, 0, dr, INF, color, out);
                            }
                        }
                    }
                }
                Pattern::ModernoElephant => {
                    let fwd = color.forward();
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1), (0, fwd)] {
                        if let Some(t) = self.offset(from, df, dr) {
                            add(t, out);
                        }
                    }
                    if self.rights[from] {
                        for (df, dr) in [(2, 2 * fwd), (-2, 2 * fwd), (0, 2 * fwd)] {
                            if let Some(t) = self.offset(from, df, dr) {
                                add(t, out);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Slides from `from` (exclusive) along (df, dr) up to `range` squares,
    /// stopping at the first piece (included if an enemy).
    fn slide(
        &self,
        from: usize,
        df: i32,
        dr: i32,
        range: usize,
        color: Color,
        out: &mut Vec<usize>,
    ) {
        let mut s = from;
        for _ in 0..range {
            let Some(t) = self.offset(s, df, dr) else {
                return;
            };
            match self.board[t] {
                None => out.push(t),
                Some((c, _)) => {
                    if c != color {
                        out.push(t);
                    }
                    return;
                }
            }
            s = t;
        }
    }

    /// Whether side `by` attacks square `target`.
    pub(crate) fn is_attacked(&self, target: usize, by: Color) -> bool {
        let files = self.files() as i32;
        let (tf, tr) = ((target as i32) % files, (target as i32) / files);
        let mut buf = Vec::with_capacity(64);
        for from in 0..self.board.len() {
            let Some((c, kind)) = self.board[from] else {
                continue;
            };
            if c != by {
                continue;
            }
            let (ff, fr) = ((from as i32) % files, (from as i32) / files);
            let (df, dr) = (tf - ff, tr - fr);
            if kind == 'P' {
                if dr == by.forward() && df.abs() == 1 {
                    return true;
                }
                continue;
            }
            let reach = patterns(self.variant, kind).1 as i32;
            if df.abs().max(dr.abs()) > reach {
                continue;
            }
            buf.clear();
            self.piece_targets(from, &mut buf);
            if buf.contains(&target) {
                return true;
            }
        }
        false
    }

    /// The square of side `c`'s king.
    fn king_square(&self, c: Color) -> Option<usize> {
        self.board.iter().position(|p| *p == Some((c, 'K')))
    }

    /// All pseudo-legal moves of the side to move (castling is already
    /// checked for its own conditions).
    fn pseudo_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        for from in 0..self.board.len() {
            match self.board[from] {
                Some((c, 'P')) if c == self.side => self.pawn_moves(from, &mut moves),
                Some((c, _)) if c == self.side => {
                    buf.clear();
                    self.piece_targets(from, &mut buf);
                    for &to in &buf {
                        moves.push(Move {
                            from,
                            to,
                            promo: None,
                            kind: MoveKind::Normal,
                        });
                    }
                }
                _ => {}
            }
        }
        self.castling_moves(&mut moves);
        moves
    }

    /// Pawn pushes, multi-steps, captures, en passant and promotions.
    fn pawn_moves(&self, from: usize, moves: &mut Vec<Move>) {
        let side = self.side;
        let fwd = side.forward();
        let last = match side {
            Color::White => self.ranks() - 1,
            Color::Black => 0,
        };
        let (start, longest) = self.variant.pawn_multi_step();
        let start_rank = match side {
            Color::White => start,
            Color::Black => self.ranks() - 1 - start,
        };
        let push = |to: usize, moves: &mut Vec<Move>| {
            if to / self.files() == last {
                for &p in self.variant.promotions() {
                    moves.push(Move {
                        from,
                        to,
                        promo: Some(p),
                        kind: MoveKind::Normal,
                    });
                }
            } else {
                moves.push(Move {
                    from,
                    to,
                    promo: None,
                    kind: MoveKind::Normal,
                });
            }
        };
        if let Some(one) = self.offset(from, 0, fwd) {
            if self.board[one].is_none() {
                push(one, moves);
                if from / self.files() == start_rank {
                    for steps in 2..=longest as i32 {
                        match self.offset(from, 0, fwd * steps) {
                            Some(t) if self.board[t].is_none() => moves.push(Move {
                                from,
                                to: t,
                                promo: None,
                                kind: MoveKind::PawnMultiStep,
                            }),
                            _ => break,
                        }
                    }
                }
            }
        }
        for df in [-1, 1] {
            let Some(t) = self.offset(from, df, fwd) else {
                continue;
            };
            if self.is_color(t, side.opponent()) {
                push(t, moves);
            } else if self.ep.contains(&t) {
                if let Some(captured) = self.ep_pawn() {
                    moves.push(Move {
                        from,
                        to: t,
                        promo: None,
                        kind: MoveKind::EnPassant { captured },
                    });
                }
            }
        }
    }

    /// The square of the pawn that just made the multi-step in `ep`.
    fn ep_pawn(&self) -> Option<usize> {
        let &last = self.ep.last()?;
        self.offset(last, 0, self.side.opponent().forward())
    }

    /// Castling and re-castling, with all their conditions but the final
    /// "own king not attacked after the move" test.
    fn castling_moves(&self, moves: &mut Vec<Move>) {
        let side = self.side;
        let rank = self.back_rank(side);
        for c in self.variant.castlings(side == Color::White) {
            let kf = self.sq(c.king_from, rank);
            let kt = self.sq(c.king_to, rank);
            let pf = self.sq(c.partner_from, rank);
            let pt = self.sq(c.partner_to, rank);
            if !self.rights[kf]
                || !self.rights[pf]
                || self.board[kf] != Some((side, 'K'))
                || self.board[pf] != Some((side, c.partner_kind))
            {
                continue;
            }
            // Every square between king and partner, and both destinations,
            // empty but for the two castling pieces.
            let (lo, hi) = (
                c.king_from.min(c.partner_from),
                c.king_from.max(c.partner_from),
            );
            let mut must_be_empty: Vec<usize> = (lo + 1..hi).map(|f| self.sq(f, rank)).collect();
            must_be_empty.push(kt);
            must_be_empty.push(pt);
            if must_be_empty
                .iter()
                .any(|&s| s != kf && s != pf && self.board[s].is_some())
            {
                continue;
            }
            // Not in check; no square the king passes over or lands on
            // attacked.
            let step: i32 = if c.king_to > c.king_from { 1 } else { -1 };
            let mut king_path = vec![kf];
            let mut f = c.king_from as i32;
            while f != c.king_to as i32 {
                f += step;
                king_path.push(self.sq(f as usize, rank));
            }
            if king_path
                .iter()
                .any(|&s| self.is_attacked(s, side.opponent()))
            {
                continue;
            }
            moves.push(Move {
                from: kf,
                to: kt,
                promo: None,
                kind: MoveKind::Castle {
                    partner_from: pf,
                    partner_to: pt,
                    recastle: c.recastle,
                },
            });
        }
    }

    /// The position after `mv` (assumed pseudo-legal).
    pub(crate) fn make(&self, mv: &Move) -> RefPosition {
        let mut p = self.clone();
        let side = self.side;
        let mut capture = self.board[mv.to].is_some();
        let piece = p.board[mv.from].take();
        let is_pawn = matches!(piece, Some((_, 'P')));
        p.rights[mv.from] = false;
        p.rights[mv.to] = false;
        p.ep.clear();
        match mv.kind {
            MoveKind::Normal => {}
            MoveKind::PawnMultiStep => {
                let mut s = mv.from;
                while let Some(t) = self.offset(s, 0, side.forward()) {
                    if t == mv.to {
                        break;
                    }
                    p.ep.push(t);
                    s = t;
                }
            }
            MoveKind::EnPassant { captured } => {
                p.board[captured] = None;
                capture = true;
            }
            MoveKind::Castle {
                partner_from,
                partner_to,
                recastle,
            } => {
                let partner = p.board[partner_from].take();
                p.rights[partner_from] = false;
                p.board[partner_to] = partner;
                if self.variant == Variant::Excoco && !recastle {
                    // The castled king may re-castle: its letter moves along.
                    p.rights[mv.to] = true;
                }
            }
        }
        p.board[mv.to] = match (piece, mv.promo) {
            (Some((c, _)), Some(promo)) => Some((c, promo)),
            (piece, None) => piece,
            (None, Some(_)) => None,
        };
        if capture || is_pawn {
            p.halfmove = 0;
        } else {
            p.halfmove += 1;
        }
        if side == Color::Black {
            p.fullmove += 1;
        }
        p.side = side.opponent();
        if self.variant == Variant::Chess {
            p.normalize_chess_rights();
        }
        p
    }

    /// Every legal move with the position it leads to.
    pub(crate) fn legal_children(&self) -> Vec<(Move, RefPosition)> {
        let mut out = Vec::new();
        for mv in self.pseudo_moves() {
            let child = self.make(&mv);
            let safe = match child.king_square(self.side) {
                Some(k) => !child.is_attacked(k, self.side.opponent()),
                None => false,
            };
            if safe {
                out.push((mv, child));
            }
        }
        out
    }

    /// The move in UCI notation.
    pub(crate) fn uci(&self, mv: &Move) -> String {
        let mut s = self.square_name(mv.from);
        s.push_str(&self.square_name(mv.to));
        if let Some(p) = mv.promo {
            s.push(p.to_ascii_lowercase());
        }
        s
    }
}
