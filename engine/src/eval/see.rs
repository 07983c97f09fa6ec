//! Static exchange evaluation: the material balance of the captures on
//! one square, each side capturing with its least valuable piece and
//! free to stop. Works for every piece of every variant because each step
//! recomputes the attackers with the pieces already used removed (so
//! attacks through them, x-rays, appear).

use crate::board::bitboard::Bitboard;
use crate::eval::evaluate::Evaluator;
use crate::position::state::Position;
use crate::types::{Move, MoveKind, Square};

/// The value a king counts for in exchanges: more than everything else.
const KING_VALUE: i32 = 100_000;

/// Whether `played` and the best sequence of recaptures on its square
/// leave the side to move at least `threshold` centipawns of material
/// up (static exchange evaluation; stops as soon as the answer is known).
pub fn see_at_least<B: Bitboard>(
    position: &Position<B>,
    evaluator: &Evaluator<B>,
    played: Move,
    threshold: i32,
) -> bool {
    if played.kind() == MoveKind::Castling {
        return 0 >= threshold;
    }
    let game = position.game();
    let value = |piece_type: usize| {
        if piece_type == game.king {
            KING_VALUE
        } else {
            evaluator.params().piece_value(piece_type).0
        }
    };
    let from = Square::new(played.from());
    let to = Square::new(played.to());
    let Some(mover) = position.piece_at(from) else {
        return 0 >= threshold;
    };
    let mut occupied = position.occupied() & !B::square(from);
    let captured = match played.kind() {
        MoveKind::EnPassant => {
            if let Some(victim) = position.en_passant_victim() {
                occupied &= !B::square(victim);
            }
            value(mover.piece_type())
        }
        _ => position
            .piece_at(to)
            .map_or(0, |captured| value(captured.piece_type())),
    };
    let (gained, on_square) = if played.kind() == MoveKind::Promotion {
        let promoted = value(usize::from(played.extra()));
        (captured + promoted - value(mover.piece_type()), promoted)
    } else {
        (captured, value(mover.piece_type()))
    };
    // `swap` is what the side that moved last stands to lose if the
    // other side recaptures: the exchange is decided once it is out of
    // reach for one side.
    let mut swap = gained - threshold;
    if swap < 0 {
        return false;
    }
    swap = on_square - swap;
    if swap <= 0 {
        return true;
    }
    // Whether the side to move reaches the threshold if the exchange
    // stops now.
    let mut reached = true;
    let mut side = mover.color();
    loop {
        side = side.flip();
        let attackers = position.attackers(to, side, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        reached = !reached;
        // The least valuable attacker recaptures.
        let (square, attacker_value) = attackers
            .squares()
            .filter_map(|square| {
                position
                    .piece_at(square)
                    .map(|piece| (square, value(piece.piece_type())))
            })
            .min_by_key(|&(_, v)| v)
            .unwrap_or((to, KING_VALUE));
        if attacker_value == KING_VALUE {
            // A king may only take when nothing can take it back.
            let defenders =
                position.attackers(to, side.flip(), occupied & !B::square(square)) & occupied;
            return if defenders.any() { !reached } else { reached };
        }
        swap = attacker_value - swap;
        if swap < i32::from(reached) {
            break;
        }
        occupied &= !B::square(square);
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate::chess_with_suggested_values;

    /// Chess positions with the exchange worked out by hand (Kaufman's
    /// values: pawn 100, knight and bishop 325, rook 500, queen 975).
    #[test]
    fn exchanges_worked_out_by_hand() {
        let (game, evaluator) = chess_with_suggested_values();
        let check = |fen: &str, uci: &str, threshold: i32, expected: bool| {
            let position = Position::from_fen(game.clone(), fen).unwrap();
            let played = position.parse_uci(uci).unwrap();
            assert_eq!(
                see_at_least(&position, &evaluator, played, threshold),
                expected,
                "{fen} {uci} >= {threshold}"
            );
        };
        // Rook takes a pawn defended by a pawn: loses rook for pawn.
        let defended = "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1";
        check(defended, "d1d5", 0, false);
        check(defended, "d1d5", -400, true);
        check(defended, "d1d5", -399, false);
        // The same pawn undefended: a clean pawn up.
        let loose = "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";
        check(loose, "d1d5", 100, true);
        check(loose, "d1d5", 101, false);
        // Knight takes a knight defended by a pawn: even.
        check("4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0, true);
        // Rook takes a knight defended by a rook, backed by a second
        // rook behind it (x-ray): RxN RxR RxR wins a knight.
        let battery = "3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1";
        check(battery, "d2d5", 0, true);
        check(battery, "d2d5", 325, true);
        check(battery, "d2d5", 326, false);
        // A king may not take a defended piece: queen takes a pawn next
        // to the king, defended by a bishop.
        check("8/8/5b2/4p3/3k4/8/4Q3/4K3 w - - 0 1", "e2e5", 0, false);
        // The king takes back only when nothing defends the square.
        check("8/8/8/4p3/3k4/8/4Q3/4K3 w - - 0 1", "e2e5", 0, false);
        check("8/8/8/R3p3/3k4/8/4Q3/4K3 w - - 0 1", "e2e5", 0, true);
    }
}
