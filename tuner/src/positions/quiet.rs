//! Quiet positions: not in check, and the quiescence search equal to the
//! static evaluation; the positions every fit of the evaluation takes.

use kurier_engine::board::bitboard::Bitboard;
use kurier_engine::eval::evaluate::Evaluator;
use kurier_engine::position::state::Position;
use kurier_engine::search::alpha_beta::quiescence_score;

/// Whether `position` is quiet for `evaluator`: not in check, and the
/// quiescence search agrees with the static evaluation.
pub fn is_quiet<B: Bitboard>(position: &Position<B>, evaluator: &Evaluator<B>) -> bool {
    !position.in_check() && quiescence_score(position, evaluator) == evaluator.evaluate(position)
}
