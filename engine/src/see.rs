//! Static exchange evaluation: the material balance of the captures on
//! one square, each side capturing with its least valuable piece and
//! free to stop. Works for every piece of every variant because each step
//! recomputes the attackers with the pieces already used removed (so
//! attacks through them, x-rays, appear).

use crate::bitboard::Bitboard;
use crate::eval::Evaluator;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// The value a king counts for in exchanges: more than everything else.
const KING_VALUE: i32 = 100_000;

/// The material the side to move gains by `played` and the best sequence
/// of recaptures on its square (negative: it loses material).
pub fn see<B: Bitboard>(position: &Position<B>, evaluator: &Evaluator<B>, played: Move) -> i32 {
    if played.kind() == MoveKind::Castling {
        return 0;
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
        return 0;
    };
    let mut occupied = position.occupied() & !B::square(from);
    let mut gain = [0i32; 64];
    gain[0] = match played.kind() {
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
    let mut on_square = if played.kind() == MoveKind::Promotion {
        let promoted = usize::from(played.extra());
        gain[0] += value(promoted) - value(mover.piece_type());
        value(promoted)
    } else {
        value(mover.piece_type())
    };
    let mut side = mover.color().flip();
    let mut depth = 0;
    loop {
        let attackers = position.attackers(to, side, occupied) & occupied;
        if attackers.is_empty() || depth + 1 >= gain.len() {
            break;
        }
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
            if defenders.any() {
                break;
            }
        }
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        on_square = attacker_value;
        occupied &= !B::square(square);
        side = side.flip();
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}
